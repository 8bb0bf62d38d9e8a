"""`kg serve` over HTTP: a real server on a free port over the embedded store holding the ten
hand-made papers of tests/fixtures/viz_graph.jsonl (two carry hostile text); real requests
for every page, the escaping of every page, 404s, and the read-only guard.

The browser side (real clicks in headless Chromium) is in test_serve_browser.py.
"""

from __future__ import annotations

import csv
import http.client
import io
import json
import os
import re
import signal
import subprocess
import sys
import urllib.parse
from html.parser import HTMLParser

import pytest
from conftest import ROOT, fingerprint
from markupsafe import escape
from test_visuals import XSS_METHOD

import kg
from kg.serve import warning_for
from queries import list_queries

HOSTILE = ("<script>window.__xss", "<svg onload", "<img src=x", "</script><script>")


class Answer:
    def __init__(self, status: int, headers: dict, body: bytes):
        self.status, self.headers, self.body = status, headers, body
        self.text = body.decode("utf-8", "replace")


def fetch(server, path: str, method: str = "GET", host: str | None = None, body: bytes | None = None) -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    connection.putrequest(method, path, skip_host=True)
    connection.putheader("Host", host or f"127.0.0.1:{server.port}")
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    reply = connection.getresponse()
    answer = Answer(reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read())
    connection.close()
    return answer


def page(server, path: str, status: int = 200) -> Answer:
    answer = fetch(server, path)
    assert answer.status == status, (path, answer.status, answer.text[:2000])
    if answer.headers["content-type"].startswith("text/html"):
        assert_safe_markup(answer.text, path)
    return answer


def q(path: str, **params) -> str:
    return path + "?" + urllib.parse.urlencode(params)


class Markup(HTMLParser):
    """Every element and attribute of a page, to check that text never became markup."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.inline_scripts.append(data)


ALLOWED_TAGS = {"html", "head", "meta", "title", "link", "body", "header", "a", "form", "input", "button", "nav", "main",
                "h1", "h2", "p", "div", "section", "ol", "ul", "li", "span", "q", "table", "thead", "tbody", "tr", "th",
                "td", "code", "article", "iframe", "label", "select", "option", "textarea", "details", "summary", "pre",
                "dl", "dt", "dd", "script", "style", "b", "br"}


def assert_safe_markup(html: str, where: str) -> None:
    """The page's elements are the templates' own: no element or handler from the data, every
    link and frame stays on this server, and the only inline script is the graph's JSON."""
    parser = Markup()
    parser.feed(html)
    for tag, attrs in parser.tags:
        assert tag in ALLOWED_TAGS, (where, tag, attrs)
        assert not [a for a in attrs if a.startswith("on")], (where, tag, attrs)
        for name in ("href", "src", "action"):
            if name in attrs:
                assert attrs[name].startswith("/"), (where, tag, attrs)
        if tag == "script":
            assert attrs.get("src", "").startswith("/static/") or attrs.get("type") == "application/json", (where, attrs)
        if tag == "b":
            raise AssertionError(f"{where}: a <b> from a title became markup")
    for code in parser.inline_scripts:
        json.loads(code)  # the graph's data, nothing else
    visible = re.sub(r"<script[^>]*>.*?</script>", "", html, flags=re.S)
    for raw in HOSTILE:
        assert raw not in visible, (where, raw)


# --- every page -------------------------------------------------------------------------------

def test_home_says_what_the_graph_holds(served):
    text = page(served, "/").text
    assert "Paper" in text and ">10<" in text and "CITES" in text


