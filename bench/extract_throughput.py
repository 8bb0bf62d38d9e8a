"""Throughput of ``kg extract`` on 1,000 real abstracts, against the blank spaCy tokenizer's floor.

    python bench/extract_throughput.py                      # 1,000 abstracts, 2 processes
    python bench/extract_throughput.py --n 200 --processes 1
    python bench/extract_throughput.py --n 300 --model accurate   # the accurate recogniser (one torch thread per process)

Abstracts (120-300 words) come from ../shared/data (OpenAlex, S2ORC, SciERC, the bundled
NeurIPS 2026 examples), cycled if fewer than ``--n``. The end-to-end figure runs the
``kg extract`` command itself (a fresh process: start-up and model loading included, JSON
lines written); the steady figure times only ``extract()`` on a loaded pipeline. The floor is
``spacy.blank("en")`` tokenizing the same texts on one process. Not a test: figures depend
on the machine (see docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _openalex(path: Path):
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            index = record.get("abstract_inverted_index")
            if index:
                words = {p: w for w, positions in index.items() for p in positions}
                yield " ".join(words[i] for i in sorted(words))


def _s2orc(path: Path):
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            abstract = json.loads(line).get("abstract")
            if abstract:
                yield abstract


def _scierc(path: Path):
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield " ".join(" ".join(s) for s in json.loads(line)["sentences"])


def _examples(folder: Path):
    for path in sorted(folder.glob("*.txt")):
        for block in path.read_text(encoding="utf-8").split("\n\n")[1:]:
            if block.strip():
                yield " ".join(block.split())


def abstracts(n: int, data: Path) -> list[str]:
    sources = [_openalex(data / "openalex" / "works_sample_2022-05.jsonl.gz"), _s2orc(data / "s2orc" / "metadata_sample.jsonl"),
               _scierc(data / "scierc" / "train.json"), _examples(ROOT / "examples" / "neurips2026")]
    texts = [t for source in sources for t in source if 120 <= len(t.split()) <= 300]
    if not texts:
        sys.exit(f"no abstracts found under {data}")
    return [texts[i % len(texts)] for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    parser.add_argument("--model", choices=("fast", "accurate"), default="fast", help="the recogniser (kg extract --model)")
    args = parser.parse_args()

    import spacy

    texts = abstracts(args.n, args.data)
    words = sum(len(t.split()) for t in texts)
    print(f"{len(texts)} abstracts, {words} words ({words / len(texts):.0f} per abstract); "
          f"{os.cpu_count()} cores; --processes {args.processes}; --model {args.model}")

    blank = spacy.blank("en")
    started = time.perf_counter()
    for _ in blank.pipe(texts, batch_size=256):
        pass
    floor = words / (time.perf_counter() - started)

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "abstracts.jsonl"
        with open(source, "w", encoding="utf-8") as out:
            for i, text in enumerate(texts):
                out.write(json.dumps({"id": f"b{i}", "title": f"Abstract {i}", "abstract": text}) + "\n")
        kg = Path(sys.executable).with_name("kg")
        command = [str(kg) if kg.exists() else "kg", "extract", str(source), "--processes", str(args.processes),
                   "--model", args.model, "-o", str(Path(tmp) / "out.jsonl")]
        started, cpu_before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
        end_to_end = time.perf_counter() - started
        cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
        n_out = sum(1 for _ in open(Path(tmp) / "out.jsonl", encoding="utf-8"))
        assert n_out == len(texts), f"kg extract wrote {n_out} records for {len(texts)} abstracts"

    from kg.extract import extract, load_pipeline
    from kg.model import Paper

    started = time.perf_counter()
    nlp = load_pipeline(recogniser=args.model)
    loading = time.perf_counter() - started
    papers = [Paper(id=f"b{i}", title="", abstract=t) for i, t in enumerate(texts)]
    started = time.perf_counter()
    for _ in extract(papers, nlp, n_process=args.processes):
        pass
    steady = time.perf_counter() - started

    rows = [("kg extract, end to end (command, start-up included)", end_to_end),
            ("kg extract, steady (extract() on a loaded pipeline)", steady)]
    print(f"pipeline: {', '.join(nlp.pipe_names)} (loading {loading:.1f} s)")
    print(f"{'run':<55} {'abstracts/s':>12} {'words/s':>10} {'floor/kg':>9}")
    for name, seconds in rows:
        print(f"{name:<55} {len(texts) / seconds:>12.1f} {words / seconds:>10.0f} {floor / (words / seconds):>8.1f}x")
    print(f"{'blank spaCy tokenizer floor (1 process)':<55} {floor / (words / len(texts)):>12.1f} {floor:>10.0f}")
    print(f"kg extract used {cpu:.1f} CPU s (all its processes): {len(texts) / cpu:.1f} abstracts per CPU second, "
          f"{args.processes * len(texts) / cpu:.1f} abstracts/s on {args.processes} idle cores")
    print("load average (1, 5, 15 min) at the end: " + ", ".join(f"{x:.1f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
