"""The views in Python: what each one reads from the real store, caps, and the page it writes.

The browser side (offline load, hostile text, pixels) is in test_browser.py.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from collections import Counter

import networkx as nx
import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from helpers.sample import synthetic_graph

from kg.build import load_records
from kg.cli import main
from kg.errors import BadInput, NotFound, PaperNotFound
from kg.graph import concept_id
from visuals import cap, graph_from_rows, render_html
from visuals.render import PHYSICS_MAX_NODES
from visuals.views import VIEWS, build_view

GRAPH = FIXTURES / "viz_graph.jsonl"
XSS_METHOD = "<svg onload=window.__xss='concept'>"


def fixture_records() -> list[dict]:
    return [json.loads(line) for line in GRAPH.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_viz_graph(store) -> list[dict]:
    """Empty ``store`` and load the ten hand-made papers (two carry hostile text) through the real loads."""
    records = fixture_records()
    store.run("MATCH (n) DETACH DELETE n", write=True)
    load_records(store, records)
    return records


def page_json(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="graph-data">(.*?)</script>', html, re.S)[1])


def types_of(graph: nx.Graph) -> dict:
    return {n: d.get("type") for n, d in graph.nodes(data=True)}


@pytest.fixture(scope="module")
def views(session_store, module_graphs, request) -> dict:
    """Every view of the fixture graph, built once from the store (which keeps the graph for the
    tests that read it themselves)."""
    module_graphs.keep(request, load_viz_graph)
    built = {name: build_view(session_store, name, focus={"paper": "p-viz01", "concept": "Transformer"}.get(name), depth=1)
             for name in VIEWS}
    built["concept-2"] = build_view(session_store, "concept", focus="transformer", depth=2)
    built["citations-focus"] = build_view(session_store, "citations", focus="p-viz01", depth=1)
    built["cooccurrence-methods"] = build_view(session_store, "cooccurrence", types="Method,Task", min_papers=2)
    built["overview-top5"] = build_view(session_store, "overview", top=5)
    built["cooccurrence-top3"] = build_view(session_store, "cooccurrence", top=3)
    built["similarity-top3"] = build_view(session_store, "similarity", top=3)
    return built


def test_overview_links_papers_to_concepts_shared_by_two_papers(views):
    graph = views["overview"].graph
    kinds = types_of(graph)
    assert {"Paper", "Method", "Task", "Dataset", "Metric", "Domain"} <= set(kinds.values())
    # ResNet is named by p-viz05 and p-viz06 only; PPO-X by one paper, so it is not shown
    assert set(graph["resnet"]) == {"p-viz05", "p-viz06"}
    assert "ppo x" not in graph
    assert all({kinds[u], kinds[v]} & {"Paper"} and kinds[u] != kinds[v] for u, v in graph.edges)
    assert graph.nodes["bert"]["title"].startswith("BERT (Method)\nin 3 papers\naliases: Bidirectional Encoder")
    paper = graph.nodes["p-viz01"]["title"]
    assert paper.startswith("Transformers for translation\nVIZ 2021\n\nWe use BERT")


def test_overview_cap_keeps_the_most_named_concepts_with_their_papers_and_says_what_was_left_out(views):
    full, capped = views["overview"], views["overview-top5"]
    assert capped.graph.number_of_nodes() == 5 and capped.graph.number_of_edges() >= 4
    assert capped.omitted.nodes == full.graph.number_of_nodes() - 5
    assert capped.omitted.edges == full.graph.number_of_edges() - capped.graph.number_of_edges()
    sentence = capped.omitted.sentence()
    assert f"Showing 5 of {full.graph.number_of_nodes()} nodes (the concept that matters most and 4 papers naming it)" \
        in sentence
    html = capped.render()
    assert sentence in html
    named = {n: full.graph.degree(n) for n, d in full.graph.nodes(data=True) if d["type"] != "Paper"}
    most = max(named.values())
    assert [n for n, d in capped.graph.nodes(data=True) if d["type"] != "Paper"] == [
        min(n for n, k in named.items() if k == most)]


def test_concept_and_paper_ego_views_follow_depth(views, session_store):
    one = views["concept"].graph
    assert set(one) == {"transformer", "p-viz01", "p-viz02", "p-viz04", "p-viz06", "p-viz08"}
    two = views["concept-2"].graph
    assert set(one) < set(two) and "image classification" in two and "atari" in two
    assert "ppo x" not in two  # three links away
    assert views["concept"].heading == "Around the concept Transformer"
    paper = views["paper"].graph
    # its concepts, the paper it cites, and the papers citing it
    assert {"bert", "wmt14", "p-viz02", "p-viz03", "p-viz04", "p-viz08", "p-viz09"} <= set(paper)
    assert paper.edges["p-viz01", "p-viz02"]["title"] == "CITES"


def test_cooccurrence_weights_shared_papers_and_colours_communities(views, session_store):
    graph = views["cooccurrence"].graph
    assert set(types_of(graph).values()) <= {"Method", "Task", "Dataset", "Metric", "Entity", "Domain"}
    records = fixture_records()
    keys = [{concept_id(c['type'], c['key']) for c in r["concepts"]} for r in records]
    for u, v, d in graph.edges(data=True):
        assert d["weight"] == sum(1 for ks in keys if u in ks and v in ks), (u, v)
    assert all(isinstance(d.get("community"), int) for _, d in graph.nodes(data=True))
    assert views["cooccurrence"].color_by == "community"
    assert len(set(nx.get_node_attributes(graph, "community").values())) >= 2
    only = views["cooccurrence-methods"].graph
    assert set(types_of(only).values()) <= {"Method", "Task"}
    html = views["cooccurrence"].render()
    assert "colour = community" in html


def test_cooccurrence_cap_keeps_the_most_named_concepts_and_counts_the_links_left_out(views):
    full, capped = views["cooccurrence"].graph, views["cooccurrence-top3"]
    most = sorted(full, key=lambda c: (-full.nodes[c]["papers"], c))[:3]
    assert set(capped.graph) == set(most)
    assert {frozenset(e): d["weight"] for *e, d in capped.graph.edges(data=True)} == \
        {frozenset(e): d["weight"] for *e, d in full.subgraph(most).edges(data=True)}
    assert capped.omitted.nodes == full.number_of_nodes() - 3
    assert capped.omitted.edges == full.number_of_edges() - capped.graph.number_of_edges()  # counted, not formed


@pytest.mark.parametrize("name, options", [("overview", {"top": 5}), ("overview", {"top": 12}),
                                           ("cooccurrence", {"top": 3}), ("cooccurrence", {"top": 6, "types": "Method,Task"}),
                                           ("similarity", {"top": 3}), ("similarity", {"top": 6})])
def test_a_large_graphs_view_reads_only_what_it_shows_and_draws_what_the_whole_read_draws(views, session_store, monkeypatch,
                                                                                           name, options):
    """Above ``WHOLE_GRAPH_PAPERS`` a view starts from the store's ranking of the kept totals and
    reads the papers of the concepts it shows only; on this graph (fewer concepts link papers than
    the similarity view's ``LINKING_CONCEPTS``) it draws the same nodes and links as the read of
    every concept's papers, and says its totals are the kept ones."""
    import visuals.reads
    import visuals.views

    whole = build_view(session_store, name, **options)
    every = []
    monkeypatch.setattr(visuals.views, "naming_papers", lambda *args: every.append(args) or visuals.reads.naming_papers(*args))
    monkeypatch.setattr(visuals.views, "WHOLE_GRAPH_PAPERS", 0)
    large = build_view(session_store, name, **options)
    assert not every  # no read of every concept's papers
    assert set(large.graph.nodes) == set(whole.graph.nodes) and large.graph.number_of_nodes() > 1
    assert {frozenset(e): d.get("weight") for *e, d in large.graph.edges(data=True)} == \
        {frozenset(e): d.get("weight") for *e, d in whole.graph.edges(data=True)}
    assert large.omitted.about and "of about" in large.omitted.sentence()
    assert large.omitted.total_nodes >= whole.omitted.total_nodes


def stored_qualities(store) -> dict[str, float]:
    """Each concept's quality as the build stored it (``kg.store.concept_quality``), 0.5 where the
    records carried no salience to compute one from (as the packs read it)."""
    rows = store.run("MATCH (c:Concept) RETURN c.id AS id, c.quality AS quality")
    return {r["id"]: 0.5 if r["quality"] is None else r["quality"] for r in rows}


def test_similarity_cap_shows_the_papers_most_similar_to_all_others(views, session_store):
    full, capped = views["similarity"].graph, views["similarity-top3"]
    assert 2 <= capped.graph.number_of_nodes() <= 3
    for u, v, d in capped.graph.edges(data=True):  # the links are scored as in the whole view
        assert d["weight"] == full.edges[u, v]["weight"]
    # the papers shown share the most weight with all others: summed over every pair, worked out here
    records = fixture_records()
    concepts = {r["id"]: {concept_id(c['type'], c['key']) for c in r["concepts"]} for r in records}
    type_of = {concept_id(c['type'], c['key']): c["type"] for r in records for c in r["concepts"]}
    n, type_weight = len(records), {"Method": 1, "Task": 1, "Dataset": 1, "Metric": 0.5, "Entity": 0.5, "Domain": 0.25}
    df = Counter(k for ks in concepts.values() for k in ks)
    quality = stored_qualities(session_store)
    to_all = {p: sum(type_weight[type_of[k]] * math.log(1 + (n - df[k] + 0.5) / (df[k] + 0.5)) * quality[k] * (df[k] - 1)
                     for k in ks if df[k] >= 2) for p, ks in concepts.items()}
    assert set(capped.graph) <= set(sorted(to_all, key=lambda p: (-to_all[p], p))[:3])
    sentence = capped.omitted.sentence()
    assert f"Showing {capped.graph.number_of_nodes()} of {full.number_of_nodes()} nodes (the 3 papers most similar to all " \
           "others)" in sentence and "edges" not in sentence


def test_similarity_weights_concepts_by_idf_like_kg_similar(views, session_store):
    graph = views["similarity"].graph
    records = fixture_records()
    concepts = {r["id"]: {concept_id(c['type'], c['key']) for c in r["concepts"]} for r in records}
    type_of = {concept_id(c['type'], c['key']): c["type"] for r in records for c in r["concepts"]}
    df = {}
    for ks in concepts.values():
        for k in ks:
            df[k] = df.get(k, 0) + 1
    # kg similar's weight, worked out here: type weight x ln(1 + (N - df + 0.5) / (df + 0.5)) x quality
    n, type_weight = len(records), {"Method": 1, "Task": 1, "Dataset": 1, "Metric": 0.5, "Entity": 0.5, "Domain": 0.25}
    quality = stored_qualities(session_store)
    expected = sum(type_weight[type_of[k]] * math.log(1 + (n - df[k] + 0.5) / (df[k] + 0.5)) * quality[k]
                   for k in concepts["p-viz01"] & concepts["p-viz03"])
    assert graph.edges["p-viz01", "p-viz03"]["weight"] == pytest.approx(expected, abs=1e-3)
    assert set(types_of(graph).values()) == {"Paper"}
    # the two hostile papers share two rare concepts: their link outweighs p-viz01 -- p-viz03's
    assert graph.edges["p-viz09", "p-viz10"]["weight"] > graph.edges["p-viz01", "p-viz03"]["weight"]


def test_citations_view_is_directed_and_keeps_unloaded_references(views):
    graph = views["citations"].graph
    assert graph.is_directed()
    assert graph.has_edge("p-viz01", "p-viz02") and not graph.has_edge("p-viz02", "p-viz01")
    refs = [n for n, d in graph.nodes(data=True) if d["type"] == "Reference"]
    assert refs and all(graph.in_degree(r) >= 1 and graph.out_degree(r) == 0 for r in refs)
    around = views["citations-focus"].graph
    assert set(around) == {"p-viz01", "p-viz02", "p-viz03", "p-viz04", "p-viz08", "p-viz09"}
    data = page_json(views["citations"].render())
    assert data["options"]["edges"]["arrows"]["to"]["enabled"] is True


@pytest.mark.parametrize("args, error, message", [
    (dict(view="nope"), BadInput, "unknown view 'nope'"),
    (dict(view="paper"), BadInput, "needs --focus"),
    (dict(view="paper", focus="p-missing"), PaperNotFound, "no paper matches 'p-missing'"),
    (dict(view="concept", focus="no such concept"), NotFound, "no concept matches"),
    (dict(view="overview", types="Paper,Gadget"), BadInput, "unknown type(s) Gadget"),
    (dict(view="cooccurrence", types="Paper"), BadInput, "unknown type(s) Paper"),
])
def test_bad_requests_are_clear_errors(session_store, views, args, error, message):
    view = args.pop("view")
    with pytest.raises(error, match=re.escape(message)):
        build_view(session_store, view, **args)


def test_page_is_self_contained_and_csp_allows_only_its_own_scripts(views):
    html = views["overview"].render()
    assert not re.search(r"""(?:src|href|action|poster|data)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)
    assert not re.search(r"""url\(\s*["']?\s*(?:https?:)?//|@import""", html, re.I)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)[1]
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) == 2
    for code in scripts:
        digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp


def test_hostile_text_is_only_data(views):
    html = views["overview"].render()
    data = page_json(html)
    labels = {n["label"] for n in data["nodes"]}
    assert XSS_METHOD in labels  # kept verbatim as data ...
    markup = re.sub(r"<script[^>]*>.*?</script>|<style>.*?</style>", "", html, flags=re.S)
    for raw in ("<svg onload", "<img src=x", "window.__xss", "javascript:"):
        assert raw not in markup  # ... and nowhere in the page's markup
    assert "window.__xss" not in "".join(re.findall(r"<script>(.*?)</script>", html, re.S))  # nor in its code


def test_focus_heading_with_hostile_name_is_escaped(session_store, views):
    view = build_view(session_store, "concept", focus="xss svg", depth=1)
    html = view.render()
    assert "<h1 id=\"heading\">Around the concept &lt;svg onload=window.__xss=&#39;concept&#39;&gt;</h1>" in html
    assert "<title>Around the concept &lt;svg" in html


def test_large_graphs_get_python_layout_and_no_physics():
    graph = synthetic_graph(PHYSICS_MAX_NODES + 200)
    data = page_json(render_html(graph, "big"))
    assert data["options"]["physics"] == {"enabled": False}
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in data["nodes"])
    assert len({(n["x"], n["y"]) for n in data["nodes"]}) == graph.number_of_nodes()  # no two nodes on one spot
    small = page_json(render_html(synthetic_graph(50), "small"))
    assert small["options"]["physics"]["enabled"] is True
    assert small["options"]["physics"]["stabilization"]["iterations"] <= 200  # bounded, then switched off


