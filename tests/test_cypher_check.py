"""Every statement kg sends passes Neo4j's own parser and semantic analysis.

The CLI (and the API, for a build interrupted by its progress callback) runs on the session's
embedded store with ``KG_CAPTURE_CYPHER`` on (``kg.store.capture``: the statements really run,
against ArcadeDB): a build (a title-only paper among its papers), the same build again, an incremental one (a changed paper, references
that become papers, an acronym two papers define differently), a build after an interrupted one
and on a graph an older kg left, a ``kg load`` of records, the counts, every pack query with its
example parameters, ``kg similar`` by each signal, every view (and the whole-graph ones as a large graph reads them), the citation analytics and every
export. Each distinct statement (the final text: labels and types assembled in Python included;
those that differ only in plain label and type names once) and the names of the parameters sent
with it go to ``@neo4j-cypher/language-support``
(tests/cypher_check: pinned by its package-lock.json, installed by ``npm ci`` there, as .ci/run
does) as Cypher 5: no error, and no warning but the deprecations docs/stores.md lists ("Checked by
Neo4j's Cypher analysis"). Every Cypher constant of the store layer and every pack is among the
statements checked, so a new one that no operation here sends fails.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import warnings
from collections import defaultdict

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT
from helpers.cypher_capture import (
    capturing,
    checker_missing,
    neo4j_analysis,
    read_captured,
    sent_as,
    store_layer_statements,
)
from test_similar import VECTORS_ON_PAPERS
from test_vocabulary import record

import kg
from kg.cli import main
from kg.store import open_store
from kg.store.reads.citations import most_citing
from kg.store.reads.concepts import most_named
from queries import list_queries

pytestmark = pytest.mark.skipif(checker_missing() is not None, reason=checker_missing() or "")

# The warnings Neo4j's analysis gives kg's statements, each listed in docs/stores.md; any other fails.
# CALL { ... } without a scope clause: deprecated in Neo4j 5.23+, which still runs it; the scoped
# CALL () { ... } would be refused by Neo4j before 5.23.
KNOWN_WARNINGS = ("CALL subquery without a variable scope clause is deprecated.",)

# The builds' sources. first: s1 defines SAT, s3 writes it; s2 and s3 are both "smith-2020", which s4 cites in its text;
# s1 cites m1 (not loaded yet) and s3 by DOI. more: m1..m4 (m3 defines SAT otherwise, m4 adds a broader concept),
# s1 extracted again from a new abstract, s2 as a title-only record. last: two more papers.
SOURCES = FIXTURES / "cypher_check"
RECORDS = str(FIXTURES / "queries_graph.jsonl")  # pA..pF, hand-made: every pack finds rows in it
PAPER, CONCEPT = "pB", "Transformer"
# What a kg from before concept totals left (as tests/test_vocabulary.py makes it), and what another tool may write:
# run before an operation, not captured.
OLDER_KG = ["MATCH (c:Concept) REMOVE c.mentions, c.years, c.year_papers",
            "MATCH (p:Paper) REMOVE p.stamp SET p.linked = true", "MATCH (s:BuildState) DELETE s",
            "MATCH (t:Term) REMOVE t.df", "MATCH (s:TextIndex) REMOVE s.df_kept"]
ANOTHER_TOOL = ["CREATE (:`Imported work` {id: 'x1'})-[:`CITED BY`]->(:`Imported work` {id: 'x2'})"]


class Interrupted(Exception):
    """A build stopped after storing its batch, before its vocabulary pass (Ctrl-C in the progress bar)."""


def interrupted_build(db: str) -> None:
    def stop(record):
        raise Interrupted(record["id"])

    with kg.open(db=db) as graph, pytest.raises(Interrupted):
        graph.build([str(SOURCES / "last.jsonl")], on_paper=stop)


def browse(db: str) -> None:
    """Every page of ``kg serve`` over the graph, as a browser asks for them."""
    pages = ["/", "/search?q=transformer", "/search?q=summarizing", f"/paper?id={PAPER}", f"/similar?id={PAPER}",
             f"/concept?id={CONCEPT}", f"/graph?kind=paper&id={PAPER}", f"/graph?kind=concept&id={CONCEPT}",
             "/work?id=lee-2019", "/queries", "/query?name=papers/find&run=1&p_text=graph",
             "/cypher?text=MATCH+(p:Paper)+RETURN+p.id+LIMIT+1", f"/views?view=paper&focus={PAPER}"]
    with kg.open(db=db) as graph, graph.serve(port=0, block=False) as server:
        for page in pages:
            try:
                urllib.request.urlopen(server.url.rstrip("/") + page, timeout=120).read()
            except urllib.error.HTTPError as err:
                assert err.code == 404, (page, err.code)  # a page of what this small graph lacks


def large_graph_views(db: str) -> None:
    """The whole-graph views as they read a graph of more than ``WHOLE_GRAPH_PAPERS`` papers."""
    import visuals.views

    whole, visuals.views.WHOLE_GRAPH_PAPERS = visuals.views.WHOLE_GRAPH_PAPERS, 0
    try:
        with kg.open(db=db) as graph:
            for view in ("overview", "cooccurrence", "similarity"):
                graph.view(view)
    finally:
        visuals.views.WHOLE_GRAPH_PAPERS = whole


def broad_concepts(db: str) -> None:
    """The counts kept as on a graph whose concepts are broad (every concept of two or more papers),
    and a profile that reads them."""
    from kg.store.counts import keep_counts

    with open_store(db) as store:
        keep_counts(store, broad=1)
    with kg.open(db=db) as graph:
        graph.query("concepts/profile", concept=CONCEPT, top=3)


def bench_reads(db: str) -> None:
    """The named reads only the benchmarks make (``bench/scale.py`` and ``bench/load.py`` pick papers and concepts by them)."""
    with open_store(db) as store:
        most_named(store, 5), most_citing(store, 5)


def operations(tmp) -> dict[str, tuple[list[str], list]]:
    """Each operation: the writes that prepare it (not captured), and the ``kg`` commands it runs
    (without ``--db``) or functions of the store's folder."""
    packs = [["query", "run", q.name, *[arg for pair in q.example_values().items() for arg in ("-p", "=".join(pair))]]
             for q in list_queries()]
    views = [["viz", "--view", "overview", "-o", f"{tmp}/overview.html"],
             ["viz", "--view", "overview", "--size", "degree", "--types", "Method,Task", "-o", f"{tmp}/overview2.html"],
             ["viz", "--view", "paper", "--focus", PAPER, "-o", f"{tmp}/paper.html"],
             ["viz", "--view", "paper", "--focus", "Summarizing biomedical papers", "--depth", "3", "-o", f"{tmp}/paper2.html"],
             ["viz", "--view", "concept", "--focus", CONCEPT, "--depth", "3", "-o", f"{tmp}/concept.html"],
             ["viz", "--view", "cooccurrence", "--types", "Method,Task", "--min-weight", "1", "-o", f"{tmp}/cooccurrence.html"],
             ["viz", "--view", "similarity", "--min-weight", "0.5", "-o", f"{tmp}/similarity.html"],
             ["viz", "--view", "citations", "-o", f"{tmp}/citations.html"],
             ["viz", "--view", "citations", "--focus", "pD", "-o", f"{tmp}/citations2.html"]]
    exports = [["export", "--format", fmt, "-o", f"{tmp}/graph.{fmt}"] for fmt in ("graphml", "gexf", "json")]
    exports += [["export", "--format", "csv", "-o", f"{tmp}/csv"],
                ["export", "--format", "graphml", "--citations-only", "-o", f"{tmp}/citations.graphml"]]
    # "Ruiz (2018)" names ruiz-a, from citer (whose reference list names it too) and other; then ruiz-b answers to it too
    author_year = {json.loads(line)["id"]: line for line in (FIXTURES / "author_year.jsonl").read_text().splitlines()}
    for name, ids in (("one-ruiz", ["ruiz-a", "citer", "other"]), ("two-ruiz", ["ruiz-b"])):
        (tmp / f"{name}.jsonl").write_text("".join(author_year[i] + "\n" for i in ids), encoding="utf-8")
    # "mixer" read as a Task by one paper, then as a Method by two more: the later load relabels it
    for name, papers in (("task", [("p-mix1", "Task")]), ("method", [("p-mix2", "Method"), ("p-mix3", "Method")])):
        lines = [json.dumps(record(pid, "A mixer of tokens.", ("mixer", type_))) + "\n" for pid, type_ in papers]
        (tmp / f"mixer-{name}.jsonl").write_text("".join(lines), encoding="utf-8")
    return {
        "build": ([], [["build", str(SOURCES / "first.jsonl")]]),
        "rebuild": ([], [["build", str(SOURCES / "first.jsonl")]]),
        "incremental build": ([], [["build", str(SOURCES / "more.jsonl")]]),
        "interrupted build": ([], [interrupted_build]),
        "build after an interrupted one": ([], [["build", str(SOURCES / "last.jsonl")]]),
        "similar on an older kg's graph": ([*VECTORS_ON_PAPERS, "MATCH (s:BuildState) SET s.dense_version = 'older'"],
                                           [["similar", "s1", "--by", "dense"]]),
        "build on an older kg's graph": (OLDER_KG, [["build", str(SOURCES / "last.jsonl")]]),
        "load records": ([], [["load", RECORDS]]),
        "stats": ([], [["stats"], ["stats", "--recount"]]),
        "packs": ([], packs),
        "similar": ([], [["similar", PAPER, "--by", by] for by in ("all", "concepts", "text", "dense", "citations")]
                    + [["similar", PAPER, "--types", "Method,Dataset"],
                       ["similar", "--text", "We summarize biomedical papers with a sparse Transformer."]]),
        "views": ([], views),
        "views of a large graph": ([], [large_graph_views]),
        "counts of a graph of broad concepts": ([], [broad_concepts]),
        "citations": ([], [["citations", verb] for verb in ("top", "pagerank")]
                      + [["citations", "top", "--papers-only"], ["citations", "cocited", "--paper", "pA"],
                         ["citations", "coupled"], ["citations", "path", "pF", "pA"]]),
        "exports": ([], exports),
        "kg serve": ([], [browse]),
        "benchmarks' reads": ([], [bench_reads]),
        "recount after another tool wrote": (ANOTHER_TOOL, [["stats", "--recount"]]),
        "an author-year key that names a second paper": ([], [["build", str(tmp / "one-ruiz.jsonl")],
                                                              ["build", str(tmp / "two-ruiz.jsonl")]]),
        "a later load that votes a concept another type": ([], [["load", str(tmp / "mixer-task.jsonl")],
                                                                ["load", str(tmp / "mixer-method.jsonl")]]),
    }


