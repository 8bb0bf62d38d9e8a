"""neo4j-admin CSV files from ``kg extract`` records, for a fresh Neo4j (``kg export --format csv --records``).

>>> from kg.records_csv import write_records_csv
>>> files, report = write_records_csv(["records.jsonl"], Path("neo4j-import"))   # doctest: +SKIP
>>> report.papers                                                              # doctest: +SKIP
57

The records go through ``kg load``'s own path (its batches, citation linking and vocabulary
pass) into a scratch embedded store next to the output folder, which is written as
``kg export --format csv`` writes any store and then deleted: the files hold the graph
``kg load`` makes of the records, node for node and edge for edge, whatever that path does
(``tests/test_cluster.py`` compares them). It costs what ``kg load --db`` costs; what it
saves is the transactional load into Neo4j, which ``neo4j-admin database import full``
replaces.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Iterable

from kg.build import BuildReport
from kg.export import write_neo4j_csv
from kg.records import store_records
from kg.store import open_store
from kg.store.embedded import stop_server
from loaders import expand


def write_records_csv(sources: Iterable[str], folder: Path, citations_only: bool = False) -> tuple[list[Path], BuildReport]:
    """Write the neo4j-admin files of the graph of the records in ``sources`` into ``folder``;
    returns the files and the load's report (its skips name file and line)."""
    sources = list(sources)
    for _ in expand(sources):  # a missing file fails before a store starts
        pass
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".kg-records-", dir=folder.parent))
    try:
        with open_store(scratch, create=True) as store:
            report = store_records(sources, store)
            written = write_neo4j_csv(store, folder, citations_only)
    finally:
        stop_server(scratch)  # no JVM left behind for a folder about to go
        shutil.rmtree(scratch, ignore_errors=True)
    return written, report
