"""The op registry and the one dispatcher.

Every op is declared once with :func:`defop`, next to its kernel. The kernel is a
plain function over torch tensors that carries Paddle's exact signature; ``defop``
turns it into the public API function (same name, signature and docstring),
optionally a ``Tensor`` method and an in-place variant, and stores an
:class:`OpRecord` in :data:`REGISTRY` for everything else that needs to know about
the op (static recording, AMP, profiler, export, import of Paddle programs).

Eager calls take the fast path: unwrap ``Tensor`` arguments, run the kernel, wrap
the results; torch.autograd records the backward. Cross-cutting features (static
recording, autocast, profiling, NaN/Inf checks) never touch op code: they push a
*handler* with :func:`push_handler`, and while any handler is active every call
goes through the handler chain instead. A handler is
``handler(record, args, kwargs, proceed)`` and calls ``proceed(args, kwargs)`` to
hand the (possibly changed) call down the chain; the last link is the eager call.
"""
from __future__ import annotations

import functools
import inspect
import re
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Iterator, NoReturn

import numpy as np
import torch

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core.tensor import (GRAD_FLAG, UNTRACKED_GRADS, Tensor, check_inplace, flag_grad,
                                 is_grad_leaf, is_leaf_view, unwrap, unwrap_args, unwrap_kwargs, wrap,
                                 write_leaf_view)
from pagaie._core.dtype import python_number
from pagaie._core.public_names import public_name

__all__ = ["OpRecord", "REGISTRY", "defop", "push_handler", "pop_handler", "handler",
           "suspended", "eager_call", "translate_error", "binary_operator", "NoKernelError"]


class NoKernelError(RuntimeError):
    """Paddle has no kernel of the op for the input's dtype: its NotFound, a RuntimeError when
    the op runs. While a program is built, Paddle refuses the dtype already (its static API's
    dtype check or PIR's op verifier), with TypeError: the recorder raises ``static_type``
    instead (an op's own error can carry a ``static_type`` attribute to the same effect)."""

    static_type = TypeError

    def __reduce__(self) -> tuple:   # pickled by the factory: the class's name is builtins'
        return _no_kernel_error, self.args


def _no_kernel_error(*args: Any) -> NoKernelError:
    return NoKernelError(*args)


# Users see Paddle's exception: tracebacks and ``type(e).__name__`` say RuntimeError.
NoKernelError.__name__ = NoKernelError.__qualname__ = "RuntimeError"
NoKernelError.__module__ = "builtins"


def dygraph_only_error(api: str) -> AssertionError:
    """Paddle's error for an API it runs only in dynamic graph mode, called in static mode
    (its ``dygraph_only`` decorator asserts)."""
    return AssertionError(f"We only support '{api}()' in dynamic graph mode, please call "
                          "'paddle.disable_static()' to enter dynamic graph mode.")


class OpRecord:
    """Everything pagaie knows about one op.

    Attributes:
        name: the op's Paddle name (``'add'``), also its public function name.
        kernel: function over torch tensors with Paddle's signature.
        amp: autocast policy: ``'white'`` (run in low precision), ``'black'``
            (run in float32) or ``'promote'`` (follow the inputs).
        paddle_types: names of this op in real Paddle programs (for import).
        onnx: optional ONNX lowering.
        differentiable: False for ops whose outputs never carry gradients.
        inplace_of: for an in-place variant, the name of the op it mutates through.
        extra: free-form fields later layers attach (shape rules, export hints).
    """

    __slots__ = ("name", "kernel", "amp", "paddle_types", "onnx", "differentiable",
                 "inplace_of", "extra", "_signature")

    def __init__(self, name: str, kernel: Callable, amp: str = "promote",
                 paddle_types: tuple = (), onnx: Callable | None = None,
                 differentiable: bool = True, inplace_of: str | None = None,
                 extra: dict | None = None) -> None:
        if amp not in ("white", "black", "promote"):
            raise ValueError(f"defop({name!r}): amp must be white/black/promote, got {amp!r}")
        self.name = name
        self.kernel = kernel
        self.amp = amp
        self.paddle_types = tuple(paddle_types)
        self.onnx = onnx
        self.differentiable = differentiable
        self.inplace_of = inplace_of
        self.extra = dict(extra or {})
        self._signature = None

    @property
    def signature(self) -> inspect.Signature:
        if self._signature is None:
            self._signature = inspect.signature(self.kernel)
        return self._signature

    def bind(self, args: tuple, kwargs: dict) -> inspect.BoundArguments:
        """Bind a call's arguments to the op's Paddle signature, defaults applied."""
        b = self.signature.bind(*args, **kwargs)
        b.apply_defaults()
        return b

    def __repr__(self) -> str:
        return f"OpRecord({self.name!r}, amp={self.amp!r})"


REGISTRY: dict[str, OpRecord] = {}


class _DispatchState:
    __slots__ = ("handlers", "intercept", "redefining")

    def __init__(self) -> None:
        self.handlers: list[Callable] = []
        self.intercept: Callable | None = None
        # depth of ``inplace_redefines()``: in-place APIs re-define their input while recording
        self.redefining = 0

    @property
    def recording(self) -> bool:
        """Whether a handler that records a program is active (one that says
        ``records_program = True``): in-place APIs then record their out-of-place op."""
        return any(getattr(h, "records_program", False) for h in self.handlers)

    def functional_inplace(self) -> bool:
        """Whether an in-place API called now records its out-of-place op."""
        return self.intercept is not None and not self.redefining and self.recording


STATE = _DispatchState()


def eager_call(rec: OpRecord, args: tuple, kwargs: dict) -> Any:
    """Run ``rec`` eagerly: the last link of every handler chain."""
    try:
        r = rec.kernel(*unwrap_args(args), **unwrap_kwargs(kwargs))
    except (RuntimeError, IndexError, ValueError) as exc:
        raise translate_error(rec.name, exc, args, kwargs) from None
    except (TypeError, AttributeError) as exc:
        raise bad_argument(rec, exc, args) from None
    if type(r) is torch.Tensor and r.requires_grad and not torch.is_grad_enabled() \
            and getattr(rec.kernel, "returns_views", False):
        r = r.detach()   # (see _view_rule)
    if type(r) is torch.Tensor and r.layout is not torch.strided and not takes_sparse(rec):
        _sparse_result(rec)
    return _WRAPPERS[_rule_of(rec)](r, args, kwargs)


# Paddle's rule for ``stop_gradient`` of results: an op with a backward gives every result
# ``stop_gradient=False`` when grad mode is on and one of its inputs says False, whatever the
# result's dtype (``topk`` indices, ``x.astype('int32')``, ``int_tensor + 1``); an op without
# one (comparisons, ``argmax``, ``unique``...) gives ``True``. torch.autograd tracks only
# floating results, so a differentiable record's other results carry ``GRAD_FLAG`` instead.
# Ops that Paddle runs on an integer input by first casting it to float32 untracked (``sin``,
# ``sqrt``, ``sigmoid``...: records with ``int_autocast=True``) give ``True`` there: torch's own
# tracking is already right for them. Records whose single result may be an integer tensor
# computed from a floating one (``cast``, ``argsort``) say ``int_results=True``; those with
# several results are checked whenever torch tracks some of them and not others. A kernel may
# decide for a result itself by setting ``GRAD_FLAG`` on it (``_helpers.stopped``:
# ``where(condition)`` gives ``nonzero``'s indices); records whose kernels take a
# ``stop_gradient`` argument say ``own_stop_gradient=True`` and keep what torch tracks.
_UNTRACKED = frozenset({torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                        torch.uint16, torch.uint32, torch.uint64})


def _needs_grad(values: Any) -> bool:
    """Whether one of ``values`` (Tensors, possibly inside lists) says stop_gradient=False."""
    for v in values:
        if isinstance(v, Tensor):
            t = v._t
            if t.requires_grad or getattr(t, GRAD_FLAG, False):
                return True
        elif type(v) is list or type(v) is tuple:
            if _needs_grad(v):
                return True
    return False


def _inputs(values: Any, out: set) -> set:
    for v in values:
        if isinstance(v, Tensor):
            out.add(id(v._t))
        elif type(v) is list or type(v) is tuple:
            _inputs(v, out)
    return out


