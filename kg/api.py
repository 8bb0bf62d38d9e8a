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
['Cora', 'GraphNet', 'ROUGE']
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
import functools
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from kg import defaults
from kg.errors import BadInput, FetchError, KgError

CITATION_VERBS = ("top", "pagerank", "cocited", "coupled", "path")
FETCH_SOURCES = ("openalex", "arxiv")


def _kg_errors(method):
    """The API's one boundary for errors: a ``ValueError`` of a lower layer (an unknown format,
    recogniser or score; a row without its columns) reaches the caller as ``kg.errors.BadInput``
    with the same message, so that ``KgError`` catches every error a user can meet. A
    generator's errors are mapped as it is read.

    >>> from kg.errors import BadInput
    >>> try:
    ...     next(open().extract(["tests/fixtures/abstracts_linked.txt"], model="large"))
    ... except BadInput as err:
    ...     print(err)
    unknown recogniser 'large'; one of fast, accurate
    """
    def reading(iterator):
        try:
            yield from iterator
        except KgError:
            raise
        except ValueError as err:
            raise BadInput(str(err)) from err

    @functools.wraps(method)
    def call(*args, **kwargs):
        try:
            result = method(*args, **kwargs)
        except KgError:
            raise
        except ValueError as err:
            raise BadInput(str(err)) from err
        return reading(result) if isinstance(result, Iterator) else result

    return call


