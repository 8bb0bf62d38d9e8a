"""The graph's counts, kept on its ``(:BuildState)`` node at the end of every build: nodes per
label, relationships per type, papers per year, the most cited works, each type's concepts
named by the most papers, and each year's (those named by the most papers that year, those
named for the first time), the links each extractor made, the most connected papers, the
fullest cells of the method/dataset and method/task matrices, the concepts read as more
than one type and the first papers without concepts or missing metadata; and on each broad
concept, the concepts it appears with most. ``kg stats`` and the whole-graph packs
(``overview/*``, ``trends/*``, ``citations/most-cited``, the matrices, ``quality/*``,
``concepts/profile``) read them instead of counting a large graph again (seconds at 10,000
papers); they are exact after every build, rerun or incremental one, since each build counts anew.

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
YEARS_KEPT = 20  # concepts kept per year (and per year and type), and new ones named per year
CONCEPT_TOTALS = """
MATCH (c:Concept) WHERE c.papers > 0
RETURN c.id AS id, c.type AS type, c.name AS name, c.papers AS papers, c.mentions AS mentions, c.years AS years,
       c.year_papers AS year_papers, c.quality AS quality, c.rated AS rated, c.salience AS salience
"""
# as quality/extractors counts them
EXTRACTORS = """
MATCH (:Paper)-[r]->(:Concept)
WITH coalesce(r.extractor, 'unknown') AS extractor, r
RETURN extractor, count(r) AS links, round(avg(r.confidence), 3) AS avg_confidence,
       round(min(r.confidence), 3) AS min_confidence
ORDER BY links DESC, extractor
"""
CONNECTED_KEPT = 100
# as overview/most-connected-papers orders them
CONNECTED = """
MATCH (p:Paper)
WITH p, COUNT { (p)-->(:Concept) } + COUNT { (p)-[:CITES]->() } + COUNT { (p)<-[:CITES]-(:Paper) } AS links
RETURN p.id AS id ORDER BY links DESC, id LIMIT $kept
"""
CELLS_KEPT = 200
# the fullest cells of concepts/method-dataset-matrix and method-task-matrix (min_papers 1): any
# min_papers keeps a prefix of this order, so the first cells answer every top up to the kept.
# One string key per cell, in the packs' order after the papers: ArcadeDB (26.x) holds a GROUP BY
# of two nodes over its query heap budget at 100,000 papers, where a string key fits.
CELLS = """
MATCH (p:Paper)-[:{rel}]->(x:{label})
MATCH (p)-[:PROPOSES|USES]->(m:Method)
WITH toLower(m.name) + $sep + toLower(x.name) + $sep + m.name + $sep + x.name + $sep + m.id + $sep + x.id AS cell,
     count(DISTINCT p) AS papers
RETURN cell ORDER BY papers DESC, cell
LIMIT $kept
"""
CELL_SEPARATOR = "\u0001"  # sorts before any character of a name
SAME_NAME_KEPT = 100
# as quality/same-name-types orders them
SAME_NAME = """
MATCH (:Paper)-[r:PROPOSES|USES|ADDRESSES|EVALUATES_ON|MEASURES|INVOLVES]->(c:Concept)
WITH c, count(DISTINCT CASE type(r) WHEN 'USES' THEN 'PROPOSES' ELSE type(r) END) AS types
WHERE types > 1
RETURN c.id AS id ORDER BY toLower(c.name), c.name, id LIMIT $kept
"""
QUALITY_KEPT = 100
# the first papers by id that quality/papers-without-concepts and quality/missing-metadata list
WITHOUT_CONCEPTS = "MATCH (p:Paper) WHERE NOT EXISTS { MATCH (p)-->(:Concept) } RETURN p.id AS id ORDER BY id LIMIT $kept"
MISSING_METADATA = """
MATCH (p:Paper)
WHERE p.year IS NULL OR coalesce(p.venue, '') = '' OR coalesce(p.title_derived, false)
   OR NOT EXISTS { MATCH (:Author)-[:WROTE]->(p) }
