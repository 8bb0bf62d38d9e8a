"""Every ``kg viz`` example of ``kg viz --help`` and of the README runs on the graph it is
written for (the demo graph the session builds once) and writes a view that is not empty."""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner
from conftest import ROOT

from kg.cli import main


def help_examples() -> list[str]:
    text = CliRunner().invoke(main, ["viz", "--help"]).output
    return [line.strip() for line in text.split("Example:", 1)[1].splitlines() if line.strip().startswith("kg viz")]


def readme_examples() -> list[str]:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## HTML views", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [line.split("#", 1)[0].strip() for block in blocks for line in block.splitlines() if line.startswith("kg viz")]


EXAMPLES_RUN = sorted(set(help_examples()) | set(readme_examples()))


def test_help_and_readme_have_examples_of_every_view():
    assert len(help_examples()) >= 5 and len(readme_examples()) >= 6
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


def test_the_readme_python_example_runs_on_the_demo_graph(demo, tmp_path, monkeypatch):
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## HTML views", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S)[1]
    monkeypatch.chdir(tmp_path)
    assert 'kg.open(db="kg-data")' in code
    exec(compile(code.replace('kg.open(db="kg-data")', f"kg.open(db={demo.db!r})"), "README.md", "exec"), {})
    for name in ("concepts.html", "concepts-pyvis.html", "uses.html"):
        assert (tmp_path / name).stat().st_size > 100_000, name
    assert "vis.Network" in (tmp_path / "concepts-pyvis.html").read_text(encoding="utf-8")
