"""The dense signal of ``kg similar``: all-MiniLM-L6-v2 sentence vectors, on ONNX Runtime.

A text's vector is the mean of the encoder's token vectors (at most ``max_tokens`` tokens, as
sentence-transformers truncates), scaled to length 1: onnxruntime, tokenizers and numpy, no
torch. The encoder (``kg/models/dense``: all-MiniLM-L6-v2, Apache-2.0, its weights stored as
8-bit integers, 23 MB) is rebuilt by ``bench/dense_export.py``.

``kg build`` stores every paper's vector as ``Paper.dense`` (:func:`index_papers`, one batch at a
time, from the stored title and abstract, so a paper loaded in two steps gets the vector of its
final text) and notes each write with a new version token on the build's ``BuildState`` node. A query multiplies the
matrix of all vectors (:func:`matrix`, read once per index version and kept in memory and, for
the embedded store, in files beside the database, mapped rather than read) by its own vector.

>>> model = default_model()
>>> a, b, c = model.encode(["Low-rank adaptation of large language models",
...                         "Parameter-efficient fine-tuning of LLMs with low-rank updates",
...                         "Soil moisture in alpine meadows"])
>>> float(a @ b) > 0.3 > float(a @ c)
True
"""

from __future__ import annotations

import json
import os
import re
import uuid
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import numpy as np

from kg.store.reads import dense as reads

MODEL_DIR = Path(__file__).parent / "models" / "dense"
DIGITS = 5              # a stored vector's components are rounded so (the 8-bit weights hold fewer)
PAPERS_PER_WRITE = 100
TOGETHER = 32           # sentences run at once for the evidence
EVIDENCE = 3            # results given the nearest sentences (the first the dense signal ranked): each costs an abstract's encoding
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
MIN_SENTENCE_WORDS = 4  # a shorter piece ("Fig. 2.") is no evidence