@dataclass
class FetchReport:
    """What ``KnowledgeGraph.fetch`` did: the records the output file holds now, the requests made."""

    records: int
    requests: int


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
    @_kg_errors
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

    @_kg_errors
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

    @_kg_errors
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

    @_kg_errors
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

    @_kg_errors
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

    @_kg_errors
    def title(self, paper: str) -> str | None:
        """The title of the paper ``paper`` (an id); ``kg.errors.PaperNotFound`` when there is none."""
        from kg.similar import paper_title

        return paper_title(self.store, paper)

    @_kg_errors
    def similar(self, paper: str | None = None, top: int = defaults.TOP, by: str = defaults.SIMILAR_BY, types=None, *,
                text: str | None = None) -> list[dict]:
        """Papers related to ``paper`` (an id) or to ``text`` (a draft, read on the fly and never
        stored), best first, with the concepts they share (``kg similar``)."""
        from kg.similar import similar_papers

        return similar_papers(self.store, paper, top=top, by=by, types=types, text=text)

    @_kg_errors
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

    @_kg_errors
    def view(self, kind: str = defaults.VIEW, **options):
        """One of the HTML views of ``kg viz`` as a ``visuals.views.View`` (``.render()``, ``.write(path)``);
        ``options`` as ``visuals.views.build_view``: focus, depth, types, top, min_weight, min_papers, size_by."""
        from visuals.layout import check_score
        from visuals.views import build_view

        check_score(options.get("size_by", defaults.SIZE_BY))  # drawn at render, checked now
        return build_view(self.store, kind, **options)

    def serve(self, port: int = 8765, host: str = "127.0.0.1", block: bool = True, log: Callable[[str], None] | None = None):
        """A local, read-only web app over the graph (``kg serve``): search, paper and concept
        pages, the query packs as forms, a read-only Cypher console and the views, at
        ``http://host:port/`` (port 0: a free one). ``block`` serves until interrupted (Ctrl+C);
        else the server runs in a thread and is returned (``.url``, ``.close()``, a context
        manager). ``log`` gets one line per request. A non-loopback ``host`` lets anyone who
        can reach the port read the graph: a ``UserWarning`` (``kg.serve.warning_for``) says so."""
        import warnings

        from kg.serve import make_server, warning_for

        self.store  # a graph to serve, or the error saying there is none, before listening
        if warning_for(host):
            warnings.warn(warning_for(host), UserWarning, stacklevel=2)
        server = make_server(self, host, port, log)
        if not block:
            return server.start()
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
        return server

    @_kg_errors
    def export(self, fmt: str, path: str | Path, citations_only: bool = False) -> list[Path]:
        """Write the graph as graphml, gexf, json or csv (``kg export``); returns the files written."""
        from kg.export import export

        return export(self.store, fmt, Path(path), citations_only)

    @_kg_errors
    def export_records(self, records: Iterable[str], path: str | Path, citations_only: bool = False):
        """Write the neo4j-admin CSV files of the graph ``kg load`` makes of the ``kg extract``
        records in these files, for a fresh Neo4j (``kg export --format csv --records``; this
        graph's store is not used); returns the files and a ``kg.build.BuildReport``."""
        from kg.records_csv import write_records_csv

        return write_records_csv(records, Path(path), citations_only)

    # -- the extractor and the sources (no store) --------------------------------------------
    @_kg_errors
    def eval(self, path: str | Path, baseline: bool = True, processes: int = 1, model: str = defaults.RECOGNISER,
             ner: str | Path | None = None):
        """Score the extractor on a SciERC file (DyGIE JSON), as ``kg eval scierc``: a
        ``kg.evaluation.EvalReport`` (``.table()``, ``.as_dict()``); ``baseline`` scores the
        noun-chunk baseline in the same run; ``ner`` a recogniser written by ``train(output=...)``."""
        from kg.evaluation import evaluate_scierc
        from kg.extract import load_pipeline

        nlp = load_pipeline(ner=ner, recogniser=model)
        try:
            return evaluate_scierc(path, nlp=nlp, baseline=baseline, n_process=processes)
        except (ValueError, KeyError) as err:
            raise BadInput(f"{path}: not SciERC DyGIE JSON ({err})") from err

    @_kg_errors
    def train(self, data: str | Path, output: str | Path | None = None, model: str = defaults.RECOGNISER, *,
              config: str | Path | None = None, max_steps: int | None = None, epochs: int = 20, max_minutes: float = 50,
              threads: int = 2, seed: int = 0, log: Callable[[str], None] | None = None) -> dict:
        """Train a SciERC entity recogniser on ``data`` (SciERC's training split), as ``kg train``:
        ``fast`` (spaCy; ``config``, ``max_steps``) or ``accurate`` (torch fine-tuning; ``epochs``,
        ``max_minutes``, ``threads``, ``seed``, ``log`` gets its progress lines). ``output``
        defaults to the packaged model's folder. Returns what was trained: ``output``,
        ``seconds`` and, for accurate, ``best_epoch`` and ``holdout_f1``."""
        if model == "accurate":
            from kg.training import accurate

            return accurate.train(data, output or accurate.accurate.MODEL_DIR, epochs=epochs, seed=seed,
                                  threads=threads, max_minutes=max_minutes, log=log or (lambda line: None))
        if model != "fast":
            raise BadInput(f"unknown recogniser {model!r}; one of fast, accurate")
        from kg.training import fast

        overrides = {"training.max_steps": max_steps} if max_steps else {}
        return fast.train(data, output or fast.MODEL_DIR, config or fast.CONFIG, overrides)

    @_kg_errors
    def fetch(self, source: str, output: str | Path, *, search: str | None = None, ids: Iterable[str] = (),
              author: str | None = None, limit: int = 100, per_page: int | None = None, base_url: str | None = None,
              resume: bool = False, retries: int = 5, min_interval: float | None = None, mailto: str | None = None,
              on_page: Callable[[int], None] | None = None) -> FetchReport:
        """Fetch paper records from ``openalex`` (``search``, ``ids`` as DOIs, or ``author``) or
        ``arxiv`` (``search`` or ``ids``) into ``output``, a JSON-lines file ``build`` reads, as
        ``kg fetch``; ``resume`` goes on from the cursor an interrupted fetch saved beside it.
        ``on_page`` is called with the records written so far. Needs the network."""
        from kg.fetch import Client, arxiv, openalex

        ids = tuple(ids)
        if source not in FETCH_SOURCES:
            raise BadInput(f"unknown source {source!r}; one of {', '.join(FETCH_SOURCES)}")
        module = openalex if source == "openalex" else arxiv
        if source == "openalex" and sum(bool(x) for x in (search, ids, author)) != 1:
            raise BadInput("give exactly one of --search, --doi or --author (search, ids or author)")
        if source == "arxiv" and (bool(search) == bool(ids) or author):
            raise BadInput("give either --search or --id (search or ids)")
        client = Client(mailto=mailto, min_interval=defaults.FETCH_MIN_INTERVAL[source] if min_interval is None else min_interval,
                        retries=retries)
        common = {"output": Path(output), "limit": limit, "client": client, "resume": resume, "on_page": on_page,
                  "base_url": (base_url or module.DEFAULT_BASE_URL).rstrip("/"),
                  "per_page": per_page or module.MAX_PER_PAGE}
        try:
            if source == "openalex":
                count = openalex.fetch(openalex.Query(search, ids, author), **common)
            else:
                count = arxiv.fetch(search, ids, **common)
        except FetchError as err:
            raise FetchError(f"{err} (after {client.requests} request(s); rerun with --resume to go on)") from err
        except OSError as err:  # the output cannot be written
            raise BadInput(f"{output}: {err.strerror or err}") from err
        return FetchReport(count, client.requests)


def open(db: str | Path | None = None, uri: str | None = None) -> KnowledgeGraph:  # noqa: A001  (as sqlite3.connect)
    """The knowledge graph in the embedded store ``db`` or on the Neo4j server ``uri``."""
    return KnowledgeGraph(db=db, uri=uri)