def test_search_ranks_title_matches_before_abstract_ones_and_finds_concepts_by_alias(served):
    text = page(served, q("/search", q="transformer")).text
    papers = re.findall(r'class="paper" href="/paper\?id=([^"]+)"', text)
    titled = {"p-viz01", "p-viz02", "p-viz04", "p-viz08"}  # their titles name transformers; p-viz06's abstract only
    assert set(papers[:4]) == titled and "p-viz06" in papers[4:]
    concepts = re.findall(r'class="concept" href="/concept\?id=([^"]+)"', text)
    assert concepts[0] == "transformer"
    by_alias = page(served, q("/search", q="bidirectional encoder")).text
    assert re.findall(r'class="concept" href="/concept\?id=([^"]+)"', by_alias) == ["bert"]
    by_id = page(served, q("/search", q="P-VIZ07")).text
    assert re.findall(r'class="paper" href="/paper\?id=([^"]+)"', by_id)[0] == "p-viz07"
    assert "No paper" in page(served, q("/search", q="zzzz-nothing")).text


def test_the_paper_page_shows_the_abstract_with_typed_concepts_and_why(served):
    text = page(served, q("/paper", id="p-viz01")).text
    assert '<h1 id="title">Transformers for translation</h1>' in text
    marks = re.findall(r'<a class="mention t-(\w+)" href="/concept\?id=([^"]+)" title="([^"]*)"', text)
    assert {(kind, key) for kind, key, _ in marks} >= {("Method", "bert"), ("Method", "transformer"),
                                                       ("Task", "machine+translation"), ("Dataset", "wmt14"),
                                                       ("Metric", "bleu")}
    tip = dict((key, tip) for _, key, tip in marks)["bert"]
    assert "rule: fixture" in tip and "confidence 0.90" in tip and "evidence: We use BERT" in tip
    assert re.search(r'<section id="used">.*?bert.*?transformer.*?</section>', text, re.S)
    assert 'id="references"><h2>References (1)' in text and 'href="/paper?id=p-viz02"' in text
    assert 'id="citing"><h2>Cited by (4)' in text
    assert 'data-fragment="/similar?id=p-viz01&amp;fragment=1"' in text  # loaded after the page
    assert 'src="/graph?kind=paper&amp;id=p-viz01&amp;depth=1&amp;top=60"' in text


def test_similar_papers_with_why_as_graph_similar_ranks_them(served, store_dir):
    fragment = page(served, q("/similar", id="p-viz01", fragment="1")).text
    with kg.open(db=store_dir) as graph:
        expected = graph.similar("p-viz01", top=8)
    assert re.findall(r'class="paper" href="/paper\?id=([^"]+)"', fragment) == [r["id"] for r in expected]
    best = expected[0]
    assert f"mostly by {best['ranked_by']}" in fragment and best["shared"][0]["name"] in fragment
    # the evidence a reader checks: the two sentences nearest in meaning, escaped as all user text
    pair = next(r["sentences"] for r in expected if r.get("sentences"))
    assert f"<q>{escape(pair['query'])}</q> &harr; <q>{escape(pair['match'])}</q>" in fragment
    assert not fragment.lstrip().startswith("<!DOCTYPE")
    whole = page(served, q("/similar", id="p-viz01")).text
    assert whole.startswith("<!DOCTYPE") and ">Transformers for translation</a></h1>" in whole
    assert page(served, q("/similar", id="p-none"), 404)


def test_proposed_and_used_are_apart(served, viz):
    proposer = next(r for r in viz if any(c.get("proposed") for c in r["concepts"]))
    name = next(c["name"] for c in proposer["concepts"] if c.get("proposed"))
    text = page(served, q("/paper", id=proposer["id"])).text
    proposed = re.search(r'<section id="proposed">(.*?)</section>', text, re.S)[1]
    assert f">{name}</a>" in proposed and 'data-relation="PROPOSES"' in text