class Model:
    """The sentence encoder: a tokenizer and the ONNX graph of the transformer."""

    def __init__(self, folder: Path = MODEL_DIR, threads: int = 1):
        import onnxruntime
        from tokenizers import Tokenizer

        self.meta = json.loads((folder / "kg_dense.json").read_text(encoding="utf-8"))
        self.max_tokens = int(self.meta["max_tokens"])
        self.dims = int(self.meta["dims"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(self.max_tokens)
        self.tokenizer.no_padding()
        options = onnxruntime.SessionOptions()
        # one thread: the build's extraction workers and the store use the other cores
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"])

    @property
    def name(self) -> str:
        """What made the vectors, stored with the index so a graph says which model it holds."""
        return f"{self.meta['source']} ({self.meta['onnx']['weights']}), mean of at most {self.max_tokens} tokens"

    def encode(self, texts: Iterable[str], together: bool = False) -> np.ndarray:
        """One unit vector per text (float32); an empty text gives zeros.

        Each text runs alone unless ``together``: the 8-bit weights scale a run's activations by
        its largest, so a text run beside others gets a vector that depends on them (a stored
        vector must not: a graph built in several steps holds the vectors of one built at once).
        ``together`` runs up to ``TOGETHER`` texts at once, for evidence that is never stored."""
        encodings = self.tokenizer.encode_batch([t or "" for t in texts])
        out = np.zeros((len(encodings), self.dims), dtype=np.float32)
        rows = sorted((i for i, e in enumerate(encodings) if len(e.ids) > 2), key=lambda i: len(encodings[i].ids))  # [CLS] [SEP]: no text
        size = TOGETHER if together else 1
        for start in range(0, len(rows), size):
            run = rows[start:start + size]
            width = max(len(encodings[i].ids) for i in run)
            ids = np.zeros((len(run), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for r, i in enumerate(run):
                ids[r, :len(encodings[i].ids)], mask[r, :len(encodings[i].ids)] = encodings[i].ids, 1
            tokens = self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            mean = (tokens * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
            out[run] = mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12)
        return out


@lru_cache(maxsize=1)
def default_model() -> Model:
    """The shipped encoder, loaded once per process."""
    return Model()


# --- build time -------------------------------------------------------------------------

def index_papers(store, paper_ids: Iterable[str], model: Model | None = None) -> int:
    """Store the vector of these papers' stored text (after they are loaded) as ``Paper.dense``;
    returns how many changed. A vector depends only on its paper's text, so a graph built in
    several steps holds the same vectors as one built at once; an unchanged one is not written."""
    from kg.textsim import paper_text

    ids = sorted(set(paper_ids))
    if not ids:
        return 0
    model = model or default_model()
    rows = reads.stored_texts(store, ids)
    vectors = model.encode(paper_text(r["title"], r["abstract"], r["title_derived"]) for r in rows)
    changed = []
    for row, vector in zip(rows, vectors):
        stored = np.round(vector.astype(np.float64), DIGITS).tolist() if vector.any() else None
        if stored != row["dense"]:
            changed.append({"paper": row["id"], "dense": stored})
    if changed:
        reads.write_vectors(store, changed, PAPERS_PER_WRITE)
        reads.note_write(store, uuid.uuid4().hex, model.name, model.dims)
    return len(changed)


# --- query time -------------------------------------------------------------------------

class Matrix:
    """Every paper's vector, row by row, and the paper ids in the same order."""

    def __init__(self, ids: list[str], vectors: np.ndarray):
        self.ids = ids
        self.vectors = vectors
        self.row = {pid: i for i, pid in enumerate(ids)}

    def scores(self, vector: np.ndarray) -> np.ndarray:
        """The cosine of ``vector`` with every paper's (vectors are unit length)."""
        return self.vectors @ vector.astype(np.float32)

    def vector(self, paper: str) -> np.ndarray | None:
        at = self.row.get(paper)
        return None if at is None else self.vectors[at]


_CACHED: dict[tuple, Matrix] = {}


def matrix(store) -> Matrix | None:
    """Every stored vector (None when the graph has none): read once per index version, then
    kept in this process and, for the embedded store, in ``dense-<version>.npy`` (and ``.ids``) beside it."""
    state = reads.index_state(store)
    if not state:
        return None
    key = (store.description, state["version"])
    if key in _CACHED:
        return _CACHED[key]
    found = _from_file(store, state["version"]) or _from_store(store, state["version"])
    _CACHED.clear()  # one graph's matrix at a time: memory stays at one
    _CACHED[key] = found
    return found


def _cache_files(store, version: str) -> tuple[Path, Path] | None:
    """The cache of one index version: the matrix (``.npy``, mapped, not read) and its paper ids."""
    folder = getattr(store, "data_dir", None)
    return (Path(folder) / f"dense-{version}.npy", Path(folder) / f"dense-{version}.ids") if folder else None


def _from_file(store, version: str) -> Matrix | None:
    paths = _cache_files(store, version)
    if paths is None or not all(p.exists() for p in paths):
        return None
    try:
        ids = paths[1].read_text(encoding="utf-8").split("\n") if paths[1].stat().st_size else []
        vectors = np.load(paths[0], mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):  # a cache cut short: read the store again
        return None
    return Matrix(ids, vectors) if vectors.shape[0] == len(ids) else None


def _from_store(store, version: str) -> Matrix:
    ids, rows = [], []
    for row in reads.all_vectors(store):
        ids.append(row["id"])
        rows.append(row["dense"])
    vectors = np.asarray(rows, dtype=np.float32).reshape(len(rows), -1) if rows else np.zeros((0, 0), np.float32)
    found = Matrix(ids, vectors)
    paths = _cache_files(store, version)
    if paths is not None:
        _save(paths, found)
    return found


def _save(paths: tuple[Path, Path], found: Matrix) -> None:
    """Write the cache (and drop older versions'); a folder kg cannot write keeps no cache."""
    matrix_path, ids_path = paths
    try:
        for old in [*matrix_path.parent.glob("dense-*.npy"), *matrix_path.parent.glob("dense-*.ids")]:
            old.unlink()
        partial = matrix_path.with_suffix(".partial.npy")
        np.save(partial, np.ascontiguousarray(found.vectors, dtype=np.float32))
        ids_path.write_text("\n".join(found.ids), encoding="utf-8")
        os.replace(partial, matrix_path)  # last: a matrix file is there only with its ids
    except OSError:
        pass


def neighbours(found: Matrix, scores: np.ndarray, limit: int, exclude: str | None = None,
               among: Iterable[str] = ()) -> dict[str, float]:
    """The ``limit`` papers of the highest ``scores`` (``Matrix.scores``' cosines), and the cosine
    of the papers of ``among`` beyond them; ``exclude`` (the query paper) left out."""
    result = {}
    limit = min(limit, len(found.ids) - (exclude in found.row))
    if limit > 0:
        ranked = scores.copy()
        if exclude in found.row:
            ranked[found.row[exclude]] = -np.inf
        best = np.argpartition(-ranked, limit - 1)[:limit]
        result = {found.ids[i]: float(scores[i]) for i in best}
    for pid in among:
        at = found.row.get(pid)
        if at is not None and pid != exclude:
            result[pid] = float(scores[at])
    return result


def floor(found: Matrix, scores: np.ndarray, exclude: str | None = None) -> float:
    """The mean of ``scores`` over the graph's papers, ``exclude`` (the query paper) left out."""
    n = len(scores) - (exclude in found.row)
    if n <= 0:
        return 0.0
    total = float(scores.sum()) - (float(scores[found.row[exclude]]) if exclude in found.row else 0.0)
    return total / n


# --- evidence ---------------------------------------------------------------------------

def sentences(text: str) -> list[str]:
    """The sentences of an abstract, those of fewer than ``MIN_SENTENCE_WORDS`` words left out.

    >>> sentences("We study LoRA here. It works well on GLUE tasks. Fig. 2. Results follow.")
    ['We study LoRA here.', 'It works well on GLUE tasks.']
    """
    return [s.strip() for s in SENTENCE.split(text or "") if len(s.split()) >= MIN_SENTENCE_WORDS]


def best_sentences(text: str, others: dict[str, str], model: Model | None = None) -> dict[str, dict]:
    """For each text of ``others``, the sentence pair (one of ``text``, one of it) whose vectors
    are nearest: ``{"query": ..., "match": ..., "cosine": ...}``; none for a text without sentences."""
    model = model or default_model()
    own = sentences(text)
    theirs = {pid: sentences(other) for pid, other in others.items()}
    theirs = {pid: found for pid, found in theirs.items() if found}
    if not own or not theirs:
        return {}
    every = own + [s for found in theirs.values() for s in found]
    vectors = model.encode(every, together=True)
    own_vectors, at, pairs = vectors[:len(own)], len(own), {}
    for pid, found in theirs.items():
        cosines = own_vectors @ vectors[at:at + len(found)].T
        at += len(found)
        i, j = np.unravel_index(int(np.argmax(cosines)), cosines.shape)
        pairs[pid] = {"query": own[i], "match": found[j], "cosine": round(float(cosines[i, j]), 3)}
    return pairs
