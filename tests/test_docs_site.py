"""The documentation site: its generated pages cover every command and pack query, every
``kg ...`` line of its shell examples (and README's) names a real command with real options,
and ``mkdocs build --strict`` builds it offline (when mkdocs is installed: the ``test`` extra).

Shell lines are parsed by click against ``kg.cli.main`` (``make_context``), which runs nothing:
an unknown command, option or choice, a value of the wrong type or a missing argument fails;
a path that must exist is not required to (the examples name the user's files).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

from kg.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_BLOCK = re.compile(r"^ *```(?:sh|bash|shell|console|text)\n(.*?)^ *```", re.S | re.M)
KG = re.compile(r"^(?:\S*/)?kg$")  # kg, .venv/bin/kg
OPERATORS = {";", "&&", "||", "|", "&"}


def load_hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shell_lines(text: str) -> list[str]:
    """The lines of the shell blocks of a page (continuations joined; in a text block only the
    ``$ `` lines, which show a command and then its output)."""
    lines = []
    for match in SHELL_BLOCK.finditer(text):
        block = match[1].replace("\\\n", " ")
        prompted = match[0].lstrip().startswith("```text")
        for line in block.splitlines():
            line = line.strip()
            if prompted:
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            lines.append(line)
    return lines


def kg_commands(line: str) -> list[list[str]]:
    """The argument lists of the ``kg`` commands on one shell line (after ``VAR=value``
    assignments, between ``;``, ``&&``, ``|`` and ``&``; comments dropped)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split, lexer.commenters = True, "#"
    words, commands, current = list(lexer), [], []
    for word in [*words, ";"]:
        if word in OPERATORS:
            while current and re.match(r"^[A-Z_][A-Z0-9_]*=", current[0]):
                current.pop(0)
            if current and KG.match(current[0]):
                commands.append(current[1:])
            current = []
        else:
            current.append(word)
    return commands


def examples() -> list[tuple[str, str]]:
    """``(page, command line)`` for every ``kg`` command of the shell examples."""
    found = []
    for page in PAGES:
        for line in shell_lines(page.read_text(encoding="utf-8")):
            for args in kg_commands(line):
                found.append((str(page.relative_to(ROOT)), shlex.join(["kg", *args])))
    return found


def parse(args: list[str]) -> str:
    """The path of the command ``args`` names, parsed by click as ``kg`` would; raises
    ``click.UsageError`` for a command, option or value ``kg`` would refuse."""
    context = main.make_context("kg", list(args))
    command = main
    while isinstance(command, click.Group):
        protected = context._protected_args if hasattr(context, "_protected_args") else context.protected_args  # click < 8.2
        rest = [*protected, *context.args]
        if not rest:
            return context.command_path
        name, command, rest = command.resolve_command(context, rest)
        try:
            context = command.make_context(name, rest, parent=context)
        except click.BadParameter as error:
            if "does not exist" not in error.format_message():
                raise
            return f"{context.command_path} {name}"
    return context.command_path


EXAMPLES = examples()


def test_the_shell_examples_are_found():
    pages = {page for page, _ in EXAMPLES}
    assert len(EXAMPLES) >= 60 and len(pages) >= 10, pages
    assert "kg query run concepts/profile -p concept=LoRA -p top=3" in {line for _, line in EXAMPLES}  # a $ line


@pytest.mark.parametrize("page, line", EXAMPLES, ids=[f"{page}: {line}" for page, line in EXAMPLES])
def test_every_kg_line_of_the_docs_names_a_real_command_and_real_options(page, line):
    try:
        path = parse(shlex.split(line)[1:])
    except click.UsageError as error:
        pytest.fail(f"{page}: {line}: {error.format_message()}")
    assert path.startswith("kg")


def test_the_checker_refuses_what_kg_refuses():
    assert kg_commands("NEO4J_URI=bolt://x kg stats --format json  # counts") == [["stats", "--format", "json"]]
    assert kg_commands("set -a; . ./.env; set +a") == []
    assert parse(["query", "run", "overview/top-concepts", "-p", "per_type=3"]) == "kg query run"
    assert parse(["eval", "scierc", "no/such/dev.json"]) == "kg eval scierc"  # the user's file
    for wrong in (["bogus"], ["stats", "--bogus"], ["similar", "p-1", "--top", "many"], ["stats", "extra"],
                  ["viz", "--view", "nothing"], ["citations", "path", "only-one"]):
        with pytest.raises(click.UsageError):
            parse(wrong)


def walk(command, path=("kg",)):
    yield " ".join(path)
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            if not sub.hidden:
                yield from walk(sub, (*path, name))


def test_the_cli_reference_shows_every_command_with_its_help():
    reference = load_hooks().cli_reference()
    for path in walk(main):
        assert f"`{path}`" in reference, path
    assert reference.count("Example:") >= len(list(walk(main))) - 6  # groups have none of their own
    assert "Usage: kg query run [OPTIONS] [NAME]" in reference


def test_the_cli_page_lists_every_environment_variable_kg_reads():
    """A variable named in the shipped code (``"KG_..."``, ``"NEO4J_..."``, ``"XDG_..."``) is a row of the
    Environment table of docs/cli.md, and every row names one the code reads."""
    named = re.compile(r"[\"']((?:KG|NEO4J|XDG)_[A-Z_]+)[\"']")
    read = {name for package in ("kg", "loaders", "visuals", "queries") for path in (ROOT / package).rglob("*.py")
            for name in named.findall(path.read_text(encoding="utf-8"))}
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    table = page.split("## Environment", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`((?:KG|NEO4J|XDG)_[A-Z_]+)`", table))
    assert read and read == listed, (sorted(read - listed), sorted(listed - read))


def test_the_packs_page_shows_every_query_with_its_parameters_and_example():
    from queries import list_queries

    packs = load_hooks().query_packs()
    for query in list_queries():
        assert f"#### `{query.name}`" in packs and query.description in packs, query.name
        for param in query.params:
            assert f"| `{param.name}` | {param.type} |" in packs, (query.name, param.name)
        assert query.example in packs


def test_the_site_builds_offline_with_warnings_as_errors(tmp_path):
    for package in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        pytest.importorskip(package)
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                             "-d", str(site)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    pages = {path.parent.name: path.read_text(encoding="utf-8") for path in site.glob("*/index.html")}
    assert {"getting-started", "cli", "python-api", "queries", "benchmarks", "changelog"} <= set(pages)
    assert "kg query run" in pages["cli"] and "overview/top-concepts" in pages["queries"]
    assert "KnowledgeGraph" in pages["python-api"] and "export_records" in pages["python-api"]
    for html in [*pages.values(), (site / "index.html").read_text(encoding="utf-8")]:
        assert "fonts.googleapis" not in html and "fonts.gstatic" not in html
        assert not re.search(r"<(?:script|link)[^>]+(?:src|href)=\"https?://", html)  # nothing fetched from the network
