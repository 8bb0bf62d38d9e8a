"""Citation analytics over the store's citation graph, in networkx.

The graph holds every ``(:Paper)-[:CITES]->(:Paper|:Reference)`` edge; nodes are
paper ids and reference keys, with ``kind`` ("paper" or "reference"), ``title``
and ``year``. Edges point from the citing to the cited work.

>>> import networkx as nx
>>> g = nx.DiGraph([("a", "c"), ("b", "c"), ("a", "d"), ("b", "d"), ("c", "d")])
>>> [(r["id"], r["citations"]) for r in most_cited(g, top=2)]
[('d', 3), ('c', 2)]
>>> [(r["a"], r["b"], r["count"]) for r in co_citation(g, top=1)]
[('c', 'd', 2)]
>>> [(r["a"], r["b"], r["count"]) for r in bibliographic_coupling(g, top=1)]
[('a', 'b', 2)]
>>> citation_path(g, "b", "d")
['b', 'd']
"""

from __future__ import annotations

from collections import Counter

import networkx as nx

from kg import defaults, rank
from kg.errors import PaperNotFound
from kg.store.reads.citations import citation_graph  # noqa: F401  (the graph these analytics read)


def _row(graph: nx.DiGraph, node: str, **values) -> dict:
    data = graph.nodes[node]
    return {"id": node, "kind": data.get("kind"), "title": data.get("title"), "year": data.get("year"), **values}


def _require(graph: nx.DiGraph, *nodes: str) -> None:
    for node in nodes:
        if node not in graph:
            raise PaperNotFound(node, f"{node!r} is not a paper or reference of the citation graph")


def most_cited(graph: nx.DiGraph, top: int = defaults.TOP, kind: str | None = None) -> list[dict]:
    """The works cited most often (``kind``: "paper" or "reference" to keep only those)."""
    counts = ((n, d) for n, d in graph.in_degree() if d and (kind is None or graph.nodes[n].get("kind") == kind))
    ranked = sorted(counts, key=lambda item: (-item[1], str(item[0])))[:top]
    return [_row(graph, node, citations=degree) for node, degree in ranked]


def pagerank(graph: nx.DiGraph, top: int = defaults.TOP, alpha: float = defaults.ALPHA, kind: str | None = None) -> list[dict]:
    """The works ranked by PageRank on the citation graph."""
    scores = rank.pagerank(graph, alpha)
    ranked = sorted((n for n in scores if kind is None or graph.nodes[n].get("kind") == kind),
                    key=lambda n: (-scores[n], str(n)))[:top]
    return [_row(graph, node, pagerank=round(scores[node], 6), citations=graph.in_degree(node)) for node in ranked]


def _partner_counts(node: str, out, back) -> Counter:
    """How often each other node shares a neighbour with ``node``: ``out`` gives its
    neighbours, ``back`` the nodes on the other side of each neighbour."""
    counts: Counter = Counter()
    for via in out(node):
        counts.update(other for other in back(via) if other != node)
    return counts


def _top_pairs(graph: nx.DiGraph, out, back, paper: str | None, top: int) -> list[dict]:
    """The ``top`` pairs by shared neighbours, one node at a time (memory: one node's partners)."""
    if paper is not None:
        _require(graph, paper)
        counts = _partner_counts(paper, out, back)
        ranked = sorted(((paper, b, c) for b, c in counts.items()), key=lambda t: (-t[2], str(t[1])))[:top]
    else:
        best: list[tuple[str, str, int]] = []
        for a in graph:
            counts = _partner_counts(a, out, back)
            best.extend((a, b, c) for b, c in counts.items() if str(b) > str(a))
            if len(best) > 20 * top + 1000:
                best = sorted(best, key=lambda t: (-t[2], str(t[0]), str(t[1])))[:top]
        ranked = sorted(best, key=lambda t: (-t[2], str(t[0]), str(t[1])))[:top]
    return [{"a": a, "a_title": graph.nodes[a].get("title"), "b": b, "b_title": graph.nodes[b].get("title"), "count": c}
            for a, b, c in ranked]


def co_citation(graph: nx.DiGraph, paper: str | None = None, top: int = defaults.TOP) -> list[dict]:
    """Pairs of works cited together, by how many papers cite both (with ``paper``: its partners)."""
    return _top_pairs(graph, graph.predecessors, graph.successors, paper, top)


def bibliographic_coupling(graph: nx.DiGraph, paper: str | None = None, top: int = defaults.TOP) -> list[dict]:
    """Pairs of papers that cite the same works, by how many they share (with ``paper``: its partners)."""
    return _top_pairs(graph, graph.successors, graph.predecessors, paper, top)


def citation_path(graph: nx.DiGraph, source: str, target: str, directed: bool = True) -> list[str] | None:
    """The shortest chain of citations from ``source`` to ``target`` (None if there is none).

    ``directed=False`` also walks citations backwards ("is cited by"), which links
    papers through shared ancestors or descendants.
    """
    _require(graph, source, target)
    view = graph if directed else graph.to_undirected(as_view=True)
    try:
        return nx.shortest_path(view, source, target)
    except nx.NetworkXNoPath:
        return None


def path_rows(graph: nx.DiGraph, path: list[str] | None) -> list[dict]:
    """A path as table rows: step, id, title, year."""
    return [{"step": i, **_row(graph, node)} for i, node in enumerate(path or [])]
