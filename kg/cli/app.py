"""Shared pieces of the ``kg`` command line: the group, options, error handling, output."""

from __future__ import annotations

import csv
import functools
import io
import json
import sys

import click

from kg.store.embedded import StoreError


def fail(message: str, code: int = 1):
    """Print ``Error: message`` on stderr and exit with ``code``."""
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def handle_errors(func):
    """Turn the project's known errors into a clear message and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from kg.extract import ModelMissing
        from loaders import LoadError
        from queries import QueryError

        try:
            return func(*args, **kwargs)
        except (LoadError, StoreError, ModelMissing, QueryError) as err:
            fail(str(err))
    return wrapper


def store_options(func):
    func = click.option("--uri", envvar="NEO4J_URI", help="Bolt URI of a Neo4j server (env NEO4J_URI); "
                        "credentials from NEO4J_USERNAME / NEO4J_PASSWORD, database from NEO4J_DATABASE.")(func)
    func = click.option("--db", "db_dir", envvar="KG_DB", default="kg-data", show_default=True,
                        type=click.Path(file_okay=False), help="Folder of the embedded store (env KG_DB).")(func)
    return func


def source_options(func):
    from loaders import FORMATS

    func = click.option("--format", "fmt", type=click.Choice(FORMATS), help="Force the input format (default: by extension or content).")(func)
    func = click.argument("sources", nargs=-1, required=True)(func)
    return func


def report_skips(report) -> None:
    if report.skipped:
        click.echo(f"Skipped {len(report.skipped)} record(s):", err=True)
        for line in report.skipped[:20]:
            click.echo(f"  {line}", err=True)
        if len(report.skipped) > 20:
            click.echo(f"  ... and {len(report.skipped) - 20} more", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kg")
def main():
    """Turn research papers into a citation graph and a knowledge graph.

    \b
    Example:
      kg build examples/neurips2026      # load, extract, store (./kg-data)
      kg stats
      kg query run overview/top-concepts
      kg viz -o overview.html
    """


ROW_FORMATS = click.Choice(["table", "json", "csv"])  # what print_rows writes


def print_rows(rows: list[dict], fmt: str) -> None:
    """Rows as an aligned table, JSON or CSV on stdout."""
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
        return
    columns = list(rows[0]) if rows else []
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v for v in row.values()])
        click.echo(buffer.getvalue(), nl=False)
        return
    if not rows:
        click.echo("(no rows)")
        return

    def cell(value) -> str:
        text = ", ".join(map(str, value)) if isinstance(value, list) else ("" if value is None else str(value))
        return text if len(text) <= 70 else text[:69] + "…"

    cells = [[cell(row[c]) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    click.echo("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip())
    click.echo("  ".join("-" * w for w in widths))
    for r in cells:
        click.echo("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
