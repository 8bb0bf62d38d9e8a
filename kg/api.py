"""The Python API: one object with the verbs of the ``kg`` command line.

As in sqlite-utils, where ``Database(path)`` is the API, ``kg.open()`` returns a
``KnowledgeGraph`` over the embedded store in a folder (``db``) or a Neo4j server
(``uri``), usable with or without ``with``. The store is opened on first use, so
``extract`` alone never starts one; only ``build`` and ``load`` create a graph.

>>> import json, pathlib, tempfile, kg
>>> graph = kg.open(db=tempfile.mkdtemp())
>>> graph                                             # doctest: +ELLIPSIS
KnowledgeGraph(db='...')
>>> lines = pathlib.Path("tests/fixtures/queries_graph.jsonl").read_text(encoding="utf-8").splitlines()
>>> records = [json.loads(line) for line in lines]
>>> report = graph.load(records)
>>> report.papers, graph.stats()["nodes"]["Paper"]
(6, 6)
>>> [row["concept"] for row in graph.query("overview/top-concepts", per_type=1)][:3]
['Cora', 'natural language processing', 'Transformer']
>>> graph.query("MATCH (p:Paper {year: $year}) RETURN p.id AS id", year=2021)
[{'id': 'pA'}]
>>> graph.similar("pB", top=1)[0]["id"]
'pA'
>>> [row["id"] for row in graph.citations("top", top=2)]
['lee-2019', 'pA']
>>> graph.citations("path", source="pF", target="pA")[0]["id"]
'pF'
>>> graph.view("cooccurrence", top=20).graph.number_of_nodes() > 0
True
>>> graph.close()
"""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path
from typing import Callable, Iterable, Iterator

from kg import defaults
from kg.errors import BadInput

CITATION_VERBS = ("top", "pagerank", "cocited", "coupled", "path")


