"""Fuzz cases: ``repr`` / ``str`` of tensors and ``paddle.set_printoptions``, compared as text."""
from __future__ import annotations

import numpy as np

from tests.audit.fuzz import Case, X, arr

_DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)


def _printed(how: str, options: dict | None = None):
    def f(P, t):
        if options:
            P.set_printoptions(**options)
        try:
            return repr(t) if how == "repr" else str(t)
        finally:
            if options:
                P.set_printoptions(**_DEFAULTS)
    f.__name__ = how
    return f


def _x(a, **kw):
    return X(np.asarray(a), **kw)


INPUTS = {
    "f32": _x(arr([2, 3], "float32")), "f64": _x(arr([2, 3], "float64")), "i32": _x(arr([2, 3], "int32")),
    "i64": _x(arr([4], "int64")), "bool": _x(arr([2, 3], "bool")), "u8": _x(np.array([0, 7, 255], "uint8")),
    "i8": _x(np.array([-3, 7], "int8")), "f32_0d": _x(np.float32(1.5)), "i64_0d": _x(np.int64(-7)),
    "bool_0d": _x(np.bool_(True)), "f32_int_values": _x(np.array([1.0, 2.0, -3.0], "float32")),
    "f32_neg": _x(np.array([-1.5, 2.25, -0.125], "float32")), "f32_empty": _x(np.zeros([0], "float32")),
    "f32_empty2d": _x(np.zeros([2, 0], "float32")), "special": _x(np.array([np.nan, np.inf, -np.inf, 1.5], "float32")),
    "special_int_like": _x(np.array([np.nan, 1.0, 2.0], "float32")),
    "big": _x(arr([40, 40], "float32")), "big_1d": _x(np.arange(2000, dtype="float32")),
    "big_int": _x(np.arange(1500, dtype="int64")), "large_values": _x(np.array([1e10, 1.5, -2e-5], "float32")),
    "tiny": _x(np.array([1e-10, 2e-9], "float64")), "mixed_mag": _x(np.array([123456.789, 0.001], "float64")),
    "3d": _x(arr([2, 3, 4], "float32")), "4d": _x(arr([2, 2, 2, 2], "float32")),
    "long_row": _x(arr([30], "float32")), "long_int_row": _x(np.arange(40, dtype="int64")),
    "f16": X(arr([2, 3], "float32"), dtype="float16"), "bf16": X(arr([2, 3], "float32"), dtype="bfloat16"),
    "c64": _x(arr([3], "complex64")), "c128_neg": _x(np.array([-1 - 2j, 3.5 + 0j], "complex128")),
    "grad": _x(arr([2], "float32"), sg=False), "nc": X(arr([3, 4], "float32"), nc=True),
    "f32_1elem": _x(np.array([3.0], "float32")), "neg_zero": _x(np.array([-0.0, 0.0], "float32")),
    "f64_0d_int": _x(np.float64(2.0)), "f32_0d_nan": _x(np.float32(np.nan)),
    "wide_middle": _x(np.array([1, 2, 3, -100000.5, 4, 5, 6, 7], "float32")),
    "neg_middle_int": _x(np.array([1, 2, 3, -100, 4, 5, 6, 7], "int64")),
    "many_rows": _x(arr([12, 3], "float32")), "many_rows_big": _x(arr([400, 3], "float32")),
    "big_3d": _x(arr([12, 10, 10], "float32")), "bf16_0d": X(np.float32(1.5), dtype="bfloat16"),
    "f16_special": X(np.array([np.nan, 65504.0, -1.0], "float32"), dtype="float16"),
    "int_values_big": _x(np.arange(1200, dtype="float32") * 1000),
}

OPTIONS = {
    "precision4": dict(precision=4), "precision2": dict(precision=2),
    "threshold10": dict(threshold=10), "edgeitems1": dict(threshold=10, edgeitems=1),
    "sci": dict(sci_mode=True), "sci_precision3": dict(sci_mode=True, precision=3),
    "linewidth40": dict(linewidth=40), "linewidth200": dict(linewidth=200),
}


def _param_repr(P):
    p = P.create_parameter([2, 3], "float32", default_initializer=P.nn.initializer.Constant(0.5))
    return repr(p).replace(p.name, "NAME")


def _grad_repr(P, x):
    y = (x * x).sum()
    y.backward()
    return repr(x.grad)


def all_cases() -> list[Case]:
    cs = [Case(_param_repr, (), group="print"),
          Case(_grad_repr, (INPUTS["grad"],), group="print")]
    for lab, x in INPUTS.items():
        cs.append(Case(_printed("repr"), (x,), label=lab, group="print"))
        cs.append(Case(_printed("str"), (x,), label=lab, group="print"))
    for olab, opts in OPTIONS.items():
        for lab in ("f32", "f32_neg", "big", "i64", "special", "large_values", "3d", "long_row", "c64", "f32_0d"):
            cs.append(Case(_printed("repr", opts), (INPUTS[lab],), label=f"{olab}_{lab}", group="print"))
    return cs
