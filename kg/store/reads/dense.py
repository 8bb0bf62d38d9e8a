"""Reads and writes of the dense vectors (``kg.dense``): each paper's ``Paper.dense`` and the
``(:DenseIndex)`` node counting the writes, by which a query knows its cached matrix is current."""

from __future__ import annotations

STORED_TEXTS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p.id AS id, p.title AS title, p.title_derived AS title_derived, p.abstract AS abstract, p.dense AS dense
"""
WRITE_VECTORS = "UNWIND $rows AS row MATCH (p:Paper {id: row.paper}) SET p.dense = row.dense"
COUNT_WRITE = """
MERGE (s:DenseIndex {id: $id})
SET s.version = coalesce(s.version, 0) + 1, s.model = $model, s.dims = $dims
"""
STATE = "MATCH (s:DenseIndex {id: $id}) RETURN s.version AS version, s.model AS model, s.dims AS dims"
ALL_VECTORS = "MATCH (p:Paper) WHERE p.dense IS NOT NULL RETURN p.id AS id, p.dense AS dense"
TEXTS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p.id AS id, p.abstract AS abstract
"""


def stored_texts(store, ids: list[str]) -> list[dict]:
    """``{id, title, title_derived, abstract, dense}`` of these papers."""
    return store.run(STORED_TEXTS, {"ids": ids})


def write_vectors(store, rows: list[dict], batch: int) -> None:
    """Set ``Paper.dense`` from rows ``{paper, dense}`` (None removes it)."""
    store.run_batches(WRITE_VECTORS, rows, batch)


def count_write(store, index: str, model: str, dims: int) -> None:
    """Count one write of vectors on the index node, with the model that made them."""
    store.run(COUNT_WRITE, {"id": index, "model": model, "dims": dims}, write=True)


def index_state(store, index: str) -> dict | None:
    """``{version, model, dims}`` of the index; None when the graph has no vectors."""
    rows = store.run(STATE, {"id": index})
    return rows[0] if rows else None


def all_vectors(store):
    """``{id, dense}`` of every paper with a vector, streamed."""
    return store.stream(ALL_VECTORS)


def abstracts(store, ids: list[str]) -> dict[str, str]:
    """The abstract of each of these papers, by id."""
    return {r["id"]: r["abstract"] or "" for r in store.run(TEXTS, {"ids": ids})}
