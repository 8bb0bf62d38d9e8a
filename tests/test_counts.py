"""The counts a build keeps on its BuildState node (kg.store.counts) give the rows of counting now:
the packs that read them answer as on a graph no build has counted."""

from __future__ import annotations

import pytest
from helpers.packs import run_pack
from test_queries import load_fixture

KEPT_PACKS = [("overview/counts", {}), ("citations/most-cited", {"top": "3"}), ("citations/most-cited", {}),
              ("trends/new-concepts", {"examples": "2"}), ("overview/top-concepts", {"per_type": "1"}),
              ("overview/top-concepts", {}), ("trends/concepts-by-year", {"per_year": "2"}),
              ("trends/concepts-by-year", {"type": "method", "per_year": "3"}), ("trends/concepts-by-year", {"type": "nothing"}),
              ("trends/new-concepts", {"examples": "3"}), ("quality/extractors", {}),
              ("quality/same-name-types", {}), ("quality/same-name-types", {"top": "1"}),
              ("overview/most-connected-papers", {}), ("overview/most-connected-papers", {"top": "2"}),
              ("concepts/method-dataset-matrix", {}), ("concepts/method-dataset-matrix", {"min_papers": "2"}),
              ("concepts/method-task-matrix", {"top": "1"}), ("concepts/method-task-matrix", {"min_papers": "2", "top": "2"}),
              ("quality/papers-without-concepts", {}), ("quality/papers-without-concepts", {"top": "1"}),
              ("quality/missing-metadata", {}), ("quality/missing-metadata", {"top": "2"})]


@pytest.fixture(scope="module")
def graph(session_store, module_graphs, request):
    module_graphs.keep(request, load_fixture)
    return session_store



def test_kept_counts_answer_as_counting_now(graph):
    kept = {(name, tuple(params.items())): run_pack(graph, name, params) for name, params in KEPT_PACKS}
    state = graph.run("MATCH (s:BuildState) RETURN properties(s) AS props")[0]["props"]
    assert state["cited"][:2] == ["lee-2019", "pA"] and state["label_counts"]
    try:  # as a graph no build counted: the packs count
        graph.run("MATCH (s:BuildState) REMOVE s.labels, s.types, s.cited, s.years, s.top_concepts, s.by_year, s.new_years, "
                  "s.extractors, s.same_name, s.connected, s.method_dataset, s.method_task, s.without_concepts, "
                  "s.missing_metadata", write=True)
        for (name, params), rows in kept.items():
            counted = run_pack(graph, name, dict(params))
            assert counted == rows, name
            assert rows or params == (("type", "nothing"),), name
        graph.run("MATCH (s:BuildState) SET s.cited = ['pA'], s.cited_by = [99], s.cited_kept = 1", write=True)
        assert [r["id"] for r in run_pack(graph, "citations/most-cited", {"top": "1"})] == ["pA"]  # the kept list is read
        assert len(run_pack(graph, "citations/most-cited", {"top": "2"})) == 2  # longer than kept: counted
        graph.run("MATCH (s:BuildState) SET s.top_concepts = ['transformer'], s.top_kept = 1", write=True)
        assert [r["concept"] for r in run_pack(graph, "overview/top-concepts", {"per_type": "1"})] == ["Transformer"]
        # the other kept lists are read too: a list of one answers a top of one, a longer top is counted
        first = kept[("overview/most-connected-papers", ())][-1]["id"]
        graph.run("MATCH (s:BuildState) SET s.connected = [$id], s.connected_kept = 1", {"id": first}, write=True)
        assert [r["id"] for r in run_pack(graph, "overview/most-connected-papers", {"top": "1"})] == [first]
        assert len(run_pack(graph, "overview/most-connected-papers", {"top": "2"})) == 2
        for pack, kept_as in (("quality/papers-without-concepts", "without_concepts"), ("quality/missing-metadata", "missing_metadata")):
            last = kept[(pack, ())][-1]["id"]
            graph.run(f"MATCH (s:BuildState) SET s.{kept_as} = [$id], s.quality_kept = 1", {"id": last}, write=True)
            assert [r["id"] for r in run_pack(graph, pack, {"top": "1"})] == [last]  # the kept list is read
            assert len(run_pack(graph, pack, {"top": "2"})) == min(2, len(kept[(pack, ())]))  # longer than kept: read now
        graph.run("MATCH (s:BuildState) SET s.extractors = ['rule'], s.extractor_links = [7], s.extractor_avg = [0.5], "
                  "s.extractor_min = [0.5]", write=True)
        assert run_pack(graph, "quality/extractors", {}) == [
            {"extractor": "rule", "links": 7, "avg_confidence": 0.5, "min_confidence": 0.5}]
    finally:
        load_fixture(graph)


def test_recount_keeps_the_counts_again_as_a_build_does(graph):
    from kg.api import KnowledgeGraph

    kept = run_pack(graph, "quality/same-name-types", {})
    before = graph.run("MATCH (s:BuildState) RETURN properties(s) AS props")[0]["props"]
    try:
        graph.run("MATCH (s:BuildState) REMOVE s.labels, s.same_name, s.connected, s.method_task, s.extractors", write=True)
        api = KnowledgeGraph()
        api._store = graph  # the API's verbs on the test's store
        counts = api.stats(recount=True)
        after = graph.run("MATCH (s:BuildState) RETURN properties(s) AS props")[0]["props"]
        assert counts["nodes"]["Paper"] == dict(zip(before["labels"], before["label_counts"]))["Paper"]
        assert {k: after[k] for k in before if k != "stamp"} == {k: before[k] for k in before if k != "stamp"}
        assert run_pack(graph, "quality/same-name-types", {}) == kept
    finally:
        load_fixture(graph)


def test_a_broad_concepts_co_occurring_concepts_are_kept_and_read_as_counting_now(graph):
    from kg.store.counts import keep_counts

    concepts = [r["name"] for r in graph.run("MATCH (c:Concept) WHERE c.papers > 1 RETURN c.name AS name ORDER BY name")]
    counted = {name: run_pack(graph, "concepts/profile", {"concept": name, "top": "4"}) for name in concepts}
    try:
        keep_counts(graph, broad=1)  # every concept of two or more papers is broad here
        kept = graph.run("MATCH (c:Concept) WHERE c.co_occurring IS NOT NULL RETURN c.name AS name, c.papers AS papers")
        assert kept and all(row["papers"] > 1 for row in kept)
        for name, rows in counted.items():
            assert run_pack(graph, "concepts/profile", {"concept": name, "top": "4"}) == rows, name
        name = kept[0]["name"]
        graph.run("MATCH (c:Concept {name: $name}) SET c.co_occurring = [c.id], c.co_occurring_papers = [99]",
                  {"name": name}, write=True)
        graph.run("MATCH (s:BuildState) SET s.co_occurring_kept = 1", write=True)
        first = run_pack(graph, "concepts/profile", {"concept": name, "top": "1"})[0]["co_occurring"]
        assert first == [{"name": name, "type": first[0]["type"], "papers": 99}]  # the kept list is read
        assert run_pack(graph, "concepts/profile", {"concept": name, "top": "4"}) == counted[name]  # longer: counted
        keep_counts(graph)  # none is broad at 1,000 papers: the kept lists are forgotten
        assert not graph.run("MATCH (c:Concept) WHERE c.co_occurring IS NOT NULL RETURN c.id AS id")
    finally:
        load_fixture(graph)
