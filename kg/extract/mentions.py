"""A mention, and what the concept components do with lists of them.

A mention is a dict with ``start``/``end`` (character offsets into ``doc.text``), ``text``, ``type``,
``rule``, ``confidence``, ``proposed`` (a Method's; None for other types) and the offsets of its
``sentence``; an acronym's also names its long form (``alias_of``) and a type the sentence gave is
marked ``context``.
"""

from __future__ import annotations

import bisect
from collections import Counter
from typing import TypedDict

from spacy.tokens import Doc, Span

from kg.extract import junk

# Higher wins when two mentions of the same tier overlap exactly.
RULE_PRIORITY = {"gazetteer": 5, "scierc_ner": 4, "we_propose": 3, "acronym": 2, "repeated": 1, "rare_noun": 2}
DOMAIN_RULE = "domain_taxonomy"  # the rule of a domain's mentions (kg_domains), beside the rules of RULE_CONFIDENCE
RULE_CONFIDENCE = {"gazetteer": 0.9, "scierc_ner": 0.75, "we_propose": 0.8, "acronym": 0.75, "repeated": 0.7, "rare_noun": 0.6}
# Mentions of a higher tier beat any overlapping mention of a lower one; within a tier the longer wins.
RULE_TIER = {"gazetteer": 2, "scierc_ner": 2, "we_propose": 2, "acronym": 2, "repeated": 1, "rare_noun": 1}
SCORED_LABELS = ("Method", "Task", "Dataset", "Metric")  # the types kg eval scierc scores
CONCEPT_LABELS = SCORED_LABELS + ("Entity",)  # the types emitted: SciERC's OtherScientificTerm is an Entity
UNSCORED_LABELS = ("Generic", "OtherScientificTerm")  # learnt by the recogniser, never emitted as such
RECOGNISED_AS = {"OtherScientificTerm": "Entity"}  # the recogniser's label -> the concept type it reads


class _Mention(TypedDict):
    start: int
    end: int
    text: str
    type: str  # a concept type, "Domain", or the recogniser's unscored label while it blocks other rules
    rule: str  # one of RULE_CONFIDENCE, or DOMAIN_RULE
    confidence: float
    proposed: bool | None  # a Method's: the paper proposes it; None for other types
    sentence: list[int]  # [start, end] of its sentence


class Mention(_Mention, total=False):
    """A mention as the components keep it (plain data, so docs cross process boundaries intact)."""

    context: bool  # its sentence gave its type ("Full triage was applied")
    alias_of: str  # an acronym's long form


class Sentences:
    """The sentence spans of a doc, looked up by character offset."""

    def __init__(self, doc: Doc):
        if doc.has_annotation("SENT_START"):
            self.spans = [(s.start_char, s.end_char) for s in doc.sents]
        else:
            self.spans = [(0, len(doc_text(doc)))]
        self.starts = [s for s, _ in self.spans]

    def at(self, char: int) -> tuple[int, int]:
        return self.spans[max(0, bisect.bisect_right(self.starts, char) - 1)]


def doc_text(doc: Doc) -> str:
    """``doc.text``, kept with the doc: spaCy joins every token again on each call."""
    text = doc.user_data.get("_kg_text")
    if text is None:
        text = doc.user_data["_kg_text"] = doc.text
    return text


def _sentences(doc: Doc) -> Sentences:
    cached = doc.user_data.get("_kg_sentences")
    if cached is None:
        cached = doc.user_data["_kg_sentences"] = Sentences(doc)
    return cached


def new_mention(doc: Doc, span: Span, type_: str, rule: str, proposed: bool | None = None) -> Mention:
    sent_start, sent_end = _sentences(doc).at(span.start_char)
    return {
        "start": span.start_char, "end": span.end_char, "text": span.text, "type": type_,
        "rule": rule, "confidence": RULE_CONFIDENCE[rule],
        "proposed": (bool(proposed) if type_ == "Method" else None),
        "sentence": [sent_start, max(sent_end, span.end_char)],
    }


