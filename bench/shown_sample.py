"""A blind judged sample of what users see first, against what kg emits at all.

    kg build SOURCE --db DB                      # the graph the packs read
    kg extract SOURCE -o records.jsonl           # the same concepts, with their salience
    python bench/shown_sample.py draw --source openalex --records records.jsonl --db DB --label shown6 --seed 303
    # two judges fill in bench/judged/<source>-<label>.jsonl and a copy, without reading the .origin.json
    python bench/shown_sample.py unblind bench/judged/<source>-<label>.jsonl

``draw`` writes one file of rows to judge (as ``bench/concept_sample.py`` writes them: a concept,
its type, the mention, its evidence sentence, the paper) mixing, in an order shuffled by
``--seed``:

- ``paper-top5``: ``--papers`` papers drawn at random, each with the (at most) five concepts
  ``papers/concepts`` shows first (the most relevant, relevance >= 0.25: salience x quality);
- ``paper-any``: as many (paper, concept) pairs drawn at random from everything the records
  name (what a reader met before concepts were ranked);
- ``type-top20``: each type's 20 first of ``overview/top-concepts`` (papers x quality);
- ``type-top20-by-papers``: each type's 20 named by the most papers, as the pack ranked before.

A row drawn twice (by two origins) is judged once; which origins drew each row goes to
``<file>.origin.json``, which the judges do not read. ``unblind`` prints each origin's keep /
junk / wrong-type shares with 95% intervals.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from concept_sample import JUDGED, ROOT, VERDICTS, read_hidden, row_of, verdict_shares, write_hidden

import kg
from kg.normalize import concept_key

SHOWN = 0.25  # a paper's concepts of at least this relevance (salience x quality, both 0.5) are shown first


def read_records(path: Path) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def paper_top(db: Path, records: list[dict], papers: int, rng: random.Random) -> list[dict]:
    """The five first concepts of ``papers/concepts`` (of relevance >= SHOWN) of ``papers`` papers drawn at random."""
    named = [r for r in records if r["concepts"]]
    rows = []
    with kg.open(db) as graph:
        for record in rng.sample(named, min(papers, len(named))):
            by_key = {concept_key(c["name"]): c for c in record["concepts"]}
            by_key.update({c["key"].removeprefix("domain:"): c for c in record["concepts"] if c.get("key")})
            for shown in graph.query("papers/concepts", paper=record["id"], top=5):
                concept = by_key.get(concept_key(shown["concept"]))
                if concept and shown["relevance"] >= SHOWN:  # a concept's name is the vote of all its papers
                    rows.append(dict(row_of(record, concept), name=shown["concept"], type=shown["type"]))
    return rows


def paper_any(records: list[dict], n: int, rng: random.Random) -> list[dict]:
    pairs = [(r, c) for r in records for c in r["concepts"]]
    return [row_of(r, c) for r, c in rng.sample(pairs, min(n, len(pairs)))]


def type_top(db: Path, records: list[dict], by_papers: bool, rng: random.Random, per_type: int = 20) -> list[dict]:
    """Each type's ``per_type`` first concepts of ``overview/top-concepts`` (``by_papers``: as ranked
    before quality), each with one paper naming it drawn at random."""
    with kg.open(db) as graph:
        listed = graph.query("overview/top-concepts", per_type=10_000 if by_papers else per_type, all=by_papers)
    if by_papers:
        by_type: dict[str, list[dict]] = {}
        for row in sorted(listed, key=lambda r: (-r["papers"], -(r["mentions"] or 0), r["concept"])):
            by_type.setdefault(row["type"], []).append(row)
        listed = [row for rows in by_type.values() for row in rows[:per_type]]
    occurrences: dict[str, list[tuple[dict, dict]]] = {}
    for record in records:
        for concept in record["concepts"]:
            occurrences.setdefault(concept["name"].lower(), []).append((record, concept))
    rows = []
    for row in listed:
        found = occurrences.get(row["concept"].lower())
        if found:  # a name only the vocabulary pass links (no extracted mention) has no record row
            record, concept = rng.choice(found)
            rows.append(dict(row_of(record, concept), name=row["concept"], type=row["type"]))
    return rows


def command_draw(args: argparse.Namespace) -> None:
    out = JUDGED / f"{args.source}-{args.label}.jsonl"
    if out.exists() and not args.force:
        sys.exit(f"{out} exists (judged?); --force overwrites it")
    records = read_records(args.records)
    rng = random.Random(args.seed)
    drawn = {"paper-top5": paper_top(args.db, records, args.papers, rng)}
    drawn["paper-any"] = paper_any(records, len(drawn["paper-top5"]), rng)
    drawn["type-top20"] = type_top(args.db, records, False, rng)
    drawn["type-top20-by-papers"] = type_top(args.db, records, True, rng)
    merged: dict[tuple, tuple[dict, list[str]]] = {}
    for origin, rows in drawn.items():
        for row in rows:
            key = (row["name"].lower(), row["type"]) if origin.startswith("type") else (row["name"].lower(), row["paper"])
            merged.setdefault(key, (row, []))[1].append(origin)
    rows = list(merged.values())
    rng.shuffle(rows)
    write_hidden(out, rows, ".origin.json")
    print(f"{len(rows)} rows to judge ({', '.join(f'{k} {len(v)}' for k, v in drawn.items())}) -> {out.relative_to(ROOT)}")


def command_unblind(args: argparse.Namespace) -> None:
    for path in args.judged:
        rows, origins = read_hidden(path, ".origin.json", VERDICTS)
        for origin in sorted({o for found in origins for o in found}):
            print(f"{path.name} {origin:<21} " + verdict_shares([r for r, found in zip(rows, origins) if origin in found]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    drawing = commands.add_parser("draw", help="draw the rows to judge")
    drawing.add_argument("--source", required=True, help="names the file: bench/judged/<source>-<label>.jsonl")
    drawing.add_argument("--records", type=Path, required=True, help="kg extract records of the source")
    drawing.add_argument("--db", type=Path, required=True, help="the graph kg build made of the same source")
    drawing.add_argument("--label", required=True)
    drawing.add_argument("--papers", type=int, default=25)
    drawing.add_argument("--seed", type=int, required=True)
    drawing.add_argument("--force", action="store_true")
    unblinding = commands.add_parser("unblind", help="each origin's shares")
    unblinding.add_argument("judged", nargs="+", type=Path)
    args = parser.parse_args()
    {"draw": command_draw, "unblind": command_unblind}[args.command](args)


if __name__ == "__main__":
    main()
