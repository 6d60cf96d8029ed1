"""Helpers shared by the ONNX lowerings: registration, axes, opset checks, constants."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from pagaie._core.registry import REGISTRY
from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext, OpsetTooLow, onnx_dtype

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


_CHANNELS_LAST = {"NLC": "NCL", "NWC": "NCW", "NHWC": "NCHW", "NDHWC": "NCDHW"}


def channels_first(fn: Callable) -> Callable:
    """Wrap a channels-first lowering so that it also serves channels-last ``data_format``.

    ONNX's Conv, pools, norms and Resize read ``[N, C, *spatial]``: a channels-last input is
    transposed to that layout, lowered with the matching channels-first format, and the
    (first) output transposed back.
    """
    def lower(ctx: LoweringContext, a: dict, outs: list) -> None:
        fmt = a.get("data_format")
        fmt = fmt.upper() if isinstance(fmt, str) else fmt
        if fmt not in _CHANNELS_LAST:
            fn(ctx, a, outs)
            return
        x = a["x"]
        nd = _ndim(x)
        to_first = [0, nd - 1] + list(range(1, nd - 1))
        to_last = [0] + list(range(2, nd)) + [1]
        dims = x._known_dims()
        xf = Value(x.block, name=ctx.fresh(f"{x.name}_cf"), shape=[dims[i] for i in to_first],
                   dtype=x._t.dtype)
        ctx.names[xf.name] = ctx.one("Transpose", [ctx.name(x)], perm=to_first)
        first = ctx.fresh("cf_out")
        a = dict(a, x=xf, data_format=_CHANNELS_LAST[fmt])
        pad = a.get("padding")
        if isinstance(pad, (list, tuple)) and len(pad) == nd and all(isinstance(p, (list, tuple)) for p in pad):
            a["padding"] = [pad[i] for i in to_first]   # per-axis [before, after] pairs follow the layout
        fn(ctx, a, [first] + list(outs[1:]))
        ctx.one("Transpose", [first], outs[0], perm=to_last)
    lower.__doc__, lower.__name__ = fn.__doc__, fn.__name__
    return lower

def _const_int(ctx: LoweringContext, v: object, what: str) -> int:
    """An int argument, or a Tensor one whose value is known at export time."""
    if isinstance(v, Value):
        if v.name not in ctx.consts:
            raise NotImplementedError(f"paddle.onnx.export: {what} computed from the inputs is not supported")
        return int(ctx.consts[v.name].reshape(-1)[0])
    return int(v)


def _axes_op(ctx: LoweringContext, op: str, x: str, axes: list[int], out: str) -> None:
    if ctx.opset >= 13:
        ctx.one(op, [x, ctx.ints(axes)], out)
    else:
        ctx.one(op, [x], out, axes=axes)


# ---- helpers shared by the lowerings below ------------------------------------------
_INT64_MAX, _INT64_MIN = 2 ** 63 - 1, -2 ** 63


def _need(ctx: LoweringContext, opset: int, what: str) -> None:
    """Raise OpsetTooLow when the export's opset is older than ``opset`` (export then retries
    at ``opset``)."""
    if ctx.opset < opset:
        raise OpsetTooLow(what, opset, ctx.opset)


def _np_dtype(v: Value) -> Any:
    import torch
    return torch.empty(0, dtype=v._t.dtype).numpy().dtype


def _out_dtype(ctx: LoweringContext, i: int = 0) -> Any:
    return ctx.out_values[i]._t.dtype


def _cast_to(ctx: LoweringContext, name: str, src: Any, dst: Any, out: str | None = None) -> str:
    """``name`` (of torch dtype ``src``) cast to ``dst``; an Identity/no-op when equal."""
    if src == dst:
        return ctx.one("Identity", [name], out) if out else name
    return ctx.one("Cast", [name], out, to=onnx_dtype(dst))


def _finish(ctx: LoweringContext, name: str, src: Any, out: str, i: int = 0) -> None:
    """Route ``name`` to ``out``, cast to the output Value's dtype where they differ."""
    _cast_to(ctx, name, src, _out_dtype(ctx, i), out)


def _slice(ctx: LoweringContext, x: str, starts: list, ends: list, axes: list[int],
           steps: list[int] | None = None, out: str | None = None) -> str:
    if ctx.opset >= 10:
        ins = [x, _ints_or(ctx, starts), _ints_or(ctx, ends), ctx.ints(axes)]
        if steps is not None and any(s != 1 for s in steps):
            ins.append(ctx.ints(steps))
        return ctx.one("Slice", ins, out)
    if (steps and any(s != 1 for s in steps)) or any(isinstance(e, Value) for e in list(starts) + list(ends)):
        _need(ctx, 10, "slicing with steps or tensor bounds")
    return ctx.one("Slice", [x], out, starts=[int(s) for s in starts], ends=[int(e) for e in ends],
                   axes=list(axes))


