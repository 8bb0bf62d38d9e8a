"""Turning the loose fields of JSONL and CSV records into a Paper, with each field's type checked.

A record whose field has the wrong type is skipped with a message naming the
field and what was expected, never stored with its ``repr`` as text:

>>> paper_from_fields({"id": {"scheme": "doi"}, "title": "T"}, "a.jsonl", 1, 1)
Traceback (most recent call last):
...
loaders.fields.FieldError: id: expected text or a number, got an object (1 key)
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Iterator

from kg.model import Paper, derive_title, stable_id


class SkipRecord(Exception):
    """Yielded (not raised) by a reader for one record it cannot use; the load goes on."""


class ReaderNote(Exception):
    """Yielded (not raised) by a reader for something it assumed or changed in a file it reads on."""


class HeaderLine(ReaderNote):
    """Yielded by a reader for a line it read as the file's header, not as a record (a guess the load reports)."""


class FieldError(ValueError):
    """A field of a record that does not have its format's type."""


class HugeNumber:
    """A JSON integer too long to be a value of any field (``parse_int`` gives it instead of an int)."""

    MAX_DIGITS = 30

    def __init__(self, digits: int):
        self.digits = digits

    @classmethod
    def parse(cls, text: str) -> int | HugeNumber:
        return cls(len(text.lstrip("-"))) if len(text) > cls.MAX_DIGITS else int(text)


def describe(value: Any) -> str:
    """What a value is, for a message, without printing it (it may be huge or deeply nested).

    >>> describe({"a": 1}), describe([1, 2]), describe(True), describe(HugeNumber(5000))
    ('an object (1 key)', 'a list (2 items)', 'true/false', 'a number of 5000 digits')
    """
    if isinstance(value, HugeNumber):
        return f"a number of {value.digits} digits"
    if isinstance(value, dict):
        return f"an object ({len(value)} key{'s' * (len(value) != 1)})"
    if isinstance(value, list):
        return f"a list ({len(value)} item{'s' * (len(value) != 1)})"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    return type(value).__name__


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def text(value: Any, field: str, numbers: bool = False) -> str | None:
    """``value`` as text (None when missing or empty); a number is accepted when ``numbers``."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if numbers and _is_number(value):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    raise FieldError(f"{field}: expected text{' or a number' if numbers else ''}, got {describe(value)}")


def obj(value: Any, field: str) -> dict:
    """``value`` as an object ({} when missing)."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    raise FieldError(f"{field}: expected an object, got {describe(value)}")


def items(value: Any, field: str) -> list:
    """``value`` as a list ([] when missing)."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    raise FieldError(f"{field}: expected a list, got {describe(value)}")


def _as_list(value: Any, field: str) -> list[str]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [part.strip() for part in re.split(r"[;|]", value) if part.strip()]
    if not isinstance(value, list):
        raise FieldError(f"{field}: expected a list or a ';'-separated text, got {describe(value)}")
    names = []
    for number, item in enumerate(value):
        if isinstance(item, dict) and field == "authors":
            item = text(item.get("name"), f"{field}[{number}].name")
        else:
            item = text(item, f"{field}[{number}]", numbers=field == "references")
        if item and item.strip():
            names.append(item.strip())
    return names


def _as_year(value: Any) -> int | None:
    if value in (None, ""):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not (isinstance(value, str) or _is_number(value)):
        raise FieldError(f"year: expected a year, got {describe(value)}")
    try:
        year = int(str(value).strip()[:4])
    except ValueError:
        raise FieldError(f"year {str(value)[:40]!r} is not a number") from None
    if not 1000 <= year <= 2999:
        raise FieldError(f"year {str(value)[:40]!r} is out of range")
    return year


def _squeezed(value: Any, field: str, numbers: bool = False) -> str:
    return " ".join((text(value, field, numbers) or "").split())


def _reference_details(value: Any) -> dict[str, dict]:
    """What a source says about the works a record cites: key -> {title, authors, year}."""
    if not value:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise FieldError("reference_details must map each reference key to {title, authors, year}")
    return {str(key): {"title": _squeezed(v.get("title"), f"reference_details.{key}.title") or None,
                       "authors": _as_list(v.get("authors"), f"reference_details.{key}.authors"),
                       "year": _as_year(v.get("year"))}
            for key, v in value.items()}


def paper_from_fields(record: dict[str, Any], source: str, position: int, line: int) -> Paper:
    """A Paper from a record with the fields id, title, abstract, year, venue,
    authors, doi, references; raises ``FieldError`` naming what is wrong."""
    abstract = _squeezed(record.get("abstract"), "abstract")
    title = _squeezed(record.get("title"), "title")
    if not abstract and not title:
        raise FieldError("record has neither title nor abstract")
    doi = _squeezed(record.get("doi"), "doi") or None
    pid = _squeezed(record.get("id"), "id", numbers=True) or (f"doi:{doi.lower()}" if doi else stable_id(title, abstract))
    return Paper(
        id=pid,
        title=title or derive_title(abstract),
        title_derived=not title,
        abstract=abstract,
        year=_as_year(record.get("year")),
        venue=_squeezed(record.get("venue"), "venue") or None,
        authors=_as_list(record.get("authors"), "authors"),
        doi=doi,
        references=_as_list(record.get("references"), "references"),
        reference_details=_reference_details(record.get("reference_details")),
        source=source,
        position=position,
        line=line,
    )


def papers_from_records(records: Iterable[tuple[str, int, Any]], source: str,
                        to_fields: Callable[[Any], dict]) -> Iterator[Paper | SkipRecord]:
    """The papers of a reader's ``(where, line, record)`` triples.

    ``to_fields`` maps a record to the fields above; a record that is a string
    could not be read and is that skip's message; ``where`` ("line 3", "record
    2") names a record that ``to_fields`` or the fields reject.
    """
    position = 0
    for where, line, record in records:
        if isinstance(record, str):
            yield SkipRecord(record)
            continue
        position += 1
        try:
            yield paper_from_fields(to_fields(record), source, position, line)
        except ValueError as err:
            yield _counted(SkipRecord(f"{where}: {err}"), position)
        except (AttributeError, TypeError, KeyError, IndexError) as err:
            # a shape the format's checks did not foresee: still one record, never the whole load
            yield _counted(SkipRecord(f"{where}: record does not have this format's shape ({type(err).__name__}: {str(err)[:120]})"),
                           position)


def _counted(skip: SkipRecord, position: int) -> SkipRecord:
    # a record that was an object holds a position even when skipped: the parts of a split
    # file (loaders.parts) count them to number the next part's records as one read would
    skip.position = position
    return skip
