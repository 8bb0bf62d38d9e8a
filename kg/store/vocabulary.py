"""The vocabulary of a build: concepts voted, names found everywhere, broader links.

Each batch of a build (``kg.store.load``) creates its new concepts with the vote of its own
papers, and links its abstracts to every name the build knows so far (:class:`Names`, held in
memory). What a later batch changes is left to one pass at the end of the build:

1. **Vote**: a concept that later batches named or linked again gets its type anew, the one
   most of its papers read it as (ties: more mentions, then the order of
   ``kg.graph.CONCEPT_LABELS``); its name is the spelling most papers use (ties: the longer,
   then the first in alphabetical order); its aliases are the other spellings; its ``papers``
   count the papers naming it. Each mention edge keeps the type it was read with. A concept
   named in one batch only keeps what it was created with (no write).
2. **Link**: an abstract writes a concept's name where no extractor read it: ``(:Paper)-
   [:MENTIONS {extractor: "vocabulary"}]->(:Concept)`` with its evidence sentence. The pass
   matches stored abstracts only against the concepts whose names changed after the abstract's
   batch (a name added, or a spelling that now names another concept, or none).
3. **Broader**: ``(:Concept)-[:BROADER]->(:Concept)`` from a name to the longest shorter name
   it ends with that is itself a concept ("bilingual parallel corpus" -> "parallel corpus").

Every paper carries the stamp of the batch that stored its abstract (``Paper.stamp``), and one
``(:BuildState)`` node the last stamp given and the last one the pass finished (``linked``),
so the pass writes no flag per paper or concept. A build killed before its pass ends leaves
stamps after ``linked``: the next build finishes them first, in full.

The graph is the one a single pass over all papers would give, whatever the batches.
Memory holds the vocabulary (names and aliases), never the corpus: abstracts are read in pages.

>>> from kg.store import open_store
>>> with open_store("kg-data") as store:               # doctest: +SKIP
...     finish_vocabulary(store).links
120
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field

from kg.extract.normalize import GENERIC_HEADS, KNOWN_SHORT_FORMS, concept_key, singular
from kg.extract.vocabulary import NameMatcher, sentence_at, short_acronym
from kg.graph import CONCEPT_LABELS
from kg.store import Store, concept_quality
from kg.store.batches import batched
from kg.store.schema import _checked

PAGE = 500
VOCABULARY_CONFIDENCE = 0.6
EVER = math.inf  # "changed after every batch": stored abstracts are matched against the concept again
TYPE_OF_RELATIONSHIP = {"PROPOSES": "Method", "USES": "Method", "ADDRESSES": "Task", "EVALUATES_ON": "Dataset",
                        "MEASURES": "Metric", "INVOLVES": "Entity", "IN_DOMAIN": "Domain"}
LINK_FIELDS = ("spelling", "evidence", "start", "end", "confidence", "mentions")
# One-word names too general to be anybody's broader concept ("bilingual corpus" is no "corpus").
NOT_BROADER = GENERIC_HEADS | frozenset(
    "network system data dataset task problem corpus benchmark metric score set function process analysis learning "
    "result performance tool feature information representation training study work".split())

STATE = "MATCH (s:BuildState {id: 'build'}) RETURN s.stamp AS stamp, s.linked AS linked"
SET_STAMP = "MERGE (s:BuildState {id: 'build'}) SET s.stamp = $stamp"
SET_LINKED = "MERGE (s:BuildState {id: 'build'}) SET s.linked = $linked, s.stamp = coalesce(s.stamp, $linked)"
CONCEPTS = """
MATCH (c:Concept)
RETURN c.id AS id, c.type AS type, c.name AS name, c.aliases AS aliases, c.papers AS papers, c.mentions AS mentions,
       c.years AS years, c.year_papers AS year_papers, c.quality AS quality, c.rated AS rated, c.salience AS salience
