"""Reads of concepts: which papers name which, their details, finding one by name or alias,
and the concepts a paper shares with others (``kg similar``).

Any relationship from a Paper to a Concept is a mention.
"""

from __future__ import annotations

from typing import NamedTuple

from kg.graph import MENTION_TYPES
from kg.store.counts import weight
from kg.store.reads import papers as papers_read

# One row per concept with its papers' ids: a row per link costs ArcadeDB's Cypher and Bolt
# seven times as long (60 s against 8 s for the 206,000 links of 10,000 papers, bench/scale.py).
NAMING_PAPERS = """
MATCH (c:Concept)
WHERE c.type IN $types
RETURN c.id AS concept, c.type AS type, c.quality AS quality, c.rated AS rated,
       [(c)<-[r]-(p:Paper) WHERE type(r) IN $rels | p.id] AS papers
"""
# The concepts of $types whose kept total says at least $min papers name them (it counts the
# vocabulary's links too: a superset of those the views draw), as kg.store.counts.weight ranks
# them, a page at a time: what a large graph's views start from instead of every concept's papers.
RANKED = """
MATCH (c:Concept)
WHERE c.type IN $types AND c.papers >= $min
WITH c, CASE WHEN c.rated IS NULL THEN c.papers ELSE c.rated END * coalesce(c.quality, 0.5) ^ 4 AS weight
RETURN c.id AS concept
ORDER BY weight DESC, c.papers DESC, c.id
SKIP $skip LIMIT $limit
"""
# A paper by its element id: its id would read its whole record (abstract, vectors), three times as long.
NAMING_ELEMENTS = f"""
UNWIND $ids AS id
MATCH (c:Concept {{id: id}})
RETURN c.id AS concept, c.type AS type, c.quality AS quality, c.rated AS rated,
       [(c)<-[:{"|".join(MENTION_TYPES)}]-(p) | elementId(p)] AS papers
"""
PAPER_IDS = "UNWIND $elements AS e MATCH (p:Paper) WHERE elementId(p) = e RETURN e AS element, p.id AS id"
# A concept's papers as the views draw them, by its kept totals: exact where the build rated every
# extracted link (rated: the papers that extracted it), at most that many elsewhere (papers: the
# vocabulary's links too).
_DRAWN = "CASE WHEN c.rated > 0 THEN c.rated ELSE c.papers END"
KEPT_TOTALS = f"""
MATCH (c:Concept)
WITH c, {_DRAWN} AS papers
WHERE c.type IN $types AND papers >= 1
RETURN count(c) AS named, sum(CASE WHEN papers >= $min THEN 1 ELSE 0 END) AS concepts,
       sum(CASE WHEN papers >= $min THEN papers ELSE 0 END) AS links
"""
# The concepts of one type that link pairs of papers (named by 2 to $most papers: those that
# extracted it, else all, as KEPT_TOTALS counts them), those whose links add most to the papers'
# similarity to all others first: IDF x quality x papers x (papers - 1) (kg.similar.concept_weight
# but for the type's weight, the same for all of them here).
LINKING_MOST = f"""
MATCH (c:Concept)
WITH c, {_DRAWN} AS papers
WHERE c.type = $type AND papers >= 2 AND papers <= $most
WITH c, papers, log(1 + ($n - papers + 0.5) / (papers + 0.5)) * coalesce(c.quality, 0.5) * papers * (papers - 1) AS linking
RETURN c.id AS id, c.type AS type, papers, c.quality AS quality
ORDER BY linking DESC, c.id
LIMIT $limit
"""
# The concepts of $types these papers name through a link of $rels, with their kept totals (as KEPT_TOTALS).
OF_PAPERS = f"""
UNWIND $ids AS id
MATCH (p:Paper {{id: id}})-[r]->(c:Concept)
WHERE type(r) IN $rels AND c.type IN $types
RETURN DISTINCT p.id AS paper, c.id AS id, c.type AS type, {_DRAWN} AS papers, c.quality AS quality
"""
# Reads of given ids start at each node found by its key (a scan of every concept costs seconds
# at 10,000 papers); ``papers`` is the total the build keeps (kg.store.vocabulary.Totals).
DETAILS = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})
RETURN c.id AS id, c.name AS name, c.type AS type, c.aliases AS aliases, c.papers AS papers
"""
NAMED_BY = """
UNWIND $ids AS id
MATCH (c:Concept {id: id})<-[r]-(p:Paper)
WHERE type(r) IN $rels
RETURN p.id AS source, c.id AS target, type(r) AS rel
LIMIT $limit
"""
MOST_NAMED = """
MATCH (c:Concept) WHERE c.papers IS NOT NULL
RETURN c.id AS id, c.name AS name, c.type AS type, c.papers AS papers
ORDER BY c.papers DESC, c.id
LIMIT $top
"""
NAMES = "UNWIND $ids AS id MATCH (c:Concept {id: id}) RETURN c.id AS id, c.name AS name"
# an id, a name or an alias, in any case; the most named first (queries/concepts/profile.cypher
# tries the id and the name by their indexes first)
FIND = """
MATCH (c:Concept)
WHERE c.id = $key OR toLower(c.name) = toLower($key)
   OR any(alias IN coalesce(c.aliases, []) WHERE toLower(alias) = toLower($key))
