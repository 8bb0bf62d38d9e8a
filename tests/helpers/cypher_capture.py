"""The statements kg sends while a block runs (``KG_CAPTURE_CYPHER``, ``kg.store.capture``), and
Neo4j's own analysis of them (the Node checker in tests/cypher_check)."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from kg.store.capture import CAPTURE_ENV

CHECKER = Path(__file__).resolve().parent.parent / "cypher_check"
LIBRARY = CHECKER / "node_modules" / "@neo4j-cypher" / "language-support" / "package.json"


@contextmanager
def capturing(path: Path) -> Iterator[Path]:
    """Every distinct statement (and its parameter names) the store runs inside the block goes to ``path``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CAPTURE_ENV, str(path))
        yield path


def read_captured(path: Path) -> list[dict]:
    """The ``{"query", "params"}`` lines of a capture file (none when nothing was sent)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def checker_missing() -> str | None:
    """Why Neo4j's analysis cannot run here, or None: it needs node and the pinned npm package."""
    if shutil.which("node") is None:
        return "node is not installed: Neo4j's Cypher analysis (tests/cypher_check) needs Node.js (tested with 20)"
    if not LIBRARY.exists():
        return f"@neo4j-cypher/language-support is not installed: run `npm ci` in {CHECKER} (.ci/run does)"
    return None


def neo4j_analysis(statements: list[dict], versions: tuple[str, ...] = ("CYPHER 5",)) -> dict:
    """Neo4j's parser and semantic analysis over ``statements``: ``{"package", "results"}``, a result
    per statement and Cypher version with its ``errors`` and ``warnings`` (tests/cypher_check/check.mjs)."""
    done = subprocess.run(["node", str(CHECKER / "check.mjs"), *versions], input=json.dumps(statements),
                          capture_output=True, text=True, encoding="utf-8", timeout=900)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


CYPHER = re.compile(r"\b(?:OPTIONAL MATCH|MATCH|MERGE|UNWIND|DETACH DELETE)\s*[($]")  # as tests/test_layers.py
PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")  # a str.format field: {label}; never a Cypher map ({id: row.id})


def store_layer_statements() -> dict[str, str]:
    """Every statement the store layer keeps as a module constant (``kg.store.*``, ``kg.textsim``),
    by its name (``kg.store.load.CREATE_PAPERS``); a template's ``{label}`` is filled in by its caller."""
    import kg.store
    import kg.textsim

    modules = [kg.textsim, kg.store] + [importlib.import_module(m.name)
                                        for m in pkgutil.walk_packages(kg.store.__path__, "kg.store.")]
    return {f"{module.__name__}.{name}": value for module in modules for name, value in vars(module).items()
            if isinstance(value, str) and CYPHER.search(value) and not name.startswith("__")}


def sent_as(template: str, statements) -> bool:
    """Whether ``template`` (a constant of :func:`store_layer_statements`) is part of one of ``statements``."""
    text = template.strip()
    if "{{" not in text and not PLACEHOLDER.search(text):
        return any(text in statement for statement in statements)
    parts = re.split(r"(\{\{|\}\}|\{[A-Za-z_]\w*\})", text)
    pattern = "".join({"{{": r"\{", "}}": r"\}"}.get(p, r"(?s:.*?)" if PLACEHOLDER.fullmatch(p) else re.escape(p)) for p in parts)
    return any(re.search(pattern, statement) for statement in statements)
