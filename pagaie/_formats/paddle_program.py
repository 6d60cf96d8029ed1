"""Readers of real Paddle inference programs: PIR JSON (``.json``) and legacy protobuf (``.pdmodel``).

Both readers translate Paddle's ops into a pagaie :class:`~pagaie._static.ir.Program`
whose operators are op records. Which record a Paddle op becomes is read from the
records themselves (``OpRecord.paddle_types``); this file holds only the *argument
mapping*: :data:`ARGS`, one function per record name that turns a Paddle op's operands
and attributes into the record's Paddle-signature call (or returns ``None`` when the
op is not this record's, e.g. a ``pool2d`` with ``pooling_type='avg'`` for
``max_pool2d``). Operators are recorded with the static recorder, so output shapes and
dtypes come from the kernels themselves.

Graph-structure ops (``builtin.parameter``, ``pd_op.data``, ``pd_op.fetch``,
``builtin.combine``/``split``, ``pd_op.full``/``full_int_array`` constants, legacy
``feed``/``fetch``) are handled by the readers. Anything else without a record raises
``NotImplementedError`` naming the op. Parameters come from the ``.pdiparams`` file,
which holds them sorted by name.
"""
from __future__ import annotations

import json
from typing import Any, Callable

import torch

from pagaie._core import dtype as _dt
from pagaie._core.parameter import Parameter
from pagaie._core.registry import REGISTRY
from pagaie._core.tensor import Tensor
from pagaie._static.ir import Program, Value
from pagaie._static.recorder import Recorder

__all__ = ["ImportedProgram", "ARGS", "read_pir_program", "read_legacy_program", "is_pir_json"]

_PIR_DTYPES = {"t_f32": "float32", "t_f64": "float64", "t_f16": "float16", "t_bf16": "bfloat16",
               "t_i8": "int8", "t_ui8": "uint8", "t_i16": "int16", "t_i32": "int32",
               "t_i64": "int64", "t_bool": "bool", "t_c64": "complex64", "t_c128": "complex128"}
_VARTYPE_DTYPES = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16", 5: "float32",
                   6: "float64", 20: "uint8", 21: "int8", 22: "bfloat16", 23: "complex64",
                   24: "complex128"}
_PIR_MAX_VERSION = 10  # the highest PIR serialisation version this reader has been checked on


class ImportedProgram:
    """A translated Paddle program: the pagaie program, its feeds and its fetch targets."""

    def __init__(self, program: Program, feed_names: list[str], fetch_names: list[str],
                 fetch_values: list[Value]) -> None:
        self.program = program
        self.feed_names = feed_names
        self.fetch_names = fetch_names
        self.fetch_values = fetch_values


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

    def __init__(self, type: str, legacy: bool, operands: Any, attrs: dict, translator: "_Translator"):
        self.type = type
        self.legacy = legacy
        self._operands = operands  # PIR: list; legacy: {slot: [operands]}
        self.attrs = attrs
        self._tr = translator

    def _raw(self, i: int, slot: str) -> Any:
        if self.legacy:
            args = self._operands.get(slot) or []
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

    def c(self, i: int, slot: str = "", attr: str = "", default: Any = None) -> Any:
        """A value Paddle passes as an operand (PIR) or an attribute (legacy): a Python
        value when known, else the tensor (pagaie's ops accept tensors there too)."""
        if self.legacy:
            if slot and self._operands.get(slot):
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


Mapper = Callable[[PaddleOp], Any]


def _unary(op: PaddleOp):
    return (op.x(),), {}


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


def _batch_norm(op: PaddleOp):
    if op.legacy:
        x, mean, var, w, b = (op.x(0, s) for s in ("X", "Mean", "Variance", "Scale", "Bias"))
    else:
        x, mean, var, w, b = (op.x(i) if op.has(i) else None for i in range(5))
    fmt = op.a("data_format", op.a("data_layout", "NCHW"))
    return (x, mean, var, w, b), {"training": not op.a("is_test", True), "momentum": op.a("momentum", 0.9),
                                  "epsilon": op.a("epsilon", 1e-5), "data_format": fmt,
                                  "use_global_stats": op.a("use_global_stats")}


