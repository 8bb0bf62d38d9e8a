"""One concept, many spellings: the key that spellings of one concept share."""

from __future__ import annotations

import re
import unicodedata

_DASHES = re.compile(r"[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]")
_LEADING = {"a", "an", "the", "our", "their", "its", "this", "these", "that", "those", "such", "each", "every", "new", "novel", "proposed"}
_KEEP_S = ("ss", "us", "is", "ics", "sis", "ous")


def singular(word: str) -> str:
    """A plural's singular by simple English rules; acronyms keep case ("LLMs" -> "LLM").

    >>> [singular(w) for w in ["networks", "LLMs", "strategies", "analysis", "boxes"]]
    ['network', 'LLM', 'strategy', 'analysis', 'box']
    """
    if len(word) > 2 and word.endswith("s") and word[:-1].isupper():
        return word[:-1]
    low = word.lower()
    if len(low) <= 3 or low.endswith(_KEEP_S):
        return word
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + ("Y" if word.isupper() else "y")
    if low.endswith(("xes", "ches", "shes", "sses")):
        return word[:-2]
    if low.endswith("s"):
        return word[:-1]
    return word


_MARKUP = re.compile(r"\\[A-Za-z]+\{?|[{}]")


def clean_name(text: str) -> str:
    """The surface form tidied: Unicode dashes to '-', spaces collapsed, no leading article,
    no LaTeX or Markdown markup around it.

    >>> clean_name("*margin-based LoRA merging*"), clean_name("Spatial Consistency Learning $\\\\textbf{")
    ('margin-based LoRA merging', 'Spatial Consistency Learning')
    """
    text = _DASHES.sub("-", unicodedata.normalize("NFKC", _MARKUP.sub(" ", text)))
    words = text.split()
    while len(words) > 1 and words[0].lower() in _LEADING:
        words = words[1:]
    return " ".join(words).strip(" .,;:*$_")


def concept_key(text: str) -> str:
    """The merge key of a spelling: case, plural, hyphen/space and dash variants agree.

    >>> concept_key("Low-Rank Adaptations") == concept_key("low rank adaptation")
    True
    >>> concept_key("LLMs") == concept_key("LLM")
    True
    """
    words = clean_name(text).replace("-", " ").split()
    if not words:
        return ""
    words[-1] = singular(words[-1])
    return " ".join(words).lower()
