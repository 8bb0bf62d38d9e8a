"""Shared fixtures: one real embedded ArcadeDB server and one spaCy pipeline per test run."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.store import open_store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "neurips2026"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


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
    with open_store(db_dir=store_dir) as store:
        yield store


@pytest.fixture
def store(session_store):
    """The session's store, emptied before each test."""
    session_store.run("MATCH (n) DETACH DELETE n", write=True)
    return session_store
