"""ONNX lowerings: matrix products, convolutions, normalisation, pooling, padding and resizing."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from pagaie._core.registry import REGISTRY
from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _INT64_MAX, _ints_or, _ndim, _need, _pair, _reduce_to, _scalar, _shape_of, _slice,
    channels_first, register)


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
    """ONNX ``pads`` (all begins, then all ends) or ``auto_pad`` from Paddle's ``padding``."""
    if isinstance(padding, str):
        return None, {"SAME": "SAME_UPPER", "VALID": "VALID"}[padding.upper()]
    if not isinstance(padding, int) and len(padding) == nd + 2 and all(
            isinstance(p, (list, tuple)) for p in padding):  # [[0, 0], [0, 0], [b, a], ...] per axis
        p = [int(e) for pair in padding[2:] for e in pair]
    else:
        p = _pair(padding, nd)
    if len(p) == nd:
        return p + p, None
    if len(p) == 2 * nd:  # Paddle: [before_0, after_0, before_1, after_1]
        return p[0::2] + p[1::2], None
    raise NotImplementedError(f"paddle.onnx.export: padding {padding!r} is not supported")


def _conv_inputs(ctx: LoweringContext, a: dict) -> list[str]:
    return [ctx.name(a["x"]), ctx.name(a["weight"])] + ([ctx.name(a["bias"])] if a["bias"] is not None else [])


@register("conv1d", "conv2d", "conv3d")
@channels_first
def _conv(ctx, a, outs):
    nd = _ndim(a["x"]) - 2
    pads, auto = _conv_pads(a["padding"], nd)
    ctx.one("Conv", _conv_inputs(ctx, a), outs[0], strides=_pair(a["stride"], nd),
            dilations=_pair(a["dilation"], nd), group=int(a["groups"]), pads=pads, auto_pad=auto)


def _transpose_output_padding(a: dict, nd: int, pads: list[int] | None) -> list[int] | None:
    """``output_padding``, or the one that ``output_size`` asks for (spatial sizes must be known)."""
    if a["output_size"] is None:
        return _pair(a["output_padding"], nd) if a["output_padding"] else None
    size = a["output_size"]
    if isinstance(size, Value) or (not isinstance(size, int) and any(isinstance(e, Value) for e in size)):
        raise NotImplementedError("paddle.onnx.export: conv_transpose with a tensor output_size "
                                  "is not supported")
    dims = a["x"]._known_dims()[2:]
    if pads is None or any(d < 0 for d in dims):
        raise NotImplementedError("paddle.onnx.export: conv_transpose with output_size needs known "
                                  "spatial input sizes and explicit padding")
    k = a["weight"]._known_dims()[2:]
    stride, dil = _pair(a["stride"], nd), _pair(a["dilation"], nd)
    want = _pair(size, nd)
    return [want[i] - ((dims[i] - 1) * stride[i] - pads[i] - pads[nd + i] + dil[i] * (k[i] - 1) + 1)
            for i in range(nd)]


@register("conv1d_transpose", "conv2d_transpose", "conv3d_transpose")
@channels_first
def _conv_transpose(ctx, a, outs):
    nd = _ndim(a["x"]) - 2
    pads, auto = _conv_pads(a["padding"], nd)
    out_pad = _transpose_output_padding(a, nd, pads)
    ctx.one("ConvTranspose", _conv_inputs(ctx, a), outs[0], strides=_pair(a["stride"], nd),
            dilations=_pair(a["dilation"], nd), group=int(a["groups"]), pads=pads, auto_pad=auto,
            output_padding=out_pad if out_pad and any(out_pad) else None)


