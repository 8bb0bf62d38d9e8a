"""SciERC (Luan et al., 2018) in the DyGIE JSON format: one document per line.

A document's text is its tokens joined by single spaces, sentences joined by
single spaces; entity spans (inclusive token indices over the whole document)
become character offsets into that text.

>>> doc = parse_line('{"doc_key": "d", "sentences": [["We", "use", "BERT", "."], ["Done", "."]],'
...                  ' "ner": [[[2, 2, "Method"]], []]}')
>>> doc.text, doc.entities
('We use BERT . Done .', [Entity(start=7, end=11, label='Method')])
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, NamedTuple

# SciERC type -> the project's concept type; other SciERC types are not scored.
TYPE_MAP = {"Method": "Method", "Task": "Task", "Metric": "Metric", "Material": "Dataset"}
SCORED_TYPES = ("Method", "Task", "Dataset", "Metric")
# Training also learns SciERC's unscored types, so that their spans are not taught as "no entity";
# the extractor drops them (``mentions.SCORED_LABELS``).
TRAINING_TYPES = {**TYPE_MAP, "Generic": "Generic", "OtherScientificTerm": "OtherScientificTerm"}


class Entity(NamedTuple):
    start: int
    end: int
    label: str


@dataclass
class SciercDoc:
    key: str
    text: str
    entities: list[Entity] = field(default_factory=list)  # project types only
    sentences: list[tuple[int, int]] = field(default_factory=list)


def parse_line(line: str, types: dict[str, str] = TYPE_MAP) -> SciercDoc:
    """One document; its entities of the SciERC types in ``types``, renamed by it."""
    record = json.loads(line)
    sentences = record["sentences"]
    starts: list[int] = []  # character offset of every token of the document
    ends: list[int] = []
    sent_spans: list[tuple[int, int]] = []
    offset = 0
    for sentence in sentences:
        sent_start = offset
        for token in sentence:
            starts.append(offset)
            ends.append(offset + len(token))
            offset += len(token) + 1
        sent_spans.append((sent_start, offset - 1))
    text = " ".join(" ".join(sentence) for sentence in sentences)
    entities = []
    for sentence_ents in record.get("ner") or []:
        for first, last, label in sentence_ents:
            if label in types:
                entities.append(Entity(starts[first], ends[last], types[label]))
    return SciercDoc(str(record.get("doc_key", "")), text, sorted(set(entities)), sent_spans)


def read_scierc(path: str | Path, types: dict[str, str] = TYPE_MAP) -> Iterator[SciercDoc]:
    """The documents of one SciERC DyGIE JSON file (one JSON object per line)."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield parse_line(line, types)
