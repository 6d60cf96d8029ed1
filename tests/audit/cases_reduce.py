"""Fuzz cases: reductions, statistics and cumulative ops (axis forms, keepdim, dtypes, 0-D, empty)."""
from __future__ import annotations

import numpy as np

from tests.audit.fuzz import Case, Dt, X, arr

# op -> (extra kwargs for the default call, keepdim supported, float-only data kind)
REDUCE = {
    "sum": {}, "mean": {}, "prod": {}, "max": {}, "min": {}, "amax": {}, "amin": {}, "all": {},
    "any": {}, "logsumexp": {}, "nansum": {}, "nanmean": {}, "std": {}, "var": {}, "median": {},
    "nanmedian": {}, "count_nonzero": {}, "argmax": {}, "argmin": {}, "mode": {},
    "quantile": {"q": 0.5}, "nanquantile": {"q": 0.5},
}
NO_KEEPDIM_NONE = {"mode"}  # ops whose axis defaults to -1 (not all axes)
CUM = {"cumsum": "axis", "cumprod": "dim", "logcumsumexp": "axis", "cummax": "axis", "cummin": "axis"}


def _x(shape, dt="float32", kind="float", **kw):
    return X(arr(shape, dt, kind), **kw)


def reduce_cases(name: str, extra: dict) -> list[Case]:
    S = [3, 4, 5]
    cs = [Case(name, (_x(S),), dict(extra), label="default")]
    for dt in ("float64", "int32", "int64", "bool"):
        cs.append(Case(name, (_x(S, dt),), dict(extra), label=dt))
    cs += [
        Case(name, (_x(S, dtype="float16"),), dict(extra), label="float16", rtol=1e-2, atol=1e-2),
        Case(name, (_x(S),), dict(extra, axis=1), label="axis1"),
        Case(name, (_x(S),), dict(extra, axis=-1), label="axis-1"),
        Case(name, (_x(S, "int64"),), dict(extra, axis=-1), label="axis-1_int64"),
        Case(name, (_x(S),), dict(extra, axis=[0, 2]), label="axis_list"),
        Case(name, (_x(S),), dict(extra, axis=(0, -1)), label="axis_tuple"),
        Case(name, (_x(S),), dict(extra, axis=[]), label="axis_empty_list"),
        Case(name, (_x(S),), dict(extra, axis=[1, 1]), label="axis_dup"),
        Case(name, (_x(S),), dict(extra, axis=X(np.int64(1))), label="axis_tensor0d"),
        Case(name, (_x(S),), dict(extra, axis=X(np.array([0, 2]))), label="axis_tensor1d"),
        Case(name, (_x(S),), dict(extra, axis=3), label="axis_oob"),
        Case(name, (_x(S),), dict(extra, axis=1, keepdim=True), label="keepdim"),
        Case(name, (_x(S),), dict(extra, axis=[0, 2], keepdim=True), label="keepdim_list"),
        Case(name, (_x(S),), dict(extra, keepdim=True), label="keepdim_all"),
        Case(name, (_x(()),), dict(extra), label="0d"),
        Case(name, (_x((), "int64"),), dict(extra), label="0d_int64"),
        Case(name, (_x(()),), dict(extra, axis=0), label="0d_axis0"),
        Case(name, (_x(()),), dict(extra, axis=-1, keepdim=True), label="0d_axis-1_keepdim"),
        Case(name, (_x([2, 0]),), dict(extra), label="empty"),
        Case(name, (_x([2, 0]),), dict(extra, axis=1), label="empty_axis1"),
        Case(name, (_x([2, 0]),), dict(extra, axis=0), label="empty_axis0"),
        Case(name, (_x([0]),), dict(extra), label="empty_1d"),
        Case(name, (_x([3, 4], nc=True),), dict(extra, axis=0), label="nc"),
        Case(name, (_x([3, 4], sg=False),), dict(extra, axis=1), label="grad"),
        Case(name, (_x([3, 4], sg=False),), dict(extra), label="grad_all"),
        Case("Tensor." + name, (_x(S),), dict(extra, axis=1), label="method"),
    ]
    for c in cs:
        c.group = "reduce"
    return cs


