"""``kg server``: the embedded store's warm server, by hand."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from kg import defaults
from kg.cli.app import fail, handle_errors, main

DB_OPTION = click.option("--db", "db_dir", envvar="KG_DB", default=defaults.DB, show_default=True,
                         type=click.Path(file_okay=False), help="Folder of the embedded store (env KG_DB).")


@main.group()
def server():
    """The embedded store's server, which commands start and share by themselves.

    The first command on a --db starts its server in the background; later
    commands reuse it, and it stops by itself after KG_SERVER_IDLE seconds
    (default 300) without a command; KG_SERVER_IDLE=0 stops it when each
    command ends.

    \b
    Example:
      kg server status                  # every running server, with its folder
      kg server start --idle 3600 && kg build examples/neurips2026 && kg stats
      kg server stop
    """


@server.command("start")
@DB_OPTION
@click.option("--idle", type=click.FloatRange(min=0), help="Seconds without a command before it stops "
              "(default: KG_SERVER_IDLE, else 300).")
@click.option("--http", is_flag=True, help="Keep ArcadeDB's HTTP API open too (127.0.0.1, asks for the root login).")
@handle_errors
def server_start(db_dir, idle, http):
    """Start the server of --db now (commands also start it when they need it).

    \b
    Example:
      kg server start --db kg-data --idle 3600
    """
    from kg.store.embedded import running_server, start_server

    data_dir = Path(db_dir).resolve()
    info = running_server(data_dir)
    if info:
        click.echo(f"Already running: {info.uri} (pid {info.pid}) for {data_dir}")
        return
    info = start_server(data_dir, idle, http=http)
    click.echo(f"Started: {info.uri} (pid {info.pid}) for {data_dir}, stops after {info.idle:g} s without a command")


@server.command("stop")
@DB_OPTION
@click.option("--wait", default=60.0, show_default=True, help="Seconds to wait for the commands using it to end.")
@handle_errors
def server_stop(db_dir, wait):
    """Stop the server of --db once the commands using it have ended (it never stops under one).

    \b
    Example:
      kg server stop --db kg-data
    """
    from kg.store.embedded import stop_server

    data_dir = Path(db_dir).resolve()
    stopped = stop_server(data_dir, timeout=wait)
    if stopped is None:
        fail(f"the server of {data_dir} is still used by a command after {wait:g} s; it stops when that ends", code=4)
    click.echo(f"Stopped the server of {data_dir}" if stopped else f"No server runs for {data_dir}")


def _describe(info) -> str:
    now = time.time()
    up = f"up {now - info.started:.0f} s" if info.started else ""
    users = info.data_dir / "server.users"
    used = f"last used {now - users.stat().st_mtime:.0f} s ago" if users.exists() else ""
    idle = f"stops after {info.idle:g} s idle" if info.idle is not None else ""
    return "  ".join(x for x in (str(info.data_dir), f"pid {info.pid}", info.uri, up, used, idle) if x)


@server.command("status")
@click.option("--db", "db_dir", envvar="KG_DB", type=click.Path(file_okay=False),
              help="Only the server of this folder (env KG_DB): exit code 0 when it runs, 3 when not.")
def server_status(db_dir):
    """List the running servers (exit code 0), or say that none runs (exit code 3).

    \b
    Example:
      kg server status
      kg server status --db kg-data
    """
    from kg.store.embedded import running_server, running_servers

    if db_dir:
        data_dir = Path(db_dir).resolve()
        info = running_server(data_dir)
        found = [info] if info else []
        if not found:
            click.echo(f"Not running for {data_dir}")
    else:
        found = running_servers()
        if not found:
            click.echo("No embedded server runs.")
    for info in found:
        click.echo(_describe(info))
    sys.exit(0 if found else 3)