def _layer_norm(op: PaddleOp):
    x = op.x(0, "X")
    w = op.x(1, "Scale") if op.has(1, "Scale") else None
    b = op.x(2, "Bias") if op.has(2, "Bias") else None
    axis = op.a("begin_norm_axis", 1)
    shape = list(x.shape[axis:])
    if w is not None and any(d < 0 for d in shape):
        shape = [w.shape[0]] if len(shape) == 1 else shape
    if w is not None and len(shape) > 1:  # Paddle stores flattened weights for multi-axis norms
        w = op.call("reshape", w, shape)
        b = op.call("reshape", b, shape) if b is not None else None
    return (x, shape, w, b, op.a("epsilon", 1e-5)), {}


def _reduce(op: PaddleOp):
    axis = op.c(1, "", "dim", None)
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
    starts, ends = op.c(1, "StartsTensor", "starts"), op.c(2, "EndsTensor", "ends")
    out = op.call("slice", op.x(0, "Input"), axes, starts, ends)
    dec = list(op.a("decrease_axis") or [])
    if dec:
        out = op.call("squeeze", out, dec)
    return ("identity", out)


def _scale(op: PaddleOp):
    s = op.c(1, "ScaleTensor", "scale", 1.0)
    return (op.x(), s, float(op.a("bias", 0.0)), bool(op.a("bias_after_scale", True))), {}


def _interpolate(op: PaddleOp):
    x = op.x(0, "X")
    if op.has(1, "OutSize") or op.has(2, "SizeTensor") or op.has(3, "Scale"):
        raise NotImplementedError(f"paddle.inference: {op.type} with tensor sizes or scales is not "
                                  "supported yet")
    scale = list(op.a("scale") or []) or None
    sizes = [s for s in (op.a("out_d", -1), op.a("out_h", -1), op.a("out_w", -1)) if s and s > 0]
    nd = x.ndim - 2
    fmt = op.a("data_format", op.a("data_layout", "NCHW"))
    return (x,), {"size": sizes[-nd:] if sizes else None, "scale_factor": None if sizes else scale,
                  "mode": op.a("interp_method", "nearest"), "align_corners": op.a("align_corners", False),
                  "align_mode": op.a("align_mode", 0), "data_format": fmt}


def _dropout(op: PaddleOp):
    p = op.a("dropout_prob", 0.5) if op.legacy else op.c(2)
    mode = op.a("mode", op.a("dropout_implementation", "upscale_in_train"))
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