OPTIONAL MATCH (p:Paper)-[]->(c)
RETURN c.id AS id, count(p) AS papers ORDER BY papers DESC, id LIMIT 1
"""
# Concepts c (and the number of papers) as found, with the concepts one BROADER edge above them,
# each with the number of papers naming it: its kept total (c.papers, exact after every build), as
# counting a broad concept's papers costs as many reads as it has papers.
_AND_BROADER = """
WITH DISTINCT papers, c
OPTIONAL MATCH (c)-[:BROADER]->(b:Concept)
WHERE size($types) = 0 OR b.type IN $types
WITH papers, collect({concept: c, direct: true}) + collect({concept: b, direct: false}) AS found
UNWIND found AS f
WITH papers, f.concept AS c, max(f.direct) AS direct
WHERE c IS NOT NULL
RETURN papers, c.id AS id, c.name AS name, c.type AS type, c.quality AS quality, direct, c.papers AS df
"""
# The paper's concepts. The papers are counted by a query of their own: counted in this one, ArcadeDB
# (26.x) reads the paper's concepts ten times as slowly.
OF_PAPER = """
WITH $papers AS papers
MATCH (p:Paper {id: $paper})-->(c:Concept)
WHERE size($types) = 0 OR c.type IN $types
""" + _AND_BROADER
# The concepts given by id (a draft's, extracted on the fly) that the graph holds.
OF_IDS = """
WITH $papers AS papers
UNWIND $ids AS id
MATCH (c:Concept {id: id})
WHERE size($types) = 0 OR c.type IN $types
""" + _AND_BROADER
# Papers naming (or reaching through one BROADER edge) the given concepts, best summed weight first.
# A concept reaches its narrower concepts' papers only when their kept counts add up to at most
# $most: a broad one ("model") has thousands, whose papers no query can read (nor the store group).
NEIGHBOURS = """
UNWIND $concepts AS concept
MATCH (c:Concept {id: concept.id})
OPTIONAL MATCH (c)<-[:BROADER]-(n:Concept)
WITH concept, c, sum(coalesce(n.papers, 0)) AS narrower
CALL {
  WITH c MATCH (c)<--(d:Paper) RETURN d
  UNION
  WITH c, narrower WITH c, narrower WHERE narrower <= $most MATCH (c)<-[:BROADER]-(:Concept)<--(d:Paper) RETURN d
}
WITH d, concept WHERE d.id <> $paper
WITH d, concept.id AS id, max(concept.weight) AS weight
WITH d, sum(weight) AS score
ORDER BY score DESC, d.id
LIMIT $limit
RETURN d.id AS id
"""
# Each candidate's title, and which of the query's concepts it names, directly or through one
# BROADER edge.
SHARED = """
UNWIND $ids AS id
MATCH (d:Paper {id: id})
OPTIONAL MATCH (d)-->(c:Concept)
OPTIONAL MATCH (c)-[:BROADER]->(b:Concept)
WITH id, d.title AS title, collect(DISTINCT c.id) AS direct, collect(DISTINCT b.id) AS broader
RETURN id, title, [x IN direct WHERE x IN $concepts] AS direct, [x IN broader WHERE x IN $concepts] AS broader
"""


class Named(NamedTuple):
    """A concept as the views read it: its type, the papers naming it, its ``weight``: the
    papers that extracted it x its quality^4 (``kg.store.counts.weight``), and its ``quality`` (None before qualities were kept)."""

    type: str
    papers: set[str]
    weight: float
    quality: float | None = None


def naming_papers(store, rels, types) -> dict[str, Named]:
    """``{concept id: Named}`` for the concepts of ``types`` that a link of ``rels`` names."""
    rows = store.run(NAMING_PAPERS, {"rels": list(rels), "types": list(types)})
    return {r["concept"]: _named(r) for r in rows if r["papers"]}


def most_weighted(store, types, min_papers: int, count: int) -> dict[str, Named]:
    """The ``count`` concepts of ``types`` that at least ``min_papers`` papers name through an
    extracted link (``MENTION_TYPES``) and that matter most (``Named.weight``, then more papers,
    then the id), best first: ranked by their kept totals in the store, so only these concepts'
    papers are read, by their element ids (:func:`paper_ids` gives the ids of those shown)."""
    found: dict[str, Named] = {}
    skip, page = 0, max(count, 50)
    while len(found) < count:
        ids = [r["concept"] for r in store.run(RANKED, {"types": list(types), "min": min_papers, "skip": skip, "limit": page})]
        if not ids:
            break
        rows = store.run(NAMING_ELEMENTS, {"ids": ids})
        found.update({r["concept"]: _named(r) for r in rows if len(r["papers"]) >= min_papers})
        skip += page
    best = sorted(found, key=lambda c: (-found[c].weight, -len(found[c].papers), c))[:count]
    return {c: found[c] for c in best}


def paper_ids(store, elements) -> dict[str, str]:
    """``{element id: paper id}`` of these papers."""
    return {r["element"]: r["id"] for r in store.run(PAPER_IDS, {"elements": list(elements)})}


def kept_totals(store, types, min_papers: int) -> tuple[int, int, int]:
    """By their kept totals (``KEPT_TOTALS``): how many concepts of ``types`` papers name, how many
    at least ``min_papers`` do, and how many links those add up to."""
    row = store.run(KEPT_TOTALS, {"types": list(types), "min": min_papers})[0]
    return row["named"], row["concepts"] or 0, row["links"] or 0


def linking_most(store, types, papers: int, most: int, limit: int) -> list[dict]:
    """``{id, type, papers, quality}`` of each type's ``limit`` concepts that link the most pairs
    of the graph's ``papers`` papers (named by 2 to ``most`` of them), by their kept totals."""
    params = {"n": papers, "most": most, "limit": limit}
    return [row for t in types for row in store.run(LINKING_MOST, {**params, "type": t})]


