"""Read the lexicon's word lists: plain-text files in this folder, one entry a line.

A ``.txt`` file holds one entry a line (a word, a phrase, an ending); a ``.tsv`` file an entry and
what it maps to, separated by tabs. A line that starts with ``#`` is a comment (each file opens with
what its list means and which rule reads it), a blank line is skipped, and nothing else is trimmed:
an entry is its line exactly. Each file is read once per process.

>>> "acid" in words("entity_heads"), table("head_types")["parser"], groups("known_names")["Dataset"][:2]
(True, 'Method', ('ImageNet', 'CIFAR-10'))
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent


@cache
def entries(file_name: str) -> tuple[str, ...]:
    """The entries of the data file ``file_name`` in their order: its lines that are neither blank nor a comment."""
    text = (FOLDER / file_name).read_text(encoding="utf-8")
    return tuple(line for line in text.split("\n") if line and not line.startswith("#"))


@cache
def words(name: str) -> frozenset[str]:
    """The entries of ``name.txt`` as a set (a lookup: order and repeats do not matter)."""
    return frozenset(entries(f"{name}.txt"))


def ordered(name: str) -> tuple[str, ...]:
    """The entries of ``name.txt`` in their order (endings for ``str.endswith``, a pattern's alternatives)."""
    return entries(f"{name}.txt")


def alternatives(name: str) -> str:
    """The entries of ``name.txt`` as a regular expression's alternatives, each matched as written.

    >>> alternatives("person_time_periods")
    'years|months|days'
    """
    return "|".join(re.escape(entry) for entry in entries(f"{name}.txt"))


@cache
def rows(name: str, columns: int = 2) -> tuple[tuple[str, ...], ...]:
    """The entries of ``name.tsv`` split at tabs, each into ``columns`` fields."""
    split = tuple(tuple(entry.split("\t")) for entry in entries(f"{name}.tsv"))
    for row in split:
        if len(row) != columns:
            raise ValueError(f"{FOLDER / name}.tsv: {columns} fields separated by tabs expected, not {row!r}")
    return split


def table(name: str) -> dict[str, str]:
    """``name.tsv`` as a dict of its first column to its second, in the file's order."""
    return dict(rows(name))


def groups(name: str) -> dict[str, tuple[str, ...]]:
    """``name.tsv`` as a dict of its second column to the entries of the first that name it, both in
    the file's order ("ImageNet<TAB>Dataset" puts ImageNet among the Datasets)."""
    grouped: dict[str, list[str]] = {}
    for entry, group in rows(name):
        grouped.setdefault(group, []).append(entry)
    return {group: tuple(members) for group, members in grouped.items()}
