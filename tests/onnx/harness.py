"""Shared check of ONNX exports: export ``fn(module, x)`` (a Layer around it, batch left
dynamic) and compare onnxruntime's results at batch 2 and 3 with a reference module's eager
results (real Paddle, or pagaie where Paddle has no CPU kernel)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import pagaie


class Fn(pagaie.nn.Layer):
    """A Layer whose forward is ``fn(pagaie, x)``."""

    def __init__(self, fn: Callable) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, x: Any) -> Any:
        return self.fn(pagaie, x)


def _flat(v: Any) -> list:
    if hasattr(v, "numpy") and not isinstance(v, (list, tuple)):
        return [v]
    return [e for x in v for e in _flat(x)]


def check_export(tmp_path: Any, fn: Callable, shape: tuple, ref: Any, rs: np.random.RandomState,
                 opset: int = 17) -> None:
    """Export ``fn`` for inputs ``[batch, *shape]`` and compare with ``fn(ref, x)``: shapes,
    dtypes and values (float32 tolerance)."""
    import onnx
    import onnxruntime as ort
    path = str(tmp_path / "m")
    spec = pagaie.static.InputSpec([None, *shape], "float32", "x")
    pagaie.onnx.export(Fn(fn), path, [spec], opset_version=opset)
    onnx.checker.check_model(onnx.load(path + ".onnx"))
    sess = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
    for n in (2, 3):  # the batch stays dynamic
        x = rs.randn(n, *shape).astype("float32")
        got = sess.run(None, {"x": x})
        want = [w.numpy() for w in _flat(fn(ref, ref.to_tensor(x)))]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5)
