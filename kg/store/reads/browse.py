"""Reads of ``kg serve``'s pages: the search box, a paper's page, a concept's page, a cited
work's page, and which cells of a query's result name a paper or a concept (to link them).

Every read of one node finds that node by its key in a clause of its own, then walks from it
(ArcadeDB plans ``(c:Concept {id: $id})<-[r]-(p:Paper)`` from the papers: 0.6 s for a concept of
300 papers at 10,000 papers, 1 ms with ``MATCH (c:Concept {id: $id}) WITH c MATCH (c)<-[r]-(p:Paper)``); only the search's catalogue reads every
paper and concept, once per build.
"""

from __future__ import annotations

from typing import Iterator

# The search box's catalogue (kg.serve.search holds it in memory: a scan of every title or name
# in the store takes 0.3-2 s at 10,000 papers, one in memory a few milliseconds).
ALL_PAPERS = "MATCH (p:Paper) RETURN p.id AS id, p.title AS title, p.year AS year, p.venue AS venue"
ALL_CONCEPTS = ("MATCH (c:Concept) RETURN c.id AS id, c.name AS name, c.type AS type, c.aliases AS aliases, "
                "coalesce(c.papers, 0) AS papers")
# What changes when a build changes the graph: its batch stamp and the counts it kept.
VERSION = """
OPTIONAL MATCH (s:BuildState {id: 'build'})
RETURN s.stamp AS stamp, s.label_counts AS counts, COUNT { (:Paper) } AS papers
"""
# Papers whose title or abstract has every word of the search (the BM25 index, kg.textsim), most often first.
WITH_WORDS = """
UNWIND $terms AS term
MATCH (:Term {id: term})-[h:OCCURS_IN]->(p:Paper)
WITH p, count(*) AS matched, sum(h.tf) AS tf
WHERE matched = size($terms)
RETURN p.id AS id, tf
ORDER BY tf DESC, id
LIMIT $limit
"""
PAPER = """
MATCH (p:Paper {id: $id})
WITH p
OPTIONAL MATCH (a:Author)-[:WROTE]->(p)
WITH p, collect(a.name) AS authors
RETURN p.id AS id, p.title AS title, p.year AS year, p.venue AS venue, p.doi AS doi, p.abstract AS abstract,
       p.source AS source, p.title_derived AS title_derived, authors
"""
# Every concept the paper names, how (the relationship), where (the first mention) and why.
PAPER_CONCEPTS = """
MATCH (p:Paper {id: $id})
WITH p
MATCH (p)-[r]->(c:Concept)
RETURN c.id AS id, c.name AS name, c.type AS type, type(r) AS relation, r.start AS start, r.end AS end,
       r.evidence AS evidence, r.confidence AS confidence, r.extractor AS rule, r.salience AS salience,
       coalesce(c.papers, 0) AS papers
ORDER BY coalesce(r.salience, 0.0) DESC, relation, toLower(name), id
"""
REFERENCES = """
MATCH (p:Paper {id: $id})
WITH p
MATCH (p)-[:CITES]->(w)
WITH w ORDER BY coalesce(w.year, 0) DESC, coalesce(w.id, w.key)
WITH collect(w) AS works
RETURN size(works) AS total,
       [w IN works[0..$limit] | {id: coalesce(w.id, w.key), loaded: w.id IS NOT NULL, title: w.title, year: w.year,
                                authors: w.authors}] AS works
"""
CITING = """
MATCH (w:Paper {id: $id})
WITH w
MATCH (w)<-[:CITES]-(q:Paper)
WITH q ORDER BY coalesce(q.year, 0) DESC, q.id
WITH collect(q) AS papers
RETURN size(papers) AS total, [q IN papers[0..$limit] | {id: q.id, title: q.title, year: q.year}] AS papers
"""
CITING_REFERENCE = """
MATCH (r:Reference {key: $id})
WITH r
MATCH (r)<-[:CITES]-(q:Paper)
WITH r, q ORDER BY coalesce(q.year, 0) DESC, q.id
WITH r, collect(q) AS papers
RETURN r.key AS id, r.title AS title, r.authors AS authors, r.year AS year, r.candidates AS candidates,
       size(papers) AS total, [q IN papers[0..$limit] | {id: q.id, title: q.title, year: q.year}] AS papers
"""
CONCEPT = """
MATCH (c:Concept {id: $id})
WITH c
OPTIONAL MATCH (c)-[:BROADER]->(b:Concept)
WITH c, collect({id: b.id, name: b.name, type: b.type}) AS broader
OPTIONAL MATCH (n:Concept)-[:BROADER]->(c)
WITH c, broader, n ORDER BY coalesce(n.papers, 0) DESC, n.id
WITH c, broader, collect({id: n.id, name: n.name, type: n.type}) AS narrower
RETURN c.id AS id, c.name AS name, c.type AS type, c.aliases AS aliases, coalesce(c.papers, 0) AS papers,
       c.years AS years, c.year_papers AS year_papers, c.quality AS quality,
       [x IN broader WHERE x.id IS NOT NULL] AS broader, [x IN narrower WHERE x.id IS NOT NULL][0..$limit] AS narrower
"""
CONCEPT_PAPERS = """
MATCH (c:Concept {id: $id})
WITH c
MATCH (c)<-[r]-(p:Paper)
RETURN p.id AS id, p.title AS title, p.year AS year, p.venue AS venue, type(r) AS relation
ORDER BY coalesce(p.year, 0) DESC, p.id
LIMIT $limit
"""
CO_OCCURRING = """
MATCH (c:Concept {id: $id})
WITH c
MATCH (c)<--(p:Paper)
WITH c, collect(DISTINCT p) AS papers
UNWIND papers AS p
MATCH (p)-->(o:Concept)
WHERE o <> c
WITH o, count(*) AS shared
ORDER BY shared DESC, o.id
LIMIT $limit
RETURN o.id AS id, o.name AS name, o.type AS type, shared
"""
# The method x dataset / task cells the concept takes part in, as the matrix packs read them:
# a method proposed or used by a paper that evaluates on a dataset or addresses a task.
PARTNERS = """
MATCH (c:Concept {id: $id})
WITH c
MATCH (c)<-[r]-(p:Paper)
WHERE (c.type = 'Method' AND type(r) IN ['PROPOSES', 'USES']) OR (c.type = 'Dataset' AND type(r) = 'EVALUATES_ON')
   OR (c.type = 'Task' AND type(r) = 'ADDRESSES')
MATCH (p)-[s]->(o:Concept)
WHERE o <> c AND CASE c.type WHEN 'Method' THEN (o.type = 'Dataset' AND type(s) = 'EVALUATES_ON')
                                             OR (o.type = 'Task' AND type(s) = 'ADDRESSES')
                             ELSE o.type = 'Method' AND type(s) IN ['PROPOSES', 'USES'] END
WITH o, count(DISTINCT p) AS papers
ORDER BY papers DESC, o.id
LIMIT $limit
RETURN o.id AS id, o.name AS name, o.type AS type, papers
"""
# Which of some values are paper ids, concept ids or concept names (each found by its index).
KINDS = """
UNWIND $values AS value
OPTIONAL MATCH (p:Paper {id: value})
OPTIONAL MATCH (c:Concept {id: value})
OPTIONAL MATCH (n:Concept {name: value})
WITH value, p, c, n
RETURN value, p IS NOT NULL AS paper, coalesce(c.id, n.id) AS concept
"""
# A concept by an id, a name or an alias, in any case: by its indexes first, by reading every
# concept only when they find none (as queries/concepts/profile.cypher).
RESOLVE_CONCEPT = """
CALL {
  MATCH (c:Concept {id: $key}) RETURN c
  UNION
  MATCH (c:Concept {id: toLower($key)}) RETURN c
  UNION
  MATCH (c:Concept {name: $key}) RETURN c
}
RETURN c.id AS id ORDER BY coalesce(c.papers, 0) DESC, id LIMIT 1
"""


