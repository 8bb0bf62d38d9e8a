"""What every paper passes before it leaves the loaders, whatever its format.

- Text is cleaned: a lone surrogate (``"\\ud800"`` from a JSON escape) cannot be
  written to a store, so it becomes U+FFFD, with a note; a control character
  other than tab, newline and carriage return (``"\\u0000"``) is dropped, with a
  note (in a file's raw text the reader's stream drops them, by line).
- Sizes are bounded: an abstract longer than ``MAX_ABSTRACT_CHARS`` is cut at a
  word boundary, with a note; an id, title, venue, DOI, author or reference
  list beyond its limit makes the record a skip naming the field.
- Ids are unique within one file: a later record with an id already read is a
  skip saying which line wins (the first) and whether the content differed.

>>> checker = PaperChecks("a.jsonl")
>>> from kg.model import Paper
>>> checker.check(Paper(id="x", title="T", abstract="bad \\ud800 text", line=1)), checker.notes
(None, ['line 1: abstract: 1 lone surrogate(s) (U+D800) replaced with U+FFFD'])
>>> checker.check(Paper(id="x", title="T", abstract="other", line=2))
'line 2: id x was already read at line 1 with different content; line 1 wins (the first record of an id is kept)'
"""

from __future__ import annotations

import hashlib
import re

from kg.model import Paper

MAX_ABSTRACT_CHARS = 100_000  # abstracts are a few thousand characters; a full text is not one
LIMITS = {"id": 1_000, "title": 5_000, "venue": 1_000, "doi": 500}
MAX_NAME_CHARS = 1_000  # one author or reference
MAX_AUTHORS = 10_000  # physics papers have a few thousand
MAX_REFERENCES = 100_000
_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 controls but tab, newline and carriage return, and DEL: never part of an abstract (a NUL from a crash or a copy)
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
TEXT_FIELDS = ("id", "title", "abstract", "venue", "doi")


def where(paper: Paper) -> str:
    """``line N`` when the record's line is known, else ``record N``."""
    return f"line {paper.line}" if paper.line else f"record {paper.position}"


def _cleaned(value: str, field: str, notes: list[str]) -> str:
    found = _SURROGATE.findall(value)
    if found:
        notes.append(f"{field}: {len(found)} lone surrogate(s) (U+{ord(found[0]):04X}) replaced with U+FFFD")
        value = _SURROGATE.sub("\ufffd", value)
    control = CONTROL.findall(value)
    if control:
        notes.append(f"{field}: {len(control)} control character(s) (U+{ord(control[0]):04X}) dropped")
        value = CONTROL.sub("", value)
    return value


def clean_text(paper: Paper) -> list[str]:
    """Replace lone surrogates and drop control characters in every text field of ``paper``; the notes say where.

    >>> paper = Paper(id="x", title="T", abstract="A NUL\\x00 here.")
    >>> clean_text(paper), paper.abstract
    (['abstract: 1 control character(s) (U+0000) dropped'], 'A NUL here.')
    """
    notes: list[str] = []
    for field in TEXT_FIELDS:
        value = getattr(paper, field)
        if value:
            setattr(paper, field, _cleaned(value, field, notes))
    paper.authors = [_cleaned(a, "authors", notes) for a in paper.authors]
    paper.references = [_cleaned(r, "references", notes) for r in paper.references]
    return notes


def oversized(paper: Paper) -> str | None:
    """Why ``paper`` is too large to load (the field and its limit), or None."""
    for field, limit in LIMITS.items():
        value = getattr(paper, field) or ""
        if len(value) > limit:
            return f"{field}: {len(value):,} characters, more than the {limit:,} kg reads; record skipped"
    for field, values, limit in (("authors", paper.authors, MAX_AUTHORS), ("references", paper.references, MAX_REFERENCES)):
        if len(values) > limit:
            return f"{field}: {len(values):,} entries, more than the {limit:,} kg reads; record skipped"
        longest = max(values, key=len, default="")
        if len(longest) > MAX_NAME_CHARS:
            return f"{field}: an entry of {len(longest):,} characters, more than the {MAX_NAME_CHARS:,} kg reads; record skipped"
    return None


def truncate_abstract(paper: Paper, limit: int = MAX_ABSTRACT_CHARS) -> str | None:
    """Cut an abstract longer than ``limit`` at a word boundary; the note says so."""
    if len(paper.abstract) <= limit:
        return None
    size = len(paper.abstract)
    cut = paper.abstract[:limit]
    paper.abstract = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return f"abstract: {size:,} characters, cut to the first {len(paper.abstract):,} (kg reads at most {limit:,})"


def _digest(paper: Paper) -> bytes:
    content = (paper.title, paper.abstract, paper.year, paper.venue, paper.authors, paper.doi, paper.references)
    return hashlib.blake2b(repr(content).encode("utf-8", "surrogatepass"), digest_size=8).digest()


class PaperChecks:
    """The checks of one file: ``check`` returns a skip message or None (the paper may be changed);
    ``notes`` collects what was changed in papers that are kept."""

    def __init__(self, label: str):
        self.label = label
        self.notes: list[str] = []
        self._seen: dict[str, tuple[str, bytes]] = {}  # id -> (where, content digest) of its first record

    def check(self, paper: Paper) -> str | None:
        here = where(paper)
        self.notes.extend(f"{here}: {note}" for note in clean_text(paper))
        too_big = oversized(paper)
        if too_big:
            return f"{here}: {too_big}"
        cut = truncate_abstract(paper)
        if cut:
            self.notes.append(f"{here}: {cut}")
        digest = _digest(paper)
        first = self._seen.get(paper.id)
        if first is None:
            self._seen[paper.id] = (here, digest)
            return None
        return repeated(paper.id, here, digest, first)

    def first(self, paper_id: str) -> tuple[str, bytes]:
        """Where the kept record of ``paper_id`` is, and its content digest."""
        return self._seen[paper_id]


def repeated(paper_id: str, here: str, digest: bytes, first: tuple[str, bytes]) -> str:
    """The skip of a record whose id was read before, at ``first`` (where, content digest)."""
    if first[1] == digest:
        return f"{here}: id {paper_id} repeats the record at {first[0]} (same content); skipped"
    return (f"{here}: id {paper_id} was already read at {first[0]} with different content; "
            f"{first[0]} wins (the first record of an id is kept)")
