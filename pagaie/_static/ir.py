"""The static-graph IR: Program -> Block -> Operator over Values.

A :class:`Value` is a symbolic tensor: it subclasses ``Tensor`` with a ``meta``
torch tensor behind it, so the whole Tensor API (shape, dtype, methods from op
records) works on it. Unknown dimensions are ``-1`` in ``Value.shape``; inside
the meta tensor they take the placeholder size :data:`UNKNOWN` so that shape
inference can run the op's own kernel on meta tensors.

An :class:`Operator` stores the op record's name and the call exactly as made
(positional and keyword arguments, with Values standing for tensors), so that
executing it is calling the same kernel the eager path calls.
"""
from __future__ import annotations

import base64
import itertools
import json
from typing import Any, Iterator

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import REGISTRY
from pagaie._core.tensor import Size, Tensor, VarType
from pagaie._static.pir_methods import BlockMethods, OpAttrs, OperationMethods, ProgramMethods, ValueUses

__all__ = ["UNKNOWN", "UNKNOWN_ALT", "Value", "Operator", "Block", "Program", "FORMAT_VERSION",
           "ATTR_CODECS"]

# The placeholder size of unknown (-1) dimensions inside meta tensors: a prime far
# from any real size, so dimensions derived from it are recognisable. The recorder runs an
# op whose inputs have unknown sizes a second time with ``UNKNOWN_ALT`` in their place: the
# output sizes that agree are known.
UNKNOWN = 9973
UNKNOWN_ALT = 10007
FORMAT_VERSION = 1

_uid = itertools.count()
# How many times a Value's shape with unknown (-1) dimensions was read: ``to_static``
# compares it before and after a trace.
UNKNOWN_SHAPE_READS = [0]


def _derived(d: int) -> bool:
    """Whether size ``d`` was computed from an unknown one: the placeholder, a multiple of it,
    or about a small fraction of it (a stride-2 slice or pooling, a valid convolution...)."""
    if d >= UNKNOWN - 4:
        return d <= UNKNOWN + 4 or d % UNKNOWN == 0
    return d > 1200 and any(abs(d * k - UNKNOWN) <= 2 * k for k in range(2, 9))


def _shape_out(shape: torch.Size) -> list[int]:
    return [-1 if _derived(d) else int(d) for d in shape]


def _shape_in(shape: list[int]) -> list[int]:
    return [UNKNOWN if d is None or d < 0 else int(d) for d in shape]


_TYPE_SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
               "int8": "i8", "uint8": "u8", "int16": "i16", "int32": "i32", "int64": "i64",
               "bool": "b", "complex64": "c64", "complex128": "c128"}


# Graph-level ops and composites under the name Paddle 3 prints for the value they define.
_PIR_NAMES = {"pagaie.cond": "pd_op.if", "pagaie.while": "pd_op.while", "neg": "pd_op.scale",
              "ones_like": "pd_op.full_like", "zeros_like": "pd_op.full_like",
              "broadcast_to": "pd_op.expand", "split": "builtin.split", "chunk": "builtin.split",
              "unbind": "builtin.split", "sort": "pd_op.argsort"}
_SCALE_OPS = ("add", "subtract", "multiply", "divide", "scale")
_NUMBER = (int, float)


def _pir_name(op: "Operator") -> str:
    """The name Paddle 3 gives the op defining a value (``Value.__repr__``): arithmetic with a
    Python number is ``pd_op.scale``, basic indexing ``pd_op.slice``..."""
    t = op.type
    if t in _PIR_NAMES:
        return _PIR_NAMES[t]
    args = op.args
    if t in _SCALE_OPS and len(args) >= 2:
        a, b = args[0], args[1]
        if isinstance(a, Value) and type(b) in _NUMBER:
            return "pd_op.scale"
        if type(a) in _NUMBER and isinstance(b, Value) and t != "divide":
            return "pd_op.scale"
    if t == "getitem" and len(args) == 2:
        return _getitem_name(args[1])
    if t == "assign" and args and not isinstance(args[0], Tensor):
        return "pd_op.assign_value_"
    if t in _COMPOSITE_LAST:
        return _composite_name(op)
    return _paddle_op_name(op)


# Composites Paddle builds from other ops: the op that defines their result.
_COMPOSITE_LAST = {"linear": None, "normalize": "pd_op.divide", "var": "pd_op.divide",
                   "std": "pd_op.sqrt", "mse_loss": "mean", "l1_loss": "mean_all",
                   "binary_cross_entropy": "mean_all", "binary_cross_entropy_with_logits": "mean_all",
                   "cross_entropy": "mean", "smooth_l1_loss": "mean", "nll_loss": "mean"}