def of_papers(store, ids: list[str], rels, types) -> list[dict]:
    """``{paper, id, type, papers, quality}``: the concepts of ``types`` each of these papers names."""
    return store.run(OF_PAPERS, {"ids": ids, "rels": list(rels), "types": list(types)})


def papers_of(store, ids: list[str]) -> dict[str, list[str]]:
    """The element ids of the papers naming each of these concepts through an extracted link."""
    return {r["concept"]: r["papers"] for r in store.run(NAMING_ELEMENTS, {"ids": ids})}


def _named(row: dict) -> Named:
    return Named(row["type"], set(row["papers"]), weight(dict(row, papers=len(row["papers"]))), row["quality"])


def details(store, ids: list[str]) -> list[dict]:
    """``{id, name, type, aliases, papers}`` of these concepts (``papers``: how many name it)."""
    return store.run(DETAILS, {"ids": ids})


def named_by(store, ids: list[str], rels, limit: int) -> list[dict]:
    """``{source, target, rel}``: the papers naming the concepts ``ids`` through one of ``rels``."""
    return store.run(NAMED_BY, {"ids": ids, "rels": list(rels), "limit": limit})


def most_named(store, top: int) -> list[dict]:
    """``{id, name, type, papers}`` of the ``top`` concepts named by the most papers (the build's
    totals; ties: id)."""
    return store.run(MOST_NAMED, {"top": top})


def names(store, ids: list[str]) -> dict[str, str]:
    """The name of each of these concepts, by id."""
    return {row["id"]: row["name"] for row in store.run(NAMES, {"ids": ids})}


def find(store, key: str) -> str | None:
    """The id of the concept whose id, name or an alias (any case) is ``key``, the most named
    first; or None."""
    rows = store.run(FIND, {"key": key})
    return rows[0]["id"] if rows else None


def of_paper(store, paper: str, types: list[str]) -> list[dict]:
    """The paper's concepts and those one BROADER edge above them (of ``types``; all when
    empty): ``{papers, id, name, type, direct, df}``, ``df`` the papers naming it."""
    return store.run(OF_PAPER, {"paper": paper, "types": types, "papers": papers_read.count(store)})


def of_ids(store, ids: list[str], types: list[str]) -> list[dict]:
    """As :func:`of_paper` for the concepts ``ids`` (those the graph holds), as if a paper named them."""
    return store.run(OF_IDS, {"ids": ids, "types": types, "papers": papers_read.count(store)})


def neighbours(store, paper: str, weighted: list[dict], limit: int, most: int) -> list[str]:
    """The ``limit`` papers (``paper`` aside) with the largest summed ``weight`` of the concepts
    ``weighted`` (``[{id, weight}]``) they name, directly or through one BROADER edge (where the
    narrower concepts' papers number at most ``most``)."""
    rows = store.run(NEIGHBOURS, {"concepts": weighted, "paper": paper, "limit": limit, "most": most})
    return [r["id"] for r in rows]


def shared(store, ids: list[str], concepts: list[str]) -> list[dict]:
    """For each paper of ``ids``: ``{id, title, direct, broader}``, the ``concepts`` it names
    directly and those it reaches through one BROADER edge."""
    return store.run(SHARED, {"ids": ids, "concepts": concepts})
