"""``kg export``: the graph as GraphML, GEXF, node-link JSON, or neo4j-admin CSV."""

from __future__ import annotations

from pathlib import Path

import click

import kg
from kg.cli.app import handle_errors, main, store_options


@main.command("export")
@store_options
@click.option("--format", "fmt", type=click.Choice(["graphml", "gexf", "json", "csv"]), required=True,
              help="graphml/gexf for Gephi, json for networkx/D3 (node-link), csv for neo4j-admin import.")
@click.option("-o", "--output", required=True, type=click.Path(), help="File to write (a folder for csv).")
@click.option("--citations-only", is_flag=True, help="Only papers, references and CITES edges.")
@handle_errors
def export(db_dir, uri, fmt, output, citations_only):
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
    """
    with kg.open(db_dir, uri) as graph:
        written = graph.export(fmt, Path(output), citations_only)
    for path in written:
        click.echo(f"Wrote {path}", err=True)