def _composite_name(op: "Operator") -> str:
    try:
        bound = op.record.bind(op.args, op.kwargs)
        bound.apply_defaults()
        arguments = bound.arguments
    except (TypeError, AttributeError):
        return _paddle_op_name(op)
    if op.type == "linear":
        return "pd_op.matmul" if arguments.get("bias") is None else "pd_op.add"
    last = _COMPOSITE_LAST[op.type]
    if last.startswith("pd_op."):
        return last
    reduction = arguments.get("reduction", "mean")
    return {"mean": "pd_op." + last, "sum": "pd_op.sum"}.get(reduction, _paddle_op_name(op))


def _getitem_name(index: Any) -> str:
    items = index if isinstance(index, tuple) else (index,)
    if any(isinstance(i, Value) and i.dtype.name == "bool" for i in items):
        return "pd_op.masked_select"
    if any(isinstance(i, (list, Value)) for i in items):
        return "pd_op.gather_nd"
    if any(isinstance(i, slice) and i.step not in (None, 1) for i in items):
        return "pd_op.strided_slice"
    return "pd_op.slice"


def _paddle_op_name(op: "Operator") -> str:
    """The op's name in a Paddle 3 (PIR) program: ``pd_op.<name>`` from its record."""
    rec = op.record
    if rec is None:
        return op.type
    name = next((t for t in rec.paddle_types if t.startswith("pd_op.")), None)
    return name if name is not None else f"pd_op.{op.type}"


def _dygraph_only(method: str) -> None:
    """Paddle's AssertionError for the Tensor methods it runs only in dynamic mode, called on a
    Value while static mode is on (a ``to_static`` trace keeps the Tensor behaviour)."""
    from pagaie._core.registry import dygraph_only_error
    from pagaie.static.framework import in_dynamic_mode
    if not in_dynamic_mode():
        raise dygraph_only_error(method)


def _flag(value: Any, what: str) -> bool:
    """A Value's bool attribute as Paddle's setter converts it: None is False, and any object
    with a truth value of its own (a number, a numpy bool) its truth; others (a str, a list)
    are a TypeError."""
    if value is None:
        return False
    if not hasattr(type(value), "__bool__"):
        raise TypeError(f"paddle.pir.Value.{what}: must be a bool, but received "
                        f"{type(value).__name__} {value!r:.40}")
    return bool(value)


