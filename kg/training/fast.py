"""Training the project's SciERC entity recogniser (``kg train``).

The shipped model ``kg/extract/models/scierc_ner`` is a spaCy ``ner`` trained
on the SciERC training split (Luan et al., 2018) with the config
``kg/extract/models/scierc_ner.cfg``. Its entity types are the project's
(SciERC Material is Dataset) and SciERC's unscored Generic and OtherScientificTerm,
which it learns so that their spans are not taught as "no entity": the extractor emits
no Generic span and an OtherScientificTerm span as an Entity (``kg.extract.components``). Its token encoder
starts from ``en_core_web_sm``'s tok2vec and is copied into the recogniser when training
ends (``export``). For checkpoint selection a fixed sample of the training documents (by a
hash of their key: 25 of 350) is held out; the SciERC dev split is never seen in training.

>>> from kg.training.fast import train                 # doctest: +SKIP
>>> train("../shared/data/scierc/train.json")              # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import time
from pathlib import Path

import spacy
from spacy.tokens import DocBin

from kg.evaluation.scierc import TRAINING_TYPES, read_scierc

MODELS_DIR = Path(__file__).resolve().parent.parent / "extract" / "models"
CONFIG = MODELS_DIR / "scierc_ner.cfg"
MODEL_DIR = MODELS_DIR / "scierc_ner"


def holdout(key: str, fraction: float = 0.1) -> bool:
    """Whether a document is held out for checkpoint selection (stable across runs)."""
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF < fraction


# SciERC writes brackets as Penn Treebank tokens; real abstracts write them as brackets.
PTB_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}


def plain_brackets(text: str, entities: list) -> tuple[str, list]:
    """The text with PTB bracket tokens as brackets, and the entity offsets moved to match.

    >>> from kg.evaluation.scierc import Entity
    >>> plain_brackets("a -LRB- VC -RRB- b", [Entity(0, 16, "Task"), Entity(8, 10, "Task")])
    ('a ( VC ) b', [Entity(start=0, end=8, label='Task'), Entity(start=4, end=6, label='Task')])
    """
    starts, ends, pieces = {}, {}, []
    old = new = 0
    for token in text.split(" "):
        plain = PTB_BRACKETS.get(token, token)
        starts[old], ends[old + len(token)] = new, new + len(plain)
        pieces.append(plain)
        old += len(token) + 1
        new += len(plain) + 1
    return " ".join(pieces), [type(e)(starts[e.start], ends[e.end], e.label) for e in entities]


def make_docbins(train_path: str | Path, out_dir: str | Path, labels: dict[str, str] | None = None) -> tuple[Path, Path]:
    """``train.spacy`` and ``holdout.spacy`` from a SciERC file, tokenized the way ``kg`` tokenizes.
    A document with PTB bracket tokens ("-LRB-") is used twice: as written, and with brackets."""
    nlp = spacy.blank("en")
    bins = {"train": DocBin(), "holdout": DocBin()}
    for sdoc in read_scierc(train_path, TRAINING_TYPES):
        versions = [(sdoc.text, sdoc.entities)]
        if any(token in PTB_BRACKETS for token in sdoc.text.split(" ")):
            versions.append(plain_brackets(sdoc.text, sdoc.entities))
        for text, entities in versions:
            doc = nlp.make_doc(text)
            spans = []
            for entity in entities:
                span = doc.char_span(entity.start, entity.end, label=(labels or {}).get(entity.label, entity.label))
                if span is not None and all(span.end <= s.start or s.end <= span.start for s in spans):
                    spans.append(span)
            doc.ents = sorted(spans, key=lambda s: s.start)
            bins["holdout" if holdout(sdoc.key) else "train"].add(doc)
    if not len(bins["holdout"]):  # a tiny corpus: check on a training document rather than on nothing
        bins["holdout"].add(next(iter(bins["train"].get_docs(nlp.vocab))))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, docbin in bins.items():
        docbin.to_disk(out / f"{name}.spacy")
    return out / "train.spacy", out / "holdout.spacy"


def train(train_path: str | Path, output: str | Path = MODEL_DIR, config: str | Path = CONFIG,
          overrides: dict | None = None, workdir: str | Path | None = None) -> dict:
    """Train the recogniser and write the best checkpoint's pipeline to ``output``."""
    from spacy.cli.train import train as spacy_train

    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(workdir or tmp)
        train_bin, holdout_bin = make_docbins(train_path, work / "corpus")
        spacy_train(config, work / "out", overrides={"paths.train": str(train_bin), "paths.dev": str(holdout_bin),
                                                     **(overrides or {})})
        best = work / "out" / "model-best"
        output = Path(output)
        if output.exists():
            shutil.rmtree(output)
        nlp = export(spacy.load(best))
        nlp.to_disk(output)
        meta = nlp.meta.get("performance", {})
    return {"seconds": round(time.time() - started, 1), "output": str(output), "holdout": meta}


def export(nlp):
    """The trained pipeline as one self-contained ``ner`` (its tok2vec copied inside), ready to be sourced."""
    if "tok2vec" in nlp.pipe_names:
        nlp.replace_listeners("tok2vec", "ner", ["model.tok2vec"])
        nlp.remove_pipe("tok2vec")
    config = nlp.config
    config["paths"].update(train=None, dev=None)  # the corpora were temporary files
    nlp.config = config
    return nlp