def carry_grad(r: Any, args: tuple, kwargs: dict) -> None:
    """Flag the untracked results ``r`` (torch tensors, maybe in tuples) of a differentiable op
    as ``stop_gradient=False`` when one of its inputs says so (see ``_UNTRACKED``)."""
    if not torch.is_grad_enabled() or not (_needs_grad(args) or _needs_grad(kwargs.values())):
        return
    seen = _inputs(args, _inputs(kwargs.values(), set()))
    for o in (r if isinstance(r, (tuple, list)) else (r,)):
        if isinstance(o, torch.Tensor) and not o.requires_grad and id(o) not in seen \
                and not hasattr(o, GRAD_FLAG):
            flag_grad(o, carried=True)


def wrap_grad(r: Any, args: tuple, kwargs: dict) -> Any:
    """:func:`wrap` for a differentiable op's results, applying Paddle's stop_gradient rule."""
    if type(r) is torch.Tensor:
        if not r.requires_grad and (UNTRACKED_GRADS[0] or r.dtype in _UNTRACKED):
            carry_grad(r, args, kwargs)
    elif isinstance(r, (tuple, list)):
        grads = [o.requires_grad for o in r if isinstance(o, torch.Tensor)]
        # A result torch leaves untracked beside a tracked one (``topk``'s indices, the
        # exponent of ``frexp``), or an untracked result of an untracked dtype.
        if not all(grads) and (any(grads) or UNTRACKED_GRADS[0] or any(
                isinstance(o, torch.Tensor) and o.dtype in _UNTRACKED for o in r)):
            carry_grad(r, args, kwargs)
    return wrap(r)


def wrap_stopped(r: Any, args: tuple, kwargs: dict) -> Any:
    """:func:`wrap` for an op without a backward: results computed from its inputs say
    stop_gradient=True (leaves a creation op made on request, and its inputs, are kept)."""
    if type(r) is torch.Tensor:
        if r.grad_fn is not None and id(r) not in _inputs(args, _inputs(kwargs.values(), set())):
            r = r.detach()
    elif isinstance(r, (tuple, list)) and any(
            isinstance(o, torch.Tensor) and o.grad_fn is not None for o in r):
        seen = _inputs(args, _inputs(kwargs.values(), set()))
        out = [o.detach() if isinstance(o, torch.Tensor) and o.grad_fn is not None
               and id(o) not in seen else o for o in r]
        r = tuple(out) if isinstance(r, tuple) else out
    return wrap(r)


_WRAPPERS = {"grad": wrap_grad, "stopped": wrap_stopped, "torch": lambda r, args, kwargs: wrap(r)}


def _rule_of(rec: OpRecord) -> str:
    """Which stop_gradient rule applies to the record's results (see ``_UNTRACKED``)."""
    if not rec.differentiable:
        return "stopped"
    own = rec.extra.get("int_autocast") or rec.extra.get("own_stop_gradient")
    return "torch" if own else "grad"


def _run_chain(rec: OpRecord, args: tuple, kwargs: dict) -> Any:
    handlers = STATE.handlers

    def link(i: int) -> Callable:
        if i < 0:
            return lambda a, k: eager_call(rec, a, k)
        h = handlers[i]
        nxt = link(i - 1)
        return lambda a, k: h(rec, a, k, nxt)

    return link(len(handlers) - 1)(args, kwargs)


def push_handler(h: Callable) -> None:
    """Route every op call through ``h(record, args, kwargs, proceed)`` until popped."""
    STATE.handlers.append(h)
    STATE.intercept = _run_chain


def pop_handler(h: Callable) -> None:
    """Remove a handler pushed with :func:`push_handler`."""
    STATE.handlers.remove(h)
    STATE.intercept = _run_chain if STATE.handlers else None


@contextmanager
def handler(h: Callable) -> Iterator[None]:
    """Context manager form of :func:`push_handler` / :func:`pop_handler`."""
    push_handler(h)
    try:
        yield
    finally:
        pop_handler(h)


@contextmanager
def suspended() -> Iterator[None]:
    """Run eagerly inside, whatever handlers are active (static recording, autocast...).

    Used where work must happen now rather than be recorded, e.g. initialising a
    parameter's value while a static program is being built.
    """
    saved = STATE.handlers, STATE.intercept
    STATE.handlers, STATE.intercept = [], None
    try:
        yield
    finally:
        STATE.handlers, STATE.intercept = saved


@contextmanager
def inplace_redefines() -> Iterator[None]:
    """Inside, in-place APIs called while a program is recorded re-define their input (the
    program's value of ``x`` changes from there on) instead of recording the out-of-place op:
    for pagaie's own accumulators (a metric's persistable state updated each run) and for
    ``jit.to_static``'s default mode, whose programs keep eager in-place semantics as Paddle's
    bytecode translation does (``full_graph=True``, its AST mode, records the out-of-place op)."""
    STATE.redefining += 1
    try:
        yield
    finally:
        STATE.redefining -= 1


# ("linalg.eig: " is how torch's linalg kernels begin their messages)
_TORCH_WORDS = re.compile(r"(?:\btorch\.|(?<![\w.]))linalg\.\w+: |"
                          r"\btorch\.|\baten::|\bat::|\bc10::|\bTHP|\bCPUFloatType\b|\bcuda\b")


def _describe(v: Any) -> str:
    if isinstance(v, Tensor):
        return f"Tensor(shape={list(v._t.shape)}, dtype={v.dtype.name})"
    if isinstance(v, (list, tuple)) and any(isinstance(e, Tensor) for e in v):
        return "[" + ", ".join(_describe(e) for e in v) + "]"
    return repr(v)


def _clean(msg: str) -> str:
    msg = msg.strip().splitlines()[0] if msg.strip() else msg
    msg = re.sub(r"torch\.Size\((\[[^\]]*\])\)", r"\1", msg)  # torch.Size([2, 3]) -> [2, 3]
    msg = _TORCH_WORDS.sub("", msg)
    return msg.replace("Tensor", "tensor").replace("tensor(", "Tensor(")


_NO_KERNEL = re.compile(r"\"(\w+)\" not implemented for '(\w+)'")
_CANT_CAST = re.compile(r"result type (\w+) can't be cast to the desired output type (\w+)")
_SCALAR_TYPES = {"Bool": "bool", "Byte": "uint8", "Char": "int8", "Short": "int16", "Int": "int32",
                 "Long": "int64", "Half": "float16", "BFloat16": "bfloat16", "Float": "float32",
                 "Double": "float64", "ComplexFloat": "complex64", "ComplexDouble": "complex128"}


_BROADCAST = re.compile(r"The size of tensor a \(\d+\) must match the size of tensor b|"
                        r"doesn't match the broadcast shape|shape mismatch: value tensor of shape")
_TARGET_SIZE = re.compile(r"[Tt]arget size \((\[[^\]]*\])\) (?:that is different to|must be the same "
                          r"as) (?:the )?input size \((\[[^\]]*\])\)")
# torch's allocator failing: "you tried to allocate 68719476736 bytes"
_ALLOC_SIZE = re.compile(r"tried to allocate (\d+) bytes")


