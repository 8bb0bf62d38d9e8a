"""A recognised span as a name: cleaned at its edges (``concept_span``) and typed by its own words
(``span_type``), else by its sentence (``context``), else by the recogniser's label (``recognised``)."""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg import lexicon
from kg.extract import context, edges, english, entities
from kg.extract.mentions import RECOGNISED_AS, Mention, new_mention
from kg.normalize import singular

_MARKUP = frozenset({"(", "[", ")", "]", "{", "}", "*", "**", "$", "$$", "_"})
_OPENING = frozenset({"(", "["})
_CLOSING = frozenset({")", "]"})


def concept_span(span: Span) -> Span | None:
    """A recognised span as a name (``clean_span``) without a heading, a unit or a verb at its
    edges (``edges.trim``), or None (also when markup sits inside it: "$\\delta$-function interaction")."""
    if edges.broken_by_markup(span):
        return None
    span = clean_span(span)
    trimmed = edges.trim(span) if span is not None else None
    return clean_span(trimmed) if trimmed is not None and trimmed != span else trimmed


def clean_span(span: Span) -> Span | None:
    """A recognised span as a name: without a bracket it ends in or opens ("language models (LLMs" -> "language
    models": an acronym in brackets is a mention of its own), markup, a function word at either end ("IS" stays)
    or a preposition at its end ("adjuvant therapy prior"); None if nothing is left, or for a possessive other
    than a person's ("the model's accuracy"; "Cohen's kappa" stays)."""
    doc = span.doc
    if any(t.lower_ in ("'s", "’s") and (t.i == span.start or not (doc[t.i - 1].is_title and doc[t.i - 1].is_alpha))
           for t in span):
        return None
    span = _before_parenthesis(_bracket_closed(span))
    start, end = span.start, span.end
    while start < end and _is_edge_word(doc[start]) and doc[start].whitespace_:
        start += 1
    while end > start and (_is_edge_word(doc[end - 1]) or doc[end - 1].lower_ in lexicon.TRAILING_WORDS):
        end -= 1
    return doc[start:end] if end > start else None


def _is_edge_word(token) -> bool:
    return token.lower_ in lexicon.EDGE_WORDS and not (token.is_upper and len(token) > 1)  # "IS", "OR" are acronyms


def _before_parenthesis(span: Span) -> Span:
    """The span without markup at its edges, and cut at a bracket it opens or ends in."""
    doc, start, end = span.doc, span.start, span.end
    # markup is no part of a name: "{\sl fair representations}" -> "fair representations"
    while start < end - 1 and (doc[start].text in _MARKUP or doc[start].text.startswith("\\")):
        start += 1
    while end > start + 1 and (doc[end - 1].text in _MARKUP or doc[end - 1].text.startswith("\\")) \
            and doc[end - 1].text not in _CLOSING:
        end -= 1
    for i in range(start + 1, end):
        if doc[i].text in _OPENING or (doc[i].text in _CLOSING and not any(_opens(t.text) for t in doc[start:i])):
            end = i
            break
    return doc[start:end]


def _bracket_closed(span: Span) -> Span:
    """The span with the bracket that closes one opened inside a word of it: "poly(ethylene glycol" ->
    "poly(ethylene glycol)", "uranium(VI" -> "uranium(VI)" (the tokenizer splits the closing bracket off)."""
    doc, end = span.doc, span.end
    if end < len(doc) and doc[end].text in _CLOSING and not doc[end - 1].whitespace_ and _opens(span.text):
        return doc[span.start:end + 1]
    return span


def _opens(text: str) -> bool:
    """More brackets opened than closed in ``text``."""
    return text.count("(") > text.count(")") or text.count("[") > text.count("]")


def head_type(span: Span) -> str | None:
    """The concept type a noun phrase's head (its last word) gives it, if any."""
    lower = span.text.lower()
    for phrase, type_ in lexicon.PHRASE_HEADS.items():
        if lower.endswith(phrase):
            return type_
    head = span[-1].lower_
    return lexicon.HEAD_TYPES.get(head) or lexicon.HEAD_TYPES.get(singular(head))


