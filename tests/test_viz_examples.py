"""Every ``kg viz`` example of ``kg viz --help`` and of the views page (docs/views.md) runs on
the graph it is written for (the demo graph the session builds once) and writes a view that is not empty."""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner
from conftest import ROOT

from kg.cli import main

VIEWS_PAGE = ROOT / "docs" / "views.md"


def help_examples() -> list[str]:
    text = CliRunner().invoke(main, ["viz", "--help"]).output
    return [line.strip() for line in text.split("Example:", 1)[1].splitlines() if line.strip().startswith("kg viz")]


def page_examples() -> list[str]:
    section = VIEWS_PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [line.split("#", 1)[0].strip() for block in blocks for line in block.splitlines() if line.startswith("kg viz")]


EXAMPLES_RUN = sorted(set(help_examples()) | set(page_examples()))


def test_help_and_the_views_page_have_examples_of_every_view():
    assert len(help_examples()) >= 5 and len(page_examples()) >= 6
    views = {re.search(r"--view (\w+)", line)[1] if "--view" in line else "overview" for line in EXAMPLES_RUN}
    assert views == {"overview", "paper", "concept", "cooccurrence", "similarity", "citations"}


@pytest.mark.parametrize("example", EXAMPLES_RUN)
def test_example_runs_on_the_demo_graph(demo, tmp_path, example):
    args = shlex.split(example)[1:]
    out = tmp_path / args[args.index("-o") + 1]
    args[args.index("-o") + 1] = str(out)
    result = CliRunner().invoke(main, [*args, "--db", demo.db])
    assert result.exit_code == 0, result.output
    assert "Warning" not in result.output and re.search(r"Wrote .* \(([1-9][\d,]*) nodes", result.output), result.output
    assert out.stat().st_size > 100_000


# The page's Python example runs in tests/test_readme_python.py with every example of the docs.