@register("batch_norm")
@channels_first
def _batch_norm(ctx, a, outs):
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
    @channels_first
    def lower(ctx, a, outs):
        x = a["x"]
        nd = _ndim(x) - 2
        if a.get("return_mask"):
            raise NotImplementedError(f"paddle.onnx.export: max_pool{nd}d with return_mask is not supported")
        k = _pair(a["kernel_size"], nd)
        stride = _pair(a["stride"], nd) if a["stride"] is not None else k
        pads, auto = _conv_pads(a["padding"], nd)
        attrs = {"kernel_shape": k, "strides": stride, "pads": pads, "auto_pad": auto}
        if a["ceil_mode"]:
            _need(ctx, 10, "ceil_mode pooling")
            attrs["ceil_mode"] = 1
        divisor = a.get("divisor_override") if kind == "Average" else None
        if kind == "Average":  # Paddle scales the average by prod(kernel) / divisor_override
            attrs["count_include_pad"] = 0 if a["exclusive"] else 1
        y = ctx.one(f"{kind}Pool", [ctx.name(x)], None if divisor else outs[0], **attrs)
        if divisor:
            ctx.one("Mul", [y, _scalar(ctx, float(np.prod(k)) / float(divisor), x)], outs[0])
    return lower


for _nd in (1, 2, 3):
    register(f"max_pool{_nd}d")(_pool("Max"))
    register(f"avg_pool{_nd}d")(_pool("Average"))


@register("rms_norm")
def _rms_norm(ctx, a, outs):
    x = a["input"]
    shape = a["normalized_shape"]
    shape = [shape] if isinstance(shape, int) else list(shape)
    xn = ctx.name(x)
    axes = list(range(_ndim(x) - len(shape), _ndim(x)))
    ms = _reduce_to(ctx, "ReduceMean", ctx.one("Mul", [xn, xn]), axes, True)
    inv = ctx.one("Reciprocal", [ctx.one("Sqrt", [ctx.one("Add", [ms, _scalar(ctx, float(a["eps"]), x)])])])
    y = ctx.one("Mul", [xn, inv])
    if a["weight"] is not None:
        w = ctx.name(a["weight"])
        y = ctx.one("Mul", [y, ctx.one("Reshape", [w, ctx.ints(shape)]) if len(shape) > 1 else w])
    ctx.one("Identity", [y], outs[0])
    if len(outs) > 1:   # the inverse root mean square of each slice, as Paddle also returns
        ctx.one("Squeeze", [inv, ctx.ints(axes)] if ctx.opset >= 13 else [inv], outs[1],
                axes=None if ctx.opset >= 13 else axes)


@register("local_response_norm")
@channels_first
def _local_response_norm(ctx, a, outs):
    x = a["x"]
    xn = ctx.name(x)
    if _ndim(x) != 4:  # LRN reads [N, C, H, W]; it only mixes channels, so fold the spatial axes
        y = ctx.one("Reshape", [xn, ctx.ints([0, 0, -1, 1])])
        y = ctx.one("LRN", [y], size=int(a["size"]), alpha=float(a["alpha"]), beta=float(a["beta"]),
                    bias=float(a["k"]))
        ctx.one("Reshape", [y, _shape_of(ctx, xn)], outs[0])
        return
    ctx.one("LRN", [xn], outs[0], size=int(a["size"]), alpha=float(a["alpha"]), beta=float(a["beta"]),
            bias=float(a["k"]))


# ---- padding, resizing ---------------------------------------------------------------
_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


