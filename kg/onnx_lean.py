"""The 8-bit ONNX models kg ships, run by ONNX Runtime's quicker kernels where the CPU has them.

The sentence encoder (``kg.dense``) and the accurate recogniser (``kg.extract.accurate``) store
their weights as unsigned bytes, one scale and zero point per output channel. A product of
``MatMulInteger`` or ``QAttention`` reads only the difference of a weight and its zero point, so
each may be stored 128 lower, as a signed byte, and give the same numbers; ONNX Runtime then
multiplies with its u8s8 kernels, which on a CPU with int8 dot products (AVX-512 VNNI or AVX-VNNI)
are about 1.6x quicker than its u8u8 ones: the encoder 54 -> 33 ms of one core per abstract, the
same vectors to the bit (docs/benchmarks.md, "The 8-bit models on a CPU with int8 dot products"). Without those instructions the
u8s8 kernels add pairs of products in 16 bits, which can overflow, so the model runs as shipped.

:func:`model_for_cpu` gives the file to load: the shipped one, or its signed copy, made once in
``~/.cache/kg/onnx`` (``$XDG_CACHE_HOME`` if set) and named by a hash of the shipped file's bytes:
every checkout and environment that holds the same model shares one copy, and a model trained
again gets a new one. Using a copy marks its time; making one removes the copies unused for
``UNUSED_DAYS``. ``KG_ONNX_SIGNED=0`` turns it off. A copy that cannot be made or written costs
only the speed-up. The copy also leaves out the guard the export puts
after each attention softmax against a row whose every token is masked (``Where(IsNaN(x), 0, x)``):
kg never masks a whole text, and the guard read every score again.

>>> import numpy
>>> from onnx import TensorProto, helper, numpy_helper
>>> weights = numpy_helper.from_array(numpy.array([[3, 250], [128, 7]], dtype=numpy.uint8), "w")
>>> zero = numpy_helper.from_array(numpy.array([128, 100], dtype=numpy.uint8), "wz")
>>> node = helper.make_node("MatMulInteger", ["a", "w", "az", "wz"], ["y"])
>>> graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("a", TensorProto.UINT8, [1, 2]),
...                                         helper.make_tensor_value_info("az", TensorProto.UINT8, [])],
...                           [helper.make_tensor_value_info("y", TensorProto.INT32, [1, 2])], [weights, zero])
>>> model = helper.make_model(graph)
>>> signed_weights(model)
2
>>> [numpy_helper.to_array(tensor).tolist() for tensor in model.graph.initializer]
[[[-125, 122], [0, -121]], [0, -28]]
"""

from __future__ import annotations

import hashlib
import os
import platform
import time
from collections import Counter
from functools import lru_cache
from pathlib import Path

from kg.vector_cache import file_digest

SIGNED_ENV = "KG_ONNX_SIGNED"
VERSION = 1  # of what a signed copy holds: changed, copies made before are not read
UNUSED_DAYS = 30  # a copy no process loaded for this long is removed when another copy is made
# the nodes that multiply 8-bit weights (input 1) less their zero point (the input numbered here)
WEIGHT_ZERO_POINTS = {"MatMulInteger": 3, "QAttention": 7}
INT8_DOT_PRODUCTS = ("avx512_vnni", "avx_vnni")  # /proc/cpuinfo's names of the instructions


def cpu_session(path: Path, threads: int):
    """An ONNX Runtime session on the CPU for the shipped 8-bit model ``path`` (:func:`model_for_cpu`),
    ``threads`` threads within an operator and one across them."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(model_for_cpu(path)), options, providers=["CPUExecutionProvider"])


def int8_dot_products(cpuinfo: str | None = None) -> bool:
    """Whether this CPU adds int8 products in 32 bits (VNNI), by Linux's ``/proc/cpuinfo`` (``cpuinfo``:
    its text); False where that cannot be told.

    >>> int8_dot_products("flags : fpu avx2 avx512f avx512_vnni"), int8_dot_products("flags : fpu avx2")
    (True, False)
    """
    if cpuinfo is None:
        cpuinfo = _cpuinfo()
    flags = next((line.split(":", 1)[1].split() for line in cpuinfo.splitlines() if line.startswith("flags")), [])
    return any(flag in flags for flag in INT8_DOT_PRODUCTS)


@lru_cache(maxsize=1)
def _cpuinfo() -> str:
    """This CPU's ``/proc/cpuinfo``, read once per process; empty off x86-64 Linux."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return ""
    try:
        return Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def model_for_cpu(path: Path) -> Path:
    """The file ONNX Runtime should load for the shipped 8-bit model ``path``: its signed copy
    (made once, ``_signed_copy``) on a CPU with int8 dot products, else ``path``."""
    if os.environ.get(SIGNED_ENV, "1") == "0" or not int8_dot_products():
        return path
    stat = path.stat()
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kg" / "onnx"
    arguments = (str(path.resolve()), stat.st_size, stat.st_mtime_ns, folder)
    copy = _signed_copy(*arguments)
    if copy.parent == folder:
        try:
            os.utime(copy)  # used now: kept by forget_unused_copies
        except FileNotFoundError:  # removed meanwhile (unused by other processes for a month): made again
            _signed_copy.cache_clear()
            copy = _signed_copy(*arguments)
        except OSError:
            pass
    return copy


