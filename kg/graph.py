"""From extraction records to graph rows: plain dicts, grouped by what they become.

>>> rows = graph_rows([{"id": "p1", "title": "T", "text": "We use BERT.", "venue": None, "year": None,
...     "concepts": [{"name": "BERT", "key": "bert", "type": "Method", "aliases": [], "mentions": [[7, 11]],
...     "evidence": [{"sentence": [0, 12], "rule": "gazetteer", "confidence": 0.9}], "proposed": False,
...     "confidence": 0.9}], "citations": []}])
>>> rows.concepts["Method"][0]["id"], rows.mentions["USES"][0]["evidence"]
('bert', 'We use BERT.')
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import Iterable

from kg.lexicon import DOMAINS
from kg.normalize import concept_key

# Entity: a scientific thing that is no method, task, dataset or metric (a substance, gene, organism,
# disease, phenomenon or notion: SciERC's OtherScientificTerm)
CONCEPT_LABELS = ("Method", "Task", "Dataset", "Metric", "Entity", "Domain")
MENTION_TYPES = ("PROPOSES", "USES", "ADDRESSES", "EVALUATES_ON", "MEASURES", "INVOLVES", "IN_DOMAIN")
RELATIONSHIP_FOR_TYPE = {"Task": "ADDRESSES", "Dataset": "EVALUATES_ON", "Metric": "MEASURES", "Entity": "INVOLVES",
                         "Domain": "IN_DOMAIN"}


def relationship_for(concept: dict) -> str:
    """How a paper relates to one of its concepts."""
    if concept["type"] == "Method":
        return "PROPOSES" if concept.get("proposed") else "USES"
    return RELATIONSHIP_FOR_TYPE[concept["type"]]


@cache
def domain_keys() -> frozenset[str]:
    """The keys of the taxonomy's domains: a concept a paper names so is the domain's node."""
    return frozenset(concept_key(domain) for domain in DOMAINS)


def concept_id(type_: str, key: str) -> str:
    """A concept's node id: its canonical key, whatever type a paper read it as. The taxonomy's
    domains keep ids of their own ("domain:machine learning"), so that no other name takes
    them, and a concept whose key is a domain's is that domain's node: "biology" read as an
    Entity, "machine learning techniques" read as a Method meet the papers in those domains.

    >>> concept_id("Method", "low rank adaptation"), concept_id("Task", "low rank adaptation"), concept_id("Domain", "physics")
    ('low rank adaptation', 'low rank adaptation', 'domain:physics')
    >>> concept_id("Entity", "biology"), concept_id("Method", "machine learning")
    ('domain:biology', 'domain:machine learning')
    """
    return f"domain:{key}" if type_ == "Domain" or key in domain_keys() else key


_NAME_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}


def surname(name: str) -> str:
    """A person's family name folded for matching: accents and case dropped,
    "Family, Given" understood, suffixes skipped.

    >>> surname("Hal Daumé III"), surname("Rush, Alexander M."), surname("van der Berg")
    ('daume', 'rush', 'berg')
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    if folded.count(",") == 1:
        folded = folded.split(",")[0]
    words = [re.sub(r"[^a-z0-9-]", "", w) for w in folded.replace(",", " ").split()]
    words = [w for w in words if w and w not in _NAME_SUFFIXES]
    return words[-1] if words else ""


def reference_key(citation: dict) -> str:
    """The key of an in-text citation: first author's surname and year ("hu-2021")."""
    name = surname((citation["authors"] or [""])[0]) or "unknown"
    return f"{name}-{citation['year'] if citation['year'] else 'n.d.'}"


def cite_key(authors: list[str] | None, year: int | None) -> str | None:
    """The in-text citation key a paper answers to ("vaswani-2017"), if it has a first author and a year."""
    name = surname(authors[0]) if authors else ""
    return f"{name}-{year}" if name and year else None


@dataclass
class GraphRows:
    papers: list[dict] = field(default_factory=list)
    concepts: dict[str, list[dict]] = field(default_factory=lambda: {t: [] for t in CONCEPT_LABELS})
    mentions: dict[str, list[dict]] = field(default_factory=lambda: {t: [] for t in MENTION_TYPES})
    venues: list[dict] = field(default_factory=list)
    authors: list[dict] = field(default_factory=list)
    references: list[dict] = field(default_factory=list)


def abstract_of(record: dict) -> str:
    """The abstract a record gives its paper: none for a paper extracted from its title (so that it
    does not hide one another source gives for the same paper)."""
    text = record["text"]
    return "" if text == record["title"] and not record.get("title_derived") else text


def graph_rows(records: Iterable[dict]) -> GraphRows:
    """Rows for a batch of ``kg extract`` records. A paper met in several records keeps the
    abstract of the last that gives one (``kg.store.load.fold_papers``) and the concepts read
    from it: those of the other records are left out (whichever order the records come in)."""
    records = list(records)
    read_from = {record["id"]: i for i, record in enumerate(records) if abstract_of(record)}
    rows = GraphRows()
    for i, record in enumerate(records):
        text = record["text"]
        abstract = abstract_of(record)
        rows.papers.append({
            "id": record["id"], "title": record["title"], "title_derived": record.get("title_derived", False),
            "abstract": abstract, "year": record.get("year"), "venue": record.get("venue"), "doi": record.get("doi"),
            "source": record.get("source"), "position": record.get("position"),
            "cite_key": cite_key(record.get("authors"), record.get("year")),
        })
        if record.get("venue"):
            rows.venues.append({"paper": record["id"], "name": record["venue"]})
        for author in record.get("authors") or []:
            rows.authors.append({"paper": record["id"], "name": author})
        for concept in record["concepts"] if read_from.get(record["id"], i) == i else ():
            cid = concept_id(concept["type"], concept["key"])
            rows.concepts[concept["type"]].append({"id": cid, "name": concept["name"], "type": concept["type"]})
            (start, end), evidence = concept["mentions"][0], concept["evidence"][0]
            sent_start, sent_end = evidence["sentence"]
            rows.mentions[relationship_for(concept)].append({
                "paper": record["id"], "concept": cid, "evidence": text[sent_start:sent_end],
                "start": start, "end": end, "confidence": concept["confidence"], "salience": concept.get("salience"),
                "extractor": evidence["rule"], "mentions": len(concept["mentions"]),
                # the paper's spellings: the graph names a concept by its most common one
                "name": concept["name"], "spellings": [concept["name"], *concept["aliases"]],
            })
        for citation in record.get("citations") or []:
            rows.references.append({
                "paper": record["id"], "key": reference_key(citation), "authors": citation["authors"],
                "year": citation["year"], "evidence": citation["text"], "start": citation["start"], "end": citation["end"],
                "in_text": True,
            })
        details = record.get("reference_details") or {}
        for ref in record.get("references") or []:
            known = details.get(ref) or {}
            rows.references.append({"paper": record["id"], "key": ref, "authors": known.get("authors") or [],
                                    "year": known.get("year"), "title": known.get("title"),
                                    "evidence": None, "start": None, "end": None, "in_text": False})
    return rows
