"""``kg fetch arxiv``: records from the arXiv API (Atom), written as JSON lines in
the shape of the arXiv metadata snapshot, which ``kg build`` reads.

arXiv asks for one request every three seconds; that is the default interval.
Paging is by offset; the offset is saved beside the output after every page
(``papers.jsonl.cursor``) so that ``--resume`` goes on where a fetch stopped.

>>> snapshot_record(ET.fromstring(EXAMPLE_ENTRY))["id"]
'2101.00001'
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

from kg.fetch.polite import Client, FetchError, cursor_file, save_state, saved_state

DEFAULT_BASE_URL = "https://export.arxiv.org/api/query"
MAX_PER_PAGE = 100
NS = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom",
      "os": "http://a9.com/-/spec/opensearch/1.1/"}
EXAMPLE_ENTRY = ('<entry xmlns="http://www.w3.org/2005/Atom"><id>http://arxiv.org/abs/2101.00001v2</id>'
                 '<published>2021-01-01T10:00:00Z</published><title>T</title><summary>S</summary>'
                 '<author><name>Ada Vance</name></author></entry>')
_VERSION = re.compile(r"v(\d+)$")


def _text(entry: ET.Element, path: str) -> str | None:
    node = entry.find(path, NS)
    return " ".join(node.text.split()) if node is not None and node.text else None


def snapshot_record(entry: ET.Element) -> dict:
    """One Atom entry as a metadata-snapshot record."""
    abs_id = (_text(entry, "a:id") or "").rsplit("/abs/", 1)[-1]
    if not abs_id:
        raise FetchError("an arXiv entry without an id")
    version = _VERSION.search(abs_id)
    names = [_text(author, "a:name") or "" for author in entry.findall("a:author", NS)]
    return {
        "id": _VERSION.sub("", abs_id),
        "submitter": names[0] if names else None,
        "authors": ", ".join(names),
        "authors_parsed": [[n.split()[-1], " ".join(n.split()[:-1]), ""] for n in names if n.split()],
        "title": _text(entry, "a:title"),
        "abstract": _text(entry, "a:summary"),
        "doi": _text(entry, "arxiv:doi"),
        "journal-ref": _text(entry, "arxiv:journal_ref"),
        "categories": " ".join(c.get("term", "") for c in entry.findall("a:category", NS)),
        "versions": [{"version": f"v{version[1] if version else 1}", "created": _text(entry, "a:published")}],
        "update_date": (_text(entry, "a:updated") or "")[:10] or None,
    }


def page(client: Client, base_url: str, params: dict, start: int, size: int) -> tuple[list[dict], int]:
    """One page of records and the total the API reports."""
    body = client.get(base_url, {**params, "start": start, "max_results": size})
    try:
        feed = ET.fromstring(body)
    except ET.ParseError as err:
        raise FetchError(f"{base_url}: the answer is not Atom XML ({err})") from err
    total = int(_text(feed, "os:totalResults") or 0)
    return [snapshot_record(e) for e in feed.findall("a:entry", NS)], total


def fetch(search: str | None, arxiv_ids: tuple[str, ...], output: Path, limit: int, client: Client,
          base_url: str = DEFAULT_BASE_URL, resume: bool = False, per_page: int = MAX_PER_PAGE,
          on_page: Callable[[int], None] | None = None) -> int:
    """Write up to ``limit`` records to ``output``; returns how many the file holds now."""
    if not search and not arxiv_ids:
        raise FetchError("say what to fetch: --search or --id")
    params = {"search_query": search} if search else {"id_list": ",".join(arxiv_ids)}
    start = saved_state(output, "params", params)["start"] if resume else 0
    size = max(1, min(per_page, MAX_PER_PAGE, limit))
    done = False
    with open(output, "a" if resume else "w", encoding="utf-8") as out:
        while start < limit:
            records, total = page(client, base_url, params, start, min(size, limit - start))
            for record in records:
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            start += len(records)
            done = not records or start >= min(total, limit)
            save_state(output, {"params": params, "start": start})
            if on_page:
                on_page(start)
            if done:
                break
    if done or start >= limit:
        cursor_file(output).unlink(missing_ok=True)
    return start