@register("pad")
def _pad(ctx, a, outs):
    x = a["x"]
    nd = _ndim(x)
    pad, mode = a["pad"], a["mode"]
    if isinstance(pad, Value):
        raise NotImplementedError("paddle.onnx.export: pad with a tensor 'pad' is not supported")
    pad = [int(p) for p in pad]
    before, after = [0] * nd, [0] * nd
    if mode == "constant" and len(pad) != 2 * (nd - 2):
        if len(pad) == 2 * nd and a.get("pad_from_left_axis", True):
            for i in range(nd):
                before[i], after[i] = pad[2 * i], pad[2 * i + 1]
        else:  # pairs from the last axis backwards
            for j in range(len(pad) // 2):
                before[nd - 1 - j], after[nd - 1 - j] = pad[2 * j], pad[2 * j + 1]
    else:
        fmt = (a.get("data_format") or "NC").upper()
        spatial = list(range(1, nd - 1)) if not fmt.startswith("NC") else list(range(2, nd))
        for j, ax in enumerate(reversed(spatial)):
            before[ax], after[ax] = pad[2 * j], pad[2 * j + 1]
    xn = ctx.name(x)
    omode = _PAD_MODES[mode]
    if omode == "wrap" and ctx.opset < 19:  # circular by concatenating slices
        for ax in range(nd):
            parts = []
            if before[ax]:
                parts.append(_slice(ctx, xn, [-before[ax]], [_INT64_MAX], [ax]))
            parts.append(xn)
            if after[ax]:
                parts.append(_slice(ctx, xn, [0], [after[ax]], [ax]))
            if len(parts) > 1:
                xn = ctx.one("Concat", parts, axis=ax)
        ctx.one("Identity", [xn], outs[0])
        return
    if ctx.opset >= 11:
        ins = [xn, ctx.ints(before + after)]
        if omode == "constant":
            ins.append(_scalar(ctx, a["value"] if not isinstance(a["value"], Value) else a["value"], x))
            if isinstance(a["value"], Value):
                ins[-1] = ctx.one("Reshape", [ins[-1], ctx.ints([])])
        ctx.one("Pad", ins, outs[0], mode=omode)
    else:
        if isinstance(a["value"], Value):
            raise NotImplementedError("paddle.onnx.export: pad with a tensor value needs opset >= 11")
        ctx.one("Pad", [xn], outs[0], mode=omode, pads=before + after, value=float(a["value"]))


@register("interpolate")
@channels_first
def _interpolate(ctx, a, outs):
    _need(ctx, 11, "interpolate")
    x = a["x"]
    nd = _ndim(x)
    if a.get("antialias"):
        raise NotImplementedError("paddle.onnx.export: interpolate with antialias is not supported")
    mode = a["mode"].lower()
    align = bool(a["align_corners"])
    if mode == "area":  # adaptive average pooling to the (constant) output size
        size = a["size"]
        if isinstance(size, Value) or any(isinstance(e, Value) for e in _pair(size, 1)):
            raise NotImplementedError("paddle.onnx.export: interpolate mode 'area' with a tensor size "
                                      "is not supported")
        _adaptive_general(ctx, "Average", x, _pair(size, nd - 2), outs)
        return
    attrs: dict = {}
    if mode == "nearest":
        attrs = {"mode": "nearest", "coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}
    elif mode in ("linear", "bilinear", "trilinear", "bicubic"):
        ct = "align_corners" if align else ("half_pixel" if int(a["align_mode"]) == 0 or mode == "bicubic"
                                            else "asymmetric")
        attrs = {"mode": "cubic" if mode == "bicubic" else "linear", "coordinate_transformation_mode": ct}
        if mode == "bicubic":
            attrs["cubic_coeff_a"] = -0.75
    else:
        raise NotImplementedError(f"paddle.onnx.export: interpolate mode {mode!r} is not supported")
    xn = ctx.name(x)
    size, scale = a["size"], a["scale_factor"]
    empty = ""
    roi = ctx.constant(np.zeros(0, np.float32)) if ctx.opset < 13 else empty
    if size is not None:
        if isinstance(size, Value):
            sz = _ints_or(ctx, size)
        else:
            sz = _ints_or(ctx, [size] * (nd - 2) if isinstance(size, int) else list(size))
        lead = _slice(ctx, _shape_of(ctx, xn), [0], [2], [0])
        sizes = ctx.one("Concat", [lead, sz], axis=0)
        ins = [xn, roi, ctx.constant(np.zeros(0, np.float32)) if ctx.opset < 13 else empty, sizes]
    else:
        if isinstance(scale, Value):
            raise NotImplementedError("paddle.onnx.export: interpolate with a tensor scale_factor")
        s = [float(scale)] * (nd - 2) if isinstance(scale, (int, float)) else [float(e) for e in scale]
        ins = [xn, roi, ctx.constant(np.asarray([1.0, 1.0] + s, np.float32))]
        # Paddle's output size is floor(in * scale), mapped back with the given scale
    ctx.one("Resize", ins, outs[0], **attrs)


# ---- normalizations, adaptive pools --------------------------------------------------
@register("instance_norm")
@channels_first
def _instance_norm(ctx, a, outs):
    x = a["x"]
    if not a["use_input_stats"]:
        raise NotImplementedError("paddle.onnx.export: instance_norm with use_input_stats=False")
    c = x.shape[1]
    if c < 0:
        raise NotImplementedError("paddle.onnx.export: instance_norm needs a known channel count")
    w = ctx.name(a["weight"]) if a["weight"] is not None else _scalar(ctx, np.ones(c), x)
    b = ctx.name(a["bias"]) if a["bias"] is not None else _scalar(ctx, np.zeros(c), x)
    ctx.one("InstanceNormalization", [ctx.name(x), w, b], outs[0], epsilon=float(a["eps"]))


@register("group_norm")
@channels_first
def _group_norm(ctx, a, outs):
    x = a["x"]
    nd, g = _ndim(x), int(a["num_groups"])
    xn = ctx.name(x)
    shape = _shape_of(ctx, xn)
    grouped = ctx.one("Reshape", [xn, ctx.ints([0, g, -1])])
    mean = _reduce_to(ctx, "ReduceMean", grouped, [2], True)
    d = ctx.one("Sub", [grouped, mean])
    var = _reduce_to(ctx, "ReduceMean", ctx.one("Mul", [d, d]), [2], True)
    y = ctx.one("Div", [d, ctx.one("Sqrt", [ctx.one("Add", [var, _scalar(ctx, float(a["epsilon"]), x)])])])
    y = ctx.one("Reshape", [y, shape])
    bshape = ctx.ints([-1] + [1] * (nd - 2))
    if a["weight"] is not None:
        y = ctx.one("Mul", [y, ctx.one("Reshape", [ctx.name(a["weight"]), bshape])])
    if a["bias"] is not None:
        y = ctx.one("Add", [y, ctx.one("Reshape", [ctx.name(a["bias"]), bshape])])
    ctx.one("Identity", [y], outs[0])


def _adaptive_general(ctx: LoweringContext, kind: str, x: Value, size: list, outs: list) -> None:
    """Adaptive pooling over known spatial sizes, one window at a time per axis
    (windows ``[floor(i*n/out), ceil((i+1)*n/out))``; average and max are separable)."""
    xn = ctx.name(x)
    op = "ReduceMean" if kind == "Average" else "ReduceMax"
    for j, o in enumerate(size):
        ax = 2 + j
        n = x.shape[ax]
        if o is None or int(o) == n:
            continue
        o = int(o)
        if n < 0:
            raise NotImplementedError("paddle.onnx.export: adaptive pooling needs known spatial sizes")
        parts = []
        for i in range(o):
            lo, hi = (i * n) // o, -((-(i + 1) * n) // o)
            parts.append(_reduce_to(ctx, op, _slice(ctx, xn, [lo], [hi], [ax]), [ax], True))
        xn = ctx.one("Concat", parts, axis=ax) if len(parts) > 1 else parts[0]
    ctx.one("Identity", [xn], outs[0])


def _adaptive_any(kind: str, nd: int) -> Callable:
    @channels_first
    def lower(ctx, a, outs):
        if a.get("return_mask"):
            raise NotImplementedError("paddle.onnx.export: adaptive pooling with return_mask")
        x = a["x"]
        size = a["output_size"]
        size = [size] * nd if isinstance(size, int) else list(size)
        if all(s == 1 for s in size):
            ctx.one(f"Global{kind}Pool", [ctx.name(x)], outs[0])
            return
        _adaptive_general(ctx, kind, x, size, outs)
    return lower


for _nd in (1, 2, 3):
    for _k, _nm in (("Average", "avg"), ("Max", "max")):
        if f"adaptive_{_nm}_pool{_nd}d" in REGISTRY:
            register(f"adaptive_{_nm}_pool{_nd}d")(_adaptive_any(_k, _nd))