class Value(ValueUses, Tensor):
    """A symbolic tensor in a :class:`Program` (Paddle's static ``Variable``).

    Attributes:
        name (str): unique name in its program.
        shape (list[int]): with -1 for unknown dimensions.
        dtype: the Paddle dtype.
        stop_gradient (bool): whether gradients stop here.
        persistable (bool): parameters and other values that live across runs.
    """

    _paddle_class = "paddle.base.libpaddle.pir.Value"

    def __init__(self, block: "Block", type: Any = VarType.DENSE_TENSOR, name: str | None = None,
                 shape: list[int] | None = None, dtype: Any = None, lod_level: int | None = None,
                 capacity: int | None = None, persistable: bool | None = None,
                 error_clip: Any = None, stop_gradient: bool = False, is_data: bool = False,
                 need_check_feed: bool = False, belong_to_optimizer: bool = False,
                 **kwargs: Any) -> None:
        # Paddle's Variable signature; ``type``, ``lod_level``, ``capacity``, ``error_clip``,
        # ``need_check_feed`` and ``belong_to_optimizer`` are kept for compatibility only.
        if name is None:
            name = block.program.unique_name("_generated_var")
        self._t = torch.empty(_shape_in(list(shape or [])), device="meta",
                              dtype=_dt.to_torch_dtype("float32" if dtype is None else dtype))
        # the dims as given (-1 unknown): exact, where reading them back from the meta
        # tensor's placeholder sizes would have to guess
        self._dims = [-1 if d is None or d < 0 else int(d) for d in (shape or [])]
        self._name = name
        self.block = block
        self._stop_gradient = bool(stop_gradient)
        # set where the program asks for it (``v.stop_gradient = True``, an op recorded under
        # ``no_grad``): running the program cuts the gradient there, as Paddle's backward does
        self._cut = False
        self.persistable = bool(persistable)
        self.op: Operator | None = None
        self.source: Tensor | None = None  # the eager tensor a captured value reads at run time
        self.is_data = bool(is_data)
        self.belong_to_optimizer = belong_to_optimizer
        block.vars.setdefault(name, self)

    # Symbolic overrides of the Tensor protocol -----------------------------------
    def _known_dims(self) -> list[int]:
        dims, t = self._dims, self._t.shape
        if len(dims) == len(t) and all(d == -1 or d == e for d, e in zip(dims, t)):
            return list(dims)
        return _shape_out(t)   # the meta tensor was replaced: read its sizes

    @property
    def shape(self) -> Size:  # type: ignore[override]
        dims = self._known_dims()
        if -1 in dims:
            UNKNOWN_SHAPE_READS[0] += 1  # to_static specialises a trace that read one
        return Size(dims)

    @shape.setter
    def shape(self, value: Any) -> None:
        # (Paddle's ValueError: a program value's shape comes from the op that makes it)
        raise ValueError(f"paddle.static: can not set the shape of {self.name!r} while a static "
                         f"program is built (received {value!r}); use paddle.reshape")

    @property
    def trainable(self) -> bool:
        """Whether an optimizer updates it (a parameter that does not stop gradient)."""
        return type(self.source).__name__ == "Parameter" and bool(self.source.trainable)

    @property
    def grad(self) -> None:  # type: ignore[override]
        """A program value holds no gradient: Paddle's ``Value`` has no ``grad`` attribute
        (take one from ``paddle.static.gradients`` / ``append_backward``)."""
        raise AttributeError(f"'{self._paddle_class}' object has no attribute 'grad' (the "
                             "gradients of a program come from paddle.static.gradients)")

    @grad.setter
    def grad(self, value: Any) -> None:
        raise AttributeError(f"'{self._paddle_class}' object has no attribute 'grad' (the "
                             "gradients of a program come from paddle.static.gradients)")

    def is_dense_tensor_type(self) -> bool:
        return True

    def get_defining_op(self) -> "Operator | None":
        """The operator that defines this value (None for inputs and parameters)."""
        return self.op

    def is_same(self, other: "Value") -> bool:
        """Whether ``other`` is this very value (not an equal one)."""
        if not isinstance(other, Value):
            raise TypeError(f"paddle.pir.Value.is_same: other must be a Value, but received "
                            f"{type(other).__name__}")
        return other is self

    def __len__(self) -> int:
        if self._t.dim() == 0 or self._known_dims()[0] == -1:
            raise TypeError(f"paddle.static: len() of Value {self.name!r} is unknown while the "
                            f"program is being built (its shape is {list(self.shape)}); use "
                            "paddle.shape(x)[0]")
        return self._t.shape[0]

    def __iter__(self):
        len(self)  # the number of items must be known
        return super().__iter__()

    # Symbolic values live on no device: moves are no-ops, dtype changes record a cast.
    def _to(self, device: Any = None, dtype: Any = None, blocking: Any = None) -> "Value":
        return self if dtype is None else self.astype(dtype)

    def cpu(self) -> "Value":  # type: ignore[override]
        return self

    def cuda(self, device_id: Any = None, blocking: bool = True) -> "Value":  # type: ignore[override]
        return self

    def pin_memory(self, blocking: bool = True) -> "Value":  # type: ignore[override]
        return self

    def register_hook(self, hook: Any) -> Any:  # type: ignore[override]
        _dygraph_only("register_hook")
        return super().register_hook(hook)

    @property
    def place(self) -> None:  # type: ignore[override]
        # As Paddle's program Values: a Value lives on no device until an executor runs it
        return None

    @property
    def stop_gradient(self) -> bool:  # type: ignore[override]
        return self._stop_gradient

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        self._stop_gradient = self._cut = _flag(value, "stop_gradient")

    @property
    def persistable(self) -> bool:  # type: ignore[override]
        return self.__dict__.get("persistable", False)

    @persistable.setter
    def persistable(self, value: bool) -> None:
        self.__dict__["persistable"] = _flag(value, "persistable")

    @property
    def size(self) -> Any:  # type: ignore[override]
        from pagaie import numel
        from pagaie._static.ast_runtime import _TRACE
        n = declared_size(self)
        if not _TRACE.active or _TRACE.full_graph:
            # static mode and to_static's AST mode (full_graph=True): Paddle's Value.size is
            # the element count as the program runs (its numel op), also for known sizes
            return numel(self)
        if n == -1:
            # the default mode reads the real count, a Python number: to_static
            # specialises a trace that reads an unknown one
            UNKNOWN_SHAPE_READS[0] += 1
            return numel(self)
        return n

    def clear_gradient(self, set_to_zero: bool = True) -> None:  # type: ignore[override]
        # a program value holds no gradient: Paddle's dygraph-only method check
        raise AssertionError("'clear_gradient' only can be called by `paddle.Tensor` in dynamic "
                             "graph mode; a static Value holds no gradient")

    def numpy(self):  # type: ignore[override]
        # AssertionError, as Paddle raises for numpy()/tolist() in static mode
        from pagaie._static.ast_runtime import graph_break
        raise graph_break(AssertionError(
            f"paddle.static: Value {self.name!r} is symbolic and has no data; fetch it with "
            "Executor.run(program, feed=..., fetch_list=[...]), or call numpy() in dynamic mode"))

    def item(self, *args: int) -> "Value":  # type: ignore[override]
        """The element of a one-element Value (the Value itself) or the element at ``args``
        (a flat offset, or one index per axis) as a 0-D Value, as Paddle's program Values
        give it: the program goes on with a tensor where eager code gets a Python number."""
        from pagaie._static.ast_runtime import _TRACE, graph_break
        if _TRACE.active and not _TRACE.full_graph:
            # to_static's default mode: the Python number of eager code (the call runs eagerly)
            raise graph_break(ValueError(f"paddle.static: Value {self.name!r} is symbolic and has "
                                         "no data; fetch it with Executor.run(program, feed=..., "
                                         "fetch_list=[...])"))
        dims = self._known_dims()
        if -1 in dims and len(dims) > 1:   # (Paddle multiplies the sizes as Python ints)
            self._no_scalar("int")
        numel = None if -1 in dims else int(np.prod(dims, dtype=np.int64))
        offset = 0
        if not args:
            if numel is not None and numel != 1:
                raise ValueError(f"paddle.Tensor.item: only one element tensors can be converted to "
                                 f"Python scalars when no input coordinates (Value {self.name!r} "
                                 f"has shape {dims})")
            return self
        if len(args) == 1:
            offset = args[0]
            if numel is not None and offset >= numel:
                raise ValueError(f"paddle.Tensor.item: index {offset} is out of bounds for size {numel}")
        else:
            if len(args) != len(dims):
                raise ValueError(f"paddle.Tensor.item: incorrect number of indices for a Value of "
                                 f"shape {dims}: {list(args)}")
            for i, (index, size) in enumerate(zip(args, dims)):
                if not isinstance(index, int):
                    raise TypeError(f"paddle.Tensor.item: argument (position {i}) must be long, but "
                                    f"got {type(index).__name__}")
                if index >= size:
                    raise ValueError(f"paddle.Tensor.item: index {index} is out of bounds for axis "
                                     f"{i} with size {size}")
                offset = offset * size + index
        return self.flatten()[offset]

    def tolist(self):  # type: ignore[override]
        self.numpy()

    def __bool__(self) -> bool:
        from pagaie._static.ast_runtime import graph_break
        raise graph_break(TypeError(f"paddle.static: the truth value of symbolic Value {self.name!r} "
                                    "is unknown while the program is being built; use "
                                    "paddle.static.nn.cond for data-dependent branches"))

    def _no_scalar(self, kind: str) -> Any:
        # TypeError for any shape, as Paddle's symbolic values (never torch's meta-tensor error)
        from pagaie._static.ast_runtime import graph_break
        raise graph_break(TypeError(f"paddle.static: {kind}() of symbolic Value {self.name!r} is "
                                    f"unknown while the program is being built (shape "
                                    f"{list(self.shape)}); fetch it with Executor.run, or use "
                                    "paddle ops on it"))

    def __float__(self) -> float:  # type: ignore[override]
        return self._no_scalar("float")

    def __int__(self) -> int:  # type: ignore[override]
        return self._no_scalar("int")

    def __long__(self) -> int:  # type: ignore[override]
        return self._no_scalar("int")

    def __complex__(self) -> complex:  # type: ignore[override]
        return self._no_scalar("complex")

    def __index__(self) -> int:  # type: ignore[override]
        return self._no_scalar("index")

    def backward(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        raise TypeError("paddle.static: call paddle.static.append_backward(loss) or "
                        "optimizer.minimize(loss) to add gradients to a static program")

    def __repr__(self) -> str:
        # Paddle 3's PIR form: the defining op, the output index and the MLIR-style type.
        op_name, index = self._defining_op()
        return (f"Value(define_op_name={op_name}, index={index}, dtype={self._type_str()}, "
                f"stop_gradient={'True' if self.stop_gradient else 'False'})")

    __str__ = __repr__
    __hash__ = object.__hash__

    def _defining_op(self) -> tuple[str, int]:
        """Paddle's name of the op defining this value (``pd_op.add``), and the output index."""
        op = self.op
        if op is None:
            if self.is_data:
                return "pd_op.data", 0
            if self.source is not None:
                if type(self.source).__name__ == "Parameter":
                    return "builtin.parameter", 0
                return "pd_op.assign_value_", 0
            return "builtin.parameter" if self.persistable else "pd_op.data", 0
        outs = op.output_values()
        index = next((i for i, v in enumerate(outs) if v is self), 0)
        if op.type == "pagaie.backward":
            return self._grad_op(op, index)
        return _pir_name(op), index

    def _grad_op(self, backward: "Operator", index: int) -> tuple[str, int]:
        """As Paddle names a gradient value: by the grad op of the forward op that used the
        input (``pd_op.matmul_grad``, the input's position), or ``pd_op.add_n`` when several
        ops used it and their gradients are summed."""
        inputs = backward.args[1] if len(backward.args) > 1 else []
        if index >= len(inputs) or not isinstance(inputs[index], Value):
            return backward.type, index
        x = inputs[index]
        users = [o for o in backward.block.ops if o is not backward and o.record is not None
                 and any(v is x for v in o.input_values())]
        if len(users) > 1 or sum(1 for v in _values_in((users[0].args, users[0].kwargs)
                                                         if users else ()) if v is x) > 1:
            return "pd_op.add_n", 0
        if not users:
            return backward.type, index
        user = users[0]
        pos = next(i for i, v in enumerate(user.input_values()) if v is x)
        if user.type == "linear":  # x @ w (+ b): the bias's gradient comes from add_grad
            return ("pd_op.add_grad", 1) if pos == 2 else ("pd_op.matmul_grad", pos)
        return _pir_name(user) + "_grad", pos

    def _type_str(self) -> str:
        """``tensor<2x-1xf32>``, Paddle's printed type of a dense tensor value."""
        short = _TYPE_SHORT.get(self.dtype.name, self.dtype.name)
        dims = "x".join(str(d) for d in self.shape)
        return f"tensor<{dims}x{short}>" if dims else f"tensor<{short}>"

    def to_json(self) -> dict:
        d = {"name": self.name, "shape": list(self.shape), "dtype": self.dtype.name,
             "stop_gradient": self.stop_gradient, "persistable": self.persistable,
             "is_data": self.is_data}
        if self._cut:
            d["cut"] = True
        return d


# Attribute objects that a subsystem serialises itself (the startup program's initializers):
# tag -> (class, to_json(obj) -> JSON-able, from_json(data) -> obj).
ATTR_CODECS: dict[str, tuple[type, Any, Any]] = {}


def _encode(v: Any) -> Any:
    if isinstance(v, Value):
        return {"$var": v.name}
    for tag, (cls, enc, _) in ATTR_CODECS.items():
        if isinstance(v, cls):
            return {"$obj": [tag, enc(v)]}
    if isinstance(v, _dt.DType):
        return {"$dtype": v.name}
    if isinstance(v, torch.dtype):
        return {"$dtype": _dt.from_torch_dtype(v).name}
    if isinstance(v, tuple):
        return {"$tuple": [_encode(e) for e in v]}
    if isinstance(v, list):
        return [_encode(e) for e in v]
    if isinstance(v, dict):
        return {"$dict": [[k, _encode(e)] for k, e in v.items()]}
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return {"$float": repr(v)}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, complex):
        return {"$complex": [v.real, v.imag]}
    if isinstance(v, slice):
        return {"$slice": [_encode(v.start), _encode(v.stop), _encode(v.step)]}
    if v is Ellipsis:
        return {"$ellipsis": True}
    if isinstance(v, (np.ndarray, np.generic)) and v.dtype.kind in "biufc":
        # a numpy constant the traced code made (``to_tensor(np.array(...))``), kept exactly
        a = np.ascontiguousarray(v)
        return {"$ndarray": [a.dtype.str, list(a.shape), base64.b64encode(a.tobytes()).decode("ascii"),
                             isinstance(v, np.generic)]}
    raise TypeError(f"paddle.static: cannot serialise an argument of type {type(v).__name__}")


