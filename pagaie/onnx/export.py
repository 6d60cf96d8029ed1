"""``paddle.onnx.export``: trace a Layer into a Program and lower each op to ONNX nodes.

The Layer's forward is traced in evaluation mode with pagaie's ``to_static`` machinery
(the same path as ``paddle.jit.save``), pruned to the inputs -> outputs subgraph, and
each operator is lowered by the ONNX lowering stored on its op record
(``OpRecord.onnx``, set by :mod:`pagaie.onnx.lowerings`). Values read from the Layer
(parameters, buffers, constants) become initializers; ops whose inputs are all such
constants are evaluated once and stored as initializers too. An op without a
lowering raises ``NotImplementedError`` naming it. Writing needs the ``onnx`` package.
"""
from __future__ import annotations

import os
import warnings
from typing import Any, Sequence

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import REGISTRY, suspended
from pagaie._formats.atomic_file import atomic_open
from pagaie._static.ir import Operator, Value, _values_in

__all__ = ["export", "LoweringContext", "lower_ops"]

_ONNX_DTYPES = {torch.float32: 1, torch.uint8: 2, torch.int8: 3, torch.int16: 5, torch.int32: 6,
                torch.int64: 7, torch.bool: 9, torch.float16: 10, torch.float64: 11,
                torch.bfloat16: 16}


def onnx_dtype(dtype: Any) -> int:
    """ONNX's TensorProto code of a torch / Paddle dtype."""
    t = dtype if isinstance(dtype, torch.dtype) else _dt.to_torch_dtype(dtype)
    if t not in _ONNX_DTYPES:
        raise NotImplementedError(f"paddle.onnx.export: dtype {t} has no ONNX equivalent here")
    return _ONNX_DTYPES[t]


class OpsetTooLow(NotImplementedError):
    """A lowering needs a newer opset than the export runs at (``needed``); ``export`` then
    moves to that opset, as Paddle's exporter upgrades it."""

    def __init__(self, what: str, needed: int, received: int) -> None:
        super().__init__(f"paddle.onnx.export: {what} needs opset_version >= {needed}, but received {received}")
        self.what, self.needed = what, needed


class LoweringContext:
    """What a lowering sees: names of values, node and constant builders, the opset.

    A lowering is ``fn(ctx, args, outs)``: ``args`` holds the op's arguments by name
    (Paddle's signature, defaults applied; Values standing for tensors) and ``outs`` the
    ONNX names its outputs must get (one per output Value, in order).
    """

    def __init__(self, opset: int) -> None:
        from onnx import helper, numpy_helper
        self.helper, self.numpy_helper = helper, numpy_helper
        self.opset = opset
        self.nodes: list = []
        self.initializers: list = []
        self.names: dict[str, str] = {}
        self.consts: dict[str, torch.Tensor] = {}  # values known at export time
        self.out_values: list = []  # the Values the op being lowered produces
        self.value_infos: list = []  # declared types of inner values (outputs of If / Loop)
        self._n = [0]   # shared with sub-graph contexts: ONNX names are unique across graphs

    def fresh(self, hint: str = "t") -> str:
        """A new ONNX name; the double underscore keeps it apart from the program's own value
        names (``nonzero_3``), which the graph also carries."""
        self._n[0] += 1
        return f"{hint}__{self._n[0]}"

    def sub(self) -> "LoweringContext":
        """A context for a sub-graph (a branch or loop body): its own nodes, the names and
        constants seen so far (outer values are read from the enclosing scope), shared
        initializers and name counter."""
        child = LoweringContext.__new__(LoweringContext)
        child.__dict__.update(self.__dict__)
        child.nodes, child.names, child.out_values, child.value_infos = [], dict(self.names), [], []
        return child

    def name(self, v: Any) -> str:
        """The ONNX name of a Value (an initializer for constants) or of a Python number/array."""
        if isinstance(v, Value):
            return self.ref(v.name)
        return self.constant(np.asarray(v))

    def ref(self, value_name: str) -> str:
        """The ONNX name of the program value called ``value_name``."""
        if value_name in self.names:
            return self.names[value_name]
        if value_name in self.consts:
            self.names[value_name] = self.constant(self.consts[value_name], "c")
            return self.names[value_name]
        raise NotImplementedError(f"paddle.onnx.export: value {value_name!r} has no producer")

    def constant(self, value: Any, hint: str = "const") -> str:
        arr = value.detach().cpu().numpy() if isinstance(value, torch.Tensor) else np.asarray(value)
        name = self.fresh(hint)
        self.initializers.append(self.numpy_helper.from_array(np.asarray(arr, order="C"), name))
        return name

    def like(self, value: Any, ref: Value) -> str:
        """A constant with ``ref``'s dtype (for Python scalars in binary ops)."""
        if isinstance(value, Value):
            return self.name(value)
        return self.constant(np.asarray(value, dtype=torch.empty(0, dtype=ref._t.dtype).numpy().dtype))

    def ints(self, values: Sequence[int]) -> str:
        return self.constant(np.asarray(list(values), dtype=np.int64))

    def node(self, op_type: str, inputs: Sequence[str], outputs: Sequence[str] | int = 1,
             **attrs: Any) -> list[str]:
        """Append a node; ``outputs`` is a list of names or how many fresh names to make."""
        if isinstance(outputs, int):
            outputs = [self.fresh(op_type.lower()) for _ in range(outputs)]
        attrs = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(self.helper.make_node(op_type, list(inputs), list(outputs),
                                                name=self.fresh(op_type), **attrs))
        return list(outputs)

    def one(self, op_type: str, inputs: Sequence[str], out: str | None = None, **attrs: Any) -> str:
        return self.node(op_type, inputs, [out] if out else 1, **attrs)[0]