RETURN p.id AS id ORDER BY id LIMIT $kept
"""
BROAD_PAPERS = 1_000  # a concept named by more papers has the concepts it appears with most kept on it
CO_OCCURRING_KEPT = 50
# as concepts/profile orders them; kept on the concept (c.co_occurring, c.co_occurring_papers).
# OPTIONAL: a MATCH of the whole pattern starts from every Paper (5 s at 100,000 papers)
CO_OCCURRING = """
MATCH (c:Concept {id: $id})
OPTIONAL MATCH (c)<--(q:Paper)-->(other:Concept)
WHERE other <> c
WITH other, count(DISTINCT q) AS shared
WHERE other IS NOT NULL
ORDER BY shared DESC, toLower(other.name), other.type, other.id
LIMIT $kept
RETURN other.id AS id, shared
"""
FORGET_CO_OCCURRING = """
MATCH (c:Concept) WHERE c.co_occurring IS NOT NULL AND NOT c.id IN $kept
REMOVE c.co_occurring, c.co_occurring_papers
"""
KEEP_CO_OCCURRING = """
UNWIND $rows AS row
MATCH (c:Concept {id: row.id}) SET c.co_occurring = row.ids, c.co_occurring_papers = row.papers
"""
KEEP = """
MERGE (s:BuildState {id: 'build'})
SET s.labels = $labels, s.label_counts = $label_counts, s.types = $types, s.type_counts = $type_counts,
    s.years = $years, s.year_papers = $year_papers, s.cited = $cited, s.cited_by = $cited_by, s.cited_kept = $kept,
    s.top_concepts = $top_concepts, s.top_kept = $top_kept, s.by_year = $by_year, s.by_year_types = $by_year_types,
    s.by_year_ids = $by_year_ids, s.by_year_papers = $by_year_papers, s.new_years = $new_years, s.new_counts = $new_counts,
    s.new_name_years = $new_name_years, s.new_names = $new_names, s.years_kept = $years_kept,
    s.extractors = $extractors, s.extractor_links = $extractor_links, s.extractor_avg = $extractor_avg,
    s.extractor_min = $extractor_min, s.connected = $connected, s.connected_kept = $connected_kept,
    s.method_dataset = $method_dataset, s.method_task = $method_task, s.cells_kept = $cells_kept,
    s.same_name = $same_name, s.same_name_kept = $same_name_kept,
    s.without_concepts = $without_concepts, s.missing_metadata = $missing_metadata, s.quality_kept = $quality_kept,
    s.co_occurring_kept = $co_occurring_kept
