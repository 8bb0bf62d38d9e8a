"""``kg query`` through click's test runner, on the fixture graph in the embedded store, and every example on the demo."""

import json
import shlex

import pytest
from click.testing import CliRunner
from test_queries import TITLES, load_fixture

from kg.cli import main
from queries import get_query, list_queries


@pytest.fixture(scope="module")
def db(session_store, store_dir, module_graphs, request):
    """The fixture graph, served by the session's embedded server (commands on --db reuse it)."""
    module_graphs.keep(request, load_fixture)
    return str(store_dir)


def kg(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_query_commands_explain_themselves_with_an_example():
    for args in (["query", "--help"], ["query", "list", "--help"], ["query", "show", "--help"], ["query", "run", "--help"],
                 ["query", "cypher", "--help"]):
        result = kg(*args)
        assert result.exit_code == 0 and "Example" in result.output, args


def test_list_names_every_query_with_its_parameters():
    listed = kg("query", "list")
    assert listed.exit_code == 0
    lines = listed.output.splitlines()
    assert [line.split()[0] for line in lines] == [q.name for q in list_queries()]
    assert any(line.startswith("papers/similar ") and "[paper:str top:int=10 types:list=[]]" in line for line in lines)
    as_json = json.loads(kg("query", "list", "--format", "json").output)
    profile = next(q for q in as_json if q["name"] == "concepts/profile")
    assert profile["params"][0] == {"name": "concept", "type": "str", "required": True, "default": None,
                                    "description": "a concept id (bert), name or alias, in any case"}


def test_show_gives_parameters_example_and_a_browser_script():
    shown = kg("query", "show", "papers/similar")
    assert shown.exit_code == 0
    out = shown.output
    assert "papers/similar: Papers ranked by the concepts they share" in out
    assert "  types        list   default []" in out and "Example:\n  kg query run papers/similar" in out
    assert ":param paper => 'p-198679ab53b48580'\n:param top => 10\n:param types => ['Method', 'Task']\n" in out
    browser = kg("query", "show", "concepts/profile", "-p", "concept=BERT", "--browser")
    assert browser.output == get_query("concepts/profile").browser_script({"concept": "BERT"}) + "\n"
    assert browser.output.startswith(":param concept => 'BERT'\n:param top => 5\n:param papers => 50\n\nCALL {")
    assert kg("query", "show", "papers/nope").exit_code == 1


def test_run_in_every_format(db):
    as_json = kg("query", "run", "papers/sharing-concepts", "-p", "paper=pB", "-p", "top=2", "--format", "json", "--db", db)
    assert as_json.exit_code == 0, as_json.output
    assert [(r["id"], r["shared_count"]) for r in json.loads(as_json.output)] == [("pA", 6), ("pC", 2)]
    as_csv = kg("query", "run", "concepts/method-dataset-matrix", "-p", "min_papers=2", "--format", "csv", "--db", db)
    assert as_csv.output.splitlines() == ["method,dataset,papers,ids", 'GraphNet,Cora,2,"[""pD"", ""pE""]"',
                                          'SparseFormer,arXiv,2,"[""pA"", ""pB""]"', 'Transformer,arXiv,2,"[""pA"", ""pB""]"']
    table = kg("query", "run", "papers/find", "-p", "text=graph", "--db", db)
    assert table.output.splitlines()[0].split() == ["id", "title", "year", "venue"]
    assert table.output.splitlines()[2].split()[0] == "pE"


def test_rows_holding_lists_of_maps_print_one_field_per_line(db):
    result = kg("query", "run", "concepts/profile", "-p", "concept=graphnet", "--db", db)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("-[ 1 ]")
    assert lines[1:6] == ["id            graphnet", "name          GraphNet", "type          Method", "aliases",
                          "paper_count   2"]
    assert lines[6] == f"papers        pE ({TITLES['pE']}, 2024, USES)"
    assert lines[7] == f"              pD ({TITLES['pD']}, 2023, PROPOSES)"
    at = lines.index("co_occurring  accuracy (Metric, 2)")
    assert lines[at + 1] == "              Cora (Dataset, 2)"


def test_run_checks_parameters_and_arguments(db):
    bad = kg("query", "run", "papers/similar", "-p", "paper=pB", "-p", "top=lots", "--db", db)
    assert bad.exit_code == 1 and "parameter top expects int, got 'lots'" in bad.output and "Traceback" not in bad.output
    missing = kg("query", "run", "citations/paths", "-p", "citing=pF", "--db", db)
    assert missing.exit_code == 1 and "parameter cited (str) is required" in missing.output
    unknown = kg("query", "run", "papers/similar", "-p", "paper=pB", "-p", "colour=red", "--db", db)
    assert unknown.exit_code == 1 and "unknown parameter(s) colour" in unknown.output
    assert kg("query", "run", "papers/similar", "-p", "paper", "--db", db).exit_code == 2
    assert kg("query", "run", "--db", db).exit_code == 2
    both = kg("query", "run", "papers/similar", "-f", "x.cypher", "--db", db)
    assert both.exit_code == 2 and "one of them" in both.output


def count_papers(store) -> int:
    return store.run("MATCH (p:Paper) RETURN count(p) AS n")[0]["n"]


def test_run_a_users_own_file_read_only_unless_write(db, session_store, tmp_path):
    mine = tmp_path / "by-year.cypher"
    mine.write_text("// description: Papers of one year.\n// param: year int\n"
                    "MATCH (p:Paper {year: $year}) RETURN p.id AS id ORDER BY id\n", encoding="utf-8")
    result = kg("query", "run", "-f", str(mine), "-p", "year=2022", "--format", "json", "--db", db)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"id": "pB"}, {"id": "pC"}]
    writer = tmp_path / "add.cypher"
    writer.write_text("CREATE (:Paper {id: 'zz-added'}) RETURN 1 AS done\n", encoding="utf-8")
    refused = kg("query", "run", "-f", str(writer), "--db", db)
    assert refused.exit_code == 1 and "this query writes (CREATE)" in refused.output and "--write" in refused.output
    assert count_papers(session_store) == 6
    allowed = kg("query", "run", "-f", str(writer), "--write", "--db", db)
    assert allowed.exit_code == 0, allowed.output
    assert count_papers(session_store) == 7
    session_store.run("MATCH (p:Paper {id: 'zz-added'}) DELETE p", write=True)
    absent = kg("query", "run", "-f", str(tmp_path / "absent.cypher"), "--db", db)
    assert absent.exit_code == 1 and "absent.cypher" in absent.output