def _trace(layer: Any, input_spec: Any, configs: dict) -> tuple:
    """The pruned inference Program of ``layer`` with its feed and fetch names (as ``jit.save``
    traces it: the given input_spec, else the ``to_static`` one, else the last call's inputs)."""
    from pagaie.jit.save_load import _kept_outputs, _static_function, _trace_mode, check_save_configs
    from pagaie._static.program_tools import prune_program
    from pagaie._core.tensor import Tensor
    from pagaie.static.input_spec import InputSpec
    check_save_configs("paddle.onnx.export", configs)
    output_spec = configs.get("output_spec")
    if input_spec is not None and not isinstance(input_spec, (list, tuple)):
        raise TypeError("paddle.onnx.export: input_spec must be a list or tuple of InputSpec or Tensor, "
                        f"but received {type(input_spec).__name__}")
    sf = _static_function(layer, "save")
    spec = list(input_spec) if input_spec is not None else sf.input_spec
    if spec is None and sf._last is not None:
        spec = [InputSpec(v.shape, v.dtype, v.name) for v in sf._last.inputs]
    if spec is None:
        raise ValueError("paddle.onnx.export: input_spec is required (a list of InputSpec or Tensor) "
                         "unless the to_static layer was called once before exporting")
    spec = [InputSpec.from_tensor(s) if isinstance(s, Tensor) and not isinstance(s, Value) else s
            for s in spec]
    entry = _trace_mode(sf, spec, training=False)
    fetch = [entry.outputs[i] for i in _kept_outputs(entry.outputs, output_spec, "paddle.onnx.export")]
    program = prune_program(entry.main_program, entry.inputs, fetch)
    return program, list(entry.feed_names), [v.name for v in fetch]


def _fold(op: Operator, ctx: LoweringContext) -> bool:
    """Evaluate an op whose inputs are all export-time constants; True if done."""
    ins = op.input_values()
    if any(v.name not in ctx.consts for v in ins) or op.type.startswith("pagaie."):
        return False
    rec = REGISTRY[op.type]
    slots = {v.name: ctx.consts[v.name] for v in ins}

    def sub(x: Any) -> Any:
        if isinstance(x, Value):
            return slots[x.name]
        if type(x) in (list, tuple):
            return type(x)(sub(e) for e in x)
        if type(x) is dict:
            return {k: sub(e) for k, e in x.items()}
        return x
    with suspended(), torch.no_grad():
        result = rec.kernel(*sub(op.args), **sub(op.kwargs))
    outs = op.output_values()
    results = [result] if isinstance(result, torch.Tensor) else list(result)
    for v, r in zip(outs, results):
        ctx.consts[v.name] = r
    return True


def lower_ops(ctx: LoweringContext, ops: Sequence[Operator]) -> None:
    """Lower ``ops`` in order into ``ctx`` (folding those over export-time constants).

    An op record's lowering is ``fn(ctx, args, outs)``; a graph op (``pagaie.cond``,
    ``pagaie.while``) carries ``fn(ctx, op, outs)`` on its runner, as it reads its blocks.
    """
    from pagaie._static.interpreter import GRAPH_OPS
    for op in ops:
        if _fold(op, ctx):
            continue
        rec = REGISTRY.get(op.type)
        lower = rec.onnx if rec is not None else getattr(GRAPH_OPS.get(op.type), "onnx", None)
        if lower is None:
            raise NotImplementedError(f"paddle.onnx.export: the op {op.type!r} has no ONNX lowering "
                                      f"(in {op!r})")
        ctx.out_values = list(_values_in(op.outputs))
        # an in-place op writes a new ONNX value (the graph is SSA)
        outs = [ctx.fresh(v.name) if v.name in ctx.names or v.name in ctx.consts else v.name
                for v in ctx.out_values]
        if rec is not None:
            lower(ctx, rec.bind(tuple(op.args), dict(op.kwargs)).arguments, outs)
        else:
            lower(ctx, op, outs)
        ctx.names.update((v.name, n) for v, n in zip(ctx.out_values, outs))


_MAX_OPSET = 21


