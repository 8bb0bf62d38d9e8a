"""The graph schema in Cypher: constraints, and the batched loads of ``kg.graph`` rows.

Labels and relationship types are pasted into queries only from the whitelists
of ``kg.graph``; every value travels as a parameter.
"""

from __future__ import annotations

from kg.graph import CONCEPT_LABELS, MENTION_TYPES, GraphRows
from kg.store import Store

CONSTRAINTS = (
    ("paper_id", "Paper", "id"),
    ("concept_id", "Concept", "id"),
    ("reference_key", "Reference", "key"),
    ("author_name", "Author", "name"),
    ("venue_name", "Venue", "name"),
    ("term_id", "Term", "id"),
    ("text_index_id", "TextIndex", "id"),
)

# A paper met again (a second source, e.g. SciERC abstracts for AAN titles) keeps what it
# had where the new record is empty, and keeps a real title over a derived one.
MERGE_PAPERS = """
UNWIND $rows AS row
MERGE (p:Paper {id: row.id})
WITH p, row, (row.title_derived AND p.title IS NOT NULL AND NOT coalesce(p.title_derived, true)) AS keep_title
SET p.title = CASE WHEN keep_title THEN p.title ELSE row.title END,
    p.title_derived = CASE WHEN keep_title THEN false ELSE row.title_derived END,
    p.abstract = CASE WHEN coalesce(row.abstract, '') = '' THEN coalesce(p.abstract, '') ELSE row.abstract END,
    p.year = coalesce(row.year, p.year), p.venue = coalesce(row.venue, p.venue), p.doi = coalesce(row.doi, p.doi),
    p.cite_key = coalesce(row.cite_key, p.cite_key), p.source = row.source, p.position = row.position,
    p.linked = CASE WHEN coalesce(row.abstract, '') = '' THEN p.linked ELSE null END
"""
# A concept is one node per canonical key, whatever type a paper read it as: kg.store.vocabulary
# votes the type (and its label), name and aliases of every concept marked dirty from all of its
# mention edges once the batches are stored.
MERGE_CONCEPTS = """
UNWIND $rows AS row
MERGE (c:Concept {id: row.id})
ON CREATE SET c.name = row.name, c.type = row.type, c.aliases = []
SET c.dirty = true
"""
MERGE_MENTIONS = """
UNWIND $rows AS row
MATCH (p:Paper {{id: row.paper}})
MATCH (c:Concept {{id: row.concept}})
MERGE (p)-[r:{rel}]->(c)
SET r.evidence = row.evidence, r.start = row.start, r.end = row.end, r.confidence = row.confidence,
    r.extractor = row.extractor, r.mentions = row.mentions, r.name = row.name, r.spellings = row.spellings
"""
# A paper extracted again from its abstract (a rerun with a newer extractor) gets its concept
# edges anew: the old ones go first (found again by the vocabulary too), and concepts that no
# paper's extraction names any more go after the load.
DROP_MENTIONS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[r]->(c:Concept)
DELETE r
RETURN DISTINCT c.id AS id
"""
DROP_UNNAMED_CONCEPTS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
WHERE NOT EXISTS { MATCH (c)<-[r]-(:Paper) WHERE type(r) <> 'MENTIONS' }
DETACH DELETE c
"""
MERGE_VENUES = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MERGE (v:Venue {name: row.name})
MERGE (p)-[:PUBLISHED_IN]->(v)
"""
MERGE_AUTHORS = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MERGE (a:Author {name: row.name})
MERGE (a)-[:WROTE]->(p)
"""
# Citations (see kg.citations.link): a reference to a loaded paper is a Paper->Paper link,
# any other is kept as a Reference until the paper it names is loaded. Patterns start at
# the node found by its key: ArcadeDB plans from the left (30x slower from (:Paper)).
REFERENCES_AMONG = "UNWIND $keys AS key MATCH (r:Reference {key: key}) RETURN r.key AS key"
# References are created after a read that finds the existing ones (see CITES_TARGETS).
CREATE_REFERENCES = """
UNWIND $rows AS row
CREATE (:Reference {key: row.key, authors: row.authors, year: row.year, title: row.title})
"""
# CITES edges are made with CREATE after a read that finds the existing ones (one writer
# per store): ArcadeDB runs this several times faster than MERGE, and (26.x) fails a MERGE
# of edges between papers that are both cited and citing in one UNWIND ("modified by a
# concurrent transaction") when Paper.id is constrained.
CITES_TARGETS = {"Paper": "(q:Paper {id: row.target})", "Reference": "(q:Reference {key: row.target})"}


