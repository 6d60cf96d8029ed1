"""ONNX lowerings of writes and reads by index: ``x[...] = v`` (setitem), index_add,
index_fill, index_sample, take, masked_select and nonzero."""

from __future__ import annotations

import numpy as np
import torch

from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _axis, _cast_to, _dim, _finish, _ndim, _need, _shape_of, _sq, register)
from pagaie.onnx.lowerings.shapes import _getitem


def _int64(ctx: LoweringContext, v: Value) -> str:
    return _cast_to(ctx, ctx.name(v), v._t.dtype, torch.int64)


def _values_like(ctx: LoweringContext, value: object, x: Value) -> str:
    """``value`` (a Value, a number or an array) as x's dtype."""
    if isinstance(value, Value):
        return _cast_to(ctx, ctx.name(value), value._t.dtype, x._t.dtype)
    return ctx.like(np.asarray(value), x) if np.ndim(value) == 0 else \
        ctx.constant(np.asarray(value, dtype=torch.empty(0, dtype=x._t.dtype).numpy().dtype))


@register("setitem")
def _setitem(ctx, a, outs):
    # The flat positions of x's elements go through the same indexing as x would (getitem's
    # lowering), which leaves the positions the index selects; the values scatter there.
    _need(ctx, 11, "x[...] = value")
    x = a["x"]
    xn = ctx.name(x)
    shape = _shape_of(ctx, xn)
    count = ctx.one("ReduceProd", [shape], keepdims=0)
    flat_pos = ctx.one("Range", [ctx.constant(np.asarray(0, np.int64)), count, ctx.constant(np.asarray(1, np.int64))])
    pos = Value(x.block, name=ctx.fresh(f"{x.name}_positions"), shape=x._known_dims(), dtype=torch.int64)
    ctx.names[pos.name] = ctx.one("Reshape", [flat_pos, shape])
    picked = ctx.fresh("picked")
    _getitem(ctx, dict(a, x=pos), [picked])
    vals = ctx.one("Expand", [_values_like(ctx, a["value"], x), _shape_of(ctx, picked)])
    flat_x = ctx.one("Reshape", [xn, ctx.ints([-1])])
    written = ctx.one("ScatterElements", [flat_x, ctx.one("Reshape", [picked, ctx.ints([-1])]),
                                          ctx.one("Reshape", [vals, ctx.ints([-1])])], axis=0)
    ctx.one("Reshape", [written, shape], outs[0])


def _along(ctx: LoweringContext, index: Value, axis: int, nd: int, like: str) -> str:
    """``index`` laid along ``axis`` and expanded to the shape of ``like``."""
    shaped = ctx.one("Reshape", [_int64(ctx, index), ctx.ints([1] * axis + [-1] + [1] * (nd - axis - 1))])
    return ctx.one("Expand", [shaped, _shape_of(ctx, like)])


@register("index_add")
def _index_add(ctx, a, outs):
    _need(ctx, 16, "index_add (ScatterElements with reduction='add')")
    x, value = a["x"], a["value"]
    nd = _ndim(x)
    axis = _axis(int(a["axis"]), nd)
    vn = _values_like(ctx, value, x)
    if a.get("alpha", 1) != 1:
        vn = ctx.one("Mul", [vn, ctx.like(a["alpha"], x)])
    ctx.one("ScatterElements", [ctx.name(x), _along(ctx, a["index"], axis, nd, vn), vn], outs[0],
            axis=axis, reduction="add")


@register("index_fill")
def _index_fill(ctx, a, outs):
    _need(ctx, 11, "index_fill")
    x = a["x"]
    nd = _ndim(x)
    axis = _axis(int(a["axis"]), nd)
    xn = ctx.name(x)
    rows = ctx.one("Gather", [xn, _int64(ctx, a["index"])], axis=axis)   # the filled rows' shape
    vals = ctx.one("Expand", [_values_like(ctx, a["value"], x), _shape_of(ctx, rows)])
    ctx.one("ScatterElements", [xn, _along(ctx, a["index"], axis, nd, rows), vals], outs[0], axis=axis)


@register("index_sample")
def _index_sample(ctx, a, outs):
    ctx.one("GatherElements", [ctx.name(a["x"]), _int64(ctx, a["index"])], outs[0], axis=1)


@register("take")
def _take(ctx, a, outs):
    x, mode = a["x"], a["mode"]
    flat = ctx.one("Reshape", [ctx.name(x), ctx.ints([-1])])
    idx = _int64(ctx, a["index"])
    n = _dim(ctx, flat, 0)
    if mode == "wrap":
        idx = ctx.one("Mod", [ctx.one("Add", [ctx.one("Mod", [idx, n]), n]), n])
    elif mode == "clip":
        idx = ctx.one("Min", [ctx.one("Max", [idx, ctx.constant(np.asarray(0, np.int64))]),
                              ctx.one("Sub", [n, ctx.ints([1])])])
    ctx.one("Gather", [flat, idx], outs[0], axis=0)   # 'raise': Gather reads negatives from the end


@register("masked_select")
def _masked_select(ctx, a, outs):
    _need(ctx, 9, "masked_select (Compress)")
    x, mask = a["x"], a["mask"]
    xn, mn = ctx.name(x), ctx.name(mask)
    # both broadcast to their common shape first, as Paddle's
    full = _shape_of(ctx, ctx.one("Expand", [mn, _shape_of(ctx, xn)]))
    flat_x = ctx.one("Reshape", [ctx.one("Expand", [xn, full]), ctx.ints([-1])])
    flat_m = ctx.one("Reshape", [ctx.one("Expand", [mn, full]), ctx.ints([-1])])
    ctx.one("Compress", [flat_x, flat_m], outs[0], axis=0)


@register("nonzero")
def _nonzero(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    if _ndim(x) == 0:
        xn = ctx.one("Reshape", [xn, ctx.ints([1])])
    where = ctx.one("NonZero", [xn])   # [ndim, count]
    if not a["as_tuple"]:
        _finish(ctx, ctx.one("Transpose", [where], perm=[1, 0]), torch.int64, outs[0])
        return
    for i, o in enumerate(outs):
        row = ctx.one("Gather", [where, ctx.ints([i])], axis=0)
        _finish(ctx, _sq(ctx, row, [0]), torch.int64, o, i)
