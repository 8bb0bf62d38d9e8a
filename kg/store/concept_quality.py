"""How likely a reader keeps a concept of the collection: its ``quality``, from 0 to 1.

A paper's salience says how much a concept matters to that paper; a concept's quality reads its
totals over the whole collection: the mean salience where it was extracted, the share of the
papers naming it that extracted it (a generic word is written in many abstracts and extracted in
few), how often each paper repeats it, its type and whether its name is one word (a lone "detection"
is more often a vague word than a task, a lone "accuracy" a metric). The weights are a logistic model fitted on
concepts people judged keep or junk (``bench/concept_quality_fit.py``), stored as data in
``concept_quality.json``. Nothing here depends on the collection's size, so a concept's quality
is the same after one build or several.

>>> quality("graph attention network", 0.8, rated=5, papers=5, mentions=12, type_="Method") > quality("detection", 0.5, rated=2, papers=9, mentions=9, type_="Task")
True
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

WEIGHTS = Path(__file__).resolve().parent / "concept_quality.json"


def features(name: str, salience: float, rated: int, papers: int, mentions: int, type_: str) -> dict[str, float]:
    """The model's inputs for the concept ``name`` of type ``type_``: the mean ``salience`` over
    the ``rated`` papers that extracted it, of the ``papers`` naming it with ``mentions`` in all."""
    papers = max(papers, rated, 1)
    return {"salience": salience, "extracted_share": rated / papers,
            "mentions_per_paper": math.log1p(max(mentions, papers) / papers), f"type_{type_}": 1.0,
            f"one_word_{type_}": float(len(name.split()) == 1)}


@cache
def model() -> dict:
    """The fitted weights: ``{"bias": b, "weights": {feature: w}}`` (a feature not listed weighs 0)."""
    return json.loads(WEIGHTS.read_text(encoding="utf-8"))


def score(values: dict[str, float], fitted: dict | None = None) -> float:
    """The logistic model's probability that a reader keeps the concept.

    >>> score({"salience": 1.0}, {"bias": -1.0, "weights": {"salience": 1.0}})
    0.5
    """
    fitted = fitted or model()
    total = fitted["bias"] + sum(fitted["weights"].get(name, 0.0) * value for name, value in values.items())
    return 1 / (1 + math.exp(-total))


def quality(name: str, salience: float, rated: int, papers: int, mentions: int, type_: str) -> float:
    """The concept's quality, rounded to three places."""
    return round(score(features(name, salience, rated, papers, mentions, type_)), 3)
