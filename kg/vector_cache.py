"""The vectors a build encoded, kept by what they were encoded from, so that no text is encoded twice.

The dense encoder (``kg.dense``) is the costliest step of a build after extraction: about 50 ms
of CPU an abstract. Its output depends only on the model and on the text it reads (and the
sentences asked of it), so a rebuild of the same corpus, into the same store or another, takes
each paper's vectors from this cache instead of running the encoder again, and gets the same
values: the very numbers the encoder gave, kept as stored.

Where: ``KG_VECTOR_CACHE`` (a folder), by default ``~/.cache/kg/vectors`` (``$XDG_CACHE_HOME``
if set); ``KG_VECTOR_CACHE=0`` turns it off. One SQLite file there, ``vectors.sqlite``, shared
by every process (extraction workers, builds at once). Bounded: past ``MAX_BYTES`` of vectors
the entries used longest ago are dropped. A cache that cannot be read or written costs only
the speed-up: the encoder runs.

>>> import tempfile
>>> cache = VectorCache(Path(tempfile.mkdtemp()), model_key="m1")
>>> cache.put({"LoRA adapts models.": {"dense": [0.6, 0.8]}})
>>> cache.get(["LoRA adapts models.", "Soil moisture."])
{'LoRA adapts models.': {'dense': [0.6, 0.8]}}
>>> VectorCache(cache.folder, model_key="m2").get(["LoRA adapts models."])  # another model's cache
{}
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CACHE_ENV = "KG_VECTOR_CACHE"
MAX_BYTES = 512 * 2**20  # the vectors and sentence vectors of about 60,000 abstracts
FILE = "vectors.sqlite"
SCHEMA = """CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, value TEXT NOT NULL,
            size INTEGER NOT NULL, used REAL NOT NULL);
            CREATE INDEX IF NOT EXISTS vectors_used ON vectors (used)"""


def cache_folder() -> Path | None:
    """The folder of the cache (``KG_VECTOR_CACHE``, else ``~/.cache/kg/vectors``), or None when it is off."""
    value = os.environ.get(CACHE_ENV, "").strip()
    if value == "0":
        return None
    if value:
        return Path(value).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kg" / "vectors"


class VectorCache:
    """The cached outputs of one model (``model_key``: what identifies its files), by input.

    An input is any JSON value (a text, or a text and what was asked of it); an output any JSON
    object. Reads and writes that fail (a folder kg may not write, a full disk) find and keep nothing.
    """

    def __init__(self, folder: Path, model_key: str, max_bytes: int = MAX_BYTES):
        self.folder, self.model_key, self.max_bytes = Path(folder), model_key, max_bytes
        self._db: sqlite3.Connection | None = None
        self._pid = None
        self._lock = threading.Lock()

    def key(self, value) -> str:
        """The key of an input: a hash of the model and the input."""
        text = json.dumps([self.model_key, value], ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get(self, inputs: list) -> dict:
        """The cached outputs of those of ``inputs`` that are in the cache, by input (hashable ones: texts)."""
        keys = {self.key(value): value for value in inputs}
        try:
            with self._locked() as db:
                found = self._read(db, list(keys))
        except (OSError, sqlite3.Error):
            return {}
        return {keys[k]: json.loads(v) for k, v in found.items()}

    @staticmethod
    def _read(db: sqlite3.Connection, keys: list[str]) -> dict[str, str]:
        found = {}
        for chunk in _chunks(keys, 500):
            marks = ",".join("?" * len(chunk))
            found.update(db.execute(f"SELECT key, value FROM vectors WHERE key IN ({marks})", chunk).fetchall())
        if found:
            with db:
                db.executemany("UPDATE vectors SET used = ? WHERE key = ?", [(time.time(), k) for k in found])
        return found

    def put(self, outputs: dict) -> None:
        """Keep ``outputs`` (input -> output), then drop the entries used longest ago past ``max_bytes``."""
        rows = []
        for value, output in outputs.items():
            text = json.dumps(output, separators=(",", ":"))
            rows.append((self.key(value), text, len(text), time.time()))
        try:
            with self._locked() as db, db:
                db.executemany("INSERT OR REPLACE INTO vectors (key, value, size, used) VALUES (?, ?, ?, ?)", rows)
                self._bound(db)
        except (OSError, sqlite3.Error):
            pass

    def _bound(self, db: sqlite3.Connection) -> None:
        total = db.execute("SELECT coalesce(sum(size), 0) FROM vectors").fetchone()[0]
        if total <= self.max_bytes:
            return
        keep = self.max_bytes * 0.9  # room for the next writes: the sum is not read again at each one
        dropped = 0
        for key, size in db.execute("SELECT key, size FROM vectors ORDER BY used").fetchall():
            if total - dropped <= keep:
                break
            db.execute("DELETE FROM vectors WHERE key = ?", (key,))
            dropped += size

    @contextmanager
    def _locked(self) -> Iterator[sqlite3.Connection]:
        """This process's connection, for one thread at a time (a build's read-ahead thread and its
        main one share it); a forked extraction worker opens its own."""
        if self._pid != os.getpid():
            self._db, self._lock = None, threading.Lock()  # the parent's, copied by the fork, are not this process's
            self._pid = os.getpid()
        with self._lock:
            if self._db is None:
                self.folder.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.folder / FILE, timeout=60, isolation_level=None, check_same_thread=False)
                db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
                db.executescript(SCHEMA)
                db.isolation_level = ""  # `with db:` makes a transaction
                self._db = db
            yield self._db


def _chunks(items: list, size: int):
    for start in range(0, len(items), size):
        yield items[start:start + size]


def file_digest(*paths: Path) -> str:
    """A hash of the bytes of ``paths``: what identifies a model by its files."""
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()
