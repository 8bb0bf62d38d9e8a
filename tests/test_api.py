"""The Python API: its documented examples run as doctests (pytest collects them), extract needs no store."""

from __future__ import annotations

import os
import re
from pathlib import Path

import kg
import kg.api

ROOT = Path(__file__).resolve().parent.parent


def test_pytest_collects_the_examples_of_the_shipped_modules():
    """kg/api.py's example (and every other module's) runs as a doctest item of `make test`."""
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("[tool.pytest.ini_options]")[1].split("\n[")[0]
    assert re.search(r'^addopts = ".*--doctest-modules', config, re.M)
    assert re.search(r'^testpaths = \["tests", "kg", "loaders", "queries", "visuals"\]', config, re.M)
    assert ">>> graph = kg.open(" in kg.api.__doc__


def test_extract_needs_no_store(tmp_path):
    graph = kg.open(db=tmp_path / "never-created")
    records = list(graph.extract([str(ROOT / "examples" / "neurips2026" / "000_8069062931caa10a.txt")]))
    assert records and all(r["concepts"] for r in records[:3])
    graph.close()
    assert not (tmp_path / "never-created").exists() and os.listdir(tmp_path) == []