def test_sizes_follow_the_score_and_widths_the_weight():
    graph = nx.star_graph(4)
    nx.set_node_attributes(graph, "Paper", "type")
    graph.add_edge(1, 2, weight=7)
    data = page_json(render_html(graph, "star", size_by="degree"))
    size = {n["id"]: n["size"] for n in data["nodes"]}
    assert size["0"] > size["1"] > size["3"]
    width = {(e["from"], e["to"]): e["width"] for e in data["edges"]}
    assert width[("1", "2")] == 8 and width[("0", "3")] < 3


def test_graph_from_rows_builds_attributes_and_names_bad_rows():
    rows = [{"source": "p1", "target": "c1", "weight": 2, "source_type": "Paper", "target_type": "Method",
             "target_label": "BERT", "title": "USES"},
            {"source": "p1", "target": "c1", "weight": 1}]
    graph = graph_from_rows(rows)
    assert graph.nodes["c1"] == {"type": "Method", "label": "BERT"} and graph["p1"]["c1"]["weight"] == 3
    assert "BERT" in render_html(graph, "from rows")
    with pytest.raises(ValueError, match=r"row 2: needs both 'source' and 'target'"):
        graph_from_rows([rows[0], {"source": "p2"}])


def test_cli_writes_every_view_and_fails_cleanly(store_dir, views, tmp_path):
    runner = CliRunner()
    for name, extra in (("overview", []), ("concept", ["--focus", "transformer", "--depth", "2"]),
                        ("paper", ["--focus", "p-viz02"]), ("cooccurrence", ["--types", "Method,Task,Dataset"]),
                        ("similarity", ["--min-weight", "1"]), ("citations", ["--top", "4"])):
        out = tmp_path / f"{name}.html"
        result = runner.invoke(main, ["viz", "--view", name, *extra, "-o", str(out), "--db", str(store_dir)])
        assert result.exit_code == 0, result.output
        assert "Wrote" in result.output and page_json(out.read_text(encoding="utf-8"))["nodes"]
    assert "Showing 4 of" in (tmp_path / "citations.html").read_text(encoding="utf-8")
    bad = runner.invoke(main, ["viz", "--view", "paper", "-o", str(tmp_path / "x.html"), "--db", str(store_dir)])
    assert bad.exit_code == 1 and "needs --focus" in bad.output and "Traceback" not in bad.output
    assert not (tmp_path / "x.html").exists()
    helped = runner.invoke(main, ["viz", "--help"])
    assert "Example:" in helped.output and "cooccurrence" in helped.output


