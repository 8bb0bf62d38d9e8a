"""Every pack query, run on a small hand-made graph, returns exactly the rows worked out by hand.

The graph (tests/fixtures/queries_graph.jsonl, six ``kg extract`` records) is
loaded the way ``kg build`` loads (``kg.build.load_records``). In short:

    pA 2021 ACL      PROPOSES SparseFormer, USES Transformer; summarization; arXiv; ROUGE; NLP
    pB 2022 ACL      USES SparseFormer, Transformer; summarization; PubMed, arXiv; ROUGE; NLP      cites pA
    pC 2022 ACL      USES Transformer, BERT; question answering; SQuAD; F1; NLP                    cites pA, "Lee (2019)"
    pD 2023 NeurIPS  PROPOSES GraphNet, USES Transformer; node classification; Cora; accuracy; graphs   cites pB, pC, "Lee (2019)"
    pE 2024 NeurIPS  USES GraphNet, BERT; node classification, question answering, accuracy (a Task!);
                     Cora; accuracy; graphs (title derived)                                     cites pD, pC, smith-2020, "Lee (2019)"
    pF no year/venue no concepts, no authors                                                   cites pD, smith-2020

Concept qualities come from a model worked out by hand, not the fitted one (``HAND_MODEL``):
quality = 1 / (1 + e^(2 - 4 x mean salience)), 0.5 at a mean salience of 0.5.

Papers naming each concept (df): Transformer 4, NLP 3, PubMed/SQuAD/F1/accuracy-as-Task 1, every other 2.
``papers/similar`` weighs a concept as kg similar does: type weight x ln(1 + (6 - df + 0.5) / (df + 0.5)) x quality.

Set KG_TEST_NEO4J_URI (with NEO4J_USERNAME / NEO4J_PASSWORD) to run the same
expectations on a Neo4j 5 server too; that database is emptied first.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from helpers.packs import run_pack

from kg.build import load_records
from kg.store import concept_quality, open_store
from queries import list_queries

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "queries_graph.jsonl"
NEO4J_URI = os.environ.get("KG_TEST_NEO4J_URI")

TITLES = {"pA": "Sparse attention for long documents", "pB": "Summarizing biomedical papers",
          "pC": "Reading comprehension with BERT", "pD": "Graph networks for citation graphs",
          "pE": "We scale GraphNet and BERT to node classification", "pF": "A position paper on evaluation"}


def records() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


HAND_MODEL = {"bias": -2.0, "weights": {"salience": 4.0}}


def hand_quality(mean_salience: float) -> float:
    return round(1 / (1 + math.exp(2 - 4 * mean_salience)), 3)


def relevance(salience: float, mean_salience: float) -> float:
    return round(salience * hand_quality(mean_salience), 3)


def load_fixture(store) -> None:
    store.run("MATCH (n) DETACH DELETE n", write=True)
    with pytest.MonkeyPatch.context() as patch:  # the build computes each concept's quality as it loads
        patch.setattr(concept_quality, "model", lambda: HAND_MODEL)
        load_records(store, records())


@pytest.fixture(scope="module", params=["embedded"] + (["neo4j"] if NEO4J_URI else []))
def graph(request, session_store, module_graphs):
    """The fixture graph in the embedded store (and in Neo4j when KG_TEST_NEO4J_URI is set)."""
    if request.param == "embedded":
        module_graphs.keep(request, load_fixture)
        yield session_store
        return
    with open_store(uri=NEO4J_URI) as store:
        load_fixture(store)
        yield store


TYPE_WEIGHT = {"Metric": 0.5, "Domain": 0.25}


# each concept's mean salience in the fixture (its quality: hand_quality)
MEAN_SALIENCE = {"arXiv": 0.3, "SparseFormer": 0.8, "summarization": 0.8, "ROUGE": 0.7, "Transformer": 0.6,
                 "natural language processing": 0.5, "BERT": 0.8, "question answering": 0.75, "GraphNet": 0.85,
                 "node classification": 0.85}


def w(df: int, concept_type: str = "Method", name: str | None = None) -> float:
    """The weight ``papers/similar`` gives the concept ``name`` of ``concept_type`` named by ``df`` of the
    6 papers: as kg similar weighs it, times its quality (from its mean salience in the fixture)."""
    return TYPE_WEIGHT.get(concept_type, 1.0) * math.log(1 + (6 - df + 0.5) / (df + 0.5)) * hand_quality(MEAN_SALIENCE[name])


def weighted(*pairs) -> list[dict]:
    return [{"name": name, "type": type_, "weight": w(df, type_, name)} for name, type_, df in pairs]


def sharing(pid: str, *pairs) -> dict:
    """A row of ``papers/similar``: the paper, the concepts it shares (name, type, df) and their sum."""
    shared = weighted(*pairs)
    return paper(pid, score=sum(c["weight"] for c in shared), shared=shared)


def paper(pid: str, **more) -> dict:
    return {"id": pid, "title": TITLES[pid], **more}


NLP = "natural language processing"
# query -> list of (parameters, exact rows in order)
EXPECTED: dict[str, list[tuple[dict, list[dict]]]] = {
    "overview/counts": [({}, [
        {"kind": "node", "name": n, "count": c} for n, c in [
            ("Author", 3), ("Concept", 16), ("Dataset", 4), ("Domain", 2), ("Method", 4), ("Metric", 3), ("Paper", 6),
            ("Reference", 2), ("Task", 3), ("Venue", 2)]] + [
        {"kind": "relationship", "name": n, "count": c} for n, c in [
            ("ADDRESSES", 7), ("CITES", 12), ("EVALUATES_ON", 6), ("IN_DOMAIN", 5), ("MEASURES", 5), ("PROPOSES", 2),
            ("PUBLISHED_IN", 5), ("USES", 8), ("WROTE", 7)]])],
    # ties on papers go to the concept mentioned most: "question answering (QA)" is two mentions in pC
    # by weight: the papers extracting a concept x its quality^4 (SQuAD 1 x 0.83^4 = 0.48 over Cora 2 x 0.69^4 = 0.45) (0.5 or more unless all: a mean salience of
    # 0.5 or more); arXiv (0.3) and graphs (0.35) are listed with all only; accuracy: pD 0.55, pE the higher of 0.6 and 0.5
    "overview/top-concepts": [({"per_type": "2"}, [
        {"type": "Dataset", "concept": "SQuAD", "papers": 1, "mentions": 1, "quality": hand_quality(0.9)},
        {"type": "Dataset", "concept": "Cora", "papers": 2, "mentions": 2, "quality": hand_quality(0.7)},
        {"type": "Domain", "concept": NLP, "papers": 3, "mentions": 3, "quality": hand_quality(0.5)},
        {"type": "Method", "concept": "GraphNet", "papers": 2, "mentions": 2, "quality": hand_quality(0.85)},
        {"type": "Method", "concept": "BERT", "papers": 2, "mentions": 2, "quality": hand_quality(0.8)},  # over Transformer: 4 x 0.6^4
        {"type": "Metric", "concept": "ROUGE", "papers": 2, "mentions": 2, "quality": hand_quality(0.7)},
        {"type": "Metric", "concept": "F1", "papers": 1, "mentions": 1, "quality": hand_quality(0.7)},  # 0.227 over accuracy's 0.217
        {"type": "Task", "concept": "node classification", "papers": 2, "mentions": 2, "quality": hand_quality(0.85)},
        {"type": "Task", "concept": "summarization", "papers": 2, "mentions": 2, "quality": hand_quality(0.8)}]),
        ({"per_type": "1", "all": "true"}, [
        {"type": "Dataset", "concept": "SQuAD", "papers": 1, "mentions": 1, "quality": hand_quality(0.9)},
        {"type": "Domain", "concept": NLP, "papers": 3, "mentions": 3, "quality": hand_quality(0.5)},
        {"type": "Method", "concept": "GraphNet", "papers": 2, "mentions": 2, "quality": hand_quality(0.85)},
        {"type": "Metric", "concept": "ROUGE", "papers": 2, "mentions": 2, "quality": hand_quality(0.7)},
        {"type": "Task", "concept": "node classification", "papers": 2, "mentions": 2, "quality": hand_quality(0.85)}])],
    "overview/most-connected-papers": [({"top": "3"}, [
        paper("pE", concepts=8, references=4, cited_by=0, links=12),
        paper("pD", concepts=6, references=3, cited_by=2, links=11),
        paper("pC", concepts=6, references=2, cited_by=2, links=10)])],
    "concepts/profile": [
        ({"concept": "TRANSFORMERS", "top": "5"}, [{
            "id": "transformer", "name": "Transformer", "type": "Method",
            "aliases": ["Transformer model", "self-attention network", "transformers"], "paper_count": 4,
            "papers": [{"id": "pD", "title": TITLES["pD"], "year": 2023, "relation": "USES"},
                       {"id": "pB", "title": TITLES["pB"], "year": 2022, "relation": "USES"},
                       {"id": "pC", "title": TITLES["pC"], "year": 2022, "relation": "USES"},
                       {"id": "pA", "title": TITLES["pA"], "year": 2021, "relation": "USES"}],
            "co_occurring": [{"name": NLP, "type": "Domain", "papers": 3}, {"name": "arXiv", "type": "Dataset", "papers": 2},
                             {"name": "ROUGE", "type": "Metric", "papers": 2},
                             {"name": "SparseFormer", "type": "Method", "papers": 2},
                             {"name": "summarization", "type": "Task", "papers": 2}]}]),
        # by its id through the index; the papers listed capped, all of them counted
        ({"concept": "transformer", "top": "1", "papers": "2"}, [{
            "id": "transformer", "name": "Transformer", "type": "Method",
            "aliases": ["Transformer model", "self-attention network", "transformers"], "paper_count": 4,
            "papers": [{"id": "pD", "title": TITLES["pD"], "year": 2023, "relation": "USES"},
                       {"id": "pB", "title": TITLES["pB"], "year": 2022, "relation": "USES"}],
            "co_occurring": [{"name": NLP, "type": "Domain", "papers": 3}]}]),
        # one name, one concept: the type most papers read it as, each paper's reading on its edge
        ({"concept": "accuracy", "top": "2"}, [
            {"id": "accuracy", "name": "accuracy", "type": "Metric", "aliases": [], "paper_count": 2,
             "papers": [{"id": "pE", "title": TITLES["pE"], "year": 2024, "relation": "ADDRESSES"},
                        {"id": "pE", "title": TITLES["pE"], "year": 2024, "relation": "MEASURES"},
                        {"id": "pD", "title": TITLES["pD"], "year": 2023, "relation": "MEASURES"}],
             "co_occurring": [{"name": "Cora", "type": "Dataset", "papers": 2}, {"name": "GraphNet", "type": "Method", "papers": 2}]}]),
        ({"concept": "nothing"}, []),
    ],
    "concepts/method-dataset-matrix": [
        ({}, [{"method": m, "dataset": d, "papers": len(ids), "ids": ids} for m, d, ids in [
            ("GraphNet", "Cora", ["pD", "pE"]), ("SparseFormer", "arXiv", ["pA", "pB"]), ("Transformer", "arXiv", ["pA", "pB"]),
            ("BERT", "Cora", ["pE"]), ("BERT", "SQuAD", ["pC"]), ("SparseFormer", "PubMed", ["pB"]),
            ("Transformer", "Cora", ["pD"]), ("Transformer", "PubMed", ["pB"]), ("Transformer", "SQuAD", ["pC"])]]),
        ({"min_papers": "2", "top": "2"}, [
            {"method": "GraphNet", "dataset": "Cora", "papers": 2, "ids": ["pD", "pE"]},
            {"method": "SparseFormer", "dataset": "arXiv", "papers": 2, "ids": ["pA", "pB"]}]),
    ],
    "concepts/method-task-matrix": [
        ({}, [{"method": m, "task": t, "papers": len(ids), "ids": ids} for m, t, ids in [
            ("BERT", "question answering", ["pC", "pE"]), ("GraphNet", "node classification", ["pD", "pE"]),
            ("SparseFormer", "summarization", ["pA", "pB"]), ("Transformer", "summarization", ["pA", "pB"]),
            ("BERT", "node classification", ["pE"]),
            ("GraphNet", "question answering", ["pE"]), ("Transformer", "node classification", ["pD"]),
            ("Transformer", "question answering", ["pC"])]]),
        ({"min_papers": "3"}, []),
    ],
    "concepts/in-one-paper": [
        ({}, [{"type": "Dataset", "concept": "PubMed", "paper": "pB", "title": TITLES["pB"]},
              {"type": "Dataset", "concept": "SQuAD", "paper": "pC", "title": TITLES["pC"]},
              {"type": "Metric", "concept": "F1", "paper": "pC", "title": TITLES["pC"]}]),
        ({"type": "metric"}, [{"type": "Metric", "concept": "F1", "paper": "pC", "title": TITLES["pC"]}]),
    ],
    "concepts/search": [
        ({"text": "FORM"}, [
            {"id": "transformer", "type": "Method", "name": "Transformer",
             "aliases": ["Transformer model", "self-attention network", "transformers"], "papers": 4},
            {"id": "sparseformer", "type": "Method", "name": "SparseFormer", "aliases": ["Sparse Former"], "papers": 2}]),
        ({"text": "attention"}, [  # found through an alias only
            {"id": "transformer", "type": "Method", "name": "Transformer",
             "aliases": ["Transformer model", "self-attention network", "transformers"], "papers": 4}]),
    ],
    "papers/sharing-concepts": [
        ({"paper": "pB"}, [
            paper("pA", shared_count=6, shared=["arXiv", NLP, "ROUGE", "SparseFormer", "summarization", "Transformer"]),
            paper("pC", shared_count=2, shared=[NLP, "Transformer"]),
            paper("pD", shared_count=1, shared=["Transformer"])]),
        ({"paper": "pF"}, []),
        ({"paper": "x' OR 1=1 //"}, []),
    ],
    "papers/similar": [
        ({"paper": "pB"}, [
            sharing("pA", ("SparseFormer", "Method", 2), ("summarization", "Task", 2), ("ROUGE", "Metric", 2),
                    ("arXiv", "Dataset", 2), ("Transformer", "Method", 4), (NLP, "Domain", 3)),
            sharing("pC", ("Transformer", "Method", 4), (NLP, "Domain", 3)),
            sharing("pD", ("Transformer", "Method", 4))]),
        # two rarer concepts outweigh two common ones: pE comes first, where counting alone would put it last
        ({"paper": "pC", "top": "3"}, [
            sharing("pE", ("BERT", "Method", 2), ("question answering", "Task", 2)),
            sharing("pA", ("Transformer", "Method", 4), (NLP, "Domain", 3)),
            sharing("pB", ("Transformer", "Method", 4), (NLP, "Domain", 3))]),
        ({"paper": "pE", "types": "method,TASK"}, [
            sharing("pD", ("GraphNet", "Method", 2), ("node classification", "Task", 2)),
            sharing("pC", ("BERT", "Method", 2), ("question answering", "Task", 2))]),
        ({"paper": "pB", "types": "Method"}, [
            sharing("pA", ("SparseFormer", "Method", 2), ("Transformer", "Method", 4)),
            sharing("pC", ("Transformer", "Method", 4)),
            sharing("pD", ("Transformer", "Method", 4))]),
        ({"paper": "pF"}, []),
    ],
    "papers/shared-concepts": [
        ({"a": "pA", "b": "pB"}, [
            {"type": "Dataset", "concept": "arXiv", "relation_a": "EVALUATES_ON", "relation_b": "EVALUATES_ON", "papers": 2},
            {"type": "Domain", "concept": NLP, "relation_a": "IN_DOMAIN", "relation_b": "IN_DOMAIN", "papers": 3},
            {"type": "Method", "concept": "SparseFormer", "relation_a": "PROPOSES", "relation_b": "USES", "papers": 2},
            {"type": "Method", "concept": "Transformer", "relation_a": "USES", "relation_b": "USES", "papers": 4},
            {"type": "Metric", "concept": "ROUGE", "relation_a": "MEASURES", "relation_b": "MEASURES", "papers": 2},
            {"type": "Task", "concept": "summarization", "relation_a": "ADDRESSES", "relation_b": "ADDRESSES", "papers": 2}]),
        ({"a": "pA", "b": "pE"}, []),
    ],
    "papers/method-on-dataset": [
        ({"method": "graphnet", "dataset": "CORA"}, [
            paper("pE", year=2024, method="GraphNet", relation="USES", dataset="Cora"),
            paper("pD", year=2023, method="GraphNet", relation="PROPOSES", dataset="Cora")]),
        ({"method": "Sparse Former", "dataset": "pubmed"}, [  # an alias and an id
            paper("pB", year=2022, method="SparseFormer", relation="USES", dataset="PubMed")]),
        ({"method": "BERT", "dataset": "arXiv"}, []),
    ],
    "papers/proposing-methods": [({}, [
        paper("pD", year=2023, method="GraphNet", used_by=1),
        paper("pA", year=2021, method="SparseFormer", used_by=1)])],
    # the most relevant first (salience in the paper x the concept's quality, from its mean salience), the top 10
    # unless all (every edge, vocabulary links too)
    "papers/concepts": [({"paper": "pD", "top": "2"}, [
        {"relation": "PROPOSES", "type": "Method", "concept": "GraphNet", "relevance": relevance(0.9, 0.85), "salience": 0.9, "quality": hand_quality(0.85), "extractor": "we_propose", "confidence": 0.8,
         "evidence": "We propose GraphNet, which mixes message passing with a Transformer, for node classification."},
        {"relation": "ADDRESSES", "type": "Task", "concept": "node classification", "relevance": relevance(0.8, 0.85), "salience": 0.8, "quality": hand_quality(0.85), "extractor": "head_noun",
         "confidence": 0.6, "evidence": "We propose GraphNet, which mixes message passing with a Transformer, for node classification."}]),
        ({"paper": "pD"}, [
        {"relation": "PROPOSES", "type": "Method", "concept": "GraphNet", "relevance": relevance(0.9, 0.85), "salience": 0.9, "quality": hand_quality(0.85), "extractor": "we_propose", "confidence": 0.8,
         "evidence": "We propose GraphNet, which mixes message passing with a Transformer, for node classification."},
        {"relation": "ADDRESSES", "type": "Task", "concept": "node classification", "relevance": relevance(0.8, 0.85), "salience": 0.8, "quality": hand_quality(0.85), "extractor": "head_noun",
         "confidence": 0.6, "evidence": "We propose GraphNet, which mixes message passing with a Transformer, for node classification."},
        {"relation": "EVALUATES_ON", "type": "Dataset", "concept": "Cora", "relevance": relevance(0.7, 0.7), "salience": 0.7, "quality": hand_quality(0.7), "extractor": "gazetteer", "confidence": 0.9,
         "evidence": "It reaches high accuracy on Cora, a benchmark of graphs, as Lee (2019) asked."},
        {"relation": "USES", "type": "Method", "concept": "Transformer", "relevance": relevance(0.6, 0.6), "salience": 0.6, "quality": hand_quality(0.6), "extractor": "gazetteer", "confidence": 0.9,
         "evidence": "We propose GraphNet, which mixes message passing with a Transformer, for node classification."},
        {"relation": "MEASURES", "type": "Metric", "concept": "accuracy", "relevance": relevance(0.55, 0.575), "salience": 0.55, "quality": hand_quality(0.575), "extractor": "gazetteer", "confidence": 0.9,
         "evidence": "It reaches high accuracy on Cora, a benchmark of graphs, as Lee (2019) asked."},
        {"relation": "IN_DOMAIN", "type": "Domain", "concept": "graphs", "relevance": relevance(0.3, 0.35), "salience": 0.3, "quality": hand_quality(0.35), "extractor": "domain_lexicon", "confidence": 0.7,
         "evidence": "It reaches high accuracy on Cora, a benchmark of graphs, as Lee (2019) asked."}])],
    "papers/find": [
        ({"text": "GRAPH"}, [paper("pE", year=2024, venue="NeurIPS"), paper("pD", year=2023, venue="NeurIPS")]),
        ({"text": "biomedical"}, [paper("pB", year=2022, venue="ACL")]),  # in title and abstract: once
        ({"text": "position paper", "top": "5"}, [paper("pF", year=None, venue=None)]),
        ({"text": "pc"}, [paper("pC", year=2022, venue="ACL")]),  # an id
    ],
    "papers/with-concepts": [
        ({"concepts": "transformer,ROUGE"}, [paper("pB", year=2022, concepts=["ROUGE", "Transformer"]),
                                             paper("pA", year=2021, concepts=["ROUGE", "Transformer"])]),
        ({"concepts": '["QA", "bert", "Bert"]'}, [  # an alias, a repeated name
            paper("pE", year=2024, concepts=["BERT", "question answering"]),
            paper("pC", year=2022, concepts=["BERT", "question answering"])]),
        ({"concepts": "GraphNet,SQuAD"}, []),
    ],
    "citations/most-cited": [({}, [
        {"kind": "Reference", "id": "lee-2019", "title": "Lee", "year": 2019, "cited_by": 3},
        {"kind": "Paper", "id": "pA", "title": TITLES["pA"], "year": 2021, "cited_by": 2},
        {"kind": "Paper", "id": "pC", "title": TITLES["pC"], "year": 2022, "cited_by": 2},
        {"kind": "Paper", "id": "pD", "title": TITLES["pD"], "year": 2023, "cited_by": 2},
        {"kind": "Reference", "id": "smith-2020", "title": None, "year": None, "cited_by": 2},
        {"kind": "Paper", "id": "pB", "title": TITLES["pB"], "year": 2022, "cited_by": 1}])],
    "citations/paths": [
        ({"citing": "pF", "cited": "pA"}, [
            {"hops": 3, "works": ["pF", "pD", "pB", "pA"], "titles": [TITLES[p] for p in ("pF", "pD", "pB", "pA")]},
            {"hops": 3, "works": ["pF", "pD", "pC", "pA"], "titles": [TITLES[p] for p in ("pF", "pD", "pC", "pA")]}]),
        ({"citing": "pE", "cited": "pA"}, [  # only the shortest of the three chains
            {"hops": 2, "works": ["pE", "pC", "pA"], "titles": [TITLES[p] for p in ("pE", "pC", "pA")]}]),
        ({"citing": "pF", "cited": "lee-2019"}, [  # ends at an unresolved reference
            {"hops": 2, "works": ["pF", "pD", "lee-2019"], "titles": [TITLES["pF"], TITLES["pD"], "Lee"]}]),
        ({"citing": "pA", "cited": "pF"}, []),  # citations only go back
        ({"citing": "pA", "cited": "pA"}, []),
    ],
    "citations/co-citation": [
        ({"work": "pC"}, [
            {"kind": "Reference", "id": "lee-2019", "title": "Lee", "co_cited": 2, "citers": ["pD", "pE"]},
            {"kind": "Paper", "id": "pB", "title": TITLES["pB"], "co_cited": 1, "citers": ["pD"]},
            {"kind": "Paper", "id": "pD", "title": TITLES["pD"], "co_cited": 1, "citers": ["pE"]},
            {"kind": "Reference", "id": "smith-2020", "title": None, "co_cited": 1, "citers": ["pE"]}]),
        ({"work": "smith-2020", "top": "2"}, [
            {"kind": "Paper", "id": "pD", "title": TITLES["pD"], "co_cited": 2, "citers": ["pE", "pF"]},
            {"kind": "Reference", "id": "lee-2019", "title": "Lee", "co_cited": 1, "citers": ["pE"]}]),
    ],
    "citations/coupling": [
        ({"paper": "pD"}, [paper("pE", shared_count=2, shared_references=["lee-2019", "pC"]),
                           paper("pC", shared_count=1, shared_references=["lee-2019"])]),
        ({"paper": "pA"}, []),
    ],
    "citations/unresolved": [({}, [
        {"key": "lee-2019", "title": None, "authors": ["Lee"], "year": 2019, "cited_by": 3, "citers": ["pC", "pD", "pE"],
         "candidates": None},
        {"key": "smith-2020", "title": None, "authors": [], "year": None, "cited_by": 2, "citers": ["pE", "pF"],
         "candidates": None}])],
    "trends/concepts-by-year": [
        ({"per_year": "2"}, [{"year": y, "type": t, "concept": c, "papers": n} for y, t, c, n in [
            (2021, "Dataset", "arXiv", 1), (2021, "Domain", NLP, 1),
            (2022, "Domain", NLP, 2), (2022, "Method", "Transformer", 2),
            (2023, "Metric", "accuracy", 1), (2023, "Dataset", "Cora", 1),
            (2024, "Metric", "accuracy", 1), (2024, "Method", "BERT", 1)]]),
        ({"type": "method", "per_year": "2"}, [{"year": y, "type": "Method", "concept": c, "papers": n} for y, c, n in [
            (2021, "SparseFormer", 1), (2021, "Transformer", 1), (2022, "Transformer", 2), (2022, "BERT", 1),
            (2023, "GraphNet", 1), (2023, "Transformer", 1), (2024, "BERT", 1), (2024, "GraphNet", 1)]]),
    ],
    "trends/new-concepts": [({"examples": "3"}, [
        {"year": 2021, "papers": 1, "new_concepts": 6, "examples": ["arXiv", NLP, "ROUGE"]},
        {"year": 2022, "papers": 2, "new_concepts": 5, "examples": ["BERT", "F1", "PubMed"]},
        {"year": 2023, "papers": 1, "new_concepts": 5, "examples": ["accuracy", "Cora", "GraphNet"]},
        {"year": 2024, "papers": 1, "new_concepts": 0, "examples": []}])],
    "trends/concept-timeline": [
        ({"concept": "transformer"}, [{"type": "Method", "concept": "Transformer", "year": y, "papers": n}
                                      for y, n in [(2021, 1), (2022, 2), (2023, 1)]]),
        ({"concept": "accuracy"}, [{"type": "Metric", "concept": "accuracy", "year": 2023, "papers": 1},
                                   {"type": "Metric", "concept": "accuracy", "year": 2024, "papers": 1}]),
    ],
    "quality/many-aliases": [
        ({"min_aliases": "2"}, [
            {"type": "Domain", "concept": NLP, "alias_count": 3, "aliases": ["NLP", "language model", "text"]},
            {"type": "Method", "concept": "Transformer", "alias_count": 3,
             "aliases": ["Transformer model", "self-attention network", "transformers"]},
            {"type": "Domain", "concept": "graphs", "alias_count": 2, "aliases": ["graph", "node"]}]),
        ({}, [  # default: three or more
            {"type": "Domain", "concept": NLP, "alias_count": 3, "aliases": ["NLP", "language model", "text"]},
            {"type": "Method", "concept": "Transformer", "alias_count": 3,
             "aliases": ["Transformer model", "self-attention network", "transformers"]}]),
    ],
    "quality/papers-without-concepts": [({}, [
        {"id": "pF", "title": TITLES["pF"], "source": "tests/fixtures/queries_graph.jsonl",
         "abstract_chars": len("A position paper on how the field evaluates its models.")}])],
    "quality/same-name-types": [({}, [
        {"name": "accuracy", "type": "Metric", "types": ["Metric", "Task"], "papers": [2, 1], "id": "accuracy"}])],
    "quality/extractors": [({}, [
        {"extractor": "gazetteer", "links": 19, "avg_confidence": 0.9, "min_confidence": 0.9},
        {"extractor": "head_noun", "links": 7, "avg_confidence": 0.6, "min_confidence": 0.6},
        {"extractor": "domain_lexicon", "links": 5, "avg_confidence": 0.7, "min_confidence": 0.7},
        {"extractor": "we_propose", "links": 2, "avg_confidence": 0.8, "min_confidence": 0.8}])],
    "quality/missing-metadata": [({}, [
        paper("pE", missing=["title"]), paper("pF", missing=["year", "venue", "authors"])])],
}

CASES = [(name, params, rows) for name, cases in EXPECTED.items() for params, rows in cases]

# The labels and relationship types of the graph schema (docs/schema.md); overview/counts is compared on
# these (the build may keep more, e.g. an alias table), after checking that its rows come sorted.
SCHEMA_NAMES = {row["name"] for row in EXPECTED["overview/counts"][0][1]}


def schema_rows(rows: list[dict]) -> list[dict]:
    assert [(r["kind"], r["name"]) for r in rows] == sorted((r["kind"], r["name"]) for r in rows)
    return [r for r in rows if r["name"] in SCHEMA_NAMES]


ONLY = {"overview/counts": schema_rows}


def rounded(value):
    """Floats to 3 decimals, recursively: the stores may sum in another order. Rounded to 4 first,
    as the queries round their scores, so a value and its query's rounding meet on the same side."""
    if isinstance(value, float):
        return round(round(value, 4), 3)
    if isinstance(value, list):
        return [rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    return value


def test_every_pack_query_has_asserted_rows():
    names = {q.name for q in list_queries()}
    assert names - EXPECTED.keys() == set(), "pack queries without asserted rows"
    assert EXPECTED.keys() - names == set(), "expectations for queries that do not exist"
    assert len(names) >= 25
    # most expectations are not empty: a query that returns nothing proves little
    assert all(any(rows for _, rows in EXPECTED[name]) for name in names)


@pytest.mark.parametrize("name,params,expected", CASES, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(CASES)])
def test_pack_query_returns_the_rows_worked_out_by_hand(graph, name, params, expected):
    rows = run_pack(graph, name, params)
    assert rounded(ONLY.get(name, list)(rows)) == rounded(expected)



