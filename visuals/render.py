"""A networkx graph -> one self-contained, offline HTML page.

The page inlines vis-network (from the pyvis package) and our own script; the
graph travels in a JSON block read with ``JSON.parse``; labels are drawn on a
canvas and tooltips are plain strings, so text from an abstract is shown and
never run. The Content-Security-Policy allows exactly our two scripts (by hash)
and no fetch of any kind.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import math
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pyvis
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from visuals.graphs import cut_at_word
from visuals.layout import positions, scores

# colour, vis-network shape, legend glyph
TYPE_STYLE = {
    "Paper": ("#4e79a7", "dot", "●"),
    "Method": ("#f28e2b", "diamond", "◆"),
    "Task": ("#59a14f", "triangle", "▲"),
    "Dataset": ("#e15759", "square", "■"),
    "Metric": ("#b07aa1", "star", "★"),
    "Entity": ("#edc948", "dot", "•"),  # the shapes with a label below are taken: a small dot, yellow
    "Domain": ("#76b7b2", "hexagon", "⬢"),
    "Reference": ("#9c755f", "triangleDown", "▼"),
}
OTHER_STYLE = ("#bab0ac", "dot", "●")
COMMUNITY_COLORS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                    "#9c755f", "#2f6f3e", "#6b4c9a", "#d37295")
PHYSICS_MAX_NODES = 300   # above this the browser runs no physics at all: positions come from Python
MIN_SIZE, MAX_SIZE = 8, 32
_VIS = Path(pyvis.__file__).parent / "lib" / "vis-9.1.2"
_TEMPLATES = Path(__file__).parent / "templates"
_ENV = Environment(loader=FileSystemLoader(_TEMPLATES), autoescape=select_autoescape(default=True, default_for_string=True))


@dataclass
class Omitted:
    """What a cap left out, and by which rule it chose."""
    nodes: int = 0
    edges: int | None = 0  # None: not counted (the similarity view forms no pair of papers left out)
    total_nodes: int = 0
    rule: str = ""
    note: str = ""   # what a view folded before the cap ("+ 273 references")
    about: bool = False  # the totals are the graph's kept totals, not counted for this view (a large graph)

    def sentence(self) -> str:
        """What was left out, in words.

        >>> Omitted(nodes=9_700, edges=52_000, total_nodes=10_000, rule="the 300 that matter most", about=True).sentence()
        'Showing 300 of about 10,000 nodes (the 300 that matter most); about 9,700 nodes and 52,000 edges are left out.'
        """
        if not self.nodes:
            return self.note
        kept, about = self.total_nodes - self.nodes, "about " if self.about else ""
        return " ".join(part for part in (
            f"Showing {kept:,} of {about}{self.total_nodes:,} nodes" + (f" ({self.rule})" if self.rule else "")
            + f"; {about}{self.nodes:,} nodes" + (f" and {self.edges:,} edges" if self.edges is not None else "")
            + " are left out.", self.note) if part)


def cap(graph: nx.Graph, top: int | None, size_by: str = "pagerank", rule: str | None = None) -> tuple[nx.Graph, Omitted]:
    """Keep the ``top`` nodes ranked by their ``rank`` attribute, else by ``size_by``.

    >>> g, left = cap(nx.star_graph(5), 3, "degree")
    >>> sorted(g.nodes)[0], left.nodes
    (0, 3)
    """
    n = graph.number_of_nodes()
    if top is None or n <= top:
        return graph, Omitted(total_nodes=n)
    ranked = _ranking(graph, size_by)
    keep = sorted(graph.nodes, key=lambda node: (-ranked[node], str(node)))[:top]
    kept = graph.subgraph(keep).copy()
    return kept, Omitted(nodes=n - top, edges=graph.number_of_edges() - kept.number_of_edges(), total_nodes=n,
                         rule=rule or f"the {top:,} with the highest {'PageRank' if size_by == 'pagerank' else 'degree'}")


def _ranking(graph: nx.Graph, size_by: str) -> dict:
    explicit = nx.get_node_attributes(graph, "rank")
    if len(explicit) == graph.number_of_nodes():
        return {node: float(v) for node, v in explicit.items()}
    return scores(graph, size_by)


def _sizes(graph: nx.Graph, size_by: str) -> dict:
    """Node sizes: area grows with the score, between MIN_SIZE and MAX_SIZE."""
    raw = scores(graph, size_by)
    top = max(raw.values(), default=0) or 1.0
    return {node: round(MIN_SIZE + (MAX_SIZE - MIN_SIZE) * math.sqrt(max(v, 0) / top), 1) for node, v in raw.items()}


def _widths(graph: nx.Graph) -> list[float]:
    """Edge widths from 1 (the lightest weight) to 8 (the heaviest); all alike when the weights are."""
    weights = [float(d.get("weight", 1) or 1) for _, _, d in graph.edges(data=True)]
    low, high = min(weights, default=1.0), max(weights, default=1.0)
    return [round(1 + 7 * (w - low) / (high - low), 2) if high > low else 1.5 for w in weights]


def _text(value) -> str:
    """A label or tooltip: always a string (vis-network shows strings as text, never as HTML)."""
    return "" if value is None else str(value)


def page_data(graph: nx.Graph, size_by: str = "pagerank", color_by: str = "type") -> dict:
    """The JSON the page draws: nodes with positions, sizes and styles; edges with widths."""
    n = graph.number_of_nodes()
    where = positions(graph)
    size = _sizes(graph, size_by)
    nodes, counts = [], {}
    for node, d in graph.nodes(data=True):
        kind = _text(d.get("type") or "Other")
        counts[kind] = counts.get(kind, 0) + 1
        item = {"id": _text(node), "label": _text(d.get("label", node)), "title": _text(d.get("title", d.get("label", node))),
                "group": kind, "size": size[node], "x": where[node][0], "y": where[node][1]}
        if color_by == "community" and d.get("community") is not None:
            item["color"] = community_color(d["community"])
        item.update({flag: True for flag in ("focus", "summary") if d.get(flag)})
        nodes.append(item)
    edges = [{"from": _text(u), "to": _text(v), "width": w, **({"title": _text(d["title"])} if d.get("title") else {})}
             for (u, v, d), w in zip(graph.edges(data=True), _widths(graph))]
    physics = 0 < n <= PHYSICS_MAX_NODES
    options = {
        "autoResize": True,
        "groups": {t: {"color": s[0], "shape": s[1]} for t, s in TYPE_STYLE.items() if t in counts},
        "nodes": {"font": {"size": 18 if physics else 14, "strokeWidth": 3, "strokeColor": "#ffffff"}, "borderWidth": 1,
                  "scaling": {"label": {"drawThreshold": 5}}},
        "edges": {"smooth": False, "color": {"color": "#8a8f98", "highlight": "#333333", "opacity": 0.45},
                  "arrows": {"to": {"enabled": graph.is_directed(), "scaleFactor": 0.5}}},
        "interaction": {"hover": n <= 2000, "tooltipDelay": 150, "hideEdgesOnDrag": n > 1000, "hideEdgesOnZoom": n > 1000},
        "layout": {"improvedLayout": False, "randomSeed": 7},
        "physics": ({"enabled": True, "solver": "forceAtlas2Based",
                     "forceAtlas2Based": {"gravitationalConstant": -60, "springLength": 90, "avoidOverlap": 0.4},
                     "stabilization": {"enabled": True, "iterations": 150, "updateInterval": 50, "fit": True}}
                    if physics else {"enabled": False}),
    }
    return {"nodes": nodes, "edges": edges, "options": options, "counts": counts}


def community_color(number: int) -> str:
    """The colour of community ``number`` (0 = largest); the small ones beyond the palette share grey."""
    return COMMUNITY_COLORS[number] if number < len(COMMUNITY_COLORS) else OTHER_STYLE[0]


def _legend(counts: dict, color_by: str = "type") -> list[dict]:
    """One row per node type: its glyph (shape), in its colour unless colour shows communities."""
    order = list(TYPE_STYLE)
    return [{"type": t, "glyph": TYPE_STYLE.get(t, OTHER_STYLE)[2], "count": n,
             "color": TYPE_STYLE.get(t, OTHER_STYLE)[0] if color_by == "type" else "#555555"}
            for t, n in sorted(counts.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99)]


def community_legend(graph: nx.Graph) -> list[dict]:
    """Legend rows for the coloured communities, named by ``graph.graph["community_names"]``
    when the view gives names, else by their three most linked members; one row for the rest.

    >>> g = nx.Graph([("a", "b"), ("b", "c"), ("d", "e")])
    >>> nx.set_node_attributes(g, {"a": 0, "b": 0, "c": 0, "d": 1, "e": 1}, "community")
    >>> [(row["name"], row["size"]) for row in community_legend(g)]
    [('b, a, c', 3), ('d, e', 2)]
    """
    members: dict[int, list] = {}
    for node, c in nx.get_node_attributes(graph, "community").items():
        members.setdefault(int(c), []).append(node)
    names = graph.graph.get("community_names", {})
    rows, rest = [], []
    for c, nodes in sorted(members.items()):
        if c >= len(COMMUNITY_COLORS):
            rest.extend(nodes)
            continue
        central = sorted(nodes, key=lambda n: (-graph.degree(n, weight="weight"), str(n)))[:3]
        name = names.get(c) or ", ".join(_text(graph.nodes[n].get("label", n)) for n in central)
        rows.append({"color": community_color(c), "name": cut_at_word(name, 44), "size": len(nodes)})
    if rest:
        small = len({graph.nodes[n]["community"] for n in rest})
        rows.append({"color": OTHER_STYLE[0], "name": f"{small:,} smaller communities", "size": len(rest)})
    return rows


@functools.cache  # the packaged assets: read once per process
def _inline(path: Path, closing: str) -> Markup:
    """An asset's text for an inline element; refuses text that would close that element early."""
    code = path.read_text(encoding="utf-8")
    if closing in code.lower():
        raise ValueError(f"{path.name} contains {closing!r} and cannot be inlined")
    return Markup(code)