def test_cap_prefers_an_explicit_rank_and_states_its_rule():
    graph = nx.path_graph(6)
    nx.set_node_attributes(graph, {n: (10 - n) for n in graph}, "rank")
    kept, left = cap(graph, 2, rule="the two first")
    assert set(kept) == {0, 1} and (left.nodes, left.edges, left.total_nodes) == (4, 4, 6)
    assert left.sentence() == "Showing 2 of 6 nodes (the two first); 4 nodes and 4 edges are left out."
    same, none = cap(graph, 6)
    assert same is graph and none.sentence() == ""


@pytest.mark.parametrize("view, focus, expected", [
    ("concept", "Bidirectional Encoder Representations from Transformers", "bert"),   # an alias
    ("concept", "BERT", "bert"),                                                       # a name, any case
    ("concept", "bert", "bert"),                                                       # an id
    ("paper", "transformers FOR translation", "p-viz01"),                                   # a title, any case
])
def test_focus_takes_an_id_a_title_a_name_or_an_alias(session_store, views, view, focus, expected):
    built = build_view(session_store, view, focus=focus, depth=1)
    assert [n for n, d in built.graph.nodes(data=True) if d.get("focus")] == [expected]


def test_a_focus_of_the_other_kind_says_which_view_to_use(session_store, views):
    with pytest.raises(NotFound, match="no paper matches 'BERT', but a concept does: use --view concept"):
        build_view(session_store, "paper", focus="BERT")


def test_a_community_is_named_by_three_distinct_concept_names(views, session_store):
    # p-viz07 and p-viz08 both name the Task and the Domain "reinforcement learning": one name, shown once
    from visuals.views import _name_by_shared_concepts

    records = {r["id"]: r for r in fixture_records()}
    concepts_of = {p: {concept_id(c["type"], c["key"]) for c in records[p]["concepts"]} for p in ("p-viz07", "p-viz08")}
    graph = nx.Graph()
    graph.add_nodes_from(concepts_of, community=0)
    _name_by_shared_concepts(session_store, graph, concepts_of)
    names = graph.graph["community_names"][0].split(", ")
    assert len(names) == 3 and len({n.lower() for n in names}) == 3, names
    assert [n.lower() for n in names[:2]] == ["atari", "reinforcement learning"]
