"""Installed as users install it: the demo graph the tests read (``demo`` in conftest.py) is
built by ``kg demo`` of the wheel built from the tree, installed into a fresh venv; the bundled
abstracts, models, lexicon, templates and query packs are package data, not files of the
checkout (``helpers.wheel`` says how the venv is made without a package index)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest


@pytest.mark.wheel
def test_the_installed_wheel_runs_the_demo(demo):
    assert all(Path(m).is_relative_to(demo.venv) for m in demo.modules), demo.modules  # the wheel's kg ran, not the tree's
    assert "Papers: 57" in demo.output, demo.output
    assert "== overview/top-concepts" in demo.output and "== papers/sharing-concepts" in demo.output
    assert demo.html.stat().st_size > 100_000


@pytest.mark.wheel
def test_the_wheel_carries_the_bundled_abstracts_and_the_models(demo):
    (wheel,) = (demo.venv.parent / "dist").glob("kg-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert sum(n.startswith("kg/examples/neurips2026/") and n.endswith(".txt") for n in names) == 3
    assert {"kg/extract/models/accurate/model.onnx", "kg/extract/models/salience.json", "visuals/templates/graph.html.j2",
            "queries/overview/top-concepts.cypher"} <= names
