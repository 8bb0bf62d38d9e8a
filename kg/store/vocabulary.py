"""The vocabulary pass that ends every build: concepts voted, names found everywhere, broader links.

Batches store what each paper's extraction found and mark the concepts they touched
(``Concept.dirty``) and the papers whose abstract is new (``Paper.linked`` unset). Then,
once per build:

1. **Vote**: a touched concept's type is the one most of its papers read it as (ties: more
   mentions, then the order of ``kg.graph.CONCEPT_LABELS``); its name is the spelling most
   papers use (ties: the longer, then the first in alphabetical order); its aliases are the
   other spellings. Each mention edge keeps the type it was read with.
2. **Link**: every name of the graph is looked for in every abstract (``kg.extract.vocabulary``):
   new abstracts against the whole vocabulary, stored abstracts against the names this build
   added. A name found where no extractor read it adds ``(:Paper)-[:MENTIONS {extractor:
   "vocabulary"}]->(:Concept)`` with its evidence sentence.
3. **Broader**: ``(:Concept)-[:BROADER]->(:Concept)`` from a name to the longest shorter name
   it ends with that is itself a concept ("bilingual parallel corpus" -> "parallel corpus").

Memory holds the vocabulary (names and aliases), never the corpus: abstracts are read in
pages. Flags make the pass resumable: a build killed before it ends is finished by the next.

>>> from kg.store import open_store
>>> with open_store("kg-data") as store:               # doctest: +SKIP
...     finish_vocabulary(store).links
120
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from kg.extract.normalize import GENERIC_HEADS, KNOWN_SHORT_FORMS, concept_key
from kg.extract.vocabulary import NameMatcher, sentence_at, unambiguous
from kg.graph import CONCEPT_LABELS
from kg.store import Store
from kg.store.batches import batched
from kg.store.schema import _checked

PAGE = 500
VOCABULARY_CONFIDENCE = 0.6
TYPE_OF_RELATIONSHIP = {"PROPOSES": "Method", "USES": "Method", "ADDRESSES": "Task", "EVALUATES_ON": "Dataset",
                        "MEASURES": "Metric", "IN_DOMAIN": "Domain"}
# One-word names too general to be anybody's broader concept ("bilingual corpus" is no "corpus").
NOT_BROADER = GENERIC_HEADS | frozenset(
    "network system data dataset task problem corpus benchmark metric score set function process analysis learning "
    "result performance tool feature information representation training study work".split())

DIRTY_CONCEPTS = "MATCH (c:Concept) WHERE c.dirty = true RETURN c.id AS id, labels(c) AS labels"
# every edge of the touched concepts: extracted ones vote, all of them count the papers
CONCEPT_EDGES = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})<-[r]-(p:Paper)
RETURN id, p.id AS paper, type(r) AS rel, r.name AS name, r.spellings AS spellings, r.mentions AS mentions
"""
# One write per touched concept: its vote, its paper count, the flag cleared (ArcadeDB updates cost
# milliseconds a row where creates cost a tenth of one), the label changed only where the vote did.
SET_VOTES = """
UNWIND $rows AS row
MATCH (c:Concept {{id: row.id}})
{relabel}SET c.type = row.type, c.name = row.name, c.aliases = row.aliases, c.papers = row.papers, c.dirty = null
"""
VOCABULARY = "MATCH (c:Concept) WHERE NOT c:Domain RETURN c.id AS id, c.name AS name, c.aliases AS aliases"
UNLINKED_PAPERS = "MATCH (p:Paper) WHERE p.linked IS NULL AND coalesce(p.abstract, '') <> '' RETURN p.id AS id"
LINKED_PAPERS = "MATCH (p:Paper) WHERE p.linked = true RETURN p.id AS id"
ABSTRACTS = "UNWIND $ids AS id MATCH (p:Paper {id: id}) RETURN p.id AS id, p.abstract AS abstract"
EXTRACTED = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[r]->(c:Concept)
RETURN id, c.id AS concept, type(r) AS rel, r.spellings AS spellings
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
MARK_LINKED = "UNWIND $ids AS id MATCH (p:Paper {id: id}) SET p.linked = true"
# A spelling that names another concept now (an acronym two papers define differently) links no more.
DROP_LINKS = """
UNWIND $rows AS row
MATCH (c:Concept {id: row.concept})<-[r:MENTIONS]-(:Paper)
WHERE r.spelling = row.spelling
DELETE r
"""
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
# concepts that only gained links: their paper count again (a killed pass leaves them right next time)
COUNT_PAPERS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
SET c.papers = COUNT { (c)<--(:Paper) }, c.dirty = null
"""


@dataclass
class VocabularyReport:
    concepts: int = 0      # concepts voted again
    relabelled: int = 0    # of which the type label changed (or was set for the first time)
    links: int = 0         # MENTIONS edges written
    broader: int = 0       # BROADER edges in the graph
    seconds: float = 0.0   # the pass's time

    def line(self) -> str:
        """The build summary's line: ``Vocabulary: 746 concepts voted (3 retyped), ...``."""
        return (f"Vocabulary: {self.concepts} concepts voted ({self.relabelled} typed anew), {self.links} links where "
                f"an abstract writes a concept's name, {self.broader} broader-concept links ({self.seconds:.1f} s).")


