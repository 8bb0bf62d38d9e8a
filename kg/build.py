"""The build: sources -> loaders -> extraction -> graph rows -> store, streamed in batches.

>>> from kg.build import build
>>> from kg.store import open_store
>>> with open_store(db_dir="kg-data") as store:              # doctest: +SKIP
...     report = build(["examples/neurips2026"], store)
>>> report.papers
57
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from kg.citations import CitationReport
from kg.extract import extract, load_pipeline
from kg.graph import graph_rows
from kg.store import Store
from kg.store.schema import create_constraints, load_rows
from loaders import LoadReport, load

PAPERS_PER_BATCH = 200


@dataclass
class BuildReport:
    papers: int
    load: LoadReport
    citations: CitationReport = field(default_factory=CitationReport)


def batched(items: Iterable, size: int) -> Iterator[list]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def extract_sources(sources: Iterable[str], fmt: str | None = None, report: LoadReport | None = None,
                    n_process: int = 1) -> Iterator[dict]:
    """Load and extract, one record per paper (the ``kg extract`` stream)."""
    return extract(load(sources, fmt, report), load_pipeline(), n_process=n_process)


def build(sources: Iterable[str], store: Store, fmt: str | None = None, n_process: int = 1,
          on_paper: Callable[[dict], None] | None = None) -> BuildReport:
    """Load ``sources`` into ``store``; a rerun changes no counts."""
    report = LoadReport()
    citations = CitationReport()
    create_constraints(store)
    papers = 0
    for records in batched(extract_sources(sources, fmt, report, n_process), PAPERS_PER_BATCH):
        # each batch links its references to papers already stored, and earlier
        # references to its own papers, so no pass over the whole graph is needed
        load_rows(store, graph_rows(records), citations=citations)
        papers += len(records)
        if on_paper:
            for record in records:
                on_paper(record)
    return BuildReport(papers=papers, load=report, citations=citations)
