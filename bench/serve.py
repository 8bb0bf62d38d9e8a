"""How long ``kg serve``'s pages take on a large graph with a warm store: p50 and p95 per page.

    python ../shared/tools/corpus.py 10000 /tmp/serve10k.jsonl
    .venv/bin/kg build /tmp/serve10k.jsonl --db /tmp/serve10k-db --processes 2
    .venv/bin/python bench/serve.py /tmp/serve10k-db [--samples 40]

The server runs in this process (``graph.serve(block=False)``) and every page is asked for over
real HTTP on 127.0.0.1, after one warm-up round; the neighbourhood graphs as the pages embed them. Papers and concepts are drawn with a fixed
seed (concepts across sizes: the most named ones too); search texts are words of their titles
and names. The baseline, in the same run: the pack queries ``kg query run`` offers for the same
things (``papers/find`` and ``concepts/search`` for a search, ``concepts/profile`` for a
concept, ``papers/concepts`` for a paper), called through the Python API.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import urllib.parse
import urllib.request

import kg
from kg.serve.pages import GRAPH_DEPTH, GRAPH_TOP
from kg.store.reads import browse
from queries import get_query

PAPER_CONCEPTS = get_query("papers/concepts")
PAGES = ("search", "paper", "similar", "graph (paper)", "concept", "graph (concept)", "work", "query form",
         "query run", "cypher", "views", "home")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def sample(graph, n: int, seed: int = 7) -> dict:
    """Papers, concepts (a quarter of them among the 200 most named), cited works, search texts."""
    rng = random.Random(seed)
    title_of = {r["id"]: r["title"] or "" for r in browse.all_papers(graph.store)}
    papers = sorted(title_of)
    concepts = list(browse.all_concepts(graph.store))
    common = sorted(concepts, key=lambda c: (-c["papers"], c["id"]))[:200]
    works = sorted(r["key"] for r in graph.query("citations/unresolved", top=1_000_000))[:2000]
    chosen_concepts = rng.sample(concepts, n - n // 4) + rng.sample(common, n // 4)
    chosen_papers = rng.sample(papers, n)
    titles = {pid: title_of[pid] for pid in chosen_papers}
    words = [w for t in titles.values() for w in t.split() if len(w) > 4 and w.isalpha()]
    texts = [rng.choice(words) if i % 2 else c["name"] for i, c in enumerate(chosen_concepts)]
    return {"papers": chosen_papers, "concepts": [c["id"] for c in chosen_concepts],
            "names": [c["name"] for c in chosen_concepts], "works": rng.sample(works, min(n, len(works))), "texts": texts}


def page_paths(drawn: dict, i: int) -> dict[str, str]:
    """The path of each page for the ``i``-th drawn paper, concept, work and text."""
    paper, concept = drawn["papers"][i], drawn["concepts"][i]
    work = drawn["works"][i % len(drawn["works"])] if drawn["works"] else paper
    quote = urllib.parse.urlencode
    return {
        "search": "/search?" + quote({"q": drawn["texts"][i]}),
        "paper": "/paper?" + quote({"id": paper}),
        "similar": "/similar?" + quote({"id": paper, "fragment": "1"}),
        "graph (paper)": "/graph?" + quote({"kind": "paper", "id": paper, "depth": GRAPH_DEPTH["paper"], "top": GRAPH_TOP}),
        "concept": "/concept?" + quote({"id": concept}),
        "graph (concept)": "/graph?" + quote({"kind": "concept", "id": concept, "depth": GRAPH_DEPTH["concept"],
                                              "top": GRAPH_TOP}),
        "work": "/work?" + quote({"id": work}),
        "query form": "/query?" + quote({"name": "concepts/profile"}),
        "query run": "/query?" + quote({"name": "concepts/profile", "run": "1", "p_concept": drawn["names"][i]}),
        "cypher": "/cypher?" + quote({"text": PAPER_CONCEPTS.cypher,  # a pack's text, as a user would paste it
                                      "params": json.dumps(PAPER_CONCEPTS.bind({"paper": paper}))}),
        "views": "/views?" + quote({"view": "paper", "focus": paper}),
        "home": "/",
    }


def timed_get(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as answer:
        answer.read()
        if answer.status != 200:
            raise RuntimeError(f"{url}: {answer.status}")
    return time.perf_counter() - start


def baseline(graph, drawn: dict, i: int) -> dict[str, float]:
    """The pack queries for the same things, through the API (no HTTP, no page)."""
    runs = {"search": lambda: (graph.query("papers/find", text=drawn["texts"][i]),
                               graph.query("concepts/search", text=drawn["texts"][i])),
            "paper": lambda: graph.query("papers/concepts", paper=drawn["papers"][i]),
            "concept": lambda: graph.query("concepts/profile", concept=drawn["names"][i])}
    took = {}
    for name, run in runs.items():
        start = time.perf_counter()
        run()
        took[name] = time.perf_counter() - start
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="the built store's folder")
    parser.add_argument("--samples", type=int, default=40, help="pages of each kind timed")
    args = parser.parse_args()
    with kg.open(db=args.db) as graph:
        stats = graph.stats()
        print(f"{stats['nodes'].get('Paper', 0):,} papers, {stats['nodes'].get('Concept', 0):,} concepts")
        drawn = sample(graph, args.samples)
        with graph.serve(port=0, block=False) as server:
            base = server.url.rstrip("/")
            for path in page_paths(drawn, 0).values():  # warm-up: the catalogue, caches, the JIT
                timed_get(base + path)
            times: dict[str, list[float]] = {name: [] for name in PAGES}
            packs: dict[str, list[float]] = {}
            for i in range(args.samples):
                for name, path in page_paths(drawn, i).items():
                    times[name].append(timed_get(base + path))
                for name, took in baseline(graph, drawn, i).items():
                    packs.setdefault(name, []).append(took)
    print(f"{'page':<18} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}   baseline (pack queries, API) p50 / p95 ms")
    for name in PAGES:
        values = times[name]
        line = (f"{name:<18} {statistics.median(values) * 1000:8.0f} {percentile(values, 0.95) * 1000:8.0f} "
                f"{max(values) * 1000:8.0f}")
        if name in packs:
            line += f"   {statistics.median(packs[name]) * 1000:.0f} / {percentile(packs[name], 0.95) * 1000:.0f}"
        print(line)


if __name__ == "__main__":
    main()
