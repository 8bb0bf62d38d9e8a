"""CSL-JSON (Zotero's "CSL JSON" export, citeproc, Pandoc): an array of items
with ``title``, ``abstract``, ``author`` (family/given), ``issued``
(date-parts), ``container-title``, ``DOI``.

Ids: ``doi:<doi>`` when the item has a DOI, else ``csl:<id>``.

>>> item_fields({"id": "k1", "type": "article-journal", "title": "T", "issued": {"date-parts": [[2019, 4]]},
...              "author": [{"family": "Lee", "given": "Ann"}], "DOI": "10.1/X"})["id"]
'doi:10.1/x'
"""

from __future__ import annotations

import re
from typing import Iterator, TextIO

from kg.model import Paper
from loaders import ids
from loaders.fields import SkipRecord
from loaders.jsondocs import read_papers

_SIGNS = re.compile(r'"container-title"\s*:|"issued"\s*:|"citation-key"\s*:|"date-parts"\s*:')


def detect(head: str) -> bool:
    return bool(_SIGNS.search(head)) and bool(re.search(r'"type"\s*:', head))


def _year(item: dict):
    issued = item.get("issued") or {}
    if isinstance(issued, dict):
        parts = issued.get("date-parts") or [[]]
        if parts and parts[0] and parts[0][0] not in (None, ""):
            return parts[0][0]
        match = re.search(r"\b\d{4}\b", str(issued.get("raw") or issued.get("literal") or ""))
        return match.group() if match else None
    return None


def _author(author: dict) -> str:
    if author.get("literal"):
        return author["literal"]
    family = " ".join(p for p in (author.get("non-dropping-particle"), author.get("family")) if p)
    return " ".join(p for p in (author.get("given"), family, author.get("suffix")) if p)


def item_fields(item: dict) -> dict:
    doi = ids.doi(item.get("DOI"))
    own = item.get("id") or item.get("citation-key")
    if not doi and own in (None, ""):
        raise ValueError("item has neither DOI nor id")
    return {
        "id": f"doi:{doi}" if doi else f"csl:{own}",
        "title": item.get("title"), "abstract": item.get("abstract"), "year": _year(item),
        "venue": item.get("container-title") or item.get("event-title"),
        "authors": [_author(a) for a in item.get("author") or [] if isinstance(a, dict)],
        "doi": doi, "references": [],
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, item_fields)