def finish_vocabulary(store: Store) -> VocabularyReport:
    """Vote the touched concepts, link every name to every abstract that writes it, and keep
    BROADER edges current; a second run with nothing new changes nothing.

    Votes are written last, with the links each touched concept gained, so a touched concept is
    written once; a pass killed before that leaves the flags set and the next run votes again.
    """
    started = time.perf_counter()
    report = VocabularyReport()
    votes, unvoted = vote_concepts(store)
    concepts = [dict(c, **{k: votes[c["id"]][k] for k in ("name", "aliases")}) if c["id"] in votes else c
                for c in store.stream(VOCABULARY) if votes.get(c["id"], {}).get("type") != "Domain"]
    gained = link_names(store, concepts, set(votes), report)
    write_votes(store, votes, gained, report)
    # concepts that only gained links, and flagged ones no extraction names any more
    for ids in batched(sorted((set(gained) | unvoted) - set(votes)), PAGE):
        store.run(COUNT_PAPERS, {"ids": ids}, write=True)
    link_broader(store, [c["id"] for c in concepts], report)
    report.seconds = time.perf_counter() - started
    return report


def vote_concepts(store: Store) -> tuple[dict[str, dict], set[str]]:
    """The vote of every dirty concept from its edges (nothing written): id -> type, name,
    aliases, the labels it has, and the papers naming it; and the dirty concepts that no
    extracted edge names (none after a normal load)."""
    dirty = {row["id"]: tuple(sorted(set(row["labels"]) & set(CONCEPT_LABELS))) for row in store.stream(DIRTY_CONCEPTS)}
    votes: dict[str, dict] = {}
    for ids in batched(sorted(dirty), PAGE):
        edges: dict[str, list[dict]] = {}
        for row in store.run(CONCEPT_EDGES, {"ids": ids}):
            edges.setdefault(row["id"], []).append(row)
        for cid in ids:
            extracted = [e for e in edges.get(cid, ()) if e["rel"] != "MENTIONS"]
            if extracted:
                votes[cid] = {**vote(cid, extracted), "labels": dirty[cid], "papers": len({e["paper"] for e in edges[cid]})}
    return votes, set(dirty) - set(votes)


