"""``kg export``: the graph as GraphML, GEXF, node-link JSON, or neo4j-admin CSV."""

from __future__ import annotations

from pathlib import Path

import click

import kg
from kg.cli.app import fail, handle_errors, main, report_skips, store_options


@main.command("export")
@store_options
@click.option("--format", "fmt", type=click.Choice(["graphml", "gexf", "json", "csv"]), required=True,
              help="graphml/gexf for Gephi, json for networkx/D3 (node-link), csv for neo4j-admin import.")
@click.option("-o", "--output", required=True, type=click.Path(), help="File to write (a folder for csv).")
@click.option("--citations-only", is_flag=True, help="Only papers, references and CITES edges.")
@click.option("--records", multiple=True, type=click.Path(), metavar="RECORDS",
              help="With --format csv: the graph kg load makes of these kg extract records (repeat it for "
                   "several files), for neo4j-admin import into a fresh Neo4j, instead of a store's graph.")
@handle_errors
def export(db_dir, uri, fmt, output, citations_only, records):
    """Export the stored graph for Gephi, networkx or Neo4j's bulk importer.

    Node ids are Label:key (Paper:P02-1040). For GraphML/GEXF, list and dict
    properties are written as JSON text and missing values are left out. csv
    writes nodes-<Label>.csv, rels-<TYPE>.csv, import.sh (the neo4j-admin
    command) and constraints.cypher into the folder OUTPUT.

    \b
    Example:
      kg export --format gexf -o graph.gexf
      kg export --format graphml --citations-only -o citations.graphml
      kg export --format json -o graph.json
      kg export --format csv -o neo4j-import && cat neo4j-import/import.sh
      kg export --format csv --records records.jsonl -o neo4j-import
    """
    if records:
        written = _records_csv(fmt, records, Path(output), citations_only)
    else:
        with kg.open(db_dir, uri) as graph:
            written = graph.export(fmt, Path(output), citations_only)
    for path in written:
        click.echo(f"Wrote {path}", err=True)


def _records_csv(fmt: str, records: tuple[str, ...], output: Path, citations_only: bool) -> list[Path]:
    if fmt != "csv":
        fail("--records writes the CSV files of neo4j-admin: use it with --format csv")
    written, report = kg.open().export_records(records, output, citations_only)
    report_skips(report.load)
    click.echo(f"Exported the graph of {report.papers} papers.", err=True)
    return written
