"""Reads for the exports: every node and relationship with its labels, key and properties,
streamed (an export never holds all rows at once).

A node's key is its constrained property (``id``, ``key`` or ``name``). The BM25 text index
(``Term``, ``TextIndex``, ``OCCURS_IN``) and the dense vectors (``PaperVectors``; on the papers
of a graph an older kg built: ``Paper.dense``, ``.sentences``, ``.sentence_dense``)
are no part of an exported graph: kg build remakes them; nor is the build's bookkeeping
(``BuildState``, the papers' batch ``stamp``).
"""

from __future__ import annotations

from typing import Iterator

VECTORS = ("dense", "sentences", "sentence_dense")  # kg.dense's, on the papers of an older kg's graph
KEY = "coalesce({v}.id, {v}.key, {v}.name, elementId({v}))"
NODES = f"MATCH (n) WHERE NOT n:Term AND NOT n:TextIndex AND NOT n:BuildState AND NOT n:PaperVectors RETURN labels(n) AS labels, {KEY.format(v='n')} AS key, properties(n) AS props"
RELATIONSHIPS = (f"MATCH (a)-[r]->(b) WHERE type(r) <> 'OCCURS_IN' RETURN labels(a) AS a_labels, {KEY.format(v='a')} AS a_key, "
                 f"labels(b) AS b_labels, {KEY.format(v='b')} AS b_key, type(r) AS type, properties(r) AS props")
CITATION_NODES = f"MATCH (n) WHERE n:Paper OR n:Reference RETURN labels(n) AS labels, {KEY.format(v='n')} AS key, properties(n) AS props"
CITATION_RELATIONSHIPS = (f"MATCH (a:Paper)-[r:CITES]->(b) RETURN labels(a) AS a_labels, {KEY.format(v='a')} AS a_key, "
                          f"labels(b) AS b_labels, {KEY.format(v='b')} AS b_key, type(r) AS type, properties(r) AS props")


def nodes(store, citations_only: bool = False) -> Iterator[dict]:
    """``{labels, key, props}`` of every node (``citations_only``: papers and references)."""
    for row in store.stream(CITATION_NODES if citations_only else NODES):
        row["props"].pop("stamp", None)
        for vectors in VECTORS:
            row["props"].pop(vectors, None)
        yield row


def relationships(store, citations_only: bool = False) -> Iterator[dict]:
    """``{a_labels, a_key, b_labels, b_key, type, props}`` of every relationship
    (``citations_only``: the CITES edges)."""
    return store.stream(CITATION_RELATIONSHIPS if citations_only else RELATIONSHIPS)
