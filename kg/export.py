"""Exports of the store's graph: GraphML and GEXF (Gephi), node-link JSON
(networkx, D3), and the CSV files of ``neo4j-admin database import full``.

Node ids are ``Label:key`` (``Paper:P02-1040``, ``Concept:method:bert``,
``Reference:okafor-1990``), the label being the node's keyed label and the key
its constrained property. For Gephi every list or dict property is written as a
JSON string and a missing (None) value is left out; an attribute that holds
values of several types is written as text throughout. GEXF reserves ``id``,
``start``, ``end`` and ``type``; they are written as ``kg_id``, ``kg_start``,
``kg_end``, ``kg_type`` (and an edge's ``label`` is its type).

>>> import networkx as nx
>>> g = nx.MultiDiGraph(); g.add_node("Paper:a", aliases=["x"], year=None, title="T")
>>> dict(gephi_ready(g).nodes["Paper:a"])
{'aliases': '["x"]', 'title': 'T'}
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Iterator

import networkx as nx

from kg.store import Store
from kg.store.reads import export as reads
from kg.store.schema import CONSTRAINTS

FORMATS = ("graphml", "gexf", "json", "csv")
ARRAY_DELIMITER = "|"
KEYED_LABELS = tuple(label for _, label, _ in CONSTRAINTS)


def node_id(labels: list[str], key) -> str:
    """``Label:key`` with the node's keyed label (Concept before Method, ...)."""
    label = next((lab for lab in KEYED_LABELS if lab in labels), sorted(labels)[0] if labels else "Node")
    return f"{label}:{key}"


def nodes(store: Store, citations_only: bool = False) -> Iterator[tuple[str, list[str], dict]]:
    for row in reads.nodes(store, citations_only):
        yield node_id(row["labels"], row["key"]), sorted(row["labels"]), row["props"]


def relationships(store: Store, citations_only: bool = False) -> Iterator[tuple[str, str, str, dict]]:
    for row in reads.relationships(store, citations_only):
        yield node_id(row["a_labels"], row["a_key"]), node_id(row["b_labels"], row["b_key"]), row["type"], row["props"]


def display_label(props: dict) -> str:
    return str(props.get("title") or props.get("name") or props.get("key") or props.get("id") or "")


def store_graph(store: Store, citations_only: bool = False) -> nx.MultiDiGraph:
    """The store's graph in networkx: node attributes are the properties plus
    ``labels`` (list) and ``label`` (what a viewer shows); edges carry ``type``.
    Nodes, edges and properties come in sorted order, whatever order the store returns
    them in, so the same graph is written to the same bytes."""
    graph = nx.MultiDiGraph()
    for nid, labels, props in sorted(nodes(store, citations_only), key=lambda node: node[0]):
        graph.add_node(nid, **dict(sorted(props.items())), labels=labels, label=display_label(props))
    edges = sorted(relationships(store, citations_only), key=lambda edge: (edge[0], edge[2], edge[1], _flat(edge[3])))
    for source, target, rel, props in edges:
        graph.add_edge(source, target, key=rel, **dict(sorted(props.items())), type=rel)
    return graph


def _flat(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True) if isinstance(value, (list, dict, tuple)) else value


def _unify(items) -> None:
    """Flatten values, drop None, and make each attribute one type across ``items`` (dicts)."""
    kinds: dict[str, set] = {}
    for data in items:
        for name in list(data):
            value = data[name]
            if value is None:
                del data[name]
                continue
            data[name] = value = _flat(value)
            kinds.setdefault(name, set()).add(type(value))
    for name, types in kinds.items():
        if len(types) > 1:
            cast = float if types <= {int, float} else str
            for data in items:
                if name in data:
                    data[name] = cast(data[name])


