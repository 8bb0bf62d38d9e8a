"""Citation analytics on a small built graph whose answers are known by hand,
through the Python API and the CLI."""

import json

import pytest
from click.testing import CliRunner
from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

from kg.build import build
from kg.citations.analytics import (
    bibliographic_coupling,
    citation_graph,
    citation_path,
    co_citation,
    most_cited,
    pagerank,
)
from kg.cli import main
from kg.errors import PaperNotFound
from kg.rank import pagerank as pagerank_scores

# a cites c, d; b cites c, d, e; c cites d; f cites x (not loaded)
PAPERS = [
    {"id": "a", "title": "Paper A", "year": 2020, "references": ["c", "d"]},
    {"id": "b", "title": "Paper B", "year": 2021, "references": ["c", "d", "e"]},
    {"id": "c", "title": "Paper C", "year": 2015, "references": ["d"]},
    {"id": "d", "title": "Paper D", "year": 2010},
    {"id": "e", "title": "Paper E", "year": 2012},
    {"id": "f", "title": "Paper F", "year": 2022, "references": ["x"]},
]


@pytest.fixture(scope="module")
def cited(session_store, module_graphs, request, tmp_path_factory):
    source = tmp_path_factory.mktemp("cited") / "papers.jsonl"
    source.write_text("\n".join(json.dumps(p) for p in PAPERS) + "\n", encoding="utf-8")

    def load(store):
        store.run("MATCH (n) DETACH DELETE n", write=True)
        build([str(source)], store)

    module_graphs.keep(request, load)
    return citation_graph(session_store)


def test_graph_has_papers_and_references(cited):
    assert sorted(cited.nodes) == ["a", "b", "c", "d", "e", "f", "x"]
    assert cited.nodes["x"]["kind"] == "reference" and cited.nodes["a"]["title"] == "Paper A"
    assert sorted(cited.edges) == [("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("b", "e"), ("c", "d"), ("f", "x")]


def test_most_cited_and_pagerank(cited):
    assert [(r["id"], r["citations"]) for r in most_cited(cited, top=4)] == [("d", 3), ("c", 2), ("e", 1), ("x", 1)]
    assert [r["id"] for r in most_cited(cited, top=5, kind="paper")] == ["d", "c", "e"]
    ranked = pagerank(cited, top=3)
    # d is cited most; x gets all of f's vote, c shares a's and b's with others
    assert [r["id"] for r in ranked] == ["d", "x", "c"] and ranked[0]["citations"] == 3
    # igraph's PageRank (the one kg has) against networkx's pure-Python power iteration
    ours, reference = pagerank_scores(cited), _pagerank_python(cited, tol=1e-12, max_iter=500)
    assert all(abs(ours[n] - reference[n]) < 1e-6 for n in cited)
    undirected = pagerank_scores(cited.to_undirected())
    assert undirected["x"] < ours["x"] and abs(sum(undirected.values()) - 1) < 1e-9  # undirected: x no sink of f's rank
    assert abs(sum(ours.values()) - 1) < 1e-9


def test_co_citation_and_coupling(cited):
    assert [(r["a"], r["b"], r["count"]) for r in co_citation(cited, top=3)] == [("c", "d", 2), ("c", "e", 1), ("d", "e", 1)]
    assert [(r["b"], r["count"]) for r in co_citation(cited, paper="e")] == [("c", 1), ("d", 1)]
    assert [(r["a"], r["b"], r["count"]) for r in bibliographic_coupling(cited, top=3)] == [("a", "b", 2), ("a", "c", 1), ("b", "c", 1)]
    assert [(r["b"], r["count"]) for r in bibliographic_coupling(cited, paper="a")] == [("b", 2), ("c", 1)]
    with pytest.raises(PaperNotFound, match="'nope' is not a paper or reference"):
        co_citation(cited, paper="nope")


def test_citation_paths(cited):
    assert citation_path(cited, "a", "d") == ["a", "d"]
    assert citation_path(cited, "f", "x") == ["f", "x"]
    assert citation_path(cited, "e", "a") is None
    # backwards too: e <- b -> (c or d) <- a, three steps
    undirected = citation_path(cited, "e", "a", directed=False)
    assert undirected[:2] == ["e", "b"] and undirected[2] in ("c", "d") and undirected[3:] == ["a"]


def test_cli(cited, store_dir):
    runner = CliRunner()
    db = ["--db", str(store_dir)]
    top = runner.invoke(main, ["citations", "top", "--top", "2", "--format", "json", *db])
    assert top.exit_code == 0, top.output
    assert [(r["id"], r["citations"]) for r in json.loads(top.output)] == [("d", 3), ("c", 2)]
    papers_only = runner.invoke(main, ["citations", "top", "--papers-only", "--top", "9", "--format", "json", *db])
    assert "x" not in [r["id"] for r in json.loads(papers_only.output)]
    pair = runner.invoke(main, ["citations", "coupled", "--top", "1", "--format", "csv", *db])
    assert pair.exit_code == 0 and pair.output.splitlines()[1].startswith("a,Paper A,b,Paper B,2")
    cocited = runner.invoke(main, ["citations", "cocited", "--paper", "c", *db])
    assert cocited.exit_code == 0 and "Paper D" in cocited.output
    path = runner.invoke(main, ["citations", "path", "e", "a", "--undirected", "--format", "json", *db])
    steps = [r["id"] for r in json.loads(path.output)]
    assert len(steps) == 4 and steps[0] == "e" and steps[-1] == "a"
    none = runner.invoke(main, ["citations", "path", "e", "a", *db])
    assert none.exit_code == 1 and "no citation path from e to a" in none.output
    unknown = runner.invoke(main, ["citations", "pagerank", "--format", "json", *db])
    assert json.loads(unknown.output)[0]["id"] == "d"
    missing = runner.invoke(main, ["citations", "coupled", "--paper", "nope", *db])
    assert missing.exit_code == 1 and "'nope' is not a paper" in missing.output


def test_every_citation_command_explains_itself():
    for args in (["citations"], ["citations", "top"], ["citations", "pagerank"], ["citations", "cocited"],
                 ["citations", "coupled"], ["citations", "path"], ["export"]):
        result = CliRunner().invoke(main, [*args, "--help"])
        assert result.exit_code == 0 and "Example" in result.output, args
