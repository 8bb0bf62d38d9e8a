"""The views in headless Chromium with the network off: they load, draw, stay inert and respond.

Needs Debian's ``chromium`` (CI installs it in .ci/run). Without it these tests
fail with a message saying so; they never skip.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image
from test_visuals import XSS_METHOD, load_viz_graph, page_json

from visuals import render_html
from visuals.browser import Chromium
from visuals.render import TYPE_STYLE
from visuals.sample import synthetic_graph
from visuals.views import VIEWS, build_view

DRAWN = "document.body.dataset.drawn === 'true'"
FOCUS = {"paper": "p-viz09", "concept": "xss svg", "citations": None}


@pytest.fixture(scope="module")
def chromium():
    with Chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def pages(session_store, tmp_path_factory) -> dict:
    """One file per view of the fixture graph (whose papers 9 and 10 carry hostile text)."""
    load_viz_graph(session_store)
    folder = tmp_path_factory.mktemp("views")
    return {name: build_view(session_store, name, focus=FOCUS.get(name), depth=2).write(folder / f"{name}.html")
            for name in VIEWS}


def open_drawn(chromium, path):
    page = chromium.open(path)
    page.wait_for(DRAWN, timeout=60)
    page.settle(0.3)
    return page


@pytest.mark.parametrize("name", VIEWS)
def test_every_view_draws_offline_with_no_console_error_and_no_request(chromium, pages, name):
    page = open_drawn(chromium, pages[name])
    assert page.errors == []
    assert page.requests == [pages[name].resolve().as_uri()]  # the file itself, nothing else
    shown = page.evaluate("document.getElementById('status').textContent")
    assert shown.endswith(" nodes shown") and not shown.startswith("0 of")
    assert page.evaluate("kgNetwork.physics.physicsEnabled") is False  # settled and still


def test_the_network_really_is_off(chromium, tmp_path):
    probe = tmp_path / "probe.html"
    probe.write_text("<!DOCTYPE html><title>probe</title><img src='http://example.invalid/x.png'>", encoding="utf-8")
    page = chromium.open(probe)
    page.settle(0.5)
    assert "http://example.invalid/x.png" in page.requests
    assert any("ERR_INTERNET_DISCONNECTED" in e for e in page.errors)  # so a silent page above means no fetch


def test_hostile_text_shows_as_text_and_never_runs(chromium, pages):
    for name in ("overview", "paper", "concept", "similarity"):
        page = open_drawn(chromium, pages[name])
        assert page.evaluate("typeof window.__xss") == "undefined", name
        assert page.evaluate("document.title") == page.evaluate("document.getElementById('heading').textContent")
        assert page.evaluate("document.querySelectorAll('#graph img, #graph svg, #graph iframe, header *[onload]').length") == 0
        assert page.errors == [], name

    page = open_drawn(chromium, pages["concept"])
    assert page.evaluate("document.getElementById('heading').textContent") == f"Around the concept {XSS_METHOD}"
    # hover the hostile paper: its tooltip shows the markup as characters, creates no element, runs nothing
    tip = hover(page, "p-viz09")
    assert "<script>window.__xss='title'" in tip["text"] and "<img src=x onerror=" in tip["text"]
    assert set(tip["elements"]) <= {"BR"}  # innerText turns line breaks into <br>, and nothing else is created
    tip = hover(page, "xss svg")
    assert tip["text"].startswith(f"{XSS_METHOD} (Method)") and "aliases: javascript:window.__xss='alias'" in tip["text"]
    assert page.evaluate("typeof window.__xss") == "undefined"
    # the search finds the hostile text as text
    data = page_json(pages["concept"].read_text(encoding="utf-8"))
    expected = sum(1 for n in data["nodes"] if "<svg onload" in (n["label"] + "\n" + n["title"]).lower())
    assert expected >= 2
    type_into(page, "#search", "<svg onload")
    assert page.wait_for(f"/; {expected} matches$/.test(document.getElementById('status').textContent)", timeout=5)
    assert sorted(page.evaluate("kgNetwork.getSelectedNodes()")) == sorted(
        n["id"] for n in data["nodes"] if "<svg onload" in (n["label"] + "\n" + n["title"]).lower())
    assert page.evaluate("typeof window.__xss") == "undefined" and page.errors == []


def hover(page, node_id: str) -> dict:
    """Move the real mouse over a node and read the tooltip vis-network shows."""
    x, y = page.evaluate(f"""(() => {{
        const p = kgNetwork.canvasToDOM(kgNetwork.getPosition({node_id!r}));
        const box = document.getElementById('graph').getBoundingClientRect();
        return [p.x + box.left, p.y + box.top]; }})()""")
    page.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x + 40, "y": y + 40})
    page.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    page.wait_for("(() => { const t = document.querySelector('div.vis-tooltip');"
                  " return t && t.style.visibility !== 'hidden' && t.innerText.length > 0; })()", timeout=5)
    return page.evaluate("(() => { const t = document.querySelector('div.vis-tooltip');"
                         " return {text: t.innerText, elements: [...t.querySelectorAll('*')].map(e => e.tagName)}; })()")


def type_into(page, selector: str, text: str) -> None:
    page.evaluate(f"document.querySelector({selector!r}).focus()")
    page.call("Input.insertText", {"text": text})


def colour_pixels(png: bytes, colour: str, top: int, tolerance: int = 8) -> int:
    """How many pixels below ``top`` are within ``tolerance`` of ``colour`` (#rrggbb)."""
    want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    box = image.crop((0, top, image.width, image.height))
    return sum(n for n, rgb in box.getcolors(box.width * box.height)
               if all(abs(a - b) <= tolerance for a, b in zip(rgb, want)))


def test_screenshot_pixels_show_the_graph_and_the_type_filter(chromium, pages):
    page = open_drawn(chromium, pages["overview"])
    top = page.evaluate("Math.ceil(document.getElementById('graph').getBoundingClientRect().top)")
    before = page.screenshot()
    paper, method = TYPE_STYLE["Paper"][0], TYPE_STYLE["Method"][0]
    assert colour_pixels(before, paper, top) > 2000 and colour_pixels(before, method, top) > 500
    blank = Image.open(io.BytesIO(before)).convert("L").crop((0, top, 1280, 800))
    assert blank.getextrema()[0] < 80  # dark label text is drawn, not only shapes

    page.evaluate("document.querySelector('.type-filter[value=Paper]').click()")
    page.wait_for("/^\\d+ of \\d+ nodes shown/.test(document.getElementById('status').textContent)")
    page.settle(0.4)
    after = page.screenshot()
    assert colour_pixels(after, paper, top) < colour_pixels(before, paper, top) / 20  # papers gone from the canvas
    assert colour_pixels(after, method, top) > 500                                  # methods still drawn
    assert page.errors == []


def test_a_large_view_draws_without_physics(chromium, tmp_path):
    path = tmp_path / "large.html"
    path.write_text(render_html(synthetic_graph(2000), "2,000 nodes"), encoding="utf-8")
    page = open_drawn(chromium, path)
    assert page.evaluate("kgNetwork.physics.physicsEnabled") is False
    assert page.evaluate("kgNetwork.body.nodeIndices.length") == 2000
    assert colour_pixels(page.screenshot(), TYPE_STYLE["Paper"][0], 120) > 200
    assert page.errors == []
