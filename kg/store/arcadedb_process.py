"""The embedded ArcadeDB server, run as a detached process of its own.

``python -m kg.store.arcadedb_process DIR --idle SECONDS`` reads the root
password from the first line of its standard input (so that it is never in its
environment or command line), starts ArcadeDB (from the ``arcadedb-embedded``
wheel) in production mode with its Bolt plugin on 127.0.0.1, keeps data and
logs in DIR, and writes ``DIR/server.json`` once Bolt answers.

It stops by itself once no command has used it for SECONDS (0: as soon as the
last command ends), on SIGTERM/SIGINT, or when DIR is deleted; it never stops
under a command in flight (see ``kg.store.embedded`` for the lock files).

It runs apart from the ``kg`` process because the wheel runs a JVM inside the
process that starts it, and spaCy's worker processes must never fork a JVM.
"""

from __future__ import annotations

import argparse
import fcntl
import glob
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

DATABASE = "kg"
STATE_FILE = "server.json"
# the store's Java heap unless KG_HEAP says otherwise: an eighth of the machine's memory within these bounds. G1 may
# spend 20% of the time collecting (GC_TIME_RATIO; its default about 8%), so the heap grows only as far as it must:
# a build peaks lower for a few percent of its time (docs/benchmarks.md, "Build at scale"); a larger KG_HEAP buys it back
MIN_HEAP_MB, MAX_HEAP_MB = 512, 1024
GC_TIME_RATIO = 4
# ArcadeDB runs at most max(4, 2 x cores) Bolt requests at once; the others wait in a queue, by
# default for 30 s, then fail ("The request failed", a transient error): a build's batch queued
# behind slow reads (views, kg similar) lost its work. kg's own server lets a request wait longer.
DEFAULT_QUERY_WAIT_S = 600
ALIVE_LOCK = "server.alive"  # held exclusively by the server for its whole life
USERS_LOCK = "server.users"  # shared by the commands using the server; exclusive while it stops
POLL_S = 0.25
CACHE_FORMAT = 2  # how a JVM class cache is keyed (2: without system properties); caches keyed otherwise are removed


def default_heap(memory_bytes: int | None = None) -> str:
    """The server's Java heap unless ``KG_HEAP`` says: an eighth of the machine's memory
    (``memory_bytes``, else what the system reports), at least ``MIN_HEAP_MB``, at most ``MAX_HEAP_MB``.

    >>> default_heap(24 * 2**30), default_heap(6 * 2**30), default_heap(2 * 2**30)
    ('1024m', '768m', '512m')
    """
    if memory_bytes is None:
        try:
            memory_bytes = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (AttributeError, ValueError, OSError):  # a system that does not say
            return f"{MAX_HEAP_MB}m"
    return f"{max(MIN_HEAP_MB, min(MAX_HEAP_MB, memory_bytes // 8 // 2**20))}m"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def registry_dir() -> Path:
    """Where each running server of this user leaves a note, so that ``kg server status`` can list them."""
    base = os.environ.get("XDG_RUNTIME_DIR") or Path.home() / ".cache"
    return Path(base) / "kg" / "servers"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def jvm_cache_args(jvm_args: list[str], wait: float = 0) -> list[str]:
    """Java's ahead-of-time cache of the classes the server loads (JDK 25), which about halves its start.

    Made once per wheel and JVM options (system properties aside: they change no class the server loads),
    in the background, by a server started and stopped on a scratch folder (the JVM writes the cache as
    it exits), then used by every later start; ``wait``: seconds to wait for it instead (``make install``
    records it so, before any server starts). ``KG_JVM_CACHE=0`` turns it off. A broken cache only
    costs the speed-up: the JVM starts without it. Each cache notes the Python environment it was made
    for; making one removes those of environments that are gone (about 39 MB each).
    """
    if os.environ.get("KG_JVM_CACHE", "1") == "0":
        return []
    # found without importing the wheel: its import loads JPype's import hooks into the caller
    wheel = importlib.util.find_spec("arcadedb_embedded").submodule_search_locations[0]
    jars = sorted(glob.glob(os.path.join(wheel, "jars", "*.jar")))
    version = importlib.metadata.version("arcadedb-embedded")
    options = [arg for arg in jvm_args if not arg.startswith("-D")]
    key = hashlib.sha256(json.dumps([version, sys.prefix, jars, options]).encode()).hexdigest()[:16]
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kg" / "jvm"
    final = folder / f"arcadedb-{key}.aot"
    making = _recording(folder, key)
    if final.exists():
        return [f"-XX:AOTCache={final}"]
    if not making:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            forget_caches_of_removed_environments(folder)
            (folder / f"arcadedb-{key}.json").write_text(json.dumps({"python": sys.prefix, "format": CACHE_FORMAT}))
        except OSError:  # a cache folder kg may not write: servers start without the cache
            return []
        recorder = subprocess.Popen([sys.executable, __file__, "--make-jvm-cache", str(folder / f"arcadedb-{key}")],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    start_new_session=True)
        (folder / f"arcadedb-{key}.{recorder.pid}.aot.config").touch()  # so that no other start records one too
        threading.Thread(target=recorder.wait, daemon=True).start()  # reaped when it ends: a zombie looks alive
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and not final.exists() and _recording(folder, key):
        time.sleep(0.2)
    return [f"-XX:AOTCache={final}"] if wait > 0 and final.exists() else []