def write_votes(store: Store, votes: dict[str, dict], gained: Counter, report: VocabularyReport) -> None:
    """Store the votes with their paper counts (plus the papers linked in this pass), one write a concept."""
    groups: dict[tuple[tuple[str, ...], str], list[dict]] = {}
    for cid, row in sorted(votes.items()):
        groups.setdefault((row["labels"], row["type"]), []).append(
            {"id": cid, "type": row["type"], "name": row["name"], "aliases": row["aliases"], "papers": row["papers"] + gained[cid]})
    for (labels, type_), rows in sorted(groups.items()):
        relabel = ""
        if labels != (type_,):
            remove = ", ".join(f"c:{_checked(label, CONCEPT_LABELS)}" for label in labels)
            relabel = (f"REMOVE {remove} " if remove else "") + f"SET c:{_checked(type_, CONCEPT_LABELS)} "
            report.relabelled += len(rows)
        store.run_batches(SET_VOTES.format(relabel=relabel), rows, PAGE)
        report.concepts += len(rows)


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


def link_names(store: Store, concepts: list[dict], new: set[str], report: VocabularyReport) -> Counter:
    """MENTIONS edges from abstracts to the concepts whose names they write; returns how many
    papers each concept was linked to."""
    triples = [(s, c["id"], concept_key(s) == c["id"]) for c in concepts
               for s in [c["name"], *(c["aliases"] or []), *KNOWN_SHORT_FORMS.get(c["id"], ())] if s]
    names = unambiguous(triples)
    fresh = {s for s, cid, _ in triples if cid in new}
    # spellings of this build whose concept changed (an alias now shared, or a concept of its own)
    stale = [{"spelling": s, "concept": cid} for s, cid, _ in triples if s in fresh and names.get(s) != cid]
    store.run_batches(DROP_LINKS, stale, PAGE)
    linked: Counter = Counter()
    everything = NameMatcher(names)
    added = NameMatcher({s: c for s, c in names.items() if s in fresh})
    unlinked = [row["id"] for row in store.stream(UNLINKED_PAPERS)]
    if everything:
        for ids in batched(unlinked, PAGE):
            _link_page(store, ids, everything, linked, report)
    if added:
        stored = [row["id"] for row in store.stream(LINKED_PAPERS)]
        for ids in batched(stored, PAGE):
            _link_page(store, ids, added, linked, report)
    for ids in batched(unlinked, PAGE):
        store.run(MARK_LINKED, {"ids": ids}, write=True)
    return linked


def _link_page(store: Store, ids: list[str], matcher: NameMatcher, linked: Counter, report: VocabularyReport) -> None:
    texts = {row["id"]: row["abstract"] or "" for row in store.run(ABSTRACTS, {"ids": ids})}
    matches = {pid: found for pid, text in texts.items() if (found := matcher.find(text))}
    if not matches:  # most stored abstracts hold none of a build's new names
        return
    own: dict[str, set[str]] = {}  # the concepts each paper is linked to already
    spelled: dict[str, set[str]] = {}
    for row in store.run(EXTRACTED, {"ids": sorted(matches)}):
        own.setdefault(row["id"], set()).add(row["concept"])
        if row["rel"] != "MENTIONS":
            spelled.setdefault(row["id"], set()).update(row["spellings"] or [])
    rows = []
    for pid, paper_matches in matches.items():
        text = texts[pid]
        found: dict[str, dict] = {}
        for match in paper_matches:
            # a paper's own reading wins: its concept, or its own sense of a spelling (an acronym it defines)
            if match.concept in own.get(pid, ()) or match.spelling in spelled.get(pid, ()):
                continue
            if match.concept in found:
                found[match.concept]["mentions"] += 1
                continue
            begin, end = sentence_at(text, match.start)
            found[match.concept] = {"paper": pid, "concept": match.concept, "spelling": match.spelling,
                                    "evidence": text[begin:end], "start": match.start, "end": match.end,
                                    "confidence": VOCABULARY_CONFIDENCE, "mentions": 1}
        rows.extend(found.values())
    store.run_batches(CREATE_LINKS, rows, PAGE)
    linked.update(r["concept"] for r in rows)  # one row per paper and concept
    report.links += len(rows)


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

