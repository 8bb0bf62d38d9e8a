"""How long ``kg similar`` takes on a large graph with a running store.

    python ../shared/tools/corpus.py 10000 /tmp/c10k.jsonl
    .venv/bin/python bench/similar_latency.py make /tmp/c10k.jsonl /tmp/c10k     # or: kg build /tmp/c10k.jsonl --db /tmp/c10k
    .venv/bin/kg server start --db /tmp/c10k
    .venv/bin/python bench/similar_latency.py time /tmp/c10k [--queries 50] [--cli 20]
    .venv/bin/kg server stop --db /tmp/c10k
    .venv/bin/python bench/similar_latency.py dense-scan 10000 100000                 # the dense signal alone
    .venv/bin/python bench/similar_latency.py stand-in /tmp/c10k                      # timing only: see below

``time`` asks ``kg.similar.similar_papers`` about papers drawn with a fixed seed, in each mode,
and runs the pack query ``papers/similar`` (concepts alone, the ranking before the text index)
for the same papers in the same run as the baseline; it prints the median and 95th percentile,
and the share of the default answer each part takes (cProfile over the same queries). ``--cli N``
also runs ``kg similar ID --db DB`` as a user does, a new process each time, for N of the papers
(and ``kg query run papers/find`` as the baseline of a process that starts, opens the store and
asks one query).

``make`` stores a generated corpus as ``kg build`` does (``kg.build.load_records``: batches, text
index, vectors, the vocabulary pass) but extracts each distinct sentence once:
the corpus tool writes every paper from sentences of ~1,700 real abstracts, so the real
pipeline reads 13,500 sentences instead of 10,000 abstracts, and a paper's record is the
union of its sentences' records (offsets shifted). Concepts that need two sentences (an
acronym defined in one, used in another) are missed; everything else is what the build
would store. On a busy 2-core machine this is the difference between half an hour and hours.
``make --stand-in`` encodes no paper and gives each stand-in vectors (below): 100,000 papers in
about 47 minutes on an idle machine.

``stand-in`` gives every paper of a graph built without them (or without their sentences)
vectors of the shipped model's shape: a random unit vector for the paper, one for each sentence
of its abstract the encoder would read (the real tokenizer decides which), stored as
``kg.dense.index_papers`` stores them. For timing only, when encoding every paper does not fit
the time at hand (10,000 papers cost about 13 CPU minutes, hours on a loaded machine): an
answer's time does not depend on the vectors' values, its ranking does.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import kg.build
import kg.similar as similar
from kg import dense
from kg.extract import extract, load_pipeline
from kg.model import Paper
from kg.store import open_store
from kg.store.batches import batched
from kg.store.reads import browse
from kg.store.reads import text as text_reads
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


def make(corpus: Path, db: Path, citations: bool = True, stand_ins: bool = False) -> None:
    """Store a generated corpus through the build's own path (``kg.build.load_records``: batches,
    text index, vectors, vocabulary pass, kept counts), each distinct sentence extracted once;
    with ``stand_ins`` no paper is encoded and ``stand_in`` gives them random vectors after."""
    papers = list(load([str(corpus)]))
    if not citations:  # what only --by citations reads; storing it is most of the load's time
        papers = [replace(p, references=[], authors=[]) for p in papers]
    print(f"{corpus}: {len(papers):,} papers")
    start = time.monotonic()
    cache = sentence_records(papers)
    print(f"  extracted in {time.monotonic() - start:.0f} s")
    start, stored = time.monotonic(), [0]

    def progress(record):
        stored[0] += 1
        if stored[0] % 5000 == 0:
            print(f"  {stored[0]:,} papers stored, {time.monotonic() - start:.0f} s", flush=True)

    encode = kg.build.dense.index_papers
    if stand_ins:  # the build's encoding left out: an answer's time does not depend on the vectors' values
        kg.build.dense.index_papers = lambda *args, **kwargs: 0
    try:
        with open_store(db_dir=db, create=True) as store:
            _, vocabulary = kg.build.load_records(store, (composed(p, cache) for p in papers), on_paper=progress)
    finally:
        kg.build.dense.index_papers = encode
    print(f"  stored in {time.monotonic() - start:.0f} s, of which the vocabulary pass {vocabulary.seconds:.0f} s")
    if stand_ins:
        stand_in(db)


def latency(db: Path, count: int, cli: int = 0, seed: int = 0) -> None:
    """Median and 95th-percentile time of one answer, per mode, against the pack query; the
    parts of the default answer; and, with ``cli``, the command's time end to end."""
    with open_store(db_dir=db) as store:
        ids = sorted(r["id"] for r in browse.all_papers(store))
        papers = random.Random(seed).sample(ids, min(count, len(ids)))
        pack = get_query("papers/similar")
        runs = {f"kg similar --by {by}": (lambda q, by=by: similar.similar_papers(store, q, top=10, by=by)) for by in MODES}
        abstracts = {r["id"]: r["abstract"] for r in text_reads.texts(store, papers)}
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
            print(f"  {name:<44} {_spread(times)}")
        parts(store, papers)
    if cli:
        kg = [str(Path(sys.executable).with_name("kg"))]  # the command the venv installs
        for name, args in (("kg similar ID (default)", lambda q: ["similar", q]),
                           ("kg query run papers/find (baseline)", lambda q: ["query", "run", "papers/find", "-p", "text=model"])):
            times = []
            for q in papers[:cli]:
                began = time.perf_counter()
                subprocess.run([*kg, *args(q), "--db", str(db)], check=True, capture_output=True)
                times.append(time.perf_counter() - began)
            print(f"  {name + ', a new process each':<44} {_spread(times)}")


