"""Plain-text abstract lists.

The first non-empty line is a header naming the collection ("NeurIPS 2026
Papers", "NeurIPS 2026 论文列表"), from which venue and year are taken when
present; then one abstract per blank-line-separated block. Papers get a
content-derived id and a derived title (marked ``title_derived``).
"""

from __future__ import annotations

import re
from typing import Iterator, TextIO

from kg.model import Paper, derive_title, stable_id
from loaders.fields import ReaderNote, SkipRecord

_HEADER = re.compile(r"^(?P<venue>.*?)\s*(?P<year>(?:19|20)\d{2})\b")
HEADER_MAX_CHARS = 120


def parse_header(line: str) -> tuple[str | None, int | None]:
    """Venue and year named by a collection header.

    >>> parse_header("NeurIPS 2026 论文列表")
    ('NeurIPS', 2026)
    >>> parse_header("My reading list")
    (None, None)
    """
    match = _HEADER.match(line.strip())
    if not match:
        return None, None
    return (match["venue"].strip(" -–:") or None), int(match["year"])


def is_header(line: str) -> bool:
    """A short first line that is not a sentence names the collection."""
    line = line.strip()
    return len(line) <= HEADER_MAX_CHARS and not line.endswith((".", "?", "!"))


def _blocks(stream: TextIO) -> Iterator[tuple[int, str]]:
    lines: list[str] = []
    start = 0
    for number, line in enumerate(stream, start=1):
        if line.strip():
            if not lines:
                start = number
            lines.append(line.strip())
        elif lines:
            yield start, " ".join(lines)
            lines = []
    if lines:
        yield start, " ".join(lines)


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord | ReaderNote]:
    venue = year = None
    position = 0
    header = None
    for index, (line, block) in enumerate(_blocks(stream)):
        if index == 0 and is_header(block):
            header = block
            venue, year = parse_header(block)
            if venue is None and year is None:  # it may be a short abstract of a list without a header
                yield ReaderNote(f"line {line}: {_short(block)} is read as the list's header line, not an abstract "
                                 "(it names no venue or year); if it is an abstract, put a header line before it")
            continue
        position += 1
        yield Paper(
            id=stable_id(block),
            title=derive_title(block),
            title_derived=True,
            abstract=block,
            year=year,
            venue=venue,
            source=source,
            position=position,
            line=line,
        )
    if header is not None and position == 0:
        yield SkipRecord(f"line 1: only a header line ({_short(header)}) and no abstract after it")


def _short(text: str, size: int = 60) -> str:
    return repr(text if len(text) <= size else text[:size - 1] + "…")