def gephi_ready(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose attributes GraphML and GEXF can hold: scalars of one type per name."""
    ready = graph.copy()
    _unify([data for _, data in ready.nodes(data=True)])
    _unify([data for _, _, data in ready.edges(data=True)])
    return ready


def write_graphml(graph: nx.MultiDiGraph, path: Path) -> None:
    nx.write_graphml(gephi_ready(graph), path, encoding="utf-8")


# GEXF gives these attribute names a meaning of its own (node id, time spells): renamed.
GEXF_RESERVED = {"id": "kg_id", "start": "kg_start", "end": "kg_end", "type": "kg_type"}


def write_gexf(graph: nx.MultiDiGraph, path: Path) -> None:
    ready = gephi_ready(graph)
    for _, _, data in ready.edges(data=True):
        data["label"] = data["type"]  # what Gephi shows on an edge
    for data in [d for _, d in ready.nodes(data=True)] + [d for _, _, d in ready.edges(data=True)]:
        for name, new in GEXF_RESERVED.items():
            if name in data:
                data[new] = data.pop(name)
    nx.write_gexf(ready, path, encoding="utf-8")


def write_json(graph: nx.MultiDiGraph, path: Path) -> None:
    # nodes are named under "node": "id" is a property of papers and concepts
    data = nx.node_link_data(graph, edges="edges", name="node")
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, ensure_ascii=False, default=str)


def read_json(path: Path) -> nx.MultiDiGraph:
    """The graph back from ``write_json``."""
    with open(path, encoding="utf-8") as stream:
        return nx.node_link_graph(json.load(stream), edges="edges", name="node")


# --- neo4j-admin database import full -------------------------------------------------

def _csv_type(values: set) -> str:
    """The neo4j-admin column type for the Python types seen in a column."""
    if not values:
        return "string"
    if values <= {bool}:
        return "boolean"
    if values <= {int}:
        return "long"
    if values <= {int, float}:
        return "double"
    if values <= {("list", int)}:
        return "long[]"
    if values <= {("list", int), ("list", float)}:
        return "double[]"
    if all(isinstance(v, tuple) for v in values):
        return "string[]"
    return "string"


def _kinds(value) -> list:
    if isinstance(value, (list, tuple)):
        return [("list", type(v) if type(v) in (int, float) else str) for v in value] or [("list", str)]
    return [type(value) if type(value) in (bool, int, float) else str]


def _cell(value, kind: str):
    if value is None:
        return ""
    if kind.endswith("[]"):
        items = value if isinstance(value, (list, tuple)) else [value]
        return ARRAY_DELIMITER.join(str(v).replace(ARRAY_DELIMITER, "/") for v in items)
    if kind == "string" and isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False)
    if kind == "boolean":
        return "true" if value else "false"
    return value


def _columns(items: Iterator[tuple[str, dict]]) -> dict[str, dict[str, str]]:
    """First pass: for each file, its property columns and their types."""
    seen: dict[str, dict[str, set]] = {}
    for group, props in items:
        columns = seen.setdefault(group, {})
        for name, value in props.items():
            if value is not None:
                columns.setdefault(name, set()).update(_kinds(value))
    return {group: {name: _csv_type(types) for name, types in sorted(cols.items())} for group, cols in seen.items()}


def write_neo4j_csv(store: Store, folder: Path, citations_only: bool = False, database: str = "neo4j") -> list[Path]:
    """Write ``nodes-<Label>.csv``, ``rels-<TYPE>.csv``, ``import.sh`` (the
    neo4j-admin command) and ``constraints.cypher`` into ``folder``; two passes
    over the store, so memory holds one row at a time."""
    folder.mkdir(parents=True, exist_ok=True)
    node_cols = _columns((nid.split(":", 1)[0], props) for nid, _, props in nodes(store, citations_only))
    rel_cols = _columns((rel, props) for _, _, rel, props in relationships(store, citations_only))
    written: list[Path] = []
    files: dict[str, tuple] = {}
    try:
        for label, cols in node_cols.items():
            path = folder / f"nodes-{label}.csv"
            out = open(path, "w", encoding="utf-8", newline="")
            writer = csv.writer(out)
            writer.writerow([":ID", ":LABEL", *(f"{name}:{kind}" for name, kind in cols.items())])
            files[("node", label)] = (out, writer, cols)
            written.append(path)
        for nid, labels, props in nodes(store, citations_only):
            _, writer, cols = files[("node", nid.split(":", 1)[0])]
            writer.writerow([nid, ";".join(labels), *(_cell(props.get(n), k) for n, k in cols.items())])
        for rel, cols in rel_cols.items():
            path = folder / f"rels-{rel}.csv"
            out = open(path, "w", encoding="utf-8", newline="")
            writer = csv.writer(out)
            writer.writerow([":START_ID", ":END_ID", ":TYPE", *(f"{name}:{kind}" for name, kind in cols.items())])
            files[("rel", rel)] = (out, writer, cols)
            written.append(path)
        for source, target, rel, props in relationships(store, citations_only):
            _, writer, cols = files[("rel", rel)]
            writer.writerow([source, target, rel, *(_cell(props.get(n), k) for n, k in cols.items())])
    finally:
        for out, _, _ in files.values():
            out.close()
    script = folder / "import.sh"
    script.write_text(import_command(written, database) + "\n", encoding="utf-8")
    constraints = folder / "constraints.cypher"
    constraints.write_text("".join(
        f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE;\n"
        for name, label, prop in CONSTRAINTS), encoding="utf-8")
    return [*written, script, constraints]


def import_command(files: list[Path], database: str = "neo4j") -> str:
    """The ``neo4j-admin database import full`` command for the written files."""
    parts = ["neo4j-admin database import full"]
    parts += [f"--nodes={f.name}" for f in files if f.name.startswith("nodes-")]
    parts += [f"--relationships={f.name}" for f in files if f.name.startswith("rels-")]
    parts += [f"--array-delimiter='{ARRAY_DELIMITER}'", "--multiline-fields=true", "--overwrite-destination", database]
    return 'cd "$(dirname "$0")" && ' + " \\\n  ".join(parts)


def _parse(value: str, kind: str):
    if value == "":
        return None
    base = kind.removesuffix("[]")
    convert = {"long": int, "double": float, "boolean": lambda v: v == "true"}.get(base, str)
    if kind.endswith("[]"):
        return [convert(v) for v in value.split(ARRAY_DELIMITER)]
    return convert(value)


def read_neo4j_csv(folder: Path) -> nx.MultiDiGraph:
    """The graph back from ``write_neo4j_csv`` (the inverse, for checks and tests)."""
    graph = nx.MultiDiGraph()
    for path in sorted(folder.glob("nodes-*.csv")) + sorted(folder.glob("rels-*.csv")):
        with open(path, encoding="utf-8", newline="") as stream:
            reader = csv.reader(stream)
            header = next(reader)
            fields = [column.split(":", 1) for column in header[3 if path.name.startswith("rels-") else 2:]]
            for row in reader:
                values = row[len(header) - len(fields):]
                props = {name: _parse(v, kind) for (name, kind), v in zip(fields, values) if v != ""}
                if path.name.startswith("nodes-"):
                    graph.add_node(row[0], **props, labels=row[1].split(";"))
                else:
                    graph.add_edge(row[0], row[1], key=row[2], **props, type=row[2])
    return graph


def export(store: Store, fmt: str, path: Path, citations_only: bool = False) -> list[Path]:
    """Write the store's graph as ``fmt`` (one of ``FORMATS``) to ``path`` (a folder for csv)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}; known: {', '.join(FORMATS)}")
    if fmt == "csv":
        return write_neo4j_csv(store, path, citations_only)
    graph = store_graph(store, citations_only)
    path.parent.mkdir(parents=True, exist_ok=True)
    {"graphml": write_graphml, "gexf": write_gexf, "json": write_json}[fmt](graph, path)
    return [path]