class KnowledgeGraph:
    """A paper knowledge graph in a store, with the verbs of the CLI.

    ``db`` is the folder of the embedded store (default ``$KG_DB`` or ``./kg-data``);
    ``uri`` a Neo4j server (credentials from ``NEO4J_USERNAME``/``NEO4J_PASSWORD``).
    """

    def __init__(self, db: str | Path | None = None, uri: str | None = None):
        self.db, self.uri = db, uri
        self._stack: contextlib.ExitStack | None = None
        self._store = None

    @property
    def store(self):
        """The open ``kg.store.Store`` (opened on first use; reading needs a built graph)."""
        return self._open(create=False)

    def _open(self, create: bool):
        if self._store is None:
            from kg.store import open_store

            self._stack = contextlib.ExitStack()
            self._store = self._stack.enter_context(open_store(self.db, self.uri, create=create))
        return self._store

    def close(self) -> None:
        """Close the store (the embedded server stays warm for the next user, then stops when idle)."""
        if self._stack is not None:
            self._stack.close()
        self._stack, self._store = None, None

    def __repr__(self) -> str:
        where = f"uri={self.uri!r}" if self.uri else f"db={str(self.db) if self.db else None!r}"
        return f"KnowledgeGraph({where})"

    def __enter__(self) -> KnowledgeGraph:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- building -------------------------------------------------------------------------
    def extract(self, sources: Iterable[str], fmt: str | None = None, processes: int = defaults.PROCESSES,
                report=None, model: str = defaults.RECOGNISER, cluster: str | None = None,
                records_per_part: int = defaults.RECORDS_PER_PART, no_header: bool = False) -> Iterator[dict]:
        """The ``kg extract`` records of ``sources``, one per paper, streamed (no store needed);
        what the loaders skipped or changed goes to ``report`` (a ``loaders.LoadReport``);
        ``model`` is the recogniser, ``fast`` or ``accurate`` (docs/extraction.md: Choosing a recogniser).
        ``cluster`` extracts on a Dask cluster instead (``kg.cluster``: a scheduler's address, or
        ``local:N``), JSON-lines files cut into parts of ``records_per_part`` lines. ``no_header``
        reads the first line of an abstract list as an abstract (``kg extract --no-header``)."""
        if cluster:
            from kg.cluster import extract_sources_on_cluster

            return extract_sources_on_cluster(sources, cluster, fmt, report, records_per_part, recogniser=model,
                                              no_header=no_header)
        from kg.build import extract_sources

        return extract_sources(sources, fmt, report, n_process=processes, recogniser=model, no_header=no_header)

    def build(self, sources: Iterable[str], fmt: str | None = None, processes: int = defaults.PROCESSES,
              on_paper: Callable[[dict], None] | None = None, model: str = defaults.RECOGNISER,
              no_header: bool = False):
        """Load, extract and store ``sources`` (``kg build``) with the recogniser ``model`` (``fast``
        or ``accurate``); returns a ``kg.build.BuildReport``. ``no_header`` reads the first line
        of an abstract list as an abstract, not as the list's header (``kg build --no-header``).

        Two builds of one embedded store run one after the other; ``on_paper`` is called with
        each stored record (a progress bar)."""
        from kg.build import build

        store = self._open(create=True)
        with store.build_lock():
            return build(sources, store, fmt, processes, on_paper=on_paper, recogniser=model, no_header=no_header)

    def load(self, records: Iterable, on_paper: Callable[[dict], None] | None = None):
        """Store ``kg extract`` records without extracting again (``kg load``): record dicts, or
        the files (folders, globs, .gz, ``-``) that hold them; returns a ``kg.build.BuildReport``
        whose ``load`` lists the lines of the files that are no record."""
        from kg.build import BuildReport, load_records
        from kg.records import store_records
        from loaders import LoadReport

        items = iter(records)
        first = next(items, None)
        items = itertools.chain([] if first is None else [first], items)
        store = self._open(create=True)
        with store.build_lock():
            if isinstance(first, (str, Path)):
                return store_records([str(name) for name in items], store, on_paper=on_paper)
            report = BuildReport(papers=0, load=LoadReport())
            report.papers, report.vocabulary = load_records(store, items, report.citations, on_paper)
            return report

    # -- reading ------------------------------------------------------------------------------
    @property
    def description(self) -> str:
        """Which store this is, for messages (``embedded store /path``, ``Neo4j at bolt://...``)."""
        return self.store.description

    def stats(self, recount: bool = False) -> dict:
        """``{"nodes": {label: n}, "relationships": {type: n}}`` (``kg stats``): the counts the last
        build kept. ``recount`` counts the graph anew and keeps the counts and the lists the
        whole-graph packs read, as every build does (``kg stats --recount``: after upgrading kg,
        or when another tool wrote to the graph)."""
        from kg.store.reads.graph import stats

        if recount:
            from kg.store.counts import keep_counts
            from kg.store.schema import create_constraints

            create_constraints(self.store)  # an index a newer kg reads by
            return keep_counts(self.store)
        return stats(self.store)

    def query(self, query, params: dict | None = None, /, *, write: bool = False, **named) -> list[dict]:
        """Rows of a pack query by name (``overview/top-concepts``), of a ``queries.Query`` (a
        file read by ``queries.load_file``), both with parameters checked and defaulted as
        ``kg query run`` does, or of ad hoc Cypher; read-only unless ``write`` (a query that
        writes is refused with ``kg.errors.ReadOnlyError``). Parameters come as a dict, as
        keywords, or both."""
        from queries import Query, get_query

        params = {**(params or {}), **named}
        if isinstance(query, str) and "/" in query and " " not in query.strip():
            query = get_query(query)
        if isinstance(query, Query):
            return self.store.run(query.cypher, query.bind(params), write=write)
        return self.store.run(query, params, write=write)

    def title(self, paper: str) -> str | None:
        """The title of the paper ``paper`` (an id); ``kg.errors.PaperNotFound`` when there is none."""
        from kg.similar import paper_title

        return paper_title(self.store, paper)

    def similar(self, paper: str | None = None, top: int = defaults.TOP, by: str = defaults.SIMILAR_BY, types=None, *,
                text: str | None = None) -> list[dict]:
        """Papers related to ``paper`` (an id) or to ``text`` (a draft, read on the fly and never
        stored), best first, with the concepts they share (``kg similar``)."""
        from kg.similar import similar_papers

        return similar_papers(self.store, paper, top=top, by=by, types=types, text=text)

    def citations(self, verb: str = "top", *, top: int = defaults.TOP, papers_only: bool = False, paper: str | None = None,
                  source: str | None = None, target: str | None = None, undirected: bool = False,
                  alpha: float = defaults.ALPHA) -> list[dict]:
        """Citation analytics (``kg citations VERB``): ``top`` (most cited), ``pagerank``,
        ``cocited``, ``coupled`` (optionally around one ``paper``), ``path`` (``source`` to
        ``target``; no rows when no chain of citations links them)."""
        from kg.citations import analytics

        if verb not in CITATION_VERBS:
            raise BadInput(f"unknown citations verb {verb!r}; choose from {', '.join(CITATION_VERBS)}")
        graph = analytics.citation_graph(self.store, references=not papers_only)
        if verb == "top":
            return analytics.most_cited(graph, top)
        if verb == "pagerank":
            return analytics.pagerank(graph, top, alpha)
        if verb == "cocited":
            return analytics.co_citation(graph, paper, top)
        if verb == "coupled":
            return analytics.bibliographic_coupling(graph, paper, top)
        return analytics.path_rows(graph, analytics.citation_path(graph, source, target, directed=not undirected))

    def view(self, kind: str = defaults.VIEW, **options):
        """One of the HTML views of ``kg viz`` as a ``visuals.views.View`` (``.render()``, ``.write(path)``);
        ``options`` as ``visuals.views.build_view``: focus, depth, types, top, min_weight, min_papers, size_by."""
        from visuals.views import build_view

        return build_view(self.store, kind, **options)

    def export(self, fmt: str, path: str | Path, citations_only: bool = False) -> list[Path]:
        """Write the graph as graphml, gexf, json or csv (``kg export``); returns the files written."""
        from kg.export import export

        return export(self.store, fmt, Path(path), citations_only)

    def export_records(self, records: Iterable[str], path: str | Path, citations_only: bool = False):
        """Write the neo4j-admin CSV files of the graph ``kg load`` makes of the ``kg extract``
        records in these files, for a fresh Neo4j (``kg export --format csv --records``; this
        graph's store is not used); returns the files and a ``kg.build.BuildReport``."""
        from kg.records_csv import write_records_csv

        return write_records_csv(records, Path(path), citations_only)


def open(db: str | Path | None = None, uri: str | None = None) -> KnowledgeGraph:  # noqa: A001  (as sqlite3.connect)
    """The knowledge graph in the embedded store ``db`` or on the Neo4j server ``uri``."""
    return KnowledgeGraph(db=db, uri=uri)
