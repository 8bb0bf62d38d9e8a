"""Pages from the templates in ``kg/serve/templates``: every value is escaped by Jinja's
autoescape (titles, abstracts and names are data, never markup), and links are built by
``url()``, which percent-encodes every parameter.

>>> from kg.serve.render import url
>>> url("/paper", id="p <1>&")
'/paper?id=p+%3C1%3E%26'
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from kg.serve.app import Response
from visuals.render import TYPE_STYLE

TEMPLATES = Path(__file__).parent / "templates"


def url(path: str, **params) -> str:
    """``path`` with ``params`` as its query (None values left out)."""
    given = {k: v for k, v in params.items() if v is not None}
    return path + ("?" + urllib.parse.urlencode(given) if given else "")


def link_of(kind: str, key: str) -> str:
    """The page of a paper, a concept or a cited work."""
    return url({"paper": "/paper", "concept": "/concept", "work": "/work"}[kind], id=key)


def number(value, digits: int = 2) -> str:
    """A count with thousands separators, a share with ``digits`` decimals, '' for None."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True, default_for_string=True),
                  undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
ENV.globals.update(url=url, link_of=link_of, type_style=TYPE_STYLE)
ENV.filters["number"] = number


def page(template: str, status: int = 200, **context) -> Response:
    """The HTML of ``template`` with ``context`` (the page's ``title`` and the search box's ``q`` default)."""
    context.setdefault("q", "")
    return Response(ENV.get_template(template).render(**context), status)