def found_by_words(graph, text: str) -> list[dict]:
    """What papers/find answers, worked out here from the stored papers: those with a word that
    begins with the text's rarest indexed word (every paper when none is indexed) that have the text."""
    from kg.textsim import fold_plural, paper_text, terms

    papers = graph.run("MATCH (p:Paper) RETURN p.id AS id, p.title AS title, p.abstract AS abstract, "
                       "p.title_derived AS title_derived, p.year AS year, p.venue AS venue")
    df = {r["id"]: r["df"] for r in graph.run("MATCH (t:Term) RETURN t.id AS id, t.df AS df")}
    indexed = [fold_plural(piece) for piece in text.lower().split(" ") if fold_plural(piece) in df]
    if indexed:
        rarest = min(indexed, key=lambda w: (not df[w], df[w], w))
        papers = [p for p in papers if any(word.startswith(rarest) for word in
                                           terms(paper_text(p["title"], p["abstract"], p["title_derived"])))]
    found = [p for p in papers if p["id"].lower() == text.lower()
             or text.lower() in (p["title"] or "").lower() or text.lower() in (p["abstract"] or "").lower()]
    found.sort(key=lambda p: (-(p["year"] or 0), p["id"]))
    return [{k: p[k] for k in ("id", "title", "year", "venue")} for p in found]


