"""The graph's counts, kept on its ``(:BuildState)`` node at the end of every build: nodes per
label, relationships per type, papers per year, the most cited works and each type's concepts
named by the most papers. ``kg stats``, ``overview/counts``, ``overview/top-concepts``,
``trends/new-concepts`` and ``citations/most-cited`` read them instead of
counting a large graph again (seconds at 10,000 papers); they are exact after every build,
rerun or incremental one, since each build counts anew.

>>> from kg.store import open_store
>>> with open_store("kg-data") as store:      # doctest: +SKIP
...     keep_counts(store)["nodes"]["Paper"]
57
"""

from __future__ import annotations

from kg.store import Store
from kg.store.reads.graph import count

PAPERS_PER_YEAR = "MATCH (p:Paper) WHERE p.year IS NOT NULL RETURN p.year AS year, count(*) AS papers ORDER BY year"
MOST_CITED_KEPT = 100
# as citations/most-cited orders them: the most citing papers first, then by id
MOST_CITED = """
MATCH (citer:Paper)-[:CITES]->(w)
WITH coalesce(w.id, w.key) AS id, count(DISTINCT citer) AS cited_by
ORDER BY cited_by DESC, id
LIMIT $kept
RETURN id, cited_by
"""
TOP_CONCEPTS_KEPT = 100
CONCEPT_TOTALS = "MATCH (c:Concept) WHERE c.papers > 0 RETURN c.id AS id, c.type AS type, c.name AS name, c.papers AS papers, c.mentions AS mentions"
KEEP = """
MERGE (s:BuildState {id: 'build'})
SET s.labels = $labels, s.label_counts = $label_counts, s.types = $types, s.type_counts = $type_counts,
    s.years = $years, s.year_papers = $year_papers, s.cited = $cited, s.cited_by = $cited_by, s.cited_kept = $kept,
    s.top_concepts = $top_concepts, s.top_kept = $top_kept
"""


def keep_counts(store: Store) -> dict:
    """Count the graph and keep the counts on the BuildState node; returns them as ``kg.store.reads.graph.stats`` does."""
    counts = count(store)
    if not counts["nodes"].get("BuildState"):  # the node that keeps them is counted too
        counts["nodes"] = dict(sorted({**counts["nodes"], "BuildState": 1}.items()))
    years = store.run(PAPERS_PER_YEAR)
    cited = store.run(MOST_CITED, {"kept": MOST_CITED_KEPT})
    store.run(KEEP, {"labels": list(counts["nodes"]), "label_counts": list(counts["nodes"].values()),
                     "types": list(counts["relationships"]), "type_counts": list(counts["relationships"].values()),
                     "years": [r["year"] for r in years], "year_papers": [r["papers"] for r in years],
                     "cited": [r["id"] for r in cited], "cited_by": [r["cited_by"] for r in cited],
                     "kept": MOST_CITED_KEPT, "top_concepts": top_concepts(store), "top_kept": TOP_CONCEPTS_KEPT},
              write=True)
    return counts


def top_concepts(store: Store, kept: int = TOP_CONCEPTS_KEPT) -> list[str]:
    """The ids of each type's ``kept`` concepts named by the most papers, in the order of
    ``overview/top-concepts`` (more papers, more mentions, then the name)."""
    by_type: dict[str, list[dict]] = {}
    for row in store.stream(CONCEPT_TOTALS):
        by_type.setdefault(row["type"], []).append(row)
    ids = []
    for rows in by_type.values():
        rows.sort(key=lambda r: (-r["papers"], -(r["mentions"] or 0), r["name"]))
        ids += [r["id"] for r in rows[:kept]]
    return ids
