"""``kg serve``: a local, read-only web app over the graph (search, paper and concept pages,
the query packs as forms, a Cypher console, the ``kg viz`` views), served by the standard
library's threading HTTP server on 127.0.0.1. Every asset comes from kg; no request leaves
the machine; only GET and HEAD are answered and every query runs read-only.

>>> import kg                                                        # doctest: +SKIP
>>> server = kg.open(db="kg-data").serve(port=0, block=False)          # doctest: +SKIP
>>> server.url                                                       # doctest: +SKIP
'http://127.0.0.1:40123/'
>>> server.close()                                                   # doctest: +SKIP
"""

from __future__ import annotations

import threading
from typing import Callable

from kg.errors import BadInput, NotFound, StoreError
from kg.serve import pages, static, tools
from kg.serve.app import Request, Response, Server, is_loopback
from kg.serve.render import page
from kg.serve.search import Catalogue

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765

PAGES = {"/": pages.home, "/paper": pages.paper, "/similar": pages.similar, "/concept": pages.concept,
         "/work": pages.work, "/queries": tools.queries_list, "/query": tools.query_form, "/cypher": tools.cypher,
         "/views": tools.views, "/view": tools.view_file, "/graph": tools.neighbourhood}
# what an error of a page is, for its status
STATUS = ((NotFound, 404), (BadInput, 400), (StoreError, 503))


def not_found(request: Request) -> Response:
    found = static.route(request) if request.path.startswith("/static/") or request.path == "/favicon.ico" else None
    return found or page("error.html.j2", 404, title="Not found", message=f"kg serve has no page {request.path}")


def failed(request: Request, err: Exception) -> Response:
    """A page for an error: its message (kg's own errors say what to do), with its status."""
    status = next((code for kind, code in STATUS if isinstance(err, kind)), 500)
    message = str(err) if status != 500 else f"unexpected {type(err).__name__}: {' '.join(str(err).split())[:300]}"
    return page("error.html.j2", status, title="Error" if status != 404 else "Not found", message=message)


def make_server(graph, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, log: Callable[[str], None] | None = None) -> Server:
    """A server (not yet serving) of ``graph`` (a ``kg.KnowledgeGraph``) on ``host:port``
    (port 0: a free one)."""
    routes = {path: (lambda request, handler=handler: handler(graph, request)) for path, handler in PAGES.items()}
    catalogue = Catalogue(graph.store)
    routes["/search"] = lambda request: pages.search(graph, request, catalogue)
    try:
        server = Server(host, port, routes, not_found, failed, log)
    except OSError as err:  # the port is taken, or the address is not this machine's
        raise BadInput(f"cannot listen on {host}:{port}: {err.strerror or err}; choose another --port "
                       "(0: any free one) or --host") from None
    # the search's catalogue is read while the first pages are asked for, not at the first search
    threading.Thread(target=_warm, args=(catalogue,), name="kg-serve-catalogue", daemon=True).start()
    return server


def _warm(catalogue) -> None:
    try:
        catalogue.current()
    except Exception:  # noqa: BLE001, S110  (the first search reads it again and says what went wrong)
        pass


def warning_for(host: str) -> str | None:
    """What to print when ``host`` lets other machines in (kg serve has no login)."""
    if is_loopback(host):
        return None
    return (f"Warning: serving on {host}, not on this machine only: anyone who can reach this port can read "
            "the whole graph (kg serve has no login). Use the default --host 127.0.0.1 unless you mean it.")


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "Server", "make_server", "warning_for"]
