"""BibTeX and BibLaTeX files (Zotero, JabRef, publisher exports) with ``abstract`` fields.

Entries are parsed one at a time with bibtexparser (LaTeX accents decoded,
authors split), so a large file stays in bounded memory and a broken entry is
a counted skip naming its line. Ids: ``doi:<doi>`` when the entry has a DOI
(so the same paper from a RIS or CSL-JSON export gets the same id), else
``arxiv:<eprint>`` for arXiv entries, else ``bib:<citation key>``.
"""

from __future__ import annotations

import logging
import re
from typing import Iterator, TextIO

import bibtexparser
from bibtexparser import middlewares

from kg.model import Paper
from loaders import ids
from loaders.fields import FieldError, SkipRecord, paper_from_fields

_ENTRY_START = re.compile(r"^\s*@\s*(\w+)\s*[{(]")
_SKIPPED_TYPES = {"comment", "preamble"}
# bibtexparser logs every failed block itself; the loader reports them instead.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)


def detect(head: str) -> bool:
    return any(_ENTRY_START.match(line) for line in head.splitlines()[:50])


def _chunks(stream: TextIO) -> Iterator[tuple[int, str, str]]:
    """``(line, entry type, text)`` for each ``@entry``, in order."""
    lines: list[str] = []
    start, kind = 0, ""
    for number, line in enumerate(stream, start=1):
        match = _ENTRY_START.match(line)
        if match:
            if lines and kind:
                yield start, kind, "".join(lines)
            lines, start, kind = [line], number, match[1].lower()
        elif kind:
            lines.append(line)
    if lines and kind:
        yield start, kind, "".join(lines)


def _names(value) -> list[str]:
    names = []
    for parts in value if isinstance(value, list) else []:
        if isinstance(parts, middlewares.NameParts):
            names.append(" ".join(p for p in (*parts.first, *parts.von, *parts.last, *parts.jr) if p))
        else:
            names.append(ids.person(parts))
    return [" ".join(n.replace("{", "").replace("}", "").split()) for n in names if n]


def _year(fields: dict):
    if fields.get("year"):
        return fields["year"]
    match = re.match(r"\s*(\d{4})", fields.get("date") or "")
    return match[1] if match else None


def entry_fields(key: str, fields: dict) -> dict:
    doi = ids.doi(fields.get("doi"))
    eprint = fields.get("eprint") if (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower() == "arxiv" else None
    if not (doi or eprint or key.strip()):
        raise FieldError("entry has no citation key, DOI or arXiv eprint")
    pid = f"doi:{doi}" if doi else (ids.arxiv_id(eprint) if eprint else f"bib:{key.strip()}")
    return {
        "id": pid, "title": fields.get("title"), "abstract": fields.get("abstract"), "year": _year(fields),
        "venue": fields.get("journal") or fields.get("booktitle") or fields.get("journaltitle"),
        "authors": _names(fields.get("author")), "doi": doi, "references": [],
    }


def _parse(text: str, strings: str):
    return bibtexparser.parse_string(strings + text, append_middleware=[
        middlewares.LatexDecodingMiddleware(), middlewares.SeparateCoAuthors(), middlewares.SplitNameParts()])


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    strings = ""  # @string macros, kept for the entries that use them
    position = 0
    for line, kind, text in _chunks(stream):
        if kind in _SKIPPED_TYPES:
            continue
        if kind == "string":
            strings += text
            continue
        position += 1
        library = _parse(text, strings)
        if library.failed_blocks or not library.entries:
            yield SkipRecord(f"line {line}: @{kind} entry could not be parsed")
            continue
        entry = library.entries[0]
        fields = {f.key.lower(): f.value for f in entry.fields}
        if isinstance(fields.get("title"), str):
            fields["title"] = fields["title"].replace("{", "").replace("}", "")
        try:
            yield paper_from_fields(entry_fields(entry.key, fields), source, position, line)
        except ValueError as err:
            yield SkipRecord(f"line {line}: " + (f"entry {entry.key}: " if entry.key.strip() else "") + str(err))
