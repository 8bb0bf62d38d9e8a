"""Sources cut into parts that separate workers read (``kg extract --cluster``, ``kg.cluster``).

>>> from loaders.parts import load_parts
>>> papers = list(load_parts(["examples/neurips2026"], records_per_part=10))   # doctest: +SKIP
>>> len(papers)                                                                # doctest: +SKIP
57

A plain JSON-lines file (jsonl, openalex, s2, arxiv) is cut into byte ranges at line starts,
every ``records_per_part`` non-blank lines, and each range remembers its first line, so a
skip still names the file's line. Any other file is one part: a ``.gz`` file cannot be read
from its middle (OpenAlex snapshots come as many ``part_NNN.gz`` files anyway), and the other
formats are not one record per line. ``read_part`` reads one part where it runs (a worker);
``PartMerge`` joins the parts in order where they are collected, doing what one read of the
file does across its parts: positions counted from the file's start, an id repeated in a
later part skipped (the first record wins), a file that gave no paper said why. Reading every
part in order and merging gives the papers and the report of ``loaders.load``
(``load_parts``); only the order of the report's lines can differ.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from kg.defaults import RECORDS_PER_PART
from kg.model import Paper
from loaders import (
    AAN_EDGES,
    GZIP_MAGIC,
    LENIENT_FORMATS,
    READERS,
    LoadError,
    LoadReport,
    NoPapers,
    ReadCounts,
    _Checked,
    _plan,
    check_format,
    checked_papers,
    load_planned,
    report_no_papers,
    report_repairs,
)
from loaders.checks import PaperChecks, repeated
from loaders.jsondocs import json_lines

SPLITTABLE = {"jsonl", "openalex", "s2", "arxiv"}  # formats whose JSON-lines files are cut into byte ranges


@dataclass(frozen=True)
class Part:
    """One task's share of the sources: a whole file, or a byte range of a JSON-lines file."""

    name: str
    planned: str | None  # the file's format, or None when it cannot be read (``problem`` says why)
    fmt: str | None = None  # the format the user forced, if any
    problem: str | None = None
    start: int = 0
    end: int | None = None  # the range [start, end) of a split file; None: the whole file
    first_line: int = 1
    index: int = 0  # the part's number within its file
    last: bool = True  # the file's last part
    edge_lists: tuple[str, ...] = ()  # the AAN citation lists and metadata files of the whole load
    metadata: tuple[str, ...] = ()
    no_header: bool = False  # an abstract list's first line is an abstract (``loaders.load``)

    @property
    def split(self) -> bool:
        return self.end is not None


@dataclass
class PartRead:
    """What a worker read from one part. ``items`` are its papers in order (or, once extracted,
    their records); ``keys`` the (id, where, content digest) of each, for the ids repeated
    across parts; ``positions`` how many records the part counted (skipped ones too)."""

    part: Part
    items: list
    keys: list[tuple[str, str, bytes]] = field(default_factory=list)
    positions: int = 0
    report: LoadReport = field(default_factory=LoadReport)
    empty: list[str] = field(default_factory=list)


def partitions(sources: Iterable[str], fmt: str | None = None, report: LoadReport | None = None,
               records_per_part: int = RECORDS_PER_PART, *, no_header: bool = False) -> Iterator[Part]:
    """The parts of ``sources`` in order. Files are planned as ``loaders.load`` plans them
    (documentation files in folders are skips in ``report``); a file is scanned for line
    starts once, by the driver, before its first part is taken (a pass over the bytes, fast beside extraction)."""
    check_format(fmt)
    if records_per_part < 1:
        raise ValueError("records_per_part must be at least 1")
    plan = _plan(sources, fmt, report if report is not None else LoadReport())
    if any(name == "-" for name, _, _ in plan):
        raise LoadError("-: standard input cannot be shared among workers; save it to a file and name that")
    edge_lists = tuple(name for name, found, _ in plan if found == AAN_EDGES)
    metadata = tuple(name for name, found, _ in plan if found == "aan")
    for name, planned, problem in plan:
        whole = Part(name, planned, fmt, problem, edge_lists=edge_lists, metadata=metadata, no_header=no_header)
        ranges = _line_ranges(name, records_per_part) if planned in SPLITTABLE and not problem else None
        if not ranges or len(ranges) == 1:
            yield whole
            continue
        for index, (start, end, first_line) in enumerate(ranges):
            yield Part(name, planned, fmt, start=start, end=end, first_line=first_line, index=index, last=index == len(ranges) - 1)


