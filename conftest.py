"""Settings for the whole pytest session, the tests in tests/ and the doctests of the shipped
modules (collected by ``--doctest-modules``, see pyproject.toml) alike.

Servers started by a test or an example stop after 30 s without a command, and every one
still running under the session's temporary folder is stopped when the session ends: the
suite leaves no JVM behind. A doctest's ``tempfile.mkdtemp()`` is made under that folder.

The servers' JVMs compile with the quick compiler only (C1, ``-XX:TieredStopAtLevel=1``) and collect
with the serial collector: a test's server lives seconds to minutes and serves small graphs, where
the optimising compiler's work (C2) never pays back (with it, the suite's servers take about twice
the CPU) and G1's threads cost more than they save.
The same Java runs the same queries either way.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

os.environ.setdefault("KG_SERVER_IDLE", "30")
os.environ.setdefault("JAVA_TOOL_OPTIONS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")  # read by every JVM the tests start
# The run's own vector cache (kg.vector_cache), shared by its test processes and the kg commands they start
# (they inherit it), empty at the start: no text is encoded twice in a run, none read from an earlier run.
OWN_VECTOR_CACHE = "KG_VECTOR_CACHE" not in os.environ
if OWN_VECTOR_CACHE:
    os.environ["KG_VECTOR_CACHE"] = tempfile.mkdtemp(prefix="kg-test-vectors-")


def stop_servers_under(base) -> None:
    """Stop every embedded server whose store is under the folder ``base``."""
    from kg.store.embedded import running_servers, stop_server

    for info in running_servers():
        if info.data_dir.is_relative_to(base.resolve()):
            stop_server(info.data_dir)


@pytest.fixture(scope="session", autouse=True)
def no_server_left_behind(tmp_path_factory):
    """Stop, at the end of the session, every embedded server the tests started."""
    yield
    stop_servers_under(tmp_path_factory.getbasetemp())


def pytest_sessionfinish(session):
    """With pytest-xdist, the run's shared stores (tests/conftest.py ``made_once``) are under the
    folder above the workers': the controller stops their servers when every worker is done. The
    process that made the run's vector cache removes it."""
    if not hasattr(session.config, "workerinput") and session.config.pluginmanager.hasplugin("dsession"):
        stop_servers_under(session.config._tmp_path_factory.getbasetemp())
    if OWN_VECTOR_CACHE and not hasattr(session.config, "workerinput"):
        shutil.rmtree(os.environ["KG_VECTOR_CACHE"], ignore_errors=True)


@pytest.fixture(autouse=True)
def doctests_write_under_the_session_folder(request, tmp_path_factory, monkeypatch):
    """A doctest's temporary folders go under the session's, so its servers are stopped too."""
    if isinstance(request.node, pytest.DoctestItem):
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path_factory.mktemp("doctest")))
        monkeypatch.chdir(request.config.rootpath)  # examples read tests/fixtures/ from the project's root
