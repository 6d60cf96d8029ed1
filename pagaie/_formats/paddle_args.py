"""Argument mapping of real Paddle ops onto pagaie op records (used by :mod:`.paddle_program`).

:class:`PaddleOp` is one Paddle op as a mapper sees it (operands by position in PIR, by
slot in legacy programs; attributes as Python values). :data:`ARGS` holds one mapper per
op record name: it returns the record's Paddle-signature call ``(args, kwargs)``, ``None``
when the op is not this record's, ``("identity", value)`` when the op reduces to values
already built (with :meth:`PaddleOp.call`), or ``("outputs", [v0, v1, ...])`` for ops
with several outputs (``None`` for an output pagaie does not compute).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.tensor import Tensor
from pagaie._static.ir import Value

__all__ = ["ARGS", "PaddleOp", "VARTYPE_DTYPES"]

VARTYPE_DTYPES = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32",
                  6: "float64", 20: "uint8", 21: "int8", 22: "bfloat16", 23: "complex64",
                  24: "complex128"}
_VARTYPE_DTYPES = VARTYPE_DTYPES


class _Const:
    """A value known when the program is read (``full``, ``full_int_array``, combined constants)."""

    __slots__ = ("value", "shape", "dtype")

    def __init__(self, value: Any, shape: list[int] | None, dtype: str) -> None:
        self.value, self.shape, self.dtype = value, shape, dtype

    def tensor(self) -> Tensor:
        if self.shape is None:  # an int array
            data = torch.tensor(self.value, dtype=_dt.to_torch_dtype(self.dtype))
        else:
            data = torch.full(self.shape, self.value, dtype=_dt.to_torch_dtype(self.dtype))
        return Tensor(data)

    def python(self) -> Any:
        if self.shape is None:
            return list(self.value)
        v = self.value
        if self.dtype.startswith(("int", "uint")) or self.dtype == "bool":
            v = int(v) if self.dtype != "bool" else bool(v)
        return v


class _Unsupported:
    """A value no pagaie op produces (a secondary output such as batch_norm's saved mean)."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what


class PaddleOp:
    """One Paddle op as seen by an argument mapper.

    Attributes:
        type (str): the Paddle op name (``'pd_op.conv2d'`` or legacy ``'conv2d'``).
        legacy (bool): from a protobuf ``.pdmodel`` (named input slots) rather than PIR.
        attrs (dict): the op's attributes, as Python values.
    """

    def __init__(self, type: str, legacy: bool, operands: Any, attrs: dict, translator: Any):
        self.type = type
        self.legacy = legacy
        self._operands = operands  # PIR: list; legacy: {slot: [operands]}
        self.attrs = attrs
        self._tr = translator
        self.declared: list | None = None  # PIR: (shape, dtype) Paddle declares per output

    def _raw(self, i: int, slot: str) -> Any:
        if self.legacy:
            args = self._operands.get(slot) or []
            if not args and i == 0 and slot == "X" and len(self._operands) == 1:
                args = next(iter(self._operands.values()))  # a unary op's one slot (Input...)
            if len(args) > 1:
                return list(args)
            return args[0] if args else None
        return self._operands[i] if i < len(self._operands) else None

    def has(self, i: int, slot: str = "") -> bool:
        return self._raw(i, slot) is not None

    def x(self, i: int = 0, slot: str = "X") -> Any:
        """Operand ``i`` (PIR) / slot ``slot`` (legacy) as a tensor (constants become tensors)."""
        v = self._raw(i, slot)
        return self._tr.as_tensor(v, self)

    def xs(self, i: int = 0, slot: str = "X") -> list:
        """A list operand (PIR ``builtin.combine``, legacy multi-argument slot) as tensors."""
        v = self._raw(i, slot)
        if isinstance(v, _Const) and v.shape is None:
            return [self._tr.as_tensor(_Const(e, [], v.dtype), self) for e in v.value]
        v = v if isinstance(v, list) else [v]
        return [self._tr.as_tensor(e, self) for e in v]

    def c(self, i: int, slot: str = "", attr: str = "", default: Any = None, list_slot: str = "") -> Any:
        """A value Paddle passes as an operand (PIR) or an attribute (legacy): a Python
        value when known, else the tensor (pagaie's ops accept tensors there too).
        ``list_slot``: the legacy slot holding the value as a list of one-element tensors
        (``StartsTensorList``, ``expand_shapes_tensor``...)."""
        if self.legacy:
            if list_slot and self._operands.get(list_slot):
                return [e.python() if isinstance(e, _Const) and list(e.shape or []) in ([], [1]) else
                        self._tr.as_tensor(e, self) for e in self._operands[list_slot]]
            if slot and self._operands.get(slot):
                v = self._raw(i, slot)
                if isinstance(v, _Const) and (v.shape is None or list(v.shape) in ([], [1])):
                    return v.python()  # a constant scalar (fill_constant): known now
                return self.x(i, slot)
            return self.attrs.get(attr, default)
        v = self._raw(i, slot)
        if v is None:
            return default
        if isinstance(v, _Const):
            return v.python()
        if isinstance(v, list):
            return [e.python() if isinstance(e, _Const) else self._tr.as_tensor(e, self) for e in v]
        return self._tr.as_tensor(v, self)

    def a(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)

    def call(self, record: str, *args: Any, **kwargs: Any) -> Any:
        """Record an extra op call (e.g. a reshape that legacy broadcasting needs)."""
        return self._tr.emit(record, args, kwargs)

    def call_typed(self, record: str, args: tuple, outs: list) -> Any:
        """Record a call whose outputs' ``(shape, dtype)`` are given (the kernel needs data)."""
        return self._tr.emit_typed(record, args, {}, outs)


Mapper = Callable[[PaddleOp], Any]


def _unary(op: PaddleOp):
    return (op.x(),), {}


def _xy(op: PaddleOp):
    """The two inputs ``X`` and ``Y``, as they are (no legacy broadcasting axis)."""
    return (op.x(0, "X"), op.x(1, "Y")), {}


def _shift(op: PaddleOp):
    """A bitwise shift: ``X``, ``Y`` and whether it is arithmetic."""
    return (op.x(0, "X"), op.x(1, "Y"), bool(op.a("is_arithmetic", True))), {}


def _binary(op: PaddleOp):
    x, y = op.x(0, "X"), op.x(1, "Y")
    axis = op.a("axis", -1) if op.legacy else -1
    if axis not in (-1, None) and isinstance(y, Tensor) and isinstance(x, Tensor) \
            and axis != x.ndim - y.ndim and y.ndim < x.ndim:
        # Legacy broadcasting aligns y at `axis`: append trailing unit dimensions.
        y = op.call("reshape", y, list(y.shape) + [1] * (x.ndim - axis - y.ndim))
    return (x, y), {}


def _pool(kind: str, adaptive: bool, nd: int = 2) -> Mapper:
    def mapper(op: PaddleOp):
        if op.a("pooling_type") != kind or bool(op.a("adaptive", False)) != adaptive:
            return None
        x = op.x(0, "X")
        if x.ndim != nd + 2:
            return None
        size = op.c(1, "", "ksize")
        if size is None:
            size = op.a("kernel_size")
        fmt = op.a("data_format", op.a("data_layout", "NCHW"))
        if op.a("global_pooling", False):
            if adaptive:
                size = [1] * nd
            else:
                size = list(x.shape[2:] if fmt.startswith("NC") else x.shape[1:-1])
        if adaptive:
            return ((x, size), {"data_format": fmt} if kind == "avg" else {})
        pads = list(op.a("paddings", [0] * nd))
        algo = op.a("padding_algorithm", "EXPLICIT")
        padding = algo if algo in ("SAME", "VALID") else pads
        kw = {"stride": list(op.a("strides")), "padding": padding, "ceil_mode": op.a("ceil_mode", False),
              "data_format": fmt}
        if kind == "avg":
            kw["exclusive"] = op.a("exclusive", True)
        return (x, size), kw
    return mapper


def _lp_pool(op: PaddleOp):
    # (lp_pool1d is recorded by Paddle as lp_pool2d over an unsqueezed input)
    x = op.x(0, "X")
    if x.ndim != 4:
        return None
    size = op.c(1, "", "kernel_size")
    if size is None:
        size = op.a("kernel_size", op.a("ksize"))
    algo = op.a("padding_algorithm", "EXPLICIT")
    padding = algo if algo in ("SAME", "VALID") else list(op.a("paddings", [0, 0]))
    return (x, op.a("norm_type"), list(size)), {
        "stride": list(op.a("strides")), "padding": padding, "ceil_mode": op.a("ceil_mode", False),
        "data_format": op.a("data_format", "NCHW")}


def _conv(op: PaddleOp):
    algo = op.a("padding_algorithm", "EXPLICIT")
    padding = algo if algo in ("SAME", "VALID") else list(op.a("paddings"))
    fmt = op.a("data_format", "NCHW")
    return (op.x(0, "Input"), op.x(1, "Filter")), {
        "stride": list(op.a("strides")), "padding": padding, "dilation": list(op.a("dilations")),
        "groups": op.a("groups", 1), "data_format": "NCHW" if fmt == "AnyLayout" else fmt}


def _conv_transpose(op: PaddleOp):
    (x, w), kw = _conv(op)
    out_pad = list(op.a("output_padding") or []) or 0
    size = op.c(2, "", "output_size")
    return (x, w), {**kw, "output_padding": out_pad, "output_size": size or None}


def _arg_reduce(op: PaddleOp):
    # argmax / argmin: the axis is an operand (a constant) in PIR, an attribute in legacy files
    # (``flatten``: the axis was None, the input is reduced as a whole)
    dtype = op.a("dtype") if not op.legacy else _VARTYPE_DTYPES.get(op.a("dtype", 3), "int64")
    axis = None if op.a("flatten", False) else op.c(1, "", "axis")
    return (op.x(), axis), {"keepdim": op.a("keepdims", False), "dtype": dtype}


def _batch_norm(op: PaddleOp):
    if op.legacy:
        x, mean, var, w, b = (op.x(0, s) for s in ("X", "Mean", "Variance", "Scale", "Bias"))
    else:
        x, mean, var, w, b = (op.x(i) if op.has(i) else None for i in range(5))
    fmt = op.a("data_format", op.a("data_layout", "NCHW"))
    is_test = op.a("is_test", True)
    # the op normalises with the running statistics when is_test *or* use_global_stats
    # (functional batch_norm's use_global_stats=False would mean batch statistics)
    use_global = True if is_test or op.a("use_global_stats") else None
    return (x, mean, var, w, b), {"training": not is_test, "momentum": op.a("momentum", 0.9),
                                  "epsilon": op.a("epsilon", 1e-5), "data_format": fmt,
                                  "use_global_stats": use_global}


def _layer_norm(op: PaddleOp):
    x = op.x(0, "X")
    w = op.x(1, "Scale") if op.has(1, "Scale") else None
    b = op.x(2, "Bias") if op.has(2, "Bias") else None
    axis = op.a("begin_norm_axis", 1)
    shape = list(x.shape[axis:])
    if w is not None and any(d < 0 for d in shape):
        shape = [w.shape[0]] if len(shape) == 1 else shape
    return (x, shape, w, b, op.a("epsilon", 1e-5)), {}


def _reduce(op: PaddleOp):
    axis = op.c(1, "", "dim", None)
    if axis is None and not op.legacy:
        axis = op.a("axis")
    if op.legacy and op.a("reduce_all", False):
        axis = None
    keep = op.a("keepdim", op.a("keep_dim", False))
    axis = None if axis == [] else axis
    return (op.x(),), {"axis": axis, "keepdim": keep}


def _sum(op: PaddleOp):
    if op.type == "add_n" or (op.legacy and op.type == "sum"):
        return None
    (x,), kw = _reduce(op)
    dt = op.a("dtype")
    if isinstance(dt, str) and not dt.startswith("Undefined"):
        kw["dtype"] = dt
    out_dt = op.a("out_dtype", -1)
    if op.legacy and out_dt not in (-1, None):
        kw["dtype"] = _VARTYPE_DTYPES[out_dt]
    return (x,), kw


def _slice(op: PaddleOp):
    axes = list(op.a("axes"))
    starts = op.c(1, "StartsTensor", "starts", list_slot="StartsTensorList")
    ends = op.c(2, "EndsTensor", "ends", list_slot="EndsTensorList")
    x = op.x(0, "Input")
    dec = [a + x.ndim if a < 0 else a for a in (op.a("decrease_axis") or [])]
    dynamic = any(isinstance(v, Value) for v in _leaves([starts, ends]))
    if dynamic or any(x.shape[a] < 0 for a in dec):
        # bounds known only at run time, or an axis Paddle drops of unknown size: the sliced
        # sizes are unknown where they depend on either (1 where Paddle drops the axis)
        shape = list(x.shape)
        for i, a in enumerate(axes):
            a = a + x.ndim if a < 0 else a
            if a in dec:
                shape[a] = 1
            elif dynamic or shape[a] < 0:
                shape[a] = -1
            else:
                shape[a] = len(range(*slice(starts[i], ends[i]).indices(shape[a])))
        out = op.call_typed("slice", (x, axes, starts, ends), [(shape, x.dtype.name)])
    else:
        out = op.call("slice", x, axes, starts, ends)
    if dec:
        out = op.call("squeeze", out, dec)
    return ("identity", out)


def _leaves(v: Any) -> list:
    if isinstance(v, (list, tuple)):
        return [e for x in v for e in _leaves(x)]
    return [v]


def _scale(op: PaddleOp):
    s = op.c(1, "ScaleTensor", "scale", 1.0)
    return (op.x(), s, float(op.a("bias", 0.0)), bool(op.a("bias_after_scale", True))), {}


def _interpolate(op: PaddleOp):
    x = op.x(0, "X")
    nd = x.ndim - 2
    scale = list(op.a("scale") or []) or None
    sizes = [s for s in (op.a("out_d", -1), op.a("out_h", -1), op.a("out_w", -1)) if s and s > 0]
    sizes = sizes[-nd:] if sizes else None
    # sizes or scales known at run time (``size=y.shape[2:]``): they take precedence over the
    # attributes, as in Paddle's kernel (SizeTensor, then OutSize, then Scale)
    if op.has(2, "SizeTensor"):   # (the sizes known now as ints)
        sizes = [e if isinstance(e, Value) else int(e.numpy().reshape(-1)[0]) for e in op.xs(2, "SizeTensor")]
        scale = None
    elif op.has(1, "OutSize"):   # a [nd] tensor: one size per element
        t = op.x(1, "OutSize")
        sizes, scale = list(op.call("split", t, t.shape[0], 0)), None
    elif op.has(3, "Scale"):   # a scale factor tensor: its values when known now
        scale = op.x(3, "Scale")
        if not isinstance(scale, Value):   # (one value: the factor of every axis)
            scale = [float(v) for v in scale.numpy().reshape(-1)]
            scale = scale * nd if len(scale) == 1 else scale
    fmt = _layout(op.a("data_format", op.a("data_layout", "NCHW")), nd)
    kwargs = {"size": sizes, "scale_factor": None if sizes is not None else scale,
              "mode": op.a("interp_method", "nearest"), "align_corners": op.a("align_corners", False),
              "align_mode": op.a("align_mode", 0), "data_format": fmt}
    if isinstance(sizes, list) and any(isinstance(e, Value) for e in sizes) or isinstance(scale, Value):
        # sizes known at run time only: the output type is Paddle's (or N, C and unknowns)
        declared = (op.declared or [None])[0]
        if declared is None:
            keep = [0, 1] if fmt.startswith("NC") else [0, x.ndim - 1]
            declared = ([d if i in keep else -1 for i, d in enumerate(x.shape)], x.dtype.name)
        return ("identity", op._tr.emit_typed("interpolate", (x,), kwargs, [declared]))
    return (x,), kwargs


def _dropout(op: PaddleOp):
    p = op.a("dropout_prob", 0.5) if op.legacy else op.c(2)
    mode = op.a("mode", op.a("dropout_implementation", "upscale_in_train"))
    mode = "downscale_in_infer" if mode == "downgrade_in_infer" else mode
    return (op.x(),), {"p": float(p), "training": not op.a("is_test", True), "mode": mode}


def _split(op: PaddleOp):
    if op.legacy:
        num = op.a("num", 0)
        return (op.x(), num or list(op.a("sections"))), {"axis": op.c(0, "AxisTensor", "axis", 0)}
    if op.type.endswith("split_with_num"):
        return (op.x(), int(op.a("num"))), {"axis": op.c(1)}
    return (op.x(), op.c(1)), {"axis": op.c(2)}


def _cast(op: PaddleOp):
    dt = op.a("dtype")
    if op.legacy:
        dt = _VARTYPE_DTYPES[op.a("out_dtype")]
    return (op.x(), dt), {}


def _matmul(op: PaddleOp):
    tx = op.a("transpose_x", op.a("trans_x", False))
    ty = op.a("transpose_y", op.a("trans_y", False))
    return (op.x(0, "X"), op.x(1, "Y"), bool(tx), bool(ty)), {}


def _attr_unary(*names: str) -> Mapper:
    """``record(x, <attributes named ``names``>)``: Paddle's attribute order is the record's."""
    def mapper(op: PaddleOp):
        return (op.x(),) + tuple(op.a(n) for n in names), {}
    return mapper


def _cum(op: PaddleOp):
    x = op.x()
    if op.type.endswith("cumprod"):
        axis = op.a("dim", -1)
    else:
        axis = None if op.a("flatten", False) else op.c(1, "", "axis", -1)
    if axis is None:
        x, axis = op.call("flatten", x), 0
    name = "cumprod" if op.type.endswith("cumprod") else "cumsum"
    rev = bool(op.a("reverse", False))
    if rev:
        x = op.call("flip", x, [axis])
    out = op.call(name, x, axis)
    if op.a("exclusive", False):  # shift by one: the op over the elements before each one
        out = op.call("divide", out, x) if name == "cumprod" else op.call("subtract", out, x)
    if rev:
        out = op.call("flip", out, [axis])
    return ("identity", out)


def _p_norm(op: PaddleOp):
    axis = None if op.a("asvector", False) else op.a("axis", -1)
    return (op.x(), float(op.a("porder", 2.0)), axis, bool(op.a("keepdim", False))), {}


def _clip(op: PaddleOp):
    x, lo, hi = op.x(), op.c(1, "Min", "min"), op.c(2, "Max", "max")
    if x.dtype.name.startswith(("int", "uint")):
        # the op keeps x's dtype (the API would promote an integer x with float bounds)
        lo, hi = [int(v) if isinstance(v, float) else v for v in (lo, hi)]
    return (x, lo, hi), {}


def _pad3d(op: PaddleOp):
    if op.type in ("pd_op.pad", "pad"):   # every dim: [before_0, after_0, before_1, ...]
        value = op.c(1, "", "pad_value", 0.0)
        return (op.x(), list(op.a("paddings"))), {"value": float(value), "pad_from_left_axis": True}
    pads = op.c(1, "Paddings", "paddings")
    value = op.a("pad_value", op.a("value", 0.0))  # (legacy: ``value``)
    return (op.x(), pads), {"mode": op.a("mode", "constant"), "value": float(value),
                            "data_format": op.a("data_format", "NCDHW")}


def _strided_slice(op: PaddleOp):
    return (op.x(0, "Input"), list(op.a("axes")), op.c(1, "StartsTensorList", "starts"),
            op.c(2, "EndsTensorList", "ends"), op.c(3, "StridesTensorList", "strides")), {}


def _topk(op: PaddleOp):
    vals, idx = op.call("topk", op.x(), op.c(1, "K", "k"), op.a("axis", -1), op.a("largest", True),
                        op.a("sorted", True))
    return ("outputs", [vals, idx])


def _argsort(op: PaddleOp):
    x, axis = op.x(), op.a("axis", -1)
    idx = op.call("argsort", x, axis, bool(op.a("descending", False)), bool(op.a("stable", False)))
    return ("outputs", [op.call("take_along_axis", x, idx, axis), idx])


def _group_norm(op: PaddleOp):
    x = op.x(0, "X")
    w = op.x(1, "Scale") if op.has(1, "Scale") else None
    b = op.x(2, "Bias") if op.has(2, "Bias") else None
    return (x, op.a("groups"), op.a("epsilon", 1e-5), w, b, op.a("data_format", "NCHW")), {}


def _instance_norm(op: PaddleOp):
    x = op.x(0, "X")
    w = op.x(1, "Scale") if op.has(1, "Scale") else None
    b = op.x(2, "Bias") if op.has(2, "Bias") else None
    return (x,), {"weight": w, "bias": b, "eps": op.a("epsilon", 1e-5)}


def _arange(op: PaddleOp):
    return (op.c(0, "Start"), op.c(1, "End"), op.c(2, "Step")), {"dtype": op.a("dtype")}


def _linspace(op: PaddleOp):
    dt = op.a("dtype")
    if op.legacy:
        dt = _VARTYPE_DTYPES.get(dt, dt)
    return (op.c(0, "Start"), op.c(1, "Stop"), op.c(2, "Num")), {"dtype": dt}


def _full_like(op: PaddleOp):
    dt = op.a("dtype")
    if op.legacy:
        dt = _VARTYPE_DTYPES.get(dt)
    return (op.x(), op.c(1, "ValueTensor", "value")), {"dtype": None if dt in (None, "Undefined") else dt}


def _full_with_tensor(op: PaddleOp):
    if op.type == "fill_constant":  # legacy, with a shape or value known only at run time
        return _fill_constant(op)
    if op.type == "pd_op.full_batch_size_like":
        return _full_batch_size_like(op)
    if op.type != "pd_op.full_with_tensor":
        return None
    value = op.c(0)
    if isinstance(value, list):
        value = value[0]
    return (op.c(1), value, op.a("dtype")), {}


def _full_batch_size_like(op: PaddleOp):
    """``full`` of the attribute shape with one size read from the input's shape."""
    x = op.x()
    i, o = op.a("input_dim_idx", 0), op.a("output_dim_idx", 0)
    shape: list = list(op.a("shape"))
    size = x.shape[i]
    shape[o] = size if size >= 0 else op.call("slice", op.call("shape", x), [0], [i], [i + 1])
    return (shape, op.a("value"), op.a("dtype")), {}


def _fill_constant(op: PaddleOp):
    if op.has(0, "ShapeTensor"):
        shape = op.x(0, "ShapeTensor")
    elif op.has(0, "ShapeTensorList"):
        shape = op.xs(0, "ShapeTensorList")
    else:
        shape = list(op.a("shape") or [])
    if op.has(0, "ValueTensor"):
        value = op.x(0, "ValueTensor")
    else:
        text = op.a("str_value") or ""
        value = float(text) if text else op.a("value", 0.0)
    return (shape, value, _VARTYPE_DTYPES.get(op.a("dtype"), "float32")), {}


def _assign_value(op: PaddleOp):
    dt = op.a("dtype")
    if op.legacy:
        dt = _VARTYPE_DTYPES.get(dt, dt)
    vals = op.a("values")
    if vals is None:  # legacy: one list per dtype
        vals = next((op.a(k) for k in ("fp32_values", "int32_values", "int64_values", "bool_values",
                                       "fp64_values") if op.a(k)), [])
    data = np.asarray(vals, dtype=np.float64).reshape(list(op.a("shape")))
    return ("identity", Tensor(torch.from_numpy(data).to(_dt.to_torch_dtype(dt))))


def _expand_as(op: PaddleOp):
    if op.has(1, "Y"):
        return (op.x(), op.x(1, "Y")), {}
    return ("identity", op.call("expand", op.x(), list(op.a("target_shape"))))


def _einsum(op: PaddleOp):
    return (op.a("equation"), *op.xs(0, "Operands")), {}


def _repeat_interleave(op: PaddleOp):
    if op.legacy:  # one op: a tensor of repeats in RepeatsTensor, else the Repeats attribute
        reps = op.x(1, "RepeatsTensor") if op.has(1, "RepeatsTensor") else op.a("Repeats")
        return (op.x(), reps, op.a("dim")), {}
    reps = op.x(1, "RepeatsTensor") if op.type.endswith("with_tensor_index") else op.a("repeats")
    return (op.x(), reps, op.a("axis")), {}


def _rnn(op: PaddleOp):
    seq = op.x(3, "SequenceLength") if op.has(3, "SequenceLength") else None
    x, pre = op.x(0, "Input"), op.xs(1, "PreState")
    args = (x, pre, op.xs(2, "WeightList"), seq, float(op.a("dropout_prob", 0.0)),
            bool(op.a("is_bidirec", False)), op.a("input_size"), op.a("hidden_size"), op.a("num_layers", 1),
            op.a("mode", "LSTM"), op.a("seed", 0), bool(op.a("is_test", True)))
    try:
        out, states = op.call("rnn", *args)
    except (ValueError, RuntimeError, TypeError):
        if seq is None or not any(-1 in list(t.shape) for t in [x, *pre]):
            raise
        # the lengths' data decide the packing: the kernel cannot run on placeholder sizes,
        # but the output sizes follow the operands'
        width = op.a("hidden_size") * (2 if op.a("is_bidirec", False) else 1)
        dt = x.dtype.name
        out, states = op.call_typed("rnn", args, [(list(x.shape[:-1]) + [width], dt),
                                                   [(list(h.shape), dt) for h in pre]])
    return ("outputs", [out, None, list(states), None])


def _softmax_ce(op: PaddleOp):
    if not op.a("use_softmax", True):
        return None
    loss, sm = op.call("softmax_with_cross_entropy", op.x(0, "Logits"), op.x(1, "Label"),
                       bool(op.a("soft_label", False)), op.a("ignore_index", -100),
                       bool(op.a("numeric_stable_mode", True)), True, op.a("axis", -1))
    return ("outputs", [sm, loss])


def _huber(op: PaddleOp):
    x, y = op.x(0, "X"), op.x(1, "Y")
    loss = op.call("smooth_l1_loss", x, y, "none", float(op.a("delta", 1.0)))
    return ("outputs", [loss, op.call("subtract", y, x)])


def _prelu(op: PaddleOp):
    return (op.x(0, "X"), op.x(1, "Alpha")), {"data_format": op.a("data_format", "NCHW")}


def _unfold(op: PaddleOp):
    return (op.x(), list(op.a("kernel_sizes")), list(op.a("strides")), list(op.a("paddings")),
            list(op.a("dilations"))), {}


def _embedding(op: PaddleOp):
    pad = None if op.a("padding_idx", -1) == -1 else op.a("padding_idx")
    return (op.x(0, "Ids"), op.x(1, "W")), {"padding_idx": pad}


def _max_pool_with_index(op: PaddleOp):
    if not op.type.endswith("_with_index"):
        return None
    x = op.x()
    nd = x.ndim - 2
    size = list(op.a("kernel_size", op.a("ksize")))
    if op.a("adaptive", False):
        name = f"adaptive_max_pool{nd}d"
        out = op.call(name, x, size, True)
    else:
        if op.a("global_pooling", False):
            size = list(x.shape[2:])
        out = op.call(f"max_pool{nd}d", x, size, list(op.a("strides")), list(op.a("paddings")), True,
                      bool(op.a("ceil_mode", False)))
    return ("outputs", list(out))


# Argument mapping, one entry per op record (the Paddle op names are in the records).
ARGS: dict[str, Mapper] = {
    **{n: _unary for n in ("relu", "sigmoid", "tanh", "exp", "sqrt", "rsqrt", "abs", "erf",
                           "silu", "swish", "relu6", "hardswish", "log", "floor", "ceil", "sign",
                           "square", "sin", "cos", "reciprocal", "softsign", "mish", "assign",
                           "logical_not", "isnan", "shape", "asin", "acos", "atan", "sinh", "cosh",
                           "tan", "asinh", "acosh", "atanh", "expm1", "log1p", "log2", "log10", "trunc",
                           "isfinite", "isinf", "log_sigmoid", "tanhshrink", "nonzero", "numel",
                           "bitwise_not")},
    **{n: _binary for n in ("add", "subtract", "multiply", "divide", "maximum", "minimum",
                            "floor_divide", "remainder", "equal", "not_equal", "less_than",
                            "less_equal", "greater_than", "greater_equal", "logical_and",
                            "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
                            "fmax", "fmin", "heaviside")},
    "atan2": lambda op: ((op.x(0, "X1"), op.x(1, "X2")), {}),
    "matmul": _matmul,
    "gelu": lambda op: ((op.x(),), {"approximate": bool(op.a("approximate", False))}),
    "softmax": lambda op: ((op.x(),), {"axis": op.a("axis", -1)}),
    "log_softmax": lambda op: ((op.x(),), {"axis": op.a("axis", -1)}),
    "leaky_relu": lambda op: ((op.x(), op.a("negative_slope", op.a("alpha", 0.01))), {}),
    "hardsigmoid": lambda op: ((op.x(), op.a("slope", 0.1666667), op.a("offset", 0.5)), {}),
    "pow": lambda op: _binary(op) if op.type.endswith("elementwise_pow") else
    ((op.x(), float(op.a("y", op.a("factor", 1.0)))), {}),
    "clip": _clip,
    "scale": _scale,
    "increment": lambda op: ((op.x(), float(op.a("value", 1.0))), {}),
    "sequence_mask": lambda op: ((op.x(0, "X"), op.c(1, "MaxLenTensor", "maxlen")),
                                 {"dtype": _VARTYPE_DTYPES.get(op.a("out_dtype"), op.a("out_dtype"))}),
    "cast": _cast,
    "conv2d": lambda op: None if op.x(0, "Input").ndim != 4 else _conv(op),
    "conv2d_transpose": lambda op: None if op.x(0, "Input").ndim != 4 else _conv_transpose(op),
    "batch_norm": _batch_norm,
    "layer_norm": _layer_norm,
    "max_pool2d": lambda op: _max_pool_with_index(op) or _pool("max", False)(op),
    "avg_pool2d": _pool("avg", False),
    "lp_pool2d": _lp_pool,
    "adaptive_avg_pool2d": _pool("avg", True),
    "adaptive_max_pool2d": lambda op: _max_pool_with_index(op) or _pool("max", True)(op),
    "reshape": lambda op: ((op.x(), op.c(1, "Shape", "shape", list_slot="ShapeTensor")), {}),
    "transpose": lambda op: ((op.x(), list(op.a("perm", op.a("axis")))), {}),
    "flatten": lambda op: ((op.x(), op.a("start_axis", 0), op.a("stop_axis", -1)), {}),
    "concat": lambda op: ((op.xs(0, "X"), op.c(1, "AxisTensor", "axis", 0)), {}),
    "stack": lambda op: ((op.xs(0, "X"), op.a("axis", 0)), {}),
    "squeeze": lambda op: ((op.x(), op.c(1, "AxesTensor", "axes", list_slot="AxesTensorList") or None), {}),
    "unsqueeze": lambda op: ((op.x(), op.c(1, "AxesTensor", "axes", list_slot="AxesTensorList")), {}),
    "tile": lambda op: ((op.x(), op.c(1, "RepeatTimes", "repeat_times",
                                      list_slot="repeat_times_tensor")), {}),
    "expand": lambda op: ((op.x(), op.c(1, "Shape", "shape", list_slot="expand_shapes_tensor")), {}),
    "slice": _slice,
    "split": _split,
    "mean": _reduce,
    "sum": _sum,
    "max": _reduce,
    "min": _reduce,
    "prod": _reduce,
    "dropout": _dropout,
    "embedding": _embedding,
    "interpolate": _interpolate,
    "argmax": _arg_reduce,
    "where": lambda op: ((op.x(0, "Condition"), op.x(1, "X"), op.x(2, "Y")), {}),
    "gather": lambda op: ((op.x(0, "X"), op.x(1, "Index"), op.c(2, "Axis", "axis", 0)), {}),
    "bmm": _xy,
    "gather_nd": lambda op: ((op.x(0, "X"), op.x(1, "Index")), {}),
    "masked_select": lambda op: ((op.x(0, "X"), op.x(1, "Mask")), {}),
    "lerp": lambda op: ((op.x(0, "X"), op.x(1, "Y"), op.x(2, "Weight")), {}),
    "elu": _attr_unary("alpha"),
    "celu": _attr_unary("alpha"),
    "selu": _attr_unary("scale", "alpha"),
    "hardshrink": _attr_unary("threshold"),
    "softshrink": lambda op: ((op.x(), op.a("threshold", op.a("lambda", 0.5))), {}),
    "hardtanh": _attr_unary("t_min", "t_max"),
    "softplus": _attr_unary("beta", "threshold"),
    "thresholded_relu": _attr_unary("threshold", "value"),
    "round": _attr_unary("decimals"),
    "tril": _attr_unary("diagonal"),
    "triu": _attr_unary("diagonal"),
    "flip": lambda op: ((op.x(), list(op.a("axis"))), {}),
    "diagonal": _attr_unary("offset", "axis1", "axis2"),
    "unbind": _attr_unary("axis"),
    "pixel_shuffle": _attr_unary("upscale_factor", "data_format"),
    "pixel_unshuffle": _attr_unary("downscale_factor", "data_format"),
    "channel_shuffle": _attr_unary("groups", "data_format"),
    "logsumexp": lambda op: ((op.x(), None if op.a("reduce_all") else list(op.a("axis") or []) or None,
                              op.a("keepdim", False)), {}),
    "all": _reduce,
    "any": _reduce,
    "amax": _reduce,
    "amin": _reduce,
    "argmin": _arg_reduce,
    "cumsum": _cum,
    "cumprod": _cum,
    "norm": _p_norm,
    "pad": _pad3d,
    "strided_slice": _strided_slice,
    "topk": _topk,
    "argsort": _argsort,
    "group_norm": _group_norm,
    "instance_norm": _instance_norm,
    "arange": _arange,
    "linspace": _linspace,
    "full_like": _full_like,
    "full": _full_with_tensor,
    "to_tensor": _assign_value,
    "expand_as": _expand_as,
    "einsum": _einsum,
    "repeat_interleave": _repeat_interleave,
    "rnn": _rnn,
    "cross_entropy": _softmax_ce,
    "smooth_l1_loss": _huber,
    "binary_cross_entropy": lambda op: ((op.x(0, "X"), op.x(1, "Label"), None, "none"), {}),
    "prelu": _prelu,
    "unfold": _unfold,
    "index_select": lambda op: ((op.x(0, "X"), op.x(1, "Index"), op.a("axis", op.a("dim", 0))), {}),
    "take_along_axis": lambda op: ((op.x(0, "Input"), op.x(1, "Index"), op.a("axis", op.a("Axis"))), {}),
    "scatter": lambda op: ((op.x(0, "X"), op.x(1, "Ids"), op.x(2, "Updates"), bool(op.a("overwrite", True))),
                           {}),
    "masked_fill": lambda op: ((op.x(0, "x"), op.x(1, "mask"), op.x(2, "value")), {}),
    "label_smooth": lambda op: ((op.x(0, "X"), op.x(1, "PriorDist") if op.has(1, "PriorDist") else None,
                                 float(op.a("epsilon", 0.1))), {}),
    "one_hot": lambda op: ((op.x(0, "X"), op.c(1, "depth_tensor", "depth")), {}),
    "roll": lambda op: ((op.x(), op.c(1, "ShiftsTensor", "shifts"), list(op.a("axis") or []) or None), {}),
    "conv3d": lambda op: None if op.x(0, "Input").ndim != 5 else _conv(op),
    "max_pool3d": lambda op: _max_pool_with_index(op) or _pool("max", False, 3)(op),
    "adaptive_max_pool3d": _max_pool_with_index,
    "avg_pool3d": _pool("avg", False, 3),
    "adaptive_avg_pool3d": _pool("avg", True, 3),
}



# ---- detection, vision and less common ops (Paddle 3.3.1 PIR operand order) --------------
def _layout(fmt: Any, nd: int) -> str:
    """Paddle writes ``NCHW``/``NHWC`` as the layout of 1-D and 3-D ops too: the layout
    pagaie's API takes for ``nd`` spatial dims."""
    last = str(fmt).upper() in ("NHWC", "NWC", "NDHWC")
    return {1: ("NCW", "NWC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}.get(nd, ("NCHW", "NHWC"))[last]


def _fold(op: PaddleOp):
    return (op.x(), list(op.a("output_sizes")), list(op.a("kernel_sizes")), list(op.a("strides")),
            list(op.a("paddings")), list(op.a("dilations"))), {}


def _grid_sample(op: PaddleOp):
    return (op.x(0, "X"), op.x(1, "Grid")), {"mode": op.a("mode", "bilinear"),
                                            "padding_mode": op.a("padding_mode", "zeros"),
                                            "align_corners": bool(op.a("align_corners", True))}


def _rois(op: PaddleOp) -> tuple:
    """``(x, boxes, boxes_num, [pooled_height, pooled_width])`` of the RoI pooling ops."""
    num = op.x(2, "RoisNum") if op.has(2, "RoisNum") else None
    return op.x(0, "X"), op.x(1, "ROIs"), num, [op.a("pooled_height", 1), op.a("pooled_width", 1)]


def _roi_align(op: PaddleOp):
    x, boxes, num, size = _rois(op)
    return (x, boxes, num, size), {"spatial_scale": float(op.a("spatial_scale", 1.0)),
                                   "sampling_ratio": op.a("sampling_ratio", -1),
                                   "aligned": bool(op.a("aligned", False))}


def _roi_pool(op: PaddleOp):
    x, boxes, num, size = _rois(op)
    args = (x, boxes, num, size, float(op.a("spatial_scale", 1.0)))
    try:
        out = op.call("roi_pool", *args)
    except (ValueError, RuntimeError, TypeError):
        if -1 not in list(boxes.shape):
            raise
        # the kernel checks boxes_num against the boxes: not on placeholder sizes
        out = op.call_typed("roi_pool", args, [([boxes.shape[0], x.shape[1]] + size, x.dtype.name)])
    return ("outputs", [out, None])   # (the arg-max output is for the gradient kernel)


def _psroi_pool(op: PaddleOp):
    x, boxes, num, size = _rois(op)
    return (x, boxes, num, size, float(op.a("spatial_scale", 1.0))), {}


def _yolo_box(op: PaddleOp):
    boxes, scores = op.call("yolo_box", op.x(0, "X"), op.x(1, "ImgSize"), list(op.a("anchors")),
                            op.a("class_num"), float(op.a("conf_thresh")), op.a("downsample_ratio"),
                            bool(op.a("clip_bbox", True)), None, float(op.a("scale_x_y", 1.0)),
                            bool(op.a("iou_aware", False)), float(op.a("iou_aware_factor", 0.5)))
    return ("outputs", [boxes, scores])


def _prior_box(op: PaddleOp):
    box, var = op.call("prior_box", op.x(0, "Input"), op.x(1, "Image"), list(op.a("min_sizes")),
                       list(op.a("max_sizes") or []) or None, list(op.a("aspect_ratios") or [1.0]),
                       list(op.a("variances")), bool(op.a("flip", False)), bool(op.a("clip", False)),
                       [float(op.a("step_w", 0.0)), float(op.a("step_h", 0.0))], float(op.a("offset", 0.5)),
                       bool(op.a("min_max_aspect_ratios_order", False)))
    return ("outputs", [box, var])


def _box_coder(op: PaddleOp):
    var = op.x(1, "PriorBoxVar") if op.has(1, "PriorBoxVar") else (list(op.a("variance") or []) or [1.0, 1.0, 1.0, 1.0])
    return (op.x(0, "PriorBox"), var, op.x(2, "TargetBox"), op.a("code_type", "encode_center_size"),
            bool(op.a("box_normalized", True)), op.a("axis", 0)), {}


def _deformable_conv(op: PaddleOp):
    mask = op.x(3, "Mask") if op.has(3, "Mask") else None
    return (op.x(0, "Input"), op.x(1, "Offset"), op.x(2, "Filter"), None, list(op.a("strides")),
            list(op.a("paddings")), list(op.a("dilations")), op.a("deformable_groups", 1), op.a("groups", 1),
            mask), {}


def _affine_grid(op: PaddleOp):
    shape = op.c(1, "OutputShape", "output_shape")
    return (op.x(0, "Theta"), shape), {"align_corners": bool(op.a("align_corners", True))}


def _nms(op: PaddleOp):
    # the kept count depends on the data: the output is [-1] int64 without a trial run (one on
    # placeholder sizes is quadratic in the unknown number of boxes)
    args = (op.x(0, "Boxes"), float(op.a("threshold", op.a("iou_threshold", 0.3))))
    return ("identity", op.call_typed("nms", args, [([-1], "int64")]))


def _distribute_fpn(op: PaddleOp):
    num = op.x(1, "RoisNum") if op.has(1, "RoisNum") else None
    multi, restore, nums = op.call("distribute_fpn_proposals", op.x(0, "FpnRois"), op.a("min_level"),
                                   op.a("max_level"), op.a("refer_level"), op.a("refer_scale"),
                                   bool(op.a("pixel_offset", False)), num)
    return ("outputs", [list(multi), list(nums) if nums is not None else None, restore])


def _matrix_nms(op: PaddleOp):
    out, num, index = op.call("matrix_nms", op.x(0, "BBoxes"), op.x(1, "Scores"),
                              float(op.a("score_threshold")), float(op.a("post_threshold")),
                              op.a("nms_top_k"), op.a("keep_top_k"), bool(op.a("use_gaussian", False)),
                              float(op.a("gaussian_sigma", 2.0)), op.a("background_label", 0),
                              bool(op.a("normalized", True)), True, True)
    return ("outputs", [out, index, num])   # the op's order


def _two_out(record: str, *attrs: tuple) -> Mapper:
    """An op with (values, indices) outputs: ``record(x, <attributes>)``."""
    def mapper(op: PaddleOp):
        vals, idx = op.call(record, op.x(), *[op.a(n, d) for n, d in attrs])
        return ("outputs", [vals, idx])
    return mapper


def _median_of(record: str):
    """``pd_op.median`` / ``pd_op.nanmedian``: the value and (in ``'min'`` mode) its index."""
    def mapper(op: PaddleOp):
        axis = op.a("axis")
        axis = None if axis in (None, []) else (axis[0] if isinstance(axis, list) and len(axis) == 1 else axis)
        mode = op.a("mode", "avg")
        out = op.call(record, op.x(), axis, bool(op.a("keepdim", False)), mode)
        if isinstance(out, (tuple, list)):
            return ("outputs", list(out))
        return ("outputs", [out, None])
    return mapper


def _unique(op: PaddleOp):
    axis = op.a("axis")
    axis = None if axis in (None, []) else (axis[0] if isinstance(axis, list) and len(axis) == 1 else axis)
    dt = op.a("dtype", "int64")
    dt = _VARTYPE_DTYPES.get(dt, dt)
    outs = op.call("unique", op.x(), True, True, True, axis, dt, bool(op.a("is_sorted", op.a("sorted", True))))
    return ("outputs", list(outs))


def _logcumsumexp(op: PaddleOp):
    x = op.x()
    axis = None if op.a("flatten", False) else op.a("axis", -1)
    rev, excl = bool(op.a("reverse", False)), bool(op.a("exclusive", False))
    if excl:
        raise NotImplementedError(f"paddle.inference: {op.type} with exclusive=True is not supported yet")
    if rev:
        x = op.call("flip", x, [axis if axis is not None else 0])
    out = op.call("logcumsumexp", x, axis)
    if rev:
        out = op.call("flip", out, [axis if axis is not None else 0])
    return ("identity", out)


def _index_add(op: PaddleOp):
    return (op.x(0, "X"), op.x(1, "Index"), op.a("axis", 0), op.x(2, "AddValue")), {}


def _index_put(op: PaddleOp):
    return (op.x(0, "x"), tuple(op.xs(1, "indices")), op.x(2, "value"), bool(op.a("accumulate", False))), {}


def _unpool(op: PaddleOp):
    x = op.x(0, "X")
    size = op.c(2, "", "output_size")
    size = list(size) if isinstance(size, (list, tuple)) and len(size) else None
    if size is not None and len(size) != x.ndim - 2:
        size = size[-(x.ndim - 2):]
    return (x, op.x(1, "Indices"), list(op.a("ksize")), list(op.a("strides")), list(op.a("padding", op.a("paddings")))), \
        {"data_format": _layout(op.a("data_format", "NCHW"), x.ndim - 2), "output_size": size}


def _conv_transpose_nd(nd: int) -> Mapper:
    def mapper(op: PaddleOp):
        if op.x(0, "Input").ndim != nd + 2:
            return None
        args, kw = _conv_transpose(op)
        kw["data_format"] = _layout(kw["data_format"], nd)
        return args, kw
    return mapper


def _fft(record: str) -> Mapper:
    """``fft_c2c`` / ``fft_r2c`` / ``fft_c2r`` (one op over a list of axes, its direction an
    attribute) as the n-D transform ``record`` it is."""
    def mapper(op: PaddleOp):
        kind, fwd = op.type.split(".")[-1], bool(op.a("forward", True))
        if kind == "fft_r2c" and op.a("onesided", True):
            which = "rfftn" if fwd else "ihfftn"
        elif kind == "fft_c2r":
            which = "hfftn" if fwd else "irfftn"
        else:   # c2c, or r2c of both halves (fft of a real input)
            which = "fftn" if fwd else "ifftn"
        if which != record:
            return None
        x, axes = op.x(), list(op.a("axes"))
        s = None
        last = op.a("last_dim_size", 0)
        if kind == "fft_c2r" and last:   # the output length of the last axis: the others kept
            s = [x.shape[a] for a in axes[:-1]] + [last]
            if any(n < 0 for n in s):
                raise NotImplementedError(f"paddle.inference: {op.type} with last_dim_size over an axis of "
                                          "unknown size is not supported yet")
        return (x, s, axes, op.a("normalization", "backward")), {}
    return mapper


def _set_value(op: PaddleOp):
    """PIR ``set_value`` / ``set_value_with_tensor`` (``x[index] = value``, the index as
    starts / ends / steps over ``axes``; a ``decrease_axes`` axis indexed by one position):
    ``setitem`` into a copy of ``x``, which the reader binds to ``x``."""
    x = op.x()
    if op.type.endswith("with_tensor"):
        value, first = op.x(1), 2
    else:
        data = np.asarray(op.a("values"), dtype=np.float64).reshape(list(op.a("shape")))
        value, first = Tensor(torch.from_numpy(data).to(_dt.to_torch_dtype(x.dtype.name))), 1
    if op.a("none_axes"):
        raise NotImplementedError(f"paddle.inference: {op.type} with none_axes is not supported yet")
    starts, ends, steps = (op.c(first + k) for k in range(3))
    index: list = [slice(None)] * x.ndim
    dec = set(op.a("decrease_axes") or [])
    for a, s, e, st in zip(op.a("axes"), starts, ends, steps):
        index[a] = s if a in dec else slice(s, e, st)
    return ("identity", op.call("setitem", op.call("assign", x), tuple(index), value))


def _gaussian(op: PaddleOp):
    shape = op.c(0, "ShapeTensor", "shape")
    out = op.call("normal", float(op.a("mean", 0.0)), float(op.a("std", 1.0)), shape)
    dt = op.a("dtype", "float32")
    return ("identity", out if dt in (None, "float32") else op.call("cast", out, dt))


def _unique_consecutive(op: PaddleOp):
    axis = op.a("axis")
    axis = None if axis in (None, []) else (axis[0] if isinstance(axis, list) and len(axis) == 1 else axis)
    outs = op.call("unique_consecutive", op.x(), True, True, axis, op.a("dtype", "int64"))
    return ("outputs", list(outs))


def _qr(op: PaddleOp):
    mode = op.a("mode", "reduced")
    out = op.call("qr", op.x(), mode)
    return ("outputs", [None, out] if mode == "r" else list(out))


def _int(v: Any) -> Any:
    """A size Paddle passes as a (float) constant: an int; tensors stay."""
    return int(v) if isinstance(v, float) and v == int(v) else v


ARGS.update({
    "fold": _fold,
    "grid_sample": _grid_sample,
    "roi_align": _roi_align,
    "roi_pool": _roi_pool,
    "psroi_pool": _psroi_pool,
    "yolo_box": _yolo_box,
    "prior_box": _prior_box,
    "box_coder": _box_coder,
    "deform_conv2d": _deformable_conv,
    "affine_grid": _affine_grid,
    "nms": _nms,
    "distribute_fpn_proposals": _distribute_fpn,
    "matrix_nms": _matrix_nms,
    "temporal_shift": lambda op: ((op.x(), op.a("seg_num"), float(op.a("shift_ratio", 0.25))),
                                  {"data_format": op.a("data_format", "NCHW")}),
    "index_sample": lambda op: ((op.x(0, "X"), op.x(1, "Index")), {}),
    "put_along_axis": lambda op: ((op.x(0, "Input"), op.x(1, "Index"), op.x(2, "Value"), op.a("axis", op.a("Axis")),
                                   op.a("reduce", op.a("Reduce", "assign")), bool(op.a("include_self", True)),
                                   False), {}),
    "kthvalue": _two_out("kthvalue", ("k", 1), ("axis", -1), ("keepdim", False)),
    "mode": _two_out("mode", ("axis", -1), ("keepdim", False)),
    "cummax": _two_out("cummax", ("axis", -1), ("dtype", "int64")),
    "cummin": _two_out("cummin", ("axis", -1), ("dtype", "int64")),
    "median": _median_of("median"),
    "nanmedian": _median_of("nanmedian"),
    "unique": _unique,
    "maxout": _attr_unary("groups", "axis"),
    "logcumsumexp": _logcumsumexp,
    "add_n": lambda op: ((op.xs(0, "X"),), {}),
    "cross": lambda op: ((op.x(0, "X"), op.x(1, "Y"), op.a("axis", op.a("dim", 9))), {}),
    "meshgrid": lambda op: (tuple(op.xs(0, "X")), {}),
    "broadcast_tensors": lambda op: ((op.xs(0, "X"),), {}),
    "trace": _attr_unary("offset", "axis1", "axis2"),
    "kron": _xy,
    "diag_embed": lambda op: ((op.x(0, "Input"), op.a("offset", 0), op.a("dim1", -2), op.a("dim2", -1)), {}),
    "diag": _attr_unary("offset", "padding_value"),
    "searchsorted": lambda op: ((op.x(0, "SortedSequence"), op.x(1, "Value"), bool(op.a("out_int32", False)),
                                 bool(op.a("right", False))), {}),
    "bilinear": lambda op: ((op.x(0, "X"), op.x(1, "Y"), op.x(2, "Weight"),
                             op.x(3, "Bias") if op.has(3, "Bias") else None), {}),
    "scatter_nd_add": lambda op: ((op.x(0, "X"), op.x(1, "Index"), op.x(2, "Updates")), {}),
    "isclose": lambda op: ((op.x(0, "Input"), op.x(1, "Other"), float(op.c(2, "Rtol", "rtol", 1e-5)),
                            float(op.c(3, "Atol", "atol", 1e-8)), bool(op.a("equal_nan", False))), {}),
    "allclose": lambda op: ((op.x(0, "Input"), op.x(1, "Other"), float(op.c(2, "Rtol", "rtol", 1e-5)),
                             float(op.c(3, "Atol", "atol", 1e-8)), bool(op.a("equal_nan", False))), {}),
    "equal_all": _xy,
    "logspace": lambda op: ((op.c(0), op.c(1), op.c(2), op.c(3)), {"dtype": op.a("dtype")}),
    "eye": lambda op: ((_int(op.c(0, "", "num_rows")), _int(op.c(1, "", "num_columns"))), {"dtype": op.a("dtype")}),
    "tril_indices": lambda op: ((op.a("rows"), op.a("cols"), op.a("offset", 0), op.a("dtype", "int64")), {}),
    "triu_indices": lambda op: ((op.a("row"), op.a("col"), op.a("offset", 0), op.a("dtype", "int64")), {}),
    "logit": lambda op: ((op.x(), op.a("eps")), {}),
    **{n: _unary for n in ("erfinv", "lgamma", "digamma", "i0", "i0e", "i1", "i1e", "angle", "neg", "frac",
                           "deg2rad", "rad2deg", "sgn", "sinc", "real", "imag", "conj", "det")},
    "unstack": lambda op: ((op.x(), op.a("axis", 0), op.a("num")), {}),
    "rrelu": lambda op: ("outputs", [op.call("rrelu", op.x(), float(op.a("lower", 0.125)),
                                             float(op.a("upper", 1 / 3)), not op.a("is_test", True)), None]),
    "stanh": _attr_unary("scale_a", "scale_b"),
    "mv": lambda op: ((op.x(0, "X"), op.x(1, "Vec")), {}),
    "dot": _xy,
    "addmm": lambda op: ((op.x(0, "Input"), op.x(1, "X"), op.x(2, "Y"), float(op.a("Beta", op.a("beta", 1.0))),
                          float(op.a("Alpha", op.a("alpha", 1.0)))), {}),
    "multi_dot": lambda op: ((op.xs(0, "X"),), {}),
    "renorm": lambda op: ((op.x(), float(op.a("p")), op.a("axis"), float(op.a("max_norm"))), {}),
    "index_add": _index_add,
    "index_put": _index_put,
    "max_unpool2d": lambda op: _unpool(op) if op.x(0, "X").ndim == 4 else None,
    "max_unpool3d": lambda op: _unpool(op) if op.x(0, "X").ndim == 5 else None,
    "conv3d_transpose": _conv_transpose_nd(3),
    "gumbel_softmax": _attr_unary("temperature", "hard", "axis"),
    "swiglu": lambda op: ((op.x(0, "x"), op.x(1, "y") if op.has(1, "y") else None), {}),
    "log_loss": lambda op: ((op.x(0, "Predicted"), op.x(1, "Labels"), float(op.a("epsilon", 1e-4))), {}),
    "kl_div": lambda op: ((op.x(0, "X"), op.x(1, "Target"), op.a("reduction", "mean"),
                           bool(op.a("log_target", False))), {}),
    "dist": lambda op: ((op.x(0, "X"), op.x(1, "Y"), float(op.a("p", 2.0))), {}),
    "inv": _unary,
    "solve": _xy,
    "triangular_solve": lambda op: ((op.x(0, "X"), op.x(1, "Y"), bool(op.a("upper", True)),
                                     bool(op.a("transpose", False)), bool(op.a("unitriangular", False))), {}),
    "cholesky": lambda op: ((op.x(), bool(op.a("upper", False))), {}),
    "cholesky_solve": lambda op: ((op.x(0, "X"), op.x(1, "Y"), bool(op.a("upper", False))), {}),
    "qr": _qr,
    "svd": lambda op: ("outputs", list(op.call("svd", op.x(), bool(op.a("full_matrices", False))))),
    "slogdet": _unary,
    "eigvalsh": lambda op: ("outputs", [op.call("eigvalsh", op.x(), op.a("uplo", op.a("UPLO", "L"))), None]),
    "lstsq": lambda op: ("outputs", list(op.call("lstsq", op.x(0, "X"), op.x(1, "Y"), op.c(2, "", "rcond"),
                                                 op.a("driver")))),
    "multiplex": lambda op: ((op.xs(0, "X"), op.x(1, "Ids")), {}),
    "unique_consecutive": _unique_consecutive,
    "gammaln": _unary,
    "polygamma": lambda op: ((op.x(), op.a("n")), {}),
    "bitwise_left_shift": _shift,
    "bitwise_right_shift": _shift,
    "complex": _xy,
    "copysign": _xy,
    "nextafter": _xy,
    "reduce_as": lambda op: ((op.x(0, "X"), op.x(1, "Target")), {}),
    "baddbmm": lambda op: ((op.x(0, "Input"), op.x(1, "X"), op.x(2, "Y"), float(op.a("beta", 1.0)),
                            float(op.a("alpha", 1.0))), {}),
    "crop": lambda op: ((op.x(), op.c(1, "", "shape"), op.c(2, "", "offsets")), {}),
    "shard_index": lambda op: ((op.x(), op.a("index_num"), op.a("nshards"), op.a("shard_id"),
                                op.a("ignore_value", -1)), {}),
    "histogram": lambda op: ((op.x(0, "X"), op.a("bins", 100), float(op.a("min", 0.0)),
                              float(op.a("max", 0.0)), op.x(1, "Weight") if op.has(1, "Weight") else None,
                              bool(op.a("density", False))), {}),
    "bincount": lambda op: ((op.x(0, "X"), op.x(1, "Weights") if op.has(1, "Weights") else None,
                             op.c(2, "", "minlength", 0)), {}),
    # random ops: the same distributions, not Paddle's numbers
    "uniform": lambda op: None if op.legacy else ((op.c(0), op.a("dtype"), op.c(1), op.c(2), op.a("seed", 0)), {}),
    "normal": lambda op: None if op.legacy else _gaussian(op),
    "randint": lambda op: None if op.legacy else ((op.a("low", 0), op.a("high"), op.c(0), op.a("dtype")), {}),
    "randperm": lambda op: ((op.a("n"), op.a("dtype", "int64")), {}),
    "bernoulli": _unary,
    "multinomial": lambda op: ((op.x(), op.c(1, "", "num_samples", 1), bool(op.a("replacement", False))), {}),
    "empty": lambda op: None if op.legacy else ((op.c(0), op.a("dtype")), {}),
    "lu": lambda op: ("outputs", list(op.call("lu", op.x(), bool(op.a("pivot", True)), True))),
    "lu_unpack": lambda op: ("outputs", list(op.call("lu_unpack", op.x(0, "X"), op.x(1, "Pivots"),
                                                     bool(op.a("unpack_ludata", True)),
                                                     bool(op.a("unpack_pivots", True))))),
    "setitem": lambda op: None if op.legacy else _set_value(op),
    "as_real": _unary,
    "as_complex": _unary,
    **{n: _fft(n) for n in ("fftn", "ifftn", "rfftn", "ihfftn", "irfftn", "hfftn")},
    "nll_loss": lambda op: ("outputs", [op.call("nll_loss", op.x(0, "X"), op.x(1, "Label"),
                                                op.x(2, "Weight") if op.has(2, "Weight") else None,
                                                op.a("ignore_index", -100), op.a("reduction", "mean")), None]),
})