# Argument mapping, one entry per op record (the Paddle op names are in the records).
ARGS: dict[str, Mapper] = {
    **{n: _unary for n in ("relu", "sigmoid", "tanh", "exp", "sqrt", "rsqrt", "abs", "erf",
                           "silu", "swish", "relu6", "hardswish", "log", "floor", "ceil", "sign",
                           "square", "sin", "cos", "reciprocal", "softsign", "mish", "assign",
                           "logical_not", "isnan", "shape")},
    **{n: _binary for n in ("add", "subtract", "multiply", "divide", "maximum", "minimum",
                            "floor_divide", "remainder", "equal", "not_equal", "less_than",
                            "less_equal", "greater_than", "greater_equal", "logical_and",
                            "logical_or")},
    "matmul": _matmul,
    "gelu": lambda op: ((op.x(),), {"approximate": bool(op.a("approximate", False))}),
    "softmax": lambda op: ((op.x(),), {"axis": op.a("axis", -1)}),
    "log_softmax": lambda op: ((op.x(),), {"axis": op.a("axis", -1)}),
    "leaky_relu": lambda op: ((op.x(), op.a("negative_slope", op.a("alpha", 0.01))), {}),
    "hardsigmoid": lambda op: ((op.x(), op.a("slope", 0.1666667), op.a("offset", 0.5)), {}),
    "pow": lambda op: _binary(op) if op.type == "elementwise_pow" else
    ((op.x(), float(op.a("y", op.a("factor", 1.0)))), {}),
    "clip": lambda op: ((op.x(), op.c(1, "Min", "min"), op.c(2, "Max", "max")), {}),
    "scale": _scale,
    "cast": _cast,
    "conv2d": lambda op: None if op.x(0, "Input").ndim != 4 else _conv(op),
    "conv2d_transpose": lambda op: None if op.x(0, "Input").ndim != 4 else _conv_transpose(op),
    "batch_norm": _batch_norm,
    "layer_norm": _layer_norm,
    "max_pool2d": _pool("max", False),
    "avg_pool2d": _pool("avg", False),
    "adaptive_avg_pool2d": _pool("avg", True),
    "adaptive_max_pool2d": _pool("max", True),
    "reshape": lambda op: ((op.x(), op.c(1, "ShapeTensor", "shape")), {}),
    "transpose": lambda op: ((op.x(), list(op.a("perm", op.a("axis")))), {}),
    "flatten": lambda op: ((op.x(), op.a("start_axis", 0), op.a("stop_axis", -1)), {}),
    "concat": lambda op: ((op.xs(0, "X"), op.c(1, "AxisTensor", "axis", 0)), {}),
    "stack": lambda op: ((op.xs(0, "X"), op.a("axis", 0)), {}),
    "squeeze": lambda op: ((op.x(), op.c(1, "AxesTensor", "axes") or None), {}),
    "unsqueeze": lambda op: ((op.x(), op.c(1, "AxesTensor", "axes")), {}),
    "tile": lambda op: ((op.x(), op.c(1, "RepeatTimes", "repeat_times")), {}),
    "expand": lambda op: ((op.x(), op.c(1, "Shape", "shape")), {}),
    "slice": _slice,
    "split": _split,
    "mean": _reduce,
    "sum": _sum,
    "max": _reduce,
    "min": _reduce,
    "prod": _reduce,
    "dropout": _dropout,
    "embedding": lambda op: ((op.x(0, "Ids"), op.x(1, "W")),
                             {"padding_idx": None if op.a("padding_idx", -1) == -1
                              else op.a("padding_idx")}),
    "interpolate": _interpolate,
    "argmax": lambda op: ((op.x(), op.c(1, "", "axis")),
                          {"keepdim": op.a("keepdims", False),
                           "dtype": op.a("dtype") if not op.legacy else
                           _VARTYPE_DTYPES.get(op.a("dtype", 3), "int64")}),
    "where": lambda op: ((op.x(0, "Condition"), op.x(1, "X"), op.x(2, "Y")), {}),
    "gather": lambda op: ((op.x(0, "X"), op.x(1, "Index"), op.c(2, "Axis", "axis", 0)), {}),
}

# The main output of an op in legacy programs (PIR: output 0).
_LEGACY_MAIN_OUT = ("Out", "Y", "Output")


def _type_index() -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for rec in REGISTRY.values():
        for t in rec.paddle_types:
            index.setdefault(t, []).append(rec.name)
    return index


