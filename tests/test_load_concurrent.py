"""The store under concurrent load, small (bench/load.py measures it at 10,000 papers): 4 clients run
100 mixed commands, a fifth through the CLI and the rest through the Python API (one ``kg.open``
shared by the clients' threads), while a build adds 500 papers to the same store; every answer is
checked, and afterwards every paper is there.

The build here is ``kg load`` of generated ``kg extract`` records (what ``kg build`` stores, without
running spaCy, which on two busy cores would take minutes): the store's side of a build, the
batches, the vocabulary pass and the kept counts, runs against the readers.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

import kg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from load import BuildWatch, Checker, papers_found, plan, run_clients, start_build  # noqa: E402

BASE, ADDED, CLIENTS, COMMANDS = 150, 500, 4, 100
CLI_SHARE = 0.2  # a kg subprocess takes seconds to start on busy cores; the API commands are the many
TIMEOUT_S = 240  # the whole load; far above what it takes, so that a hang fails instead of blocking the suite
CONCEPTS = [  # name, type: the vocabulary the generated papers draw from, the first ones most often
    ("Transformer", "Method"), ("natural language processing", "Domain"), ("BLEU", "Metric"),
    ("machine translation", "Task"), ("ImageNet", "Dataset"), ("LoRA", "Method"), ("summarization", "Task"),
    ("accuracy", "Metric"), ("computer vision", "Domain"), ("SQuAD", "Dataset"), ("question answering", "Task"),
    ("graph neural network", "Method"), ("ROUGE", "Metric"), ("PubMed", "Dataset"), ("image classification", "Task"),
    ("contrastive learning", "Method"), ("CoNLL-2003", "Dataset"), ("named entity recognition", "Task"),
    ("diffusion model", "Method"), ("LibriSpeech", "Dataset"), ("speech recognition", "Task"), ("beam search", "Method"),
    ("WMT14", "Dataset"), ("F1", "Metric"), ("random forest", "Method"), ("knowledge distillation", "Method"),
]
SENTENCES = {  # how a paper names a concept of each type
    "Method": ["We propose {} for this problem.", "Our approach builds on {} and improves it."],
    "Task": ["We study {} in a new setting.", "The target task is {}."],
    "Dataset": ["Experiments run on {} and a held-out split.", "We evaluate on {}."],
    "Metric": ["Results are reported in {} over five runs.", "The gain in {} is consistent."],
    "Domain": ["This work belongs to {}.", "Our findings matter for {}."],
}


def generated_record(number: int) -> dict:
    """The ``kg extract`` record of paper ``number``: 3-6 concepts (popular ones more often), each
    named by a sentence of its own, with the mention and sentence spans extraction gives; up to
    three references to earlier papers. Deterministic: the same record for the same number."""
    rng = random.Random(number)
    weights = [1 / (rank + 1) for rank in range(len(CONCEPTS))]
    chosen = list(dict.fromkeys(rng.choices(range(len(CONCEPTS)), weights=weights, k=rng.randint(3, 6))))
    text, concepts = "", []
    for index in chosen:
        name, kind = CONCEPTS[index]
        template = rng.choice(SENTENCES[kind])
        start = len(text) + (1 if text else 0)
        sentence = template.format(name)
        text = f"{text} {sentence}" if text else sentence
        at = start + template.index("{}")
        proposed = True if template.startswith("We propose") else None
        concepts.append({"name": name, "type": kind, "key": name.lower(), "aliases": [], "mentions": [[at, at + len(name)]],
                         "evidence": [{"sentence": [start, start + len(sentence)], "rule": "gazetteer", "confidence": 0.9}],
                         "proposed": proposed, "confidence": 0.9, "salience": round(rng.uniform(0.2, 0.9), 2)})
    references = sorted({f"load-{rng.randrange(number):04d}" for _ in range(rng.randint(0, 3))}) if number else []
    return {"id": f"load-{number:04d}", "title": f"On {CONCEPTS[chosen[0]][0]}, study {number}", "title_derived": False,
            "text": text, "venue": rng.choice(["ACL", "NeurIPS", "CVPR"]), "year": 2016 + number % 10,
            "authors": [f"Author {rng.randrange(40)}"], "doi": None, "references": references,
            "source": "generated", "position": number + 1, "concepts": concepts, "citations": [], "urls": [], "acronyms": []}


def test_generated_records_name_their_concepts_where_their_spans_say():
    for number in (0, 1, 77):
        record = generated_record(number)
        assert record == generated_record(number)
        for concept in record["concepts"]:
            (start, end), = concept["mentions"]
            assert record["text"][start:end] == concept["name"]
            sentence = concept["evidence"][0]["sentence"]
            assert concept["name"] in record["text"][sentence[0]:sentence[1]]


def test_clients_read_while_a_build_adds_papers_and_no_paper_is_lost(store, store_dir, tmp_path):
    base = [generated_record(n) for n in range(BASE)]
    added = [generated_record(n) for n in range(BASE, BASE + ADDED)]
    with kg.open(store_dir) as graph:
        assert graph.load(base).papers == BASE
    records = tmp_path / "added.jsonl"
    records.write_text("".join(json.dumps(record) + "\n" for record in added), encoding="utf-8")
    base_ids, all_ids = [r["id"] for r in base], [r["id"] for r in base + added]
    env = os.environ | {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    views = tmp_path / "views"
    views.mkdir()

    start = time.monotonic()
    deadline = start + TIMEOUT_S
    watch = BuildWatch(start_build(["load", str(records)], store_dir, tmp_path / "build.log", env), deadline)
    dealt = plan(COMMANDS, CLIENTS, base_ids, seed=0, cli_share=CLI_SHARE)
    outcomes = run_clients(dealt, store_dir, views, Checker(set(all_ids), BASE, every_count=True), deadline, env)
    watch.join()

    log = (tmp_path / "build.log").read_text()
    assert watch.code == 0, log
    assert f"{ADDED} papers" in log or f"{ADDED:,} papers" in log, log
    assert len(outcomes) == COMMANDS
    assert {o.command.via for o in outcomes} == {"cli", "api"}
    assert {o.command.kind for o in outcomes} == {"pack", "similar", "stats", "viz"}
    errors = [f"{o.command.kind} {o.command.name} ({o.command.via}): {o.error}" for o in outcomes if o.error]
    assert not errors, "\n".join(errors)
    assert any(o.started < watch.ended for o in outcomes), "no command ran while the build did"
    assert papers_found(store_dir, all_ids) == BASE + ADDED
    with kg.open(store_dir) as graph:
        assert graph.stats()["nodes"]["Paper"] == BASE + ADDED
