"""Reads and writes of the dense vectors (``kg.dense``): each paper's ``Paper.dense``, and a fresh
version token on the build's bookkeeping node (``BuildState``) at each write, by which a query
knows its cached matrix is current (a token, not a count: a graph emptied and built again must not
meet the cache of the one before). It is bookkeeping, like the batch stamps: a rebuild changes no
node of the graph."""

from __future__ import annotations

STORED_TEXTS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p.id AS id, p.title AS title, p.title_derived AS title_derived, p.abstract AS abstract, p.dense AS dense,
       p.sentences AS sentences, p.sentence_dense AS sentence_dense
"""
WRITE_VECTORS = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.paper})
SET p.dense = row.dense, p.sentences = row.sentences, p.sentence_dense = row.sentence_dense
"""
NOTE_WRITE = """
MERGE (s:BuildState {id: 'build'})
SET s.dense_version = $version, s.dense_model = $model, s.dense_dims = $dims
"""
STATE = """
MATCH (s:BuildState {id: 'build'}) WHERE s.dense_version IS NOT NULL
RETURN s.dense_version AS version, s.dense_model AS model, s.dense_dims AS dims
"""
ALL_VECTORS = "MATCH (p:Paper) WHERE p.dense IS NOT NULL RETURN p.id AS id, p.dense AS dense"
SENTENCES = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p.id AS id, p.abstract AS abstract, p.sentences AS sentences, p.sentence_dense AS sentence_dense
"""


def stored_texts(store, ids: list[str]) -> list[dict]:
    """``{id, title, title_derived, abstract, dense, sentences, sentence_dense}`` of these papers."""
    return store.run(STORED_TEXTS, {"ids": ids})


def write_vectors(store, rows: list[dict], batch: int) -> None:
    """Set ``Paper.dense``, ``.sentences`` and ``.sentence_dense`` from rows of those keys and ``paper`` (None removes one)."""
    store.run_batches(WRITE_VECTORS, rows, batch)


def note_write(store, version: str, model: str, dims: int) -> None:
    """Note a write of vectors: its ``version`` token and the model that made them."""
    store.run(NOTE_WRITE, {"version": version, "model": model, "dims": dims}, write=True)


def index_state(store) -> dict | None:
    """``{version, model, dims}`` of the vectors; None when the graph has none."""
    rows = store.run(STATE)
    return rows[0] if rows else None


def all_vectors(store):
    """``{id, dense}`` of every paper with a vector, streamed."""
    return store.stream(ALL_VECTORS)


def sentence_vectors(store, ids: list[str]) -> list[dict]:
    """``{id, abstract, sentences, sentence_dense}`` of these papers: their sentences' offsets and vectors."""
    return store.run(SENTENCES, {"ids": ids})
