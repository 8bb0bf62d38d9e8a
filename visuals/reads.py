"""What the views read from the store: Cypher with parameters only, and node details as graph attributes."""

from __future__ import annotations

import networkx as nx

from kg.errors import BadInput, NotFound, PaperNotFound
from kg.graph import CONCEPT_LABELS as CONCEPT_TYPES
from kg.graph import MENTION_TYPES as MENTIONS
from visuals.graphs import concept_tooltip, paper_tooltip, reference_label, reference_tooltip, short

NODE_TYPES = ("Paper", *CONCEPT_TYPES, "Reference")

PAPER_CONCEPT_PAIRS = """
MATCH (p:Paper)-[r]->(c:Concept)
WHERE type(r) IN $rels AND c.type IN $types
RETURN p.id AS paper, c.id AS concept
"""
# The citations view reads aggregates, not the whole citation graph: 56k rows over Bolt took
# 5-18 s on the OpenAlex sample, these reads well under one.
MOST_CITED = """
MATCH (p:Paper)-[:CITES]->(t)
WHERE $references OR t:Paper
WITH t, count(p) AS cited_by
ORDER BY cited_by DESC, coalesce(t.id, t.key)
LIMIT $top
RETURN coalesce(t.id, t.key) AS id, t.id IS NULL AS reference, cited_by
"""
CITATION_TOTALS = """
MATCH (p:Paper)-[:CITES]->(t)
WHERE $references OR t:Paper
RETURN count(*) AS edges, count(DISTINCT p) AS citing, count(DISTINCT t) AS cited
"""
CITING_AND_CITED = """
MATCH (t:Paper)<-[:CITES]-(:Paper)
WITH DISTINCT t
MATCH (t)-[:CITES]->()
RETURN count(DISTINCT t) AS papers
"""
CITES_AMONG = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[:CITES]->(t)
WITH p, coalesce(t.id, t.key) AS target
WHERE target IN $ids
RETURN p.id AS source, target
"""
OUT_OF_PAPERS = """
MATCH (p:Paper)-[r]->(m)
WHERE p.id IN $ids AND type(r) IN $rels
RETURN p.id AS source, coalesce(m.id, m.key) AS target, type(r) AS rel, m.id IS NULL AS to_reference
LIMIT $limit
"""
CITING_PAPERS = """
MATCH (q:Paper)-[:CITES]->(p:Paper)
WHERE p.id IN $ids
RETURN q.id AS source, p.id AS target, 'CITES' AS rel
LIMIT $limit
"""
CITING_REFERENCES = """
UNWIND $ids AS key
MATCH (r:Reference {key: key})<-[:CITES]-(q:Paper)
RETURN q.id AS source, r.key AS target, 'CITES' AS rel
LIMIT $limit
"""
INTO_CONCEPTS = """
MATCH (p:Paper)-[r]->(c:Concept)
WHERE c.id IN $ids AND type(r) IN $rels
RETURN p.id AS source, c.id AS target, type(r) AS rel
LIMIT $limit
"""
PAPER_DETAILS = """
MATCH (p:Paper) WHERE p.id IN $ids
RETURN p.id AS id, p.title AS title, p.year AS year, p.venue AS venue, left(p.abstract, 400) AS abstract
"""
CONCEPT_DETAILS = """
MATCH (c:Concept) WHERE c.id IN $ids
OPTIONAL MATCH (p:Paper)-[]->(c)
RETURN c.id AS id, c.name AS name, c.type AS type, c.aliases AS aliases, count(DISTINCT p) AS papers
"""
REFERENCE_DETAILS = """
UNWIND $ids AS key
MATCH (r:Reference {key: key})
OPTIONAL MATCH (r)<-[:CITES]-(q:Paper)
RETURN r.key AS id, r.authors AS authors, r.year AS year, r.title AS title, count(q) AS cited_by
"""
CONCEPT_NAMES = "MATCH (c:Concept) WHERE c.id IN $ids RETURN c.id AS id, c.name AS name"
FIND_PAPER = """
MATCH (p:Paper) WHERE p.id = $key OR toLower(p.title) = toLower($key)
RETURN p.id AS id ORDER BY p.id LIMIT 1
"""
# as queries/concepts/profile.cypher: an id, a name or an alias, in any case; the most named first
FIND_CONCEPT = """
MATCH (c:Concept)
WHERE c.id = $key OR toLower(c.name) = toLower($key)
   OR any(alias IN coalesce(c.aliases, []) WHERE toLower(alias) = toLower($key))
OPTIONAL MATCH (p:Paper)-[]->(c)
RETURN c.id AS id, count(p) AS papers ORDER BY papers DESC, id LIMIT 1
"""


def checked_types(types, allowed=NODE_TYPES) -> tuple[str, ...]:
    """``types`` (names or one comma-separated string) checked against ``allowed``; all when empty."""
    if not types:
        return tuple(allowed)
    names = [t.strip() for t in (types.split(",") if isinstance(types, str) else types) if t.strip()]
    by_lower = {a.lower(): a for a in allowed}
    unknown = [t for t in names if t.lower() not in by_lower]
    if unknown:
        raise BadInput(f"unknown type(s) {', '.join(unknown)}: choose from {', '.join(allowed)}")
    return tuple(by_lower[t.lower()] for t in names)


def paper_concept_pairs(store, types=CONCEPT_TYPES) -> list[tuple[str, str]]:
    rows = store.run(PAPER_CONCEPT_PAIRS, {"rels": list(MENTIONS), "types": list(types)})
    return [(r["paper"], r["concept"]) for r in rows]


def find_focus(store, kind: str, key: str) -> str:
    """The id of the paper (its id or title) or concept (its id, name or an alias) that ``key``
    names, in any case. When none does, the error says so, and names the other kind if ``key``
    is one ("LoRA is a concept: use --view concept")."""
    rows = store.run(FIND_PAPER if kind == "paper" else FIND_CONCEPT, {"key": key})
    if rows:
        return rows[0]["id"]
    other = "concept" if kind == "paper" else "paper"
    if store.run(FIND_CONCEPT if other == "concept" else FIND_PAPER, {"key": key}):
        raise NotFound(f"no {kind} matches {key!r}, but a {other} does: use --view {other}")
    hint = "a paper id or title" if kind == "paper" else "a concept id (low rank adaptation), name or alias"
    message = (f"no {kind} matches {key!r}: give {hint} (kg query run papers/find -p text=... "
               f"or concepts/search -p text=... finds them)")
    raise PaperNotFound(key, message) if kind == "paper" else NotFound(message)


def describe(store, graph: nx.Graph) -> nx.Graph:
    """Fill in every node's ``label``, ``type`` and ``title`` (tooltip) from the store."""
    ids = list(graph.nodes)
    for row in store.run(PAPER_DETAILS, {"ids": ids}):
        graph.add_node(row["id"], type="Paper", label=short(row["title"], 32), name=row["title"], year=row["year"],
                       title=paper_tooltip(row["title"], row["year"], row["venue"], row["abstract"]))
    for row in store.run(CONCEPT_DETAILS, {"ids": ids}):
        graph.add_node(row["id"], type=row["type"], label=row["name"], name=row["name"], papers=row["papers"],
                       title=concept_tooltip(row["name"], row["type"], row["aliases"], row["papers"]))
    for row in store.run(REFERENCE_DETAILS, {"ids": ids}):
        graph.add_node(row["id"], type="Reference", label=reference_label(row), cited_by=row["cited_by"],
                       title=reference_tooltip(row))
    return graph