@pytest.fixture(scope="module")
def captured(session_store, store_dir, tmp_path_factory) -> dict[tuple, set[str]]:
    """Each distinct (statement, parameter names) sent, with the operations that sent it. The graph
    these commands build is not kept for other tests: every test here reads the capture only."""
    session_store.run("MATCH (n) DETACH DELETE n", write=True)
    tmp = tmp_path_factory.mktemp("cypher-check")
    runner = CliRunner()
    sent: dict[tuple, set[str]] = defaultdict(set)
    for operation, (writes, calls) in operations(tmp).items():
        for write in writes:
            session_store.run(write, write=True)
        with capturing(tmp / f"{operation}.jsonl") as path:
            for call in calls:
                if callable(call):
                    call(str(store_dir))
                    continue
                result = runner.invoke(main, [*call, "--db", str(store_dir)])
                assert result.exit_code == 0, (call, result.output)
        statements = read_captured(path)
        assert statements, f"{operation} sent no statement"
        for statement in statements:
            sent[statement["query"], tuple(statement["params"])].add(operation)
    return sent


# A label or relationship type written plainly (kg's own, from its whitelists): Neo4j's analysis reads every one
# alike, so statements that differ only in them are checked once (one count query a label). Quoted names stay.
PLAIN_NAME = re.compile(r"(?<=[:|])[A-Z][A-Za-z_]*\b")


