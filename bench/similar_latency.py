"""How long ``kg similar`` takes on a large graph with a running store.

    python ../shared/tools/corpus.py 10000 /tmp/c10k.jsonl
    .venv/bin/python bench/similar_latency.py make /tmp/c10k.jsonl /tmp/c10k     # or: kg build /tmp/c10k.jsonl --db /tmp/c10k
    .venv/bin/kg server start --db /tmp/c10k
    .venv/bin/python bench/similar_latency.py time /tmp/c10k [--queries 50]
    .venv/bin/kg server stop --db /tmp/c10k
    .venv/bin/python bench/similar_latency.py dense-scan 10000 100000                 # the dense signal alone

``time`` asks ``kg.similar.similar_papers`` about papers drawn with a fixed seed, in each mode,
and runs the pack query ``papers/similar`` (concepts alone, the ranking before the text index)
for the same papers in the same run as the baseline; it prints the median and 90th percentile.

``make`` loads a generated corpus the way ``kg build`` stores it (``graph_rows`` ->
``load_rows`` -> ``index_papers`` -> ``kg.dense.index_papers``, batches of 200) but extracts each distinct sentence once:
the corpus tool writes every paper from sentences of ~1,700 real abstracts, so the real
pipeline reads 13,500 sentences instead of 10,000 abstracts, and a paper's record is the
union of its sentences' records (offsets shifted). Concepts that need two sentences (an
acronym defined in one, used in another) are missed; everything else is what the build
would store. On a busy 2-core machine this is the difference between half an hour and hours.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from dataclasses import replace
from pathlib import Path

import kg.similar as similar
from kg import dense
from kg.extract import extract, load_pipeline
from kg.graph import graph_rows
from kg.model import Paper
from kg.store import open_store
from kg.store.batches import batched
from kg.store.load import load_rows
from kg.store.schema import create_constraints
from kg.textsim import index_papers
from loaders import load
from queries import get_query

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")  # how the corpus tool cut its sentences
MODES = ("all", "text", "concepts", "dense", "citations")


def sentence_records(papers: list[Paper]) -> dict[str, dict]:
    """The extraction record of every distinct sentence of the papers."""
    sentences = sorted({s for p in papers for s in SENTENCE.split(p.abstract) if s})
    print(f"  extracting {len(sentences):,} distinct sentences")
    fake = (Paper(id=f"s{i}", title=s, abstract=s) for i, s in enumerate(sentences))
    return {s: record for s, record in zip(sentences, extract(fake, load_pipeline()))}


def composed(paper: Paper, cache: dict[str, dict]) -> dict:
    """A paper's record made of its sentences' records, offsets shifted to the paper's text."""
    text, at, concepts, citations = paper.abstract, 0, {}, []
    for sentence in (s for s in SENTENCE.split(text) if s):
        start = text.index(sentence, at)
        at = start + len(sentence)
        record = cache[sentence]
        for concept in record["concepts"]:
            moved = {**concept, "mentions": [[a + start, b + start] for a, b in concept["mentions"]],
                     "evidence": [{**e, "sentence": [e["sentence"][0] + start, e["sentence"][1] + start]}
                                  for e in concept["evidence"]]}
            key = (concept["type"], concept["key"])
            if key not in concepts:
                concepts[key] = moved
                continue
            kept = concepts[key]
            kept["mentions"] += moved["mentions"]
            kept["evidence"] += moved["evidence"]
            kept["aliases"] = sorted(set(kept["aliases"]) | set(moved["aliases"]))
        citations += [{**c, "start": c["start"] + start, "end": c["end"] + start} for c in record.get("citations") or []]
    return {"id": paper.id, "title": paper.title, "title_derived": paper.title_derived, "text": text,
            "venue": paper.venue, "year": paper.year, "authors": paper.authors, "doi": paper.doi,
            "references": paper.references, "source": paper.source, "position": paper.position,
            "concepts": list(concepts.values()), "citations": citations, "urls": [], "acronyms": []}


def make(corpus: Path, db: Path, citations: bool = True) -> None:
    papers = list(load([str(corpus)]))
    if not citations:  # what only --by citations reads; storing it is most of the load's time
        papers = [replace(p, references=[], authors=[]) for p in papers]
    print(f"{corpus}: {len(papers):,} papers")
    start = time.monotonic()
    cache = sentence_records(papers)
    print(f"  extracted in {time.monotonic() - start:.0f} s")
    start, indexing, encoding = time.monotonic(), 0.0, 0.0
    with open_store(db_dir=db, create=True) as store:
        create_constraints(store)
        for n, batch in enumerate(batched(papers, 200), 1):
            records = [composed(p, cache) for p in batch]
            load_rows(store, graph_rows(records))
            began = time.monotonic()
            index_papers(store, [r["id"] for r in records])
            indexing += time.monotonic() - began
            began = time.process_time()
            dense.index_papers(store, [r["id"] for r in records])
            encoding += time.process_time() - began
            if n % 5 == 0:
                print(f"  {n * 200:,} papers stored, {time.monotonic() - start:.0f} s ({indexing:.0f} s indexing text, "
                      f"{encoding:.0f} s CPU encoding dense vectors)", flush=True)
    print(f"  stored in {time.monotonic() - start:.0f} s, of which {indexing:.0f} s indexing text; dense vectors: "
          f"{encoding:.0f} s CPU, {encoding / len(papers) * 1000:.1f} s per 1,000 papers")


