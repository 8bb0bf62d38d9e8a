"""Measuring extraction against human annotations.

>>> from kg.evaluation import evaluate_scierc                      # doctest: +SKIP
>>> report = evaluate_scierc("../shared/data/scierc/dev.json")   # doctest: +SKIP
>>> print(report.table())                                          # doctest: +SKIP

Exact match: a predicted mention counts when its type and character span equal
a gold mention's. Overlap match: a prediction counts when it overlaps a gold
mention of the same type (precision), and a gold mention is found when some
prediction of its type overlaps it (recall).
"""

from __future__ import annotations

from kg.evaluation.metrics import Scores, score
from kg.evaluation.runner import EvalReport, baseline_mentions, evaluate_scierc, extractor_mentions
from kg.evaluation.scierc import SCORED_TYPES, read_scierc

__all__ = ["EvalReport", "SCORED_TYPES", "Scores", "baseline_mentions", "evaluate_scierc", "extractor_mentions",
           "read_scierc", "score"]