def cites_queries(target: str) -> tuple[str, str, str]:
    """The (find existing, create, add missing evidence) queries of CITES edges from
    ``(p:Paper {id: row.paper})`` to a ``target`` node ("Paper" or "Reference") keyed by row.target."""
    node = CITES_TARGETS[target]
    existing = f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}})-[:CITES]->{node} RETURN p.id AS paper, row.target AS target"
    create = (f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}}) MATCH {node} "
              "CREATE (p)-[:CITES {evidence: row.evidence, start: row.start, end: row.end}]->(q)")
    add_evidence = (f"UNWIND $rows AS row MATCH (p:Paper {{id: row.paper}})-[c:CITES]->{node} "
                    "SET c.evidence = coalesce(c.evidence, row.evidence), c.start = coalesce(c.start, row.start), "
                    "c.end = coalesce(c.end, row.end)")
    return existing, create, add_evidence


# The citers of References whose paper is now loaded (they become Paper links).
REFERENCE_CITERS = """
UNWIND $rows AS row
MATCH (:Reference {key: row.key})<-[c:CITES]-(p:Paper)
RETURN p.id AS paper, row.key AS key, row.target AS target, c.evidence AS evidence, c.start AS start, c.end AS end
"""
DELETE_REFERENCE_CITES = """
UNWIND $rows AS row
MATCH (:Paper {id: row.paper})-[c:CITES]->(:Reference {key: row.key})
DELETE c
"""
DROP_ORPHAN_REFERENCES = """
UNWIND $keys AS key
MATCH (r:Reference {key: key})
WHERE NOT EXISTS { MATCH (r)<-[:CITES]-(:Paper) }
DELETE r
"""
INDEXES = (("paper_cite_key", "Paper", "cite_key"), ("paper_doi", "Paper", "doi"))


def fold_papers(rows: list[dict]) -> list[dict]:
    """One row per paper id: MERGE_PAPERS' rule applied to the rows of one batch
    (a store may evaluate all rows of an UNWIND before it sets any).

    >>> [r["title"] for r in fold_papers([{"id": "a", "title": "Real", "title_derived": False, "abstract": ""},
    ...                                    {"id": "a", "title": "Derived", "title_derived": True, "abstract": "Text."}])]
    ['Real']
    """
    folded: dict[str, dict] = {}
    for row in rows:
        old = folded.get(row["id"])
        if old is None:
            folded[row["id"]] = dict(row)
            continue
        new = dict(row)
        if row.get("title_derived") and not old.get("title_derived"):
            new["title"], new["title_derived"] = old["title"], False
        for key, value in old.items():
            if new.get(key) in (None, ""):
                new[key] = value
        folded[row["id"]] = new
    return list(folded.values())


def create_constraints(store: Store) -> None:
    """Uniqueness constraints on every key; run before any load (idempotent)."""
    for name, label, prop in CONSTRAINTS:
        store.run(f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE", write=True)
    for name, label, prop in INDEXES:
        store.run(f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{prop})", write=True)


def load_rows(store: Store, rows: GraphRows, batch_size: int = 1000, citations=None) -> None:
    """MERGE one batch of rows: nodes first, then the edges between them.

    ``citations`` (a ``kg.citations.CitationReport``) collects how references were linked.
    """
    from kg.citations.link import link_new_papers, load_references

    papers = fold_papers(rows.papers)
    store.run_batches(MERGE_PAPERS, papers, batch_size)
    link_new_papers(store, papers, citations)
    store.run_batches(MERGE_CONCEPTS, [row for label in CONCEPT_LABELS for row in rows.concepts[label]], batch_size)
    unnamed = drop_mentions(store, [p["id"] for p in papers if p["abstract"]])
    for rel in MENTION_TYPES:
        if rows.mentions[rel]:
            store.run_batches(MERGE_MENTIONS.format(rel=_checked(rel, MENTION_TYPES)), rows.mentions[rel], batch_size)
    drop_unnamed_concepts(store, unnamed)
    store.run_batches(MERGE_VENUES, rows.venues, batch_size)
    store.run_batches(MERGE_AUTHORS, rows.authors, batch_size)
    load_references(store, rows.references, citations, batch_size)


def drop_mentions(store: Store, paper_ids: list[str]) -> set[str]:
    """Delete the concept edges of these papers; return the ids of the concepts they named."""
    if not paper_ids:
        return set()
    return {row["id"] for row in store.run(DROP_MENTIONS, {"ids": paper_ids}, write=True)}


def drop_unnamed_concepts(store: Store, concept_ids: set[str]) -> None:
    """Delete those of these concepts that no paper's extraction names (vocabulary links alone keep none)."""
    if concept_ids:
        store.run(DROP_UNNAMED_CONCEPTS, {"ids": sorted(concept_ids)}, write=True)


def _checked(name: str, allowed: tuple[str, ...]) -> str:
    if name not in allowed:
        raise ValueError(f"{name!r} is not one of {allowed}")
    return name
