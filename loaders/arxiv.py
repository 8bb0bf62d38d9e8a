"""The arXiv metadata snapshot: one JSON object per line (``id``, ``submitter``,
``authors``/``authors_parsed``, ``title``, ``abstract``, ``journal-ref``,
``doi``, ``categories``, ``versions``). Ids become ``arxiv:<id>``; the year is
that of the first version. The snapshot has no references.

>>> fields = arxiv_fields({"id": "0704.0001v2", "title": "Calculation of prompt diphoton", "abstract": "A study.",
...     "authors_parsed": [["Balazs", "C.", ""]], "versions": [{"created": "Mon, 2 Apr 2007 19:18:42 GMT"}]})
>>> fields["id"], fields["authors"], fields["year"]
('arxiv:0704.0001', ['C. Balazs'], '2007')
"""

from __future__ import annotations

import re
from typing import Iterator, TextIO

from kg.model import Paper
from loaders import ids
from loaders.fields import FieldError, SkipRecord, items, text
from loaders.jsondocs import read_papers

_SIGNS = re.compile(r'"submitter"\s*:|"authors_parsed"\s*:|"journal-ref"\s*:')
_YEAR = re.compile(r"\b(19|20)\d{2}\b")


def detect(head: str) -> bool:
    return bool(_SIGNS.search(head))


def _year(record: dict):
    for number, version in enumerate(items(record.get("versions"), "versions")):
        created = text(version.get("created"), f"versions[{number}].created") if isinstance(version, dict) \
            else text(version, f"versions[{number}]")
        match = _YEAR.search(created or "")
        if match:
            return match.group()
    return record.get("update_date")


def _name(parts: list, where: str) -> str:
    parts = [text(p, f"{where}[{i}]") or "" for i, p in enumerate(items(parts, where))]
    ordered = (parts[1] if len(parts) > 1 else "", parts[0] if parts else "", parts[2] if len(parts) > 2 else "")
    return " ".join(p for p in ordered if p)


def _authors(record: dict) -> list[str]:
    parsed = items(record.get("authors_parsed"), "authors_parsed")
    if parsed:
        return [name for n, parts in enumerate(parsed) if (name := _name(parts, f"authors_parsed[{n}]"))]
    listed = re.sub(r"\s+and\s+", ", ", text(record.get("authors"), "authors") or "")
    return [name.strip() for name in listed.split(",") if name.strip()]


def arxiv_fields(record: dict) -> dict:
    pid = ids.arxiv_id(text(record.get("id"), "id"))
    if pid is None:
        raise FieldError("no arXiv id")
    return {
        "id": pid, "title": record.get("title"), "abstract": record.get("abstract"), "year": _year(record),
        "venue": "arXiv", "authors": _authors(record), "doi": ids.doi(text(record.get("doi"), "doi")), "references": [],
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, arxiv_fields)
