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
from loaders.fields import SkipRecord
from loaders.jsondocs import read_papers

_SIGNS = re.compile(r'"paperId"\s*:|"outbound_citations"\s*:|"corpusid"\s*:|"corpusId"\s*:|"s2_url"\s*:')


def detect(head: str) -> bool:
    return bool(_SIGNS.search(head))


def _own_id(record: dict) -> str | None:
    if record.get("paperId"):
        return f"s2:{record['paperId']}"
    corpus = record.get("paper_id") or record.get("corpusid") or record.get("corpusId")
    return f"s2corpus:{corpus}" if corpus not in (None, "") else None


def _reference_key(ref) -> str | None:
    if isinstance(ref, (str, int)):
        text = str(ref).strip()
        return None if not text else (f"s2corpus:{text}" if text.isdigit() else f"s2:{text}")
    if not isinstance(ref, dict):
        return None
    ref = ref.get("citedPaper") or ref  # the /references endpoint nests the cited paper
    own = _own_id(ref)
    if own:
        return own
    external = ref.get("externalIds") or {}
    if external.get("DOI"):
        return f"doi:{ids.doi(external['DOI'])}"
    return ids.title_key(ref["title"]) if ref.get("title") else None


def _author(author) -> str:
    if isinstance(author, str):
        return ids.person(author)
    if author.get("name"):
        return ids.person(author["name"])
    parts = [author.get("first") or "", *(author.get("middle") or []), author.get("last") or "", author.get("suffix") or ""]
    return " ".join(p for p in parts if p)


def s2_fields(record: dict) -> dict:
    """The loader fields of one Semantic Scholar or S2ORC record."""
    pid = _own_id(record)
    if pid is None:
        raise ValueError("no paperId, paper_id or corpusid")
    external = record.get("externalIds") or record.get("externalids") or {}
    refs = record.get("references") if record.get("references") is not None else record.get("outbound_citations")
    keys = [_reference_key(ref) for ref in refs or []]
    return {
        "id": pid,
        "title": record.get("title"),
        "abstract": record.get("abstract"),
        "year": record.get("year"),
        "venue": record.get("venue") or record.get("journal"),
        "authors": [_author(a) for a in record.get("authors") or [] if a],
        "doi": ids.doi(record.get("doi") or external.get("DOI")),
        "references": [k for k in keys if k],
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, s2_fields)
