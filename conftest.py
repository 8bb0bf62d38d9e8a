"""Settings for the whole pytest session, the tests in tests/ and the doctests of the shipped
modules (collected by ``--doctest-modules``, see pyproject.toml) alike.

Servers started by a test or an example stop after 30 s without a command, and every one
still running under the session's temporary folder is stopped when the session ends: the
suite leaves no JVM behind. A doctest's ``tempfile.mkdtemp()`` is made under that folder.
"""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("KG_SERVER_IDLE", "30")


@pytest.fixture(scope="session", autouse=True)
def no_server_left_behind(tmp_path_factory):
    """Stop, at the end of the session, every embedded server the tests started."""
    from kg.store.embedded import running_servers, stop_server

    yield
    base = tmp_path_factory.getbasetemp().resolve()
    for info in running_servers():
        if info.data_dir.is_relative_to(base):
            stop_server(info.data_dir)


@pytest.fixture(autouse=True)
def doctests_write_under_the_session_folder(request, tmp_path_factory, monkeypatch):
    """A doctest's temporary folders go under the session's, so its servers are stopped too."""
    if isinstance(request.node, pytest.DoctestItem):
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path_factory.mktemp("doctest")))
        monkeypatch.chdir(request.config.rootpath)  # examples read tests/fixtures/ from the project's root
