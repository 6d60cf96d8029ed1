"""Fuzz cases: unary and binary elementwise math, comparisons, logic and bitwise ops."""
from __future__ import annotations

from tests.audit.fuzz import Case, X, arr

FLOAT_INT_BOOL = ("float32", "float64", "int32", "int64", "bool")

# unary op -> kind of input data that keeps it in its domain
UNARY = {
    "abs": "float", "acos": "unit", "acosh": "pos2", "asin": "unit", "asinh": "float", "atan": "float",
    "atanh": "unit", "ceil": "float", "cos": "float", "cosh": "float", "deg2rad": "float",
    "digamma": "pos", "erf": "float", "erfinv": "unit", "exp": "float", "expm1": "float",
    "floor": "float", "frac": "float", "i0": "float", "i0e": "float", "i1": "float", "i1e": "float",
    "lgamma": "pos", "gammaln": "pos", "log": "pos", "log10": "pos", "log1p": "pos", "log2": "pos",
    "neg": "float", "negative": "float", "positive": "float", "rad2deg": "float",
    "reciprocal": "nz", "round": "float", "rsqrt": "pos", "sgn": "float", "sign": "float",
    "signbit": "float", "sin": "float", "sinc": "float", "sinh": "float", "sqrt": "pos",
    "square": "float", "tan": "unit", "tanh": "float", "trunc": "float", "isfinite": "float",
    "isinf": "float", "isnan": "float", "isneginf": "float", "isposinf": "float", "isreal": "float",
    "logit": "prob", "stanh": "float", "nan_to_num": "special", "angle": "float", "conj": "float",
    "real": "float", "imag": "float", "sigmoid": "float", "logical_not": "float",
    "bitwise_not": "int", "bitwise_invert": "int", "exponential_": None,
}

BINARY = {
    "add": "float", "subtract": "float", "sub": "float", "multiply": "float", "mul": "float",
    "divide": "nz", "div": "nz", "true_divide": "nz", "floor_divide": "nz", "floor_mod": "nz",
    "mod": "nz", "remainder": "nz", "pow": "pos", "maximum": "float", "minimum": "float",
    "fmax": "float", "fmin": "float", "atan2": "float", "hypot": "float", "copysign": "float",
    "heaviside": "float", "nextafter": "float", "logaddexp": "float", "gcd": "int", "lcm": "int",
    "ldexp": "int", "bitwise_and": "int", "bitwise_or": "int", "bitwise_xor": "int",
    "bitwise_left_shift": "shift", "bitwise_right_shift": "shift", "logical_and": "float",
    "logical_or": "float", "logical_xor": "float", "equal": "int", "not_equal": "int",
    "greater_equal": "int", "greater_than": "int", "less_equal": "int", "less_than": "int",
    "eq": "int", "ne": "int", "ge": "int", "gt": "int", "le": "int", "lt": "int",
    "greater": "int", "less": "int", "equal_all": "int", "allclose": "float", "isclose": "float",
}


def _data(shape, dt, kind, seed=None):
    if kind == "pos2":
        return arr(shape, dt, "pos", seed) + (1 if dt not in ("bool",) else 0)
    if kind == "prob":
        if dt in ("float32", "float64"):
            return arr(shape, dt, "pos", seed) / 2.5
        return arr(shape, dt, "pos", seed)
    if kind == "special":
        a = arr(shape, dt, "float", seed)
        if a.dtype.kind == "f" and a.size >= 4:
            a = a.copy()
            a.flat[0], a.flat[1], a.flat[2] = float("nan"), float("inf"), float("-inf")
        return a
    if kind == "shift":
        return arr(shape, dt, "pos", seed)
    if kind == "int":
        return arr(shape, dt, "float" if dt.startswith("float") else "float", seed) if dt == "bool" \
            else arr(shape, dt, "int" if dt.startswith("float") else "float", seed)
    return arr(shape, dt, kind, seed)


