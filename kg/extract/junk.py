"""What is no concept: why a span names none (``junk_reason``): markup residue, a quantity, a place, a person,
an institution or a company, a library or publisher's line, a boilerplate sentence, a heading, a word cut, a lone
generic or common word, a count of something. What a span loses at its edges is ``kg.extract.edges``. The rules are general (no
names of any paper collection); each has a test on a real sentence in ``tests/test_extract_junk.py``.
"""

from __future__ import annotations

import functools
import re

from spacy.tokens import Span

from kg import lexicon
from kg.extract import english
from kg.extract.edges import is_number, is_unit
from kg.lexicon import load
from kg.normalize import CACHED_SPELLINGS, DASHES, DIMENSION, singular

# (SciERC's tokenised "-LRB- MT -RRB-" is no residue: 5% of its gold spans hold one)
_MARKUP_CHARS = re.compile(r"[$\\{}<>^_=≥≤±|]")  # not "@": core-shell materials ("Fe3O4@SiO2")
_GLUED = re.compile(r'\w"[\w/]|\b[a-z]{2,}\.\d')  # a quote inside a word, a word and a number joined by a stop
_ROMAN_NUMERAL = re.compile(r"II|III|VI|VII|VIII|IX|XI|XII")
_INITIALS = re.compile(r"(?:[A-Z]\.){1,3}")
# a reference list's author, surname and initials: "Gunn AD" of "Anand A, Gunn AD, Barkay G, ..."
_SURNAME_INITIALS = r"[A-Z][a-z]+(?:-[A-Z][a-z]+)? [A-Z]{1,3}"
_CITED_AUTHOR = re.compile(_SURNAME_INITIALS)
_AUTHOR_LIST = re.compile(rf"\b{_SURNAME_INITIALS},")  # three in a sentence make a list
_UNIT_POWER = re.compile(r"([^\W\d_]{1,3})[-−–]\d")  # "L−1" of "mg L−1"
_PERSON_TIME = re.compile(  # rate denominators: "person-years", "child months"
    rf"\b(?:{load.alternatives('person_time_subjects')})[- ](?:{load.alternatives('person_time_periods')})\b", re.I)
_VOLUME_PAGES = re.compile(r"\d+\s*:\s*\d+\s*[-–]\s*\d+")  # "49:415–445" of a citation
_ROMAN = re.compile(r"(?:[IVX]+|\d+[a-z]?)")  # a label's number: "III", "2a"
_FOLD = re.compile(rf"(?:\d[\d.,]*-?|{load.alternatives('fold_number_words')})fold(?:-\w+)?", re.I)
_GLUED_HEADING = re.compile(r"([A-Z][a-z]+)[A-Z][a-z]+$")
_LONE_FUNCTION_WORDS = lexicon.EDGE_WORDS - load.words("acronym_function_words")
_HEADING_PARTS = load.words("heading_parts")
_ORGANISATION_OPENERS = lexicon.ORGANISATION_HEADS | load.words("organisation_openers")
_TYPED_WORDS = frozenset(lexicon.DECIDING_HEADS) | frozenset(lexicon.HEAD_TYPES) | lexicon.DATA_TERM_HEADS


def junk_reason(span: Span, sentence_start: str | None = None) -> str | None:
    """Why the span names no concept, or None: "markup", "quantity", "place", "institution", "organisation",
    "person", "publishing", "foreign", "broken word" (starting or ending inside a word or a Latin phrase),
    "heading", "title", "boilerplate" (by ``sentence_start``, the first words of its sentence, read from the doc
    when not given) or "generic" (a lone generic or common word, a count of something)."""
    for reason, rule in _RULES:
        if rule(span):
            return reason
    if sentence_start is None:
        sentence_start = sentence_of(span).text[:40]
    if sentence_start.lstrip(" *#:.-").lower().startswith(lexicon.BOILERPLATE_STARTS):
        return "boilerplate"
    return "generic" if _generic(span) or _counted(span) or _lone_common(span) else None


def _markup(span: Span) -> bool:
    """Markup characters, a quote or a full stop glued inside a word ("priori\"/tau", "roughly.01"), a sign left
    alone at the span's end ("GAD-antibodies +") or a sentence end inside the span ("B2R. Invasion")."""
    if _MARKUP_CHARS.search(span.text) or _GLUED.search(span.text):
        return True
    last = span[-1]
    before = span.doc[last.i - 1]
    if len(span) > 1 and before.whitespace_ and (last.text in ("-", "—", "–") or last.text == "+" and before.is_lower):
        return True  # "STR2 +" is a name (SciERC writes "+" apart)
    return any(t.i + 1 < span.end and t.whitespace_ and span.doc[t.i + 1].text[:1].isupper() and
               (t.text == "." or len(t) > 2 and t.text.endswith(".") and "." not in t.text[:-1]) for t in span)