def test_ad_hoc_cypher_is_read_only_unless_write(db, session_store):
    read = kg("query", "cypher", "MATCH (p:Paper) WHERE p.year >= $since RETURN p.id AS id, $tag AS tag ORDER BY id",
              "-p", "since=2023", "-p", "tag=new", "--format", "json", "--db", db)
    assert read.exit_code == 0, read.output
    assert json.loads(read.output) == [{"id": "pD", "tag": "new"}, {"id": "pE", "tag": "new"}]
    from_stdin = kg("query", "cypher", "-", "--format", "csv", "--db", db, input="MATCH (p:Paper) RETURN count(p) AS papers")
    assert from_stdin.output == "papers\n6\n"
    refused = kg("query", "cypher", "MATCH (p:Paper {id: 'pF'}) SET p.year = 1999", "--db", db)
    assert refused.exit_code == 1 and "this query writes (SET)" in refused.output
    assert session_store.run("MATCH (p:Paper {id: 'pF'}) RETURN p.year AS y") == [{"y": None}]
    written = kg("query", "cypher", "MATCH (p:Paper {id: 'pF'}) SET p.year = $y RETURN p.year AS year", "-p", "y=1999",
                 "--write", "--format", "json", "--db", db)
    assert written.exit_code == 0 and json.loads(written.output) == [{"year": 1999}]
    session_store.run("MATCH (p:Paper {id: 'pF'}) REMOVE p.year", write=True)
    broken = kg("query", "cypher", "MATCH (p:Paper RETURN p", "--db", db)
    assert broken.exit_code == 1 and broken.output.startswith("Error: embedded store") and "Traceback" not in broken.output


def test_every_example_call_runs_on_the_demo_graph(demo):
    """The example in each header, run as written on the bundled abstracts."""
    db = demo.db
    found = {}
    for q in list_queries():
        args = shlex.split(q.example)[1:]
        result = kg(*args, "--db", db)
        assert result.exit_code == 0, (q.example, result.output)
        found[q.name] = result.output
    similar = kg("query", "run", "papers/similar", "-p", "paper=p-198679ab53b48580", "--format", "json", "--db", db)
    assert "(no rows)" not in found["papers/similar"] and "(no rows)" not in found["concepts/profile"]
    ranked = json.loads(similar.output)
    assert len(ranked) >= 3 and all(r["shared"] for r in ranked)
    assert [r["score"] for r in ranked] == sorted((r["score"] for r in ranked), reverse=True)