class _Translator:
    def __init__(self, source: str) -> None:
        self.program = Program()
        self.block = self.program.global_block()
        self.recorder = Recorder(self.program)
        self.index = _type_index()
        self.source = source

    def as_tensor(self, v: Any, op: PaddleOp) -> Any:
        if isinstance(v, _Const):
            return v.tensor()
        if isinstance(v, _Unsupported):
            raise NotImplementedError(f"paddle.inference: {op.type} in {self.source} reads {v.what}, "
                                      "which pagaie does not compute")
        if isinstance(v, list):
            return [self.as_tensor(e, op) for e in v]
        return v

    def emit(self, record: str, args: tuple, kwargs: dict) -> Any:
        return self.recorder.record(REGISTRY[record], tuple(args), dict(kwargs))

    def translate(self, op: PaddleOp) -> Any:
        candidates = self.index.get(op.type)
        if not candidates:
            raise NotImplementedError(f"paddle.inference: the Paddle op {op.type!r} in {self.source} "
                                      "is not supported by pagaie (no op record lists it)")
        tried = []
        for name in candidates:
            mapper = ARGS.get(name)
            if mapper is None:
                tried.append(name)
                continue
            call = mapper(op)
            if call is None:
                continue
            if call[0] == "identity":
                return call[1]
            args, kwargs = call
            return self.emit(name, args, kwargs)
        raise NotImplementedError(f"paddle.inference: the Paddle op {op.type!r} in {self.source} "
                                  f"(attributes {_brief(op.attrs)}) has no argument mapping in pagaie "
                                  f"(records: {candidates})")

    def parameter(self, name: str, shape: list[int], dtype: str, data: torch.Tensor,
                  trainable: bool = False) -> Value:
        if list(data.shape) != list(shape):
            raise ValueError(f"paddle.inference: parameter {name!r} has shape {list(data.shape)} in "
                             f"the parameter file, but the program declares {shape}")
        v = self.block.create_var(name, shape, dtype, stop_gradient=not trainable, persistable=True)
        v.source = Parameter(data.to(_dt.to_torch_dtype(dtype)), trainable=trainable, name=name)
        return v

    def data(self, name: str, shape: list[int], dtype: str) -> Value:
        v = self.block.create_var(name, shape, dtype)
        v.is_data = True
        return v


def _brief(attrs: dict) -> str:
    return "{" + ", ".join(f"{k}={v!r}" for k, v in list(attrs.items())[:8]) + "}"


def _bind_params(names: list[str], params: list[torch.Tensor], source: str) -> dict[str, torch.Tensor]:
    order = sorted(names)
    if len(params) != len(order):
        raise ValueError(f"paddle.inference: the parameter file holds {len(params)} tensors, but "
                         f"{source} declares {len(order)} parameters")
    return dict(zip(order, params))


# ---- PIR JSON ----------------------------------------------------------------------
def is_pir_json(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("base_code"), dict) and \
        data["base_code"].get("magic") == "pir"


def _pir_attr(a: Any) -> Any:
    if not isinstance(a, dict):
        return a
    kind, d = a.get("#", ""), a.get("D")
    if kind.endswith("a_array"):
        return [_pir_attr(e) for e in d]
    if kind.endswith("a_place") or kind.endswith("a_tensor_name"):
        return d
    if kind.endswith("a_scalar") and isinstance(d, list):
        return d[-1]
    return d


def _pir_type(tt: Any) -> tuple[list[int], str] | None:
    if not isinstance(tt, dict) or not tt.get("#", "").endswith("t_dtensor"):
        return None
    d = tt["D"]
    dt = _PIR_DTYPES.get(d[0]["#"].split(".")[-1])
    if dt is None:
        raise NotImplementedError(f"paddle.inference: PIR data type {d[0]['#']!r} is not supported")
    return list(d[1]), dt


def read_pir_program(data: dict, params: list[torch.Tensor], source: str = "the program") -> ImportedProgram:
    """Translate a real Paddle PIR program (the parsed ``.json``) into a pagaie program.

    Args:
        data (dict): the JSON document Paddle wrote.
        params (list[torch.Tensor]): the ``.pdiparams`` tensors, in file order.
        source (str): the file name, for error messages.
    """
    if not is_pir_json(data):
        raise ValueError(f"paddle.inference: {source} is not a Paddle PIR program")
    ver = data["base_code"].get("version")
    if not isinstance(ver, int) or ver > _PIR_MAX_VERSION:
        raise ValueError(f"paddle.inference: {source} has PIR format version {ver}; pagaie reads "
                         f"versions up to {_PIR_MAX_VERSION}")
    try:
        ops = data["program"]["regions"][0]["blocks"][0]["ops"]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"paddle.inference: {source} is corrupt (no program block)") from None
    tr = _Translator(source)
    names = [op["A"][3] for op in ops if op.get("#") == "p"]
    bound = _bind_params(names, params, source)
    vals: dict[int, Any] = {0: None}
    feeds: list[str] = []
    fetch: list[tuple[int, str, Any]] = []
    try:
        for raw in ops:
            _pir_op(raw, tr, vals, bound, feeds, fetch)
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"paddle.inference: {source} is corrupt ({type(exc).__name__}: {exc})") from None
    fetch.sort(key=lambda f: f[0])
    values = [tr.as_tensor(v, PaddleOp("pd_op.fetch", False, [], {}, tr)) for _, _, v in fetch]
    return ImportedProgram(tr.program, feeds, [n for _, n, _ in fetch], values)


