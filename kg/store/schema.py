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
)

MERGE_PAPERS = """
UNWIND $rows AS row
MERGE (p:Paper {id: row.id})
SET p.title = row.title, p.title_derived = row.title_derived, p.abstract = row.abstract,
    p.year = row.year, p.venue = row.venue, p.doi = row.doi, p.source = row.source, p.position = row.position
"""
MERGE_CONCEPTS = """
UNWIND $rows AS row
MERGE (c:Concept:{label} {{id: row.id}})
ON CREATE SET c.name = row.name, c.type = row.type, c.aliases = []
SET c.aliases = reduce(acc = coalesce(c.aliases, []), a IN row.aliases | CASE WHEN a IN acc OR a = c.name THEN acc ELSE acc + a END)
"""
MERGE_MENTIONS = """
UNWIND $rows AS row
MATCH (p:Paper {{id: row.paper}})
MATCH (c:Concept {{id: row.concept}})
MERGE (p)-[r:{rel}]->(c)
SET r.evidence = row.evidence, r.start = row.start, r.end = row.end, r.confidence = row.confidence,
    r.extractor = row.extractor, r.mentions = row.mentions
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
MERGE_REFERENCES = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
MERGE (r:Reference {key: row.key})
ON CREATE SET r.authors = row.authors, r.year = row.year
MERGE (p)-[c:CITES]->(r)
SET c.evidence = row.evidence, c.start = row.start, c.end = row.end
"""
# A reference whose key is now a loaded paper's id becomes a link to that paper.
RESOLVE_REFERENCES = """
MATCH (p:Paper)-[c:CITES]->(r:Reference)
MATCH (q:Paper {id: r.key})
MERGE (p)-[:CITES]->(q)
DELETE c
"""
DROP_ORPHAN_REFERENCES = "MATCH (r:Reference) WHERE NOT EXISTS { MATCH (:Paper)-[:CITES]->(r) } DELETE r"


def create_constraints(store: Store) -> None:
    """Uniqueness constraints on every key; run before any load (idempotent)."""
    for name, label, prop in CONSTRAINTS:
        store.run(f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE", write=True)


def load_rows(store: Store, rows: GraphRows, batch_size: int = 1000) -> None:
    """MERGE one batch of rows: nodes first, then the edges between them."""
    store.run_batches(MERGE_PAPERS, rows.papers, batch_size)
    for label in CONCEPT_LABELS:
        if rows.concepts[label]:
            store.run_batches(MERGE_CONCEPTS.format(label=_checked(label, CONCEPT_LABELS)), rows.concepts[label], batch_size)
    for rel in MENTION_TYPES:
        if rows.mentions[rel]:
            store.run_batches(MERGE_MENTIONS.format(rel=_checked(rel, MENTION_TYPES)), rows.mentions[rel], batch_size)
    store.run_batches(MERGE_VENUES, rows.venues, batch_size)
    store.run_batches(MERGE_AUTHORS, rows.authors, batch_size)
    store.run_batches(MERGE_REFERENCES, rows.references, batch_size)


def resolve_references(store: Store) -> None:
    store.run(RESOLVE_REFERENCES, write=True)
    store.run(DROP_ORPHAN_REFERENCES, write=True)


def stats(store: Store) -> dict:
    """Counts of nodes by label and relationships by type."""
    nodes = store.run("MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS count")
    rels = store.run("MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS count")
    return {
        "nodes": {row["label"]: row["count"] for row in sorted(nodes, key=lambda r: r["label"])},
        "relationships": {row["type"]: row["count"] for row in sorted(rels, key=lambda r: r["type"])},
    }


def _checked(name: str, allowed: tuple[str, ...]) -> str:
    if name not in allowed:
        raise ValueError(f"{name!r} is not one of {allowed}")
    return name