def test_the_concept_page_shows_papers_newest_first_timeline_and_partners(served):
    text = page(served, q("/concept", id="transformer")).text
    assert 'id="type">Method<' in text and "named by 5 papers" in text
    papers = re.findall(r'class="paper" href="/paper\?id=([^"]+)"', re.search(r'<section id="papers">(.*?)</section>', text, re.S)[1])
    assert papers == ["p-viz04", "p-viz08", "p-viz02", "p-viz01", "p-viz06"]  # 2024, 2023, 2022, then 2021 by id
    years = re.findall(r"<tr><td>(\d{4})</td>", re.search(r'<section id="timeline">(.*?)</section>', text, re.S)[1])
    assert years == ["2021", "2022", "2023", "2024"]
    co = re.search(r'<section id="co-occurring">(.*?)</section>', text, re.S)[1]
    assert "image classification" in co and "machine translation" in co
    partners = re.search(r'<section id="partners">(.*?)</section>', text, re.S)[1]
    assert "ImageNet" in partners and "machine translation" in partners and "Datasets and tasks" in partners
    method_side = page(served, q("/concept", id="imagenet")).text
    assert "Methods evaluated on it" in method_side and "ResNet" in method_side
    assert 'aliases">Also written: Bidirectional Encoder' in page(served, q("/concept", id="bert")).text


def test_a_concept_is_found_by_its_name_too(served):
    assert '<span class="dot"></span>BERT</h1>' in page(served, q("/concept", id="BERT")).text


def test_a_cited_work_that_is_not_loaded_has_its_page(served, session_store):
    key = session_store.run("MATCH (r:Reference) RETURN r.key AS key ORDER BY key LIMIT 1")[0]["key"]
    text = page(served, q("/work", id=key)).text
    assert "A cited work that is not loaded" in text and "Cited by (" in text
    moved = fetch(served, q("/work", id="p-viz01"))
    assert moved.status == 303 and moved.headers["location"] == "/paper?id=p-viz01"


def test_the_neighbourhood_graph_is_drawn_by_the_views_renderer(served):
    text = page(served, q("/graph", kind="paper", id="p-viz01", top=60)).text
    data = json.loads(re.search(r'<script type="application/json" id="graph-data">(.*?)</script>', text, re.S)[1])
    ids = {n["id"] for n in data["nodes"]}
    assert {"p-viz01", "bert", "p-viz02"} <= ids and any(n.get("focus") for n in data["nodes"])
    assert '<script src="/static/view.js">' in text and '<script src="/static/graph-links.js">' in text
    for asset in ("/static/vis-network.min.js", "/static/view.js", "/static/graph-links.js", "/static/serve.css",
                  "/static/types.css", "/static/vis-network.css"):
        assert page(served, asset).body
    concept = page(served, q("/graph", kind="concept", id="xss svg")).text
    assert XSS_METHOD not in re.sub(r'<script type="application/json".*?</script>', "", concept, flags=re.S)


@pytest.mark.parametrize("name", [query.name for query in list_queries()])
def test_every_pack_is_a_form_built_from_its_header(served, name):
    from queries import get_query

    query = get_query(name)
    text = page(served, q("/query", name=name)).text
    fields = re.findall(r'name="p_(\w+)"', text)
    assert fields == [p.name for p in query.params]
    assert str(escape(query.description[:40])) in text


def test_a_pack_runs_with_linked_cells_and_downloads_the_same_rows(served, store_dir):
    params = {"name": "concepts/profile", "run": "1", "p_concept": "LoRA", "p_top": "5", "p_papers": "50"}
    text = page(served, q("/query", **params)).text
    with kg.open(db=store_dir) as graph:
        rows = graph.query("concepts/profile", concept="LoRA", top=5)
    assert "1 row" in text and 'href="/paper?id=p-viz02"' in text and 'href="/concept?id=transformer"' in text
    as_json = fetch(served, q("/query", **params, format="json"))
    assert as_json.headers["content-disposition"] == 'attachment; filename="concepts-profile.json"'
    assert json.loads(as_json.text) == rows
    as_csv = list(csv.reader(io.StringIO(fetch(served, q("/query", **params, format="csv")).text)))
    assert as_csv[0] == list(rows[0]) and json.loads(as_csv[1][as_csv[0].index("papers")]) == rows[0]["papers"]


def test_a_wrong_parameter_is_said_on_the_form(served):
    text = page(served, q("/query", name="overview/top-concepts", run="1", p_per_type="many"), 400).text
    assert "parameter per_type expects int" in text


