"""Run the extractor ``kg build`` uses, and a noun-chunk baseline, over annotated documents."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from kg.evaluation.metrics import Scores, score
from kg.evaluation.scierc import SCORED_TYPES, SciercDoc, read_scierc
from kg.model import Paper


def extractor_mentions(record: dict, types=SCORED_TYPES) -> list[tuple[int, int, str]]:
    """The typed mention spans of one ``kg extract`` record."""
    return sorted({(start, end, c["type"]) for c in record["concepts"] if c["type"] in types
                   for start, end in c["mentions"]})


def baseline_mentions(doc, types=SCORED_TYPES) -> list[tuple[int, int, str]]:
    """The baseline: every noun chunk of spaCy's parser, typed by its head noun (``lexicon.HEAD_TYPES``),
    leading determiners and pronouns dropped; untyped chunks are not predicted."""
    from kg.lexicon import HEAD_TYPES
    from kg.normalize import singular

    found = set()
    for chunk in doc.noun_chunks:
        start = chunk.start
        while start < chunk.end - 1 and doc[start].pos_ in ("DET", "PRON", "PUNCT"):
            start += 1
        span = doc[start:chunk.end]
        head = span.root
        type_ = HEAD_TYPES.get(head.lower_) or HEAD_TYPES.get(singular(head.lower_))
        if type_ in types:
            found.add((span.start_char, span.end_char, type_))
    return sorted(found)


@dataclass
class EvalReport:
    documents: int
    gold: int
    system: Scores
    baseline: Scores | None
    seconds: float
    pipeline: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"documents": self.documents, "gold_mentions": self.gold, "pipeline": self.pipeline,
                "seconds": self.seconds, "kg": self.system.as_dict(),
                "baseline": self.baseline.as_dict() if self.baseline else None}

    def table(self) -> str:
        """Plain-text tables: one row per system, match and type."""
        lines = [f"{self.documents} documents, {self.gold} gold mentions of {', '.join(self.system.types)}",
                 f"{'system':<9} {'match':<8} {'type':<8} {'P':>6} {'R':>6} {'F1':>6} {'pred':>6} {'gold':>6}"]
        systems = [("kg", self.system)] + ([("baseline", self.baseline)] if self.baseline else [])
        for name, scores in systems:
            for match, table in (("exact", scores.exact), ("overlap", scores.overlap)):
                for type_ in (*scores.types, "micro"):
                    prf = table[type_]
                    lines.append(f"{name:<9} {match:<8} {type_:<8} {prf.precision:>6.3f} {prf.recall:>6.3f} "
                                 f"{prf.f1:>6.3f} {prf.n_pred:>6} {prf.n_gold:>6}")
        return "\n".join(lines)


def evaluate_documents(docs: list[SciercDoc], nlp=None, baseline: bool = True, n_process: int = 1) -> EvalReport:
    """Score the ``kg`` extractor (and the baseline) on documents with gold mentions."""
    import spacy

    from kg.extract import english_model, extract, load_pipeline

    started = time.time()
    nlp = nlp or load_pipeline()
    papers = [Paper(id=d.key or f"doc-{i}", title="", abstract=d.text) for i, d in enumerate(docs)]
    predicted = [extractor_mentions(r) for r in extract(papers, nlp, n_process=n_process)]
    gold = [[tuple(e) for e in d.entities] for d in docs]
    system = score(gold, predicted, SCORED_TYPES)
    base = None
    if baseline:
        parser = spacy.load(english_model(), exclude=["ner"])
        base = score(gold, [baseline_mentions(doc) for doc in parser.pipe(d.text for d in docs)], SCORED_TYPES)
    return EvalReport(len(docs), sum(map(len, gold)), system, base, round(time.time() - started, 1), list(nlp.pipe_names))


def evaluate_scierc(path: str | Path, nlp=None, baseline: bool = True, n_process: int = 1) -> EvalReport:
    """Score the extractor on a SciERC DyGIE JSON file (Method, Task, Metric, Material as Dataset)."""
    return evaluate_documents(list(read_scierc(path)), nlp, baseline, n_process)