@pytest.fixture(scope="module")
def analysis(captured, tmp_path_factory) -> list[dict]:
    """Each statement with the operations that sent it and Neo4j's errors and warnings (also written
    to the test's folder, analysis.json, to read when one fails). Statements that differ only in plain
    label and relationship type names are analysed in the first of them, in the name of all."""
    shapes: dict[tuple, list[tuple]] = defaultdict(list)
    for query, params in sorted(captured):
        shapes[PLAIN_NAME.sub("L", query), params].append((query, params))
    groups = list(shapes.values())  # the statements that read alike, the first analysed
    statements = [{"query": same[0][0], "params": list(same[0][1])} for same in groups]
    result = neo4j_analysis(statements)
    checked = [dict(statements[r["index"]], sent_by=sorted(set().union(*(captured[key] for key in groups[r["index"]]))),
                    alike=len(groups[r["index"]]), version=r["version"], errors=r["errors"], warnings=r["warnings"])
               for r in result["results"]]
    path = tmp_path_factory.mktemp("cypher-analysis") / "analysis.json"
    path.write_text(json.dumps({"package": result["package"], "statements": checked}, indent=1), encoding="utf-8")
    print(f"\n{len(captured)} distinct statements ({len(statements)} up to label names) checked by {result['package']}: {path}")
    return checked


