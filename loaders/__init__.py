"""Readers of paper sources: one module per format, one entry point.

>>> from loaders import load
>>> papers = list(load(["examples/neurips2026"]))   # doctest: +SKIP
>>> len(papers)                                      # doctest: +SKIP
57

``load`` takes files, folders, glob patterns, ``.gz`` files and ``-`` (stdin),
picks each file's format from its extension or its content (``fmt`` forces
one), and yields ``kg.model.Paper`` records one at a time. Records it cannot
use are skipped, counted and described in ``report`` (file and line), never
dropped silently.
"""

from __future__ import annotations

import functools
import glob
import gzip
import io
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, TextIO

from kg.model import Paper
from loaders import aan, arxiv, bibtex, csljson, csv_records, jsonl, openalex, ris, scierc, semanticscholar, text
from loaders.fields import SkipRecord

READERS: dict[str, Callable[[TextIO, str], Iterator[Paper]]] = {
    "text": text.read,
    "jsonl": jsonl.read,
    "csv": csv_records.read,
    "openalex": openalex.read,
    "s2": semanticscholar.read,
    "arxiv": arxiv.read,
    "bibtex": bibtex.read,
    "ris": ris.read,
    "csl": csljson.read,
    "aan": aan.read,
    "scierc": scierc.read,
}
EXTENSIONS = {".txt": "text", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl", ".csv": "csv", ".tsv": "csv"}
# Extensions that name one format outright, checked before the content.
SPECIFIC_EXTENSIONS = {".bib": "bibtex", ".bibtex": "bibtex", ".ris": "ris"}
# Content signs of the specific formats, checked in this order before the generic extensions.
DETECTORS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("aan", aan.detect),
    (AAN_EDGES := "aan-edges", aan.detect_edges),
    ("ris", ris.detect),
    ("bibtex", bibtex.detect),
    ("scierc", scierc.detect),
    ("openalex", openalex.detect),
    ("arxiv", arxiv.detect),
    ("s2", semanticscholar.detect),
    ("csl", csljson.detect),
)
FORMATS = tuple(READERS)
# Formats whose files may hold stray non-UTF-8 bytes; their readers repair them.
LENIENT_FORMATS = {"aan", AAN_EDGES}


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


# Files a folder often holds beside its sources; read only when named explicitly.
DOCUMENTATION_NAMES = {"README", "PROVENANCE", "LICENSE", "LICENCE", "NOTICE", "COPYING", "CHANGELOG", "CITATION"}


def is_documentation(path: Path) -> bool:
    """True for README, PROVENANCE, LICENSE and similar files.

    >>> is_documentation(Path("data/PROVENANCE.txt")), is_documentation(Path("data/papers.txt"))
    (True, False)
    """
    return path.name.split(".")[0].upper() in DOCUMENTATION_NAMES


def expand(sources: Iterable[str], report: LoadReport | None = None) -> Iterator[str]:
    """Files named by ``sources``: files, folders (recursively), globs, ``-``.

    In a folder, documentation files (``is_documentation``) are skipped and
    reported in ``report``.
    """
    for source in sources:
        if source == "-":
            yield source
            continue
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
            if not found:
                raise LoadError(f"{source}: folder holds no files")
            for file in found:
                if is_documentation(file):
                    if report is not None:
                        report.skip(str(file), "a documentation file, not a source; name it to load it")
                    continue
                yield str(file)
        elif path.is_file():
            yield source
        elif any(ch in source for ch in "*?["):
            matches = sorted(glob.glob(source, recursive=True))
            if not matches:
                raise LoadError(f"{source}: pattern matches no file")
            yield from expand(matches)
        else:
            raise LoadError(f"{source}: no such file or folder")


HEAD_CHARS = 4096


def _open(name: str, errors: str = "strict") -> TextIO:
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
    return io.TextIOWrapper(stream, encoding="utf-8-sig", errors=errors, newline="")