def _decode(v: Any, block: "Block") -> Any:
    if isinstance(v, list):
        return [_decode(e, block) for e in v]
    if isinstance(v, dict):
        if "$var" in v:
            return block.var(v["$var"])
        if "$dtype" in v:
            return _dt.to_dtype(v["$dtype"])
        if "$tuple" in v:
            return tuple(_decode(e, block) for e in v["$tuple"])
        if "$dict" in v:
            return {k: _decode(e, block) for k, e in v["$dict"]}
        if "$float" in v:
            return float(v["$float"])
        if "$complex" in v:
            return complex(*v["$complex"])
        if "$slice" in v:
            return slice(*(_decode(e, block) for e in v["$slice"]))
        if "$ellipsis" in v:
            return Ellipsis
        if "$ndarray" in v:
            dtype, shape, data, scalar = v["$ndarray"]
            a = np.frombuffer(base64.b64decode(data), dtype=np.dtype(dtype)).reshape(shape).copy()
            return a[()] if scalar else a
        if "$obj" in v:
            tag, data = v["$obj"]
            if tag not in ATTR_CODECS:
                raise ValueError(f"paddle.static: the program holds an attribute of unknown kind {tag!r}")
            return ATTR_CODECS[tag][2](data)
    return v


def _values_in(v: Any) -> Iterator[Value]:
    if isinstance(v, Value):
        yield v
    elif isinstance(v, (list, tuple)):
        for e in v:
            yield from _values_in(e)
    elif isinstance(v, dict):
        for e in v.values():
            yield from _values_in(e)
    elif type(v) is slice:   # x[:, :n] with n a Value
        yield from _values_in((v.start, v.stop, v.step))



