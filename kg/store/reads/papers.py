"""Reads of papers: how many, their titles and details, and finding one by id or title."""

from __future__ import annotations

COUNT = "MATCH (p:Paper) RETURN count(p) AS n"
TITLE = "MATCH (p:Paper {id: $id}) RETURN p.title AS title"
DETAILS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p.id AS id, p.title AS title, p.year AS year, p.venue AS venue, left(p.abstract, 400) AS abstract
"""
FIND = """
MATCH (p:Paper) WHERE p.id = $key OR toLower(p.title) = toLower($key)
RETURN p.id AS id ORDER BY p.id LIMIT 1
"""


def count(store) -> int:
    """The number of papers in the graph."""
    return store.run(COUNT)[0]["n"]


def title(store, paper: str) -> tuple[bool, str | None]:
    """Whether ``paper`` is a paper id of the graph, and its title."""
    rows = store.run(TITLE, {"id": paper})
    return (True, rows[0]["title"]) if rows else (False, None)


def details(store, ids: list[str]) -> list[dict]:
    """``{id, title, year, venue, abstract}`` (the abstract's first 400 characters) of these papers."""
    return store.run(DETAILS, {"ids": ids})


def find(store, key: str) -> str | None:
    """The id of the paper whose id or title (any case) is ``key``, or None."""
    rows = store.run(FIND, {"key": key})
    return rows[0]["id"] if rows else None

