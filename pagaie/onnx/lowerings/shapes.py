"""ONNX lowerings: shapes, creation, gathers and scatters, and indexing (x[index])."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _INT64_MAX, _INT64_MIN, _axes_of, _const_int, _axes_op, _axis, _cast_to, _dim, _finish, _int64, _ints_or,
    _ndim, _need, _out_dtype, _range_to, _scalar, _shape_of, _slice, _sq, _unsq, _reduce_to, channels_first,
    register)


# ---- shapes -------------------------------------------------------------------------
@register("transpose")
def _transpose(ctx, a, outs):
    ctx.one("Transpose", [ctx.name(a["x"])], outs[0], perm=[int(p) for p in a["perm"]])


@register("flatten")
def _flatten(ctx, a, outs):
    x = a["x"]
    nd = _ndim(x)
    start, stop = _axis(a["start_axis"], nd), _axis(a["stop_axis"], nd)
    if nd == 0 or start == stop:
        ctx.one("Identity" if nd else "Reshape", [ctx.name(x)] + ([] if nd else [ctx.ints([1])]), outs[0])
    elif stop == nd - 1 and start <= 1:
        ctx.one("Flatten", [ctx.name(x)], outs[0], axis=start) if start == 1 else \
            ctx.one("Reshape", [ctx.name(x), ctx.ints([-1])], outs[0])
    else:
        rest = list(x.shape[stop + 1:])
        if any(d < 0 for d in rest):
            raise NotImplementedError("paddle.onnx.export: flatten with unknown trailing sizes")
        ctx.one("Reshape", [ctx.name(x), ctx.ints([0] * start + [-1] + rest)], outs[0])


@register("concat")
def _concat(ctx, a, outs):
    xs = list(a["x"])
    axis = _axis(int(a["axis"]), _ndim(xs[0]))
    ctx.one("Concat", [ctx.name(v) for v in xs], outs[0], axis=axis)


@register("unsqueeze")
def _unsqueeze(ctx, a, outs):
    axes = [a["axis"]] if isinstance(a["axis"], int) else list(a["axis"])
    nd = _ndim(a["x"]) + len(axes)
    _axes_op(ctx, "Unsqueeze", ctx.name(a["x"]), sorted(_axis(int(i), nd) for i in axes), outs[0])


@register("squeeze")
def _squeeze(ctx, a, outs):
    x = a["x"]
    axis = a["axis"]
    if axis is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    else:
        axes = [axis] if isinstance(axis, int) else list(axis)
        axes = [_axis(int(i), _ndim(x)) for i in axes if x.shape[_axis(int(i), _ndim(x))] == 1]
    if axes:
        _axes_op(ctx, "Squeeze", ctx.name(x), axes, outs[0])
    else:
        ctx.one("Identity", [ctx.name(x)], outs[0])


@register("stack")
def _stack(ctx, a, outs):
    xs = list(a["x"])
    axis = _axis(int(a["axis"]), _ndim(xs[0]) + 1)
    parts = []
    for v in xs:
        p = ctx.fresh("unsq")
        _axes_op(ctx, "Unsqueeze", ctx.name(v), [axis], p)
        parts.append(p)
    ctx.one("Concat", parts, outs[0], axis=axis)


@register("embedding")
def _embedding(ctx, a, outs):
    if a["padding_idx"] is not None or a["max_norm"] is not None:
        pass  # forward values are a plain gather in inference
    ctx.one("Gather", [ctx.name(a["weight"]), ctx.name(a["x"])], outs[0], axis=0)


# ---- creation and shapes -------------------------------------------------------------
def _fill(ctx: LoweringContext, shape: str, value: Any, out: str) -> None:
    import torch
    dt = _out_dtype(ctx)
    if isinstance(value, Value):
        v = _cast_to(ctx, ctx.name(value), value._t.dtype, dt)
        v = ctx.one("Reshape", [v, ctx.ints([])])
    else:
        v = ctx.constant(np.asarray(value, dtype=torch.empty(0, dtype=dt).numpy().dtype))
    ctx.one("Expand", [v, shape], out)


for _name, _val in (("zeros_like", 0), ("ones_like", 1), ("full_like", None)):
    register(_name)(lambda ctx, a, outs, _v=_val: _fill(
        ctx, _shape_of(ctx, ctx.name(a["x"])), a["fill_value"] if _v is None else _v, outs[0]))

for _name, _val in (("zeros", 0), ("ones", 1), ("full", None)):
    register(_name)(lambda ctx, a, outs, _v=_val: _fill(
        ctx, _ints_or(ctx, a["shape"]) if not isinstance(a["shape"], int) else ctx.ints([a["shape"]]),
        a["fill_value"] if _v is None else _v, outs[0]))


@register("shape")
def _shape(ctx, a, outs):
    import torch
    _finish(ctx, ctx.one("Shape", [ctx.name(a["input"])]), torch.int64, outs[0])


@register("numel")
def _numel(ctx, a, outs):
    import torch
    _finish(ctx, ctx.one("Size", [ctx.name(a["x"])]), torch.int64, outs[0])


@register("arange")
def _arange(ctx, a, outs):
    _need(ctx, 11, "arange with tensor bounds")
    import torch
    dt = _out_dtype(ctx)
    start, end, step = a["start"], a["end"], a["step"]
    if end is None:
        start, end = 0, start

    def sc(v):
        if isinstance(v, Value):
            n = _cast_to(ctx, ctx.name(v), v._t.dtype, dt)
            return ctx.one("Reshape", [n, ctx.ints([])])
        return ctx.constant(np.asarray(v, dtype=torch.empty(0, dtype=dt).numpy().dtype))
    ctx.one("Range", [sc(start), sc(end), sc(step)], outs[0])


@register("expand", "broadcast_to")
def _expand(ctx, a, outs):
    shape = a["shape"]
    if not isinstance(shape, Value):
        shape = [1 if (not isinstance(s, Value) and int(s) == -1) else s for s in shape]
    ctx.one("Expand", [ctx.name(a["x"]), _ints_or(ctx, shape)], outs[0])


@register("expand_as")
def _expand_as(ctx, a, outs):
    ctx.one("Expand", [ctx.name(a["x"]), _shape_of(ctx, ctx.name(a["y"]))], outs[0])


@register("tile")
def _tile(ctx, a, outs):
    x, reps = a["x"], a["repeat_times"]
    xn, nd = ctx.name(x), _ndim(x)
    n = len(reps) if not isinstance(reps, Value) else reps.shape[0]
    if n > nd:
        xn = _unsq(ctx, xn, list(range(n - nd)))
    elif n < nd:
        reps = [1] * (nd - n) + list(reps) if not isinstance(reps, Value) else None
        if reps is None:
            raise NotImplementedError("paddle.onnx.export: tile with a short tensor repeat_times")
    ctx.one("Tile", [xn, _ints_or(ctx, reps)], outs[0])


@register("reshape")
def _reshape2(ctx, a, outs):
    shape = a["shape"]
    shape = [shape] if isinstance(shape, int) else shape
    ctx.one("Reshape", [ctx.name(a["x"]), _ints_or(ctx, shape)], outs[0])


def _split_node(ctx: LoweringContext, xn: str, sizes: list[int] | None, n: int, axis: int,
                outs: list[str]) -> None:
    if sizes is None:  # equal parts of an unknown length
        if ctx.opset >= 18:
            ctx.node("Split", [xn], outs, axis=axis, num_outputs=n)
        else:
            ctx.node("Split", [xn], outs, axis=axis)
    elif ctx.opset >= 13:
        ctx.node("Split", [xn, ctx.ints(sizes)], outs, axis=axis)
    else:
        ctx.node("Split", [xn], outs, axis=axis, split=sizes)


def _split_sizes(x: Value, sections: Any, axis: int) -> tuple[list[int] | None, int]:
    d = x.shape[axis]
    if isinstance(sections, int):
        return (None if d < 0 else [d // sections] * sections), sections
    secs = [int(s) if not isinstance(s, Value) else None for s in sections]
    if None in secs:
        raise NotImplementedError("paddle.onnx.export: split with tensor sections is not supported")
    if -1 in secs:
        if d < 0:
            raise NotImplementedError("paddle.onnx.export: split with -1 over an unknown dimension")
        secs[secs.index(-1)] = d - (sum(secs) + 1)
    return secs, len(secs)


@register("split")
def _split(ctx, a, outs):
    x = a["x"]
    axis = _axis(_const_int(ctx, a["axis"], "split with a tensor axis"), _ndim(x))
    sizes, n = _split_sizes(x, a["num_or_sections"], axis)
    _split_node(ctx, ctx.name(x), sizes, n, axis, outs)


@register("chunk")
def _chunk(ctx, a, outs):
    x = a["x"]
    axis = _axis(int(a["axis"]), _ndim(x))
    d, n = x.shape[axis], int(a["chunks"])
    sizes = None if d < 0 else [ctx.out_values[i].shape[axis] for i in range(len(outs))]
    _split_node(ctx, ctx.name(x), sizes, len(outs) if sizes else n, axis, outs)


@register("unbind")
def _unbind(ctx, a, outs):
    x = a["input"]
    axis = _axis(int(a["axis"]), _ndim(x))
    parts = [ctx.fresh("part") for _ in outs]
    _split_node(ctx, ctx.name(x), [1] * len(outs), len(outs), axis, parts)
    for p, o in zip(parts, outs):
        _sq(ctx, p, [axis], o)


@register("slice")
def _paddle_slice(ctx, a, outs):
    x = a["input"]
    axes = [_axis(int(i), _ndim(x)) for i in a["axes"]]
    _slice(ctx, ctx.name(x), a["starts"], a["ends"], axes, None, outs[0])


@register("strided_slice")
def _strided_slice(ctx, a, outs):
    x = a["x"]
    axes = [_axis(int(i), _ndim(x)) for i in a["axes"]]
    steps = [int(s) for s in a["strides"]]
    _slice(ctx, ctx.name(x), a["starts"], a["ends"], axes, steps, outs[0])


@register("flip")
def _flip(ctx, a, outs):
    x = a["x"]
    axes = _axes_of(a["axis"], _ndim(x))
    if not axes:
        ctx.one("Identity", [ctx.name(x)], outs[0])
        return
    _need(ctx, 10, "flip")
    _slice(ctx, ctx.name(x), [-1] * len(axes), [_INT64_MIN] * len(axes), axes, [-1] * len(axes), outs[0])


@register("roll")
def _roll(ctx, a, outs):
    x = a["x"]
    shifts, axis = a["shifts"], a["axis"]
    if isinstance(shifts, Value) or isinstance(axis, Value):
        raise NotImplementedError("paddle.onnx.export: roll with tensor shifts is not supported")
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    xn = ctx.name(x)
    flat = axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0)
    if flat:
        shape = _shape_of(ctx, xn)
        xn, axes = ctx.one("Reshape", [xn, ctx.ints([-1])]), [0]
        sizes = [int(np.prod(x.shape)) if all(d >= 0 for d in x.shape) else -1]
    else:
        axes = [_axis(int(i), _ndim(x)) for i in ([axis] if isinstance(axis, int) else axis)]
        sizes = [x.shape[i] for i in axes]
    for s, ax, d in zip(shifts, axes, sizes):
        s = int(s) % d if d > 0 else int(s)
        if s == 0:
            continue
        tail = _slice(ctx, xn, [-s], [_INT64_MAX], [ax])
        head = _slice(ctx, xn, [0], [-s], [ax])
        xn = ctx.one("Concat", [tail, head], axis=ax)
    if flat:
        xn = ctx.one("Reshape", [xn, shape])
    ctx.one("Identity", [xn], outs[0])


def _tri(upper: int) -> Callable:
    def lower(ctx, a, outs):
        x = a["x"]
        k = int(a["diagonal"])
        if ctx.opset >= 14:
            ctx.one("Trilu", [ctx.name(x), ctx.constant(np.asarray(k, np.int64))], outs[0], upper=upper)
            return
        _need(ctx, 11, "tril/triu")
        xn = ctx.name(x)
        nd = _ndim(x)

        def rng(axis):
            return _range_to(ctx, ctx.one("Reshape", [_dim(ctx, xn, axis), ctx.ints([])]))
        diff = ctx.one("Sub", [_unsq(ctx, rng(nd - 1), [0]), _unsq(ctx, rng(nd - 2), [1])])  # col - row
        kk = ctx.constant(np.asarray(k, np.int64))
        keep = ctx.one("Not", [ctx.one("Less" if upper else "Greater", [diff, kk])])
        ctx.one("Where", [keep, xn, _scalar(ctx, 0, x)], outs[0])
    return lower


register("tril")(_tri(0))
register("triu")(_tri(1))


@register("einsum")
def _einsum(ctx, a, outs):
    _need(ctx, 12, "einsum")
    ops = a["operands"]
    if len(ops) == 1 and isinstance(ops[0], (list, tuple)):
        ops = ops[0]
    ctx.one("Einsum", [ctx.name(v) for v in ops], outs[0], equation=a["equation"].replace(" ", ""))


@register("bmm")
def _bmm(ctx, a, outs):
    ctx.one("MatMul", [ctx.name(a["x"]), ctx.name(a["y"])], outs[0])


@register("mm")
def _mm(ctx, a, outs):
    ctx.one("MatMul", [ctx.name(a["input"]), ctx.name(a["mat2"])], outs[0])


@register("pixel_shuffle")
@channels_first
def _pixel_shuffle(ctx, a, outs):
    _need(ctx, 11, "pixel_shuffle")
    ctx.one("DepthToSpace", [ctx.name(a["x"])], outs[0], blocksize=int(a["upscale_factor"]), mode="CRD")


@register("pixel_unshuffle")
@channels_first
def _pixel_unshuffle(ctx, a, outs):
    # SpaceToDepth orders the output channels block-major; Paddle orders them channel-major
    x, r = a["x"], int(a["downscale_factor"])
    c = x._known_dims()[1]
    if c < 0:
        raise NotImplementedError("paddle.onnx.export: pixel_unshuffle needs a known channel count")
    y = ctx.one("SpaceToDepth", [ctx.name(x)], blocksize=r)
    order = [(j % (r * r)) * c + j // (r * r) for j in range(c * r * r)]
    ctx.one("Gather", [y, ctx.ints(order)], outs[0], axis=1)


@register("channel_shuffle")
@channels_first
def _channel_shuffle(ctx, a, outs):
    x, g = a["x"], int(a["groups"])
    c = x._known_dims()[1]
    if c < 0:
        raise NotImplementedError("paddle.onnx.export: channel_shuffle needs a known channel count")
    xn = ctx.name(x)
    y = ctx.one("Reshape", [xn, ctx.ints([0, g, c // g, -1])])
    y = ctx.one("Transpose", [y], perm=[0, 2, 1, 3])
    ctx.one("Reshape", [y, _shape_of(ctx, xn)], outs[0])


@register("maxout")
def _maxout(ctx, a, outs):
    x, g = a["x"], int(a["groups"])
    nd = _ndim(x)
    axis = _axis(int(a["axis"]), nd)
    c = x._known_dims()[axis]
    if c < 0:
        raise NotImplementedError("paddle.onnx.export: maxout needs a known size along 'axis'")
    shape = _shape_of(ctx, ctx.name(x))
    parts = [ctx.ints([c // g, g])]
    if axis > 0:
        parts.insert(0, _slice(ctx, shape, [0], [axis], [0]))
    if axis < nd - 1:
        parts.append(_slice(ctx, shape, [axis + 1], [nd], [0]))
    y = ctx.one("Reshape", [ctx.name(x), ctx.one("Concat", parts, axis=0)])
    _reduce_to(ctx, "ReduceMax", y, [axis + 1], False, outs[0])


# ---- gathers and scatters ------------------------------------------------------------
@register("gather")
def _gather(ctx, a, outs):
    x, axis = a["x"], a["axis"]
    ctx.one("Gather", [ctx.name(x), _int64(ctx, a["index"])], outs[0],
            axis=_axis(_const_int(ctx, 0 if axis is None else axis, "gather with a tensor axis"), _ndim(x)))


@register("index_select")
def _index_select(ctx, a, outs):
    x = a["x"]
    ctx.one("Gather", [ctx.name(x), _int64(ctx, a["index"])], outs[0], axis=_axis(int(a["axis"]), _ndim(x)))


@register("gather_nd")
def _gather_nd(ctx, a, outs):
    _need(ctx, 11, "gather_nd")
    ctx.one("GatherND", [ctx.name(a["x"]), _int64(ctx, a["index"])], outs[0])


def _along_indices(ctx: LoweringContext, a: dict, arr: Value, idx: Value, axis: int) -> str:
    """int64 indices of take/put_along_axis, broadcast against ``arr`` on every axis but
    ``axis`` (unless ``broadcast=False``)."""
    ind = _int64(ctx, idx)
    if a.get("broadcast", True) and list(idx.shape) != list(arr.shape):
        shp = _shape_of(ctx, ctx.name(arr))
        parts = [ctx.one("Gather", [shp, ctx.ints([i])], axis=0) if i != axis else _dim(ctx, ind, axis)
                 for i in range(_ndim(arr))]
        ind = ctx.one("Expand", [ind, ctx.one("Concat", parts, axis=0)])
    return ind


@register("take_along_axis")
def _take_along_axis(ctx, a, outs):
    _need(ctx, 11, "take_along_axis")
    arr, idx = a["arr"], a["indices"]
    axis = _axis(int(a["axis"]), _ndim(arr))
    ind = _along_indices(ctx, a, arr, idx, axis)
    ctx.one("GatherElements", [ctx.name(arr), ind], outs[0], axis=axis)


@register("put_along_axis")
def _put_along_axis(ctx, a, outs):
    _need(ctx, 11, "put_along_axis")
    arr, idx, vals = a["arr"], a["indices"], a["values"]
    axis = _axis(int(a["axis"]), _ndim(arr))
    ind = _along_indices(ctx, a, arr, idx, axis)
    v = _scalar(ctx, vals, arr) if not isinstance(vals, Value) else \
        _cast_to(ctx, ctx.name(vals), vals._t.dtype, arr._t.dtype)
    v = ctx.one("Expand", [v, _shape_of(ctx, ind)])
    red = {"assign": None, "add": "add", "mul": "mul", "multiply": "mul"}.get(a["reduce"], "?")
    if red == "?" or (red and not a.get("include_self", True)):
        raise NotImplementedError(f"paddle.onnx.export: put_along_axis with reduce={a['reduce']!r} "
                                  "is not supported")
    if red:
        _need(ctx, 16, "put_along_axis with a reduction")
    ctx.one("ScatterElements", [ctx.name(arr), ind, v], outs[0], axis=axis, reduction=red)


@register("scatter")
def _scatter(ctx, a, outs):
    _need(ctx, 11, "scatter")
    x, idx, upd = a["x"], a["index"], a["updates"]
    ind = _unsq(ctx, ctx.one("Reshape", [_int64(ctx, idx), ctx.ints([-1])]), [1])
    xn, un = ctx.name(x), ctx.name(upd)
    if a["overwrite"]:
        ctx.one("ScatterND", [xn, ind, un], outs[0])
        return
    _need(ctx, 16, "scatter with overwrite=False")
    zeros = ctx.one("Expand", [_scalar(ctx, 0, x), _shape_of(ctx, un)])
    cleared = ctx.one("ScatterND", [xn, ind, zeros])
    ctx.one("ScatterND", [cleared, ind, un], outs[0], reduction="add")


@register("scatter_nd_add")
def _scatter_nd_add(ctx, a, outs):
    _need(ctx, 16, "scatter_nd_add")
    ctx.one("ScatterND", [ctx.name(a["x"]), _int64(ctx, a["index"]), ctx.name(a["updates"])], outs[0],
            reduction="add")


@register("one_hot")
def _one_hot(ctx, a, outs):
    import torch
    n = a["num_classes"]
    if isinstance(n, Value) or int(n) < 0:
        raise NotImplementedError("paddle.onnx.export: one_hot needs a known num_classes")
    dt = torch.empty(0, dtype=_out_dtype(ctx)).numpy().dtype
    ctx.one("OneHot", [_int64(ctx, a["x"]), ctx.constant(np.asarray([int(n)], np.int64)),
                       ctx.constant(np.asarray([0, 1], dt))], outs[0], axis=-1)


# ---- indexing: x[index] ----------------------------------------------------------------
def _index_items(x: Value, index: Any) -> list:
    """``index`` as a list of items over ``x``'s dims: Ellipsis expanded, Python lists made arrays."""
    items = list(index) if type(index) is tuple else [index]
    out = []
    for it in items:
        if isinstance(it, list):
            arr = np.asarray(it)
            if arr.dtype == object:
                raise NotImplementedError("paddle.onnx.export: x[...] with a list of tensors is not supported")
            it = arr.astype(np.int64) if arr.dtype != np.bool_ else arr
        elif isinstance(it, (bool, np.bool_)):
            raise NotImplementedError("paddle.onnx.export: x[True/False] is not supported")
        elif isinstance(it, np.integer):
            it = int(it)
        out.append(it)

    def eats(it):
        if it is None or it is Ellipsis:
            return 0
        if isinstance(it, (Value, np.ndarray)):
            return len(it.shape) if _is_bool(it) else 1
        return 1
    used = sum(eats(it) for it in out)
    if any(it is Ellipsis for it in out):
        k = out.index(Ellipsis)
        out = out[:k] + [slice(None)] * (_ndim(x) - used) + [it for it in out[k + 1:] if it is not Ellipsis]
    return out


