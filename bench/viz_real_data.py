"""Benchmark: seconds to write every ``kg viz`` view of real builds, with a running store.

    .venv/bin/kg build ../shared/data/openalex/works_sample_2022-05.jsonl.gz --db /tmp/kg-openalex
    .venv/bin/python bench/viz_real_data.py --db /tmp/kg-openalex [--db /tmp/kg-aan ...]

(the AAN build: see bench/citations_real_data.py). For each store the script starts
``kg server`` when none is running (and stops it at the end), then runs each view as a user
would, ``kg viz --view NAME -o FILE --db DIR``, in a fresh process, and times it from start to
exit. The baseline, measured in the same run right before each view (the machine is shared and
its load moves), is ``kg stats --db DIR``: a command that opens the same running store and
runs one query, so the ratio is what a view costs beyond starting ``kg`` and reaching the store. The paper and concept views focus on the paper citing the most
works and on the concept most papers name; the citations view is drawn whole and around that
paper. Every view runs once (the machine is shared); the table gives seconds and the ratio.

``--before DIR`` also runs each view with the code of another checkout (``git archive REV |
tar -x -C DIR``), in the same run, for a before/after column.
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


def run(args: list[str], tree: str | None = None) -> tuple[float, str]:
    """Seconds from start to exit of ``kg ARGS`` (with the code in ``tree`` if given), and what it said on stderr."""
    command, cwd = [KG, *args], None
    if tree:  # run from the tree: the current directory comes first on sys.path, before this checkout's install
        command, cwd = [sys.executable, "-c", "from kg.cli import main; main()", *args], tree
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"kg {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return seconds, done.stderr.strip()


def focus(db: str) -> tuple[str, str]:
    """The paper citing the most works and the concept named by the most papers: the views' focus."""
    import kg
    from kg.store.reads import citations, concepts

    with kg.open(db) as graph:
        return citations.most_citing(graph.store, 1)[0], concepts.most_named(graph.store, 1)[0]["id"]


def views(db: str) -> list[tuple[str, list[str]]]:
    paper, concept = focus(db)
    return [("overview", []), ("paper", ["--focus", paper]), ("concept", ["--focus", concept]),
            ("cooccurrence", []), ("similarity", []), ("citations", []),
            ("citations", ["--focus", paper])]


def bench(db: str, folder: Path, before: str | None = None) -> list[str]:
    started = subprocess.run([KG, "server", "status", "--db", db], capture_output=True).returncode != 0
    if started:
        run(["server", "start", "--db", db])
    rows = []
    try:
        for name, extra in views(db):
            baseline, _ = run(["stats", "--db", db])
            out = folder / f"{Path(db).name}-{name}{'-focus' if extra and name == 'citations' else ''}.html"
            seconds, said = run(["viz", "--view", name, *extra, "-o", str(out), "--db", db])
            wrote = said.splitlines()[-1].split("(", 1)[1].split(")", 1)[0]
            label = name + (f" --focus {extra[1]}" if extra else "")
            then = ""
            if before:
                old, said = run(["viz", "--view", name, *extra, "-o", str(out.with_suffix(".before.html")), "--db", db],
                                before)
                then = f" {old:.1f} s ({said.splitlines()[-1].split('(', 1)[1].split(')', 1)[0]}) |"
            rows.append(f"| {Path(db).name} | {label} | {wrote} | {seconds:.1f} s | {baseline:.1f} s | "
                        f"{seconds / baseline:.1f}x |{then}")
            print(rows[-1], flush=True)
    finally:
        if started:
            run(["server", "stop", "--db", db])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", action="append", required=True, help="a built store (repeat for several)")
    parser.add_argument("--before", help="a checkout of older code to time the same views with")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="kg-viz-real-"))
    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; pages in {folder}", flush=True)
    rows = [row for db in args.db for row in bench(db, folder, args.before)]
    print("\n| store | view | drawn | seconds | `kg stats` just before | ratio |" + (" before |" if args.before else ""))
    print("|---|---|---|---:|---:|---:|" + ("---:|" if args.before else ""))
    print("\n".join(rows))
    print(f"\n# load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
