"""Differential fuzzing of the core tensor API against real Paddle 3.3.1.

A :class:`Case` names an API (``'sum'`` for ``paddle.sum``, ``'Tensor.sum'`` for the
method, or a callable ``fn(P, *args)`` for operators and other expressions) and its
arguments. Tensor arguments are :class:`X` placeholders holding a numpy array; each
framework builds its own tensor from it (optionally non-contiguous or requiring
grad). :func:`run_case` calls both frameworks and :func:`compare` lists every
difference: raising or not (and the exception type), result structure (Tensor /
list / tuple / Python scalar), dtype, shape, values (nan-aware) and the outputs'
``stop_gradient``.
"""
from __future__ import annotations

import dataclasses
import functools
import re
import warnings
import zlib
from typing import Any, Callable

import numpy as np

import pagaie

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        import paddle as _paddle  # noqa: F401
    except ImportError:  # pragma: no cover - the audit needs real Paddle
        _paddle = None

PADDLE = _paddle

# ---- inputs -------------------------------------------------------------------------


class X:
    """A tensor argument: ``arr`` (numpy), built per framework.

    sg: the tensor's stop_gradient. nc: build it non-contiguous (a transposed view
    holding the same values). dtype: a Paddle dtype name to cast to after creation
    (for float16 / bfloat16 / complex, which numpy cannot always hold).
    """

    __slots__ = ("arr", "sg", "nc", "dtype")

    def __init__(self, arr: Any, sg: bool = True, nc: bool = False, dtype: str | None = None) -> None:
        self.arr = np.asarray(arr)
        self.sg = sg
        self.nc = nc and self.arr.ndim >= 2
        self.dtype = dtype

    def build(self, P: Any) -> Any:
        a = self.arr
        if self.nc:
            t = P.to_tensor(np.ascontiguousarray(np.swapaxes(a, -1, -2)))
            t = t.transpose(list(range(a.ndim - 2)) + [a.ndim - 1, a.ndim - 2])
        else:
            t = P.to_tensor(a)
        if self.dtype is not None:
            t = t.astype(self.dtype)
        if not self.sg:
            t.stop_gradient = False
        return t

    def __repr__(self) -> str:
        d = self.dtype or str(self.arr.dtype)
        extra = ("" if self.sg else ",grad") + (",nc" if self.nc else "")
        return f"X({d}{list(self.arr.shape)}{extra})"


