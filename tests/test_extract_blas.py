"""The recogniser's matrix products through numpy's BLAS (kg.extract.blas): same entities, one thread."""

from thinc.api import NumpyOps
from threadpoolctl import threadpool_info

from kg.extract import extract
from kg.extract.blas import OPS, NumpyBlasOps
from kg.model import Paper

# SciERC train (J05-1003) and an OpenAlex abstract (W2100301546), as written there
TEXTS = [
    "This paper considers the problem of automatic assessment of local coherence. We present a novel "
    "entity-based representation of discourse which is inspired by Centering Theory and can be computed "
    "automatically from raw text. We view coherence assessment as a ranking learning problem and show that "
    "the proposed discourse representation supports the effective learning of a ranking function.",
    "In this study, we compared 25 pituitary adenomas with invasion of the cavernous sinus space on "
    "preoperative magnetic resonance imaging findings with the surgical findings.",
]


def _entities(nlp, texts):
    return [[(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in nlp.pipe(texts)]


def test_the_recogniser_multiplies_through_numpy_and_reads_the_same_entities(nlp):
    model = nlp.get_pipe("scierc_ner").model
    assert all(isinstance(node.ops, NumpyBlasOps) for node in model.walk())
    through_numpy = _entities(nlp, TEXTS)
    blis = NumpyOps()
    try:
        for node in model.walk():
            node.ops = blis
        through_blis = _entities(nlp, TEXTS)
    finally:
        for node in model.walk():
            node.ops = OPS
    assert all(through_numpy) and through_numpy == through_blis


def _blas_threads() -> set[int]:
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_extraction_runs_one_blas_thread_and_gives_the_threads_back(nlp):
    before = _blas_threads()
    records = extract([Paper(id=f"p{i}", title="", abstract=t) for i, t in enumerate(TEXTS)], nlp)
    next(records)
    assert _blas_threads() == {1}
    rest = list(records)
    assert len(rest) == 1 and _blas_threads() == before
