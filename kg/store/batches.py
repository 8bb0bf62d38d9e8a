"""Batches of a stream: the one helper the loads, the vocabulary pass and ``Store.run_batches`` share.

It imports nothing of kg, so any module of the store layer or above can use it without a circle.

>>> [batch for batch in batched(range(5), 2)]
[[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import itertools
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Lists of ``size`` items (the last one shorter), read lazily: memory holds one batch."""
    if size < 1:
        raise ValueError(f"a batch holds at least one item, not {size}")
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch
