"""Rows of a pack query on a store, parameters bound as ``kg query run`` binds them."""

from __future__ import annotations

from queries import get_query


def run_pack(store, name: str, params: dict) -> list[dict]:
    """The rows of the pack query ``name`` (``overview/counts``) with ``params`` checked and defaulted."""
    query = get_query(name)
    return store.run(query.cypher, query.bind(params))
