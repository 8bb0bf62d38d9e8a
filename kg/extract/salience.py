"""How much a concept matters to the paper that names it: a salience in [0, 1] for each (paper, concept).

A logistic model over what a reader looks at (``features``: where and how often the concept is named, whether
the paper proposes it, the rule, type and shape of its name, and what its words mean: ``piece_prior``), weights in
``models/salience.json`` and ``models/salience_pieces.json`` fitted by ``bench/salience_fit.py`` (docs/extraction.md,
"Ranking concepts").

>>> context = Context.of("Graph attention networks", "We propose graph attention networks (GATs). They work.", [0, 45])
>>> context.sentence_of(50)
1
>>> concept = {"name": "graph attention networks", "type": "Method", "mentions": [[11, 35]],
...            "evidence": [{"sentence": [0, 44], "rule": "scierc_ner", "confidence": 0.75}],
...            "proposed": True, "confidence": 0.75, "merges": [{"alias": "GATs", "reason": "acronym"}]}
>>> f = features(concept, context)
>>> f["in_title"], f["first_sentence"], f["proposed"], f["acronym"]
(1.0, 1.0, 1.0, 1.0)
>>> 0.0 <= salience(concept, context) <= 1.0
True
"""

from __future__ import annotations

import bisect
import json
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from kg.extract.mentions import CONCEPT_LABELS, DOMAIN_RULE, RULE_CONFIDENCE
from kg.lexicon import zipf
from kg.normalize import concept_key

WEIGHTS = Path(__file__).resolve().parent / "models" / "salience.json"
PIECES = Path(__file__).resolve().parent / "models" / "salience_pieces.json"
# The word pieces of the dense encoder (kg/models/dense), read as a file: the pieces' scores are fitted on its vectors.
TOKENIZER = Path(__file__).resolve().parents[1] / "models" / "dense" / "tokenizer.json"
RULES = (*RULE_CONFIDENCE, DOMAIN_RULE)
TYPES = (*CONCEPT_LABELS, "Domain")
LONG_TEXT = 2000  # characters: a text this long or longer reads as a whole abstract (paper_length 1)


@dataclass(frozen=True)
class Context:
    """What a concept's salience reads of its paper: the title's words and where each sentence starts."""

    title_key: str
    sentence_starts: tuple[int, ...]
    length: int
    text: str

    @classmethod
    def of(cls, title: str, text: str, sentence_starts: list[int]) -> "Context":
        return cls(f" {concept_key(title)} " if title else "", tuple(sorted(set(sentence_starts))), max(1, len(text)), text)

    @classmethod
    def of_record(cls, record: dict) -> "Context":
        """The context of a ``kg extract`` record: its sentences are those its concepts' evidence names;
        a title made of the abstract's first words is no title."""
        starts = [e["sentence"][0] for c in record["concepts"] for e in c["evidence"]]
        return cls.of("" if record.get("title_derived") else record["title"], record["text"], starts or [0])

    def sentence_of(self, offset: int) -> int:
        """The index of the sentence holding ``offset``."""
        return max(0, bisect.bisect_right(self.sentence_starts, offset) - 1)


def features(concept: dict, context: Context) -> dict[str, float]:
    """The model's inputs for one record concept (``kg extract``'s fields) in its paper."""
    return {**reading_features(concept, context), "pieces": piece_prior(word_pieces(concept["name"]))}


