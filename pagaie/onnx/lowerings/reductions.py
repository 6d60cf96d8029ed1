"""ONNX lowerings: reductions, search and scans."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext, onnx_dtype
from pagaie.onnx.lowerings._common import (
    _as_1d_int64, _axes_of, _axis, _cast_to, _dim, _DtypeRef, _finish, _ndim, _need, _out_dtype,
    _reduce_to, _scalar, _shape_of, register)


# ---- reductions, search, scans -------------------------------------------------------
def _reduce(op_type: str) -> Callable:
    def lower(ctx, a, outs):
        x = a["x"]
        if a.get("dtype") is not None:
            x_name = ctx.one("Cast", [ctx.name(x)], to=onnx_dtype(a["dtype"]))
        else:
            x_name = ctx.name(x)
        axis = a["axis"]
        nd = _ndim(x)
        axes = list(range(nd)) if axis is None or axis == [] else \
            [_axis(int(i), nd) for i in ([axis] if isinstance(axis, int) else axis)]
        keep = 1 if a["keepdim"] else 0
        if op_type == "ReduceSum" and ctx.opset >= 13 or ctx.opset >= 18:
            ctx.one(op_type, [x_name, ctx.ints(axes)], outs[0], keepdims=keep)
        else:
            ctx.one(op_type, [x_name], outs[0], axes=axes, keepdims=keep)
    return lower


register("mean")(_reduce("ReduceMean"))


def _reduce_general(op_type: str, pre: str | None = None) -> Callable:
    def lower(ctx, a, outs):
        x = a["x"]
        xn = ctx.name(x)
        src = x._t.dtype
        if a.get("dtype") is not None:
            import torch
            from pagaie._core import dtype as _dt
            dst = _dt.to_torch_dtype(a["dtype"])
            xn, src = _cast_to(ctx, xn, src, dst), dst
        elif op_type in ("ReduceSum", "ReduceProd") and not x._t.is_floating_point() \
                and _out_dtype(ctx) != src:
            xn, src = _cast_to(ctx, xn, src, _out_dtype(ctx)), _out_dtype(ctx)
        if pre == "bool":  # all/any over float32 0/1
            import torch
            xn = _cast_to(ctx, _cast_to(ctx, xn, src, torch.bool), torch.bool, torch.float32)
            src = torch.float32
        r = _reduce_to(ctx, op_type, xn, _axes_of(a["axis"], _ndim(x)), bool(a["keepdim"]))
        _finish(ctx, r, src, outs[0])
    return lower


register("prod")(_reduce_general("ReduceProd"))
register("amax")(_reduce_general("ReduceMax"))
register("amin")(_reduce_general("ReduceMin"))
register("logsumexp")(_reduce_general("ReduceLogSumExp"))
register("all")(_reduce_general("ReduceMin", "bool"))
register("any")(_reduce_general("ReduceMax", "bool"))
register("sum")(_reduce_general("ReduceSum"))
register("max")(_reduce_general("ReduceMax"))
register("min")(_reduce_general("ReduceMin"))


def _count(ctx: LoweringContext, xn: str, axes: list[int], ref: Value) -> str:
    """How many elements ``axes`` of ``xn`` hold, as a scalar of ``ref``'s dtype (dynamic)."""
    sizes = ctx.one("Gather", [_shape_of(ctx, xn), ctx.ints(axes)], axis=0)
    n = ctx.one("ReduceProd", [sizes], keepdims=0)
    return ctx.one("Cast", [n], to=onnx_dtype(ref._t.dtype))


def _var_std(sqrt: bool) -> Callable:
    def lower(ctx, a, outs):
        x = a["x"]
        xn = ctx.name(x)
        axes = _axes_of(a["axis"], _ndim(x))
        unbiased = a.get("unbiased")
        corr = (1 if unbiased else 0) if unbiased is not None else int(a.get("correction", 1) or 0)
        mean = _reduce_to(ctx, "ReduceMean", xn, axes, True)
        d = ctx.one("Sub", [xn, mean])
        ss = _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [d, d]), axes, bool(a["keepdim"]))
        n = _count(ctx, xn, axes, x)
        if corr:
            n = ctx.one("Sub", [n, _scalar(ctx, corr, x)])
        v = ctx.one("Div", [ss, n], None if sqrt else outs[0])
        if sqrt:
            ctx.one("Sqrt", [v], outs[0])
    return lower


register("var")(_var_std(False))
register("std")(_var_std(True))


