"""The README's Python session ("Using kg from Python") runs as written on the demo graph."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_session() -> str:
    """The pycon block of the README's "Using kg from Python" section."""
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("### Using kg from Python", 1)[1]
    return re.search(r"```pycon\n(.*?)```", section, re.S)[1]


def test_the_readme_session_runs_on_the_demo_graph(demo, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # what the session writes (concepts.html, graph.gexf) lands here
    (tmp_path / "kg-data").symlink_to(Path(demo.db).resolve(), target_is_directory=True)
    test = doctest.DocTestParser().get_doctest(readme_session(), {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=0, attempted=len(test.examples))
    assert len(test.examples) >= 12
    assert (tmp_path / "concepts.html").stat().st_size > 10_000 and (tmp_path / "graph.gexf").exists()


def test_every_python_block_of_the_readme_on_kg_data_runs(demo, tmp_path, monkeypatch, capsys):
    """The README's other Python examples on the graph in ./kg-data (kg similar's, the views') run too."""
    blocks = [b for b in re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
              if 'kg.open(db="kg-data")' in b]
    assert len(blocks) >= 2
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kg-data").symlink_to(Path(demo.db).resolve(), target_is_directory=True)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert "p-a8d660f09b6062ee" in capsys.readouterr().out  # kg similar's example printed the other LoRA paper
