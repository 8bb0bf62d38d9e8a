"""The CLI through click's test runner, on the real pipeline and the embedded store."""

import json
import re

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES

from kg.cli import main

SEED = str(EXAMPLES / "001_fc757967a80a80b3.txt")


@pytest.fixture
def built_db(demo):
    return demo.db  # the demo graph, built once per session


def test_every_command_explains_itself_with_an_example():
    for args in (["--help"], ["extract", "--help"], ["build", "--help"], ["stats", "--help"], ["query", "--help"],
                 ["query", "run", "--help"], ["viz", "--help"], ["demo", "--help"], ["server", "--help"], ["serve", "--help"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0 and "Example" in result.output, args


def test_extract_writes_the_public_record_format(tmp_path):
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["extract", SEED, "-o", str(out)])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 19
    for r in records:
        assert {"id", "title", "text", "venue", "year", "concepts", "citations", "urls"} <= set(r)
        for c in r["concepts"]:
            assert {"name", "type", "aliases", "mentions", "proposed", "confidence"} <= set(c)
            for start, end in c["mentions"]:
                assert r["text"][start:end]
    assert any(c["proposed"] for r in records for c in r["concepts"])


def test_extract_reads_stdin_and_reports_skips():
    lines = '{"id": "s1", "abstract": "We propose a GRU decoder."}\nnot json\n'
    result = CliRunner().invoke(main, ["extract", "-", "--format", "jsonl"], input=lines)
    assert result.exit_code == 0, result.output
    assert '"id": "s1"' in result.output
    assert "Skipped 1 record(s)" in result.output and "<stdin>: line 2: invalid JSON" in result.output


def test_missing_source_fails_with_exit_1_and_no_traceback(tmp_path):
    result = CliRunner().invoke(main, ["extract", str(tmp_path / "missing.txt")])
    assert result.exit_code == 1
    assert "no such file or folder" in result.output and "Traceback" not in result.output


def test_query_list_and_run_in_every_format(built_db):
    runner = CliRunner()
    listed = runner.invoke(main, ["query", "list"])
    assert "overview/top-concepts" in listed.output and "papers/sharing-concepts" in listed.output
    as_json = runner.invoke(main, ["query", "run", "overview/top-concepts", "-p", "per_type=1", "--format", "json", "--db", built_db])
    assert as_json.exit_code == 0, as_json.output
    rows = json.loads(as_json.output)
    assert {r["type"] for r in rows} <= {"Method", "Task", "Dataset", "Metric", "Entity", "Domain"} and len(rows) >= 3
    as_csv = runner.invoke(main, ["query", "run", "overview/top-concepts", "--format", "csv", "--db", built_db])
    assert as_csv.output.splitlines()[0] == "type,concept,papers,mentions,quality"
    table = runner.invoke(main, ["query", "run", "overview/top-concepts", "--db", built_db])
    assert table.output.splitlines()[0].split() == ["type", "concept", "papers", "mentions", "quality"]


def test_query_parameters_are_checked(built_db):
    runner = CliRunner()
    bad_type = runner.invoke(main, ["query", "run", "overview/top-concepts", "-p", "per_type=many", "--db", built_db])
    assert bad_type.exit_code == 1 and "expects int" in bad_type.output
    missing = runner.invoke(main, ["query", "run", "papers/sharing-concepts", "--db", built_db])
    assert missing.exit_code == 1 and "paper (str) is required" in missing.output
    unknown = runner.invoke(main, ["query", "run", "nope/nothing", "--db", built_db])
    assert unknown.exit_code == 1 and "no query 'nope/nothing'" in unknown.output
    # a value that looks like Cypher is only ever a parameter
    injected = runner.invoke(main, ["query", "run", "papers/sharing-concepts", "-p", "paper=x' OR 1=1 //", "--format", "json", "--db", built_db])
    assert injected.exit_code == 0 and json.loads(injected.output) == []


def test_viz_writes_one_offline_file(built_db, tmp_path):
    out = tmp_path / "view.html"
    result = CliRunner().invoke(main, ["viz", "-o", str(out), "--db", built_db])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)
    assert not re.search(r"""url\(\s*["']?\s*(?:https?:)?//|@import""", html, re.I)
    assert "vis.Network" in html and "Papers and the concepts they share" in html
    data = json.loads(re.search(r'<script type="application/json" id="graph-data">(.*?)</script>', html, re.S)[1])
    groups = {n["group"] for n in data["nodes"]}
    assert "Paper" in groups and len(groups) >= 3 and data["edges"]
