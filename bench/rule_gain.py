"""What each junk rule of extraction gains: the concepts only it stops, judged blind.

    python bench/rule_gain.py draw --data ../shared/data --label rules1 --seed 505
    # two judges fill in bench/judged/rules-<label>.jsonl and a copy (<label>b), without reading the .origin.json
    python bench/rule_gain.py report bench/judged/rules-rules1.jsonl bench/judged/rules-rules1b.jsonl

``draw`` extracts the OpenAlex sample, SciERC train+dev and the S2ORC sample with every rule of
``kg.extract.junk.junk_reason``, then once more per rule with that rule alone turned off (in this
process: the forked extraction workers inherit it). A (paper, concept key) that the run without the rule
names and the full run does not is a concept the rule stops. Of each rule's stopped concepts,
``--per-rule`` are drawn (``--seed``, spread over the three sources), and as many concepts the full
run names (``control``) as an average rule has rows, so that a judge cannot tell what a row is;
all shuffled into one file to judge by ``bench/concept_sample.py``'s rubric. Which rule stopped each
row is in ``<file>.origin.json``.

``--components C...`` also draws what each of those pipeline components alone adds (the full run against one
without it; its rows' origin is ``+C``): a component earns its place where what it adds is concepts, not junk.
``--rules`` draws for some rules only (none: ``--rules`` alone); ``--exclude FILE...`` leaves out rows judged before (a fresh draw of
a rule changed after them).

``report`` prints, per rule, how many concepts it stops in each source and, for each judge, the
shares of its drawn rows judged junk, keep and wrong type: a rule gains where what it stops is
junk; a concept it stops that a judge keeps (of its type or another) is a loss.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from concept_sample import JUDGED, ROOT, VERDICTS, judged_copy, read_hidden, row_of, sources, wilson, write_hidden

from kg import lexicon
from kg.extract import extract, junk, load_pipeline, proposals
from loaders import load

# The rules of junk_reason: those of its _RULES by function, the boilerplate starts, and the parts of "generic".
GENERIC_PARTS = ("_generic", "_vague", "_lone_adjective", "_counted", "_lone_common")
NEVER = ("\x00",)  # a sentence start no sentence has: boilerplate off
# The components that add concepts to what the recogniser found (kg.extract.components), each one's own
ADDING = ("kg_known_names", "kg_proposals", "kg_acronym_mentions", "kg_repeats", "kg_rare_nouns")
# kg_proposals' two ways of adding a mention, each made to add none (``--adders``)
ADDERS = {"_named_object": lambda window: None, "_unfound_names": lambda window, found: []}


def rule_names() -> list[str]:
    return [rule.__name__ for _, rule in junk._RULES] + ["boilerplate"] + list(GENERIC_PARTS)


def without(rule: str):
    """Turn ``rule`` (a junk rule, or one of ``ADDERS``) off in this process; returns the function that
    turns it on again."""
    if rule in ADDERS:
        kept = getattr(proposals, rule)
        setattr(proposals, rule, ADDERS[rule])
        return lambda: setattr(proposals, rule, kept)
    if rule == "boilerplate":
        kept = lexicon.BOILERPLATE_STARTS
        lexicon.BOILERPLATE_STARTS = NEVER
        return lambda: setattr(lexicon, "BOILERPLATE_STARTS", kept)
    if rule in GENERIC_PARTS:
        kept = getattr(junk, rule)
        setattr(junk, rule, lambda span: False)
        return lambda: setattr(junk, rule, kept)
    kept = junk._RULES
    junk._RULES = tuple((reason, f) for reason, f in kept if f.__name__ != rule)
    return lambda: setattr(junk, "_RULES", kept)


def named(paths: list[Path], processes: int, disabled: tuple[str, ...] = ()) -> dict[tuple, dict]:
    """(paper id, concept key) -> a row to judge, for every concept the records of ``paths`` name, with the
    pipeline's components ``disabled`` turned off (the forked workers inherit that)."""
    nlp = load_pipeline()
    with nlp.select_pipes(disable=list(disabled)):
        return {(record["id"], concept["key"]): row_of(record, concept)
                for record in extract(load([str(p) for p in paths]), nlp, n_process=processes)
                for concept in record["concepts"]}


def named_without(variant: str, paths: list[Path], processes: int) -> dict[tuple, dict]:
    """``named`` with ``variant`` off: a junk rule, ``+`` a pipeline component or an adder of ``ADDERS``."""
    if variant.lstrip("+") in ADDING:
        return named(paths, processes, (variant[1:],))
    restore = without(variant.lstrip("+"))
    try:
        return named(paths, processes)
    finally:
        restore()


