"""Benchmark: wall time of `kg` commands on the demo graph, cold and warm, against a baseline `kg`.

    .venv/bin/python bench/commands.py                                   # this checkout only
    .venv/bin/python bench/commands.py --baseline /path/to/old/.venv/bin/kg --runs 10 --cold-runs 3

Each `kg` (the baseline and this checkout's) builds the bundled abstracts into
a store of its own, then times, as a user runs them from a shell, the runs of
the two interleaved so that both see the same load:

- cold: the first command after the store's server exited (`kg server stop`
  before each run): Python start-up, JVM and database start, the query;
- warm: the same command while the server runs (for the baseline, the server
  `kg server start` leaves running, its only way to stay warm);
- per command as it ships: the baseline starts and stops a JVM for each
  command; this checkout's first command leaves the server warm for the next.

Then ten different commands in a row on a store whose server is stopped (this
checkout only), each with its time. Medians of ``--runs`` (warm) and
``--cold-runs`` (cold) runs; the load average is printed before and after, as
the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "neurips2026"
PAPER = "p-198679ab53b48580"  # a demo paper
COMMANDS = {
    "kg stats": ["stats"],
    "kg query run overview/top-concepts": ["query", "run", "overview/top-concepts"],
    f"kg similar {PAPER}": ["similar", PAPER],
}
IN_A_ROW = [
    ["stats"], ["query", "run", "papers/find", "-p", "text=LoRA"], ["query", "run", "overview/top-concepts", "-p", "per_type=3"],
    ["similar", PAPER, "--top", "5"], ["query", "run", "papers/sharing-concepts", "-p", f"paper={PAPER}"],
    ["query", "run", "concepts/profile", "-p", "concept=LoRA"], ["citations", "top", "--top", "5"],
    ["stats", "--format", "json"], ["export", "--format", "json", "-o", "{tmp}/graph.json"],
    ["viz", "-o", "{tmp}/overview.html"],
]


def run(kg: str, args: list[str], db: Path) -> float:
    """Wall seconds of one `kg ARGS --db DB`; a failure stops the benchmark. The CPU seconds it and the
    processes it waited for used (a per-command server, not a shared one) go to CPU[-1]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run([kg, *args, "--db", str(db)], capture_output=True, text=True)
    elapsed = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"{kg} {' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return elapsed


CPU: list[float] = []


def stop(kg: str, db: Path) -> None:
    subprocess.run([kg, "server", "stop", "--db", str(db)], capture_output=True)
    for _ in range(300):  # until its JVM is gone
        if subprocess.run([kg, "server", "status", "--db", str(db)], capture_output=True).returncode == 3:
            return
        time.sleep(0.1)


def median(times: list[float]) -> str:
    return f"{statistics.median(times):.2f}"


def measure(kgs: dict[str, str], work: Path, runs: int, cold_runs: int) -> dict:
    """Cold and warm times of each command for each `kg`, their runs interleaved (the load moves)."""
    for label, kg in kgs.items():
        print(f"[{label}] building the demo into {work / label} ...", file=sys.stderr)
        run(kg, ["build", str(EXAMPLES)], work / label)
        stop(kg, work / label)
    rows = {}
    for name, args in COMMANDS.items():
        times = {label: {"cold": [], "warm": [], "cold cpu": [], "warm cpu": []} for label in kgs}
        for _ in range(cold_runs):
            for label, kg in kgs.items():
                stop(kg, work / label)
                times[label]["cold"].append(run(kg, args, work / label))
                times[label]["cold cpu"].append(CPU[-1])
        for label, kg in kgs.items():
            subprocess.run([kg, "server", "start", "--db", str(work / label)], capture_output=True)
        for _ in range(runs):
            for label, kg in kgs.items():
                times[label]["warm"].append(run(kg, args, work / label))
                times[label]["warm cpu"].append(CPU[-1])
        for label, kg in kgs.items():
            stop(kg, work / label)
            print(f"[{label}] {name}: cold {median(times[label]['cold'])} s, warm {median(times[label]['warm'])} s",
                  file=sys.stderr)
        rows[name] = times
    return rows


def in_a_row(kg: str, work: Path) -> list[tuple[str, float, float]]:
    db = work / "after"
    stop(kg, db)
    times = []
    for args in IN_A_ROW:
        args = [a.format(tmp=work) for a in args]
        times.append(("kg " + " ".join(args), run(kg, args, db), CPU[-1]))
    stop(kg, db)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kg", default=str(Path(sys.executable).parent / "kg"), help="the kg to measure")
    parser.add_argument("--baseline", help="a kg to compare with (another checkout's .venv/bin/kg)")
    parser.add_argument("--runs", type=int, default=10, help="warm runs per command")
    parser.add_argument("--cold-runs", type=int, default=3, help="cold runs per command")
    args = parser.parse_args()

    print(f"load average before: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    kgs = {"before": args.baseline} if args.baseline else {}
    kgs["after"] = args.kg
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as tmp:
        work = Path(tmp)
        rows = measure(kgs, work, args.runs, args.cold_runs)
        row_times = in_a_row(args.kg, work)
    print(f"load average after: {os.getloadavg()[0]:.1f}\n")

    nan = {key: [float("nan")] for key in ("cold", "warm", "cold cpu", "warm cpu")}
    print("Wall seconds (CPU seconds of the command and what it waited for):\n")
    print("| command | before: per command (cold) | before: `kg server start` (warm) | after: first after exit (cold) "
          "| after: warm | per command before / warm after |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, times in rows.items():
        old, new = times.get("before", nan), times["after"]
        ratio = statistics.median(old["cold"]) / statistics.median(new["warm"])

        def cell(t, kind):
            return f"{median(t[kind])} s ({median(t[kind + ' cpu'])})"
        print(f"| `{name}` | {cell(old, 'cold')} | {cell(old, 'warm')} | {cell(new, 'cold')} | {cell(new, 'warm')} "
              f"| {ratio:.1f}x |")
    print(f"\n(cold: median of {args.cold_runs}; warm: median of {args.runs})\n\nTen commands in a row, server stopped first:\n")
    print("| # | command | wall s | CPU s |\n|---:|---|---:|---:|")
    for i, (name, seconds, cpu) in enumerate(row_times, 1):
        print(f"| {i} | `{name}` | {seconds:.2f} | {cpu:.2f} |")
    print(f"| | total | {sum(r[1] for r in row_times):.2f} | {sum(r[2] for r in row_times):.2f} |")


if __name__ == "__main__":
    main()
