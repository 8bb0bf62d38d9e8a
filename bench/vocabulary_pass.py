"""How the vocabulary pass scales: its matching in memory, and the whole pass in the store.

    .venv/bin/python bench/vocabulary_pass.py                 # matching: 100,000 abstracts (../shared/tools/corpus.py)
    .venv/bin/python bench/vocabulary_pass.py --papers 10000 --shared ../shared
    .venv/bin/python bench/vocabulary_pass.py --records c3k.jsonl --before ../wt/before   # the pass in the store
    .venv/bin/python bench/vocabulary_pass.py --records c3k.jsonl --before DIR --whole    # the whole load, pass included

``--records FILE`` (``kg extract`` records, e.g. of ``corpus.py 3000``): the records are loaded
into a fresh embedded store without the pass (``kg.build.load_records`` with the pass left out),
the store is copied, and ``kg.vocabulary.finish_vocabulary`` is timed on a copy by this
checkout and, with ``--before DIR``, by another checkout's code on another copy of the same
store (each in a child process importing ``kg`` from its checkout), with the time of every kind
of query the pass sends. ``--whole`` times the whole ``kg load`` of the records instead (the
batches and the pass, which this checkout splits: names are linked in each batch), each checkout
into its own fresh store, with the store server's CPU seconds and the time of each kind of query.

The corpus comes from ``../shared/tools/corpus.py`` (real sentences, deterministic). The
vocabulary is made from the corpus itself the way extraction fills a graph: a fixed number of
word spans of 1-5 words drawn from each abstract (seeded), so it grows with the corpus (about
8 names a paper, an upper bound: most repeat). Baseline in the same run: splitting the same
abstracts into words (``str.split``), the least any matcher must do. Reports the time per
1,000 abstracts at each size, the vocabulary size and the peak memory of this process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent



def corpus(shared: Path, papers: int) -> list[str]:
    out = Path(tempfile.mkdtemp()) / "corpus.jsonl"
    subprocess.run([sys.executable, str(shared / "tools" / "corpus.py"), str(papers), str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    return [json.loads(line)["abstract"] for line in out.read_text(encoding="utf-8").splitlines()]


def vocabulary(texts: list[str], per_paper: int = 8, seed: int = 7) -> dict[str, str]:
    rng = random.Random(seed)
    names = {}
    for text in texts:
        words = [w.strip(".,;:()") for w in text.split()]
        for _ in range(per_paper):
            n = rng.randint(1, 5)
            start = rng.randrange(max(1, len(words) - n))
            name = " ".join(words[start:start + n])
            if name:
                names[name] = name.lower()
    return names


def load_without_pass(records: Path, db: Path) -> float:
    """Store ``records`` as ``kg load`` does, leaving the vocabulary pass out; returns the seconds."""
    import kg.build
    from kg.store import open_store
    from kg.store.vocabulary import VocabularyReport

    kg.build.finish_vocabulary = lambda *args, **kwargs: VocabularyReport()
    started = time.perf_counter()
    with open_store(db_dir=str(db), create=True) as store, open(records, encoding="utf-8") as lines:
        kg.build.load_records(store, (json.loads(line) for line in lines))
    return time.perf_counter() - started


def time_pass(db: Path) -> dict:
    """In the child: the pass on the store in ``db``, with the seconds of each kind of query."""
    from kg.store import open_store
    from kg.vocabulary import finish_vocabulary

    queries: dict[str, list] = {}
    _timed_stream(queries)
    with open_store(db_dir=str(db)) as store:
        started = time.perf_counter()
        report = finish_vocabulary(store)
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "summary": report.line(),
            "queries": sorted(([round(t, 1), n, q] for q, (n, t) in queries.items()), reverse=True)}


def _timed_stream(queries: dict) -> None:
    """Add up the seconds of every kind of query the store runs (by its first 60 characters)."""
    from kg.store import Store

    stream = Store.stream

    def timed(self, query, parameters=None, *, write=False):
        started = time.perf_counter()
        yield from stream(self, query, parameters, write=write)
        kind = queries.setdefault(" ".join(query.split())[:60], [0, 0.0])
        kind[0] += 1
        kind[1] += time.perf_counter() - started

    Store.stream = timed


def time_load(records: Path, db: Path) -> dict:
    """In the child: the whole load of ``records`` into a fresh store in ``db`` (batches, then
    the pass), with the seconds of each kind of query and the store server's CPU seconds."""
    import kg.build
    from kg.store import open_store

    queries: dict[str, list] = {}
    _timed_stream(queries)
    finish = kg.build.finish_vocabulary
    pass_seconds = [0.0]

    def timed_pass(*args, **kwargs):
        started = time.perf_counter()
        try:
            return finish(*args, **kwargs)
        finally:
            pass_seconds[0] += time.perf_counter() - started

    kg.build.finish_vocabulary = timed_pass
    with open_store(db_dir=str(db), create=True) as store, open(records, encoding="utf-8") as lines:
        server = json.loads((db / "server.json").read_text())["pid"]
        cpu0 = _cpu(server)
        started = time.perf_counter()
        papers, report = kg.build.load_records(store, (json.loads(line) for line in lines))
        seconds = time.perf_counter() - started
        server_cpu = _cpu(server) - cpu0
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {"seconds": seconds, "pass": pass_seconds[0], "server_cpu": server_cpu, "kg_cpu": own.ru_utime + own.ru_stime,
            "summary": report.line(),
            "queries": sorted(([round(t, 1), n, q] for q, (n, t) in queries.items()), reverse=True)}


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def whole_load(records: Path, before: Path | None) -> None:
    papers = sum(1 for _ in open(records, encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        for label, code in ([("before", before)] if before else []) + [("this checkout", ROOT)]:
            db = Path(tmp) / label.replace(" ", "-")
            env = {**os.environ, "PYTHONPATH": str(code.resolve()), "KG_SERVER_IDLE": "0"}
            out = subprocess.run([sys.executable, __file__, "--time-load", str(records), "--db", str(db), "--code", str(code)],
                                 check=True, capture_output=True, text=True, env=env).stdout
            result = json.loads(out.strip().splitlines()[-1])
            print(f"{label}: load {result['seconds']:.1f} s wall of which the pass {result['pass']:.1f} s; CPU: kg "
                  f"{result['kg_cpu']:.1f} s, store server {result['server_cpu']:.1f} s; load average {os.getloadavg()[0]:.1f}; "
                  f"{result['summary']}")
            for seconds, calls, query in result["queries"][:12]:
                print(f"  {seconds:7.1f} s {calls:5d} calls  {query}")
            shutil.rmtree(db, ignore_errors=True)
    print(f"({papers:,} records)")


def store_pass(records: Path, before: Path | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        loaded = load_without_pass(records, base)
        papers = sum(1 for _ in open(records, encoding="utf-8"))
        print(f"{papers:,} records loaded without the pass in {loaded:.0f} s")
        for label, code in ([("before", before)] if before else []) + [("this checkout", ROOT)]:
            copy = Path(tmp) / label.replace(" ", "-")
            shutil.copytree(base, copy)
            env = {**os.environ, "PYTHONPATH": str(code.resolve())}  # the store's server imports kg too
            out = subprocess.run([sys.executable, __file__, "--time-pass", str(copy), "--code", str(code)],
                                 check=True, capture_output=True, text=True, env=env).stdout
            result = json.loads(out.strip().splitlines()[-1])
            print(f"{label}: {result['seconds']:.1f} s = {1000 * result['seconds'] / papers:.1f} s per 1,000 abstracts; "
                  f"{result['summary']}")
            for seconds, calls, query in result["queries"][:8]:
                print(f"  {seconds:7.1f} s {calls:4d} calls  {query}")
            shutil.rmtree(copy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--shared", type=Path, required=True, help="the folder of tools/corpus.py, the corpus generator")
    parser.add_argument("--records", type=Path, help="kg extract records: time the pass in the store")
    parser.add_argument("--before", type=Path, help="with --records: another checkout's pass on the same store")
    parser.add_argument("--whole", action="store_true", help="with --records: time the whole load, pass included")
    parser.add_argument("--time-pass", type=Path, help=argparse.SUPPRESS)  # child: a store folder
    parser.add_argument("--time-load", type=Path, help=argparse.SUPPRESS)  # child: records, with --db
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--code", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time_pass:
        sys.path.insert(0, str(args.code.resolve()))
        print(json.dumps(time_pass(args.time_pass)))
        return
    if args.time_load:
        sys.path.insert(0, str(args.code.resolve()))
        print(json.dumps(time_load(args.time_load, args.db)))
        return
    sys.path.insert(0, str(ROOT))
    if args.records:
        (whole_load if args.whole else store_pass)(args.records, args.before)
        return
    from kg.name_matching import NameMatcher

    texts = corpus(args.shared, args.papers)
    print("| abstracts | names | matcher built | matching per 1,000 abstracts | str.split per 1,000 | ratio | links found |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in sorted({max(1, args.papers // 10), args.papers}):
        sample = texts[:size]
        names = vocabulary(sample)
        started = time.perf_counter()
        matcher = NameMatcher(names)
        built = time.perf_counter() - started
        started = time.perf_counter()
        found = sum(len(matcher.find(t)) for t in sample)
        matching = time.perf_counter() - started
        started = time.perf_counter()
        for t in sample:
            t.split()
        split = time.perf_counter() - started
        print(f"| {size:,} | {len(names):,} | {built:.1f} s | {1000 * matching / size:.2f} s | "
              f"{1000 * split / size:.4f} s | {matching / split:.0f}x | {found:,} |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
