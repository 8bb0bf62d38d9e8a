"""kg fetch against a local HTTP server on 127.0.0.1 that answers like the
OpenAlex and arXiv APIs, serving the real (CC0) OpenAlex records of the fixtures."""

import json
import threading
import urllib.parse
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from kg.cli import main
from kg.fetch import Client, FetchError
from kg.fetch import openalex as fetch_openalex
from loaders import load

WORKS = [json.loads(line) for line in (FIXTURES / "openalex_works.jsonl").read_text(encoding="utf-8").splitlines()]
ATOM = ET.parse(FIXTURES / "arxiv_api_page.xml")
ATOM_NS = "{http://www.w3.org/2005/Atom}"


class FakeAPI(BaseHTTPRequestHandler):
    """/works, /authors (OpenAlex) and /api/query (arXiv) over the fixture records."""

    def log_message(self, *args):  # keep the test output quiet
        pass

    def do_GET(self):
        server = self.server
        url = urllib.parse.urlparse(self.path)
        params = dict(urllib.parse.parse_qsl(url.query))
        server.seen.append({"path": url.path, "params": params, "agent": self.headers.get("User-Agent")})
        if server.failures:
            status = server.failures.pop(0)
            self.send_response(status)
            self.send_header("Retry-After", "0")
            self.end_headers()
            return
        if url.path == "/works":
            offset = 0 if params.get("cursor", "*") == "*" else int(params["cursor"][1:])
            if server.broken_at is not None and offset >= server.broken_at:
                self.send_response(500)
                self.end_headers()
                return
            found = [w for w in WORKS if _matches(w, params)]
            size = int(params.get("per-page", 25))
            page = found[offset:offset + size]
            more = offset + size < len(found)
            self._send({"meta": {"count": len(found), "per_page": size, "next_cursor": f"c{offset + size}" if more else None},
                        "results": page}, "application/json")
        elif url.path == "/authors":
            name = params.get("search", "").lower()
            hits = [a["author"] for w in WORKS for a in w["authorships"] if name in a["author"]["display_name"].lower()]
            self._send({"meta": {"count": len(hits)}, "results": hits[:1]}, "application/json")
        elif url.path == "/api/query":
            start, size = int(params.get("start", 0)), int(params.get("max_results", 10))
            feed = ET.fromstring(ET.tostring(ATOM.getroot()))
            entries = feed.findall(f"{ATOM_NS}entry")
            for i, entry in enumerate(entries):
                if not start <= i < start + size:
                    feed.remove(entry)
            self._send(ET.tostring(feed), "application/atom+xml")
        else:
            self.send_response(404)
            self.end_headers()

    def _send(self, body, kind):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _matches(work, params):
    flt = params.get("filter", "")
    if flt.startswith("doi:"):
        return work["doi"].removeprefix("https://doi.org/").lower() in flt[4:].split("|")
    if flt.startswith("author.id:"):
        return any(a["author"]["id"].endswith("/" + flt[10:]) for a in work["authorships"])
    if "search" in params:
        return params["search"].lower() in work["title"].lower()
    return True


@pytest.fixture
def api():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeAPI)
    server.seen, server.failures, server.broken_at = [], [], None
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield server
    server.shutdown()
    server.server_close()


def fetch_cli(api, *args):
    return CliRunner().invoke(main, ["fetch", "openalex", "--base-url", api.url, "--min-interval", "0", *args])


def test_openalex_pages_with_cursors_and_identifies_itself(api, tmp_path):
    out = tmp_path / "works.jsonl"
    result = fetch_cli(api, "--search", "", "--per-page", "2", "--limit", "100", "-o", str(out), "--mailto", "you@example.org")
    assert result.exit_code == 1 and "exactly one of" in result.output  # an empty search is no query
    result = fetch_cli(api, "--author", "Rachel Roccanova", "--per-page", "1", "--limit", "100", "-o", str(out),
                       "--mailto", "you@example.org")
    assert result.exit_code == 0, result.output
    fetched = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(w["id"] for w in fetched) == sorted(w["id"] for w in WORKS if "Roccanova" in json.dumps(w["authorships"]))
    works_calls = [s for s in api.seen if s["path"] == "/works"]
    assert [s["params"]["cursor"] for s in works_calls] == ["*", "c1"]  # cursor paging, one work per page
    assert all(s["params"]["mailto"] == "you@example.org" and "mailto:you@example.org" in s["agent"] for s in api.seen)
    assert api.seen[0]["path"] == "/authors"  # a name is looked up first
    assert not (tmp_path / "works.jsonl.cursor").exists()  # finished: nothing to resume


