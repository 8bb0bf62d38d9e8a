"""The Python API: one object with the verbs of the ``kg`` command line.

As in sqlite-utils, where ``Database(path)`` is the API, ``kg.open()`` returns a
:class:`KnowledgeGraph` over the embedded store in a folder (``db``) or a Neo4j server
(``uri``), usable with or without ``with``. The store is opened on first use, so
``extract`` alone never starts one; only ``build`` and ``load`` create a graph.

>>> import json, pathlib, tempfile, kg
>>> graph = kg.open(db=tempfile.mkdtemp())
>>> lines = pathlib.Path("tests/fixtures/queries_graph.jsonl").read_text(encoding="utf-8").splitlines()
>>> records = [json.loads(line) for line in lines]
>>> papers, vocabulary = graph.load(records)
>>> papers, graph.stats()["nodes"]["Paper"]
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
from pathlib import Path
from typing import Iterable, Iterator

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
        """The open :class:`kg.store.Store` (opened on first use; reading needs a built graph)."""
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

    def __enter__(self) -> KnowledgeGraph:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- building -------------------------------------------------------------------------
    def extract(self, sources: Iterable[str], fmt: str | None = None, processes: int = defaults.PROCESSES) -> Iterator[dict]:
        """The ``kg extract`` records of ``sources``, one per paper, streamed (no store needed)."""
        from kg.build import extract_sources

        return extract_sources(sources, fmt, n_process=processes)

    def build(self, sources: Iterable[str], fmt: str | None = None, processes: int = defaults.PROCESSES):
        """Load, extract and store ``sources`` (``kg build``); returns a ``kg.build.BuildReport``."""
        from kg.build import build

        return build(sources, self._open(create=True), fmt, processes)

    def load(self, records: Iterable[dict]):
        """Store ``kg extract`` records without extracting again; returns (papers, vocabulary report)."""
        from kg.build import load_records

        return load_records(self._open(create=True), records)

    # -- reading ------------------------------------------------------------------------------
    def stats(self) -> dict:
        """``{"nodes": {label: n}, "relationships": {type: n}}`` (``kg stats``)."""
        from kg.store.schema import stats

        return stats(self.store)

    def query(self, name_or_cypher: str, write: bool = False, **params) -> list[dict]:
        """Rows of a pack query by name (``overview/top-concepts``; parameters checked and
        defaulted as ``kg query run`` does) or of ad hoc Cypher; read-only unless ``write``."""
        from queries import get_query

        if "/" in name_or_cypher and " " not in name_or_cypher.strip():
            query = get_query(name_or_cypher)
            return self.store.run(query.cypher, query.bind(params), write=write)
        return self.store.run(name_or_cypher, params, write=write)

    def similar(self, paper: str, top: int = defaults.TOP, **options) -> list[dict]:
        """Papers related to ``paper``, best first, with the concepts they share (``kg similar``)."""
        from kg.similar import similar_papers

        return similar_papers(self.store, paper, top=top, **options)

    def citations(self, verb: str = "top", *, top: int = defaults.TOP, papers_only: bool = False, paper: str | None = None,
                  source: str | None = None, target: str | None = None, undirected: bool = False,
                  alpha: float = defaults.ALPHA) -> list[dict]:
        """Citation analytics (``kg citations VERB``): ``top`` (most cited), ``pagerank``,
        ``cocited``, ``coupled`` (optionally around one ``paper``), ``path`` (``source`` to ``target``)."""
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
        """One of the HTML views of ``kg viz`` as a ``visuals.views.View`` (``.render()``, ``.write(path)``)."""
        from visuals.views import build_view

        return build_view(self.store, kind, **options)

    def export(self, fmt: str, path: str | Path, citations_only: bool = False) -> list[Path]:
        """Write the graph as graphml, gexf, json or csv (``kg export``); returns the files written."""
        from kg.export import export

        return export(self.store, fmt, Path(path), citations_only)


def open(db: str | Path | None = None, uri: str | None = None) -> KnowledgeGraph:  # noqa: A001  (as sqlite3.connect)
    """The knowledge graph in the embedded store ``db`` or on the Neo4j server ``uri``."""
    return KnowledgeGraph(db=db, uri=uri)
