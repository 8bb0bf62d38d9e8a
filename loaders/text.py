"""Plain-text abstract lists.

The first non-empty line is a header naming the collection ("NeurIPS 2026
Papers", "NeurIPS 2026 论文列表"), from which venue and year are taken when
present; then one abstract per blank-line-separated block. Papers get a
content-derived id and a derived title (marked ``title_derived``).

A list may have no header: its first block is read as one when it is short and
ends without a full stop (``is_header``), and the load reports that guess with
the line's text (``HeaderLine``); ``header=False`` (``--no-header``) reads it as
an abstract.

>>> import io
>>> items = list(read(io.StringIO("Graph networks for molecules\\n\\nWe study graphs.\\n"), "a.txt"))
>>> str(items[0])
"line 1 read as the header: 'Graph networks for molecules' (it names no venue or year); pass --no-header to read it as an abstract"
>>> [p.abstract for p in read(io.StringIO("Graph networks for molecules\\n\\nWe study graphs.\\n"), "a.txt", header=False)]
['Graph networks for molecules', 'We study graphs.']
"""

from __future__ import annotations

import re
from typing import Iterator, TextIO

from kg.model import Paper, derive_title, stable_id
from loaders.fields import HeaderLine, SkipRecord

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


def read(stream: TextIO, source: str, header: bool = True) -> Iterator[Paper | SkipRecord | HeaderLine]:
    """The abstracts of a list; unless ``header`` is False, its first block is read as the
    list's header when it looks like one (``is_header``), and a ``HeaderLine`` says so."""
    venue = year = None
    position = 0
    header_text = None
    for index, (line, block) in enumerate(_blocks(stream)):
        if index == 0 and header and is_header(block):
            header_text = block
            venue, year = parse_header(block)
            yield HeaderLine(f"line {line} read as the header: {_short(block)} ({_what_header_gives(venue, year)}); "
                             "pass --no-header to read it as an abstract")
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
    if header_text is not None and position == 0:
        yield SkipRecord(f"line 1: only a header line ({_short(header_text)}) and no abstract after it; "
                         "pass --no-header to read it as an abstract")


def _what_header_gives(venue: str | None, year: int | None) -> str:
    """What the papers of a list take from its header, for the report."""
    given = [f"venue {venue}"] * bool(venue) + [f"year {year}"] * bool(year)
    return ", ".join(given) + " for its abstracts" if given else "it names no venue or year"


def _short(text: str, size: int = 60) -> str:
    return repr(text if len(text) <= size else text[:size - 1] + "…")
