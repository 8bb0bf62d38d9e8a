"""The vocabulary's reads and writes: the build's state, concepts' votes and totals, the links
and BROADER edges the vocabulary pass makes (``kg.vocabulary`` runs the pass; what it is, there).

Each batch of a build (``kg.store.load``) notes in a :class:`BatchNames` what the pass at the
end must redo; ``kg.vocabulary.Names`` adds the names found everywhere.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from kg.graph import CONCEPT_LABELS
from kg.store import Store, concept_quality
from kg.store.batches import batched
from kg.store.schema import _checked

PAGE = 500
EVER = math.inf  # "changed after every batch": stored abstracts are matched against the concept again
TYPE_OF_RELATIONSHIP = {"PROPOSES": "Method", "USES": "Method", "ADDRESSES": "Task", "EVALUATES_ON": "Dataset",
                        "MEASURES": "Metric", "INVOLVES": "Entity", "IN_DOMAIN": "Domain"}
LINK_FIELDS = ("spelling", "evidence", "start", "end", "confidence", "mentions")
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
# the text index (kg.textsim) tells which stored abstracts may write a name: its words and their papers
INDEXED_WORDS = "MATCH (t:Term) RETURN t.id AS id, t.df AS df"
PAPERS_OF_WORDS = """
UNWIND $words AS word
MATCH (:Term {id: word})-[:OCCURS_IN]->(p:Paper)
RETURN word, p.id AS id, p.stamp AS stamp
"""
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
    abstracts: int = 0     # stored abstracts the pass read again (those that may write a name that came later)
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


class BatchNames:
    """What the batches of a build note for the pass at the end: the concepts to vote again, their
    totals, the links made. Alone (``kg.store.load.load_rows`` without names) it finds no name in
    an abstract: the graph of the batch alone; ``kg.vocabulary.Names`` finds them."""

    def __init__(self, first: int):
        self.first = first                       # the build's first batch stamp
        self.totals: dict[str, Totals] = {}      # concept -> its stored totals, while untouched
        self.touched: set[str] = set()           # stored concepts later batches named, linked or re-dated
        self.links = 0                           # MENTIONS edges the batches made

    def learn(self, concept: str, found, stamp: float) -> None:
        """``concept`` is written ``found`` by a paper of batch ``stamp`` (no names kept here)."""

    def links_of(self, paper: str, text: str, own: set[str], spelled: set[str]) -> dict[str, dict]:
        """The vocabulary's links of a paper's abstract ``text`` (none here)."""
        return {}

    def forget(self, concept: str) -> None:
        """A deleted concept."""
        self.totals.pop(concept, None)
        self.touched.discard(concept)


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


def write_votes(store: Store, votes: dict[str, dict], gained: dict[str, Totals], known: dict[str, Totals],
                report: VocabularyReport) -> None:
    """Store what changed: the votes with their totals (the links of the pass included), one
    write a concept and none where nothing changed; the totals alone of the other concepts the
    pass linked (``known``: their totals as the build knows them)."""
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
    totals = [{"id": cid, **_plus(known.get(cid, Totals()), delta).properties()}
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