def translate_error(api: str, exc: BaseException, args: tuple, kwargs: dict) -> Exception:
    """Turn a kernel's torch error into the exception type Paddle raises, naming the API.

    Shape and argument mismatches are ``ValueError`` (Paddle's InvalidArgument),
    out-of-range indices ``IndexError``, a missing kernel for a dtype ``RuntimeError``
    (Paddle's NotFound); anything else (a torch ``ValueError``) keeps its own type, with
    torch's words taken out of the message.
    """
    if str(exc).startswith("paddle."):
        return exc  # raised deliberately by a kernel, already in Paddle's terms
    where = public_name(api)
    if not api.startswith("sparse_") and any(
            isinstance(a, Tensor) and a._t.layout is not torch.strided
            for a in (*args, *kwargs.values())):
        return sparse_input_error(api)
    text = _clean(str(exc))
    missing = _NO_KERNEL.search(text)
    if missing:  # '"atan2_cpu" not implemented for 'ComplexFloat'': name no torch kernel
        text = f"not implemented for dtype {_SCALAR_TYPES.get(missing[2], missing[2])}"
    shapes_said = _BROADCAST.search(text)
    if shapes_said:   # torch's "size of tensor a (2) must match ..." in Paddle's words
        shapes = [list(a._t.shape) for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
        text = (f"Broadcast dimension mismatch: operands of shapes {', '.join(map(str, shapes))} "
                f"cannot be broadcast together")
    target = _TARGET_SIZE.search(text)
    if target:   # torch's loss words for a label whose shape is not the input's
        text = f"the label's shape {target[1]} must equal the input's shape {target[2]}"
    cast = _CANT_CAST.search(text)
    if cast:  # an in-place op whose result dtype cannot be written into its input
        text = (f"the result has dtype {_SCALAR_TYPES.get(cast[1], cast[1])}, which cannot be "
                f"written in place into an input of dtype {_SCALAR_TYPES.get(cast[2], cast[2])}")
    kind: type[Exception]
    if cast or missing:
        kind = NoKernelError  # Paddle has no kernel for that dtype: its NotFound
    elif "can't allocate memory" in text or isinstance(exc, torch.OutOfMemoryError):
        # Paddle's allocator failing is its ResourceExhausted, a MemoryError
        size = _ALLOC_SIZE.search(text)
        kind = MemoryError
        text = f"failed to allocate {size[1]} bytes" if size else "out of memory"
    elif text.startswith("ZeroDivisionError"):  # integer division (remainder) by zero
        kind, text = ZeroDivisionError, "integer division by zero"
    elif "Dimension out of range" in text or "dimension out of range" in text:
        kind = ValueError  # a bad axis: Paddle's InvalidArgument
    elif isinstance(exc, IndexError) or "out of bounds" in text or "out of range" in text:
        kind = IndexError
    elif isinstance(exc, NotImplementedError) or "not implemented for" in text \
            or "be cast to the desired output type" in text \
            or "Expected a floating point or complex tensor" in text \
            or "does not support complex" in text or "only supported for complex" in text \
            or "No available kernel" in text or "No viable backend" in text \
            or "could not infer output dtype" in text \
            or "only supported for half, float and double" in text:
        kind = NoKernelError  # no kernel for this dtype/device: Paddle's NotFound
    elif isinstance(exc, RuntimeError):
        kind = ValueError
    else:
        kind = type(exc)
    # the shapes in the text say it all
    seen = "" if shapes_said or target else _received(api, args, kwargs)
    return kind(f"{where}: {text}" + (f" (received {seen})" if seen else ""))


def _received(api: str, args: tuple, kwargs: dict) -> str:
    """The arguments of a failed call worth showing: by name, those not left at their
    default (a Tensor by shape and dtype)."""
    rec = REGISTRY.get(api)
    try:
        bound = rec.bind(args, kwargs).arguments if rec is not None else None
    except TypeError:
        bound = None
    if bound is None:
        return ", ".join([_describe(a) for a in args] + [f"{k}={_describe(v)}" for k, v in kwargs.items()])
    params = rec.signature.parameters
    shown = []
    for k, v in bound.items():
        default = params[k].default
        if isinstance(v, Tensor) or _has_tensor(v) or not (v is default or (
                type(v) is type(default) and not isinstance(v, np.ndarray) and v == default)):
            shown.append(f"{k}={_describe(v)}")
    return ", ".join(shown)


# Parameters that must hold a Tensor: Paddle's argument parser rejects anything else with
# ValueError "(InvalidArgument) op(): argument 'x' (position 0) must be Tensor, but got list".
_TENSOR_PARAMS = frozenset({"x", "y", "input", "other", "label", "index", "condition", "mask",
                            "updates", "indices", "arr", "logit"})
# Tensor parameters that some ops also let take a number or a list (lerp's ``weight``, a
# scalar ``value``), optional ones included: blamed only for what none of them accepts there
# (a string, a numpy array, a list without Tensors; None where the argument is required).
_TENSOR_LIKE_PARAMS = frozenset({"weight", "bias", "positive", "negative", "theta", "value",
                                 "values", "vec", "grid", "labels", "running_mean", "running_var",
                                 "input1", "input2", "x1", "x2", "logits", "sorted_sequence",
                                 "alpha", "anchor", "mat2", "vec1", "vec2", "tensor1", "tensor2",
                                 "pos_weight"})


def _has_tensor(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and any(isinstance(e, Tensor) for e in v)


def _not_a_tensor(p: inspect.Parameter, v: Any, exc: BaseException | None = None) -> bool:
    """Whether ``v``, passed for parameter ``p``, is a value where a Tensor belongs (a list of
    Tensors counts when the kernel's error says it used the list as a tensor)."""
    if isinstance(v, Tensor):
        return False
    if _has_tensor(v) and not (isinstance(exc, AttributeError) and str(exc).startswith(
            f"'{type(v).__name__}' object has no attribute")):
        return False
    if p.name in _TENSOR_PARAMS:
        return p.default is p.empty
    if p.name in _TENSOR_LIKE_PARAMS:
        return isinstance(v, (str, list, tuple, np.ndarray)) or (v is None and p.default is p.empty)
    return p.kind is p.VAR_POSITIONAL  # einsum's operands, meshgrid's tensors


def bad_argument(rec: OpRecord, exc: BaseException, args: tuple) -> BaseException:
    """A kernel's TypeError/AttributeError, as Paddle reports it when a tensor argument
    (``x``, ``weight``...) is not a Tensor: the op's exception type (``bad_input``), naming
    the argument; any other such error is returned unchanged."""
    if str(exc).startswith("paddle."):
        return exc
    params = list(rec.signature.parameters.values())
    star = next((k for k, p in enumerate(params) if p.kind is p.VAR_POSITIONAL), len(params))
    for i, v in enumerate(args):
        if i >= star and star == len(params):
            break
        p = params[min(i, star)]
        if _not_a_tensor(p, v, exc):
            from pagaie._core.bad_input import exception_type, type_name
            return exception_type(rec.name, p.name, v)(
                f"{public_name(rec.name)}: argument '{p.name}' (position {i}) must be Tensor, "
                f"but got {type_name(v)}")
    return _torch_arg_type(rec, exc, args)


# torch's argument parser: "softmax(): argument 'dim' (position 2) must be int, not str"
_TORCH_ARG_TYPE = re.compile(r"^\w+\(\): argument '\w+'(?: \(position \d+\))? must be (.+?), not (?:numpy\.)?(\w+)$")


def _torch_arg_type(rec: OpRecord, exc: BaseException, args: tuple) -> BaseException:
    """torch's argument-parser TypeError, in Paddle's terms: naming the public API and the
    Paddle parameter that holds a value of the refused type (where only one does)."""
    m = _TORCH_ARG_TYPE.match(str(exc).strip())
    if m is None:
        return exc
    params = list(rec.signature.parameters.values())
    names = [p.name for p, v in zip(params, args)
             if type(v).__name__ == m[2] and v is not p.default]   # (not a default None)
    arg = f"'{names[0]}'" if len(names) == 1 else "an argument"
    return TypeError(f"{public_name(rec.name)}: {arg} must be {m[1]}, but received {m[2]}")


def _operand(v: Any) -> Any:
    """The other operand of a Tensor operator: numpy arrays become tensors of their dtype,
    as in Paddle (``x * np.ones(3)``); a numpy number is its Python number (torch would drop
    the imaginary part of a ``np.complex64``)."""
    if isinstance(v, np.ndarray):
        return torch.from_numpy(v.copy()) if v.dtype.kind in "biufc" else v
    return unwrap(python_number(v))


# How Paddle's Tensor operators read a numpy number: np.float64 and np.complex128 are Python
# floats and complexes. The operators with a scalar kernel (``+ - *``, ``x / y``, ``x ** y``)
# take np.int64/int32/int16 as Python ints; the others make np.int64/int32, as np.float32,
# float16 and complex64 everywhere, a tensor of the other operand's dtype
# (``int32_x + np.float32(2.5)`` adds 2 and stays int32). Paddle reads no other numpy number.
_NP_INTS = (np.int64, np.int32, np.int16)
_NP_CAST = (np.float32, np.float16, np.complex64, np.int64, np.int32)
_SCALAR_KERNEL = frozenset({("add", False), ("add", True), ("subtract", False), ("subtract", True),
                            ("multiply", False), ("multiply", True), ("divide", False), ("pow", False)})
# (operator, reflected) pairs whose C++ method hands an unreadable operand back to Python
# (NotImplemented: numpy then refuses the Tensor, a TypeError); the others raise ValueError
_NP_DEFER = frozenset({("add", False), ("add", True), ("subtract", False), ("multiply", False),
                       ("multiply", True), ("floor_divide", False), ("remainder", False),
                       ("pow", False), ("equal", False), ("not_equal", False)})


def numpy_operand(t: torch.Tensor, v: np.generic, api: str, reflected: bool = False) -> Any:
    """The numpy number ``v`` as the other operand of the Tensor operator of op ``api`` whose
    tensor operand holds ``t``: a Python number, a 0-D tensor of ``t``'s dtype holding ``v`` cast
    to it (C casts: 2.5 is 2 for an int tensor, a complex loses its imaginary part for a real
    one), or NotImplemented (Python then raises TypeError) for a numpy number Paddle does not
    read there. A numpy int next to a bool tensor is a bool tensor even for the scalar kernels
    (their bool result), but ``/`` divides by it as a number."""
    if isinstance(v, (float, complex)):   # np.float64, np.complex128: Python's own types
        return v.item()
    kind = type(v)
    scalar = (api, reflected) in _SCALAR_KERNEL
    if kind in _NP_INTS and ((scalar and t.dtype is not torch.bool) or (
            api == "divide" and (scalar or kind is not np.int16))):
        return v.item()   # (``/`` first makes an integer or bool x float32: a number then)
    if not (kind in _NP_CAST or (kind is np.int16 and scalar)):
        if (api, reflected) in _NP_DEFER:
            return NotImplemented
        raise ValueError(f"{public_name(api)}: the operand must be a Tensor, a Python number or a "
                         f"numpy float16/float32/float64, int32/int64 or complex64/complex128 "
                         f"number, but received numpy.{kind.__name__}")
    value = v.item()
    if isinstance(value, complex) and not t.is_complex():
        value = value.real
    return torch.tensor(value, device=t.device).to(t.dtype)


def is_numpy_number(v: Any) -> bool:
    """Whether ``v`` is a numpy bool, integer, float or complex scalar."""
    return isinstance(v, np.generic) and v.dtype.kind in "biufc"


def read_numpy_number(x: Tensor, other: Any, api: str, reflected: bool = False) -> Any:
    """``other`` as the other operand of ``x``'s Tensor operator of op ``api``: a numpy number
    read as Paddle reads it (:func:`numpy_operand`, a 0-D tensor result as a Tensor), anything
    else unchanged."""
    if not is_numpy_number(other):
        return other
    v = numpy_operand(x._t, other, api, reflected)
    return wrap(v) if type(v) is torch.Tensor else v


def bind_out(out: Any, r: Any) -> None:
    """Paddle's ``out=`` tensor is the op's output: when the result joins the autograd graph,
    ``out`` holds it (gradients flow through ``out``; its ``inplace_version`` is unchanged).
    The kernel has already written the values (``write_out``)."""
    if type(r) is torch.Tensor and r.requires_grad and isinstance(out, Tensor) and out._t is not r:
        out._rebind(r, bump=0)


def _bad_operand(api: str, exc: TypeError, other: Any) -> TypeError:
    """A Tensor operator's TypeError for an operand of an unsupported type, in Paddle's words
    (pagaie's own TypeErrors, such as type promotion refusals, pass unchanged)."""
    if str(exc).startswith("paddle."):
        return exc
    return TypeError(f"{public_name(api)}: argument (position 1) must be int, float, bool or "
                     f"Tensor, but got {type(other).__name__}")


def _tensor_operand(v: np.ndarray) -> Any:
    """A numpy operand of a Tensor operator while ops are intercepted (static recording): an
    array is a Tensor of its dtype, so the recorder captures it as a constant; a numpy number
    is its Python number."""
    t = _operand(v)
    return wrap(t) if isinstance(t, torch.Tensor) else t


_PLAIN = frozenset({type(None), int, float, bool, str})


def _unwrap_expr(n: str) -> str:
    """Source that unwraps parameter ``n``: Tensors and plain values need no call."""
    return f"({n}._t if type({n}) is _Tensor else {n} if type({n}) in _PLAIN else _u({n}))"


class _Missing:
    def __repr__(self) -> str:
        return "<required>"


_MISSING = _Missing()
_UNSET = _Missing()   # an optional parameter whose default depends on alias use (ALIAS_DEFAULTS)


def _aliases_of(rec: OpRecord, sig: inspect.Signature) -> dict[str, str]:
    """The PyTorch-style keyword aliases Paddle 3 accepts for this op (see param_aliases)."""
    from pagaie._core.param_aliases import ALIASES_BY_NAME
    aliases = ALIASES_BY_NAME.get(rec.name)
    if not aliases or any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in sig.parameters.values()):
        return {}
    return {a: p for a, p in aliases.items() if p in sig.parameters and a not in sig.parameters}


def _alias_call(api: Callable, aliases: dict[str, str], named: dict, extra: dict,
                alias_defaults: dict) -> Any:
    """Call ``api`` again with alias keywords renamed to the parameters they stand for, and
    the parameters of ``alias_defaults`` not given taking their alias-call defaults."""
    for key, value in extra.items():
        param = aliases.get(key)
        if param is None:
            raise TypeError(f"{public_name(api.op_record.name)}() got an unexpected keyword argument '{key}'")
        if named.get(param) is not _MISSING and named.get(param) is not \
                api.__signature__.parameters[param].default:
            raise ValueError(f"{public_name(api.op_record.name)}() got values for both '{param}' and its alias "
                            f"'{key}'")
        named[param] = value
    for key, value in alias_defaults.items():
        if extra:   # Paddle says so whenever an alias switches the defaults, given or not
            warnings.warn(f"Set default parameters {[key, value]}", Warning, stacklevel=3)
        if named[key] is _UNSET:
            named[key] = value if extra else api.__signature__.parameters[key].default
    missing = [k for k, v in named.items() if v is _MISSING]
    if missing:
        raise TypeError(f"{public_name(api.op_record.name)}() missing required argument '{missing[0]}'")
    return api(**named)


def _grad_rule(rec: OpRecord, args_expr: str, kwargs_expr: str) -> str:
    """Generated lines applying Paddle's stop_gradient rule to a single torch result ``r``
    (see ``_UNTRACKED``): one list read when nothing needs doing."""
    rule = _rule_of(rec)
    if rule == "grad" and rec.extra.get("int_results"):
        return (f"        if not r.requires_grad and (_ug[0] or r.dtype in _UNTR):\n"
                f"            _carry(r, {args_expr}, {kwargs_expr})\n")
    if rule == "grad":
        # Other ops give an untracked result only from an untracked input (an integer
        # tensor that says stop_gradient=False): nothing to check until one exists.
        return (f"        if _ug[0] and not r.requires_grad:\n"
                f"            _carry(r, {args_expr}, {kwargs_expr})\n")
    if rule == "stopped":
        return (f"        if r.requires_grad:\n"
                f"            return _wrap_stopped(r, {args_expr}, {kwargs_expr})\n")
    return ""


def _dense_rule(args_expr: str, sparse_ok: bool = True) -> str:
    # is_contiguous first: the one check nearly every result stops at (a CSR result has no
    # strides and raises; a COO result says False and is then left alone by its layout).
    # Without ``sparse_ok`` (every op outside ``paddle.sparse``), a sparse result means a
    # sparse input reached a dense kernel that torch ran: Paddle has no such kernel.
    check = (f"        try:\n"
             f"            _row_major = r.is_contiguous()\n"
             f"        except RuntimeError:\n"
             f"            _row_major = {'True' if sparse_ok else '_sparse_result(_rec)'}\n")
    if sparse_ok:
        return check + (f"        if not _row_major and r.layout is _strided and r._base is None:\n"
                        f"            r = _dense(r, {args_expr})\n")
    return check + (f"        if not _row_major:\n"
                    f"            if r.layout is not _strided:\n"
                    f"                _sparse_result(_rec)\n"
                    f"            elif r._base is None:\n"
                    f"                r = _dense(r, {args_expr})\n")


def takes_sparse(rec: OpRecord) -> bool:
    """Whether the op ``rec`` has kernels for sparse tensors: the ``paddle.sparse`` records
    (and the conversions and accessors, named ``sparse_*`` too), and the few dense ops Paddle
    also runs on a sparse tensor, marked ``sparse_ok`` (``detach``, ``positive``)."""
    return rec.name.startswith("sparse_") or bool(rec.extra.get("sparse_ok"))


def sparse_input_error(api: str) -> NotImplementedError:
    """Paddle's error for a sparse tensor given to the dense op ``api`` (its "kernel ...
    for input tensors is unimplemented")."""
    return NotImplementedError(f"{public_name(api)}: sparse (COO/CSR) tensors are not supported "
                               "here; use the paddle.sparse API or convert with "
                               "Tensor.to_dense() first")


def _sparse_result(rec: OpRecord) -> NoReturn:
    """A dense op's kernel gave a sparse result: a sparse input reached it, and Paddle has no
    sparse kernel there (NotImplementedError)."""
    raise sparse_input_error(rec.name)


def _dense(r: torch.Tensor, args: tuple) -> torch.Tensor:
    """A kernel's strided result ``r`` made contiguous, unless it holds an input's memory
    (``detach`` of a view, an input handed back): only new tensors are laid out anew. A sparse
    input (``values()`` of a gradient whose values torch expanded) has no storage to share."""
    if r.requires_grad and r.is_leaf:   # a creation op's new leaf: its identity is the point
        return r
    ptr = r.untyped_storage().data_ptr()
    for a in args:
        t = a._t if isinstance(a, Tensor) else a
        if (type(t) is torch.Tensor and t.layout is torch.strided
                and t.untyped_storage().data_ptr() == ptr):
            return r
    return r.contiguous()


def _view_rule(rec: OpRecord, args_expr: str) -> str:
    """Generated lines for a kernel marked ``returns_views`` (``manipulation.view_results``): a
    view made under ``no_grad`` of a tensor that needs gradients is detached, as Paddle's.
    Any other kernel's new tensor is made contiguous: torch keeps the strides of a strided
    input (``x.t() * 2`` is laid out as ``x.t()``), Paddle's computed results are row-major
    (they can be viewed, ``strides`` and ``is_contiguous`` say so); views of an input that
    such a kernel returns are left as they are."""
    sparse_ok = takes_sparse(rec)
    if not getattr(rec.kernel, "returns_views", False):
        return _dense_rule(args_expr, sparse_ok)
    return ("        if r.requires_grad and not _grad_on():\n"
            "            r = r.detach()\n") + (
        "" if sparse_ok else
        f"        if r.layout is not _strided:\n"
        f"            _sparse_result(_rec)\n")


def _need_tensor(v: Any, rec: OpRecord, arg: str, pos: int) -> Any:
    """A ``tensor_args`` parameter that is not a plain Tensor: a Tensor subclass or a torch
    tensor unwraps; anything else (a Python number too) is the error of Paddle's argument
    parser: ValueError, TypeError while a program is recorded (the static API's parser wants
    a Value there), or the type ``bad_input`` names where Paddle's Python part reads the
    value first."""
    if isinstance(v, (Tensor, torch.Tensor)):
        return unwrap(v)
    from pagaie._core.bad_input import exception_type, type_name
    kind = exception_type(rec.name, arg, v)
    if kind is ValueError and STATE.recording:
        kind = TypeError
    raise kind(f"{public_name(rec.name)}: argument '{arg}' (position {pos}) must be Tensor, but "
               f"got {'None' if v is None else type_name(v)}")


def _make_api(rec: OpRecord, strict: bool = False) -> Callable:
    """Generate the public function: the kernel's exact signature, Tensor arguments unwrapped.

    The wrapper is generated source rather than a ``*args`` closure because binding
    parameters directly is the cheapest way Python offers, and the eager path's
    per-call cost is a benchmarked target. With ``strict``, the parameters a record names in
    its ``tensor_args`` extra take only Tensors in eager calls (Paddle's parser refuses a
    number there, where the operators take one), checked on the path that is not a Tensor.
    """
    sig = inspect.signature(rec.kernel)
    tensor_args = rec.extra.get("tensor_args", ()) if strict else ()
    params, call, names, defaults = [], [], [], {}
    intercept_checks: list[str] = []
    short_call, kw_defaulted = [], []  # the call without keyword-only arguments left at default
    kinds = inspect.Parameter
    aliases = _aliases_of(rec, sig)
    from pagaie._core.param_aliases import ALIAS_DEFAULTS
    alias_defaults = ALIAS_DEFAULTS.get(rec.name, {}) if aliases else {}
    # Required parameters that may come under an alias get a sentinel default, and so do
    # the required ones after them (Python wants defaults to run to the end).
    required = [p.name for p in sig.parameters.values()
                if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD]
    first = next((i for i, n in enumerate(required) if n in aliases.values()), None)
    required_aliased = required[first:] if aliases and first is not None else []
    for p in sig.parameters.values():
        d = ""
        if p.default is not p.empty:
            defaults[f"_d_{p.name}"] = p.default
            d = f"=_d_{p.name}"
        elif p.name in required_aliased:
            d = "=_MISSING"  # may arrive under its alias: checked in _alias_call
        if p.name in alias_defaults:
            d = "=_UNSET"    # its default depends on whether an alias is used
        if p.kind is kinds.VAR_POSITIONAL:
            params.append(f"*{p.name}")
            call.append(f"*_ua({p.name})")
            short_call.append(call[-1])
            names.append(f"*{p.name}")
        elif p.kind is kinds.VAR_KEYWORD:
            params.append(f"**{p.name}")
            call.append(f"**_uk({p.name})")
            short_call.append(call[-1])
            names.append(f"**{p.name}")
        elif p.kind is kinds.KEYWORD_ONLY:
            if "*" not in "".join(x[:1] for x in params):
                params.append("*")
            params.append(f"{p.name}{d}")
            call.append(f"{p.name}={_unwrap_expr(p.name)}")
            names.append(f"{p.name}={p.name}")
            if d:
                kw_defaulted.append(p.name)
            else:
                short_call.append(call[-1])
        else:
            if p.kind is kinds.POSITIONAL_ONLY:
                raise TypeError(f"defop({rec.name!r}): positional-only parameters are not supported")
            params.append(f"{p.name}{d}")
            # ``name`` is Paddle's never-a-tensor label argument: pass it through untouched.
            if p.name in tensor_args:
                call.append(f"({p.name}._t if type({p.name}) is _Tensor else "
                            f"_need({p.name}, _rec, {p.name!r}, {len(names)}))")
                # handlers (a program being recorded, autocast...) get the same check
                intercept_checks.append(f"        if not isinstance({p.name}, (_Tensor, _TT)):\n"
                                        f"            _need({p.name}, _rec, {p.name!r}, {len(names)})\n")
            else:
                call.append(p.name if p.name == "name" else _unwrap_expr(p.name))
            short_call.append(call[-1])
            names.append(p.name)
    pos = [n for n in names if "=" not in n and not n.startswith("*")]
    kw = [n for n in names if "=" in n]
    star = [n[1:] for n in names if n.startswith("*") and not n.startswith("**")]
    dstar = [n[2:] for n in names if n.startswith("**")]
    args_expr = "(" + "".join(f"{n}, " for n in pos) + ")" + (f" + tuple({star[0]})" if star else "")
    kwargs_expr = "{" + ", ".join(f"{n.split('=')[0]!r}: {n.split('=')[0]}" for n in kw) + "}" + \
        (f" | {dstar[0]}" if dstar else "")
    if kw_defaulted:
        # Keyword-only options (``out=``, ``alpha=``...) left at their defaults are not passed:
        # keyword passing is the dearest part of a Python call.
        cond = " and ".join(f"{n} is _d_{n}" for n in kw_defaulted)
        kernel_call = (f"        if {cond}:\n"
                       f"            r = _kernel({', '.join(short_call)})\n"
                       f"        else:\n"
                       f"            r = _kernel({', '.join(call)})\n"
                       + ("            _bind_out(out, r)\n" if "out" in kw_defaulted else ""))
    else:
        kernel_call = f"        r = _kernel({', '.join(call)})\n"
    out_param = sig.parameters.get("out")
    if out_param is not None and out_param.kind is kinds.POSITIONAL_OR_KEYWORD:
        # an ``out`` Paddle also takes by position (gather, scatter): bound the same way
        kernel_call += ("        if out is not None:\n"
                        "            _bind_out(out, r)\n")
    alias_check = ""
    if aliases:
        params.append("**_al")
        named = "{" + ", ".join(f"{p.name!r}: {p.name}" for p in sig.parameters.values()) + "}"
        cond = " or ".join(["_al"] + [f"{n} is _MISSING" for n in required_aliased]
                           + [f"{n} is _UNSET" for n in alias_defaults])
        alias_check = (f"    if {cond}:\n"
                       f"        return _alias_call(_self[0], _aliases, {named}, _al, _alias_defaults)\n")
    src = (f"def {rec.name}({', '.join(params)}):\n"
           f"{alias_check}"
           f"    if _state.intercept is not None:\n"
           f"{''.join(intercept_checks)}"
           f"        return _state.intercept(_rec, {args_expr}, {kwargs_expr})\n"
           f"    try:\n"
           f"{kernel_call}"
           f"    except (RuntimeError, IndexError, ValueError) as exc:\n"
           f"        raise _translate({rec.name!r}, exc, {args_expr}, {kwargs_expr}) from None\n"
           f"    except (TypeError, AttributeError) as exc:\n"
           f"        raise _bad(_rec, exc, {args_expr}) from None\n"
           # The common single-tensor result is wrapped inline: one call fewer per op.
           f"    if type(r) is _TT:\n"
           f"{_view_rule(rec, args_expr)}"
           f"{_grad_rule(rec, args_expr, kwargs_expr)}"
           f"        t = _new(_Tensor)\n"
           f"        t._t = r\n"
           f"        return t\n"
           f"    return _wrapr(r, {args_expr}, {kwargs_expr})\n")
    ns = {"_state": STATE, "_rec": rec, "_kernel": rec.kernel, "_Tensor": Tensor,
          "_grad_on": torch.is_grad_enabled, "_dense": _dense, "_strided": torch.strided,
          "_wrapr": _WRAPPERS[_rule_of(rec)], "_wrap_stopped": wrap_stopped, "_carry": carry_grad,
          "_ug": UNTRACKED_GRADS, "_UNTR": _UNTRACKED, "_PLAIN": _PLAIN, "_TT": torch.Tensor, "_new": object.__new__,
          "_u": unwrap, "_ua": unwrap_args, "_uk": unwrap_kwargs, "_translate": translate_error,
          "_bad": bad_argument, "_need": _need_tensor, "_MISSING": _MISSING, "_UNSET": _UNSET, "_alias_call": _alias_call,
          "_aliases": aliases, "_alias_defaults": alias_defaults, "_bind_out": bind_out,
          "_self": [None], "_sparse_result": _sparse_result,
          **defaults}
    exec(compile(src, f"<pagaie op {rec.name}>", "exec"), ns)
    api = ns[rec.name]
    ns["_self"][0] = api
    functools.update_wrapper(api, rec.kernel, updated=())
    del api.__wrapped__  # the generated signature is already the real one
    if aliases:
        api.__signature__ = sig  # Paddle's signature; the aliases are extra keyword spellings
        api.accepts_aliases = aliases
    api.__qualname__ = rec.name
    api.op_record = rec
    return api


def number_api(api: Callable) -> Callable:
    """``api`` (a public op function) as the operators call it: without its record's
    ``tensor_args`` check, so that a Python number operand goes to the kernel."""
    return _make_api(api.op_record) if api.op_record.extra.get("tensor_args") else api


def binary_operator(api: Callable, reflected: bool = False) -> Callable:
    """A ``Tensor.__op__`` method for a binary op: ``self`` is always a Tensor and every
    other parameter keeps its default, so the kernel is called with two positional
    arguments. Static recording, autocast and the other handlers go through ``api``'s
    twin that takes a Python number operand (``number_api``).
    """
    rec = api.op_record
    name = "__r%s__" if reflected else "__%s__"
    order = "o, self._t" if reflected else "self._t, o"
    pair = "(other, self)" if reflected else "(self, other)"
    # ``tensor * "ab"``: Python then repeats the sequence by the tensor's index, as with Paddle
    repeat = (f"        if type(other) in (str, list, tuple):\n"
              f"            return NotImplemented\n") if rec.name == "multiply" else ""
    src = (f"def op(self, other):\n"
           f"    if _state.intercept is not None:\n"
           f"        if type(other) is _ndarray or isinstance(other, _npgeneric):\n"
           f"            other = _tensor_operand(other)\n"
           f"        return _api{pair}\n"
           f"    o = (other._t if type(other) is _Tensor else other if type(other) in _PLAIN\n"
           f"         else _u(other, self._t))\n"
           f"    if o is NotImplemented:\n"
           f"        return o\n"
           f"    try:\n"
           f"        r = _kernel({order})\n"
           f"    except (RuntimeError, IndexError, ValueError) as exc:\n"
           f"        raise _translate({rec.name!r}, exc, {pair}, {{}}) from None\n"
           f"    except TypeError as exc:\n"
           f"{repeat}"
           f"        raise _bad_operand({rec.name!r}, exc, other) from None\n"
           f"    if type(r) is _TT:\n"
           f"{_dense_rule(pair, takes_sparse(rec))}"
           f"{_grad_rule(rec, pair, '{}')}"
           f"        t = _new(_Tensor)\n"
           f"        t._t = r\n"
           f"        return t\n"
           f"    return _wrapr(r, {pair}, {{}})\n")
    ns = {"_state": STATE, "_api": number_api(api), "_kernel": rec.kernel, "_Tensor": Tensor,
          "_dense": _dense, "_strided": torch.strided, "_wrapr": _WRAPPERS[_rule_of(rec)], "_wrap_stopped": wrap_stopped, "_carry": carry_grad,
          "_ug": UNTRACKED_GRADS, "_UNTR": _UNTRACKED, "_PLAIN": _PLAIN, "_TT": torch.Tensor, "_new": object.__new__,
          "_translate": translate_error, "_ndarray": np.ndarray, "_tensor_operand": _tensor_operand,
          "_npgeneric": np.generic, "_bad_operand": _bad_operand, "_rec": rec,
          "_sparse_result": _sparse_result}
    ns["_u"] = lambda v, t: numpy_operand(t, v, rec.name, reflected) if is_numpy_number(v) else _operand(v)
    exec(compile(src, f"<pagaie operator {rec.name}>", "exec"), ns)
    op = ns["op"]
    op.__name__ = op.__qualname__ = name % rec.name
    op.__doc__ = f"``{'other ⊕ self' if reflected else 'self ⊕ other'}`` through :func:`{rec.name}`."
    return op


_FLOATISH = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64,
                       torch.complex64, torch.complex128})