"""
# the concepts named by papers of an unfinished build (stored after the last finished stamp)
NAMED_SINCE = "MATCH (p:Paper) WHERE p.stamp > $linked MATCH (p)-->(c:Concept) RETURN DISTINCT c.id AS id"
# concepts of a graph built before concept totals and batch stamps: voted and matched once more
UNTALLIED = "MATCH (c:Concept) WHERE c.mentions IS NULL RETURN c.id AS id"
OLD_FLAGS = "MATCH (p:Paper) WHERE p.linked IS NOT NULL REMOVE p.linked"
# the concepts to vote as stored, then their edges: extracted ones vote, all of them make the totals
# (two reads: the concept's properties repeated on each of its edges' rows cost three times as much)
CONCEPTS_AS_STORED = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
RETURN id, labels(c) AS labels, c.type AS type, c.name AS name, c.aliases AS aliases, c.papers AS papers,
       c.mentions AS mentions, c.years AS years, c.year_papers AS year_papers, c.quality AS quality, c.rated AS rated,
       c.salience AS salience
"""
CONCEPT_EDGES = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})<-[r]-(p:Paper)
RETURN id, p.id AS paper, p.year AS year, type(r) AS rel, r.name AS name, r.spellings AS spellings, r.mentions AS mentions,
       r.salience AS salience
"""
# One write per concept that changed: its vote and totals; the label changed only where the vote did
# (ArcadeDB updates cost milliseconds a row where creates cost a tenth of one).
SET_VOTES = """
UNWIND $rows AS row
MATCH (c:Concept {id: row.id})
SET c.type = row.type, c.name = row.name, c.aliases = row.aliases, c.papers = row.papers,
    c.mentions = row.mentions, c.years = row.years, c.year_papers = row.year_papers, c.quality = row.quality,
    c.rated = row.rated, c.salience = row.salience
"""
# A type label is added, then the old one removed, each by a statement of its own: ArcadeDB (26.10)
# runs a statement with two label changes right for its first 100 rows only; from the 101st on it
# leaves the row's node without either label and writes the rest of the row onto another node.
ADD_LABEL = "UNWIND $ids AS id MATCH (c:Concept {{id: id}}) SET c:{label}"
REMOVE_LABEL = "UNWIND $ids AS id MATCH (c:Concept {{id: id}}) REMOVE c:{label}"
SET_TOTALS = """
UNWIND $rows AS row
MATCH (c:Concept {id: row.id})
SET c.papers = row.papers, c.mentions = row.mentions, c.years = row.years, c.year_papers = row.year_papers,
    c.quality = row.quality, c.rated = row.rated, c.salience = row.salience
"""
PAPERS_WITH_ABSTRACTS = "MATCH (p:Paper) WHERE coalesce(p.abstract, '') <> '' RETURN p.id AS id, p.stamp AS stamp"
ABSTRACTS = "UNWIND $ids AS id MATCH (p:Paper {id: id}) RETURN p.id AS id, p.abstract AS abstract, p.year AS year"
# a paper's own concepts and spellings (a paper's reading wins) and its vocabulary links
EDGES_OF_PAPERS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[r]->(c:Concept)
RETURN id, c.id AS concept, type(r) AS rel, r.spellings AS spellings, r.spelling AS spelling, r.evidence AS evidence,
       r.start AS start, r.end AS end, r.confidence AS confidence, r.mentions AS mentions
"""
# links to a concept through spellings that name it no more (an acronym two papers define differently)
LINKS_SPELLED = """
UNWIND $rows AS row
MATCH (c:Concept {id: row.concept})<-[r:MENTIONS]-(p:Paper)
WHERE r.spelling IN row.spellings
RETURN p.id AS paper, c.id AS concept
"""
# Edges are created after a read that finds the existing ones (one writer per store): ArcadeDB
# (26.x) fails a MERGE of edges that touches one node from several rows of an UNWIND.
CREATE_LINKS = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MATCH (c:Concept {id: row.concept})
CREATE (p)-[:MENTIONS {evidence: row.evidence, start: row.start, end: row.end, confidence: row.confidence,
    extractor: 'vocabulary', spelling: row.spelling, mentions: row.mentions}]->(c)
"""
DROP_LINKS = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})-[r:MENTIONS]->(c:Concept {id: row.concept})
DELETE r
"""
MENTIONS_IN_GRAPH = "MATCH (:Paper)-[r:MENTIONS]->(:Concept) RETURN count(r) AS count"
BROADER_EDGES = "MATCH (a:Concept)-[:BROADER]->(b:Concept) RETURN a.id AS narrower, b.id AS broader"
CREATE_BROADER = """
UNWIND $rows AS row
MATCH (a:Concept {id: row.narrower})
MATCH (b:Concept {id: row.broader})
CREATE (a)-[:BROADER]->(b)
"""
DROP_BROADER = """
UNWIND $rows AS row
MATCH (a:Concept {id: row.narrower})-[r:BROADER]->(b:Concept {id: row.broader})
DELETE r
"""


