"""Benchmark: `kg build` of N generated abstracts, then every read a user makes on that graph.

    .venv/bin/python bench/scale.py 10000 100000 --processes 2 --write docs/benchmarks.md
    .venv/bin/python bench/scale.py 3000 --profile          # where the build's time goes, by query
    .venv/bin/python bench/scale.py 10000 --reads-of /tmp/kg-scale/db-10000   # reads only, on a kept graph

For each N, ``--corpus`` (the data's ``tools/corpus.py``) ``N`` writes a corpus of realistic abstracts (real
sentences, ~11 references each with preferential attachment, authors, venues, years); then

- ``kg build FILE --db DIR --processes P`` runs as a user runs it, while the resident memory of
  all its processes (kg, its spaCy workers, the store's JVM server) is sampled every 0.5 s (RSS,
  and PSS: pages the forked workers share with kg counted once, not in each);
  its wall time, CPU time (kg and workers; the server apart) and the store's size on disk;
  each build with an empty vector cache of its own, as a first build (the larger corpora hold the
  smaller ones' abstracts, whose vectors a shared cache would give);
- with the store's server warm, every pack query with its example parameters (a paper, concept
  or reference of the example that this graph lacks is replaced by one it has), the similar
  papers of one paper, the graph's counts and every view, each the median of ``--runs`` runs
  (fewer once a read has taken 5 s) after a warm-up run, in this process (the time a notebook or a warm CLI sees, without Python's start-up); then
  ``kg stats``, ``kg similar`` and each ``kg viz`` view once as commands, start-up included;
- the baseline of each N, measured in the same run: one ``RETURN 1`` round trip (reads) and
  the per-1,000-papers time of the smallest N (the build's linearity).

The load average is printed next to every figure: the machine is shared.
``--profile`` instead builds in this process and adds up the time of every store query by
name, the time spent waiting for extraction, the text index and the vocabulary pass.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KG = Path(sys.executable).with_name("kg")
sys.path.insert(0, str(ROOT))
from kg.store.arcadedb_process import default_heap  # noqa: E402
from visuals.views import VIEWS  # noqa: E402


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


# --- memory of a process tree ----------------------------------------------------------------

def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = defaultdict(list)
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(f"/proc/{entry.name}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            tree[parent].append(int(entry.name))
    return tree


def _proc_bytes(pid: int, file: str, key: str) -> int:
    """A ``key: N kB`` line of ``/proc/PID/FILE``, in bytes (0 for a process gone)."""
    try:
        for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _rss(pid: int) -> int:
    return _proc_bytes(pid, "status", "VmRSS:")


def _pss(pid: int) -> int:
    """Proportional set size: a page shared by forked workers counted once in all, not once in each."""
    return _proc_bytes(pid, "smaps_rollup", "Pss:")


def tree(roots: list[int], children: dict[int, list[int]] | None = None) -> set[int]:
    """These processes and all their descendants (``children``: ``_children()``, read once for several trees)."""
    children, seen, todo = children or _children(), set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.add(pid)
            todo.extend(children.get(pid, ()))
    return seen


def server_pid(db: Path) -> int | None:
    try:
        return int(json.loads((db / "server.json").read_text())["pid"])
    except (OSError, ValueError, KeyError):
        return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a live process (and its waited-for children)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class PeakMemory:
    """Samples the resident memory of a command's tree plus the store's server (detached) every 0.5 s."""

    def __init__(self, pid: int, db: Path):
        self.pid, self.db, self.peak, self.peak_pss, self.peak_server = pid, db, 0, 0, 0
        self.server_cpu = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            server = server_pid(self.db)
            children = _children()
            self.peak_server = max(self.peak_server, sum(_rss(pid) for pid in tree([server], children)) if server else 0)
            # the server is the build's child (a session of its own): each process counted once
            pids = tree([self.pid, server] if server else [self.pid], children)
            self.peak = max(self.peak, sum(_rss(pid) for pid in pids))
            self.peak_pss = max(self.peak_pss, sum(_pss(pid) for pid in pids))
            if server:
                self.server_cpu = max(self.server_cpu, cpu_seconds(server))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


# --- the build -------------------------------------------------------------------------------

def corpus(n: int, workdir: Path, generator: Path) -> Path:
    path = workdir / f"corpus-{n}.jsonl"
    if not path.exists():
        subprocess.run([sys.executable, str(generator), str(n), str(path)], check=True, stdout=subprocess.DEVNULL)
    return path


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def build(n: int, workdir: Path, processes: int, generator: Path) -> dict:
    """Run `kg build` on N generated papers; its figures."""
    source = corpus(n, workdir, generator)
    db = workdir / f"db-{n}"
    shutil.rmtree(db, ignore_errors=True)
    vectors = workdir / f"vectors-{n}"
    shutil.rmtree(vectors, ignore_errors=True)
    # the server stays warm for the reads that follow
    env = dict(os.environ, KG_SERVER_IDLE="3600", KG_VECTOR_CACHE=str(vectors))
    load_before = load_average()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen([str(KG), "build", str(source), "--db", str(db), "--processes", str(processes)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    memory = PeakMemory(proc.pid, db)
    output = proc.communicate()[0]
    wall = time.monotonic() - start
    memory.stop()
    shutil.rmtree(vectors, ignore_errors=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit(f"kg build failed ({proc.returncode}):\n{output}")
    server = server_pid(db)
    vocabulary = re.search(r"Vocabulary: .*\(([\d.]+) s\)", output)
    return {
        "papers": n, "db": db, "wall": wall, "load_before": load_before, "load_after": load_average(),
        "cpu_kg": after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime,
        "cpu_server": cpu_seconds(server) if server else memory.server_cpu,
        "peak_rss": memory.peak, "peak_pss": memory.peak_pss, "peak_server": memory.peak_server, "disk": du(db / "databases"),
        "vocabulary_s": float(vocabulary.group(1)) if vocabulary else None, "output": output.strip(),
        "heap": os.environ.get("KG_HEAP") or f"{default_heap()} (default)",
    }


# --- the reads -------------------------------------------------------------------------------

def median_ms(call, runs: int, budget_s: float = 5.0) -> float:
    """Median milliseconds of ``runs`` calls after a warm-up; fewer (at least one) once they
    have taken ``budget_s``, so that a slow read does not hold the benchmark for long. A read
    that fails (the store's query heap, say) is NaN, "failed" in the table, its error printed."""
    try:
        call()  # the first run warms the store's caches and query plans
    except Exception as err:  # one failed read must not lose the run's other figures
        print(f"read failed: {err}", file=sys.stderr, flush=True)
        return math.nan
    times = []
    while len(times) < runs and (not times or sum(times) < budget_s * 1000):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def picks(store) -> dict:
    """A paper, a work it cites and concepts of this graph, for the examples' parameters: the
    most cited paper (a hub: the costly case) and the concepts named by the most papers."""
    from kg.store.reads import citations
    from kg.store.reads import concepts as concept_reads

    paper = citations.most_cited(store, 1, references=False)
    pid = paper[0] if paper else None
    cited = sorted(row["target"] for row in citations.out_of(store, [pid], ["CITES"], 1_000_000)) if pid else []
    concepts = concept_reads.most_named(store, 40)
    return {"paper": pid, "cited": cited[0] if cited else pid,
            "top": concepts[0]["name"] if concepts else "",
            "by_type": {row["type"]: row["name"] for row in reversed(concepts)}}


def example_params(query, pick: dict) -> dict:
    """The example's parameters, with values this graph has where the example's are the demo's."""
    given = query.example_values()
    names, top = pick["by_type"], pick["top"]
    for name in list(given):
        if name in ("paper", "a", "citing", "work"):
            given[name] = pick["paper"]
        elif name in ("b", "cited"):
            given[name] = pick["cited"]
        elif name in ("concept", "text"):
            given[name] = top
        elif name == "concepts":
            given[name] = ",".join(n for n in (names.get("Method"), names.get("Task")) if n)
        elif name == "method":
            given[name] = names.get("Method", top)
        elif name == "dataset":
            given[name] = names.get("Dataset", top)
    return given


def reads(db: Path, runs: int) -> dict:
    import kg
    from queries import list_queries

    out: dict = {"queries": {}, "load": load_average()}
    with kg.open(db=str(db)) as graph:
        store = graph.store
        out["baseline"] = median_ms(lambda: store.run("RETURN 1 AS one"), runs)
        pick = picks(store)
        for query in list_queries():
            params = example_params(query, pick)
            out["queries"][query.name] = (median_ms(lambda q=query, p=params: graph.query(q.name, **p), runs), params)
        pid = out["paper"] = pick["paper"]
        out["similar"] = median_ms(lambda: graph.similar(pid), runs)
        out["stats"] = median_ms(graph.stats, runs)
        out["views"] = {}
        for view in VIEWS:
            kwargs = {"focus": {"paper": pid, "concept": pick["top"]}[view]} if view in ("paper", "concept") else {}
            out["views"][view] = median_ms(lambda v=view, k=kwargs: graph.view(v, **k), max(1, runs // 5))
    out["commands"] = commands(db, pid)
    return out


def reads_only(papers: list[int], dbs: list[Path], runs: int) -> None:
    """The reads' table of graphs built before, once ``kg stats --recount`` has kept their counts
    anew with this code (as a user's next build does)."""
    if len(papers) != len(dbs):
        sys.exit("give one DB per size")
    results = []
    for n, db in zip(papers, dbs):
        start = time.monotonic()
        done = subprocess.run([str(KG), "stats", "--recount", "--db", str(db)], capture_output=True, text=True,
                              env=dict(os.environ, KG_SERVER_IDLE="3600"))
        if done.returncode:
            sys.exit(f"kg stats --recount failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        print(f"{n:,} papers: counts kept anew in {time.monotonic() - start:.0f} s (load average {load_average()})", flush=True)
        try:
            results.append({"papers": n, "reads": reads(db, runs)})
        finally:
            stop_server(db)
        print(reads_table(results), flush=True)


def commands(db: Path, paper: str) -> dict:
    """Wall seconds of a few commands as a shell runs them (Python's start-up included), warm store."""
    timed = {"kg stats": ["stats"], f"kg similar {paper}": ["similar", paper]}
    for view in VIEWS:
        extra = ["--focus", paper] if view == "paper" else []
        if view != "concept":  # its focus is a name, timed in the API above
            timed[f"kg viz --view {view}"] = ["viz", "--view", view, *extra, "-o", str(db.parent / f"{view}.html")]
    out = {}
    for label, args in timed.items():
        start = time.monotonic()
        done = subprocess.run([str(KG), *args, "--db", str(db)], capture_output=True, text=True)
        out[label] = (time.monotonic() - start) if done.returncode == 0 else f"exit {done.returncode}: {done.stderr[-200:]}"
    return out


def stop_server(db: Path) -> None:
    subprocess.run([str(KG), "server", "stop", "--db", str(db)], capture_output=True)


# --- the report ------------------------------------------------------------------------------

def table(results: list[dict], processes: int) -> str:
    base = results[0]
    per_k = {r["papers"]: r["wall"] / r["papers"] * 1000 for r in results}
    lines = [f"`bench/scale.py {' '.join(str(r['papers']) for r in results)} --processes {processes}` "
             f"(KG_HEAP={base['heap']}; 2 cores shared with other work, load average 1/5/15 min given per row)", "",
             "| papers | build | per 1,000 | vs smallest | papers/s | CPU kg+workers | CPU store | peak RSS all | "
             "peak PSS all | of it store | store on disk | vocabulary pass | load before / after |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        lines.append(
            f"| {r['papers']:,} | {r['wall']:.0f} s | {per_k[r['papers']]:.1f} s | "
            f"{per_k[r['papers']] / per_k[base['papers']]:.2f}x | {r['papers'] / r['wall']:.1f} | {r['cpu_kg']:.0f} s | "
            f"{r['cpu_server']:.0f} s | {r['peak_rss'] / 2**30:.2f} GB | {r.get('peak_pss', 0) / 2**30:.2f} GB | {r['peak_server'] / 2**30:.2f} GB | "
            f"{r['disk'] / 2**20:.0f} MB | {r['vocabulary_s'] or 0:.0f} s | {r['load_before']} / {r['load_after']} |")
    if any("reads" not in r for r in results):
        return "\n".join(lines)
    return "\n".join(lines) + "\n\n" + reads_table(results)


def reads_table(results: list[dict]) -> str:
    lines = ["Reads on the built graph, warm store, median ms in one process (x: against a `RETURN 1` round trip "
             "of the same run):", ""]
    header = "| read | " + " | ".join(f"{r['papers']:,}" for r in results) + " |"
    lines += [header, "|---|" + "---:|" * len(results)]

    def row(label, values):
        lines.append(f"| {label} | " + " | ".join(values) + " |")

    row("`RETURN 1` (baseline)", [f"{r['reads']['baseline']:.1f}" for r in results])
    for name in results[0]["reads"]["queries"]:
        row(f"`{name}`", [_ms(r['reads']['queries'][name][0], r['reads']['baseline']) for r in results])
    row("similar (API)", [_ms(r['reads']['similar']) for r in results])
    row("stats (API)", [_ms(r['reads']['stats']) for r in results])
    for view in VIEWS:
        row(f"view `{view}` (API)", [_ms(r['reads']['views'][view]) for r in results])
    row("load average during reads", [r["reads"]["load"] for r in results])
    lines += ["", "As commands (wall seconds, Python's start-up included, warm store):", "",
              header, "|---|" + "---:|" * len(results)]
    for label in results[0]["reads"]["commands"]:
        key = label.split(" syn:")[0]
        vals = []
        for r in results:
            v = next((v for k, v in r["reads"]["commands"].items() if k.split(" syn:")[0] == key), None)
            vals.append(f"{v:.1f}" if isinstance(v, float) else str(v))
        row(f"`{key}`", vals)
    return "\n".join(lines)


def _ms(value: float, baseline: float | None = None) -> str:
    if math.isnan(value):
        return "failed"
    return f"{value:.0f}" + (f" ({value / baseline:.0f}x)" if baseline else "")


def write_section(path: Path, text: str) -> None:
    """Replace (or append) the section between the scale benchmark's markers."""
    begin, end = "<!-- bench/scale.py begin -->", "<!-- bench/scale.py end -->"
    old = path.read_text() if path.exists() else ""
    block = f"{begin}\n{text}\n{end}"
    if begin in old:
        new = old[:old.index(begin)] + block + old[old.index(end) + len(end):]
    else:
        new = old.rstrip() + "\n\n## Scale: generated abstracts\n\n" + block + "\n"
    path.write_text(new)


# --- profile ---------------------------------------------------------------------------------

def profile(n: int, workdir: Path, processes: int, generator: Path) -> None:
    """Build N papers in this process, adding up the time of each store query by its name."""
    import kg.build
    import kg.store.load
    import kg.store.schema
    import kg.store.vocabulary
    import kg.textsim
    from kg.store import Store, open_store

    names = {}
    for module in (kg.store.load, kg.store.vocabulary, kg.textsim):
        for name, value in vars(module).items():
            if isinstance(value, str) and len(value) > 20:
                names[value] = f"{module.__name__.split('.')[-1]}.{name}"
    spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    original = Store.run

    def timed(self, query, parameters=None, *, write=False):
        start = time.perf_counter()
        try:
            return original(self, query, parameters, write=write)
        finally:
            label = names.get(query) or " ".join(query.split())[:70]
            spent[label][0] += time.perf_counter() - start
            spent[label][1] += 1

    Store.run = timed
    waits = [0.0]

    def waited(records):
        iterator = iter(records)
        while True:
            start = time.perf_counter()
            try:
                record = next(iterator)
            except StopIteration:
                break
            finally:
                waits[0] += time.perf_counter() - start
            yield record

    original_extract = kg.build.extract_sources
    kg.build.extract_sources = lambda *a, **k: waited(original_extract(*a, **k))
    db = workdir / f"profile-{n}"
    shutil.rmtree(db, ignore_errors=True)
    os.environ["KG_SERVER_IDLE"] = "0"
    print(f"load average before: {load_average()}")
    cpu0, start = time.process_time(), time.perf_counter()
    with open_store(db, create=True) as store:
        server = server_pid(db)
        server_cpu0 = cpu_seconds(server)
        report = kg.build.build([str(corpus(n, workdir, generator))], store, n_process=processes)
        server_cpu = cpu_seconds(server) - server_cpu0
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    in_queries = sum(t for t, _ in spent.values())
    print(f"{report.papers} papers in {wall:.1f} s wall ({wall / n * 1000:.1f} s per 1,000); parent CPU {cpu:.1f} s, "
          f"store server CPU {server_cpu:.1f} s; load average after: {load_average()}")
    print(f"waiting for extraction {waits[0]:.1f} s; in store queries {in_queries:.1f} s; vocabulary pass "
          f"{report.vocabulary.seconds:.1f} s")
    print("| query | calls | seconds | share of wall |\n|---|---:|---:|---:|")
    for label, (seconds, calls) in sorted(spent.items(), key=lambda kv: -kv[1][0])[:30]:
        print(f"| {label} | {calls} | {seconds:.1f} | {seconds / wall:.0%} |")
    shutil.rmtree(db, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("papers", type=int, nargs="+", help="corpus sizes, smallest first")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--corpus", type=Path, help="the corpus generator, corpus.py N OUT.jsonl (next to the data); needed to build")
    parser.add_argument("--runs", type=int, default=10, help="runs of each read (views: a fifth)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/kg-scale"))
    parser.add_argument("--write", type=Path, help="put the tables between the markers of this Markdown file (docs/benchmarks.md)")
    parser.add_argument("--profile", action="store_true", help="where a build's time goes, by store query")
    parser.add_argument("--keep", action="store_true", help="keep the built stores")
    parser.add_argument("--build-only", action="store_true", help="time the builds, not the reads")
    parser.add_argument("--reads-of", type=Path, nargs="+", metavar="DB",
                        help="time the reads only, on graphs built before (kept with --keep), one per size given")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    if not args.reads_of and args.corpus is None:
        parser.error("--corpus is needed to build")
    if args.reads_of:
        reads_only(args.papers, args.reads_of, args.runs)
        return
    if args.profile:
        for n in args.papers:
            profile(n, args.workdir, args.processes, args.corpus)
        return
    results = []
    for n in sorted(args.papers):
        print(f"building {n:,} papers (load average {load_average()})", flush=True)
        result = build(n, args.workdir, args.processes, args.corpus)
        print(result["output"], flush=True)
        print(json.dumps({k: v for k, v in result.items() if k not in ("db", "output")}), flush=True)
        try:
            if not args.build_only:
                result["reads"] = reads(result["db"], args.runs)
        finally:
            stop_server(result["db"])
        results.append(result)
        text = table(results, args.processes)
        print(text, flush=True)
        if args.write:  # after each size, so a long run that is stopped keeps what it measured
            write_section(args.write, text)
        if not args.keep:
            shutil.rmtree(result["db"], ignore_errors=True)


if __name__ == "__main__":
    main()
