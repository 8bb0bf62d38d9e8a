"""``kg similar``: the papers most related to a paper or a draft, explained by what they share."""

from __future__ import annotations

import json
from pathlib import Path

import click

import kg
from kg import defaults
from kg.cli.app import handle_errors, main, store_options

HOW = {
    "all": "score = {text:.1f} x text + {concepts:.1f} x concepts + {dense:.1f} x dense",
    "text": "score = text",
    "concepts": "score = concepts",
    "dense": "score = dense",
    "citations": "score = works both cite + papers citing both",
}
SIGNALS = ("text: BM25 of titles and abstracts, 1 = as alike as the paper itself; "
           "concepts: weight of the shared concepts / the query's own; "
           "dense: all-MiniLM-L6-v2 cosine, 0 = the query's mean over the graph, 1 = identical")
CONCEPTS_SHOWN = 5  # the shared concepts that weigh most; --format json lists them all


@main.command()
@click.argument("paper", required=False)
@click.option("--text", "draft", help="Rank the papers related to this text (a draft abstract not in the graph).")
@click.option("--file", "draft_file", type=click.Path(path_type=Path), help="Rank the papers related to the text of this file.")
@click.option("--by", type=click.Choice(["all", "text", "concepts", "dense", "citations", "both"]), default=defaults.SIMILAR_BY,
              show_default=True, help="Rank by text, shared concepts and meaning together, by one of them, or by "
              "bibliographic coupling + co-citation ('both' is the former name of 'all').")
@click.option("--top", default=defaults.TOP, show_default=True, type=click.IntRange(min=1), help="Papers listed.")
@click.option("--types", default="", help="Only concepts of these types, comma-separated (Method,Task,Dataset,Metric,Entity,Domain).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@store_options
@handle_errors
def similar(paper, draft, draft_file, by, top, types, fmt, db_dir, uri):
    """Rank the papers most related to PAPER (a paper id), or to a draft given
    with --text or --file, each with what it shares.

    By default a paper's score adds three signals: the likeness of the two
    texts (BM25 over titles and abstracts, from an index kg build keeps in the
    graph), the weight of the concepts both name (rare concepts weigh more, a
    Domain, a Metric or an Entity less) and the nearness of their meanings
    (all-MiniLM-L6-v2 sentence vectors, computed by kg build); --by text,
    concepts or dense ranks by one of them, --by citations by works both papers
    cite plus papers citing both. Each result says which signal ranked it and
    lists the shared concepts that weigh most; each of the first ten shows the
    nearest sentences of the two abstracts (by sentence vectors kg build
    stores). A draft is read on the fly, never stored.

    \b
    Example:
      kg similar p-198679ab53b48580 --top 5
      kg similar p-198679ab53b48580 --by concepts --types Method,Dataset --format json
      kg similar --text "We fine-tune large language models with low-rank adapters."
      kg similar --file draft.txt --top 20
    """
    from kg.similar import WEIGHTS, as_json, read_draft

    given = [x for x in (paper, draft, draft_file) if x is not None]
    if len(given) != 1:
        raise click.UsageError("give one of: a paper id, --text TEXT, --file PATH")
    text = read_draft(draft_file) if draft_file is not None else draft
    with kg.open(db_dir, uri) as graph:
        results = graph.similar(paper, top=top, by=by, types=[t for t in types.split(",") if t.strip()], text=text)
        title = graph.title(paper) if fmt == "table" and paper else None
    if fmt == "json":
        click.echo(json.dumps(as_json(results), indent=2, ensure_ascii=False))
        return
    click.echo(f"Papers related to {paper}: {title or ''}" if paper else f"Papers related to the draft: {_short(text)}")
    by = "all" if by == "both" else by
    if not results:
        click.echo("(no paper shares a word, a concept or a meaning with it)" if by == "all" else f"(no paper is related by {by})")
        return
    click.echo(HOW[by].format(**WEIGHTS) + f" ({SIGNALS})\n")
    for rank, result in enumerate(results, 1):
        click.echo(f"{rank:>2}. {result['score']:>6.3f}  {result['id']}  {result['title'] or ''}")
        click.echo(f"{'':>12}{_signals(result)}")
        for concept in result["shared"][:CONCEPTS_SHOWN]:
            click.echo(f"{'':>12}{concept['weight']:>6.2f}  {concept['name']} ({concept['type']})")
        if len(result["shared"]) > CONCEPTS_SHOWN:
            click.echo(f"{'':>12}        and {len(result['shared']) - CONCEPTS_SHOWN} more shared concepts")
        if "sentences" in result:
            pair = result["sentences"]
            click.echo(f"{'':>12}nearest sentences (cosine {pair['cosine']:.2f}):")
            click.echo(f"{'':>14}query: {pair['query']}")
            click.echo(f"{'':>14}this:  {pair['match']}")


def _short(text: str, width: int = 90) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width].rsplit(" ", 1)[0] + "…"


def _signals(result: dict) -> str:
    """One line saying what ranked a result: its signals and the one that gave most of the score."""
    line = (f"ranked by {result['ranked_by']}: text {result['text']:.3f}, concepts {result['concepts']:.3f}, "
            f"dense {result['dense']:.3f}")
    if "coupled" in result:
        line += f", {result['coupled']} works both cite, {result['cocited']} papers cite both"
    return line