@dataclass
class VocabularyReport:
    concepts: int = 0      # concepts whose vote or totals the end of the build changed
    relabelled: int = 0    # of which the type label changed
    links: int = 0         # MENTIONS edges new or changed (in the batches and by the pass; none on a rebuild)
    linked: int = 0        # MENTIONS edges in the graph
    broader: int = 0       # BROADER edges in the graph
    seconds: float = 0.0   # the pass's time

    def line(self) -> str:
        """The build summary's line, what this build changed: ``Vocabulary: 746 concepts voted anew (3 typed
        anew), ...``; a rebuild of an unchanged graph votes none anew and writes no link."""
        return (f"Vocabulary: {self.concepts} concepts voted anew ({self.relabelled} typed anew), {self.linked} links "
                f"where an abstract writes a concept's name ({self.links} new or changed by this build), {self.broader} "
                f"broader-concept links ({self.seconds:.1f} s).")


def build_state(store: Store) -> tuple[int, int]:
    """(the last batch stamp given, the last one the vocabulary pass finished); (0, 0) for a new graph."""
    rows = store.run(STATE)
    return (rows[0]["stamp"] or 0, rows[0]["linked"] or 0) if rows else (0, 0)


def unfinished_pass(store: Store) -> bool:
    """Whether the store holds batches whose vocabulary pass did not end (a killed build), or
    concepts of a graph built before concept totals: the next build first finishes them."""
    stamp, linked = build_state(store)
    return stamp > linked or bool(store.run(UNTALLIED + " LIMIT 1"))


def set_stamp(store: Store, stamp: int) -> None:
    """Record ``stamp`` as given (in the transaction of the batch that uses it)."""
    store.run(SET_STAMP, {"stamp": stamp}, write=True)


def spellings_of(concept: str, name: str | None, aliases) -> set[str]:
    """The spellings a concept is found by: its name, its aliases and the known short forms of its
    key; not a two-letter acronym some paper defined ("TG" of triglyceride is thermogravimetry in
    another paper, ``short_acronym``), which links only the papers that define it.

    >>> sorted(spellings_of("triglyceride", "triglyceride", ["triglycerides", "TG"]))
    ['triglyceride', 'triglycerides']
    >>> sorted(spellings_of("machine translation", "machine translation", ["MT"])), spellings_of("sd", None, ["SD"])
    (['MT', 'machine translation'], {'SD'})
    """
    aliases = [a for a in aliases or [] if not short_acronym(a) or concept_key(a) == concept]  # "SD" of concept sd stays
    return {s for s in [name, *aliases, *KNOWN_SHORT_FORMS.get(concept, ())] if s}


