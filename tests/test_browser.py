"""The views in headless Chromium with the network off: they load, draw, stay inert and respond.

Needs Debian's ``chromium`` (CI installs it in .ci/run). Without it these tests
fail with a message saying so; they never skip.
"""

from __future__ import annotations

import functools
import io
import re

import pytest
import real_shaped
from helpers.browser import Chromium
from helpers.sample import synthetic_graph
from PIL import Image
from test_visuals import XSS_METHOD, load_viz_graph, page_json

from visuals import render_html
from visuals.notebook import pyvis_network
from visuals.render import TYPE_STYLE
from visuals.views import VIEWS, build_view

DRAWN = "document.body.dataset.drawn === 'true'"
FOCUS = {"paper": "p-viz09", "concept": "xss svg", "citations": None}


@pytest.fixture(scope="module")
def chromium():
    with Chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def pages(session_store, module_graphs, request, tmp_path_factory) -> dict:
    """One file per view of the fixture graph (whose papers 9 and 10 carry hostile text)."""
    module_graphs.keep(request, load_viz_graph)
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


@functools.lru_cache(maxsize=4)
def decoded(png: bytes, mode: str) -> Image.Image:
    """A screenshot decoded once for the questions asked of it (a label box each)."""
    return Image.open(io.BytesIO(png)).convert(mode)


def colour_pixels(png: bytes, colour: str, top: int, tolerance: int = 8, box: tuple | None = None) -> int:
    """How many pixels below ``top`` (or inside ``box``) are within ``tolerance`` of ``colour`` (#rrggbb)."""
    want = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    image = decoded(png, "RGB")
    box = image.crop(box or (0, top, image.width, image.height))
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


# --- on a collection shaped like real ones: labels, legends, focus (tests/real_shaped.py) ---

@pytest.fixture(scope="module")
def real_pages(session_store, module_graphs, request, tmp_path_factory) -> dict:
    """Views of the generated real-shaped collection: 120 papers citing 900 works (with authors,
    years and titles), concepts in four topics; the citations view has 300 nodes."""
    made = module_graphs.keep(request, real_shaped.load)
    folder = tmp_path_factory.mktemp("real")
    focus = max(made, key=lambda r: (len(r["references"]), r["id"]))["id"]
    views = {"citations": build_view(session_store, "citations"), "overview": build_view(session_store, "overview"),
             "cooccurrence": build_view(session_store, "cooccurrence", min_papers=1),
             "paper": build_view(session_store, "paper", focus=focus),
             "concept": build_view(session_store, "concept", focus="BERT")}
    return {name: (view, view.write(folder / f"{name}.html")) for name, view in views.items()}


def boxes_overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def dark_pixels(png: bytes, box: dict, top: float) -> int:
    image = decoded(png, "L")
    crop = image.crop((int(box["x"]), int(box["y"] + top), int(box["x"] + box["w"]), int(box["y"] + box["h"] + top)))
    return sum(crop.histogram()[:90])


def graph_top(page) -> float:
    return page.evaluate("document.getElementById('graph').getBoundingClientRect().top")


