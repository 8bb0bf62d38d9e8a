"""The Python API's documented examples run as written (doctests), on the real embedded store."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import kg
import kg.api

ROOT = Path(__file__).resolve().parent.parent


def test_the_api_examples_run_as_documented(monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read tests/fixtures/ from the project's root
    result = doctest.testmod(kg.api, optionflags=doctest.ELLIPSIS, raise_on_error=False)
    assert result.attempted >= 10 and result.failed == 0


def test_extract_needs_no_store(tmp_path):
    graph = kg.open(db=tmp_path / "never-created")
    records = list(graph.extract([str(ROOT / "examples" / "neurips2026" / "000_8069062931caa10a.txt")]))
    assert records and all(r["concepts"] for r in records[:3])
    graph.close()
    assert not (tmp_path / "never-created").exists() and os.listdir(tmp_path) == []