def command_draw(args: argparse.Namespace) -> None:
    out = JUDGED / f"rules-{args.label}.jsonl"
    if out.exists() and not args.force:
        sys.exit(f"{out} exists (judged?); --force overwrites it")
    rng = random.Random(args.seed)
    variants = [*(args.rules if args.rules is not None else rule_names()),
                *(f"+{name}" for name in args.adders + args.components)]
    judged = {(row["name"], row["paper"]) for path in args.exclude for row in map(json.loads, open(path, encoding="utf-8"))}
    stopped: dict[str, dict[str, list[dict]]] = {}
    controls = []
    for source, paths in sources(args.data).items():
        full = named(paths, args.processes)
        controls += [(source, row) for row in full.values()]
        for variant in variants:
            rows = named_without(variant, paths, args.processes)
            # a rule stops what only the run without it names; an adder adds what only the full run names
            more, fewer = (full, rows) if variant.startswith("+") else (rows, full)
            stopped.setdefault(variant, {})[source] = [more[k] for k in sorted(set(more) - set(fewer))]
            print(f"{source:<9} {variant:<20} {'adds' if variant.startswith('+') else 'stops'} "
                  f"{len(stopped[variant][source]):>4}; {len(set(fewer) - set(more))} the other way", file=sys.stderr)
    drawn = []
    for rule, by_source in stopped.items():
        pool = [(source, row) for source, rows in by_source.items() for row in rows if (row["name"], row["paper"]) not in judged]
        drawn += [(row, {"origin": rule, "source": source}) for source, row in rng.sample(pool, min(args.per_rule, len(pool)))]
    n_control = max(1, len(drawn) // len(stopped))
    drawn += [(row, {"origin": "control", "source": source}) for source, row in rng.sample(controls, n_control)]
    counts = {rule: {source: len(rows) for source, rows in by_source.items()} for rule, by_source in stopped.items()}
    rng.shuffle(drawn)
    write_hidden(out, drawn, ".origin.json")
    out.with_suffix(".counts.json").write_text(json.dumps(counts, indent=1) + "\n", encoding="utf-8")
    print(f"{len(drawn)} rows to judge -> {out.relative_to(ROOT)}")


def command_report(args: argparse.Namespace) -> None:
    first, hidden = read_hidden(args.judged[0], ".origin.json", VERDICTS)
    judged = [first] + [judged_copy(path, first) for path in args.judged[1:]]
    counts = json.loads(args.judged[0].with_suffix(".counts.json").read_text(encoding="utf-8"))
    origins = [entry["origin"] for entry in hidden]
    print(f"{'rule':<16} {'stops (OA/SciERC/S2ORC)':>24} {'rows':>5}  " +
          "  ".join(f"judge {i + 1}: junk (95%) / keep / wrong type" for i in range(len(judged))))
    for rule in [*counts, "control"]:
        at = [i for i, o in enumerate(origins) if o == rule]
        stops = "/".join(str(n) for n in counts[rule].values()) if rule in counts else ""
        cells = []
        for rows in judged:
            verdicts = Counter(rows[i]["verdict"] for i in at)
            n = len(at) or 1
            low, high = wilson(verdicts["junk"], n)
            cells.append(f"{100 * verdicts['junk'] / n:5.1f}% ({100 * low:.0f}-{100 * high:.0f}) / "
                         f"{100 * verdicts['keep'] / n:5.1f}% / {100 * verdicts['wrong_type'] / n:5.1f}%")
        print(f"{rule:<16} {stops:>24} {len(at):>5}  " + "  ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    drawing = commands.add_parser("draw", help="extract with and without each rule and draw the rows to judge")
    drawing.add_argument("--data", type=Path, required=True, help="the folder of openalex/, scierc/ and s2orc/")
    drawing.add_argument("--label", required=True)
    drawing.add_argument("--seed", type=int, required=True)
    drawing.add_argument("--per-rule", type=int, default=18)
    drawing.add_argument("--processes", type=int, default=2)
    drawing.add_argument("--rules", nargs="*", choices=rule_names(), help="only these rules (default: every one)")
    drawing.add_argument("--components", nargs="+", default=[], choices=ADDING,
                         help="also draw what each of these pipeline components alone adds")
    drawing.add_argument("--adders", nargs="+", default=[], choices=sorted(ADDERS),
                         help="also draw what each of kg_proposals' ways of adding a mention adds")
    drawing.add_argument("--exclude", nargs="+", type=Path, default=[], help="judged files whose rows are not drawn again")
    drawing.add_argument("--force", action="store_true")
    reporting = commands.add_parser("report", help="per rule, what it stops and how its rows were judged")
    reporting.add_argument("judged", nargs="+", type=Path, help="the judged file and its copies by other judges")
    args = parser.parse_args()
    {"draw": command_draw, "report": command_report}[args.command](args)


if __name__ == "__main__":
    main()