_PY_NUMBERS = (bool, int, float, complex)


def check_promotable(api: str, a: torch.dtype, b: torch.dtype) -> None:
    """Paddle's type promotion between two tensors of dtypes ``a`` and ``b``: allowed only
    between floating-point dtypes and between a complex dtype and any other; a mix of
    integer/bool/float or of two integer dtypes is a TypeError."""
    if a is not b and not (a in _FLOATISH and b in _FLOATISH) and not (a.is_complex or b.is_complex):
        from pagaie._core import dtype as _dt
        raise TypeError(
            f"{public_name(api)}: type promotion only supports calculations between floating-point "
            f"numbers and between complex and real numbers, but got x: "
            f"{_dt.from_torch_dtype(a).name}, y: {_dt.from_torch_dtype(b).name}; cast one "
            "of them with astype first")


def _inplace_dtype(api: str, t: torch.Tensor, y: Any) -> torch.dtype | None:
    """The dtype a promoting binary in-place op gives ``x`` (held by ``t``) for the operand
    ``y``, or None when ``y`` does not change it. Paddle's in-place ops promote like the
    out-of-place ones, except that a 0-D tensor counts as a tensor, not a scalar
    (``int32_x.add_(0-D float32)`` is a TypeError, ``float32_x.add_(0-D float64)`` makes
    ``x`` float64); ``x`` then takes the promoted dtype."""
    if isinstance(y, Tensor):
        d = y._t.dtype
        if d is t.dtype:
            return None
        check_promotable(api, t.dtype, d)
        return torch.promote_types(t.dtype, d)
    if isinstance(y, _PY_NUMBERS):
        # Paddle's in-place ops take only Tensors; a number widens x as it does out of place.
        d = torch.result_type(t, y)
        return None if d is t.dtype else d
    return None


