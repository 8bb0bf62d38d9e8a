"""JSON sources in any of their usual shapes: JSON lines, one array, or one
API page ({"results": [...]}, {"data": [...]}, {"items": [...]}).

Records come out with the line (JSON lines) or record number where they start,
so that a skip can name it. Arrays are decoded one element at a time, so a
large export stays in bounded memory. An integer of more than 30 digits is read
as a ``HugeNumber`` (a field holding one is a skip naming it), and a record
nested deeper than Python's JSON reader goes is a skip, not a crash.
"""

from __future__ import annotations

import json
from typing import Callable, Iterator, TextIO

from kg.model import Paper
from loaders.fields import HugeNumber, SkipRecord, papers_from_records

WRAPPERS = ("results", "data", "items")
_CHUNK = 1 << 16
_DECODER = json.JSONDecoder(parse_int=HugeNumber.parse)
TOO_DEEP = "JSON nested too deeply (Python's JSON reader stops at about 1,000 levels)"


def loads(text: str):
    """``json.loads`` with bounded integers; RecursionError when nested too deeply."""
    return _DECODER.decode(text)


class BadRecord(ValueError):
    """A record that is not valid JSON or not an object."""


def records(stream: TextIO) -> Iterator[tuple[str, dict | BadRecord]]:
    """Yield ``(where, record)``; ``where`` is "line N" or "record N"."""
    first, skipped = stream.readline(), 0
    while first and not first.strip():
        first, skipped = stream.readline(), skipped + 1
    if not first:
        return
    part_line = getattr(stream, "first_line", None)  # a part of a JSON-lines file (loaders.parts) starts at this line
    if part_line is not None:
        yield from _lines(first, stream, part_line + skipped)
    elif json_lines(first):
        yield from _lines(first, stream, skipped + 1)
    elif first.lstrip().startswith("["):
        yield from _array(first + stream.read(_CHUNK), stream)
    else:
        yield from _document(first + stream.read())


def json_lines(first: str) -> bool:
    """True when a source whose first non-blank line is ``first`` is read as JSON lines
    (one object per line), not as one array or document."""
    try:
        one = loads(first)
    except (ValueError, RecursionError):
        one = None
    one_line = first.strip().startswith("{") and first.strip().endswith("}")  # a JSON-lines record, even a broken one
    return (isinstance(one, dict) and not _wrapped(one)) or (one is None and one_line)


def _wrapped(document: dict) -> bool:
    return any(isinstance(document.get(key), list) for key in WRAPPERS) and "id" not in document and "paperId" not in document


def _object(value, where: str) -> dict | BadRecord:
    if isinstance(value, dict):
        return value
    return BadRecord(f"{where}: expected a JSON object, got {type(value).__name__}")


def _lines(first: str, stream: TextIO, first_number: int) -> Iterator[tuple[str, dict | BadRecord]]:
    def numbered():
        yield first
        yield from stream

    for number, line in enumerate(numbered(), start=first_number):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            yield where, _object(loads(line), where)
        except json.JSONDecodeError as err:
            yield where, BadRecord(f"{where}: invalid JSON ({err.msg} at column {err.colno})")
        except RecursionError:
            yield where, BadRecord(f"{where}: {TOO_DEEP}")


def _array(buffer: str, stream: TextIO) -> Iterator[tuple[str, dict | BadRecord]]:
    decoder = _DECODER
    pos = buffer.index("[") + 1
    number = 0
    while True:
        while True:  # skip separators, reading more when the buffer runs dry
            while pos < len(buffer) and buffer[pos] in " \t\r\n,":
                pos += 1
            if pos < len(buffer):
                break
            more = stream.read(_CHUNK)
            if not more:
                yield f"record {number + 1}", BadRecord(f"record {number + 1}: the JSON array is not closed")
                return
            buffer, pos = more, 0
        if buffer[pos] == "]":
            return
        number += 1
        while True:
            try:
                value, end = decoder.raw_decode(buffer, pos)
                break
            except RecursionError:  # where the record ends is unknown: the rest cannot be read
                yield f"record {number}", BadRecord(f"record {number}: {TOO_DEEP}; the rest of the array is not read")
                return
            except json.JSONDecodeError as err:
                more = stream.read(_CHUNK)
                if not more:
                    yield f"record {number}", BadRecord(f"record {number}: invalid JSON ({err.msg})")
                    return
                buffer, pos = buffer[pos:] + more, 0
        yield f"record {number}", _object(value, f"record {number}")
        buffer, pos = buffer[end:], 0


def _document(text: str) -> Iterator[tuple[str, dict | BadRecord]]:
    try:
        document = loads(text)
    except json.JSONDecodeError as err:
        yield f"line {err.lineno}", BadRecord(f"line {err.lineno}: invalid JSON ({err.msg} at column {err.colno})")
        return
    except RecursionError:
        yield "line 1", BadRecord(f"line 1: {TOO_DEEP}")
        return
    if isinstance(document, dict) and _wrapped(document):
        document = next(document[key] for key in WRAPPERS if isinstance(document.get(key), list))
    items = document if isinstance(document, list) else [document]
    for number, item in enumerate(items, start=1):
        yield f"record {number}", _object(item, f"record {number}")


def line_of(where: str) -> int:
    """The line number in a ``where`` from ``records`` (0 for "record N" inside a document)."""
    return int(where.split()[-1]) if where.startswith("line") else 0


def read_papers(stream: TextIO, source: str, to_fields: Callable[[dict], dict]) -> Iterator[Paper | SkipRecord]:
    """The papers of a JSON source whose records ``to_fields`` maps to the loader fields
    (``loaders.fields``); a record it cannot use is a skip naming its line or number."""
    triples = ((where, line_of(where), str(record) if isinstance(record, BadRecord) else record)
               for where, record in records(stream))
    return papers_from_records(triples, source, to_fields)
