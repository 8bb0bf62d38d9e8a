"""The matrix product the fast recogniser multiplies most, by thinc's blis and by numpy's BLAS.

    python bench/gemm.py            # 256 x 288 by 288 x 288 (float32), best of 5 runs of 500 products

The shape is the recogniser's CNN layers' (width 96, three maxout pieces, a batch of 256 words).
``kg.extract.blas`` sends the recogniser's products to numpy on one thread; this script says
what that is worth on the machine it runs on. Not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import timeit

import numpy
from thinc.api import NumpyOps
from threadpoolctl import threadpool_limits

from kg.extract.blas import NumpyBlasOps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=256)
    parser.add_argument("--width", type=int, default=288)
    parser.add_argument("--number", type=int, default=500)
    args = parser.parse_args()
    rng = numpy.random.default_rng(0)
    x = rng.random((args.rows, args.width), dtype="float32")
    w = rng.random((args.width, args.width), dtype="float32")
    blis, blas = NumpyOps(), NumpyBlasOps()
    assert numpy.allclose(blis.gemm(x, w, trans2=True), blas.gemm(x, w, trans2=True), rtol=1e-4)
    with threadpool_limits(limits=1, user_api="blas"):
        times = {name: min(timeit.repeat(lambda ops=ops: ops.gemm(x, w, trans2=True), number=args.number, repeat=5))
                 for name, ops in (("thinc NumpyOps (blis)", blis), ("kg NumpyBlasOps (numpy, 1 thread)", blas))}
    base = times["thinc NumpyOps (blis)"]
    print(f"{args.rows} x {args.width} by {args.width} x {args.width}, float32")
    for name, seconds in times.items():
        print(f"{name:<36} {seconds / args.number * 1e6:8.0f} us per product  {base / seconds:5.2f}x")


if __name__ == "__main__":
    main()
