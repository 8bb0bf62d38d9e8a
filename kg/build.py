"""The build: sources -> loaders -> extraction -> graph rows -> store, streamed in batches.

>>> from kg.build import build
>>> from kg.store import open_store
>>> with open_store(db_dir="kg-data", create=True) as store: # doctest: +SKIP
...     report = build(["examples/neurips2026"], store)
>>> report.papers                                         # doctest: +SKIP
57
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from kg.citations import CitationReport
from kg.extract import extract, load_pipeline
from kg.graph import graph_rows
from kg.store import Store
from kg.store.batches import batched
from kg.store.schema import create_constraints, load_rows
from kg.store.vocabulary import VocabularyReport, finish_vocabulary
from kg.textsim import index_papers
from loaders import LoadReport, load

PAPERS_PER_BATCH = 200


@dataclass
class BuildReport:
    papers: int
    load: LoadReport
    citations: CitationReport = field(default_factory=CitationReport)
    vocabulary: VocabularyReport = field(default_factory=VocabularyReport)


def extract_sources(sources: Iterable[str], fmt: str | None = None, report: LoadReport | None = None,
                    n_process: int = 1, recogniser: str = "fast") -> Iterator[dict]:
    """Load and extract, one record per paper (the ``kg extract`` stream); ``recogniser`` is
    ``fast`` or ``accurate`` (``kg.extract.load_pipeline``)."""
    return extract(load(sources, fmt, report), load_pipeline(recogniser=recogniser), n_process=n_process)


def load_records(store: Store, records: Iterable[dict], citations: CitationReport | None = None,
                 on_paper: Callable[[dict], None] | None = None) -> tuple[int, VocabularyReport]:
    """Store ``kg extract`` records in batches, then finish the vocabulary (concept types voted,
    names linked wherever they are written); returns the number of records and the vocabulary
    report. A rerun changes no counts.

    >>> from kg.store import open_store
    >>> with open_store(db_dir="kg-data", create=True) as store:  # doctest: +SKIP
    ...     papers, vocabulary = load_records(store, extract_sources(["examples/neurips2026"]))
    """
    create_constraints(store)
    papers = 0
    for batch in batched(records, PAPERS_PER_BATCH):
        # each batch links its references to papers already stored, and earlier
        # references to its own papers, so no pass over the whole graph is needed
        with store.transaction() as tx:  # a batch is stored whole or not at all (a killed build leaves no half paper)
            load_rows(tx, graph_rows(batch), citations=citations)
            index_papers(tx, [record["id"] for record in batch])  # the text kg similar ranks by
        papers += len(batch)
        if on_paper:
            for record in batch:
                on_paper(record)
    # once the batches are stored: concept types voted, every name linked wherever it is written
    return papers, finish_vocabulary(store)


def build(sources: Iterable[str], store: Store, fmt: str | None = None, n_process: int = 1,
          on_paper: Callable[[dict], None] | None = None, recogniser: str = "fast") -> BuildReport:
    """Load ``sources`` into ``store``; a rerun changes no counts."""
    report = LoadReport()
    citations = CitationReport()
    papers, vocabulary = load_records(store, extract_sources(sources, fmt, report, n_process, recogniser), citations, on_paper)
    return BuildReport(papers=papers, load=report, citations=citations, vocabulary=vocabulary)
