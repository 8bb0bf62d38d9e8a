"""The HTTP side of ``kg serve``: a standard-library threading server, its routes, and the
headers every answer carries. Only GET and HEAD exist; any other method is refused (405).

>>> import kg, urllib.request                                       # doctest: +SKIP
>>> with kg.open(db="kg-data").serve(port=0, block=False) as server:  # doctest: +SKIP
...     urllib.request.urlopen(server.url + "search?q=bert").status
200
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

# The app's own pages run only the app's scripts and fetch only from the app (a paper's similar
# papers); the views it serves as files carry their own, stricter policy (visuals.render).
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; frame-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'")
MAX_QUERY = 100_000  # characters of a request's query string (a Cypher text travels there)


@dataclass
class Response:
    """What a page answers: status, body and headers."""

    body: bytes | str
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    csp: bool = True  # False: the body carries its own policy (a kg viz page)

    def payload(self) -> bytes:
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body


class Request:
    """One GET: the path and the query's parameters (the first value of each)."""

    def __init__(self, target: str):
        parts = urllib.parse.urlsplit(target)
        self.path = parts.path
        self.params = {k: v[0] for k, v in urllib.parse.parse_qs(parts.query, keep_blank_values=True).items()}

    def get(self, name: str, default: str = "") -> str:
        return self.params.get(name, default)


Route = Callable[[Request], Response]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Handler(BaseHTTPRequestHandler):
    """Answers GET and HEAD from the server's routes; every other method is a 405."""

    server: "Server"
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802  (the name http.server calls)
        self._answer(head=False)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(head=True)

    def _refuse(self) -> None:
        self._send(Response("kg serve is read-only: only GET and HEAD are answered.\n", 405, "text/plain; charset=utf-8",
                            {"Allow": "GET, HEAD"}), head=False)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse  # noqa: N815

    def _answer(self, head: bool) -> None:
        if not self.server.host_allowed(self.headers.get("Host", "")):
            self._send(Response("Unknown Host header: open the address kg serve printed.\n", 421,
                                "text/plain; charset=utf-8"), head)
            return
        if len(self.path) > MAX_QUERY:
            self._send(Response("The request is too long.\n", 414, "text/plain; charset=utf-8"), head)
            return
        self._send(self.server.dispatch(Request(self.path)), head)

    def _send(self, response: Response, head: bool) -> None:
        body = response.payload()
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        if "Cache-Control" not in response.headers:
            self.send_header("Cache-Control", "no-store")
        if response.csp:
            self.send_header("Content-Security-Policy", CSP)
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def log_message(self, format, *args) -> None:  # noqa: A002  (http.server's signature)
        if self.server.log:
            self.server.log(f"{self.address_string()} {format % args}")


class Server(ThreadingHTTPServer):
    """The HTTP server: ``routes`` by path, ``not_found`` for the rest, ``failed`` for an error
    a route raised. ``url`` is where it answers; ``close()`` (or ``with``) stops it."""

    daemon_threads = True

    def __init__(self, host: str, port: int, routes: dict[str, Route], not_found: Route,
                 failed: Callable[[Request, Exception], Response], log: Callable[[str], None] | None = None):
        self.routes, self.not_found, self.failed, self.log = routes, not_found, failed, log
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, port), Handler)
        self.host = host
        self.port = self.server_address[1]
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/"

    def host_allowed(self, header: str) -> bool:
        """On a loopback address, only requests naming it (or localhost): a web page elsewhere
        cannot reach the graph by pointing a name of its own at 127.0.0.1 (DNS rebinding)."""
        if not is_loopback(self.host):
            return True
        name = header.rsplit(":", 1)[0] if not header.endswith("]") else header
        return name.strip("[]") in ("localhost", "127.0.0.1", "::1", self.host)

    def dispatch(self, request: Request) -> Response:
        route = self.routes.get(request.path, self.not_found)
        try:
            return route(request)
        except Exception as err:  # noqa: BLE001  (a page's error is a page, never a dropped connection)
            return self.failed(request, err)

    def start(self) -> "Server":
        """Serve in a background thread (``graph.serve(block=False)``)."""
        self._thread = threading.Thread(target=self.serve_forever, name="kg-serve", daemon=True)
        self._thread.start()
        return self

    def wait(self) -> None:
        """Until the background thread stops (Ctrl+C interrupts the wait)."""
        while self._thread is not None and self._thread.is_alive():
            self._thread.join(0.5)

    def close(self) -> None:
        if self._thread is not None:
            self.shutdown()
            self._thread.join(10)
            self._thread = None
        self.server_close()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
