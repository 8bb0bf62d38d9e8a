"""``kg fetch openalex``: Work records from the OpenAlex API, written as JSON
lines that ``kg build`` reads (the OpenAlex loader).

Paging uses OpenAlex cursors; after every page the cursor is saved beside the
output (``works.jsonl.cursor``), so an interrupted fetch goes on with
``--resume`` instead of starting again. A contact address (``--mailto`` or
``KG_MAILTO``) is sent as OpenAlex asks (``mailto`` parameter and User-Agent).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from kg.fetch.polite import Client, FetchError, cursor_file, save_state, saved_state
from loaders import ids

DEFAULT_BASE_URL = "https://api.openalex.org"
MAX_PER_PAGE = 200


@dataclass
class Query:
    """What to fetch: a full-text search, DOIs, or an author (OpenAlex id or name)."""

    search: str | None = None
    dois: tuple[str, ...] = ()
    author: str | None = None

    def describe(self) -> dict:
        return {"search": self.search, "dois": list(self.dois), "author": self.author}


def author_id(client: Client, base_url: str, author: str) -> str:
    """An OpenAlex author id (``A123``) for an id, an author URL, or a name (best match)."""
    found = ids.openalex_id(author)
    if found and found.split(":")[1].startswith("A"):
        return found.split(":")[1]
    answer = client.get_json(f"{base_url}/authors", {"search": author, "per-page": 1, "mailto": client.mailto})
    results = answer.get("results") or []
    if not results:
        raise FetchError(f"OpenAlex knows no author matching {author!r}")
    return results[0]["id"].rsplit("/", 1)[-1]


def work_filter(client: Client, base_url: str, query: Query) -> dict:
    """The /works parameters for a query."""
    if query.search:
        return {"search": query.search}
    if query.dois:
        normalised = [ids.doi(d) for d in query.dois]
        bad = [d for d, n in zip(query.dois, normalised) if n is None]
        if bad:
            raise FetchError(f"not a DOI: {', '.join(bad)}")
        return {"filter": "doi:" + "|".join(normalised)}
    if query.author:
        return {"filter": f"author.id:{author_id(client, base_url, query.author)}"}
    raise FetchError("say what to fetch: --search, --doi or --author")


def pages(client: Client, base_url: str, params: dict, cursor: str = "*", per_page: int = MAX_PER_PAGE) -> Iterator[tuple[list[dict], str | None]]:
    """Yield ``(works, next_cursor)`` page by page until the cursor runs out."""
    while cursor:
        answer = client.get_json(f"{base_url}/works", {**params, "per-page": per_page, "cursor": cursor, "mailto": client.mailto})
        if not isinstance(answer.get("results"), list):
            raise FetchError(f"{base_url}/works: the answer has no results list")
        cursor = (answer.get("meta") or {}).get("next_cursor")
        yield answer["results"], cursor
        if not answer["results"]:
            return


def fetch(query: Query, output: Path, limit: int, client: Client, base_url: str = DEFAULT_BASE_URL,
          resume: bool = False, per_page: int = MAX_PER_PAGE, on_page: Callable[[int], None] | None = None) -> int:
    """Write up to ``limit`` works to ``output``; returns how many the file holds now."""
    cursor, written = "*", 0
    if resume:
        state = saved_state(output, "query", query.describe())
        cursor, written = state["cursor"], state["written"]
    params = work_filter(client, base_url, query)
    per_page = max(1, min(per_page, MAX_PER_PAGE, limit))
    with open(output, "a" if resume else "w", encoding="utf-8") as out:
        for works, next_cursor in pages(client, base_url, params, cursor, per_page):
            for work in works[: max(0, limit - written)]:
                out.write(json.dumps(work, ensure_ascii=False) + "\n")
                written += 1
            out.flush()
            save_state(output, {"query": query.describe(), "cursor": next_cursor, "written": written})
            if on_page:
                on_page(written)
            if written >= limit or not next_cursor:
                break
    if written >= limit or not next_cursor:
        cursor_file(output).unlink(missing_ok=True)
    return written
