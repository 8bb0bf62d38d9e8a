"""The dense signal of ``kg similar``: all-MiniLM-L6-v2 sentence vectors, on ONNX Runtime.

A text's vector is the mean of the encoder's token vectors (at most ``max_tokens`` tokens, as
sentence-transformers truncates), scaled to length 1: onnxruntime, tokenizers and numpy, no
torch. The encoder (``kg/models/dense``: all-MiniLM-L6-v2, Apache-2.0, its weights stored as
8-bit integers, 23 MB) is rebuilt by ``bench/dense_export.py``.

``kg build`` stores every paper's vector as ``Paper.dense`` (:func:`index_papers`, one batch at a
time, from the stored title and abstract, so a paper loaded in two steps gets the vector of its
final text; the extraction workers encode each record beforehand, :func:`encode_records`, and
what they encoded is stored where it is that text) and, from the same run of the encoder, a vector for each sentence of its abstract
the encoder read (the mean of that sentence's token vectors, in the context of the whole text):
``Paper.sentences`` their offsets in the abstract, ``Paper.sentence_dense`` the vectors, 8 bits
a component. They are the evidence of ``kg similar`` (:func:`best_sentences`): the pair of
sentences of two abstracts whose vectors are nearest, found without running the encoder at
query time. Each write is noted with a new version token on the build's ``BuildState`` node. A query multiplies the
matrix of all vectors (:func:`matrix`, read once per index version and kept in memory and, for
the embedded store, in files beside the database, mapped rather than read) by its own vector.
What the encoder gave a text is kept in the vector cache (``kg.vector_cache``, ``KG_VECTOR_CACHE``):
a rebuild, into the same store or another, encodes no text it encoded before.

>>> model = default_model()
>>> a, b, c = model.encode(["Low-rank adaptation of large language models",
...                         "Parameter-efficient fine-tuning of LLMs with low-rank updates",
...                         "Soil moisture in alpine meadows"])
>>> float(a @ b) > 0.3 > float(a @ c)
True
"""

from __future__ import annotations

import base64
import json
import os
import re
import uuid
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import numpy as np

from kg.onnx_lean import cpu_session
from kg.store.reads import dense as reads
from kg.vector_cache import VectorCache, cache_folder, file_digest

MODEL_DIR = Path(__file__).parent / "models" / "dense"
DIGITS = 5              # a stored vector's components are rounded so (the 8-bit weights hold fewer)
PAPERS_PER_WRITE = 100
EVIDENCE = 10           # results given the nearest sentence pair: the first ten (stored vectors, no encoding)
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
MIN_SENTENCE_WORDS = 4  # a shorter piece ("Fig. 2.") is no evidence
STORED = ("dense", "sentences", "sentence_dense")  # what a paper's vectors are stored as
CACHE_FORMAT = 1  # what the vector cache keeps of an encoding (``_encoded``): changed, the old entries are not read
ENCODED = "dense_encoded"  # the key of a build's records that carries their vectors (encode_records)


@dataclass
class Encoded:
    """A text's vector and the vectors of its sentences the encoder read (``spans``: their
    offsets in the text; ``sentences``: one unit row each)."""

    vector: np.ndarray
    spans: list[tuple[int, int]]
    sentences: np.ndarray


