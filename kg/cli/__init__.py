"""The ``kg`` command line: a thin skin over the Python API with the same verbs.

Each module registers one family of commands on ``main``.
"""

from kg.cli import build, citations, export, extraction, fetch, load, query, serve, server, similar, viz  # noqa: F401,E402  (register the commands)
from kg.cli.app import main

__all__ = ["main"]