def sniff(name: str, head: str) -> str:
    """The format of a file: a format-specific extension, else the content's
    signs of a specific format, else a generic extension, else the content's shape.

    >>> sniff("refs.bib", ""), sniff("works.jsonl", '{"id": "https://openalex.org/W1"}'), sniff("a.json", '{"id": 1}')
    ('bibtex', 'openalex', 'jsonl')
    """
    suffixes = [s.lower() for s in Path(name).suffixes if s.lower() != ".gz"]
    if suffixes and suffixes[-1] in SPECIFIC_EXTENSIONS:
        return SPECIFIC_EXTENSIONS[suffixes[-1]]
    for fmt, detect in DETECTORS:
        if detect(head):
            return fmt
    if suffixes and suffixes[-1] in EXTENSIONS:
        return EXTENSIONS[suffixes[-1]]
    stripped = head.lstrip()
    if stripped.startswith(("{", "[")):
        return "jsonl"
    first_line = stripped.split("\n", 1)[0].lower()
    if "," in first_line and "abstract" in first_line:
        return "csv"
    return "text"


def _head(name: str, errors: str = "strict") -> tuple[TextIO, str]:
    label = "<stdin>" if name == "-" else name
    try:
        stream = _open(name, errors)
        return stream, stream.read(HEAD_CHARS)
    except UnicodeDecodeError as err:
        raise LoadError(f"{label}: not UTF-8 text ({err.reason} at byte {err.start})") from err
    except OSError as err:
        raise LoadError(f"{label}: {err.strerror or err}") from err


def _format_of(name: str, fmt: str | None) -> str:
    """A file's format, sniffed leniently (the head may end inside a non-UTF-8 title)."""
    stream, head = _head(name, "replace")
    stream.close()
    found = sniff(name, head)
    if fmt is None:
        return found
    # --format aan covers both AAN files: the metadata and its citation list
    return AAN_EDGES if fmt == "aan" and found == AAN_EDGES else fmt


def _plan(sources: Iterable[str], fmt: str | None, report: LoadReport | None = None) -> list[tuple[str, str | None]]:
    """Every file to read with its format (stdin is sniffed when it is read)."""
    return [(name, None if name == "-" else _format_of(name, fmt)) for name in expand(sources, report)]


def load(sources: Iterable[str], fmt: str | None = None, report: LoadReport | None = None) -> Iterator[Paper]:
    """Yield the papers of every source, in order.

    Each paper's references are made unique (first occurrence kept), and a
    reference to the paper itself is dropped and reported.
    """
    if fmt is not None and fmt not in READERS:
        raise LoadError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    report = report if report is not None else LoadReport()
    plan = _plan(sources, fmt, report)
    edge_lists = [name for name, found in plan if found == AAN_EDGES]
    metadata = [name for name, found in plan if found == "aan"]
    for name, planned in plan:
        label = "<stdin>" if name == "-" else name
        if planned == AAN_EDGES:
            if not any(name in aan.edge_files_for(m, [name]) for m in metadata):
                report.files += 1
                report.skip(label, f"an AAN citation list is read with the metadata file ({aan.METADATA_NAME}) "
                                   "in its folder; none is in this load, file skipped")
            continue
        stream, head = _head(name, "surrogateescape" if planned in LENIENT_FORMATS else "strict")
        file_format = planned or fmt or sniff(name, head)
        reader = READERS[file_format]
        edge_streams = []
        if file_format == "aan":
            edge_streams = [(n, _open(n, "surrogateescape")) for n in aan.edge_files_for(name, edge_lists)]
            reader = functools.partial(aan.read, edge_files=edge_streams)
            report.files += len(edge_streams)
        rest = _Rewound(head, stream)
        report.files += 1
        try:
            for item in reader(rest, label):
                if isinstance(item, SkipRecord):
                    report.skip(getattr(item, "where", label), str(item))
                    continue
                _tidy_references(item, label, report)
                report.papers += 1
                yield item
        except UnicodeDecodeError as err:
            raise LoadError(f"{label}: not UTF-8 text ({err.reason})") from err
        finally:
            stream.close()
            for _, edges in edge_streams:
                edges.close()


def _tidy_references(paper: Paper, label: str, report: LoadReport) -> None:
    unique = list(dict.fromkeys(paper.references))
    if paper.id in unique:
        unique.remove(paper.id)
        report.skip(label, f"line {paper.line}: {paper.id} cites itself; that reference is dropped")
    paper.references = unique


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