@dataclass
class Totals:
    """What a concept's edges add up to, kept on the concept for the packs that rank concepts:
    the papers naming it (any edge, vocabulary links too), the ``mentions`` of those edges, the
    papers naming it in each year, its ``salience``: the mean salience in the ``rated`` papers
    that extracted it (the higher of a paper's two readings; vocabulary links have no salience),
    and from these, its ``name`` and ``type`` its ``quality`` (``kg.store.concept_quality``).

    >>> t = Totals.of([{"paper": "a", "year": 2020, "mentions": 2, "salience": 0.9},
    ...                {"paper": "a", "year": 2020, "mentions": None, "salience": 0.5},
    ...                {"paper": "b", "year": None, "mentions": 1}, {"paper": "c", "year": 2021, "mentions": 1, "salience": 0.6}],
    ...               "graph attention network", "Method")
    >>> {k: v for k, v in t.properties().items() if k != "quality"}
    {'papers': 3, 'mentions': 5, 'years': [2020, 2021], 'year_papers': [1, 1], 'salience': 0.75, 'rated': 2}
    """

    papers: int = 0
    mentions: int = 0
    years: Counter = field(default_factory=Counter)
    salience: float = 0.0  # summed over the ``rated`` papers that extracted the concept
    rated: int = 0
    name: str = ""
    type: str = ""

    @classmethod
    def of(cls, edges, name: str, type_: str) -> Totals:
        """From edges ``{paper, year, mentions, salience}`` (one paper may have several) of the concept ``name`` of type ``type_``."""
        years = {e["paper"]: e["year"] for e in edges}
        rated: dict[str, float] = {}
        for e in edges:
            if e.get("salience") is not None:
                rated[e["paper"]] = max(rated.get(e["paper"], 0.0), e["salience"])
        return cls(len(years), sum(e["mentions"] or 1 for e in edges), Counter(y for y in years.values() if y is not None),
                   math.fsum(rated.values()), len(rated), name, type_)  # fsum: the same salience whatever order the edges come in

    @classmethod
    def stored(cls, row: dict) -> Totals:
        rated = row.get("rated") or 0
        # a graph built before concept qualities were fitted kept the mean salience as its quality
        mean = row.get("salience") if row.get("salience") is not None else row.get("quality")
        return cls(row["papers"] or 0, row["mentions"] or 0, Counter(dict(zip(row["years"] or [], row["year_papers"] or []))),
                   (mean or 0.0) * rated, rated, row.get("name") or "", row.get("type") or "")

    def add(self, year: int | None, mentions: int, sign: int = 1) -> None:
        """One paper's link more (``sign`` -1: less)."""
        self.papers += sign
        self.mentions += sign * (mentions or 1)
        if year is not None:
            self.years[year] += sign

    def properties(self) -> dict:
        years = sorted(y for y, n in self.years.items() if n)
        salience = round(self.salience / self.rated, 3) if self.rated else None
        quality = (concept_quality.quality(self.name, salience, self.rated, self.papers, self.mentions, self.type)
                   if self.rated else None)
        return {"papers": self.papers, "mentions": self.mentions, "years": years, "year_papers": [self.years[y] for y in years],
                "salience": salience, "quality": quality, "rated": self.rated}


class Names:
    """The names a build knows so far: every concept's spellings, which concept each spelling
    names (its own key's concept, else the one concept that has it as an alias, else none: an
    acronym two papers define differently names neither), and the stamp of the batch in which
    each concept's names last changed, so the pass matches a stored abstract only against
    concepts whose names changed after it was linked.

    >>> names = Names(first=1)
    >>> names.add("breast cancer", {"Breast cancer", "BC"}, 1)
    >>> names.add("bladder cancer", {"Bladder cancer", "BC"}, 2)
    >>> names.names("BC"), names.changed["breast cancer"]
    (None, 2)
    >>> [m.concept for m in names.find("Breast cancer (BC) and BC.")]
    ['breast cancer']
    """

    def __init__(self, first: int):
        self.first = first                       # the build's first batch stamp
        self.spellings: dict[str, set[str]] = {}  # concept -> spellings (Domain concepts aside)
        self.totals: dict[str, Totals] = {}      # concept -> its stored totals, while untouched
        self.owners: dict[str, set[str]] = {}    # spelling -> concepts having it
        self.changed: dict[str, float] = {}      # concept -> stamp its names last changed
        self.touched: set[str] = set()           # stored concepts later batches named, linked or re-dated
        self.dropped: dict[str, set[str]] = {}   # concept -> spellings it had and lost (stale links)
        self.links = 0                           # MENTIONS edges the batches made
        self._own: dict[str, str] = {}           # spelling -> its concept key
        self._matcher = NameMatcher({})
        self._in_matcher: set[tuple[str, str]] = set()

    @classmethod
    def stored(cls, store: Store, first: int) -> Names:
        """The names of every stored concept."""
        names = cls(first)
        for row in store.stream(CONCEPTS):
            names.totals[row["id"]] = Totals.stored(row)
            if not row["id"].startswith("domain:"):  # the taxonomy's own vocabulary is not matched
                names.add(row["id"], spellings_of(row["id"], row["name"], row["aliases"]), 0)
        return names

    def names(self, spelling: str) -> str | None:
        """The concept ``spelling`` names now, or None."""
        owners = self.owners.get(spelling, ())
        own = self._own.get(spelling)
        if own in owners:
            return own
        return next(iter(owners)) if len(owners) == 1 else None

    def add(self, concept: str, spellings, stamp: float) -> None:
        """``concept`` is found by ``spellings`` from batch ``stamp`` on."""
        known = self.spellings.setdefault(concept, set())
        for spelling in sorted(set(spellings) - known):
            before = self.names(spelling)
            known.add(spelling)
            self.owners.setdefault(spelling, set()).add(concept)
            if spelling not in self._own:
                self._own[spelling] = concept_key(spelling)
            if (spelling, concept) not in self._in_matcher:
                self._in_matcher.add((spelling, concept))
                self._matcher.add(spelling, concept)
            self._moved(spelling, before, stamp)
        self.changed.setdefault(concept, stamp)

    def forget(self, concept: str) -> None:
        """A deleted concept: the spellings it had may name another one now, after every batch."""
        for spelling in sorted(self.spellings.pop(concept, ())):
            before = self.names(spelling)
            self.owners[spelling].discard(concept)
            self._moved(spelling, before, EVER)
        self.changed.pop(concept, None)
        self.totals.pop(concept, None)
        self.touched.discard(concept)

    def renamed(self, concept: str, spellings) -> None:
        """The spellings the vote gives ``concept`` at the end; where they differ from those the
        batches knew (a paper extracted again named it no more), every abstract is matched anew."""
        spellings, known = set(spellings), self.spellings.setdefault(concept, set())
        if spellings == known:
            return
        for spelling in sorted(known - spellings):
            before = self.names(spelling)
            known.discard(spelling)
            self.owners[spelling].discard(concept)
            self.dropped.setdefault(concept, set()).add(spelling)
            self._moved(spelling, before, EVER)
        self.add(concept, spellings, EVER)
        self.changed[concept] = EVER

    def _moved(self, spelling: str, before: str | None, stamp: float) -> None:
        after = self.names(spelling)
        if after != before:
            for concept in (before, after):
                if concept is not None:
                    self.changed[concept] = max(self.changed.get(concept, stamp), stamp)

    def find(self, text: str) -> list:
        """The names written in ``text`` (``kg.extract.vocabulary.NameMatch``), each to the concept it names now."""
        return [m for m in self._matcher.find(text) if self.names(m.spelling) == m.concept]


