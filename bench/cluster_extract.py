"""``kg extract`` through a local two-worker Dask cluster against ``--processes 2``, same run.

    python bench/cluster_extract.py                          # 10,000 generated abstracts, 2 rounds
    python bench/cluster_extract.py --n 3000 --rounds 3      # a shorter run on a busy machine

The abstracts are written by ../shared/tools/corpus.py (real sentences of the shared data,
synthetic ids and references) into one JSON-lines file. Each round runs the ``kg`` command
itself twice, in alternating order (start-up, model loading, the cluster's start and stop,
reading and writing JSON lines included): ``--processes 2`` (the baseline) and
``--cluster local:2`` (two worker processes of one thread). For each run: wall-clock
abstracts/s; the CPU seconds of the whole process tree (the driver, the scheduler and the
workers, from ``RUSAGE_CHILDREN``) and what that gives on two idle cores; the load average
before and after. Both outputs must hold the same records. Not a test: figures depend on the
machine (see docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KG = Path(sys.executable).parent / "kg"


def run(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the process tree, and the load average before/after."""
    before_load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, f"{before_load:.1f} -> {os.getloadavg()[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="abstracts to generate")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the two runs, in alternating order")
    parser.add_argument("--corpus", type=Path, required=True, help="the corpus generator, corpus.py N OUT.jsonl (next to the data)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="kg-bench-cluster-") as tmp:
        source = Path(tmp) / "abstracts.jsonl"
        subprocess.run([sys.executable, str(args.corpus), str(args.n), str(source)], check=True, stdout=subprocess.DEVNULL)
        runs = {"--processes 2": ["--processes", "2"], "--cluster local:2": ["--cluster", "local:2"]}
        outputs = {name: Path(tmp) / f"out-{i}.jsonl" for i, name in enumerate(runs)}
        results: dict[str, list] = {name: [] for name in runs}
        for round_ in range(args.rounds):
            order = list(runs) if round_ % 2 == 0 else list(reversed(runs))
            for name in order:
                wall, cpu, load = run([str(KG), "extract", str(source), "-o", str(outputs[name]), *runs[name]])
                results[name].append((wall, cpu, load))
                print(f"round {round_ + 1} {name}: {args.n / wall:.1f} abstracts/s, CPU {cpu:.1f} s, load {load}", flush=True)
        texts = [sorted(path.read_text(encoding="utf-8").splitlines()) for path in outputs.values()]
        assert texts[0] == texts[1] and len(texts[0]) == args.n, "the two runs wrote different records"

    print(f"\n{args.n:,} abstracts; {args.rounds} round(s), alternating order; same records from both runs.\n")
    print("| run | abstracts/s (wall) | CPU s (all processes) | abstracts/s on 2 idle cores | load average |")
    print("|---|---:|---:|---:|---|")
    for name, rows in results.items():
        print(f"| `kg extract {name}` | {' / '.join(f'{args.n / w:.1f}' for w, _, _ in rows)} "
              f"| {' / '.join(f'{c:.1f}' for _, c, _ in rows)} | {' / '.join(f'{2 * args.n / c:.1f}' for _, c, _ in rows)} "
              f"| {' ; '.join(load for _, _, load in rows)} |")
    base, cluster = results["--processes 2"], results["--cluster local:2"]
    wall_ratio = sum(w for w, _, _ in base) / sum(w for w, _, _ in cluster)
    cpu_ratio = sum(c for _, c, _ in base) / sum(c for _, c, _ in cluster)
    print(f"\ncluster / processes throughput: {wall_ratio:.2f}x wall clock, {cpu_ratio:.2f}x by CPU time (target >= 0.90)")


if __name__ == "__main__":
    main()