def _missing_first(name: str, first: str, params: list, kwargs: dict) -> Any:
    """Python's TypeError for an in-place call without its first argument (Paddle's in-place
    functions take no PyTorch spelling such as ``input=``)."""
    unknown = [k for k in kwargs if k not in params]
    if unknown:
        raise TypeError(f"{name}() got an unexpected keyword argument '{unknown[0]}'")
    raise TypeError(f"{name}() missing 1 required positional argument: '{first}'")


def _make_inplace(rec: OpRecord, base: OpRecord) -> Callable:
    """In-place variant: mutates its first argument and returns it.

    With an explicit in-place kernel (one that mutates its first torch argument),
    torch's version counters catch writes over values autograd still needs. Without
    one, the out-of-place result is written back into the first argument. As in Paddle,
    the first argument takes the result's dtype (``int_x.divide_(y)`` makes ``x``
    float32); records that say ``promotes=True`` (binary arithmetic) follow
    :func:`_inplace_dtype`. Every call counts one ``inplace_version``; an elementwise operand
    may not broadcast ``x`` to a bigger shape (ValueError); on a tensor in a graph the result
    is computed from a copy and written into ``x`` (views write through, and a backward that
    saved ``x`` earlier raises, as in Paddle).

    While a program is recorded (``paddle.static``, ``jit.to_static``), the call is the
    out-of-place op, as in Paddle's programs: ``x`` keeps its value and the result is a new
    value (``y = x.tanh_()`` records ``tanh``), except for the records that say
    ``program_inplace=True`` (``increment``, ``index_put``: Paddle records their in-place op).
    """
    out_of_place = _make_api(rec)
    params = list(base.signature.parameters)
    first = params[0]
    promotes = bool(base.extra.get("promotes"))
    second = params[1] if promotes else None
    # ops whose kernel casts a Python-number operand to x's dtype (copysign): it never widens x
    number_keeps = bool(base.extra.get("scalar_keeps_dtype"))
    # torch's own in-place kernels cannot change x's dtype: a widening call runs out of place.
    widened = _make_api(base) if promotes and rec.kernel is not base.kernel else out_of_place
    # Paddle refuses in-place writes into a leaf that needs gradients for the ops that have a
    # backward; a record may say otherwise (``leaf_check``): composites without their own
    # backward allow it, some non-differentiable kernels still refuse.
    leaf_check = bool(base.extra.get("leaf_check", base.differentiable))
    functional = not base.extra.get("program_inplace")
    # elementwise binary ops (``x.add_(y)``, ``x.equal_(y)``...): ``y`` may not broadcast ``x``
    # to a bigger shape (Paddle's ValueError), checked before anything is written
    # (``pow_`` takes only a number for ``y``: its own TypeError comes first)
    binary = params[:2] == ["x", "y"] and base.name != "pow"
    from pagaie._core.bad_input import SHAPE_FIRST_INPLACE_OPS
    shape_first = rec.name in SHAPE_FIRST_INPLACE_OPS
    explicit = rec.kernel is not base.kernel
    sparse_ok = takes_sparse(base)
    native: set = set()  # dtypes for which the explicit kernel was seen to write into x
    from pagaie._core.param_aliases import ALIASES_BY_NAME, rename_aliases
    aliases = ALIASES_BY_NAME.get(rec.name)
    # Paddle's in-place APIs take no keyword-only ``out`` (``x.divide_(y, out=o)`` is Python's
    # TypeError): one derived from a kernel that has it drops it
    sig = rec.signature
    drops_out = ("out" in sig.parameters
                 and sig.parameters["out"].kind is inspect.Parameter.KEYWORD_ONLY)

    def api(*args, **kwargs):
        if kwargs:
            if aliases:  # ``x.add_(other=y)``: Paddle's in-place ops take the aliases too
                kwargs = rename_aliases(rec.name, kwargs, aliases)
            if drops_out and "out" in kwargs:
                raise TypeError(f"{rec.name}() got an unexpected keyword argument 'out'")
        x = (args[0] if args else kwargs[first] if first in kwargs
             else _missing_first(rec.name, first, params, kwargs))
        if functional and STATE.functional_inplace():
            return out_of_place(*args, **kwargs)   # recorded as the out-of-place op
        if not isinstance(x, Tensor):
            _not_a_tensor_inplace(rec, base, args, kwargs)
        t = x._t
        if t.layout is not torch.strided and not sparse_ok:
            raise sparse_input_error(rec.name)
        run, want = out_of_place, None
        if binary:
            y = args[1] if len(args) > 1 else kwargs.get("y", _MISSING)
            if y is _MISSING:   # Python's own error for the missing operand, as Paddle's wrapper
                raise TypeError(f"{rec.name}() missing 1 required positional argument: 'y'")
            if isinstance(y, Tensor):
                if y._t.shape != t.shape:
                    _check_inplace_broadcast(rec.name, t, y._t)
            elif shape_first and not hasattr(y, "shape") and not (number_keeps and isinstance(y, _PY_NUMBERS)):
                _shapeless_operand(rec.name, y)
        if promotes:
            y = args[1] if len(args) > 1 else kwargs.get(second)
            if not (number_keeps and isinstance(y, _PY_NUMBERS)):
                want = _inplace_dtype(rec.name, t, y)
            if want is not None and want is not t.dtype:
                run = widened
        if t.requires_grad and is_leaf_view(t):
            # a view of a leaf that needs gradients (``y = x[0]; y.add_(1)``): computed from a
            # copy of the view, then written into the leaf's memory (see write_leaf_view)
            def write(c: Tensor) -> Tensor:
                x._t = c._t
                try:
                    return wrap(_inplace_result(run(*args, **kwargs)._t, want))
                finally:
                    x._t = t
            return write_leaf_view(x, write)
        if leaf_check and torch.is_grad_enabled():
            check_inplace(x, rec.name, base.name)
        elif t.requires_grad and t.is_leaf or (leaf_check and is_grad_leaf(t)):
            # no recorded backward (an op without one, or any op under no_grad: a manual
            # parameter update): Paddle writes the values and x stays the same leaf
            with torch.no_grad():
                r = _inplace_result(run(*args, **kwargs)._t, want)
                return _write_into_leaf(x, r, rec.name, base.name)
        # x in a graph: the result is computed from a copy of x, then written into x. As in
        # Paddle, a backward that saved x before this write then raises (x's version moved),
        # a view writes through to its base, and this op's own backward, which may need the
        # input, still works. Explicit kernels seen to mutate their input for x's dtype run
        # on x directly (torch's own version counting then does the same).
        saved = t.requires_grad and not t.is_leaf and not (run is out_of_place and t.dtype in native)
        if saved:
            c = x._t = t.clone()
            try:
                r = _inplace_result(run(*args, **kwargs)._t, want)
            finally:
                x._t = t
            if explicit and r is c and r.dtype is t.dtype and run is out_of_place:
                native.add(t.dtype)
        else:
            before = t._version + x._version_bias
            r = _inplace_result(run(*args, **kwargs)._t, want)
            if r is t:
                if explicit and x._t is t and t._version + x._version_bias == before:
                    # a kernel that rebinds x's data (a bool result, ``x.data = r``) bumps
                    # no torch version: Paddle counts every in-place op once
                    x._version_bias += 1
                return x
        resized = r.shape != t.shape
        if resized and rec.name not in _RESIZING_INPLACE:
            _check_result_shape(rec.name, r, t)
        if saved and r is c and explicit and t._base is None and not resized:
            # the explicit kernel wrote into the copy, which its backward may have saved: x holds
            # the copy from now on, so a later in-place write into x is seen by that backward
            # (Paddle's version check, as on later calls, which run on x itself); t takes the
            # values and a new version too (aliases of x's memory, backwards that saved x)
            with torch.no_grad():
                t.copy_(r)
            x._rebind(r, bump=0)  # t.copy_ counted this op already
        elif saved and r.dtype is t.dtype and not resized:
            # r does not depend on t itself (computed from a copy): write it into t, so that a
            # view writes through to its base, and t's version says it changed
            if base.differentiable:
                t.copy_(r)
            else:
                # Paddle records no backward for a non-differentiable op (``floor_divide_``):
                # x keeps its grad node, so gradients pass through the write unchanged
                with torch.no_grad():
                    t.copy_(r)
        elif t.requires_grad or r.requires_grad:
            x._rebind(r)  # rebinding keeps the graph intact where copy_ would overwrite a saved input
            if saved:
                torch.autograd.graph.increment_version(t)
        elif r.dtype is not t.dtype or resized:
            # Paddle's in-place result takes the op's result dtype (int.divide_ -> float), and
            # masked_fill_'s its broadcast shape
            t.data = r
            x._version_bias += 1
        else:
            t.copy_(r)
        return x

    functools.update_wrapper(api, base.kernel)
    # The call binds to the in-place kernel's signature (Paddle's in-place APIs drop
    # ``out`` and may order arguments differently): show that one, not the base's.
    del api.__wrapped__
    api.__signature__ = sig.replace(parameters=[p for p in sig.parameters.values()
                                                if not p.name.startswith("_")
                                                and not (drops_out and p.name == "out")])
    api.__name__ = api.__qualname__ = rec.name
    api.__doc__ = f"In-place version of :func:`{base.name}`: writes the result into ``{first}`` and returns it."
    api.op_record = rec
    if aliases:
        api.accepts_aliases = aliases
    return api


