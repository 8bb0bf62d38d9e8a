"""A view as a ``pyvis.network.Network``, for notebook users who know pyvis.

Positions come from the same igraph layout as ``kg viz`` and physics is off, so the
picture is still and appears at once; sizes, shapes and colours are those of the page.
Tooltip texts are HTML-escaped: pyvis's template shows every tooltip as HTML
(``innerHTML``) as soon as one of them contains "href", and escaped text stays text
there too. Labels are drawn on the canvas and travel as JSON, so they need no escaping.

>>> import networkx as nx
>>> g = nx.Graph()
>>> g.add_node("p1", label="A paper", type="Paper", title="<b>bold</b> claims")
>>> g.add_node("m1", label="BERT", type="Method", title="BERT (Method)")
>>> g.add_edge("p1", "m1")
>>> net = pyvis_network(g)
>>> net.nodes[0]["title"], net.nodes[0]["physics"], net.options.physics.enabled
('&lt;b&gt;bold&lt;/b&gt; claims', False, False)
>>> net.show_buttons(filter_=["physics"])        # the rest of pyvis works on it
>>> "vis.Network" in net.generate_html()
True
"""

from __future__ import annotations

import html

import networkx as nx
from pyvis.network import Network

from visuals.render import OTHER_STYLE, TYPE_STYLE, page_data


def pyvis_network(graph: nx.Graph, *, size_by: str = "pagerank", color_by: str = "type", height: str = "750px",
                  notebook: bool = False) -> Network:
    """``graph`` (nodes with ``label``, ``type``, ``title``; see :func:`visuals.render_html`) as a
    pyvis Network with positions precomputed and physics off. ``cdn_resources="in_line"``: the
    only pyvis mode whose page draws without a network."""
    data = page_data(graph, size_by, color_by)
    net = Network(height=height, width="100%", directed=graph.is_directed(), notebook=notebook, cdn_resources="in_line")
    for node in data["nodes"]:
        colour, shape, _ = TYPE_STYLE.get(node["group"], OTHER_STYLE)
        item = {"id": node["id"], "label": node["label"], "title": html.escape(node["title"]), "shape": shape,
                "color": node.get("color", colour), "size": node["size"], "x": node["x"], "y": node["y"],
                "physics": False, "group": node["group"]}
        net.nodes.append(item)
        net.node_ids.append(node["id"])
        net.node_map[node["id"]] = item
    # assigned directly: pyvis's add_edge scans every edge per call (10k nodes took 19 s)
    net.edges = [{"from": e["from"], "to": e["to"], "width": e["width"],
                  **({"title": html.escape(e["title"])} if e.get("title") else {})} for e in data["edges"]]
    net.toggle_physics(False)
    return net