def _unsq(ctx: LoweringContext, x: str, axes: list[int], out: str | None = None) -> str:
    out = out or ctx.fresh("unsq")
    _axes_op(ctx, "Unsqueeze", x, axes, out)
    return out


def _sq(ctx: LoweringContext, x: str, axes: list[int], out: str | None = None) -> str:
    out = out or ctx.fresh("sq")
    _axes_op(ctx, "Squeeze", x, axes, out)
    return out


def _as_1d_int64(ctx: LoweringContext, v: Any) -> str:
    """A 1-D int64 tensor from an int, a Value (0-D or [1], any int dtype)."""
    if not isinstance(v, Value):
        return ctx.ints([int(v)])
    import torch
    n = _cast_to(ctx, ctx.name(v), v._t.dtype, torch.int64)
    return ctx.one("Reshape", [n, ctx.ints([1])])


def _int64(ctx: LoweringContext, v: Value) -> str:
    """The ONNX name of ``v`` cast to int64 (indices and sizes ONNX wants as int64)."""
    import torch
    return _cast_to(ctx, ctx.name(v), v._t.dtype, torch.int64)


def _as_out_dtype(ctx: LoweringContext, v: Value) -> str:
    """The ONNX name of ``v`` cast to the dtype of the op's (first) output (integer inputs of
    float functions)."""
    return _cast_to(ctx, ctx.name(v), v._t.dtype, _out_dtype(ctx))


def _range_to(ctx: LoweringContext, n: str) -> str:
    """``0, 1, ..., n - 1`` as int64, for ``n`` a 0-D int64 tensor (opset 11's Range)."""
    return ctx.one("Range", [ctx.constant(np.asarray(0, np.int64)), n, ctx.constant(np.asarray(1, np.int64))])


def _ints_or(ctx: LoweringContext, vals: Any) -> str:
    """A 1-D int64 tensor from a list of ints and/or Values, or from a 1-D Value."""
    if isinstance(vals, Value):
        import torch
        return ctx.one("Reshape", [_cast_to(ctx, ctx.name(vals), vals._t.dtype, torch.int64), ctx.ints([-1])])
    vals = list(vals)
    if not any(isinstance(e, Value) for e in vals):
        return ctx.ints([int(e) for e in vals])
    return ctx.one("Concat", [_as_1d_int64(ctx, e) for e in vals], axis=0)


def _shape_of(ctx: LoweringContext, x: str) -> str:
    return ctx.one("Shape", [x])


def _dim(ctx: LoweringContext, x: str, axis: int) -> str:
    """``x.shape[axis]`` as a 1-D int64 tensor of one element."""
    return ctx.one("Gather", [_shape_of(ctx, x), ctx.ints([axis])], axis=0)


def _reduce_to(ctx: LoweringContext, op_type: str, x: str, axes: list[int] | None, keep: bool,
               out: str | None = None) -> str:
    keep_i = 1 if keep else 0
    if axes is None:
        return ctx.one(op_type, [x], out, keepdims=keep_i)
    if op_type == "ReduceSum" and ctx.opset >= 13 or ctx.opset >= 18:
        return ctx.one(op_type, [x, ctx.ints(axes)], out, keepdims=keep_i)
    return ctx.one(op_type, [x], out, axes=axes, keepdims=keep_i)


def _axes_of(axis: Any, nd: int) -> list[int]:
    if axis is None or (isinstance(axis, (list, tuple)) and len(axis) == 0):
        return list(range(nd))
    if isinstance(axis, Value):
        raise NotImplementedError("paddle.onnx.export: a tensor axis is not supported")
    return sorted({_axis(int(i), nd) for i in ([axis] if isinstance(axis, int) else axis)})


class _DtypeRef:
    """Stands for a Value where only its dtype is read (the ``ref`` of :func:`_scalar`), for
    constants of a dtype no Value of the op has (a float result of integer inputs)."""

    def __init__(self, dtype: Any) -> None:
        import torch
        self._t = torch.empty(0, dtype=dtype)


def _scalar(ctx: LoweringContext, value: Any, ref: Value) -> str:
    """A 0-D constant of ``ref``'s dtype (or a Value's name)."""
    if isinstance(value, Value):
        n = ctx.name(value)
        return _cast_to(ctx, n, value._t.dtype, ref._t.dtype)
    return ctx.constant(np.asarray(value, dtype=_np_dtype(ref)))