def _p_norm(ctx: LoweringContext, x: Value, xn: str, p: Any, axes: list[int], keep: bool,
            out: str | None = None) -> str:
    if p in (None, "fro", 2, 2.0):
        return _reduce_to(ctx, "ReduceL2", xn, axes, keep, out)
    if p in (1, 1.0):
        return _reduce_to(ctx, "ReduceL1", xn, axes, keep, out)
    if p in (math.inf, "inf"):
        return _reduce_to(ctx, "ReduceMax", ctx.one("Abs", [xn]), axes, keep, out)
    if p in (-math.inf, "-inf"):
        return _reduce_to(ctx, "ReduceMin", ctx.one("Abs", [xn]), axes, keep, out)
    if p in (0, 0.0):
        nz = ctx.one("Cast", [ctx.one("Not", [ctx.one("Equal", [xn, _scalar(ctx, 0, x)])])],
                     to=onnx_dtype(x._t.dtype))
        return _reduce_to(ctx, "ReduceSum", nz, axes, keep, out)
    if isinstance(p, str):
        raise NotImplementedError(f"paddle.onnx.export: norm with p={p!r} is not supported")
    s = _reduce_to(ctx, "ReduceSum", ctx.one("Pow", [ctx.one("Abs", [xn]), _scalar(ctx, float(p), x)]),
                   axes, keep)
    return ctx.one("Pow", [s, _scalar(ctx, 1.0 / float(p), x)], out)


@register("norm")
def _norm(ctx, a, outs):
    x = a["x"]
    if a.get("dtype") is not None:
        raise NotImplementedError("paddle.onnx.export: norm with dtype is not supported")
    axis = a["axis"]
    if isinstance(axis, (list, tuple)) and len(axis) == 2 and a["p"] not in (None, "fro", 2, 2.0, 1, 1.0):
        raise NotImplementedError(f"paddle.onnx.export: matrix norm with p={a['p']!r} is not supported")
    _p_norm(ctx, x, ctx.name(x), a["p"], _axes_of(axis, _ndim(x)), bool(a["keepdim"]), outs[0])


