"""`kg serve` in headless Chromium with real clicks: search -> paper -> concept -> paper ->
a node of the neighbourhood graph -> a view -> a pack's form -> its result; no console
error, no request to anything but the server, hostile text never runs.

Needs Debian's ``chromium`` (as test_browser.py); the network stays on only so that the
page can reach the server on 127.0.0.1, and every request is checked to go there.
"""

from __future__ import annotations

import time
import urllib.parse

import pytest
from helpers.browser import BrowserError, Chromium
from test_serve import q

FRAME_DRAWN = ("(() => {{ const f = document.getElementById({frame!r}); const d = f && f.contentDocument;"
               " return !!(d && d.body && d.body.dataset.drawn === 'true'); }})()")


@pytest.fixture(scope="module")
def chromium():
    with Chromium(width=1280, height=900, offline=False) as browser:
        yield browser


def wait(page, expression: str, timeout: float = 60):
    """Poll ``expression`` across a navigation (a document going away throws: poll again)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = page.evaluate(expression)
        except BrowserError:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression!r} at {page.evaluate('location.href')}")
        page.settle(0.05)


def press(page, x: float, y: float) -> None:
    """A real left click at (x, y) of the viewport."""
    page.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    for kind in ("mousePressed", "mouseReleased"):
        page.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


def navigates(page, act) -> str:
    """Run ``act`` (a click) and wait for the next document to finish loading; its path and query."""
    page.evaluate("window.__before = true")
    act()
    wait(page, "!window.__before && document.readyState === 'complete'")
    page.settle(0.2)
    parts = urllib.parse.urlsplit(page.evaluate("location.href"))
    return parts.path + ("?" + parts.query if parts.query else "")


def click(page, selector: str) -> str:
    """Click the element ``selector`` names (scrolled into view) and follow the navigation."""
    x, y = page.evaluate(f"""(() => {{ const e = document.querySelector({selector!r});
        e.scrollIntoView({{block: 'center'}}); const r = e.getClientRects()[0];  // a wrapped link's first line
        return [r.left + Math.min(r.width / 2, 20), r.top + r.height / 2]; }})()""")
    return navigates(page, lambda: press(page, x, y))


def type_into(page, selector: str, text: str) -> None:
    page.evaluate(f"(() => {{ const e = document.querySelector({selector!r}); e.value = ''; e.focus(); }})()")
    page.call("Input.insertText", {"text": text})


def outside(page, server) -> list[str]:
    return [url for url in page.requests if not url.startswith(server.url)]


def clickable_node(page, kind: str) -> tuple[str, float, float]:
    """A node of type ``kind`` of the embedded graph, other than the focus, that a click at its
    centre reaches (no other node drawn over it), and that point in the page's viewport."""
    found = page.evaluate(f"""(() => {{
        const frame = document.getElementById('graph-frame');
        frame.scrollIntoView({{block: 'center'}});
        const w = frame.contentWindow, net = w.kgNetwork;
        const data = JSON.parse(w.document.getElementById('graph-data').textContent);
        const box = frame.getBoundingClientRect(), graph = w.document.getElementById('graph').getBoundingClientRect();
        for (const n of data.nodes) {{
            if (n.group !== {kind!r} || n.focus || n.summary) continue;
            const p = net.canvasToDOM(net.getPosition(n.id));
            if (p.x < 5 || p.y < 5 || p.x > graph.width - 5 || p.y > graph.height - 5) continue;
            if (net.getNodeAt(p) !== n.id) continue;
            return [n.id, box.left + graph.left + p.x, box.top + graph.top + p.y];
        }}
        return null; }})()""")
    assert found, f"no {kind} node to click"
    return tuple(found)


