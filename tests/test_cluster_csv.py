"""`kg export --format csv --records`: the neo4j-admin files of the graph `kg load` makes of records,
against a `kg load` of the same records into the real embedded store."""

from __future__ import annotations

import shutil

from click.testing import CliRunner

from kg.cli import main
from kg.export import nodes, read_neo4j_csv, relationships
from kg.records import store_records


def test_csv_from_records_holds_the_graph_of_kg_load(tmp_path, bundled_records, store):
    """The records of the bundled abstracts and OpenAlex works (``BUNDLED_SOURCES``), and a broken line."""
    records = shutil.copy(bundled_records, tmp_path / "records.jsonl")
    with open(records, "a", encoding="utf-8") as out:
        out.write('{"id": "broken"\n')

    result = CliRunner().invoke(main, ["export", "--format", "csv", "--records", str(records), "-o", str(tmp_path / "import")])
    assert result.exit_code == 0, result.output
    assert f"{records}: line 63: invalid JSON" in result.output and "Exported the graph of 62 papers." in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["import", "records.jsonl"]  # the scratch store is gone
    exported = read_neo4j_csv(tmp_path / "import")

    store_records([str(records)], store)
    loaded_nodes = {nid: sorted(labels) for nid, labels, _ in nodes(store)}
    loaded_edges = sorted((a, b, rel) for a, b, rel, _ in relationships(store))
    assert {nid: sorted(data["labels"]) for nid, data in exported.nodes(data=True)} == loaded_nodes
    assert sorted((a, b, rel) for a, b, rel in exported.edges(keys=True)) == loaded_edges
    kinds = {rel for _, _, rel in loaded_edges}
    assert {"CITES", "MENTIONS", "BROADER", "WROTE", "USES"} <= kinds  # citations and the vocabulary pass are in it
    paper = next(nid for nid in loaded_nodes if nid.startswith("Paper:openalex:"))
    assert exported.nodes[paper]["title"] == dict((n, p) for n, _, p in nodes(store))[paper]["title"]


def test_records_need_the_csv_format(tmp_path):
    result = CliRunner().invoke(main, ["export", "--format", "json", "--records", "x.jsonl", "-o", str(tmp_path / "g.json")])
    assert result.exit_code == 1 and "use it with --format csv" in result.output