def _as_type(decided: str | None, label: str) -> str:
    """The recogniser's label as a concept type, unless the span itself decided (``span_type``)."""
    if label == "Generic" and decided == "Entity":  # "these cells" stays SciERC's Generic: no concept
        return label
    decided = decided or label
    return RECOGNISED_AS.get(decided, decided)


def span_type(span: Span, label: str) -> str | None:
    """The type a recognised span's own words give it, whatever the recogniser read (``label``), or None
    (then the sentence may decide, ``context.context_type``, else the label). The head noun (the last word
    before a preposition) decides: "accuracy on ImageNet" is a Metric, "vanilla LoRA" a Method, "tannic acid"
    an Entity; a head naming a type gives that type ("maximum set coverage problem", ``lexicon.TYPE_WORDS``)
    and a system is a Method ("OCR system"; not "chaotic system"). Else an Entity's shape ("Fe3+"), a
    procedure ("block randomisation": Method), a measured number ("mean height": Metric) or a data head
    ("IBD cohort": Dataset) decides."""
    head = next((span[i - 1] for i in range(1, len(span)) if span[i].lower_ in lexicon.PREPOSITIONS), span[-1])
    word = head.lower_
    decided = lexicon.NAMED_HEADS.get(head.text) or lexicon.DECIDING_HEADS.get(word) or lexicon.DECIDING_HEADS.get(singular(word))
    if decided is None and label != "Generic" and len(span) > 1:  # "this method" stays SciERC's Generic
        decided = lexicon.TYPE_WORDS.get(singular(word))
        if decided is not None and (english.in_compound(head) or label == "Task" and entities.doing(span.text)):
            decided = None  # "cross-corpus", "building polarity-tagged corpus" are no Dataset
        # a system is a Method; an other term only when a noun says what it handles ("OCR system", not "chaotic system")
        if decided is None and singular(word) == "system" and head.i > span.start and \
                (label in ("Task", "Dataset") or label == "OtherScientificTerm" and not english.only_adjective(span.doc[head.i - 1].lower_)):
            decided = "Method"
    if label == "Generic":
        return decided
    if decided is None and entities.shape_is_entity(span):
        decided = "Entity"
    if decided is None and label in ("OtherScientificTerm", "Dataset") and entities.procedure(word):
        decided = "Method"  # a technique read as a thing or as data
    if decided is None and label == "OtherScientificTerm" and entities.measured_quantity(span.text):
        decided = "Metric"
    if decided is None and (label in ("OtherScientificTerm", "Method") or label == "Task" and not span[0].lower_.endswith("ing")
                            and not entities.doing(span.text)) and entities.data_term(span.text):
        decided = "Dataset"  # "IBD cohort", "tumor samples", "SEER database", "TOS-H group"; not "segmenting sequential data"
    return decided


def recognised(doc: Doc, span: Span, label: str, rule: str = "scierc_ner") -> Mention:
    """The mention of a recognised span: typed by its own words (``span_type``), else by the sentence
    around it (``context.context_type``: "The minimum reflection loss (RL) is −23.51 dB" is a Metric,
    "Full triage was applied" a Method; marked ``context``), else by the recogniser's label."""
    decided = span_type(span, label)
    if decided is None and label != "Generic" and (cue := context.context_type(span)) is not None:
        mention = new_mention(doc, span, cue, rule)
        mention["context"] = True
        return mention
    return new_mention(doc, span, _as_type(decided, label), rule)


def is_named(span: Span) -> bool:
    """A name rather than a description: a capital after the first letter, or a digit ("FlashNet", "GPT-4")."""
    return any(any(c.isupper() for c in t.text[1:]) or any(c.isdigit() for c in t.text) for t in span) or \
        any(t.is_upper and len(t) > 1 for t in span)
