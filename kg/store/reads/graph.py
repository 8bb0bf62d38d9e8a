"""Reads of the whole graph: counts of nodes by label and relationships by type."""

from __future__ import annotations

NODE_COUNTS = "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS count"
RELATIONSHIP_COUNTS = "MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS count"


def stats(store) -> dict:
    """``{"nodes": {label: n}, "relationships": {type: n}}``, names in order (``kg stats``)."""
    nodes = store.run(NODE_COUNTS)
    rels = store.run(RELATIONSHIP_COUNTS)
    return {
        "nodes": {row["label"]: row["count"] for row in sorted(nodes, key=lambda r: r["label"])},
        "relationships": {row["type"]: row["count"] for row in sorted(rels, key=lambda r: r["type"])},
    }
