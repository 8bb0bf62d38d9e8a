"""Fit the concept quality model (``kg/store/concept_quality.json``) on concepts people judged.

    kg build OPENALEX.jsonl.gz --db oa-db && kg build scierc/train.json scierc/dev.json --db sc-db
    kg build s2orc/metadata_sample.jsonl --db s2-db
    python bench/concept_quality_fit.py --db openalex=oa-db scierc=sc-db s2orc=s2-db \\
        --fit openalex scierc s2orc --write

Each judged row (those ``bench/salience_fit.py`` reads: a concept, a paper naming it, a reader's
verdict) is found again among the concepts of its source's graph by canonical key and type; a
concept's label is junk when most of its rows are (a concept of the wrong type is still a
concept). ``--exclude`` leaves out draws by label, so that a draw judged after the fit measures
the fitted model: the shipped weights are fitted on every kept draw, shown6 included (graphs loaded
from records whose salience the shipped salience model gave).

Prints, for each source, the area under the ROC curve of the model fitted on the other ``--fit``
sources (all of them for a source not fitted on) against the mean salience alone, and the junk
share of each type's top 20 ranked as ``overview/top-concepts`` ranks them (by ``weight``, of
quality >= 0.5), before (mean salience as the quality) and after, among the judged concepts
there. ``--write`` fits on every ``--fit`` source and writes the weights.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy
from salience_fit import judged_rows
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from kg.normalize import concept_key
from kg.store import concept_quality, open_store
from kg.store.counts import CONCEPT_TOTALS, weight

C = 0.3  # the regularisation of salience_fit.py's model; AUC varies by < 0.01 over 0.1-1
SHOWN = 20  # each type's concepts judged as overview/top-concepts shows them


def read_concepts(db: str) -> list[dict]:
    """Every named concept's totals, with its mean salience (``quality`` in a graph built before
    concept qualities were fitted)."""
    with open_store(db) as store:
        rows = list(store.stream(CONCEPT_TOTALS))
    for row in rows:
        row["rated"] = row["papers"] if row["rated"] is None else row["rated"]
        mean = row.get("salience") if row.get("salience") is not None else row["quality"]
        row["salience"] = 0.5 if mean is None else mean
    return rows


def judged_labels(concepts: list[dict], rows: list[dict], source: str) -> dict[str, bool]:
    """Concept id -> junk, from the judged ``rows`` of ``source`` found among ``concepts``."""
    by_key: dict[str, list[dict]] = {}
    for row in concepts:
        by_key.setdefault(concept_key(row["name"]), []).append(row)
    verdicts: dict[str, list[bool]] = {}
    for row in rows:
        found = by_key.get(concept_key(row["name"]), []) if row["source"] == source else []
        same_type = [c for c in found if c["type"] == row["type"]] or found
        if same_type:
            verdicts.setdefault(same_type[0]["id"], []).append(row["verdict"] == "junk")
    return {cid: sum(v) / len(v) >= 0.5 for cid, v in verdicts.items()}


def features(row: dict) -> dict[str, float]:
    return concept_quality.features(row["name"], row["salience"], row["rated"], row["papers"], row["mentions"] or 0, row["type"])


def fit(samples: list[tuple[dict, bool]]) -> dict:
    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([features(row) for row, _ in samples])
    keep = numpy.array([not junk for _, junk in samples])
    model = LogisticRegression(C=C, max_iter=3000).fit(x, keep)
    return {"bias": round(float(model.intercept_[0]), 4),
            "weights": {name: round(float(w), 4) for name, w in zip(vectorizer.feature_names_, model.coef_[0])}}


def top_junk(concepts: list[dict], labels: dict[str, bool], quality_of) -> tuple[float, int, int]:
    """The junk share among the judged concepts of each type's top ``SHOWN``, the judged and all shown."""
    by_type: dict[str, list[dict]] = {}
    for row in concepts:
        ranked = dict(row, quality=quality_of(row))
        if ranked["quality"] >= 0.5:
            by_type.setdefault(row["type"], []).append(ranked)
    shown = [r for rows in by_type.values()
             for r in sorted(rows, key=lambda r: (-weight(r), -r["papers"], r["name"]))[:SHOWN]]
    judged = [labels[r["id"]] for r in shown if r["id"] in labels]
    return (sum(judged) / len(judged) if judged else 0.0), len(judged), len(shown)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", nargs="+", required=True, metavar="SOURCE=DIR", help="each source's graph")
    parser.add_argument("--fit", nargs="+", required=True, help="the sources fitted on")
    parser.add_argument("--judged", type=Path, default=Path(__file__).resolve().parent / "judged")
    parser.add_argument("--exclude", nargs="*", default=[], help="draw labels left out (e.g. shown6)")
    parser.add_argument("--write", action="store_true", help="write the weights fitted on every --fit source")
    args = parser.parse_args()
    sources = dict(item.split("=", 1) for item in args.db)
    rows = judged_rows(args.judged, args.exclude)
    data = {}
    for source, db in sources.items():
        concepts = read_concepts(db)
        labels = judged_labels(concepts, rows, source)
        data[source] = (concepts, labels)
        print(f"{source}: {len(concepts)} concepts, {len(labels)} judged ({sum(labels.values())} junk)")
    by_id = {s: {row["id"]: row for row in concepts} for s, (concepts, _) in data.items()}
    for source, (concepts, labels) in data.items():
        others = [s for s in args.fit if s != source]
        fitted = fit([(by_id[s][cid], junk) for s in others for cid, junk in data[s][1].items()])
        judged = list(labels.items())
        truth = [junk for _, junk in judged]
        model = [-concept_quality.score(features(by_id[source][cid]), fitted) for cid, _ in judged]
        mean = [-by_id[source][cid]["salience"] for cid, _ in judged]
        before = top_junk(concepts, labels, lambda r: r["salience"])
        after = top_junk(concepts, labels, lambda r: concept_quality.score(features(r), fitted))
        print(f"{source} (fitted on {'+'.join(others)}): AUC {roc_auc_score(truth, model):.3f} "
              f"(mean salience {roc_auc_score(truth, mean):.3f}); each type's top {SHOWN} junk "
              f"{before[0]:.1%} of {before[1]}/{before[2]} judged -> {after[0]:.1%} of {after[1]}/{after[2]}")
    if args.write:
        fitted = fit([(by_id[s][cid], junk) for s in args.fit for cid, junk in data[s][1].items()])
        concept_quality.WEIGHTS.write_text(json.dumps(fitted, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {concept_quality.WEIGHTS}")


if __name__ == "__main__":
    main()
