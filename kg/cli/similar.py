"""``kg similar``: the papers most related to a paper, explained by the concepts they share."""

from __future__ import annotations

import json

import click

import kg
from kg import defaults
from kg.cli.app import handle_errors, main, store_options

HOW = {
    "both": "score = {text:.1f} x text + {concepts:.1f} x concepts",
    "text": "score = text",
    "concepts": "score = concepts",
    "citations": "score = works both cite + papers citing both",
}
SIGNALS = ("text: BM25 of titles and abstracts, 1 = as alike as the paper itself; "
           "concepts: weight of the shared concepts / the paper's own")


@main.command()
@click.argument("paper")
@click.option("--by", type=click.Choice(["both", "concepts", "text", "citations"]), default=defaults.SIMILAR_BY, show_default=True,
              help="Rank by shared concepts and text together, by one of them, or by bibliographic coupling + co-citation.")
@click.option("--top", default=defaults.TOP, show_default=True, type=click.IntRange(min=1), help="Papers listed.")
@click.option("--types", default="", help="Only concepts of these types, comma-separated (Method,Task,Dataset,Metric,Entity,Domain).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@store_options
@handle_errors
def similar(paper, by, top, types, fmt, db_dir, uri):
    """Rank the papers most related to PAPER (a paper id), each with the concepts it shares.

    By default a paper's score adds the similarity of the two texts (BM25 over
    titles and abstracts, from an index kg build keeps in the graph) and the
    weight of the concepts both name (rare concepts weigh more, a Domain, a
    Metric or an Entity less); --by text or --by concepts ranks by one of them, --by
    citations by works both papers cite plus papers citing both. Each result
    says which signal ranked it and lists the shared concepts, heaviest first.

    \b
    Example:
      kg similar p-198679ab53b48580 --top 5
      kg similar p-198679ab53b48580 --by concepts --types Method,Dataset --format json
    """
    from kg.similar import CONCEPT_SHARE, as_json

    with kg.open(db_dir, uri) as graph:
        results = graph.similar(paper, top=top, by=by, types=[t for t in types.split(",") if t.strip()])
        title = graph.title(paper) if fmt == "table" else None
    if fmt == "json":
        click.echo(json.dumps(as_json(results), indent=2, ensure_ascii=False))
        return
    click.echo(f"Papers related to {paper}: {title or ''}")
    if not results:
        click.echo("(no paper shares a word, a concept or a citation with it)" if by == "both" else f"(no paper is related by {by})")
        return
    click.echo(HOW[by].format(text=1 - CONCEPT_SHARE, concepts=CONCEPT_SHARE) + f" ({SIGNALS})\n")
    for rank, result in enumerate(results, 1):
        click.echo(f"{rank:>2}. {result['score']:>6.3f}  {result['id']}  {result['title'] or ''}")
        click.echo(f"{'':>12}{_signals(result)}")
        for concept in result["shared"]:
            click.echo(f"{'':>12}{concept['weight']:>6.2f}  {concept['name']} ({concept['type']})")


def _signals(result: dict) -> str:
    """One line saying what ranked a result: its signals and the one that gave most of the score."""
    line = f"ranked by {result['ranked_by']}: text {result['text']:.3f}, concepts {result['concepts']:.3f}"
    if "coupled" in result:
        line += f", {result['coupled']} works both cite, {result['cocited']} papers cite both"
    return line