def test_the_cypher_console_runs_reads_with_json_parameters(served):
    cypher = "MATCH (p:Paper) WHERE p.year = $year RETURN p.id AS id, p.title AS title ORDER BY id"
    text = page(served, q("/cypher", text=cypher, params='{"year": 2024}')).text
    assert "2 rows" in text and 'href="/paper?id=p-viz04"' in text
    # the hostile title is a cell's text, escaped
    assert "&lt;script&gt;window.__xss=&#39;title&#39;" in text
    rows = json.loads(fetch(served, q("/cypher", text=cypher, params='{"year": 2024}', format="json")).text)
    assert [r["id"] for r in rows] == ["p-viz04", "p-viz09"]
    assert "must be a JSON object" in page(served, q("/cypher", text=cypher, params="[1]"), 400).text


def test_the_console_reads_at_most_its_cap(served, monkeypatch):
    from kg.serve import tools

    monkeypatch.setattr(tools, "MAX_ROWS", 3)
    text = page(served, q("/cypher", text="UNWIND range(1, 50) AS n RETURN n")).text
    assert "3 rows (the console reads no more)" in text


def test_the_views_page_and_the_view_file(served, store_dir):
    text = page(served, q("/views", view="concept", focus="BERT", depth="2")).text
    assert 'src="/view?view=concept&amp;focus=BERT&amp;depth=2"' in text
    drawn = fetch(served, q("/view", view="concept", focus="BERT", depth="2"))
    assert drawn.status == 200 and "content-security-policy" not in drawn.headers  # the page's own policy applies
    with kg.open(db=store_dir) as graph:
        expected = graph.view("concept", focus="BERT", depth=2).render()
    assert drawn.text == expected
    download = fetch(served, q("/view", view="concept", focus="BERT", depth="2", download="1"))
    assert download.headers["content-disposition"] == 'attachment; filename="kg-concept.html"' and download.text == expected
    assert 'id="view-frame"' not in page(served, "/views").text  # on demand: the bare page draws nothing
    assert "unknown view" in page(served, q("/views", view="nope"), 400).text
    assert "top must be a whole number" in page(served, q("/views", top="lots"), 400).text


# --- hostile text on every page -----------------------------------------------------------------

@pytest.mark.parametrize("path", [
    q("/search", q="<svg onload"), q("/search", q="<script>"), q("/paper", id="p-viz09"), q("/paper", id="p-viz10"),
    q("/similar", id="p-viz10", fragment="1"), q("/similar", id="p-viz01"),
    q("/concept", id="xss svg"), q("/concept", id="bert"), q("/graph", kind="paper", id="p-viz09"),
    q("/graph", kind="concept", id="xss svg"), q("/query", name="papers/find", run="1", p_text="<"),
    q("/query", name="concepts/search", run="1", p_text="script"), q("/cypher", text="MATCH (c:Concept) RETURN c.name AS name, c.aliases AS aliases"),
    q("/views", view="paper", focus="p-viz09"), q("/paper", id="<img src=x onerror=alert(1)>"),
    q("/concept", id="<svg onload=alert(1)>"), "/<script>alert(1)</script>", q("/query", name="<b>x</b>"),
])
def test_hostile_text_is_text_on_every_page(served, path):
    answer = fetch(served, path)
    assert answer.status in (200, 400, 404)
    assert_safe_markup(answer.text, path)  # the hostile strings of the fixture and of the request
    assert all("<" not in title for title in re.findall(r"<title>(.*?)</title>", answer.text))


def test_the_paper_page_shows_the_hostile_title_as_text(served):
    text = page(served, q("/paper", id="p-viz09")).text
    assert "&lt;script&gt;window.__xss=&#39;title&#39;;document.title=&#39;pwned&#39;&lt;/script&gt;Attention is &lt;b&gt;all&lt;/b&gt;" in text
    assert "&lt;svg onload=window.__xss=&#39;concept&#39;&gt;" in text


