"""The records that flow between the stages: sources -> Paper -> extraction."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field


@dataclass
class Paper:
    """One paper as a loader read it.

    ``source`` and ``position`` say where it came from (file and 1-based record
    number; ``line`` is the 1-based line where the record starts).
    """

    id: str
    title: str
    abstract: str
    title_derived: bool = False
    year: int | None = None
    venue: str | None = None
    authors: list[str] = field(default_factory=list)
    doi: str | None = None
    references: list[str] = field(default_factory=list)
    reference_details: dict[str, dict] = field(default_factory=dict)  # key -> {title, authors, year}, when given
    source: str = ""
    position: int = 0
    line: int = 0


def stable_id(*parts: str) -> str:
    """A content-derived id: the same text gives the same id on any machine.

    >>> stable_id("Attention is all you need.")
    'p-cc2c11f181ff4f28'
    """
    text = "\n".join(unicodedata.normalize("NFC", " ".join(p.split())) for p in parts)
    return "p-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def derive_title(abstract: str, max_chars: int = 90) -> str:
    """A stand-in title: the abstract's first sentence, cut at a word boundary.

    >>> derive_title("We study X. It is hard.")
    'We study X'
    """
    first = _SENTENCE_END.split(" ".join(abstract.split()), maxsplit=1)[0].rstrip(".")
    if len(first) <= max_chars:
        return first
    cut = first[:max_chars].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"
