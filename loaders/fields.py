"""Turning the loose fields of JSONL and CSV records into a Paper."""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Iterator

from kg.model import Paper, derive_title, stable_id


class SkipRecord(Exception):
    """Yielded (not raised) by a reader for one record it cannot use; the load goes on."""


def _as_list(value: Any) -> list[str]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [part.strip() for part in re.split(r"[;|]", value) if part.strip()]
    if isinstance(value, list):
        return [str(v.get("name", v)) if isinstance(v, dict) else str(v) for v in value if v not in (None, "")]
    raise ValueError(f"expected a list or a ';'-separated string, got {type(value).__name__}")


def _as_year(value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        year = int(str(value).strip()[:4])
    except ValueError:
        raise ValueError(f"year {value!r} is not a number") from None
    if not 1000 <= year <= 2999:
        raise ValueError(f"year {value!r} is out of range")
    return year


def paper_from_fields(record: dict[str, Any], source: str, position: int, line: int) -> Paper:
    """A Paper from a record with the fields id, title, abstract, year, venue,
    authors, doi, references; raises ValueError naming what is wrong."""
    abstract = " ".join(str(record.get("abstract") or "").split())
    title = " ".join(str(record.get("title") or "").split())
    if not abstract and not title:
        raise ValueError("record has neither title nor abstract")
    doi = str(record.get("doi") or "").strip() or None
    pid = str(record.get("id") or "").strip() or (f"doi:{doi.lower()}" if doi else stable_id(title, abstract))
    return Paper(
        id=pid,
        title=title or derive_title(abstract),
        title_derived=not title,
        abstract=abstract,
        year=_as_year(record.get("year")),
        venue=str(record.get("venue") or "").strip() or None,
        authors=_as_list(record.get("authors")),
        doi=doi,
        references=_as_list(record.get("references")),
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
            yield SkipRecord(f"{where}: {err}")
