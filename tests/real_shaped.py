"""A generated collection shaped like the real ones (OpenAlex, S2): many references per paper,
most cited once, a few cited often; concepts in topic clusters; authors and years.

It goes through the real extraction-record -> store path (``kg.build.load_records``), so the
views read it exactly as they read a build.
"""

from __future__ import annotations

import random

from kg.build import load_records

TOPICS = {
    "vision": ["image classification", "object detection", "ResNet", "ImageNet", "convolutional networks",
               "semantic segmentation", "COCO", "vision transformers", "data augmentation", "top-1 accuracy"],
    "language": ["machine translation", "BERT", "WMT14", "BLEU", "language modeling", "question answering",
                 "SQuAD", "Transformer", "named entity recognition", "F1 score"],
    "control": ["reinforcement learning", "policy gradient", "Atari", "PPO", "robot manipulation",
                "reward shaping", "MuJoCo", "Q-learning", "imitation learning", "episode return"],
    "biology": ["protein structure prediction", "AlphaFold", "PDB", "gene expression", "single-cell RNA-seq",
                "cell type annotation", "variational autoencoders", "graph neural networks", "drug discovery", "AUROC"],
}
TYPES = {0: "Task", 1: "Task", 2: "Method", 3: "Dataset", 4: "Method", 5: "Task", 6: "Dataset", 7: "Method",
         8: "Method", 9: "Metric"}
SURNAMES = ["Okafor", "Lind", "Tanaka", "Moreau", "Silva", "Kowalski", "Nguyen", "Haddad", "Brennan", "Ivanova",
            "Castillo", "Abebe", "Larsen", "Petrov", "Chen", "Rossi"]


def concept(name: str, kind: str, text: str) -> dict:
    start = text.index(name)
    return {"name": name, "type": kind, "key": name.lower().replace("-", " "), "aliases": [], "merges": [],
            "mentions": [[start, start + len(name)]],
            "evidence": [{"sentence": [0, len(text)], "rule": "fixture", "confidence": 0.9}],
            "proposed": False if kind == "Method" else None, "confidence": 0.9}


def reference_pool(size: int, rng: random.Random) -> list[dict]:
    """Cited works not in the collection, with the metadata S2 gives (first author, year, title)."""
    pool = []
    for i in range(size):
        authors = [f"{rng.choice('ABCDEFGHJKLMNPRST')}. {rng.choice(SURNAMES)}" for _ in range(rng.randint(1, 4))]
        title = f"{rng.choice(['On', 'Towards', 'Learning', 'Scaling', 'Revisiting'])} {rng.choice(list(TOPICS))} work number {i}"
        pool.append({"key": f"s2:ref{i:04d}", "title": title, "authors": authors, "year": rng.randint(1990, 2020)})
    return pool


def records(papers: int = 120, references: int = 900, seed: int = 16) -> list[dict]:
    """``papers`` extraction records citing a pool of ``references`` works (Zipf-like popularity)
    and each other; every paper names 4-6 concepts, mostly of one topic."""
    rng = random.Random(seed)
    pool = reference_pool(references, rng)
    weights = [1 / (i + 1) ** 0.9 for i in range(references)]
    topics = list(TOPICS)
    out = []
    for n in range(papers):
        topic = topics[n % len(topics)]
        names = rng.sample(range(10), rng.randint(3, 5))
        chosen = [(TOPICS[topic][i], TYPES[i]) for i in names]
        other = topics[(n + 1) % len(topics)]
        if rng.random() < 0.3:
            i = rng.randrange(10)
            chosen.append((TOPICS[other][i], TYPES[i]))
        tail = rng.choices(range(60), weights=[1 / (i + 1) for i in range(60)], k=rng.randint(1, 3))
        chosen += [(f"{topic} technique {i}", "Method") for i in tail]   # the long tail most concepts are in
        chosen = list(dict.fromkeys(chosen))
        text = f"Paper {n} studies " + ", ".join(name for name, _ in chosen) + f" in {topic}."
        cited = {pool[i]["key"]: pool[i] for i in set(rng.choices(range(references), weights=weights, k=rng.randint(8, 40)))}
        loaded = [f"p-real{m:03d}" for m in rng.sample(range(n), min(n, 2))] if n else []
        out.append({
            "id": f"p-real{n:03d}", "title": f"A study of {chosen[0][0]} number {n}", "title_derived": False,
            "text": text, "venue": "REAL", "year": 2010 + n % 12,
            "authors": [f"{rng.choice('ABCDEFGHJKLMNPRST')}. {rng.choice(SURNAMES)}" for _ in range(rng.randint(1, 5))],
            "doi": None, "references": loaded + sorted(cited), "source": "generated", "position": n + 1,
            "reference_details": {key: {k: work[k] for k in ("title", "authors", "year")} for key, work in cited.items()},
            "concepts": [concept(name, kind, text) for name, kind in chosen], "citations": [],
        })
    return out


def load(store, papers: int = 120, references: int = 900, seed: int = 16) -> list[dict]:
    """Empty ``store`` and load the generated collection through the real loads."""
    made = records(papers, references, seed)
    store.run("MATCH (n) DETACH DELETE n", write=True)
    load_records(store, made)
    return made
