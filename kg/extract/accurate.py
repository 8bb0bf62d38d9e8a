"""The ``accurate`` recogniser: a fine-tuned transformer encoder that tags words with SciERC types.

It stands where the ``fast`` recogniser (``scierc_ner``) stands and writes the same ``doc.ents``, so the
rules after it read both alike. The tagger (all-MiniLM-L6-v2 with a BIO tag layer, ``kg.training.accurate``)
ships in ``MODEL_DIR`` as an ONNX graph run by ONNX Runtime (docs/extraction.md, "Choosing a recogniser").

>>> from kg.extract import load_pipeline                  # doctest: +SKIP
>>> nlp = load_pipeline(recogniser="accurate")            # doctest: +SKIP
>>> [(e.text, e.label_) for e in nlp("We train a BiLSTM-CRF tagger for NER on CoNLL-2003.").ents]  # doctest: +SKIP
[('BiLSTM-CRF tagger', 'Method'), ('NER', 'Task'), ('CoNLL-2003', 'Dataset')]
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

import numpy
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import minibatch

from kg.errors import Missing
from kg.onnx_lean import cpu_session

MODEL_DIR = Path(__file__).resolve().parent / "models" / "accurate"
MODEL_FILE = "model.onnx"
TYPES = ("Method", "Task", "Dataset", "Metric", "Generic", "OtherScientificTerm")
TAGS = ("O",) + tuple(f"{prefix}-{type_}" for type_ in TYPES for prefix in ("B", "I"))
MAX_PIECES = 256  # word pieces per window, [CLS] and [SEP] included; SciERC abstracts average 157
EXTRA = 'pip install "kg[accurate]"'

# A tagger maps padded piece ids and their attention mask (int64 arrays, batch x width) to one
# score per tag and piece (float32, batch x width x tags): ONNX Runtime here, torch while training.
Tagger = Callable[[numpy.ndarray, numpy.ndarray], numpy.ndarray]


class AccurateMissing(Missing):
    """The extra is not installed, or no trained ``accurate`` recogniser is on disk."""


def requirements_missing() -> str | None:
    """Why the recogniser cannot run here (a message), or None when onnxruntime and tokenizers import."""
    try:
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError as err:
        return f"the accurate recogniser needs the extra ({err.name} is missing); run: {EXTRA}"
    return None


def check(path: str | Path | None = None) -> Path:
    """The folder of a trained recogniser (default ``MODEL_DIR``), once the extra and the folder are there."""
    problem = requirements_missing()
    if problem:
        raise AccurateMissing(problem)
    path = Path(path or MODEL_DIR)
    if not (path / MODEL_FILE).exists():
        raise AccurateMissing(f"no trained accurate recogniser in {path} (no {MODEL_FILE}); "
                              "train one with: kg train --model accurate --data SCIERC_TRAIN_JSON -o DIR")
    meta = read_meta(path)
    if tuple(meta.get("tags", ())) != TAGS:
        raise AccurateMissing(f"{path}: trained for tags {meta.get('tags')}, this kg reads {list(TAGS)}; "
                              "retrain: kg train --model accurate")
    return path


def read_meta(path: Path) -> dict:
    """``kg_accurate.json``: the tags a tagger was trained for and how it was trained."""
    meta = path / "kg_accurate.json"
    return json.loads(meta.read_text(encoding="utf-8")) if meta.exists() else {}


def load_tokenizer(folder: Path):
    """The model's word-piece tokenizer with no truncation and no padding (windows are cut here)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


_FORKED_SESSIONS: list = []  # sessions a forked worker inherited: kept, never destroyed there


class OnnxTagger:
    """The trained tagger on ONNX Runtime, its session made in the process that first tags."""

    def __init__(self, path: Path, threads: int):
        self.path, self.threads = path / MODEL_FILE, threads
        self._session, self._pid = None, None

    def use_threads(self, threads: int) -> None:
        self.threads = threads
        self._drop_session()

    def _drop_session(self) -> None:
        # a session made before a fork has no threads in the child: destroying it there would wait forever
        if self._session is not None and self._pid != os.getpid():
            _FORKED_SESSIONS.append(self._session)
        self._session = None

    def __call__(self, ids: numpy.ndarray, mask: numpy.ndarray) -> numpy.ndarray:
        if self._session is None or self._pid != os.getpid():
            self._drop_session()
            self._session = cpu_session(self.path, self.threads)
            self._pid = os.getpid()
        return self._session.run(None, {"input_ids": ids, "attention_mask": mask})[0]


