"""Real-data citation builds: AAN metadata + citation list + SciERC abstracts with
ACL ids, and the OpenAlex sample. Counts are checked against the files, edge by edge.

Run (needs ../shared/data; about 10 minutes on 2 cores):

    .venv/bin/python bench/citations_real_data.py --data DATA [--only aan|openalex]

Prints, per run: build time, peak memory of this process (the store's JVM runs
in a process of its own), Paper/Reference/CITES counts, and whether the stored
citations equal those the files give (after the stated rules: a paper citing
itself is dropped; duplicate lines collapse; edges whose citing paper has no
metadata record are reported, not loaded).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import resource
import shutil
import tempfile
import time
from pathlib import Path

from kg.build import build
from kg.store import open_store
from kg.store.reads.export import nodes, relationships
from kg.store.reads.graph import stats
from loaders import load

ACL_ID = re.compile(r"^[A-Z]\d{2}-\d{4}$")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def loader_seconds(sources: list[str]) -> float:
    """The baseline: reading and parsing the sources alone (no extraction, no store)."""
    start = time.monotonic()
    sum(1 for _ in load(sources))
    return time.monotonic() - start


def run_build(sources: list[str], db: Path) -> dict:
    baseline = loader_seconds(sources)
    start = time.monotonic()
    with open_store(db_dir=db, create=True) as store:
        report = build(sources, store)
        seconds = time.monotonic() - start
        counts = stats(store)
        pairs = [{"citing": r["a_key"], "cited": r["b_key"], "label": r["b_labels"][0], "in_text": r["props"].get("evidence") is not None}
                 for r in relationships(store, citations_only=True)]
    return {"seconds": seconds, "baseline": baseline, "report": report, "counts": counts, "pairs": pairs}


def aan(data: Path, work: Path) -> None:
    folder = work / "aan"
    folder.mkdir()
    for name in ("acl-metadata.txt", "acl.txt"):
        shutil.copy(data / "aan" / name, folder / name)
    docs = [json.loads(line) for split in ("train", "dev") for line in open(data / "scierc" / f"{split}.json", encoding="utf-8")]
    acl_docs = [d for d in docs if ACL_ID.match(d["doc_key"])]
    (work / "scierc-acl.json").write_text("".join(json.dumps(d) + "\n" for d in acl_docs), encoding="utf-8")

    metadata = (data / "aan" / "acl-metadata.txt").read_bytes().decode("cp1252", "replace")
    ids = set(re.findall(r"^id = \{(.*?)\}", metadata, re.M))
    papers = ids | {d["doc_key"] for d in acl_docs}
    lines = [tuple(x.strip() for x in line.split(",")) for line in open(data / "aan" / "acl.txt") if line.strip()]
    expected = {(a, b) for a, b in lines if a in ids and a != b}

    result = run_build([str(folder), str(work / "scierc-acl.json")], work / "db-aan")
    stored = {(r["citing"], r["cited"]) for r in result["pairs"]}
    from_files = stored & expected
    in_text_only = [r for r in result["pairs"] if (r["citing"], r["cited"]) not in expected]
    report = result["report"]
    print("== AAN + SciERC (ACL ids)")
    print(f"files: {len(ids)} metadata records, {len(lines)} citation lines "
          f"({sum(1 for a, b in lines if a == b)} self, {sum(1 for a, b in lines if a not in ids)} with citing paper not in metadata), "
          f"{len(acl_docs)} SciERC abstracts with ACL ids ({len({d['doc_key'] for d in acl_docs} - ids)} not in AAN)")
    print(f"build: {report.papers} records -> {result['counts']['nodes'].get('Paper')} Paper nodes in {result['seconds']:.1f} s, "
          f"= {result['seconds'] / result['baseline']:.0f}x reading the sources alone ({result['baseline']:.1f} s); "
          f"peak RSS {peak_mb():.0f} MB; skips reported: {len(report.load.skipped)}")
    print(f"expected Paper nodes {len(papers)}; expected CITES from acl.txt {len(expected)} "
          f"(to loaded papers {sum(1 for a, b in expected if b in papers)}, to references {sum(1 for a, b in expected if b not in papers)})")
    print(f"stored CITES {result['counts']['relationships'].get('CITES')}: from acl.txt {len(from_files)} "
          f"(all present: {from_files == expected}), from in-text citations only {len(in_text_only)} "
          f"({sum(1 for r in in_text_only if r['label'] == 'Paper')} to papers)")
    print(f"nodes {result['counts']['nodes']}")
    print("\n".join(report.citations.lines()[:6]))


def openalex(data: Path, work: Path) -> None:
    sample = data / "openalex" / "works_sample_2022-05.jsonl.gz"
    works = [json.loads(line) for line in gzip.open(sample, "rt", encoding="utf-8")]
    wid = {w["id"].rsplit("/", 1)[1] for w in works}
    expected = {(f"openalex:{w['id'].rsplit('/', 1)[1]}", f"openalex:{r.rsplit('/', 1)[1]}") for w in works for r in w["referenced_works"]}
    result = run_build([str(sample)], work / "db-openalex")
    with open_store(db_dir=work / "db-openalex") as store:
        abstracts = sum(1 for n in nodes(store, citations_only=True) if "Paper" in n["labels"] and n["props"].get("abstract"))
    stored = {(r["citing"], r["cited"]) for r in result["pairs"]}
    print("== OpenAlex sample")
    print(f"file: {len(works)} works, {sum(1 for w in works if w.get('abstract_inverted_index'))} with inverted-index abstracts, "
          f"{len(expected)} referenced_works ({sum(1 for a, b in expected if b.split(':')[1] in wid)} inside the sample)")
    print(f"build: {result['counts']['nodes'].get('Paper')} Paper nodes, {abstracts} with abstracts, in {result['seconds']:.1f} s "
          f"= {result['seconds'] / result['baseline']:.0f}x reading the sources alone ({result['baseline']:.1f} s); "
          f"peak RSS {peak_mb():.0f} MB")
    print(f"stored CITES {result['counts']['relationships'].get('CITES')}: all referenced_works present: {expected <= stored}; "
          f"Paper->Paper {sum(1 for r in result['pairs'] if r['label'] == 'Paper')}; from in-text citations {len(stored - expected)}")
    print(f"nodes {result['counts']['nodes']}")
    print("\n".join(result["report"].citations.lines()[:6]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    parser.add_argument("--only", choices=["aan", "openalex"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as tmp:
        work = Path(tmp)
        if args.only in (None, "aan"):
            aan(Path(args.data), work)
        if args.only in (None, "openalex"):
            openalex(Path(args.data), work)


if __name__ == "__main__":
    main()