def span_of(doc: Doc, mention: Mention) -> Span | None:
    """The tokens a mention covers (widened to whole tokens), or None."""
    return doc.char_span(mention["start"], mention["end"], alignment_mode="expand")


def quoted(doc: Doc) -> list[tuple[int, int]]:
    """Where nothing is a concept: in-text citations, URLs and asides ("Medina and Vassilvitskii (2017)", "Adam et
    al.", "Fig. 3", "Brodsky and Lepage [8]", "(Sigma-Aldrich, St. Louis, MO, USA)")."""
    return [(c["start"], c["end"]) for c in (doc._.kg_citations or []) + (doc._.kg_urls or []) + (doc._.kg_asides or [])]


def outside(mentions: list[Mention], ranges: list[tuple[int, int]]) -> list[Mention]:
    """The mentions that overlap none of these character ranges."""
    return [m for m in mentions if not any(start < m["end"] and m["start"] < end for start, end in ranges)]


def concepts_only(doc: Doc, mentions: list[Mention], rules: tuple[str, ...] | None = None) -> list[Mention]:
    """The mentions (of ``rules``, default all) of a concept type that ``junk.junk_reason`` lets pass;
    the unscored types, and the recogniser's Entities that are junk, stay: they block other rules."""
    kept = []
    text = doc_text(doc)
    for m in mentions:
        if m["type"] in CONCEPT_LABELS and (rules is None or m["rule"] in rules):
            span = span_of(doc, m)
            if span is not None and junk.junk_reason(span, text[m["sentence"][0]:m["sentence"][0] + 40]):
                if m["type"] != "Entity" or m["rule"] != "scierc_ner":
                    continue
                m = dict(m, type="OtherScientificTerm")  # no concept, but it still blocks other rules, as before
        kept.append(m)
    return kept


def consistent_types(mentions: list[Mention]) -> list[Mention]:
    """One type per name in a document: the type of a mention the paper proposes, else the most
    frequent one (the first on a tie)."""
    by_text: dict[str, list[Mention]] = {}
    for m in mentions:
        by_text.setdefault(m["text"], []).append(m)
    for group in by_text.values():
        if len({m["type"] for m in group}) < 2:
            continue
        proposed = [m for m in group if m.get("proposed")]
        # most_common keeps the first seen on a tie
        type_ = proposed[0]["type"] if proposed else Counter(m["type"] for m in group).most_common(1)[0][0]
        for m in group:
            if m["type"] != type_:
                m["type"] = type_
                m["proposed"] = bool(proposed) if type_ == "Method" else None
    return mentions


def resolve_overlaps(mentions: list[Mention]) -> list[Mention]:
    """Keep, among overlapping mentions, the one of the higher tier, then the longer one
    ("GRU decoder" over "GRU"), then the one of the more reliable rule. The kept spans never overlap,
    so of those starting before a mention ends only the last can reach into it.

    >>> m = lambda start, end, rule: {"start": start, "end": end, "rule": rule, "type": "Method"}
    >>> [(k["start"], k["end"]) for k in resolve_overlaps([m(0, 3, "scierc_ner"), m(0, 11, "scierc_ner"), m(12, 15, "scierc_ner")])]
    [(0, 11), (12, 15)]
    """
    ranked = sorted(mentions, key=lambda m: (-RULE_TIER[m["rule"]], -(m["end"] - m["start"]),
                                             -RULE_PRIORITY[m["rule"]], m["start"]))
    spans: list[tuple[int, int]] = []  # the kept spans, in order
    kept: dict[tuple[int, int], Mention] = {}
    for mention in ranked:
        span = (mention["start"], mention["end"])
        before = bisect.bisect_left(spans, (mention["end"], -1))  # the kept spans starting before it ends
        if before == 0 or spans[before - 1][1] <= mention["start"]:
            spans.insert(before, span)
            kept[span] = mention
        elif span in kept and mention.get("proposed"):  # the same span said twice: remember that the paper proposes it
            kept[span]["proposed"] = True if kept[span]["type"] == "Method" else None
    return [kept[span] for span in spans]
