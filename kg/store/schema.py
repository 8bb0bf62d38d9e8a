"""The graph schema in Cypher: constraints and indexes, made before any load.

The load itself is ``kg.store.load``; counts are ``kg.store.reads.graph.stats``.
"""

from __future__ import annotations

from kg.store import Store

CONSTRAINTS = (
    ("paper_id", "Paper", "id"),
    ("concept_id", "Concept", "id"),
    ("reference_key", "Reference", "key"),
    ("author_name", "Author", "name"),
    ("venue_name", "Venue", "name"),
    ("term_id", "Term", "id"),
    ("text_index_id", "TextIndex", "id"),
    ("paper_vectors_paper", "PaperVectors", "paper"),
)

# concept_name: concepts/profile and the views find a concept by its name without reading them all
INDEXES = (("paper_cite_key", "Paper", "cite_key"), ("paper_doi", "Paper", "doi"), ("concept_name", "Concept", "name"))


def create_constraints(store: Store) -> None:
    """Uniqueness constraints on every key; run before any load (idempotent)."""
    for name, label, prop in CONSTRAINTS:
        store.run(f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE", write=True)
    for name, label, prop in INDEXES:
        store.run(f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{prop})", write=True)


def _checked(name: str, allowed: tuple[str, ...]) -> str:
    if name not in allowed:
        raise ValueError(f"{name!r} is not one of {allowed}")
    return name