def _pir_op(raw: dict, tr: _Translator, vals: dict, bound: dict, feeds: list, fetch: list) -> None:
    name = raw["#"]
    if name == "p":
        out = raw["O"]
        shape, dt = _pir_type(out["TT"])
        pname = raw["A"][3]
        trainable = bool(raw.get("OA", [1, 1, 0])[2]) if len(raw.get("OA", [])) > 2 else False
        vals[out["%"]] = tr.parameter(pname, shape, dt, bound[pname], trainable)
        return
    if raw.get("regions"):
        raise NotImplementedError(f"paddle.inference: control flow op {_pir_name(name)!r} in "
                                  f"{tr.source} is not supported yet")
    ptype = _pir_name(name)
    attrs = {a["N"]: _pir_attr(a["AT"]) for a in raw.get("A", []) if isinstance(a, dict)}
    ins = [vals.get(i["%"]) if i.get("%") else None for i in raw.get("I", [])]
    outs = raw.get("O", [])
    outs = outs if isinstance(outs, list) else [outs]
    ids = [o.get("%") for o in outs]
    if ptype == "pd_op.data":
        shape, dt = _pir_type(outs[0]["TT"])
        vals[ids[0]] = tr.data(attrs["name"], shape, dt)
        feeds.append(attrs["name"])
    elif ptype in ("pd_op.fetch", "builtin.shadow_output"):
        fname = attrs.get("name", attrs.get("output_name"))
        fetch.append((attrs.get("col", len(fetch)), fname, ins[0]))
    elif ptype == "pd_op.full_int_array":
        vals[ids[0]] = _Const([int(v) for v in attrs["value"]], None, attrs.get("dtype", "int64"))
    elif ptype == "pd_op.full" and not isinstance(attrs.get("value"), list):
        vals[ids[0]] = _Const(attrs["value"], list(attrs["shape"]), attrs["dtype"])
    elif ptype == "builtin.combine":
        vals[ids[0]] = list(ins)
    elif ptype in ("builtin.split", "builtin.slice"):
        seq = ins[0]
        if ptype == "builtin.slice":
            vals[ids[0]] = seq[attrs["index"]]
        else:
            for i, v in zip(ids, seq):
                vals[i] = v
    else:
        op = PaddleOp(ptype, False, ins, attrs, tr)
        result = tr.translate(op)
        vals[ids[0]] = result
        for k, i in enumerate(ids[1:], 1):
            vals[i] = _Unsupported(f"output {k} of {ptype}")


def _pir_name(name: str) -> str:
    if name == "p":
        return "builtin.parameter"
    dialect, _, op = name.partition(".")
    return {"0": "builtin", "1": "pd_op", "2": "cf", "3": "custom_op", "4": "dist"}.get(dialect, dialect) \
        + "." + op


