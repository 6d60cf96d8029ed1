"""ONNX lowerings of products, diagonals, norms and distances: t / matrix_transpose, outer,
inner, cross, kron, tensordot, bilinear, diag, diagonal, diag_embed, trace,
vector_norm, matrix_norm, dist, cdist and pairwise_distance."""

from __future__ import annotations

import numpy as np

from pagaie._core import dtype as _dt
from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _axis, _cast_to, _dim, _ndim, _need, _np_dtype, _range_to, _reduce_to, _scalar, _shape_of, _slice,
    _sq, _unsq, register)
from pagaie.onnx.lowerings.reductions import _p_norm


def _swap_last(nd: int) -> list[int]:
    return list(range(nd - 2)) + [nd - 1, nd - 2]


@register("t")
def _t(ctx, a, outs):
    x = a["input"]
    nd = _ndim(x)
    if nd < 2:
        ctx.one("Identity", [ctx.name(x)], outs[0])
    else:
        ctx.one("Transpose", [ctx.name(x)], outs[0], perm=[1, 0])


@register("matrix_transpose")
def _matrix_transpose(ctx, a, outs):
    x = a["x"]
    ctx.one("Transpose", [ctx.name(x)], outs[0], perm=_swap_last(_ndim(x)))


@register("outer")
def _outer(ctx, a, outs):
    col = ctx.one("Reshape", [ctx.name(a["x"]), ctx.ints([-1, 1])])
    ctx.one("Mul", [col, ctx.one("Reshape", [ctx.name(a["y"]), ctx.ints([1, -1])])], outs[0])


def _lead(ctx: LoweringContext, name: str, nd: int, drop: int, first: bool) -> str:
    """The shape of ``name`` without its first (``first``) or last ``drop`` axes."""
    shape = _shape_of(ctx, name)
    return _slice(ctx, shape, [drop], [nd], [0]) if first else _slice(ctx, shape, [0], [nd - drop], [0])


@register("inner")
def _inner(ctx, a, outs):
    x, y = a["x"], a["y"]
    xn, yn = ctx.name(x), ctx.name(y)
    nx, ny = _ndim(x), _ndim(y)
    if nx == 0 or ny == 0:
        ctx.one("Mul", [xn, yn], outs[0])
        return
    y2 = ctx.one("Reshape", [yn, ctx.ints([-1, y._known_dims()[-1] if y._known_dims()[-1] >= 0 else 0])]) \
        if ny != 2 else yn
    prod = ctx.one("MatMul", [xn, ctx.one("Transpose", [y2], perm=[1, 0])])
    shape = ctx.one("Concat", [_lead(ctx, xn, nx, 1, False), _lead(ctx, yn, ny, 1, False)], axis=0)
    ctx.one("Reshape", [prod, shape], outs[0])


@register("cross")
def _cross(ctx, a, outs):
    x, y = a["x"], a["y"]
    nd = _ndim(x)
    axis = a["axis"]
    if axis is None or int(axis) == 9:   # Paddle's default: the first axis of size 3
        axis = next((i for i, d in enumerate(x._known_dims()) if d == 3), None)
        if axis is None:
            raise NotImplementedError("paddle.onnx.export: cross needs an axis of known size 3")
    axis = _axis(int(axis), nd)
    xn, yn = ctx.name(x), ctx.name(y)
    i1, i2 = ctx.ints([1, 2, 0]), ctx.ints([2, 0, 1])

    def g(n: str, i: str) -> str:
        return ctx.one("Gather", [n, i], axis=axis)
    ctx.one("Sub", [ctx.one("Mul", [g(xn, i1), g(yn, i2)]), ctx.one("Mul", [g(xn, i2), g(yn, i1)])], outs[0])


@register("kron")
def _kron(ctx, a, outs):
    x, y = a["x"], a["y"]
    nd = max(_ndim(x), _ndim(y))
    xn, yn = ctx.name(x), ctx.name(y)
    if _ndim(x) < nd:
        xn = _unsq(ctx, xn, list(range(nd - _ndim(x))))
    if _ndim(y) < nd:
        yn = _unsq(ctx, yn, list(range(nd - _ndim(y))))
    # x's axes at even positions, y's at odd ones: the product's axis pairs flatten into kron's
    prod = ctx.one("Mul", [_unsq(ctx, xn, [2 * i + 1 for i in range(nd)]),
                           _unsq(ctx, yn, [2 * i for i in range(nd)])])
    ctx.one("Reshape", [prod, ctx.one("Mul", [_shape_of(ctx, xn), _shape_of(ctx, yn)])], outs[0])


