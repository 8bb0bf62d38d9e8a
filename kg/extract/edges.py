"""What a recognised span loses at its edges (``trim``): a structured abstract's heading before it ("CONCLUSIONS
Fertility ..."), a unit after a number outside it ("5 mM NaOH solution"), a verb at either end ("g-C3N4 exhibits",
"to drive substructure identification") and a clause or a value after its name. Verbs are told lexically
(``kg.extract.english``)."""

from __future__ import annotations

import functools
import re

from spacy.tokens import Span, Token

from kg import lexicon
from kg.extract import english, entities
from kg.normalize import CACHED_SPELLINGS, singular

_NUMBER = re.compile(r"[<>≤≥~±]?\d[\d.,·:/\-–]*")
_ACRONYM_PLURAL = re.compile(r"[A-Z][A-Za-z0-9]*[A-Z0-9]s")  # "EVs", "AgNPs", "MSCs"


def trim(span: Span) -> Span | None:
    """The span without what is no part of its name at its edges (a heading, a unit, a verb, a clause or a value,
    the people a study read), or None if nothing is left: "CONCLUSIONS Vitamin D deficiency" -> "Vitamin D
    deficiency", "mM NaOH solution" (after "5") -> "NaOH solution", "g-C3N4 exhibits" -> "g-C3N4"."""
    doc, start, end = span.doc, span.start, span.end
    while start < end and (_is_heading(doc[start]) or doc[start].is_space or (
            doc[start].lower_ in ("and", "&") and start + 1 < end and _is_heading(doc[start + 1])) or (start > span.start and (
            doc[start].lower_ in (":", "/", "&", "and") or doc[start - 1].text == "/" and doc[start].lower_ in lexicon.SECTION_HEADINGS))):
        start += 1
    if start + 1 < end and start > 0 and is_number(doc[start - 1]) and is_unit(doc[start], doc[start - 1]) and \
            doc[start].text != "°" and doc[start + 1].text[:1].isalpha() and not is_unit(doc[start + 1]):
        start += 1  # "5 mM NaOH solution" -> "NaOH solution"; "0.81 °C" stays a quantity
    if end - start > 1 and (is_verb_at_start(doc[start]) or doc[start].lower_ in lexicon.RESEARCH_PARTICIPLES):
        start += 1  # "identified genetic networks": what the study did to them, no kind of them
    if end - start > 1 and doc[start].whitespace_ and changed_amount(doc[start:end].text):
        start += 1  # "higher vitamin D levels": which way a quantity went, no part of its name ("high-risk" is one word)
    if end - start > 1 and (is_verb_at_end(doc[end - 1]) or _comparative(doc[end - 1])):
        end -= 1
    # a clause: its subject is the name ("Melatonin mitigates heat stress")
    end = next((i for i in range(start + 1, end - 1) if _verb_inside(doc[i], start)), end)
    # a value: "docking score of -8.955", "sample of 1077 people" ("of 2-pyridones" stays)
    end = next((i for i in range(start + 1, end - 1)
                if doc[i].lower_ == "of" and is_number(doc[i + 1]) and doc[i + 1].whitespace_), end)
    if end - start > 1:
        return _without_population(doc[start:end])
    return doc[start:end] if end > start else None


def _without_population(span: Span) -> Span | None:
    """The span without the people a study read, at its end ("breast cancer patients" -> "breast cancer") or before
    a preposition ("survivors of cardiopulmonary resuscitation"); None for an arm of the study ("healthy controls")
    and when what is left names nothing of its own ("pregnant women", "Chinese students")."""
    doc, start, end = span.doc, span.start, span.end
    if entities.study_arm(span.text) or entities.healthy_controls(span.text):
        return None  # the arm's label or treatment is named on its own where it matters ("placebo")
    if entities.people_word(doc[end - 1].text):
        end -= 1
    elif end - start > 2 and entities.people_word(doc[start].text) and doc[start + 1].lower_ in lexicon.PREPOSITIONS:
        start += 2  # "survivors of"
    else:
        return span
    while end > start and (doc[end - 1].is_punct or doc[end - 1].lower_ in lexicon.EDGE_WORDS):
        end -= 1
    return doc[start:end] if end > start and _names_something(doc[start:end]) else None


def _names_something(span: Span) -> bool:
    """What remains of a population names a concept: an acronym or a name with digits ("AML", "COVID-19"), or
    two words or more that end in a noun ("breast cancer"); not an adjective ("non-Hispanic") or a lone word."""
    words = span.text.split()
    last = words[-1]
    if "-" in last and last.rsplit("-", 1)[1].isalpha():
        return False  # a compound modifier: "average-risk", "COVID-19-positive"
    if any(c.isdigit() for c in last) or last.isupper() and len(last) > 1:
        return True
    classes = english.word_classes()
    return len(words) > 1 and last.lower() in classes.nouns and last.lower() not in classes.adjectives


