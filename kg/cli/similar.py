"""``kg similar``: papers that share concepts with a paper, rare concepts weighing more."""

from __future__ import annotations

import json

import click

from kg.cli.app import handle_errors, main, store_options


@main.command()
@click.argument("paper")
@click.option("--top", default=10, show_default=True, type=click.IntRange(min=1), help="Papers listed.")
@click.option("--types", default="", help="Only concepts of these types, comma-separated (Method,Task,Dataset,Metric,Domain).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@store_options
@handle_errors
def similar(paper, top, types, fmt, db_dir, uri):
    """Rank the papers that share concepts with PAPER (a paper id), each with what it shares.

    A concept named by df of the N papers weighs ln(1 + N/df), so rare concepts
    count more than common ones; a paper's score is the sum of the weights of
    the concepts it shares (the pack query papers/similar computes the same).

    \b
    Example:
      kg similar p-198679ab53b48580 --top 5
      kg similar p-198679ab53b48580 --types Method,Dataset --format json
    """
    from kg.similar import as_json, paper_title, similar_papers
    from kg.store import open_store

    wanted = [t for t in types.split(",") if t.strip()]
    with open_store(db_dir, uri) as store:
        results = similar_papers(store, paper, top=top, types=wanted)
        title = paper_title(store, paper) if fmt == "table" else None
    if fmt == "json":
        click.echo(json.dumps(as_json(results), indent=2, ensure_ascii=False))
        return
    click.echo(f"Papers sharing concepts with {paper}: {title or ''}")
    if not results:
        click.echo("(no paper shares a concept with it)")
        return
    click.echo("score = sum of the shared concepts' weights ln(1 + papers / papers naming the concept)\n")
    for rank, result in enumerate(results, 1):
        click.echo(f"{rank:>2}. {result['score']:>7.3f}  {result['id']}  {result['title'] or ''}")
        for concept in result["shared"]:
            click.echo(f"{'':>13}{concept['weight']:>6.2f}  {concept['name']} ({concept['type']})")
