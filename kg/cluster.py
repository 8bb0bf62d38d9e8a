"""Extraction on a Dask cluster (``pip install "kg[cluster]"``): ``kg extract SOURCES --cluster ADDRESS``.

>>> from kg.cluster import cluster_client, extract_on_cluster
>>> with cluster_client("local:2") as client:                               # doctest: +SKIP
...     records = list(extract_on_cluster(["examples/neurips2026"], client))
>>> len(records)                                                             # doctest: +SKIP
57

The driver cuts the sources into parts (``loaders.parts``: byte ranges of JSON-lines files,
whole files otherwise) and submits one task per part; each worker reads its part from the
file system the driver sees (the same paths), runs the same pipeline as ``kg extract``
(loaded once per worker thread, not per task) and sends back the records. At most
``in_flight`` parts (two per worker thread by default) are out at once, and results are
taken in the order of the parts, so memory stays bounded and the output is the local run's,
in the same order, with the same skips (file and line).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import socket
import threading
from collections import deque
from typing import Iterable, Iterator

from kg import errors
from loaders import LoadError, LoadReport, NoPapers
from loaders.parts import RECORDS_PER_PART, Part, PartMerge, PartRead, partitions, read_part

INSTALL = 'pip install "kg[cluster]"'
# Dask's defaults suit interactive work; a worker running spaCy for minutes needs no stack sample
# every 10 ms (its profiler) nor an event-loop check every 20 ms: they cost CPU the extraction wants.
# Dask's nanny also sets MALLOC_TRIM_THRESHOLD_ in its workers, which turns off glibc's adaptive mmap
# threshold: spaCy's arrays are then mapped and unmapped on every batch (4.1 s of system time per
# 1,000 abstracts instead of 1.7); unset here, thread limits kept.
# The workers of a local cluster get these settings (see docs/scaling-out.md, for `dask worker`).
QUIET = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
         "distributed.worker.memory.monitor-interval": "1s", "distributed.admin.system-monitor.interval": "5s",
         "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
_local = threading.local()  # a worker thread's pipelines by recogniser, each loaded by its first task


class ClusterError(errors.BadInput):
    """A cluster address that is not one, or a scheduler that cannot be reached."""


class ClusterMissing(errors.Missing):
    """The cluster extra is not installed."""


def _distributed():
    try:
        import distributed
    except ImportError as err:
        raise ClusterMissing(f"--cluster needs Dask's distributed scheduler: {INSTALL}") from err
    return distributed


@contextlib.contextmanager
def cluster_client(address: str, timeout: float = 10):
    """A Dask client of the scheduler at ``address`` (``tcp://host:8786``), or of a cluster
    started here and stopped on exit: ``local:N`` (N worker processes, one thread each) or
    ``local`` (one per core)."""
    distributed = _distributed()
    import dask
    if address == "local" or address.startswith("local:"):
        workers = _local_workers(address)
        with dask.config.set(QUIET):  # read by the workers as they start
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               dashboard_address=None, silence_logs=logging.ERROR,
                                               # its HTTP routes on a free port of this machine, not 8787 of all
                                               scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
        with cluster, distributed.Client(cluster) as client:
            yield client
        return
    try:
        client = distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {err}") from err
    with client:
        yield client


def _local_workers(address: str) -> int | None:
    count = address.partition(":")[2]
    if not count:
        return None  # Dask's default: one per core
    if not count.isdigit() or int(count) < 1:
        raise ClusterError(f"--cluster {address}: expected local:N with N worker processes, e.g. local:2")
    return int(count)


def extract_part(part: Part, recogniser: str = "fast") -> PartRead:
    """A worker's task: read one part and extract its papers (the read's items become records)."""
    from kg.extract import extract, load_pipeline

    pipelines = _local.__dict__.setdefault("pipelines", {})
    if recogniser not in pipelines:
        pipelines[recogniser] = load_pipeline(recogniser=recogniser)
    try:
        read = read_part(part)
    except (LoadError, OSError) as err:  # a worker that does not see the file the driver named
        raise LoadError(f"{getattr(err, 'filename', None) or part.name}: {getattr(err, 'strerror', None) or err} "
                        f"(on worker {socket.gethostname()}: workers read the sources at the paths given)") from err
    read.items = list(extract(read.items, pipelines[recogniser]))
    return read


def extract_on_cluster(sources: Iterable[str], client, fmt: str | None = None, report: LoadReport | None = None,
                       records_per_part: int = RECORDS_PER_PART, in_flight: int | None = None,
                       recogniser: str = "fast", no_header: bool = False) -> Iterator[dict]:
    """The ``kg extract`` records of ``sources``, extracted by the workers of ``client``, in order;
    what the loaders skipped or changed goes to ``report``."""
    report = report if report is not None else LoadReport()
    parts = partitions(sources, fmt, report, records_per_part, no_header=no_header)
    return extract_parts(parts, client, report, in_flight, recogniser)


def extract_parts(parts: Iterable[Part], client, report: LoadReport, in_flight: int | None = None,
                  recogniser: str = "fast") -> Iterator[dict]:
    """The records of ``parts`` (``loaders.parts.partitions``), extracted by the workers of ``client``, in order."""
    merge = PartMerge(report)
    window = in_flight or 2 * max(1, sum(client.nthreads().values()))
    pending: deque = deque()
    try:
        for part in parts:
            pending.append(client.submit(extract_part, part, recogniser, pure=False))
            if len(pending) >= window:
                yield from merge.add(pending.popleft().result())
        while pending:
            yield from merge.add(pending.popleft().result())
    finally:
        client.cancel(list(pending))
    merge.finish()


def extract_sources_on_cluster(sources: Iterable[str], address: str, fmt: str | None = None, report: LoadReport | None = None,
                               records_per_part: int = RECORDS_PER_PART, recogniser: str = "fast",
                               no_header: bool = False) -> Iterator[dict]:
    """``extract_on_cluster`` with the client of ``address`` (see ``cluster_client``), closed at the end.
    A source that cannot be planned (a missing file, stdin) fails before a cluster is started."""
    report = report if report is not None else LoadReport()
    parts = partitions(sources, fmt, report, records_per_part, no_header=no_header)
    first = next(parts, None)
    if first is None:
        raise NoPapers([], report)
    with cluster_client(address) as client:
        yield from extract_parts(itertools.chain([first], parts), client, report, recogniser=recogniser)
