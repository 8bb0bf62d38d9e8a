"""Interactive HTML views of the graph, written with pyvis and a template of our own.

>>> import networkx as nx
>>> from visuals import render_html
>>> g = nx.Graph()
>>> g.add_node("p1", label="A paper", type="Paper", title="A paper\\n2026")
>>> g.add_node("m1", label="BERT", type="Method", title="BERT")
>>> g.add_edge("p1", "m1", weight=1)
>>> html = render_html(g, heading="Demo")
>>> "<script src=" in html
False

The page is one file: vis-network's script and style are inlined, the graph
data sits in a JSON block parsed by ``JSON.parse`` (never run as code), and
tooltips are plain text, so text from an abstract is shown and never executed.
A Content-Security-Policy forbids fetching anything.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pyvis
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pyvis.network import Network

TYPE_STYLE = {
    "Paper": ("#4e79a7", "dot"),
    "Method": ("#f28e2b", "diamond"),
    "Task": ("#59a14f", "triangle"),
    "Dataset": ("#e15759", "square"),
    "Metric": ("#b07aa1", "star"),
    "Domain": ("#76b7b2", "hexagon"),
    "Reference": ("#9c755f", "dot"),
}
_VIS = Path(pyvis.__file__).parent / "lib" / "vis-9.1.2"
_TEMPLATES = Path(__file__).parent / "templates"


def _plain(value) -> str:
    """Text for a label or tooltip: a string, shown by vis-network as text."""
    return "" if value is None else str(value)


def render_html(graph: nx.Graph, heading: str, subtitle: str = "", height: str = "80vh") -> str:
    """One self-contained HTML page showing ``graph``.

    Nodes carry ``label``, ``type`` and ``title`` (tooltip text); edges an
    optional ``weight``. Positions are computed here and physics is off, so
    the page is drawn at once and stays still.
    """
    positions = nx.spring_layout(graph, seed=7, k=None, iterations=60, weight=None) if graph.number_of_nodes() else {}
    degrees = dict(graph.degree())
    net = Network(height=height, width="100%", directed=graph.is_directed(), heading=heading, cdn_resources="in_line")
    scale = 900
    net.nodes = [
        {
            "id": str(node),
            "label": _plain(data.get("label", node)),
            "title": _plain(data.get("title", data.get("label", node))),
            "group": data.get("type", "Paper"),
            "color": TYPE_STYLE.get(data.get("type"), ("#bab0ac", "dot"))[0],
            "shape": TYPE_STYLE.get(data.get("type"), ("#bab0ac", "dot"))[1],
            "size": 8 + 3 * min(degrees.get(node, 0), 12),
            "x": float(positions[node][0] * scale),
            "y": float(positions[node][1] * scale),
        }
        for node, data in graph.nodes(data=True)
    ]
    net.edges = [
        {"from": str(u), "to": str(v), "width": float(min(1 + data.get("weight", 1), 8)), "title": _plain(data.get("title", ""))}
        for u, v, data in graph.edges(data=True)
    ]
    net.options = {
        "physics": {"enabled": False},
        "interaction": {"hover": True, "tooltipDelay": 120, "hideEdgesOnDrag": True},
        "edges": {"smooth": False, "color": {"opacity": 0.5}},
        "nodes": {"font": {"size": 14}},
        "layout": {"improvedLayout": False},
    }
    env = Environment(loader=FileSystemLoader(_TEMPLATES), autoescape=select_autoescape(default=True))
    net.templateEnv = env
    net.path = "graph.html.j2"
    present = sorted({n["group"] for n in net.nodes}, key=lambda t: list(TYPE_STYLE).index(t) if t in TYPE_STYLE else 99)
    template = env.get_template(net.path)
    nodes, edges, heading_, height_, width, _ = net.get_network_data()
    return template.render(
        nodes=nodes, edges=edges, options=net.options, heading=heading_, subtitle=subtitle, height=height_, width=width,
        legend=[{"type": t, "color": TYPE_STYLE.get(t, ("#bab0ac",))[0]} for t in present],
        vis_js=_markup((_VIS / "vis-network.min.js").read_text(encoding="utf-8")),
        vis_css=_markup((_VIS / "vis-network.css").read_text(encoding="utf-8")),
    )


def _markup(code: str):
    from markupsafe import Markup

    if "</script" in code.lower() or "</style" in code.lower():
        raise ValueError("inlined asset would close its element early")
    return Markup(code)


def write_html(graph: nx.Graph, path: str | Path, heading: str, subtitle: str = "") -> Path:
    """Write ``render_html`` to ``path`` as UTF-8 (never the locale's encoding)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(graph, heading, subtitle), encoding="utf-8")
    return path
