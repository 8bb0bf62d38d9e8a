"""Semantic Scholar records: the Graph API / datasets shape (``paperId`` or
``corpusid``, ``references``) and S2ORC metadata (``paper_id``,
``outbound_citations``).

Ids: a Semantic Scholar paperId becomes ``s2:<paperId>``; a corpus id (S2ORC's
``paper_id``, the datasets' ``corpusid``) becomes ``s2corpus:<n>``. References
use the same forms; a reference known only by its title keeps a ``title:`` key.

>>> s2_fields({"paperId": "abc", "title": "T", "year": 2020, "authors": [{"name": "Ann Lee"}],
...            "references": [{"paperId": "def"}, {"paperId": None, "title": "Old Work"}]})["references"]
['s2:def', 'title:old work']
"""

from __future__ import annotations

import re
from typing import Iterator, TextIO

from kg.model import Paper
from loaders import ids
from loaders.fields import FieldError, SkipRecord, describe, items, obj, text
from loaders.jsondocs import read_papers

_SIGNS = re.compile(r'"paperId"\s*:|"outbound_citations"\s*:|"corpusid"\s*:|"corpusId"\s*:|"s2_url"\s*:')


def detect(head: str) -> bool:
    return bool(_SIGNS.search(head))


def _own_id(record: dict, where: str = "") -> str | None:
    paper_id = text(record.get("paperId"), f"{where}paperId")
    if paper_id:
        return f"s2:{paper_id}"
    for key in ("paper_id", "corpusid", "corpusId"):
        corpus = text(record.get(key), f"{where}{key}", numbers=True)
        if corpus:
            return f"s2corpus:{corpus}"
    return None


def _reference_key(ref, where: str) -> str | None:
    if isinstance(ref, (str, int)) and not isinstance(ref, bool):
        key = str(ref).strip()
        return None if not key else (f"s2corpus:{key}" if key.isdigit() else f"s2:{key}")
    if not isinstance(ref, dict):
        raise FieldError(f"{where}: expected an id or an object, got {describe(ref)}")
    ref = obj(ref.get("citedPaper"), f"{where}.citedPaper") or ref  # the /references endpoint nests the cited paper
    own = _own_id(ref, f"{where}.")
    if own:
        return own
    doi = text(obj(ref.get("externalIds"), f"{where}.externalIds").get("DOI"), f"{where}.externalIds.DOI")
    if doi:
        return f"doi:{ids.doi(doi)}"
    title = text(ref.get("title"), f"{where}.title")
    return ids.title_key(title) if title else None


def _author(author, where: str) -> str:
    if isinstance(author, str):
        return ids.person(author)
    author = obj(author, where)
    if author.get("name"):
        return ids.person(text(author["name"], f"{where}.name"))
    middle = [text(m, f"{where}.middle") or "" for m in items(author.get("middle"), f"{where}.middle")]
    parts = [text(author.get(k), f"{where}.{k}") or "" for k in ("first", "last", "suffix")]
    return " ".join(p for p in (parts[0], *middle, parts[1], parts[2]) if p)


def _reference_detail(ref: dict, where: str) -> dict:
    """Title, authors and year of a cited paper object (the /references endpoint's ``citedPaper``)."""
    ref = obj(ref.get("citedPaper"), f"{where}.citedPaper") or ref
    authors = items(ref.get("authors"), f"{where}.authors")
    return {"title": text(ref.get("title"), f"{where}.title"),
            "authors": [_author(a, f"{where}.authors[{n}]") for n, a in enumerate(authors) if a], "year": ref.get("year")}


def s2_fields(record: dict) -> dict:
    """The loader fields of one Semantic Scholar or S2ORC record."""
    pid = _own_id(record)
    if pid is None:
        raise FieldError("no paperId, paper_id or corpusid")
    external = obj(record.get("externalIds") or record.get("externalids"), "externalIds")
    field = "references" if record.get("references") is not None else "outbound_citations"
    refs = items(record.get(field), field)
    keys = [_reference_key(ref, f"{field}[{n}]") for n, ref in enumerate(refs)]
    details = {key: _reference_detail(ref, f"{field}[{n}]") for n, (key, ref) in enumerate(zip(keys, refs))
               if key and isinstance(ref, dict)}
    return {
        "id": pid,
        "title": record.get("title"),
        "abstract": record.get("abstract"),
        "year": record.get("year"),
        "venue": record.get("venue") or record.get("journal"),
        "authors": [_author(a, f"authors[{n}]") for n, a in enumerate(items(record.get("authors"), "authors")) if a],
        "doi": ids.doi(text(record.get("doi"), "doi") or text(external.get("DOI"), "externalIds.DOI")),
        "references": [k for k in keys if k],
        "reference_details": {key: d for key, d in details.items() if d["title"] or d["authors"]},
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, s2_fields)
