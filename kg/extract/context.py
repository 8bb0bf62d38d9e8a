"""What the words after a mention say its type is, where its own words cannot (``spans.span_type``).

A subject followed by a reported value is a Metric ("The minimum reflection loss (RL) is −23.51 dB"); one
that was carried out, or (singular) used to do something, a Method ("Full triage was applied in 77.4% of
the cases"). A span after a preposition ("the MIC of erythromycin") or with a digit ("IL-6") is no subject.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span

from kg import lexicon
from kg.extract import entities
from kg.lexicon import load
from kg.normalize import singular

_VALUE_VERBS = load.words("value_verbs")
_VALUE_FILLERS = load.words("value_fillers")
# a number, optionally signed or compared ("−23.51", "≥10", "~5", "62")
_VALUE = re.compile(r"[<>≤≥~≈±−–-]?\d")
_DONE = load.words("done_verbs")
_USED = load.words("used_verbs")
_PASSIVE_AUXILIARIES = load.words("passive_auxiliaries")
_ADVERBS_BEFORE_VERB = load.words("adverbs_before_verb")
_OBJECT_OPENERS = lexicon.PREPOSITIONS | lexicon.OBJECT_PREPOSITIONS | load.words("object_openers")


def context_type(span: Span) -> str | None:
    """The type the words after ``span`` give it (Metric, Method), or None."""
    doc = span.doc
    if _object(span) or any(c.isdigit() for c in span.text):
        return None
    after = _after(doc, span)
    if reports_value(doc, after) and not entities.method_in_natural_science(span.text, "Entity"):
        return "Metric"  # a technique's head says what it is: "a stepdown regimen of 10 mg kg-1 h-1"
    if carried_out(doc, after, plural=singular(span[-1].text) != span[-1].text):
        return "Method"
    return None


def _object(span: Span) -> bool:
    """A span after a preposition, within three words and no stop ("the MIC of erythromycin", "the area
    under the receiver-operating characteristic curve", "for a standard Chinese man"): no subject."""
    doc = span.doc
    for k in range(span.start - 1, max(span.start - 4, -1), -1):
        token = doc[k]
        if token.lower_ in _OBJECT_OPENERS:
            return True
        if token.is_sent_start or token.is_punct and token.text != ",":
            return False
    return False


def _after(doc: Doc, span: Span) -> int:
    """The first token after the span and a short bracket that follows it ("reflection loss (RL) is")."""
    i = span.end
    if i < len(doc) and doc[i].text == "(":
        j = i + 1
        while j < len(doc) and j - i <= 6 and doc[j].text != ")" and not doc[j].is_sent_start:
            j += 1
        if j < len(doc) and doc[j].text == ")":
            return j + 1
    return i


def _in_sentence(doc: Doc, i: int) -> bool:
    return i < len(doc) and not doc[i].is_sent_start


def reports_value(doc: Doc, i: int) -> bool:
    """Tokens from ``i`` that give a value: a linking verb then a number within three words ("is −23.51
    dB", "was approximately 0.345 μW", "ranged from 0.032"), or "of" and a measured number ("a specificity
    of 92.47%", "a coefficient of 0.84"; not "records of 906 patients", nor "is 7 times smaller")."""
    if not _in_sentence(doc, i):
        return False
    word = doc[i].lower_
    if word == "of":
        return _in_sentence(doc, i + 1) and _measured_number(doc, i + 1)
    if word not in _VALUE_VERBS:
        return False
    for k in range(i + 1, min(i + 5, len(doc))):
        if not _in_sentence(doc, k):
            return False
        if _VALUE.match(doc[k].text):
            return not _times(doc, k)
        if doc[k].lower_ not in _VALUE_FILLERS:
            return False
    return False


def _measured_number(doc: Doc, k: int) -> bool:
    """A number with a fraction, a percentage or a unit after it ("0.84", "92.47 %", "≥10 points" is not)."""
    text = doc[k].text
    if not _VALUE.match(text):
        return False
    unit = k + 1 < len(doc) and doc[k + 1].text.rstrip(".").lower() in lexicon.UNITS
    if unit and k + 2 < len(doc) and doc[k + 2].lower_ == "of":
        return False  # an amount of something else: "a statistical analysis of 5.5 years of data"
    return "." in text or "%" in text or unit


def _times(doc: Doc, k: int) -> bool:
    """A number of times, a ratio to something else rather than a value ("Its radio source is 7 times smaller")."""
    return "fold" in doc[k].lower_ or k + 1 < len(doc) and doc[k + 1].lower_ in ("times", "fold", "-fold")


def carried_out(doc: Doc, i: int, plural: bool) -> bool:
    """Tokens from ``i`` that say the subject was carried out ("were performed", "was carried out") or, when
    it is no plural, used to do something ("was used to assess"; not "is used as chemical quencher"): things
    used are mostly named in the plural ("glucocorticoids are widely used"), techniques in the singular."""
    if not _in_sentence(doc, i) or doc[i].lower_ not in _PASSIVE_AUXILIARIES:
        return False
    k = i + 1
    while _in_sentence(doc, k) and doc[k].lower_ in _ADVERBS_BEFORE_VERB:
        k += 1
    if not _in_sentence(doc, k):
        return False
    verb = doc[k].lower_
    if verb in _DONE or verb == "carried" and _in_sentence(doc, k + 1) and doc[k + 1].lower_ == "out":
        return True
    return verb in _USED and not plural and not (_in_sentence(doc, k + 1) and doc[k + 1].lower_ == "as")
