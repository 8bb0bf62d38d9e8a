"""The views on a collection shaped like real ones (tests/real_shaped.py): caps that keep structure."""

from __future__ import annotations

from collections import Counter

import pytest
import real_shaped

from visuals.views import REFERENCES_SHOWN, build_view


@pytest.fixture(scope="module")
def made(session_store, module_graphs, request) -> list[dict]:
    return module_graphs.keep(request, real_shaped.load)


def cited_counts(made: list[dict]) -> Counter:
    return Counter(key for record in made for key in record["references"])


def test_capped_citations_view_keeps_the_most_cited_works_with_their_citers(session_store, made):
    view = build_view(session_store, "citations", top=60)
    graph = view.graph
    counts = cited_counts(made)
    assert graph.number_of_nodes() == 60 and graph.number_of_edges() > 60
    works = [n for n in graph if graph.in_degree(n)]
    # the 20 most cited works are there (ties at the cut broken by id), each with a citer
    cut = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
    assert {k for k, _ in cut} <= set(works)
    citing = {r["id"]: set(r["references"]) for r in made}
    for node in graph:
        assert graph.in_degree(node) or graph.out_degree(node), node  # nothing stands alone
    for u, v in graph.edges:
        assert v in citing[u]  # every edge is a real citation
    papers = {r["id"] for r in made}
    total = len(papers & ({k for k in counts} | {r["id"] for r in made if r["references"]})) + len(set(counts) - papers)
    assert view.omitted.total_nodes == total and view.omitted.nodes == total - 60
    assert view.omitted.edges == sum(counts.values()) - graph.number_of_edges()
    assert "(the 20 most cited works and 40 papers citing them)" in view.omitted.sentence()
    kinds = Counter(d["type"] for _, d in graph.nodes(data=True))
    assert kinds["Reference"] and kinds["Paper"] >= 40


def test_a_view_of_a_graph_with_citations_never_shows_zero_edges(session_store, made):
    for top in (2, 3, 7):
        graph = build_view(session_store, "citations", top=top).graph
        assert graph.number_of_edges() >= 1 and graph.number_of_nodes() == top


def test_paper_view_keeps_the_most_cited_references_and_counts_the_rest(session_store, made):
    counts = cited_counts(made)
    focus = max(made, key=lambda r: (len(r["references"]), r["id"]))
    view = build_view(session_store, "paper", focus=focus["id"], depth=1)
    graph = view.graph
    refs = [n for n, d in graph.nodes(data=True) if d["type"] == "Reference" and not d.get("summary")]
    assert len(refs) == REFERENCES_SHOWN
    own = [k for k in focus["references"] if not k.startswith("p-")]
    shown = [k for k in own if k in graph]
    left = [k for k in own if k not in graph]
    assert min(counts[k] for k in shown) >= max(counts[k] for k in left)  # the most cited ones stay
    summary = graph.nodes["+references"]
    assert summary["label"] == f"+ {len(left)} references" and graph.has_edge(focus["id"], "+references")
    assert f"the focus paper’s {len(left)} are one node “+ {len(left)} references”" in view.omitted.sentence()
    assert graph.nodes[focus["id"]]["focus"] is True
    assert {c["name"] for c in focus["concepts"]} <= {d.get("label") for _, d in graph.nodes(data=True)}
