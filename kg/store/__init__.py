"""The graph store: the embedded ArcadeDB or a Neo4j server, both over Bolt.

>>> from kg.store import open_store
>>> with open_store(db_dir="kg-data") as store:          # doctest: +SKIP
...     store.run("MATCH (p:Paper) RETURN count(p) AS papers")
[{'papers': 57}]
"""

from __future__ import annotations

import contextlib
import logging
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

from neo4j import READ_ACCESS, WRITE_ACCESS, GraphDatabase
from neo4j.exceptions import DriverError, Neo4jError

from kg import defaults
from kg.cypher import write_clause
from kg.errors import ReadOnlyError, StoreError
from kg.store.batches import batched
from kg.store.capture import capture
from kg.store.driver_errors import checked_uri, shown_uri, store_error
from kg.store.embedded import build_lock, has_graph, password_for, using_server

DEFAULT_DB_DIR = defaults.DB
# The driver logs what it then raises ("Unable to retrieve routing information"); with no handler of the
# application's, Python would print it as a second line beside kg's one: it is kept for handlers set up.
logging.getLogger("neo4j").addHandler(logging.NullHandler())
_PLAIN = frozenset({str, int, float, bool, type(None)})


def row_of(record) -> dict:
    """A record as a dict, as ``record.data()`` gives it: nodes, relationships and paths become
    dicts of their properties. A row of plain values, lists or maps of them is taken as it is:
    ``data()`` checks every value against the driver's graph types, which was a third of the
    CPU of a vocabulary pass reading 600,000 rows.

    >>> from neo4j import Record
    >>> row_of(Record({"id": "p1", "words": ["lora", "rank"], "year": None}))
    {'id': 'p1', 'words': ['lora', 'rank'], 'year': None}
    """
    row = dict(record.items())
    for value in row.values():
        kind = type(value)
        if kind in _PLAIN or (kind is list and all(type(v) in _PLAIN for v in value)) \
                or (kind is dict and all(type(v) in _PLAIN for v in value.values())):
            continue
        return record.data()
    return row


class Store:
    """A Bolt connection to one database, with the few verbs the project needs."""

    def __init__(self, driver, database: str | None, description: str, data_dir: Path | None = None):
        self.driver = driver
        self.database = database
        self.description = description  # for messages; never holds a password
        self.data_dir = data_dir  # the embedded store's folder; None for Neo4j

    def _error(self, err: Exception, what: str = "") -> StoreError:
        """The ``StoreError`` of a driver error met on this store (``kg.store.driver_errors``)."""
        return store_error(err, self.description + what, database=self.database, neo4j=self.data_dir is None)

    def run(self, query: str, parameters: dict[str, Any] | None = None, *, write: bool = False) -> list[dict]:
        """Run one query with parameters and return its rows as dicts."""
        return list(self.stream(query, parameters, write=write))

    def stream(self, query: str, parameters: dict[str, Any] | None = None, *, write: bool = False) -> Iterator[dict]:
        """Run one query and yield its rows one at a time (an export never holds them all).

        Unless ``write``, a query with a clause that writes is refused (``kg.cypher.write_clause``).
        A write runs in a transaction of its own, its rows read whole before it commits.
        """
        clause = None if write else write_clause(query)
        if clause:
            raise ReadOnlyError(f"this query writes ({clause}) and was run as a read in {self.description}; "
                                "run it again with write=True (kg query: --write) if that is what you want")
        capture(query, parameters or {})  # KG_CAPTURE_CYPHER: every statement sent, for Neo4j's analysis (tests)
        try:
            yield from self._records(query, parameters or {}, WRITE_ACCESS if write else READ_ACCESS)
        except (Neo4jError, DriverError) as err:  # a refused query, or the server went away mid-command
            raise self._error(err) from err

    def _records(self, query: str, parameters: dict, mode: str) -> Iterator[dict]:
        with self.driver.session(database=self.database, default_access_mode=mode) as session:
            if mode == READ_ACCESS:
                for record in session.run(query, parameters):
                    yield row_of(record)
                return
            # A write runs in a transaction of its own, never as an auto-commit query: ArcadeDB commits an
            # auto-commit query's writes row by row (a DETACH DELETE of 3,661 nodes: 3.5 s, in one transaction
            # 0.2 s) and leaves the rows before a failure written; Neo4j commits either whole.
            with session.begin_transaction() as tx:
                rows = [row_of(record) for record in tx.run(query, parameters)]
                tx.commit()
            yield from rows

    def run_batches(self, query: str, rows: Iterable[dict], batch_size: int = 1000) -> int:
        """Run ``query`` (which reads ``UNWIND $rows AS row``) over ``rows`` in batches."""
        done = 0
        for batch in batched(rows, batch_size):
            self.run(query, {"rows": batch}, write=True)
            done += len(batch)
        return done

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """A store whose queries all run in one transaction: committed when the block ends, else none of it.

        >>> with store.transaction() as tx:                     # doctest: +SKIP
        ...     tx.run("CREATE (:Paper {id: 'a'})", write=True)
        ...     tx.run("CREATE (:Paper {id: 'b'})", write=True)  # both stored, or neither
        """
        with self.driver.session(database=self.database) as session:
            try:
                tx = session.begin_transaction()
            except (Neo4jError, DriverError) as err:
                raise self._error(err) from err
            with tx:  # rolled back unless committed
                yield _Transaction(self, tx)
                try:
                    tx.commit()
                except (Neo4jError, DriverError) as err:
                    raise self._error(err, ": commit failed") from err

    def build_lock(self):
        """Held by a build, so that two builds on one embedded store run one after the other."""
        return build_lock(self.data_dir) if self.data_dir else contextlib.nullcontext()

    def close(self) -> None:
        self.driver.close()


