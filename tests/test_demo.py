"""End to end: the demo on the bundled seed abstracts, twice."""

import re

from click.testing import CliRunner

from kg.cli import main


def summary(output: str) -> dict[str, int]:
    return {m[1]: int(m[2]) for m in re.finditer(r"^\s*(\w+)\s+(\d+)$", output, re.M)}


def test_demo_builds_57_papers_with_every_concept_type_and_reruns_identically(demo, tmp_path):
    runner = CliRunner()
    db, html = demo.db, tmp_path / "demo.html"
    first = demo  # the session's first `kg demo` on its store
    assert "Papers: 57" in first.output
    counts = summary(first.output)
    for label in ("Method", "Task", "Dataset", "Metric", "Entity", "Domain"):
        assert counts[label] > 0, label
    assert counts["PUBLISHED_IN"] == 57
    assert "== overview/top-concepts" in first.output and "== papers/sharing-concepts" in first.output
    assert demo.html.stat().st_size > 100_000

    second = runner.invoke(main, ["demo", "--db", db, "-o", str(html)])
    assert second.exit_code == 0, second.output
    assert summary(second.output) == counts
    stats = runner.invoke(main, ["stats", "--db", db])
    assert "Paper" in stats.output and re.search(r"Paper\s+57$", stats.output, re.M)
