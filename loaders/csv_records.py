"""CSV or TSV with a header row naming the fields of ``loaders.fields``."""

from __future__ import annotations

import csv
from typing import Iterator, TextIO

from kg.model import Paper
from loaders.fields import SkipRecord, paper_from_fields


def read(stream: TextIO, source: str) -> Iterator[Paper]:
    head = stream.readline()
    dialect = "excel-tab" if head.count("\t") > head.count(",") else "excel"
    header = next(csv.reader([head], dialect=dialect), [])
    header = [h.strip().lower() for h in header]
    if "abstract" not in header and "title" not in header:
        yield SkipRecord("line 1: header names neither 'abstract' nor 'title'; file skipped")
        return
    reader = csv.reader(stream, dialect=dialect)
    position = 0
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        position += 1
        line = reader.line_num + 1
        if len(row) != len(header):
            yield SkipRecord(f"record {position} (line {line}): {len(row)} fields, header has {len(header)}")
            continue
        try:
            yield paper_from_fields(dict(zip(header, row)), source, position, line)
        except ValueError as err:
            yield SkipRecord(f"record {position} (line {line}): {err}")
