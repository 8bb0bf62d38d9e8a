"""Start, find and stop the embedded ArcadeDB server of a data folder.

A data folder (default ``./kg-data``) holds the database, the server's logs,
its generated root password (``credentials``, readable by the owner only) and,
while a server runs, ``server.json`` with its pid and ports.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from kg.store.arcadedb_process import DATABASE, STATE_FILE

START_TIMEOUT_S = 120


class StoreError(Exception):
    """A store could not be reached, started or used."""


@dataclass
class ServerInfo:
    data_dir: Path
    pid: int
    bolt_port: int
    database: str = DATABASE

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"


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
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(18))
    return path.read_text().strip()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def running_server(data_dir: Path) -> ServerInfo | None:
    """The server that serves ``data_dir`` now, or None."""
    path = Path(data_dir) / STATE_FILE
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not _pid_alive(state["pid"]) or not _port_open(state["bolt_port"]):
        return None
    return ServerInfo(Path(data_dir), state["pid"], state["bolt_port"], state.get("database", DATABASE))


def start_server(data_dir: Path, *, detach: bool) -> tuple[ServerInfo, subprocess.Popen]:
    """Start a server for ``data_dir`` and wait until Bolt answers.

    With ``detach=False`` the server stops when this process exits (it watches
    its standard input, which only this process holds); with ``detach=True`` it
    keeps running until ``stop_server``.
    """
    data_dir = Path(data_dir).resolve()
    if running_server(data_dir):
        raise StoreError(f"a server already runs for {data_dir}")
    (data_dir / "log").mkdir(parents=True, exist_ok=True)
    (data_dir / STATE_FILE).unlink(missing_ok=True)
    env = dict(os.environ, KG_EMBEDDED_PASSWORD=password_for(data_dir))
    cmd = [sys.executable, "-m", "kg.store.arcadedb_process", str(data_dir)]
    if not detach:
        cmd.append("--watch-stdin")
    log = open(data_dir / "log" / "server.out", "ab")
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.DEVNULL if detach else subprocess.PIPE,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=data_dir,
        start_new_session=detach,
    )
    log.close()
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        info = running_server(data_dir)
        if info and info.pid == proc.pid:
            return info, proc
        if proc.poll() is not None:
            raise StoreError(
                f"the embedded server for {data_dir} exited with code {proc.returncode}; "
                f"see {data_dir / 'log' / 'server.out'}"
            )
        time.sleep(0.2)
    proc.kill()
    raise StoreError(f"the embedded server for {data_dir} did not start in {START_TIMEOUT_S} s")


def stop_server(data_dir: Path, timeout: float = 60) -> bool:
    """Stop the detached server of ``data_dir``; False if none was running."""
    info = running_server(data_dir)
    if info is None:
        return False
    os.kill(info.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _pid_alive(info.pid):
        time.sleep(0.2)
        try:  # reap it if it is our child
            os.waitpid(info.pid, os.WNOHANG)
        except ChildProcessError:
            pass
    if _pid_alive(info.pid):
        os.kill(info.pid, signal.SIGKILL)
    return True


def stop_child(proc: subprocess.Popen, timeout: float = 60) -> None:
    """Stop a server started with ``detach=False`` and wait for it."""
    if proc.poll() is None:
        proc.stdin.close()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
