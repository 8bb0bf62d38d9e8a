"""A polite HTTP client for public scholarly APIs: it says who it is (a
User-Agent with a contact address), keeps a minimum interval between requests,
retries on 429, 5xx and network errors with exponential backoff (honouring
``Retry-After``), and reports failures as one clear ``FetchError``.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from kg.errors import FetchError  # noqa: F401  (raised here, imported from here by the fetchers)

try:
    KG_VERSION = metadata.version("kg")
except metadata.PackageNotFoundError:  # run from a source tree
    KG_VERSION = "dev"

RETRY_STATUSES = {429, 500, 502, 503, 504}




def user_agent(mailto: str | None) -> str:
    """``kg/<version> (mailto:<address>)``: APIs ask clients to identify themselves."""
    return f"kg/{KG_VERSION} (+mailto:{mailto})" if mailto else f"kg/{KG_VERSION}"


def cursor_file(output: Path) -> Path:
    """Where a fetch into ``output`` saves how far it got (deleted when it finishes)."""
    return output.with_name(output.name + ".cursor")


def saved_state(output: Path, key: str, value) -> dict:
    """The state an interrupted fetch into ``output`` saved, checked to be of the same query (``state[key] == value``)."""
    path = cursor_file(output)
    if not path.exists():
        raise FetchError(f"nothing to resume: {path} does not exist")
    state = json.loads(path.read_text(encoding="utf-8"))
    if state.get(key) != value:
        raise FetchError(f"{path} belongs to another query: {state.get(key)}")
    return state


def save_state(output: Path, state: dict) -> None:
    cursor_file(output).write_text(json.dumps(state), encoding="utf-8")


@dataclass
class Client:
    mailto: str | None = None
    min_interval: float = 0.1   # seconds between requests
    retries: int = 5
    backoff: float = 1.0        # first wait; doubles each retry
    timeout: float = 30.0
    requests: int = 0
    _last: float = field(default=0.0, repr=False)

    def get(self, url: str, params: dict | None = None) -> bytes:
        """The body of a GET, after the polite wait and any retries."""
        full = url + ("?" + urllib.parse.urlencode({k: v for k, v in (params or {}).items() if v is not None}) if params else "")
        request = urllib.request.Request(full, headers={"User-Agent": user_agent(self.mailto), "Accept": "*/*"})
        for attempt in range(self.retries + 1):
            self._wait()
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return response.read()
            except urllib.error.HTTPError as err:
                if err.code not in RETRY_STATUSES or attempt == self.retries:
                    raise FetchError(f"GET {full}: HTTP {err.code} {err.reason}") from err
                delay = _retry_after(err.headers.get("Retry-After")) if err.code == 429 else None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as err:
                if attempt == self.retries:
                    raise FetchError(f"GET {full}: {getattr(err, 'reason', err)}") from err
                delay = None
            time.sleep(delay if delay is not None else self.backoff * 2 ** attempt)
        raise FetchError(f"GET {full}: no answer")  # not reached

    def get_json(self, url: str, params: dict | None = None) -> dict:
        body = self.get(url, params)
        try:
            return json.loads(body)
        except ValueError as err:
            raise FetchError(f"GET {url}: the answer is not JSON ({err})") from err

    def _wait(self) -> None:
        pause = self._last + self.min_interval - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        self._last = time.monotonic()
        self.requests += 1


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
