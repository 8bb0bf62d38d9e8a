"""Find the graph's concept names in any text: the vocabulary pass of corpus linking.

A name written in an abstract links the paper to the concept even where no extractor read it
as one ("LoRA fine-tuning of large language models" names LoRA and large language models).
Names are matched on word forms that fold case (except for one-word names such as "LoRA" or
"GSM8K", matched as written), plurals, hyphens and spaces, so "low-rank adaptations" finds
"low rank adaptation". Pure Python, no spaCy: the pass runs over every stored abstract.

>>> names = NameMatcher({"LoRA": "low rank adaptation", "large language models": "large language model"})
>>> [(m.start, m.end, m.concept) for m in names.find("LoRA fine-tuning of Large Language Models.")]
[(0, 4, 'low rank adaptation'), (20, 41, 'large language model')]
>>> names.find("Lora is a radio protocol.")
[]
>>> NameMatcher({"addition": "addition", "CoV-2": "cov 2", "SARS-CoV": "sars cov"}).find("In addition, SARS-CoV-2 spreads.")
[]
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping

from kg import textsim
from kg.lexicon import GENERIC_WORDS, SECTION_HEADINGS, common_english, load
from kg.normalize import clean_name, fold_word, glue_prefixes, is_name, singular, without_prefix, written_forms

_TOKEN = re.compile(r"\w+(?:['’]\w+)?", re.UNICODE)
_VERSION = re.compile(r"-\d")
_SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z0-9(\[])")
MAX_WORDS = 8
TERM_ENDINGS = load.ordered("term_endings")
_EVERYDAY = load.words("everyday_term_words")
CONNECTIVES = load.words("connectives")
_COMMON_UPPER = load.words("common_upper_words")


@dataclass(frozen=True)
class NameMatch:
    start: int
    end: int
    concept: str
    spelling: str


def _tokens(text: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, word, joined to the previous word by nothing but a space or a hyphen)."""
    matches = list(_TOKEN.finditer(text))
    return [(m.start(), m.end(), m.group(), i > 0 and text[matches[i - 1].end():m.start()].strip() in ("", "-"))
            for i, m in enumerate(matches)]


def _glued(tokens: list[tuple[int, int, str, bool]]) -> list[tuple[int, int, str, bool]]:
    """Known prefixes glued to the next word, as in the concept keys ("pre-training")."""
    words = glue_prefixes([(t[2], t[3]) for t in tokens])
    out, i = [], 0
    for word, joined, count in words:
        out.append((tokens[i][0], tokens[i + count - 1][1], word, joined))
        i += count
    return out


@lru_cache(maxsize=1 << 18)
def _forms(word: str) -> tuple[str, str]:
    """A word as written (singular) and folded: looked up once per distinct word."""
    exact = singular(word)
    return exact, fold_word(exact)


def name_form(spelling: str) -> tuple[bool, tuple[str, ...]] | None:
    """How a spelling is matched: (as written?, its word forms), or None when it is not matched
    at all (one plain word unless it names a technique or task and is rare in general English, as
    "clustering"; an English upper-case word; or too long).

    >>> name_form("Low-Rank Adaptations"), name_form("LoRA"), name_form("clustering")
    ((False, ('low', 'rank', 'adaptation')), (True, ('LoRA',)), (False, ('clustering',)))
    >>> name_form("images"), name_form("learning"), name_form("domain"), name_form("generation")
    (None, None, None, None)
    """
    spelling = clean_name(spelling)
    words = [w for _, _, w, _ in _glued(_tokens(spelling))]
    if not words or len(words) > MAX_WORDS:
        return None
    if len(words) == 1 and " " not in spelling:
        if is_name(spelling):
            if spelling.upper() in _COMMON_UPPER:
                return None
            if "-" not in spelling:
                return True, (singular(words[0]),)
        elif not is_term_word(word := singular(spelling).lower()) or _everyday(word) or common_english(word):
            return None
    return False, tuple(_forms(w)[1] for w in words)


def _everyday(word: str) -> bool:
    """A word that names a technique only in some fields ("reduction", "regression") links no papers
    alone (``english.everyday_word``, imported when first needed: it loads spaCy)."""
    from kg.extract import english

    return english.everyday_word(word)


def is_term_word(word: str) -> bool:
    """A plain word that names a technique or task ("tracking", "lemmatization"), not a generic one.

    >>> [is_term_word(w) for w in ["tracking", "lemmatization", "photocatalysis", "learning", "images", "nothing"]]
    [True, True, True, False, False, False]
    """
    return (len(word) >= 7 and word.isalpha() and word.endswith(TERM_ENDINGS)
            and word not in GENERIC_WORDS and word not in SECTION_HEADINGS and word not in _EVERYDAY)


