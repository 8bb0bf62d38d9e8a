"""``kg query``: list, show and run the Cypher packs, a user's own file, or ad hoc Cypher."""

from __future__ import annotations

import json
import sys

import click

import kg
from kg.cli.app import ROW_FORMATS, handle_errors, main, print_rows, store_options


@main.group()
def query():
    """List, show and run Cypher queries: the packs, your own files, or ad hoc Cypher.

    \b
    Example:
      kg query list
      kg query show concepts/profile
      kg query run papers/sharing-concepts -p paper=p-198679ab53b48580
      kg query run -f my-query.cypher -p year=2024
      kg query cypher "MATCH (p:Paper) RETURN count(p) AS papers"
    """


@query.command("list")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@handle_errors
def query_list(fmt):
    """List every pack query with its description and parameters.

    \b
    Example:
      kg query list
      kg query list --format json
    """
    from queries import list_queries

    queries = list_queries()
    if fmt == "json":
        click.echo(json.dumps([{"name": q.name, "description": q.description, "example": q.example,
                                "params": [{"name": p.name, "type": p.type, "required": p.required, "default": p.default,
                                            "description": p.description} for p in q.params]}
                               for q in queries], indent=2, ensure_ascii=False))
        return
    for q in queries:
        params = " ".join(p.spec() for p in q.params)
        click.echo(f"{q.name:<32} {q.description}" + (f"  [{params}]" if params else ""))


@query.command("show")
@click.argument("name")
@click.option("-p", "--param", "params", multiple=True, help="A value for the :param lines, as key=value (repeatable).")
@click.option("--browser", is_flag=True, help="Print only what to paste into Neo4j Browser: :param lines, then the query.")
@handle_errors
def query_show(name, params, browser):
    """Show the pack query NAME (pack/name): parameters, example and Cypher.

    The last block (:param lines, then the query) can be pasted into Neo4j
    Browser as it is; values come from -p, else the example call, else the
    defaults.

    \b
    Example:
      kg query show papers/similar
      kg query show concepts/profile -p concept=LoRA --browser
    """
    from queries import format_value, get_query

    q = get_query(name)
    script = q.browser_script(_parse_params(params))
    if browser:
        click.echo(script)
        return
    click.echo(f"{q.name}: {q.description}")
    click.echo(f"File: {q.path}")
    if q.params:
        click.echo("Parameters:")
        for p in q.params:
            default = "required" if p.required else f"default {format_value(p.default)}"
            click.echo(f"  {p.name:<12} {p.type:<6} {default:<16} {p.description}".rstrip())
    if q.example:
        click.echo(f"Example:\n  {q.example}")
    click.echo("\nNeo4j Browser (paste as it is):\n")
    click.echo(script)


def _parse_params(pairs) -> dict[str, str]:
    given = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"{pair!r} is not key=value", param_hint="-p")
        key, value = pair.split("=", 1)
        given[key.strip()] = value
    return given


def _ad_hoc_value(text: str):
    """An ad hoc parameter: JSON when it parses (5, true, [1, 2], "x"), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _cell(value):
    """A nested value as short text for a table cell: a map becomes 'first (rest, ...)'."""
    if isinstance(value, dict):
        values = ["" if v is None else str(v) for v in value.values()]
        return values[0] + (f" ({', '.join(v for v in values[1:] if v)})" if len(values) > 1 else "") if values else ""
    return value


def print_result(rows: list[dict], fmt: str) -> None:
    """Rows as ``print_rows`` prints them; rows holding lists of maps one field per line in a table."""
    nested = any(isinstance(v, list) and any(isinstance(x, dict) for x in v) for row in rows for v in row.values())
    if fmt != "table" or not nested:
        print_rows(rows, fmt)
        return
    width = max(len(key) for key in rows[0])
    for number, row in enumerate(rows, 1):
        click.echo(f"-[ {number} ]" + "-" * 40)
        for key, value in row.items():
            items = [_cell(v) for v in value] if isinstance(value, list) else [value]
            lines = [("" if item is None else str(item)) for item in items] or [""]
            click.echo(f"{key:<{width}}  {lines[0]}".rstrip())
            for line in lines[1:]:
                click.echo(f"{'':<{width}}  {line}")


def _run(query, parameters: dict, write: bool, fmt: str, db_dir, uri) -> None:
    """Open, run ``query`` (a ``queries.Query`` or Cypher; read-only unless ``write``, which the
    library enforces), print."""
    with kg.open(db_dir, uri) as graph:
        rows = graph.query(query, parameters, write=write)
    print_result(rows, fmt)


@query.command("run")
@click.argument("name", required=False)
@click.option("-f", "--file", "path", type=click.Path(dir_okay=False), help="Run your own .cypher file (same header format as the packs).")
@click.option("-p", "--param", "params", multiple=True, help="A parameter as key=value (repeatable).")
@click.option("--format", "fmt", type=ROW_FORMATS, default="table", show_default=True)
@click.option("--write", is_flag=True, help="Allow a file that writes to the graph.")
@store_options
@handle_errors
def query_run(name, path, params, fmt, write, db_dir, uri):
    """Run the pack query NAME (pack/name), or your own file with -f, with checked parameters.

    Parameters are checked against the query's header (types, required) and
    reach Cypher only as parameters. Lists are written a,b,c or as JSON.

    \b
    Example:
      kg query run overview/top-concepts -p per_type=3 --format json
      kg query run papers/similar -p paper=p-198679ab53b48580 -p types=Method,Task
      kg query run -f my-query.cypher -p year=2024 --format csv
    """
    from queries import get_query, load_file

    if bool(name) == bool(path):
        raise click.UsageError("give a pack query NAME or -f FILE (one of them)")
    _run(load_file(path) if path else get_query(name), _parse_params(params), write, fmt, db_dir, uri)


@query.command("cypher")
@click.argument("text")
@click.option("-p", "--param", "params", multiple=True, help="A parameter as key=value; the value is read as JSON when it parses, else as text.")
@click.option("--format", "fmt", type=ROW_FORMATS, default="table", show_default=True)
@click.option("--write", is_flag=True, help="Allow a query that writes (CREATE, MERGE, SET, DELETE ...).")
@store_options
@handle_errors
def query_cypher(text, params, fmt, write, db_dir, uri):
    """Run the ad hoc Cypher TEXT (- reads it from stdin); read-only unless --write.

    \b
    Example:
      kg query cypher "MATCH (c:Method) RETURN c.name AS name LIMIT 5"
      kg query cypher "MATCH (p:Paper {id: \\$id}) RETURN p.title AS title" -p id=p-198679ab53b48580
      kg query cypher "MATCH (r:Reference) DETACH DELETE r" --write
    """
    if text == "-":
        text = sys.stdin.read()
    if not text.strip():
        raise click.UsageError("the query is empty")
    _run(text, {k: _ad_hoc_value(v) for k, v in _parse_params(params).items()}, write, fmt, db_dir, uri)