def _to_model(onnx: Any, program: Any, feed_names: list, fetch_names: list, opset_version: int) -> Any:
    """The traced program as a checked ONNX model at ``opset_version`` (OpsetTooLow when an
    op needs a newer one)."""
    gb = program.global_block()
    ctx = LoweringContext(opset_version)
    inputs = []
    for n in feed_names:
        v = gb.var(n)
        ctx.names[n] = n
        dims = [d if d >= 0 else f"{n}_d{i}" for i, d in enumerate(v.shape)]
        inputs.append(onnx.helper.make_tensor_value_info(n, onnx_dtype(v._t.dtype), dims))
    for v in (v for blk in program.blocks for v in blk.vars.values()):
        if v.source is not None and not v.is_data:
            ctx.consts[v.name] = v.source._t.detach()
    lower_ops(ctx, gb.ops)
    outputs = []
    for n in fetch_names:
        v = gb.var(n)
        name = ctx.name(v)
        if name in feed_names or name != n:
            name = ctx.one("Identity", [name], n + "_out")
        dims = [d if d >= 0 else f"{n}_d{i}" for i, d in enumerate(v.shape)]
        outputs.append(onnx.helper.make_tensor_value_info(name, onnx_dtype(v._t.dtype), dims))
    used = _read_names(ctx.nodes) | {o.name for o in outputs}
    kept = [t for t in ctx.initializers if t.name in used]   # constants folded away are left out
    graph = onnx.helper.make_graph(ctx.nodes, "pagaie_model", inputs, outputs, kept,
                                   value_info=ctx.value_infos)
    model = onnx.helper.make_model(graph, producer_name="pagaie",
                                   opset_imports=[onnx.helper.make_opsetid("", opset_version)])
    model.ir_version = min(model.ir_version, 8 if opset_version <= 17 else model.ir_version)
    onnx.checker.check_model(model)
    return model


def _read_names(nodes: Sequence[Any]) -> set[str]:
    """Every value name the nodes read, those of their sub-graphs (If / Loop bodies) included."""
    names: set[str] = set()
    for node in nodes:
        names.update(node.input)
        for attr in node.attribute:
            for g in [attr.g] if attr.HasField("g") else list(attr.graphs):
                names |= _read_names(g.node) | {o.name for o in g.output}
    return names


def export(layer: Any, path: str, input_spec: Sequence[Any] | None = None, opset_version: int = 9,
           **configs: Any) -> None:
    """Export a Layer (or function) to ``path + '.onnx'``.

    Args:
        layer (Layer|function): what to export; its forward is traced in eval mode.
        path (str): ``'dirname/file_prefix'``; the file written is ``path + '.onnx'``.
        input_spec (list[InputSpec|Tensor], optional): the inputs (required unless the
            Layer's forward is a ``to_static`` function with an input_spec).
        opset_version (int): the ONNX opset (9 to 21). Default 9, as Paddle. An op that needs a
            newer opset raises it to the least one every op has (with a warning), as Paddle's
            exporter does.
        **configs: ``output_spec`` (list of the outputs to keep: their positions, or the
            output values of the static program) and Paddle's other ``jit.save`` options
            (accepted).

    Raises:
        TypeError: ``input_spec`` no list or tuple, or ``output_spec`` no list.
        ValueError: a bad path, opset_version, config or ``output_spec`` entry, or no input_spec
            for a Layer never called.
        NotImplementedError: an op (or an argument of one) that has no ONNX lowering, named.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'linear')
        >>> paddle.onnx.export(paddle.nn.Linear(4, 2), path,
        ...                    [paddle.static.InputSpec([None, 4], 'float32', 'x')])
        >>> os.path.exists(path + '.onnx')
        True
    """
    if not isinstance(path, (str, os.PathLike)) or not os.path.basename(os.fspath(path)):
        raise ValueError("paddle.onnx.export: the path must be of the form 'dirname/file_prefix', "
                         f"but received {path!r}")
    if not isinstance(opset_version, int) or not 7 <= opset_version <= _MAX_OPSET:
        raise ValueError(f"paddle.onnx.export: opset_version must be an int in [7, {_MAX_OPSET}], but received "
                         f"{opset_version!r}")
    try:
        import onnx
    except ImportError:  # pragma: no cover - optional dependency
        raise ImportError("paddle.onnx.export needs the onnx package: pip install onnx") from None
    from pagaie.onnx import lowerings  # noqa: F401  (attaches the lowerings to the records)

    program, feed_names, fetch_names = _trace(layer, input_spec, configs)
    opset = opset_version
    while True:
        try:
            model = _to_model(onnx, program, feed_names, fetch_names, opset)
            break
        except OpsetTooLow as exc:   # as Paddle's exporter: the least opset every op has
            if exc.needed <= opset or exc.needed > _MAX_OPSET:
                raise
            warnings.warn(f"paddle.onnx.export: {exc.what} needs opset_version >= {exc.needed}: the "
                          f"model is exported at opset {exc.needed} instead of {opset}", stacklevel=2)
            opset = exc.needed
    d = os.path.dirname(os.fspath(path))
    if d:
        os.makedirs(d, exist_ok=True)
    target = os.fspath(path) + ".onnx"
    with atomic_open(target) as f:   # readers never see a partial file
        onnx.save(model, f)
