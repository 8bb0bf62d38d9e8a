"""Readers of paper sources: one module per format, one entry point.

>>> from loaders import load
>>> papers = list(load(["examples/neurips2026"]))   # doctest: +SKIP
>>> len(papers)                                      # doctest: +SKIP
57

``load`` takes files, folders, glob patterns, ``.gz`` files and ``-`` (stdin),
picks each file's format from its extension or its content (``fmt`` forces
one), and yields ``kg.model.Paper`` records one at a time. Records it cannot
use are skipped, counted and described in ``report`` (file and line), never
dropped silently; records it repairs (bytes that are not UTF-8, control
characters, lone surrogates, an abstract cut to size: ``loaders.checks``) are
kept and noted there too, and a line read as a file's header is listed with its
text. A load in which no file gives a paper raises ``NoPapers`` saying why for each.
"""

from __future__ import annotations

import functools
import glob
import gzip
import io
import re
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, TextIO

from kg import errors
from kg.model import Paper
from loaders import aan, arxiv, bibtex, csljson, csv_records, jsonl, openalex, ris, scierc, semanticscholar, text
from loaders.checks import CONTROL, PaperChecks, where
from loaders.fields import HeaderLine, ReaderNote, SkipRecord

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
# Formats whose files may hold stray non-UTF-8 bytes; their readers repair them (others note them).
LENIENT_FORMATS = {"aan", AAN_EDGES}


class LoadError(errors.BadInput):
    """A source that cannot be read at all (missing file, unknown format)."""


@dataclass
class LoadReport:
    """What a load read, what it skipped and what it changed in the records it kept, and why;
    ``headers``: the lines it read as a file's header (a guess: ``--no-header`` reads them as records)."""

    files: int = 0
    papers: int = 0
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    headers: list[str] = field(default_factory=list)

    def skip(self, where: str, why: str) -> None:
        self.skipped.append(f"{where}: {why}")

    def note(self, where: str, what: str) -> None:
        self.notes.append(f"{where}: {what}")

    def header(self, where: str, what: str) -> None:
        self.headers.append(f"{where}: {what}")


class NoPapers(LoadError, errors.NoPapers):
    """The sources held no paper at all; the message says why, file by file.

    ``reasons`` are lines of ``report.skipped`` (``file: why``), or a summary of several.
    """

    def __init__(self, reasons: list[str], report: LoadReport):
        reasons = [r.replace(": no papers: ", ": ", 1) for r in reasons]
        shown = "; ".join(reasons[:5]) + (f"; and {len(reasons) - 5} more file(s)" if len(reasons) > 5 else "")
        super().__init__(f"no papers in the sources: {shown or 'no file was read'}")
        self.report = report
        self.reasons = reasons

    def other_skips(self) -> list[str]:
        """The skips the message does not already say."""
        return [s for s in self.report.skipped if s.replace(": no papers: ", ": ", 1) not in self.reasons]


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
GZIP_MAGIC = b"\x1f\x8b"
KNOWN_FORMATS = ("text (.txt abstract lists), jsonl (.jsonl, .ndjson, .json), csv (.csv, .tsv), openalex, s2, arxiv, "
                 "bibtex (.bib), ris (.ris), csl, aan, scierc")


class _Guarded(io.RawIOBase):
    """A decompressing stream that ends where its data is damaged, keeping the error:
    what came before the damage is read as usual, and the load reports the rest as lost."""

    def __init__(self, inner):
        self._inner = inner
        self.damage: str | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.damage:
            return 0
        try:  # read1: at most one read of the file, so no data decompressed before the damage is dropped
            data = self._inner.read1(len(buffer))
        except (EOFError, zlib.error, gzip.BadGzipFile) as err:
            self.damage = str(err) or type(err).__name__
            return 0
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        self._inner.close()
        super().close()


