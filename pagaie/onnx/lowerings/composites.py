"""ONNX lowerings of ops written as small compositions of ONNX nodes: products (dot, mv, addmm),
interpolations and activations (lerp, logit, stanh, glu), axis moves and splits, differences,
repeats, grids, the k-th value, bitwise logic, reshapes (unflatten, view), rot90,
sequence_mask, tensor_split and its h/v/d forms, multiplex, broadcast_tensors, crop, swiglu
and temporal_shift."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _axis, _cast_to, _dim, _finish, _int64, _ints_or, _ndim, _need, _np_dtype, _out_dtype, _range_to, _reduce_to,
    _scalar, _shape_of, _slice, _sq, _unsq, register)


@register("clone")
def _clone(ctx, a, outs):
    ctx.one("Identity", [ctx.name(a["x"])], outs[0])


@register("increment")
def _increment(ctx, a, outs):
    ctx.one("Add", [ctx.name(a["x"]), _scalar(ctx, a["value"], a["x"])], outs[0])


@register("moveaxis")
def _moveaxis(ctx, a, outs):
    x = a["x"]
    nd = _ndim(x)
    src = [a["source"]] if isinstance(a["source"], int) else list(a["source"])
    dst = [a["destination"]] if isinstance(a["destination"], int) else list(a["destination"])
    src, dst = [_axis(int(s), nd) for s in src], [_axis(int(d), nd) for d in dst]
    rest = iter(i for i in range(nd) if i not in src)
    moved = dict(zip(dst, src))
    perm = [moved[i] if i in moved else next(rest) for i in range(nd)]
    ctx.one("Transpose", [ctx.name(x)], outs[0], perm=perm)


@register("unstack")
def _unstack(ctx, a, outs):
    x = a["x"]
    axis = _axis(int(a["axis"]), _ndim(x))
    parts = ctx.node("Split", [ctx.name(x)] + ([ctx.ints([1] * len(outs))] if ctx.opset >= 13 else []),
                     len(outs), axis=axis, split=[1] * len(outs) if ctx.opset < 13 else None)
    for p, o in zip(parts, outs):
        _sq(ctx, p, [axis], o)


@register("glu")
def _glu(ctx, a, outs):
    x = a["x"]
    axis = _axis(int(a["axis"]), _ndim(x))
    halves = ctx.node("Split", [ctx.name(x)] + ([ctx.ints([2])] if ctx.opset >= 18 else []), 2, axis=axis,
                      num_outputs=2 if ctx.opset >= 18 else None)
    ctx.one("Mul", [halves[0], ctx.one("Sigmoid", [halves[1]])], outs[0])


# ---- products ------------------------------------------------------------------------
@register("dot")
def _dot(ctx, a, outs):
    x = a["x"]
    prod = ctx.one("Mul", [ctx.name(x), ctx.name(a["y"])])
    _reduce_to(ctx, "ReduceSum", prod, [_ndim(x) - 1], False, outs[0])


@register("mv")
def _mv(ctx, a, outs):
    ctx.one("MatMul", [ctx.name(a["x"]), ctx.name(a["vec"])], outs[0])


@register("addmm", "baddbmm")
def _addmm(ctx, a, outs):
    x = a["x"]
    xy = ctx.one("Mul", [ctx.one("MatMul", [ctx.name(x), ctx.name(a["y"])]), _scalar(ctx, a["alpha"], x)])
    ctx.one("Add", [ctx.one("Mul", [ctx.name(a["input"]), _scalar(ctx, a["beta"], x)]), xy], outs[0])


# ---- elementwise composites ----------------------------------------------------------
@register("lerp")
def _lerp(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    d = ctx.one("Sub", [ctx.name(a["y"]), xn])
    ctx.one("Add", [xn, ctx.one("Mul", [_scalar(ctx, a["weight"], x), d])], outs[0])


@register("logit")
def _logit(ctx, a, outs):
    x, eps = a["x"], a["eps"]
    xn = ctx.name(x)
    if eps:  # Paddle clips into [eps, 1 - eps] first
        xn = ctx.one("Min", [ctx.one("Max", [xn, _scalar(ctx, eps, x)]), _scalar(ctx, 1.0 - eps, x)])
    ctx.one("Log", [ctx.one("Div", [xn, ctx.one("Sub", [_scalar(ctx, 1.0, x), xn])])], outs[0])


@register("stanh")
def _stanh(ctx, a, outs):
    x = a["x"]
    t = ctx.one("Tanh", [ctx.one("Mul", [ctx.name(x), _scalar(ctx, a["scale_a"], x)])])
    ctx.one("Mul", [t, _scalar(ctx, a["scale_b"], x)], outs[0])


@register("frac")
def _frac(ctx, a, outs):
    xn = ctx.name(a["x"])
    trunc = ctx.one("Mul", [ctx.one("Floor", [ctx.one("Abs", [xn])]), ctx.one("Sign", [xn])])
    ctx.one("Sub", [xn, trunc], outs[0])


@register("heaviside")
def _heaviside(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    zero = _scalar(ctx, 0, x)
    pos = _cast_to(ctx, ctx.one("Greater", [xn, zero]), torch.bool, x._t.dtype)
    ctx.one("Where", [ctx.one("Equal", [xn, zero]), ctx.name(a["y"]), pos], outs[0])


@register("nan_to_num")
def _nan_to_num(ctx, a, outs):
    x = a["x"]
    _need(ctx, 10, "nan_to_num")
    info = torch.finfo(x._t.dtype)
    xn = ctx.name(x)
    pos = a["posinf"] if a["posinf"] is not None else info.max
    neg = a["neginf"] if a["neginf"] is not None else info.min
    y = ctx.one("Where", [ctx.one("IsNaN", [xn]), _scalar(ctx, a["nan"], x), xn])
    y = ctx.one("Where", [ctx.one("IsInf", [y], detect_negative=0), _scalar(ctx, pos, x), y])
    ctx.one("Where", [ctx.one("IsInf", [y], detect_positive=0), _scalar(ctx, neg, x), y], outs[0])


@register("cosine_similarity")
def _cosine_similarity(ctx, a, outs):
    x1, x2 = a["x1"], a["x2"]
    n1, n2 = ctx.name(x1), ctx.name(x2)
    axis = _axis(int(a["axis"]), max(_ndim(x1), _ndim(x2)))
    s1, s2 = x1._known_dims()[axis], x2._known_dims()[axis]
    w12 = _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [n1, n2]), [axis], False)
    w1 = _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [n1, n1]), [axis], False)
    w2 = _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [n2, n2]), [axis], False)
    if s1 != s2 and 1 in (s1, s2):  # a size-1 axis broadcast counts once per copy (as the kernel)
        other = s2 if s1 == 1 else s1
        if other < 0:
            raise NotImplementedError("paddle.onnx.export: cosine_similarity broadcasting over an "
                                      "unknown axis size is not supported")
        if s1 == 1:
            w1 = ctx.one("Mul", [w1, _scalar(ctx, float(other), x1)])
        else:
            w2 = ctx.one("Mul", [w2, _scalar(ctx, float(other), x1)])
    den = ctx.one("Max", [ctx.one("Mul", [w1, w2]), _scalar(ctx, float(a["eps"]) ** 2, x1)])
    ctx.one("Div", [w12, ctx.one("Sqrt", [den])], outs[0])


@register("label_smooth")
def _label_smooth(ctx, a, outs):
    label, eps = a["label"], float(a["epsilon"])
    y = ctx.one("Mul", [ctx.name(label), _scalar(ctx, 1.0 - eps, label)])
    if a["prior_dist"] is not None:
        prior = ctx.one("Mul", [ctx.name(a["prior_dist"]), _scalar(ctx, eps, label)])
    else:
        n = label._known_dims()[-1]
        if n < 0:
            raise NotImplementedError("paddle.onnx.export: label_smooth needs a known class count")
        prior = _scalar(ctx, eps / n, label)
    ctx.one("Add", [y, prior], outs[0])


# ---- differences, repeats, grids ----------------------------------------------------
@register("diff")
def _diff(ctx, a, outs):
    x = a["x"]
    _need(ctx, 10, "diff")
    axis = _axis(int(a["axis"]), _ndim(x))
    xn = ctx.name(x)
    parts = [ctx.name(v) for v in (a["prepend"], x, a["append"]) if v is not None]
    if len(parts) > 1:
        xn = ctx.one("Concat", parts, axis=axis)
    is_bool = x._t.dtype == torch.bool
    for _ in range(int(a["n"])):
        hi = _slice(ctx, xn, [1], [2 ** 63 - 1], [axis])
        lo = _slice(ctx, xn, [0], [-1], [axis])
        xn = ctx.one("Xor" if is_bool else "Sub", [hi, lo])
    ctx.one("Identity", [xn], outs[0])


@register("repeat_interleave")
def _repeat_interleave(ctx, a, outs):
    x, r = a["x"], a["repeats"]
    if isinstance(r, Value):
        raise NotImplementedError("paddle.onnx.export: repeat_interleave with tensor repeats is not supported")
    xn = ctx.name(x)
    if a["axis"] is None:
        xn, axis = ctx.one("Reshape", [xn, ctx.ints([-1])]), 0
        nd = 1
    else:
        nd = _ndim(x)
        axis = _axis(int(a["axis"]), nd)
    shape = _shape_of(ctx, xn)
    y = ctx.one("Tile", [_unsq(ctx, xn, [axis + 1]),
                         ctx.ints([1] * (axis + 1) + [int(r)] + [1] * (nd - axis - 1))])
    new = [ctx.one("Mul", [_dim(ctx, xn, axis), ctx.ints([int(r)])])]
    if axis > 0:
        new.insert(0, _slice(ctx, shape, [0], [axis], [0]))
    if axis < nd - 1:
        new.append(_slice(ctx, shape, [axis + 1], [nd], [0]))
    ctx.one("Reshape", [y, ctx.one("Concat", new, axis=0) if len(new) > 1 else new[0]], outs[0])


@register("meshgrid")
def _meshgrid(ctx, a, outs):
    xs = list(a["args"])
    if len(xs) == 1 and isinstance(xs[0], (list, tuple)):
        xs = list(xs[0])
    n = len(xs)
    flat = [ctx.one("Reshape", [ctx.name(v), ctx.ints([-1])]) for v in xs]
    full = ctx.one("Concat", [_dim(ctx, f, 0) for f in flat], axis=0)
    for i, o in enumerate(outs):
        shape = [1] * n
        shape[i] = -1
        ctx.one("Expand", [ctx.one("Reshape", [flat[i], ctx.ints(shape)]), full], o)


@register("kthvalue")
def _kthvalue(ctx, a, outs):
    x = a["x"]
    _need(ctx, 10, "kthvalue")
    nd = _ndim(x)
    axis = _axis(int(a["axis"]) if a["axis"] is not None else -1, nd)
    k = int(a["k"])
    vals, idx = ctx.node("TopK", [ctx.name(x), ctx.ints([k])], 2, axis=axis, largest=0, sorted=1)
    keep = bool(a["keepdim"])
    for i, name in enumerate((vals, idx)):
        last = _slice(ctx, name, [k - 1], [k], [axis])
        y = last if keep else _sq(ctx, last, [axis])
        _finish(ctx, y, torch.int64 if i else _out_dtype(ctx, 0), outs[i], i)


for _name, _bool, _int in (("bitwise_and", "And", "BitwiseAnd"), ("bitwise_or", "Or", "BitwiseOr"),
                           ("bitwise_xor", "Xor", "BitwiseXor")):
    def _bitwise(ctx: LoweringContext, a: dict, outs: list, _b: str = _bool, _i: str = _int) -> None:
        x, y = a["x"], a["y"]
        if x._t.dtype == torch.bool:
            ctx.one(_b, [ctx.name(x), ctx.name(y)], outs[0])
            return
        _need(ctx, 18, _i)
        ctx.one(_i, [ctx.name(x), ctx.name(y)], outs[0])
    register(_name)(_bitwise)
del _name, _bool, _int


# ---- reshapes, rotations, masks -------------------------------------------------------
@register("unflatten")
def _unflatten(ctx, a, outs):
    x, sizes = a["x"], a["shape"]
    nd = _ndim(x)
    axis = _axis(int(a["axis"]), nd)
    xn = ctx.name(x)
    shape = _shape_of(ctx, xn)
    parts = [_ints_or(ctx, list(sizes) if not isinstance(sizes, Value) else sizes)]
    if axis > 0:
        parts.insert(0, _slice(ctx, shape, [0], [axis], [0]))
    if axis < nd - 1:
        parts.append(_slice(ctx, shape, [axis + 1], [nd], [0]))
    ctx.one("Reshape", [xn, ctx.one("Concat", parts, axis=0) if len(parts) > 1 else parts[0]], outs[0])


@register("view")
def _view(ctx, a, outs):
    x, target = a["x"], a["shape_or_dtype"]
    if isinstance(target, (list, tuple, Value)):
        ctx.one("Reshape", [ctx.name(x), _ints_or(ctx, target)], outs[0])
    elif _out_dtype(ctx) == x._t.dtype:
        ctx.one("Identity", [ctx.name(x)], outs[0])
    else:
        raise NotImplementedError("paddle.onnx.export: view as another dtype (a bit cast) is not supported")


def _flip(ctx: LoweringContext, xn: str, axis: int) -> str:
    return _slice(ctx, xn, [-1], [-2 ** 63], [axis], [-1])


@register("rot90")
def _rot90(ctx, a, outs):
    x = a["x"]
    nd = _ndim(x)
    a0, a1 = (_axis(int(i), nd) for i in a["axes"])
    k = int(a["k"]) % 4
    xn = ctx.name(x)
    swap = list(range(nd))
    swap[a0], swap[a1] = a1, a0
    if k == 1:     # flip the second axis, then swap the two
        xn = ctx.one("Transpose", [_flip(ctx, xn, a1)], perm=swap)
    elif k == 2:
        xn = _flip(ctx, _flip(ctx, xn, a0), a1)
    elif k == 3:   # swap, then flip the second axis
        xn = _flip(ctx, ctx.one("Transpose", [xn], perm=swap), a1)
    ctx.one("Identity", [xn], outs[0])


@register("sequence_mask")
def _sequence_mask(ctx, a, outs):
    _need(ctx, 11, "sequence_mask (Range)")
    x, maxlen = a["x"], a["maxlen"]
    xn = _int64(ctx, x)
    if maxlen is None:
        limit = ctx.one("ReduceMax", [xn], keepdims=0)
    elif isinstance(maxlen, Value):
        limit = ctx.one("Reshape", [_int64(ctx, maxlen), ctx.ints([])])
    else:
        limit = ctx.constant(np.asarray(int(maxlen), np.int64))
    steps = _range_to(ctx, limit)
    inside = ctx.one("Less", [steps, _unsq(ctx, xn, [_ndim(x)])])
    _finish(ctx, inside, torch.bool, outs[0])


def _tensor_split(axis_of: Any) -> Any:
    """tensor_split (and hsplit / vsplit / dsplit): parts by count (the first ones one longer)
    or between indices, each a Slice."""
    def lower(ctx, a, outs):
        x = a["x"]
        nd = _ndim(x)
        axis = _axis(int(axis_of(a, nd)), nd)
        parts = a["num_or_indices"]
        if isinstance(parts, Value):
            raise NotImplementedError("paddle.onnx.export: tensor_split with tensor sections is not supported")
        if isinstance(parts, int):
            d = x._known_dims()[axis]
            if d < 0:
                raise NotImplementedError("paddle.onnx.export: tensor_split into a count of parts needs "
                                          "the split axis' size known")
            sizes = [d // parts + (1 if i < d % parts else 0) for i in range(parts)]
            bounds = [sum(sizes[:i]) for i in range(parts + 1)]
        else:
            bounds = [0] + [int(i) for i in parts] + [2 ** 63 - 1]
        xn = ctx.name(x)
        for o, lo, hi in zip(outs, bounds[:-1], bounds[1:]):
            ctx.one("Identity", [_slice(ctx, xn, [lo], [hi], [axis])], o)
    return lower


register("tensor_split")(_tensor_split(lambda a, nd: a["axis"]))
register("hsplit")(_tensor_split(lambda a, nd: 1 if nd > 1 else 0))
register("vsplit")(_tensor_split(lambda a, nd: 0))
register("dsplit")(_tensor_split(lambda a, nd: 2))


@register("multiplex")
def _multiplex(ctx, a, outs):
    xs = list(a["inputs"])
    stacked = ctx.one("Concat", [_unsq(ctx, ctx.name(v), [1]) for v in xs], axis=1)   # [N, K, ...]
    nd = _ndim(xs[0]) + 1
    idx = _int64(ctx, a["index"])
    idx = ctx.one("Reshape", [idx, ctx.ints([-1] + [1] * (nd - 1))])
    shape = ctx.one("Concat", [_slice(ctx, _shape_of(ctx, stacked), [0], [1], [0]), ctx.ints([1]),
                               _slice(ctx, _shape_of(ctx, stacked), [2], [nd], [0])], axis=0)
    picked = ctx.one("GatherElements", [stacked, ctx.one("Expand", [idx, shape])], axis=1)
    _sq(ctx, picked, [1], outs[0])


@register("broadcast_tensors")
def _broadcast_tensors(ctx, a, outs):
    xs = list(a["input"])
    names = [ctx.name(v) for v in xs]
    common = names[0]
    for n in names[1:]:   # Expand broadcasts both ways: its shape is the common one
        common = ctx.one("Expand", [common, _shape_of(ctx, n)])
    shape = _shape_of(ctx, common)
    for n, o in zip(names, outs):
        ctx.one("Expand", [n, shape], o)


@register("crop")
def _crop(ctx, a, outs):
    x, shape, offsets = a["x"], a["shape"], a["offsets"]
    nd = _ndim(x)
    if isinstance(shape, Value) or isinstance(offsets, Value) or \
            any(isinstance(e, Value) for e in list(shape or []) + list(offsets or [])):
        raise NotImplementedError("paddle.onnx.export: crop with tensor shape or offsets is not supported")
    offsets = [0] * nd if offsets is None else [int(o) for o in offsets]
    shape = list(x._known_dims()) if shape is None else [int(s) for s in shape]
    ends = [2 ** 63 - 1 if s == -1 else o + s for o, s in zip(offsets, shape)]
    ctx.one("Identity", [_slice(ctx, ctx.name(x), offsets, ends, list(range(nd)))], outs[0])


@register("swiglu")
def _swiglu(ctx, a, outs):
    x, y = a["x"], a["y"]
    xn = ctx.name(x)
    if y is None:
        xn, yn = ctx.node("Split", [xn] + ([ctx.ints([2])] if ctx.opset >= 18 else []), 2, axis=_ndim(x) - 1,
                          num_outputs=2 if ctx.opset >= 18 else None)
    else:
        yn = ctx.name(y)
    ctx.one("Mul", [ctx.one("Mul", [xn, ctx.one("Sigmoid", [xn])]), yn], outs[0])


@register("temporal_shift")
def _temporal_shift(ctx, a, outs):
    x = a["x"]
    nhwc = a["data_format"] == "NHWC"
    dims = x._known_dims()
    c = dims[3] if nhwc else dims[1]
    if c < 0:
        raise NotImplementedError("paddle.onnx.export: temporal_shift needs the channel count known")
    t = int(a["seg_num"])
    c1, c2 = int(c * float(a["shift_ratio"])), int(c * 2 * float(a["shift_ratio"]))
    xn = ctx.name(x)
    if nhwc:
        xn = ctx.one("Transpose", [xn], perm=[0, 3, 1, 2])
    per_clip = ctx.one("Concat", [ctx.ints([-1, t]), _slice(ctx, _shape_of(ctx, xn), [1], [4], [0])], axis=0)
    seq = ctx.one("Reshape", [xn, per_clip])   # [N, T, C, H, W]
    zero = ctx.constant(np.zeros([1] * 5, dtype=_np_dtype(x)))
    pad_shape = ctx.one("Concat", [_slice(ctx, _shape_of(ctx, seq), [0], [1], [0]), ctx.ints([1]),
                                   _slice(ctx, _shape_of(ctx, seq), [2], [5], [0])], axis=0)
    zeros = ctx.one("Expand", [zero, pad_shape])
    padded = ctx.one("Concat", [zeros, seq, zeros], axis=1)   # [N, T + 2, C, H, W]
    back = _slice(ctx, _slice(ctx, padded, [0], [t], [1]), [0], [c1], [2])          # from t - 1
    fwd = _slice(ctx, _slice(ctx, padded, [2], [t + 2], [1]), [c1], [c2], [2])      # from t + 1
    same = _slice(ctx, seq, [c2], [c], [2])
    y = ctx.one("Reshape", [ctx.one("Concat", [back, fwd, same], axis=2), _shape_of(ctx, xn)])
    if nhwc:
        y = ctx.one("Transpose", [y], perm=[0, 2, 3, 1])
    ctx.one("Identity", [y], outs[0])