def _quantity(span: Span) -> bool:
    """A measured quantity or a unit, also one opening the span: "5 %", "0–50 cm soils", "°C", "CFU mL",
    "child-years", "cm −2 process", "L−1"."""
    if "%" in span.text or "°" in span.text or _PERSON_TIME.search(span.text):
        return True
    power = _UNIT_POWER.fullmatch(span.text)
    if power is not None and power.group(1).lower() in lexicon.UNITS:  # "L−1", "h-1"; not "IL-6"
        return True
    tokens = list(span)
    if all(t.text in lexicon.PLAIN_UNITS or is_number(t) or t.is_punct for t in tokens) or \
            len(tokens) > 1 and tokens[0].text in lexicon.PLAIN_UNITS:  # "cm −2 process" of "5k A cm −2 process"
        return True
    before = span.doc[span.start - 1] if span.start > 0 else None
    if before is not None and is_number(before) and is_unit(tokens[0], before) and len(tokens) == 1:
        return True  # "30 [min]"
    for i in range(1, len(tokens)):
        number = tokens[i - 1] if is_number(tokens[i - 1]) else tokens[i - 2] if i > 1 and tokens[i - 1].text in "-–" \
            and is_number(tokens[i - 2]) else None
        if number is not None and is_unit(tokens[i], number if tokens[i - 1] is number else None):
            return True
    return False


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def is_place(text: str) -> bool:
    """A country, region, state or ocean, also in capitals or after compass or other lower-case words
    ("MEXICO", "south China", "mid-latitude North Atlantic", "rural India").

    >>> [is_place(t) for t in ["MEXICO", "south China", "the United States", "mid-latitude North Atlantic", "China syndrome"]]
    [True, True, True, True, False]
    """
    text = text[4:] if text.lower().startswith("the ") else text
    words = text.split()
    while len(words) > 1 and (words[0].lower() in lexicon.COMPASS or words[0].islower()):
        words = words[1:]
    text = " ".join(words)
    return text in lexicon.PLACES or (text.isupper() and len(text) > 3 and text.title() in lexicon.PLACES)


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def is_foreign(text: str) -> bool:
    """A phrase in another language: a function word of one (lower case but first: "Y" of "neuropeptide Y" is a
    letter) and no English word ("sus necesidades"); Latin names stay ("Escherichia coli").

    >>> [is_foreign(t) for t in ["ensino nas escolas médicas", "sus necesidades", "Escherichia coli", "de novo assembly",
    ...                          "neuropeptide Y"]]  # doctest: +SKIP
    [True, True, False, False, False]
    """
    written = text.split()
    words = [w.lower() for w in written]
    if len(words) < 2 or not any(w in lexicon.FOREIGN_FUNCTION_WORDS for w in [words[0], *written[1:]]):
        return False
    classes = english.word_classes()
    return not any(classes.known(w) or classes.known(singular(w)) for w in words if w not in lexicon.FOREIGN_FUNCTION_WORDS)


def _place(span: Span) -> bool:
    """A place (``is_place``) or a name ending in a place's head: "Guizhou province", "Death Valley",
    "Korean peninsula" (``lexicon.PLACE_HEADS``)."""
    return is_place(span.text) or len(span) > 1 and span[-1].lower_ in lexicon.PLACE_HEADS and \
        any(t.is_title for t in span[:-1]) and not any(t.lower_ in lexicon.HEAD_TYPES for t in span[:-1])


def _person(span: Span) -> bool:
    """A person's name: initials and a surname that ends the span ("W. Liu", "Karl G. Jansky"), a
    surname and initials in a list of authors ("Gunn AD"), or one to three capitalised words that are
    no English words right after "by" ("first noted by Verma")."""
    tokens = list(span)
    for i, token in enumerate(tokens):
        if not _INITIALS.fullmatch(token.text):
            continue
        rest = tokens[i + 1:]
        while rest and _INITIALS.fullmatch(rest[0].text):
            rest = rest[1:]
        given = all(t.is_title and t.is_alpha for t in tokens[:i])
        if given and 1 <= len(rest) <= 2 and all(t.is_title and t.is_alpha and len(t) > 1 for t in rest):
            return True
    if _CITED_AUTHOR.fullmatch(span.text) and len(_AUTHOR_LIST.findall(sentence_of(span).text)) >= 3:
        return True  # "Gunn AD" in "Anand A, Gunn AD, Barkay G, Karne HS, ..."
    before = span.doc[span.start - 1] if span.start > 0 else None
    classes = english.word_classes()
    return before is not None and before.lower_ == "by" and len(span) <= 3 and \
        all(t.is_title and t.is_alpha and not classes.known(t.lower_) for t in tokens)


