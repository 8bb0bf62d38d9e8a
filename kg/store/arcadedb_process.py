"""The embedded ArcadeDB server, run as a process of its own.

``python -m kg.store.arcadedb_process DIR`` starts ArcadeDB (from the
``arcadedb-embedded`` wheel) with its Bolt plugin on 127.0.0.1, keeps data and
logs in DIR, writes ``DIR/server.json`` once Bolt answers, and stops cleanly on
SIGTERM/SIGINT, or when its standard input closes if ``--watch-stdin`` is
given (so a per-command server dies with the command that started it).

It runs apart from the ``kg`` process because the wheel runs a JVM inside the
process that starts it, and spaCy's worker processes must never fork a JVM.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sys
import threading
from pathlib import Path

DATABASE = "kg"
STATE_FILE = "server.json"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(data_dir: Path, password: str, watch_stdin: bool) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    os.chdir(data_dir)  # the wheel writes log/ into the working directory
    import arcadedb_embedded

    bolt_port, http_port = free_port(), free_port()
    server = arcadedb_embedded.ArcadeDBServer(
        root_path=str(data_dir),
        root_password=password,
        config={
            "host": "127.0.0.1",
            "http_port": http_port,
            "server_plugins": "Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "bolt_port": bolt_port,
            "server_defaultDatabases": f"{DATABASE}[root]",
        },
        # -Xrs leaves SIGTERM/SIGINT to Python, so the server stops cleanly.
        jvm_kwargs={"heap_size": os.environ.get("KG_HEAP", "2g"), "jvm_args": ["-Xrs"]},
    )
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    if watch_stdin:
        threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()

    server.start()
    state = {"pid": os.getpid(), "bolt_port": bolt_port, "http_port": http_port, "database": DATABASE}
    tmp = data_dir / (STATE_FILE + ".tmp")
    tmp.write_text(json.dumps(state))
    tmp.replace(data_dir / STATE_FILE)
    print("ready", json.dumps(state), flush=True)
    try:
        while not stop.wait(0.5):
            pass
    finally:
        (data_dir / STATE_FILE).unlink(missing_ok=True)
        server.stop()
        print("stopped", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--watch-stdin", action="store_true")
    args = parser.parse_args()
    password = os.environ.pop("KG_EMBEDDED_PASSWORD", "")
    if not password:
        sys.exit("KG_EMBEDDED_PASSWORD is not set")
    serve(args.data_dir.resolve(), password, args.watch_stdin)


if __name__ == "__main__":
    main()
