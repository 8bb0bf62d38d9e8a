"""Graphs worth drawing, read from the store as networkx graphs."""

from __future__ import annotations

import networkx as nx

from kg.store import Store

OVERVIEW_QUERY = """
MATCH (p:Paper)-[r]->(c:Concept)
WITH c, count(DISTINCT p) AS papers
WHERE papers >= $min_papers
RETURN c.id AS id, c.name AS name, c.type AS type, c.aliases AS aliases, papers
ORDER BY papers DESC, name
LIMIT $top
"""
OVERVIEW_EDGES = """
MATCH (p:Paper)-[r]->(c:Concept)
WHERE c.id IN $concepts
RETURN p.id AS paper, p.title AS title, p.year AS year, p.venue AS venue, left(p.abstract, 300) AS excerpt,
       c.id AS concept, type(r) AS rel, r.evidence AS evidence
"""


def overview(store: Store, top: int = 150, min_papers: int = 2) -> tuple[nx.Graph, str]:
    """Papers and the ``top`` concepts shared by at least ``min_papers`` papers."""
    concepts = store.run(OVERVIEW_QUERY, {"top": top, "min_papers": min_papers})
    total = store.run("MATCH (c:Concept) RETURN count(c) AS n")[0]["n"]
    graph = nx.Graph()
    for c in concepts:
        aliases = ", ".join(c["aliases"] or [])
        graph.add_node(c["id"], label=c["name"], type=c["type"],
                       title=f"{c['name']} ({c['type']})\n{c['papers']} papers" + (f"\naliases: {aliases}" if aliases else ""))
    for row in store.run(OVERVIEW_EDGES, {"concepts": [c["id"] for c in concepts]}):
        if row["paper"] not in graph:
            where = ", ".join(str(x) for x in (row["venue"], row["year"]) if x)
            graph.add_node(row["paper"], label=row["title"][:40], type="Paper",
                           title=f"{row['title']}\n{where}\n\n{row['excerpt']}…")
        graph.add_edge(row["paper"], row["concept"], weight=1, title=f"{row['rel']}: {row['evidence'] or ''}")
    papers = sum(1 for _, d in graph.nodes(data=True) if d["type"] == "Paper")
    subtitle = (f"{papers} papers and the {len(concepts)} concepts (of {total}) that at least {min_papers} papers share; "
                f"node size shows degree. Hover for details.")
    return graph, subtitle
