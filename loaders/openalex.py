"""OpenAlex Work records (JSON lines, a JSON array or an API page; ``.gz`` too).

Ids become ``openalex:W…``; ``referenced_works`` become references with the
same ids, so works of one snapshot cite each other. The abstract is rebuilt
from ``abstract_inverted_index`` (word -> positions).

>>> rebuild_abstract({"deep": [0], "nets": [1, 3], "learn": [2]})
'deep nets learn nets'
"""

from __future__ import annotations

import re
from typing import Iterator, TextIO

from kg.model import Paper
from loaders import ids
from loaders.fields import SkipRecord
from loaders.jsondocs import read_papers

_SIGNS = re.compile(r'"abstract_inverted_index"|"referenced_works"|"https://openalex\.org/W\d+"')


def detect(head: str) -> bool:
    """OpenAlex works carry inverted-index abstracts, referenced_works or openalex.org ids."""
    return bool(_SIGNS.search(head))


def rebuild_abstract(index: dict | None) -> str:
    """The abstract text from OpenAlex's inverted index."""
    if not index:
        return ""
    words: dict[int, str] = {}
    for word, positions in index.items():
        for position in positions or []:
            words[int(position)] = word
    return " ".join(words[p] for p in sorted(words))


def _venue(work: dict) -> str | None:
    # host_venue in 2022 snapshots, primary_location.source since 2023
    host = work.get("host_venue") or {}
    source = (work.get("primary_location") or {}).get("source") or {}
    return host.get("display_name") or source.get("display_name")


def work_fields(work: dict) -> dict:
    """The loader fields of one OpenAlex work (raises ValueError when it has no id)."""
    pid = ids.openalex_id(work.get("id"))
    if pid is None:
        raise ValueError(f"no OpenAlex work id (id = {work.get('id')!r})")
    references = [ids.openalex_id(w) for w in work.get("referenced_works") or []]
    return {
        "id": pid,
        "title": work.get("title") or work.get("display_name"),
        "abstract": rebuild_abstract(work.get("abstract_inverted_index")),
        "year": work.get("publication_year"),
        "venue": _venue(work),
        "authors": [(a.get("author") or {}).get("display_name") for a in work.get("authorships") or []
                    if (a.get("author") or {}).get("display_name")],
        "doi": ids.doi(work.get("doi") or (work.get("ids") or {}).get("doi")),
        "references": [r for r in references if r],
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, work_fields)
