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
from loaders.fields import FieldError, SkipRecord, items, obj, text
from loaders.jsondocs import read_papers

_SIGNS = re.compile(r'"container-title"\s*:|"issued"\s*:|"citation-key"\s*:|"date-parts"\s*:')


def detect(head: str) -> bool:
    return bool(_SIGNS.search(head)) and bool(re.search(r'"type"\s*:', head))


def _year(item: dict):
    issued = obj(item.get("issued"), "issued")
    parts = items(issued.get("date-parts"), "issued.date-parts")
    first = items(parts[0], "issued.date-parts[0]") if parts else []
    if first and first[0] not in (None, ""):
        return first[0]
    raw = text(issued.get("raw") or issued.get("literal"), "issued.raw", numbers=True) or ""
    match = re.search(r"\b\d{4}\b", raw)
    return match.group() if match else None


def _author(author: dict, where: str) -> str:
    author = obj(author, where)
    part = {key: text(author.get(key), f"{where}.{key}") for key in
            ("literal", "given", "non-dropping-particle", "family", "suffix")}
    if part["literal"]:
        return part["literal"]
    family = " ".join(p for p in (part["non-dropping-particle"], part["family"]) if p)
    return " ".join(p for p in (part["given"], family, part["suffix"]) if p)


def item_fields(item: dict) -> dict:
    doi = ids.doi(text(item.get("DOI"), "DOI"))
    own = text(item.get("id"), "id", numbers=True) or text(item.get("citation-key"), "citation-key")
    if not doi and not own:
        raise FieldError("item has neither DOI nor id")
    return {
        "id": f"doi:{doi}" if doi else f"csl:{own}",
        "title": item.get("title"), "abstract": item.get("abstract"), "year": _year(item),
        "venue": item.get("container-title") or item.get("event-title"),
        "authors": [_author(a, f"author[{n}]") for n, a in enumerate(items(item.get("author"), "author"))],
        "doi": doi, "references": [],
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, item_fields)
