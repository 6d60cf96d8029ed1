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

PIR control flow: ``pd_op.if`` becomes a ``pagaie.cond`` op and ``pd_op.while`` a
``pagaie.while`` op (see :mod:`pagaie._static.control_flow`), their regions child blocks.
Paddle's programs update values in place (``increment_``, ``assign_out_`` into the loop
condition, ``array_write_`` into tensor arrays created outside the loop); the reader turns
each in-place op into a functional one that re-binds the value it writes (:class:`_Scope`),
and a control-flow op whose regions write into outer values carries them as extra loop
variables / branch outputs. Tensor arrays become the records of :mod:`pagaie._ops.tensor_array`.
"""
from __future__ import annotations

import json
from typing import Any

import torch

from pagaie._core import dtype as _dt
from pagaie._core.parameter import Parameter
from pagaie._core.registry import REGISTRY
from pagaie._core.tensor import Tensor
from pagaie._formats.paddle_args import VARTYPE_DTYPES as _VARTYPE_DTYPES
from pagaie._formats.paddle_args import ARGS, PaddleOp, _Const, _Unsupported
from pagaie._ops._helpers import cpu_as_gpu
from pagaie._static.ir import Block, Program, Value, _shape_in
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
_LEGACY_MAIN_OUT = ("Out", "Y", "Output", "Result", "out", "OutputBox")
# Output slots of multi-output legacy ops, in PIR's output order (others: main slot first).
_LEGACY_OUTS = {"rnn": ("Out", "DropoutState", "State", "Reserve"),
                "softmax_with_cross_entropy": ("Softmax", "Loss"), "huber_loss": ("Out", "Residual"),
                "roi_pool": ("Out", "Argmax"), "yolo_box": ("Boxes", "Scores"),
                "prior_box": ("Boxes", "Variances"), "kthvalue": ("Out", "Indices"), "mode": ("Out", "Indices"),
                "matrix_nms": ("Out", "Index", "RoisNum"), "rrelu": ("Out", "Noise"),
                "distribute_fpn_proposals": ("MultiFpnRois", "MultiLevelRoIsNum", "RestoreIndex")}


def _type_index() -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for rec in REGISTRY.values():
        for t in rec.paddle_types:
            index.setdefault(t, []).append(rec.name)
    return index


class _Translator:
    def __init__(self, source: str) -> None:
        self.program = Program()
        self.recorder = Recorder(self.program)
        self.index = _type_index()
        self.source = source
        self.params: dict[str, Parameter] = {}

    @property
    def block(self) -> Any:
        """The block being recorded into (a control-flow op's child block while reading it)."""
        return self.recorder.block

    def value(self, v: Any, what: str) -> Value:
        """``v`` as a program value (constants become captured values)."""
        if isinstance(v, Value):
            return v
        if isinstance(v, _Const):
            return _to_values(self.block, v.tensor())
        if isinstance(v, Tensor):   # data known when read (assign_value)
            return _to_values(self.block, v)
        if isinstance(v, _Unsupported):
            raise NotImplementedError(f"paddle.inference: {what} in {self.source} reads {v.what}, "
                                      "which pagaie does not compute")
        raise NotImplementedError(f"paddle.inference: {what} in {self.source} reads a "
                                  f"{type(v).__name__} where a tensor is expected")

    def emit_typed(self, record: str, args: tuple, kwargs: dict, outs: list) -> Any:
        """Append a call whose outputs have the given ``(shape, dtype)`` (no kernel run); an
        entry of ``outs`` that is a list of pairs is a list output."""
        rec = REGISTRY[record]
        vargs = [_to_values(self.block, a) for a in args]
        flat = [x for a in vargs for x in (a if isinstance(a, (list, tuple)) else [a])]
        stop = not rec.differentiable or not any(isinstance(x, Value) and not x.stop_gradient for x in flat)
        floats = ("float", "bfloat", "complex")

        def make(spec: Any) -> Any:   # a (shape, dtype) pair, or a list of them (a list output)
            if isinstance(spec, list):
                return [make(e) for e in spec]
            shape, dtype = spec
            return self.block.create_var(self.program.unique_name(record), list(shape), dtype,
                                         stop_gradient=stop or not dtype.startswith(floats))
        values = [make(o) for o in outs]
        self.block.append_op(record, vargs, dict(kwargs), values[0] if len(values) == 1 else values)
        return values[0] if len(values) == 1 else values

    def as_tensor(self, v: Any, op: PaddleOp) -> Any:
        if isinstance(v, _Const):
            return v.tensor()
        if isinstance(v, _Unsupported):
            raise NotImplementedError(f"paddle.inference: {op.type} in {self.source} reads {v.what}, "
                                      "which pagaie does not compute")
        if isinstance(v, list):
            return [self.as_tensor(e, op) for e in v]
        return v

    def fetchable(self, v: Any, op: PaddleOp) -> Any:
        """A fetch target as a program value: a constant output (``paddle.zeros([2])``
        returned as is) becomes a ``full`` op of the program."""
        if isinstance(v, _Const):
            if v.shape is None:
                return self.emit("to_tensor", (list(v.value),), {"dtype": v.dtype})
            return self.emit("full", (list(v.shape), v.python(), v.dtype), {})
        return self.as_tensor(v, op)

    def emit(self, record: str, args: tuple, kwargs: dict) -> Any:
        # (a saved program's ops are taken as Paddle built them, for any device: without the
        # build-time dtype checks of its Python APIs)
        with cpu_as_gpu():
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
        v = self.program.global_block().create_var(name, shape, dtype, stop_gradient=not trainable,
                                                   persistable=True)
        v.source = Parameter(data.to(_dt.to_torch_dtype(dtype)), trainable=trainable, name=name)
        if saved:
            self.params[name] = v.source
        return v

    def data(self, name: str, shape: list[int], dtype: str) -> Value:
        v = self.program.global_block().create_var(name, shape, dtype)
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


# JSON has no NaN or infinities: PIR writes such a float attribute as ``{"VD": "INF"}``
_PIR_SPECIAL_FLOATS = {"NaN": float("nan"), "INF": float("inf"), "-INF": float("-inf")}


def _pir_attr(a: Any) -> Any:
    if not isinstance(a, dict):
        return a
    if "VD" in a:
        return _PIR_SPECIAL_FLOATS[a["VD"]]
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
    reader = _PirReader(tr, bound)
    try:
        for raw in ops:
            reader.op(raw, reader.top)
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"paddle.inference: {source} is corrupt ({type(exc).__name__}: {exc})") from None
    fetch = sorted(reader.fetch, key=lambda f: f[0])
    values = [tr.fetchable(v, PaddleOp("pd_op.fetch", False, [], {}, tr)) for _, _, v in fetch]
    return ImportedProgram(tr.program, reader.feeds, [n for _, n, _ in fetch], values, tr.params)


