"""Headless Chromium driven over the DevTools protocol through a pipe (standard library only).

Used by the tests and the benchmark to open a view the way a reader would:
with the network off, recording every request, console error and uncaught
exception, and taking screenshots. It needs Debian's ``chromium`` (or the
binary named by ``KG_CHROMIUM``); nothing is downloaded.

>>> from helpers.browser import Chromium
>>> with Chromium() as browser:                                  # doctest: +SKIP
...     page = browser.open("view.html")
...     page.wait_for("document.body.dataset.drawn === 'true'")
...     png = page.screenshot()
...     print(page.errors)
[]
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--no-default-browser-check", "--mute-audio",
         "--hide-scrollbars", "--disable-dev-shm-usage", "--remote-debugging-pipe")


class BrowserError(RuntimeError):
    """Chromium is missing, died, or did not answer in time."""


def find_chromium() -> str:
    """The Chromium executable: ``KG_CHROMIUM``, else ``chromium`` on the PATH."""
    named = os.environ.get("KG_CHROMIUM")
    found = named or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found or not (named is None or Path(named).exists()):
        raise BrowserError("Chromium not found: install Debian's chromium (apt-get install chromium) "
                           "or point KG_CHROMIUM at a Chromium binary")
    return found


class Chromium:
    """One headless Chromium process; ``open`` gives pages. Use it as a context manager."""

    def __init__(self, width: int = 1280, height: int = 800, offline: bool = True):
        self.width, self.height, self.offline = width, height, offline
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict] = []
        self._profile = tempfile.mkdtemp(prefix="kg-chromium-")
        command_read, self._command_write = os.pipe()
        self._reply_read, reply_write = os.pipe()

        def child_fds():  # Chromium reads commands on fd 3 and writes replies on fd 4
            a, b = os.dup(command_read), os.dup(reply_write)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [find_chromium(), *FLAGS, f"--user-data-dir={self._profile}", f"--window-size={width},{height}", "about:blank"],
            preexec_fn=child_fds, close_fds=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(command_read)
        os.close(reply_write)
        self.call("Browser.getVersion", timeout=30)

    def __enter__(self) -> "Chromium":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                self.call("Browser.close", timeout=5)
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        for fd in (self._command_write, self._reply_read):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 60) -> dict:
        """Send one protocol command and return its result; events seen meanwhile are queued."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        try:
            os.write(self._command_write, json.dumps(message).encode() + b"\0")
        except OSError as err:
            raise BrowserError(f"Chromium is gone ({err})") from err
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._reply_read], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self._reply_read, 1 << 20)
            if not chunk:
                raise BrowserError("Chromium closed the connection")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def pump(self, seconds: float) -> None:
        """Read events for ``seconds`` (they land in each page's records)."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                self._events.append(self._read(deadline))
        except BrowserError as err:
            if "in time" not in str(err):
                raise

    def take_events(self, session: str) -> list[dict]:
        mine = [e for e in self._events if e.get("sessionId") == session]
        self._events = [e for e in self._events if e.get("sessionId") != session]
        return mine

    def new_page(self) -> "Page":
        """A blank tab with the network off (unless ``offline=False``) and every record switched on."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=session)
        self.call("Emulation.setDeviceMetricsOverride", {"width": self.width, "height": self.height,
                                                         "deviceScaleFactor": 1, "mobile": False}, session=session)
        if self.offline:
            self.call("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1,
                                                           "uploadThroughput": -1}, session=session)
        return Page(self, session)

    def open(self, path: str | Path, timeout: float = 60) -> "Page":
        """A new page showing the local file ``path``, after its load event."""
        page = self.new_page()
        page.goto(Path(path).resolve().as_uri(), timeout=timeout)
        return page


class Page:
    """One tab: navigation, script evaluation, screenshots, and what the page did."""

    def __init__(self, browser: Chromium, session: str):
        self.browser, self.session = browser, session
        self.requests: list[str] = []   # every URL the page asked for
        self.errors: list[str] = []     # console errors, uncaught exceptions, failed loads
        self._loaded = False

    def call(self, method: str, params: dict | None = None, timeout: float = 60) -> dict:
        result = self.browser.call(method, params, self.session, timeout)
        self._absorb()
        return result

    def _absorb(self) -> None:
        for event in self.browser.take_events(self.session):
            method, params = event["method"], event.get("params", {})
            if method == "Page.loadEventFired":
                self._loaded = True
            elif method == "Network.requestWillBeSent":
                self.requests.append(params["request"]["url"])
            elif method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                self.errors.append(f"exception: {details.get('exception', {}).get('description') or details.get('text')}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                self.errors.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"]))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                self.errors.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}".strip())
            elif method == "Network.loadingFailed":
                self.errors.append(f"failed load: {params.get('errorText')}")

    def add_init_script(self, source: str) -> None:
        """Run ``source`` in every document this page loads, before the page's own scripts."""
        self.call("Page.addScriptToEvaluateOnNewDocument", {"source": source})

    def goto(self, url: str, timeout: float = 60) -> None:
        self._loaded = False
        self.call("Page.navigate", {"url": url})
        deadline = time.monotonic() + timeout
        while not self._loaded:
            if time.monotonic() > deadline:
                raise BrowserError(f"{url} did not finish loading in {timeout} s")
            self.browser.pump(0.05)
            self._absorb()

    def evaluate(self, expression: str, timeout: float = 60):
        """The JSON value of a JavaScript expression (promises are awaited)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                           timeout=timeout)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression!r} threw: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30, interval: float = 0.05):
        """Poll ``expression`` until it is truthy; return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"timed out after {timeout} s waiting for {expression!r}")
            time.sleep(interval)

    def settle(self, seconds: float = 0.2) -> None:
        """Let pending events (late errors, requests) arrive."""
        self.browser.pump(seconds)
        self._absorb()

    def screenshot(self, path: str | Path | None = None) -> bytes:
        """A PNG of the viewport; written to ``path`` when given."""
        png = base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"])
        if path:
            Path(path).write_bytes(png)
        return png
