"""RIS files (Zotero, EndNote, Mendeley, publisher "export citation").

Each record runs from ``TY  -`` to ``ER  -``; a line without a tag continues
the previous field. Ids: ``doi:<doi>`` when the record has a DOI, else
``ris:<ID>`` when it has an ``ID`` tag, else a content-derived id.
"""

from __future__ import annotations

import re
from typing import Iterator, TextIO

from kg.model import Paper
from loaders import ids
from loaders.fields import SkipRecord, papers_from_records

_TAG = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*))?$")
TITLE_TAGS = ("TI", "T1", "CT", "BT")
ABSTRACT_TAGS = ("AB", "N2")
AUTHOR_TAGS = ("AU", "A1")
YEAR_TAGS = ("PY", "Y1", "DA")
VENUE_TAGS = ("T2", "JO", "JF", "JA", "J2", "BT")


def detect(head: str) -> bool:
    return any(re.match(r"^TY  - \w+", line) for line in head.lstrip("\ufeff").splitlines()[:5])


def _records(stream: TextIO) -> Iterator[tuple[int, dict[str, list[str]] | str]]:
    record: dict[str, list[str]] | None = None
    start, last = 0, None
    for number, raw in enumerate(stream, start=1):
        line = raw.rstrip("\r\n")
        match = _TAG.match(line)
        if match:
            tag, value = match[1], (match[2] or "").strip()
            if tag == "TY":
                if record is not None:
                    yield start, f"line {start}: record has no ER line before line {number}"
                record, start, last = {"TY": [value]}, number, "TY"
            elif tag == "ER":
                if record is None:
                    yield number, f"line {number}: ER without a TY record"
                else:
                    yield start, record
                record = None
            elif record is not None:
                record.setdefault(tag, []).append(value)
                last = tag
        elif line.strip() and record is not None and last:
            record[last][-1] = f"{record[last][-1]} {line.strip()}"
    if record is not None:
        yield start, f"line {start}: record has no ER line at the end of the file"


def _first(record: dict[str, list[str]], tags: tuple[str, ...]) -> str | None:
    return next((record[t][0] for t in tags if record.get(t)), None)


def record_fields(record: dict[str, list[str]]) -> dict:
    doi = ids.doi(_first(record, ("DO",)))
    own = _first(record, ("ID",))
    year = _first(record, YEAR_TAGS)
    title = _first(record, TITLE_TAGS)
    venue = next((record[t][0] for t in VENUE_TAGS if record.get(t) and record[t][0] != title), None)
    return {
        "id": f"doi:{doi}" if doi else (f"ris:{own}" if own else None),
        "title": title, "abstract": _first(record, ABSTRACT_TAGS),
        "year": (re.match(r"\s*(\d{4})", year) or [None, None])[1] if year else None,
        "venue": venue, "authors": [ids.person(a) for t in AUTHOR_TAGS for a in record.get(t, [])],
        "doi": doi, "references": [],
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return papers_from_records(((f"line {line}", line, record) for line, record in _records(stream)), source, record_fields)
