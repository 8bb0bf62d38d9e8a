"""`kg load`: the records of `kg extract` stored without extracting again give the graph of
`kg build`, node for node and edge for edge, in the real embedded store."""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner
from conftest import BUNDLED_SOURCES

from kg.build import build
from kg.cli import main
from kg.export import nodes, relationships
from kg.records import contract_error, read_records, store_records
from loaders import LoadReport, NoPapers

SOURCES = [str(path) for path in BUNDLED_SOURCES]
PAPERS = 57 + 5


@pytest.fixture(scope="module")
def records_file(bundled_records):
    """The sources extracted by `kg extract` to a file, as a user would (once for the run: read only)."""
    return bundled_records


def graph(store) -> tuple[list[str], list[str]]:
    """Every node and every edge with all their properties, in a comparable order."""
    def canonical(item) -> str:
        return json.dumps(item, sort_keys=True, ensure_ascii=False, default=str)
    return (sorted(canonical(node) for node in nodes(store)),
            sorted(canonical(edge) for edge in relationships(store)))


@pytest.fixture(scope="module")
def graphs(records_file, session_store, tmp_path_factory):
    """The graph of `kg build`, of `kg load`, and of a second load (from .gz), each build or load
    into the session's store emptied before it."""
    store = session_store
    store.run("MATCH (n) DETACH DELETE n", write=True)
    built = build(SOURCES, store)
    from_build = graph(store)
    store.run("MATCH (n) DETACH DELETE n", write=True)
    loaded = store_records([str(records_file)], store)
    from_load = graph(store)
    zipped = tmp_path_factory.mktemp("graphs") / "records.jsonl.gz"
    zipped.write_bytes(gzip.compress(records_file.read_bytes()))
    store_records([str(zipped)], store)
    again = graph(store)
    return built, loaded, from_build, from_load, again


def test_load_gives_every_node_and_edge_of_build(graphs):
    built, loaded, from_build, from_load, _ = graphs
    assert loaded.papers == built.papers == PAPERS
    assert not loaded.load.skipped and not loaded.load.notes
    assert len(from_build[0]) > 500 and len(from_build[1]) > 1000  # a real graph, not an empty one
    cited = [target for _, target, rel, _ in map(json.loads, from_build[1]) if rel == "CITES"]
    assert sum(t.startswith("Paper:") for t in cited) >= 2 and sum(t.startswith("Reference:") for t in cited) > 100
    build_nodes, build_edges = from_build
    load_nodes, load_edges = from_load
    assert set(build_nodes) ^ set(load_nodes) == set()
    assert build_nodes == load_nodes
    assert build_edges == load_edges
    assert loaded.citations.lines() == built.citations.lines()


def test_loading_again_changes_nothing(graphs):
    _, _, _, from_load, again = graphs
    assert again == from_load


def write_lines(path, lines: list[str]):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_record_that_breaks_the_contract_is_a_skip_naming_file_line_and_field(records_file, tmp_path):
    lines = records_file.read_text(encoding="utf-8").splitlines()
    bad = json.loads(lines[1])
    bad["concepts"][0]["mentions"][0] = [5, 10 ** 6]
    lines[1] = json.dumps(bad)
    lines[3] = '{"id": "cut'
    path = write_lines(tmp_path / "bad.jsonl", lines)
    report = LoadReport()
    kept = list(read_records([str(path)], report))
    assert len(kept) == PAPERS - 2
    assert report.skipped == [
        f"{path}: line 2: concepts[0].mentions[0]: expected [start, end] with 0 <= start <= end <= "
        f"{len(bad['text'])} (the length of text), got [5, 1000000]",
        f"{path}: line 4: invalid JSON (Unterminated string starting at at column 8)",
    ]


RECORD = {"id": "p1", "title": "T", "text": "We use BERT (Devlin et al., 2019).", "year": 2020, "authors": ["A. Li"],
          "concepts": [{"name": "BERT", "type": "Method", "key": "bert", "aliases": [], "mentions": [[7, 11]],
                        "evidence": [{"sentence": [0, 34], "rule": "gazetteer", "confidence": 0.9}],
                        "proposed": False, "confidence": 0.9}],
          "citations": [{"text": "Devlin et al., 2019", "start": 13, "end": 32, "authors": ["Devlin"], "year": 2019}]}


