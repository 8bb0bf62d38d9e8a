"""What is an Entity: a scientific thing that is no method, task, dataset or metric.

Besides a head noun the lexicon types (``spans.span_type``), the rules here tell an Entity by its shape
(a chemical formula "Fe3+", an enzyme "guanylyl cyclase", a Latin species "A. fumigatus") and decide how a
paper's field retypes the recogniser's spans.

>>> [formula(t) for t in ("Fe3+", "CuCo2O4", "Cl-", "Mn", "CNN", "ResNet50", "In")]
[True, True, True, True, False, False, False]
>>> [enzyme(w) for w in ("cyclase", "kinases", "database", "disease", "phase")]
[True, True, False, False, False]
"""

from __future__ import annotations

import re
from functools import lru_cache

from spacy.tokens import Span

from kg import lexicon
from kg.extract import english
from kg.lexicon import load
from kg.normalize import CACHED_SPELLINGS, singular

ELEMENTS = load.words("element_symbols")
_WORDLIKE_SYMBOLS = load.words("wordlike_symbols")
_FORMULA_PART = re.compile(r"([A-Z][a-z]?)(\d*(?:\.\d+)?)")
_CHARGE = re.compile(r"(?:\d*[+-]|[+-]\d*)$")
ENZYME_ENDINGS = load.ordered("enzyme_endings")
LATIN_ENDINGS = load.ordered("latin_endings")
# laboratory and clinical techniques; a model is often what a study is done on there (model_words.txt)
_TECHNIQUE_HEADS = (lexicon.LAB_METHOD_HEADS | lexicon.METHOD_WORDS) - load.words("model_words")
_GROUP_KIND_ENDINGS = load.ordered("group_kind_endings")
_KNOWN_TYPES = {short.lower(): type_ for short, (_, type_) in lexicon.KNOWN_ACRONYMS.items()}  # "lstm": Method


@lru_cache(maxsize=CACHED_SPELLINGS)
def formula(text: str) -> bool:
    """A chemical formula, ion or element written as one token: element symbols with counts, an
    optional trailing charge or "x" ("Fe3+", "HfOx", "Cl-"); all-capital letters without a count
    ("CNN", "BERT") and symbols that are also words ("In", "As") are no formula."""
    body = _CHARGE.sub("", text)
    charged = body != text
    if body.endswith("x") and len(body) > 2:
        body = body[:-1]
    parts = _FORMULA_PART.findall(body)
    if not body or "".join(s + n for s, n in parts) != body or any(s not in ELEMENTS for s, _ in parts):
        return False
    if len(parts) == 1 and not parts[0][1] and not charged:
        return len(body) == 2 and body not in _WORDLIKE_SYMBOLS  # "Mn", "Cs"
    return charged or any(n for _, n in parts) or any(len(s) == 2 for s, _ in parts)


def enzyme(word: str) -> bool:
    """An enzyme's name by its ending ("guanylyl cyclase", "kinases")."""
    word = word.lower().removesuffix("s")
    return len(word) > 5 and word.endswith(ENZYME_ENDINGS)


def latin_species(span: Span) -> bool:
    """A species named the Latin way: "Genus species" or "G. species", the species name lower
    case, with a Latin ending and no English word ("Parvimonas micra", "A. fumigatus"; "Random
    forest" and "Training data" are English)."""
    words = span.text.split()
    if len(words) != 2:
        return False
    genus, name = words
    is_english_word = english.word_classes().known
    if not (name.isalpha() and name.islower() and len(name) >= 3 and name.endswith(LATIN_ENDINGS)) or \
            is_english_word(name) or is_english_word(singular(name)):  # "Reference databases", "Scopus databases"
        return False
    if re.fullmatch(r"[A-Z]\.", genus):
        return True
    return genus[:1].isupper() and genus[1:].islower() and genus.isalpha() and len(genus) >= 4


def shape_is_entity(span: Span) -> bool:
    """A span that is an Entity by its shape: a formula, an enzyme head, a Latin species name."""
    return (len(span) <= 3 and formula(span.text.replace(" ", ""))) or enzyme(span[-1].text) or latin_species(span)


def computing(domains: set[str]) -> bool:
    """A paper of computing by its domains: machine learning, language, vision, speech..."""
    return bool(domains & lexicon.COMPUTING_DOMAINS)


