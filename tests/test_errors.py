"""One error hierarchy (kg.errors): every error kg raises on purpose is a KgError, an unknown
paper is one error whichever verb meets it, and the CLI turns each kind into its exit code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import kg
from kg import errors
from kg.cli import main
from kg.cli.app import exit_code

ROOT = Path(__file__).resolve().parent.parent
# Exceptions that never reach a user: a reader's signal to skip or note a record, turned into a report line.
INTERNAL_SIGNALS = {"SkipRecord", "ReaderNote", "BadRecord", "FieldError"}


def test_the_errors_users_meet_are_one_hierarchy():
    from kg.extract import ModelMissing
    from kg.fetch import FetchError
    from kg.store import ReadOnlyError, StoreError
    from loaders import LoadError, NoPapers
    from queries import QueryError

    assert issubclass(LoadError, errors.BadInput) and issubclass(QueryError, errors.BadInput)
    assert issubclass(NoPapers, errors.NoPapers) and issubclass(ModelMissing, errors.Missing)
    assert StoreError is errors.StoreError and ReadOnlyError is errors.ReadOnlyError and FetchError is errors.FetchError
    assert all(issubclass(kind, errors.KgError) for kind in (errors.NotFound, errors.BadInput, errors.StoreError,
                                                             errors.Missing, errors.FetchError))


def test_no_module_defines_an_error_class_of_its_own():
    """A new error goes into kg/errors.py (or derives from one there), so the CLI knows its exit code."""
    own = re.compile(r"^class (\w+)\((?:[\w.]*(?:Exception|Error)|ValueError|KeyError|LookupError|RuntimeError)\):", re.M)
    found = {}
    for folder in ("kg", "loaders", "queries", "visuals"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "errors.py":
                continue
            for name in own.findall(path.read_text(encoding="utf-8")):
                found[name] = str(path.relative_to(ROOT))
    assert {n: p for n, p in found.items() if n not in INTERNAL_SIGNALS} == {}


@pytest.fixture(scope="module")
def graph(demo):
    opened = kg.open(db=demo.db)
    yield opened
    opened.close()


@pytest.mark.parametrize("verb", [
    lambda g: g.similar("p-missing"),
    lambda g: g.citations("cocited", paper="p-missing"),
    lambda g: g.citations("path", source="p-missing", target="p-198679ab53b48580"),
    lambda g: g.view("paper", focus="p-missing"),
    lambda g: g.view("citations", focus="p-missing"),
], ids=["similar", "cocited", "path", "paper view", "citations view"])
def test_an_unknown_paper_is_one_error_whatever_the_verb(graph, verb):
    with pytest.raises(errors.PaperNotFound, match="p-missing") as raised:
        verb(graph)
    assert raised.value.paper == "p-missing"


def test_bad_options_of_the_api_are_bad_input(graph):
    with pytest.raises(errors.BadInput, match="unknown citations verb 'best'"):
        graph.citations("best")
    with pytest.raises(errors.BadInput, match="unknown view 'map'"):
        graph.view("map")
    with pytest.raises(errors.BadInput, match="unknown ranking 'words'"):
        graph.similar("p-198679ab53b48580", by="words")


def test_lower_value_errors_reach_api_users_as_bad_input(graph, tmp_path):
    """The API's one boundary (kg.api._kg_errors): a ValueError of the exports, the recogniser's
    choice or the layout arrives as kg.errors.BadInput, whose message it keeps."""
    with pytest.raises(errors.BadInput, match="unknown export format 'xml'"):
        graph.export("xml", tmp_path / "out")
    with pytest.raises(errors.BadInput, match="unknown recogniser 'large'"):
        next(graph.extract([str(ROOT / "tests" / "fixtures" / "abstracts_linked.txt")], model="large"))
    with pytest.raises(errors.BadInput, match="unknown score 'size'"):
        graph.view("overview", size_by="size", top=5)  # ranked by it to cap the view (visuals.layout)
    with pytest.raises(errors.BadInput, match="unknown recogniser 'large'"):
        graph.train(ROOT / "tests" / "fixtures" / "scierc_sample.json", tmp_path / "ner", model="large")


@pytest.mark.parametrize("args", [
    ["similar", "p-missing"],
    ["citations", "cocited", "--paper", "p-missing"],
    ["viz", "--view", "paper", "--focus", "p-missing", "-o", "never.html"],
], ids=["similar", "citations", "viz"])
def test_the_cli_says_an_unknown_paper_in_one_line_with_exit_code_1(demo, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [*args, "--db", demo.db])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("Error: ") and "p-missing" in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert not (tmp_path / "never.html").exists()


def test_exit_codes_follow_the_kind_of_error(tmp_path):
    assert exit_code(errors.NoPapers("none")) == 4
    assert {exit_code(kind("x")) for kind in (errors.NotFound, errors.BadInput, errors.StoreError, errors.Missing)} == {1}
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    result = CliRunner().invoke(main, ["extract", str(empty)])
    assert result.exit_code == 4 and "Error: no papers in the sources" in result.output