class NameMatcher:
    """Finds spellings in texts, each to the concept id it names, through two word tries (one-word names
    as written, the others folded): a text costs a walk per word, whatever the size of the vocabulary."""

    _END = ""  # the key under which a trie node keeps the names that end there

    def __init__(self, spellings: Mapping[str, str]):
        self._tries: dict[bool, dict] = {True: {}, False: {}}
        for spelling, concept in spellings.items():
            self.add(spelling, concept)

    def add(self, spelling: str, concept: str) -> None:
        """Find ``spelling`` as a name of ``concept`` from now on (a build adds each batch's names)."""
        form = name_form(spelling)
        if form is None:
            return
        exact, words = form
        node = self._tries[exact]
        for word in words:
            node = node.setdefault(word, {})
        node.setdefault(self._END, []).append((concept, spelling))

    def __bool__(self) -> bool:
        return bool(self._tries[True] or self._tries[False])

    def find(self, text: str) -> list[NameMatch]:
        """Every occurrence of every name, overlapping ones too ("parallel corpora" inside
        "bilingual parallel corpora"): what a text names does not depend on the other names."""
        tokens = _glued(_tokens(text))
        pairs = [_forms(t[2]) for t in tokens]
        forms = {True: [p[0] for p in pairs], False: [p[1] for p in pairs]}
        found: list[NameMatch] = []
        folded = forms[False]
        for i in range(len(tokens)):
            start = tokens[i][0]
            if i and tokens[i - 1][1] == start - 1 and text[start - 1] == "-":  # inside a word: "CoV-2" of "SARS-CoV-2"
                continue
            connective = folded[i] in CONNECTIVES and i and folded[i - 1] == "in"
            for exact, trie in self._tries.items():
                node, j = trie.get(forms[exact][i]), i
                while node is not None:
                    names = node.get(self._END)
                    # "In addition, ..." names no addition; "SARS-CoV" is not "SARS-CoV-2" (a version after a hyphen)
                    if names and not (connective and j == i) and not _VERSION.match(text, tokens[j][1]):
                        found.extend(NameMatch(start, tokens[j][1], concept, spelling) for concept, spelling in names)
                    j += 1
                    if j >= len(tokens) or not tokens[j][3]:
                        break
                    node = node.get(forms[exact][j])
        return found


def index_prefixes(spelling: str) -> list[tuple[str, ...]] | None:
    """What an abstract that writes ``spelling`` has in the text index (``kg.textsim``): for each
    word of the name the index can key, the prefixes of which one begins a word the abstract has
    (a word glued to a known prefix may be written apart: "pretraining" or "pre-training").
    None when the name is never matched; ``[]`` when no word of it is indexed (a stop word, a
    number, a letter): any abstract may write it.

    >>> index_prefixes("Low-Rank Adaptations"), index_prefixes("pre-trained models")
    ([('low',), ('rank',), ('adaptation',)], [('pretrained', 'trained'), ('model',)])
    >>> index_prefixes("corpora of Modelling")  # "co" is a known prefix: "co-rpora" would be glued too
    [('corp', 'rpora'), ('model',)]
    """
    if name_form(spelling) is None:
        return None
    keys = []
    for _, _, word, _ in _glued(_tokens(clean_name(spelling))):
        word = re.split("['’]", word)[0]
        prefixes = tuple(_index_prefix(part) for part in (word, *without_prefix(word)))
        if all(prefixes):
            keys.append(prefixes)
    return keys


def _index_prefix(word: str) -> str | None:
    """The longest prefix of every indexed word a text writes for ``word``; None when a text may write it unindexed."""
    forms = written_forms(word)
    stop = textsim.stop_words()
    if any(len(f) < 2 or f.isdigit() or f in stop for f in forms):
        return None
    prefix = os.path.commonprefix(sorted(forms | {textsim.fold_plural(f) for f in forms}))
    return prefix if len(prefix) >= 2 else None


def short_acronym(spelling: str) -> bool:
    """Two capital letters ("TG", "MS"): an acronym with many long forms, which names no concept in a
    paper that does not define it (triglyceride or thermogravimetry; mass spectrometry or multiple
    sclerosis).

    >>> [short_acronym(s) for s in ["TG", "MS", "LLM", "M1", "Tg"]]
    [True, True, False, False, False]
    """
    return len(spelling) == 2 and spelling.isalpha() and spelling.isupper()


def sentence_at(text: str, start: int) -> tuple[int, int]:
    """The character range of the sentence holding ``start`` (split at . ! ? before a capital).

    >>> text = "We use LoRA. It adapts GPT-3 cheaply."
    >>> text[slice(*sentence_at(text, 25))]
    'It adapts GPT-3 cheaply.'
    """
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    i = bisect.bisect_right(ends, start)
    begin = ends[i - 1] if i else 0
    end = ends[i] if i < len(ends) else len(text)
    while begin < end and text[begin].isspace():
        begin += 1
    return begin, end

