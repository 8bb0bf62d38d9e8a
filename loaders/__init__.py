"""Readers of paper sources: one module per format, one entry point.

>>> from loaders import load
>>> papers = list(load(["examples/neurips2026"]))   # doctest: +SKIP
>>> len(papers)
57

``load`` takes files, folders, glob patterns, ``.gz`` files and ``-`` (stdin),
picks each file's format from its extension or its content (``fmt`` forces
one), and yields ``kg.model.Paper`` records one at a time. Records it cannot
use are skipped, counted and described in ``report`` (file and line), never
dropped silently.
"""

from __future__ import annotations

import glob
import gzip
import io
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, TextIO

from kg.model import Paper
from loaders import csv_records, jsonl, text
from loaders.fields import SkipRecord

READERS: dict[str, Callable[[TextIO, str], Iterator[Paper]]] = {
    "text": text.read,
    "jsonl": jsonl.read,
    "csv": csv_records.read,
}
EXTENSIONS = {".txt": "text", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv", ".tsv": "csv"}
FORMATS = tuple(READERS)


class LoadError(Exception):
    """A source that cannot be read at all (missing file, unknown format)."""


@dataclass
class LoadReport:
    """What a load read and what it skipped, and why."""

    files: int = 0
    papers: int = 0
    skipped: list[str] = field(default_factory=list)

    def skip(self, where: str, why: str) -> None:
        self.skipped.append(f"{where}: {why}")


def expand(sources: Iterable[str]) -> Iterator[str]:
    """Files named by ``sources``: files, folders (recursively), globs, ``-``."""
    for source in sources:
        if source == "-":
            yield source
            continue
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
            if not found:
                raise LoadError(f"{source}: folder holds no files")
            yield from (str(p) for p in found)
        elif path.is_file():
            yield source
        elif any(ch in source for ch in "*?["):
            matches = sorted(glob.glob(source, recursive=True))
            if not matches:
                raise LoadError(f"{source}: pattern matches no file")
            yield from expand(matches)
        else:
            raise LoadError(f"{source}: no such file or folder")


def _open(name: str) -> TextIO:
    if name == "-":
        raw = sys.stdin.buffer
        head = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
        stream = gzip.GzipFile(fileobj=raw) if head == b"\x1f\x8b" else raw
    else:
        stream = open(name, "rb")
        if stream.read(2) == b"\x1f\x8b":
            stream.seek(0)
            stream = gzip.GzipFile(fileobj=stream)
        else:
            stream.seek(0)
    return io.TextIOWrapper(stream, encoding="utf-8-sig", errors="strict", newline="")


def sniff(name: str, head: str) -> str:
    """The format of a file from its extension, else from its first characters."""
    suffixes = [s.lower() for s in Path(name).suffixes if s.lower() != ".gz"]
    if suffixes and suffixes[-1] in EXTENSIONS:
        return EXTENSIONS[suffixes[-1]]
    stripped = head.lstrip()
    if stripped.startswith("{"):
        return "jsonl"
    first_line = stripped.split("\n", 1)[0].lower()
    if "," in first_line and "abstract" in first_line:
        return "csv"
    return "text"


def load(sources: Iterable[str], fmt: str | None = None, report: LoadReport | None = None) -> Iterator[Paper]:
    """Yield the papers of every source, in order."""
    if fmt is not None and fmt not in READERS:
        raise LoadError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    report = report if report is not None else LoadReport()
    for name in expand(sources):
        label = "<stdin>" if name == "-" else name
        try:
            stream = _open(name)
            head = stream.read(4096)
        except UnicodeDecodeError as err:
            raise LoadError(f"{label}: not UTF-8 text ({err.reason} at byte {err.start})") from err
        except OSError as err:
            raise LoadError(f"{label}: {err.strerror or err}") from err
        file_format = fmt or sniff(name, head)
        rest = _Rewound(head, stream)
        report.files += 1
        try:
            for item in READERS[file_format](rest, label):
                if isinstance(item, SkipRecord):
                    report.skip(label, str(item))
                    continue
                report.papers += 1
                yield item
        except UnicodeDecodeError as err:
            raise LoadError(f"{label}: not UTF-8 text ({err.reason})") from err
        finally:
            stream.close()


class _Rewound(io.TextIOBase):
    """A text stream whose first characters were already read for sniffing."""

    def __init__(self, head: str, rest: TextIO):
        self._head = io.StringIO(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readline(self, size: int = -1) -> str:
        line = self._head.readline()
        return line if line.endswith("\n") else line + self._rest.readline()

    def read(self, size: int = -1) -> str:
        return self._head.read() + self._rest.read()

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line
