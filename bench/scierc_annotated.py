"""SciERC's human annotation as concepts, written as ``kg`` reads the abstracts: the concepts people
marked, to measure the extractor's judged quality and sharing against (``concept_sample.py blind``,
``concept_sharing.py --annotated``).

``annotated_concepts(path)`` yields, per document, its paper id (``loaders.scierc``'s: an ACL id as it
is, others ``scierc:<doc_key>``), its abstract (detokenised by the same loader) and one record concept
per (type, key) of the spans annotated as Method, Task, Material (Dataset), Metric or
OtherScientificTerm (Entity), in the shape of a ``kg extract`` record's ``concepts`` (Generic is no
concept: "method", "approach"). A span's trailing acronym in brackets ("real-time statistical voice
conversion (VC)") is left out of its name, as ``kg``'s acronym reading does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from kg.evaluation.scierc import TRAINING_TYPES
from kg.extract.mentions import RECOGNISED_AS
from kg.normalize import concept_key, display_name
from loaders.scierc import PTB_TOKENS, detokenize, doc_fields

TYPES = {label: RECOGNISED_AS.get(kind, kind) for label, kind in TRAINING_TYPES.items() if kind != "Generic"}
_ACRONYM_AFTER = re.compile(r" \(\S+\)$")


def annotated_concepts(path: str | Path) -> Iterator[tuple[str, str, list[dict]]]:
    """(paper id, abstract, record concepts) of every document of a SciERC DyGIE JSON file."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            doc = json.loads(line)
            fields = doc_fields(doc)
            text = fields["abstract"]
            starts, ends, sentences = _token_offsets(text, doc["sentences"])
            concepts: dict[tuple[str, str], dict] = {}
            for first, last, label in (span for spans in doc.get("ner") or [] for span in spans):
                mention = text[starts[first]:ends[last]]
                named = _ACRONYM_AFTER.sub("", mention)
                key = concept_key(named)
                if label not in TYPES or not key:
                    continue
                sentence = next([a, b] for a, b in sentences if a <= starts[first] < b)
                concept = concepts.setdefault((TYPES[label], key), {
                    "name": display_name(named), "type": TYPES[label], "key": key, "aliases": [], "merges": [],
                    "mentions": [], "evidence": [], "proposed": False if TYPES[label] == "Method" else None,
                    "confidence": 1.0})
                if named.lower() != concept["name"].lower() and named not in concept["aliases"]:
                    concept["aliases"].append(named)
                    concept["merges"].append({"alias": named, "reason": "spelling"})
                concept["mentions"].append([starts[first], ends[last]])
                concept["evidence"].append({"sentence": sentence, "rule": "annotation", "confidence": 1.0})
            yield fields["id"], text, list(concepts.values())


def _token_offsets(text: str, sentences: list[list[str]]) -> tuple[list[int], list[int], list[tuple[int, int]]]:
    """Each token's start and end in the detokenised ``text`` (it only drops spaces), and each sentence's span."""
    starts, ends, spans, at = [], [], [], 0
    for sentence in sentences:
        sentence_start = text.index(detokenize(sentence), at) if sentence else at
        for token in sentence:
            at = text.index(PTB_TOKENS.get(token, token), at)
            starts.append(at)
            at += len(PTB_TOKENS.get(token, token))
            ends.append(at)
        spans.append((sentence_start, at))
    return starts, ends, spans
