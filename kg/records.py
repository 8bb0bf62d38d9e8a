"""Reading back the records ``kg extract`` writes, to store them without extracting again.

>>> from kg.records import read_records, store_records
>>> records = list(read_records(["concepts.jsonl"]))        # doctest: +SKIP
>>> from kg.store import open_store
>>> with open_store(db_dir="kg-data") as store:              # doctest: +SKIP
...     report = store_records(["concepts.jsonl"], store)    # the graph `kg build` makes of the same sources

``read_records`` takes the same names as the loaders (files, folders, glob patterns,
``.gz`` files, ``-`` for stdin) and yields one record per line, streamed. A line that
is not a record of the contract (docs/schema.md: "kg extract records") is a skip in ``report``
naming the file, the line and the field; bytes that are not UTF-8 and lone surrogates
become U+FFFD (one character each, so the offsets into ``text`` still hold) with a
note. When no file gives a record, ``loaders.NoPapers`` says why for each.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterable, Iterator

from kg.build import BuildReport, load_records
from kg.citations import CitationReport
from kg.graph import CONCEPT_LABELS
from kg.store import Store
from loaders import LoadReport, NoPapers, _Checked, _head, _report_file, expand, unreadable
from loaders.checks import LIMITS, MAX_ABSTRACT_CHARS, PaperChecks
from loaders.fields import FieldError, describe
from loaders.jsondocs import TOO_DEEP, loads

FORMAT = "kg extract records"


def store_records(sources: Iterable[str], store: Store, on_paper: Callable[[dict], None] | None = None) -> BuildReport:
    """Store the records of ``kg extract`` files (``kg load``): the same graph as ``kg build`` of
    the sources they were extracted from, spaCy not run; a rerun changes no counts."""
    report = LoadReport()
    citations = CitationReport()
    papers, vocabulary = load_records(store, read_records(sources, report), citations, on_paper)
    return BuildReport(papers=papers, load=report, citations=citations, vocabulary=vocabulary)


def count_records(sources: Iterable[str]) -> int:
    """The non-blank lines of the files, unparsed: the length of a progress bar."""
    total = 0
    for name in expand(sources):
        raw, _, head = _head(name)
        with raw:
            total += sum(1 for line in _Checked(head, raw, check_bytes=False) if line.strip())
    return total


def read_records(sources: Iterable[str], report: LoadReport | None = None) -> Iterator[dict]:
    """Yield the valid records of every file, in order; skips and repairs go to ``report``."""
    report = report if report is not None else LoadReport()
    empty: list[str] = []  # why each file gave no record
    found = 0
    for name in expand(sources, report):
        report.files += 1
        for record in _read_file(name, report, empty):
            found += 1
            yield record
    if not found:
        raise NoPapers(empty, report)


def _read_file(name: str, report: LoadReport, empty: list[str]) -> Iterator[dict]:
    label = "<stdin>" if name == "-" else name
    raw, guard, head = _head(name)
    problem = unreadable(head)
    if problem:
        raw.close()
        report.skip(label, problem)
        empty.append(report.skipped[-1])
        return
    stream = _Checked(head, raw)
    repairs = PaperChecks(label)  # only its notes: what was changed in the records kept
    records, skipped = 0, len(report.skipped)
    try:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            record, why_not = _parsed(line)
            why_not = why_not or contract_error(record)
            if why_not:
                report.skip(label, f"line {number}: {why_not}")
                continue
            surrogates = _replace_surrogates(record)
            if surrogates:
                repairs.notes.append(f"line {number}: {surrogates} lone surrogate(s) replaced with U+FFFD")
            records += 1
            report.papers += 1
            yield record
    finally:
        raw.close()
    _report_file(name, label, FORMAT, stream, repairs, guard, records, report.skipped[skipped:], report, empty)


def _parsed(line: str) -> tuple[Any, str | None]:
    try:
        return loads(line.rstrip("\r\n")), None
    except json.JSONDecodeError as err:
        return None, f"invalid JSON ({err.msg} at column {err.colno})"
    except RecursionError:
        return None, TOO_DEEP


def contract_error(record: Any) -> str | None:
    """Why ``record`` is not a ``kg extract`` record, naming the field; None when it is one.

    >>> contract_error({"id": "p1", "title": "T", "text": "We use BERT.", "concepts": []}) is None
    True
    >>> contract_error({"id": "p1", "title": "T", "text": "short", "concepts": [{"name": "BERT", "type": "Method",
    ...     "key": "bert", "aliases": [], "mentions": [[7, 11]], "confidence": 0.9,
    ...     "evidence": [{"sentence": [0, 5], "rule": "gazetteer", "confidence": 0.9}]}]})
    'concepts[0].mentions[0]: expected [start, end] with 0 <= start <= end <= 5 (the length of text), got [7, 11]'
    """
    try:
        _check_record(record)
    except FieldError as err:
        return str(err)
    return None


def _check_record(record: Any) -> None:
    if not isinstance(record, dict):
        raise FieldError(f"expected a JSON object (a kg extract record), got {describe(record)}")
    _text(record, "id", required=True, limit=LIMITS["id"], nonempty=True)
    _text(record, "title", required=True, limit=LIMITS["title"])
    text = _text(record, "text", required=True, limit=MAX_ABSTRACT_CHARS)
    _typed(record, "title_derived", bool, "true/false")
    for field in ("venue", "doi", "source"):
        _text(record, field, limit=LIMITS.get(field))
    for field in ("year", "position"):
        _integer(record.get(field), field, optional=True)
    for field in ("authors", "references", "urls"):
        for number, item in enumerate(_list(record.get(field), field)):
            if not isinstance(item, str):
                raise FieldError(f"{field}[{number}]: expected text, got {describe(item)}")
    for number, concept in enumerate(_list(record.get("concepts"), "concepts", required=True)):
        _check_concept(concept, f"concepts[{number}]", len(text))
    for number, citation in enumerate(_list(record.get("citations"), "citations")):
        _check_citation(citation, f"citations[{number}]", len(text))


def _check_concept(concept: Any, where: str, length: int) -> None:
    if not isinstance(concept, dict):
        raise FieldError(f"{where}: expected an object, got {describe(concept)}")
    _text(concept, "name", required=True, nonempty=True, where=where)
    _text(concept, "key", required=True, nonempty=True, where=where)
    if concept.get("type") not in CONCEPT_LABELS:
        raise FieldError(f"{where}.type: expected one of {', '.join(CONCEPT_LABELS)}, got {_shown(concept.get('type'))}")
    for number, alias in enumerate(_list(concept.get("aliases"), f"{where}.aliases", required=True)):
        if not isinstance(alias, str):
            raise FieldError(f"{where}.aliases[{number}]: expected text, got {describe(alias)}")
    _typed(concept, "proposed", bool, "true/false or null", where)
    _number(concept.get("confidence"), f"{where}.confidence")
    if concept.get("salience") is not None:  # older records have none
        _number(concept["salience"], f"{where}.salience")
    mentions = _list(concept.get("mentions"), f"{where}.mentions", required=True)
    evidence = _list(concept.get("evidence"), f"{where}.evidence", required=True)
    if not mentions:
        raise FieldError(f"{where}.mentions: expected at least one [start, end], got an empty list")
    if len(evidence) != len(mentions):
        raise FieldError(f"{where}.evidence: expected one entry per mention ({len(mentions)}), got {len(evidence)}")
    for number, (span, proof) in enumerate(zip(mentions, evidence)):
        _span(span, f"{where}.mentions[{number}]", length)
        if not isinstance(proof, dict):
            raise FieldError(f"{where}.evidence[{number}]: expected an object, got {describe(proof)}")
        _span(proof.get("sentence"), f"{where}.evidence[{number}].sentence", length)
        _text(proof, "rule", required=True, where=f"{where}.evidence[{number}]")
        _number(proof.get("confidence"), f"{where}.evidence[{number}].confidence")


def _check_citation(citation: Any, where: str, length: int) -> None:
    if not isinstance(citation, dict):
        raise FieldError(f"{where}: expected an object, got {describe(citation)}")
    _text(citation, "text", required=True, where=where)
    _span([citation.get("start"), citation.get("end")], f"{where}.start/end", length)
    for number, author in enumerate(_list(citation.get("authors"), f"{where}.authors", required=True)):
        if not isinstance(author, str):
            raise FieldError(f"{where}.authors[{number}]: expected text, got {describe(author)}")
    if "year" not in citation:
        raise FieldError(f"{where}.year: missing (a year, or null when the citation gives none)")
    _integer(citation["year"], f"{where}.year", optional=True)


def _text(record: dict, field: str, required: bool = False, limit: int | None = None, nonempty: bool = False,
          where: str = "") -> str:
    name = f"{where}.{field}" if where else field
    value = record.get(field)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise FieldError(f"{name}: {'missing' if value is None else 'expected text, got ' + describe(value)}")
    if nonempty and not value.strip():
        raise FieldError(f"{name}: empty")
    if limit is not None and len(value) > limit:
        raise FieldError(f"{name}: {len(value):,} characters, more than the {limit:,} kg reads")
    return value


def _typed(record: dict, field: str, kind: type, expected: str, where: str = "") -> None:
    value = record.get(field)
    if value is not None and not isinstance(value, kind):
        raise FieldError(f"{f'{where}.' if where else ''}{field}: expected {expected}, got {describe(value)}")


def _integer(value: Any, name: str, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise FieldError(f"{name}: expected a whole number{' or null' if optional else ''}, got {describe(value)}")


def _number(value: Any, name: str) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise FieldError(f"{name}: expected a number, got {describe(value)}")


def _list(value: Any, name: str, required: bool = False) -> list:
    if value is None and not required:
        return []
    if not isinstance(value, list):
        raise FieldError(f"{name}: expected a list, got {'nothing' if value is None else describe(value)}")
    return value


def _span(value: Any, name: str, length: int) -> None:
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
          and 0 <= value[0] <= value[1] <= length)
    if not ok:
        raise FieldError(f"{name}: expected [start, end] with 0 <= start <= end <= {length} (the length of text), "
                         f"got {_shown(value)}")


def _shown(value: Any) -> str:
    """A small value as JSON, a large one described (never printed whole)."""
    text = json.dumps(value, ensure_ascii=False, default=describe)
    return text if len(text) <= 40 else describe(value)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _replace_surrogates(value: Any, depth: int = 0) -> int:
    """Replace lone surrogates (which no store can write) in every text of a record, in place;
    one character each, so offsets still hold. Returns how many were replaced. Values nested
    deeper than any field of the contract are never stored and left alone."""
    if depth > 8:
        return 0
    count = 0
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        if isinstance(item, str):
            found = len(_SURROGATE.findall(item))
            if found:
                value[key] = _SURROGATE.sub("\ufffd", item)
                count += found
        elif isinstance(item, (dict, list)):
            count += _replace_surrogates(item, depth + 1)
    return count
