"""``kg extract``, ``kg build``, ``kg stats`` and ``kg demo``."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from pathlib import Path

import click

import kg
from kg import defaults
from kg.cli.app import (
    fail,
    handle_errors,
    main,
    print_rows,
    recogniser_option,
    report_build,
    report_skips,
    source_options,
    store_options,
    write_view,
)

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples" / "neurips2026"  # package data (the repo's examples/ links here)


@main.command()
@source_options
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-", help="Where to write JSON lines (default: stdout).")
@click.option("--processes", default=defaults.PROCESSES, show_default=True,
              help="Extraction worker processes, one per core (accurate: one ONNX Runtime thread each).")
@recogniser_option
@click.option("--cluster", metavar="ADDRESS", default=None,
              help='Extract on a Dask cluster: its scheduler (tcp://host:8786), or local:N to start N worker '
                   'processes here. Needs pip install "kg[cluster]"; workers must see SOURCES at the same paths.')
@click.option("--records-per-part", type=click.IntRange(min=1), default=defaults.RECORDS_PER_PART, show_default=True,
              help="With --cluster: JSON-lines files are cut into parts of this many lines, one task each.")
@handle_errors
def extract(sources, fmt, no_header, output, processes, recogniser, cluster, records_per_part):
    """Extract concepts, citations and URLs; write one JSON object per paper.

    SOURCES are files, folders, glob patterns, .gz files or - for stdin.

    \b
    Examples:
      kg extract examples/neurips2026 -o concepts.jsonl
      kg extract examples/neurips2026 --model accurate --processes 2 -o concepts.jsonl
      kg extract works.jsonl -o records.jsonl --cluster tcp://scheduler:8786
      kg extract works.jsonl -o records.jsonl --cluster local:2
      kg extract abstracts.txt --no-header -o concepts.jsonl   # line 1 is an abstract too
    """
    from loaders import LoadReport

    if cluster and processes != defaults.PROCESSES:
        fail("--cluster and --processes: choose one (a cluster's workers are its processes)")
    report = LoadReport()
    count = 0
    for record in kg.open().extract(sources, fmt, processes, report, model=recogniser, cluster=cluster,
                                    records_per_part=records_per_part, no_header=no_header):
        output.write(json.dumps(record, ensure_ascii=False) + "\n")
        count += 1
    report_skips(report)
    click.echo(f"Extracted {count} papers from {report.files} file(s).", err=True)


def _progress(sources, fmt, no_header):
    """A progress bar on a terminal, None in a pipe. Its length comes from a pass of
    the loaders alone (cheap beside extraction); stdin cannot be read twice."""
    if not sys.stderr.isatty():
        return None
    from loaders import load

    total = 0 if "-" in sources else sum(1 for _ in load(sources, fmt, no_header=no_header))
    return click.progressbar(length=total, label="Building", file=sys.stderr, show_pos=True)


@main.command()
@source_options
@store_options
@click.option("--processes", default=defaults.PROCESSES, show_default=True,
              help="Extraction worker processes, one per core (accurate: one ONNX Runtime thread each).")
@recogniser_option
@handle_errors
def build(sources, fmt, no_header, db_dir, uri, processes, recogniser):
    """Load SOURCES, extract concepts and store the graph.

    Running the same build twice changes no counts.

    \b
    Example:
      kg build examples/neurips2026 --db kg-data
      kg build examples/neurips2026 --db kg-data --model accurate --processes 2
      NEO4J_URI=bolt://localhost:7687 NEO4J_PASSWORD=... kg build papers.jsonl
      kg build abstracts.txt --no-header   # the list has no header line: line 1 is an abstract
    """
    start = time.monotonic()
    bar = _progress(sources, fmt, no_header)
    with kg.open(db_dir, uri) as graph:
        with bar or contextlib.nullcontext():
            report = graph.build(sources, fmt, processes, on_paper=bar and (lambda _: bar.update(1)), model=recogniser,
                                 no_header=no_header)
        report_build(report, "Built", graph.description, time.monotonic() - start)


def _print_stats(counts: dict) -> None:
    click.echo("Nodes:")
    for label, n in counts["nodes"].items():
        click.echo(f"  {label:<14}{n:>8}")
    click.echo("Relationships:")
    for rel, n in counts["relationships"].items():
        click.echo(f"  {rel:<14}{n:>8}")


@main.command()
@store_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--recount", is_flag=True,
              help="Count the graph anew and keep the counts and lists the whole-graph packs read, as every build does "
                   "(after upgrading kg, or when another tool wrote to the graph).")
@handle_errors
def stats(db_dir, uri, fmt, recount):
    """Count nodes by label and relationships by type (the counts the last build kept).

    \b
    Examples:
      kg stats --format json
      kg stats --recount
    """
    with kg.open(db_dir, uri) as graph:
        counts = graph.stats(recount=recount)
    if fmt == "json":
        click.echo(json.dumps(counts, indent=2))
    else:
        _print_stats(counts)


@main.command()
@store_options
@click.option("-o", "--output", default="kg-demo.html", show_default=True, type=click.Path(dir_okay=False), help="HTML view to write.")
@handle_errors
def demo(db_dir, uri, output):
    """Build the bundled NeurIPS 2026 abstracts, print a summary and two packed queries, write a view.

    \b
    Example:
      kg demo --db demo-data -o demo.html
    """
    from kg.graph import CONCEPT_LABELS

    if not EXAMPLES_DIR.is_dir():
        fail(f"the bundled abstracts are missing: {EXAMPLES_DIR}")
    with kg.open(db_dir, uri) as graph:
        start = time.monotonic()
        report = graph.build([str(EXAMPLES_DIR)])
        click.echo(f"Built {report.papers} papers in {time.monotonic() - start:.1f} s into {graph.description}.")
        counts = graph.stats()
        click.echo(f"\nPapers: {counts['nodes'].get('Paper', 0)}")
        click.echo("Concepts by type:")
        for label in CONCEPT_LABELS:
            click.echo(f"  {label:<10}{counts['nodes'].get(label, 0):>6}")
        click.echo("Relationships by type:")
        for rel, n in counts["relationships"].items():
            click.echo(f"  {rel:<14}{n:>6}")
        _print_query(graph, "overview/top-concepts", per_type=3)
        hub = graph.query("overview/most-connected-papers", top=1)
        if hub:
            _print_query(graph, "papers/sharing-concepts", f"paper {hub[0]['id']}: {hub[0]['title']}", paper=hub[0]["id"], top=5)
        click.echo()
        write_view(graph.view("overview", top=150, min_papers=2), output)


def _print_query(graph, name: str, about: str = "", **params) -> None:
    """A pack query's name, description and rows, as kg demo shows them."""
    from queries import get_query

    click.echo(f"\n== {name}: {get_query(name).description}" + (f"\n   {about}" if about else ""))
    print_rows(graph.query(name, **params), "table")
