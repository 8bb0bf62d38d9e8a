"""The ``kg`` command line: a thin skin over the Python API with the same verbs."""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from pathlib import Path

import click

from kg.store.embedded import StoreError

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples" / "neurips2026"


def _fail(message: str, code: int = 1):
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def _errors(func):
    """Turn the project's known errors into a clear message and exit code 1."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from kg.extract import ModelMissing
        from loaders import LoadError
        from queries import QueryError

        try:
            return func(*args, **kwargs)
        except (LoadError, StoreError, ModelMissing, QueryError) as err:
            _fail(str(err))
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


def _report_skips(report) -> None:
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


@main.command()
@source_options
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-", help="Where to write JSON lines (default: stdout).")
@click.option("--processes", default=1, show_default=True, help="spaCy worker processes.")
@_errors
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
    _report_skips(report)
    click.echo(f"Extracted {count} papers from {report.files} file(s).", err=True)


def _progress(total: int | None):
    """A progress bar on a terminal; nothing in a pipe."""
    if not sys.stderr.isatty():
        return None
    return click.progressbar(length=total or 0, label="Building", file=sys.stderr, show_pos=True)


def _count(sources, fmt) -> int | None:
    from loaders import load

    if "-" in sources:
        return None
    return sum(1 for _ in load(sources, fmt))


@main.command()
@source_options
@store_options
@click.option("--processes", default=1, show_default=True, help="spaCy worker processes.")
@_errors
def build(sources, fmt, db_dir, uri, processes):
    """Load SOURCES, extract concepts and store the graph.

    Running the same build twice changes no counts.

    \b
    Example:
      kg build examples/neurips2026 --db kg-data
      NEO4J_URI=bolt://localhost:7687 NEO4J_PASSWORD=... kg build papers.jsonl
    """
    _build(sources, fmt, db_dir, uri, processes)


def _build(sources, fmt, db_dir, uri, processes):
    from kg.build import build as run_build
    from kg.store import open_store

    start = time.monotonic()
    bar = _progress(_count(sources, fmt) if sys.stderr.isatty() else None)
    with open_store(db_dir, uri) as store:
        if bar is not None:
            with bar:
                report = run_build(sources, store, fmt, processes, on_paper=lambda _: bar.update(1))
        else:
            report = run_build(sources, store, fmt, processes)
        click.echo(f"Built {report.papers} papers from {report.load.files} file(s) into {store.description} "
                   f"in {time.monotonic() - start:.1f} s.", err=True)
        _report_skips(report.load)
        return store_stats(store)


def store_stats(store) -> dict:
    from kg.store.schema import stats

    return stats(store)


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
@_errors
def stats(db_dir, uri, fmt):
    """Count nodes by label and relationships by type.

    \b
    Example:
      kg stats --format json
    """
    from kg.store import open_store

    with open_store(db_dir, uri) as store:
        counts = store_stats(store)
    if fmt == "json":
        click.echo(json.dumps(counts, indent=2))
    else:
        _print_stats(counts)


@main.group()
def query():
    """List and run the Cypher query packs.

    \b
    Example:
      kg query list
      kg query run papers/sharing-concepts -p paper=p-8d897ec879cb4a4d
    """


@query.command("list")
@_errors
def query_list():
    """List every pack query with its description and parameters."""
    from queries import list_queries

    for q in list_queries():
        params = " ".join(f"{p.name}:{p.type}" + ("" if p.required else f"={p.default}") for p in q.params)
        click.echo(f"{q.name:<28} {q.description}" + (f"  [{params}]" if params else ""))


def _parse_params(pairs) -> dict[str, str]:
    given = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"{pair!r} is not key=value", param_hint="-p")
        key, value = pair.split("=", 1)
        given[key.strip()] = value
    return given


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


@query.command("run")
@click.argument("name")
@click.option("-p", "--param", "params", multiple=True, help="A parameter as key=value (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@store_options
@_errors
def query_run(name, params, fmt, db_dir, uri):
    """Run the pack query NAME (pack/name) with its parameters.

    \b
    Example:
      kg query run overview/top-concepts -p per_type=3 --format json
    """
    from kg.store import open_store
    from queries import get_query

    q = get_query(name)
    bound = q.bind(_parse_params(params))
    with open_store(db_dir, uri) as store:
        rows = store.run(q.cypher, bound)
    print_rows(rows, fmt)


@main.command()
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="HTML file to write.")
@click.option("--top", default=150, show_default=True, help="Most concepts to show.")
@click.option("--min-papers", default=2, show_default=True, help="Show concepts shared by at least this many papers.")
@store_options
@_errors
def viz(output, top, min_papers, db_dir, uri):
    """Write an interactive HTML view of the graph (one offline file).

    \b
    Example:
      kg viz -o overview.html --top 100
    """
    _viz(output, top, min_papers, db_dir, uri)


def _viz(output, top, min_papers, db_dir, uri, store=None):
    from kg.store import open_store
    from visuals import write_html
    from visuals.views import overview

    if store is None:
        with open_store(db_dir, uri) as opened:
            return _viz(output, top, min_papers, db_dir, uri, opened)
    graph, subtitle = overview(store, top=top, min_papers=min_papers)
    write_html(graph, output, "Papers and the concepts they share", subtitle)
    click.echo(f"Wrote {output} ({graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges).", err=True)


@main.command()
@store_options
@click.option("-o", "--output", default="kg-demo.html", show_default=True, type=click.Path(dir_okay=False), help="HTML view to write.")
@_errors
def demo(db_dir, uri, output):
    """Build the bundled NeurIPS 2026 abstracts, print a summary and two packed queries, write a view.

    \b
    Example:
      kg demo --db demo-data -o demo.html
    """
    from kg.store import open_store
    from queries import get_query

    if not EXAMPLES_DIR.is_dir():
        _fail(f"the bundled abstracts are missing: {EXAMPLES_DIR}")
    sources = [str(EXAMPLES_DIR)]
    with open_store(db_dir, uri) as store:
        from kg.build import build as run_build

        start = time.monotonic()
        report = run_build(sources, store)
        click.echo(f"Built {report.papers} papers in {time.monotonic() - start:.1f} s into {store.description}.")
        counts = store_stats(store)
        click.echo(f"\nPapers: {counts['nodes'].get('Paper', 0)}")
        click.echo("Concepts by type:")
        for label in ("Method", "Task", "Dataset", "Metric", "Domain"):
            click.echo(f"  {label:<10}{counts['nodes'].get(label, 0):>6}")
        click.echo("Relationships by type:")
        for rel, n in counts["relationships"].items():
            click.echo(f"  {rel:<14}{n:>6}")

        top = get_query("overview/top-concepts")
        click.echo(f"\n== {top.name}: {top.description}")
        print_rows(store.run(top.cypher, top.bind({"per_type": "3"})), "table")

        hub = store.run(
            "MATCH (p:Paper)-[]->(c:Concept)<-[]-(o:Paper) WHERE o <> p "
            "RETURN p.id AS id, count(DISTINCT c) AS shared ORDER BY shared DESC, id LIMIT 1")
        sharing = get_query("papers/sharing-concepts")
        if hub:
            title = store.run("MATCH (p:Paper {id: $id}) RETURN p.title AS t", {"id": hub[0]["id"]})[0]["t"]
            click.echo(f"\n== {sharing.name}: {sharing.description}\n   paper {hub[0]['id']}: {title}")
            print_rows(store.run(sharing.cypher, sharing.bind({"paper": hub[0]["id"], "top": "5"})), "table")
        click.echo()
        _viz(output, 150, 2, db_dir, uri, store)


@main.group()
def server():
    """Keep an embedded store running between commands.

    \b
    Example:
      kg server start && kg build examples/neurips2026 && kg stats && kg server stop
    """


@server.command("start")
@click.option("--db", "db_dir", envvar="KG_DB", default="kg-data", show_default=True, type=click.Path(file_okay=False))
@_errors
def server_start(db_dir):
    """Start the embedded store of --db in the background."""
    from kg.store.embedded import running_server, start_server

    info = running_server(Path(db_dir))
    if info:
        click.echo(f"Already running: {info.uri} (pid {info.pid}) for {Path(db_dir).resolve()}")
        return
    info, _ = start_server(Path(db_dir), detach=True)
    click.echo(f"Started: {info.uri} (pid {info.pid}) for {Path(db_dir).resolve()}")


@server.command("stop")
@click.option("--db", "db_dir", envvar="KG_DB", default="kg-data", show_default=True, type=click.Path(file_okay=False))
@_errors
def server_stop(db_dir):
    """Stop the embedded store of --db."""
    from kg.store.embedded import stop_server

    if stop_server(Path(db_dir)):
        click.echo(f"Stopped the server of {Path(db_dir).resolve()}")
    else:
        click.echo(f"No server runs for {Path(db_dir).resolve()}")


@server.command("status")
@click.option("--db", "db_dir", envvar="KG_DB", default="kg-data", show_default=True, type=click.Path(file_okay=False))
def server_status(db_dir):
    """Say whether the embedded store of --db is running (exit 0) or not (exit 3)."""
    from kg.store.embedded import running_server

    info = running_server(Path(db_dir))
    if info:
        click.echo(f"Running: {info.uri} (pid {info.pid}) for {Path(db_dir).resolve()}")
    else:
        click.echo(f"Not running for {Path(db_dir).resolve()}")
        sys.exit(3)