def unary_cases(name: str, kind: str) -> list[Case]:
    cs = []
    S = [3, 4]
    for dt in FLOAT_INT_BOOL:
        cs.append(Case(name, (X(_data(S, dt, kind)),), label=dt))
    cs.append(Case(name, (X(_data(S, "float32", kind), dtype="float16"),), label="float16", rtol=5e-3, atol=5e-3))
    cs.append(Case(name, (X(_data(S, "float32", kind), dtype="bfloat16"),), label="bfloat16", rtol=3e-2, atol=3e-2))
    cs.append(Case(name, (X(_data(S, "complex64", kind)),), label="complex64", rtol=1e-4, atol=1e-5))
    cs.append(Case(name, (X(_data((), "float32", kind)),), label="0d"))
    cs.append(Case(name, (X(_data((), "int64", kind)),), label="0d_int64"))
    cs.append(Case(name, (X(_data([2, 0], "float32", kind)),), label="empty"))
    cs.append(Case(name, (X(_data([0], "int32", kind)),), label="empty_int32"))
    cs.append(Case(name, (X(_data([3, 4, 2], "float64", kind), nc=True),), label="nc"))
    cs.append(Case(name, (X(_data(S, "float32", kind), sg=False),), label="grad"))
    cs.append(Case("Tensor." + name, (X(_data(S, "float32", kind)),), label="method"))
    cs.append(Case(name, (X(_data(S, "float32", "special")),), label="special", rtol=1e-5))
    for c in cs:
        c.group = "unary"
    return cs


def binary_cases(name: str, kind: str) -> list[Case]:
    def d(shape, dt, seed=None):
        return X(_data(shape, dt, kind, seed))

    cs = []
    S = [3, 4]
    for dt in FLOAT_INT_BOOL:
        cs.append(Case(name, (d(S, dt, 1), d(S, dt, 2)), label=dt))
    cs += [
        Case(name, (X(_data(S, "float32", kind, 1), dtype="float16"), X(_data(S, "float32", kind, 2), dtype="float16")),
             label="float16", rtol=5e-3, atol=5e-3),
        Case(name, (d([3, 1], "float32", 1), d([4], "float32", 2)), label="broadcast"),
        Case(name, (d([3, 4], "float32", 1), d([2, 4], "float32", 2)), label="bad_broadcast"),
        Case(name, (d(S, "float32", 1), 2), label="scalar_int"),
        Case(name, (d(S, "float32", 1), 2.5), label="scalar_float"),
        Case(name, (d(S, "int64", 1), 2), label="int64_scalar_int"),
        Case(name, (d(S, "int32", 1), 2.5), label="int32_scalar_float"),
        Case(name, (d(S, "bool", 1), True), label="bool_scalar_bool"),
        Case(name, (d(S, "float32", 1), d(S, "float64", 2)), label="f32_f64"),
        Case(name, (d(S, "int32", 1), d(S, "int64", 2)), label="i32_i64"),
        Case(name, (d(S, "int64", 1), d(S, "float32", 2)), label="i64_f32"),
        Case(name, (d(S, "bool", 1), d(S, "int32", 2)), label="bool_i32"),
        Case(name, (d((), "float32", 1), d([3], "float32", 2)), label="0d_1d"),
        Case(name, (d((), "float64", 1), d((), "float64", 2)), label="0d_0d"),
        Case(name, (d((), "float64", 1), d([3], "float32", 2)), label="0d_f64_1d_f32"),
        Case(name, (d([2, 0], "float32", 1), d([2, 0], "float32", 2)), label="empty"),
        Case(name, (d([0], "float32", 1), d([1], "float32", 2)), label="empty_bcast"),
        Case(name, (X(_data([3, 4], "float32", kind, 1), nc=True), d([3, 4], "float32", 2)), label="nc"),
        Case(name, (X(_data(S, "float32", kind, 1), sg=False), d(S, "float32", 2)), label="grad"),
        Case("Tensor." + name, (d(S, "float32", 1), d(S, "float32", 2)), label="method"),
    ]
    for c in cs:
        c.group = "binary"
    return cs


def all_cases() -> list[Case]:
    out = []
    for n, k in UNARY.items():
        if k is None:
            continue
        out += unary_cases(n, k)
    for n, k in BINARY.items():
        out += binary_cases(n, k)
    return out
