"""A judged sample of extracted concepts: 200 drawn at random per source, each judged by hand.

    python bench/concept_sample.py draw --label before --data DATA   # writes bench/judged/<source>-before.jsonl
    python bench/concept_sample.py report                   # shares of keep / junk / wrong type per file

``draw`` runs ``kg extract`` (a fresh process, the installed pipeline) over the OpenAlex
sample and SciERC's train+dev abstracts from ``--data``, collects the distinct concepts
of each source (one per ``--unit``: ``typed`` = a (type, key) pair, one graph node before
concepts were keyed by name alone; ``key`` = the key whatever the type, its type the majority
of its mentions', ties to the first seen), draws ``--n`` of them with a fixed seed and writes
one JSON line each: ``name``, ``type``, the ``mention`` as written, its evidence ``sentence``
and the ``paper`` id (one paper naming it, drawn with the same seed), with an empty
``verdict``. A person then reads each evidence sentence and fills in ``verdict``:

- ``keep``: a concept of this type, named as a reader would name it;
- ``junk``: no concept (a heading, a unit or quantity, a place or person, a verb-edged or cut
  span, a lone generic word, markup residue), or a phrase too vague to link papers;
- ``wrong_type``: a concept, but of another type; ``right_type`` says which (Method, Task,
  Dataset, Metric, Entity, Domain; ``other`` in files judged before the Entity type existed, for a
  concept outside the other five).

``apply`` writes verdicts into a drawn file from a plain list, one line per row: its line
number and ``k`` (keep), ``j`` (junk) or the right type of a wrong-typed one (``M``, ``T``,
``D``, ``Me``, ``E`` for Entity, ``Do``; ``O`` for other). ``report`` prints the shares from the judged files, so that the next change to the
extractor can be drawn and judged the same way (same seed, same sources). ``paired`` needs no
new judging: it extracts the source of a judged file again with the installed pipeline and
counts, per verdict, the judged rows whose mention that paper no longer yields (junk that a
change removed, and keeps it lost), which is far less noisy than a new draw; a row named by one part
of its mention ("real data" of "synthetic and real data") counts as yielded only while a concept of its
key is still named there. ``rejudge FILE
--label L`` goes one step further: it writes the judged rows as the installed pipeline names them
now (same verdict where the name is the same, ``dropped`` where the mention is gone) and leaves
only the rows whose mention now names other concepts to judge again. ``types FILE...`` measures
the types alone, paired: for each judged keep and wrong-type row whose paper still names the
concept, is the type the installed pipeline gives it now (the majority of its mentions' types
over the source, as a graph node has) the right one (the row's type for a keep, its
``right_type`` for a wrong type)? Run it before and after a change to count the wrong types
fixed against the keeps made wrong. ``agree A B`` compares two judges of the same drawn rows (a
copy of the drawn file judged by a second person): each judge's shares with 95% intervals, the
two judges' mean, the rows they agree on and Cohen's kappa.

``blind --label L`` calibrates the judging itself: it draws ``--n`` concepts of SciERC's human annotation
(train+dev, every type but Generic, OtherScientificTerm as Entity, keyed and typed as ``draw --unit key``
does) and ``--n`` concepts the installed pipeline extracts from the same abstracts, shuffles them into one
file to judge, ``scierc-L.jsonl``, and writes which row came from where into ``scierc-L.origin.json``,
which the judges do not read. ``unblind FILE`` then gives the shares of each origin: the junk and wrong-type
shares a judge finds in what people annotated are the floor an extractor of the same vocabulary meets.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JUDGED = Path(__file__).resolve().parent / "judged"
VERDICTS = ("keep", "junk", "wrong_type")
RIGHT_TYPES = {"M": "Method", "T": "Task", "D": "Dataset", "Me": "Metric", "E": "Entity", "Do": "Domain", "O": "other"}


def sources(data: Path) -> dict[str, list[Path]]:
    return {"openalex": [data / "openalex" / "works_sample_2022-05.jsonl.gz"],
            "scierc": [data / "scierc" / "train.json", data / "scierc" / "dev.json"],
            "s2orc": [data / "s2orc" / "metadata_sample.jsonl"]}


def extract_records(paths: list[Path], out: Path) -> None:
    """Run the ``kg extract`` command of this environment over ``paths`` into ``out``."""
    kg = Path(sys.executable).with_name("kg")
    command = [str(kg) if kg.exists() else "kg", "extract", *map(str, paths), "-o", str(out), "--processes", "2"]
    subprocess.run(command, check=True, stderr=subprocess.DEVNULL)


def distinct_concepts(records_path: Path, unit: str) -> dict[tuple, list[dict]]:
    """Every concept of the records, keyed by ``unit``, with one occurrence per paper naming it."""
    found: dict[tuple, list[dict]] = {}
    with open(records_path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            text = record["text"]
            for concept in record["concepts"]:
                key = (concept["type"], concept["key"]) if unit == "typed" else (concept["key"],)
                start, end = concept["mentions"][0]
                sent_start, sent_end = concept["evidence"][0]["sentence"]
                found.setdefault(key, []).append({
                    "name": concept["name"], "type": concept["type"], "mention": text[start:end],
                    "sentence": text[sent_start:sent_end], "paper": record["id"]})
    return found


def row_of(record: dict, concept: dict) -> dict:
    """A row to judge of a record's concept: its first mention and that mention's evidence sentence."""
    text = record["text"]
    start, end = concept["mentions"][0]
    sent_start, sent_end = concept["evidence"][0]["sentence"]
    return {"name": concept["name"], "type": concept["type"], "mention": text[start:end],
            "sentence": text[sent_start:sent_end], "paper": record["id"], "verdict": "", "right_type": ""}


def judged_copy(path: Path, first: list[dict]) -> list[dict]:
    """Another judge's copy of the rows ``first`` holds: the same rows in the same order, each judged."""
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    if [(r["name"], r["paper"]) for r in rows] != [(r["name"], r["paper"]) for r in first]:
        sys.exit(f"{path} does not hold the same drawn rows as the first file")
    if any(r["verdict"] not in VERDICTS for r in rows):
        sys.exit(f"{path}: every row must be judged keep, junk or wrong_type")
    return rows


