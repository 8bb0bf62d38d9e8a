"""Node positions and importance scores, computed in Python before the page is written.

networkx's spring layout is slow (2,000 nodes ~15 s here), so layouts come
from igraph: Kamada-Kawai for small components, Fruchterman-Reingold (with its
grid past 1,000 nodes) for large ones, 5,000 nodes in about a second. Scores
use :func:`kg.rank.pagerank` (igraph's, weighted).

>>> import networkx as nx
>>> g = nx.path_graph(4)
>>> sorted(positions(g)) == [0, 1, 2, 3]
True
>>> s = scores(g, "degree"); s[1] > s[0]
True
"""

from __future__ import annotations

import math
import random

import networkx as nx

from kg.defaults import SIZES
from kg.rank import pagerank, to_igraph

KAMADA_KAWAI_BELOW = 400   # nodes in a component; Kamada-Kawai reads better, Fruchterman-Reingold scales
ASPECT = 1.6          # layout box width / height
SPACING = 90           # pixels per node along each axis of the layout box, before sqrt(n) scaling


def positions(graph: nx.Graph, seed: int = 7) -> dict:
    """Pixel coordinates for every node, the same for the same graph and seed.

    Each connected component is laid out on its own and the pieces are packed
    in rows, largest first, so that a few stray pairs do not squeeze the main
    component into a corner.
    """
    if graph.number_of_nodes() == 0:
        return {}
    undirected = graph.to_undirected(as_view=True) if graph.is_directed() else graph
    parts = sorted(nx.connected_components(undirected), key=lambda c: (-len(c), min(map(str, c))))
    placed, x, y, row_height = {}, 0.0, 0.0, 0.0
    width = SPACING * math.sqrt(graph.number_of_nodes()) * ASPECT
    for part in parts:
        side = SPACING * math.sqrt(len(part))
        coords = _fit(_component_layout(undirected.subgraph(part), seed), side)
        if x > 0 and x + side * ASPECT > width:
            x, y, row_height = 0.0, y + row_height + SPACING, 0.0
        for node, (nx_, ny_) in coords.items():
            placed[node] = (round(nx_ + x + side * ASPECT / 2, 1), round(ny_ + y + side / 2, 1))
        x += side * ASPECT + SPACING
        row_height = max(row_height, side)
    return placed


def _component_layout(part: nx.Graph, seed: int) -> dict:
    n = part.number_of_nodes()
    if n <= 2:
        return {node: (float(i), 0.0) for i, node in enumerate(sorted(part, key=str))}
    g, order = to_igraph(part)
    rng = random.Random(seed)
    spread = math.sqrt(n)  # igraph's grid has unit cells: a start squeezed into one cell makes it quadratic
    start = [[rng.uniform(-spread, spread), rng.uniform(-spread, spread)] for _ in order]
    if n < KAMADA_KAWAI_BELOW:
        layout = g.layout_kamada_kawai(seed=start)
    else:
        layout = g.layout_fruchterman_reingold(seed=start, niter=300, grid=n > 1000)
    return {node: (float(x), float(y)) for node, (x, y) in zip(order, layout.coords)}


def _fit(coords: dict, side: float) -> dict:
    """Centre the coordinates and scale them into a box ``side`` high and ASPECT times as wide."""
    xs = [x for x, _ in coords.values()]
    ys = [y for _, y in coords.values()]
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    k = side / span
    # wider than tall, like the screens the page is read on
    return {node: ((x - cx) * k * ASPECT, (y - cy) * k) for node, (x, y) in coords.items()}


def check_score(by: str) -> str:
    """``by`` if it names a score of :func:`scores` (``kg.defaults.SIZES``), else a ValueError."""
    if by not in SIZES:
        raise ValueError(f"unknown score {by!r}: use 'degree' or 'pagerank'")
    return by


def scores(graph: nx.Graph, by: str = "pagerank") -> dict:
    """Importance of each node: ``degree`` (count of links) or ``pagerank`` (weighted)."""
    if check_score(by) == "degree":
        return {node: float(d) for node, d in graph.degree()}
    return pagerank(graph, weight="weight")