def paper_links(paper: str, text: str, matches, own: set[str], spelled: set[str]) -> dict[str, dict]:
    """The MENTIONS link of ``paper`` to each concept whose name ``text`` writes: its first
    occurrence (evidence sentence, offsets, spelling) and how many there are. A paper's own
    reading wins: none to a concept it names itself, none through a spelling it uses itself
    (an acronym it defines, in the singular or the plural: "risk ratios (RRs)" is no "RR"
    another paper defined).

    >>> from kg.extract.vocabulary import NameMatch
    >>> text = "We derived pooled risk ratios (RRs) with random effects models."
    >>> paper_links("p", text, [NameMatch(31, 34, "resonance raman", "RR")], set(), {"risk ratios", "RRs"})
    {}
    """
    spelled = {singular(s) for s in spelled}
    found: dict[str, dict] = {}
    for match in sorted(matches, key=lambda m: _first(m, text)):
        if match.concept in own or singular(match.spelling) in spelled:
            continue
        if match.concept in found:
            found[match.concept]["mentions"] += 1
            continue
        begin, end = sentence_at(text, match.start)
        found[match.concept] = {"paper": paper, "concept": match.concept, "spelling": match.spelling,
                                "evidence": text[begin:end], "start": match.start, "end": match.end,
                                "confidence": VOCABULARY_CONFIDENCE, "mentions": 1}
    return found


def _first(match, text: str) -> tuple:
    """The order of a text's matches: by position; at one position the spelling as written
    first, then one in lower case, then alphabetical (whatever order the names came in).

    >>> from kg.extract.vocabulary import NameMatch
    >>> sorted(["Infection", "infection"], key=lambda s: _first(NameMatch(4, 14, "infection", s), "Two infections"))
    ['infection', 'Infection']
    """
    written = text[match.start:match.end]
    spelling = match.spelling
    return (match.start, match.end, spelling != written, spelling.lower() != written.lower(), spelling != spelling.lower(),
            spelling, match.concept)


