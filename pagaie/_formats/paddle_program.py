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
from typing import Any

import torch

from pagaie._core import dtype as _dt
from pagaie._core.parameter import Parameter
from pagaie._core.registry import REGISTRY
from pagaie._formats.paddle_args import VARTYPE_DTYPES as _VARTYPE_DTYPES
from pagaie._formats.paddle_args import ARGS, PaddleOp, _Const, _Unsupported
from pagaie._static.ir import Program, Value, _shape_in
from pagaie._static.recorder import Recorder, _to_values

__all__ = ["ImportedProgram", "ARGS", "read_pir_program", "read_legacy_program", "is_pir_json"]

_PIR_DTYPES = {"t_f32": "float32", "t_f64": "float64", "t_f16": "float16", "t_bf16": "bfloat16",
               "t_i8": "int8", "t_ui8": "uint8", "t_i16": "int16", "t_i32": "int32",
               "t_i64": "int64", "t_bool": "bool", "t_c64": "complex64", "t_c128": "complex128"}
_PIR_MAX_VERSION = 10  # the highest PIR serialisation version this reader has been checked on


class ImportedProgram:
    """A translated Paddle program: the pagaie program, its feeds and its fetch targets.

    ``parameters`` maps the names of the values read from the parameter file to their
    :class:`Parameter` (trainable as Paddle saved them).
    """

    def __init__(self, program: Program, feed_names: list[str], fetch_names: list[str],
                 fetch_values: list[Value], parameters: dict | None = None) -> None:
        self.program = program
        self.feed_names = feed_names
        self.fetch_names = fetch_names
        self.fetch_values = fetch_values
        self.parameters = dict(parameters or {})


# The main output of an op in legacy programs (PIR: output 0).
_LEGACY_MAIN_OUT = ("Out", "Y", "Output", "Result")
# Output slots of multi-output legacy ops, in PIR's output order (others: main slot first).
_LEGACY_OUTS = {"rnn": ("Out", "DropoutState", "State", "Reserve"),
                "softmax_with_cross_entropy": ("Softmax", "Loss"), "huber_loss": ("Out", "Residual")}


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
        self.params: dict[str, Parameter] = {}

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
            if call[0] == "outputs":
                return _Outputs(call[1])
            args, kwargs = call
            try:
                return self.emit(name, args, kwargs)
            except (ValueError, RuntimeError, TypeError) as exc:
                declared = getattr(op, "declared", None)
                if declared is None or len(declared) != 1 or declared[0] is None:
                    raise
                # the kernel needs data to infer its output (value checks): use Paddle's type
                return self.emit_declared(name, args, kwargs, *declared[0], exc)
        raise NotImplementedError(f"paddle.inference: the Paddle op {op.type!r} in {self.source} "
                                  f"(attributes {_brief(op.attrs)}) has no argument mapping in pagaie "
                                  f"(records: {candidates})")

    def emit_declared(self, record: str, args: tuple, kwargs: dict, shape: list[int], dtype: str,
                      exc: BaseException) -> Value:
        """Append a call whose output is the one Paddle declares (the kernel cannot run on
        symbolic inputs)."""
        rec = REGISTRY[record]
        vargs = [_to_values(self.block, a) for a in args]
        vkwargs = {k: _to_values(self.block, v) for k, v in kwargs.items()}
        flat = [x for a in list(vargs) + list(vkwargs.values())
                for x in (a if isinstance(a, (list, tuple)) else [a])]
        if not any(isinstance(x, Value) and -1 in list(x.shape) for x in flat):
            raise exc  # known sizes: the kernel's error is real
        stop = not rec.differentiable or not any(isinstance(x, Value) and not x.stop_gradient for x in flat)
        out = self.block.create_var(self.program.unique_name(record), shape, dtype, stop_gradient=stop)
        self.block.append_op(record, vargs, vkwargs, out)
        return out

    def parameter(self, name: str, shape: list[int], dtype: str, data: torch.Tensor,
                  trainable: bool = False, saved: bool = True) -> Value:
        if list(data.shape) != list(shape):
            raise ValueError(f"paddle.inference: parameter {name!r} has shape {list(data.shape)} in "
                             f"the parameter file, but the program declares {shape}")
        v = self.block.create_var(name, shape, dtype, stop_gradient=not trainable, persistable=True)
        v.source = Parameter(data.to(_dt.to_torch_dtype(dtype)), trainable=trainable, name=name)
        if saved:
            self.params[name] = v.source
        return v

    def data(self, name: str, shape: list[int], dtype: str) -> Value:
        v = self.block.create_var(name, shape, dtype)
        v.is_data = True
        return v