# --- not found ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/nothing", q("/paper", id="p-none"), q("/concept", id="no such concept"),
                                  q("/work", id="nowhere-1999"), q("/query", name="overview/nothing"), "/static/nothing.js",
                                  "/static/../api.py", "/static/%2e%2e/app.py", q("/view", view="paper", focus="p-none")])
def test_what_is_not_there_is_a_404_page(served, path):
    answer = page(served, path, 404)
    assert 'class="error"' in answer.text


def test_a_page_missing_its_id_says_so(served):
    assert "this page needs ?id=" in page(served, "/paper", 400).text


# --- read-only ----------------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_no_method_but_get_and_head(served, method):
    answer = fetch(served, q("/cypher", text="MATCH (n) DETACH DELETE n"), method=method, body=b"text=x")
    assert answer.status == 405 and answer.headers["allow"] == "GET, HEAD"
    head = fetch(served, "/", method="HEAD")
    assert head.status == 200 and head.body == b""


@pytest.mark.parametrize("cypher", ["MATCH (n) DETACH DELETE n", "CREATE (:Paper {id: 'p-new'})",
                                    "MATCH (p:Paper) SET p.title = 'x'", "MERGE (c:Concept {id: 'x'})",
                                    "MATCH (p:Paper) /* hidden */ REMOVE p.title", "LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
                                    "CALL db.clearQueryCaches()"])
def test_the_console_refuses_every_write_and_the_graph_is_unchanged(served, session_store, cypher):
    before = fingerprint(session_store)
    text = page(served, q("/cypher", text=cypher), 400).text
    assert 'id="error"' in text and ("writes" in text or "refused" in text or "read" in text)
    assert fingerprint(session_store) == before
    assert session_store.run("MATCH (p:Paper {id: 'p-new'}) RETURN count(p) AS n")[0]["n"] == 0


def test_a_request_naming_another_host_is_refused(served):
    assert fetch(served, "/", host="attacker.example:80").status == 421
    assert fetch(served, "/", host=f"localhost:{served.port}").status == 200


def test_every_page_forbids_scripts_from_elsewhere(served):
    policy = fetch(served, "/").headers["content-security-policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy and "default-src 'none'" in policy


# --- the command --------------------------------------------------------------------------------

def test_only_loopback_is_quiet(viz, store_dir):
    assert warning_for("127.0.0.1") is None and warning_for("::1") is None and warning_for("localhost") is None
    assert "anyone who can reach this port" in warning_for("0.0.0.0")
    with kg.open(db=store_dir) as graph, pytest.warns(UserWarning, match="no login"):
        graph.serve(host="0.0.0.0", port=0, block=False).close()


def test_a_port_in_use_is_a_clear_error(served, viz, store_dir):
    from click.testing import CliRunner

    from kg.cli import main

    result = CliRunner().invoke(main, ["serve", "--db", str(store_dir), "--port", str(served.port)])
    assert result.exit_code == 1 and f"Error: cannot listen on 127.0.0.1:{served.port}" in result.output
    assert "choose another --port" in result.output


def test_kg_serve_serves_until_interrupted_and_warns_off_loopback(viz, store_dir):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", "from kg.cli import main; main()", "serve", "--db", str(store_dir), "--port", "0",
               "--host", "0.0.0.0"]
    # Ctrl+C as in a terminal: a test worker may ignore SIGINT, and a child inherits that (Python then
    # installs no KeyboardInterrupt for it)
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        warning = process.stderr.readline()
        serving = process.stderr.readline()
        assert warning.startswith("Warning: serving on 0.0.0.0") and "no login" in warning
        port = int(re.search(r"http://0\.0\.0\.0:(\d+)/", serving)[1])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", "/search?q=bert")
        reply = connection.getresponse()
        assert reply.status == 200 and b'href="/concept?id=bert"' in reply.read()
        connection.close()  # as a browser leaves: no kept-alive connection open at Ctrl+C
    finally:
        process.send_signal(signal.SIGINT)
        out = process.communicate(timeout=60)[1]
    assert process.returncode == 0 and "Stopped." in out