@pytest.mark.parametrize("path, value, expected", [
    (("id",), None, "id: missing"),
    (("id",), " ", "id: empty"),
    (("text",), ["a"], "text: expected text, got a list (1 item)"),
    (("year",), "2020", "year: expected a whole number or null, got text"),
    (("authors",), [{"name": "A"}], "authors[0]: expected text, got an object (1 key)"),
    (("concepts",), None, "concepts: expected a list, got nothing"),
    (("concepts", 0, "type"), "Person", "concepts[0].type: expected one of Method, Task, Dataset, Metric, Entity, Domain, got \"Person\""),
    (("concepts", 0, "mentions"), [], "concepts[0].mentions: expected at least one [start, end], got an empty list"),
    (("concepts", 0, "evidence"), [], "concepts[0].evidence: expected one entry per mention (1), got 0"),
    (("concepts", 0, "evidence", 0, "sentence"), [0, True], "concepts[0].evidence[0].sentence: expected [start, end]"),
    (("concepts", 0, "confidence"), "high", "concepts[0].confidence: expected a number, got text"),
    (("concepts", 0, "proposed"), "yes", "concepts[0].proposed: expected true/false or null, got text"),
    (("citations", 0, "end"), 99, "citations[0].start/end: expected [start, end] with 0 <= start <= end <= 34"),
    (("citations", 0, "authors"), "Devlin", "citations[0].authors: expected a list, got text"),
])
def test_each_broken_field_is_named(path, value, expected):
    record = json.loads(json.dumps(RECORD))
    assert contract_error(record) is None
    target = record
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    assert contract_error(record).startswith(expected)


def test_lone_surrogates_are_replaced_and_noted(tmp_path):
    line = json.dumps(RECORD).replace('"title": "T"', '"title": "T \\ud800"')
    path = write_lines(tmp_path / "s.jsonl", [line, "", "[1, 2]"])
    report = LoadReport()
    (kept,) = read_records([str(path)], report)
    assert kept["title"] == "T \ufffd"
    assert report.notes == [f"{path}: line 1: 1 lone surrogate(s) replaced with U+FFFD"]
    assert report.skipped == [f"{path}: line 3: expected a JSON object (a kg extract record), got a list (2 items)"]


def test_files_without_records_say_why(tmp_path):
    empty = write_lines(tmp_path / "empty.jsonl", [])
    broken = write_lines(tmp_path / "broken.jsonl", ["{}", "[]"])
    with pytest.raises(NoPapers) as raised:
        list(read_records([str(empty), str(broken)]))
    assert str(raised.value) == (f"no papers in the sources: {empty}: the file holds only blank lines; "
                                 f"{broken}: all 2 record(s) were skipped")
    assert raised.value.other_skips() == [f"{broken}: line 1: id: missing",
                                          f"{broken}: line 2: expected a JSON object (a kg extract record), got a list (0 items)"]


def test_the_cli_loads_a_gz_file_and_stdin_and_reports_the_bad_lines(records_file, tmp_path, store, store_dir):
    """Into an empty store whose warm server the command shares: the good records of both sources
    load, the bad ones are named."""
    assert "Example" in CliRunner().invoke(main, ["load", "--help"]).output
    lines = records_file.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"title":', '"title": 7, "x":', 1)
    zipped = tmp_path / "part-1.jsonl.gz"
    zipped.write_bytes(gzip.compress(("\n".join(lines[:40]) + "\n").encode()))
    stdin = "\n".join(lines[40:]) + "\nnot json\n"
    result = CliRunner().invoke(main, ["load", str(zipped), "-", "--db", str(store_dir)], input=stdin)
    assert result.exit_code == 0, result.output
    assert f"Loaded {PAPERS - 1} papers from 2 file(s) into embedded store" in result.output
    assert "Citations: " in result.output and "Vocabulary: " in result.output
    assert "Skipped 2 record(s):" in result.output
    assert f"{zipped}: line 3: title: expected text, got a number" in result.output
    assert f"<stdin>: line {len(lines) - 40 + 1}: invalid JSON" in result.output
    assert store.run("MATCH (p:Paper) RETURN count(p) AS n") == [{"n": PAPERS - 1}]


def test_the_cli_names_a_missing_file_before_starting_a_store(tmp_path):
    result = CliRunner().invoke(main, ["load", str(tmp_path / "missing.jsonl"), "--db", str(tmp_path / "db")])
    assert result.exit_code == 1 and "no such file or folder" in result.output
    assert not (tmp_path / "db").exists()