class Model:
    """The sentence encoder: a tokenizer and the ONNX graph of the transformer."""

    def __init__(self, folder: Path = MODEL_DIR, threads: int = 1):
        from tokenizers import Tokenizer

        self.meta = json.loads((folder / "kg_dense.json").read_text(encoding="utf-8"))
        self.max_tokens = int(self.meta["max_tokens"])
        self.dims = int(self.meta["dims"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(self.max_tokens)
        self.tokenizer.no_padding()
        self._folder, self._threads, self._session = folder, threads, None
        self._key, self._cache = None, None

    @property
    def session(self):
        """The ONNX Runtime session, made at the first encoding: a process that only stores
        vectors its extraction workers encoded never loads the transformer, and a forked worker
        makes its own."""
        if self._session is None:  # one thread: the build's other extraction workers and the store use the other cores
            self._session = cpu_session(self._folder / "model.onnx", self._threads)
        return self._session

    def cache(self) -> VectorCache | None:
        """The vector cache of this model's files (``KG_VECTOR_CACHE``; None when it is off)."""
        folder = cache_folder()
        if folder is None:
            return None
        if self._cache is None or self._cache.folder != folder:
            if self._key is None:  # the model's files, hashed once per process
                self._key = file_digest(*(self._folder / name for name in ("kg_dense.json", "tokenizer.json", "model.onnx")))
            self._cache = VectorCache(folder, f"{self._key} {DIGITS} {CACHE_FORMAT}")
        return self._cache

    @property
    def name(self) -> str:
        """What made the vectors, stored with the index so a graph says which model it holds."""
        return f"{self.meta['source']} ({self.meta['onnx']['weights']}), mean of at most {self.max_tokens} tokens"

    def encode(self, texts: Iterable[str]) -> np.ndarray:
        """One unit vector per text (float32); an empty text gives zeros.

        Each text runs alone: the 8-bit weights scale a run's activations by its largest, so a
        text run beside others would get a vector that depends on them (a stored vector must
        not: a graph built in several steps holds the vectors of one built at once)."""
        texts = [t or "" for t in texts]
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for i, tokens, _ in self._runs(texts):
            out[i] = _mean_unit(tokens)
        return out

    def encode_with_sentences(self, texts: Iterable[str], spans: Iterable[list[tuple[int, int]]]) -> list[Encoded]:
        """Each text's vector (as ``encode``, each text alone) and, from the same run, a unit
        vector for each of its ``spans`` (character offsets) the encoder read whole: the mean of
        the span's token vectors. A span past the encoder's ``max_tokens`` gets none.

        >>> text = "Low-rank adapters tune large models. Soil moisture was measured daily."
        >>> found = default_model().encode_with_sentences([text], [sentence_spans(text)])[0]
        >>> found.spans == sentence_spans(text), found.sentences.shape
        (True, (2, 384))
        """
        texts, spans = [t or "" for t in texts], list(spans)
        found = [Encoded(np.zeros(self.dims, np.float32), [], np.zeros((0, self.dims), np.float32)) for _ in texts]
        for i, tokens, offsets in self._runs(texts):
            read = [(a, b) for a, b in spans[i] if b <= max(end for _, end in offsets)]
            rows = [[t for t, (x, y) in enumerate(offsets) if y > x and x >= a and y <= b] for a, b in read]
            kept = [(span, row) for span, row in zip(read, rows) if row]
            vectors = np.array([_mean_unit(tokens[row]) for _, row in kept], dtype=np.float32).reshape(-1, self.dims)
            found[i] = Encoded(_mean_unit(tokens), [span for span, _ in kept], vectors)
        return found

    def _runs(self, texts: list[str]):
        """``(index, token vectors, character offsets)`` of each text with words, one run each."""
        for i, encoding in enumerate(self.tokenizer.encode_batch(texts)):
            if len(encoding.ids) > 2:  # [CLS] [SEP] alone: no text
                ids = np.array([encoding.ids], dtype=np.int64)
                tokens = self.session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0]
                yield i, tokens[0], encoding.offsets


def _mean_unit(tokens: np.ndarray) -> np.ndarray:
    """The mean of token vectors scaled to length 1 (summed in float64, then float32)."""
    mean = tokens.astype(np.float64).sum(axis=0) / len(tokens)
    return (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32)


@lru_cache(maxsize=1)
def default_model() -> Model:
    """The shipped encoder, loaded once per process."""
    return Model()


# --- build time -------------------------------------------------------------------------

def index_papers(store, paper_ids: Iterable[str], model: Model | None = None,
                 encoded: dict[str, tuple[str, dict]] | None = None) -> int:
    """Store the vector of these papers' stored text (after they are loaded) as ``Paper.dense``
    and those of their abstracts' sentences (``Paper.sentences``, ``Paper.sentence_dense``);
    returns how many papers changed. A vector depends only on its paper's text, so a graph built
    in several steps holds the same vectors as one built at once; an unchanged one is not written.
    ``encoded`` holds vectors encoded beforehand (``encode_records``, by paper id): used where
    they were made from the text the paper now has, encoded anew where not."""
    ids = sorted(set(paper_ids))
    if not ids:
        return 0
    reads.move_apart(store)  # where an older kg kept them on the papers
    model = model or default_model()
    rows = reads.stored_texts(store, ids)
    encoded = encoded or {}
    fresh = [r for r in rows if encoded.get(r["id"], (None,))[0] != _input_of(r)[0]]
    found = {**encoded, **dict(zip((r["id"] for r in fresh), _vectors(fresh, model)))}
    changed = [{"paper": row["id"], **found[row["id"]][1]} for row in rows
               if any(found[row["id"]][1][k] != row[k] for k in STORED)]
    if changed:
        reads.write_vectors(store, changed, PAPERS_PER_WRITE)
        reads.note_write(store, uuid.uuid4().hex, model.name, model.dims)
    return len(changed)


def encode_records(records: list[dict], model: Model | None = None) -> list[dict]:
    """Give each ``kg extract`` record, under ``ENCODED``, the vectors of the text its paper is
    stored with (``kg.graph.abstract_of``), for ``index_papers``: a build runs this where records
    are made, in its extraction workers, so that the process that stores them does not encode.

    >>> record = {"id": "p", "title": "LoRA", "text": "We adapt large models with low-rank updates.", "title_derived": False}
    >>> text, stored = encode_records([record])[0][ENCODED]
    >>> text, len(stored["dense"]), stored["sentences"]
    ('LoRA We adapt large models with low-rank updates.', 384, [0, 44])
    """
    from kg.graph import abstract_of

    rows = [{"title": r["title"], "abstract": abstract_of(r), "title_derived": r.get("title_derived", False)} for r in records]
    for record, vectors in zip(records, _vectors(rows, model or default_model())):
        record[ENCODED] = vectors
    return records


def _input_of(row: dict) -> tuple[str, int]:
    return encoder_input(row["title"], row["abstract"], row["title_derived"])


def _vectors(rows: list[dict], model: Model) -> list[tuple[str, dict]]:
    """``(text read, the STORED values)`` for rows of ``title``, ``abstract``, ``title_derived``."""
    inputs = [_input_of(r) for r in rows]
    asked = [(text, tuple((a + shift, b + shift) for a, b in sentence_spans(r["abstract"])))
             for r, (text, shift) in zip(rows, inputs)]
    found = _encoded(asked, model)
    return [(text, {"dense": found[ask]["dense"], "sentences": [at - shift for span in found[ask]["spans"] for at in span] or None,
                    "sentence_dense": found[ask]["sentence_dense"]}) for ask, (text, shift) in zip(asked, inputs)]


def _encoded(asked: list[tuple[str, tuple]], model: Model) -> dict[tuple, dict]:
    """What the encoder gives each ``(text, sentence spans)`` as stored (the vector rounded, the sentence
    vectors packed), by input: from the vector cache (``kg.vector_cache``) where it holds them, else encoded
    (and kept there)."""
    cache = model.cache()
    found = cache.get(list(dict.fromkeys(asked))) if cache else {}
    missing = list(dict.fromkeys(ask for ask in asked if ask not in found))
    fresh = {}
    encoded = model.encode_with_sentences([t for t, _ in missing], [list(s) for _, s in missing]) if missing else []
    for (text, spans), vectors in zip(missing, encoded):
        fresh[text, spans] = {"dense": np.round(vectors.vector.astype(np.float64), DIGITS).tolist() if vectors.vector.any() else None,
                              "spans": [list(span) for span in vectors.spans], "sentence_dense": pack(vectors.sentences)}
    if cache and fresh:
        cache.put(fresh)
    return {**found, **fresh}


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
    found = _from_file(store, state["version"]) or _from_store(store, state)
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


def _from_store(store, state: dict) -> Matrix:
    ids, rows = [], []
    for row in reads.all_vectors(store, apart=bool(state["apart"])):
        ids.append(row["id"])
        rows.append(row["dense"])
    vectors = np.asarray(rows, dtype=np.float32).reshape(len(rows), -1) if rows else np.zeros((0, 0), np.float32)
    found = Matrix(ids, vectors)
    paths = _cache_files(store, state["version"])
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

def sentence_spans(text: str | None) -> list[tuple[int, int]]:
    """The offsets of an abstract's sentences, those of fewer than ``MIN_SENTENCE_WORDS`` words left out.

    >>> sentence_spans("We study LoRA here. Fig. 2. It works.")
    [(0, 19)]
    """
    spans, at = [], 0
    for piece in SENTENCE.split(text or ""):
        start = text.index(piece, at)
        at = start + len(piece)
        stripped = piece.strip()
        if len(stripped.split()) >= MIN_SENTENCE_WORDS:
            begin = start + piece.index(stripped)
            spans.append((begin, begin + len(stripped)))
    return spans


def sentences(text: str | None) -> list[str]:
    """The sentences of an abstract (``sentence_spans``).

    >>> sentences("We study LoRA here. It works well on GLUE tasks. Fig. 2. Results follow.")
    ['We study LoRA here.', 'It works well on GLUE tasks.']
    """
    return [text[a:b] for a, b in sentence_spans(text)]


def encoder_input(title: str | None, abstract: str | None, title_derived: bool | None) -> tuple[str, int]:
    """What the encoder reads of a paper (``kg.textsim.paper_text``) and where its abstract starts in it.

    >>> encoder_input("LoRA", "We adapt models.", False)
    ('LoRA We adapt models.', 5)
    """
    from kg.textsim import paper_text

    text, abstract = paper_text(title, abstract, title_derived), abstract or ""
    return text, len(text) - len(abstract.rstrip()) if abstract.strip() else len(text)


def pack(vectors: np.ndarray) -> str | None:
    """Unit row vectors as stored: each scaled so its largest component is 127, as bytes, in base64
    (a cosine reads directions only); None for no rows."""
    if not len(vectors):
        return None
    scaled = vectors / np.maximum(np.abs(vectors).max(axis=1, keepdims=True), 1e-12) * 127
    return base64.b64encode(np.round(scaled).astype(np.int8).tobytes()).decode("ascii")


def unpack(packed: str | None, rows: int) -> np.ndarray | None:
    """``rows`` vectors stored by ``pack``, as unit vectors (float32); None when there are none or
    the stored bytes do not divide into that many rows.

    >>> vectors = np.array([[0.6, -0.8, 0.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    >>> np.round(unpack(pack(vectors), 2).astype(float), 2).tolist()
    [[0.6, -0.8, 0.0], [0.0, 0.0, 1.0]]
    >>> unpack(pack(vectors), 4) is None, unpack(None, 2) is None
    (True, True)
    """
    found = np.frombuffer(base64.b64decode(packed or ""), dtype=np.int8).astype(np.float32)
    if rows == 0 or not len(found) or len(found) % rows:
        return None
    found = found.reshape(rows, -1)
    return found / np.maximum(np.linalg.norm(found, axis=1, keepdims=True), 1e-12)


@dataclass
class Sentences:
    """The sentences of one abstract the encoder read, and their vectors (row by row)."""

    texts: list[str]
    vectors: np.ndarray

    @classmethod
    def stored(cls, abstract: str | None, offsets: list[int] | None, packed: str | None) -> "Sentences | None":
        """As ``index_papers`` stored them (offsets in the abstract, packed vectors); None when
        there are none or they do not fit together."""
        spans = list(zip((offsets or [])[0::2], (offsets or [])[1::2]))
        vectors = unpack(packed, len(spans))
        if vectors is None:
            return None
        return cls([(abstract or "")[a:b] for a, b in spans], vectors)


def stored_sentences(store, ids: list[str]) -> dict[str, Sentences]:
    """The stored sentences and vectors of these papers (those that have some)."""
    found = {r["id"]: Sentences.stored(r["abstract"], r["sentences"], r["sentence_dense"])
             for r in reads.sentence_vectors(store, ids)}
    return {pid: s for pid, s in found.items() if s is not None}


def best_sentences(own: Sentences, others: dict[str, Sentences]) -> dict[str, dict]:
    """For each of ``others``, the sentence pair (one of ``own``, one of it) whose vectors are
    nearest: ``{"query": ..., "match": ..., "cosine": ...}``; none where either has no sentences."""
    pairs = {}
    for pid, theirs in others.items():
        if own.texts and theirs.texts:
            cosines = own.vectors @ theirs.vectors.T
            i, j = np.unravel_index(int(np.argmax(cosines)), cosines.shape)
            pairs[pid] = {"query": own.texts[i], "match": theirs.texts[j], "cosine": round(float(cosines[i, j]), 3)}
    return pairs
