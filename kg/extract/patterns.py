"""Text patterns that need no parse: URLs, in-text citations, asides, acronym definitions."""

from __future__ import annotations

import re

from kg.lexicon import PLACES, load

URL = re.compile(r"\b(?:https?://|www\.|github\.com/|huggingface\.co/)[^\s<>\"'{}|\\^`]+", re.I)

_NOT_NAMES = load.alternatives("not_author_names")
_NAME = rf"(?:(?:{load.alternatives('surname_particles')})\s+)*(?!(?:{_NOT_NAMES})\b)[A-Z](?=[\w'’\-]*[a-z])[\w'’\-]*"
_ET_AL = r"\s+et\s*\.?\s+al\b\s*\.?"
# "Smith", "Smith et al.", "Smith and Jones", "Smith, Jones, and Lee", "Smith & Jones"
_AUTHORS = rf"{_NAME}(?:{_ET_AL}|(?:,\s+{_NAME})*,?\s*(?:\band\b|&)\s*{_NAME})?"
_YEAR = r"(?:19|20)\d{2}[a-z]?"
# "(Loshchilov et al., 2025; Yang and Hu, 2021)"
PAREN_GROUP = re.compile(r"\(([^()]*?\b(?:19|20)\d{2}[a-z]?\b[^()]*?)\)")
PAREN_ITEM = re.compile(rf"(?P<authors>{_AUTHORS})\s*,?\s*(?P<year>{_YEAR})\b")
# "Medina and Vassilvitskii (2017)": the bracketed year is found first, then the authors just before it
NARRATIVE_YEAR = re.compile(rf"\s\((?P<year>{_YEAR})\b[^()]*\)")
NARRATIVE = re.compile(rf"(?P<authors>{_AUTHORS})$")
# "Bonyah et al." with no year
ET_AL = re.compile(rf"(?P<authors>{_NAME}{_ET_AL})")
_HAS_ET_AL = re.compile(r"\bet\s*\.?\s+al\b")


def find_urls(text: str) -> list[dict]:
    """URLs and code links, trailing punctuation removed.

    >>> find_urls("Code: https://github.com/x/y.")
    [{'url': 'https://github.com/x/y', 'start': 6, 'end': 28}]
    """
    found = []
    for match in URL.finditer(text):
        url = match.group().rstrip(".,;:)]}")
        found.append({"url": url, "start": match.start(), "end": match.start() + len(url)})
    return found


def _authors(text: str) -> list[str]:
    text = re.sub(rf"{_ET_AL}$", "", text.strip())
    return [part.strip() for part in re.split(r",?\s*(?:\band\b|&)\s*|,\s+", text) if part.strip()]


def find_citations(text: str) -> list[dict]:
    """In-text author-year citations with their authors and year (None if unknown).

    >>> [(c["authors"], c["year"]) for c in find_citations("as shown (Loshchilov et al., 2025; Yang and Hu, 2021)")]
    [(['Loshchilov'], 2025), (['Yang', 'Hu'], 2021)]
    >>> [(c["text"], c["year"]) for c in find_citations("Medina and Vassilvitskii (2017) and Bonyah et al. show")]
    [('Medina and Vassilvitskii (2017)', 2017), ('Bonyah et al.', None)]
    """
    found: list[dict] = []

    def add(start: int, end: int, authors: str, year: str | None) -> None:
        if not any(c["start"] < end and start < c["end"] for c in found):  # the first found of overlapping ones
            found.append({"text": text[start:end], "start": start, "end": end,
                          "authors": _authors(authors), "year": int(year[:4]) if year else None})

    for group in PAREN_GROUP.finditer(text):
        offset = group.start(1)
        for item in PAREN_ITEM.finditer(group.group(1)):
            add(offset + item.start(), offset + item.end(), item["authors"], item["year"])
    for year in NARRATIVE_YEAR.finditer(text):
        match = NARRATIVE.search(text, max(0, year.start() - 120), year.start())  # the authors just before it
        if match:
            add(match.start(), year.end(), match["authors"], year["year"])
    if _HAS_ET_AL.search(text):
        for match in ET_AL.finditer(text):
            add(match.start(), match.end(), match["authors"], None)
    return sorted(found, key=lambda c: c["start"])


def _both_cases(name: str) -> str:
    """A data file's alternatives as written and in lower case ("Fig|fig")."""
    return "|".join(dict.fromkeys(f"{e}|{e.lower()}" for e in load.alternatives(name).split("|")))


# a number, letter-number or Roman numeral after a figure word, bracketed or not: "3", "S1", "2b", "(4)", "II", "3-4"
_LABEL = r"\(?[A-Z]?\d+[a-z]?\)?(?:\s*[-–,]\s*\(?[A-Z]?\d+[a-z]?\)?)*|[IVX]+\b"
_FIGURE = re.compile(rf"\b(?:(?:{_both_cases('figure_prefixes')})\s+)?(?:{_both_cases('figure_words')})\b\.?\s*(?:{_LABEL})")
_SURNAME = rf"(?:(?:{load.alternatives('surname_particles')})\s+)*[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)*"
# "Brodsky and Lepage [8]", "Smith et al. [12]", "Efremov, Radyushkin and Lee [9, 10]": the authors of one numbered
# reference (two names sharing one number are co-authors; a lone name before a number is often a method's, "ResNet [3]")
_NUMBERED = re.compile(rf"(?:{_NAME}{_ET_AL}|{_SURNAME}(?:,\s+{_SURNAME})*,?\s+(?:and|&)\s+{_SURNAME})"
                       r"\s*\[\s*\d{1,3}(?:\s*[-–,]\s*\d{1,3})*\s*\]")
