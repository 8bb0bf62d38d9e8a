"""Fit the salience model (``kg/extract/models/salience.json``) on concepts people judged.

    kg extract OPENALEX.jsonl.gz -o openalex.records.jsonl
    kg extract scierc/train.json scierc/dev.json -o scierc.records.jsonl
    python bench/salience_fit.py --records openalex.records.jsonl scierc.records.jsonl \\
        --judged bench/judged --write

Each judged row (``bench/judged/<source>-<label>.jsonl``: a concept, one paper naming it, and a
reader's verdict) is found again in the records of its paper by canonical key; its label is 1
unless the verdict is junk (a concept of the wrong type is still a concept). Rows of the blind and
proposed draws are not read (their rows are not all the extractor's). ``--exclude`` leaves out
draws by label, so that a fresh draw judged after the fit measures the fitted model.

Prints, per source, the area under the ROC curve of the model cross-validated by concept (five
folds: the rows of one name are never in the fold that scores them) against the rule confidence alone,
and the junk share among the rows the model ranks in its top half, quarter and tenth. ``--write``
fits on all rows and writes the weights.

What a name's words mean enters as the sum of its word pieces' vectors (the dense encoder's output for
each piece read alone, standardised; the sum scored a little above the mean), fitted with the other
features; as the model is linear, the fitted weights of those vectors fold into one score per piece
(``models/salience_pieces.json``) whose sum over a name's pieces is its ``pieces`` input (weight 1), so
extraction runs no encoder.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter
from pathlib import Path

import numpy
from scipy import sparse
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold

from kg.dense import default_model
from kg.extract import salience
from kg.normalize import concept_key

SKIPPED = ("blind", "proposed")
EARLIER = "earlier.jsonl.gz"  # the rows of the draws before s9, no longer kept as files (README.md there)
C = 0.1  # the regularisation: chosen by the cross-validated AUC over 0.03-1
SCALE = 0.1  # the standardised piece vectors' size beside the features (most in [0, 1]): by the AUC over 0.03-0.1
MIN_NAMES = 8  # a word feature is learnt from at least this many distinct judged names


def judged_rows(folder: Path, exclude: list[str]) -> list[dict]:
    """The keep / junk / wrong-type rows of every judged draw but the blind, proposed and excluded ones:
    the draws kept as files and the earlier ones kept as rows in ``earlier.jsonl.gz``, in the order
    of their draws' names (the order the fit has always read them in)."""
    drawn = [(path.stem, json.loads(line)) for path in folder.glob("*.jsonl") for line in path.open(encoding="utf-8")]
    earlier = folder / EARLIER
    if earlier.exists():
        with gzip.open(earlier, "rt", encoding="utf-8") as handle:
            drawn += [(row.pop("draw"), row) for row in map(json.loads, handle)]
    rows = []
    for draw, row in sorted(drawn, key=lambda pair: pair[0] + ".jsonl"):  # as the files sort
        source, _, label = draw.partition("-")
        if any(s in draw for s in SKIPPED) or label in exclude:
            continue
        if row.get("verdict") in ("keep", "junk", "wrong_type"):
            rows.append({**row, "source": source})
    return rows


def record_concepts(paths: list[Path], wanted: set[str]) -> dict[tuple[str, str], tuple[dict, salience.Context]]:
    """``(paper, key) -> (concept, its paper's context)`` for the papers in ``wanted``."""
    found = {}
    for path in paths:
        for line in path.open(encoding="utf-8"):
            record = json.loads(line)
            if record["id"] not in wanted:
                continue
            context = salience.Context.of_record(record)
            for concept in record["concepts"]:
                found.setdefault((record["id"], concept["key"]), (concept, context))
    return found


def dataset(rows: list[dict], concepts: dict) -> tuple[list[dict], numpy.ndarray, list[str], list[str], list[list[str]]]:
    """Each found row's features but ``pieces``, label (0: junk), concept key (its fold), source and word pieces."""
    values, labels, groups, sources, pieces = [], [], [], [], []
    for row in rows:
        hit = concepts.get((row["paper"], concept_key(row["name"])))
        if hit is None:
            continue
        values.append(salience.reading_features(*hit))
        labels.append(0 if row["verdict"] == "junk" else 1)
        groups.append(hit[0]["key"])
        sources.append(row["source"])
        pieces.append(salience.word_pieces(hit[0]["name"]))
    return values, numpy.array(labels), groups, sources, pieces


def piece_vectors() -> tuple[list[str], numpy.ndarray]:
    """Every word piece of the dense encoder and its output vector read alone (``[CLS] piece [SEP]``)."""
    model = default_model()
    vocabulary = sorted(model.tokenizer.get_vocab().items(), key=lambda item: item[1])
    ends = numpy.array([[model.tokenizer.token_to_id(t) for t in ("[CLS]", "[SEP]")]] * len(vocabulary))
    vectors = numpy.zeros((len(vocabulary), model.dims), numpy.float32)
    for start in range(0, len(vocabulary), 512):  # fixed batches: the 8-bit weights scale a run by its largest value
        ids = numpy.arange(start, min(len(vocabulary), start + 512))
        run = numpy.column_stack([ends[ids, 0], ids, ends[ids, 1]]).astype(numpy.int64)
        vectors[ids] = model.session.run(None, {"input_ids": run, "attention_mask": numpy.ones_like(run)})[0][:, 1]
    return [piece for piece, _ in vocabulary], vectors