class Dt:
    """A dtype argument given as the framework's dtype object (``paddle.float32``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def build(self, P: Any) -> Any:
        return getattr(P, self.name)

    def __repr__(self) -> str:
        return f"paddle.{self.name}"


def build(v: Any, P: Any) -> Any:
    """Turn placeholders inside ``v`` (lists, tuples, dicts) into framework objects."""
    if isinstance(v, (X, Dt)):
        return v.build(P)
    if isinstance(v, list):
        return [build(e, P) for e in v]
    if isinstance(v, tuple):
        return tuple(build(e, P) for e in v)
    if isinstance(v, dict):
        return {k: build(e, P) for k, e in v.items()}
    if isinstance(v, slice):
        return slice(build(v.start, P), build(v.stop, P), build(v.step, P))
    return v


def arr(shape: Any, dtype: str = "float32", kind: str = "float", seed: int | None = None) -> np.ndarray:
    """Deterministic sample data of a numpy dtype (float16/bf16 are made as float32)."""
    if seed is None:  # a stable seed from the arguments (str hashes vary between processes)
        seed = zlib.crc32(repr((tuple(np.atleast_1d(shape).tolist()), dtype, kind)).encode())
    rng = np.random.default_rng(seed)
    shape = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,) if shape != () else ()
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if np.dtype(dtype).kind in "iu":
        lo, hi = (0, 5) if kind in ("pos", "index") else (-5, 6)
        if kind == "nz":
            a = rng.integers(1, 6, shape) * rng.choice([-1, 1], shape)
            return a.astype(dtype)
        return rng.integers(lo, hi, shape).astype(dtype)
    if kind == "pos":
        a = rng.uniform(0.5, 2.0, shape)
    elif kind == "unit":
        a = rng.uniform(-0.9, 0.9, shape)
    elif kind == "int":
        a = rng.integers(-4, 5, shape).astype(float)
    elif kind == "nz":
        a = rng.uniform(0.5, 2.0, shape) * rng.choice([-1, 1], shape)
    elif kind == "special":  # nan, inf, -inf first, then normal values
        a = rng.standard_normal(shape)
        flat = a.reshape(-1)
        flat[:3] = [np.nan, np.inf, -np.inf][:flat.size]
    else:
        a = rng.standard_normal(shape)
    if dtype == "complex64" or dtype == "complex128":
        a = a + 1j * rng.standard_normal(shape)
    return np.asarray(a).astype(dtype)


# ---- cases --------------------------------------------------------------------------


@dataclasses.dataclass
class Case:
    """One call to compare. ``api`` is ``'name'``, ``'Tensor.name'`` or a callable ``fn(P, *args)``."""

    api: Any
    args: tuple = ()
    kwargs: dict = dataclasses.field(default_factory=dict)
    label: str = ""
    rtol: float = 1e-5
    atol: float = 1e-6
    values: bool = True      # False for random / uninitialised outputs
    post: Callable | None = None  # applied to each framework's output before comparing
    group: str = ""

    @property
    def name(self) -> str:
        return self.api if isinstance(self.api, str) else getattr(self.api, "__name__", "expr")

    @property
    def id(self) -> str:
        return f"{self.name}[{self.label}]" if self.label else self.name


def call(case: Case, P: Any) -> Any:
    args = build(case.args, P)
    kwargs = build(case.kwargs, P)
    api = case.api
    if callable(api):
        return api(P, *args, **kwargs)
    if api.startswith("Tensor."):
        attr = getattr(args[0], api[len("Tensor."):])
        return attr(*args[1:], **kwargs) if callable(attr) else attr  # a method or a property
    obj = P
    for part in api.split("."):
        obj = getattr(obj, part)
    return obj(*args, **kwargs)


def outcome(case: Case, P: Any) -> tuple[str, Any]:
    """('ok', result) or ('raise', exception)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = call(case, P)
            if case.post is not None:
                r = case.post(r)
            return "ok", r
        except Exception as exc:  # noqa: BLE001
            return "raise", exc


# ---- comparison ---------------------------------------------------------------------

_LOW = {"float16": (2e-3, 2e-3), "bfloat16": (2e-2, 2e-2)}


def _is_tensor(v: Any) -> bool:
    return isinstance(v, pagaie.Tensor) or (PADDLE is not None and isinstance(v, PADDLE.Tensor))


def _dtype_name(v: Any) -> str:
    return str(v.dtype).replace("paddle.", "")


def _np(v: Any) -> np.ndarray:
    d = _dtype_name(v)
    if d in ("bfloat16", "float16"):
        v = v.astype("float32")
    return np.asarray(v.numpy())


def _kind(v: Any) -> str:
    if _is_tensor(v):
        return "Tensor"
    if type(v).__name__ == "VarType":  # Paddle's pybind enum, pagaie's IntEnum
        return "VarType"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, np.integer)) and not isinstance(v, np.bool_):
        return "int"
    if isinstance(v, (float, np.floating)):
        return "float"
    if isinstance(v, complex):
        return "complex"
    if v is None:
        return "None"
    if isinstance(v, np.ndarray):
        return "ndarray"
    if isinstance(v, tuple):
        return "tuple"
    if isinstance(v, list):
        return "list"
    if isinstance(v, str):
        return "str"
    return "other:" + type(v).__name__


def compare(case: Case, ours: tuple[str, Any], theirs: tuple[str, Any]) -> list[str]:
    """Differences between our outcome and Paddle's, as readable lines (empty: same)."""
    (ok, a), (tk, b) = ours, theirs
    if tk == "raise" and ok == "raise":
        # Paddle's C++ errors have Python types; ours must be an instance of the same type.
        if not isinstance(a, type(b)):
            return [f"exception type: ours {type(a).__name__}({str(a)[:120]}) vs Paddle "
                    f"{type(b).__name__}({str(b).splitlines()[0][:120] if str(b) else ''})"]
        return []
    if tk == "raise":
        why = lenient_reason(b)
        if why is not None:
            return []  # a deliberate, more permissive pagaie (see skips.LENIENT)
        msg = str(b).strip().splitlines()
        return [f"Paddle raised {type(b).__name__}({(msg[0] if msg else '')[:160]}), ours returned "
                f"{_short(a)}"]
    if ok == "raise":
        return [f"ours raised {type(a).__name__}({str(a)[:200]}), Paddle returned {_short(b)}"]
    out: list[str] = []
    _cmp(case, a, b, "out", out)
    return out