"""


def keep_counts(store: Store, broad: int = BROAD_PAPERS) -> dict:
    """Count the graph and keep the counts on the BuildState node, and on each concept named by
    more than ``broad`` papers the concepts it appears with most; returns the counts as
    ``kg.store.reads.graph.stats`` does."""
    counts = count(store)
    if not counts["nodes"].get("BuildState"):  # the node that keeps them is counted too
        counts["nodes"] = dict(sorted({**counts["nodes"], "BuildState": 1}.items()))
    years = store.run(PAPERS_PER_YEAR)
    cited = store.run(MOST_CITED, {"kept": MOST_CITED_KEPT})
    concepts = list(store.stream(CONCEPT_TOTALS))
    extractors = store.run(EXTRACTORS)
    keep_co_occurring(store, sorted(row["id"] for row in concepts if (row["papers"] or 0) > broad))
    store.run(KEEP, {"labels": list(counts["nodes"]), "label_counts": list(counts["nodes"].values()),
                     "types": list(counts["relationships"]), "type_counts": list(counts["relationships"].values()),
                     "years": [r["year"] for r in years], "year_papers": [r["papers"] for r in years],
                     "cited": [r["id"] for r in cited], "cited_by": [r["cited_by"] for r in cited],
                     "kept": MOST_CITED_KEPT, "top_concepts": top_concepts(concepts), "top_kept": TOP_CONCEPTS_KEPT,
                     **by_year(concepts), **new_by_year(concepts), "years_kept": YEARS_KEPT,
                     "extractors": [r["extractor"] for r in extractors], "extractor_links": [r["links"] for r in extractors],
                     "extractor_avg": [r["avg_confidence"] for r in extractors],
                     "extractor_min": [r["min_confidence"] for r in extractors],
                     "connected": [r["id"] for r in store.run(CONNECTED, {"kept": CONNECTED_KEPT})],
                     "connected_kept": CONNECTED_KEPT, "method_dataset": cells(store, "EVALUATES_ON", "Dataset"),
                     "method_task": cells(store, "ADDRESSES", "Task"), "cells_kept": CELLS_KEPT,
                     "same_name": [r["id"] for r in store.run(SAME_NAME, {"kept": SAME_NAME_KEPT})],
                     "same_name_kept": SAME_NAME_KEPT,
                     "without_concepts": [r["id"] for r in store.run(WITHOUT_CONCEPTS, {"kept": QUALITY_KEPT})],
                     "missing_metadata": [r["id"] for r in store.run(MISSING_METADATA, {"kept": QUALITY_KEPT})],
                     "quality_kept": QUALITY_KEPT, "co_occurring_kept": CO_OCCURRING_KEPT}, write=True)
    return counts


def keep_co_occurring(store: Store, broad: list[str], kept: int = CO_OCCURRING_KEPT) -> None:
    """Keep on each concept of ``broad`` the ``kept`` concepts it appears with most (the read of
    concepts/profile grows with the concept's papers: 2 s for one of 25,000), and forget them on
    the concepts no longer broad."""
    rows = []
    for id_ in broad:
        shared = store.run(CO_OCCURRING, {"id": id_, "kept": kept})
        if shared:  # none kept: the pack counts them (there are none)
            rows.append({"id": id_, "ids": [r["id"] for r in shared],
                         "papers": [r["shared"] for r in shared]})
    store.run(FORGET_CO_OCCURRING, {"kept": [row["id"] for row in rows]}, write=True)
    store.run(KEEP_CO_OCCURRING, {"rows": rows}, write=True)


def cells(store: Store, rel: str, label: str, kept: int = CELLS_KEPT) -> list[str]:
    """The ``kept`` fullest (method, ``label``) cells of papers that use the method and ``rel``
    the other, flat: a method id, then the other's id."""
    rows = store.run(CELLS.format(rel=rel, label=label), {"kept": kept, "sep": CELL_SEPARATOR})
    return [id_ for row in rows for id_ in row["cell"].split(CELL_SEPARATOR)[-2:]]


def top_concepts(concepts: list[dict], kept: int = TOP_CONCEPTS_KEPT) -> list[str]:
    """The ids of each type's ``kept`` concepts of quality 0.5 or more that matter most, in the
    order of ``overview/top-concepts``: by ``weight``, more papers, more mentions, the name."""
    by_type: dict[str, list[dict]] = {}
    for row in concepts:
        if quality(row) >= 0.5:
            by_type.setdefault(row["type"], []).append(row)
    ids = []
    for rows in by_type.values():
        rows.sort(key=lambda r: (-weight(r), -r["papers"], -(r["mentions"] or 0), r["name"]))
        ids += [r["id"] for r in rows[:kept]]
    return ids


def quality(concept: dict) -> float:
    """A concept's quality, 0.5 for one of a graph built before qualities were kept (as the packs read it)."""
    return 0.5 if concept.get("quality") is None else concept["quality"]


QUALITY_POWER = 4  # of 2-6, the power that left the least junk among judged rows in each type's top 20 (shown3 aside)


def weight(concept: dict) -> float:
    """How much a concept matters to the collection: the papers that extracted it (``rated``)
    weighed by its ``quality`` (``kg.store.concept_quality``) to the fourth power, so that a concept
    people would keep outranks a more frequent one they would not (0.9 against 0.7 weighs 2.8 times). The papers that only write
    its name (vocabulary links) do not count: a generic word ("prediction") is written in many
    abstracts and extracted in few, a concept in most of those that write it.

    >>> weight({"papers": 21, "rated": 2, "quality": 0.7}) < weight({"papers": 8, "rated": 7, "quality": 0.9})
    True
    """
    rated = concept["papers"] if concept.get("rated") is None else concept["rated"]
    return rated * quality(concept) ** QUALITY_POWER


def by_year(concepts: list[dict], kept: int = YEARS_KEPT) -> dict[str, list]:
    """Each year's ``kept`` concepts named by the most papers that year, of all types (type
    ``''``) and of each type, in the order of ``trends/concepts-by-year``: parallel lists."""
    ranked: dict[tuple[int, str], list[tuple]] = {}
    for row in concepts:
        for year, papers in zip(row["years"] or [], row["year_papers"] or []):
            entry = (-papers, row["name"].lower(), row["type"], row["id"], papers)
            ranked.setdefault((year, ""), []).append(entry)
            ranked.setdefault((year, row["type"]), []).append(entry)
    out: dict[str, list] = {"by_year": [], "by_year_types": [], "by_year_ids": [], "by_year_papers": []}
    for (year, type_), entries in sorted(ranked.items()):
        for entry in sorted(entries)[:kept]:
            out["by_year"].append(year)
            out["by_year_types"].append(type_)
            out["by_year_ids"].append(entry[3])
            out["by_year_papers"].append(entry[4])
    return out


def new_by_year(concepts: list[dict], kept: int = YEARS_KEPT) -> dict[str, list]:
    """For each year, how many concepts its papers name for the first time and the first
    ``kept`` of their names in the order of ``trends/new-concepts``: parallel lists."""
    first: dict[int, list[tuple]] = {}
    for row in concepts:
        if row["years"]:
            first.setdefault(row["years"][0], []).append((row["name"].lower(), row["type"], row["name"]))
    out: dict[str, list] = {"new_years": [], "new_counts": [], "new_name_years": [], "new_names": []}
    for year, names in sorted(first.items()):
        out["new_years"].append(year)
        out["new_counts"].append(len(names))
        for _, _, name in sorted(names)[:kept]:
            out["new_name_years"].append(year)
            out["new_names"].append(name)
    return out