def test_find_reads_the_papers_of_the_texts_rarest_indexed_word(graph):
    texts = " ".join(f"{r['title']} {r['abstract']}" for r in graph.run("MATCH (p:Paper) RETURN p.title AS title, p.abstract AS abstract"))
    words = [w.strip(".,;:()") for w in texts.split()]
    # each word (plurals, stop words, numbers, capitals), two and three words in a row, parts of words, ids
    asked = sorted({*words, *(" ".join(words[i:i + 2]) for i in range(0, len(words), 3)),
                    *(" ".join(words[i:i + 3]) for i in range(1, len(words), 5)),
                    "etwork", "raph neu", "sparse", "Sparse", "al", "pc", "PE", ""})
    assert len(asked) > 150
    for text in asked:
        assert run_pack(graph, "papers/find", {"text": text, "top": "100"}) == found_by_words(graph, text), text
    assert [r["id"] for r in run_pack(graph, "papers/find", {"text": "sparse"})] == ["pB", "pA"]  # SparseFormer, Sparse
    assert [r["id"] for r in run_pack(graph, "papers/find", {"text": "parse"})] == ["pB", "pA"]  # no word: read anywhere
    # and a word's papers are those of its index entries: a paper whose entry is gone is not read
    rows = graph.run("MATCH (:Term {id: 'graph'})-[h:OCCURS_IN]->(p:Paper) RETURN p.id AS id ORDER BY id")
    try:
        graph.run("MATCH (t:Term)-[h:OCCURS_IN]->(:Paper {id: $id}) WHERE t.id STARTS WITH 'graph' DELETE h",
                  {"id": rows[0]["id"]}, write=True)
        found = {r["id"] for r in run_pack(graph, "papers/find", {"text": "graphs"})}
        assert rows[0]["id"] not in found and found == {r["id"] for r in rows[1:]}
    finally:
        load_fixture(graph)
