"""``kg server``: keep an embedded store running between commands."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli.app import handle_errors, main


@main.group()
def server():
    """Keep an embedded store running between commands.

    \b
    Example:
      kg server start && kg build examples/neurips2026 && kg stats && kg server stop
    """


@server.command("start")
@click.option("--db", "db_dir", envvar="KG_DB", default="kg-data", show_default=True, type=click.Path(file_okay=False))
@handle_errors
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
@handle_errors
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
