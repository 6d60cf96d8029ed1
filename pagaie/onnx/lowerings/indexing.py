"""ONNX lowerings of writes and reads by index: ``x[...] = v`` (setitem), slice_scatter,
select_scatter, scatter_nd, index_add, index_fill, index_sample, take, masked_select, nonzero
and unique."""

from __future__ import annotations

from typing import Callable

import numpy as np
import torch

from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _axis, _cast_to, _dim, _finish, _int64, _ints_or, _ndim, _need, _np_dtype, _range_to, _shape_of, _slice, _sq,
    register)
from pagaie.onnx.lowerings.shapes import _getitem


def _values_like(ctx: LoweringContext, value: object, x: Value) -> str:
    """``value`` (a Value, a number or an array) as x's dtype."""
    if isinstance(value, Value):
        return _cast_to(ctx, ctx.name(value), value._t.dtype, x._t.dtype)
    return ctx.like(value, x)


def _write_where(ctx: LoweringContext, x: Value, pick: Callable[[Value], str], value: object,
                 out: str) -> None:
    """``x`` with ``value`` written where ``pick`` selects: ``pick`` is given a Value holding
    the flat positions of x's elements (x's shape) and returns the name of the positions it
    selects, as x's own selection would; the values (broadcast to that shape) scatter there."""
    _need(ctx, 11, "writing into a part of a tensor")
    xn = ctx.name(x)
    shape = _shape_of(ctx, xn)
    count = ctx.one("ReduceProd", [shape], keepdims=0)
    flat_pos = _range_to(ctx, count)
    pos = Value(x.block, name=ctx.fresh(f"{x.name}_positions"), shape=x._known_dims(), dtype=torch.int64)
    ctx.names[pos.name] = ctx.one("Reshape", [flat_pos, shape])
    picked = pick(pos)
    vals = ctx.one("Expand", [_values_like(ctx, value, x), _shape_of(ctx, picked)])
    flat_x = ctx.one("Reshape", [xn, ctx.ints([-1])])
    written = ctx.one("ScatterElements", [flat_x, ctx.one("Reshape", [picked, ctx.ints([-1])]),
                                          ctx.one("Reshape", [vals, ctx.ints([-1])])], axis=0)
    ctx.one("Reshape", [written, shape], out)


@register("setitem")
def _setitem(ctx, a, outs):
    def pick(pos: Value) -> str:   # the index applied to the positions, by getitem's lowering
        picked = ctx.fresh("picked")
        _getitem(ctx, dict(a, x=pos), [picked])
        return picked
    _write_where(ctx, a["x"], pick, a["value"], outs[0])


@register("slice_scatter")
def _slice_scatter(ctx, a, outs):
    x = a["x"]
    nd = _ndim(x)
    axes = [_axis(int(i), nd) for i in a["axes"]]
    _write_where(ctx, x, lambda pos: _slice(ctx, ctx.name(pos), list(a["starts"]), list(a["ends"]), axes,
                                            [int(s) for s in a["strides"]]), a["value"], outs[0])


@register("select_scatter")
def _select_scatter(ctx, a, outs):
    x = a["x"]
    axis = _axis(int(a["axis"]), _ndim(x))
    index = a["index"]
    if isinstance(index, Value):
        idx = ctx.one("Reshape", [_int64(ctx, index), ctx.ints([])])
    else:
        idx = ctx.constant(np.asarray(int(index), np.int64))
    _write_where(ctx, x, lambda pos: ctx.one("Gather", [ctx.name(pos), idx], axis=axis), a["values"], outs[0])


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


@register("scatter_nd")
def _scatter_nd(ctx, a, outs):
    _need(ctx, 16, "scatter_nd (ScatterND with reduction='add')")
    updates, shape = a["updates"], a["shape"]
    zero = ctx.constant(np.zeros(1, dtype=_np_dtype(updates)))
    base = ctx.one("Expand", [zero, _ints_or(ctx, shape if isinstance(shape, Value) else list(shape))])
    ctx.one("ScatterND", [base, _int64(ctx, a["index"]), ctx.name(updates)], outs[0], reduction="add")


@register("unique")
def _unique(ctx, a, outs):
    _need(ctx, 11, "unique")
    x = a["x"]
    if not a["sorted"]:
        raise NotImplementedError("paddle.onnx.export: unique with sorted=False is not supported")
    axis = a["axis"]
    kw = {} if axis is None else {"axis": _axis(int(axis if isinstance(axis, int) else axis[0]), _ndim(x))}
    got = ctx.node("Unique", [ctx.name(x)], 4, sorted=1, **kw)   # values, first indices, inverse, counts
    wanted = [0] + [i for i, flag in ((1, a["return_index"]), (2, a["return_inverse"]), (3, a["return_counts"]))
                    if flag]
    for k, (o, i) in enumerate(zip(outs, wanted)):
        if i == 0:
            ctx.one("Identity", [got[0]], o)
        else:
            _finish(ctx, got[i], torch.int64, o, k)
