"""Every node and edge of a store, counted, for tests that compare two graphs."""

from __future__ import annotations

import json
from collections import Counter

# The build's bookkeeping depends on the batches, not on the graph: the BuildState node (batch
# stamps, kept counts) and each paper's stamp (the batch that stored its abstract).
STAMP = "stamp"
NODES = "MATCH (n) WHERE NOT n:BuildState RETURN labels(n) AS labels, properties(n) AS props"
# an end is its labels and its key: a Reference and a Paper may share one (AAN ids)
EDGES = """
MATCH (a)-[r]->(b)
RETURN labels(a) AS a_labels, coalesce(a.id, a.key, a.name) AS a, type(r) AS type,
       labels(b) AS b_labels, coalesce(b.id, b.key, b.name) AS b, properties(r) AS props
"""


def _text(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def graph_dump(store) -> Counter:
    """Every node (sorted labels, all properties) and edge (type, both ends' labels and key, all
    properties), counted: duplicates show. The build's bookkeeping (batch stamps, ``BuildState``)
    depends on the batches, not the graph: left out."""
    nodes = Counter(_text(["node", sorted(r["labels"]), {k: v for k, v in r["props"].items() if k != STAMP}])
                    for r in store.stream(NODES))
    edges = Counter(_text(["edge", r["type"], [sorted(r["a_labels"]), r["a"]], [sorted(r["b_labels"]), r["b"]], r["props"]])
                    for r in store.stream(EDGES))
    return nodes + edges


def differences(one: Counter, other: Counter, shown: int = 20) -> tuple[list[str], list[str]]:
    """What each dump holds that the other does not (the first ``shown`` of each, sorted): ``([], [])``
    for equal graphs, and a readable assertion message otherwise."""
    return sorted((one - other).elements())[:shown], sorted((other - one).elements())[:shown]
