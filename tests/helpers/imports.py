"""The import graph of the shipped packages, read from the source (nothing is imported).

    python tests/helpers/imports.py          # prints each module's imports of the house, then any circle

An import inside a function counts as much as one at the top: a circle through a lazy
import is still a circle in the design. So does a package's ``__init__`` (its face) importing
its own modules: a module of the package that imports a name of the face closes a circle.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("kg", "loaders", "queries", "visuals")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of the shipped packages, by dotted name."""
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The house module ``name`` means: itself, else its package (``from kg import defaults`` is kg.defaults)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(path: Path, known: dict[str, Path]) -> set[str]:
    """The house modules ``path`` imports, anywhere in it."""
    found = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            # ``from pkg import mod`` is the module; ``from pkg import name`` the face that defines it
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PACKAGES:
                target = _resolve(name, known)
                if target:
                    found.add(target)
    found.discard(module_name(path))
    return found


def import_graph() -> nx.DiGraph:
    """Modules as nodes (a package as its ``__init__``), an edge from each module to each house
    module it imports, at the top, inside a function or from a package's face alike."""
    known = modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(known)
    for name, path in known.items():
        graph.add_edges_from((name, target) for target in imports_of(path, known))
    return graph


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """Every import circle (strongly connected set of more than one module), sorted."""
    return sorted(sorted(part) for part in nx.strongly_connected_components(graph) if len(part) > 1)


if __name__ == "__main__":
    graph = import_graph()
    for name in sorted(graph):
        targets = sorted(graph.successors(name))
        print(f"{name} -> {', '.join(targets) if targets else '(nothing of the house)'}")
    found = circles(graph)
    print("\nImport circles:", "none" if not found else "")
    for part in found:
        print("  " + " <-> ".join(part))
    sys.exit(1 if found else 0)
