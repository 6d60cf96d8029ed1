"""Paddle's printed form of tensors, and ``paddle.set_printoptions``."""
from __future__ import annotations

from typing import Any

import numpy as np
import torch

__all__ = ["set_printoptions", "tensor_repr", "mesh_text"]

_OPTIONS = {"precision": 8, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": False}
_PREFIX = 7  # len("Tensor(")


def set_printoptions(precision: int | None = None, threshold: int | None = None,
                     edgeitems: int | None = None, sci_mode: bool | None = None,
                     linewidth: int | None = None) -> None:
    """Set how tensors print.

    Args:
        precision: digits after the decimal point (default 8).
        threshold: element count above which the middle is summarised (default 1000).
        edgeitems: items kept at each edge when summarising (default 3).
        sci_mode: print floats in scientific notation (default False).
        linewidth: characters per line (default 80).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.set_printoptions(precision=4); paddle.set_printoptions(precision=8)
    """
    given = {key: val for key, val in (("precision", precision), ("threshold", threshold),
                                       ("edgeitems", edgeitems), ("sci_mode", sci_mode),
                                       ("linewidth", linewidth)) if val is not None}
    for key, val in given.items():
        ok = (int, float, np.number, np.bool_) if key == "sci_mode" else (int, np.integer, np.bool_)
        if not isinstance(val, ok):
            want = "a bool" if key == "sci_mode" else "an int"
            raise _PrintOptionError(f"paddle.set_printoptions: '{key}' must be {want}, but got "
                                    f"{type(val).__name__} ({val!r})")
    for key, val in given.items():
        _OPTIONS[key] = bool(val) if key == "sci_mode" else int(val)


class _PrintOptionError(TypeError, RuntimeError):
    """A print option of the wrong type (Paddle raises RuntimeError from its C++ binding)."""


def _fmt(v: Any, kind: str) -> str:
    p = _OPTIONS["precision"]
    if kind == "f":
        if _OPTIONS["sci_mode"]:
            return f"{v:.{p}e}"
        if np.ceil(v) == v:
            return f"{v:.0f}."
        return f"{v:.{p}f}"
    if kind == "c":
        # Paddle writes '+' before an imaginary part that is >= 0, then the part as formatted:
        # a negative zero shows as '+-0.', a NaN with no sign
        im = v.imag
        sign = "+" if im >= 0 else ""
        c = "e" if _OPTIONS["sci_mode"] else "f"
        return f"({v.real:.{p}{c}}{sign}{im:.{p}{c}}j)"
    return str(v)


def _negative(v: Any, kind: str) -> bool:
    """Whether ``v`` counts as negative for sign padding. Complex values order as numpy orders
    them, lexicographically (real part, then imaginary part): ``-0j`` is not negative but ``-1j``
    is, as in Paddle."""
    if kind == "c":
        return v.real < 0 or (v.real == 0 and v.imag < 0)
    return kind in ("i", "f") and v < 0


def _pad(s: str, width: int, signed: bool, negative: bool) -> str:
    if len(s) >= width:
        return s
    if signed and not negative:
        return " " + s.ljust(width - 1)
    return s.ljust(width)


def _collect(a: np.ndarray, summarise: bool, edge: int) -> list:
    """The elements that will be printed (edges only when summarising)."""
    if a.ndim == 0:
        return [a.item()]
    if summarise and a.shape[0] > 2 * edge:
        parts = [a[:edge], a[-edge:]]
    else:
        parts = [a]
    out: list = []
    for p in parts:
        if a.ndim == 1:
            out.extend(p.tolist())
        else:
            for row in p:
                out.extend(_collect(row, summarise, edge))
    return out


def _render(a: np.ndarray, fmt, depth: int, summarise: bool, edge: int, width: int,
            indent: int = _PREFIX) -> str:
    if a.ndim == 0:
        return fmt(a.item())
    n = a.shape[0]
    cut = summarise and n > 2 * edge
    idx = list(range(edge)) + [None] + list(range(n - edge, n)) if cut else list(range(n))
    if a.ndim == 1:
        items = ["..." if i is None else fmt(a[i].item()) for i in idx]
        per_line = max(1, (_OPTIONS["linewidth"] - indent - depth) // (width + 2))
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + depth + 1)).join(lines) + "]"
    sep = "," + "\n" * (a.ndim - 1) + " " * (indent + depth + 1)
    rows = ["..." if i is None else _render(a[i], fmt, depth + 1, summarise, edge, width, indent)
            for i in idx]
    return "[" + sep.join(rows) + "]"