def _pir_persistable(raw: dict) -> bool:
    # a parameter's output attributes are [persistable, stop_gradient, trainable]
    oa = raw.get("OA", [])
    return not oa or bool(oa[0])


class _Scope:
    """Values by PIR id in one region (lookups fall back to the enclosing regions).

    In-place ops (``array_write_``, ``increment_``, ``assign_out_``...) are read as
    functional ones: their output is an alias of the operand they write, and the write
    re-binds that operand's *root* id in the current scope, so that later readers (of the
    operand or of any alias) see the new value while an enclosing region still sees the
    old one until the control-flow op hands the new value out."""

    def __init__(self, parent: "_Scope | None" = None) -> None:
        self.parent = parent
        self.map: dict[int, Any] = {} if parent is not None else {0: None}
        self.alias: dict[int, int] = parent.alias if parent is not None else {}

    def root(self, i: int) -> int:
        while i in self.alias:
            i = self.alias[i]
        return i

    def has(self, i: int) -> bool:
        r, s = self.root(i), self
        while s is not None:
            if r in s.map:
                return True
            s = s.parent
        return False

    def get(self, i: int) -> Any:
        r, s = self.root(i), self
        while s is not None:
            if r in s.map:
                return s.map[r]
            s = s.parent
        return None

    def set(self, i: int, v: Any) -> None:
        self.map[self.root(i)] = v


def _pir_ids(raw: dict) -> list:
    outs = raw.get("O", [])
    outs = outs if isinstance(outs, list) else [outs]
    return outs


def _inplace_target(ptype: str, index: dict) -> int | None:
    """The operand an in-place PIR op writes into (None: not an in-place op)."""
    if ptype in _INPLACE:
        return _INPLACE[ptype]
    if ptype.startswith("pd_op.") and ptype.endswith("_") and ptype not in index and ptype[:-1] in index:
        return 0  # relu_, scale_, add_... : the out-of-place op writing into its first operand
    return None


# In-place PIR ops that pagaie reads specially: the operand each one writes into.
_INPLACE = {"pd_op.array_write_": 0, "pd_op.increment_": 0, "pd_op.assign_out_": 1,
            "pd_op.assign_value_": 0}


class _PirReader:
    """Reads PIR ops (nested regions included) into the translator's program."""

    def __init__(self, tr: _Translator, bound: dict) -> None:
        self.tr, self.bound = tr, bound
        self.top = _Scope()
        self.feeds: list[str] = []
        self.fetch: list[tuple[int, str, Any]] = []

    # ---- one op ----
    def op(self, raw: dict, scope: _Scope) -> None:
        tr = self.tr
        name = raw["#"]
        if name == "p":
            out = raw["O"]
            shape, dt = _pir_type(out["TT"])
            pname = raw["A"][3]
            trainable = bool(raw.get("OA", [1, 1, 0])[2]) if len(raw.get("OA", [])) > 2 else False
            saved = _pir_persistable(raw)
            data = self.bound[pname] if saved else torch.zeros(shape, dtype=_dt.to_torch_dtype(dt))
            scope.set(out["%"], tr.parameter(pname, shape, dt, data, trainable, saved))
            return
        ptype = _pir_name(name)
        attrs = {a["N"]: _pir_attr(a["AT"]) for a in raw.get("A", []) if isinstance(a, dict)}
        ins = [scope.get(i["%"]) if i.get("%") else None for i in raw.get("I", [])]
        outs = _pir_ids(raw)
        ids = [o.get("%") for o in outs]
        if ptype == "pd_op.if":
            return self.if_op(raw, ins, outs, scope)
        if ptype == "pd_op.while":
            return self.while_op(raw, ins, outs, scope)
        if raw.get("regions"):
            raise NotImplementedError(f"paddle.inference: control flow op {ptype!r} in "
                                      f"{tr.source} is not supported yet")
        if ptype == "pd_op.data":
            shape, dt = _pir_type(outs[0]["TT"])
            scope.set(ids[0], tr.data(attrs["name"], shape, dt))
            self.feeds.append(attrs["name"])
        elif ptype in ("pd_op.fetch", "builtin.shadow_output"):
            fname = attrs.get("name", attrs.get("output_name"))
            self.fetch.append((attrs.get("col", len(self.fetch)), fname, ins[0]))
        elif ptype == "pd_op.full_int_array":
            scope.set(ids[0], _Const([int(v) for v in attrs["value"]], None, attrs.get("dtype", "int64")))
        elif ptype == "pd_op.full" and not isinstance(attrs.get("value"), list):
            scope.set(ids[0], _Const(attrs["value"], list(attrs["shape"]), attrs["dtype"]))
        elif ptype == "builtin.combine":
            scope.set(ids[0], list(ins))
        elif ptype in ("builtin.split", "builtin.slice"):
            seq = ins[0]
            if ptype == "builtin.slice":
                scope.set(ids[0], seq[attrs["index"]])
            else:
                for i, v in zip(ids, seq):
                    scope.set(i, v)
        elif ptype in _ARRAY_OPS:
            self.array_op(raw, ptype, ins, attrs, outs, scope)
        elif ptype == "pd_op.assign_out_":
            self.inplace(raw, scope, [self.tr.value(ins[0], ptype)], _INPLACE[ptype])
        else:
            target = _inplace_target(ptype, tr.index)
            op = PaddleOp(ptype if target is None or ptype in tr.index else ptype[:-1], False, ins, attrs, tr)
            op.declared = [_pir_type(o.get("TT")) if isinstance(o.get("TT"), dict) and
                           o["TT"].get("#", "").endswith("t_dtensor") else None for o in outs]
            result = tr.translate(op)
            if not isinstance(result, _Outputs):
                result = [result]
            if target is not None:
                return self.inplace(raw, scope, result, target)
            for k, i in enumerate(ids):
                r = result[k] if k < len(result) else None
                scope.set(i, _Unsupported(f"output {k} of {ptype}") if r is None else r)
                if isinstance(r, Value):
                    _refine(r, outs[k].get("TT"))

    def inplace(self, raw: dict, scope: _Scope, result: list, target: int) -> None:
        """Bind an in-place op's result to the operand it writes (its output 0 becomes an
        alias of that operand); other outputs are bound as usual."""
        ins = raw.get("I", [])
        ids = [o.get("%") for o in _pir_ids(raw)]
        if target < len(ins) and ins[target].get("%"):
            root = scope.root(ins[target]["%"])
            scope.set(root, result[0])
            if ids and ids[0] and ids[0] != root:
                scope.alias[ids[0]] = root
            ids, result = ids[1:], list(result)[1:]
        for i, r in zip(ids, result):
            if i:
                scope.set(i, _Unsupported(f"an output of {raw['#']}") if r is None else r)

    # ---- tensor arrays ----
    def array_op(self, raw: dict, ptype: str, ins: list, attrs: dict, outs: list, scope: _Scope) -> None:
        tr = self.tr
        dummy = PaddleOp(ptype, False, ins, attrs, tr)
        val = [tr.as_tensor(v, dummy) for v in ins]
        ids = [o.get("%") for o in outs]
        if ptype == "pd_op.create_array":
            elem, dt = _pir_array_type(outs[0].get("TT"))
            scope.set(ids[0], tr.emit_typed("tensor_array_create", (dt,), {}, [([-1] + elem, dt)]))
        elif ptype == "pd_op.array_write_":
            arr = val[0]
            out = tr.emit_typed("tensor_array_write", (arr, val[1], val[2]), {},
                                [(list(arr.shape), arr.dtype.name)])
            self.inplace(raw, scope, [out], 0)
        elif ptype in ("pd_op.array_read", "pd_op.slice_array_dense"):
            arr = val[0]
            idx = val[1]
            shape = list(arr.shape[1:])
            declared = _pir_type(outs[0].get("TT"))
            if declared is not None and len(declared[0]) == len(shape):
                shape = [d if d >= 0 else s for s, d in zip(shape, declared[0])]
            scope.set(ids[0], tr.emit_typed("tensor_array_read", (arr, idx), {}, [(shape, arr.dtype.name)]))
        elif ptype == "pd_op.slice_array":
            arr = val[0]
            scope.set(ids[0], tr.emit_typed("tensor_array_slice", (arr, val[1], val[2]), {},
                                            [(list(arr.shape), arr.dtype.name)]))
        elif ptype == "pd_op.array_length":
            scope.set(ids[0], tr.emit_typed("tensor_array_length", (val[0],), {}, [([1], "int64")]))
        elif ptype == "pd_op.array_to_tensor":
            arr = val[0]
            declared = _pir_type(outs[0].get("TT"))
            shape = declared[0] if declared is not None else [-1] * arr.ndim
            res = tr.emit_typed("tensor_array_to_tensor", (arr, attrs.get("axis", 1),
                                bool(attrs.get("use_stack", False))), {},
                                [(shape, arr.dtype.name), ([-1], "int32")])
            for i, r in zip(ids, res):
                scope.set(i, r)

    # ---- control flow ----
    def region(self, region: dict, scope: _Scope, carried: list) -> tuple[Block, list, list]:
        """Translate one region (a block ending in ``cf.yield``) into a child block; returns
        the block, the yielded values and the values of ``carried`` ids at its end."""
        block = region["blocks"][0]
        with self.tr.recorder.sub_block() as b:
            yielded = self.ops_until_yield(block["ops"], scope)
            final = [self.tr.value(scope.get(c), "cf.yield") for c in carried]
        return b, yielded, final

    def ops_until_yield(self, ops: list, scope: _Scope) -> list:
        """Translate a region's ops into the current block; returns the values its
        ``cf.yield`` yields (None for an absent one)."""
        yielded: list = []
        for raw in ops:
            if _pir_name(raw["#"]) == "cf.yield":
                yielded = [scope.get(i["%"]) if i.get("%") else None for i in raw.get("I", [])]
                continue
            self.op(raw, scope)
        return [self.tr.value(v, "cf.yield") for v in yielded]

    def if_op(self, raw: dict, ins: list, outs: list, scope: _Scope) -> None:
        tr = self.tr
        regions = raw["regions"]
        carried = _mutated([op for r in regions for op in r["blocks"][0]["ops"]], scope, tr.index)
        pred = tr.value(ins[0], "pd_op.if")
        tb, tvals, tfin = self.region(regions[0], _Scope(scope), carried)
        fb, fvals, ffin = self.region(regions[1], _Scope(scope), carried)
        tvals, fvals = tvals + tfin, fvals + ffin
        declared = [_pir_type(o.get("TT")) for o in outs] + [None] * len(carried)
        results, tnames, fnames = [], [], []
        for k, (a, b) in enumerate(zip(tvals, fvals)):
            if not isinstance(a, Value) or not isinstance(b, Value):
                raise NotImplementedError(f"paddle.inference: output {k} of pd_op.if in {tr.source} is "
                                          "not a tensor in both branches")
            shape = declared[k][0] if declared[k] is not None else _merge_shape(list(a.shape), list(b.shape))
            results.append(tr.block.create_var(tr.program.unique_name("cond"), shape, a.dtype,
                                               stop_gradient=a.stop_gradient and b.stop_gradient))
            tnames.append(a.name)
            fnames.append(b.name)
        captured = _captured_of([tb, fb], tvals + fvals)
        tr.block.append_op("pagaie.cond", [pred, captured], {}, results,
                           {"true_block": tb.idx, "false_block": fb.idx, "true_outputs": tnames,
                            "false_outputs": fnames})
        for o, r in zip(outs, results):
            if o.get("%"):
                scope.set(o["%"], r)
        for c, r in zip(carried, results[len(outs):]):
            scope.set(c, r)

    def while_op(self, raw: dict, ins: list, outs: list, scope: _Scope) -> None:
        tr = self.tr
        body = raw["regions"][0]["blocks"][0]
        carried = _mutated(body["ops"], scope, tr.index)
        pred = tr.value(ins[0], "pd_op.while")
        init = [tr.value(v, "pd_op.while") for v in ins[1:]] + \
            [tr.value(scope.get(c), "pd_op.while") for c in carried]
        inner = _Scope(scope)
        args = [a.get("#") if isinstance(a.get("#"), int) else a.get("%") for a in body.get("args", [])]
        # the loop variables' types Paddle declares (dims that change between iterations: -1)
        shapes = [_pir_type(a.get("TT")) for a in body.get("args", [])]
        shapes = [d[0] if d is not None and len(d[0]) == v.ndim else list(v.shape)
                  for d, v in zip(shapes + [None] * len(carried), init)]
        with tr.recorder.sub_block() as b:
            holders = [b.create_var(tr.program.unique_name("loop_var"), s, v.dtype,
                                    stop_gradient=v.stop_gradient) for s, v in zip(shapes, init)]
            for i, h in zip(args + carried, holders):
                inner.set(i, h)
            yielded = self.ops_until_yield(body["ops"], inner)
            new = yielded[1:] + [tr.value(inner.get(c), "cf.yield") for c in carried]
            npred = yielded[0]
        if len(new) != len(init):
            raise ValueError(f"paddle.inference: {tr.source} is corrupt (pd_op.while yields {len(new)} "
                             f"values for {len(init)} loop variables)")
        results = []
        for k, (o, n) in enumerate(zip(init, new)):
            if n.dtype != o.dtype:
                raise NotImplementedError(f"paddle.inference: loop variable {k} of pd_op.while in "
                                          f"{tr.source} changes dtype from {o.dtype.name} to {n.dtype.name}")
            declared = _pir_type(outs[k].get("TT")) if k < len(outs) else None
            shape = declared[0] if declared is not None else _merge_shape(list(o.shape), list(n.shape))
            results.append(tr.block.create_var(tr.program.unique_name("while"), shape, o.dtype,
                                               stop_gradient=o.stop_gradient and n.stop_gradient))
        captured = [v for v in _captured_of([b], new + [npred]) if v.name not in {h.name for h in holders}]
        tr.block.append_op("pagaie.while", [pred, init, captured], {}, results,
                           {"body_block": b.idx, "loop_vars": [h.name for h in holders],
                            "body_outputs": [n.name for n in new], "cond_output": npred.name})
        for o, r in zip(outs, results):
            if o.get("%"):
                scope.set(o["%"], r)
        for c, r in zip(carried, results[len(outs):]):
            scope.set(c, r)


