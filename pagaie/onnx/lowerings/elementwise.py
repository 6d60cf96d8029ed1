"""ONNX lowerings: elementwise math, activations, softmax, comparisons and logic."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from pagaie._core.registry import REGISTRY
from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext, onnx_dtype
from pagaie.onnx.lowerings._common import (
    _axis, _cast_to, _ndim, _need, _out_dtype, _scalar, register)


# ---- elementwise -------------------------------------------------------------------
for _name, _onnx in (("relu", "Relu"), ("sigmoid", "Sigmoid"), ("tanh", "Tanh"), ("exp", "Exp"),
                     ("sqrt", "Sqrt"), ("abs", "Abs"), ("log", "Log"), ("erf", "Erf"),
                     ("floor", "Floor"), ("ceil", "Ceil"), ("reciprocal", "Reciprocal"),
                     ("sin", "Sin"), ("cos", "Cos"), ("assign", "Identity"), ("sign", "Sign")):
    register(_name)(lambda ctx, a, outs, _o=_onnx: ctx.one(_o, [ctx.name(a["x"])], outs[0]))

for _name, _onnx in (("add", "Add"), ("subtract", "Sub"), ("multiply", "Mul"), ("divide", "Div"),
                     ("maximum", "Max"), ("minimum", "Min")):
    def _binary(ctx: LoweringContext, a: dict, outs: list, _o: str = _onnx) -> None:
        x, y = a["x"], a["y"]
        ref = x if isinstance(x, Value) else y
        ctx.one(_o, [ctx.like(x, ref), ctx.like(y, ref)], outs[0])
    register(_name)(_binary)


@register("pow")
def _pow(ctx, a, outs):
    ctx.one("Pow", [ctx.name(a["x"]), ctx.like(a["y"], a["x"])], outs[0])


@register("scale")
def _scale(ctx, a, outs):
    x, s, b = a["x"], a["scale"], a["bias"]
    if a.get("act"):
        raise NotImplementedError("paddle.onnx.export: scale with act is not supported")
    if a["bias_after_scale"]:
        y = ctx.one("Mul", [ctx.name(x), ctx.like(s, x)])
        ctx.one("Add", [y, ctx.like(b, x)], outs[0])
    else:
        y = ctx.one("Add", [ctx.name(x), ctx.like(b, x)])
        ctx.one("Mul", [y, ctx.like(s, x)], outs[0])


@register("gelu")
def _gelu(ctx, a, outs):
    x = ctx.name(a["x"])
    c = lambda v: ctx.like(v, a["x"])  # noqa: E731
    if a["approximate"]:  # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        x3 = ctx.one("Mul", [ctx.one("Mul", [x, x]), x])
        inner = ctx.one("Add", [x, ctx.one("Mul", [x3, c(0.044715)])])
        inner = ctx.one("Mul", [inner, c(math.sqrt(2 / math.pi))])
        t = ctx.one("Tanh", [inner])
    else:  # 0.5 x (1 + erf(x / sqrt 2))
        t = ctx.one("Erf", [ctx.one("Div", [x, c(math.sqrt(2.0))])])
    ctx.one("Mul", [ctx.one("Mul", [x, c(0.5)]), ctx.one("Add", [t, c(1.0)])], outs[0])


@register("silu", "swish")
def _silu(ctx, a, outs):
    x = ctx.name(a["x"])
    ctx.one("Mul", [x, ctx.one("Sigmoid", [x])], outs[0])


@register("leaky_relu")
def _leaky_relu(ctx, a, outs):
    ctx.one("LeakyRelu", [ctx.name(a["x"])], outs[0], alpha=float(a["negative_slope"]))


@register("elu")
def _elu(ctx, a, outs):
    ctx.one("Elu", [ctx.name(a["x"])], outs[0], alpha=float(a["alpha"]))


@register("hardsigmoid")
def _hardsigmoid(ctx, a, outs):
    ctx.one("HardSigmoid", [ctx.name(a["x"])], outs[0], alpha=float(a["slope"]), beta=float(a["offset"]))


@register("hardswish")
def _hardswish(ctx, a, outs):
    x = ctx.name(a["x"])
    if ctx.opset >= 14:
        ctx.one("HardSwish", [x], outs[0])
    else:
        ctx.one("Mul", [x, ctx.one("HardSigmoid", [x], alpha=1 / 6, beta=0.5)], outs[0])


def _clip_to(ctx: LoweringContext, x: Value, lo: Any, hi: Any, out: str) -> None:
    if ctx.opset >= 11:
        ins = [ctx.name(x), ctx.like(lo, x) if lo is not None else "",
               ctx.like(hi, x) if hi is not None else ""]
        while ins and ins[-1] == "":
            ins.pop()
        ctx.one("Clip", ins, out)
    else:
        if isinstance(lo, Value) or isinstance(hi, Value):
            raise NotImplementedError("paddle.onnx.export: clip with tensor bounds needs opset >= 11")
        ctx.one("Clip", [ctx.name(x)], out, min=float(lo) if lo is not None else -3.4e38,
                max=float(hi) if hi is not None else 3.4e38)


@register("clip")
def _clip(ctx, a, outs):
    _clip_to(ctx, a["x"], a["min"], a["max"], outs[0])


@register("relu6")
def _relu6(ctx, a, outs):
    _clip_to(ctx, a["x"], 0.0, 6.0, outs[0])


@register("cast")
def _cast(ctx, a, outs):
    ctx.one("Cast", [ctx.name(a["x"])], outs[0], to=onnx_dtype(a["dtype"]))


@register("dropout")
def _dropout(ctx, a, outs):
    if a["training"]:
        raise NotImplementedError("paddle.onnx.export: dropout in training mode cannot be exported")
    x = ctx.name(a["x"])
    if a["mode"] == "downscale_in_infer":
        ctx.one("Mul", [x, ctx.like(1.0 - float(a["p"]), a["x"])], outs[0])
    else:
        ctx.one("Identity", [x], outs[0])


# ---- softmax family -----------------------------------------------------------------
def _softmax_like(kind: str) -> Callable:
    def lower(ctx, a, outs):
        x = a["x"]
        xn = _cast_to(ctx, ctx.name(x), x._t.dtype, _out_dtype(ctx))  # ``dtype`` casts the input first
        nd = _ndim(x)
        axis = _axis(a["axis"], nd)
        if ctx.opset >= 13 or axis == nd - 1:
            ctx.one(kind, [xn], outs[0], axis=axis)
            return
        perm = list(range(nd))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        t = ctx.one("Transpose", [xn], perm=perm)
        s = ctx.one(kind, [t], axis=nd - 1)
        ctx.one("Transpose", [s], outs[0], perm=perm)
    return lower


register("softmax")(_softmax_like("Softmax"))
register("log_softmax")(_softmax_like("LogSoftmax"))


# ---- more elementwise ----------------------------------------------------------------
for _name, _onnx in (("neg", "Neg"), ("tan", "Tan"), ("asin", "Asin"), ("acos", "Acos"), ("atan", "Atan"),
                     ("sinh", "Sinh"), ("cosh", "Cosh"), ("asinh", "Asinh"), ("acosh", "Acosh"),
                     ("atanh", "Atanh"), ("isnan", "IsNaN"), ("softsign", "Softsign"),
                     ("logical_not", "Not")):
    if _name in REGISTRY:
        register(_name)(lambda ctx, a, outs, _o=_onnx: ctx.one(_o, [ctx.name(a["x"])], outs[0]))


@register("trunc")
def _trunc(ctx, a, outs):
    x = ctx.name(a["input"])
    ctx.one("Mul", [ctx.one("Floor", [ctx.one("Abs", [x])]), ctx.one("Sign", [x])], outs[0])


@register("isinf")
def _isinf(ctx, a, outs):
    _need(ctx, 10, "isinf")
    ctx.one("IsInf", [ctx.name(a["x"])], outs[0])


@register("isfinite")
def _isfinite(ctx, a, outs):
    _need(ctx, 10, "isfinite")
    x = ctx.name(a["x"])
    bad = ctx.one("Or", [ctx.one("IsInf", [x]), ctx.one("IsNaN", [x])])
    ctx.one("Not", [bad], outs[0])


@register("rsqrt")
def _rsqrt(ctx, a, outs):
    ctx.one("Reciprocal", [ctx.one("Sqrt", [ctx.name(a["x"])])], outs[0])


@register("square")
def _square(ctx, a, outs):
    x = ctx.name(a["x"])
    ctx.one("Mul", [x, x], outs[0])


@register("log1p")
def _log1p(ctx, a, outs):
    ctx.one("Log", [ctx.one("Add", [ctx.name(a["x"]), _scalar(ctx, 1, a["x"])])], outs[0])


@register("expm1")
def _expm1(ctx, a, outs):
    ctx.one("Sub", [ctx.one("Exp", [ctx.name(a["x"])]), _scalar(ctx, 1, a["x"])], outs[0])


for _name, _base in (("log2", 2.0), ("log10", 10.0)):
    register(_name)(lambda ctx, a, outs, _b=_base: ctx.one(
        "Div", [ctx.one("Log", [ctx.name(a["x"])]), _scalar(ctx, math.log(_b), a["x"])], outs[0]))


@register("round")
def _round(ctx, a, outs):  # Paddle rounds halves away from zero
    x = a["x"]
    xn = ctx.name(x)
    dec = int(a.get("decimals") or 0)
    if dec:
        xn = ctx.one("Mul", [xn, _scalar(ctx, 10.0 ** dec, x)])
    r = ctx.one("Floor", [ctx.one("Add", [ctx.one("Abs", [xn]), _scalar(ctx, 0.5, x)])])
    r = ctx.one("Mul", [r, ctx.one("Sign", [xn])], None if dec else outs[0])
    if dec:
        ctx.one("Div", [r, _scalar(ctx, 10.0 ** dec, x)], outs[0])


@register("softplus")
def _softplus(ctx, a, outs):
    x = a["x"]
    beta, thr = float(a["beta"]), float(a["threshold"])
    xn = ctx.name(x)
    bx = ctx.one("Mul", [xn, _scalar(ctx, beta, x)]) if beta != 1 else xn
    sp = ctx.one("Softplus", [bx])
    if beta != 1:
        sp = ctx.one("Div", [sp, _scalar(ctx, beta, x)])
    ctx.one("Where", [ctx.one("Greater", [bx, _scalar(ctx, thr, x)]), xn, sp], outs[0])


@register("mish")
def _mish(ctx, a, outs):
    x = ctx.name(a["x"])
    ctx.one("Mul", [x, ctx.one("Tanh", [ctx.one("Softplus", [x])])], outs[0])


@register("selu")
def _selu(ctx, a, outs):
    ctx.one("Selu", [ctx.name(a["x"])], outs[0], alpha=float(a["alpha"]), gamma=float(a["scale"]))


@register("celu")
def _celu(ctx, a, outs):
    x, alpha = a["x"], float(a["alpha"])
    xn = ctx.name(x)  # max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
    e = ctx.one("Sub", [ctx.one("Exp", [ctx.one("Div", [xn, _scalar(ctx, alpha, x)])]), _scalar(ctx, 1, x)])
    neg = ctx.one("Min", [ctx.one("Mul", [e, _scalar(ctx, alpha, x)]), _scalar(ctx, 0, x)])
    ctx.one("Add", [ctx.one("Max", [xn, _scalar(ctx, 0, x)]), neg], outs[0])


@register("prelu")
def _prelu(ctx, a, outs):
    x, w = a["x"], a["weight"]
    wn = ctx.name(w)
    n = int(np.prod(w.shape)) if w.shape else 1
    if n > 1:  # one slope per channel, on axis 1 or (channels-last) on the last axis
        last = a.get("data_format", "NCHW") in ("NHWC", "NLC", "NDHWC")
        wn = ctx.one("Reshape", [wn, ctx.ints([n] + ([] if last else [1] * (_ndim(x) - 2)))])
    ctx.one("PRelu", [ctx.name(x), wn], outs[0])


@register("tanhshrink")
def _tanhshrink(ctx, a, outs):
    x = ctx.name(a["x"])
    ctx.one("Sub", [x, ctx.one("Tanh", [x])], outs[0])


@register("hardtanh")
def _hardtanh(ctx, a, outs):
    _clip_to(ctx, a["x"], float(a["min"]), float(a["max"]), outs[0])


@register("log_sigmoid")
def _log_sigmoid(ctx, a, outs):
    ctx.one("Neg", [ctx.one("Softplus", [ctx.one("Neg", [ctx.name(a["x"])])])], outs[0])


@register("hardshrink")
def _hardshrink(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    keep = ctx.one("Greater", [ctx.one("Abs", [xn]), _scalar(ctx, float(a["threshold"]), x)])
    ctx.one("Where", [keep, xn, _scalar(ctx, 0, x)], outs[0])


@register("softshrink")
def _softshrink(ctx, a, outs):
    t = float(a["threshold"])
    ctx.one("Shrink", [ctx.name(a["x"])], outs[0], bias=t, lambd=t)


@register("thresholded_relu")
def _thresholded_relu(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    keep = ctx.one("Greater", [xn, _scalar(ctx, float(a["threshold"]), x)])
    ctx.one("Where", [keep, xn, _scalar(ctx, float(a.get("value", 0.0)), x)], outs[0])


@register("rrelu")
def _rrelu(ctx, a, outs):
    if a["training"]:
        raise NotImplementedError("paddle.onnx.export: rrelu in training mode cannot be exported")
    ctx.one("LeakyRelu", [ctx.name(a["x"])], outs[0], alpha=(float(a["lower"]) + float(a["upper"])) / 2)


@register("dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout")
def _dropout_nd(ctx, a, outs):
    if a["training"]:
        raise NotImplementedError("paddle.onnx.export: dropout in training mode cannot be exported")
    ctx.one("Identity", [ctx.name(a["x"])], outs[0])


# ---- comparisons, logic, where -------------------------------------------------------
def _binary_args(ctx: LoweringContext, a: dict) -> tuple[str, str]:
    x, y = a["x"], a["y"]
    ref = x if isinstance(x, Value) else y
    xn, yn = ctx.like(x, ref), ctx.like(y, ref)
    if isinstance(x, Value) and isinstance(y, Value) and x._t.dtype != y._t.dtype:
        import torch
        common = torch.promote_types(x._t.dtype, y._t.dtype)
        xn, yn = _cast_to(ctx, xn, x._t.dtype, common), _cast_to(ctx, yn, y._t.dtype, common)
    return xn, yn


for _name, _onnx, _negate in (("greater_than", "Greater", False), ("less_than", "Less", False),
                              ("equal", "Equal", False), ("not_equal", "Equal", True),
                              ("greater_equal", "Less", True), ("less_equal", "Greater", True),
                              ("logical_and", "And", False), ("logical_or", "Or", False),
                              ("logical_xor", "Xor", False)):
    def _cmp(ctx, a, outs, _o=_onnx, _neg=_negate):
        xn, yn = _binary_args(ctx, a)
        if _o in ("And", "Or", "Xor"):
            import torch
            xn = _cast_to(ctx, xn, a["x"]._t.dtype if isinstance(a["x"], Value) else torch.bool, torch.bool)
            yn = _cast_to(ctx, yn, a["y"]._t.dtype if isinstance(a["y"], Value) else torch.bool, torch.bool)
        ref = a["x"] if isinstance(a["x"], Value) else a["y"]
        if _o == "Equal" and ctx.opset < 11 and ref._t.is_floating_point():
            eq = ctx.one("Not", [ctx.one("Or", [ctx.one("Less", [xn, yn]), ctx.one("Greater", [xn, yn])])])
            ctx.one("Not" if _neg else "Identity", [eq], outs[0])
        elif _neg:
            ctx.one("Not", [ctx.one(_o, [xn, yn])], outs[0])
        else:
            ctx.one(_o, [xn, yn], outs[0])
    register(_name)(_cmp)


@register("bitwise_not")
def _bitwise_not(ctx, a, outs):
    import torch
    x = a["x"]
    if x._t.dtype == torch.bool:
        ctx.one("Not", [ctx.name(x)], outs[0])
    else:
        _need(ctx, 18, "bitwise_not on integers")
        ctx.one("BitwiseNot", [ctx.name(x)], outs[0])


@register("floor_divide")
def _floor_divide(ctx, a, outs):
    xn, yn = _binary_args(ctx, a)
    ref = a["x"] if isinstance(a["x"], Value) else a["y"]
    if ref._t.is_floating_point():
        ctx.one("Floor", [ctx.one("Div", [xn, yn])], outs[0])
        return
    # integers: floor of the exact quotient (ONNX's Div truncates)
    q = ctx.one("Div", [xn, yn])
    r = ctx.one("Sub", [xn, ctx.one("Mul", [q, yn])])
    zero = _scalar(ctx, 0, ref)
    fix = ctx.one("And", [ctx.one("Not", [ctx.one("Equal", [r, zero])]),
                          ctx.one("Xor", [ctx.one("Less", [r, zero]), ctx.one("Less", [yn, zero])])])
    ctx.one("Sub", [q, ctx.one("Cast", [fix], to=onnx_dtype(ref._t.dtype))], outs[0])


@register("remainder")
def _remainder(ctx, a, outs):
    xn, yn = _binary_args(ctx, a)
    ref = a["x"] if isinstance(a["x"], Value) else a["y"]
    if ref._t.is_floating_point():
        q = ctx.one("Floor", [ctx.one("Div", [xn, yn])])
        ctx.one("Sub", [xn, ctx.one("Mul", [q, yn])], outs[0])
    else:
        ctx.one("Mod", [xn, yn], outs[0], fmod=0)


@register("where")
def _where(ctx, a, outs):
    c, x, y = a["condition"], a["x"], a["y"]
    if x is None and y is None:
        raise NotImplementedError("paddle.onnx.export: where with only a condition (use nonzero)")
    ref = x if isinstance(x, Value) else y
    if not isinstance(ref, Value):  # two scalars
        import torch
        dt = _out_dtype(ctx)
        xn = ctx.constant(np.asarray(x, dtype=torch.empty(0, dtype=dt).numpy().dtype))
        yn = ctx.constant(np.asarray(y, dtype=torch.empty(0, dtype=dt).numpy().dtype))
    else:
        xn, yn = _binary_args(ctx, {"x": x, "y": y})
    ctx.one("Where", [ctx.name(c), xn, yn], outs[0])


@register("masked_fill")
def _masked_fill(ctx, a, outs):
    x = a["x"]
    ctx.one("Where", [ctx.name(a["mask"]), _scalar(ctx, a["value"], x), ctx.name(x)], outs[0])
