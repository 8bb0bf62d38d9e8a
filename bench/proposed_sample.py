"""Does the graph tell right which methods a paper proposes? A blind judged sample of Method concepts.

    python bench/proposed_sample.py draw --label p1 --seed 61      # writes bench/judged/proposed-p1.jsonl
    python bench/proposed_sample.py apply bench/judged/proposed-p1.jsonl VERDICTS
    python bench/proposed_sample.py report bench/judged/proposed-p1.jsonl [bench/judged/proposed-p1b.jsonl]

``draw`` runs ``kg extract`` over the OpenAlex sample and SciERC's train+dev abstracts (as
``concept_sample.py draw`` does), takes the Method concepts of every record and draws, per source, ``--n``
the extractor reads as proposed by the paper (a ``PROPOSES`` edge in the graph) and ``--n`` it reads as
used (``USES``), shuffled into one file: each row has the concept's ``name``, its ``paper``, the
``sentences`` of the abstract that name it, the whole ``abstract`` and an empty ``verdict``. What the
extractor read goes to ``<file>.key.json``, which judges do not read. A judge fills in ``verdict``:

- ``proposes``: the paper presents the method as its own contribution (new, or a variant it introduces);
- ``uses``: the paper applies, adapts, compares with or mentions a method it does not claim;
- ``junk``: no method is named (a cut span, a vague phrase).

``apply`` writes verdicts from a plain list (``<row> p|u|j``); ``report`` gives per source the share of
rows read as proposed that the judge found proposed (the precision of ``PROPOSES``) and the share of rows
read as used that the judge found proposed (proposals the graph calls uses), with 95% intervals; given a
second judge's copy of the same rows, how often the two agree (Cohen's kappa).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

from concept_sample import JUDGED, extract_records, kappa, read_hidden, sources, wilson, write_hidden

VERDICTS = {"p": "proposes", "u": "uses", "j": "junk"}


def methods(records: Path, source: str) -> dict[bool, list[dict]]:
    """Every Method concept of the records, split by whether the extractor reads it as proposed."""
    found: dict[bool, list[dict]] = {True: [], False: []}
    with open(records, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            text = record["text"]
            for concept in record["concepts"]:
                if concept["type"] != "Method":
                    continue
                spans = sorted({tuple(e["sentence"]) for e in concept["evidence"]})
                found[bool(concept["proposed"])].append({
                    "source": source, "name": concept["name"], "paper": record["id"],
                    "sentences": [text[a:b] for a, b in spans], "abstract": text, "verdict": ""})
    return found


def command_draw(args: argparse.Namespace) -> None:
    out = JUDGED / f"proposed-{args.label}.jsonl"
    if out.exists() and not args.force:
        sys.exit(f"{out} exists (judged?); --force overwrites it")
    rng = random.Random(args.seed)
    rows: list[tuple[dict, bool]] = []
    for source, paths in sources(args.data).items():
        with tempfile.TemporaryDirectory() as tmp:
            records = Path(tmp) / f"{source}.records.jsonl"
            extract_records(paths, records)
            found = methods(records, source)
        for proposed in (True, False):
            rows += [(row, proposed) for row in rng.sample(found[proposed], min(args.n, len(found[proposed])))]
        print(f"{source}: {len(found[True])} Method concepts read as proposed, {len(found[False])} as used")
    rng.shuffle(rows)
    write_hidden(out, rows, ".key.json")
    print(f"{len(rows)} rows -> {out.relative_to(JUDGED.parent.parent)}")


def command_apply(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for line in open(args.judged, encoding="utf-8")]
    for line in open(args.verdicts, encoding="utf-8"):
        if line.strip():
            number, code = line.split()
            rows[int(number) - 1]["verdict"] = VERDICTS[code]
    with open(args.judged, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{args.judged.name}: {sum(1 for r in rows if r['verdict'])} of {len(rows)} rows judged")


def command_report(args: argparse.Namespace) -> None:
    rows, key = read_hidden(args.judged, ".key.json", VERDICTS.values())
    for source in sorted({r["source"] for r in rows}):
        for proposed, label in ((True, "read as proposed"), (False, "read as used")):
            mine = [r for r, k in zip(rows, key) if r["source"] == source and k == proposed]
            counts, n = Counter(r["verdict"] for r in mine), len(mine)
            low, high = wilson(counts["proposes"], n)
            print(f"{args.judged.name} {source:<8} {label:<17} {n:>3} rows: judged proposes {100 * counts['proposes'] / n:5.1f}% "
                  f"({100 * low:.1f}-{100 * high:.1f}), uses {100 * counts['uses'] / n:5.1f}%, junk {100 * counts['junk'] / n:5.1f}%")
    if args.second:  # a second judge of the same rows: how often the two agree
        other = [json.loads(line) for line in open(args.second, encoding="utf-8")]
        observed, agreement = kappa(rows, other, VERDICTS.values())
        print(f"agree with {args.second.name} on {observed:.1%} of {len(rows)} rows; Cohen's kappa {agreement:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    drawing = commands.add_parser("draw", help="extract, draw and write the unjudged sample")
    drawing.add_argument("--label", required=True, help="names the file: bench/judged/proposed-<label>.jsonl")
    drawing.add_argument("--n", type=int, default=50, help="rows per source and reading")
    drawing.add_argument("--seed", type=int, default=61)
    drawing.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    drawing.add_argument("--force", action="store_true")
    applying = commands.add_parser("apply", help="write verdicts from a list into a drawn file")
    applying.add_argument("judged", type=Path)
    applying.add_argument("verdicts", type=Path, help="lines '<row> p|u|j'")
    reporting = commands.add_parser("report", help="the shares of a judged file")
    reporting.add_argument("judged", type=Path)
    reporting.add_argument("second", type=Path, nargs="?", help="the same rows judged by another person")
    args = parser.parse_args()
    {"draw": command_draw, "apply": command_apply, "report": command_report}[args.command](args)


if __name__ == "__main__":
    main()
