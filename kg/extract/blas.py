"""The fast recogniser's matrix products through numpy's BLAS, one thread per process.

thinc multiplies with blis; numpy's OpenBLAS is faster here and reads the same entities
(docs/benchmarks.md, "Extraction speed").

>>> import numpy
>>> ops = NumpyBlasOps()
>>> ops.gemm(numpy.ones((2, 3), dtype="f"), numpy.ones((4, 3), dtype="f"), trans2=True).shape
(2, 4)
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy
from thinc.api import Model, NumpyOps
from threadpoolctl import threadpool_limits


class NumpyBlasOps(NumpyOps):
    """thinc's numpy operations with ``gemm`` done by ``numpy.dot``."""

    name = "kg_numpy_blas"

    def gemm(self, x, y, out=None, trans1: bool = False, trans2: bool = False):
        return numpy.dot(x.T if trans1 else x, y.T if trans2 else y, out=out)


OPS = NumpyBlasOps()


def use_numpy_blas(model: Model) -> None:
    """Every layer of a thinc ``model`` multiplies through numpy from now on."""
    for node in model.walk():
        node.ops = OPS


@contextmanager
def one_thread() -> Iterator[None]:
    """One BLAS thread per process while extracting: extraction runs one process per core, and
    forked workers keep the limit their parent had."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield
