"""Precision, recall and F1 of typed character spans, exact and overlap.

>>> gold = [[(0, 4, "Method"), (10, 20, "Task")]]
>>> pred = [[(0, 4, "Method"), (12, 20, "Task"), (30, 35, "Metric")]]
>>> s = score(gold, pred, ("Method", "Task", "Metric"))
>>> s.exact["micro"].f1, s.overlap["micro"].f1
(0.4, 0.8)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

Span = tuple  # (start, end, type)


@dataclass
class PRF:
    tp_pred: int = 0   # predictions that match
    n_pred: int = 0
    tp_gold: int = 0   # gold mentions that are found
    n_gold: int = 0

    @property
    def precision(self) -> float:
        return self.tp_pred / self.n_pred if self.n_pred else 0.0

    @property
    def recall(self) -> float:
        return self.tp_gold / self.n_gold if self.n_gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return round(2 * p * r / (p + r), 4) if p + r else 0.0

    def add(self, other: "PRF") -> None:
        self.tp_pred += other.tp_pred
        self.n_pred += other.n_pred
        self.tp_gold += other.tp_gold
        self.n_gold += other.n_gold

    def as_dict(self) -> dict:
        return {"precision": round(self.precision, 4), "recall": round(self.recall, 4), "f1": self.f1,
                "predicted": self.n_pred, "gold": self.n_gold}


@dataclass
class Scores:
    types: tuple[str, ...]
    exact: dict[str, PRF] = field(default_factory=dict)
    overlap: dict[str, PRF] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"exact": {k: v.as_dict() for k, v in self.exact.items()},
                "overlap": {k: v.as_dict() for k, v in self.overlap.items()}}


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def score(gold_docs: Iterable[Sequence[Span]], pred_docs: Iterable[Sequence[Span]], types: Sequence[str]) -> Scores:
    """Scores per type and micro-averaged over ``types``; spans of other types are ignored."""
    types = tuple(types)
    scores = Scores(types, {t: PRF() for t in types}, {t: PRF() for t in types})
    for gold, pred in zip(gold_docs, pred_docs):
        for type_ in types:
            g = {s for s in gold if s[2] == type_}
            p = {s for s in pred if s[2] == type_}
            exact = len(g & p)
            scores.exact[type_].add(PRF(exact, len(p), exact, len(g)))
            scores.overlap[type_].add(PRF(sum(any(_overlaps(x, y) for y in g) for x in p), len(p),
                                          sum(any(_overlaps(y, x) for x in p) for y in g), len(g)))
    for table in (scores.exact, scores.overlap):
        micro = PRF()
        for type_ in types:
            micro.add(table[type_])
        table["micro"] = micro
    return scores
