"""Shared fixtures: one real embedded ArcadeDB server and one spaCy pipeline per test run.

``pytest --reverse`` runs the tests in reverse order (they must not depend on it). The
session-wide settings (servers' idle time, no JVM left behind) are in the root conftest.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.store import open_store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "neurips2026"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def pytest_addoption(parser):
    parser.addoption("--reverse", action="store_true", help="run the tests in reverse order")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--reverse"):
        items.reverse()


@pytest.fixture(scope="session")
def nlp():
    from kg.extract import load_pipeline

    return load_pipeline()


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("kg-data")


@pytest.fixture(scope="session")
def session_store(store_dir):
    """The embedded store over Bolt (never a mock), started once."""
    with open_store(db_dir=store_dir, create=True) as store:
        yield store


@pytest.fixture
def store(session_store):
    """The session's store, emptied before each test."""
    session_store.run("MATCH (n) DETACH DELETE n", write=True)
    return session_store


@dataclass
class Demo:
    db: str  # the store, for --db
    output: str  # what `kg demo` printed
    html: Path  # the view it wrote


@pytest.fixture(scope="session")
def demo(tmp_path_factory) -> Demo:
    """The bundled abstracts built once by `kg demo`, for the tests that read the demo graph (a rerun changes nothing)."""
    folder = tmp_path_factory.mktemp("demo")
    result = CliRunner().invoke(main, ["demo", "--db", str(folder / "db"), "-o", str(folder / "demo.html")])
    assert result.exit_code == 0, result.output
    return Demo(str(folder / "db"), result.output, folder / "demo.html")