def _publishing(span: Span) -> bool:
    if span.text.lower() in lexicon.NON_CONCEPTS or _VOLUME_PAGES.search(span.text):  # "Journal of ... 49:415–445"
        return True
    return any(t.lower_ in lexicon.PUBLISHER_TOKENS for t in span) or \
        any(t.text in lexicon.PUBLISHER_NAMES for t in span[1:])


def _generic(span: Span) -> bool:
    """A lone generic word, with or without generic modifiers: "learning", "the proposed method"; a
    dimension or a Roman numeral alone ("3D" of "3D architectures", "II" of "domains I and II")."""
    if DIMENSION.fullmatch(span.text) or _ROMAN_NUMERAL.fullmatch(span.text):
        return True
    content = [t for t in span if (t.lower_ not in lexicon.GENERIC_MODIFIERS or t.is_upper) and not t.is_punct]
    if not content:
        return True
    if len(content) > 1 or (content[0].is_upper and len(content[0]) > 1):
        return False
    word = content[0].lower_
    return any(w in lexicon.GENERIC_WORDS or w in lexicon.VAGUE_HEADS for w in english.word_forms(word))


def _lone_common(span: Span) -> bool:
    """One word of general English alone (``lexicon.common_english``: "food", "cities", "safety"): it has
    senses in every field. A head the lexicon types ("cancer", "images"), an acronym, a capitalised word
    inside a sentence ("English") and a word inside an acronym's long form ("medium" of "intracluster
    medium (ICM)", which the acronym step widens) stay."""
    if len(span) != 1 or not span.text.isalpha():
        return False
    word = span[0]
    if not (word.is_lower or word.is_title and word.is_sent_start):
        return False
    lower = word.lower_
    if not lexicon.common_english(lower) or lower in _TYPED_WORDS or singular(lower) in _TYPED_WORDS:
        return False
    start, end = word.idx, word.idx + len(word)
    acronyms = span.doc._.kg_acronyms if span.doc.has_extension("kg_acronyms") else None
    return not any(a["long_start"] <= start and end <= a["long_end"] for a in acronyms or [])


@functools.lru_cache(maxsize=CACHED_SPELLINGS)
def is_vague(text: str) -> bool:
    """A phrase that names nothing a second paper would name the same way: a vague or weak head (the
    last word before a preposition: ``lexicon.VAGUE_HEADS``, ``lexicon.WEAK_HEADS``) after judging words
    only ("functional properties", "formation mechanism"; "immune response" names a kind), or, with no
    preposition, a generic word after judging words (``_judged_kind``: "hybrid model"), a method after an
    everyday action (``_doing_of_nothing``: "implementation techniques") or a head that names what belongs
    to something else (``_relational``: "adverse health outcomes", "imaging studies").

    >>> [is_vague(t) for t in ["internal information", "classification progress", "formation mechanism",
    ...                        "generalized response", "immune response", "antioxidant properties"]]  # doctest: +SKIP
    [True, True, True, True, False, False]
    """
    words = text.split()
    for i in range(1, len(words)):
        if words[i].lower() in lexicon.PREPOSITIONS:
            words = words[:i]
            break
    else:  # "hybrid model"; "computational analysis of move structures" says what of
        if _judged_kind(words) or _doing_of_nothing(words) or _relational(words):
            return True
    head = singular(words[-1].lower()) if words else ""
    if len(words) < 2 or head not in lexicon.VAGUE_HEADS | lexicon.WEAK_HEADS:
        return False
    modifiers = [w.lower() for w in words[:-1]]
    if all(_judging(w) or _generic_noun(w) for w in modifiers):
        return True
    classes = english.word_classes()
    # "Chemical profile" opening a sentence; "Hodges-Lehmann estimate" is a name
    written = [words[0].lower() if words[0][1:].islower() else words[0], *words[1:-1]]
    return head in lexicon.VAGUE_HEADS and all(
        w == o and (w in lexicon.GENERIC_MODIFIERS or "-" in w or w.isalpha() and w in classes.adjectives and
                    (w not in classes.nouns or w.endswith(english.ADJECTIVE_ENDINGS)))  # "chemical profile"
        for w, o in zip(modifiers, written))


