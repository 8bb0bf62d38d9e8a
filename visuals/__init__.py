"""Interactive HTML views of the graph: one offline, self-contained file per view.

From a networkx graph (in a notebook, say):

>>> import networkx as nx
>>> from visuals import render_html
>>> g = nx.Graph()
>>> g.add_node("p1", label="A paper", type="Paper", title="A paper\\n2026")
>>> g.add_node("m1", label="BERT", type="Method", title="BERT")
>>> g.add_edge("p1", "m1", weight=1)
>>> html = render_html(g, heading="Demo")
>>> "<script src=" in html, "vis.Network" in html
(False, True)

From a query result (rows with ``source`` and ``target`` columns):

>>> from visuals import graph_from_rows
>>> rows = [{"source": "p1", "target": "m1", "weight": 2, "source_type": "Paper", "target_type": "Method"}]
>>> graph_from_rows(rows).nodes["m1"]["type"]
'Method'

From the store, the same views as ``kg viz`` (see :mod:`visuals.views`):

>>> from visuals.views import build_view                      # doctest: +SKIP
>>> view = build_view(store, "cooccurrence", top=300)          # doctest: +SKIP
>>> view.write("concepts.html")                                # doctest: +SKIP

As a ``pyvis.network.Network`` (positions precomputed, physics off, tooltips escaped; see
:mod:`visuals.notebook`, which imports pyvis and IPython only when used):

>>> net = view.pyvis(notebook=True)                             # doctest: +SKIP
>>> net.show_buttons(filter_=["nodes"]); net.show("concepts.html")   # doctest: +SKIP
"""

from visuals.graphs import graph_from_rows
from visuals.render import TYPE_STYLE, Omitted, cap, render_html, write_html

__all__ = ["TYPE_STYLE", "Omitted", "cap", "graph_from_rows", "render_html", "write_html"]