class _Outputs(list):
    """The values of an op's outputs, in Paddle's output order (``None``: not computed)."""


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
    # only persistable parameters are in the file (a non-persistable one, e.g. an RNN's
    # dropout state, starts as zeros)
    names = [op["A"][3] for op in ops if op.get("#") == "p" and _pir_persistable(op)]
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
    return ImportedProgram(tr.program, feeds, [n for _, n, _ in fetch], values, tr.params)


def _pir_persistable(raw: dict) -> bool:
    # a parameter's output attributes are [persistable, stop_gradient, trainable]
    oa = raw.get("OA", [])
    return not oa or bool(oa[0])


def _pir_op(raw: dict, tr: _Translator, vals: dict, bound: dict, feeds: list, fetch: list) -> None:
    name = raw["#"]
    if name == "p":
        out = raw["O"]
        shape, dt = _pir_type(out["TT"])
        pname = raw["A"][3]
        trainable = bool(raw.get("OA", [1, 1, 0])[2]) if len(raw.get("OA", [])) > 2 else False
        saved = _pir_persistable(raw)
        data = bound[pname] if saved else torch.zeros(shape, dtype=_dt.to_torch_dtype(dt))
        vals[out["%"]] = tr.parameter(pname, shape, dt, data, trainable, saved)
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
        op.declared = [_pir_type(o.get("TT")) if isinstance(o.get("TT"), dict) and
                       o["TT"].get("#", "").endswith("t_dtensor") else None for o in outs]
        result = tr.translate(op)
        if not isinstance(result, _Outputs):
            result = [result]
        for k, i in enumerate(ids):
            r = result[k] if k < len(result) else None
            vals[i] = _Unsupported(f"output {k} of {ptype}") if r is None else r
            if isinstance(r, Value):
                _refine(r, outs[k].get("TT"))


def _refine(v: Value, tt: Any) -> None:
    """Give a recorded value the sizes Paddle's program declares where the recorder could not
    infer them (``full_with_tensor`` from a shape computed at run time, ...)."""
    declared = _pir_type(tt) if isinstance(tt, dict) and tt.get("#", "").endswith("t_dtensor") else None
    if declared is None or v.op is None:
        return
    have = list(v.shape)
    shape = declared[0]
    if len(have) != len(shape) or -1 not in have:
        return
    new = [d if d >= 0 and h < 0 else h for h, d in zip(have, shape)]
    if new != have:
        v._t = torch.empty(_shape_in(new), device="meta", dtype=v._t.dtype)


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
    grads: dict[str, bool] = {}  # parameters saved without stop_gradient are trainable
    for v in block.vars:
        td = v.type.dense_tensor.tensor
        infos[v.name] = (v.type.type, list(td.dims), _VARTYPE_DTYPES.get(td.data_type), v.persistable)
        grads[v.name] = not (v.HasField("stop_gradient") and v.stop_gradient)
    pnames = [n for n, (kind, _, _, pers) in infos.items() if pers and kind == 7]
    bound = _bind_params(pnames, params, source)
    vals: dict[str, Any] = {}
    for n in pnames:
        _, shape, dt, _ = infos[n]
        vals[n] = tr.parameter(n, shape, dt, bound[n], grads[n])

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
        if op.type == "fill_constant" and not any(ins.get(s) for s in ("ShapeTensor", "ShapeTensorList",
                                                                       "ValueTensor")):
            value = attrs.get("str_value") or attrs.get("value", 0.0)
            dt = _VARTYPE_DTYPES.get(attrs.get("dtype"), "float32")
            vals[outs["Out"][0]] = _Const(float(value), list(attrs.get("shape") or []), dt)
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
        if isinstance(result, _Outputs):  # several outputs, in Paddle's output order
            order = _LEGACY_OUTS.get(op.type) or \
                sorted(outs, key=lambda s: s not in _LEGACY_MAIN_OUT)
            for s, r in zip(order, result):
                names = outs.get(s, [])
                if r is None:
                    continue
                for n, e in zip(names, r if isinstance(r, list) and len(names) > 1 else [r]):
                    vals[n] = e
        elif slot is not None:
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
                           [tr.as_tensor(v, dummy) for _, _, v in fetch], tr.params)


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