def _is_bool(it: Any) -> bool:
    import torch
    if isinstance(it, Value):
        return it._t.dtype == torch.bool
    return isinstance(it, np.ndarray) and it.dtype == np.bool_


@register("getitem")
def _getitem(ctx, a, outs):
    x = a["x"]
    items = _index_items(x, a["index"])
    xn = ctx.name(x)
    starts, ends, axes, steps = [], [], [], []
    squeeze, advanced, nones = [], [], []
    d = 0       # dim of x
    od = 0      # dim of the result
    adv_pos = []
    for k, it in enumerate(items):
        if it is None:
            nones.append(od)
            od += 1
        elif isinstance(it, slice):
            st = 1 if it.step is None else it.step
            if any(isinstance(e, Value) for e in (it.start, it.stop, it.step)):
                if isinstance(it.step, Value):
                    raise NotImplementedError("paddle.onnx.export: a tensor slice step is not supported")
            if st == 0:
                raise ValueError("paddle.onnx.export: slice step cannot be zero")
            if not (it.start is None and it.stop is None and st == 1):
                lo = it.start if it.start is not None else (0 if st > 0 else _INT64_MAX)
                hi = it.stop if it.stop is not None else (_INT64_MAX if st > 0 else _INT64_MIN)
                starts.append(lo), ends.append(hi), axes.append(d), steps.append(int(st))
            d += 1
            od += 1
        elif isinstance(it, int):
            starts.append(it), ends.append(it + 1 if it != -1 else _INT64_MAX), axes.append(d), steps.append(1)
            squeeze.append(d)
            adv_pos.append(k)
            d += 1
        elif isinstance(it, (Value, np.ndarray)):
            n = len(it.shape) if _is_bool(it) else 1
            advanced.append((d, od, it))
            adv_pos.append(k)
            d += n
            od += 1 if _is_bool(it) else len(it.shape)
        else:
            raise NotImplementedError(f"paddle.onnx.export: x[...] with an index of type "
                                      f"{type(it).__name__} is not supported")
    if len(advanced) > 1:
        raise NotImplementedError("paddle.onnx.export: x[...] with more than one tensor index is not supported")
    if advanced and adv_pos != list(range(adv_pos[0], adv_pos[0] + len(adv_pos))):
        raise NotImplementedError("paddle.onnx.export: x[...] with a tensor index and integers that are "
                                  "not next to each other is not supported")
    if axes:
        xn = _slice(ctx, xn, starts, ends, axes, steps)
    if squeeze:
        xn = _sq(ctx, xn, squeeze)
    if advanced:
        d0, _, it = advanced[0]
        p = d0 - sum(1 for s in squeeze if s < d0)  # its dim once the integers are squeezed
        idx = ctx.constant(it) if isinstance(it, np.ndarray) else ctx.name(it)
        if _is_bool(it):
            _need(ctx, 11, "x[bool mask]")
            k = len(it.shape)
            nd = _ndim(x) - len(squeeze)
            pos = ctx.one("Transpose", [ctx.one("NonZero", [idx])], perm=[1, 0])
            if p:
                perm = list(range(p, p + k)) + list(range(p)) + list(range(p + k, nd))
                xn = ctx.one("Transpose", [xn], perm=perm)
            xn = ctx.one("GatherND", [xn, pos])
            if p:
                rest = nd - k + 1
                perm = list(range(1, p + 1)) + [0] + list(range(p + 1, rest))
                xn = ctx.one("Transpose", [xn], perm=perm)
        else:
            if isinstance(it, Value):
                import torch
                idx = _cast_to(ctx, idx, it._t.dtype, torch.int64)
            xn = ctx.one("Gather", [xn, idx], axis=p)
    if nones:
        xn = _unsq(ctx, xn, nones)
    ctx.one("Identity", [xn], outs[0])
