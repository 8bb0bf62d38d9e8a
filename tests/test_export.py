"""Exports round-trip through networkx: GraphML and GEXF (Gephi), node-link JSON,
and the neo4j-admin CSV files."""

import json
from collections import Counter

import networkx as nx
import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from kg.build import build
from kg.cli import main
from kg.export import read_json, read_neo4j_csv, store_graph


@pytest.fixture(scope="module")
def exported(session_store, store_dir, module_graphs, request, tmp_path_factory):
    def load(store):
        store.run("MATCH (n) DETACH DELETE n", write=True)
        build([str(FIXTURES / "aan_folder"), str(FIXTURES / "scierc_docs.json")], store)

    module_graphs.keep(request, load)
    out = tmp_path_factory.mktemp("export")
    runner = CliRunner()
    for fmt, name in (("graphml", "g.graphml"), ("gexf", "g.gexf"), ("json", "g.json"), ("csv", "csv")):
        result = runner.invoke(main, ["export", "--format", fmt, "-o", str(out / name), "--db", str(store_dir)])
        assert result.exit_code == 0, result.output
    cites = runner.invoke(main, ["export", "--format", "graphml", "--citations-only", "-o", str(out / "c.graphml"),
                                 "--db", str(store_dir)])
    assert cites.exit_code == 0, cites.output
    return store_graph(session_store), out


def edges(graph):
    return Counter((u, v, d.get("type", d.get("kg_type"))) for u, v, d in graph.edges(data=True))


def test_the_graph_read_from_the_store(exported):
    graph, _ = exported
    assert graph.nodes["Paper:J92-1003"]["title"] == "A Survey of Citation Analysis"
    assert graph.nodes["Paper:J92-1003"]["labels"] == ["Paper"]
    assert edges(graph)[("Paper:J92-1003", "Reference:X99-9999", "CITES")] == 1
    assert edges(graph)[("Author:Ana Ruiz", "Paper:J92-1003", "WROTE")] == 1


@pytest.mark.parametrize("name, read", [("g.graphml", nx.read_graphml), ("g.gexf", nx.read_gexf)])
def test_gephi_formats_round_trip(exported, name, read):
    graph, out = exported
    back = read(out / name)
    assert set(back.nodes) == set(graph.nodes)
    assert edges(back) == edges(graph)
    paper = back.nodes["Paper:J92-1003"]
    assert paper["title"] == "A Survey of Citation Analysis" and paper["year"] == 1992
    assert json.loads(paper["labels"]) == ["Paper"]  # lists travel as JSON text
    reference = back.nodes["Reference:X99-9999"]
    assert "year" not in reference  # None is left out, not written as "None"
    assert json.loads(reference["authors"]) == []
    for node, data in graph.nodes(data=True):  # every list property comes back as the same list
        for attribute, value in data.items():
            if isinstance(value, list):
                assert json.loads(back.nodes[node][attribute]) == value, (node, attribute)
    id_name = "kg_id" if name.endswith(".gexf") else "id"  # GEXF keeps "id" for itself
    assert paper[id_name] == "J92-1003"


def test_citations_only_export(exported):
    _, out = exported
    back = nx.read_graphml(out / "c.graphml")
    assert {n.split(":", 1)[0] for n in back.nodes} == {"Paper", "Reference"}
    assert {d["type"] for _, _, d in back.edges(data=True)} == {"CITES"}
    assert back.number_of_edges() == 4


def test_json_round_trip_keeps_lists_and_none(exported):
    graph, out = exported
    back = read_json(out / "g.json")
    assert set(back.nodes) == set(graph.nodes) and edges(back) == edges(graph)
    for node, data in graph.nodes(data=True):
        assert back.nodes[node] == data


def test_neo4j_admin_csv_round_trip(exported):
    graph, out = exported
    folder = out / "csv"
    back = read_neo4j_csv(folder)
    assert set(back.nodes) == set(graph.nodes) and edges(back) == edges(graph)
    for node, data in graph.nodes(data=True):
        kept = {k: v for k, v in data.items() if v not in (None, "", []) and k != "label"}
        assert {k: v for k, v in back.nodes[node].items() if v not in ([""],)} == kept, node
    header = (folder / "nodes-Paper.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[:2] == [":ID", ":LABEL"] and "year:long" in header and "title:string" in header
    assert (folder / "rels-CITES.csv").read_text(encoding="utf-8").splitlines()[0].startswith(":START_ID,:END_ID,:TYPE")
    command = (folder / "import.sh").read_text(encoding="utf-8")
    assert "neo4j-admin database import full" in command and "--nodes=nodes-Paper.csv" in command
    assert "--relationships=rels-CITES.csv" in command and command.rstrip().endswith("neo4j")
    assert "CREATE CONSTRAINT paper_id" in (folder / "constraints.cypher").read_text(encoding="utf-8")