@register("tensordot")
def _tensordot(ctx, a, outs):
    x, y, axes = a["x"], a["y"], a["axes"]
    nx, ny = _ndim(x), _ndim(y)
    if isinstance(axes, Value):
        raise NotImplementedError("paddle.onnx.export: tensordot with tensor axes is not supported")
    if isinstance(axes, int):
        ax, ay = list(range(nx - axes, nx)), list(range(axes))
    else:
        axes = [list(e) if isinstance(e, (list, tuple)) else [e] for e in axes]
        ax = [_axis(int(i), nx) for i in axes[0]]
        ay = [_axis(int(i), ny) for i in (axes[1] if len(axes) > 1 else axes[0])]
    fx = [i for i in range(nx) if i not in ax]
    fy = [i for i in range(ny) if i not in ay]
    xt = ctx.one("Transpose", [ctx.name(x)], perm=fx + ax)
    yt = ctx.one("Transpose", [ctx.name(y)], perm=ay + fy)
    k = len(ax)
    sx, sy = _shape_of(ctx, xt), _shape_of(ctx, yt)
    kept_x = _slice(ctx, sx, [0], [nx - k], [0])
    kept_y = _slice(ctx, sy, [k], [ny], [0])
    x2 = ctx.one("Reshape", [xt, ctx.one("Concat", [_prod(ctx, kept_x), ctx.ints([-1])], axis=0)])
    y2 = ctx.one("Reshape", [yt, ctx.one("Concat", [ctx.ints([-1]), _prod(ctx, kept_y)], axis=0)])
    ctx.one("Reshape", [ctx.one("MatMul", [x2, y2]), ctx.one("Concat", [kept_x, kept_y], axis=0)], outs[0])


def _prod(ctx: LoweringContext, sizes: str) -> str:
    """The product of a 1-D int64 list of sizes, as a 1-D tensor of one element (1 if empty)."""
    return ctx.one("ReduceProd", [ctx.one("Concat", [sizes, ctx.ints([1])], axis=0)], keepdims=1)


@register("bilinear")
def _bilinear(ctx, a, outs):
    _need(ctx, 12, "bilinear (Einsum)")
    x1 = a["x1"]
    y = ctx.one("Einsum", [ctx.name(x1), ctx.name(a["weight"]), ctx.name(a["x2"])], equation="ni,oij,nj->no")
    if a["bias"] is not None:
        y = ctx.one("Add", [y, ctx.name(a["bias"])])
    ctx.one("Identity", [y], outs[0])


# ---- diagonals ------------------------------------------------------------------------
def _diag_positions(n1: int, n2: int, offset: int) -> np.ndarray:
    """Flat positions (row * n2 + col) of a ``[n1, n2]`` matrix's ``offset`` diagonal."""
    rows = np.arange(max(0, -offset), n1)
    cols = rows + offset
    keep = (cols >= 0) & (cols < n2)
    return (rows[keep] * n2 + cols[keep]).astype(np.int64)


def _diagonal_of(ctx: LoweringContext, x: Value, offset: int, axis1: int, axis2: int) -> str:
    """``x``'s diagonal over ``axis1``/``axis2``, as a new last axis (the others in order)."""
    nd = _ndim(x)
    a1, a2 = _axis(axis1, nd), _axis(axis2, nd)
    dims = x._known_dims()
    n1, n2 = dims[a1], dims[a2]
    if n1 < 0 or n2 < 0:
        raise NotImplementedError("paddle.onnx.export: the diagonal of axes of unknown size is not supported")
    rest = [i for i in range(nd) if i not in (a1, a2)]
    xt = ctx.one("Transpose", [ctx.name(x)], perm=rest + [a1, a2])
    shape = _shape_of(ctx, xt)
    flat = ctx.one("Reshape", [xt, ctx.one("Concat", [_slice(ctx, shape, [0], [nd - 2], [0]), ctx.ints([-1])],
                                           axis=0)])
    return ctx.one("Gather", [flat, ctx.constant(_diag_positions(n1, n2, offset))], axis=nd - 2)


@register("diagonal")
def _diagonal(ctx, a, outs):
    ctx.one("Identity", [_diagonal_of(ctx, a["x"], int(a["offset"]), int(a["axis1"]), int(a["axis2"]))], outs[0])


@register("trace")
def _trace(ctx, a, outs):
    x = a["x"]
    d = _diagonal_of(ctx, x, int(a["offset"]), int(a["axis1"]), int(a["axis2"]))
    _reduce_to(ctx, "ReduceSum", d, [_ndim(x) - 2], False, outs[0])


@register("diag")
def _diag(ctx, a, outs):
    x, offset = a["x"], int(a["offset"])
    if _ndim(x) == 2:
        ctx.one("Identity", [_diagonal_of(ctx, x, offset, 0, 1)], outs[0])
        return
    xn = ctx.one("Reshape", [ctx.name(x), ctx.ints([-1])])
    _need(ctx, 11, "diag of a vector")
    k = abs(offset)
    n = ctx.one("Add", [_sq(ctx, _dim(ctx, xn, 0), [0]), ctx.constant(np.asarray(k, np.int64))])
    idx = _range_to(ctx, n)
    rows, cols = _unsq(ctx, idx, [1]), _unsq(ctx, idx, [0])
    on = ctx.one("Equal", [ctx.one("Sub", [cols, rows]), ctx.constant(np.asarray(offset, np.int64))])
    # the element of row i is x[i] above the main diagonal, x[j] below it
    src = rows if offset >= 0 else cols
    pos = ctx.one("Min", [src, ctx.one("Sub", [_dim(ctx, xn, 0), ctx.ints([1])])])
    vals = ctx.one("Gather", [xn, pos], axis=0)
    pad = ctx.constant(np.asarray(a["padding_value"], dtype=_np_dtype(x)))
    ctx.one("Where", [on, vals, pad], outs[0])