def latency(db: Path, count: int, seed: int = 0) -> None:
    """Median and 90th-percentile time of one answer, per mode, against the pack query."""
    with open_store(db_dir=db) as store:
        ids = sorted(r["id"] for r in store.run("MATCH (p:Paper) RETURN p.id AS id"))
        papers = random.Random(seed).sample(ids, min(count, len(ids)))
        pack = get_query("papers/similar")
        runs = {f"kg similar --by {by}": (lambda q, by=by: similar.similar_papers(store, q, top=10, by=by)) for by in MODES}
        abstracts = {r["id"]: r["abstract"] for r in store.run("UNWIND $ids AS id MATCH (p:Paper {id: id}) "
                                                               "RETURN p.id AS id, p.abstract AS abstract", {"ids": papers})}
        runs["kg similar --text (the abstract as a draft)"] = lambda q: similar.similar_papers(store, text=abstracts[q], top=10)
        runs["pack query papers/similar (baseline)"] = lambda q: store.run(pack.cypher, pack.bind({"paper": q, "top": 10}))
        print(f"{db}: {len(ids):,} papers, {len(papers)} queries")
        for name, run in runs.items():
            run(papers[0])  # the first call pays for the store's caches
            times = []
            for q in papers:
                began = time.perf_counter()
                run(q)
                times.append(time.perf_counter() - began)
            times.sort()
            print(f"  {name:<40} median {statistics.median(times) * 1000:7.1f} ms   p90 {times[int(0.9 * len(times))] * 1000:7.1f} ms")


def dense_scan(sizes: list[int], repeats: int = 20, seed: int = 0) -> None:
    """The dense signal's own share of an answer at these graph sizes, on random unit vectors of
    the shipped model's width: reading the cached matrix file, then (per query) the product with
    every paper, the 100 nearest, the floor (the first query pays for mapping the file); against
    numpy's full sort of the same scores."""
    import tempfile

    import numpy as np

    rng = np.random.default_rng(seed)
    for n in sizes:
        vectors = rng.standard_normal((n, 384)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        found = dense.Matrix([f"p{i}" for i in range(n)], vectors)
        with tempfile.TemporaryDirectory() as tmp:
            paths = (Path(tmp) / "dense-1.npy", Path(tmp) / "dense-1.ids")
            dense._save(paths, found)
            began = time.perf_counter()
            found = dense.Matrix(paths[1].read_text(encoding="utf-8").split("\n"), np.load(paths[0], mmap_mode="r"))
            load = time.perf_counter() - began
            times, sorts = [], []
            for q in range(repeats):
                began = time.perf_counter()
                scores = found.scores(vectors[q])
                dense.neighbours(found, scores, similar.CANDIDATES, exclude=f"p{q}")
                dense.floor(found, scores, f"p{q}")
                times.append(time.perf_counter() - began)
                began = time.perf_counter()
                np.argsort(-(vectors @ vectors[q]))
                sorts.append(time.perf_counter() - began)
            print(f"  {n:>7,} papers: cache file read {load * 1000:6.1f} ms once per process; per query "
                  f"{statistics.median(times) * 1000:5.1f} ms (full sort baseline {statistics.median(sorts) * 1000:5.1f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("make", help="store a generated corpus with its text index")
    made.add_argument("corpus", type=Path)
    made.add_argument("db", type=Path)
    made.add_argument("--no-citations", action="store_true", help="leave references and authors out (faster)")
    timed = commands.add_parser("time", help="time kg similar on a graph (start its server first)")
    timed.add_argument("db", type=Path)
    timed.add_argument("--queries", type=int, default=50)
    scan = commands.add_parser("dense-scan", help="time the dense signal's matrix product alone")
    scan.add_argument("sizes", type=int, nargs="+")
    args = parser.parse_args()
    if args.command == "dense-scan":
        dense_scan(args.sizes)
    elif args.command == "make":
        make(args.corpus, args.db, citations=not args.no_citations)
    else:
        latency(args.db, args.queries)


if __name__ == "__main__":
    main()