def _relational(words: list[str]) -> bool:
    """What belongs to something the phrase does not name, after plain words only ("public health
    significance"), or "studies" after one word ("imaging studies"; not "cohort study", "molecular docking studies")."""
    last = words[-1] if len(words) > 1 else ""
    if last == "studies":
        return len(words) == 2 and (words[0].isalpha() and words[0][1:].islower())
    first = words[0][0].lower() + words[0][1:]  # a sentence may open with it ("Public health significance")
    return last.islower() and any(w in lexicon.RELATIONAL_HEADS for w in english.word_forms(last)) and \
        all(w.replace("-", "").isalpha() and w.islower() for w in [first, *words[1:-1]])


def _judged_kind(words: list[str]) -> bool:
    """A generic word (``lexicon.GENERIC_WORDS``) after words that only judge it (``_judging_only``): "hybrid
    model", "noisy data"; not "generative model", nor a gerund head, a field ("supervised learning")."""
    head = singular(words[-1].lower()) if words else ""
    if len(words) < 2 or head not in lexicon.GENERIC_WORDS or head.endswith("ing"):
        return False
    return all(_judging_only(w.lower()) for w in words[:-1])


def _doing_of_nothing(words: list[str]) -> bool:
    """A way of doing or a problem after an everyday action alone: "implementation techniques", "computation
    problem" (of what?); not after a technical verb ("visualization method") or a task ("segmentation methods")."""
    if len(words) != 2 or singular(words[1].lower()) not in lexicon.DOING_HEADS:
        return False
    action = singular(words[0].lower())
    verb = english.nominalised_verb(action)
    return verb is not None and not verb.endswith(("ize", "ise", "ify")) and action not in lexicon.HEAD_TYPES


def _judging_only(word: str) -> bool:
    """A degree or evaluative word, alone or in a compound with a generic word ("high", "hybrid",
    "high-level"); not a participle, which often says what kind ("labeled data", "distributed
    algorithm"), nor "low-dimensional" or "two-level"."""
    *first, last = word.split("-")
    return all(part in lexicon.JUDGING_ADJECTIVES for part in first) and (
        last in lexicon.JUDGING_ADJECTIVES or last in lexicon.GENERIC_MODIFIERS and not first or
        first and last in lexicon.GENERIC_WORDS)


def _judging(word: str) -> bool:
    """A word that judges or sizes what follows rather than saying what it is: a generic modifier,
    a degree adjective ("high", "clinical") or a participle ("reduced", "co-located")."""
    parts = word.split("-")  # "high-temporal": a judging word makes the compound one
    if any(part in lexicon.GENERIC_MODIFIERS or part in lexicon.JUDGING_ADJECTIVES for part in parts):
        return True
    last = parts[-1]
    classes = english.word_classes()
    return last.endswith("ed") and last not in classes.nouns and \
        (any(b in classes.verbs for b in english.bases(last)) or last in classes.irregular_verb_forms)


def _generic_noun(word: str) -> bool:
    """A noun that says no more than its head: a generic word ("factor", "information", "energy-level")
    or a nominalisation of a verb ("confidence", "formation", "classification", "development")."""
    word = singular(word.rsplit("-", 1)[-1])
    return word in lexicon.GENERIC_WORDS or english.nominalised_verb(word) is not None


def _heading(span: Span) -> bool:
    """A heading alone ("AIMS"), two as one ("Materials and Methods"), one opening its sentence ("Data Extraction")
    or glued to it ("MethodsWe"), a long English noun in capitals ("QUESTIONNAIRE") or a function word alone
    ("AND"; "OR", "IS" and "AS" may be acronyms)."""
    text = span.text.lower()
    if text in lexicon.SECTION_HEADINGS or text in _LONE_FUNCTION_WORDS:
        return True
    if text in lexicon.HEADING_PHRASES and span.start == sentence_of(span).start and span.text.istitle():
        return True  # "Data Extraction For each included study, ..."
    words = text.split()  # two headings as one: "Materials and Methods", "Results and Discussion"
    if len(words) == 3 and words[1] in ("and", "&") and span.text[:1].isupper() and \
            all(w in lexicon.SECTION_HEADINGS or w in _HEADING_PARTS for w in (words[0], words[2])):
        return True
    glued = _GLUED_HEADING.match(span[0].text)
    if glued is not None and glued.group(1).lower() in lexicon.SECTION_HEADINGS:
        return True
    # a heading-like word in capitals, no acronym
    return len(span) == 1 and span.text.isupper() and span.text.isalpha() and len(span.text) >= 7 and \
        text in english.word_classes().nouns


