"""``kg citations``: most cited, PageRank, co-citation, bibliographic coupling, citation paths."""

from __future__ import annotations

import functools

import click

from kg import defaults
from kg.cli.app import ROW_FORMATS, fail, handle_errors, main, print_rows, store_options


def _graph_command(func):
    """Store options, output format, and the citation graph read from the store."""

    @store_options
    @click.option("--format", "fmt", type=ROW_FORMATS, default="table", show_default=True)
    @click.option("--papers-only", is_flag=True, help="Leave out references to papers that are not loaded.")
    @handle_errors
    @functools.wraps(func)
    def wrapper(db_dir, uri, fmt, papers_only, **kwargs):
        from kg.citations.analytics import citation_graph
        from kg.store import open_store

        with open_store(db_dir, uri) as store:
            graph = citation_graph(store, references=not papers_only)
        print_rows(func(graph, **kwargs), fmt)
    return wrapper


@main.group()
def citations():
    """Citation analytics over the stored citation graph (networkx).

    The graph is every (:Paper)-[:CITES]->(:Paper|:Reference) edge; works not
    loaded are the references' keys (--papers-only leaves them out).

    \b
    Example:
      kg citations top --top 10
      kg citations pagerank --papers-only
      kg citations cocited --paper P02-1040
      kg citations coupled --top 5 --format json
      kg citations path J92-1003 P90-1001
    """


@citations.command("top")
@click.option("--top", default=defaults.TOP, show_default=True, help="How many works.")
@_graph_command
def top(graph, top):
    """The most cited works.

    \b
    Example:
      kg citations top --top 20 --papers-only
    """
    from kg.citations.analytics import most_cited

    return most_cited(graph, top)


@citations.command("pagerank")
@click.option("--top", default=defaults.TOP, show_default=True, help="How many works.")
@click.option("--alpha", default=defaults.ALPHA, show_default=True, help="Damping factor.")
@_graph_command
def pagerank(graph, top, alpha):
    """Works ranked by PageRank on the citation graph.

    \b
    Example:
      kg citations pagerank --top 20 --format csv > pagerank.csv
    """
    from kg.citations.analytics import pagerank as rank

    return rank(graph, top, alpha)


@citations.command("cocited")
@click.option("--paper", help="Only the works cited together with this one.")
@click.option("--top", default=defaults.TOP, show_default=True, help="How many pairs.")
@_graph_command
def cocited(graph, paper, top):
    """Co-citation: pairs of works cited by the same papers, by how many papers cite both.

    \b
    Example:
      kg citations cocited --top 10
      kg citations cocited --paper P02-1040
    """
    from kg.citations.analytics import co_citation

    return co_citation(graph, paper, top)


@citations.command("coupled")
@click.option("--paper", help="Only the papers coupled with this one.")
@click.option("--top", default=defaults.TOP, show_default=True, help="How many pairs.")
@_graph_command
def coupled(graph, paper, top):
    """Bibliographic coupling: pairs of papers by how many references they share.

    \b
    Example:
      kg citations coupled --paper J92-1003
    """
    from kg.citations.analytics import bibliographic_coupling

    return bibliographic_coupling(graph, paper, top)


@citations.command("path")
@click.argument("source")
@click.argument("target")
@click.option("--undirected", is_flag=True, help="Also follow citations backwards (cited-by).")
@_graph_command
def path(graph, source, target, undirected):
    """The shortest chain of citations from SOURCE to TARGET (paper ids or reference keys).

    Exit code 1 with a message when there is no such chain.

    \b
    Example:
      kg citations path J92-1003 P90-1001
      kg citations path P91-1002 J92-1003 --undirected
    """
    from kg.citations.analytics import citation_path, path_rows

    found = citation_path(graph, source, target, directed=not undirected)
    if found is None:
        fail(f"no citation path from {source} to {target}" + ("" if undirected else " (try --undirected)"))
    return path_rows(graph, found)