def _recording(folder: Path, key: str) -> bool:
    """Whether a live process records the cache ``key``; the files of those that were killed are removed."""
    making = False
    for path in folder.glob(f"arcadedb-{key}.*.aot*"):  # arcadedb-KEY.PID.aot (.aot.config while recording)
        pid = path.name.split(".")[1]
        if pid.isdigit() and _pid_alive(int(pid)):
            making = True
        else:  # a recorder names its cache final itself, once complete: this one was killed
            path.unlink(missing_ok=True)
    return making


def forget_caches_of_removed_environments(folder: Path) -> None:
    """Delete the JVM class caches in ``folder`` (and their notes) made for a Python environment that no
    longer exists, and those an older kg made (no note, or keyed otherwise: their environment's next start
    makes one again)."""
    names = (path.name.removeprefix("arcadedb-").partition(".") for path in folder.glob("arcadedb-*"))
    for key in sorted({key for key, _, kind in names if kind in ("aot", "json")}):  # not KEY.PID.aot: being recorded
        note = folder / f"arcadedb-{key}.json"
        try:
            noted = json.loads(note.read_text())
            python = noted["python"] if noted.get("format") == CACHE_FORMAT else None
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            python = None
        if python is None or not Path(python).is_dir():
            (folder / f"arcadedb-{key}.aot").unlink(missing_ok=True)
            note.unlink(missing_ok=True)


def make_jvm_cache(prefix: str, timeout: float = 600) -> None:
    """Start and stop a server on a scratch folder while the JVM records the classes it loads, then name the
    cache ``PREFIX.aot`` once it is complete: starts take it from then on, never half written."""
    import jpype

    output = Path(f"{prefix}.{os.getpid()}.aot")
    with tempfile.TemporaryDirectory(prefix="kg-jvm-cache-") as scratch:
        os.chdir(scratch)
        server, _ = _start_arcadedb(Path(scratch), secrets.token_urlsafe(18), http=False,
                                    cache_args=[f"-XX:AOTCacheOutput={output}"])
        server.stop()
        os.chdir(output.parent)
    # the JVM writes the cache as it shuts down: the classes it loaded to PREFIX.PID.aot.config, then a JVM
    # of its own makes the cache of them and deletes that file when the cache is complete
    jpype.shutdownJVM()
    config = output.with_name(output.name + ".config")
    deadline = time.monotonic() + timeout
    while config.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    if config.exists() or not output.exists():
        config.unlink(missing_ok=True)
        output.unlink(missing_ok=True)
        sys.exit(f"no JVM class cache made in {timeout:.0f} s")
    output.replace(f"{prefix}.aot")


