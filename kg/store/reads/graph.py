"""Reads of the whole graph: counts of nodes by label and relationships by type (kept by every
build on the ``BuildState`` node, ``kg.store.counts``; counted when a graph has none)."""

from __future__ import annotations

import re

LABELS = "CALL db.labels() YIELD label RETURN label"
RELATIONSHIP_TYPES = "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType AS type"
NODE_COUNTS = "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS count"
RELATIONSHIP_COUNTS = "MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS count"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
KEPT = """
MATCH (s:BuildState {id: 'build'}) WHERE s.labels IS NOT NULL
RETURN s.labels AS labels, s.label_counts AS label_counts, s.types AS types, s.type_counts AS type_counts
"""


def stats(store) -> dict:
    """``{"nodes": {label: n}, "relationships": {type: n}}``, names in order (``kg stats``): the
    counts the last build kept (one read), else :func:`count`."""
    kept = store.run(KEPT)
    if kept:
        row = kept[0]
        return {"nodes": dict(zip(row["labels"], row["label_counts"])),
                "relationships": dict(zip(row["types"], row["type_counts"]))}
    return count(store)


def count(store) -> dict:
    """``{"nodes": {label: n}, "relationships": {type: n}}``, counted now, names in order.

    One count per label and per relationship type the store lists: a store counts one label
    without reading every node (on 3,000 papers 1.0 s against 2.9 s for one scan of all nodes
    and edges). A name that is no plain identifier is counted by those scans instead.
    """
    labels = [row["label"] for row in store.run(LABELS)]
    types = [row["type"] for row in store.run(RELATIONSHIP_TYPES)]
    if all(_NAME.match(name) for name in labels + types):
        nodes = {label: store.run(f"MATCH (n:{label}) RETURN count(n) AS count")[0]["count"] for label in labels}
        rels = {rel: store.run(f"MATCH ()-[r:{rel}]->() RETURN count(r) AS count")[0]["count"] for rel in types}
    else:
        nodes = {row["label"]: row["count"] for row in store.run(NODE_COUNTS)}
        rels = {row["type"]: row["count"] for row in store.run(RELATIONSHIP_COUNTS)}
    return {"nodes": {name: n for name, n in sorted(nodes.items()) if n},
            "relationships": {name: n for name, n in sorted(rels.items()) if n}}
