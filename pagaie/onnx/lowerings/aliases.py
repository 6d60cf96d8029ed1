"""ONNX lowerings of ops that are another op under other argument names or with some
arguments fixed (permute is transpose, hstack is concat, upsample is interpolate...), and
of small elementwise identities (deg2rad, fmax, sinc, isposinf...)."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from pagaie._core.registry import REGISTRY
from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _as_out_dtype, _axis, _DtypeRef, _ndim, _out_dtype, _reduce_to, _scalar, _slice, _unsq, register)


def _lower_as(ctx: LoweringContext, target: str, outs: list, **kwargs: Any) -> None:
    """Lower with ``target``'s lowering, its arguments bound from ``kwargs`` (defaults applied)."""
    rec = REGISTRY[target]
    rec.onnx(ctx, rec.bind((), kwargs).arguments, outs)


def _alias(target: str, rename: Callable[[dict], dict]) -> Callable:
    def lower(ctx, a, outs):
        _lower_as(ctx, target, outs, **rename(a))
    lower.__name__ = f"_as_{target}"
    return lower


register("permute")(_alias("transpose", lambda a: {"x": a["input"], "perm": list(a["dims"])}))
register("upsample")(_alias("interpolate", lambda a: {
    k: a[k] for k in ("x", "size", "scale_factor", "mode", "align_corners", "align_mode", "data_format")}))
register("zeropad2d")(_alias("pad", lambda a: {"x": a["x"], "pad": a["padding"], "data_format": a["data_format"]}))
register("split_with_sizes")(_alias("split", lambda a: {"x": a["self"], "num_or_sections": list(a["split_sizes"]),
                                                        "axis": a["dim"]}))


@register("positive", "detach")
def _identity(ctx, a, outs):
    ctx.one("Identity", [ctx.name(a["x"])], outs[0])


@register("ravel")
def _ravel(ctx, a, outs):
    ctx.one("Reshape", [ctx.name(a["input"]), ctx.ints([-1])], outs[0])


@register("view_as")
def _view_as(ctx, a, outs):
    ctx.one("Reshape", [ctx.name(a["x"]), ctx.one("Shape", [ctx.name(a["other"])])], outs[0])


@register("narrow")
def _narrow(ctx, a, outs):
    x = a["input"]
    axis = _axis(int(a["dim"]), _ndim(x))
    start, length = a["start"], a["length"]
    if isinstance(start, Value) or isinstance(length, Value):
        raise NotImplementedError("paddle.onnx.export: narrow with tensor start/length is not supported")
    start = int(start)
    if start < 0:
        d = x._known_dims()[axis]
        if d < 0:
            raise NotImplementedError("paddle.onnx.export: a negative narrow start over an unknown size")
        start += d
    ctx.one("Identity", [_slice(ctx, ctx.name(x), [start], [start + int(length)], [axis])], outs[0])


def _stack_like(axis_of: Callable[[int], int], lift: Callable[[int], list[int]]) -> Callable:
    """hstack / vstack / dstack / column_stack: concat after lifting low-rank inputs."""
    def lower(ctx, a, outs):
        xs = list(a["x"])
        names = []
        for v in xs:
            n = ctx.name(v)
            add = lift(_ndim(v))
            names.append(_unsq(ctx, n, add) if add else n)
        nd = max(_ndim(v) + len(lift(_ndim(v))) for v in xs)
        ctx.one("Concat", names, outs[0], axis=axis_of(nd))
    return lower


register("hstack")(_stack_like(lambda nd: 0 if nd == 1 else 1, lambda nd: [0] if nd == 0 else []))
register("vstack")(_stack_like(lambda nd: 0, lambda nd: [0, 1] if nd == 0 else [0] if nd == 1 else []))
register("dstack")(_stack_like(lambda nd: 2, lambda nd: [0, 1, 2] if nd == 0 else [0, 2] if nd == 1 else
                               [2] if nd == 2 else []))
register("column_stack")(_stack_like(lambda nd: 1, lambda nd: [0, 1] if nd == 0 else [1] if nd == 1 else []))


# ---- small elementwise identities -----------------------------------------------------
for _name, _factor in (("deg2rad", math.pi / 180.0), ("rad2deg", 180.0 / math.pi)):
    def _angle_scale(ctx: LoweringContext, a: dict, outs: list, _f: float = _factor) -> None:
        ctx.one("Mul", [_as_out_dtype(ctx, a["x"]), _scalar(ctx, _f, _DtypeRef(_out_dtype(ctx)))], outs[0])
    register(_name)(_angle_scale)


for _name, _op in (("fmax", "Max"), ("fmin", "Min")):
    def _nan_ignoring(ctx: LoweringContext, a: dict, outs: list, _o: str = _op) -> None:
        xn, yn = ctx.name(a["x"]), ctx.name(a["y"])
        if not a["x"]._t.is_floating_point():
            ctx.one(_o, [xn, yn], outs[0])
            return
        m = ctx.one(_o, [xn, yn])   # a NaN on one side yields the other side
        m = ctx.one("Where", [ctx.one("IsNaN", [xn]), yn, m])
        ctx.one("Where", [ctx.one("IsNaN", [yn]), xn, m], outs[0])
    register(_name)(_nan_ignoring)


@register("sinc")
def _sinc(ctx, a, outs):
    x = a["x"]
    xn = _as_out_dtype(ctx, x)
    r = _DtypeRef(_out_dtype(ctx))
    px = ctx.one("Mul", [xn, _scalar(ctx, math.pi, r)])
    zero = ctx.one("Equal", [xn, _scalar(ctx, 0.0, r)])
    safe = ctx.one("Where", [zero, _scalar(ctx, 1.0, r), px])
    ctx.one("Where", [zero, _scalar(ctx, 1.0, r), ctx.one("Div", [ctx.one("Sin", [safe]), safe])], outs[0])


@register("sgn")
def _sgn(ctx, a, outs):
    if a["x"]._t.is_complex():
        raise NotImplementedError("paddle.onnx.export: sgn of a complex tensor is not supported")
    ctx.one("Sign", [ctx.name(a["x"])], outs[0])


def _inf_test(positive: bool) -> Callable:
    def lower(ctx, a, outs):
        x = a["x"]
        if not x._t.is_floating_point():
            ctx.one("Identity", [ctx.one("Not", [ctx.one("Equal", [ctx.name(x), ctx.name(x)])])], outs[0])
            return
        ctx.one("IsInf", [ctx.name(x)], outs[0], detect_negative=0 if positive else 1,
                detect_positive=1 if positive else 0)
    return lower


register("isposinf")(_inf_test(True))
register("isneginf")(_inf_test(False))


@register("isreal")
def _isreal(ctx, a, outs):
    x = a["x"]
    if x._t.is_complex():
        raise NotImplementedError("paddle.onnx.export: isreal of a complex tensor is not supported")
    ctx.one("Expand", [ctx.constant(np.asarray(True)), ctx.one("Shape", [ctx.name(x)])], outs[0])


@register("add_n")
def _add_n(ctx, a, outs):
    xs = a["inputs"]
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    ctx.one("Sum", [ctx.name(v) for v in xs], outs[0])


@register("vecdot")
def _vecdot(ctx, a, outs):
    x, y = a["x"], a["y"]
    axis = _axis(int(a["axis"]), max(_ndim(x), _ndim(y)))
    _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [ctx.name(x), ctx.name(y)]), [axis], False, outs[0])