def all_papers(store) -> Iterator[dict]:
    """``{id, title, year, venue}`` of every paper, streamed."""
    return store.stream(ALL_PAPERS)


def all_concepts(store) -> Iterator[dict]:
    """``{id, name, type, aliases, papers}`` of every concept, streamed."""
    return store.stream(ALL_CONCEPTS)


def version(store) -> tuple:
    """What changes when a build changes the graph (its stamp, kept counts and the papers' count)."""
    row = store.run(VERSION)[0]
    return row["stamp"], tuple(row["counts"] or ()), row["papers"]


def with_words(store, terms: list[str], limit: int) -> list[dict]:
    """``{id, tf}`` of the ``limit`` papers whose text has every one of the index's ``terms``
    (``kg.textsim.terms``), the most occurrences first."""
    return store.run(WITH_WORDS, {"terms": terms, "limit": limit})


def paper(store, paper_id: str) -> dict | None:
    """``{id, title, year, venue, doi, abstract, source, title_derived, authors}``, or None."""
    rows = store.run(PAPER, {"id": paper_id})
    return rows[0] if rows else None


def paper_concepts(store, paper_id: str) -> list[dict]:
    """``{id, name, type, relation, start, end, evidence, confidence, rule, salience, papers}`` of
    every concept the paper names, the most salient first."""
    return store.run(PAPER_CONCEPTS, {"id": paper_id})


