"""The vocabulary pass of a build: concepts voted, names found everywhere, broader links.

Each batch of a build (``kg.store.load``, its reads and writes in ``kg.store.vocabulary``) creates its new concepts with the vote of its own
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
   batch (a name added, or a spelling that now names another concept, or none), and reads only
   the abstracts that the text index (``kg.textsim``) says may write one of those names
   (:func:`papers_writing`): a build of a few papers into a large graph reads few of them.
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

import bisect
import time

from kg.lexicon import load
from kg.name_matching import NameMatcher, index_prefixes, sentence_at, short_acronym
from kg.normalize import GENERIC_HEADS, KNOWN_SHORT_FORMS, concept_key, singular
from kg.store import Store
from kg.store.batches import batched
from kg.store.reads import text as text_reads
from kg.store.vocabulary import (
    ABSTRACTS,
    BROADER_EDGES,
    CONCEPTS,
    CREATE_BROADER,
    CREATE_LINKS,
    DROP_BROADER,
    DROP_LINKS,
    EDGES_OF_PAPERS,
    EVER,
    INDEXED_WORDS,
    LINK_FIELDS,
    LINKS_SPELLED,
    MENTIONS_IN_GRAPH,
    NAMED_SINCE,
    OLD_FLAGS,
    PAGE,
    PAPERS_OF_WORDS,
    PAPERS_WITH_ABSTRACTS,
    SET_LINKED,
    UNTALLIED,
    BatchNames,
    Totals,
    VocabularyReport,
    build_state,
    vote_concepts,
    write_votes,
)
from kg.textsim import INDEX_ID

VOCABULARY_CONFIDENCE = 0.6
# the end of a build reads every stored abstract when the text index's papers for the names that
# came later would be this share of them or more (a first build: most abstracts write some later name)
READ_ALL_AT = 1.0
# One-word names too general to be anybody's broader concept ("bilingual corpus" is no "corpus").
NOT_BROADER = GENERIC_HEADS | load.words("not_broader")


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


class Names(BatchNames):
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
        super().__init__(first)
        self.spellings: dict[str, set[str]] = {}  # concept -> spellings (Domain concepts aside)
        self.owners: dict[str, set[str]] = {}    # spelling -> concepts having it
        self.changed: dict[str, float] = {}      # concept -> stamp its names last changed
        self.dropped: dict[str, set[str]] = {}   # concept -> spellings it had and lost (stale links)
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

    def learn(self, concept: str, found, stamp: float) -> None:
        """``concept`` is written ``found`` by a paper of batch ``stamp``: found by those spellings from then on."""
        self.add(concept, spellings_of(concept, None, found), stamp)

    def links_of(self, paper: str, text: str, own: set[str], spelled: set[str]) -> dict[str, dict]:
        """The vocabulary's links of ``paper`` whose abstract is ``text`` (``paper_links``)."""
        return paper_links(paper, text, self.find(text), own, spelled)

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
        super().forget(concept)

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
        """The names written in ``text`` (``kg.name_matching.NameMatch``), each to the concept it names now."""
        return [m for m in self._matcher.find(text) if self.names(m.spelling) == m.concept]


def paper_links(paper: str, text: str, matches, own: set[str], spelled: set[str]) -> dict[str, dict]:
    """The MENTIONS link of ``paper`` to each concept whose name ``text`` writes: its first
    occurrence (evidence sentence, offsets, spelling) and how many there are. A paper's own
    reading wins: none to a concept it names itself, none through a spelling it uses itself
    (an acronym it defines, in the singular or the plural: "risk ratios (RRs)" is no "RR"
    another paper defined).

    >>> from kg.name_matching import NameMatch
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

    >>> from kg.name_matching import NameMatch
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
    write_votes(store, votes, gained, names.totals, report)
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
    writing = None if full_after is not None else papers_writing(store, names, changed)
    if writing is None:
        papers = [(row["id"], row["stamp"] or 0) for row in store.stream(PAPERS_WITH_ABSTRACTS)]
        papers = [(pid, at) for pid, at in papers if at < latest or pid in forced or (full_after is not None and at > full_after)]
    else:
        for pid in forced:  # a link through a spelling it lost: as stored before every change (more matched, none wrong)
            writing.setdefault(pid, 0)
        papers = sorted(writing.items())
    report.abstracts += len(papers)
    for page in batched(papers, PAGE):
        _relink_page(store, names, dict(page), changed, full_after, forced, gained, report)
    return gained


def papers_writing(store: Store, names: Names, changed: set[str]) -> dict[str, float] | None:
    """paper -> its stamp, for the stored papers whose text has, for some name of a concept in
    ``changed``, a word beginning with each prefix of one of its words (``index_prefixes``: the
    name's rarest word in the text index) and that were stored before that concept changed: the
    only abstracts that may write a name that came after them. None when the text index cannot
    tell (a name of no indexed word) or when its papers would be as many as reading every abstract."""
    indexed = text_reads.document_frequencies(store, INDEX_ID, [])
    if not indexed or not indexed[0]:
        return None
    words = sorted((row["id"], row["df"]) for row in store.stream(INDEXED_WORDS))
    if any(df is None for _, df in words):  # a graph indexed before document frequencies were kept
        return None
    ids = [word for word, _ in words]
    of_prefix: dict[str, range] = {}

    def beginning(prefix: str) -> range:  # the positions in ids of the words beginning with prefix
        if prefix not in of_prefix:
            first = last = bisect.bisect_left(ids, prefix)
            while last < len(ids) and ids[last].startswith(prefix):
                last += 1
            of_prefix[prefix] = range(first, last)
        return of_prefix[prefix]

    wanted: dict[str, float] = {}  # word -> the latest change of a concept whose name it keys
    postings = 0
    for cid in sorted(changed):
        for spelling in sorted(names.spellings.get(cid, ())):
            keys = index_prefixes(spelling)
            if keys is None:
                continue
            if not keys:
                return None
            choices = [{i for prefix in prefixes for i in beginning(prefix)} for prefixes in keys]
            rarest = min(choices, key=lambda chosen: sum(words[i][1] for i in chosen))
            for i in rarest:
                if ids[i] not in wanted:
                    postings += words[i][1]
                wanted[ids[i]] = max(wanted.get(ids[i], 0), names.changed[cid])
            if postings >= READ_ALL_AT * indexed[0]:
                return None
    writing: dict[str, float] = {}
    for page in batched(sorted(wanted), PAGE):
        for row in store.run(PAPERS_OF_WORDS, {"words": page}):
            if (row["stamp"] or 0) < wanted[row["word"]]:
                writing[row["id"]] = row["stamp"] or 0
    return writing


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