@pytest.mark.parametrize("name", ["citations", "overview", "cooccurrence"])
def test_first_zoom_labels_only_the_largest_nodes_and_no_two_labels_overlap(chromium, real_pages, name):
    view, path = real_pages[name]
    page = open_drawn(chromium, path)
    labels = page.evaluate("window.kgLabels")
    data = page_json(path.read_text(encoding="utf-8"))
    assert len(data["nodes"]) >= 120
    assert 8 <= len(labels) < len(data["nodes"])   # some labels, never all of a large view
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not boxes_overlap(a, b), (a, b)
    size = {n["id"]: n["size"] for n in data["nodes"]}
    biggest = max(data["nodes"], key=lambda n: (n["size"], n["id"]))["id"]
    assert biggest in {box["id"] for box in labels}
    # the labels are the nodes' own, and they are really drawn: dark text inside each box
    label_of = {n["id"]: n["label"] for n in data["nodes"]}
    assert all(box["text"] == label_of[box["id"]] for box in labels)
    png, top = page.screenshot(), graph_top(page)
    assert all(dark_pixels(png, box, top) > 10 for box in labels)
    # a node without a label is smaller than the median labelled one: labels go by importance
    unlabelled = [size[n] for n in size if n not in {b["id"] for b in labels}]
    labelled = sorted(size[b["id"]] for b in labels)
    assert sum(unlabelled) / len(unlabelled) < labelled[len(labelled) // 2]
    assert page.errors == []


def test_zoom_and_hover_show_more_labels(chromium, real_pages):
    view, path = real_pages["citations"]
    page = open_drawn(chromium, path)
    before = {box["id"] for box in page.evaluate("window.kgLabels")}
    data = page_json(path.read_text(encoding="utf-8"))
    quiet = next(n["id"] for n in sorted(data["nodes"], key=lambda n: (n["size"], n["id"])) if n["id"] not in before)
    tip = hover(page, quiet)
    assert tip["text"]
    page.wait_for("window.kgHoverLabel !== null", timeout=5)
    hovered = page.evaluate("window.kgHoverLabel")
    assert hovered["id"] == quiet and dark_pixels(page.screenshot(), hovered, graph_top(page)) > 10
    # zooming in with the wheel on the middle of the graph brings out labels that did not fit
    box = page.evaluate("(() => { const b = document.getElementById('graph').getBoundingClientRect();"
                        " return [b.left + b.width / 2, b.top + b.height / 2]; })()")
    for _ in range(4):
        page.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": box[0], "y": box[1], "deltaX": 0, "deltaY": -300})
    page.settle(0.5)
    after = page.evaluate("window.kgLabels")
    assert {b["id"] for b in after} - before
    for i, a in enumerate(after):
        assert not any(boxes_overlap(a, b) for b in after[i + 1:])
    assert page.errors == []


@pytest.mark.parametrize("name", ["paper", "concept"])
def test_focus_is_marked_centred_and_labelled_in_full(chromium, real_pages, name):
    view, path = real_pages[name]
    page = open_drawn(chromium, path)
    focus = next(n for n in page_json(path.read_text(encoding="utf-8"))["nodes"] if n.get("focus"))
    x, y, w, h = page.evaluate(f"""(() => {{
        const p = kgNetwork.canvasToDOM(kgNetwork.getPosition({focus['id']!r}));
        const g = document.getElementById('graph');
        return [p.x, p.y, g.clientWidth, g.clientHeight]; }})()""")
    assert abs(x - w / 2) < 3 and abs(y - h / 2) < 3
    labels = page.evaluate("window.kgLabels")
    assert labels[0]["id"] == focus["id"] and labels[0]["bold"] is True
    png, top = page.screenshot(), graph_top(page)
    assert colour_pixels(png, "#d62728", 0, box=(int(x) - 60, int(y + top) - 60, int(x) + 60, int(y + top) + 60)) > 40
    heading = page.evaluate("document.getElementById('heading').textContent")
    assert heading.endswith(view.graph.nodes[focus["id"]]["name"])   # the whole title or name, never cut
    assert page.errors == []


def test_paper_view_summarises_its_other_references(chromium, real_pages):
    view, path = real_pages["paper"]
    page = open_drawn(chromium, path)
    summary = next(box for box in page.evaluate("window.kgLabels") if box["id"] == "+references")
    assert summary["text"] == view.graph.nodes["+references"]["label"] and summary["text"].startswith("+ ")
    assert summary["text"] in page.evaluate("document.getElementById('left-out').textContent")
    refs = [n for n, d in view.graph.nodes(data=True) if d["type"] == "Reference" and not d.get("summary")]
    drawn = {box["id"]: box["text"] for box in page.evaluate("window.kgLabels")}
    assert refs and all(not view.graph.nodes[r]["label"].startswith("s2:") for r in refs)  # author, year: title
    assert any(re.match(r"^\S+ (19|20)\d\d: \S", drawn.get(r, "")) for r in refs)  # "Okafor 1999: On vision…"
    assert page.errors == []


def test_community_colours_have_one_legend_and_shapes_keep_the_type(chromium, real_pages):
    view, path = real_pages["cooccurrence"]
    page = open_drawn(chromium, path)
    swatches = page.evaluate("""[...document.querySelectorAll('#communities .community')].map(e => {
        const s = e.querySelector('.swatch').getBoundingClientRect();
        return {colour: getComputedStyle(e.querySelector('.swatch')).backgroundColor, w: s.width, h: s.height,
                text: e.textContent.trim()}; })""")
    communities = {d["community"] for _, d in view.graph.nodes(data=True)}
    assert len(swatches) == min(len(communities), 12) >= 2
    assert all(s["w"] >= 10 and s["h"] >= 10 for s in swatches)  # visible swatches
    data = page_json(path.read_text(encoding="utf-8"))
    node_colours = {n["color"] for n in data["nodes"]}
    rgb = {"rgb({}, {}, {})".format(*(int(c[i:i + 2], 16) for i in (1, 3, 5))) for c in node_colours}
    assert {s["colour"] for s in swatches} <= rgb
    png, top = page.screenshot(), graph_top(page)
    for colour in list(node_colours)[:3]:
        assert colour_pixels(png, colour, int(top)) > 20   # the legend's colours are the picture's
    for s in swatches:  # names are whole words: a cut name ends in an ellipsis after a whole word
        name = s["text"].rsplit(" (", 1)[0]
        labels = {d["label"] for _, d in view.graph.nodes(data=True)}
        parts = name.rstrip("…").split(", ")
        assert all(p in labels for p in parts[:-1]) and any(label.startswith(parts[-1]) for label in labels), name
        if name.endswith("…"):
            assert any(label.startswith(parts[-1] + " ") for label in labels), name
    glyphs = page.evaluate("[...document.querySelectorAll('#legend .glyph')].map(g => getComputedStyle(g).color)")
    assert set(glyphs) == {"rgb(85, 85, 85)"}   # shape = type, in one neutral colour
    assert "shape = type" in page.evaluate("document.getElementById('legend').textContent")
    assert page.errors == []


def test_the_pyvis_network_of_a_view_keeps_hostile_text_as_text(chromium, session_store, tmp_path):
    """pyvis's own template, in both its tooltip modes: text (vis-network) and, once a title holds
    "href", its HTML popup. Neither runs the hostile text of the fixture's papers 9 and 10."""
    load_viz_graph(session_store)
    view = build_view(session_store, "concept", focus="xss svg", depth=2)
    for mode, extra in (("text", None), ("popup", "see href=javascript:window.__xss='link'")):
        graph = view.graph.copy()
        if extra:
            graph.nodes["p-viz09"]["title"] += "\n" + extra
        net = pyvis_network(graph)
        assert net.options.physics.enabled is False and all(n["physics"] is False for n in net.nodes)
        net.show_buttons(filter_=["physics"])
        path = tmp_path / f"pyvis-{mode}.html"
        path.write_text(net.generate_html(), encoding="utf-8")
        page = chromium.open(path)
        page.wait_for("typeof network !== 'undefined' && network.body.nodeIndices.length > 0", timeout=60)
        page.settle(0.5)
        where = page.evaluate("""(() => { const p = network.canvasToDOM(network.getPosition('p-viz09'));
            const box = document.getElementById('mynetwork').getBoundingClientRect();
            return [p.x + box.left, p.y + box.top]; })()""")
        page.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": where[0] + 40, "y": where[1] + 40})
        page.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": where[0], "y": where[1]})
        tooltip = "div.vis-tooltip" if mode == "text" else "div.popup"
        text = page.wait_for(f"(() => {{ const t = document.querySelector({tooltip!r});"
                             " return t && t.innerText.includes('window.__xss') && t.innerText; })()", timeout=10)
        assert "<script>window.__xss='title'" in text or "&lt;script&gt;" in text
        assert page.evaluate(f"document.querySelector({tooltip!r}).querySelectorAll('script, img, svg, a').length") == 0
        assert page.evaluate("typeof window.__xss") == "undefined", mode