def format_array(a: np.ndarray, indent: int = _PREFIX) -> str:
    """The body of a tensor's repr (what follows ``stop_gradient=...,``), its continuation
    lines indented by ``indent`` columns."""
    edge = _OPTIONS["edgeitems"]
    summarise = a.size > _OPTIONS["threshold"]
    if a.dtype == np.bool_:
        kind = "b"
    elif np.issubdtype(a.dtype, np.complexfloating):
        kind = "c"
    elif np.issubdtype(a.dtype, np.floating):
        kind = "f"
    else:
        kind = "i"
    # Column width and sign padding come from the edge items only, even when nothing is
    # summarised (as Paddle does).
    values = _collect(a, True, edge)
    strings = [_fmt(v, kind) for v in values]
    width = max((len(s) for s in strings), default=0)
    signed = kind != "b" and any(_negative(v, kind) for v in values)

    def fmt(v: Any) -> str:
        return _pad(_fmt(v, kind), width, signed, _negative(v, kind))

    return _render(a, fmt, 0, summarise, edge, width, indent)


def tensor_repr(t: Any) -> str:
    """Paddle's repr: ``Tensor(shape=[...], dtype=..., place=..., stop_gradient=...,\\n       data)``."""
    from pagaie._core.tensor import Tensor  # noqa: F401  (type only)
    if t._t.layout is not torch.strided:
        return _sparse_repr(t)
    head = (f"Tensor(shape={list(t._t.shape)}, dtype={t.dtype.name}, place={t.place}, "
            f"stop_gradient={t.stop_gradient},{_dist_fields(t)}\n")
    x = t._t.detach()
    if x.dtype in (torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2):
        body = format_array(x.cpu().float().numpy())  # printed as float32, as Paddle does
    else:
        body = format_array(t.numpy())
    text = head + " " * _PREFIX + body + ")"
    if type(t).__name__ in ("Parameter", "EagerParamBase"):
        text = "Parameter containing:\n" + text
    return text


def mesh_text(mesh: Any) -> str:
    """A process mesh as Paddle's C++ mesh prints it (a distributed tensor's ``process_mesh``):
    ``{shape: [2,2], process_ids: [0,1,2,3], dim_names: [x,y]}``.

    Examples:
        >>> import pagaie.distributed as dist
        >>> from pagaie._core.printing import mesh_text
        >>> mesh_text(dist.ProcessMesh([[0, 1]], dim_names=["x", "y"]))
        '{shape: [1,2], process_ids: [0,1], dim_names: [x,y]}'
    """
    def join(xs: Any) -> str:
        return ",".join(str(x) for x in xs)
    return (f"{{shape: [{join(mesh.shape)}], process_ids: [{join(mesh.process_ids)}], "
            f"dim_names: [{join(mesh.dim_names)}]}}")


def _dist_fields(t: Any) -> str:
    """What a distributed tensor's repr adds to the header (its mesh and placements), as in
    Paddle; nothing for a dense tensor."""
    d = t.__dict__
    mesh = d.get("process_mesh")
    if mesh is None or d.get("placements") is None:
        return ""
    placements = "[" + ", ".join(repr(p) for p in d["placements"]) + "]"
    return f" process_mesh={mesh_text(mesh)}, placements={placements}, GlobalDenseTensor="


def _sparse_repr(t: Any) -> str:
    """Paddle's repr of a sparse tensor: its parts (indices/values or crows/cols/values)."""
    from pagaie._ops._sparse_core import csr_parts, is_flat_sum
    x = t._t.detach()
    if x.layout is torch.sparse_coo and is_flat_sum(t._t):   # a sum over every axis: 0-D values
        parts = [("indices", x._indices().reshape(-1)), ("values", x._values().reshape(()))]
    elif x.layout is torch.sparse_coo:
        parts = [("indices", x._indices()), ("values", x._values())]
    else:
        parts = list(zip(("crows", "cols", "values"), csr_parts(x)))
    body = []
    for label, p in parts:
        p = p.cpu()
        if p.dtype is torch.bfloat16:
            p = p.float()
        a = p.resolve_conj().numpy() if p.is_complex() else p.numpy()
        body.append(f"{label}=" + format_array(a, _PREFIX + len(label) + 1))
    head = (f"Tensor(shape={list(x.shape)}, dtype={t.dtype}, place={t.place}, "
            f"stop_gradient={t.stop_gradient}, \n")
    return head + (", \n").join(" " * _PREFIX + b for b in body) + ")"