def finish_vocabulary(store: Store, names: Names | None = None) -> VocabularyReport:
    """End a build: vote the concepts later batches changed, link stored abstracts to the names
    that came after them, and keep BROADER edges current; a second run with nothing new changes
    nothing. ``names``: the build's :class:`Names` (without it, or when a killed build left
    batches before this one, every paper stored since the last finished pass is linked in full).

    Votes are written last, with the links each concept gained or lost, so a concept is written
    once; a pass killed before it ends is run again by the next build.
    """
    started = time.perf_counter()
    report = VocabularyReport()
    stamp, linked = build_state(store)
    full_after = None  # papers stamped after this are linked against every name
    if names is None or names.first != linked + 1:
        names, full_after = unfinished(store, linked), linked
    votes = vote_concepts(store, names.touched)
    for cid, row in votes.items():
        if not cid.startswith("domain:"):
            names.renamed(cid, spellings_of(cid, row["name"], row["aliases"]))
    gained = relink(store, names, linked, full_after, report)
    write_votes(store, votes, gained, names, report)
    link_broader(store, sorted(names.spellings), report)
    report.links += names.links
    report.linked = store.run(MENTIONS_IN_GRAPH)[0]["count"]
    if stamp != linked:
        store.run(SET_LINKED, {"linked": stamp}, write=True)
    report.seconds = time.perf_counter() - started
    return report


def unfinished(store: Store, linked: int) -> Names:
    """The names of a store whose last build did not finish its pass: every concept that papers
    stored since then name is voted and matched against every stored abstract again."""
    names = Names.stored(store, first=linked + 1)
    named = {row["id"] for row in store.stream(NAMED_SINCE, {"linked": linked})}
    untallied = {row["id"] for row in store.stream(UNTALLIED)}
    if untallied:
        store.run(OLD_FLAGS, write=True)
    named |= untallied
    names.touched |= named
    for cid in named & set(names.spellings):
        names.changed[cid] = EVER
    return names


def vote_concepts(store: Store, ids: set[str]) -> dict[str, dict]:
    """The vote of these concepts from their edges (nothing written): id -> type, name, aliases,
    totals (:class:`Totals`), and what the concept holds now (labels, stored)."""
    votes: dict[str, dict] = {}
    for page in batched(sorted(ids), PAGE):
        stored = {row.pop("id"): row for row in store.run(CONCEPTS_AS_STORED, {"ids": page})}
        edges: dict[str, list[dict]] = {}
        for row in store.run(CONCEPT_EDGES, {"ids": page}):
            edges.setdefault(row["id"], []).append(row)
        for cid, rows in edges.items():
            extracted = [e for e in rows if e["rel"] != "MENTIONS"]
            now = stored[cid]
            labels = tuple(sorted(set(now.pop("labels")) & set(CONCEPT_LABELS)))
            row = vote(cid, extracted) if extracted else {k: now[k] for k in ("type", "name", "aliases")}
            votes[cid] = {**row, "totals": Totals.of(rows, row["name"], row["type"]), "labels": labels, "stored": now}
    return votes


def relink(store: Store, names: Names, linked: int, full_after: int | None,
           report: VocabularyReport) -> dict[str, Totals]:
    """Match stored abstracts against the names that changed after their batch (every name for
    papers stamped after ``full_after``); create, drop or redo the links that differ. Returns the
    change of each concept's totals."""
    changed = {cid for cid, at in names.changed.items() if at > linked}
    gained: dict[str, Totals] = {}
    if not changed and full_after is None:
        return gained
    forced = links_spelled_otherwise(store, names, changed)
    latest = max((names.changed[cid] for cid in changed), default=0)
    papers = [(row["id"], row["stamp"] or 0) for row in store.stream(PAPERS_WITH_ABSTRACTS)]
    papers = [(pid, at) for pid, at in papers if at < latest or pid in forced or (full_after is not None and at > full_after)]
    for page in batched(papers, PAGE):
        _relink_page(store, names, dict(page), changed, full_after, forced, gained, report)
    return gained


def links_spelled_otherwise(store: Store, names: Names, changed: set[str]) -> dict[str, set[str]]:
    """paper -> concepts it links through a spelling that names the concept no more."""
    rows = []
    for cid in sorted(changed):
        spellings = sorted(s for s in names.spellings.get(cid, set()) | names.dropped.get(cid, set()) if names.names(s) != cid)
        if spellings:
            rows.append({"concept": cid, "spellings": spellings})
    forced: dict[str, set[str]] = {}
    for page in batched(rows, PAGE):
        for row in store.run(LINKS_SPELLED, {"rows": page}):
            forced.setdefault(row["paper"], set()).add(row["concept"])
    return forced