def natural_science(domains: set[str], hints: set[str] = frozenset()) -> bool:
    """A paper of the natural sciences by its domains (``kg_domains``): medicine, biology, chemistry,
    neuroscience or physics, and no computing domain. A paper of no domain is one when its hints (the
    domains any single phrase names) are two or more of these and no other domain (materials, engineering
    and the earth sciences, which the taxonomy lacks); one hint alone is too weak.

    >>> natural_science(set(), {"physics", "chemistry"}), natural_science(set(), {"medicine"})
    (True, False)
    >>> natural_science(set(), {"physics", "chemistry", "fairness and ethics"})
    False
    """
    if domains:
        return bool(domains & lexicon.NATURAL_SCIENCE_DOMAINS) and not computing(domains)
    return len(hints & lexicon.NATURAL_SCIENCE_DOMAINS) >= 2 and hints <= lexicon.NATURAL_SCIENCE_DOMAINS


@lru_cache(maxsize=CACHED_SPELLINGS)
def head_word(name: str) -> str:
    """A name's head: its last word before a preposition, singular and lower case.

    >>> head_word("Hamilton Depression Inventory"), head_word("inhibition of glycogen synthase kinases")
    ('inventory', 'inhibition')
    """
    words = name.lower().split()  # a preposition inside a compound is no phrase's end ("image-to-text retrieval")
    head = next((words[i - 1] for i in range(1, len(words)) if words[i] in lexicon.PREPOSITIONS), words[-1] if words else "")
    return singular(head.rsplit("-", 1)[-1]) if head else ""


def verb_participle(word: str) -> bool:
    """An -ing or -ed form of an English verb ("grading", "predicting", "guided"; not "string", "red").

    >>> [verb_participle(w) for w in ("grading", "predicting", "guided", "string", "red", "surveillance")]
    [True, True, True, False, False, False]
    """
    word = word.lower()
    if not (word.endswith("ing") and len(word) > 5 or word.endswith("ed") and len(word) > 4):
        return False
    stem = word[:-3] if word.endswith("ing") else word[:-2]
    bases = (stem, stem + "e", stem[:-1] if stem[-1] == stem[-2] else stem)  # grad(e)ing, guid(e)d, stopp(ed)
    return any(b in english.word_classes().verbs for b in bases)


def procedure(word: str) -> bool:
    """A head noun that names a technique or procedure ("randomisation", "interviews", "tractography").

    >>> [procedure(w) for w in ("randomisation", "interviews", "tractography", "geography", "dichotomy")]
    [True, True, True, False, False]
    """
    word = singular(word.lower())
    return word in lexicon.PROCEDURE_HEADS or (word.endswith(lexicon.PROCEDURE_ENDINGS) and word not in lexicon.NOT_PROCEDURES)


@lru_cache(maxsize=CACHED_SPELLINGS)
def measured_quantity(name: str) -> bool:
    """A name of a measured number: a measure head ("FA values", "urinary analyte/creatinine ratios"), a
    physical quantity with what it is of ("biochar yield"; not "temperatures" alone), or a quantity head after
    a statistic ("mean height", "relative frequency of occurrence").

    >>> [measured_quantity(n) for n in ("FA values", "biochar yield", "temperatures", "mean height",
    ...                                 "relative frequency of occurrence", "arm length")]
    [True, True, False, True, True, False]
    """
    head = head_word(name)
    if head in lexicon.MEASURE_HEADS or head in lexicon.PHYSICAL_QUANTITIES and " " in name.strip():
        return True
    words = name.lower().split()
    return head in lexicon.QUANTITY_HEADS and any(w in lexicon.STATISTIC_MODIFIERS for w in words[:words.index(head) if head in words else -1])


def outside_computing(domains: set[str], hints: set[str]) -> bool:
    """A paper that neither is of computing nor names it once (``kg_domain_hints``): there "duration" or "level"
    is what was measured, while in computing "polynomial time" and "character level" are terms."""
    return not computing(domains) and not computing(hints)


def reads_as_computing(domains: set[str], hints: set[str]) -> bool:
    """A paper of computing by its domains, or of no domain that hints at computing ("algorithm", "parser").

    >>> reads_as_computing(set(), {"machine learning"}), reads_as_computing({"medicine"}, {"machine learning"})
    (True, False)
    """
    return computing(domains) or not domains and computing(hints)