def extra_cases() -> list[Case]:
    S = [3, 4]
    f = _x(S)
    i = _x(S, "int32")
    b = _x(S, "bool")
    cs = [
        Case("sum", (i,), {"dtype": "int64"}, label="dtype_int64"),
        Case("sum", (f,), {"dtype": "float64"}, label="dtype_float64"),
        Case("sum", (b,), {"dtype": "int32"}, label="bool_dtype_int32"),
        Case("sum", (f,), {"dtype": Dt("float64"), "axis": 0}, label="dtype_obj"),
        Case("sum", (i,), {"dtype": "float32"}, label="int_to_float"),
        Case("prod", (i,), {"dtype": "int64"}, label="dtype_int64"),
        Case("prod", (f,), {"dtype": "float64", "axis": 1}, label="dtype_float64"),
        Case("mean", (i,), {}, label="int"),
        Case("argmax", (f,), {"axis": 1, "dtype": "int32"}, label="dtype_int32"),
        Case("argmax", (f,), {"axis": 1, "dtype": "float32"}, label="dtype_bad"),
        Case("argmin", (f,), {"axis": 0, "keepdim": True, "dtype": Dt("int32")}, label="dtype_obj"),
        Case("argmax", (f,), {"axis": None, "keepdim": True}, label="keepdim_none"),
        Case("std", (f,), {"unbiased": False}, label="biased"),
        Case("var", (f,), {"axis": 1, "unbiased": False, "keepdim": True}, label="biased"),
        Case("std", (_x([1, 4]),), {"axis": 0}, label="one_sample"),
        Case("var", (_x([1]),), {}, label="one_sample"),
        Case("median", (_x([3, 4]),), {"axis": 1, "mode": "min"}, label="mode_min"),
        Case("median", (_x([4]),), {"mode": "min"}, label="mode_min_all"),
        Case("median", (_x([3, 4], "int64"),), {"axis": 0}, label="int_even"),
        Case("nanmedian", (_x([3, 4]),), {"axis": 1, "mode": "min"}, label="mode_min"),
        Case("quantile", (f,), {"q": [0.25, 0.75], "axis": 1}, label="q_list"),
        Case("quantile", (f,), {"q": 0.3, "axis": [0, 1], "keepdim": True}, label="q_axes"),
        Case("quantile", (f,), {"q": 0.3, "interpolation": "lower"}, label="lower"),
        Case("quantile", (f,), {"q": 0.3, "interpolation": "higher"}, label="higher"),
        Case("quantile", (f,), {"q": 0.3, "interpolation": "midpoint"}, label="midpoint"),
        Case("quantile", (f,), {"q": 0.3, "interpolation": "nearest"}, label="nearest"),
        Case("quantile", (f,), {"q": X(np.float32(0.3))}, label="q_tensor"),
        Case("quantile", (f,), {"q": 1.5}, label="q_oob"),
        Case("logsumexp", (_x([3, 4], "float64"),), {"axis": [0, 1]}, label="all_axes"),
        Case("count_nonzero", (_x([3, 4], kind="int"),), {"axis": 1, "keepdim": True}, label="keepdim_int"),
        Case("kthvalue", (f,), {"k": 2}, label="default"),
        Case("kthvalue", (f,), {"k": 2, "axis": 0, "keepdim": True}, label="axis0_keepdim"),
        Case("kthvalue", (_x([5], "int64"),), {"k": 1}, label="int64"),
        Case("kthvalue", (_x(()),), {"k": 1}, label="0d"),
        Case("kthvalue", (f,), {"k": 5}, label="k_oob"),
        Case("mode", (_x([3, 4], kind="int"),), {"axis": 0}, label="ties"),
        Case("max", (_x([3, 4], kind="special"),), {"axis": 1}, label="nan"),
        Case("amax", (_x([3, 4], kind="int"),), {"axis": 1}, label="ties"),
        Case("all", (_x([3, 4]),), {"axis": 0}, label="float"),
        Case("any", (_x([3, 4], "int64"),), {"axis": 0}, label="int"),
        Case("nansum", (_x([3, 4], kind="special"),), {}, label="nan"),
        Case("nanmean", (_x([3, 4], kind="special"),), {"axis": 1}, label="nan"),
        Case("reduce_as", (f, _x([1, 4])), {}, label="default"),
        Case("reduce_as", (f, _x([4])), {}, label="drop_dim"),
        Case("reduce_as", (i, _x([3, 1], "int32")), {}, label="int"),
    ]
    for c in cs:
        c.group = "reduce"
    return cs


def cum_cases(name: str, ax: str) -> list[Case]:
    S = [3, 4]
    cs = [Case(name, (_x(S),), {}, label="default")]
    for dt in ("float64", "int32", "int64", "bool"):
        cs.append(Case(name, (_x(S, dt),), {ax: 1}, label=dt))
    cs += [
        Case(name, (_x(S, dtype="float16"),), {ax: 0}, label="float16", rtol=1e-2, atol=1e-2),
        Case(name, (_x(S),), {ax: -1}, label="axis-1"),
        Case(name, (_x(S),), {ax: X(np.int64(0))}, label="axis_tensor"),
        Case(name, (_x(S),), {ax: 2}, label="axis_oob"),
        Case(name, (_x(()),), {}, label="0d"),
        Case(name, (_x(()),), {ax: 0}, label="0d_axis0"),
        Case(name, (_x([2, 0]),), {ax: 1}, label="empty"),
        Case(name, (_x([2, 0]),), {}, label="empty_flat"),
        Case(name, (_x([3, 4], nc=True),), {ax: 0}, label="nc"),
        Case(name, (_x([3, 4], sg=False),), {ax: 1}, label="grad"),
        Case(name, (_x([3, 4], "int32"),), {ax: 1, "dtype": "int64"}, label="dtype_int64"),
        Case(name, (_x([3, 4]),), {ax: 1, "dtype": "float64"}, label="dtype_float64"),
        Case("Tensor." + name, (_x(S),), {ax: 0}, label="method"),
    ]
    for c in cs:
        c.group = "cum"
    return cs


def all_cases() -> list[Case]:
    out = []
    for n, e in REDUCE.items():
        out += reduce_cases(n, e)
    out += extra_cases()
    for n, ax in CUM.items():
        out += cum_cases(n, ax)
    return out
