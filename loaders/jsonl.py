"""JSON with the fields of ``loaders.fields``: JSON lines, one array, or an API page."""

from __future__ import annotations

from typing import Iterator, TextIO

from kg.model import Paper
from loaders.fields import SkipRecord
from loaders.jsondocs import read_papers


def read(stream: TextIO, source: str) -> Iterator[Paper | SkipRecord]:
    return read_papers(stream, source, dict)