def majority_type(occurrences: list[dict]) -> str:
    counts = Counter(o["type"] for o in occurrences)
    return max(counts, key=lambda t: (counts[t], -next(i for i, o in enumerate(occurrences) if o["type"] == t)))


def draw(concepts: dict[tuple, list[dict]], n: int, seed: int) -> list[dict]:
    """``n`` concepts drawn at random (sorted keys, fixed seed), each with one paper naming it."""
    rng = random.Random(seed)
    keys = rng.sample(sorted(concepts), min(n, len(concepts)))
    rows = []
    for key in keys:
        occurrences = concepts[key]
        chosen = dict(rng.choice(occurrences))
        chosen["type"] = majority_type(occurrences)
        chosen.update(papers=len({o["paper"] for o in occurrences}), verdict="", right_type="")
        rows.append(chosen)
    return rows


def command_draw(args: argparse.Namespace) -> None:
    JUDGED.mkdir(exist_ok=True)
    for source, paths in sources(args.data).items():
        if args.only and source != args.only:
            continue
        missing = [p for p in paths if not p.exists()]
        if missing:
            sys.exit(f"missing: {', '.join(map(str, missing))}")
        with tempfile.TemporaryDirectory() as tmp:
            records = (args.keep_records or Path(tmp)) / f"{source}-{args.label}.records.jsonl"
            extract_records(paths, records)
            concepts = distinct_concepts(records, args.unit)
        rows = draw(concepts, args.n, args.seed)
        out = JUDGED / f"{source}-{args.label}.jsonl"
        if out.exists() and not args.force:
            sys.exit(f"{out} exists (judged?); --force overwrites it")
        with open(out, "w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{source}: {len(concepts)} distinct concepts ({args.unit}); {len(rows)} drawn -> {out.relative_to(ROOT)}")


