"""How the vocabulary pass's matching scales: every name of a large vocabulary looked for in
every abstract of a large corpus (the work of ``kg.store.vocabulary.link_names``), in memory.

    .venv/bin/python bench/vocabulary_pass.py                 # 100,000 abstracts (../shared/tools/corpus.py)
    .venv/bin/python bench/vocabulary_pass.py --papers 10000 --shared ../shared

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
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kg.extract.vocabulary import NameMatcher  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
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