# ---- legacy protobuf ------------------------------------------------------------------------
def read_legacy_program(raw: bytes, params: list[torch.Tensor],
                        source: str = "the program") -> ImportedProgram:
    """Translate a legacy Paddle ``.pdmodel`` (a serialized ProgramDesc) into a pagaie program."""
    try:
        from google.protobuf.message import DecodeError

        from pagaie._formats.framework_proto import ATTR_FIELDS, ProgramDesc, scalar_value
    except ImportError:  # pragma: no cover - protobuf is a dependency
        raise NotImplementedError("paddle.inference: reading .pdmodel files needs the protobuf "
                                  "package (pip install protobuf)") from None
    desc = ProgramDesc()
    try:
        desc.ParseFromString(bytes(raw))
    except (DecodeError, ValueError) as exc:
        raise ValueError(f"paddle.inference: {source} is not a valid Paddle program ({exc})") from None
    if not desc.blocks or not desc.blocks[0].ops:
        raise ValueError(f"paddle.inference: {source} is not a valid Paddle program (no ops)")
    if len(desc.blocks) > 1:
        raise NotImplementedError(f"paddle.inference: {source} has {len(desc.blocks)} blocks; "
                                  "control flow in legacy programs is not supported yet")
    block = desc.blocks[0]
    tr = _Translator(source)
    infos = {}
    for v in block.vars:
        td = v.type.dense_tensor.tensor
        infos[v.name] = (v.type.type, list(td.dims), _VARTYPE_DTYPES.get(td.data_type), v.persistable)
    pnames = [n for n, (kind, _, _, pers) in infos.items() if pers and kind == 7]
    bound = _bind_params(pnames, params, source)
    vals: dict[str, Any] = {}
    for n in pnames:
        _, shape, dt, _ = infos[n]
        vals[n] = tr.parameter(n, shape, dt, bound[n])

    def attr_value(a: Any) -> Any:
        field = ATTR_FIELDS.get(a.kind)
        if field is None:
            return None
        v = getattr(a, field)
        if field == "scalar":
            return scalar_value(v)
        if field == "scalars":
            return [scalar_value(s) for s in v]
        return list(v) if hasattr(v, "__len__") and not isinstance(v, (str, bytes)) else v

    feeds: list[tuple[int, str]] = []
    fetch: list[tuple[int, str, Any]] = []
    for op in block.ops:
        ins = {s.parameter: [vals.get(a, a) for a in s.arguments] for s in op.inputs}
        outs = {s.parameter: list(s.arguments) for s in op.outputs}
        attrs = {a.name: attr_value(a) for a in op.attrs}
        if op.type == "feed":
            name = outs["Out"][0]
            _, shape, dt, _ = infos[name]
            vals[name] = tr.data(name, shape, dt)
            feeds.append((attrs.get("col", len(feeds)), name))
            continue
        if op.type == "fetch":
            arg = op.inputs[0].arguments[0]
            fetch.append((attrs.get("col", len(fetch)), arg, vals.get(arg)))
            continue
        for slot, args in ins.items():
            for a in args:
                if isinstance(a, str):
                    raise ValueError(f"paddle.inference: {source} is corrupt: {op.type} reads "
                                     f"{a!r}, which nothing defines")
        pop = PaddleOp(op.type, True, ins, attrs, tr)
        result = tr.translate(pop)
        slot = next((s for s in _LEGACY_MAIN_OUT if s in outs), None)
        for s, names in outs.items():
            for n in names:
                vals.setdefault(n, _Unsupported(f"output {s} of {op.type}"))
        if slot is not None:
            names = outs[slot]
            if isinstance(result, (list, tuple)) and len(names) > 1:
                for n, r in zip(names, result):
                    vals[n] = r
            else:
                vals[names[0]] = result
    feeds.sort()
    fetch.sort(key=lambda f: f[0])
    dummy = PaddleOp("fetch", True, {}, {}, tr)
    return ImportedProgram(tr.program, [n for _, n in feeds], [n for _, n, _ in fetch],
                           [tr.as_tensor(v, dummy) for _, _, v in fetch])


def load_program_file(model_bytes: bytes, params: list[torch.Tensor], source: str) -> ImportedProgram:
    """Read either format from the model file's bytes."""
    head = model_bytes.lstrip()[:1]
    if head == b"{":
        try:
            data = json.loads(model_bytes.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ValueError(f"paddle.inference: {source} is not valid JSON ({exc})") from None
        return read_pir_program(data, params, source)
    return read_legacy_program(model_bytes, params, source)