@lru_cache(maxsize=8)
def _signed_copy(path: str, size: int, mtime_ns: int, folder: Path) -> Path:
    # by the bytes, not the path or time: a new checkout, venv or installed wheel of the same model finds the copy
    key = hashlib.sha256(f"{file_digest(Path(path))}|{VERSION}".encode()).hexdigest()[:16]
    copy = folder / f"{Path(path).stem}-{key}.onnx"
    if copy.exists():
        return copy
    try:
        import onnx

        model = onnx.load(path)
        if not signed_weights(model):
            return Path(path)  # nothing to sign: the shipped file as it is
        without_nan_guards(model)
        folder.mkdir(parents=True, exist_ok=True)
        forget_unused_copies(folder)
        scratch = copy.with_name(f"{copy.name}.{os.getpid()}")
        onnx.save(model, str(scratch))
        scratch.replace(copy)  # whole or not at all: another process may be making it too
        return copy
    except Exception:  # noqa: BLE001 (no onnx, a folder kg may not write, a full disk: the shipped model runs)
        return Path(path)


def forget_unused_copies(folder: Path, days: float = UNUSED_DAYS) -> list[Path]:
    """Delete the copies in ``folder`` (and the half-written ones a killed process left) that nobody used
    for ``days``; returns them.

    >>> import tempfile, time
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name, age_days in (("model-old.onnx", 40), ("model-new.onnx", 2), ("model-dead.onnx.123", 40)):
    ...     (folder / name).touch()
    ...     os.utime(folder / name, (time.time() - age_days * 86400,) * 2)
    >>> sorted(path.name for path in forget_unused_copies(folder))
    ['model-dead.onnx.123', 'model-old.onnx']
    >>> [path.name for path in folder.iterdir()]
    ['model-new.onnx']
    """
    cutoff = time.time() - days * 86400
    gone = []
    for path in folder.glob("*.onnx*"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                gone.append(path)
        except OSError:  # removed by another process meanwhile
            pass
    return gone


def signed_weights(model) -> int:
    """Store the unsigned 8-bit weights and zero points of ``model`` (an ``onnx.ModelProto``) as
    signed bytes 128 lower; returns how many tensors changed. A weight or zero point that is a graph
    input, or that another kind of node reads too, is left as it is."""
    import numpy
    from onnx import numpy_helper

    initializers = {tensor.name: tensor for tensor in model.graph.initializer}
    readers: dict[str, set[str]] = {}
    for node in model.graph.node:
        for name in node.input:
            readers.setdefault(name, set()).add(node.op_type)
    changed = 0
    for node in model.graph.node:
        at = WEIGHT_ZERO_POINTS.get(node.op_type)
        if at is None or len(node.input) <= at:
            continue
        tensors = [initializers.get(node.input[1]), initializers.get(node.input[at])]
        if any(tensor is None or readers[tensor.name] - set(WEIGHT_ZERO_POINTS) for tensor in tensors):
            continue
        for tensor in tensors:
            values = numpy_helper.to_array(tensor)
            if values.dtype == numpy.uint8:  # a tensor two nodes share is changed once
                signed = (values.astype(numpy.int16) - 128).astype(numpy.int8)
                tensor.CopyFrom(numpy_helper.from_array(signed, tensor.name))
                changed += 1
    return changed


def without_nan_guards(model) -> int:
    """Take each ``Where(IsNaN(x), c, x)`` out of ``model`` (its readers read ``x``); returns how many."""
    made_by = {output: node for node in model.graph.node for output in node.output}
    reads = Counter([name for node in model.graph.node for name in node.input] + [out.name for out in model.graph.output])
    read_instead, dropped = {}, []
    for node in model.graph.node:
        test = made_by.get(node.input[0]) if node.op_type == "Where" else None
        if test is not None and test.op_type == "IsNaN" and test.input[0] == node.input[2] \
                and reads[test.output[0]] == 1:
            read_instead[node.output[0]] = node.input[2]
            dropped += [node, test]
    if any(output.name in read_instead for output in model.graph.output):
        return 0
    for node in dropped:
        model.graph.node.remove(node)
    for node in model.graph.node:
        for i, name in enumerate(node.input):
            node.input[i] = read_instead.get(name, name)
    read = {name for node in model.graph.node for name in node.input} | {output.name for output in model.graph.output}
    for tensor in [t for t in model.graph.initializer if t.name not in read]:
        model.graph.initializer.remove(tensor)
    return len(dropped) // 2