def inplace_not_tensor(api: str, base: str, first: str, x: Any,
                       arguments: dict | None = None) -> Exception:
    """Paddle's error for the in-place function ``api`` (of the op ``base``) given a non-Tensor
    ``x`` to write into (its type from ``bad_input.inplace_exception_type``; ``arguments``: the
    call's arguments by name)."""
    from pagaie._core.bad_input import inplace_exception_type, type_name
    kind = inplace_exception_type(api, base, first, x, arguments)
    return kind(f"{public_name(api)}: argument '{first}' (position 0) must be Tensor, but got "
                f"{'None' if x is None else type_name(x)}")


def _shapeless_operand(api: str, y: Any) -> None:
    """Paddle's in-place binary ops read ``y.shape`` first (``bad_input.SHAPE_FIRST_INPLACE_OPS``):
    a ``y`` without one is its AttributeError."""
    from pagaie._core.bad_input import type_name
    raise AttributeError(f"{public_name(api)}: 'y' must be a Tensor (its shape is checked against "
                         f"x's), but received {type_name(y)}")


def _not_a_tensor_inplace(rec: OpRecord, base: OpRecord, args: tuple, kwargs: dict) -> NoReturn:
    """An in-place call whose first argument is not a Tensor (a list, None, an array): a
    missing argument is Python's TypeError, else :func:`inplace_not_tensor`'s error (Paddle
    parses in-place calls as the out-of-place op's, unless its wrapper fails first)."""
    try:
        bound = base.signature.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{public_name(rec.name)}(): {e}") from None
    first = next(iter(base.signature.parameters))
    raise inplace_not_tensor(rec.name, base.name, first, bound.arguments[first], dict(bound.arguments))


