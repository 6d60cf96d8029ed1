"""ONNX lowerings of math that ONNX has no operator for, written with the ones it has:
atan2, hypot, logaddexp, copysign, signbit, erfinv, and the closeness tests (isclose,
allclose, equal_all)."""

from __future__ import annotations

import math

import numpy as np
import torch

from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext, onnx_dtype
from pagaie.onnx.lowerings._common import _as_out_dtype, _cast_to, _DtypeRef, _out_dtype, _scalar, register


def _ref(ctx: LoweringContext, v: Value) -> Value:
    """A stand-in for ``v`` with the output's dtype, for constants of that dtype."""
    return v if v._t.dtype == _out_dtype(ctx) else _DtypeRef(_out_dtype(ctx))


@register("atan2")
def _atan2(ctx, a, outs):
    x, y = a["x"], a["y"]
    num, den = _as_out_dtype(ctx, x), _as_out_dtype(ctx, y)
    r = _ref(ctx, x)
    zero, pi = _scalar(ctx, 0.0, r), _scalar(ctx, math.pi, r)
    ratio = ctx.one("Div", [num, den])
    if _out_dtype(ctx) == torch.float64:   # onnxruntime has no float64 Atan
        ratio = _cast_to(ctx, ratio, torch.float64, torch.float32)
        base = _cast_to(ctx, ctx.one("Atan", [ratio]), torch.float32, torch.float64)
    else:
        base = ctx.one("Atan", [ratio])
    # quadrants left of the y axis: +pi above (or on) the x axis, -pi below
    shift = ctx.one("Mul", [_copysign_one(ctx, num, r), pi])
    left = ctx.one("Add", [base, shift])
    on_axis = ctx.one("Mul", [ctx.one("Sign", [num]), _scalar(ctx, math.pi / 2, r)])
    y_zero = ctx.one("Equal", [den, zero])
    res = ctx.one("Where", [ctx.one("Less", [den, zero]), left, base])
    ctx.one("Where", [y_zero, ctx.one("Where", [ctx.one("Equal", [num, zero]),
                                                _num_on_zero(ctx, num, den, r), on_axis]), res], outs[0])


def _num_on_zero(ctx: LoweringContext, num: str, den: str, r: object) -> str:
    """atan2(+-0, +-0): 0 with the numerator's sign, pi with it when the denominator is -0."""
    neg_den = _signbit_of(ctx, den, r)
    pi = ctx.one("Mul", [_copysign_one(ctx, num, r), _scalar(ctx, math.pi, r)])
    return ctx.one("Where", [neg_den, pi, num])


def _signbit_of(ctx: LoweringContext, xn: str, r: object) -> str:
    """Whether ``xn``'s sign bit is set (``-0.0`` included: ``1 / -0.0`` is ``-inf``)."""
    zero = _scalar(ctx, 0.0, r)
    neg = ctx.one("Less", [xn, zero])
    neg_zero = ctx.one("And", [ctx.one("Equal", [xn, zero]),
                               ctx.one("Less", [ctx.one("Div", [_scalar(ctx, 1.0, r), xn]), zero])])
    return ctx.one("Or", [neg, neg_zero])


def _copysign_one(ctx: LoweringContext, xn: str, r: object) -> str:
    return ctx.one("Where", [_signbit_of(ctx, xn, r), _scalar(ctx, -1.0, r), _scalar(ctx, 1.0, r)])


@register("signbit")
def _signbit(ctx, a, outs):
    x = a["x"]
    if not x._t.is_floating_point():
        ctx.one("Less", [ctx.name(x), _scalar(ctx, 0, x)], outs[0])
        return
    ctx.one("Identity", [_signbit_of(ctx, ctx.name(x), x)], outs[0])


@register("copysign")
def _copysign(ctx, a, outs):
    x, y = a["x"], a["y"]
    r = _ref(ctx, x)
    mag = ctx.one("Abs", [_as_out_dtype(ctx, x)])
    ctx.one("Mul", [mag, _copysign_one(ctx, _as_out_dtype(ctx, y), r)], outs[0])


@register("hypot")
def _hypot(ctx, a, outs):
    x, y = _as_out_dtype(ctx, a["x"]), _as_out_dtype(ctx, a["y"])
    ctx.one("Sqrt", [ctx.one("Add", [ctx.one("Mul", [x, x]), ctx.one("Mul", [y, y])])], outs[0])


