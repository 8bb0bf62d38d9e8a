"""Benchmark: time until a view is drawn and still in headless Chromium, ours vs pyvis's defaults.

    .venv/bin/python bench/viz_bench.py                  # 500, 2,000 and 5,000 nodes
    .venv/bin/python bench/viz_bench.py --sizes 500 --timeout 60

For each size, one synthetic papers-and-concepts graph (``tests/helpers/sample.py``) is
written twice: by ``visuals.render_html`` (layout in Python, physics off past
300 nodes) and by pyvis 0.3.2 with its default options (physics on,
stabilisation, curved edges; ``cdn_resources="in_line"``, the only mode that
draws offline). Each page is opened in a fresh headless Chromium with the
network off. "Drawn" is the first frame drawn after the physics stabilisation
(or the first frame when physics is off), timed from navigation start with
``performance.now()`` by a hook injected before the page's scripts. A page not
drawn within ``--timeout`` seconds is reported as "> T s". Also reported: the
Python time to write each page, the median time of one full redraw after it is
drawn (what a pan or zoom costs), and whether the nodes still move a second later.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the Chromium driver and synthetic graphs

from helpers.browser import BrowserError, Chromium  # noqa: E402
from helpers.sample import synthetic_graph  # noqa: E402
from pyvis.network import Network  # noqa: E402

from visuals import render_html  # noqa: E402

# Wraps vis.Network as the page creates it, to time its first still frame. vis-network's bundle assigns
# window.vis first and fills it in later, so the wrapping happens when the page reads vis.Network.
HOOK = """
(() => {
  let real;
  window.__bench = {drawnAt: null, stableAt: null};
  Object.defineProperty(window, "vis", {configurable: true,
    set(v) { real = v; },
    get() {
      if (real && real.Network && !real.Network.__wrapped) {
        const Original = real.Network;
        const Wrapped = function (container, data, options) {
          const net = new Original(container, data, options);
          window.__benchNet = net;
          const physics = net.physics.options;
          const waits = physics.enabled && physics.stabilization && physics.stabilization.enabled;
          net.on("stabilizationIterationsDone", () => { window.__bench.stableAt = performance.now(); });
          net.on("afterDrawing", () => {
            if (window.__bench.drawnAt === null && (!waits || window.__bench.stableAt !== null)) {
              window.__bench.drawnAt = performance.now();
            }
          });
          return net;
        };
        Wrapped.__wrapped = true;
        real.Network = Wrapped;
      }
      return real;
    }});
})();
"""
REDRAW = """(() => {
  const net = window.__benchNet, times = [];
  for (let i = 0; i < 5; i += 1) { const t = performance.now(); net.renderer._redraw(); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  return times[2];
})()"""
POSITIONS = "JSON.stringify(window.__benchNet.getPositions(Object.keys(window.__benchNet.body.nodes).slice(0, 50)))"


def write_ours(graph, path: Path) -> float:
    start = time.perf_counter()
    path.write_text(render_html(graph, f"{graph.number_of_nodes():,} nodes"), encoding="utf-8")
    return time.perf_counter() - start


def write_pyvis_default(graph, path: Path) -> float:
    """pyvis with its defaults, through its own API (add_node / add_edge)."""
    start = time.perf_counter()
    net = Network(cdn_resources="in_line")
    for node, data in graph.nodes(data=True):
        net.add_node(node, label=data["label"], title=data["title"])
    for u, v in graph.edges():
        net.add_edge(u, v)
    path.write_text(net.generate_html(), encoding="utf-8")  # pyvis's write_html uses the locale's encoding
    return time.perf_counter() - start


def time_in_browser(path: Path, timeout: float) -> dict:
    """Seconds from navigation to the first still frame; redraw ms; whether nodes still move."""
    with Chromium() as browser:
        page = browser.new_page()
        page.add_init_script(HOOK)
        page.goto(path.resolve().as_uri(), timeout=timeout)
        try:
            drawn = page.wait_for("window.__bench.drawnAt", timeout=timeout, interval=0.1)
        except BrowserError:
            return {"drawn": None}
        redraw = page.evaluate(REDRAW)
        before = page.evaluate(POSITIONS)
        time.sleep(1)
        moving = page.evaluate(POSITIONS) != before
        return {"drawn": drawn / 1000, "redraw_ms": redraw, "moving": moving, "errors": len(page.errors)}


def seconds(result: dict, timeout: float) -> str:
    return f"> {timeout:.0f} s" if result["drawn"] is None else f"{result['drawn']:.2f} s"


def milliseconds(result: dict) -> str:
    return f"{result['redraw_ms']:.0f}" if "redraw_ms" in result else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="500,2000,5000", help="node counts, comma-separated")
    parser.add_argument("--timeout", type=float, default=240, help="seconds to wait for a page to be drawn")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="kg-viz-bench-"))
    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; pages in {folder}", flush=True)
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        graph = synthetic_graph(n)
        ours_path, pyvis_path = folder / f"ours-{n}.html", folder / f"pyvis-{n}.html"
        ours_py, pyvis_py = write_ours(graph, ours_path), write_pyvis_default(graph, pyvis_path)
        ours, pyvis_ = time_in_browser(ours_path, args.timeout), time_in_browser(pyvis_path, args.timeout)
        if ours["drawn"] is None:
            ratio = "n/a"
        elif pyvis_["drawn"] is None:
            ratio = f"> {args.timeout / ours['drawn']:.0f}x"
        else:
            ratio = f"{pyvis_['drawn'] / ours['drawn']:.0f}x"
        row = (f"| {n:,} | {graph.number_of_edges():,} | {seconds(ours, args.timeout)} | {seconds(pyvis_, args.timeout)} | {ratio} "
               f"| {milliseconds(ours)} / {milliseconds(pyvis_)} "
               f"| {ours.get('moving', '-')} / {pyvis_.get('moving', '-')} | {ours_py:.1f} / {pyvis_py:.1f} |")
        rows.append(row)
        print(row, flush=True)
    print("\n| nodes | edges | ours: drawn | pyvis defaults: drawn | speed-up | redraw ms (ours / pyvis) "
          "| still moving after 1 s | Python s to write (ours / pyvis) |")
    print("|---:|---:|---:|---:|---:|---:|---|---:|")
    print("\n".join(rows))
    print(f"\n# load average {os.getloadavg()[0]:.1f} at end")

if __name__ == "__main__":
    main()