def shares(path: Path) -> tuple[Counter, int, list[int]]:
    """Verdict counts (and ``right:<type>`` counts of the wrong-typed) of a judged file, and its unjudged rows."""
    counts: Counter = Counter()
    unjudged = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            row = json.loads(line)
            if row.get("verdict") not in (*VERDICTS, "dropped"):
                unjudged.append(number)
            elif row["verdict"] != "dropped":  # a rejudged row no longer extracted is no concept of the sample
                counts[row["verdict"]] += 1
                counts["right:" + row["right_type"]] += row["verdict"] == "wrong_type"
    return counts, sum(counts[v] for v in VERDICTS), unjudged


def command_apply(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for line in open(args.judged, encoding="utf-8")]
    for number, line in enumerate(open(args.verdicts, encoding="utf-8"), 1):
        if not line.strip():
            continue
        row_number, code = line.split()[:2]
        if not row_number.isdigit() or not 1 <= int(row_number) <= len(rows) or code not in ("k", "j", *RIGHT_TYPES):
            sys.exit(f"{args.verdicts}: line {number}: expected '<row 1-{len(rows)}> k|j|{'|'.join(RIGHT_TYPES)}', got {line.strip()!r}")
        row = rows[int(row_number) - 1]
        row["verdict"] = {"k": "keep", "j": "junk"}.get(code, "wrong_type")
        row["right_type"] = RIGHT_TYPES.get(code, "")
    with open(args.judged, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def command_paired(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from kg.normalize import concept_key

    for path in args.judged:
        source = path.name.split("-")[0]
        rows = [json.loads(line) for line in open(path, encoding="utf-8")]
        with tempfile.TemporaryDirectory() as tmp:
            records = (args.records or Path(tmp)) / f"{source}.records.jsonl"
            if not records.exists():
                extract_records(sources(args.data)[source], records)
            yielded: dict[str, dict[str, set[str]]] = {}  # paper -> mention as written -> keys of the concepts it names
            with open(records, encoding="utf-8") as handle:
                for line in handle:
                    record = json.loads(line)
                    mentions = yielded[record["id"]] = {}
                    for c in record["concepts"]:
                        for s, e in c["mentions"]:
                            mentions.setdefault(record["text"][s:e], set()).add(c["key"])
        counts: Counter = Counter()
        for number, row in enumerate(rows, 1):
            named = _still_named(row, yielded.get(row["paper"], {}), concept_key)
            counts[(row["verdict"], named)] += 1
            if args.list and (row["verdict"] == "junk") == named:
                print(f"{path.name}:{number} {row['verdict']} {'still extracted' if named else 'no longer extracted'}: "
                      f"{row['name']!r} ({row['mention']!r})")
        for verdict in VERDICTS:
            total = counts[(verdict, True)] + counts[(verdict, False)]
            print(f"{path.name}: {verdict}: {total} judged, {counts[(verdict, False)]} no longer extracted")
        kept_junk = counts[("junk", True)]
        print(f"junk share if the rest is unchanged: {100 * kept_junk / len(rows):.1f}% "
              f"(was {100 * (kept_junk + counts[('junk', False)]) / len(rows):.1f}%)")


def _still_named(row: dict, mentions: dict[str, set[str]], concept_key) -> bool:
    """The paper still yields the row's mention and, where the row's name is one part of it (a coordination:
    "real data" of "synthetic and real data", a comparison) or its acronym's long form, still names that
    concept there: its key as the installed pipeline keys it."""
    keys = mentions.get(row["mention"])
    if keys is None:
        return False
    return row["mention"] == row["name"] or concept_key(row["name"]) in keys or concept_key(row["mention"]) in keys


# SciERC's tokens as the loader now writes them (loaders.scierc.PTB_BRACKETS)
_BRACKETS = (("-LRB- ", "("), (" -RRB-", ")"), ("-LSB- ", "["), (" -RSB-", "]"), ("-LRB-", "("), ("-RRB-", ")"))


def _as_written(mention: str) -> str:
    for token, bracket in _BRACKETS:
        mention = mention.replace(token, bracket)
    return mention


def command_rejudge(args: argparse.Namespace) -> None:
    """The judged rows as the installed pipeline names them now: a row whose paper still names the
    concept (its key), of the same majority type, keeps its verdict; a mention no longer extracted
    is ``dropped``; a mention that now names other concepts (parts of a coordination, a name
    without its bracketed acronym) or a concept whose type changed is left to judge again, its
    new names in ``name``, the old in ``was``."""
    sys.path.insert(0, str(ROOT))
    from kg.normalize import concept_key

    source = args.judged.name.split("-")[0]
    rows = [json.loads(line) for line in open(args.judged, encoding="utf-8")]
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records.jsonl"
        extract_records(sources(args.data)[source], records)
        concepts = distinct_concepts(records, "key")
        names: dict[tuple[str, str], set[tuple[str, str]]] = {}
        starts: dict[tuple[str, int], set[tuple[str, str]]] = {}  # what a mention that changed its end names now
        texts: dict[str, str] = {}
        with open(records, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                texts[record["id"]] = record["text"]
                for c in record["concepts"]:
                    if c["type"] == "Domain":  # a domain's mentions are its evidence phrases
                        continue
                    for s, e in c["mentions"]:
                        names.setdefault((record["id"], record["text"][s:e]), set()).add((c["name"], c["type"]))
                        starts.setdefault((record["id"], s), set()).add((c["name"], c["type"]))
    out = JUDGED / f"{source}-{args.label}.jsonl"
    changed = 0
    with open(out, "w", encoding="utf-8") as handle:
        for row in rows:
            mention = _as_written(row["mention"])
            occurrences = concepts.get((concept_key(row["name"]),), [])
            if any(o["paper"] == row["paper"] for o in occurrences):
                type_now = majority_type(occurrences)
                if type_now != row["type"]:
                    changed += 1
                    row = dict(row, type=type_now, was=f"{row['name']} ({row['type']}, {row['verdict']})", verdict="", right_type="")
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
                continue
            now = sorted(names.get((row["paper"], mention), ())) or \
                sorted(starts.get((row["paper"], texts.get(row["paper"], "").find(mention)), ()))
            if not now:
                row = dict(row, verdict="dropped", right_type="", was=row["verdict"])
            else:
                changed += 1
                row = dict(row, name=" | ".join(sorted({n for n, _ in now})), type=now[0][1],
                           was=f"{row['name']} ({row['verdict']})", verdict="", right_type="")
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{out.relative_to(ROOT)}: {changed} rows to judge again")


def _type_now(row: dict, concepts: dict, concept_key) -> str | None:
    """The type the records give the row's concept (its majority type over the source), or None when
    the row's paper no longer names it."""
    occurrences = concepts.get((concept_key(row["name"]),), [])
    return majority_type(occurrences) if any(o["paper"] == row["paper"] for o in occurrences) else None


def command_types(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from kg.normalize import concept_key

    by_source: dict[str, list[Path]] = {}
    for path in args.judged:
        by_source.setdefault(path.name.split("-")[0], []).append(path)
    for source, paths in by_source.items():
        with tempfile.TemporaryDirectory() as tmp:
            records = (args.records or Path(tmp)) / f"{source}.records.jsonl"
            if not records.exists():
                extract_records(sources(args.data)[source], records)
            concepts = distinct_concepts(records, "key")
        for path in paths:
            counts: Counter = Counter()
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                row = json.loads(line)
                if row["verdict"] not in ("keep", "wrong_type") or row["right_type"] == "other":
                    continue
                right = row["type"] if row["verdict"] == "keep" else row["right_type"]
                now = _type_now(row, concepts, concept_key)
                state = "gone" if now is None else "right" if now == right else "wrong"
                counts[(row["verdict"], state)] += 1
                if args.list:
                    print(f"{path.name}:{number} {row['verdict']} {state}: {row['name']!r} {row['type']} -> {now} (right: {right})")
            print(f"{path.name}: wrong types {sum(counts[('wrong_type', s)] for s in ('right', 'wrong', 'gone'))}: "
                  f"{counts[('wrong_type', 'right')]} typed right now, {counts[('wrong_type', 'wrong')]} still wrong, "
                  f"{counts[('wrong_type', 'gone')]} not named by their paper; "
                  f"keeps {sum(counts[('keep', s)] for s in ('right', 'wrong', 'gone'))}: {counts[('keep', 'right')]} typed right, "
                  f"{counts[('keep', 'wrong')]} typed wrong now, {counts[('keep', 'gone')]} not named by their paper")


def annotated_concepts(paths: list[Path]) -> dict[tuple, list[dict]]:
    """Every concept SciERC's annotators marked, keyed like ``distinct_concepts(..., "key")``."""
    from scierc_annotated import annotated_concepts as annotated

    found: dict[tuple, list[dict]] = {}
    for path in paths:
        for paper, text, concepts in annotated(path):
            for concept in concepts:
                occurrences = found.setdefault((concept["key"],), [])
                if all(o["paper"] != paper for o in occurrences):  # one per paper, whatever the type
                    (start, end), (sent_start, sent_end) = concept["mentions"][0], concept["evidence"][0]["sentence"]
                    occurrences.append({"name": concept["name"], "type": concept["type"], "mention": text[start:end],
                                        "sentence": text[sent_start:sent_end], "paper": paper})
    return found


def write_hidden(out: Path, rows: list[tuple[dict, object]], suffix: str) -> None:
    """The rows to judge into ``out``, and what each row hides (its origin, the extractor's reading) into the
    file of ``out`` with ``suffix``, which the judges do not read."""
    with open(out, "w", encoding="utf-8") as handle:
        for row, _ in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    out.with_suffix(suffix).write_text(json.dumps([hidden for _, hidden in rows]) + "\n", encoding="utf-8")


def read_hidden(path: Path, suffix: str, verdicts) -> tuple[list[dict], list]:
    """The judged rows of a file ``write_hidden`` wrote and what each row hid; stops unless every row has one of
    ``verdicts`` and its hidden value."""
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    hidden = json.loads(path.with_suffix(suffix).read_text(encoding="utf-8"))
    if len(rows) != len(hidden) or any(r["verdict"] not in verdicts for r in rows):
        sys.exit(f"{path}: every row must be judged, with one {suffix} entry per row")
    return rows, hidden


def kappa(first: list[dict], second: list[dict], verdicts) -> tuple[float, float]:
    """The share of rows two judges gave the same verdict, and Cohen's kappa."""
    n = len(first)
    one, two = Counter(r["verdict"] for r in first), Counter(r["verdict"] for r in second)
    observed = sum(a["verdict"] == b["verdict"] for a, b in zip(first, second)) / n
    expected = sum(one[v] * two[v] for v in verdicts) / (n * n)
    return observed, (observed - expected) / (1 - expected) if expected < 1 else 1.0


def command_blind(args: argparse.Namespace) -> None:
    paths = sources(args.data)["scierc"]
    out = JUDGED / f"scierc-{args.label}.jsonl"
    if out.exists() and not args.force:
        sys.exit(f"{out} exists (judged?); --force overwrites it")
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "scierc.records.jsonl"
        extract_records(paths, records)
        extracted = draw(distinct_concepts(records, "key"), args.n, args.seed)
    annotated = draw(annotated_concepts(paths), args.n, args.seed)
    rows = [(row, "extracted") for row in extracted] + [(row, "annotated") for row in annotated]
    random.Random(args.seed).shuffle(rows)
    write_hidden(out, rows, ".origin.json")
    print(f"{len(extracted)} extracted and {len(annotated)} annotated concepts, shuffled -> {out.relative_to(ROOT)}")


def command_unblind(args: argparse.Namespace) -> None:
    rows, origins = read_hidden(args.judged, ".origin.json", VERDICTS)
    for origin in sorted(set(origins)):
        print(f"{args.judged.name} {origin:<9} " + verdict_shares([r for r, o in zip(rows, origins) if o == origin]))


def verdict_shares(rows: list[dict]) -> str:
    """How many rows, and each verdict's share with its 95% interval, on one line."""
    counts, n = Counter(r["verdict"] for r in rows), len(rows)
    return f"{n:>4} rows  " + "  ".join(
        f"{v} {100 * counts[v] / n:.1f}% ({100 * wilson(counts[v], n)[0]:.1f}-{100 * wilson(counts[v], n)[1]:.1f})"
        for v in VERDICTS)


def command_report(args: argparse.Namespace) -> None:
    print(f"{'file':<28} {'judged':>6} {'keep':>7} {'junk':>7} {'wrong type':>10}  right types of the wrong-typed")
    for path in sorted(JUDGED.glob("*.jsonl")):
        if path.with_suffix(".key.json").exists():  # a proposed-or-used draw: proposed_sample.py report
            continue
        counts, total, unjudged = shares(path)
        if unjudged:
            print(f"{path.name:<28} {len(unjudged)} rows not judged yet (line {unjudged[0]} first)")
            continue
        print(f"{path.name:<28} {total:>6} " + " ".join(f"{100 * counts[v] / total:>6.1f}%" for v in ("keep", "junk"))
              + f" {100 * counts['wrong_type'] / total:>9.1f}%  "
              + ", ".join(f"{k[6:]} {n}" for k, n in counts.most_common() if k.startswith("right:") and n))


def wilson(hits: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a share of ``hits`` in ``n`` (Wilson's score interval).

    >>> [round(x, 3) for x in wilson(20, 200)]
    [0.066, 0.149]
    """
    if not n:
        return 0.0, 1.0
    p = hits / n
    centre, spread = p + z * z / (2 * n), z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def command_agree(args: argparse.Namespace) -> None:
    """Two judges' verdicts on the same drawn rows: each one's shares with their 95% intervals, the rows
    they agree on, Cohen's kappa, and the mean of the two judges' shares."""
    first = [json.loads(line) for line in open(args.first, encoding="utf-8")]
    if any(r["verdict"] not in VERDICTS for r in first):
        sys.exit(f"{args.first}: every row must be judged keep, junk or wrong_type")
    second = judged_copy(args.second, first)
    n = len(first)
    one, two = Counter(r["verdict"] for r in first), Counter(r["verdict"] for r in second)
    # the two judges' mean, with the interval of one judge's n rows: the rows are the same, not 2n draws
    mean = {v: (one[v] + two[v]) / 2 for v in VERDICTS}
    for label, counts in ((args.first.name, one), (args.second.name, two), ("both judges' mean", mean)):
        print(f"{label:<28} " + "  ".join(f"{v} {100 * counts[v] / n:.1f}% ({100 * wilson(counts[v], n)[0]:.1f}-"
                                          f"{100 * wilson(counts[v], n)[1]:.1f})" for v in VERDICTS))
    same = sum(a["verdict"] == b["verdict"] and a.get("right_type", "") == b.get("right_type", "") for a, b in zip(first, second))
    observed, agreement = kappa(first, second, VERDICTS)
    print(f"agree on {observed:.1%} of {n} rows (same right type too: {same / n:.1%}); Cohen's kappa {agreement:.2f}")
    for verdict in VERDICTS:
        print(f"  {verdict:<10} " + "  ".join(f"{other}: {sum(a['verdict'] == verdict and b['verdict'] == other for a, b in zip(first, second))}"
                                             for other in VERDICTS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    drawing = commands.add_parser("draw", help="extract, draw and write the unjudged sample")
    drawing.add_argument("--label", required=True, help="names the files: bench/judged/<source>-<label>.jsonl")
    drawing.add_argument("--n", type=int, default=200)
    drawing.add_argument("--seed", type=int, default=10)
    drawing.add_argument("--unit", choices=("typed", "key"), default="typed")
    drawing.add_argument("--only", choices=("openalex", "scierc"))
    drawing.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    drawing.add_argument("--force", action="store_true")
    drawing.add_argument("--keep-records", type=Path, help="a folder to keep the kg extract records in")
    applying = commands.add_parser("apply", help="write verdicts from a list into a drawn file")
    applying.add_argument("judged", type=Path, help="bench/judged/<source>-<label>.jsonl")
    applying.add_argument("verdicts", type=Path, help="lines '<row> k|j|M|T|D|Me|E|Do|O'")
    pairing = commands.add_parser("paired", help="judged rows the installed pipeline no longer extracts")
    pairing.add_argument("judged", type=Path, nargs="+", help="bench/judged/<source>-<label>.jsonl")
    pairing.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    pairing.add_argument("--records", type=Path, help="a folder to keep the kg extract records in (<source>.records.jsonl), "
                         "read again if there: delete them after a change")
    pairing.add_argument("--list", action="store_true", help="name the junk rows still extracted and the keeps no longer extracted")
    rejudging = commands.add_parser("rejudge", help="a judged file as the installed pipeline names its rows now")
    rejudging.add_argument("judged", type=Path, help="bench/judged/<source>-<label>.jsonl")
    rejudging.add_argument("--label", required=True, help="writes bench/judged/<source>-<label>.jsonl")
    rejudging.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    typing = commands.add_parser("types", help="judged keeps and wrong types: is the type given now the right one?")
    typing.add_argument("judged", type=Path, nargs="+", help="bench/judged/<source>-<label>.jsonl")
    typing.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    typing.add_argument("--records", type=Path, help="a folder to keep the kg extract records in (<source>.records.jsonl), "
                        "read again if there: delete them after a change")
    typing.add_argument("--list", action="store_true", help="one line per row, to diff two runs")
    commands.add_parser("report", help="shares of the judged files")
    agreeing = commands.add_parser("agree", help="two judges of the same rows: shares, agreement, Cohen's kappa")
    agreeing.add_argument("first", type=Path, help="bench/judged/<source>-<label>.jsonl")
    agreeing.add_argument("second", type=Path, help="the same rows judged by another person")
    blinding = commands.add_parser("blind", help="SciERC's annotated and extracted concepts shuffled into one file to judge")
    blinding.add_argument("--label", required=True, help="writes bench/judged/scierc-<label>.jsonl and .origin.json")
    blinding.add_argument("--n", type=int, default=150, help="concepts of each origin")
    blinding.add_argument("--seed", type=int, default=43)
    blinding.add_argument("--data", type=Path, required=True, help="the data folder: the OpenAlex sample, SciERC, S2ORC (docs/benchmarks.md says where each is published)")
    blinding.add_argument("--force", action="store_true")
    unblinding = commands.add_parser("unblind", help="the shares of each origin of a judged blind file")
    unblinding.add_argument("judged", type=Path, help="bench/judged/scierc-<label>.jsonl")
    args = parser.parse_args()
    {"blind": command_blind, "unblind": command_unblind, "draw": command_draw, "apply": command_apply, "paired": command_paired, "rejudge": command_rejudge,
     "types": command_types, "report": command_report, "agree": command_agree}[args.command](args)


if __name__ == "__main__":
    main()
