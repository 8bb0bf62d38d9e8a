"""``kg citations``: most cited, PageRank, co-citation, bibliographic coupling, citation paths."""

from __future__ import annotations

import functools

import click

import kg
from kg import defaults
from kg.cli.app import ROW_FORMATS, fail, handle_errors, main, print_rows, store_options


def _citations_command(verb: str):
    """Store options and output format for ``kg citations VERB``: open, ``graph.citations(VERB)``, print."""

    def decorate(func):
        @store_options
        @click.option("--format", "fmt", type=ROW_FORMATS, default="table", show_default=True)
        @click.option("--papers-only", is_flag=True, help="Leave out references to papers that are not loaded.")
        @handle_errors
        @functools.wraps(func)
        def wrapper(db_dir, uri, fmt, papers_only, **options):
            with kg.open(db_dir, uri) as graph:
                rows = graph.citations(verb, papers_only=papers_only, **options)
            func(rows, **options)
            print_rows(rows, fmt)
        return wrapper
    return decorate


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
@_citations_command("top")
def top(rows, top):
    """The most cited works.

    \b
    Example:
      kg citations top --top 20 --papers-only
    """


@citations.command("pagerank")
@click.option("--top", default=defaults.TOP, show_default=True, help="How many works.")
@click.option("--alpha", default=defaults.ALPHA, show_default=True, help="Damping factor.")
@_citations_command("pagerank")
def pagerank(rows, top, alpha):
    """Works ranked by PageRank on the citation graph.

    \b
    Example:
      kg citations pagerank --top 20 --format csv > pagerank.csv
    """


@citations.command("cocited")
@click.option("--paper", help="Only the works cited together with this one.")
@click.option("--top", default=defaults.TOP, show_default=True, help="How many pairs.")
@_citations_command("cocited")
def cocited(rows, paper, top):
    """Co-citation: pairs of works cited by the same papers, by how many papers cite both.

    \b
    Example:
      kg citations cocited --top 10
      kg citations cocited --paper P02-1040
    """


@citations.command("coupled")
@click.option("--paper", help="Only the papers coupled with this one.")
@click.option("--top", default=defaults.TOP, show_default=True, help="How many pairs.")
@_citations_command("coupled")
def coupled(rows, paper, top):
    """Bibliographic coupling: pairs of papers by how many references they share.

    \b
    Example:
      kg citations coupled --paper J92-1003
    """


@citations.command("path")
@click.argument("source")
@click.argument("target")
@click.option("--undirected", is_flag=True, help="Also follow citations backwards (cited-by).")
@_citations_command("path")
def path(rows, source, target, undirected):
    """The shortest chain of citations from SOURCE to TARGET (paper ids or reference keys).

    Exit code 1 with a message when there is no such chain.

    \b
    Example:
      kg citations path J92-1003 P90-1001
      kg citations path P91-1002 J92-1003 --undirected
    """
    if not rows:
        fail(f"no citation path from {source} to {target}" + ("" if undirected else " (try --undirected)"))
