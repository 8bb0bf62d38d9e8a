"""The ACL Anthology Network (AAN): a metadata file of ``key = {value}`` records
(``acl-metadata.txt``: id, author, title, venue, year; no abstracts) and a
citation list of ``CITING , CITED`` lines (``acl.txt``).

``kg build FOLDER`` on a folder holding both reads them together: each paper's
citations from the list in its folder become its references (ACL ids, kept as
they are, e.g. ``P02-1040``). A line where a paper cites itself is dropped, and
a line whose citing paper is not in the metadata is reported (grouped by
citing paper) as a skip; neither is lost silently.

The files are not all UTF-8 (a few titles carry Windows-1252 quotes) and use
HTML entities for accents (``Daum&eacute; III``); both are decoded.

>>> parse_edge("D09-1141 , A00-1002")
('D09-1141', 'A00-1002')
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from pathlib import Path
from typing import Iterable, Iterator, TextIO

from kg.model import Paper
from loaders import ids
from loaders.fields import SkipRecord, papers_from_records

_FIELD = re.compile(r"^\s*(\w+)\s*=\s*\{(.*)\}\s*$")
_EDGE = re.compile(r"^\s*(\S+)\s*,\s*(\S+)\s*$")
METADATA_NAME = "acl-metadata.txt"


def detect(head: str) -> bool:
    """Metadata: the first non-empty line is ``id = {...}``."""
    first = next((line for line in head.splitlines() if line.strip()), "")
    return bool(re.match(r"^\s*id\s*=\s*\{[^}]+\}\s*$", first))


def detect_edges(head: str) -> bool:
    """A citation list: every complete line of the head is ``ID , ID``."""
    lines = [line for line in head.splitlines()[:-1] if line.strip()]
    return bool(lines) and all(_EDGE.match(line) and " , " in line for line in lines)


def parse_edge(line: str) -> tuple[str, str] | None:
    match = _EDGE.match(line)
    return (match[1], match[2]) if match else None


def _text(value: str) -> str:
    """Undo the files' encodings: stray Windows-1252 bytes, then HTML entities."""
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        raw = value.encode("utf-8", "surrogateescape")
        value = raw.decode("cp1252", errors="replace")
    return html.unescape(value)


class Citations:
    """The citation lists of one load: citing id -> cited ids, with where each came from."""

    def __init__(self):
        self.cited: dict[str, list[str]] = defaultdict(list)
        self.where: dict[str, str] = {}
        self.skips: list[SkipRecord] = []

    def read(self, stream: TextIO, label: str) -> None:
        seen: set[tuple[str, str]] = set()
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            edge = parse_edge(line)
            if edge is None:
                self.skips.append(_skip(label, f"line {number}: not a 'CITING , CITED' line"))
            elif edge[0] == edge[1]:
                self.skips.append(_skip(label, f"line {number}: {edge[0]} cites itself; dropped"))
            elif edge in seen:
                self.skips.append(_skip(label, f"line {number}: duplicate of an earlier line; dropped"))
            else:
                seen.add(edge)
                self.cited[edge[0]].append(edge[1])
                self.where.setdefault(edge[0], (label, number))

    def unused(self) -> Iterator[SkipRecord]:
        """What was left after the metadata: citing papers the metadata does not have."""
        for citing, cited in self.cited.items():
            label, number = self.where[citing]
            yield _skip(label, f"line {number}: citing paper {citing} is not in the metadata "
                               f"({len(cited)} citation(s) not loaded)")


def _skip(label: str, why: str) -> SkipRecord:
    """A skip that names the citation list it comes from, not the metadata file being read."""
    skip = SkipRecord(why)
    skip.where = label
    return skip


def _records(stream: TextIO) -> Iterator[tuple[int, dict[str, str] | str]]:
    record: dict[str, str] = {}
    start = 0
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            if record:
                yield start, record
            record = {}
            continue
        match = _FIELD.match(line)
        if not match:
            yield number, f"line {number}: not a 'key = {{value}}' line"
            continue
        if not record:
            start = number
        record[match[1].lower()] = _text(match[2]).strip()
    if record:
        yield start, record


def record_fields(record: dict[str, str], citations: Citations) -> dict:
    pid = record.get("id")
    if not pid:
        raise ValueError("record has no id")
    authors = [ids.person(a) for a in re.split(r"\s*;\s*", record.get("author", "")) if a.strip()]
    return {
        "id": pid, "title": record.get("title"), "abstract": "", "year": record.get("year"),
        "venue": record.get("venue"), "authors": authors, "doi": None, "references": citations.cited.pop(pid, []),
    }


def read(stream: TextIO, source: str, edge_files: Iterable[tuple[str, TextIO]] = ()) -> Iterator[Paper | SkipRecord]:
    """Papers of one metadata file, with the citations of ``edge_files`` ((label, stream) pairs)."""
    citations = Citations()
    for label, edges in edge_files:
        citations.read(edges, label)
    yield from citations.skips
    numbered = ((f"line {line}", line, record) for line, record in _records(stream))
    yield from papers_from_records(numbered, source, lambda record: record_fields(record, citations))
    yield from citations.unused()


def edge_files_for(metadata: str, edge_lists: Iterable[str]) -> list[str]:
    """The citation lists that belong to a metadata file: those in its folder."""
    folder = Path(metadata).resolve().parent
    return [name for name in edge_lists if Path(name).resolve().parent == folder]
