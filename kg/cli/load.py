"""``kg load``: store the records of ``kg extract`` without extracting again."""

from __future__ import annotations

import contextlib
import sys
import time

import click

import kg
from kg.cli.app import handle_errors, main, report_build, store_options


def _progress(sources):
    """A progress bar on a terminal, None in a pipe or for stdin (which cannot be read twice)."""
    if not sys.stderr.isatty() or "-" in sources:
        return None
    from kg.records import count_records

    return click.progressbar(length=count_records(sources), label="Loading", file=sys.stderr, show_pos=True)


@main.command()
@click.argument("records", nargs=-1, required=True)
@store_options
@handle_errors
def load(records, db_dir, uri):
    """Store the JSON-lines records of `kg extract` (files, folders, globs, .gz, - for stdin).

    The graph is the one `kg build` makes of the sources the records came from,
    without running spaCy again: extract once (or on many machines), load anywhere.
    A line that is not a record of the contract (docs/schema.md: "kg extract records") is
    skipped and reported with its file and line; the other records load. Loading
    the same records twice changes no counts.

    \b
    Example:
      kg extract examples/neurips2026 -o records.jsonl
      kg load records.jsonl --db kg-data
      gzip -c records.jsonl | kg load - --uri bolt://localhost:7687    # NEO4J_PASSWORD from env
    """
    from loaders import expand

    list(expand(records))  # a missing file fails here, before a store is started
    start = time.monotonic()
    bar = _progress(records)
    with kg.open(db_dir, uri) as graph:
        with bar or contextlib.nullcontext():
            report = graph.load(list(records), on_paper=bar and (lambda _: bar.update(1)))
        report_build(report, "Loaded", graph.description, time.monotonic() - start)