_ARRAY_OPS = ("pd_op.create_array", "pd_op.array_write_", "pd_op.array_read", "pd_op.slice_array_dense",
              "pd_op.slice_array", "pd_op.array_length", "pd_op.array_to_tensor")


def _mutated(ops: list, scope: _Scope, index: dict) -> list[int]:
    """Ids (roots) defined outside ``ops`` that in-place ops among them (nested regions
    included) write into: the values a control-flow op must carry out."""
    local: dict[int, int] = {}
    found: list[int] = []

    def walk(ops: list) -> None:
        for raw in ops:
            ptype = _pir_name(raw["#"])
            k = _inplace_target(ptype, index)
            ins = raw.get("I", [])
            if k is not None and k < len(ins) and ins[k].get("%"):
                t = ins[k]["%"]
                r = local.get(t, t)
                r = scope.root(r) if r == t else r
                for o in _pir_ids(raw)[:1]:
                    if o.get("%"):
                        local[o["%"]] = r
                if scope.has(r) and r not in found:
                    found.append(r)
            for reg in raw.get("regions", []):
                for b in reg.get("blocks", []):
                    walk(b.get("ops", []))

    walk(ops)
    return found


def _merge_shape(a: list[int], b: list[int]) -> list[int]:
    if len(a) != len(b):
        return [-1] * len(a)
    return [x if x == y else -1 for x, y in zip(a, b)]