def _check_inplace_broadcast(api: str, t: torch.Tensor, y: torch.Tensor) -> None:
    """Paddle's rule for an elementwise in-place op: the operand ``y`` may broadcast to ``x``'s
    shape, never ``x`` to a bigger one (ValueError). Shapes that do not broadcast at all are
    left to the op's own message."""
    try:
        out = broadcast_shapes(t.shape, y.shape)
    except RuntimeError:
        return
    if out != t.shape:
        raise ValueError(f"{public_name(api)}: the shape of broadcast output {list(out)} is different "
                         f"from that of the in-place tensor x {list(t.shape)} (y has shape "
                         f"{list(y.shape)})")


def _inplace_result(r: torch.Tensor, want: torch.dtype | None) -> torch.Tensor:
    """The value an in-place op writes into its input: its result ``r``, widened to the
    promoted dtype ``want`` (see :func:`_inplace_dtype`) where that is wider."""
    if want is not None and r.dtype is not want:
        d = torch.promote_types(r.dtype, want)
        if d is not r.dtype:
            return r.to(d)
    return r


# in-place ops whose Paddle kernel resizes x to the broadcast shape of its operands
_RESIZING_INPLACE = frozenset({"masked_fill_"})


def _check_result_shape(api: str, r: torch.Tensor, t: torch.Tensor) -> None:
    """An in-place op's result must keep the input's shape (a broadcast may not grow it)."""
    if r.shape != t.shape:
        raise ValueError(f"{public_name(api)}: the in-place result has shape {list(r.shape)}, "
                         f"which differs from the input's shape {list(t.shape)}")


