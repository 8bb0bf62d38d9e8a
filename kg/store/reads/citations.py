"""Reads of the citation graph, ``(:Paper)-[:CITES]->(:Paper|:Reference)``: the whole graph in
networkx, or aggregates of it (most cited works, the citations around some papers,
coupling and co-citation of one paper), which cost far less than the whole graph over Bolt.

A work is a paper (its ``id``) or a reference to a work that is not loaded (its ``key``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

PAPERS = """
MATCH (p:Paper)
RETURN p.id AS id, 'paper' AS kind, p.title AS title, p.year AS year, p.venue AS venue
"""
# A reference's title is the one its source gave, else its authors (the key is already the id).
REFERENCES = """
MATCH (:Paper)-[:CITES]->(r:Reference)
WITH DISTINCT r
RETURN r.key AS id, 'reference' AS kind,
       CASE WHEN r.title IS NOT NULL OR size(coalesce(r.authors, [])) = 0 THEN r.title
            ELSE reduce(s = head(r.authors), a IN tail(r.authors) | s + ', ' + a) END AS title,
       r.year AS year, null AS venue
"""
EDGES = "MATCH (p:Paper)-[:CITES]->(x) RETURN p.id AS source, coalesce(x.id, x.key) AS target"
PAPER_EDGES = "MATCH (p:Paper)-[:CITES]->(q:Paper) RETURN p.id AS source, q.id AS target"
# The citations view reads aggregates, not the whole citation graph: 56k rows over Bolt took
# 5-18 s on the OpenAlex sample, these reads well under one.
MOST_CITING = """
MATCH (p:Paper)-[:CITES]->(w)
WITH p, count(w) AS cites
ORDER BY cites DESC, p.id
LIMIT $top
RETURN p.id AS id
"""
MOST_CITED = """
MATCH (p:Paper)-[:CITES]->(t)
WHERE $references OR t:Paper
WITH t, count(p) AS cited_by
ORDER BY cited_by DESC, coalesce(t.id, t.key)
LIMIT $top
RETURN coalesce(t.id, t.key) AS id, t.id IS NULL AS reference, cited_by
"""
TOTALS = """
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
AMONG = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[:CITES]->(t)
WITH p, coalesce(t.id, t.key) AS target
WHERE target IN $ids
RETURN p.id AS source, target
"""
# Reads of given ids start at each node found by its key (ArcadeDB plans from the left: a scan of
# every paper costs seconds at 10,000 papers).
OUT_OF_PAPERS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[r]->(m)
WHERE type(r) IN $rels
RETURN p.id AS source, coalesce(m.id, m.key) AS target, type(r) AS rel, m.id IS NULL AS to_reference
LIMIT $limit
"""
CITING_PAPERS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})<-[:CITES]-(q:Paper)
RETURN q.id AS source, p.id AS target, 'CITES' AS rel
LIMIT $limit
"""
CITING_REFERENCES = """
UNWIND $ids AS key
MATCH (r:Reference {key: key})<-[:CITES]-(q:Paper)
RETURN q.id AS source, r.key AS target, 'CITES' AS rel
LIMIT $limit
"""
# The papers citing each work, by element id: their ids would read their whole records.
CITERS_ELEMENTS = """
UNWIND $ids AS id
OPTIONAL MATCH (p:Paper {id: id})
OPTIONAL MATCH (r:Reference {key: id})
WITH id, coalesce(p, r) AS work
RETURN id AS target, [(work)<-[:CITES]-(q:Paper) | elementId(q)] AS sources
"""
REFERENCE_DETAILS = """
UNWIND $ids AS key
MATCH (r:Reference {key: key})
OPTIONAL MATCH (r)<-[:CITES]-(q:Paper)
RETURN r.key AS id, r.authors AS authors, r.year AS year, r.title AS title, count(q) AS cited_by
"""
COUPLED = """
MATCH (p:Paper {id: $paper})-[:CITES]->(w)<-[:CITES]-(d:Paper)
WHERE d <> p
RETURN d.id AS id, count(DISTINCT w) AS n
"""
COCITED = """
MATCH (p:Paper {id: $paper})<-[:CITES]-(z:Paper)-[:CITES]->(d:Paper)
WHERE d <> p
RETURN d.id AS id, count(DISTINCT z) AS n
"""


def citation_graph(store, references: bool = True) -> nx.DiGraph:
    """The citation graph: nodes are paper ids and reference keys with ``kind`` ("paper" or
    "reference"), ``title``, ``year`` and ``venue``; an edge points from the citing to the cited
    work. ``references=False``: loaded papers only."""
    import networkx as nx  # here: a command that reads no whole graph need not import it (0.1 s)

    graph = nx.DiGraph()
    for row in store.run(PAPERS):
        graph.add_node(row.pop("id"), **row)
    if references:
        for row in store.run(REFERENCES):
            graph.add_node(row.pop("id"), **row)
    for row in store.run(EDGES if references else PAPER_EDGES):
        if row["target"] in graph:
            graph.add_edge(row["source"], row["target"])
    return graph


def most_cited(store, top: int, references: bool = True) -> list[str]:
    """The ids of the ``top`` most cited works (ties: id); ``references=False``: papers only."""
    return [r["id"] for r in store.run(MOST_CITED, {"references": references, "top": top})]


def most_citing(store, top: int) -> list[str]:
    """The ids of the ``top`` papers that cite the most works (ties: id)."""
    return [r["id"] for r in store.run(MOST_CITING, {"top": top})]


def totals(store, references: bool = True) -> tuple[int, int]:
    """The citation graph's number of works (citing or cited) and of citations."""
    flags = {"references": references}
    found = store.run(TOTALS, flags)[0]
    return found["citing"] + found["cited"] - store.run(CITING_AND_CITED)[0]["papers"], found["edges"]


