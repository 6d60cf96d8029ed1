"""ONNX lowerings of the common op records, attached to the records on import.

Each lowering is ``fn(ctx, a, outs)`` (see :class:`pagaie.onnx.export.LoweringContext`):
``a`` maps the op's Paddle argument names to their values, ``outs`` are the ONNX names
its outputs must carry. :func:`register` stores a lowering in ``REGISTRY[name].onnx``
so the op record stays the one place that knows about an op. Lowerings follow the
opset in ``ctx.opset`` where ONNX changed an operator's form (Softmax's axis,
attributes that became inputs, LayerNormalization from 17, HardSwish from 14).
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from pagaie._core.registry import REGISTRY
from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext, onnx_dtype

__all__ = ["register"]


def register(*names: str) -> Callable:
    """Attach the decorated lowering to the records ``names``."""
    def deco(fn: Callable) -> Callable:
        for n in names:
            REGISTRY[n].onnx = fn
        return fn
    return deco


def _ndim(v: Any) -> int:
    return v.ndim if isinstance(v, Value) else 0


def _axis(axis: int, ndim: int) -> int:
    return axis + ndim if axis < 0 else axis


def _pair(v: Any, n: int = 2) -> list[int]:
    return [int(v)] * n if isinstance(v, int) else [int(e) for e in v]


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
        if a.get("dtype") is not None:
            raise NotImplementedError(f"paddle.onnx.export: {kind} with dtype is not supported")
        nd = _ndim(x)
        axis = _axis(a["axis"], nd)
        if ctx.opset >= 13 or axis == nd - 1:
            ctx.one(kind, [ctx.name(x)], outs[0], axis=axis)
            return
        perm = list(range(nd))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        t = ctx.one("Transpose", [ctx.name(x)], perm=perm)
        s = ctx.one(kind, [t], axis=nd - 1)
        ctx.one("Transpose", [s], outs[0], perm=perm)
    return lower


register("softmax")(_softmax_like("Softmax"))
register("log_softmax")(_softmax_like("LogSoftmax"))


# ---- linear algebra, conv, norms, pools ---------------------------------------------
def _swap_last(ctx: LoweringContext, name: str, nd: int) -> str:
    perm = list(range(nd))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return ctx.one("Transpose", [name], perm=perm)


@register("matmul")
def _matmul(ctx, a, outs):
    x, y = ctx.name(a["x"]), ctx.name(a["y"])
    if a["transpose_x"]:
        x = _swap_last(ctx, x, _ndim(a["x"]))
    if a["transpose_y"]:
        y = _swap_last(ctx, y, _ndim(a["y"]))
    ctx.one("MatMul", [x, y], outs[0])


@register("linear")
def _linear(ctx, a, outs):
    y = ctx.one("MatMul", [ctx.name(a["x"]), ctx.name(a["weight"])],
                None if a["bias"] is not None else outs[0])
    if a["bias"] is not None:
        ctx.one("Add", [y, ctx.name(a["bias"])], outs[0])


def _conv_pads(padding: Any, nd: int) -> tuple[list[int] | None, str | None]:
    if isinstance(padding, str):
        return None, {"SAME": "SAME_UPPER", "VALID": "VALID"}[padding.upper()]
    p = _pair(padding, nd)
    if len(p) == nd:
        return p + p, None
    if len(p) == 2 * nd:  # Paddle: [before_0, after_0, before_1, after_1]
        return p[0::2] + p[1::2], None
    raise NotImplementedError(f"paddle.onnx.export: padding {padding!r} is not supported")


def _nchw(a: dict, what: str) -> None:
    if a.get("data_format") not in (None, "NCHW", "NCL", "NCDHW"):
        raise NotImplementedError(f"paddle.onnx.export: {what} with data_format={a['data_format']!r} "
                                  "is not supported (use NCHW)")


@register("conv2d")
def _conv2d(ctx, a, outs):
    _nchw(a, "conv2d")
    pads, auto = _conv_pads(a["padding"], 2)
    ins = [ctx.name(a["x"]), ctx.name(a["weight"])] + ([ctx.name(a["bias"])] if a["bias"] is not None else [])
    ctx.one("Conv", ins, outs[0], strides=_pair(a["stride"]), dilations=_pair(a["dilation"]),
            group=int(a["groups"]), pads=pads, auto_pad=auto)


@register("conv2d_transpose")
def _conv2d_transpose(ctx, a, outs):
    _nchw(a, "conv2d_transpose")
    if a["output_size"] is not None:
        raise NotImplementedError("paddle.onnx.export: conv2d_transpose with output_size is not supported")
    pads, auto = _conv_pads(a["padding"], 2)
    ins = [ctx.name(a["x"]), ctx.name(a["weight"])] + ([ctx.name(a["bias"])] if a["bias"] is not None else [])
    out_pad = _pair(a["output_padding"]) if a["output_padding"] else None
    ctx.one("ConvTranspose", ins, outs[0], strides=_pair(a["stride"]), dilations=_pair(a["dilation"]),
            group=int(a["groups"]), pads=pads, auto_pad=auto, output_padding=out_pad)


@register("batch_norm")
def _batch_norm(ctx, a, outs):
    _nchw(a, "batch_norm")
    x = a["x"]
    if a["training"] and not a["use_global_stats"]:
        raise NotImplementedError("paddle.onnx.export: batch_norm in training mode cannot be exported")
    c = x.shape[1]
    w = ctx.name(a["weight"]) if a["weight"] is not None else ctx.like([1.0] * c, x)
    b = ctx.name(a["bias"]) if a["bias"] is not None else ctx.like([0.0] * c, x)
    stats = [ctx.name(a["running_mean"]), ctx.name(a["running_var"])]
    ctx.one("BatchNormalization", [ctx.name(x), w, b] + stats, outs[0], epsilon=float(a["epsilon"]))


@register("layer_norm")
def _layer_norm(ctx, a, outs):
    x = a["x"]
    shape = [a["normalized_shape"]] if isinstance(a["normalized_shape"], int) else list(a["normalized_shape"])
    axis = _ndim(x) - len(shape)
    eps = float(a["epsilon"])
    w, b = a["weight"], a["bias"]
    if len(shape) > 1:  # weights are stored flat over several axes
        w = ctx.one("Reshape", [ctx.name(w), ctx.ints(shape)]) if w is not None else None
        b = ctx.one("Reshape", [ctx.name(b), ctx.ints(shape)]) if b is not None else None
    else:
        w = ctx.name(w) if w is not None else None
        b = ctx.name(b) if b is not None else None
    if ctx.opset >= 17:
        w = w if w is not None else ctx.like(np.ones(shape), x)
        ctx.one("LayerNormalization", [ctx.name(x), w] + ([b] if b is not None else []), outs[0],
                axis=axis, epsilon=eps)
        return
    axes = list(range(axis, _ndim(x)))
    xn = ctx.name(x)
    mean = ctx.one("ReduceMean", [xn], axes=axes, keepdims=1)
    d = ctx.one("Sub", [xn, mean])
    var = ctx.one("ReduceMean", [ctx.one("Mul", [d, d])], axes=axes, keepdims=1)
    y = ctx.one("Div", [d, ctx.one("Sqrt", [ctx.one("Add", [var, ctx.like(eps, x)])])])
    if w is not None:
        y = ctx.one("Mul", [y, w])
    ctx.one("Add" if b is not None else "Identity", [y] + ([b] if b is not None else []), outs[0])


def _pool(kind: str) -> Callable:
    def lower(ctx, a, outs):
        _nchw(a, f"{kind.lower()}_pool2d")
        if a.get("return_mask"):
            raise NotImplementedError("paddle.onnx.export: max_pool2d with return_mask is not supported")
        k = _pair(a["kernel_size"])
        stride = _pair(a["stride"]) if a["stride"] is not None else k
        pads, auto = _conv_pads(a["padding"], 2)
        attrs = {"kernel_shape": k, "strides": stride, "pads": pads, "auto_pad": auto}
        if a["ceil_mode"]:
            if ctx.opset < 10:
                raise NotImplementedError("paddle.onnx.export: ceil_mode pooling needs opset >= 10")
            attrs["ceil_mode"] = 1
        if kind == "Average":
            if a.get("divisor_override"):
                raise NotImplementedError("paddle.onnx.export: divisor_override is not supported")
            attrs["count_include_pad"] = 0 if a["exclusive"] else 1
        ctx.one(f"{kind}Pool", [ctx.name(a["x"])], outs[0], **attrs)
    return lower


register("max_pool2d")(_pool("Max"))
register("avg_pool2d")(_pool("Average"))


def _adaptive(kind: str) -> Callable:
    def lower(ctx, a, outs):
        _nchw(a, f"adaptive_{kind.lower()}_pool2d")
        x = a["x"]
        size = _pair(a["output_size"])
        if a.get("return_mask"):
            raise NotImplementedError("paddle.onnx.export: return_mask is not supported")
        if size == [1, 1]:
            ctx.one(f"Global{kind}Pool", [ctx.name(x)], outs[0])
            return
        h, w = x.shape[2], x.shape[3]
        if h < 0 or w < 0 or h % size[0] or w % size[1]:
            raise NotImplementedError("paddle.onnx.export: adaptive pooling needs known spatial sizes "
                                      "that the output size divides")
        k = [h // size[0], w // size[1]]
        ctx.one(f"{kind}Pool", [ctx.name(x)], outs[0], kernel_shape=k, strides=k)
    return lower


register("adaptive_avg_pool2d")(_adaptive("Average"))
register("adaptive_max_pool2d")(_adaptive("Max"))


# ---- shapes -------------------------------------------------------------------------
def _const_ints(ctx: LoweringContext, v: Any) -> str:
    if isinstance(v, Value):
        return ctx.name(v)
    if isinstance(v, (list, tuple)) and any(isinstance(e, Value) for e in v):
        raise NotImplementedError("paddle.onnx.export: shapes mixing ints and tensors are not supported")
    return ctx.ints(list(v))


@register("reshape")
def _reshape(ctx, a, outs):
    ctx.one("Reshape", [ctx.name(a["x"]), _const_ints(ctx, a["shape"])], outs[0])


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


def _axes_op(ctx: LoweringContext, op: str, x: str, axes: list[int], out: str) -> None:
    if ctx.opset >= 13:
        ctx.one(op, [x, ctx.ints(axes)], out)
    else:
        ctx.one(op, [x], out, axes=axes)


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
register("sum")(_reduce("ReduceSum"))
register("max")(_reduce("ReduceMax"))
register("min")(_reduce("ReduceMin"))