@functools.cache
def _hash(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode() + "'"


def render_html(graph: nx.Graph, heading: str, subtitle: str = "", *, size_by: str = "pagerank",
                color_by: str = "type", omitted: Omitted | None = None, height: str = "78vh") -> str:
    """One self-contained HTML page showing ``graph``.

    Node attributes: ``label``, ``type`` (Paper, Method, ...), ``title`` (tooltip
    text), optionally ``community`` (an int, with ``color_by="community"``);
    edge attributes: ``weight``, ``title``. ``omitted`` (from :func:`cap`) is
    stated on the page.
    """
    data = page_data(graph, size_by, color_by)
    vis_js = _inline(_VIS / "vis-network.min.js", "</script")
    view_js = _inline(_TEMPLATES / "view.js", "</script")
    n, m = graph.number_of_nodes(), graph.number_of_edges()
    motion = "physics settles briefly, then stops" if data["options"]["physics"]["enabled"] else "physics off"
    facts = (f"{n:,} nodes, {m:,} edges. Node size: {'PageRank' if size_by == 'pagerank' else 'degree'}; "
             f"edge width: weight; layout computed in Python (igraph), {motion}. Hover a node for details.")
    return _ENV.get_template("graph.html.j2").render(
        heading=heading, subtitle=subtitle, facts=facts, left_out=(omitted or Omitted()).sentence(), height=height,
        data=data, legend=_legend(data["counts"], color_by),
        communities=community_legend(graph) if color_by == "community" else [],
        community_naming=graph.graph.get("community_naming", "its most linked members"),
        vis_js=vis_js, view_js=view_js, vis_css=_inline(_VIS / "vis-network.css", "</style"),
        script_hashes=Markup(" ".join((_hash(vis_js), _hash(view_js)))),
    )


def write_html(graph: nx.Graph, path: str | Path, heading: str, subtitle: str = "", **options) -> Path:
    """Write :func:`render_html` to ``path`` as UTF-8 (never the locale's encoding)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(graph, heading, subtitle, **options), encoding="utf-8")
    return path