def declared_size(v: Any) -> int:
    """The element count a program declares for Value ``v`` (-1 when a size is unknown; a
    plain Tensor's own size), without recording the numel op ``Value.size`` gives then."""
    if not isinstance(v, Value):
        return v.size
    n = 1
    for d in v._known_dims():
        if d == -1:
            return -1
        n *= d
    return n


def map_values(v: Any, fn: Any) -> Any:
    """``v`` with each Value inside it (through lists, tuples and dicts) replaced by ``fn(value)``;
    other items stay as they are."""
    if isinstance(v, Value):
        return fn(v)
    if type(v) in (list, tuple):
        return type(v)(map_values(e, fn) for e in v)
    if type(v) is dict:
        return {k: map_values(e, fn) for k, e in v.items()}
    if type(v) is slice:
        return slice(*(map_values(e, fn) for e in (v.start, v.stop, v.step)))
    return v


class Operator(OperationMethods):
    """One op call in a block: the record name, the call's arguments, and its outputs.

    Attributes:
        type (str): the op record's name (``'matmul'``) or a graph-level op
            (``'pagaie.backward'``...).
        args (list), kwargs (dict): the call, Values standing for tensors.
        outputs: the result structure (a Value, or a tuple/list of Values).
        attrs (dict): extra attributes set by passes (e.g. fused activation).
    """

    def __init__(self, block: "Block", type: str, args: list, kwargs: dict, outputs: Any,
                 attrs: dict | None = None) -> None:
        self.block = block
        self.type = type
        self.args = list(args)
        self.kwargs = dict(kwargs)
        self.outputs = outputs
        self.attrs = OpAttrs(self, attrs or {})  # (also callable: Paddle's attrs())

    @property
    def record(self):
        return REGISTRY.get(self.type)

    def input_values(self) -> list[Value]:
        seen: dict[int, Value] = {}
        for v in itertools.chain(_values_in(self.args), _values_in(self.kwargs)):
            seen.setdefault(id(v), v)
        return list(seen.values())

    def output_values(self) -> list[Value]:
        return list(_values_in(self.outputs))

    def name(self) -> str:
        """Paddle's name of the op (``'pd_op.matmul'``), as ``Operation.name()`` in Paddle 3."""
        return _pir_name(self)

    def input_names(self) -> list[str]:
        return [v.name for v in self.input_values()]

    def output_names(self) -> list[str]:
        return [v.name for v in self.output_values()]

    def __repr__(self) -> str:
        outs = ", ".join(self.output_names())
        parts = [_short(a) for a in self.args] + [f"{k}={_short(v)}" for k, v in self.kwargs.items()
                                                   if k != "name"]
        attrs = f" {self.attrs}" if self.attrs else ""
        # Paddle's op name (quoted, as Paddle prints a program: "pd_op.matmul"), then ours
        return f"({outs}) = \"{self.name()}\" {self.type}({', '.join(parts)}){attrs}"

    def to_json(self) -> dict:
        return {"type": self.type, "args": _encode(self.args), "kwargs": _encode(self.kwargs),
                "outputs": _encode(self.outputs), "attrs": _encode(self.attrs)}


