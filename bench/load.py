"""Benchmark: a store under concurrent load. Clients read while a build adds papers to the same store.

    python ../shared/tools/corpus.py 11000 /tmp/c11k.jsonl            # 10,000 papers + 1,000 to add
    .venv/bin/python bench/load.py /tmp/c11k.jsonl --papers 10000 --added 1000 --clients 8 --commands 2000

The first ``--papers`` records of the corpus are built into a store first (``kg build``; or
``--db`` names a store that already holds them). Then, at once:

- ``kg build`` adds the next ``--added`` records to the same store (a subprocess);
- ``--clients`` clients run ``--commands`` commands in all, a fixed mix drawn with a fixed seed:
  pack queries with their example parameters, ``kg similar`` on stored papers, ``kg stats``
  and ``kg viz`` views (written to a temporary folder). Half the commands go through the CLI
  (a ``kg`` subprocess each), half through the Python API: every client is a thread of this
  process and they share one ``kg.open(db)``.

Every answer is checked (exit code 0, the JSON parses, rows are lists of records, ``kg
similar`` returns stored papers only, ``kg stats`` counts of papers and nodes never go down
for a client, a view is an HTML file). After the build, the papers of both parts are looked
up: lost = expected - found. The store server's resident memory (its pid from the store
folder's ``server.json``) is read before and after. Everything runs on 127.0.0.1 and stops
by itself: fixed counts, and a global ``--timeout`` after which the build is killed and the
commands not run count as errors. Prints one markdown table (docs/benchmarks.md, "Concurrent
load"). The suite runs a small version of the same workload (tests/test_load_concurrent.py).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import kg
from queries import list_queries

KG = str(Path(sys.executable).parent / "kg")
KINDS = {"pack": 0.5, "similar": 0.2, "stats": 0.2, "viz": 0.1}  # the mix of commands
VIEWS = ("overview", "paper", "cooccurrence", "similarity", "citations")
MONOTONIC = ("Paper",)  # stats counts a client must never see go down (with the total of nodes)


@dataclass
class Command:
    kind: str  # pack, similar, stats, viz
    via: str  # cli or api
    name: str  # the pack query, the paper, the view
    params: dict = field(default_factory=dict)

    def cli_args(self, out_dir: Path, number: int) -> list[str]:
        if self.kind == "pack":
            return ["query", "run", self.name, *(f"-p{k}={v}" for k, v in self.params.items()), "--format", "json"]
        if self.kind == "similar":
            return ["similar", self.name, "--top", "5", "--format", "json"]
        if self.kind == "stats":
            return ["stats", "--format", "json"]
        focus = ["--focus", self.params["focus"]] if "focus" in self.params else []
        return ["viz", "--view", self.name, *focus, "-o", str(out_dir / f"{number}-{self.name}.html")]


def plan(commands: int, clients: int, papers: list[str], seed: int = 0, cli_share: float = 0.5) -> list[list[Command]]:
    """``commands`` commands dealt round-robin to ``clients`` clients, each of a kind drawn with
    :data:`KINDS`' weights and through the CLI with the chance ``cli_share``, else the API; a fixed
    seed gives the same plan every run.

    >>> [[f"{c.kind} ({c.via})" for c in client] for client in plan(6, 2, ["p1"], seed=2)]
    [['viz (api)', 'stats (api)', 'pack (api)'], ['pack (cli)', 'pack (api)', 'similar (api)']]
    """
    rng = random.Random(seed)
    packs = list_queries()
    dealt: list[list[Command]] = [[] for _ in range(clients)]
    for number in range(commands):
        kind = rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
        via = "cli" if rng.random() < cli_share else "api"
        if kind == "pack":
            query = rng.choice(packs)
            command = Command(kind, via, query.name, query.example_values())
        elif kind == "similar":
            command = Command(kind, via, rng.choice(papers))
        elif kind == "stats":
            command = Command(kind, via, "stats")
        else:
            view = rng.choice(VIEWS)
            command = Command(kind, via, view, {"focus": rng.choice(papers)} if view == "paper" else {})
        dealt[number % clients].append(command)
    return dealt


class Checker:
    """Checks an answer; raises AssertionError with what is wrong."""

    def __init__(self, known_papers: set[str], papers_before: int = 0, every_count: bool = False):
        self.known, self.papers_before = known_papers, papers_before
        self.every_count = every_count  # every label and relationship type never goes down, not only MONOTONIC

    def check(self, command: Command, answer, seen: dict) -> None:
        if command.kind == "pack":
            assert isinstance(answer, list) and all(isinstance(row, dict) for row in answer), f"not rows: {answer!r:.200}"
        elif command.kind == "similar":
            assert isinstance(answer, list), f"not a list: {answer!r:.200}"
            ids = [row["id"] for row in answer]
            assert command.name not in ids, f"{command.name} is similar to itself"
            unknown = [i for i in ids if i not in self.known]
            assert not unknown, f"similar returned papers that were never stored: {unknown}"
        elif command.kind == "stats":
            nodes, relationships = answer["nodes"], answer["relationships"]
            assert nodes.get("Paper", 0) >= self.papers_before, f"stats: {nodes.get('Paper', 0)} papers, fewer than before the load"
            now = {label: nodes.get(label, 0) for label in MONOTONIC} | {"nodes": sum(nodes.values())}
            if self.every_count:
                now |= {f"node {k}": v for k, v in nodes.items()} | {f"relationship {k}": v for k, v in relationships.items()}
            for key, value in now.items():
                assert value >= seen.get(key, 0), f"stats: {key} went down from {seen[key]} to {value}"
            gone = set(seen) - set(now)
            assert not gone, f"stats: {sorted(gone)} gone"
            seen.update(now)
        else:
            text = Path(answer).read_text(encoding="utf-8")
            assert text.lstrip().lower().startswith("<!doctype html") and "</html>" in text, f"{answer} is no HTML page"


@dataclass
class Outcome:
    command: Command
    seconds: float
    error: str | None
    started: float


def run_cli(command: Command, db: Path, out_dir: Path, number: int, timeout: float, env: dict):
    args = command.cli_args(out_dir, number)
    done = subprocess.run([KG, *args, "--db", str(db)], capture_output=True, text=True, timeout=timeout, env=env)
    if done.returncode != 0:
        raise AssertionError(f"exit {done.returncode}: {done.stderr.strip()[-300:]}")
    if command.kind == "viz":
        return args[args.index("-o") + 1]
    return json.loads(done.stdout)


def run_api(command: Command, graph, out_dir: Path, number: int):
    if command.kind == "pack":
        return graph.query(command.name, {k: v for k, v in command.params.items()})
    if command.kind == "similar":
        return graph.similar(command.name, top=5)
    if command.kind == "stats":
        return graph.stats()
    return str(graph.view(command.name, **command.params).write(out_dir / f"{number}-{command.name}.html"))


def run_clients(dealt: list[list[Command]], db: Path, out_dir: Path, checker: Checker, deadline: float,
                env: dict | None = None) -> list[Outcome]:
    """Run each client's commands in order, the clients at once (threads); API commands share one
    ``kg.open(db)``, CLI commands are ``kg`` subprocesses. Returns every command's outcome."""
    env = env or os.environ.copy()
    graph = kg.open(db)
    graph.store  # opened before the threads share it
    outcomes: list[Outcome] = []
    lock = threading.Lock()

    def client(index: int, commands: list[Command]) -> None:
        seen: dict = {}
        for i, command in enumerate(commands):
            number = index * 100_000 + i
            started = time.monotonic()
            error = None
            if started >= deadline:
                error = "not run: global timeout"
            else:
                try:
                    if command.via == "cli":
                        answer = run_cli(command, db, out_dir, number, deadline - started, env)
                    else:
                        answer = run_api(command, graph, out_dir, number)
                    checker.check(command, answer, seen)
                except Exception as err:  # counted and shown, never fatal to the run
                    error = f"{type(err).__name__}: {err}"
            with lock:
                outcomes.append(Outcome(command, time.monotonic() - started, error, started))

    threads = [threading.Thread(target=client, args=(i, c), name=f"client-{i}") for i, c in enumerate(dealt)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    graph.close()
    return outcomes


def start_build(args: list[str], db: Path, log: Path, env: dict | None = None) -> subprocess.Popen:
    """``kg ARGS --db DB`` in a session of its own (so that a timeout stops its workers too)."""
    with log.open("w") as out:
        return subprocess.Popen([KG, *args, "--db", str(db)], stdout=out, stderr=subprocess.STDOUT,
                                env=env or os.environ.copy(), start_new_session=True)


class BuildWatch(threading.Thread):
    """Waits for a build started by :func:`start_build`: its exit code (None: killed at the
    deadline) and when it ended."""

    def __init__(self, build: subprocess.Popen, deadline: float):
        super().__init__(name="build-watch", daemon=True)
        self.build, self.deadline = build, deadline
        self.code: int | None = None
        self.ended = float("inf")
        self.start()

    def run(self) -> None:
        try:
            self.code = self.build.wait(timeout=max(0.0, self.deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(self.build.pid, signal.SIGKILL)
            self.build.wait()
        self.ended = time.monotonic()


def server_rss_bytes(db: Path) -> int | None:
    """Resident memory of the store's server, its pid read from ``DB/server.json``."""
    try:
        pid = json.loads((db / "server.json").read_text())["pid"]
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, KeyError):
        return None
    return None


def papers_found(db: Path, ids: list[str]) -> int:
    """How many of ``ids`` the store holds as papers."""
    from kg.store.reads.papers import details

    with kg.open(db) as graph:
        return len(details(graph.store, ids))


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1), nearest rank.

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95), percentile([3, 1, 2], 0.5)
    (10, 2)
    """
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))]


def table(outcomes: list[Outcome], build_row: tuple[str, float, int]) -> str:
    """One markdown row per command kind and way in, then the build's."""
    lines = ["| command | via | n | errors | p50 s | p95 s |", "|---|---|---:|---:|---:|---:|"]
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault((outcome.command.kind, outcome.command.via), []).append(outcome)
    names = {"pack": "`kg query run` (packs)", "similar": "`kg similar`", "stats": "`kg stats`", "viz": "`kg viz`"}
    for kind in KINDS:
        for via in ("cli", "api"):
            group = groups.get((kind, via), [])
            if not group:
                continue
            times = [o.seconds for o in group if o.error is None] or [float("nan")]
            errors = sum(o.error is not None for o in group)
            lines.append(f"| {names[kind]} | {via} | {len(group):,} | {errors} | {percentile(times, 0.5):.2f} "
                         f"| {percentile(times, 0.95):.2f} |")
    label, seconds, errors = build_row
    lines.append(f"| {label} | cli | 1 | {errors} | {seconds:.1f} (wall) | |")
    return "\n".join(lines)


