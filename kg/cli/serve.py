"""``kg serve``: the graph in a browser, on this machine, read-only."""

from __future__ import annotations

import warnings

import click

import kg
from kg.cli.app import handle_errors, main, store_options

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765  # as kg.serve (imported only when serving)


@main.command()
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: a free one, printed).")
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on. Another than 127.0.0.1 / ::1 lets other machines read the graph (no login): "
                   "a warning says so.")
@click.option("--log", "log_requests", is_flag=True, help="Print one line per request on stderr.")
@store_options
@handle_errors
def serve(port, host, log_requests, db_dir, uri):
    """Explore the graph in your browser: search, paper and concept pages, queries, views.

    A local web app, read-only: search papers (title, abstract, id) and
    concepts (name, alias) from one box; a paper's page shows its abstract
    with its concepts highlighted, what it proposes and uses, its references,
    citing and similar papers and its neighbourhood graph; a concept's page
    its papers, timeline and the concepts it goes with. The query packs are
    forms (results as CSV or JSON), with a read-only Cypher console, and the
    views of kg viz draw on demand. Every asset comes from kg: nothing is
    fetched from the network. Ctrl+C stops it.

    \b
    Example:
      kg serve                          # http://127.0.0.1:8765/ over ./kg-data
      kg serve --db kg-data --port 9000
      kg serve --port 0                 # any free port
      kg serve --host 0.0.0.0           # other machines too (prints a warning)
    """
    from kg.serve import warning_for

    graph = kg.open(db_dir, uri)
    warning = warning_for(host)
    if warning:
        click.echo(warning, err=True)
    with graph, warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # said above, as a line of its own
        server = graph.serve(port=port, host=host, block=False,
                             log=(lambda line: click.echo(line, err=True)) if log_requests else None)
        click.echo(f"Serving {graph.description} at {server.url} (Ctrl+C stops)", err=True)
        try:
            server.wait()
        except KeyboardInterrupt:
            click.echo("Stopped.", err=True)
        finally:
            server.close()