def reads_as_natural_science(domains: set[str], hints: set[str]) -> bool:
    """Are spans typed as in the natural sciences (``entity_in_natural_science``)? In a paper of the natural
    sciences, and in one of no domain that names a natural science once and no computing.

    >>> reads_as_natural_science(set(), {"chemistry"}), reads_as_natural_science(set(), {"chemistry", "machine learning"})
    (True, False)
    """
    return natural_science(domains, hints) or \
        not domains and not computing(hints) and bool(hints & lexicon.NATURAL_SCIENCE_DOMAINS)


def field_unnamed(domains: set[str], hints: set[str]) -> bool:
    """A paper whose field nothing names: no domain and no phrase hinting at one (a computing abstract
    almost always hints at its field)."""
    return not domains and not hints


@lru_cache(maxsize=CACHED_SPELLINGS)
def metric_outside_computing(name: str, type_: str, natural: bool = True) -> bool:
    """In a paper outside computing, an Entity, Method or Task whose head is a measured quantity
    ("turnaround times", "FA values", "hyperoxic apnea duration", "light pipe temperatures") is a Metric; a
    quantity word alone says not what is measured ("weight" of "weight-loss interventions", "time"). A head
    that judges how well (efficacy, quality) is a measure only in the natural sciences (``natural``)."""
    head = head_word(name)
    return type_ in ("Entity", "Method", "Task") and " " in name.strip() and head in lexicon.QUANTITY_HEADS and \
        (natural or head not in lexicon.JUDGED_QUANTITIES) and not (type_ == "Task" and doing(name))


def doing(name: str) -> bool:
    """A name of doing something to what it ends with: it opens with an -ing form of a verb, or with one after
    an adverb ("predicting levels of prosocial engagement", "automatically detecting images"; not
    "insufficient fine-grained training data", "fine-tuning data"): a Task whatever its head."""
    words = name.split()
    start = 1 if len(words) > 2 and words[0].endswith("ly") else 0
    return len(words) > start + 1 and words[start].isalpha() and words[start].endswith("ing") and verb_participle(words[start])


@lru_cache(maxsize=CACHED_SPELLINGS)
def method_in_natural_science(name: str, type_: str) -> bool:
    """Where spans read as in the natural sciences (``reads_as_natural_science``), an Entity, Task or Dataset
    headed by a procedure, a method word or a laboratory or clinical technique ("GBM surgical resection",
    "direct imaging", "first-line chemotherapy") or a system of doing something ("grading system") is a Method."""
    head = head_word(name)
    return type_ in ("Entity", "Task", "Dataset") and (procedure(head) or head in _TECHNIQUE_HEADS or head.endswith("therapy")
                                                       or system_of_doing(name))


def system_of_doing(name: str) -> bool:
    """A system named by what it does, not by what it is made of or belongs to: the word before "system" is a
    method or task word, a noun made of a verb or a verb's participle ("grading system", "image-guided system").

    >>> [system_of_doing(n) for n in ("automated surveillance systems", "drug delivery system", "NPY system",
    ...                               "peripheral nervous system", "social support systems")]
    [True, True, False, False, False]
    """
    words = name.lower().replace("-", " ").split()
    if len(words) < 2 or singular(words[-1]) != "system":
        return False
    before = singular(words[-2])
    return before in lexicon.TASK_HEADS or before in lexicon.LAB_METHOD_HEADS or english.nominalised_verb(before) is not None \
        or verb_participle(before)  # "grading system", "image-guided system"


def language(name: str) -> bool:
    """A name of a language, natural or formal: headed by "language" ("highly inflective languages", "spoken
    language", "context-free languages") or a natural language's name alone ("Basque"). A language is
    what data is written in (an Entity), not data ("Korean-to-Japanese dictionary", "Arabic documents").

    >>> [language(n) for n in ("highly inflective languages", "Basque", "spoken language", "Arabic documents",
    ...                        "language models", "units of language")]
    [True, True, True, False, False, False]
    """
    return head_word(name) == "language" or name.strip().lower() in lexicon.LANGUAGES


