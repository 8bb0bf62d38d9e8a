"""Shared fixtures: one real embedded ArcadeDB server and one spaCy pipeline per test process.

The suite runs in three processes (pytest-xdist, ``-n`` in pyproject.toml): each has its own
session store, and what costs most to make and is only read (the demo graph) is made once for
the run by :func:`made_once`, whichever process asks first, and shared.

``pytest --reverse`` runs the tests in reverse order (they must not depend on it). The
session-wide settings (servers' idle time, no JVM left behind) are in the root conftest.py.
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers.wheel import installed_wheel, run, user_env

from kg.store import open_store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "neurips2026"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def pytest_addoption(parser):
    parser.addoption("--reverse", action="store_true", help="run the tests in reverse order")


# The modules that take longest, run first: the test processes take whole modules in the
# order collected (``--dist loadscope``), so one of these started last would leave the others
# idle while it runs alone; those that mostly wait (servers starting and stopping, queued
# requests) early too, while the other processes have work for both cores.
# The wheel's module comes early: the modules that read the demo graph wait for it (``demo``).
LONGEST_FIRST = ("test_store_crash.py", "test_wheel.py", "test_cypher_check.py", "test_load.py", "test_store_server.py",
                 "test_rebuild.py", "test_browser.py", "test_cluster_csv.py", "test_load_concurrent.py",
                 "test_store_busy.py", "test_vocabulary.py", "test_serve_browser.py", "test_bad_input.py",
                 "test_citations_link.py", "test_citations_analytics.py", "test_cluster.py")


def pytest_collection_modifyitems(config, items):
    rank = {name: number for number, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest as collected
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


FINGERPRINT = """MATCH (n) WITH count(n) AS nodes
OPTIONAL MATCH ()-[r]->() WITH nodes, count(r) AS relationships
OPTIONAL MATCH (p:Paper) WITH nodes, relationships, p.id AS id ORDER BY id
RETURN nodes, relationships, collect(id) AS papers"""


def fingerprint(store) -> tuple:
    """What the store holds, in short: node and relationship counts and the papers' ids (one query:
    it runs before every test that reads a module's graph)."""
    row = store.run(FINGERPRINT)[0]
    return row["nodes"], row["relationships"], hash(tuple(row["papers"]))


class ModuleGraphs:
    """The graphs that modules' fixtures load into the session's one store, each kept there for
    the tests that ask for it: a test of another module (or one that wrote) may have changed the
    store in between, in any order the tests run (``pytest --reverse``, random orders); then the
    graph is loaded again before the test. One server serves them all: no JVM per module."""

    def __init__(self, store):
        self.store = store
        self.loaders: dict[str, object] = {}
        self.prints: dict[str, tuple] = {}

    def keep(self, request, load):
        """Load the graph of the fixture asking (``load(store)``) and return what ``load`` returns."""
        name = f"{request.module.__name__}.{request.fixturename}"
        value = load(self.store)
        self.loaders[name], self.prints[name] = load, fingerprint(self.store)
        return value

    def ensure(self, request) -> None:
        """Load again the graphs the test's fixtures keep, when the store no longer holds them."""
        for fixture in request.fixturenames:
            name = f"{request.module.__name__}.{fixture}"
            if name in self.loaders and fingerprint(self.store) != self.prints[name]:
                self.loaders[name](self.store)
                self.prints[name] = fingerprint(self.store)


@pytest.fixture(scope="session")
def module_graphs(session_store) -> ModuleGraphs:
    return ModuleGraphs(session_store)


@pytest.fixture(autouse=True)
def module_graph_in_store(request):
    """Before each test, the graph its module's fixtures loaded is back in the session store."""
    graphs = request.getfixturevalue("module_graphs") if "module_graphs" in request.fixturenames else None
    if graphs is not None:
        graphs.ensure(request)