def sentence_of(span: Span) -> Span:
    """The span's sentence, or its whole doc where sentences were not set."""
    return span.sent if span.doc.has_annotation("SENT_START") else span.doc[:]


def _latin_cut(span: Span) -> bool:
    """A span that starts inside a Latin phrase ("situ formation" of "in situ formation", "vivo manipulation of
    primary cells" of "ex vivo manipulation ...")."""
    return span.start > 0 and f"{span.doc[span.start - 1].lower_} {span[0].lower_}" in lexicon.LATIN_PHRASES


def _inside_word(span: Span) -> bool:
    """A span that starts after a hyphen inside a word: "CoV-2" of "SARS-CoV-2" (a name the recogniser cut)."""
    doc, i = span.doc, span.start
    return i >= 2 and doc[i - 1].text == "-" and not doc[i - 1].whitespace_ and not doc[i - 2].whitespace_ \
        and doc[i - 2].text[-1:].isalnum()


def _organisation(span: Span) -> bool:
    """A title-case name of an organisation or a company ("Italian Heart Rhythm Society", "Institute of Gender and
    Health", "Society for Vascular Surgery", "Sigma-Aldrich Corp."); "civil society" is a concept."""
    words = span.text.split()
    if len(words) > 2 and words[0] in _ORGANISATION_OPENERS and words[1] in ("of", "for") and words[2][:1].isupper():
        return True  # "Institute of Gender and Health", "University of Toronto"
    return len(words) > 1 and words[-1].rstrip(".") in lexicon.ORGANISATION_HEADS and all(w[:1].isupper() for w in words)


def _counted(span: Span) -> bool:
    """A label and its number ("Grade 2", "Stage III"), a count of something ("cascade of cellular
    responses", "series of events") or a fold change ("9,200-fold purification", "fivefold")."""
    words = span.text.split()
    if len(words) == 2 and words[0].lower() in lexicon.NUMBERED_LABELS and _ROMAN.fullmatch(words[1]):
        return True
    if _FOLD.fullmatch(words[0]) or all(part.lower() in lexicon.NUMBER_WORDS for part in words[0].split("-")):
        return True  # "9,200-fold purification", "Fifty-nine volumetric analyses"
    lowered = [w.lower() for w in words]
    head = lowered[lowered.index("of") - 1] if "of" in lowered[1:] else ""
    return bool(head) and (head in lexicon.QUANTIFIER_HEADS or singular(head) in lexicon.QUANTIFIER_HEADS) \
        and all(w in lexicon.GENERIC_MODIFIERS or w in ("and", "or") or w.isalpha() and w in english.word_classes().adjectives
                for w in lowered[:lowered.index("of") - 1])


def _cut_at_end(span: Span) -> bool:
    """A word cut at the span's end: "UV–" of "UV–vis", "animal-" of "aquatic, animal-, human-" (inside a span,
    "in- depth interviews" and "ApoE−/− mice" are names)."""
    last = span.text.split()[-1]
    return len(last) > 1 and last[0].isalnum() and (last[-1] == "-" or DASHES.fullmatch(last[-1]) is not None)  # not "-RRB-"


def _whole_title(span: Span) -> bool:
    """A title read as one name: five words or more that are all of the text ("Managing Ethnicity in African
    Politics"); a shorter title may be one concept."""
    return len(span.text.split()) >= 5 and len(span.text) >= 0.9 * len(span.doc.text.strip())


def _institution(span: Span) -> bool:
    return len(span) > 1 and span[-1].lower_ in lexicon.INSTITUTION_HEADS


def _foreign(span: Span) -> bool:
    return is_foreign(span.text)


_RULES = (("markup", _markup), ("quantity", _quantity), ("place", _place), ("institution", _institution),
          ("organisation", _organisation), ("person", _person), ("publishing", _publishing), ("foreign", _foreign),
          ("broken word", _cut_at_end), ("broken word", _latin_cut), ("broken word", _inside_word), ("heading", _heading),
          ("title", _whole_title))