def _relink_page(store: Store, names: Names, stamps: dict[str, float], changed: set[str], full_after: int | None,
                 forced: dict[str, set[str]], gained: dict[str, Totals], report: VocabularyReport) -> None:
    texts, years = {}, {}
    for row in store.run(ABSTRACTS, {"ids": sorted(stamps)}):
        texts[row["id"]], years[row["id"]] = row["abstract"] or "", row["year"]
    wanted: dict[str, tuple[set[str] | None, list]] = {}  # paper -> (the concepts to redo, or None: all; matches)
    for pid, text in texts.items():
        if full_after is not None and stamps[pid] > full_after:
            wanted[pid] = (None, names.find(text))
            continue
        # the names that changed after this abstract was linked, and its links through stale spellings
        matches = [m for m in names.find(text) if names.changed.get(m.concept, 0) > stamps[pid]]
        redo = {m.concept for m in matches} | forced.get(pid, set())
        if redo:
            wanted[pid] = (redo, matches)
    if not wanted:
        return
    own: dict[str, set[str]] = {}
    spelled: dict[str, set[str]] = {}
    existing: dict[str, dict[str, dict]] = {}
    for row in store.run(EDGES_OF_PAPERS, {"ids": sorted(wanted)}):
        if row["rel"] == "MENTIONS":
            existing.setdefault(row["id"], {})[row["concept"]] = {k: row[k] for k in LINK_FIELDS}
        else:
            own.setdefault(row["id"], set()).add(row["concept"])
            spelled.setdefault(row["id"], set()).update(row["spellings"] or [])
    drop, create = [], []
    for pid, (redo, matches) in wanted.items():
        found = paper_links(pid, texts[pid], matches, own.get(pid, set()), spelled.get(pid, set()))
        had = existing.get(pid, {})
        for cid in sorted(set(found) | {c for c in had if redo is None or c in redo}):
            new, old = found.get(cid), had.get(cid)
            if new is not None and old is not None and all(new[k] == old[k] for k in LINK_FIELDS):
                continue
            if old is not None:
                drop.append({"paper": pid, "concept": cid})
                gained.setdefault(cid, Totals()).add(years[pid], old["mentions"], -1)
            if new is not None:
                create.append(new)
                gained.setdefault(cid, Totals()).add(years[pid], new["mentions"])
    store.run_batches(DROP_LINKS, drop, PAGE)
    store.run_batches(CREATE_LINKS, create, PAGE)
    report.links += len(create)


def write_votes(store: Store, votes: dict[str, dict], gained: dict[str, Totals], names: Names,
                report: VocabularyReport) -> None:
    """Store what changed: the votes with their totals (the links of the pass included), one
    write a concept and none where nothing changed; the totals alone of the other concepts the
    pass linked."""
    rows, added, removed = [], {}, {}
    for cid, row in sorted(votes.items()):
        new = {"type": row["type"], "name": row["name"], "aliases": row["aliases"],
               **_plus(row["totals"], gained.get(cid)).properties()}
        if all(row["stored"].get(k) == v for k, v in new.items()) and row["labels"] == (row["type"],):
            continue
        rows.append({"id": cid, **new})
        if row["labels"] != (row["type"],):
            report.relabelled += 1
            if row["type"] not in row["labels"]:
                added.setdefault(row["type"], []).append(cid)
            for label in row["labels"]:
                if label != row["type"]:
                    removed.setdefault(label, []).append(cid)
    store.run_batches(SET_VOTES, rows, PAGE)
    report.concepts += len(rows)
    relabel(store, ADD_LABEL, added)  # first, so that a concept never lacks a type label
    relabel(store, REMOVE_LABEL, removed)
    totals = [{"id": cid, **_plus(names.totals.get(cid, Totals()), delta).properties()}
              for cid, delta in sorted(gained.items()) if cid not in votes]
    store.run_batches(SET_TOTALS, totals, PAGE)


