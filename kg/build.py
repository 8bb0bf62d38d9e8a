"""The build: sources -> loaders -> extraction -> graph rows -> store, streamed in batches.

>>> from kg.build import build
>>> from kg.store import open_store
>>> with open_store(db_dir="kg-data", create=True) as store: # doctest: +SKIP
...     report = build(["examples/neurips2026"], store)
>>> report.papers                                         # doctest: +SKIP
57
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from queue import Full, Queue
from typing import Callable, Iterable, Iterator

from kg import dense
from kg.citations import CitationReport
from kg.extract import extract, load_pipeline
from kg.graph import graph_rows
from kg.store import Store
from kg.store.batches import batched
from kg.store.counts import keep_counts
from kg.store.load import load_rows
from kg.store.schema import create_constraints
from kg.store.vocabulary import VocabularyReport, build_state, set_stamp, unfinished_pass
from kg.textsim import index_papers, stored_terms
from kg.vocabulary import Names, finish_vocabulary
from loaders import LoadReport, load

PAPERS_PER_BATCH = 200
READ_AHEAD = 2  # batches of records extracted while one is stored


@dataclass
class BuildReport:
    papers: int
    load: LoadReport
    citations: CitationReport = field(default_factory=CitationReport)
    vocabulary: VocabularyReport = field(default_factory=VocabularyReport)


def read_ahead(items: Iterable, size: int, ahead: int = READ_AHEAD) -> Iterator[list]:
    """``batched(items, size)``, pulled by a thread up to ``ahead`` batches before they are used:
    the extraction workers keep working while a batch is stored (memory stays bounded).

    >>> [len(b) for b in read_ahead(range(5), 2)]
    [2, 2, 1]
    """
    queue: Queue = Queue(maxsize=ahead)
    stop = threading.Event()

    def pull() -> None:
        try:
            for batch in batched(items, size):
                while not stop.is_set():
                    try:
                        queue.put((batch, None), timeout=0.1)
                        break
                    except Full:
                        continue
                if stop.is_set():
                    return
            queue.put((None, None))
        except BaseException as err:  # handed to the consumer, which raises it
            queue.put((None, err))

    thread = threading.Thread(target=pull, name="kg-read-ahead", daemon=True)
    thread.start()
    try:
        while True:
            batch, err = queue.get()
            if err is not None:
                raise err
            if batch is None:
                return
            yield batch
    finally:
        stop.set()
        thread.join()


def extract_sources(sources: Iterable[str], fmt: str | None = None, report: LoadReport | None = None,
                    n_process: int = 1, recogniser: str = "fast", no_header: bool = False,
                    vectors: bool = False) -> Iterator[dict]:
    """Load and extract, one record per paper (the ``kg extract`` stream); ``recogniser`` is
    ``fast`` or ``accurate`` (``kg.extract.load_pipeline``); ``no_header`` reads an abstract
    list's first line as an abstract (``loaders.load``); ``vectors`` gives each record the
    vectors its paper is stored with (``kg.dense.encode_records``), encoded by the extraction workers."""
    papers = load(sources, fmt, report, no_header=no_header)
    return extract(papers, load_pipeline(recogniser=recogniser), n_process=n_process,
                   then=dense.encode_records if vectors else None)


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
    terms = stored_terms(store)  # kept current by each batch's index
    if unfinished_pass(store):  # a build killed before its vocabulary pass: that pass first
        finish_vocabulary(store)
    stamp, _ = build_state(store)
    names = Names.stored(store, first=stamp + 1)  # kept current by each batch
    papers = 0
    for batch in read_ahead(records, PAPERS_PER_BATCH):
        encoded = {record["id"]: record.pop(dense.ENCODED) for record in batch if dense.ENCODED in record}
        stamp += 1
        # each batch links its references to papers already stored, and earlier
        # references to its own papers, so no pass over the whole graph is needed
        with store.transaction() as tx:  # a batch is stored whole or not at all (a killed build leaves no half paper)
            load_rows(tx, graph_rows(batch), names=names, stamp=stamp, citations=citations)
            index_papers(tx, [record["id"] for record in batch], terms)  # the text kg similar ranks by
            dense.index_papers(tx, [record["id"] for record in batch], encoded=encoded)  # and its meaning (kg.dense)
            set_stamp(tx, stamp)
        papers += len(batch)
        if on_paper:
            for record in batch:
                on_paper(record)
    # once the batches are stored: concepts that later batches named voted again, names linked where they came later
    vocabulary = finish_vocabulary(store, names)
    keep_counts(store)  # what kg stats and the whole-graph packs read
    return papers, vocabulary


def build(sources: Iterable[str], store: Store, fmt: str | None = None, n_process: int = 1,
          on_paper: Callable[[dict], None] | None = None, recogniser: str = "fast", no_header: bool = False) -> BuildReport:
    """Load ``sources`` into ``store``; a rerun changes no counts."""
    report = LoadReport()
    citations = CitationReport()
    records = extract_sources(sources, fmt, report, n_process, recogniser, no_header, vectors=True)
    papers, vocabulary = load_records(store, records, citations, on_paper)
    return BuildReport(papers=papers, load=report, citations=citations, vocabulary=vocabulary)