def _open(name: str) -> tuple[TextIO, _Guarded | None]:
    """A text stream over a file or stdin (gzip or not), bytes that are not UTF-8 kept as
    surrogate escapes for ``_Checked`` to report; and the guard of a compressed one."""
    if name == "-":
        raw = sys.stdin.buffer
        head = raw.peek(2)[:2] if hasattr(raw, "peek") else b""
    else:
        raw = open(name, "rb")
        head = raw.read(2)
        raw.seek(0)
    guard = None
    if head == GZIP_MAGIC:
        guard = _Guarded(gzip.GzipFile(fileobj=raw))
        raw = io.BufferedReader(guard)
    return io.TextIOWrapper(raw, encoding="utf-8-sig", errors="surrogateescape", newline=""), guard


_MARKUP = re.compile(r"<(\?xml|!doctype|html|[a-z][\w:.-]*[\s>/])", re.I)
_BINARY_SIGNS = (("%PDF-", "a PDF file"), ("PK\x03\x04", "a zip archive (unpack it first)"),
                 ("\udcff\udcfe", "UTF-16 text (save it as UTF-8)"), ("\udcfe\udcff", "UTF-16 text (save it as UTF-8)"),
                 ("BZh91AY&SY", "a bzip2 file (unpack it first)"), ("{\\rtf", "an RTF document"))


BINARY_SHARE = 0.05  # text with a stray NUL is read (the character dropped); binary data has far more


