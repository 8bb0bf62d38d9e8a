"""CSV or TSV with a header row naming the fields of ``loaders.fields``.

The delimiter is the one of comma, semicolon (as spreadsheets write CSV where the
decimal mark is a comma) and tab that splits the header row into the known field
names (``delimiter``).

A malformed record (a quote never closed, text after a closing quote) is a skip
naming its line, and reading goes on at the line after it, so one stray quote
does not swallow the records that follow.
"""

from __future__ import annotations

import csv
import itertools
from typing import Iterator, TextIO

from kg.model import Paper
from loaders.fields import SkipRecord, paper_from_fields

MAX_FIELD_CHARS = 10_000_000  # csv's own limit (131,072) is below a long abstract; loaders.checks bounds abstracts
csv.field_size_limit(max(csv.field_size_limit(), MAX_FIELD_CHARS))


def _problem(err: csv.Error, first: int, last: int) -> str:
    """What is wrong with the record on lines ``first`` to ``last``."""
    message = str(err)
    if "unexpected end of data" in message:
        return "a quoted field is never closed"
    if "field larger than field limit" in message:
        return f"a field longer than {MAX_FIELD_CHARS:,} characters"
    if last > first:  # only a quote makes a record run over lines
        return f"a quote opened on line {first} runs to line {last}, where the record is malformed ({message})"
    return f"malformed CSV ({message})"


DELIMITERS = (",", ";", "\t")
KNOWN_NAMES = ("id", "title", "abstract", "year", "venue", "authors", "doi", "references")


def _header(head: str, delimiter: str) -> list[str]:
    return [h.strip().lower() for h in next(csv.reader([head], delimiter=delimiter), [])]


def delimiter(head: str) -> str:
    """The delimiter of a CSV file whose header row is ``head``: the one that splits it into the
    most known field names, then into the most fields (comma on a tie).

    >>> delimiter("id,title,abstract\\n"), delimiter("id;title;abstract\\n"), delimiter("title\\tabstract\\n")
    (',', ';', '\\t')
    >>> delimiter('"title, short";abstract\\n')
    ';'
    """
    def score(candidate: str) -> tuple[int, int]:
        names = _header(head, candidate)
        return sum(name in KNOWN_NAMES for name in names), len(names)

    return max(DELIMITERS, key=score)


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    head = stream.readline()
    sep = delimiter(head)
    header = _header(head, sep)
    if "abstract" not in header and "title" not in header:
        yield SkipRecord("line 1: header names neither 'abstract' nor 'title' (fields read with comma, semicolon "
                         "or tab between them); file skipped")
        return
    lines: Iterator[tuple[int, str]] = enumerate(stream, start=2)
    pending: list[tuple[int, str]] = []  # the lines of the record being parsed

    def feed(numbered):
        for number, line in numbered:
            pending.append((number, line))
            yield line

    position = 0
    while True:
        try:
            for row in csv.reader(feed(lines), delimiter=sep, strict=True):
                line = pending[0][0]
                pending.clear()
                if not any(cell.strip() for cell in row):
                    continue
                position += 1
                if len(row) != len(header):
                    yield SkipRecord(f"record {position} (line {line}): {len(row)} fields, header has {len(header)}")
                    continue
                try:
                    yield paper_from_fields(dict(zip(header, row)), source, position, line)
                except ValueError as err:
                    yield SkipRecord(f"record {position} (line {line}): {err}")
            break
        except csv.Error as err:
            bad, pending[:] = list(pending), []
            position += 1
            line = bad[0][0] if bad else 0
            yield SkipRecord(f"record {position} (line {line}): {_problem(err, line, bad[-1][0] if bad else 0)}; "
                             f"record skipped, "
                             f"reading goes on at line {line + 1}")
            lines = itertools.chain(bad[1:], lines)
    if position == 0:
        yield SkipRecord("line 1: a header row and no record after it")
