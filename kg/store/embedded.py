"""Start, share, find and stop the embedded ArcadeDB server of a data folder.

The server stays warm between commands, as build daemons do: the first command
on a folder starts it detached, later commands (and ``open_store`` in a
notebook) reuse it, and it stops by itself once no command has used it for its
idle time (``KG_SERVER_IDLE`` seconds, default 300; 0 stops it as soon as the
command ends).

A data folder (default ``./kg-data``) holds the database, the server's logs,
its generated root password (``credentials``, readable by the owner only) and
these small files:

- ``server.json``: pid and Bolt port of the running server;
- ``server.alive``: locked by the server for its whole life, so a
  ``server.json`` left by a crash (its lock is free) is known to be stale;
- ``server.start``: locked by the command that starts a server, so that
  commands started at once on one folder start one server, never two;
- ``server.users``: share-locked by every command using the server; the server
  stops only once it holds it alone, so it never stops under a command in flight;
- ``build.lock``: held by a build, so two builds on one store run one after the other.

>>> from kg.store.embedded import using_server
>>> with using_server(Path("kg-data")) as info:               # doctest: +SKIP
...     info.uri
'bolt://127.0.0.1:40123'
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from kg.errors import StoreError  # noqa: F401  (raised here, importable from here as before)
from kg.store.arcadedb_process import ALIVE_LOCK, DATABASE, STATE_FILE, USERS_LOCK, query_wait_ms, registry_dir

START_TIMEOUT_S = 120
START_LOCK = "server.start"
BUILD_LOCK = "build.lock"
DEFAULT_IDLE_S = 300
HEAP_SIZE = re.compile(r"^[1-9][0-9]*[kKmMgG]?$")  # as the JVM's -Xmx takes it




@dataclass
class ServerInfo:
    data_dir: Path
    pid: int
    bolt_port: int
    database: str = DATABASE
    idle: float | None = None
    started: float | None = None

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"


def idle_seconds() -> float:
    """The idle time of the servers this process starts: ``KG_SERVER_IDLE``, default 300 s."""
    text = os.environ.get("KG_SERVER_IDLE", "")
    try:
        value = float(text) if text.strip() else DEFAULT_IDLE_S
    except ValueError:
        raise StoreError(f"KG_SERVER_IDLE must be a number of seconds, not {text!r}") from None
    if value < 0:
        raise StoreError(f"KG_SERVER_IDLE must be 0 or more seconds, not {text!r}")
    return value


def password_for(data_dir: Path) -> str:
    """The root password of this data folder, made on first use.

    ``KG_EMBEDDED_PASSWORD`` overrides it; it is never printed.
    """
    env = os.environ.get("KG_EMBEDDED_PASSWORD")
    if env:
        return env
    path = data_dir / "credentials"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another command made it first
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_urlsafe(18))
    for _ in range(50):  # the other command may not have written it yet
        password = path.read_text().strip()
        if password:
            return password
        time.sleep(0.02)
    raise StoreError(f"{path} is empty: delete it to make a new password")


def has_graph(data_dir: Path) -> bool:
    """Whether ``data_dir`` holds a store (a build made it), without starting anything."""
    return (Path(data_dir) / "databases" / DATABASE).is_dir()


@contextmanager
def _flock(path: Path, mode: int) -> Iterator[int]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, mode)
        yield fd
    finally:
        os.close(fd)


def _server_alive(data_dir: Path) -> bool:
    """Whether a server process holds the folder's life lock (a crashed one does not)."""
    try:
        fd = os.open(data_dir / ALIVE_LOCK, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def running_server(data_dir: Path) -> ServerInfo | None:
    """The server that serves ``data_dir`` now, or None (a stale ``server.json`` counts as none)."""
    data_dir = Path(data_dir)
    try:
        state = json.loads((data_dir / STATE_FILE).read_text())
        pid, port = int(state["pid"]), int(state["bolt_port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not _server_alive(data_dir):
        return None
    return ServerInfo(data_dir, pid, port, state.get("database", DATABASE), state.get("idle"), state.get("started"))


def running_servers() -> list[ServerInfo]:
    """Every embedded server of this user that runs now, by data folder; notes of dead ones are removed."""
    found = []
    for note in sorted(registry_dir().glob("*.json")):
        try:
            data_dir = Path(json.loads(note.read_text())["data_dir"])
        except (OSError, ValueError, KeyError, TypeError):
            note.unlink(missing_ok=True)
            continue
        info = running_server(data_dir)
        if info is None or f"{info.pid}.json" != note.name:
            note.unlink(missing_ok=True)
            continue
        found.append(info)
    return sorted(found, key=lambda info: str(info.data_dir))


def _spawn(data_dir: Path, idle: float, http: bool) -> subprocess.Popen:
    wait = os.environ.get("KG_QUERY_WAIT")
    if query_wait_ms(wait) is None:
        raise StoreError(f"KG_QUERY_WAIT={wait!r} is not a number of seconds above 0 (how long a query may wait for "
                         "the server while others run)")
    (data_dir / "log").mkdir(parents=True, exist_ok=True)
    (data_dir / STATE_FILE).unlink(missing_ok=True)  # stale: no server holds the folder
    # run as a script, not `-m kg.store.arcadedb_process`: the kg package (and the neo4j driver) stay unloaded
    cmd = [sys.executable, str(Path(__file__).with_name("arcadedb_process.py")), str(data_dir), "--idle", f"{idle:g}"]
    if http:
        cmd.append("--http")
    with open(data_dir / "log" / "server.out", "ab") as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, cwd=data_dir,
                                start_new_session=True)  # a Ctrl-C in the terminal is for the command, not the server
    # the password goes through a pipe: never in the server's environment or command line
    proc.stdin.write((password_for(data_dir) + "\n").encode())
    proc.stdin.close()
    threading.Thread(target=proc.wait, daemon=True).start()  # reap it if it ends while we run
    return proc


PORT_RACES = 3  # a port free when the server chose it may be taken by another program before it listens


def _start(data_dir: Path, idle: float, http: bool) -> ServerInfo:
    """A new server for ``data_dir``, ready; started again (on other ports) when another program
    took its port first."""
    log = data_dir / "log" / "server.out"
    for attempt in range(1, PORT_RACES + 1):
        seen = log.stat().st_size if log.exists() else 0
        proc = _spawn(data_dir, idle, http)  # writes the log
        try:
            return _wait_ready(data_dir, proc)
        except StoreError:
            if attempt == PORT_RACES or not _lost_port(log, seen):
                raise
    return None  # never reached: the last attempt returns or raises


def _lost_port(log: Path, seen: int) -> bool:
    """Whether the server's log, after its first ``seen`` bytes, says its Bolt port was taken."""
    with open(log, "rb") as handle:
        handle.seek(seen)
        return b"Unable to listen for BOLT connections" in handle.read()


def _wait_ready(data_dir: Path, proc: subprocess.Popen) -> ServerInfo:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        info = running_server(data_dir)
        if info and info.pid == proc.pid:
            return info
        if proc.poll() is not None:
            raise StoreError(f"the embedded server for {data_dir} exited with code {proc.returncode}; "
                             f"see {data_dir / 'log' / 'server.out'}")
        time.sleep(0.05)
    proc.kill()
    raise StoreError(f"the embedded server for {data_dir} did not start in {START_TIMEOUT_S} s")


def start_server(data_dir: Path, idle: float | None = None, http: bool = False) -> ServerInfo:
    """Start the detached server of ``data_dir`` (unless one runs) and wait until Bolt answers.

    It stops after ``idle`` seconds without a command (default ``idle_seconds()``).
    """
    heap = os.environ.get("KG_HEAP")  # empty is unset, as the server reads it (default_heap)
    if heap and not HEAP_SIZE.match(heap):  # the JVM would only say it cannot start
        raise StoreError(f"KG_HEAP={heap!r} is not a Java heap size: give a whole number with k, m or g (1536m, 2g)")
    data_dir = Path(data_dir).resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    idle = idle_seconds() if idle is None else idle
    with _flock(data_dir / START_LOCK, fcntl.LOCK_EX):
        info = running_server(data_dir)
        if info is None:
            info = _start(data_dir, idle, http)
    return info


@contextmanager
def using_server(data_dir: Path, idle: float | None = None) -> Iterator[ServerInfo]:
    """The running server of ``data_dir``, started if none runs, kept from stopping while the block runs."""
    data_dir = Path(data_dir).resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    idle = idle_seconds() if idle is None else idle
    users = os.open(data_dir / USERS_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        info = _take(data_dir, users, idle)
        os.utime(users)  # the server counts its idle time from the last use
        try:
            yield info
        finally:
            os.utime(users)
    finally:
        os.close(users)


def _take(data_dir: Path, users: int, idle: float) -> ServerInfo:
    """Share the users lock of a live server, starting one if needed; a server stopping is waited for."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        info = running_server(data_dir)
        if info is None:
            with _flock(data_dir / START_LOCK, fcntl.LOCK_EX):
                if running_server(data_dir) is None:
                    # taken before the server starts, so that it cannot stop before this command used it
                    fcntl.flock(users, fcntl.LOCK_SH)
                    return _start(data_dir, idle, http=False)
            continue
        fcntl.flock(users, fcntl.LOCK_SH)  # waits while a server stops, until it is gone
        again = running_server(data_dir)
        if again is not None and again.pid == info.pid:
            return info
        fcntl.flock(users, fcntl.LOCK_UN)
    raise StoreError(f"no embedded server for {data_dir} after {START_TIMEOUT_S} s; see {data_dir / 'log' / 'server.out'}")


def stop_server(data_dir: Path, timeout: float = 60) -> bool | None:
    """Ask the server of ``data_dir`` to stop once the commands using it end.

    True when it stopped, False if none was running, None if commands still
    used it after ``timeout`` seconds (it stops when they end).
    """
    info = running_server(Path(data_dir))
    if info is None:
        return False
    os.kill(info.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _server_alive(Path(data_dir)):
            return True
        time.sleep(0.1)
    return None


@contextmanager
def build_lock(data_dir: Path) -> Iterator[None]:
    """Hold the folder's build lock; say so on stderr when another build holds it and wait."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(data_dir / BUILD_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            print(f"Waiting for another build on {data_dir} (pid {holder}) to finish...", file=sys.stderr, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)