class _Transaction(Store):
    """The verbs of a Store, run inside one open transaction."""

    def __init__(self, store: Store, tx):
        super().__init__(store.driver, store.database, store.description, store.data_dir)
        self.tx = tx

    def _records(self, query: str, parameters: dict, mode: str) -> Iterator[dict]:
        for record in self.tx.run(query, parameters):
            yield row_of(record)

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        yield self  # already in one


def _connect(uri: str, user: str, password: str, database: str | None, description: str,
             data_dir: Path | None = None) -> Store:
    """A store over Bolt, its server reached and the user authenticated; a Neo4j server's database
    (``NEO4J_DATABASE``) is checked too, so that a wrong name fails here, before any work."""
    try:
        driver = GraphDatabase.driver(uri, auth=(user, password))
    except (DriverError, ValueError) as err:
        raise store_error(err, description, neo4j=data_dir is None) from err
    try:
        driver.verify_connectivity()
        if database and not data_dir:
            driver.execute_query("RETURN 1", database_=database)
    except (Neo4jError, DriverError, OSError, ValueError) as err:
        driver.close()
        raise store_error(err, description, user=user, database=database, neo4j=data_dir is None) from err
    return Store(driver, database, description, data_dir)


@contextmanager
def open_store(db_dir: str | Path | None = None, uri: str | None = None, *, create: bool = False) -> Iterator[Store]:
    """Open the store a command should use.

    ``uri`` (or ``NEO4J_URI``) selects a Neo4j server, with ``NEO4J_USERNAME``,
    ``NEO4J_PASSWORD`` and ``NEO4J_DATABASE``. Otherwise the embedded store in
    ``db_dir`` (or ``KG_DB``, default ``./kg-data``) is used, through its warm
    server (started detached when none runs; see ``kg.store.embedded``). A
    folder that holds no graph is an error unless ``create`` (a build) is given.
    """
    uri = uri or os.environ.get("NEO4J_URI")
    if uri:
        user = os.environ.get("NEO4J_USERNAME", "neo4j")
        password = os.environ.get("NEO4J_PASSWORD", "")
        database = os.environ.get("NEO4J_DATABASE") or None
        store = _connect(checked_uri(uri), user, password, database, f"Neo4j at {shown_uri(uri)}")
        try:
            yield store
        finally:
            store.close()
        return

    data_dir = Path(db_dir or os.environ.get("KG_DB") or DEFAULT_DB_DIR).resolve()
    if not create and not has_graph(data_dir):
        raise StoreError(f"no graph in {data_dir}: build one with `kg build SOURCES --db {data_dir}` "
                         "(or give --db the folder that holds yours)")
    with using_server(data_dir) as info:
        store = _connect(info.uri, "root", password_for(data_dir), info.database, f"embedded store {data_dir}", data_dir)
        try:
            yield store
        finally:
            store.close()