def words_of(doc: Doc) -> list[int]:
    """The indices of the tokens the encoder reads: every token but whitespace."""
    return [token.i for token in doc if not token.is_space]


class Window(NamedTuple):
    """One encoder input: word pieces with [CLS] and [SEP], and where each of its words starts."""

    ids: list[int]
    first_piece: list[int]
    words: list[int]


def windows(words: list[str], tokenizer, max_pieces: int = MAX_PIECES) -> list[Window]:
    """One text's ``words`` as windows of at most ``max_pieces`` pieces, cut between words (after a
    full stop where one is in the window's second half). ``Window.words`` index ``words``; a word
    with no piece (a control character) is in no window and so is tagged O."""
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    encoding = tokenizer.encode(words, is_pretokenized=True, add_special_tokens=False) if words else None
    ids = encoding.ids if encoding else []
    starts: list[tuple[int, int]] = []  # (word, its first piece)
    for piece, word in enumerate(encoding.word_ids if encoding else []):
        if not starts or starts[-1][0] != word:
            starts.append((word, piece))
    room = max_pieces - 2
    result, first = [], 0
    while first < len(starts):
        last = first  # the words first..last-1 fit
        while last < len(starts) and _piece_end(starts, last, len(ids)) - starts[first][1] <= room:
            last += 1
        if last == first:  # one word longer than a window: its first pieces stand for it
            last = first + 1
        elif last < len(starts):
            stops = [k + 1 for k in range(first + (last - first) // 2, last) if words[starts[k][0]] in (".", "?", "!", ";")]
            last = stops[-1] if stops else last
        begin = starts[first][1]
        end = min(_piece_end(starts, last - 1, len(ids)), begin + room)
        result.append(Window([cls, *ids[begin:end], sep], [starts[k][1] - begin + 1 for k in range(first, last)],
                             [starts[k][0] for k in range(first, last)]))
        first = last
    return result


def _piece_end(starts: list[tuple[int, int]], k: int, n_pieces: int) -> int:
    return starts[k + 1][1] if k + 1 < len(starts) else n_pieces


def batches(items: list, size: int, length: Callable = lambda window: len(window.ids)) -> Iterator[list]:
    """``items`` sorted by ``length`` and cut into batches, so that little padding is computed."""
    ordered = sorted(items, key=length)
    return (ordered[start:start + size] for start in range(0, len(ordered), size))


def spans(tags: list[str]) -> list[tuple[int, int, str]]:
    """Typed spans ``(first, end, type)`` of a BIO tag sequence; an I- that continues nothing starts a span.

    >>> spans(["B-Method", "I-Method", "O", "I-Task", "B-Task", "I-Metric"])
    [(0, 2, 'Method'), (3, 4, 'Task'), (4, 5, 'Task'), (5, 6, 'Metric')]
    """
    found: list[list] = []  # [first, end, type]
    for i, tag in enumerate(tags):
        prefix, _, type_ = tag.partition("-")
        if prefix == "I" and found and found[-1][1:] == [i, type_]:  # continues the span just before it
            found[-1][1] = i + 1
        elif prefix in ("B", "I"):
            found.append([i, i + 1, type_])
    return [tuple(span) for span in found]


class AccurateRecogniser:
    """A spaCy component: tags the words of docs, in length-sorted batches across docs, and sets ``doc.ents``."""

    def __init__(self, path: Path, batch_size: int = 16, threads: int = 0):
        path = check(path)
        self.tokenizer = load_tokenizer(path)
        self.tagger = OnnxTagger(path, threads or default_threads())
        self.batch_size = batch_size

    def use_threads(self, threads: int) -> None:
        """Run the encoder on ``threads`` threads in this process (a forked worker of ``kg.extract.extract`` uses 1)."""
        self.tagger.use_threads(threads)

    def __call__(self, doc: Doc) -> Doc:
        self.annotate([doc])
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        for chunk in minibatch(docs, batch_size):
            yield from self.annotate(chunk)

    def annotate(self, docs: list[Doc]) -> list[Doc]:
        words = [[doc[i].text for i in words_of(doc)] for doc in docs]
        for doc, tags in zip(docs, tag_words(self.tagger, self.tokenizer, words, self.batch_size)):
            tokens = words_of(doc)
            doc.ents = [Span(doc, tokens[first], tokens[end - 1] + 1, label=type_) for first, end, type_ in spans(tags)]
        return docs


def padded(batch: list[Window]) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Padded piece ids and their attention mask (int64, batch x the longest window)."""
    width = max(len(w.ids) for w in batch)
    ids = numpy.zeros((len(batch), width), dtype=numpy.int64)
    mask = numpy.zeros((len(batch), width), dtype=numpy.int64)
    for row, window in enumerate(batch):
        ids[row, :len(window.ids)] = window.ids
        mask[row, :len(window.ids)] = 1
    return ids, mask


def log_softmax(scores: numpy.ndarray) -> numpy.ndarray:
    """Log-probabilities over the last axis.

    >>> numpy.round(numpy.exp(log_softmax(numpy.array([[0.0, numpy.log(3.0)]]))), 2).tolist()
    [[0.25, 0.75]]
    """
    shifted = scores - scores.max(-1, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(-1, keepdims=True))


def tag_words(tagger: Tagger, tokenizer, texts: list[list[str]], batch_size: int = 16) -> list[list[str]]:
    """The tag of every word of several texts (each a list of words), their windows batched together by length."""
    per_text = [windows(words, tokenizer) for words in texts]
    tags = [["O"] * len(words) for words in texts]
    owner = {id(w): k for k, ws in enumerate(per_text) for w in ws}
    for batch in batches([w for ws in per_text for w in ws], batch_size):
        scores = log_softmax(numpy.asarray(tagger(*padded(batch)), dtype=numpy.float32))
        for row, window in enumerate(batch):
            text_tags = tags[owner[id(window)]]
            for word, tag in zip(window.words, viterbi(scores[row, window.first_piece])):
                text_tags[word] = TAGS[tag]
    return tags


def _allowed_transitions():
    """``allowed[a, b]``: tag ``b`` may follow tag ``a`` in BIO (an I- only continues a span of its type)."""
    allowed = numpy.ones((len(TAGS), len(TAGS)), dtype=bool)
    for b, tag in enumerate(TAGS):
        if tag.startswith("I-"):
            allowed[:, b] = [other[2:] == tag[2:] and other[0] in "BI" for other in TAGS]
    return allowed


def viterbi(scores) -> list[int]:
    """The valid BIO tag sequence (indices into ``TAGS``) with the highest summed log-probability,
    given one row of log-probabilities per word: no I- after O or after another type.

    >>> p = numpy.log(numpy.full((2, len(TAGS)), 0.01))
    >>> p[0, TAGS.index("O")], p[0, TAGS.index("B-Task")] = numpy.log(0.5), numpy.log(0.4)
    >>> p[1, TAGS.index("I-Task")] = numpy.log(0.9)
    >>> [TAGS[k] for k in viterbi(p)]   # argmax alone would give O I-Task
    ['B-Task', 'I-Task']
    """
    if len(scores) == 0:
        return []
    penalty = numpy.where(ALLOWED, 0.0, -numpy.inf)
    start = numpy.array([-numpy.inf if tag.startswith("I-") else 0.0 for tag in TAGS])
    best, back = scores[0] + start, []
    for row in scores[1:]:
        total = best[:, None] + penalty  # from tag a (rows) to tag b (columns)
        back.append(total.argmax(0))
        best = total.max(0) + row
    path = [int(best.argmax())]
    for pointers in reversed(back):
        path.append(int(pointers[path[-1]]))
    return path[::-1]


ALLOWED = _allowed_transitions()


def default_threads() -> int:
    """Encoder threads: ``KG_THREADS`` if set, else the cores, at most 2 (more buy little here)."""
    return int(os.environ.get("KG_THREADS") or min(2, os.cpu_count() or 1))


@Language.factory("kg_accurate_ner", assigns=["doc.ents"], default_config={"path": str(MODEL_DIR), "batch_size": 16, "threads": 0})
def make_accurate_ner(nlp: Language, name: str, path: str, batch_size: int, threads: int):
    return AccurateRecogniser(Path(path), batch_size, threads)