def _captured_of(blocks: list, extra: list) -> list[Value]:
    """Values the blocks (and the values they hand out) read from outside them."""
    from pagaie._static.control_flow import captured_values
    seen: dict[str, Value] = {}
    for b in blocks:
        for v in captured_values(b):
            seen.setdefault(v.name, v)
    inside = {n for b in blocks for n in b.vars}
    for v in extra:
        if isinstance(v, Value) and v.name not in inside:
            seen.setdefault(v.name, v)
    return list(seen.values())


def _pir_array_type(tt: Any) -> tuple[list[int], str]:
    """Element shape and dtype of a ``t_dense_tensor_array`` type."""
    if not isinstance(tt, dict) or "D" not in tt:
        return [], "float32"
    d = tt["D"]
    dt = _PIR_DTYPES.get(d[0]["#"].split(".")[-1], "float32")
    return list(d[1]) if len(d) > 1 else [], dt


def _refine(v: Value, tt: Any) -> None:
    """Give a recorded value the sizes Paddle's program declares where the recorder could not
    infer them (``full_with_tensor`` from a shape computed at run time, ...)."""
    declared = _pir_type(tt) if isinstance(tt, dict) and tt.get("#", "").endswith("t_dtensor") else None
    if declared is not None:
        _refine_shape(v, declared[0])


def _refine_shape(v: Value, shape: list[int]) -> None:
    if v.op is None:
        return
    have = list(v.shape)
    if len(have) != len(shape) or -1 not in have:
        return
    new = [d if d >= 0 and h < 0 else h for h, d in zip(have, shape)]
    if new != have:
        v._t = torch.empty(_shape_in(new), device="meta", dtype=v._t.dtype)
        v._dims = new


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
        slot = next((s for s in _LEGACY_MAIN_OUT if s in outs), None)
        main = infos.get(outs[slot][0]) if slot is not None and len(outs[slot]) == 1 else None
        if main is not None and main[2] is not None:
            pop.declared = [(main[1], main[2])]  # the type Paddle declares for the main output
        result = tr.translate(pop)
        if main is not None and isinstance(result, Value):
            _refine_shape(result, main[1])
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
                           [tr.fetchable(v, dummy) for _, _, v in fetch], tr.params)


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
