"""``kg query``: list and run the Cypher packs."""

from __future__ import annotations

import click

from kg.cli.app import handle_errors, main, print_rows, store_options


@main.group()
def query():
    """List and run the Cypher query packs.

    \b
    Example:
      kg query list
      kg query run papers/sharing-concepts -p paper=p-8d897ec879cb4a4d
    """


@query.command("list")
@handle_errors
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


@query.command("run")
@click.argument("name")
@click.option("-p", "--param", "params", multiple=True, help="A parameter as key=value (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@store_options
@handle_errors
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
