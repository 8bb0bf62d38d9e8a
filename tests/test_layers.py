"""The shape of the house: no import circle, the store layer at the bottom holding the Cypher,
the CLI a thin layer over the Python API (kg.KnowledgeGraph)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

from helpers.imports import ROOT, circles, import_graph

CYPHER = re.compile(r"\b(?:OPTIONAL MATCH|MATCH|MERGE|UNWIND|DETACH DELETE)\s*[($]")
# Modules that hold Cypher on purpose: the store layer (the load is kg/store/load.py), the query
# packs' runner; kg.textsim builds its index at load time.
CYPHER_ALLOWED = ("kg/store/", "queries/", "kg/textsim.py")


def test_no_import_circle():
    assert circles(import_graph()) == []


def test_a_circle_through_a_package_face_is_found(tmp_path, monkeypatch):
    """A package's __init__ gathering its modules is an edge too: a module of the package that
    imports a name from the face (at the top or inside a function) closes a circle."""
    import helpers.imports as imports

    package = tmp_path / "visuals" / "shapes"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from visuals.shapes.square import side\n\nUNIT = 1\n")
    (package / "square.py").write_text("def side():\n    from visuals.shapes import UNIT\n    return UNIT\n")
    (package / "circle.py").write_text("from visuals.shapes import square\n")  # a sibling module: no face edge
    monkeypatch.setattr(imports, "ROOT", tmp_path)
    graph = imports.import_graph()
    assert imports.circles(graph) == [["visuals.shapes", "visuals.shapes.square"]]
    assert list(graph.successors("visuals.shapes.circle")) == ["visuals.shapes.square"]


def test_a_circle_is_found_when_there_is_one(tmp_path, monkeypatch):
    """The check above can fail: two modules importing each other, one lazily, make a circle."""
    import helpers.imports as imports

    for name, text in (("a.py", "def f():\n    from loaders import b\n"), ("b.py", "from loaders.a import f\n")):
        (tmp_path / "loaders" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "loaders" / name).write_text(text)
    monkeypatch.setattr(imports, "ROOT", tmp_path)
    assert imports.circles(imports.import_graph()) == [["loaders.a", "loaders.b"]]


def layer_rules(text: str) -> list[tuple[list[str], set[str]]]:
    """The rows of CONTRIBUTING's layer table: (the row's modules, what they may import)."""
    rows = []
    section = text.split("| layer | may import |")[1].split("\n\n")[0]
    for line in section.splitlines()[2:]:
        layer, allowed = line.strip("|").split("|")
        modules = re.findall(r"`([\w.]+)`", layer)
        may = set(re.findall(r"`([\w.]+)`", allowed))
        if "every row above" in allowed:
            may |= {m for earlier, _ in rows for m in earlier}
        rows.append((modules, may | set(modules)))
    return rows


def _row(module: str, rows) -> tuple[str, set[str]]:
    """The longest listed prefix of ``module`` and what its row may import."""
    listed = [(m, may) for modules, may in rows for m in modules if module == m or module.startswith(m + ".")]
    assert listed, f"{module} is in no row of CONTRIBUTING's layer table"
    return max(listed, key=lambda pair: len(pair[0]))


def layer_breaches(graph, rows) -> list[tuple[str, str]]:
    """The imports (module, imported) that CONTRIBUTING's layer table does not allow."""
    breaches = []
    for module, target in graph.edges:
        _, may = _row(module, rows)
        if _row(target, rows)[0] not in may:
            breaches.append((module, target))
    return sorted(breaches)


def test_each_layer_imports_only_what_contributing_allows():
    rows = layer_rules((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    assert layer_breaches(import_graph(), rows) == []
    store_imports = {t for m, t in import_graph().edges if m.startswith("kg.store")}
    assert not [t for t in store_imports if t.startswith("kg.extract")]


def test_a_layer_breach_is_found(tmp_path, monkeypatch):
    """The check above can fail: the store importing extraction, lazily, breaks its row."""
    import helpers.imports as imports

    (tmp_path / "kg" / "store").mkdir(parents=True)
    (tmp_path / "kg" / "extract").mkdir()
    (tmp_path / "kg" / "extract" / "__init__.py").write_text("KEY = 1\n")
    (tmp_path / "kg" / "store" / "__init__.py").write_text("def key():\n    from kg.extract import KEY\n    return KEY\n")
    monkeypatch.setattr(imports, "ROOT", tmp_path)
    rows = layer_rules((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    assert layer_breaches(imports.import_graph(), rows) == [("kg.store", "kg.extract")]


def test_the_store_reads_import_nothing_above_the_store_layer():
    graph = import_graph()
    allowed = ("kg.store", "kg.graph", "kg.errors", "kg.defaults", "kg.cypher")
    for module in (m for m in graph if m.startswith("kg.store.reads")):
        above = [t for t in graph.successors(module) if t != "kg" and not t.startswith(allowed)]
        assert above == [], module


def test_the_cli_reads_and_writes_the_graph_through_the_api():
    """Every command is: open (kg.open), one call, print; `kg server` manages servers, not a graph."""
    graph = import_graph()
    below = ("kg.store", "visuals", "kg.build", "kg.export", "kg.citations", "kg.textsim", "kg.extract", "kg.evaluation", "kg.fetch")
    for module in (m for m in graph if m.startswith("kg.cli") and m != "kg.cli.server"):
        assert [t for t in graph.successors(module) if t.startswith(below)] == [], module


def _strings_but_docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_cypher_lives_in_the_store_layer():
    holding = set()
    for package in ("kg", "loaders", "visuals", "bench"):
        for path in (ROOT / package).rglob("*.py"):
            name = str(path.relative_to(ROOT))
            if not name.startswith(CYPHER_ALLOWED) and any(CYPHER.search(s) for s in _strings_but_docstrings(path)):
                holding.add(name)
    assert holding == set()
    assert any(CYPHER.search(s) for s in _strings_but_docstrings(ROOT / "kg" / "store" / "reads" / "citations.py"))


def test_one_batching_helper():
    """Batches of a stream come from kg.store.batches, which the loads, the vocabulary pass and
    Store.run_batches import; no module writes its own."""
    own = re.compile(r"while (\w+) := list\(itertools\.islice\(\w+, \w+\)\):\n\s+yield \1")
    writing = sorted(str(p.relative_to(ROOT)) for package in ("kg", "loaders", "queries", "visuals")
                     for p in (ROOT / package).rglob("*.py") if own.search(p.read_text(encoding="utf-8")))
    assert writing == ["kg/store/batches.py"]
    graph = import_graph()
    assert {"kg.build", "kg.vocabulary", "kg.store.vocabulary"} <= set(graph.predecessors("kg.store.batches"))
    from kg.store import Store

    assert "batched(rows, batch_size)" in inspect.getsource(Store.run_batches)
