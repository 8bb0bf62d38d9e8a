"""Do concepts connect papers? Shares of concepts named by several papers, and concepts shared by
citation-related pairs against random pairs, on real collections (reads ../shared/data).

    .venv/bin/python bench/concept_sharing.py                 # both collections, a table
    .venv/bin/python bench/concept_sharing.py --only scierc   # one of: openalex, scierc
    .venv/bin/python bench/concept_sharing.py --data /path/to/shared/data

Each collection is built with ``kg.build.build`` (the code behind ``kg build``) into a fresh
embedded store. Relatedness comes from citations, which no extractor sees:
- OpenAlex sample: works sharing >= 2 ``referenced_works``;
- SciERC train+dev abstracts whose ``doc_key`` is an ACL id: pairs related in AAN's ``acl.txt``
  (one cites the other, they share >= 2 cited papers, or >= 2 papers cite both).
Random pairs: as many pairs of the same papers drawn with a fixed seed. Only the stored graph is
read (Cypher that runs on any version of kg), so running this file from an older checkout
(``PYTHONPATH=OLD_CHECKOUT``) measures the "before" of a change in the same way.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT))

from kg.build import build  # noqa: E402
from kg.store import open_store  # noqa: E402

CONCEPT_PAPERS = """
MATCH (c:Concept) WHERE NOT c:Domain
OPTIONAL MATCH (c)<-[r]-(p:Paper)
RETURN c.id AS id, count(DISTINCT p) AS papers
"""
PAPER_CONCEPTS = "MATCH (p:Paper)-[r]->(c:Concept) WHERE NOT c:Domain RETURN p.id AS paper, collect(DISTINCT c.id) AS concepts"


def related_pairs(refs: dict[str, set[str]], min_shared: int = 2) -> set[tuple[str, str]]:
    """Pairs of papers whose reference sets share at least ``min_shared`` entries."""
    citing: dict[str, list[str]] = defaultdict(list)
    for paper, cited in refs.items():
        for ref in cited:
            citing[ref].append(paper)
    shared: dict[tuple[str, str], int] = defaultdict(int)
    for papers in citing.values():
        for a, b in itertools.combinations(sorted(set(papers)), 2):
            shared[(a, b)] += 1
    return {pair for pair, n in shared.items() if n >= min_shared}


def openalex_truth(data: Path) -> tuple[list[Path], set[tuple[str, str]]]:
    refs = {}
    with gzip.open(data / "openalex" / "works_sample_2022-05.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            work = json.loads(line)
            pid = "openalex:" + work["id"].rsplit("/", 1)[-1]
            refs[pid] = {r.rsplit("/", 1)[-1] for r in work.get("referenced_works") or []}
    return [data / "openalex" / "works_sample_2022-05.jsonl.gz"], related_pairs(refs)


def scierc_truth(data: Path) -> tuple[list[Path], set[tuple[str, str]]]:
    docs = set()
    for split in ("train", "dev"):
        for line in (data / "scierc" / f"{split}.json").read_text(encoding="utf-8").splitlines():
            docs.add(json.loads(line)["doc_key"])
    cites: dict[str, set[str]] = defaultdict(set)
    cited_by: dict[str, set[str]] = defaultdict(set)
    for line in (data / "aan" / "acl.txt").read_text(encoding="utf-8", errors="replace").splitlines():
        if " , " in line:
            a, b = (x.strip() for x in line.split(" , ", 1))
            if a != b:
                cites[a].add(b)
                cited_by[b].add(a)
    pairs = {tuple(sorted((a, b))) for a in docs for b in cites.get(a, ()) if b in docs}
    pairs |= {p for p in related_pairs({d: cites.get(d, set()) for d in docs})}
    pairs |= {p for p in related_pairs({d: cited_by.get(d, set()) for d in docs})}
    return [data / "scierc" / "train.json", data / "scierc" / "dev.json"], pairs


def measure(name: str, sources, pairs: set[tuple[str, str]]) -> dict:
    with tempfile.TemporaryDirectory() as db, open_store(db_dir=db, create=True) as store:
        started = time.perf_counter()
        report = build([str(s) for s in sources], store)
        seconds = time.perf_counter() - started
        counts = [row["papers"] for row in store.run(CONCEPT_PAPERS)]
        concepts = {row["paper"]: set(row["concepts"]) for row in store.run(PAPER_CONCEPTS)}
        papers = [row["id"] for row in store.run("MATCH (p:Paper) WHERE coalesce(p.abstract, '') <> '' RETURN p.id AS id")]
    pairs = {p for p in pairs if p[0] in papers and p[1] in papers}
    rng = random.Random(13)
    ordered = sorted(papers)
    randoms = set()
    while len(randoms) < len(pairs):
        a, b = rng.sample(ordered, 2)
        randoms.add(tuple(sorted((a, b))))

    def shared(pair_set):
        sizes = [len(concepts.get(a, set()) & concepts.get(b, set())) for a, b in pair_set]
        return sum(sizes) / len(sizes), sum(1 for s in sizes if s) / len(sizes)

    related_mean, related_any = shared(pairs)
    random_mean, random_any = shared(randoms)
    return {"collection": name, "papers": len(papers), "concepts": len(counts),
            "named_by_2_or_more": sum(1 for c in counts if c >= 2) / max(1, len(counts)),
            "related_pairs": len(pairs), "related_mean_shared": related_mean, "related_share_any": related_any,
            "random_mean_shared": random_mean, "random_share_any": random_any, "build_s": seconds,
            "vocabulary_pass_s": getattr(getattr(report, "vocabulary", None), "seconds", None)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["openalex", "scierc"])
    parser.add_argument("--json", action="store_true", help="one JSON line per collection")
    parser.add_argument("--data", type=Path, default=DATA, help=f"the shared data folder (default {DATA})")
    args = parser.parse_args()

    truths = {"openalex": openalex_truth, "scierc": scierc_truth}
    for name, truth in truths.items():
        if args.only and args.only != name:
            continue
        result = measure(name, *truth(args.data))
        if args.json:
            print(json.dumps(result))
            continue
        print(f"{name}: {result['papers']} papers, {result['concepts']} non-Domain concepts, "
              f"{result['named_by_2_or_more']:.1%} named by >= 2 papers; built in {result['build_s']:.0f} s"
              + (f" (vocabulary pass {result['vocabulary_pass_s']:.1f} s)" if result["vocabulary_pass_s"] is not None else ""))
        print(f"  {result['related_pairs']} citation-related pairs share {result['related_mean_shared']:.2f} concepts "
              f"on average ({result['related_share_any']:.0%} share any); random pairs {result['random_mean_shared']:.2f} "
              f"({result['random_share_any']:.0%})")


if __name__ == "__main__":
    main()
