"""From extraction records to graph rows: plain dicts, grouped by what they become.

>>> rows = graph_rows([{"id": "p1", "title": "T", "text": "We use BERT.", "venue": None, "year": None,
...     "concepts": [{"name": "BERT", "key": "bert", "type": "Method", "aliases": [], "mentions": [[7, 11]],
...     "evidence": [{"sentence": [0, 12], "rule": "gazetteer", "confidence": 0.9}], "proposed": False,
...     "confidence": 0.9}], "citations": []}])
>>> rows.concepts["Method"][0]["id"], rows.mentions["USES"][0]["evidence"]
('method:bert', 'We use BERT.')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

CONCEPT_LABELS = ("Method", "Task", "Dataset", "Metric", "Domain")
MENTION_TYPES = ("PROPOSES", "USES", "ADDRESSES", "EVALUATES_ON", "MEASURES", "IN_DOMAIN")
RELATIONSHIP_FOR_TYPE = {"Task": "ADDRESSES", "Dataset": "EVALUATES_ON", "Metric": "MEASURES", "Domain": "IN_DOMAIN"}


def relationship_for(concept: dict) -> str:
    """How a paper relates to one of its concepts."""
    if concept["type"] == "Method":
        return "PROPOSES" if concept.get("proposed") else "USES"
    return RELATIONSHIP_FOR_TYPE[concept["type"]]


def concept_id(type_: str, key: str) -> str:
    return f"{type_.lower()}:{key}"


def reference_key(citation: dict) -> str:
    """The key of an in-text citation: first author's surname and year ("hu-2021")."""
    surname = (citation["authors"] or ["unknown"])[0].split()[-1].lower()
    return f"{surname}-{citation['year'] if citation['year'] else 'n.d.'}"


@dataclass
class GraphRows:
    papers: list[dict] = field(default_factory=list)
    concepts: dict[str, list[dict]] = field(default_factory=lambda: {t: [] for t in CONCEPT_LABELS})
    mentions: dict[str, list[dict]] = field(default_factory=lambda: {t: [] for t in MENTION_TYPES})
    venues: list[dict] = field(default_factory=list)
    authors: list[dict] = field(default_factory=list)
    references: list[dict] = field(default_factory=list)


def graph_rows(records: Iterable[dict]) -> GraphRows:
    """Rows for a batch of ``kg extract`` records."""
    rows = GraphRows()
    for record in records:
        text = record["text"]
        rows.papers.append({
            "id": record["id"], "title": record["title"], "title_derived": record.get("title_derived", False),
            "abstract": text, "year": record.get("year"), "venue": record.get("venue"), "doi": record.get("doi"),
            "source": record.get("source"), "position": record.get("position"),
        })
        if record.get("venue"):
            rows.venues.append({"paper": record["id"], "name": record["venue"]})
        for author in record.get("authors") or []:
            rows.authors.append({"paper": record["id"], "name": author})
        for concept in record["concepts"]:
            cid = concept_id(concept["type"], concept["key"])
            rows.concepts[concept["type"]].append({
                "id": cid, "name": concept["name"], "type": concept["type"], "aliases": concept["aliases"],
            })
            (start, end), evidence = concept["mentions"][0], concept["evidence"][0]
            sent_start, sent_end = evidence["sentence"]
            rows.mentions[relationship_for(concept)].append({
                "paper": record["id"], "concept": cid, "evidence": text[sent_start:sent_end],
                "start": start, "end": end, "confidence": concept["confidence"],
                "extractor": evidence["rule"], "mentions": len(concept["mentions"]),
            })
        for citation in record.get("citations") or []:
            rows.references.append({
                "paper": record["id"], "key": reference_key(citation), "authors": citation["authors"],
                "year": citation["year"], "evidence": citation["text"], "start": citation["start"], "end": citation["end"],
            })
        for ref in record.get("references") or []:
            rows.references.append({"paper": record["id"], "key": ref, "authors": [], "year": None,
                                    "evidence": None, "start": None, "end": None})
    return rows