def is_verb_at_start(token: Token) -> bool:
    """A span's first word read as a verb: an "-s" form no noun or adjective is spelt like ("androgen stimulates"),
    a base form of one after "to", a modal or an adverb ("to suppress virus-cell fusion"), or any verb's base form
    after a modal or after "that" and a plural ("interactions that drive ..."); not after a determiner ("the parse tree")."""
    if not english.is_plain_word(token) or english.in_compound(token) or token.lower_.endswith(("ed", "ing")) or token.i == 0:
        return False  # participles and gerunds start noun phrases ("learned features")
    classes, word, doc = english.word_classes(), token.lower_, token.doc
    previous = doc[token.i - 1]
    if previous.lower_ in lexicon.MODIFIER_CUES:
        return False
    if english.verb_form(word, classes):
        return word.endswith("s") or previous.lower_ in lexicon.VERB_CUES or previous.lower_.endswith("ly")
    if word not in classes.verbs or word.endswith("s"):
        return False
    if previous.lower_ in lexicon.MODALS:
        return True
    return previous.lower_ in ("that", "which", "who") and token.i > 1 and doc[token.i - 2].lower_.endswith("s") \
        and english.noun_reading(doc[token.i - 2].lower_, classes)


def is_verb_at_end(token: Token) -> bool:
    """A span's last word read as a verb: an "-s" or "-ed" form no noun or adjective is spelt like ("score resembles"),
    an "-ing" form or a base form after a plural ("microbial changes occurring", "signals dominate"), or an "-s" form
    before a determiner or an evaluative word ("g-C3N4 exhibits excellent ...")."""
    if not english.is_plain_word(token) or english.in_compound(token):
        return False
    classes, word, doc, following = english.word_classes(), token.lower_, token.doc, english.next_token(token)
    if word.endswith("ing"):  # a participle after a plural is its verb: "microbial changes occurring", "cells expressing";
        # so is one spelt like a noun when a determiner follows ("articles meeting all of the criteria")
        previous = doc[token.i - 1] if token.i > 0 else None
        verb_only = word not in classes.nouns  # "orientations alternating": an adjective's "-ing" is a verb's too
        return (verb_only or following is not None and following.lower_ in lexicon.DETERMINERS) and previous is not None and \
            previous.is_alpha and singular(previous.lower_) != previous.lower_ and \
            english.noun_reading(previous.lower_, classes) and \
            any(b in classes.verbs for b in (word[:-3], word[:-3] + "e", word[:-4]))
    if english.noun_reading(word, classes):
        return word.endswith("s") and any(b in classes.verbs for b in english.bases(word)) and following is not None \
            and following.lower_ in lexicon.AFTER_VERB
    if word.endswith("s") and english.verb_form(word, classes):  # a plural noun the tables miss ends a clause ("isolates .")
        return following is not None and not following.is_punct
    if word.endswith("ed") and (any(b in classes.verbs for b in english.bases(word)) or word in classes.irregular_verb_forms):
        return True
    previous = doc[token.i - 1] if token.i > 0 else None
    return english.only_verb(word, classes) and previous is not None and previous.lower_.endswith("s") and previous.is_alpha


def _is_heading(token: Token) -> bool:
    """A structured abstract's heading word: "BACKGROUND", or "Methods" opening a sentence."""
    if token.lower_ not in lexicon.SECTION_HEADINGS or not (token.is_upper or token.is_title):
        return False
    doc = token.doc
    following = english.next_token(token)
    opens = token.i == 0 or token.is_sent_start or doc[token.i - 1].text in (":", ">", "/", "&") or \
        doc[token.i - 1].lower_ in lexicon.SECTION_HEADINGS or doc[token.i - 1].lower_ == "and"
    heading_like = token.is_upper or following is None or following.text[:1].isupper() or following.text in (":", "/", "&")
    return (token.is_upper and len(token) > 3) or (opens and heading_like)


def is_number(token: Token) -> bool:
    return token.like_num or bool(_NUMBER.fullmatch(token.text))


def is_unit(token: Token, after_number: Token | None = None) -> bool:
    """A unit of measurement; a one-letter one ("h", "L") only after a number and a space;
    capitals only where the unit is written so ("CFU", "MJ"; "HR" is a heart rate)."""
    text = token.text.rstrip(".")
    if text.lower() not in lexicon.UNITS or (token.is_upper and len(text) > 1 and text not in lexicon.UPPER_UNITS):
        return False
    if len(text) == 1 and text not in "%°":
        return after_number is not None and bool(after_number.whitespace_) and text in lexicon.LETTER_UNITS
    return True


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def changed_amount(name: str) -> bool:
    """A word of degree or change (``lexicon.CHANGE_WORDS``) opens the name of a measured quantity, its head the
    last word before a preposition: "higher rates of congenital syphilis", "lower wall temperatures", "low error"
    name rates of congenital syphilis, wall temperatures, error; "lower bound" and "higher education" keep it.

    >>> [changed_amount(n) for n in ["higher vitamin D levels", "low error", "lower bound", "high"]]  # doctest: +SKIP
    [True, True, False, False]
    """
    words = name.lower().split()
    if len(words) < 2 or words[0] not in lexicon.CHANGE_WORDS:
        return False
    head = next((words[i - 1] for i in range(2, len(words)) if words[i] in lexicon.PREPOSITIONS), words[-1])
    return head.isalpha() and singular(head) in lexicon.AMOUNT_HEADS


