"""A synthetic papers-and-concepts graph of any size, for trying views and for the benchmark.

>>> g = synthetic_graph(100)
>>> g.number_of_nodes(), min(d for _, d in g.degree()) >= 1
(100, True)
"""

from __future__ import annotations

import random

import networkx as nx

KINDS = ("Method", "Task", "Dataset", "Metric", "Domain")


def synthetic_graph(n: int, seed: int = 3, concepts_per_paper: int = 3) -> nx.Graph:
    """``n`` nodes: 60% papers naming ``concepts_per_paper`` concepts each (popular ones more often,
    Zipf-like), 40% concepts, each named by at least one paper."""
    rng = random.Random(seed)
    papers, concepts = int(n * 0.6), n - int(n * 0.6)
    graph = nx.Graph()
    for c in range(concepts):
        graph.add_node(f"c{c}", type=KINDS[c % len(KINDS)], label=f"concept {c}", title=f"concept {c} ({KINDS[c % len(KINDS)]})")
    weights = [1 / (c + 1) for c in range(concepts)]
    for p in range(papers):
        graph.add_node(f"p{p}", type="Paper", label=f"paper {p}", title=f"paper {p}\nSynthetic 2026\n\nno abstract")
        named = set(rng.choices(range(concepts), weights=weights, k=concepts_per_paper))
        named.add(p % concepts)  # every concept is named at least once
        graph.add_edges_from((f"p{p}", f"c{c}", {"weight": 1}) for c in named)
    return graph
