"""The graph store: the embedded ArcadeDB or a Neo4j server, both over Bolt.

>>> from kg.store import open_store
>>> with open_store(db_dir="kg-data") as store:          # doctest: +SKIP
...     store.run("MATCH (p:Paper) RETURN count(p) AS papers")
[{'papers': 57}]
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

from neo4j import READ_ACCESS, WRITE_ACCESS, GraphDatabase
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

from kg.cypher import write_clause
from kg.store.embedded import (
    StoreError,
    password_for,
    running_server,
    start_server,
    stop_child,
)

DEFAULT_DB_DIR = "kg-data"


class ReadOnlyError(StoreError):
    """A query that writes, run as a read (the embedded store ignores the driver's read sessions)."""


class Store:
    """A Bolt connection to one database, with the few verbs the project needs."""

    def __init__(self, driver, database: str | None, description: str):
        self.driver = driver
        self.database = database
        self.description = description  # for messages; never holds a password

    def run(self, query: str, parameters: dict[str, Any] | None = None, *, write: bool = False) -> list[dict]:
        """Run one query with parameters and return its rows as dicts."""
        return list(self.stream(query, parameters, write=write))

    def stream(self, query: str, parameters: dict[str, Any] | None = None, *, write: bool = False) -> Iterator[dict]:
        """Run one query and yield its rows one at a time (an export never holds them all).

        Unless ``write``, a query with a clause that writes is refused (``kg.cypher.write_clause``).
        """
        clause = None if write else write_clause(query)
        if clause:
            raise ReadOnlyError(f"{self.description}: refused a query that writes ({clause}) in a read; "
                                "run it with write=True (kg query: --write)")
        mode = WRITE_ACCESS if write else READ_ACCESS
        try:
            with self.driver.session(database=self.database, default_access_mode=mode) as session:
                for record in session.run(query, parameters or {}):
                    yield record.data()
        except Neo4jError as err:
            raise StoreError(f"{self.description}: {err.message or err}") from err

    def run_batches(self, query: str, rows: Iterable[dict], batch_size: int = 1000) -> int:
        """Run ``query`` (which reads ``UNWIND $rows AS row``) over ``rows`` in batches."""
        batch: list[dict] = []
        done = 0
        for row in rows:
            batch.append(row)
            if len(batch) >= batch_size:
                self.run(query, {"rows": batch}, write=True)
                done += len(batch)
                batch = []
        if batch:
            self.run(query, {"rows": batch}, write=True)
            done += len(batch)
        return done

    def close(self) -> None:
        self.driver.close()


def _connect(uri: str, user: str, password: str, database: str | None, description: str) -> Store:
    driver = GraphDatabase.driver(uri, auth=(user, password))
    try:
        driver.verify_connectivity()
    except AuthError as err:
        driver.close()
        raise StoreError(f"{description}: authentication failed for user {user!r}") from err
    except (ServiceUnavailable, OSError) as err:
        driver.close()
        raise StoreError(f"{description}: cannot connect ({err})") from err
    return Store(driver, database, description)


@contextmanager
def open_store(db_dir: str | Path | None = None, uri: str | None = None) -> Iterator[Store]:
    """Open the store a command should use.

    ``uri`` (or ``NEO4J_URI``) selects a Neo4j server, with ``NEO4J_USERNAME``,
    ``NEO4J_PASSWORD`` and ``NEO4J_DATABASE``. Otherwise the embedded store in
    ``db_dir`` (or ``KG_DB``, default ``./kg-data``) is used: the server that
    ``kg server start`` left running, or one started for this call and stopped
    when it ends.
    """
    uri = uri or os.environ.get("NEO4J_URI")
    if uri:
        user = os.environ.get("NEO4J_USERNAME", "neo4j")
        password = os.environ.get("NEO4J_PASSWORD", "")
        database = os.environ.get("NEO4J_DATABASE") or None
        store = _connect(uri, user, password, database, f"Neo4j at {uri}")
        try:
            yield store
        finally:
            store.close()
        return

    data_dir = Path(db_dir or os.environ.get("KG_DB") or DEFAULT_DB_DIR).resolve()
    info = running_server(data_dir)
    child = None
    if info is None:
        info, child = start_server(data_dir, detach=False)
    try:
        store = _connect(info.uri, "root", password_for(data_dir), info.database, f"embedded store {data_dir}")
        try:
            yield store
        finally:
            store.close()
    finally:
        if child is not None:
            stop_child(child)