def references(store, paper_id: str, limit: int) -> tuple[int, list[dict]]:
    """How many works the paper cites, and ``limit`` of them, newest first:
    ``{id, loaded, title, year, authors}`` (``loaded``: a paper of the graph, else a reference)."""
    rows = store.run(REFERENCES, {"id": paper_id, "limit": limit})
    return (rows[0]["total"], rows[0]["works"]) if rows else (0, [])


def citing(store, work_id: str, limit: int) -> tuple[int, list[dict]]:
    """How many papers cite the paper ``work_id``, and ``limit`` of them, newest first: ``{id, title, year}``."""
    rows = store.run(CITING, {"id": work_id, "limit": limit})
    return (rows[0]["total"], rows[0]["papers"]) if rows else (0, [])


def reference(store, key: str, limit: int) -> dict | None:
    """A cited work that is not loaded: ``{id, title, authors, year, candidates, total, papers}``
    (``papers``: ``limit`` of the ``total`` papers citing it), or None."""
    rows = store.run(CITING_REFERENCE, {"id": key, "limit": limit})
    return rows[0] if rows else None


def concept(store, concept_id: str, limit: int) -> dict | None:
    """``{id, name, type, aliases, papers, years, year_papers, quality, broader, narrower}`` (at
    most ``limit`` narrower concepts, the most named first), or None."""
    rows = store.run(CONCEPT, {"id": concept_id, "limit": limit})
    return rows[0] if rows else None


def concept_papers(store, concept_id: str, limit: int) -> list[dict]:
    """``{id, title, year, venue, relation}`` of ``limit`` papers naming the concept, newest first."""
    return store.run(CONCEPT_PAPERS, {"id": concept_id, "limit": limit})


def co_occurring(store, concept_id: str, limit: int) -> list[dict]:
    """``{id, name, type, shared}``: the ``limit`` concepts named by most of the papers naming this one."""
    return store.run(CO_OCCURRING, {"id": concept_id, "limit": limit})


def partners(store, concept_id: str, limit: int) -> list[dict]:
    """``{id, name, type, papers}``: for a method, the datasets it is evaluated on and the tasks
    it addresses; for a dataset or task, the methods; most papers first."""
    return store.run(PARTNERS, {"id": concept_id, "limit": limit})


def kinds(store, values: list[str]) -> dict[str, tuple[str, str]]:
    """``{value: ("paper", id) or ("concept", id)}`` for the values that are a paper id, a
    concept id or a concept's name."""
    found = {}
    for row in store.run(KINDS, {"values": values}):
        if row["paper"]:
            found[row["value"]] = ("paper", row["value"])
        elif row["concept"]:
            found[row["value"]] = ("concept", row["concept"])
    return found


def resolve_concept(store, key: str) -> str | None:
    """The id of the concept whose id or name is ``key`` (the id in any case), found by the indexes; or None."""
    rows = store.run(RESOLVE_CONCEPT, {"key": key})
    return rows[0]["id"] if rows else None