def _short(v: Any) -> str:
    if isinstance(v, Value):
        return v.name
    if isinstance(v, (list, tuple)):
        inner = ", ".join(_short(e) for e in v)
        return f"[{inner}]" if isinstance(v, list) else f"({inner})"
    return repr(v)


class Block(BlockMethods):
    """An ordered list of operators and the values they define.

    Examples:
        >>> import pagaie as paddle
        >>> prog = paddle.static.Program()
        >>> prog.global_block().idx
        0
    """

    def __init__(self, program: "Program", idx: int, parent_idx: int = -1) -> None:
        self.program = program
        self.idx = idx
        self.parent_idx = parent_idx
        self.ops: list[Operator] = []
        self.vars: dict[str, Value] = {}

    def create_var(self, name: str | None = None, shape: list[int] | tuple = (), dtype: Any = "float32",
                   stop_gradient: bool = True, persistable: bool = False) -> Value:
        name = name or self.program.unique_name("tmp")
        if name in self.vars:
            raise ValueError(f"paddle.static: a variable named {name!r} already exists in block "
                             f"{self.idx}")
        v = Value(self, name=name, shape=list(shape), dtype=dtype, stop_gradient=stop_gradient,
                  persistable=persistable)
        return v

    def var(self, name: str) -> Value:
        b: Block | None = self
        while b is not None:
            if name in b.vars:
                return b.vars[name]
            b = self.program.blocks[b.parent_idx] if b.parent_idx >= 0 else None
        raise ValueError(f"paddle.static: no variable named {name!r} in block {self.idx} or its parents")

    def has_var(self, name: str) -> bool:
        try:
            self.var(name)
            return True
        except ValueError:
            return False

    def append_op(self, type: str, args: list, kwargs: dict, outputs: Any, attrs: dict | None = None) -> Operator:
        op = Operator(self, type, args, kwargs, outputs, attrs)
        for v in op.output_values():
            v.op = op
        self.ops.append(op)
        self.program._bump()
        return op

    def all_parameters(self) -> list[Value]:
        """The parameters the block reads, newest first (Paddle 3 declares each parameter at
        the top of the program when it is created, so the last created comes first)."""
        params = [v for v in self.vars.values() if v.persistable and v.source is not None
                  and type(v.source).__name__ == "Parameter"]
        return sorted(params, key=lambda v: -getattr(v.source, "_created", -1))

    def __repr__(self) -> str:
        lines = [f"{{ // block_idx:{self.idx}  parent_idx:{self.parent_idx}"]
        for v in self.vars.values():
            if v.persistable or v.is_data:
                tag = "persist " if v.persistable else ""
                op = v._defining_op()[0]   # Paddle's op: "pd_op.data", "builtin.parameter"
                lines.append(f"    {tag}var {v.name} = \"{op}\" : Tensor(shape={list(v.shape)}, "
                             f"dtype={v.dtype.name}, stop_gradient={v.stop_gradient})")
        lines += [f"    {op!r}" for op in self.ops]
        lines.append("}")
        return "\n".join(lines)