def _lock_alive(data_dir: Path) -> int:
    """Hold the folder's life lock; exit if another server holds it (a moment's wait covers a status check)."""
    fd = os.open(data_dir / ALIVE_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + 5
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                sys.exit(f"another server already serves {data_dir}")
            time.sleep(0.05)


def server_jvm_options() -> list[str]:
    """The Java heap (``KG_HEAP``, else :func:`default_heap`) and the JVM options of this environment's servers."""
    heap = os.environ.get("KG_HEAP") or default_heap()
    # -Xrs leaves SIGTERM/SIGINT to Python, so the server stops cleanly
    return [heap, "-Xrs", f"-XX:GCTimeRatio={GC_TIME_RATIO}",
            f"-Darcadedb.queryQueueTimeout={query_wait_ms(os.environ.get('KG_QUERY_WAIT'))}"]


def _start_arcadedb(data_dir: Path, password: str, http: bool, cache_args: list[str] | None = None):
    import arcadedb_embedded

    bolt_port = free_port()
    options = server_jvm_options()
    heap, *jvm_args = options
    # Root's password comes from DIR/credentials at every start, never from an older users file
    # (a folder deleted and made again while its old server stopped could keep the old one).
    (data_dir / "config" / "server-users.jsonl").unlink(missing_ok=True)
    server = arcadedb_embedded.ArcadeDBServer(
        root_path=str(data_dir),
        root_password=password,
        config={
            "mode": "production",  # no Studio; the HTTP API, when kept, asks for a login
            "host": "127.0.0.1",
            "http_port": free_port(),
            "server_plugins": "Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "bolt_port": bolt_port,
            "server_defaultDatabases": f"{DATABASE}[root]",
        },
        jvm_kwargs={"heap_size": heap, "jvm_args": jvm_args + (jvm_cache_args(options) if cache_args is None
                                                               else cache_args)},
    )
    server.start()
    if not http:  # kg speaks Bolt only: close the HTTP listener the engine always opens
        server._java_server.getHttpServer().stopService()
    return server, bolt_port


def query_wait_ms(text: str | None) -> int | None:
    """``KG_QUERY_WAIT`` (``text``), the seconds a request may wait for one of the server's query
    slots, in ms: ``DEFAULT_QUERY_WAIT_S`` when unset, None when it is no number above 0.

    >>> query_wait_ms("2.5"), query_wait_ms(None), query_wait_ms("soon")
    (2500, 600000, None)
    """
    try:
        seconds = DEFAULT_QUERY_WAIT_S if text is None else float(text)
    except ValueError:
        return None
    return round(seconds * 1000) if 0 < seconds < 10**6 else None


class _Idle:
    """Decides when the server may stop: nobody holds the users lock and nobody used it for ``idle`` seconds."""

    def __init__(self, data_dir: Path, idle: float):
        self.idle = idle
        self.path = data_dir / USERS_LOCK
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        self.last_busy = time.time()

    def last_use(self) -> float:
        try:  # commands touch the file when they take and leave the server
            return max(self.last_busy, os.stat(self.fd).st_mtime)
        except OSError:
            return self.last_busy

    def try_stop(self) -> bool:
        """True (holding the users lock, so no command can start using it) when the server may stop now."""
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.last_busy = time.time()
            return False
        if time.time() - self.last_use() >= self.idle:
            return True
        fcntl.flock(self.fd, fcntl.LOCK_UN)
        return False

    def wait_for_users(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_EX)


def _same_file(path: Path, fd: int) -> bool:
    """False once the folder was deleted (or made again): this server no longer serves it."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except OSError:
        return False


def _write_state(data_dir: Path, state: dict) -> Path:
    tmp = data_dir / (STATE_FILE + ".tmp")
    tmp.write_text(json.dumps(state))
    tmp.replace(data_dir / STATE_FILE)
    note = registry_dir() / f"{state['pid']}.json"
    try:
        note.parent.mkdir(parents=True, exist_ok=True)
        note.write_text(json.dumps(state))
    except OSError:
        pass  # only `kg server status` without --db misses it
    return note


def _remove_state(data_dir: Path, note: Path) -> None:
    note.unlink(missing_ok=True)
    try:  # only our own: a folder made again may hold a new server's
        if json.loads((data_dir / STATE_FILE).read_text())["pid"] == os.getpid():
            (data_dir / STATE_FILE).unlink()
    except (OSError, ValueError, KeyError):
        pass


def serve(data_dir: Path, password: str, idle: float, http: bool) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    os.chdir(data_dir)  # the wheel writes log/ into the working directory
    alive_fd = _lock_alive(data_dir)
    users = _Idle(data_dir, idle)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())

    server, bolt_port = _start_arcadedb(data_dir, password, http)
    state = {"pid": os.getpid(), "bolt_port": bolt_port, "database": DATABASE, "data_dir": str(data_dir),
             "idle": idle, "started": time.time()}
    note = _write_state(data_dir, state)
    print("ready", json.dumps(state), flush=True)
    try:
        while True:
            if stop.wait(POLL_S):
                print("stop requested; waiting for the commands in flight", flush=True)
                users.wait_for_users()
                break
            if not _same_file(data_dir / ALIVE_LOCK, alive_fd):
                print("the data folder is gone", flush=True)
                break
            if users.try_stop():
                print(f"idle for {idle:g} s", flush=True)
                break
    finally:
        _remove_state(data_dir, note)
        server.stop()
        print("stopped", flush=True)
    # the locks go with the process, after the database is closed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("data_dir", type=Path, nargs="?")
    parser.add_argument("--make-jvm-cache", metavar="PREFIX", help="record the JVM's class cache to PREFIX.PID.aot")
    parser.add_argument("--jvm-cache", action="store_true",
                        help="record the JVM class cache of this environment's servers now, unless made (make install)")
    parser.add_argument("--idle", type=float, default=300, help="seconds without a command before it stops")
    parser.add_argument("--http", action="store_true", help="keep ArcadeDB's HTTP API (it asks for a login)")
    args = parser.parse_args()
    if args.make_jvm_cache:
        return make_jvm_cache(args.make_jvm_cache)
    if args.jvm_cache:  # never an error: without the cache, servers only start slower
        made = jvm_cache_args(server_jvm_options(), wait=600)
        print(f"JVM class cache: {made[0].split('=', 1)[1] if made else 'none (KG_JVM_CACHE=0, or it could not be made)'}")
        return None
    password = sys.stdin.readline().strip()
    if not password:
        sys.exit("no password on standard input")
    serve(args.data_dir.resolve(), password, args.idle, args.http)


if __name__ == "__main__":
    main()
