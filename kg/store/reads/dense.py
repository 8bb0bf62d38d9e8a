"""Reads and writes of the dense vectors (``kg.dense``): each paper's vectors on a node of their
own, ``(:PaperVectors {paper, dense, sentences, sentence_dense})``, and a fresh version token on the
build's bookkeeping node (``BuildState``) at each write, by which a query knows its cached matrix is
current (a token, not a count: a graph emptied and built again must not meet the cache of the one
before). It is bookkeeping, like the batch stamps: a rebuild changes no node of the graph.

The vectors are kept apart from the ``Paper`` because a store reads a node's whole record to read
any of its properties: on the paper they made its record about ten times as large, and every read
of papers (a view, a pack, a paper's id) read them too (the slowest packs 2-6x as long at 100,000
papers). A graph an older kg built, with them on its papers, has them moved at its next build
(:func:`move_apart`); until then they are read where they are.
"""

from __future__ import annotations

STORED_TEXTS = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
OPTIONAL MATCH (v:PaperVectors {paper: id})
RETURN p.id AS id, p.title AS title, p.title_derived AS title_derived, p.abstract AS abstract,
       coalesce(v.dense, p.dense) AS dense, coalesce(v.sentences, p.sentences) AS sentences,
       coalesce(v.sentence_dense, p.sentence_dense) AS sentence_dense
"""
WRITE_VECTORS = """
UNWIND $rows AS row
MERGE (v:PaperVectors {paper: row.paper})
SET v.dense = row.dense, v.sentences = row.sentences, v.sentence_dense = row.sentence_dense
"""
NOTE_WRITE = """
MERGE (s:BuildState {id: 'build'})
SET s.dense_version = $version, s.dense_model = $model, s.dense_dims = $dims, s.vectors_apart = true
"""
STATE = """
MATCH (s:BuildState {id: 'build'}) WHERE s.dense_version IS NOT NULL
RETURN s.dense_version AS version, s.dense_model AS model, s.dense_dims AS dims, s.vectors_apart AS apart
"""
ALL_VECTORS = """
MATCH (v:PaperVectors) WHERE v.dense IS NOT NULL AND EXISTS { MATCH (:Paper {id: v.paper}) }
RETURN v.paper AS id, v.dense AS dense
"""
ALL_VECTORS_ON_PAPERS = "MATCH (p:Paper) WHERE p.dense IS NOT NULL RETURN p.id AS id, p.dense AS dense"
SENTENCES = """
UNWIND $ids AS id
MATCH (p:Paper {id: id})
OPTIONAL MATCH (v:PaperVectors {paper: id})
RETURN p.id AS id, p.abstract AS abstract, coalesce(v.sentences, p.sentences) AS sentences,
       coalesce(v.sentence_dense, p.sentence_dense) AS sentence_dense
"""
APART = "MATCH (s:BuildState {id: 'build'}) RETURN s.vectors_apart AS apart"
ON_PAPERS = """
MATCH (p:Paper) WHERE p.dense IS NOT NULL OR p.sentences IS NOT NULL OR p.sentence_dense IS NOT NULL
RETURN p.id AS id
"""
MOVE = """
UNWIND $rows AS row
MATCH (p:Paper {id: row.id})
MERGE (v:PaperVectors {paper: row.id})
SET v.dense = p.dense, v.sentences = p.sentences, v.sentence_dense = p.sentence_dense
REMOVE p.dense, p.sentences, p.sentence_dense
"""
SET_APART = "MERGE (s:BuildState {id: 'build'}) SET s.vectors_apart = true"


def stored_texts(store, ids: list[str]) -> list[dict]:
    """``{id, title, title_derived, abstract, dense, sentences, sentence_dense}`` of these papers."""
    return store.run(STORED_TEXTS, {"ids": ids})


def write_vectors(store, rows: list[dict], batch: int) -> None:
    """Set each paper's ``dense``, ``sentences`` and ``sentence_dense`` (on its ``PaperVectors``) from rows of those keys and ``paper`` (None removes one)."""
    store.run_batches(WRITE_VECTORS, rows, batch)


def note_write(store, version: str, model: str, dims: int) -> None:
    """Note a write of vectors: its ``version`` token and the model that made them."""
    store.run(NOTE_WRITE, {"version": version, "model": model, "dims": dims}, write=True)


def index_state(store) -> dict | None:
    """``{version, model, dims, apart}`` of the vectors; None when the graph has none."""
    rows = store.run(STATE)
    return rows[0] if rows else None


def all_vectors(store, apart: bool = True):
    """``{id, dense}`` of every paper with a vector, streamed (``apart``: not on the papers, where
    an older kg kept them; :func:`index_state` says which)."""
    return store.stream(ALL_VECTORS if apart else ALL_VECTORS_ON_PAPERS)


def move_apart(store, batch: int = 2000) -> int:
    """Move the vectors an older kg kept on the papers onto nodes of their own, once per graph;
    returns how many papers had them."""
    found = store.run(APART)
    if found and found[0]["apart"]:
        return 0
    ids = [r["id"] for r in store.run(ON_PAPERS)]  # one scan: a scan per batch would read the moved ones again
    store.run_batches(MOVE, [{"id": i} for i in ids], batch)
    store.run(SET_APART, write=True)
    return len(ids)


def sentence_vectors(store, ids: list[str]) -> list[dict]:
    """``{id, abstract, sentences, sentence_dense}`` of these papers: their sentences' offsets and vectors."""
    return store.run(SENTENCES, {"ids": ids})