class Pieces:
    """A name's summed piece vectors (``of``) and the fold of fitted weights on them into one score per piece (``scores``)."""

    def __init__(self, names: list[str], vectors: numpy.ndarray):
        self.names, self.vectors, self.index = names, vectors, {name: k for k, name in enumerate(names)}

    def of(self, pieces: list[list[str]]) -> numpy.ndarray:
        sums = numpy.zeros((len(pieces), self.vectors.shape[1]))
        for row, name_pieces in enumerate(pieces):
            if name_pieces:
                sums[row] = self.vectors[[self.index[p] for p in name_pieces]].sum(axis=0)
        return sums

    def scores(self, shares: numpy.ndarray) -> dict[str, float]:
        """``{piece: score}`` of the pieces a name can hold ([unused] and special pieces left out) whose score rounds above 0."""
        found = self.vectors @ shares
        return {p: round(float(s), 4) for p, s in zip(self.names, found) if not p.startswith("[") and round(float(s), 4)}


def common_words_only(values: list[dict], groups: list[str], least: int) -> list[dict]:
    """The rows' features without the word features of fewer than ``least`` distinct names: a
    word seen in a few names would learn those names' verdicts, not what the word says."""
    names: dict[str, set[str]] = {}
    for row, group in zip(values, groups):
        for feature in row:
            if "=" in feature:
                names.setdefault(feature, set()).add(group)
    rare = {feature for feature, seen in names.items() if len(seen) < least}
    return [{k: v for k, v in row.items() if k not in rare} for row in values]


def fit(values: list[dict], labels: numpy.ndarray, pieces: list[list[str]], vectors: Pieces) -> tuple[dict, dict]:
    """Logistic regression over the features as they are (most lie in [0, 1]) and the names' standardised
    summed piece vectors, as ``salience.score`` reads it: the weights (``pieces`` weighs 1) and the piece scores."""
    vectorizer = DictVectorizer()
    sums = vectors.of(pieces)
    centre, spread = sums.mean(axis=0), sums.std(axis=0) + 1e-9
    matrix = sparse.hstack([vectorizer.fit_transform(values), sparse.csr_matrix((sums - centre) / spread * SCALE)]).tocsr()
    regression = LogisticRegression(C=C, max_iter=5000).fit(matrix, labels)
    named = len(vectorizer.feature_names_)
    shares = regression.coef_[0][named:] * SCALE / spread  # w . (sum - centre) / spread * SCALE = sum . shares - centre . shares
    weights = {name: round(float(w), 4) for name, w in zip(vectorizer.feature_names_, regression.coef_[0][:named])}
    weights = {n: w for n, w in sorted(weights.items()) if w} | {"pieces": 1.0}
    return {"bias": round(float(regression.intercept_[0] - centre @ shares), 4), "weights": weights}, vectors.scores(shares)


def cross_validated(values: list[dict], labels: numpy.ndarray, groups: list[str], pieces: list[list[str]],
                    vectors: Pieces) -> numpy.ndarray:
    """Each row scored by a model fitted on the folds without its concept (five folds by concept
    key, so that no name is scored by weights fitted on its own verdicts), as extraction scores it."""
    scores = numpy.zeros(len(labels))
    for train, test in GroupKFold(5).split(values, labels, groups):
        fitted, table = fit([values[k] for k in train], labels[train], [pieces[k] for k in train], vectors)
        scores[test] = [salience.score({**values[k], "pieces": salience.piece_prior(pieces[k], table)}, fitted) for k in test]
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", nargs="+", type=Path, required=True, help="kg extract records of the judged sources")
    parser.add_argument("--judged", type=Path, default=Path(__file__).resolve().parent / "judged")
    parser.add_argument("--exclude", nargs="*", default=[], help="draw labels left out (e.g. a fresh draw)")
    parser.add_argument("--write", action="store_true", help=f"write the weights fitted on all rows to {salience.WEIGHTS}")
    args = parser.parse_args()
    rows = judged_rows(args.judged, args.exclude)
    concepts = record_concepts(args.records, {row["paper"] for row in rows})
    values, labels, groups, sources, pieces = dataset(rows, concepts)
    values = common_words_only(values, groups, MIN_NAMES)
    vectors = Pieces(*piece_vectors())
    print(f"{len(labels)} of {len(rows)} judged rows found in the records ({dict(Counter(sources))})")
    scores = cross_validated(values, labels, groups, pieces, vectors)
    confidence = numpy.array([v["confidence"] for v in values])
    for source in sorted(set(sources)):
        mask = numpy.array([s == source for s in sources])
        junk = 1 - labels[mask]
        order = numpy.argsort(-scores[mask], kind="stable")
        tops = ", ".join(f"top {share:.0%} {junk[order[:max(1, int(share * mask.sum()))]].mean():.1%}"
                         for share in (0.5, 0.25, 0.1))
        print(f"{source}: {mask.sum()} rows, junk {junk.mean():.1%}; AUC model {roc_auc_score(labels[mask], scores[mask]):.3f}, "
              f"confidence alone {roc_auc_score(labels[mask], confidence[mask]):.3f}; junk among the model's {tops}")
    if args.write:
        fitted, table = fit(values, labels, pieces, vectors)
        fitted["fitted_on"] = {"rows": len(labels), "junk": int((1 - labels).sum())}
        salience.WEIGHTS.write_text(json.dumps(fitted, indent=1) + "\n", encoding="utf-8")
        about = "each word piece's share of a name's salience input `pieces` (bench/salience_fit.py)"
        salience.PIECES.write_text(json.dumps({"about": about, "scores": table}, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {salience.WEIGHTS} and {salience.PIECES}")


if __name__ == "__main__":
    main()
