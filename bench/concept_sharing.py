"""Do concepts connect papers? Shares of concepts named by several papers, and concepts shared by
citation-related pairs against random pairs, on real collections (``--data``: the data folder).

    .venv/bin/python bench/concept_sharing.py                 # both collections, a table
    .venv/bin/python bench/concept_sharing.py --only scierc   # one of: openalex, scierc
    .venv/bin/python bench/concept_sharing.py --before ../wt/before   # and another checkout's code, same run

Each collection is built with ``kg.build.build`` (the code behind ``kg build``) into a fresh
embedded store, in a child process that imports ``kg`` from the checkout measured (this one,
and ``--before``'s). Relatedness comes from citations, which no extractor sees, and is the
ground truth of ``bench/similar_eval.py`` (``openalex_truth``, ``scierc_truth``):
- OpenAlex sample: works sharing >= 2 ``referenced_works``;
- SciERC train+dev abstracts whose ``doc_key`` is an ACL id: pairs related in AAN's ``acl.txt``
  (one cites the other, they share >= 2 cited papers, or >= 2 papers cite both).
Random pairs: as many pairs of the same papers drawn with a fixed seed.
How the share grows with the collection: the same share in random subsets of 1/8, 1/4 and 1/2 of
the papers, read off the whole graph (``share_in_subset``).

How the share is computed: every non-Domain ``Concept`` node of the stored graph is counted once;
it is "named by >= 2 papers" when at least two distinct papers have an edge to it, extracted
(USES, ADDRESSES, ...) or ``MENTIONS`` (its name written in their abstract, found by the
vocabulary pass). Only the stored graph is read, with Cypher that runs on any version of kg.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent

def graph_of(code: Path, sources: list[str], annotated: bool = False) -> dict:
    """Build ``sources`` with the ``kg`` of checkout ``code`` (a child process) and read what is measured;
    ``annotated``: with SciERC's annotated concepts in place of the extracted ones."""
    # PYTHONPATH too: the store's own server process imports kg from the same checkout
    env = {**os.environ, "PYTHONPATH": str(code.resolve())}
    out = subprocess.run([sys.executable, __file__, "--build", json.dumps(sources), "--code", str(code)]
                         + ["--annotated"] * annotated, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def build_and_read(sources: list[str], annotated: bool = False) -> dict:
    """In the child: build into a fresh store and read the concepts' paper counts and each paper's concepts."""
    import inspect

    from kg.build import build
    from kg.store import open_store

    build = build_annotated if annotated else build

    # checkouts before kg.open took ``create`` open a missing store as a new one
    fresh = {"create": True} if "create" in inspect.signature(open_store).parameters else {}
    with tempfile.TemporaryDirectory() as db, open_store(db_dir=db, **fresh) as store:
        started = time.perf_counter()
        report = build(sources, store)
        seconds = time.perf_counter() - started
        return {**read_concepts(store), "build_s": seconds,
                "vocabulary_pass_s": getattr(getattr(report, "vocabulary", None), "seconds", None)}


def read_concepts(store) -> dict:
    """What is measured, read from the graph's export rows (``kg.store.reads.export``): each concept's
    number of papers (Domains apart), each paper's concepts, the concepts its own extractors read (not
    the vocabulary pass's ``MENTIONS``) and the papers with an abstract."""
    from kg.store.reads.export import nodes, relationships

    concepts, papers = {}, []
    for node in nodes(store):
        if "Concept" in node["labels"] and "Domain" not in node["labels"]:
            concepts[node["key"]] = set()
        elif "Paper" in node["labels"] and node["props"].get("abstract"):
            papers.append(node["key"])
    named, extracted = {}, {}
    for edge in relationships(store):
        if "Paper" in edge["a_labels"] and edge["b_key"] in concepts:
            concepts[edge["b_key"]].add(edge["a_key"])
            named.setdefault(edge["a_key"], set()).add(edge["b_key"])
            if edge["type"] != "MENTIONS":
                extracted.setdefault(edge["a_key"], set()).add(edge["b_key"])
    listed = lambda of: {paper: sorted(ids) for paper, ids in of.items()}  # noqa: E731 (JSON has no sets)
    return {"counts": [len(p) for p in concepts.values()], "concepts": listed(named), "extracted": listed(extracted),
            "papers": papers}


def build_annotated(sources: list[str], store) -> object:
    """``kg build`` of SciERC files with the concepts people annotated in place of the extracted ones
    (Domains stay: they are not counted), through the same store and vocabulary pass."""
    from scierc_annotated import annotated_concepts

    from kg.build import extract_sources, load_records

    annotated = {paper: (text, concepts) for source in sources for paper, text, concepts in annotated_concepts(source)}

    def swapped(records):
        for record in records:
            text, concepts = annotated[record["id"]]
            if text != record["text"]:
                sys.exit(f"{record['id']}: the annotated text is not the text kg read")
            yield dict(record, concepts=[c for c in record["concepts"] if c["type"] == "Domain"] + concepts)

    papers, vocabulary = load_records(store, swapped(extract_sources(sources, n_process=2)))
    return SimpleNamespace(papers=papers, vocabulary=vocabulary)


def measure(name: str, graph: dict, related: dict[str, set[str]]) -> dict:
    """The figures of one built graph against the related pairs of its ground truth."""
    papers = graph["papers"]
    concepts = {paper: set(ids) for paper, ids in graph["concepts"].items()}
    known = set(papers)
    pairs = {tuple(sorted((a, b))) for a, others in related.items() for b in others if a in known and b in known}
    rng = random.Random(13)
    ordered = sorted(papers)
    randoms = set()
    while len(randoms) < len(pairs):
        a, b = rng.sample(ordered, 2)
        randoms.add(tuple(sorted((a, b))))

    def shared(pair_set):
        sizes = [len(concepts.get(a, set()) & concepts.get(b, set())) for a, b in pair_set]
        return sum(sizes) / len(sizes), sum(1 for s in sizes if s) / len(sizes)

    counts = graph["counts"]
    related_mean, related_any = shared(pairs)
    extracted = {paper: set(ids) for paper, ids in graph.get("extracted", {}).items()}
    by_size = {n: share_in_subset(rng.sample(ordered, n), concepts, extracted)
               for n in (len(ordered) // 8, len(ordered) // 4, len(ordered) // 2) if n >= 2}
    random_mean, random_any = shared(randoms)
    return {"collection": name, "papers": len(papers), "concepts": len(counts),
            "named_by_2_or_more": sum(1 for c in counts if c >= 2) / max(1, len(counts)),
            "related_pairs": len(pairs), "related_mean_shared": related_mean, "related_share_any": related_any,
            "random_mean_shared": random_mean, "random_share_any": random_any, "build_s": graph["build_s"],
            "vocabulary_pass_s": graph["vocabulary_pass_s"], "named_by_2_or_more_in_subsets": by_size}


def share_in_subset(subset: list[str], concepts: dict[str, set[str]], extracted: dict[str, set[str]]) -> float:
    """The share of concepts named by >= 2 papers in a collection of ``subset``'s papers alone, read
    off the whole graph: its concepts are those its papers' extractors read, named by each of its
    papers with an edge to them (the vocabulary's links found against the whole graph's spellings,
    nearly all of which a concept's own papers write)."""
    own = set().union(*(extracted.get(p, set()) for p in subset))
    papers: dict[str, int] = {}
    for paper in subset:
        for cid in concepts.get(paper, set()) & own:
            papers[cid] = papers.get(cid, 0) + 1
    return sum(1 for n in papers.values() if n >= 2) / max(1, len(own))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["openalex", "scierc"])
    parser.add_argument("--json", action="store_true", help="one JSON line per collection and checkout")
    parser.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    parser.add_argument("--before", type=Path, help="another checkout of kg, measured in the same run")
    parser.add_argument("--annotated", action="store_true", help="SciERC also with its annotated concepts as the "
                        "extractor's: the share people's own vocabulary reaches")
    parser.add_argument("--build", help=argparse.SUPPRESS)  # child: JSON list of sources
    parser.add_argument("--code", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        sys.path.insert(0, str(args.code.resolve()))
        print(json.dumps(build_and_read(json.loads(args.build), args.annotated)))
        return

    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from similar_eval import openalex_truth, scierc_truth

    checkouts = [("before", args.before), ("after", ROOT)] if args.before else [("this checkout", ROOT)]
    for name, truth in {"openalex": openalex_truth, "scierc": scierc_truth}.items():
        if args.only and args.only != name:
            continue
        sources, related = truth(args.data)
        for label, code in checkouts + [("annotated", ROOT)] * (args.annotated and name == "scierc"):
            graph = graph_of(code, [str(s) for s in sources], annotated=label == "annotated")
            result = {"checkout": label, **measure(name, graph, related)}
            if args.json:
                print(json.dumps(result))
                continue
            print(f"{name} ({label}): {result['papers']} papers, {result['concepts']} non-Domain concepts, "
                  f"{result['named_by_2_or_more']:.1%} named by >= 2 papers; built in {result['build_s']:.0f} s"
                  + (f" (vocabulary pass {result['vocabulary_pass_s']:.1f} s)" if result["vocabulary_pass_s"] is not None else ""))
            print(f"  {result['related_pairs']} citation-related pairs share {result['related_mean_shared']:.2f} concepts "
                  f"on average ({result['related_share_any']:.0%} share any); random pairs {result['random_mean_shared']:.2f} "
                  f"({result['random_share_any']:.0%})")
            subsets = ", ".join(f"{share:.1%} of {n}" for n, share in result["named_by_2_or_more_in_subsets"].items())
            print(f"  named by >= 2 papers in random subsets of the same papers: {subsets}")


if __name__ == "__main__":
    main()
