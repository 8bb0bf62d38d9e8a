"""Text patterns that need no parse: URLs, in-text citations, acronym definitions."""

from __future__ import annotations

import re

URL = re.compile(r"\b(?:https?://|www\.|github\.com/|huggingface\.co/)[^\s<>\"'{}|\\^`]+", re.I)

_NAME = r"(?:(?:van|von|de|der|da|di|du|la|le)\s+)?[A-Z][\w'’\-]*[a-z][\w'’\-]*"
_AUTHORS = rf"{_NAME}(?:\s+et\s+al\.?|\s+(?:and|&)\s+{_NAME})?"
_YEAR = r"(?:19|20)\d{{2}}[a-z]?"
# "(Loshchilov et al., 2025; Yang and Hu, 2021)"
PAREN_GROUP = re.compile(r"\(([^()]*?\b(?:19|20)\d{2}[a-z]?\b[^()]*?)\)")
PAREN_ITEM = re.compile(rf"(?P<authors>{_AUTHORS}),?\s+(?P<year>(?:19|20)\d{{2}}[a-z]?)\b")
# "Medina and Vassilvitskii (2017)"
NARRATIVE = re.compile(rf"(?P<authors>{_AUTHORS})\s+\((?P<year>(?:19|20)\d{{2}}[a-z]?)\)")
# "Bonyah et al." with no year
ET_AL = re.compile(rf"(?P<authors>{_NAME}\s+et\s+al\.)")


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
    text = re.sub(r"\s+et\s+al\.?$", "", text.strip())
    return [part.strip() for part in re.split(r"\s+(?:and|&)\s+", text) if part.strip()]


def find_citations(text: str) -> list[dict]:
    """In-text author-year citations with their authors and year (None if unknown).

    >>> [(c["authors"], c["year"]) for c in find_citations("as shown (Loshchilov et al., 2025; Yang and Hu, 2021)")]
    [(['Loshchilov'], 2025), (['Yang', 'Hu'], 2021)]
    >>> [(c["text"], c["year"]) for c in find_citations("Medina and Vassilvitskii (2017) and Bonyah et al. show")]
    [('Medina and Vassilvitskii (2017)', 2017), ('Bonyah et al.', None)]
    """
    found: list[dict] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, authors: str, year: str | None) -> None:
        if any(s < end and start < e for s, e in taken):
            return
        taken.append((start, end))
        found.append({
            "text": text[start:end], "start": start, "end": end,
            "authors": _authors(authors), "year": int(year[:4]) if year else None,
        })

    for group in PAREN_GROUP.finditer(text):
        offset = group.start(1)
        for item in PAREN_ITEM.finditer(group.group(1)):
            add(offset + item.start(), offset + item.end(), item["authors"], item["year"])
    for match in NARRATIVE.finditer(text):
        add(match.start(), match.end(), match["authors"], match["year"])
    for match in ET_AL.finditer(text):
        add(match.start(), match.end(), match["authors"], None)
    return sorted(found, key=lambda c: c["start"])


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


def find_acronyms(text: str) -> list[dict]:
    """Acronyms defined as "long form (SHORT)".

    >>> [(a["short"], a["long"]) for a in find_acronyms("We use low-rank adaptation (LoRA) and intracortical brain–computer interfaces (iBCIs).")]
    [('LoRA', 'low-rank adaptation'), ('iBCIs', 'intracortical brain–computer interfaces')]
    """
    found = []
    for match in _SHORT_FORM.finditer(text):
        short = match.group(1).strip()
        full_short = text[match.start(1):match.end() - 1].strip()
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
        start = _long_form_start(short, window)
        if start is None:
            continue
        long_form = window[start:]
        if len(long_form) <= len(short) or not long_form.strip():
            continue
        found.append({
            "short": full_short, "long": long_form,
            "short_start": match.start(1), "short_end": match.start(1) + len(full_short),
            "long_start": window_start + start, "long_end": window_start + len(window),
        })
    return found