def test_search_paper_concept_paper_graph_view_and_pack_with_real_clicks(chromium, served):
    page = chromium.new_page()
    page.goto(served.url)
    # search: one box for papers and concepts
    type_into(page, "#q", "transformers")
    assert click(page, "header form.search button") == "/search?q=transformers"
    assert page.evaluate("document.querySelector('#papers li:last-child a').getAttribute('href')") == "/paper?id=p-viz06"  # its abstract only
    assert page.evaluate("document.querySelector('#concepts a.concept').textContent") == "Transformer"
    # -> the first paper
    paper = click(page, "#papers a.paper")
    assert paper.startswith("/paper?id=")
    wait(page, FRAME_DRAWN.format(frame="graph-frame"))
    wait(page, "document.querySelector('#similar [data-fragment]').dataset.loaded === 'true'")
    assert page.evaluate("document.querySelectorAll('#similar a.paper').length") >= 3
    tip = page.evaluate("document.querySelector('#abstract a.mention.t-Method').title")
    assert "rule: fixture" in tip and "confidence 0.90" in tip and "evidence: " in tip
    # -> a method its abstract names
    concept = click(page, "#abstract a.mention.t-Method")
    assert concept.startswith("/concept?id=")
    assert page.evaluate("document.getElementById('type').textContent") == "Method"
    # -> another paper naming it
    second = click(page, f"#papers a.paper:not([href='{paper}'])")
    assert second.startswith("/paper?id=") and second != paper
    wait(page, FRAME_DRAWN.format(frame="graph-frame"))
    # -> a node of its neighbourhood graph, clicked on the canvas
    node, x, y = clickable_node(page, "Paper")
    assert navigates(page, lambda: press(page, x, y)) == q("/paper", id=node)
    wait(page, FRAME_DRAWN.format(frame="graph-frame"))
    node, x, y = clickable_node(page, "Method")
    assert navigates(page, lambda: press(page, x, y)) == q("/concept", id=node)
    # -> the views: the paper view of a paper, drawn on demand
    assert click(page, "header nav a[href='/views']") == "/views"
    assert page.evaluate("document.getElementById('view-frame') === null")  # drawn on demand only
    page.evaluate("document.getElementById('view-name').value = 'paper'")
    type_into(page, "#view-form input[name=focus]", "p-viz01")
    shown = click(page, "#draw")
    assert shown.startswith("/views?view=paper&focus=p-viz01")
    wait(page, FRAME_DRAWN.format(frame="view-frame"), timeout=120)
    heading = page.evaluate("document.getElementById('view-frame').contentDocument.getElementById('heading').textContent")
    assert heading == "Around the paper Transformers for translation"
    # -> a pack's form, run, and a link of its result
    assert click(page, "header nav a[href='/queries']") == "/queries"
    assert click(page, "a.query[href='/query?name=concepts%2Fprofile']") == "/query?name=concepts%2Fprofile"
    type_into(page, "#query-form input[name=p_concept]", "BERT")
    result = click(page, "#run")
    assert "p_concept=BERT" in result and "run=1" in result
    assert page.evaluate("document.getElementById('row-count').textContent").startswith("1 row")
    assert click(page, "#result a[href^='/paper?id=']").startswith("/paper?id=")
    assert page.errors == []
    assert outside(page, served) == []
    assert len(page.requests) > 20


@pytest.mark.parametrize("path", [q("/paper", id="p-viz09"), q("/paper", id="p-viz10"), q("/concept", id="xss svg"),
                                  q("/search", q="<svg onload"), q("/query", name="papers/find", run="1", p_text="<"),
                                  q("/cypher", text="MATCH (c:Concept) RETURN c.name AS name, c.aliases AS aliases")])
def test_hostile_text_never_runs_in_the_browser(chromium, served, path):
    page = chromium.new_page()
    page.goto(served.url.rstrip("/") + path)
    if path.startswith(("/paper", "/concept")):
        wait(page, FRAME_DRAWN.format(frame="graph-frame"))
        assert page.evaluate("typeof document.getElementById('graph-frame').contentWindow.__xss") == "undefined"
    if path.startswith("/paper"):
        wait(page, "document.querySelector('#similar [data-fragment]').dataset.loaded === 'true'")
    page.settle(0.3)
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.evaluate("document.title").endswith(" · kg") and "pwned" != page.evaluate("document.title")
    assert page.evaluate("document.querySelectorAll('main svg, main img, main script').length") == 0
    assert page.errors == [] and outside(page, served) == []
