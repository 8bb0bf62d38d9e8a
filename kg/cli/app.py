"""Shared pieces of the ``kg`` command line: the group, options, error handling, output."""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import json
import os
import sys

import click

from kg import defaults
from kg.errors import KgError, NoPapers


def fail(message: str, code: int = 1):
    """Print ``Error: message`` on stderr and exit with ``code``."""
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


# Exit codes: 0 done, 1 error, 2 wrong usage (click), 3 `kg server status`: not running,
# NO_PAPERS the sources held no paper.
NO_PAPERS = 4
# The exit code of each kind of kg.errors error, the first that matches (docs/cli.md: "Exit codes").
EXIT_CODES: tuple[tuple[type[KgError], int], ...] = ((NoPapers, NO_PAPERS), (KgError, 1))


def exit_code(err: KgError) -> int:
    """The exit code of an error of ``kg.errors``.

    >>> from kg.errors import NoPapers, PaperNotFound
    >>> exit_code(PaperNotFound("p-1")), exit_code(NoPapers("no papers in the sources"))
    (1, 4)
    """
    return next(code for kind, code in EXIT_CODES if isinstance(err, kind))


def handle_errors(func):
    """Turn every error of ``kg.errors`` into ``Error: message`` and its exit code (after the
    report of what was skipped when the sources held no paper)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except KgError as err:
            if hasattr(err, "report"):  # loaders.NoPapers: the skips its message does not say
                err.report.skipped = err.other_skips()
                report_skips(err.report)
            fail(str(err), exit_code(err))
    return wrapper


class Group(click.Group):
    """The ``kg`` group: anything unexpected a command raises becomes a one-line error with
    exit code 1 and a hint to re-run with ``--debug``, which shows the traceback instead."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit, KeyboardInterrupt):
            raise
        except BrokenPipeError:  # the reader of the output went away (`kg extract ... | head`): not an error to report
            with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
            sys.exit(1)
        except Exception as err:  # noqa: BLE001  (the last line of defence: never a bare traceback)
            if ctx.params.get("debug"):
                raise
            what = " ".join(str(err).split())[:300] or "(no message)"
            fail(f"unexpected {type(err).__name__}: {what}; run `kg --debug {' '.join(_command_words(ctx))}` "
                 "for the traceback")


def _command_words(ctx: click.Context) -> list[str]:
    """The words of the command being run, for the ``--debug`` hint (``build ...``)."""
    return [ctx.invoked_subcommand, "..."] if ctx.invoked_subcommand else ["..."]


def store_options(func):
    func = click.option("--uri", envvar="NEO4J_URI", help="Bolt URI of a Neo4j server, bolt:// or neo4j:// (env NEO4J_URI); "
                        "credentials from NEO4J_USERNAME / NEO4J_PASSWORD, database from NEO4J_DATABASE.")(func)
    func = click.option("--db", "db_dir", envvar="KG_DB", default=defaults.DB, show_default=True,
                        type=click.Path(file_okay=False), help="Folder of the embedded store (env KG_DB).")(func)
    return func


def source_options(func):
    from loaders import FORMATS

    func = click.option("--no-header", is_flag=True,
                        help="Read the first line of an abstract list as an abstract, not as the list's header "
                             "(a header is guessed, and reported, when the first line is short and has no full stop).")(func)
    func = click.option("--format", "fmt", type=click.Choice(FORMATS), help="Force the input format (default: by extension or content).")(func)
    func = click.argument("sources", nargs=-1, required=True)(func)
    return func


def recogniser_option(func):
    """``--model fast|accurate``: the entity recogniser (docs/extraction.md: Choosing a recogniser)."""
    return click.option("--model", "recogniser", type=click.Choice(["fast", "accurate"]), default=defaults.RECOGNISER,
                        show_default=True,
                        help="Entity recogniser: fast (spaCy CNN) or accurate (a transformer on ONNX Runtime, "
                             "about 3.6x the CPU). Both ship trained, in the default install.")(func)


def report_build(report, verb: str, description: str, seconds: float) -> None:
    """The summary of ``kg build`` and ``kg load``: papers stored, citations, vocabulary, skips."""
    click.echo(f"{verb} {report.papers} papers from {report.load.files} file(s) into {description} in {seconds:.1f} s.",
               err=True)
    for line in report.citations.lines():
        click.echo(line, err=True)
    click.echo(report.vocabulary.line(), err=True)
    report_skips(report.load)


def report_skips(report, shown: int = 20) -> None:
    """What a load skipped, what it changed in the records it kept and the lines it read as headers,
    counted, first ``shown`` of each."""
    sections = ((report.skipped, "Skipped {} record(s):"), (report.notes, "Changed {} record(s) while loading:"),
                (report.headers, "Read {} line(s) as a header, not as a record:"))
    for lines, title in sections:
        if lines:
            click.echo(title.format(len(lines)), err=True)
            for line in lines[:shown]:
                click.echo(f"  {line}", err=True)
            if len(lines) > shown:
                click.echo(f"  ... and {len(lines) - shown} more", err=True)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kg")
@click.option("--debug", is_flag=True, envvar="KG_DEBUG", help="Show the traceback of an unexpected error (env KG_DEBUG=1).")
def main(debug):
    """Turn research papers into a citation graph and a knowledge graph.

    \b
    Example:
      kg build examples/neurips2026      # load, extract, store (./kg-data)
      kg stats
      kg query run overview/top-concepts
      kg viz -o overview.html
      kg --debug build papers.jsonl      # an unexpected error shows its traceback
    """


def write_view(view, output) -> None:
    """Write a view (``visuals.views.View``) to the file ``output`` and say what it holds and left out."""
    if view.graph.number_of_nodes() == 0:
        click.echo("Warning: nothing to draw with these options (the page says so).", err=True)
    view.write(output)
    left = view.omitted.sentence()
    click.echo(f"Wrote {output} ({view.graph.number_of_nodes():,} nodes, {view.graph.number_of_edges():,} edges)."
               + (f" {left}" if left else ""), err=True)


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