def named(statement: str) -> str:
    """A pack query's name, else the statement's first line."""
    packs = {q.cypher.strip(): q.name for q in list_queries()}
    return packs.get(statement.strip()) or statement.strip().splitlines()[0][:80]


def test_the_checker_finds_what_neo4j_would_refuse():
    """The check can fail: a syntax error, an undefined variable, a parameter not sent, a plugin's function."""
    bad = [{"query": "MATCH (p:Paper) RETRN p", "params": []},
           {"query": "MATCH (p:Paper) RETURN q", "params": []},
           {"query": "MATCH (p:Paper {id: $id}) RETURN p", "params": []},
           {"query": "RETURN apoc.coll.sum([1, 2]) AS n", "params": []},
           {"query": "MATCH (p:Paper {id: $id}) CALL { WITH p RETURN p.title AS title } RETURN title", "params": ["id"]}]
    results = neo4j_analysis(bad, ("CYPHER 5", "CYPHER 25"))["results"]
    errors = {(r["index"], r["version"]): [e["message"] for e in r["errors"]] for r in results}
    deprecated = {(r["index"], r["version"]): [w["message"] for w in r["warnings"] if w.get("deprecated")] for r in results}
    for version in ("CYPHER 5", "CYPHER 25"):
        assert "Invalid input 'RETRN'" in errors[0, version][0]
        assert errors[1, version] == ["Variable `q` not defined"]
        assert errors[2, version] == ["Parameter $id is not defined."]
        assert errors[3, version][0].startswith("Function apoc.coll.sum is not present in the database")
        assert errors[4, version] == []
        assert deprecated[4, version] == ["CALL subquery without a variable scope clause is deprecated. Use CALL (p) { ... }"]


def test_every_statement_of_the_store_layer_and_every_pack_is_checked(captured):
    statements = {query for query, _ in captured}
    assert [name for name, text in store_layer_statements().items() if not sent_as(text, statements)] == []
    assert [q.name for q in list_queries() if q.cypher not in statements] == []
    operations = set().union(*captured.values())
    assert {"build", "rebuild", "incremental build", "packs", "similar", "views", "exports"} <= operations


def test_neo4j_finds_no_error_in_any_statement_kg_sends(analysis):
    errors = [(named(s["query"]), s["sent_by"], e["message"], s["query"]) for s in analysis for e in s["errors"]]
    assert errors == []


def test_its_warnings_are_the_deprecations_the_readme_lists(analysis):
    warned = [(named(s["query"]), w) for s in analysis for w in s["warnings"]]
    assert [(name, w["message"]) for name, w in warned if not w["message"].startswith(KNOWN_WARNINGS)] == []
    documented = (ROOT / "docs" / "stores.md").read_text(encoding="utf-8")
    assert all(known in documented for known in KNOWN_WARNINGS)
    listing = sorted({f"{name} (line {w['line']}): {w['message']}" for name, w in warned})
    print("\n".join(["Deprecated in Neo4j's analysis:", *listing]))
    if listing:
        warnings.warn(f"{len(listing)} deprecation(s) in kg's Cypher (docs/stores.md, Checked by Neo4j's Cypher analysis): "
                      + "; ".join(listing), stacklevel=1)