def unreadable(head: str) -> str | None:
    """Why a file whose first characters are ``head`` is not text kg can read, or None.

    A few control characters (a NUL in an abstract) are no reason: the reader drops
    them and notes the line. Binary data is told by its share of control characters
    and bytes that are not UTF-8 (more than ``BINARY_SHARE`` of the head, and at
    least 8), or by many bytes that are not UTF-8 alone.

    >>> unreadable("%PDF-1.7 ..."), unreadable("id,title\\n"), unreadable("A NUL\\x00 in an abstract.\\n" * 3)
    ('a PDF file, not text', None, None)
    >>> unreadable("\\x7fELF\\x02\\x01\\x01" + "\\x00" * 40)
    'binary data, not text: 44 of its first 47 characters are control characters or bytes that are not UTF-8'
    """
    for sign, what in _BINARY_SIGNS:
        if head.startswith(sign):
            return f"{what}, not text" if "text" not in what else f"not UTF-8 text: {what}"
    if head[257:262] == "ustar":
        return "a tar archive (unpack it first), not text"
    if len(head) >= 16 and any(half.count("\x00") > 0.9 * len(half) for half in (head[0::2], head[1::2])):
        return "not UTF-8 text: UTF-16 text without a byte-order mark (save it as UTF-8)"
    bad = sum(1 for ch in head if "\udc80" <= ch <= "\udcff")
    control = len(CONTROL.findall(head))
    if bad + control > max(8, len(head) * BINARY_SHARE):
        return (f"binary data, not text: {bad + control:,} of its first {len(head):,} characters are control "
                "characters or bytes that are not UTF-8")
    if bad > max(8, len(head) // 100):
        return "binary data, not UTF-8 text"
    return None


def sniff(name: str, head: str) -> str | None:
    """The format of a file: a format-specific extension, else the content's
    signs of a specific format, else a generic extension, else the content's shape;
    None when nothing says (an unknown extension, markup, no sign of any format).

    >>> sniff("refs.bib", ""), sniff("works.jsonl", '{"id": "https://openalex.org/W1"}'), sniff("a.json", '{"id": 1}')
    ('bibtex', 'openalex', 'jsonl')
    >>> sniff("data.xml", '<?xml version="1.0"?><records/>') is None
    True
    """
    suffixes = [s.lower() for s in Path(name).suffixes if s.lower() != ".gz"]
    if suffixes and suffixes[-1] in SPECIFIC_EXTENSIONS:
        return SPECIFIC_EXTENSIONS[suffixes[-1]]
    for fmt, detect in DETECTORS:
        if detect(head):
            return fmt
    stripped = head.lstrip()
    if _MARKUP.match(stripped):
        return None  # XML or HTML, never an abstract list
    if suffixes and suffixes[-1] in EXTENSIONS:
        return EXTENSIONS[suffixes[-1]]
    if stripped.startswith(("{", "[")):
        return "jsonl"
    first_line = stripped.split("\n", 1)[0].lower()
    if any(sep in first_line for sep in csv_records.DELIMITERS) and "abstract" in first_line:
        return "csv"
    # text only for a file without an extension: any other is a format kg does not know
    return "text" if not suffixes or name == "-" else None


def _unrecognised(name: str, head: str) -> str:
    suffixes = [s.lower() for s in Path(name).suffixes if s.lower() != ".gz"]
    what = "XML or HTML markup" if _MARKUP.match(head.lstrip()) else \
        (f"extension {suffixes[-1]}" if suffixes else "content") + " of no known format"
    return f"format not recognised ({what}); known formats: {KNOWN_FORMATS}; force one with --format"


def _head(name: str) -> tuple[TextIO, _Guarded | None, str]:
    label = "<stdin>" if name == "-" else name
    try:
        stream, guard = _open(name)
        return stream, guard, stream.read(HEAD_CHARS)
    except OSError as err:
        raise LoadError(f"{label}: {err.strerror or err}") from err


def _format_of(name: str, fmt: str | None) -> tuple[str | None, str | None]:
    """A file's format, or None and why it cannot be read."""
    stream, _, head = _head(name)
    stream.close()
    problem = unreadable(head)
    if problem:
        return None, problem
    found = sniff(name, CONTROL.sub("", head))
    if fmt is None:
        return found, None if found else _unrecognised(name, head)
    # --format aan covers both AAN files: the metadata and its citation list
    return (AAN_EDGES if fmt == "aan" and found == AAN_EDGES else fmt), None


def _plan(sources: Iterable[str], fmt: str | None, report: LoadReport) -> list[tuple[str, str | None, str | None]]:
    """Every file to read with its format, or why it cannot be read (stdin is sniffed when it is read)."""
    return [(name, None, None) if name == "-" else (name, *_format_of(name, fmt)) for name in expand(sources, report)]


def load(sources: Iterable[str], fmt: str | None = None, report: LoadReport | None = None, *,
         no_header: bool = False) -> Iterator[Paper]:
    """Yield the papers of every source, in order.

    Each paper passes ``loaders.checks`` (text cleaned, sizes bounded, one record
    per id in a file); its references are made unique (first occurrence kept), and
    a reference to the paper itself is dropped and reported. A file that yields no
    paper is reported with the reason; when no file yields one, ``NoPapers`` is
    raised after the last file, saying why for each. ``no_header`` reads the first line of an
    abstract list as an abstract, never as the list's header (``loaders.text``).
    """
    check_format(fmt)
    report = report if report is not None else LoadReport()
    plan = _plan(sources, fmt, report)
    edge_lists = [name for name, found, _ in plan if found == AAN_EDGES]
    metadata = [name for name, found, _ in plan if found == "aan"]
    empty: list[str] = []  # why each file gave no paper
    papers = 0
    for name, planned, problem in plan:
        for paper in load_planned(name, planned, problem, fmt, edge_lists, metadata, report, empty, no_header=no_header):
            papers += 1
            yield paper
    if not papers:
        raise NoPapers(empty, report)


def check_format(fmt: str | None) -> None:
    """Raise ``LoadError`` for a forced format kg does not know."""
    if fmt is not None and fmt not in READERS:
        raise LoadError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")


def load_planned(name: str, planned: str | None, problem: str | None, fmt: str | None, edge_lists: list[str],
                 metadata: list[str], report: LoadReport, empty: list[str], *, no_header: bool = False) -> Iterator[Paper]:
    """The papers of one file of a load's plan (``_plan``): its format or why it cannot be read,
    the AAN citation lists and metadata files of the whole load; why it gave none goes to ``empty``."""
    label = "<stdin>" if name == "-" else name
    if planned == AAN_EDGES:
        if not any(name in aan.edge_files_for(m, [name]) for m in metadata):
            report.files += 1
            why = (f"an AAN citation list is read with the metadata file ({aan.METADATA_NAME}) "
                   "in its folder; none is in this load, file skipped")
            report.skip(label, why)
            empty.append(report.skipped[-1])
        return
    report.files += 1
    if problem:
        report.skip(label, problem)
        empty.append(report.skipped[-1])
        return
    yield from _read_file(name, label, planned, fmt, edge_lists, report, empty, no_header)


def _read_file(name: str, label: str, planned: str | None, fmt: str | None, edge_lists: list[str],
               report: LoadReport, empty: list[str], no_header: bool = False) -> Iterator[Paper]:
    """The papers of one file, checked; its skips, notes and damage go to ``report``."""
    raw, guard, head = _head(name)
    problem = unreadable(head) if name == "-" else None
    file_format = planned or fmt or (None if problem else sniff(name, CONTROL.sub("", head)))
    if file_format is None:
        raw.close()
        report.skip(label, problem or _unrecognised(name, head))
        empty.append(report.skipped[-1])
        return
    reader = READERS[file_format]
    if file_format == "text" and no_header:
        reader = functools.partial(text.read, header=False)
    edge_streams = []
    if file_format == "aan":
        edge_streams = [(n, _open(n)[0]) for n in aan.edge_files_for(name, edge_lists)]
        reader = functools.partial(aan.read, edge_files=edge_streams)
        report.files += len(edge_streams)
    stream = _Checked(head, raw, check_bytes=file_format not in LENIENT_FORMATS)
    checks = PaperChecks(label)
    counts = ReadCounts()
    skipped = len(report.skipped)
    try:
        yield from checked_papers(reader(stream, label), label, checks, report, counts)
    finally:
        raw.close()
        for _, edges in edge_streams:
            edges.close()
    _report_file(name, label, file_format, stream, checks, guard, counts.papers, report.skipped[skipped:], report, empty)


@dataclass
class ReadCounts:
    """What ``checked_papers`` read: papers kept, and the last record position (skipped records too)."""

    papers: int = 0
    position: int = 0


def checked_papers(items: Iterable, label: str, checks: PaperChecks, report: LoadReport, counts: ReadCounts) -> Iterator[Paper]:
    """The papers of a reader's items that pass ``checks``; skips and notes go to ``report``."""
    for item in items:
        if isinstance(item, SkipRecord):
            counts.position = max(counts.position, getattr(item, "position", 0))
            report.skip(getattr(item, "where", label), str(item))
            continue
        if isinstance(item, HeaderLine):
            report.header(label, str(item))
            continue
        if isinstance(item, ReaderNote):
            report.note(label, str(item))
            continue
        counts.position = max(counts.position, item.position)
        why_not = checks.check(item)
        if why_not:
            report.skip(label, why_not)
            continue
        _tidy_references(item, label, report)
        report.papers += 1
        counts.papers += 1
        yield item


def report_repairs(label: str, stream: _Checked, checks: PaperChecks, report: LoadReport) -> None:
    """The notes of what was repaired in a file's kept records: bytes that are not UTF-8, control
    characters, text cleaned or cut."""
    for line, columns in stream.bad_bytes.items():
        report.note(label, f"line {line}: {len(columns)} byte(s) that are not UTF-8 (first at column {columns[0]}) "
                           "replaced with U+FFFD")
    for line, found in stream.control.items():
        report.note(label, f"line {line}: {found.count:,} control character(s) ({', '.join(found.codes)}; first at column "
                           f"{found.column}) dropped")
    for note in checks.notes:
        report.note(label, note)


def _report_file(name: str, label: str, file_format: str, stream: _Checked, checks: PaperChecks, guard: _Guarded | None,
                 papers: int, file_skips: list[str], report: LoadReport, empty: list[str]) -> None:
    """After one file: its repairs, its damage, and why it gave no paper (added to ``empty``)."""
    report_repairs(label, stream, checks, report)
    damage = guard.damage if guard is not None else None
    if papers:
        if damage and "check failed" in damage:  # found only at the end: where the damage is, is unknown
            report.skip(label, f"the compressed data fails its check at the end of the file ({damage}): part of "
                               f"it is damaged, and a record read from that part may be wrong; {papers} paper(s) were read")
        elif damage:
            report.skip(label, f"the compressed data is damaged after {papers} paper(s) ({damage}); "
                               f"those {papers} are loaded, the rest of the file could not be read")
        return
    if damage:
        report.skip(label, f"no papers: the compressed data is damaged before the first paper ({damage})")
    elif not stream.seen_text:
        what = "standard input" if name == "-" else "the file"
        report.skip(label, f"no papers: {what} {'is empty' if not stream.chars else 'holds only blank lines'}")
    else:
        report_no_papers(label, file_format, len(file_skips), report)
    empty.append(report.skipped[-1])


def report_no_papers(label: str, file_format: str, skips: int, report: LoadReport) -> None:
    """Why a file with text gave no paper: its records were skipped (one skip says it), or none reads as its format."""
    if skips > 1:
        report.skip(label, f"no papers: all {skips} record(s) were skipped")
    elif not skips:
        report.skip(label, f"no papers: nothing in it reads as {file_format}")


def _tidy_references(paper: Paper, label: str, report: LoadReport) -> None:
    unique = list(dict.fromkeys(paper.references))
    if paper.id in unique:
        unique.remove(paper.id)
        report.skip(label, f"{where(paper)}: {paper.id} cites itself; that reference is dropped")
    paper.references = unique


_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


@dataclass
class ControlCharacters:
    """The control characters dropped from one line: the column of the first, how many, which (in order)."""

    column: int
    count: int = 0
    codes: dict[str, None] = field(default_factory=dict)


class _Checked(io.TextIOBase):
    """The text stream a reader reads: the head already read for sniffing, then the rest.

    Bytes that are not UTF-8 (surrogate escapes from ``_open``) become U+FFFD and
    are listed by line and column in ``bad_bytes``; control characters other than
    tab, newline and carriage return (a NUL) are dropped and listed by line in
    ``control``; ``chars`` and ``seen_text`` say whether the
    file held anything at all.
    """

    def __init__(self, head: str, rest: TextIO, check_bytes: bool = True, first_line: int | None = None):
        self._head = io.StringIO(head)
        self._rest = rest
        self._check = check_bytes
        self.first_line = first_line  # a part of a file (loaders.parts): where it starts; JSON readers number from there
        self.bad_bytes: dict[int, list[int]] = {}
        self.control: dict[int, ControlCharacters] = {}
        self.chars = 0
        self.seen_text = False
        self._line, self._column = first_line or 1, 1

    def readable(self) -> bool:
        return True

    def _seen(self, text: str) -> str:
        self.chars += len(text)
        if self._check and _ESCAPED_BYTE.search(text):
            matches = list(_ESCAPED_BYTE.finditer(text))
            for (line, column), _ in zip(self._where(text, matches), matches):
                self.bad_bytes.setdefault(line, []).append(column)
            text = _ESCAPED_BYTE.sub("\ufffd", text)
        kept = text
        if CONTROL.search(text):
            matches = list(CONTROL.finditer(text))
            for (line, column), match in zip(self._where(text, matches), matches):
                found = self.control.setdefault(line, ControlCharacters(column))
                found.count += 1
                found.codes[f"U+{ord(match.group()):04X}"] = None
            kept = CONTROL.sub("", text)
        self._advance(text)  # columns are the file's: counted before the control characters are dropped
        self.seen_text = self.seen_text or not kept.isspace() and bool(kept)
        return kept

    def _where(self, text: str, matches: list[re.Match]) -> Iterator[tuple[int, int]]:
        """The line and column in the file of each match in ``text`` (which starts where the last read
        ended), in one pass over it."""
        line, line_start, done = self._line, None, 0  # line_start: None while on the line the last read ended in
        for match in matches:
            index = match.start()
            newlines = text.count("\n", done, index)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", done, index) + 1
            done = index
            yield line, (index - line_start + 1) if line_start is not None else self._column + index

    def _advance(self, text: str) -> None:
        newlines = text.count("\n")
        self._line += newlines
        self._column = len(text) - text.rfind("\n") if newlines else self._column + len(text)

    def readline(self, size: int = -1) -> str:
        line = self._head.readline()
        return self._seen(line if line.endswith("\n") else line + self._rest.readline())

    def read(self, size: int = -1) -> str:
        if size is None or size < 0:
            return self._seen(self._head.read() + self._rest.read())
        while True:  # a chunk of control characters only is no end of the file
            text = self._head.read(size)
            text += self._rest.read(size - len(text)) if len(text) < size else ""
            kept = self._seen(text)
            if kept or not text:
                return kept

    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line