@register("normalize")
def _normalize(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    n = _p_norm(ctx, x, xn, float(a["p"]), [_axis(int(a["axis"]), _ndim(x))], True)
    ctx.one("Div", [xn, ctx.one("Max", [n, _scalar(ctx, float(a["epsilon"]), x)])], outs[0])


def _arg(op_type: str) -> Callable:
    def lower(ctx, a, outs):
        import torch
        x = a["x"]
        xn, axis, keep = ctx.name(x), a["axis"], bool(a["keepdim"])
        if axis is None:
            r = ctx.one(op_type, [ctx.one("Reshape", [xn, ctx.ints([-1])])], axis=0, keepdims=0)
            if keep:
                r = ctx.one("Reshape", [r, ctx.ints([1] * _ndim(x))])
        else:
            r = ctx.one(op_type, [xn], axis=_axis(int(axis), _ndim(x)), keepdims=1 if keep else 0)
        _finish(ctx, r, torch.int64, outs[0])
    return lower


register("argmax")(_arg("ArgMax"))
register("argmin")(_arg("ArgMin"))


def _topk_node(ctx: LoweringContext, xn: str, k: str, axis: int, largest: bool, outs: list[str]) -> None:
    if ctx.opset >= 11:
        ctx.node("TopK", [xn, k], outs, axis=axis, largest=1 if largest else 0, sorted=1)
    else:
        if not largest:
            _need(ctx, 11, "smallest-k / ascending sort")
        _need(ctx, 10, "topk with a dynamic k")
        ctx.node("TopK", [xn, k], outs, axis=axis)


@register("topk")
def _topk(ctx, a, outs):
    x = a["x"]
    axis = _axis(int(a["axis"]) if a["axis"] is not None else -1, _ndim(x))
    k = a["k"]
    if ctx.opset < 10:
        if isinstance(k, Value) or not a["largest"]:
            _need(ctx, 10, "topk with a tensor k or largest=False")
        ctx.node("TopK", [ctx.name(x)], outs, axis=axis, k=int(k))
        return
    _topk_node(ctx, ctx.name(x), _as_1d_int64(ctx, k), axis, bool(a["largest"]), outs)


def _sort_like(want: str) -> Callable:
    def lower(ctx, a, outs):
        import torch
        x = a["x"]
        xn = ctx.name(x)
        if _ndim(x) == 0:
            if want == "values":
                ctx.one("Identity", [xn], outs[0])
            else:
                ctx.one("Constant", [], outs[0], value=ctx.numpy_helper.from_array(np.asarray(0, np.int64)))
            return
        axis = _axis(int(a["axis"]), _ndim(x))
        _need(ctx, 10, "sort/argsort")
        vals, idx = ctx.fresh("sorted"), ctx.fresh("order")
        _topk_node(ctx, xn, _dim(ctx, xn, axis), axis, bool(a["descending"]), [vals, idx])
        if want == "values":
            ctx.one("Identity", [vals], outs[0])
        elif want == "indices":
            _finish(ctx, idx, torch.int64, outs[0])
        else:
            ctx.one("Identity", [vals], outs[0])
            _finish(ctx, idx, torch.int64, outs[1], 1)
    return lower


register("sort")(_sort_like("values"))
register("argsort")(_sort_like("indices"))


@register("cumsum")
def _cumsum(ctx, a, outs):
    _need(ctx, 11, "the op 'cumsum'")
    x = a["x"]
    xn, src = ctx.name(x), x._t.dtype
    if a.get("dtype") is not None or _out_dtype(ctx) != src:
        xn, src = _cast_to(ctx, xn, src, _out_dtype(ctx)), _out_dtype(ctx)
    axis = a["axis"]
    if axis is None:
        xn, axis = ctx.one("Reshape", [xn, ctx.ints([-1])]), 0
    ctx.one("CumSum", [xn, ctx.constant(np.asarray(_axis(int(axis), max(_ndim(x), 1)), np.int64))], outs[0])


def _scan_input(ctx: LoweringContext, x: Value, axis: Any, dst: Any = None) -> tuple[str, int]:
    """``x`` (cast to ``dst`` when given) and the scan axis; flattened when ``axis`` is None."""
    xn = ctx.name(x)
    if dst is not None:
        xn = _cast_to(ctx, xn, x._t.dtype, dst)
    if axis is None:
        return ctx.one("Reshape", [xn, ctx.ints([-1])]), 0
    return xn, _axis(int(axis), max(_ndim(x), 1))


@register("cumprod")
def _cumprod(ctx, a, outs):
    import torch
    _need(ctx, 11, "the op 'cumprod'")
    x, out_dt = a["x"], _out_dtype(ctx)
    # a product as exp(cumsum(log|x|)), its sign from the count of negatives, 0 from the first 0;
    # integers go through float64 and are rounded back
    work = out_dt if out_dt.is_floating_point else torch.float64
    xn, axis = _scan_input(ctx, x, a["dim"], work)
    ax = ctx.constant(np.asarray(axis, np.int64))
    ref = _DtypeRef(work)
    zero, one = _scalar(ctx, 0.0, ref), _scalar(ctx, 1.0, ref)
    is_zero = ctx.one("Equal", [xn, zero])
    mag = ctx.one("Exp", [ctx.one("CumSum", [ctx.one("Log", [ctx.one("Abs", [ctx.one("Where", [is_zero, one, xn])])]), ax])])
    negs = ctx.one("CumSum", [_cast_to(ctx, ctx.one("Less", [xn, zero]), torch.bool, torch.int64), ax])
    odd = ctx.one("Equal", [ctx.one("Mod", [negs, ctx.constant(np.asarray(2, np.int64))]),
                            ctx.constant(np.asarray(1, np.int64))])
    signed = ctx.one("Where", [odd, ctx.one("Neg", [mag]), mag])
    zeros_seen = ctx.one("CumSum", [_cast_to(ctx, is_zero, torch.bool, torch.int64), ax])
    y = ctx.one("Where", [ctx.one("Greater", [zeros_seen, ctx.constant(np.asarray(0, np.int64))]), zero, signed])
    if work != out_dt:
        y = ctx.one("Round", [y])
    _finish(ctx, y, work, outs[0])


@register("logcumsumexp")
def _logcumsumexp(ctx, a, outs):
    _need(ctx, 11, "the op 'logcumsumexp'")
    x = a["x"]
    xn, axis = _scan_input(ctx, x, a["axis"], _out_dtype(ctx))
    ref = _DtypeRef(_out_dtype(ctx))
    top = _reduce_to(ctx, "ReduceMax", xn, [axis], True)
    top = ctx.one("Where", [ctx.one("IsInf", [top]), _scalar(ctx, 0.0, ref), top])   # all -inf (or inf)
    s = ctx.one("CumSum", [ctx.one("Exp", [ctx.one("Sub", [xn, top])]), ctx.constant(np.asarray(axis, np.int64))])
    ctx.one("Add", [ctx.one("Log", [s]), top], outs[0])


def _nan_zeroed(ctx: LoweringContext, x: Value, xn: str) -> str:
    if not x._t.is_floating_point():
        return xn
    return ctx.one("Where", [ctx.one("IsNaN", [xn]), _scalar(ctx, 0, x), xn])


@register("nansum")
def _nansum(ctx, a, outs):
    x = a["x"]
    xn, src = ctx.name(x), x._t.dtype
    if _out_dtype(ctx) != src:
        xn, src = _cast_to(ctx, xn, src, _out_dtype(ctx)), _out_dtype(ctx)
    _reduce_to(ctx, "ReduceSum", _nan_zeroed(ctx, x, xn), _axes_of(a["axis"], _ndim(x)), bool(a["keepdim"]),
               outs[0])


@register("nanmean")
def _nanmean(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    axes, keep = _axes_of(a["axis"], _ndim(x)), bool(a["keepdim"])
    total = _reduce_to(ctx, "ReduceSum", _nan_zeroed(ctx, x, xn), axes, keep)
    kept = ctx.one("Cast", [ctx.one("Not", [ctx.one("IsNaN", [xn])])], to=onnx_dtype(x._t.dtype))
    ctx.one("Div", [total, _reduce_to(ctx, "ReduceSum", kept, axes, keep)], outs[0])


@register("count_nonzero")
def _count_nonzero(ctx, a, outs):
    import torch
    x = a["x"]
    nz = ctx.one("Not", [ctx.one("Equal", [ctx.name(x), _scalar(ctx, 0, x)])])
    counts = _cast_to(ctx, nz, torch.bool, torch.int64)
    _reduce_to(ctx, "ReduceSum", counts, _axes_of(a["axis"], _ndim(x)), bool(a["keepdim"]), outs[0])
