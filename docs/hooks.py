"""MkDocs hooks: the pages that are generated from the code when the site is built.

- ``cli.md``: each command's ``--help``, walked from ``kg.cli.main`` (never a hand copy);
- ``queries.md``: each pack query's header (name, description, parameters, example), read by
  the ``queries`` package's own reader (``queries.list_queries()``).

A page asks for a part with a marker line, ``<!-- kg:cli-reference -->`` or
``<!-- kg:query-packs -->``; a marker the page does not hold adds nothing. The functions are
plain so that the tests can call them too.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI_MARKER = "<!-- kg:cli-reference -->"
PACKS_MARKER = "<!-- kg:query-packs -->"
HELP_WIDTH = 88  # the help text is wrapped at this width whatever the terminal that builds the site


def _importable() -> None:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def commands(command, path: tuple[str, ...] = ("kg",), parent=None):
    """``(path, command, context)`` for ``command`` and every subcommand below it, depth first,
    in the order ``kg --help`` lists them; hidden commands are left out."""
    import click

    context = click.Context(command, info_name=path[-1], parent=parent,
                            max_content_width=HELP_WIDTH, terminal_width=HELP_WIDTH)
    yield path, command, context
    if isinstance(command, click.Group):
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            if sub is not None and not sub.hidden:
                yield from commands(sub, (*path, name), context)


def cli_reference() -> str:
    """Markdown for every ``kg`` command: a heading with its path and its ``--help`` as printed."""
    _importable()
    from kg.cli import main

    parts = []
    for path, command, context in commands(main):
        level = "#" * min(len(path) + 1, 4)
        summary = command.get_short_help_str(limit=HELP_WIDTH)
        help_text = command.get_help(context).rstrip()
        parts.append(f"{level} `{' '.join(path)}`\n\n{summary}\n\n```text\n{help_text}\n```\n")
    return "\n".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def query_packs() -> str:
    """Markdown for every pack query, grouped by pack: description, parameters, example."""
    _importable()
    from queries import format_value, list_queries

    parts, pack = [], None
    for query in list_queries():
        this_pack = query.name.split("/", 1)[0]
        if this_pack != pack:
            pack = this_pack
            parts.append(f"### {pack}\n")
        lines = [f"#### `{query.name}`\n", query.description + "\n"]
        if query.params:
            lines.append("| parameter | type | default | meaning |\n|---|---|---|---|")
            for param in query.params:
                default = "required" if param.required else f"`{format_value(param.default)}`"
                lines.append(f"| `{param.name}` | {param.type} | {_cell(default)} | {_cell(param.description)} |")
            lines.append("")
        else:
            lines.append("No parameters.\n")
        if query.example:
            lines.append(f"```sh\n{query.example}\n```\n")
        parts.append("\n".join(lines))
    return "\n".join(parts)


GENERATED = {CLI_MARKER: cli_reference, PACKS_MARKER: query_packs}


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace each marker of the page by what it asks for."""
    for marker, make in GENERATED.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown
