"""``kg fetch``: paper records from OpenAlex or arXiv into files ``kg build`` reads (needs the network)."""

from __future__ import annotations

import click

import kg
from kg import defaults
from kg.cli.app import handle_errors, main


def _polite_options(default_interval: float):
    def decorate(func):
        func = click.option("--mailto", envvar="KG_MAILTO", help="Your e-mail address, sent so the API can reach you (env KG_MAILTO).")(func)
        func = click.option("--min-interval", default=default_interval, show_default=True, help="Seconds between requests.")(func)
        func = click.option("--retries", default=5, show_default=True, help="Retries on 429, 5xx and network errors (backoff doubles).")(func)
        func = click.option("--resume", is_flag=True, help="Go on from the cursor saved beside OUTPUT by an interrupted fetch.")(func)
        func = click.option("--limit", default=100, show_default=True, help="How many records at most.")(func)
        func = click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="JSON lines file to write.")(func)
        return func
    return decorate


def _run(source: str, output: str, **kwargs) -> None:
    report = kg.open().fetch(source, output, on_page=lambda n: click.echo(f"  {n} records", err=True), **kwargs)
    click.echo(f"Wrote {report.records} records to {output} in {report.requests} request(s).", err=True)


@main.group()
def fetch():
    """Fetch paper records from online APIs into files that kg build reads.

    Requests identify kg and your address (--mailto or KG_MAILTO), keep a
    minimum interval, retry with backoff, and save a cursor beside the output
    after every page so that --resume goes on after an interruption.

    \b
    Example:
      export KG_MAILTO=you@example.org
      kg fetch openalex --search "citation graph" --limit 500 -o works.jsonl
      kg fetch arxiv --search "cat:cs.CL AND ti:citation" --limit 200 -o arxiv.jsonl
      kg build works.jsonl arxiv.jsonl
    """


@fetch.command("openalex")
@click.option("--search", help="Full-text search of titles, abstracts and full texts.")
@click.option("--doi", "dois", multiple=True, help="A DOI to fetch (repeatable).")
@click.option("--author", help="An OpenAlex author id (A123...) or a name (its best match).")
@click.option("--per-page", default=200, show_default=True, help="Works per request (at most 200).")
@click.option("--base-url", envvar="KG_OPENALEX_URL", default="https://api.openalex.org", show_default=True,
              help="API root (env KG_OPENALEX_URL).")
@_polite_options(defaults.FETCH_MIN_INTERVAL["openalex"])
@handle_errors
def fetch_openalex(search, dois, author, per_page, base_url, output, limit, resume, retries, min_interval, mailto):
    """OpenAlex Work records (abstracts and referenced works included).

    \b
    Example:
      kg fetch openalex --search "graph neural networks" --limit 1000 -o works.jsonl
      kg fetch openalex --doi 10.18653/v1/N19-1423 --doi 10.48550/arxiv.1706.03762 -o two.jsonl
      kg fetch openalex --author "Yoshua Bengio" --limit 300 -o bengio.jsonl --mailto you@example.org
      kg fetch openalex --search "graph neural networks" --limit 1000 -o works.jsonl --resume
    """
    _run("openalex", output, search=search, ids=dois, author=author, per_page=per_page, base_url=base_url, limit=limit,
         resume=resume, retries=retries, min_interval=min_interval, mailto=mailto)


@fetch.command("arxiv")
@click.option("--search", help="An arXiv API search_query (ti:, au:, abs:, cat:, AND/OR).")
@click.option("--id", "arxiv_ids", multiple=True, help="An arXiv id (repeatable).")
@click.option("--per-page", default=100, show_default=True, help="Records per request (at most 100).")
@click.option("--base-url", envvar="KG_ARXIV_URL", default="https://export.arxiv.org/api/query", show_default=True,
              help="API endpoint (env KG_ARXIV_URL).")
@_polite_options(defaults.FETCH_MIN_INTERVAL["arxiv"])
@handle_errors
def fetch_arxiv(search, arxiv_ids, per_page, base_url, output, limit, resume, retries, min_interval, mailto):
    """arXiv records, written in the shape of the arXiv metadata snapshot.

    \b
    Example:
      kg fetch arxiv --search "cat:cs.CL AND abs:citation" --limit 300 -o arxiv.jsonl
      kg fetch arxiv --id 1706.03762 --id 1810.04805 -o two.jsonl
    """
    _run("arxiv", output, search=search, ids=arxiv_ids, per_page=per_page, base_url=base_url, limit=limit,
         resume=resume, retries=retries, min_interval=min_interval, mailto=mailto)