def _short(v: Any) -> str:
    if _is_tensor(v):
        return f"Tensor({_dtype_name(v)}, {list(v.shape)})"
    if isinstance(v, (list, tuple)):
        return type(v).__name__ + "[" + ", ".join(_short(e) for e in v[:4]) + ("..." if len(v) > 4 else "") + "]"
    return repr(v)[:60]


def _cmp(case: Case, a: Any, b: Any, where: str, out: list[str]) -> None:
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        out.append(f"{where}: type {ka} vs Paddle {kb} ({_short(a)} vs {_short(b)})")
        return
    if ka in ("list", "tuple"):
        if len(a) != len(b):
            out.append(f"{where}: length {len(a)} vs Paddle {len(b)}")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            _cmp(case, x, y, f"{where}[{i}]", out)
        return
    if ka == "Tensor":
        da, db = _dtype_name(a), _dtype_name(b)
        if da != db:
            out.append(f"{where}: dtype {da} vs Paddle {db}")
        if list(a.shape) != list(b.shape):
            out.append(f"{where}: shape {list(a.shape)} vs Paddle {list(b.shape)}")
            return
        if bool(a.stop_gradient) != bool(b.stop_gradient):
            out.append(f"{where}: stop_gradient {a.stop_gradient} vs Paddle {b.stop_gradient}")
        if case.values and da == db:
            _cmp_values(case, _np(a), _np(b), db, where, out)
        return
    if ka == "ndarray":
        if a.dtype != b.dtype or a.shape != b.shape:
            out.append(f"{where}: ndarray {a.dtype}{a.shape} vs Paddle {b.dtype}{b.shape}")
        elif case.values:
            _cmp_values(case, a, b, str(b.dtype), where, out)
        return
    if ka in ("float", "complex") and case.values:
        if not (a == b or (a != a and b != b) or abs(a - b) <= case.atol + case.rtol * abs(b)):
            out.append(f"{where}: {a!r} vs Paddle {b!r}")
        return
    if ka == "VarType" and str(a) != str(b):
        out.append(f"{where}: {a} vs Paddle {b}")
    if case.values and ka != "other:" and a != b and ka in ("int", "bool", "str", "None"):
        out.append(f"{where}: {a!r} vs Paddle {b!r}")


def _cmp_values(case: Case, a: np.ndarray, b: np.ndarray, dt: str, where: str, out: list[str]) -> None:
    rtol, atol = _LOW.get(dt, (case.rtol, case.atol))
    rtol, atol = max(rtol, case.rtol), max(atol, case.atol)
    try:
        if b.dtype.kind in "fc":
            np.testing.assert_allclose(a.astype(b.dtype), b, rtol=rtol, atol=atol, equal_nan=True)
        else:
            np.testing.assert_array_equal(a, b)
    except AssertionError as exc:
        lines = [ln for ln in str(exc).splitlines() if ln.strip()]
        out.append(f"{where}: values differ: " + " | ".join(lines[1:5])[:300])


# ---- skips --------------------------------------------------------------------------


def lenient_reason(exc: BaseException) -> str | None:
    """Why pagaie may succeed where Paddle raised ``exc`` (None: it may not)."""
    from tests.audit.skips import LENIENT

    text = str(exc)
    for pat, why in LENIENT.items():
        if re.search(pat, text):
            return why
    return None


def skip_reason(case_id: str, skips: dict[str, str]) -> str | None:
    """The reason of the first skip pattern (``*`` wildcards) matching ``case_id``."""
    for pat, why in skips.items():
        if _glob(pat).fullmatch(case_id):
            return why
    return None


@functools.lru_cache(None)
def _glob(pat: str) -> re.Pattern:
    """``*`` matches anything; every other character (brackets included) is literal."""
    return re.compile(".*".join(re.escape(p) for p in pat.split("*")))


def diff(case: Case) -> list[str]:
    """Run ``case`` in both frameworks; the list of differences."""
    theirs = outcome(case, PADDLE)
    ours = outcome(case, pagaie)
    return compare(case, ours, theirs)
