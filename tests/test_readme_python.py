"""The Python examples of the README and of every page of the documentation site (docs/*.md)
run as written on the demo graph: ``pycon`` blocks as doctests, ``python`` blocks as scripts,
each page in a folder of its own whose ``kg-data`` is the demo graph.

A block that cannot run in the suite is marked by a line ``<!-- no-test: why -->`` right
before it; the marker is for the rare block that needs what the suite has not (the accurate
recogniser's weights), so there are at most two.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(pycon|python)\n(.*?)^```", re.S | re.M)
NO_TEST = "<!-- no-test"


def page_blocks(path: Path, marked: bool = False) -> list[tuple[str, str, int]]:
    """``(kind, code, line)`` of each pycon or python block of ``path``: those to run, or with
    ``marked`` those marked as not runnable."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in BLOCK.finditer(text):
        before = text[:match.start()].rstrip().rsplit("\n", 1)[-1]
        if before.startswith(NO_TEST) == marked:
            blocks.append((match[1], match[2], text.count("\n", 0, match.start()) + 2))
    return blocks


PAGES_WITH_BLOCKS = [path for path in PAGES if page_blocks(path)]


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def run_blocks(path: Path) -> int:
    """Run the page's blocks in the current folder; the number of examples run."""
    examples = 0
    for kind, code, line in page_blocks(path):
        if kind == "pycon":
            test = doctest.DocTestParser().get_doctest(code, {}, f"{name(path)}:{line}", name(path), line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test)
            assert runner.summarize(verbose=False).failed == 0, f"{name(path)}, the pycon block at line {line}"
            examples += len(test.examples)
        else:
            exec(compile(code, f"{name(path)}:{line}", "exec"), {})
            examples += 1
    return examples


@pytest.fixture
def in_demo_folder(demo, tmp_path, monkeypatch):
    """A folder whose ./kg-data is the demo graph, as the examples expect (what they write lands here)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kg-data").symlink_to(Path(demo.db).resolve(), target_is_directory=True)
    return tmp_path


def test_the_pages_have_the_examples_they_should():
    assert [kind for kind, _, _ in page_blocks(ROOT / "README.md")] == ["pycon"]
    session = [code for kind, code, _ in page_blocks(ROOT / "docs" / "python-api.md") if kind == "pycon"]
    assert len(session) == 1 and len(doctest.DocTestParser().get_examples(session[0])) >= 12
    assert len(PAGES_WITH_BLOCKS) >= 5, [name(p) for p in PAGES_WITH_BLOCKS]
    marked = [(name(p), line) for p in PAGES for _, _, line in page_blocks(p, marked=True)]
    assert len(marked) <= 2, marked  # sparingly


@pytest.mark.parametrize("path", PAGES_WITH_BLOCKS, ids=name)
def test_the_python_examples_of_a_page_run_on_the_demo_graph(path, in_demo_folder, capsys):
    assert run_blocks(path) >= 1
    out = capsys.readouterr().out
    if path.name == "python-api.md":  # the notebook session wrote its view and export here
        assert (in_demo_folder / "concepts.html").stat().st_size > 10_000 and (in_demo_folder / "graph.gexf").exists()
        assert "no paper with id 'p-no-such-paper'" in out
    if path.name == "related.md":  # kg similar's example printed the other LoRA paper
        assert "p-a8d660f09b6062ee" in out
    if path.name == "views.md":  # the views written from Python, ours and pyvis's
        for written in ("concepts.html", "concepts-pyvis.html", "uses.html"):
            assert (in_demo_folder / written).stat().st_size > 100_000, written
        assert "vis.Network" in (in_demo_folder / "concepts-pyvis.html").read_text(encoding="utf-8")
    if path.name == "getting-started.md":
        assert out.startswith("57\n")
