"""The shipped 8-bit models run from a signed copy where the CPU adds int8 products in 32 bits
(``kg.onnx_lean``): the same outputs, made once, the shipped file where the copy cannot be had."""

from __future__ import annotations

import os
import time

import numpy
import onnxruntime
import pytest

from kg import dense, onnx_lean
from kg.extract import accurate

VNNI = pytest.mark.skipif(not onnx_lean.int8_dot_products(), reason="this CPU has no int8 dot products (VNNI)")


def outputs(path, feeds: dict) -> list:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def token_ids(text: str) -> numpy.ndarray:
    return numpy.array([dense.default_model().tokenizer.encode(text).ids], dtype=numpy.int64)


@VNNI
def test_the_encoders_signed_copy_gives_the_shipped_models_outputs_to_the_bit(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shipped = dense.MODEL_DIR / "model.onnx"
    copy = onnx_lean.model_for_cpu(shipped)
    assert copy.parent == tmp_path / "kg" / "onnx"
    import onnx  # here, not at collection: every test process collects this module, one runs it
    from onnx import TensorProto

    model = onnx.load(str(copy))
    weights = [t for t in model.graph.initializer if t.data_type == TensorProto.INT8]
    assert len(weights) == 72 and not [n for n in model.graph.node if n.op_type == "IsNaN"]
    for text in ("Low-rank adaptation of large language models.", "Soil moisture in alpine meadows " * 40):
        ids = token_ids(text)
        feeds = {"input_ids": ids, "attention_mask": numpy.ones_like(ids)}
        assert numpy.array_equal(outputs(shipped, feeds)[0], outputs(copy, feeds)[0])


@VNNI
def test_the_accurate_recognisers_signed_copy_scores_as_the_shipped_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shipped = accurate.MODEL_DIR / accurate.MODEL_FILE
    copy = onnx_lean.model_for_cpu(shipped)
    assert copy != shipped
    tokenizer = accurate.load_tokenizer(accurate.MODEL_DIR)
    words = "We fine-tune BERT on SQuAD and report exact match and F1 against a BiDAF baseline .".split()
    ids, mask = accurate.padded(accurate.windows(words, tokenizer) + accurate.windows(words[:5], tokenizer))
    feeds = {"input_ids": ids, "attention_mask": mask}  # padded: a masked tail in the second window
    assert numpy.array_equal(outputs(shipped, feeds)[0], outputs(copy, feeds)[0])


def small_model(path, guard_read_elsewhere: bool = False, seed: int = 7):
    """y = softmax(a x w) with the export's NaN guard after it (read by a node, as in an encoder); w as unsigned bytes
    with per-column zero points, drawn by ``seed``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    path.parent.mkdir(parents=True, exist_ok=True)
    rng = numpy.random.default_rng(seed)
    weights = numpy_helper.from_array(rng.integers(0, 256, (4, 3), dtype=numpy.uint8), "w")
    zero = numpy_helper.from_array(numpy.array([120, 128, 131], dtype=numpy.uint8), "wz")
    nodes = [helper.make_node("MatMulInteger", ["a", "w", "az", "wz"], ["p"]),
             helper.make_node("Cast", ["p"], ["f"], to=TensorProto.FLOAT),
             helper.make_node("Softmax", ["f"], ["s"]),
             helper.make_node("IsNaN", ["s"], ["bad"]),
             helper.make_node("Where", ["bad", "zero", "s"], ["g"]),
             helper.make_node("Identity", ["g"], ["y"])]
    outputs_ = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])]
    if guard_read_elsewhere:
        outputs_.append(helper.make_tensor_value_info("bad", TensorProto.BOOL, [1, 3]))
    graph = helper.make_graph(nodes, "small", [helper.make_tensor_value_info("a", TensorProto.UINT8, [1, 4]),
                                               helper.make_tensor_value_info("az", TensorProto.UINT8, [])],
                              outputs_, [weights, zero, numpy_helper.from_array(numpy.array(0, numpy.float32), "zero")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def test_the_copy_is_made_once_and_again_for_a_model_trained_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(onnx_lean, "int8_dot_products", lambda: True)
    shipped = small_model(tmp_path / "model.onnx")
    copy = onnx_lean.model_for_cpu(shipped)
    made = copy.stat().st_mtime_ns
    import onnx
    from onnx import TensorProto

    model = onnx.load(str(copy))
    assert [t.data_type for t in model.graph.initializer] == [TensorProto.INT8, TensorProto.INT8]  # the guard's 0 is gone
    assert [n.op_type for n in model.graph.node] == ["MatMulInteger", "Cast", "Softmax", "Identity"]
    feeds = {"a": numpy.array([[0, 17, 200, 255]], dtype=numpy.uint8), "az": numpy.array(3, dtype=numpy.uint8)}
    assert numpy.array_equal(outputs(shipped, feeds)[0], outputs(copy, feeds)[0])
    inode = copy.stat().st_ino
    os.utime(copy, ns=(made - 10**9, made - 10**9))
    assert onnx_lean.model_for_cpu(shipped) == copy and copy.stat().st_ino == inode  # not made again
    assert copy.stat().st_mtime_ns > made  # its time says it was used
    # the same model in another checkout or environment (another path, another time) finds the same copy
    elsewhere = tmp_path / "venv" / "model.onnx"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(shipped.read_bytes())
    assert onnx_lean.model_for_cpu(elsewhere) == copy and copy.stat().st_ino == inode
    small_model(shipped, seed=8)  # trained again: other weights
    again = onnx_lean.model_for_cpu(shipped)
    assert again != copy and again.parent == copy.parent
    assert len(list(copy.parent.glob("*.onnx"))) == 2 and not list(copy.parent.glob("*.onnx.*"))


def test_making_a_copy_removes_those_unused_for_a_month(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(onnx_lean, "int8_dot_products", lambda: True)
    first = onnx_lean.model_for_cpu(small_model(tmp_path / "a" / "model.onnx"))
    second = onnx_lean.model_for_cpu(small_model(tmp_path / "b" / "model.onnx", seed=8))
    month_ago = time.time() - (onnx_lean.UNUSED_DAYS + 1) * 86400
    for path in (first, second):
        os.utime(path, (month_ago, month_ago))
    assert onnx_lean.model_for_cpu(tmp_path / "a" / "model.onnx") == first  # used again
    third = onnx_lean.model_for_cpu(small_model(tmp_path / "c" / "model.onnx", seed=9))
    assert sorted(p.name for p in first.parent.iterdir()) == sorted([first.name, third.name])  # the unused one is gone
    # a process that found a copy before another removed it makes it again
    assert onnx_lean.model_for_cpu(tmp_path / "b" / "model.onnx") == second and second.exists()


def test_the_shipped_file_runs_when_the_copy_is_off_unneeded_or_cannot_be_written(tmp_path, monkeypatch):
    shipped = small_model(tmp_path / "model.onnx")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(onnx_lean, "int8_dot_products", lambda: False)
    assert onnx_lean.model_for_cpu(shipped) == shipped
    monkeypatch.setattr(onnx_lean, "int8_dot_products", lambda: True)
    monkeypatch.setenv(onnx_lean.SIGNED_ENV, "0")
    assert onnx_lean.model_for_cpu(shipped) == shipped
    monkeypatch.delenv(onnx_lean.SIGNED_ENV)
    (tmp_path / "cache").write_text("a file where the cache folder would be")
    assert onnx_lean.model_for_cpu(shipped) == shipped
    assert not list(tmp_path.glob("**/*.onnx.*"))


def test_a_guard_whose_test_is_read_elsewhere_stays(tmp_path):
    import onnx

    model = onnx.load(str(small_model(tmp_path / "model.onnx", guard_read_elsewhere=True)))
    assert onnx_lean.without_nan_guards(model) == 0
    assert [n.op_type for n in model.graph.node] == ["MatMulInteger", "Cast", "Softmax", "IsNaN", "Where", "Identity"]


def test_int8_dot_products_are_read_from_the_cpu_flags():
    assert onnx_lean.int8_dot_products("processor : 0\nflags\t\t: fpu sse avx2 avx_vnni\n")
    assert not onnx_lean.int8_dot_products("processor : 0\nflags\t\t: fpu sse avx2 avx512f\n")
    assert not onnx_lean.int8_dot_products("")