def read_ids(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line)["id"] for line in lines if line.strip()]


def split_corpus(corpus: Path, papers: int, added: int, work: Path) -> tuple[Path, Path]:
    """The first ``papers`` lines of the corpus, and the ``added`` after them, as two files."""
    base, more = work / "base.jsonl", work / "added.jsonl"
    with corpus.open(encoding="utf-8") as lines, base.open("w", encoding="utf-8") as b, more.open("w", encoding="utf-8") as m:
        for number, line in enumerate(lines):
            if number >= papers + added:
                break
            (b if number < papers else m).write(line)
    if len(read_ids(more)) < added:
        sys.exit(f"{corpus} holds fewer than {papers + added} records: make it with corpus.py {papers + added} {corpus}")
    return base, more


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path, help="JSON-lines papers (../shared/tools/corpus.py N OUT.jsonl)")
    parser.add_argument("--papers", type=int, default=10_000, help="papers in the store before the load")
    parser.add_argument("--added", type=int, default=1_000, help="papers the concurrent build adds")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--commands", type=int, default=2_000, help="commands in all, over the clients")
    parser.add_argument("--processes", type=int, default=2, help="kg build --processes, both builds")
    parser.add_argument("--db", type=Path, help="a store holding the first --papers already (else built in a temporary folder)")
    parser.add_argument("--timeout", type=float, default=3 * 3600, help="seconds for the concurrent part, then stop")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="kg-load-") as tmp:
        work = Path(tmp)
        base, more = split_corpus(args.corpus, args.papers, args.added, work)
        base_ids, added_ids = read_ids(base), read_ids(more)
        db = args.db or work / "db"
        if not args.db or not (db / "databases").is_dir():
            print(f"building {len(base_ids):,} papers into {db} ...", file=sys.stderr)
            done = subprocess.run([KG, "build", str(base), "--db", str(db), "--processes", str(args.processes)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"kg build failed ({done.returncode}):\n{done.stderr}")
        subprocess.run([KG, "server", "start", "--db", str(db)], capture_output=True, check=True)
        before = papers_found(db, base_ids)
        if before != len(base_ids):
            sys.exit(f"{db} holds {before:,} of the {len(base_ids):,} papers it should hold before the load")
        rss_start = server_rss_bytes(db)
        load_start = os.getloadavg()[0]

        out_dir = work / "views"
        out_dir.mkdir()
        dealt = plan(args.commands, args.clients, base_ids, args.seed)
        checker = Checker(set(base_ids) | set(added_ids), len(base_ids))
        start = time.monotonic()
        deadline = start + args.timeout
        print(f"load: {args.clients} clients, {args.commands:,} commands, kg build of {len(added_ids):,} papers ...",
              file=sys.stderr)
        build = start_build(["--debug", "build", str(more), "--processes", str(args.processes)], db, work / "build.log")
        watch = BuildWatch(build, deadline)
        outcomes = run_clients(dealt, db, out_dir, checker, deadline)
        watch.join()
        code, build_seconds = watch.code, watch.ended - start
        found = papers_found(db, base_ids + added_ids)
        rss_end = server_rss_bytes(db)
        if code != 0:
            print(f"kg build: exit {code}\n{(work / 'build.log').read_text()}", file=sys.stderr)  # with its traceback (--debug)
        during = sum(o.started < watch.ended for o in outcomes)
        if not args.db:
            subprocess.run([KG, "server", "stop", "--db", str(db)], capture_output=True)

    errors = [o for o in outcomes if o.error]
    for outcome in errors[:10]:
        print(f"error: {outcome.command.kind} {outcome.command.name} ({outcome.command.via}): {outcome.error}", file=sys.stderr)
    expected = len(set(base_ids) | set(added_ids))

    def gb(value):
        return f"{value / 1e9:.2f} GB" if value else "?"

    print(table(outcomes, (f"`kg build` adding {len(added_ids):,} papers", build_seconds, int(code != 0))))
    print(f"\n{len(outcomes):,} commands ({during:,} started while the build ran), {len(errors)} errors; "
          f"papers: {expected:,} expected, {found:,} found, {expected - found:,} lost; "
          f"server RSS {gb(rss_start)} -> {gb(rss_end)}; load average {load_start:.1f} -> {os.getloadavg()[0]:.1f} "
          f"({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
