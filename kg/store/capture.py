"""Every statement kg sends, written down on request: with ``KG_CAPTURE_CYPHER`` set to a file,
each distinct statement a ``Store`` runs is appended to it as one JSON line, its text and the
names of its parameters (never their values: they are the user's data). The test suite feeds
them to Neo4j's own Cypher analysis (``tests/test_cypher_check.py``); unset, nothing is written.

>>> import json, os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "statements.jsonl")
>>> os.environ[CAPTURE_ENV] = path
>>> for _ in range(2):
...     capture("MATCH (p:Paper {id: $id}) RETURN p.title AS title", {"id": "pA"})
>>> del os.environ[CAPTURE_ENV]
>>> [json.loads(line) for line in open(path, encoding="utf-8")]
[{'query': 'MATCH (p:Paper {id: $id}) RETURN p.title AS title', 'params': ['id']}]
"""

from __future__ import annotations

import json
import os
import threading

CAPTURE_ENV = "KG_CAPTURE_CYPHER"

_written: set[tuple] = set()  # (file, statement, parameter names) already appended by this process
_lock = threading.Lock()  # a build stores from one thread while another extracts; views may read in threads


def capture(query: str, parameters: dict) -> None:
    """Append ``query`` and its parameter names to the file ``KG_CAPTURE_CYPHER`` names, once per file."""
    path = os.environ.get(CAPTURE_ENV)
    if not path:
        return
    names = sorted(parameters)
    key = (path, query, tuple(names))
    with _lock:
        if key in _written and os.path.exists(path):
            return
        _written.add(key)
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"query": query, "params": names}, ensure_ascii=False) + "\n")
