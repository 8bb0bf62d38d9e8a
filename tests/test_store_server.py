"""The embedded store's warm server: shared between commands, stopped when idle, safe when started at
once, stale state replaced, never stopped under a command, Bolt only, no password in its environment, its JVM
with kg's heap and collector settings."""

import getpass
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import kg
from kg.cli import main
from kg.errors import StoreError
from kg.store import arcadedb_process, open_store
from kg.store.arcadedb_process import (
    CACHE_FORMAT,
    DATABASE,
    GC_TIME_RATIO,
    default_heap,
    free_port,
    jvm_cache_args,
    server_jvm_options,
)
from kg.store.embedded import password_for, running_server, start_server, stop_server
from tests.conftest import EXAMPLES

READ_COMMANDS = (["stats"], ["query", "run", "overview/counts"], ["similar", "p-1"], ["viz", "-o", "{tmp}/v.html"],
                 ["export", "--format", "json", "-o", "{tmp}/g.json"], ["citations", "top"])


def wait_until(condition, timeout=30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def starts(db: Path) -> int:
    """How many servers were ever started for ``db`` (each logs one 'ready' line)."""
    log = db / "log" / "server.out"
    return log.read_text(errors="replace").count('ready {"pid"') if log.exists() else 0


def kg_cli(*args: str) -> subprocess.Popen:
    """`kg ARGS` as a user runs it, in a process of its own."""
    return subprocess.Popen([str(Path(sys.executable).parent / "kg"), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def one_paper_store(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("template") / "small"
    with open_store(db, create=True) as store:
        store.run("CREATE (:Paper {id: 'p-1', title: 'One'})", write=True)
    assert stop_server(db)
    return db


@pytest.fixture
def small_db(one_paper_store, tmp_path) -> Path:
    """A store of its own holding one paper, no server running."""
    return Path(shutil.copytree(one_paper_store, tmp_path / "small"))


@pytest.mark.parametrize("command", READ_COMMANDS, ids=lambda c: c[0])
def test_read_commands_on_a_folder_without_a_graph_fail_and_create_nothing(tmp_path, command):
    missing = tmp_path / "no-such-folder"
    args = [a.format(tmp=tmp_path) for a in command]
    result = CliRunner().invoke(main, [*args, "--db", str(missing)])
    assert result.exit_code == 1, result.output
    assert f"no graph in {missing}" in result.output and "kg build" in result.output
    assert "Traceback" not in result.output
    assert not missing.exists()


def test_a_folder_without_a_database_is_no_graph_either(tmp_path):
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, ["stats", "--db", str(tmp_path / "empty")])
    assert result.exit_code == 1 and "no graph in" in result.output
    assert list((tmp_path / "empty").iterdir()) == []


def test_commands_share_one_warm_server_that_stops_when_idle(small_db):
    runner = CliRunner()
    env = {"KG_SERVER_IDLE": "3"}
    first = runner.invoke(main, ["stats", "--db", str(small_db), "--format", "json"], env=env)
    assert first.exit_code == 0 and json.loads(first.output)["nodes"] == {"Paper": 1}
    server = running_server(small_db)
    assert server is not None and server.idle == 3  # it outlives the command
    second = runner.invoke(main, ["query", "run", "overview/counts", "--db", str(small_db)], env=env)
    assert second.exit_code == 0, second.output
    assert running_server(small_db).pid == server.pid
    listed = runner.invoke(main, ["server", "status"])
    assert listed.exit_code == 0 and f"{small_db}  pid {server.pid}  {server.uri}" in listed.output
    assert wait_until(lambda: running_server(small_db) is None, timeout=30)  # stopped by itself
    assert "idle for 3 s" in (small_db / "log" / "server.out").read_text()
    assert runner.invoke(main, ["server", "status", "--db", str(small_db)]).exit_code == 3


def test_idle_zero_stops_the_server_when_the_command_ends(small_db):
    result = CliRunner().invoke(main, ["stats", "--db", str(small_db)], env={"KG_SERVER_IDLE": "0"})
    assert result.exit_code == 0, result.output
    assert wait_until(lambda: running_server(small_db) is None, timeout=15)


def test_commands_started_at_once_start_one_server(small_db):
    before = starts(small_db)
    procs = [kg_cli("stats", "--db", str(small_db), "--format", "json") for _ in range(4)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, outputs
    assert all(json.loads(out)["nodes"] == {"Paper": 1} for out, _ in outputs)
    assert starts(small_db) == before + 1
    assert stop_server(small_db)


def test_a_server_killed_with_sigkill_is_replaced(small_db):
    old = start_server(small_db)
    os.kill(old.pid, signal.SIGKILL)
    assert wait_until(lambda: running_server(small_db) is None, timeout=10)
    assert json.loads((small_db / "server.json").read_text())["pid"] == old.pid  # the stale file is still there
    result = CliRunner().invoke(main, ["stats", "--db", str(small_db), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["nodes"] == {"Paper": 1}
    assert running_server(small_db).pid != old.pid
    assert stop_server(small_db)


def test_a_deleted_and_remade_folder_gets_a_new_server_and_the_old_one_stops(tmp_path):
    db = tmp_path / "remade"
    with open_store(db, create=True) as store:
        store.run("CREATE (:Paper {id: 'old'})", write=True)
    old = running_server(db)
    subprocess.run(["rm", "-rf", str(db)], check=True)
    with open_store(db, create=True) as store:  # a new password, a new server: no "authentication failed"
        store.run("CREATE (:Paper {id: 'new'})", write=True)
        assert store.run("MATCH (p:Paper) RETURN p.id AS id") == [{"id": "new"}]
    assert running_server(db).pid != old.pid
    assert wait_until(lambda: not Path(f"/proc/{old.pid}").exists() or b"arcadedb_process" not in
                      Path(f"/proc/{old.pid}/cmdline").read_bytes(), timeout=30)
    assert stop_server(db)


def test_server_stop_waits_for_the_command_in_flight(small_db):
    with open_store(small_db) as store:  # a command in flight
        server = running_server(small_db)
        assert stop_server(small_db, timeout=1.5) is None  # asked to stop, it waits
        time.sleep(1)
        assert store.run("MATCH (p:Paper) RETURN count(p) AS n") == [{"n": 1}]
        still = CliRunner().invoke(main, ["server", "stop", "--db", str(small_db), "--wait", "0.5"])
        assert still.exit_code == 4 and "still used by a command" in still.output
    assert wait_until(lambda: running_server(small_db) is None, timeout=30)
    assert "stop requested; waiting for the commands in flight" in (small_db / "log" / "server.out").read_text()
    assert server.pid not in [s.pid for s in filter(None, [running_server(small_db)])]


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on (Linux /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def jvm_arguments(pid: int) -> list[str]:
    """The arguments the JVM in process ``pid`` was started with, from its performance data file
    (/tmp/hsperfdata_USER/PID, which the JVM keeps while it runs: the server is one Python process)."""
    data = (Path("/tmp") / f"hsperfdata_{getpass.getuser()}" / str(pid)).read_bytes()
    return re.search(rb"-Xrs [^\0]*", data).group().decode().split()


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
def test_the_server_listens_on_bolt_only_and_its_environment_holds_no_password(small_db, monkeypatch):
    monkeypatch.delenv("KG_HEAP", raising=False)
    server = start_server(small_db)
    try:
        password = (small_db / "credentials").read_text().strip()
        assert password.encode() not in Path(f"/proc/{server.pid}/environ").read_bytes()
        assert password.encode() not in Path(f"/proc/{server.pid}/cmdline").read_bytes()
        assert listening_ports(server.pid) == {server.bolt_port}
        # the heap from the machine's memory, the collector told to keep it small (kg.store.arcadedb_process)
        assert {f"-Xmx{default_heap()}", f"-XX:GCTimeRatio={GC_TIME_RATIO}"} <= set(jvm_arguments(server.pid))
        log = (small_db / "log" / "arcadedb.log.0").read_text(errors="replace")
        assert "Studio web tool: disabled" in log
    finally:
        assert stop_server(small_db)


def test_the_jvm_class_cache_is_made_once_in_the_background_then_used(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    caches = tmp_path / "cache" / "kg" / "jvm"
    caches.mkdir(parents=True)
    notes = {"gone": {"python": str(tmp_path / "removed-venv"), "format": CACHE_FORMAT},
             "kept": {"python": sys.prefix, "format": CACHE_FORMAT},
             "keyed-otherwise": {"python": sys.prefix}, "older": None}
    for key, note in notes.items():
        (caches / f"arcadedb-{key}.aot").write_bytes(b"cache")
        if note:
            (caches / f"arcadedb-{key}.json").write_text(json.dumps(note))
    options = server_jvm_options()
    assert jvm_cache_args(options) == []  # none yet: one is recorded in the background, this start goes without
    # making it removed the caches of environments that are gone, and those an older kg made
    assert [name for name in notes if (caches / f"arcadedb-{name}.aot").exists()] == ["kept"]
    assert not (caches / "arcadedb-gone.json").exists() and not (caches / "arcadedb-keyed-otherwise.json").exists()
    recorders = list(caches.glob("arcadedb-*.aot.config"))
    assert len(recorders) == 1
    assert jvm_cache_args(options) == []  # still recording: no second recorder
    assert len(list(caches.glob("arcadedb-*.aot*"))) == 2  # the recording and the kept cache
    [flag] = jvm_cache_args(options, wait=300)  # as `make install` waits for it
    assert flag.startswith("-XX:AOTCache=") and Path(flag.split("=", 1)[1]).stat().st_size > 1_000_000
    assert jvm_cache_args(options) == [flag]
    monkeypatch.setenv("KG_QUERY_WAIT", "1")
    assert jvm_cache_args(server_jvm_options()) == [flag]  # another KG_QUERY_WAIT: the same cache
    # `make install`'s command finds it made
    made = subprocess.run([sys.executable, arcadedb_process.__file__, "--jvm-cache"], capture_output=True, text=True,
                          timeout=60)
    assert made.returncode == 0 and made.stdout == f"JVM class cache: {flag.split('=', 1)[1]}\n", made


def test_a_cache_folder_kg_cannot_write_costs_only_the_cache(tmp_path, monkeypatch):
    (tmp_path / "cache").write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert jvm_cache_args(server_jvm_options(), wait=60) == []
    made = subprocess.run([sys.executable, arcadedb_process.__file__, "--jvm-cache"], capture_output=True, text=True,
                          timeout=60)
    assert made.returncode == 0 and made.stdout.startswith("JVM class cache: none") and not made.stderr, made


# The Neo4j path (--uri): each failure is one line naming the URI (never the password) and exit code 1,
# tried against a real Bolt server with authentication: the session's embedded server, reached by its URI
# with its root password as a Neo4j server is (NEO4J_USERNAME / NEO4J_PASSWORD / NEO4J_DATABASE).

@pytest.fixture
def bolt(store, store_dir) -> tuple[str, str]:
    """The Bolt URI and root password of the session's embedded server, which holds one paper."""
    store.run("CREATE (:Paper {id: 'p-1', title: 'One'})", write=True)
    return running_server(store_dir).uri, password_for(store_dir)


def kg_uri(uri: str, *args: str, **env: str):
    """`kg ARGS --uri URI` with the Neo4j settings ``env`` (NEO4J_PASSWORD=..., NEO4J_DATABASE=...)."""
    settings = {"NEO4J_USERNAME": "root", "NEO4J_PASSWORD": None, "NEO4J_DATABASE": None, "NEO4J_URI": None, **env}
    return CliRunner().invoke(main, [*args, "--uri", uri], env=settings)


def test_uri_with_the_right_settings_reads_the_graph(bolt):
    uri, password = bolt
    # no counts kept: kg stats counts, calling the procedures db.labels and db.relationshipTypes
    result = kg_uri(uri, "stats", "--format", "json", NEO4J_PASSWORD=password, NEO4J_DATABASE=DATABASE)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["nodes"] == {"Paper": 1}


def test_a_wrong_password_is_one_line_naming_the_uri_and_the_user(bolt):
    uri, _ = bolt
    result = kg_uri(uri, "stats", NEO4J_PASSWORD="wrong-secret-4711")
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"Error: Neo4j at {uri}: authentication failed for user 'root'; "
                                          "check NEO4J_USERNAME / NEO4J_PASSWORD"]


@pytest.mark.parametrize("scheme, why", [
    ("bolt", "connection refused (is a Neo4j server listening at that host and port?)"),
    ("neo4j", "no routing information (is a Neo4j server listening at that host and port?)"),  # the driver's log line stays quiet
])
def test_an_unreachable_server_is_one_line_naming_the_uri(scheme, why):
    uri = f"{scheme}://127.0.0.1:{free_port()}"  # nothing listens there
    result = kg_uri(uri, "stats", NEO4J_PASSWORD="secret-4711")
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"Error: Neo4j at {uri}: cannot connect: {why}"]


def test_a_database_that_does_not_exist_fails_before_any_work(bolt, tmp_path):
    uri, password = bolt
    expected = [f"Error: Neo4j at {uri}: database 'no_such_db' does not exist; NEO4J_DATABASE names it (unset it for "
                "the server's default database)"]
    for args in (["stats"], ["build", str(EXAMPLES)]):  # a build fails at once, before extracting anything
        result = kg_uri(uri, *args, NEO4J_PASSWORD=password, NEO4J_DATABASE="no_such_db")
        assert result.exit_code == 1 and result.output.splitlines() == expected and password not in result.output


def test_a_procedure_the_server_lacks_is_one_line_naming_the_uri(bolt):
    """A real Bolt failure of a procedure the server lacks, sent the way kg sends its own CALLs
    (``Store.run``, as ``kg stats`` calls db.labels): one line naming the URI, exit code 1.

    Neo4j's ProcedureNotFound cannot be provoked here: ArcadeDB 26.10.2's Bolt plugin has no
    Procedure code at all (its BoltErrorCodes), it answers "Unknown procedure/function: apoc.help"
    (its server log) with Neo.DatabaseError.General.UnknownError, and in production mode, which
    kg's server runs in, it conceals the message as "The request failed. Check the server log for
    the details". test_a_missing_procedure_is_named (below) checks the sentence kg makes of the
    error a Neo4j server sends."""
    uri, password = bolt
    result = kg_uri(uri, "query", "cypher", "--write", "CALL apoc.help('x')",  # ArcadeDB has some of APOC, not this
                    NEO4J_PASSWORD=password, NEO4J_DATABASE=DATABASE)
    assert result.exit_code == 1
    assert result.output.splitlines() == [f"Error: Neo4j at {uri}: The request failed. Check the server log for the details"]


def test_a_missing_procedure_is_named():
    # the error a Neo4j 5 server sends for a procedure it lacks (its code and message), as the driver makes it
    from neo4j.exceptions import Neo4jError

    from kg.store.driver_errors import store_error

    err = Neo4jError._hydrate_neo4j(code="Neo.ClientError.Procedure.ProcedureNotFound",
                                    message="There is no procedure with the name `db.labels` registered for this "
                                            "database instance. Please ensure you've spelled the procedure name "
                                            "correctly and that the procedure is properly deployed.")
    assert str(store_error(err, "Neo4j at bolt://127.0.0.1:7687")) == (
        "Neo4j at bolt://127.0.0.1:7687: the server has no procedure db.labels, which kg calls; kg needs Neo4j 5 "
        "(or the embedded store)")


@pytest.mark.parametrize("uri, why", [
    ("127.0.0.1:7687", "--uri 127.0.0.1:7687: not a Bolt URI; give bolt://HOST:PORT or neo4j://HOST:PORT (or bolt+s, neo4j+s, ...)"),
    ("http://127.0.0.1:7687", "--uri http://127.0.0.1:7687: not a Bolt URI; give bolt://HOST:PORT or neo4j://HOST:PORT"),
    ("bolt://root:secret-4711@127.0.0.1:7687", "--uri bolt://127.0.0.1:7687: a user or password in the URI is not read; "
                                               "set NEO4J_USERNAME / NEO4J_PASSWORD instead"),
    ("bolt://127.0.0.1:port", "--uri bolt://127.0.0.1:port: the port is not a number"),
])
def test_a_uri_the_driver_cannot_use_is_one_line_without_its_password(uri, why):
    result = kg_uri(uri, "stats", NEO4J_PASSWORD="secret-4711")
    assert result.exit_code == 1
    assert len(result.output.splitlines()) == 1 and result.output.startswith(f"Error: {why}")
    assert "secret-4711" not in result.output


def test_the_api_raises_the_same_store_error(monkeypatch):
    uri = f"bolt://127.0.0.1:{free_port()}"
    monkeypatch.setenv("NEO4J_PASSWORD", "secret-4711")
    with pytest.raises(StoreError, match=rf"^Neo4j at {re.escape(uri)}: cannot connect: connection refused"):
        kg.open(uri=uri).stats()
