"""``kg extract``, ``kg build``, ``kg stats`` and ``kg demo``."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from pathlib import Path

import click

from kg import defaults
from kg.cli.app import (
    fail,
    handle_errors,
    main,
    print_rows,
    report_build,
    report_skips,
    source_options,
    store_options,
)

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples" / "neurips2026"


@main.command()
@source_options
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-", help="Where to write JSON lines (default: stdout).")
@click.option("--processes", default=defaults.PROCESSES, show_default=True, help="spaCy worker processes.")
@handle_errors
def extract(sources, fmt, output, processes):
    """Extract concepts, citations and URLs; write one JSON object per paper.

    SOURCES are files, folders, glob patterns, .gz files or - for stdin.

    \b
    Example:
      kg extract examples/neurips2026 -o concepts.jsonl
    """
    from kg.build import extract_sources
    from loaders import LoadReport

    report = LoadReport()
    count = 0
    for record in extract_sources(sources, fmt, report, processes):
        output.write(json.dumps(record, ensure_ascii=False) + "\n")
        count += 1
    report_skips(report)
    click.echo(f"Extracted {count} papers from {report.files} file(s).", err=True)


def _progress(sources, fmt):
    """A progress bar on a terminal, None in a pipe. Its length comes from a pass of
    the loaders alone (cheap beside extraction); stdin cannot be read twice."""
    if not sys.stderr.isatty():
        return None
    from loaders import load

    total = 0 if "-" in sources else sum(1 for _ in load(sources, fmt))
    return click.progressbar(length=total, label="Building", file=sys.stderr, show_pos=True)


@main.command()
@source_options
@store_options
@click.option("--processes", default=defaults.PROCESSES, show_default=True, help="spaCy worker processes.")
@handle_errors
def build(sources, fmt, db_dir, uri, processes):
    """Load SOURCES, extract concepts and store the graph.

    Running the same build twice changes no counts.

    \b
    Example:
      kg build examples/neurips2026 --db kg-data
      NEO4J_URI=bolt://localhost:7687 NEO4J_PASSWORD=... kg build papers.jsonl
    """
    from kg.build import build as run_build
    from kg.store import open_store

    start = time.monotonic()
    bar = _progress(sources, fmt)
    with open_store(db_dir, uri, create=True) as store, store.build_lock():
        with bar or contextlib.nullcontext():
            report = run_build(sources, store, fmt, processes, on_paper=bar and (lambda _: bar.update(1)))
        report_build(report, "Built", store.description, time.monotonic() - start)


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
@handle_errors
def stats(db_dir, uri, fmt):
    """Count nodes by label and relationships by type.

    \b
    Example:
      kg stats --format json
    """
    from kg.store import open_store
    from kg.store.schema import stats as graph_counts

    with open_store(db_dir, uri) as store:
        counts = graph_counts(store)
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
    from kg.build import build as run_build
    from kg.cli.viz import write_overview
    from kg.graph import CONCEPT_LABELS
    from kg.store import open_store
    from kg.store.schema import stats as graph_counts
    from queries import get_query

    if not EXAMPLES_DIR.is_dir():
        fail(f"the bundled abstracts are missing: {EXAMPLES_DIR}")
    sources = [str(EXAMPLES_DIR)]
    with open_store(db_dir, uri, create=True) as store, store.build_lock():
        start = time.monotonic()
        report = run_build(sources, store)
        click.echo(f"Built {report.papers} papers in {time.monotonic() - start:.1f} s into {store.description}.")
        counts = graph_counts(store)
        click.echo(f"\nPapers: {counts['nodes'].get('Paper', 0)}")
        click.echo("Concepts by type:")
        for label in CONCEPT_LABELS:
            click.echo(f"  {label:<10}{counts['nodes'].get(label, 0):>6}")
        click.echo("Relationships by type:")
        for rel, n in counts["relationships"].items():
            click.echo(f"  {rel:<14}{n:>6}")

        top = get_query("overview/top-concepts")
        click.echo(f"\n== {top.name}: {top.description}")
        print_rows(store.run(top.cypher, top.bind({"per_type": "3"})), "table")

        hub = store.run(
            "MATCH (p:Paper)-[]->(c:Concept)<-[]-(o:Paper) WHERE o <> p "
            "RETURN p.id AS id, p.title AS title, count(DISTINCT c) AS shared ORDER BY shared DESC, id LIMIT 1")
        sharing = get_query("papers/sharing-concepts")
        if hub:
            click.echo(f"\n== {sharing.name}: {sharing.description}\n   paper {hub[0]['id']}: {hub[0]['title']}")
            print_rows(store.run(sharing.cypher, sharing.bind({"paper": hub[0]["id"], "top": "5"})), "table")
        click.echo()
        write_overview(store, output, top=150, min_papers=2)