def _write_into_leaf(x: Tensor, r: torch.Tensor, api: str, base: str) -> Tensor:
    """A non-differentiable in-place op (``floor_divide_``, ``bitwise_and_``) on a leaf that
    needs gradient: Paddle writes the values and keeps the leaf (a result of another dtype
    becomes the leaf's new dtype: ``float32_leaf.floor_divide_(float64_y)``); a result of
    another shape cannot be written into it. Runs under ``torch.no_grad``."""
    t = x._t
    if r is not t:
        if r.shape != t.shape:
            check_inplace(x, api, base)   # the leaf rule first, where it applies (gradients on)
            _check_result_shape(api, r, t)
        if r.dtype is not t.dtype:
            t.data = r
            x._version_bias += 1
        else:
            t.copy_(r)
    return x


def defop(name: str | None = None, *, amp: str = "promote", paddle_types: tuple = (),
          onnx: Callable | None = None, method: bool | str | tuple = True,
          inplace: bool | Callable = False, differentiable: bool = True,
          **extra: Any) -> Callable[[Callable], Callable]:
    """Declare an op: decorate its kernel (a function over torch tensors with Paddle's signature).

    Args:
        name: the op name; defaults to the kernel's ``__name__``.
        amp: autocast policy, ``'white'`` / ``'black'`` / ``'promote'``.
        paddle_types: op type names in real Paddle programs.
        onnx: an ONNX lowering, read by the exporter.
        method: also attach as a ``Tensor`` method (True), under other names (str or
            tuple of str), or not at all (False).
        inplace: also create ``<name>_`` (function and method). True derives it from
            the out-of-place kernel; a callable is an in-place kernel that mutates and
            returns its first argument.
        differentiable: False when outputs never carry gradients (comparisons...).
        **extra: further record fields (kept in ``OpRecord.extra``).

    Returns:
        A decorator that returns the public API function.
    """

    def deco(kernel: Callable) -> Callable:
        opname = name or kernel.__name__
        if opname in REGISTRY:
            raise ValueError(f"defop: op {opname!r} is declared twice")
        rec = OpRecord(opname, kernel, amp, paddle_types, onnx, differentiable, extra=extra)
        REGISTRY[opname] = rec
        fn = _make_api(rec, strict=True)
        for m in _method_names(method, opname):
            setattr(Tensor, m, fn)
        if inplace:
            iname = opname + "_"
            ikernel = inplace if callable(inplace) else kernel
            irec = OpRecord(iname, ikernel, amp, (), None, differentiable, inplace_of=opname)
            ifn = _make_inplace(irec, rec)
            REGISTRY[iname] = irec
            fn.inplace = ifn
            if method:
                setattr(Tensor, iname, ifn)
        return fn

    return deco


def _method_names(method: bool | str | tuple, opname: str) -> tuple:
    if method is True:
        return (opname,)
    if not method:
        return ()
    if isinstance(method, str):
        return (method,)
    return tuple(method)