def data_term(name: str) -> bool:
    """A name headed by data or a sample ("IBD cohort", "tumor samples", "colon cancer cell lines"); the people a
    study reads are no data (``kg.extract.edges`` cuts them off a name: "cirrhotic patients").

    >>> [data_term(n) for n in ("IBD cohort", "tumor samples", "colon cancer cell lines", "quality controls",
    ...                         "finite-sample", "cirrhotic patients")]
    [True, True, True, False, False, False]
    """
    head = head_word(name)
    words = name.lower().split()
    if words and "-" in words[-1] and singular(words[-1].rsplit("-", 1)[1]) == head:
        return False  # the head ends a hyphenated modifier: "finite-sample" (bound), "out-of-sample"
    return head in lexicon.DATA_TERM_HEADS or name.lower().endswith(("cell line", "cell lines"))


@lru_cache(maxsize=CACHED_SPELLINGS)
def population(name: str) -> bool:
    """A name of the people a study read, who were studied and not what: headed by a word for people ("cirrhotic
    patients", "pregnant women"), an arm of the study (``study_arm``, ``healthy_controls``) or people before a
    preposition ("survivors of cardiopulmonary resuscitation"). ``kg.extract.edges`` cuts them off a name.

    >>> [population(n) for n in ("AML patients", "placebo group", "healthy controls", "survivors of cardiac arrest",
    ...                          "end users", "patient monitoring", "quality controls")]
    [True, True, True, True, False, False, False]
    """
    words = name.lower().split()
    return bool(words) and (people_word(words[-1]) or study_arm(name) or healthy_controls(name) or
                            len(words) > 2 and people_word(words[0]) and words[1] in lexicon.PREPOSITIONS)


def people_word(word: str) -> bool:
    """A word for the people a study reads ("patients", "women", "volunteers")."""
    return word.isalpha() and singular(word.lower()) in lexicon.PEOPLE - lexicon.PEOPLE_NOT_STUDIED


def healthy_controls(name: str) -> bool:
    """The control arm named by what its people are ("healthy controls", "non-SS controls"; not "quality controls")."""
    words = name.lower().split()
    return len(words) == 2 and words[-1] == "controls" and describes_people(words[0])


def study_arm(name: str) -> bool:
    """A group of a study named by what sets it apart ("TOS-H group", "placebo group"), not a chemical or a kind:
    an adjective or a word ending like a class adjective or a chemical group before "group" ("carboxyl group",
    "taxonomic groups", ``group_kind_endings.txt``).

    >>> [study_arm(n) for n in ("TOS-H group", "placebo groups", "carboxyl group", "taxonomic groups", "group")]
    [True, True, False, False, False]
    """
    words = name.lower().replace("-", " - ").split()
    if len(words) < 2 or singular(words[-1]) != "group" or words[-2] in lexicon.PREPOSITIONS:
        return False
    before = words[-2]
    return not (before.endswith(_GROUP_KIND_ENDINGS) or english.only_adjective(before))


def describes_people(word: str) -> bool:
    """An adjective or participle that describes people ("healthy", "normal", "matched", "traumatised"), not a
    noun; or what they do not have ("non-SS", "non-diabetic")."""
    if word.startswith("non-") and len(word) > 5:
        return True
    classes = english.word_classes()
    return word.isalpha() and (word in lexicon.JUDGING_ADJECTIVES or (word in classes.adjectives or word.endswith("ed"))
                               and word not in classes.nouns)


@lru_cache(maxsize=CACHED_SPELLINGS)
def entity_in_natural_science(name: str, type_: str) -> bool:
    """In a natural-science paper, a Method without a method head ("ACE2"; not "qRT-PCR assay"), a Task without
    a task head ("severe colitis"; not "breast cancer detection", "determining protein structure") or a Dataset
    without a data head ("IgG subclasses"; not "SEER database", "normal controls") is an Entity."""
    head = head_word(name)
    if type_ == "Method":
        return head not in lexicon.LAB_METHOD_HEADS and lexicon.HEAD_TYPES.get(head) != "Method" and not procedure(head) \
            and not system_of_doing(name) and _KNOWN_TYPES.get(head) != "Method"
    if type_ == "Task":
        return head not in lexicon.TASK_HEADS and lexicon.HEAD_TYPES.get(head) != "Task" and not doing(name)
    if type_ == "Dataset":
        return head not in lexicon.DATA_HEADS and lexicon.HEAD_TYPES.get(head) != "Dataset" and not procedure(head) \
            and not data_term(name)  # "colon cancer cell lines", "normal controls" stay Datasets
    return False
