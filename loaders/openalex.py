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
from loaders.fields import FieldError, SkipRecord, describe, items, obj, text
from loaders.jsondocs import read_papers

_SIGNS = re.compile(r'"abstract_inverted_index"|"referenced_works"|"https://openalex\.org/W\d+"')


def detect(head: str) -> bool:
    """OpenAlex works carry inverted-index abstracts, referenced_works or openalex.org ids."""
    return bool(_SIGNS.search(head))


MAX_POSITION = 1_000_000  # an abstract of more words than this is no abstract


def rebuild_abstract(index: dict | None) -> str:
    """The abstract text from OpenAlex's inverted index (raises FieldError on a malformed one)."""
    index = obj(index, "abstract_inverted_index")
    words: dict[int, str] = {}
    for word, positions in index.items():
        for position in items(positions, f"abstract_inverted_index[{word[:40]!r}]"):
            if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < MAX_POSITION:
                raise FieldError(f"abstract_inverted_index[{word[:40]!r}]: expected word positions "
                                 f"(numbers from 0 to {MAX_POSITION - 1}), got {describe(position)}")
            words[position] = word
    return " ".join(words[p] for p in sorted(words))


def _venue(work: dict) -> str | None:
    # host_venue in 2022 snapshots, primary_location.source since 2023
    host = obj(work.get("host_venue"), "host_venue")
    source = obj(obj(work.get("primary_location"), "primary_location").get("source"), "primary_location.source")
    return host.get("display_name") or source.get("display_name")


def _authors(work: dict) -> list:
    names = []
    for number, authorship in enumerate(items(work.get("authorships"), "authorships")):
        author = obj(obj(authorship, f"authorships[{number}]").get("author"), f"authorships[{number}].author")
        if author.get("display_name"):
            names.append(author["display_name"])
    return names


def _references(work: dict) -> list[str]:
    found = []
    for number, work_id in enumerate(items(work.get("referenced_works"), "referenced_works")):
        key = ids.openalex_id(text(work_id, f"referenced_works[{number}]"))
        if key is None:
            raise FieldError(f"referenced_works[{number}]: expected an OpenAlex work id (W…), got {str(work_id)[:40]!r}")
        found.append(key)
    return found


def work_fields(work: dict) -> dict:
    """The loader fields of one OpenAlex work (raises FieldError naming a field that is missing or malformed)."""
    pid = ids.openalex_id(text(work.get("id"), "id"))
    if pid is None:
        raise FieldError(f"id: expected an OpenAlex work id (https://openalex.org/W…), got {str(work.get('id'))[:60]!r}")
    return {
        "id": pid,
        "title": work.get("title") or work.get("display_name"),
        "abstract": rebuild_abstract(work.get("abstract_inverted_index")),
        "year": work.get("publication_year"),
        "venue": _venue(work),
        "authors": _authors(work),
        "doi": ids.doi(text(work.get("doi"), "doi") or text(obj(work.get("ids"), "ids").get("doi"), "ids.doi")),
        "references": _references(work),
    }


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, work_fields)
