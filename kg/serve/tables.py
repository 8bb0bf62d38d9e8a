"""Query results as an HTML table whose cells link to the pages of the papers and concepts
they name, and as CSV or JSON files to download.

A cell is escaped text; a value that is a paper id, a concept id or a concept's name
(looked up once per table, by the store's indexes) becomes a link to its page.

>>> from markupsafe import Markup
>>> cell("<b>x</b>", {}) == Markup("&lt;b&gt;x&lt;/b&gt;")
True
>>> str(cell({"id": "p1", "title": "A <i>title</i>", "year": 2024}, {"p1": ("paper", "p1")}))
'<a href="/paper?id=p1">A &lt;i&gt;title&lt;/i&gt;</a> (2024)'
"""

from __future__ import annotations

import csv
import io
import json

from markupsafe import Markup, escape

from kg.serve.render import link_of
from kg.store.reads import browse

SHOWN_ROWS = 500        # rows drawn on the page; the downloads hold them all
LOOKED_UP = 2_000       # distinct values looked up for links per table
LINKABLE_LENGTH = 300   # longer text is no id nor name
LABEL_KEYS = ("title", "name", "concept", "id")


def linkable_values(rows: list[dict]) -> list[str]:
    """The distinct short strings of the rows (in lists and maps too) that may name a node."""
    seen: dict[str, None] = {}

    def walk(value) -> None:
        if len(seen) >= LOOKED_UP:
            return
        if isinstance(value, str) and 0 < len(value) <= LINKABLE_LENGTH:
            seen.setdefault(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    for row in rows:
        walk(list(row.values()))
    return list(seen)


def links(store, rows: list[dict]) -> dict[str, tuple[str, str]]:
    """``{value: (kind, id)}`` for the values of ``rows`` that are a paper or a concept."""
    values = linkable_values(rows)
    return browse.kinds(store, values) if values else {}


def anchor(kind_id: tuple[str, str], label: str) -> Markup:
    return Markup('<a href="{}">{}</a>').format(link_of(*kind_id), label)


def cell(value, found: dict[str, tuple[str, str]]) -> Markup:
    """One value as safe HTML: linked when ``found`` names it, lists comma-separated (maps one
    a line), a map as its label (linked by its ``id``) with its other fields in brackets."""
    if value is None:
        return Markup("")
    if isinstance(value, str):
        return anchor(found[value], value) if value in found else escape(value)
    if isinstance(value, (bool, int, float)):
        return escape(str(value).lower() if isinstance(value, bool) else str(round(value, 4)))  # a year stays 2024
    if isinstance(value, list):  # maps one a line (as kg query's table prints them), other values comma-separated
        joiner = Markup("<br>") if any(isinstance(item, dict) for item in value) else Markup(", ")
        return joiner.join(cell(item, found) for item in value)
    if isinstance(value, dict):
        return _map_cell(value, found)
    return escape(str(value))


def _map_cell(value: dict, found: dict) -> Markup:
    key = next((k for k in LABEL_KEYS if value.get(k) is not None), None)
    if key is None:
        return Markup("; ").join(Markup("{}: ").format(k) + cell(v, found) for k, v in value.items())
    label = str(value[key])
    ident = value.get("id") if isinstance(value.get("id"), str) else label
    head = anchor(found[ident], label) if ident in found else escape(label)
    rest = [cell(v, found) for k, v in value.items() if k not in (key, "id") and v not in (None, "", [])]
    return head + (Markup(" (") + Markup(", ").join(rest) + Markup(")") if rest else Markup(""))


def table(store, rows: list[dict]) -> dict:
    """``{columns, rows, total, shown}``: the first ``SHOWN_ROWS`` rows as cells of safe HTML."""
    shown = rows[:SHOWN_ROWS]
    found = links(store, shown)
    columns = list(rows[0]) if rows else []
    return {"columns": columns, "rows": [[cell(row.get(c), found) for c in columns] for row in shown],
            "total": len(rows), "shown": len(shown), "capped": False}


def as_csv(rows: list[dict]) -> str:
    """The rows as ``kg query --format csv`` writes them: lists and maps as JSON in their cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    columns = list(rows[0]) if rows else []
    writer.writerow(columns)
    for row in rows:
        writer.writerow([json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v
                         for v in (row.get(c) for c in columns)])
    return buffer.getvalue()


def as_json(rows: list[dict]) -> str:
    """The rows as ``kg query --format json`` writes them."""
    return json.dumps(rows, indent=2, ensure_ascii=False, default=str)