# ---- distances ------------------------------------------------------------------------
@register("pairwise_distance")
def _pairwise_distance(ctx, a, outs):
    x = a["x"]
    d = ctx.one("Add", [ctx.one("Sub", [ctx.name(x), ctx.name(a["y"])]), _scalar(ctx, float(a["epsilon"]), x)])
    nd = max(_ndim(x), _ndim(a["y"]))
    _p_norm(ctx, x, d, float(a["p"]), [nd - 1], bool(a["keepdim"]), outs[0])


@register("dist")
def _dist(ctx, a, outs):
    x = a["x"]
    d = ctx.one("Sub", [ctx.name(x), ctx.name(a["y"])])
    nd = max(_ndim(x), _ndim(a["y"]))
    flat = ctx.one("Reshape", [d, ctx.ints([-1])]) if nd != 1 else d
    _p_norm(ctx, x, flat, float(a["p"]), [0], False, outs[0])


@register("cdist")
def _cdist(ctx, a, outs):
    x, y = a["x"], a["y"]
    nd = _ndim(x)
    d = ctx.one("Sub", [_unsq(ctx, ctx.name(x), [nd - 1]), _unsq(ctx, ctx.name(y), [nd - 2])])
    _p_norm(ctx, x, d, float(a["p"]), [nd], False, outs[0])



@register("vector_norm")
def _vector_norm(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    if a.get("dtype") is not None:
        xn = _cast_to(ctx, xn, x._t.dtype, _dt.to_torch_dtype(a["dtype"]))
    axis = a["axis"]
    nd = _ndim(x)
    axes = list(range(nd)) if axis is None else \
        sorted({_axis(int(i), nd) for i in ([axis] if isinstance(axis, int) else axis)})
    _p_norm(ctx, x, xn, float(a["p"]) if not isinstance(a["p"], str) else a["p"], axes, bool(a["keepdim"]),
            outs[0])


@register("matrix_norm")
def _matrix_norm(ctx, a, outs):
    x, p = a["x"], a["p"]
    nd = _ndim(x)
    r, c = (_axis(int(i), nd) for i in a["axis"])
    keep = bool(a["keepdim"])
    xn = ctx.name(x)
    if p == "fro":
        _reduce_to(ctx, "ReduceL2", xn, sorted([r, c]), keep, outs[0])
        return
    if p in (1, -1, float("inf"), float("-inf")):
        # 1: the largest column sum of |x| (summed over the rows); inf: the largest row sum
        summed, kept = (r, c) if p in (1, -1) else (c, r)
        sums = _reduce_to(ctx, "ReduceSum", ctx.one("Abs", [xn]), [summed], True)
        op = "ReduceMax" if p > 0 else "ReduceMin"
        y = _reduce_to(ctx, op, sums, [kept], True)
        ctx.one("Identity", [y if keep else _sq(ctx, y, sorted([r, c]))], outs[0])
        return
    raise NotImplementedError(f"paddle.onnx.export: matrix_norm with p={p!r} (singular values) is not supported")


@register("diag_embed")
def _diag_embed(ctx, a, outs):
    x, offset = a["input"], int(a["offset"])
    nd = _ndim(x)
    length = x._known_dims()[-1]
    if length < 0:
        raise NotImplementedError("paddle.onnx.export: diag_embed needs the last axis' size known")
    n = length + abs(offset)
    rows = np.arange(length) + max(0, -offset)
    pos = ctx.constant((rows * n + rows + offset).astype(np.int64))   # flat [i, j] with j - i = offset
    xn = ctx.name(x)
    lead = _slice(ctx, _shape_of(ctx, xn), [0], [nd - 1], [0])
    zero = ctx.constant(np.zeros(1, dtype=_np_dtype(x)))
    base = ctx.one("Expand", [zero, ctx.one("Concat", [lead, ctx.ints([n * n])], axis=0)])
    flat = ctx.one("ScatterElements", [base, ctx.one("Expand", [pos, _shape_of(ctx, xn)]), xn], axis=nd - 1)
    y = ctx.one("Reshape", [flat, ctx.one("Concat", [lead, ctx.ints([n, n])], axis=0)])
    out_nd = nd + 1
    d1, d2 = _axis(int(a["dim1"]), out_nd), _axis(int(a["dim2"]), out_nd)
    if (d1, d2) != (out_nd - 2, out_nd - 1):
        rest = iter(range(out_nd - 2))
        perm = [out_nd - 2 if q == d1 else out_nd - 1 if q == d2 else next(rest) for q in range(out_nd)]
        y = ctx.one("Transpose", [y], perm=perm)
    ctx.one("Identity", [y], outs[0])
