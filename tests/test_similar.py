"""``kg similar`` and ``kg.similar``: the IDF-weighted ranking of papers sharing concepts, on the fixture graph."""

import json
import math

import pytest
from click.testing import CliRunner
from test_queries import TITLES, load_fixture

from kg.cli import main
from kg.similar import PaperNotFound, as_json, concept_types, similar_papers
from queries import QueryError, get_query


@pytest.fixture(scope="module")
def db(session_store, store_dir):
    load_fixture(session_store)
    return str(store_dir)


def w(df: int) -> float:
    return math.log(1 + 6 / df)  # 6 papers in the fixture graph


def test_rare_shared_concepts_weigh_more_than_common_ones(db, session_store):
    ranked = similar_papers(session_store, "pC")
    # pE shares BERT and question answering (2 papers each); pA and pB share NLP (3) and Transformer (4)
    assert [(r["id"], round(r["score"], 3)) for r in ranked] == [
        ("pE", round(2 * w(2), 3)), ("pA", round(w(3) + w(4), 3)), ("pB", round(w(3) + w(4), 3)), ("pD", round(w(4), 3))]
    assert ranked[0]["title"] == TITLES["pE"]
    assert [(s["name"], s["type"]) for s in ranked[1]["shared"]] == [("natural language processing", "Domain"),
                                                                      ("Transformer", "Method")]
    assert [s["weight"] for s in ranked[1]["shared"]] == pytest.approx([w(3), w(4)], abs=1e-4)
    # each score is the sum of the weights it lists
    assert all(r["score"] == pytest.approx(sum(s["weight"] for s in r["shared"]), abs=1e-3) for r in ranked)


def test_the_api_and_the_pack_query_rank_alike(db, session_store):
    query = get_query("papers/similar")
    for paper, types in (("pB", []), ("pE", ["Method", "Task"]), ("pD", ["Dataset"])):
        packed = session_store.run(query.cypher, query.bind({"paper": paper, "top": 10, "types": types}))
        assert similar_papers(session_store, paper, top=10, types=types) == packed


def test_types_and_top_narrow_the_ranking(db, session_store):
    assert [r["id"] for r in similar_papers(session_store, "pE", types=["dataset"])] == ["pD"]
    assert [r["id"] for r in similar_papers(session_store, "pE", top=1)] == ["pD"]
    assert similar_papers(session_store, "pF") == []  # a paper without concepts shares nothing
    assert concept_types([" method", "DOMAIN"]) == ["Method", "Domain"]
    with pytest.raises(QueryError, match="unknown concept type 'Model'; known: Method, Task, Dataset, Metric, Domain"):
        similar_papers(session_store, "pE", types=["Model"])
    with pytest.raises(QueryError, match="top must be at least 1"):
        similar_papers(session_store, "pE", top=0)
    with pytest.raises(PaperNotFound, match="no paper with id 'p-missing'"):
        similar_papers(session_store, "p-missing")


def test_json_output_has_the_documented_shape(db):
    result = CliRunner().invoke(main, ["similar", "pB", "--top", "2", "--format", "json", "--db", db])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [
        {"id": "pA", "title": TITLES["pA"], "score": round(4 * w(2) + w(3) + w(4), 4), "shared": [
            {"name": "arXiv", "type": "Dataset"}, {"name": "ROUGE", "type": "Metric"}, {"name": "SparseFormer", "type": "Method"},
            {"name": "summarization", "type": "Task"}, {"name": "natural language processing", "type": "Domain"},
            {"name": "Transformer", "type": "Method"}]},
        {"id": "pC", "title": TITLES["pC"], "score": round(w(3) + w(4), 4), "shared": [
            {"name": "natural language processing", "type": "Domain"}, {"name": "Transformer", "type": "Method"}]}]
    assert as_json([{"id": "x", "title": None, "score": 1.0, "shared": [{"name": "a", "type": "Task", "weight": 1.0}]}]) == [
        {"id": "x", "title": None, "score": 1.0, "shared": [{"name": "a", "type": "Task"}]}]


def test_table_output_explains_each_score(db):
    result = CliRunner().invoke(main, ["similar", "pE", "--types", "Method,Task", "--db", db])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"Papers sharing concepts with pE: {TITLES['pE']}"
    assert lines[3:9] == [
        f" 1.   {2 * w(2):.3f}  pC  {TITLES['pC']}", f"{'':>13}{w(2):>6.2f}  BERT (Method)",
        f"{'':>13}{w(2):>6.2f}  question answering (Task)",
        f" 2.   {2 * w(2):.3f}  pD  {TITLES['pD']}", f"{'':>13}{w(2):>6.2f}  GraphNet (Method)",
        f"{'':>13}{w(2):>6.2f}  node classification (Task)"]
    lonely = CliRunner().invoke(main, ["similar", "pF", "--db", db])
    assert lonely.exit_code == 0 and "(no paper shares a concept with it)" in lonely.output


def test_bad_input_is_a_clear_error_with_exit_1(db):
    runner = CliRunner()
    missing = runner.invoke(main, ["similar", "p-missing", "--db", db])
    assert missing.exit_code == 1 and "Error: no paper with id 'p-missing'" in missing.output
    assert "Traceback" not in missing.output and "papers/find" in missing.output
    bad_type = runner.invoke(main, ["similar", "pB", "--types", "Method,Models", "--db", db])
    assert bad_type.exit_code == 1 and "unknown concept type 'Models'" in bad_type.output
    assert runner.invoke(main, ["similar", "pB", "--top", "0", "--db", db]).exit_code == 2
    helped = runner.invoke(main, ["similar", "--help"])
    assert helped.exit_code == 0 and "Example" in helped.output and "ln(1 + N/df)" in helped.output