def _line_ranges(name: str, records_per_part: int) -> list[tuple[int, int, int]] | None:
    """(start, end, first line) byte ranges of a plain JSON-lines file, each with at most
    ``records_per_part`` non-blank lines; None when the file is not one to cut (gzip, a JSON
    array or document, a carriage return alone ending a line)."""
    with open(name, "rb") as file:
        if file.read(2) == GZIP_MAGIC:
            return None
        file.seek(0)
        for line in file:
            if line.strip():
                if not json_lines(line.decode("utf-8-sig", "replace")):
                    return None
                break
        file.seek(0)
        ranges = []
        start = offset = count = 0
        first_line = number = 1
        for line in file:
            if line.count(b"\r") > line.endswith(b"\r\n"):
                return None  # a text reader may end a line at a lone \r: lines counted here would not be its lines
            if line.strip():
                if count == records_per_part:
                    ranges.append((start, offset, first_line))
                    start, first_line, count = offset, number, 0
                count += 1
            offset += len(line)
            number += 1
        ranges.append((start, offset, first_line))
    return ranges


class _Range(io.RawIOBase):
    """The bytes [start, end) of a file."""

    def __init__(self, name: str, start: int, end: int | None):
        self._file = open(name, "rb")
        self._file.seek(start)
        self._left = None if end is None else end - start

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        size = len(buffer) if self._left is None else min(len(buffer), self._left)
        data = self._file.read(size)
        buffer[:len(data)] = data
        if self._left is not None:
            self._left -= len(data)
        return len(data)

    def close(self) -> None:
        self._file.close()
        super().close()


def read_part(part: Part) -> PartRead:
    """Read one part (where a worker runs): its papers, their keys, and its own report."""
    read = PartRead(part, [])
    if not part.split:
        read.items = list(load_planned(part.name, part.planned, part.problem, part.fmt, list(part.edge_lists),
                                       list(part.metadata), read.report, read.empty, no_header=part.no_header))
        return read
    if part.index == 0:
        read.report.files += 1
    raw = io.TextIOWrapper(io.BufferedReader(_Range(part.name, part.start, part.end)), encoding="utf-8-sig",
                           errors="surrogateescape", newline="")
    stream = _Checked("", raw, check_bytes=part.planned not in LENIENT_FORMATS, first_line=part.first_line)
    checks, counts = PaperChecks(part.name), ReadCounts()
    try:
        read.items = list(checked_papers(READERS[part.planned](stream, part.name), part.name, checks, read.report, counts))
    finally:
        raw.close()
    report_repairs(part.name, stream, checks, read.report)
    read.keys = [(paper.id, *checks.first(paper.id)) for paper in read.items]
    read.positions = counts.position
    return read


@dataclass
class _FileSoFar:
    seen: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # id -> (where, digest) of its kept record
    positions: int = 0
    papers: int = 0
    skips: int = 0


class PartMerge:
    """Joins the parts' reads, in the order of ``partitions``, into one load's papers and report."""

    def __init__(self, report: LoadReport):
        self.report = report
        self.papers = 0
        self._empty: list[str] = []
        self._file = _FileSoFar()

    def add(self, read: PartRead) -> list:
        """The items of ``read`` to keep, their positions counted from the file's start."""
        part, report = read.part, self.report
        report.files += read.report.files
        report.papers += read.report.papers
        report.skipped += read.report.skipped
        report.notes += read.report.notes
        report.headers += read.report.headers
        self._empty += read.empty
        items = read.items if not part.split else self._join(read)
        self.papers += len(items)
        return items

    def _join(self, read: PartRead) -> list:
        part, so_far = read.part, self._file
        if part.index == 0:
            so_far = self._file = _FileSoFar()
        kept = []
        for item, (paper_id, here, digest) in zip(read.items, read.keys):
            first = so_far.seen.get(paper_id)
            if first is not None:
                self.report.skip(part.name, repeated(paper_id, here, digest, first))
                self.report.papers -= 1
                so_far.skips += 1
                continue
            so_far.seen[paper_id] = (here, digest)
            _shift_position(item, so_far.positions)
            kept.append(item)
        so_far.positions += read.positions
        so_far.papers += len(kept)
        so_far.skips += len(read.report.skipped)
        if part.last:
            if not so_far.papers:
                report_no_papers(part.name, part.planned, so_far.skips, self.report)
                self._empty.append(self.report.skipped[-1])
            self._file = _FileSoFar()  # the ids of a finished file are not kept
        return kept

    def finish(self) -> None:
        """Raise ``NoPapers`` when no part gave a paper, as ``loaders.load`` does."""
        if not self.papers:
            raise NoPapers(self._empty, self.report)


def _shift_position(item: Paper | dict, offset: int) -> None:
    if isinstance(item, dict):
        item["position"] += offset
    else:
        item.position += offset


def load_parts(sources: Iterable[str], fmt: str | None = None, report: LoadReport | None = None,
               records_per_part: int = RECORDS_PER_PART, *, no_header: bool = False) -> Iterator[Paper]:
    """``loaders.load`` read part by part in this process: the papers every worker would read."""
    report = report if report is not None else LoadReport()
    merge = PartMerge(report)
    for part in partitions(sources, fmt, report, records_per_part, no_header=no_header):
        yield from merge.add(read_part(part))
    merge.finish()
