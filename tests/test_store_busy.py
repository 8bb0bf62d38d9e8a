"""A busy server: ArcadeDB runs at most max(4, 2 x cores) Bolt requests at once and queues the
others. By default a queued request fails after 30 s with a transient error ("The request failed"):
a build's batch queued behind slow reads (``bench/load.py``: views and ``kg similar`` of up to 40 s
on two loaded cores) lost its work that way. kg's server lets a request wait ``KG_QUERY_WAIT``
seconds (600 by default, ``query_wait_ms``), and a request that still waits too long fails with one
line saying what to do.

The slots are filled for real: open result streams hold them (each a query started and not read to
its end), as many as it takes until a probe query queues. That the server waits as long as
``KG_QUERY_WAIT`` says is shown with a short one (turned down after 1 s, not ArcadeDB's 30 s): no
test waits out the 30 s.
"""

from __future__ import annotations

import threading
import time

import pytest

from kg.errors import StoreError
from kg.store import open_store
from kg.store.arcadedb_process import DEFAULT_QUERY_WAIT_S, query_wait_ms

PROBE_S = 3  # a query that has not answered in this time queues for a slot
QUEUED_S = 4  # how long the queued probe is kept waiting (ArcadeDB's own limit: 30 s)
SLOTS_AT_MOST = 64


class Probe(threading.Thread):
    """A write through kg's store, in a thread: its rows, or the error it met."""

    def __init__(self, store):
        super().__init__(daemon=True)
        self.store, self.rows, self.error, self.waited = store, None, None, None

    def run(self):
        sent = time.monotonic()
        try:
            self.rows = self.store.run("CREATE (p:Paper {id: 'queued'}) RETURN p.id AS id", write=True)
        except StoreError as err:
            self.error = err
        self.waited = time.monotonic() - sent  # until its answer or its error


def fill_slots(store) -> tuple[list, Probe]:
    """Open result streams until a write queues: the streams' sessions and the queued write."""
    held = []
    for _ in range(SLOTS_AT_MOST):
        session = store.driver.session(database=store.database, fetch_size=10)
        result = session.run("UNWIND range(1, 1000000) AS x RETURN x")
        next(iter(result))  # started: it holds a slot until it is read to its end or closed
        held.append(session)
        probe = Probe(store)
        probe.start()
        probe.join(PROBE_S)
        if probe.is_alive() or probe.error:  # queued (or, waiting past KG_QUERY_WAIT, turned down)
            return held, probe
        store.run("MATCH (p:Paper {id: 'queued'}) DELETE p", write=True)
    raise AssertionError(f"no query queued with {SLOTS_AT_MOST} streams open")


def test_a_queued_request_waits_for_a_slot_and_is_answered_when_one_frees(store):
    held, probe = fill_slots(store)
    try:
        time.sleep(QUEUED_S)  # queued all along: nothing frees a slot
        assert probe.is_alive() and probe.error is None, probe.error
    finally:
        for session in held:
            session.close()
    probe.join(60)
    assert probe.error is None and probe.rows == [{"id": "queued"}]


def test_by_default_a_request_may_wait_far_beyond_arcadedbs_30_s():
    assert query_wait_ms(None) == DEFAULT_QUERY_WAIT_S * 1000 and DEFAULT_QUERY_WAIT_S >= 10 * 30


def test_a_request_that_waits_past_kg_query_wait_is_one_line_saying_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_QUERY_WAIT", "1")
    monkeypatch.setenv("KG_SERVER_IDLE", "0")
    with open_store(tmp_path / "db", create=True) as store:
        held, probe = fill_slots(store)
        try:
            probe.join(20)
        finally:
            for session in held:
                session.close()
    assert not probe.is_alive() and probe.waited < 20, probe.waited  # KG_QUERY_WAIT's 1 s, not ArcadeDB's 30 s
    assert str(probe.error) == (
        f"embedded store {tmp_path / 'db'}: the server turned this request down for now (too many queries at once, or "
        "a write that met another); its transaction was rolled back: run the command again (a build goes on after "
        "its last stored batch)")


@pytest.mark.parametrize("value", ["soon", "0", "-5"])
def test_a_kg_query_wait_that_is_no_number_of_seconds_is_named(value, tmp_path, monkeypatch):
    monkeypatch.setenv("KG_QUERY_WAIT", value)
    with pytest.raises(StoreError) as raised:
        with open_store(tmp_path / "db", create=True):
            pass
    assert str(raised.value) == (f"KG_QUERY_WAIT={value!r} is not a number of seconds above 0 (how long a query may wait "
                                 "for the server while others run)")
