"""The assets the pages load, all served by kg (no CDN): vis-network and the views' script
(the same files ``kg viz`` inlines), the app's stylesheet and its one script."""

from __future__ import annotations

import functools
from pathlib import Path

import pyvis

import visuals
from kg.serve.app import Request, Response
from visuals.render import TYPE_STYLE

HERE = Path(__file__).parent / "static"
VIS = Path(pyvis.__file__).parent / "lib" / "vis-9.1.2"
VIEWS = Path(visuals.__file__).parent / "templates"
FILES = {
    "vis-network.min.js": (VIS / "vis-network.min.js", "text/javascript"),
    "vis-network.css": (VIS / "vis-network.css", "text/css"),
    "view.js": (VIEWS / "view.js", "text/javascript"),
    "serve.css": (HERE / "serve.css", "text/css"),
    "graph-links.js": (HERE / "graph-links.js", "text/javascript"),
    "serve.js": (HERE / "serve.js", "text/javascript"),
    "favicon.svg": (HERE / "favicon.svg", "image/svg+xml"),
}


def type_css() -> str:
    """One class per node type, in the colour the views give it (``t-Method`` ...)."""
    return "".join(f".t-{name} {{ --type: {colour}; }}\n" for name, (colour, _, _) in TYPE_STYLE.items())


@functools.cache
def _read(name: str) -> bytes:
    if name == "types.css":
        return type_css().encode("utf-8")
    return FILES[name][0].read_bytes()


def asset(name: str) -> Response | None:
    """The asset ``name``, or None when there is no such file."""
    if name != "types.css" and name not in FILES:
        return None
    kind = "text/css" if name == "types.css" else FILES[name][1]
    return Response(_read(name), content_type=kind if kind.startswith("image/") else f"{kind}; charset=utf-8", headers={"Cache-Control": "max-age=3600"})


def route(request: Request) -> Response | None:
    """``/static/<name>``, and ``/favicon.ico`` (which browsers ask for by themselves)."""
    return asset("favicon.svg" if request.path == "/favicon.ico" else request.path.removeprefix("/static/"))
