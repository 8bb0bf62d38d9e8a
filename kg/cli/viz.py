"""``kg viz``: interactive HTML views."""

from __future__ import annotations

import click

from kg.cli.app import handle_errors, main, store_options


@main.command()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="HTML file to write.")
@click.option("--top", default=150, show_default=True, help="Most concepts to show.")
@click.option("--min-papers", default=2, show_default=True, help="Show concepts shared by at least this many papers.")
@store_options
@handle_errors
def viz(output, top, min_papers, db_dir, uri):
    """Write an interactive HTML view of the graph (one offline file).

    \b
    Example:
      kg viz -o overview.html --top 100
    """
    from kg.store import open_store

    with open_store(db_dir, uri) as store:
        write_overview(store, output, top, min_papers)


def write_overview(store, output, top: int, min_papers: int) -> None:
    """Write the overview view of ``store`` to ``output``."""
    from visuals import write_html
    from visuals.views import overview

    graph, subtitle = overview(store, top=top, min_papers=min_papers)
    write_html(graph, output, "Papers and the concepts they share", subtitle)
    click.echo(f"Wrote {output} ({graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges).", err=True)
