"""References keep the first author, year and title their source gives (Semantic Scholar's
``citedPaper`` objects), and every place that names a cited work shows them: the views,
``kg citations``, and the citation pack queries. A reference known by its id alone shows the id."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from helpers.packs import run_pack

from kg.build import build
from kg.cli import main
from visuals.views import build_view

SOURCE = FIXTURES / "s2_references.jsonl"
ATTENTION = "s2:204e3073870fae3d05bcbc2f6a8e263d9b72e776"
BARE = "s2:0b0cf8b3a1c4d9e7f6a5b4c3d2e1f0a9b8c7d6e5"


@pytest.fixture(scope="module")
def built(session_store, module_graphs, request):
    def load(store):
        store.run("MATCH (n) DETACH DELETE n", write=True)
        build([str(SOURCE)], store)

    module_graphs.keep(request, load)
    return session_store



def test_references_keep_what_the_source_says_about_them(built):
    rows = built.run("MATCH (r:Reference) RETURN r.key AS key, r.title AS title, r.authors AS authors, r.year AS year "
                     "ORDER BY key")
    by_key = {r["key"]: r for r in rows}
    assert by_key[ATTENTION] == {"key": ATTENTION, "title": "Attention Is All You Need",
                                 "authors": ["Ashish Vaswani", "Noam Shazeer"], "year": 2017}
    assert by_key[BARE]["title"] is None and by_key[BARE]["authors"] == []


def test_views_label_references_by_author_year_and_title(built):
    graph = build_view(built, "citations").graph
    assert graph.nodes[ATTENTION]["label"] == "Vaswani 2017: Attention Is All…"
    assert graph.nodes[ATTENTION]["title"].startswith("Ashish Vaswani, Noam Shazeer (2017)\nAttention Is All You Need\n"
                                                      "cited by 3 loaded papers")
    assert graph.nodes[BARE]["label"] == BARE   # the id only when the source says nothing more


def test_kg_citations_and_the_pack_queries_show_the_titles(built, store_dir):
    result = CliRunner().invoke(main, ["citations", "top", "--format", "json", "--db", str(store_dir)])
    assert result.exit_code == 0, result.output
    top = json.loads(result.output)
    assert top[0] == {"id": ATTENTION, "kind": "reference", "title": "Attention Is All You Need", "year": 2017,
                      "citations": 3}
    assert next(r for r in top if r["id"] == BARE)["title"] is None
    most = run_pack(built, "citations/most-cited", {})
    assert (most[0]["id"], most[0]["title"], most[0]["year"]) == (ATTENTION, "Attention Is All You Need", 2017)
    pairs = run_pack(built, "citations/co-citation", {"work": ATTENTION})
    assert pairs[0]["title"].startswith("BERT: Pre-training")


def test_json_records_may_give_reference_details_and_bad_ones_are_reported_skips(tmp_path):
    from loaders import LoadReport, load

    source = tmp_path / "papers.jsonl"
    source.write_text(
        json.dumps({"id": "a", "title": "A", "abstract": "Text.", "references": ["r1"],
                    "reference_details": {"r1": {"title": "Old Work", "authors": "Lee, Ann; Kim, Bo", "year": "1999"}}})
        + "\n" + json.dumps({"id": "b", "title": "B", "abstract": "Text.", "reference_details": ["r1"]}) + "\n",
        encoding="utf-8")
    report = LoadReport()
    papers = list(load([str(source)], report=report))
    assert [p.id for p in papers] == ["a"]
    assert papers[0].reference_details == {"r1": {"title": "Old Work", "authors": ["Lee, Ann", "Kim, Bo"], "year": 1999}}
    assert report.skipped == [f"{source}: line 2: reference_details must map each reference key to {{title, authors, year}}"]