def among(store, ids: list[str]) -> list[tuple[str, str]]:
    """The citations from a paper of ``ids`` to a work of ``ids``."""
    return [(r["source"], r["target"]) for r in store.run(AMONG, {"ids": ids})]


def citing(store, ids: list[str], references: bool = True, limit: int = 1_000_000) -> list[dict]:
    """``{source, target, rel}`` for the papers citing a work of ``ids`` (at most ``limit`` of each kind)."""
    params = {"ids": ids, "limit": limit}
    return store.run(CITING_PAPERS, params) + (store.run(CITING_REFERENCES, params) if references else [])


def citers(store, ids: list[str]) -> dict[str, list[str]]:
    """The element ids of the papers citing each work of ``ids`` (``kg.store.reads.concepts.paper_ids``
    gives the ids of those wanted)."""
    return {r["target"]: r["sources"] for r in store.run(CITERS_ELEMENTS, {"ids": ids})}


def out_of(store, ids: list[str], rels, limit: int) -> list[dict]:
    """``{source, target, rel, to_reference}`` for the links of types ``rels`` out of the papers ``ids``."""
    return store.run(OUT_OF_PAPERS, {"ids": ids, "rels": list(rels), "limit": limit})


def around(store, ids: list[str], references: bool = True, limit: int = 1_000_000) -> list[dict]:
    """The citations out of and into the works ``ids``, either way (``references=False``:
    between loaded papers only), as ``{source, target, rel}`` rows."""
    rows = [r for r in out_of(store, ids, ["CITES"], limit) if references or not r["to_reference"]]
    return rows + citing(store, ids, references, limit)


def reference_details(store, ids: list[str]) -> list[dict]:
    """``{id, authors, year, title, cited_by}`` of the references among ``ids``."""
    return store.run(REFERENCE_DETAILS, {"ids": ids})


def coupled_and_cocited(store, paper: str) -> dict[str, tuple[int, int]]:
    """Papers with (works both cite, papers citing both) for ``paper``."""
    found: dict[str, tuple[int, int]] = {}
    for row in store.run(COUPLED, {"paper": paper}):
        found[row["id"]] = (row["n"], 0)
    for row in store.run(COCITED, {"paper": paper}):
        found[row["id"]] = (found.get(row["id"], (0, 0))[0], row["n"])
    return found
