"""ONNX lowerings of order statistics: median, running maxima and minima (cummax, cummin)
and the sorted-sequence searches (searchsorted, bucketize)."""

from __future__ import annotations

import numpy as np
import torch

from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _cast_to, _dim, _DtypeRef, _finish, _ndim, _need, _out_dtype, _scalar, _sq, _unsq, register)
from pagaie.onnx.lowerings.reductions import _scan_input


def _running(largest: bool):
    """cummax / cummin: for each position i, the extreme of positions j <= i (and the last j
    holding it, as Paddle's index), over an [L, L] comparison (L must be known)."""
    def lower(ctx, a, outs):
        x = a["x"]
        xn, axis = _scan_input(ctx, x, a["axis"])
        n = x._known_dims()[axis] if a["axis"] is not None else \
            int(np.prod(x._known_dims())) if all(d >= 0 for d in x._known_dims()) else -1
        if n < 0:
            raise NotImplementedError("paddle.onnx.export: cummax/cummin need the scanned axis' size known")
        nd = max(_ndim(x), 1) if a["axis"] is not None else 1
        later = np.triu(np.ones((n, n), dtype=bool), 1)   # [i, j]: j after i, not counted
        mask = later.reshape([1] * axis + [n, n] + [1] * (nd - axis - 1))
        if x._t.is_floating_point():
            fill = -np.inf if largest else np.inf
        else:
            info = torch.iinfo(x._t.dtype)
            fill = info.min if largest else info.max
        cand = ctx.one("Where", [ctx.constant(mask), _scalar(ctx, fill, x), _unsq(ctx, xn, [axis])])
        red, arg = ("ReduceMax", "ArgMax") if largest else ("ReduceMin", "ArgMin")
        if ctx.opset >= 18:
            vals = ctx.one(red, [cand, ctx.ints([axis + 1])], keepdims=0)
        else:
            vals = ctx.one(red, [cand], axes=[axis + 1], keepdims=0)
        ctx.one("Identity", [vals], outs[0])
        _need(ctx, 12, "cummax/cummin indices (select_last_index)")
        idx = ctx.one(arg, [cand], axis=axis + 1, keepdims=0, select_last_index=1)
        _finish(ctx, idx, torch.int64, outs[1], 1)
    return lower


register("cummax")(_running(True))
register("cummin")(_running(False))


@register("median")
def _median(ctx, a, outs):
    _need(ctx, 11, "median (ascending TopK)")
    x = a["x"]
    xn, axis = _scan_input(ctx, x, a["axis"])
    keep = bool(a["keepdim"]) and a["axis"] is not None
    count = _dim(ctx, xn, axis)
    vals, idx = ctx.node("TopK", [xn, count], 2, axis=axis, largest=0, sorted=1)
    one = ctx.ints([1])
    lo = ctx.one("Div", [ctx.one("Sub", [count, one]), ctx.ints([2])])

    def pick(t: str, at: str) -> str:
        g = ctx.one("Gather", [t, at], axis=axis)   # at is [1]: the axis stays, size 1
        return g if keep else _sq(ctx, g, [axis])
    lower = pick(vals, lo)
    if a["mode"] == "min":
        _finish(ctx, lower, x._t.dtype, outs[0])
        if len(outs) > 1:
            _finish(ctx, pick(idx, lo), torch.int64, outs[1], 1)
        return
    upper = pick(vals, ctx.one("Div", [count, ctx.ints([2])]))
    work = _out_dtype(ctx)
    lo_v, hi_v = _cast_to(ctx, lower, x._t.dtype, work), _cast_to(ctx, upper, x._t.dtype, work)
    half = _scalar(ctx, 0.5, _DtypeRef(work))
    ctx.one("Mul", [ctx.one("Add", [lo_v, hi_v]), half], outs[0])


def _search(ctx: LoweringContext, seq: Value, values: Value, right: bool, out_int32: bool, out: str) -> None:
    """How many elements of each row of ``seq`` come before each value (<, or <= for ``right``)."""
    sn = ctx.name(seq)
    if _ndim(seq) > 1:
        sn = _unsq(ctx, sn, [_ndim(seq) - 1])
    vn = _unsq(ctx, ctx.name(values), [_ndim(values)])
    before = ctx.one("LessOrEqual" if right else "Less", [sn, vn])
    count = ctx.one("ReduceSum", [_cast_to(ctx, before, torch.bool, torch.int64), ctx.ints([-1])], keepdims=0) \
        if ctx.opset >= 13 else ctx.one("ReduceSum", [_cast_to(ctx, before, torch.bool, torch.int64)],
                                        axes=[-1], keepdims=0)
    _cast_to(ctx, count, torch.int64, torch.int32 if out_int32 else torch.int64, out)


@register("searchsorted")
def _searchsorted(ctx, a, outs):
    if a.get("sorter") is not None:
        raise NotImplementedError("paddle.onnx.export: searchsorted with a sorter is not supported")
    right = bool(a["right"]) or a.get("side") == "right"
    _search(ctx, a["sorted_sequence"], a["values"], right, bool(a["out_int32"]), outs[0])


@register("bucketize")
def _bucketize(ctx, a, outs):
    _search(ctx, a["sorted_sequence"], a["x"], bool(a["right"]), bool(a["out_int32"]), outs[0])
