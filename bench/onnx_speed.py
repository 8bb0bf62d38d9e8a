"""The shipped 8-bit models as shipped and as their signed copy (``kg.onnx_lean``), in one run.

    python bench/onnx_speed.py --data ../shared/data [--n 200]

For the sentence encoder (``kg.dense``: each abstract's vector and its sentences' vectors, as a
build makes them) and the accurate recogniser (``kg.extract.accurate``: its tagger's scores over
the abstract's windows), on ``--n`` real abstracts (``bench/extract_throughput.abstracts``), one
thread: CPU milliseconds per abstract with the shipped file and with the copy the CPU gets, their
ratio, and whether every output is the same to the bit. Not a test (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))

from extract_throughput import abstracts  # noqa: E402

from kg import dense, onnx_lean  # noqa: E402
from kg.extract import accurate  # noqa: E402


def timed(run, items) -> tuple[float, list]:
    run(items[:2])  # the session made, the first run's allocations done
    started = time.process_time()
    out = run(items)
    return time.process_time() - started, out


def encoder(folder: Path):
    model = dense.Model(folder)

    def run(texts):
        found = model.encode_with_sentences(texts, [dense.sentence_spans(t) for t in texts])
        return [numpy.vstack([f.vector[None], f.sentences]) for f in found]
    return run


def tagger(folder: Path):
    tokenizer, tag = accurate.load_tokenizer(folder), accurate.OnnxTagger(folder, threads=1)

    def run(texts):
        return [tag(*accurate.padded(accurate.windows(t.split(), tokenizer))) for t in texts]
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--data", type=Path, required=True, help="the data folder (OpenAlex sample, SciERC, S2ORC)")
    args = parser.parse_args()
    if not onnx_lean.int8_dot_products():
        sys.exit("this CPU has no int8 dot products (VNNI): kg runs the shipped models as they are")
    texts = abstracts(args.n, args.data)
    print(f"{len(texts)} abstracts, one thread; {onnx_lean.SIGNED_ENV}=0 the shipped file, 1 its signed copy")
    print("| model | shipped, ms per abstract | signed copy | speed-up | outputs |")
    print("|---|---|---|---|---|")
    for name, make, folder in (("sentence encoder (kg.dense)", encoder, dense.MODEL_DIR),
                               ("accurate recogniser", tagger, accurate.MODEL_DIR)):
        results = []
        for signed in ("0", "1"):
            os.environ[onnx_lean.SIGNED_ENV] = signed
            results.append(timed(make(folder), texts))
        (shipped, before), (copy, after) = results
        same = all(numpy.array_equal(a, b) for a, b in zip(before, after))
        print(f"| {name} | {1000 * shipped / len(texts):.1f} | {1000 * copy / len(texts):.1f} | {shipped / copy:.2f}x | "
              f"{'the same to the bit' if same else 'DIFFERENT'} |")


if __name__ == "__main__":
    main()