def reading_features(concept: dict, context: Context) -> dict[str, float]:
    """The inputs but ``pieces``: where and how often the paper names the concept, and the shape of its name."""
    first = min(start for start, _ in concept["mentions"])
    sentence_start = context.sentence_starts[context.sentence_of(first)] if context.sentence_starts else 0
    sentences = {context.sentence_of(start) for start, _ in concept["mentions"]}
    n_sentences = max(1, len(context.sentence_starts))
    name = concept["name"]
    words = name.split()
    keys = {concept_key(name), *(concept_key(m["alias"]) for m in concept.get("merges") or [])}
    rules = {e["rule"] for e in concept["evidence"]}
    values = {
        "in_title": float(bool(context.title_key) and any(k and f" {k} " in context.title_key for k in keys)),
        "first_sentence": float(0 in sentences),
        "last_sentence_only": float(sentences == {n_sentences - 1} and n_sentences > 1),
        "position": first / context.length,
        "mentions": math.log1p(len(concept["mentions"])),
        "sentences": len(sentences) / n_sentences,
        "proposed": float(bool(concept.get("proposed"))),
        "acronym": float(any(m["reason"] in ("acronym", "known_acronym") for m in concept.get("merges") or [])),
        "confidence": float(concept["confidence"]),
        "words": min(len(words), 5) / 5,
        "one_word": float(len(words) == 1),
        "capital_or_digit": float(any(c.isupper() or c.isdigit() for c in name[1:]) or name[:1].isdigit()),
        "hyphen": float("-" in name),
        "proper_shape": proper_shape(name),
        # a capital where no sentence starts and no acronym is written: a name of a place, person or thing
        "capital_mid_sentence": float(first > sentence_start and context.text[first:first + 1].isupper()
                                      and not context.text[first:first + 2].isupper()),
        "commonness": commonness(name),
        "paper_length": min(context.length, LONG_TEXT) / LONG_TEXT,
    }
    values.update({f"rule_{rule}": float(rule in rules) for rule in RULES})
    values.update({f"type_{type_}": float(concept["type"] == type_) for type_ in TYPES})
    lowered = [w.lower() for w in words]
    values.update({f"word={w}": 1.0 for w in lowered})  # "analysis", "effects": words people judge vague
    if lowered:
        values[f"head={lowered[-1]}"] = 1.0
    return values


def proper_shape(name: str) -> float:
    """1 when the name has two or more words, each of more than three letters capitalised (as names of places,
    people and works are written) and not all of them all capitals (an acronym), else 0.

    >>> proper_shape("Lake Geneva"), proper_shape("Kelsall model"), proper_shape("BERT"), proper_shape("NASA JPL")
    (1.0, 0.0, 0.0, 0.0)
    """
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", name)
    long = [w for w in words if len(w) > 3]
    return float(len(words) > 1 and bool(long) and all(w[0].isupper() for w in long) and not all(w.isupper() for w in long))


def commonness(name: str) -> float:
    """How common the name's rarest word is in general English, from 0 (unknown) to 1 (Zipf 8).

    >>> commonness("the") > commonness("transformer") > commonness("backpropagation")
    True
    """
    return min((zipf(w) for w in re.findall(r"[a-z]+", name.lower())), default=0.0) / 8


@cache
def _tokenizer():
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(TOKENIZER))
    tokenizer.no_padding()  # the file pads to the encoder's batch length
    return tokenizer


def word_pieces(name: str) -> list[str]:
    """The name's word pieces as the dense encoder reads them (lower case, long words split).

    >>> word_pieces("Graph attention networks")
    ['graph', 'attention', 'networks']
    """
    return _tokenizer().encode(name, add_special_tokens=False).tokens


@cache
def piece_scores() -> dict[str, float]:
    """Each word piece's fitted share of a name's ``pieces`` input (a piece not listed adds 0)."""
    return json.loads(PIECES.read_text(encoding="utf-8"))["scores"]


def piece_prior(pieces: list[str], scores: dict[str, float] | None = None) -> float:
    """The summed scores of a name's word pieces: what the fit learnt of names that mean alike (it scores
    each piece by the encoder's vector of it, so a word no judge read is scored by the words it is near).

    >>> piece_prior(["graph", "##s"], {"graph": 0.5, "##s": -0.25})
    0.25
    """
    scores = piece_scores() if scores is None else scores
    return sum(scores.get(p, 0.0) for p in pieces)


@cache
def model() -> dict:
    """The fitted weights: ``{"bias": b, "weights": {feature: w}}`` (a feature not listed weighs 0)."""
    return json.loads(WEIGHTS.read_text(encoding="utf-8"))


def score(values: dict[str, float], fitted: dict | None = None) -> float:
    """The logistic model's probability that a reader keeps the concept, from its ``features``.

    >>> score({"proposed": 1.0, "word=of": 1.0}, {"bias": 0.0, "weights": {"proposed": 2.0}})
    0.8807970779778823
    """
    fitted = fitted or model()
    weights = fitted["weights"]
    total = fitted["bias"] + sum(weights.get(name, 0.0) * value for name, value in values.items())
    return 1 / (1 + math.exp(-total))


def salience(concept: dict, context: Context) -> float:
    """The concept's salience in its paper, rounded to three places."""
    return round(score(features(concept, context)), 3)
