"""The one place where the Neo4j driver's errors become :class:`kg.errors.StoreError`: one line
that names the store (its URI, never a password) and says what to do.

>>> shown_uri("bolt://neo4j:secret@db.example.org:7687")
'bolt://db.example.org:7687'
>>> from neo4j.exceptions import ServiceUnavailable
>>> err = ServiceUnavailable("Couldn't connect to 127.0.0.1:1 (resolved to ('127.0.0.1:1',)):\\nFailed to establish "
...                          "connection to ResolvedIPv4Address(('127.0.0.1', 1)) (reason [Errno 111] Connection refused)")
>>> print(store_error(err, "Neo4j at bolt://127.0.0.1:1"))
Neo4j at bolt://127.0.0.1:1: cannot connect: connection refused (is a Neo4j server listening at that host and port?)
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from neo4j.exceptions import AuthError, DriverError, Forbidden, Neo4jError, ServiceUnavailable

from kg.errors import StoreError

SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
NEO4J_SETTINGS = "NEO4J_USERNAME / NEO4J_PASSWORD"
_REASON = re.compile(r"\(reason (?:\[Errno -?\d+\] )?(?P<reason>[^)]*)\)")
_PROCEDURE = re.compile(r"procedure with the name `(?P<name>[^`]+)`")
MAX_CHARS = 300


def shown_uri(uri: str) -> str:
    """``uri`` without a user or password in it, for messages."""
    parts = urlsplit(uri)
    if "@" not in parts.netloc:
        return uri
    return parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]).geturl()


def checked_uri(uri: str) -> str:
    """``uri`` when the driver can use it; else ``StoreError`` saying what a Bolt URI looks like.

    >>> checked_uri("localhost:7687")
    Traceback (most recent call last):
    ...
    kg.errors.StoreError: --uri localhost:7687: not a Bolt URI; give bolt://HOST:PORT or neo4j://HOST:PORT (or bolt+s, neo4j+s, ...)
    """
    parts = urlsplit(uri)
    shown = shown_uri(uri)
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise StoreError(f"--uri {shown}: not a Bolt URI; give bolt://HOST:PORT or neo4j://HOST:PORT (or bolt+s, neo4j+s, ...)")
    if parts.username or parts.password:
        raise StoreError(f"--uri {shown}: a user or password in the URI is not read; set {NEO4J_SETTINGS} instead")
    try:
        parts.port  # noqa: B018  (raises for a port that is no number)
    except ValueError:
        raise StoreError(f"--uri {shown}: the port is not a number") from None
    return uri


def store_error(err: Exception, description: str, *, user: str | None = None, database: str | None = None,
                neo4j: bool = True) -> StoreError:
    """The ``StoreError`` of a driver error met on the store ``description`` (``Neo4j at bolt://...``).

    ``user`` and ``database`` are named in the messages that concern them; for a Neo4j server
    (``neo4j``) they say which setting to check (``NEO4J_PASSWORD``, ``NEO4J_DATABASE``).
    """
    code = getattr(err, "code", None) or ""
    if isinstance(err, AuthError) or code == "Neo.ClientError.Security.Unauthorized":
        where = f"; check {NEO4J_SETTINGS}" if neo4j else ""
        return StoreError(f"{description}: authentication failed for user {user!r}{where}")
    if code == "Neo.ClientError.Database.DatabaseNotFound":
        return StoreError(f"{description}: database {database!r} does not exist"
                          + ("; NEO4J_DATABASE names it (unset it for the server's default database)" if neo4j else ""))
    if code == "Neo.ClientError.Procedure.ProcedureNotFound":
        found = _PROCEDURE.search(_message(err))
        name = found["name"] if found else "a procedure"
        return StoreError(f"{description}: the server has no procedure {name}, which kg calls; kg needs Neo4j 5 "
                          "(or the embedded store)")
    if code.startswith("Neo.TransientError."):  # ArcadeDB: its query slots stayed full (KG_QUERY_WAIT), or a write conflict
        return StoreError(f"{description}: the server turned this request down for now (too many queries at once, or "
                          "a write that met another); its transaction was rolled back: run the command again "
                          "(a build goes on after its last stored batch)")
    if isinstance(err, Forbidden) or code.startswith("Neo.ClientError.Security."):
        return StoreError(f"{description}: user {user!r} may not do this: {_one_line(_message(err))}")
    if isinstance(err, ServiceUnavailable):
        return StoreError(f"{description}: cannot connect: {_unavailable(_message(err))}")
    if isinstance(err, (Neo4jError, DriverError)):
        return StoreError(f"{description}: {_one_line(_message(err))}")
    if isinstance(err, OSError):
        return StoreError(f"{description}: cannot connect: {err.strerror or err}")
    return StoreError(f"{description}: {_one_line(str(err))}")


def _message(err: Exception) -> str:
    return getattr(err, "message", None) or str(err) or type(err).__name__


def _unavailable(message: str) -> str:
    """Why a server cannot be reached, in words: the socket's reason, else the driver's first line."""
    found = _REASON.search(message)
    if found and "refused" in found["reason"].lower():
        return "connection refused (is a Neo4j server listening at that host and port?)"
    if found:
        return found["reason"]
    if message.startswith("Unable to retrieve routing information"):
        return "no routing information (is a Neo4j server listening at that host and port?)"
    return _one_line(message)


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_CHARS else line[:MAX_CHARS - 1] + "…"