_BRACKETED = re.compile(r"\(([^()]{3,120})\)")


def _address(inside: str) -> bool:
    """A supplier's or an affiliation's address in brackets: capitalised parts separated by commas, the last a
    place ("Sigma-Aldrich, St. Louis, MO, USA", "University of Manchester, UK")."""
    parts = [p.strip() for p in inside.split(",")]
    return len(parts) >= 2 and all(p[:1].isupper() for p in parts) and parts[-1].rstrip(".") in PLACES


def find_asides(text: str) -> list[dict]:
    """What an abstract says about the paper or its sources rather than its subject, where nothing is a
    concept: references to its figures, tables and equations ("Fig. 3", "Eq. (4)", "Supplementary Figure S1"),
    the authors of a numbered citation ("Brodsky and Lepage [8]") and an address in brackets ("(Sigma-Aldrich,
    St. Louis, MO, USA)"). Each is a ``kind``, ``start`` and ``end``.

    >>> [(a["kind"], text[a["start"]:a["end"]]) for text in ["As in Fig. 3 and Brodsky and Lepage [8], we use MgO (Sigma-Aldrich, St. Louis, MO, USA)."]
    ...  for a in find_asides(text)]
    [('figure', 'Fig. 3'), ('citation', 'Brodsky and Lepage [8]'), ('address', '(Sigma-Aldrich, St. Louis, MO, USA)')]
    """
    found = [{"kind": "figure", "start": m.start(), "end": m.end()} for m in _FIGURE.finditer(text)]
    found += [{"kind": "citation", "start": m.start(), "end": m.end()} for m in _NUMBERED.finditer(text)]
    found += [{"kind": "address", "start": m.start(), "end": m.end()} for m in _BRACKETED.finditer(text) if _address(m.group(1))]
    return sorted(found, key=lambda a: a["start"])


# "Low-Rank Adaptation, or LoRA, ..."
_OR_SHORT_FORM = re.compile(r",\s+or\s+((?=[^\s,;()]*[A-Z][^\s,;()]*[A-Z])[^\s,;()]{2,10}?)s?\s*(?=[,;:.)])")
_SHORT_FORM = re.compile(r"\(\s*([^()\s;,][^();,]{0,14}?)s?\s*\)")


def _long_form_start(short: str, words_before: str) -> int | None:
    """Schwartz & Hearst (2003): where in ``words_before`` the long form of ``short`` starts."""
    s = [c.lower() for c in short if c.isalnum()]
    if not s:
        return None
    lf = words_before.lower()
    s_index, l_index = len(s) - 1, len(lf) - 1
    while s_index >= 0:
        char = s[s_index]
        while l_index >= 0 and (lf[l_index] != char or (s_index == 0 and l_index > 0 and lf[l_index - 1].isalnum())):
            l_index -= 1
        if l_index < 0:
            return None
        l_index -= 1
        s_index -= 1
    return words_before.rfind(" ", 0, l_index + 1) + 1


# An em dash (LaTeX's "---", Unicode's, or " -- " between spaces) ends a clause: no long form crosses one.
_CLAUSE_DASH = re.compile(r"---|\u2014| -- ")
# Brackets and quotes that open before a long form belong to the text ("[hazard ratio (HR) = 0.72]").
_OPENERS = "([{\"'\u201c\u2018"


def find_acronyms(text: str) -> list[dict]:
    """Acronyms defined as "long form (SHORT)".

    >>> [(a["short"], a["long"]) for a in find_acronyms("We use low-rank adaptation (LoRA) and intracortical brain–computer interfaces (iBCIs).")]
    [('LoRA', 'low-rank adaptation'), ('iBCIs', 'intracortical brain–computer interfaces')]
    >>> [(a["short"], a["long"]) for a in find_acronyms("We propose Low-Rank Adaptation, or LoRA, which freezes weights.")]
    [('LoRA', 'Low-Rank Adaptation')]
    >>> [(a["short"], a["long"]) for a in find_acronyms("the error of both decoders---mean squared error (MSE)---falls")]
    [('MSE', 'mean squared error')]
    >>> [(a["short"], a["long"]) for a in find_acronyms("better survival [hazard ratio (HR) = 0.72]")]
    [('HR', 'hazard ratio')]
    """
    found = []
    matches = sorted([*_SHORT_FORM.finditer(text), *_OR_SHORT_FORM.finditer(text)], key=lambda m: m.start())
    for match in matches:
        short = match.group(1).strip()
        full_short = text[match.start(1):match.end() - (match.re is _SHORT_FORM)].strip()
        if not (2 <= len(short) <= 10) or not any(c.isupper() for c in short) or " " in short.strip():
            continue
        before = text[:match.start()].rstrip()
        n_words = min(len(short) + 5, len(short) * 2)
        words = before.split()[-n_words:]
        window = " ".join(words)
        window_start = len(before) - len(window)
        if before[window_start:] != window:  # the window crosses irregular spacing
            window_start = before.rfind(words[0]) if words else len(before)
            window = before[window_start:]
        clause_break = max((m.end() for m in _CLAUSE_DASH.finditer(window)), default=0)
        window_start, window = window_start + clause_break, window[clause_break:]
        start = _long_form_start(short, window)
        if start is None:
            continue
        while start < len(window) and window[start] in _OPENERS:
            start += 1
        long_form = window[start:]
        if len(long_form) <= len(short) or not long_form.strip():
            continue
        found.append({
            "short": full_short, "long": long_form,
            "short_start": match.start(1), "short_end": match.start(1) + len(full_short),
            "long_start": window_start + start, "long_end": window_start + len(window),
        })
    return found