def run_root(tmp_path_factory) -> Path:
    """The folder of the whole run: the session's temporary folder, or, in a worker of
    pytest-xdist, the one above the workers' own (``pytest-N`` above ``pytest-N/popen-gw0``)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(tmp_path_factory, name: str, make) -> dict:
    """``make(folder)`` run once for the whole run, whichever test process asks first (the
    others wait on a lock and read what it returned); its JSON result is kept beside the folder."""
    root = run_root(tmp_path_factory)
    folder, result = root / name, root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not result.exists():
            folder.mkdir(exist_ok=True)  # a process that failed to make it left it
            result.write_text(json.dumps(make(folder)), encoding="utf-8")
    return json.loads(result.read_text(encoding="utf-8"))


def _make_demo(folder: Path) -> dict:
    """`kg demo` as a user runs it after installing the wheel: the wheel built from the tree and
    installed into a fresh venv (``helpers.wheel``), its ``kg`` run away from the checkout."""
    python = installed_wheel(folder)
    work = folder / "elsewhere"  # no checkout around: nothing is found relative to the working folder
    work.mkdir()
    # No JVM class cache: its key names the venv, new every run, so each run would record one more
    # (a second JVM start in the background, 39 MB left in ~/.cache/kg/jvm). The server stays up for the
    # tests that read the demo graph later in the run (the session's end stops it), not started again.
    env = user_env() | {"KG_JVM_CACHE": "0", "KG_SERVER_IDLE": "600"}
    where = run([python, "-c", "import kg, queries, visuals; print(kg.__file__, queries.__file__, visuals.__file__)"],
                cwd=work, env=env).stdout.split()
    done = run([python.with_name("kg"), "demo", "--db", folder / "db", "-o", folder / "demo.html"], cwd=work,
               env=env, merged=True)
    return {"db": str(folder / "db"), "output": done.stdout, "html": str(folder / "demo.html"), "modules": where,
            "venv": str(folder / "venv")}


BUNDLED_SOURCES = [EXAMPLES, FIXTURES / "openalex_works.jsonl"]  # the bundled abstracts, and OpenAlex works citing
# each other and unloaded works (CITES, Reference nodes)


def _extract_bundled(folder: Path) -> dict:
    from click.testing import CliRunner

    from kg.cli import main

    out = folder / "records.jsonl"
    result = CliRunner().invoke(main, ["extract", *map(str, BUNDLED_SOURCES), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return {"records": str(out)}


@pytest.fixture(scope="session")
def bundled_records(tmp_path_factory) -> Path:
    """The records `kg extract` writes of ``BUNDLED_SOURCES`` (62 papers), extracted once for the run
    for the tests that load or export them; read only."""
    return Path(made_once(tmp_path_factory, "bundled-records", _extract_bundled)["records"])


@dataclass
class Demo:
    db: str  # the store, for --db
    output: str  # what `kg demo` printed
    html: Path  # the view it wrote
    modules: list[str]  # the files of kg, queries and visuals that ran it
    venv: Path  # the venv the wheel was installed into


@pytest.fixture(scope="session")
def demo(tmp_path_factory) -> Demo:
    """The bundled abstracts built once for the run by `kg demo` of the installed wheel, for the
    tests that read the demo graph (a rerun changes nothing)."""
    made = made_once(tmp_path_factory, "demo", _make_demo)
    return Demo(made["db"], made["output"], Path(made["html"]), made["modules"], Path(made["venv"]))


# kg serve over the graph of the views' tests, for tests/test_serve.py and tests/test_serve_browser.py
@pytest.fixture(scope="module")
def viz(module_graphs, request):
    from test_visuals import load_viz_graph

    return module_graphs.keep(request, load_viz_graph)


@pytest.fixture(scope="module")
def served(viz, store_dir):
    """The app over the session's store (its own Bolt connection to the same warm server)."""
    import kg

    graph = kg.open(db=store_dir)
    server = graph.serve(port=0, block=False)
    yield server
    server.close()
    graph.close()