def _int64_seed(seed: Any, api: str) -> int:
    """``seed`` as a Python int of int64 range, or TypeError (as Paddle's PIR setter)."""
    import operator
    try:
        value = operator.index(seed)
    except TypeError:
        raise TypeError(f"paddle.static.Program.{api}: the seed must be an integer, but received "
                        f"{seed!r} of type {type(seed).__name__}") from None
    if not -(1 << 63) <= value < (1 << 63):
        raise TypeError(f"paddle.static.Program.{api}: the seed must fit in int64, but received "
                        f"{value}")
    return int(value)


def _check_scope(scope: Any, api: str) -> None:
    from pagaie.static.framework import Scope
    if scope is not None and not isinstance(scope, Scope):
        raise TypeError(f"paddle.static.Program.{api}: scope must be None or a paddle.static.Scope, "
                        f"but received {type(scope).__name__}")


class Program(ProgramMethods):
    """A static graph: a list of blocks, block 0 being the global block.

    Examples:
        >>> import pagaie as paddle
        >>> prog = paddle.static.Program()
        >>> prog.num_blocks
        1
    """

    def __init__(self) -> None:
        self.blocks: list[Block] = [Block(self, 0)]
        self._names = itertools.count()
        self._random_seed = Program._global_seed
        self.version = 0  # bumped on every change; executors cache plans per version

    @property
    def random_seed(self) -> int:
        """The seed that random ops recorded from now on fix their draws with (0: none).

        Paddle's element-wise dropout (and ``class_center_sample``) reads the default main
        program's ``random_seed`` when it is called: a non-zero seed gives that op a fresh
        engine seeded with it on every run, so its mask repeats. Setting it does not change
        ops already recorded.

        Examples:
            >>> import pagaie as paddle
            >>> prog = paddle.static.Program()
            >>> prog.random_seed = 7
            >>> prog.random_seed
            7
        """
        return self._random_seed

    @random_seed.setter
    def random_seed(self, seed: Any) -> None:
        self._random_seed = _int64_seed(seed, "random_seed")

    # the random_seed of new programs (Program.global_seed)
    _global_seed = 0

    def global_seed(self, seed: int) -> None:
        """Set this program's ``random_seed`` and that of every program created afterwards.

        Examples:
            >>> import pagaie as paddle
            >>> prog = paddle.static.Program()
            >>> prog.global_seed(102)
            >>> prog.random_seed, paddle.static.Program().random_seed
            (102, 102)
            >>> prog.global_seed(0)
        """
        value = _int64_seed(seed, "global_seed")
        Program._global_seed = value
        self._random_seed = value

    def _bump(self) -> None:
        self.version += 1

    def unique_name(self, prefix: str) -> str:
        while True:
            name = f"{prefix}_{next(self._names)}"
            if not any(name in b.vars for b in self.blocks):
                return name

    def global_block(self) -> Block:
        return self.blocks[0]

    def block(self, index: int) -> Block:
        return self.blocks[index]

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    def create_block(self, parent_idx: int = 0) -> Block:
        b = Block(self, len(self.blocks), parent_idx)
        self.blocks.append(b)
        return b

    def list_vars(self) -> list[Value]:
        """Every variable of every block, as a list (as Paddle's PIR programs give it)."""
        return [v for b in self.blocks for v in b.vars.values()]

    def all_parameters(self) -> list[Value]:
        return self.global_block().all_parameters()

    def clone(self, for_test: bool = False) -> "Program":
        """A copy; ``for_test=True`` drops backward/optimizer ops and switches dropout,
        batch_norm... to inference behaviour (see ``pagaie._static.program_tools``)."""
        from pagaie._static.program_tools import clone_program
        return clone_program(self, for_test)

    def state_dict(self, mode: str = "all", scope: Any = None) -> dict:
        """Persistable values by name: ``'param'``, ``'opt'`` (optimizer state) or ``'all'``.

        As Paddle, each value is a ``DenseTensor`` view of the variable: ``np.array(v)``,
        ``v.shape()``, and ``v.set(array, place)`` writes the variable itself.
        """
        from pagaie._static.program_tools import program_state_dict
        from pagaie.static.framework import DenseTensor, _ScopeVar
        _check_scope(scope, "state_dict")
        if not isinstance(mode, str):
            raise TypeError(f"paddle.static.Program.state_dict: mode must be a str ('all', "
                            f"'param' or 'opt'), but received {type(mode).__name__} {mode!r}")
        return {k: DenseTensor(_ScopeVar(k, t)) for k, t in program_state_dict(self, mode).items()}

    def set_state_dict(self, state_dict: dict, scope: Any = None) -> None:
        """Copy the values of ``state_dict`` into the matching persistable values."""
        import warnings

        from pagaie._static.program_tools import set_program_state_dict
        if not isinstance(state_dict, dict):
            raise TypeError(f"paddle.static.Program.set_state_dict: state_dict must be a dict, "
                            f"but received {type(state_dict).__name__}")
        unused = set_program_state_dict(self, state_dict)
        if unused:
            warnings.warn(f"paddle.static.Program.set_state_dict: no variable in the program for "
                          f"{unused}")

    def __repr__(self) -> str:
        return "\n".join(repr(b) for b in self.blocks)

    __str__ = __repr__

    def to_string(self, throw_on_error: bool = False, with_details: bool = False) -> str:
        return repr(self)

    # ---- serialisation ------------------------------------------------------------
    def to_json(self) -> str:
        """The program as JSON text (parameters' values are stored separately)."""
        blocks = []
        for b in self.blocks:
            blocks.append({"idx": b.idx, "parent_idx": b.parent_idx,
                           "vars": [v.to_json() for v in b.vars.values()],
                           "ops": [op.to_json() for op in b.ops]})
        return json.dumps({"format": "pagaie.program", "version": FORMAT_VERSION,
                           "random_seed": self.random_seed, "blocks": blocks})

    @classmethod
    def from_json(cls, text: str) -> "Program":
        """Rebuild a program from :meth:`to_json` output; raises ValueError on a bad file."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"paddle.static: the program file is not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != "pagaie.program":
            raise ValueError("paddle.static: the file is not a pagaie program")
        ver = data.get("version")
        if not isinstance(ver, int) or ver > FORMAT_VERSION:
            raise ValueError(f"paddle.static: the program was written by a newer pagaie (format "
                             f"version {ver}; this one reads up to {FORMAT_VERSION}); upgrade pagaie")
        prog = cls()
        prog.random_seed = data.get("random_seed", 0)
        try:
            for bdata in data["blocks"]:
                b = prog.global_block() if bdata["idx"] == 0 else prog.create_block(bdata["parent_idx"])
                for vd in bdata["vars"]:
                    v = b.create_var(vd["name"], vd["shape"], vd["dtype"], vd["stop_gradient"],
                                     vd["persistable"])
                    v.is_data, v._cut = vd.get("is_data", False), vd.get("cut", False)
            for bdata, b in zip(data["blocks"], prog.blocks):
                for od in bdata["ops"]:
                    if od["type"] not in REGISTRY and not od["type"].startswith("pagaie."):
                        raise ValueError(f"paddle.static: unknown op type {od['type']!r} in the program")
                    b.append_op(od["type"], _decode(od["args"], b), _decode(od["kwargs"], b),
                                _decode(od["outputs"], b), _decode(od.get("attrs", {}), b))
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"paddle.static: the program file is corrupt ({type(exc).__name__}: {exc})") from None
        return prog
