"""The two recognisers side by side, in one run: SciERC dev exact F1 per type, and throughput.

    python bench/recognisers.py                        # dev F1 + 300 abstracts each, 2 cores
    python bench/recognisers.py --n 1000 --models fast accurate accurate:float32=DIR --data ../shared/data

For each recogniser (``kg.extract.load_pipeline(recogniser=...)``; ``KIND:LABEL=DIR`` reads a
trained folder of that kind, e.g. an accurate one exported without 8-bit weights): the
exact-match precision, recall and F1 of ``kg eval scierc`` on SciERC dev (Method, Task, Dataset,
Metric, micro), then ``extract()`` on ``--n`` real abstracts (``bench/extract_throughput.abstracts``)
on a loaded pipeline, both on ``--processes`` forked processes (accurate: one encoder thread
each), and the CPU seconds it used, which say more than wall time on a shared machine. Not a
test (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from extract_throughput import abstracts  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(recogniser: str, dev: Path, texts: list[str], processes: int) -> dict:
    from kg.evaluation import evaluate_scierc
    from kg.extract import extract, load_pipeline
    from kg.model import Paper

    started = time.perf_counter()
    kind, _, folder = recogniser.partition("=")
    nlp = load_pipeline(recogniser=kind.split(":")[0], ner=folder or None)
    loading = time.perf_counter() - started
    report = evaluate_scierc(dev, nlp, baseline=False)
    papers = [Paper(id=f"b{i}", title="", abstract=t) for i, t in enumerate(texts)]
    started, cpu = time.perf_counter(), cpu_seconds()
    for _ in extract(papers, nlp, n_process=processes):
        pass
    seconds, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    return {"exact": report.system.exact, "loading": loading, "per_s": len(texts) / seconds, "per_cpu_s": len(texts) / cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=300, help="abstracts for the throughput figure")
    parser.add_argument("--processes", type=int, default=2, help="forked processes (accurate: one encoder thread each)")
    parser.add_argument("--models", nargs="+", default=["fast", "accurate"],
                        help="fast, accurate, or KIND:LABEL=DIR for a trained folder of that kind")
    parser.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    args = parser.parse_args()
    texts = abstracts(args.n, args.data)
    types = ("Method", "Task", "Dataset", "Metric", "micro")
    print(f"SciERC dev exact P / R / F1; throughput on {len(texts)} abstracts, {os.cpu_count()} cores, "
          f"--processes {args.processes}")
    print("| recogniser | " + " | ".join(types) + " | abstracts/s | abstracts per CPU s | loading |")
    print("|---" * (len(types) + 4) + "|")
    for recogniser in args.models:
        row = measure(recogniser, args.data / "scierc" / "dev.json", texts, args.processes)
        cells = [f"{row['exact'][t].precision:.3f} / {row['exact'][t].recall:.3f} / **{row['exact'][t].f1:.3f}**" for t in types]
        print(f"| {recogniser.split('=')[0]} | " + " | ".join(cells) +
              f" | {row['per_s']:.1f} | {row['per_cpu_s']:.1f} | {row['loading']:.1f} s |", flush=True)
    print("load average (1, 5, 15 min) at the end: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
