"""Every node and edge of a store, counted, for tests that compare two graphs."""

from __future__ import annotations

import json
from collections import Counter


def graph_dump(store) -> Counter:
    """Every node (labels, properties) and edge (ends, type, properties), counted: duplicates show.
    The build's bookkeeping (batch stamps, ``BuildState``) depends on the batches, not the graph: left out."""
    def text(value) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)

    nodes = Counter(text([sorted(r["labels"]), {k: v for k, v in r["props"].items() if k != "stamp"}])
                    for r in store.stream("MATCH (n) WHERE NOT n:BuildState RETURN labels(n) AS labels, properties(n) AS props"))
    edges = Counter(text([r["a"], r["type"], r["b"], r["props"]]) for r in store.stream(
        "MATCH (a)-[r]->(b) RETURN coalesce(a.id, a.key, a.name) AS a, type(r) AS type, "
        "coalesce(b.id, b.key, b.name) AS b, properties(r) AS props"))
    return nodes + edges
