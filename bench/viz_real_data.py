"""Benchmark: seconds to write every ``kg viz`` view of real builds, with a running store.

    .venv/bin/kg build ../shared/data/openalex/works_sample_2022-05.jsonl.gz --db /tmp/kg-openalex
    .venv/bin/python bench/viz_real_data.py --db /tmp/kg-openalex [--db /tmp/kg-aan ...]

(the AAN build: see bench/citations_real_data.py). For each store the script starts
``kg server`` when none is running (and stops it at the end), then runs each view as a user
would, ``kg viz --view NAME -o FILE --db DIR``, in a fresh process, and times it from start to
exit. The baseline, measured in the same run, is ``kg stats --db DIR``: a command that opens
the same running store and runs one query, so the ratio is what a view costs beyond starting
``kg`` and reaching the store. The paper and concept views focus on the paper citing the most
works and on the concept most papers name; the citations view is drawn whole and around that
paper. Every view runs once (the machine is shared); the table gives seconds and the ratio.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KG = str(Path(sys.executable).with_name("kg"))
MOST_CITING = "MATCH (p:Paper)-[:CITES]->(w) WITH p, count(w) AS n ORDER BY n DESC, p.id LIMIT 1 RETURN p.id AS id"
MOST_NAMED = "MATCH (p:Paper)-->(c:Concept) WITH c, count(p) AS n ORDER BY n DESC, c.id LIMIT 1 RETURN c.id AS id"


def run(args: list[str]) -> tuple[float, str]:
    """Seconds from start to exit of ``kg ARGS``, and what it said on stderr."""
    start = time.perf_counter()
    done = subprocess.run([KG, *args], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"kg {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return seconds, done.stderr.strip()


def first_id(db: str, query: str) -> str:
    done = subprocess.run([KG, "query", "cypher", query, "--format", "csv", "--db", db],
                          capture_output=True, text=True, check=True)
    return done.stdout.splitlines()[1].strip()


def views(db: str) -> list[tuple[str, list[str]]]:
    paper, concept = first_id(db, MOST_CITING), first_id(db, MOST_NAMED)
    return [("overview", []), ("paper", ["--focus", paper]), ("concept", ["--focus", concept]),
            ("cooccurrence", []), ("similarity", []), ("citations", []),
            ("citations", ["--focus", paper])]


def bench(db: str, folder: Path) -> list[str]:
    started = subprocess.run([KG, "server", "status", "--db", db], capture_output=True).returncode != 0
    if started:
        run(["server", "start", "--db", db])
    rows = []
    try:
        baseline, _ = run(["stats", "--db", db])
        print(f"# {db}: kg stats (baseline) {baseline:.2f} s", flush=True)
        for name, extra in views(db):
            out = folder / f"{Path(db).name}-{name}{'-focus' if extra and name == 'citations' else ''}.html"
            seconds, said = run(["viz", "--view", name, *extra, "-o", str(out), "--db", db])
            wrote = said.splitlines()[-1].split("(", 1)[1].split(")", 1)[0]
            label = name + (f" --focus {extra[1]}" if extra else "")
            rows.append(f"| {Path(db).name} | {label} | {wrote} | {seconds:.1f} s | {seconds / baseline:.1f}x |")
            print(rows[-1], flush=True)
        rows.append(f"| {Path(db).name} | baseline: `kg stats` | | {baseline:.1f} s | 1.0x |")
    finally:
        if started:
            run(["server", "stop", "--db", db])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", action="append", required=True, help="a built store (repeat for several)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="kg-viz-real-"))
    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; pages in {folder}", flush=True)
    rows = [row for db in args.db for row in bench(db, folder)]
    print("\n| store | view | drawn | seconds | / `kg stats` |")
    print("|---|---|---|---:|---:|")
    print("\n".join(rows))
    print(f"\n# load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