def _comparative(token: Token) -> bool:
    """A comparative adjective ending a span, where the clause's predicate starts ("fine-grained matching harder",
    of "making fine-grained matching harder"): an "-er" form of an adjective that is no noun ("water", "filter")."""
    word = token.lower_
    if not english.is_plain_word(token) or not word.endswith("er") or english.in_compound(token):
        return False
    classes = english.word_classes()
    bases = (word[:-2], word[:-1], word[:-3] + "y") + ((word[:-3],) if len(word) > 4 and word[-3] == word[-4] else ())
    return word not in classes.nouns and word not in classes.verbs and any(b in classes.adjectives for b in bases)


def _verb_inside(token: Token, start: int) -> bool:
    """A verb inside a span, after its subject (not after an adjective: "clinical isolates"): an "-s" form no noun
    or adjective is spelt like ("lncRNA regulates tumorigenesis"), such a verb's base form after a plural ("AgNPs
    disrupt biofilm formation"), an "-ed" form taking an object (``_past_verb``, from ``start`` on) or an "-ing"
    one after a plural (``_participle_taking_object``: "human trials evaluating CD19-targeted CAR T cells")."""
    if not english.is_plain_word(token) or english.in_compound(token):
        return False
    classes, word, previous = english.word_classes(), token.lower_, token.doc[token.i - 1]
    if previous.lower_ in classes.adjectives or previous.lower_ in lexicon.EDGE_WORDS or not previous.text[-1:].isalnum():
        return False
    if word.endswith("ed"):
        return _past_verb(token, start)
    if word.endswith("ing"):
        return _participle_taking_object(token)
    if word.endswith("s"):
        return english.verb_form(word, classes)
    return english.only_verb(word, classes) and previous.text.endswith("s") and (
        not previous.is_lower or english.noun_reading(previous.lower_, classes))


def _plural(token: Token, classes: english.WordClasses) -> bool:
    """A plural noun: an acronym's ("EVs") or a lower-case word's that may be a noun ("trials"; not "analysis")."""
    word = token.lower_
    return _ACRONYM_PLURAL.fullmatch(token.text) is not None or token.is_alpha and token.is_lower and \
        singular(word) != word and english.noun_reading(word, classes)


def _participle_taking_object(token: Token) -> bool:
    """An "-ing" form that is no noun, followed by a word, after a plural ("patients fulfilling criteria") or of a verb
    of what a study does ("WHI trial evaluating estrogen"); after a singular noun it is mostly a compound's ("tumor
    infiltrating lymphocytes")."""
    doc, word, classes = token.doc, token.lower_, english.word_classes()
    following = english.next_token(token)
    if word in classes.nouns or following is None or not following.text[:1].isalnum() or following.lower_ in lexicon.EDGE_WORDS:
        return False
    previous = doc[token.i - 1]
    if previous.lower_.endswith("ly") and previous.lower_ not in classes.nouns:
        return False  # a gerund after an adverb names a task ("automatically evaluating answers")
    return _plural(previous, classes) or any(word[:-3] + ending in lexicon.RESEARCH_PARTICIPLES for ending in ("ed", "d"))


def _past_verb(token: Token, start: int) -> bool:
    """An "-ed" form of a verb taking an object: before a determiner ("rumination mediated the relation"), or before
    a word after a plural ("EVs protected cell function") or after a phrase with a preposition ("Inhibition of
    lipolysis suppressed M2 activation"); after a singular noun it is mostly a participle ("HIV infected patients")."""
    doc, word, classes = token.doc, token.lower_, english.word_classes()
    if not (any(b in classes.verbs for b in english.bases(word)) or word in classes.irregular_verb_forms):
        return False
    previous = doc[token.i - 1]
    following = english.next_token(token)
    if following is not None and following.lower_ in lexicon.DETERMINERS:
        return True
    if following is None or not following.text[:1].isalnum() or following.lower_ in lexicon.EDGE_WORDS:
        return False  # "trees decorated with feature structures": a participle's phrase
    if previous.lower_.endswith("ly") and previous.lower_ not in classes.nouns:
        return False  # "finely divided minerals"
    return _plural(previous, classes) or token.i - start >= 3 and previous.lower_ not in classes.adjectives and \
        any(t.lower_ in lexicon.PREPOSITIONS for t in doc[start + 1:token.i - 1])


def broken_by_markup(span: Span) -> bool:
    """LaTeX inside a name, not around it: "$\\ensuremath{\\delta}$-function
    interaction" (while "{\\sl fair representations}" is a name in markup)."""
    return "$" in span.text or any(t.text.startswith("\\") and not t.whitespace_ for t in span[:-1])