def parts(store, papers: list[str]) -> None:
    """Where the default answer's time goes: the cumulative time of its main steps (cProfile)."""
    profile = cProfile.Profile()
    profile.enable()
    for q in papers:
        similar.similar_papers(store, q, top=10)
    profile.disable()
    stats = pstats.Stats(profile).stats
    steps = {("similar.py", "paper_query"): "the query's concepts and words",
             ("similar.py", "concept_neighbours"): "candidates by concepts",
             ("textsim.py", "text_neighbours"): "candidates and scores by text",
             ("dense.py", "matrix"): "dense: the matrix (cached)",
             ("dense.py", "scores"): "dense: product with every paper",
             ("dense.py", "neighbours"): "dense: nearest and candidates' cosines",
             ("dense.py", "floor"): "dense: the floor",
             ("similar.py", "shared_concepts"): "shared concepts of the candidates",
             ("similar.py", "add_sentences"): "evidence sentences (first ten)"}
    total = sum(v[3] for k, v in stats.items() if k[2] == "similar_papers")
    print(f"  parts of the default answer ({len(papers)} queries, {total / len(papers) * 1000:.0f} ms each under the profiler):")
    for (module, function), what in steps.items():
        spent = sum(v[3] for k, v in stats.items() if k[2] == function and k[0].endswith(f"kg/{module}"))
        print(f"    {what:<42} {spent / len(papers) * 1000:7.1f} ms  {spent / total:5.0%}")


def _spread(times: list[float]) -> str:
    times = sorted(times)
    return f"median {statistics.median(times) * 1000:7.1f} ms   p95 {times[min(len(times) - 1, int(0.95 * len(times)))] * 1000:7.1f} ms"


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


def stand_in(db: Path, seed: int = 0) -> None:
    """Random vectors of the right shape for every paper and its read sentences (timing only)."""
    import uuid

    import numpy as np

    from kg.store.reads import dense as dense_reads

    model, rng = dense.default_model(), np.random.default_rng(seed)
    with open_store(db_dir=db) as store:
        ids = sorted(r["id"] for r in browse.all_papers(store))
        for batch in batched(ids, dense.PAPERS_PER_WRITE):
            rows = []
            for row in dense_reads.stored_texts(store, batch):
                text, shift = dense.encoder_input(row["title"], row["abstract"], row["title_derived"])
                read_to = max((end for _, end in model.tokenizer.encode(text).offsets), default=0)
                spans = [(a, b) for a, b in dense.sentence_spans(row["abstract"]) if b + shift <= read_to]
                vectors = rng.standard_normal((1 + len(spans), model.dims)).astype(np.float32)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
                rows.append({"paper": row["id"], "dense": np.round(vectors[0].astype(np.float64), dense.DIGITS).tolist(),
                             "sentences": [at for span in spans for at in span] or None, "sentence_dense": dense.pack(vectors[1:])})
            dense_reads.write_vectors(store, rows, dense.PAPERS_PER_WRITE)
        dense_reads.note_write(store, uuid.uuid4().hex, "random stand-ins (timing only)", model.dims)
    print(f"{db}: stand-in vectors for {len(ids):,} papers")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("make", help="store a generated corpus with its text index")
    made.add_argument("corpus", type=Path)
    made.add_argument("db", type=Path)
    made.add_argument("--no-citations", action="store_true", help="leave references and authors out (faster)")
    made.add_argument("--stand-in", action="store_true", help="encode no paper: random vectors (timing only, as stand-in)")
    timed = commands.add_parser("time", help="time kg similar on a graph (start its server first)")
    timed.add_argument("db", type=Path)
    timed.add_argument("--queries", type=int, default=50)
    timed.add_argument("--cli", type=int, default=0, help="also time the kg similar command, a new process each, for this many papers")
    scan = commands.add_parser("dense-scan", help="time the dense signal's matrix product alone")
    scan.add_argument("sizes", type=int, nargs="+")
    standin = commands.add_parser("stand-in", help="random vectors of the right shape for every paper (timing only)")
    standin.add_argument("db", type=Path)
    args = parser.parse_args()
    if args.command == "dense-scan":
        dense_scan(args.sizes)
    elif args.command == "stand-in":
        stand_in(args.db)
    elif args.command == "make":
        make(args.corpus, args.db, citations=not args.no_citations, stand_ins=args.stand_in)
    else:
        latency(args.db, args.queries, args.cli)


if __name__ == "__main__":
    main()
