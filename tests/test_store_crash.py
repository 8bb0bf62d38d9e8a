"""Builds killed with SIGKILL at several points, the store's server killed mid-build, and two builds at once:
each batch is stored whole or not at all, and the graph after a rerun is the clean build's, node for node,
edge for edge, property for property."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import EXAMPLES
from helpers.dump import graph_dump

import kg.build
from kg.build import build
from kg.store import open_store
from kg.store.embedded import running_server

BATCH = 4
# `kg` as a user runs it, with small batches so that a short corpus makes several of them
KG = ["-c", "import sys, kg.build; kg.build.PAPERS_PER_BATCH = int(sys.argv.pop(1)); "
      "from kg.cli import main; main(prog_name='kg')", str(BATCH)]


def abstracts(count: int) -> list[str]:
    text = (EXAMPLES / "001_fc757967a80a80b3.txt").read_text(encoding="utf-8")
    return [block.strip() for block in re.split(r"\n\s*\n", text)[1:] if block.strip()][:count]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """16 papers with authors, venues, years and references to papers of later batches and to unloaded works."""
    path = tmp_path_factory.mktemp("crash") / "papers.jsonl"
    texts = abstracts(16)
    with path.open("w", encoding="utf-8") as out:
        for i, text in enumerate(texts):
            out.write(json.dumps({
                "id": f"k{i:02}", "title": f"Paper {i}", "abstract": text, "year": 2020 + i % 5,
                "venue": ["ACL", "NeurIPS", "ICML"][i % 3], "authors": [f"Author {i % 7}", f"Author {(i + 3) % 7}"],
                "references": [f"k{(i + 5) % len(texts):02}", f"k{(i * 7) % len(texts):02}", f"ext-{i % 4}"],
            }) + "\n")
    return path


@pytest.fixture(scope="module")
def clean(corpus, session_store) -> Counter:
    """The graph of one uninterrupted build, with the same batches (in the session's store, emptied
    before and after: its server is running already)."""
    patch = pytest.MonkeyPatch()
    patch.setattr(kg.build, "PAPERS_PER_BATCH", BATCH)
    session_store.run("MATCH (n) DETACH DELETE n", write=True)
    try:
        report = build([str(corpus)], session_store)
        assert report.papers == 16
        return graph_dump(session_store)
    finally:
        session_store.run("MATCH (n) DETACH DELETE n", write=True)
        patch.undo()


def start_build(corpus: Path, db: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, *KG, "build", str(corpus), "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def papers_stored(store) -> int:
    return store.run("MATCH (p:Paper) RETURN count(p) AS n")[0]["n"]


def assert_whole_batches(store) -> None:
    """Each stored paper came with its batch: all of its authors, its venue, its references."""
    assert papers_stored(store) % BATCH == 0
    half = store.run("MATCH (p:Paper) WHERE NOT (p)-[:PUBLISHED_IN]->() OR NOT ()-[:WROTE]->(p) "
                     "OR NOT (p)-[:CITES]->() RETURN p.id AS id")
    assert half == []


def kill_when(proc: subprocess.Popen, store, papers: int, timeout: float = 300, kill: bool = True) -> None:
    """SIGKILL the build once ``papers`` are stored (0: now); with ``kill=False`` only wait for them."""
    deadline = time.monotonic() + timeout
    while papers and papers_stored(store) < papers:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    if kill:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()


def test_builds_killed_at_several_points_then_rerun_give_the_clean_graph(corpus, clean, tmp_path):
    db = tmp_path / "db"
    with open_store(db, create=True) as store:  # the test's own view; the builds share its server
        first = start_build(corpus, db)
        time.sleep(1.0)
        kill_when(first, store, 0)  # before anything is stored
        for papers in (BATCH, 2 * BATCH):  # after the first batch, in the middle
            proc = start_build(corpus, db)
            kill_when(proc, store, papers)
            assert_whole_batches(store)
        # the store's server itself killed mid-build: the build says so, without a traceback
        proc = start_build(corpus, db)
        kill_when(proc, store, 3 * BATCH, kill=False)
        os.kill(running_server(db).pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 1 and "Error: embedded store" in err and "Traceback" not in err, err
    rerun = start_build(corpus, db)
    out, err = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, err
    assert "Built 16 papers" in err
    with open_store(db) as store:
        assert graph_dump(store) == clean


def test_two_builds_at_once_run_one_after_the_other(corpus, clean, tmp_path):
    db = tmp_path / "db"
    builds = [start_build(corpus, db) for _ in range(2)]
    results = [p.communicate(timeout=600) for p in builds]
    assert [p.returncode for p in builds] == [0, 0], results
    errs = [err for _, err in results]
    assert sum("Waiting for another build on" in err for err in errs) == 1, errs
    with open_store(db) as store:
        assert graph_dump(store) == clean  # no duplicate edge, nothing lost