def test_openalex_doi_limit_and_the_loader_reads_the_result(api, tmp_path):
    out = tmp_path / "two.jsonl"
    dois = [w["doi"] for w in WORKS[:3]]
    result = fetch_cli(api, "--doi", dois[0], "--doi", dois[1].upper(), "--doi", dois[2], "--limit", "2", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert api.seen[0]["params"]["filter"] == "doi:" + "|".join(d.removeprefix("https://doi.org/").lower() for d in dois)
    papers = list(load([str(out)]))
    assert len(papers) == 2 and all(p.id.startswith("openalex:W") and p.abstract for p in papers)
    assert "Wrote 2 records" in result.output


def test_retries_on_429_and_5xx(api, tmp_path):
    api.failures = [429, 503, 502]
    client = Client(min_interval=0, retries=3, backoff=0.01)
    count = fetch_openalex.fetch(fetch_openalex.Query(search="luminescence"), tmp_path / "w.jsonl", 10, client, base_url=api.url)
    assert count == 2 and client.requests == 4  # three refusals, then the one page
    api.failures = [500] * 3
    with pytest.raises(FetchError, match="HTTP 500"):
        fetch_openalex.fetch(fetch_openalex.Query(search="x"), tmp_path / "w.jsonl", 10,
                             Client(min_interval=0, retries=2, backoff=0.01), base_url=api.url)


def test_an_interrupted_fetch_resumes_from_its_cursor(api, tmp_path):
    out = tmp_path / "works.jsonl"
    expected = [w["id"] for w in WORKS if "e" in w["title"].lower()]
    assert len(expected) > 2
    api.broken_at = 2  # the second page fails for good
    first = fetch_cli(api, "--per-page", "2", "--search", "e", "--limit", "10", "-o", str(out), "--retries", "0")
    assert first.exit_code == 1 and "HTTP 500" in first.output and "--resume" in first.output
    state = json.loads((tmp_path / "works.jsonl.cursor").read_text(encoding="utf-8"))
    assert state["cursor"] == "c2" and state["written"] == 2
    api.broken_at = None
    again = fetch_cli(api, "--per-page", "2", "--search", "e", "--limit", "10", "-o", str(out), "--resume")
    assert again.exit_code == 0, again.output
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == expected
    assert not (tmp_path / "works.jsonl.cursor").exists()
    missing = fetch_cli(api, "--search", "e", "-o", str(out), "--resume")
    assert missing.exit_code == 1 and "nothing to resume" in missing.output
    other = tmp_path / "other.jsonl"
    api.broken_at = 2
    fetch_cli(api, "--per-page", "2", "--search", "e", "-o", str(other), "--retries", "0")
    wrong = fetch_cli(api, "--search", "a", "-o", str(other), "--resume")
    assert wrong.exit_code == 1 and "belongs to another query" in wrong.output


def test_arxiv_pages_by_offset_into_snapshot_records(api, tmp_path):
    out = tmp_path / "arxiv.jsonl"
    result = CliRunner().invoke(main, ["fetch", "arxiv", "--base-url", f"{api.url}/api/query", "--min-interval", "0",
                                       "--search", "cat:cs.CL", "--per-page", "2", "--limit", "10", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [s["params"]["start"] for s in api.seen] == ["0", "2"]
    papers = {p.id: p for p in load([str(out)])}
    assert list(papers) == ["arxiv:2101.00001", "arxiv:2102.00002", "arxiv:hep-th/9901001"]
    lora = papers["arxiv:2101.00001"]
    assert lora.title == "Low-Rank Adapters for Citation Intent Classification" and lora.year == 2021
    assert lora.authors == ["Ada Vance", "Bo Quist"] and lora.abstract.startswith("We propose LoRA-Cite")
    assert papers["arxiv:2102.00002"].doi == "10.9999/pre.2021.2"


def test_fetch_commands_explain_themselves():
    for args in (["fetch"], ["fetch", "openalex"], ["fetch", "arxiv"]):
        result = CliRunner().invoke(main, [*args, "--help"])
        assert result.exit_code == 0 and "Example" in result.output, args