@register("logaddexp")
def _logaddexp(ctx, a, outs):
    x, y = a["x"], a["y"]
    xn, yn = _as_out_dtype(ctx, x), _as_out_dtype(ctx, y)
    r = _ref(ctx, x)
    hi = ctx.one("Max", [xn, yn])
    gap = ctx.one("Neg", [ctx.one("Abs", [ctx.one("Sub", [xn, yn])])])
    tail = ctx.one("Log", [ctx.one("Add", [_scalar(ctx, 1.0, r), ctx.one("Exp", [gap])])])
    s = ctx.one("Add", [hi, tail])
    # equal infinities: their difference is NaN, the sum is that infinity
    ctx.one("Where", [ctx.one("Equal", [xn, yn]), ctx.one("Add", [xn, _scalar(ctx, math.log(2.0), r)]), s],
            outs[0])


# Giles' single-precision approximation of erfinv (w = -log(1 - x^2)), refined by one Newton step
_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                   -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _horner(ctx: LoweringContext, w: str, coefs: tuple, r: object) -> str:
    p = _scalar(ctx, coefs[0], r)
    for c in coefs[1:]:
        p = ctx.one("Add", [ctx.one("Mul", [p, w]), _scalar(ctx, c, r)])
    return p


@register("erfinv")
def _erfinv(ctx, a, outs):
    x = a["x"]
    xn = _as_out_dtype(ctx, x)
    r = _ref(ctx, x)
    one = _scalar(ctx, 1.0, r)
    w = ctx.one("Neg", [ctx.one("Log", [ctx.one("Mul", [ctx.one("Sub", [one, xn]), ctx.one("Add", [one, xn])])])])
    central = _horner(ctx, ctx.one("Sub", [w, _scalar(ctx, 2.5, r)]), _ERFINV_CENTRAL, r)
    tail = _horner(ctx, ctx.one("Sub", [ctx.one("Sqrt", [w]), _scalar(ctx, 3.0, r)]), _ERFINV_TAIL, r)
    y = ctx.one("Mul", [ctx.one("Where", [ctx.one("Less", [w, _scalar(ctx, 5.0, r)]), central, tail]), xn])
    # one Newton step on erf(y) = x
    slope = ctx.one("Mul", [_scalar(ctx, 2.0 / math.sqrt(math.pi), r),
                            ctx.one("Exp", [ctx.one("Neg", [ctx.one("Mul", [y, y])])])])
    y = ctx.one("Sub", [y, ctx.one("Div", [ctx.one("Sub", [ctx.one("Erf", [y]), xn]), slope])])
    edge = ctx.one("Equal", [ctx.one("Abs", [xn]), one])   # erfinv(+-1) = +-inf
    ctx.one("Where", [edge, ctx.one("Mul", [xn, _scalar(ctx, math.inf, r)]), y], outs[0])


def _close(ctx: LoweringContext, a: dict) -> str:
    """Where ``x`` and ``y`` are close: equal, or a finite gap within atol + rtol * |y|."""
    x, y = a["x"], a["y"]
    xn, yn = ctx.name(x), ctx.name(y)
    gap = ctx.one("Abs", [ctx.one("Sub", [xn, yn])])
    allowed = ctx.one("Add", [_scalar(ctx, float(a["atol"]), x),
                              ctx.one("Mul", [_scalar(ctx, float(a["rtol"]), x), ctx.one("Abs", [yn])])])
    finite = ctx.one("Not", [ctx.one("Or", [ctx.one("IsInf", [gap]), ctx.one("IsNaN", [gap])])])
    close = ctx.one("Or", [ctx.one("Equal", [xn, yn]), ctx.one("And", [finite, ctx.one("LessOrEqual", [gap, allowed])])])
    if a["equal_nan"]:
        close = ctx.one("Or", [close, ctx.one("And", [ctx.one("IsNaN", [xn]), ctx.one("IsNaN", [yn])])])
    return close


def _all(ctx: LoweringContext, cond: str, out: str) -> None:
    """A 0-D bool: whether every element of ``cond`` is true."""
    as_int = ctx.one("Cast", [cond], to=onnx_dtype(torch.int32))   # ReduceMin takes no bool
    ctx.one("Cast", [ctx.one("ReduceMin", [as_int], keepdims=0)], out, to=onnx_dtype(torch.bool))


@register("isclose")
def _isclose(ctx, a, outs):
    ctx.one("Identity", [_close(ctx, a)], outs[0])


@register("allclose")
def _allclose(ctx, a, outs):
    _all(ctx, _close(ctx, a), outs[0])


@register("equal_all")
def _equal_all(ctx, a, outs):
    x, y = a["x"], a["y"]
    dx, dy = x._known_dims(), y._known_dims()
    if len(dx) != len(dy) or any(p >= 0 and q >= 0 and p != q for p, q in zip(dx, dy)):
        ctx.one("Identity", [ctx.constant(np.asarray(False))], outs[0])   # shapes differ: False
        return
    _all(ctx, ctx.one("Equal", [ctx.name(x), ctx.name(y)]), outs[0])

