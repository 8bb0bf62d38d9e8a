"""JSON lines (one paper object per line) with the fields of ``loaders.fields``."""

from __future__ import annotations

import json
from typing import Iterator, TextIO

from kg.model import Paper
from loaders.fields import SkipRecord, paper_from_fields


def read(stream: TextIO, source: str) -> Iterator[Paper]:
    position = 0
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        position += 1
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError(f"expected a JSON object, got {type(record).__name__}")
            yield paper_from_fields(record, source, position, number)
        except json.JSONDecodeError as err:
            yield SkipRecord(f"line {number}: invalid JSON ({err.msg} at column {err.colno})")
        except ValueError as err:
            yield SkipRecord(f"line {number}: {err}")
