"""Papers that share concepts with a paper, ranked so that rare concepts weigh more.

A concept named by ``df`` of the graph's ``N`` papers weighs ``ln(1 + N / df)``
(an IDF: a concept in two papers out of a thousand says more than one in half
of them); a paper's score is the sum of the weights of the concepts it shares.
The ranking is the pack query ``papers/similar``, so the CLI, this module and
Neo4j Browser give the same answer.

>>> from kg.store import open_store
>>> with open_store("kg-data") as store:                       # doctest: +SKIP
...     similar_papers(store, "p-198679ab53b48580", top=1, types=["Method"])
[{'id': 'p-a8d660f09b6062ee', 'title': '…', 'score': 6.109,
  'shared': [{'name': 'Low-Rank Adaptation', 'type': 'Method', 'weight': 3.3844}, ...]}]
"""

from __future__ import annotations

import math
from typing import Iterable

from kg.graph import CONCEPT_LABELS
from queries import QueryError, get_query

QUERY = "papers/similar"


def concept_weight(papers: int, naming: int) -> float:
    """The weight of a concept named by ``naming`` of ``papers`` papers: ln(1 + papers / naming),
    the formula of the pack query ``papers/similar``.

    >>> round(concept_weight(1000, 2), 3), round(concept_weight(1000, 500), 3)
    (6.217, 1.099)
    """
    return math.log(1 + papers / naming)


class PaperNotFound(QueryError):
    """The paper asked about is not in the graph."""


def concept_types(types: Iterable[str] | None) -> list[str]:
    """Concept type names checked against the schema, in their canonical case.

    >>> concept_types(["method", "Dataset"])
    ['Method', 'Dataset']
    """
    canonical = {label.lower(): label for label in CONCEPT_LABELS}
    checked = []
    for name in types or []:
        if name.strip().lower() not in canonical:
            raise QueryError(f"unknown concept type {name!r}; known: {', '.join(CONCEPT_LABELS)}")
        checked.append(canonical[name.strip().lower()])
    return checked


def paper_title(store, paper: str) -> str | None:
    """The title of ``paper``; raises PaperNotFound when no paper has that id."""
    rows = store.run("MATCH (p:Paper {id: $id}) RETURN p.title AS title", {"id": paper})
    if not rows:
        raise PaperNotFound(f"no paper with id {paper!r}; find ids with: kg query run papers/find -p text=WORD")
    return rows[0]["title"]


def similar_papers(store, paper: str, top: int = 10, types: Iterable[str] | None = None) -> list[dict]:
    """The ``top`` papers sharing the most weight of concepts with ``paper``, best first.

    Each result is ``{"id", "title", "score", "shared": [{"name", "type", "weight"}]}``,
    the shared concepts heaviest first. ``types`` keeps only concepts of those types.
    """
    if top < 1:
        raise QueryError(f"top must be at least 1, got {top}")
    types = concept_types(types)
    paper_title(store, paper)
    query = get_query(QUERY)
    rows = store.run(query.cypher, query.bind({"paper": paper, "top": top, "types": types}))
    return [{"id": r["id"], "title": r["title"], "score": r["score"],
             "shared": [{"name": s["name"], "type": s["type"], "weight": s["weight"]} for s in r["shared"]]}
            for r in rows]


def as_json(results: list[dict]) -> list[dict]:
    """Results in the documented JSON shape: ``{"id", "title", "score", "shared": [{"name", "type"}]}``."""
    return [{"id": r["id"], "title": r["title"], "score": r["score"],
             "shared": [{"name": s["name"], "type": s["type"]} for s in r["shared"]]} for r in results]