def relabel(store: Store, query: str, ids_by_label: dict[str, list[str]]) -> None:
    """``ADD_LABEL`` or ``REMOVE_LABEL`` for each label's concepts: one label change a statement."""
    for label, ids in sorted(ids_by_label.items()):
        query_for_label = query.format(label=_checked(label, CONCEPT_LABELS))
        for page in batched(ids, PAGE):
            store.run(query_for_label, {"ids": page}, write=True)


def _plus(totals: Totals, delta: Totals | None) -> Totals:
    if delta is None:
        return totals
    # links change no salience (the quality may change: it reads the papers too)
    return Totals(totals.papers + delta.papers, totals.mentions + delta.mentions, totals.years + delta.years,
                  totals.salience, totals.rated, totals.name, totals.type)


def vote(concept: str, edges: list[dict]) -> dict:
    """The type, name and aliases that a concept's mention edges give it.

    >>> vote("learning rate", [{"rel": "ADDRESSES", "name": "learning rate", "spellings": ["learning rate"], "mentions": 1},
    ...     {"rel": "MEASURES", "name": "learning rates", "spellings": ["learning rates"], "mentions": 2},
    ...     {"rel": "MEASURES", "name": "learning rates", "spellings": ["learning rates", "LR"], "mentions": 1}])
    {'id': 'learning rate', 'type': 'Metric', 'name': 'learning rates', 'aliases': ['LR', 'learning rate']}
    """
    papers: Counter = Counter()
    mentions: Counter = Counter()
    names: Counter = Counter()
    for edge in edges:
        type_ = TYPE_OF_RELATIONSHIP.get(edge["rel"])
        if type_ is None:
            continue
        papers[type_] += 1
        mentions[type_] += edge.get("mentions") or 1
        if edge.get("name"):
            names[edge["name"]] += 1
    type_ = min(papers, key=lambda t: (-papers[t], -mentions[t], CONCEPT_LABELS.index(t)))
    name = _most_used(names) if names else concept
    spellings = {s for edge in edges for s in edge.get("spellings") or []}
    aliases = sorted({s for s in spellings if s != name})
    return {"id": concept, "type": type_, "name": name, "aliases": aliases}


def _most_used(names: Counter) -> str:
    """The spelling most papers use, case folded (ties: more words, so a long form before its
    acronym; then the shorter, so a singular before its plural; then alphabetical), written as
    most of them write it; a capital only at the start (a sentence's first word) loses a tie.

    >>> _most_used(Counter({"precisions": 1, "precision": 1})), _most_used(Counter({"LoRA": 1, "low-rank adaptation": 1}))
    ('precision', 'low-rank adaptation')
    """
    folded: Counter = Counter()
    for name, count in names.items():
        folded[name.lower()] += count
    best = min(folded, key=lambda n: (-folded[n], -len(n.split()), len(n), n))
    variants = [n for n in names if n.lower() == best]
    return min(variants, key=lambda n: (-names[n], n[:1].isupper() and n[1:] == best[1:], n))


def broader_edges(concept_ids: list[str]) -> set[tuple[str, str]]:
    """(narrower, broader) pairs: each concept to the longest shorter concept its name ends with.

    >>> sorted(broader_edges(["bilingual parallel corpus", "parallel corpus", "corpus", "statistical alignment technique",
    ...                       "alignment technique"]))
    [('bilingual parallel corpus', 'parallel corpus'), ('statistical alignment technique', 'alignment technique')]
    """
    ids = set(concept_ids)
    edges = set()
    for cid in ids:
        words = cid.split()
        for i in range(1, len(words)):
            suffix = " ".join(words[i:])
            if suffix in ids and not (i == len(words) - 1 and suffix in NOT_BROADER):
                edges.add((cid, suffix))
                break
    return edges


def link_broader(store: Store, concept_ids: list[str], report: VocabularyReport) -> None:
    """Make the stored BROADER edges those of ``broader_edges``."""
    wanted = broader_edges(concept_ids)
    stored = {(row["narrower"], row["broader"]) for row in store.stream(BROADER_EDGES)}
    store.run_batches(CREATE_BROADER, [{"narrower": a, "broader": b} for a, b in sorted(wanted - stored)], PAGE)
    store.run_batches(DROP_BROADER, [{"narrower": a, "broader": b} for a, b in sorted(stored - wanted)], PAGE)
    report.broader = len(wanted)

