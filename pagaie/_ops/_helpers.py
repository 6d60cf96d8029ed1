"""Argument normalisation shared by op kernels (all over torch tensors)."""
from __future__ import annotations

import numbers
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.place import default_device
from pagaie._core.registry import STATE, NoKernelError, check_promotable, sparse_input_error

_T = torch.Tensor

__all__ = ["norm_axis", "norm_axes", "scalar_axis", "int_list", "check_binary_dtypes", "promote_pair", "check_same_dtype", "reject_bool", "float_kernel", "kernel_dtypes", "float_inplace", "torch_dtype",
           "float_dtype", "device", "scalar_of", "write_out", "write_result_into", "stopped",
           "zero_dropped", "compare_mask", "trace_constant", "TRACE_CONSTANTS"]


def norm_axis(axis: Any, ndim: int, api: str, arg: str = "axis", error: type = ValueError) -> int:
    """A single axis in ``[-ndim, ndim)`` made non-negative; ``error`` otherwise: ValueError
    (Paddle's InvalidArgument) by default, IndexError for the ops whose Paddle kernels report
    a bad axis as OutOfRange (gather, index_select, cross...)."""
    if isinstance(axis, torch.Tensor):
        axis = int(axis.item())
    elif type(axis) is not int and isinstance(axis, np.integer):
        axis = int(axis)  # a numpy integer, as Paddle's argument parser takes it
    n = max(ndim, 1)
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"paddle.{api}: '{arg}' must be an int, but received {type(axis).__name__}")
    if not -n <= axis < n:
        raise error(f"paddle.{api}: '{arg}' must be in the range [{-n}, {n}), but received {axis} "
                         f"(input has {ndim} dimension(s))")
    return axis % n


def scalar_axis(axis: Any) -> Any:
    """An axis that Paddle reads with its Scalar parser (concat, gather, argmax, cumsum): a
    numpy array gives its first value, and a bool, a float (truncated) or a numpy number its
    int; anything else is returned as it is, for the caller's checks."""
    if type(axis) is np.ndarray and axis.size and axis.dtype.kind in "biuf":
        axis = axis.reshape(-1)[0].item()
    if isinstance(axis, (bool, np.bool_, np.integer)) or (
            isinstance(axis, (float, np.floating)) and axis == axis and abs(axis) != float("inf")):
        return int(axis)
    return axis


def norm_axes(axis: Any, ndim: int, api: str, arg: str = "axis") -> list[int] | None:
    """``None`` (all axes), an int, or a list/tuple of ints, made non-negative and checked."""
    if axis is None:
        return None
    if isinstance(axis, torch.Tensor):
        axis = axis.tolist()
    if isinstance(axis, (list, tuple)):
        if len(axis) == 0:
            return None
        return [norm_axis(int(a) if isinstance(a, torch.Tensor) else a, ndim, api, arg) for a in axis]
    return [norm_axis(axis, ndim, api, arg)]


def int_list(v: Any) -> list[int]:
    """A shape-like argument (list/tuple of ints or 0-D tensors, or a 1-D tensor) as ints."""
    if isinstance(v, torch.Tensor):
        return [int(e) for e in v.reshape(-1).tolist()]
    if isinstance(v, (list, tuple)):
        return [int(e.item()) if isinstance(e, torch.Tensor) else int(e) for e in v]
    return [int(v)]


def check_binary_dtypes(api: str, x: Any, y: Any, scalar_0d: bool = False) -> None:
    """Paddle promotes between two tensors only when both are floating (or complex/real).

    Mixed integer/float or two different integer dtypes raise TypeError, as in Paddle 3.
    With ``scalar_0d`` (arithmetic and comparisons), a 0-D operand counts as a scalar and
    any mix is allowed; the result dtype then follows torch's rules, which are Paddle's
    (``int32 + 0-D int64 -> int32``, ``int64 * 0-D float32 -> float32``).
    Kernels call this only when both operands are tensors of different dtypes, which
    keeps the common path free of it.
    """
    if type(x) is torch.Tensor and type(y) is torch.Tensor:
        if scalar_0d and (x.dim() == 0 or y.dim() == 0):
            return
        check_promotable(api, x.dtype, y.dtype)


def promote_operands(api: str, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Paddle's promotion of a composite's two tensor operands (a loss's input and label):
    TypeError for an integer/float mix, otherwise both cast to the wider dtype. Composites
    that start with a promoting op (``subtract``) check their kernels' dtypes on the result:
    a float16 input with a float32 label computes in float32. A 0-D operand beside a
    tensor of higher rank counts as a scalar, as in Paddle's arithmetic: any mix passes and
    the other operand's dtype wins within its kind (torch's ``result_type``)."""
    if a.dtype == b.dtype:
        return a, b
    if (a.dim() == 0) != (b.dim() == 0):
        d = torch.result_type(a, b)
    else:
        check_binary_dtypes(api, a, b)
        d = torch.promote_types(a.dtype, b.dtype)
    return a.to(d), b.to(d)


def promote_pair(api: str, x: Any, y: Any) -> tuple[Any, Any]:
    """:func:`check_binary_dtypes` with 0-D operands counted as scalars (arithmetic), and
    the operands as the kernel should see them: torch's promotion is Paddle's there, except
    that a complex/real mix always takes the wider precision (``complex64`` with a 0-D
    ``float64`` gives ``complex128``, where torch keeps ``complex64``)."""
    check_binary_dtypes(api, x, y, True)
    if type(x) is torch.Tensor and type(y) is torch.Tensor and x.is_complex() != y.is_complex() \
            and (x.dim() == 0 or y.dim() == 0):
        d = torch.promote_types(x.dtype, y.dtype)
        return x.to(d), y.to(d)
    return x, y


def check_same_dtype(api: str, x: Any, y: Any) -> None:
    """For the ops whose Paddle kernels never promote (``heaviside``, ``gammainc``): two
    tensors of different dtypes are a ValueError (Paddle's InvalidArgument)."""
    if type(x) is torch.Tensor and type(y) is torch.Tensor and x.dtype is not y.dtype:
        raise ValueError(f"paddle.{api}: 'x' and 'y' must have the same dtype, but received "
                         f"x: {_dt.from_torch_dtype(x.dtype).name}, "
                         f"y: {_dt.from_torch_dtype(y.dtype).name}")


def pair_kernel_key(api: str, x: torch.Tensor, y: torch.Tensor, allowed: frozenset) -> None:
    """:func:`kernel_dtypes` for a binary op whose Paddle kernel does not promote: Paddle picks
    the kernel by the complex dtype the operands promote to, otherwise by ``y``'s dtype."""
    d = torch.promote_types(x.dtype, y.dtype) if x.is_complex() or y.is_complex() else y.dtype
    if d not in allowed:
        key, arg = (x, "x") if x.dtype is d else (y, "y") if y.dtype is d else (x.new_empty((), dtype=d), "x")
        kernel_dtypes(api, key, allowed, arg)


def unpromoted_pair(api: str, x: torch.Tensor, y: torch.Tensor, allowed: frozenset) -> None:
    """The dtype checks of a binary op whose Paddle kernel does not promote (``heaviside``,
    ``dist``, ``gammainc``): the kernel's dtype lacking a kernel is Paddle's NotFound
    (:func:`pair_kernel_key`) before an ``x`` of another dtype than ``y`` is its ValueError."""
    pair_kernel_key(api, x, y, allowed)
    check_same_dtype(api, x, y)


def dtype_name(t: torch.Tensor) -> str:
    """The dtype of ``t`` as messages name it (``'float32'``)."""
    return str(t.dtype).replace("torch.", "")


def reject_bool(api: str, x: torch.Tensor) -> None:
    """Paddle's float math kernels have no bool version: its NotFound, a RuntimeError (while a
    program is recorded, its build-time dtype check's TypeError)."""
    if x.dtype is torch.bool:
        raise NoKernelError(f"paddle.{api}: bool tensors are not supported; cast 'x' to a "
                            "numeric dtype first (received bool)")


def float_kernel(api: str, x: torch.Tensor, what: str = "inputs", complex_ok: bool = False) -> None:
    """Paddle registers the kernels of ``api`` (its full name, ``'paddle.nn.functional.kl_div'``)
    for floating types only (and complex ones with ``complex_ok``): a bool or integer ``x`` is
    its NotFound, a RuntimeError (:class:`NoKernelError`: TypeError in a program)."""
    if not x.is_floating_point() and not (complex_ok and x.is_complex()):
        raise NoKernelError(f"{api}: the kernel supports floating-point {what} only, but received "
                            f"{dtype_name(x)}")


# The floating and complex dtypes: what a ``program_dtypes`` entry of an op whose static API
# refuses integer and bool inputs takes (dropout, the losses...).
FLOAT_OR_COMPLEX = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64,
                              torch.complex64, torch.complex128})


# Every dtype a tensor can have: a CPU kernel's dtype set is written as what it lacks.
ALL_DTYPES = frozenset({torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                        torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                        torch.complex128})

# Integer dtypes many of Paddle's CPU kernels are not registered for (where, trunc, var...).
SMALL_INTS = frozenset({torch.int8, torch.uint8, torch.int16})
_NOT_SMALL_INTS = ALL_DTYPES - SMALL_INTS


def no_small_int_kernel(api: str, x: torch.Tensor, arg: str = "x") -> None:
    """Paddle's CPU kernel of ``api`` has no int8/uint8/int16 version (NotFound, a RuntimeError);
    call it only when ``x.dtype in SMALL_INTS``."""
    kernel_dtypes(api, x, _NOT_SMALL_INTS, arg)


def parser_bool(v: Any, api: str, name: str) -> bool:
    """A bool argument of an op that Paddle's C++ argument parser reads: None is False, any
    other non-bool (an int, a string, a numpy bool) its TypeError. Call it only when
    ``type(v) is not bool``."""
    if v is None:
        return False
    if type(v) is bool:
        return v
    seen = f"a Tensor of shape {list(v.shape)}" if isinstance(v, torch.Tensor) else f"{type(v).__name__} {v!r}"
    raise TypeError(f"paddle.{api}: '{name}' must be a bool, but received {seen}")


# When the CPU stands in for a GPU, whose kernels take more dtypes (float16, bfloat16...), so
# that kernel_dtypes lets a CPU tensor (or a CPU program's placeholder) through: while pagaie's
# CPU AMP mode is on ("amp", owned by pagaie.amp.state), and while a recorded program runs or a
# pass rewrites one ("programs", a depth, see cpu_as_gpu): its dtypes were checked when it was
# built, and Paddle's static AMP runs low-precision oneDNN kernels on CPUs.
# "probes" (a depth): the recorder runs a kernel on made-up CPU data to size its outputs; its
# CPU tensors then stand for the program's placeholders (``static`` sets apply).
CPU_AS_GPU: dict[str, Any] = {"amp": False, "programs": 0, "probes": 0}


@contextmanager
def cpu_as_gpu() -> Iterator[None]:
    """Inside the block the kernels' dtype checks treat the CPU as a GPU (see CPU_AS_GPU)."""
    CPU_AS_GPU["programs"] += 1
    try:
        yield
    finally:
        CPU_AS_GPU["programs"] -= 1


def dense_only(api: str, x: Any) -> None:
    """Raise Paddle's NotImplementedError when the sparse tensor ``x`` reaches the dense op
    ``api``, for kernels whose torch call would compute a dense result from it (a sparse
    result is caught by the dispatcher)."""
    if isinstance(x, torch.Tensor) and x.layout is not torch.strided:
        raise sparse_input_error(api)


def kernel_dtypes(api: str, x: torch.Tensor, allowed: frozenset, arg: str = "x",
                  static: frozenset | None = None) -> None:
    """Paddle registers the CPU kernel of ``api`` for the ``allowed`` dtypes only: another dtype
    is its NotFound, a RuntimeError (its GPU kernels take more, so a CUDA tensor passes). A
    placeholder of a program recorded for the CPU counts as a CPU tensor (the recorder then
    raises Paddle's build-time TypeError). ``static``: the dtypes Paddle's build-time check
    takes where they differ from the kernel's (empty: no build-time check)."""
    kind = "meta" if CPU_AS_GPU["probes"] and x.device.type == "cpu" else x.device.type
    if x.dtype in allowed and (static is None or kind != "meta"):
        return
    if kind == "meta" and static is not None and (not static or x.dtype in static):
        return
    if (kind == "cpu" or kind == "meta") and (CPU_AS_GPU["amp"] or CPU_AS_GPU["programs"]):
        return
    if kind == "cpu" or (kind == "meta" and default_device().type == "cpu"):
        names = ", ".join(sorted(_dt.from_torch_dtype(d).name for d in allowed))
        what = "'dtype'" if arg == "dtype" else f"'{arg}' of dtype"
        raise NoKernelError(f"paddle.{api}: {what} {_dt.from_torch_dtype(x.dtype).name} "
                            f"is not supported (Paddle's kernel takes {names})")


class _MissingGradKernel(torch.autograd.Function):
    """The identity, whose backward raises the error of a missing gradient kernel."""

    @staticmethod
    def forward(ctx, x, error):  # type: ignore[override]
        ctx.error = error
        return x.clone()

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        raise ctx.error


def no_grad_kernel(api: str, result: torch.Tensor, x: torch.Tensor, missing: frozenset,
                   arg: str = "x") -> torch.Tensor:
    """Paddle registers the forward CPU kernel of ``api`` for ``x``'s dtype but not its
    gradient kernel (``exp_grad`` has no float16 one): ``result`` as it is, whose backward
    raises Paddle's NotFound (RuntimeError) where gradients flow into it. Callers call this
    only for ``x`` of a ``missing`` dtype that requires gradients."""
    if not result.requires_grad:
        return result
    try:
        kernel_dtypes(api, x, ALL_DTYPES - missing, arg)
    except NoKernelError:
        error = NoKernelError(f"paddle.{api}: the gradient of '{arg}' of dtype {dtype_name(x)} is "
                              f"not supported (Paddle's CPU {api.rsplit('.', 1)[-1]}_grad kernel "
                              "has no such version)")
        return _MissingGradKernel.apply(result, error)
    return result


def float_hard_label_grad(api: str, loss: torch.Tensor, label: torch.Tensor) -> torch.Tensor:
    """Paddle's cross-entropy forward reads a floating hard label as class indices, but its
    CPU gradient kernel (``CrossEntropyWithSoftmaxGradCPUKernel``) has no floating-label
    version: ``loss`` as it is, whose backward raises Paddle's OSError for such a label.

    Examples:
        >>> import torch
        >>> x = torch.ones(2, 3, requires_grad=True)
        >>> loss = float_hard_label_grad("nn.functional.cross_entropy", x.sum(1),
        ...                              torch.tensor([0.0, 1.0]))
        >>> try:
        ...     loss.sum().backward()
        ... except OSError as e:
        ...     print(type(e).__name__)
        OSError
    """
    if not loss.requires_grad or not (label.is_floating_point() or label.is_complex()) \
            or label.device.type != "cpu":
        return loss
    error = OSError(f"paddle.{api}: the gradient with a hard label of dtype {dtype_name(label)} "
                    "is not supported (Paddle's CPU CrossEntropyWithSoftmaxGradCPUKernel takes "
                    "int32 or int64 labels)")
    return _MissingGradKernel.apply(loss, error)


def pair_kernel_dtypes(api: str, x: Any, y: Any, allowed: frozenset, number_promotes: bool = False,
                       scalar_0d: bool = False) -> None:
    """:func:`kernel_dtypes` for a binary op, whose kernel runs in the dtype the two operands
    promote to. A Python number operand takes the tensor's dtype, or with ``number_promotes``
    (the operators, whose number becomes an int64/float32 tensor) promotes a bool tensor.
    With ``scalar_0d`` (the arithmetic ops, see :func:`promote_pair`), a 0-D tensor operand
    counts as a scalar: ``uint8 % 0-D int32`` runs the uint8 kernel."""
    t, o = (x, y) if type(x) is torch.Tensor else (y, x)
    if type(o) is torch.Tensor:
        d = t.dtype if o.dtype is t.dtype else torch.promote_types(t.dtype, o.dtype)
        if scalar_0d and o.dtype is not t.dtype and not d.is_complex and (t.dim() == 0 or o.dim() == 0):
            d = torch.result_type(t, o)   # (a complex/real mix keeps the wider precision)
    elif t.dtype in allowed:
        return
    else:
        d = torch.result_type(t, o) if number_promotes else t.dtype
    if d not in allowed:   # (a 0-D stand-in of the promoted dtype: no copy of the data)
        kernel_dtypes(api, t if t.dtype is d else t.new_empty((), dtype=d), allowed)


def float_inplace(api: str, x: torch.Tensor) -> None:
    """An in-place op whose result is floating cannot write into a bool/integer ``x`` (Paddle
    has no such kernel: RuntimeError)."""
    if not (x.is_floating_point() or x.is_complex()):
        raise RuntimeError(f"paddle.{api}: the result is floating and cannot be written in place "
                           f"into 'x' of dtype {_dt.from_torch_dtype(x.dtype).name}; use "
                           f"paddle.{api.rstrip('_')} or cast 'x' first")


def torch_dtype(dtype: Any, api: str) -> torch.dtype | None:
    return None if dtype is None else _dt.to_torch_dtype(dtype, f"paddle.{api}")


def parsed_dtype(dtype: Any, api: str) -> torch.dtype | None:
    """``torch_dtype`` for the ops whose ``dtype`` goes through Paddle's C++ argument parser
    (sum, nansum, argmax, argmin): an unknown dtype is a ValueError there, not a TypeError."""
    try:
        return torch_dtype(dtype, api)
    except TypeError as exc:
        raise ValueError(str(exc)) from None


# The numpy scalar types Paddle's C++ argument parser reads as a Scalar argument (a fill value,
# a range bound, eye's sizes); it refuses the others (int8, uint8, bool, longdouble...).
SCALAR_NUMPY_TYPES = (np.float16, np.float32, np.float64, np.int32, np.int64, np.complex64,
                      np.complex128)


def _eager_parser() -> bool:
    """Whether Paddle's eager C++ argument parser reads the Scalar arguments of a call now: not
    while a program is recorded or runs (Paddle's static full takes numpy scalars as they come;
    its int arguments go through the parser in both modes)."""
    return not (STATE.recording or CPU_AS_GPU["programs"])


# The numpy integer types Paddle's C++ parser takes for an int argument or in a list of ints
# (not the unsigned ones, nor ``np.longlong``, a type of its own beside ``np.int64``).
PARSER_NUMPY_INTS = (np.int8, np.int16, np.int32, np.int64)


def parser_int_args(api: str, **args: Any) -> None:
    """Paddle's TypeError for an int argument its C++ parser refuses: a numpy scalar other than
    :data:`PARSER_NUMPY_INTS`, a complex number or a string.

    Examples:
        >>> import numpy as np
        >>> parser_int_args("randperm", n=np.int16(3))
        >>> try:
        ...     parser_int_args("randperm", n=np.uint8(3))
        ... except TypeError as e:
        ...     print(e)
        paddle.randperm: 'n' must be an int, but received numpy.uint8 (3)
    """
    for name, v in args.items():
        if isinstance(v, (complex, str)) or (isinstance(v, np.generic)
                                             and not isinstance(v, PARSER_NUMPY_INTS)):
            shown = f"numpy.{type(v).__name__}" if isinstance(v, np.generic) else type(v).__name__
            raise TypeError(f"paddle.{api}: '{name}' must be an int, but received {shown} ({v})")


def parser_ints(api: str, **args: Any) -> None:
    """Paddle's TypeError for an int argument its C++ parser reads exactly: only a Python int
    or a numpy integer of :data:`PARSER_NUMPY_INTS` passes (not a bool, a float, None).

    Examples:
        >>> parser_ints("diagonal", offset=1)
        >>> try:
        ...     parser_ints("diagonal", offset=1.0)
        ... except TypeError as e:
        ...     print(e)
        paddle.diagonal: 'offset' must be an int, but received float (1.0)
    """
    for name, v in args.items():
        if type(v) is not int and not isinstance(v, PARSER_NUMPY_INTS):
            shown = f"numpy.{type(v).__name__}" if isinstance(v, np.generic) else type(v).__name__
            raise TypeError(f"paddle.{api}: '{name}' must be an int, but received {shown} ({v!r})")


def numpy_scalar_args(api: str, **args: Any) -> None:
    """Paddle's ValueError for an argument holding a numpy scalar of a type its argument parser
    does not read as a Scalar (``paddle.full([2], np.int8(3))``).

    Examples:
        >>> import numpy as np
        >>> numpy_scalar_args("full", fill_value=np.int32(3))
        >>> try:
        ...     numpy_scalar_args("full", fill_value=np.uint8(3))
        ... except ValueError as e:
        ...     print(e)
        paddle.full: 'fill_value' as a numpy scalar must be float16, ... but received numpy.uint8
    """
    if not _eager_parser():
        return
    for name, v in args.items():
        if isinstance(v, np.generic) and not isinstance(v, SCALAR_NUMPY_TYPES):
            raise ValueError(f"paddle.{api}: '{name}' as a numpy scalar must be float16, float32, "
                             "float64, int32, int64, complex64 or complex128, but received "
                             f"numpy.{type(v).__name__}")


def float_dtype(dtype: Any, api: str) -> torch.dtype:
    """The dtype argument, or the default float dtype when None."""
    return _dt.default_float() if dtype is None else _dt.to_torch_dtype(dtype, f"paddle.{api}")


def device() -> torch.device:
    return default_device()


def scalar_of(v: Any) -> Any:
    """A Python number from a number or a one-element tensor."""
    return v.item() if isinstance(v, torch.Tensor) else v


def seq_of_tensors(v: Any, api: str, arg: str = "x") -> Sequence[torch.Tensor]:
    if isinstance(v, torch.Tensor) or not isinstance(v, (list, tuple)):
        raise ValueError(f"paddle.{api}: '{arg}' must be a list or tuple of Tensors, "
                        f"but received {type(v).__name__}")
    return v


def write_out(out: Any, result: torch.Tensor) -> torch.Tensor:
    """Paddle's ``out=`` argument: also store ``result`` into the tensor ``out`` (its shape and
    dtype follow the result, as in Paddle) and return the result."""
    if out is not None:
        if not isinstance(out, torch.Tensor):
            raise ValueError(f"'out' must be a Tensor, but received {type(out).__name__}")
        out.data = result.detach()
    return result


def write_result_into(x: Any, result: Any) -> Any:
    """Make the pagaie Tensor ``x`` hold ``result``, the same-shape result (a Tensor) of an
    in-place form computed out of place, and return ``x``: a gradient leaf under ``no_grad``
    (a manual update) takes the values and stays the same leaf; a tensor in a graph is rebound
    to it (keeping the graph); otherwise the values are written into ``x``'s storage (through
    to the base of a view). The caller has applied Paddle's leaf rule (``check_inplace``).
    While a program is recorded, ``result`` itself is returned (Paddle's programs record
    in-place APIs as their out-of-place op)."""
    if STATE.functional_inplace():
        return result
    t, r = x._t, result._t
    if t.is_leaf and t.requires_grad and not torch.is_grad_enabled():
        t.copy_(r)
    elif t.requires_grad or r.requires_grad:
        x._rebind(r)
    else:
        t.copy_(r)
    return x


def stopped(t: torch.Tensor) -> torch.Tensor:
    """``t`` as a fresh result that says stop_gradient=True whatever the op's inputs say
    (Paddle builds it without its op: ``combinations(x, 0)``, ``where(condition)``)."""
    from pagaie._core.tensor import GRAD_FLAG
    t = t.detach()
    setattr(t, GRAD_FLAG, False)
    return t


class AssertionValueError(ValueError, AssertionError):
    """A bad argument where Paddle raises ``AssertionError`` (from a Python-level check)
    rather than its usual ``ValueError``: catching either works."""


def axis_arg(axis: Any, ndim: int, api: str, arg: str = "axis", *, low: type = ValueError,
             high: type = ValueError, bad: type = TypeError, bad_float: type | None = None,
             rank0: int = 1) -> int:
    """One axis argument made non-negative, with the exception types Paddle's ``api`` raises.

    ``low`` for an axis below ``-rank``, ``high`` for one at or past ``rank``, ``bad`` for a
    non-int (``bad_float`` for a float, when it differs). A 0-D input counts as rank
    ``rank0``: 1 for the ops that take axis 0 or -1 there, 0 for those that take no axis.
    A one-element int tensor counts as its value.
    """
    if isinstance(axis, _T) and axis.numel() == 1 and not (axis.is_floating_point() or axis.is_complex()):
        axis = int(axis.item())
    if not isinstance(axis, numbers.Integral) or isinstance(axis, bool):
        kind = bad_float if bad_float is not None and isinstance(axis, float) else bad
        raise kind(f"paddle.{api}: '{arg}' must be an int, but received {axis!r}")
    axis = int(axis)
    n = max(ndim, rank0)
    if axis < -n or axis >= n:
        raise (low if axis < 0 else high)(
            f"paddle.{api}: '{arg}' must be in the range [{-n}, {n}), but received {axis} "
            f"(input has {ndim} dimension(s))")
    return axis % n if n else axis


def int_array_as_list(v: Any) -> Any:
    """``v``, or, for a 1-D numpy array of ints, its ints as a list: Paddle's argument parser
    reads such an array where it takes a list of ints (an axis list, a permutation)."""
    if type(v) is np.ndarray and v.ndim == 1 and v.dtype.kind in "iu":
        return v.tolist()
    return v


def int_entries(v: Any, api: str, arg: str, allow_bool: bool = False) -> list[int]:
    """A list/tuple of ints (or int tensors), or a 1-D int tensor, as ints: a float or other
    entry (a bool too, unless ``allow_bool``) is Paddle's TypeError ("must be list of int")."""
    if isinstance(v, (list, tuple)):
        for i, e in enumerate(v):
            if not isinstance(e, (numbers.Integral, _T)) or (isinstance(e, bool) and not allow_bool):
                raise TypeError(f"paddle.{api}: '{arg}' must be a list of int, but received "
                                f"{e!r} at position {i}")
    return int_list(v)


def shape_arg(shape: Any, api: str, arg: str = "shape", allow_bool: bool = False) -> list[int]:
    """A shape argument (an int, a list/tuple of ints or int tensors, or a 1-D int tensor) as
    ints, with Paddle's TypeError for anything else (a bare bool included)."""
    if isinstance(shape, bool):
        raise TypeError(f"paddle.{api}: '{arg}' must be a list, tuple, int or Tensor, but received bool")
    if isinstance(shape, (int, _T)) and not (isinstance(shape, _T) and shape.dim() > 0):
        return [int(shape)]
    if type(shape) is np.ndarray and shape.dtype.kind in "iu":  # read as a list, as in Paddle
        shape = shape.reshape(-1).tolist()
    if not isinstance(shape, (list, tuple, _T)):
        raise TypeError(f"paddle.{api}: '{arg}' must be a list, tuple or Tensor, "
                        f"but received {type(shape).__name__}")
    return int_entries(shape, api, arg, allow_bool)


# Pure functions of Python scalars that kernels call: under torch.compile they should run at
# trace time with their result taken as a constant (their numpy rounding would otherwise split
# the graph). The compiled executor marks them before compiling; marking them when they are
# defined would import torch._dynamo into every process.
TRACE_CONSTANTS: list = []


def trace_constant(fn):
    """Register ``fn`` (a pure function of Python scalars and dtypes) in
    :data:`TRACE_CONSTANTS`, so that compiled code evaluates it at trace time.

    Examples:
        >>> from pagaie._ops._helpers import TRACE_CONSTANTS, trace_constant
        >>> @trace_constant
        ... def _half(v):
        ...     return v / 2
        >>> _half in TRACE_CONSTANTS
        True
        >>> TRACE_CONSTANTS.remove(_half)
    """
    TRACE_CONSTANTS.append(fn)
    return fn


def compare_mask(compare: Any, x: torch.Tensor, bound: Any) -> torch.Tensor:
    """``compare(x, bound)`` (``torch.gt``, ``torch.ne``...) as 0/1 in x's dtype, held constant
    (no gradient): torch writes a comparison into floats faster than into booleans, and
    multiplies or selects by such a mask without converting it.

    Examples:
        >>> import torch
        >>> from pagaie._ops._helpers import compare_mask
        >>> compare_mask(torch.gt, torch.tensor([-1.0, 2.0]), 0).tolist()
        [0.0, 1.0]
    """
    xd = x.detach()
    return compare(xd, bound, out=torch.empty_like(xd))


def counted_writes(x: Any, r: Any, count: int) -> Any:
    """``x`` after an in-place write that Paddle counts as ``count`` writes in
    ``inplace_version`` (its composite runs that many in-place kernels): the write itself
    counted one, the rest are added on ``x``'s own counter (so tensors ``x`` views count
    them too). ``r`` is the write's result: a new value while a program is built, returned
    as is.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops._helpers import counted_writes
        >>> x = paddle.zeros([2])
        >>> counted_writes(x, x.add_(paddle.ones([2])), 3).inplace_version
        3
    """
    if r is not x:
        return r
    for _ in range(count - 1):
        torch.autograd.graph.increment_version(x._t)
    return x


def zero_dropped(values: torch.Tensor, keep: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor:
    """``values`` where ``keep`` (a boolean mask, or 0/1 values, that broadcasts to it), 0
    elsewhere, even where ``values`` is inf or NaN (written into ``out`` when given, which may
    be ``values``).

    The same selection as ``torch.where(keep, values, 0)``, and the same gradient for
    ``values``, but by ``threshold_backward``: a vectorised CPU kernel, where ``where``'s
    is not (several times slower on a dropout-sized tensor).

    Examples:
        >>> import torch
        >>> from pagaie._ops._helpers import zero_dropped
        >>> zero_dropped(torch.tensor([1.0, float('inf')]), torch.tensor([True, False])).tolist()
        [1.0, 0.0]
    """
    # (compiled code fuses ``where`` into its own vectorised loops)
    if torch.compiler.is_compiling() or not values.is_floating_point():
        k = keep if keep.dtype == torch.bool else keep != 0
        return torch.where(k, values, 0) if out is None else torch.where(k, values, 0, out=out)
    if keep.dtype == torch.bool:
        keep = keep.view(torch.uint8)   # torch's bool-to-float conversion is not vectorised either
    if out is None:
        return torch.ops.aten.threshold_backward.default(values, keep, 0)
    return torch.ops.aten.threshold_backward.grad_input(values, keep, 0, grad_input=out)


# float16 and bfloat16: what many of Paddle's CPU kernels lack (cumsum, angle, clip, the losses...).
LOW_FLOATS = frozenset({torch.float16, torch.bfloat16})
# The dtypes of most of Paddle's nn CPU kernels (norms, convolutions, losses, unfold, bilinear...),
# and those of their static APIs' build-time checks that also take bfloat16.
F32_F64 = frozenset({torch.float32, torch.float64})
BF16_F32_F64 = F32_F64 | {torch.bfloat16}
REAL_FLOATS = F32_F64 | LOW_FLOATS
# What the CPU kernels a composite loss starts with (subtract, exp, where...) lack.
NO_SUBTRACT_KERNEL = LOW_FLOATS | SMALL_INTS | {torch.bool}


def no_low_float_kernel(api: str, x: torch.Tensor, *, arg: str = "x",
                        static: frozenset | None = None, missing: frozenset = LOW_FLOATS) -> None:
    """Paddle's CPU kernel of ``api`` has no float16/bfloat16 version (nor one of the other
    ``missing`` dtypes): its NotFound, a RuntimeError (a GPU tensor passes). Other dtypes are
    left to the caller's checks. ``static``: as for :func:`kernel_dtypes`."""
    if x.dtype not in missing:
        return
    try:
        kernel_dtypes(api, x, ALL_DTYPES - missing, arg, static)
    except NoKernelError:
        if missing is not LOW_FLOATS:
            raise
        raise NoKernelError(f"paddle.{api}: '{arg}' of dtype {dtype_name(x)} is not supported (Paddle's "
                            "CPU kernel has no float16 or bfloat16 version)") from None


def program_constant(v: Any) -> Any:
    """The number a program value holds when ``full`` made it from constants (a Python fill
    value and shape), else None: Paddle's programs read such a value at build time where a
    size, an axis or a count is expected (``full([full([], 3), 2], 1.0)`` is [3, 2] there).
    Only an int64 one: an int32 constant is read by a few ops only (the recorder's table)."""
    op = getattr(v, "op", None)
    if op is None or op.type != "full" or v.dtype != _dt.int64:
        return None
    call = dict(zip(("shape", "fill_value"), op.args), **op.kwargs)
    fill, shape = call.get("fill_value"), call.get("shape")
    sizes = shape if isinstance(shape, (list, tuple)) else [shape]
    if type(fill) not in (bool, int, float) or not all(type(s) is int for s in sizes):
        return None
    return fill


def int_only_in_programs(api: str, arg: str, position: int, tensors: bool = False):
    """A ``static_check`` for an int argument that Paddle's eager API also takes as a bool or
    a float (truncated; ``argmax``'s, ``concat``'s ``axis``) or, with ``tensors``, as a 0-D
    Tensor (``kthvalue``'s ``k``, ``tril``'s ``diagonal``), while its static argument parser
    wants a Python int: those are its TypeError while a program is built."""
    def check(*args: Any, **kwargs: Any) -> None:
        v = args[position] if len(args) > position else kwargs.get(arg)
        if isinstance(v, (bool, float, np.bool_, np.floating)) or (
                tensors and (isinstance(v, _T) or hasattr(v, "_t"))):
            raise TypeError(f"paddle.{api}: '{arg}' must be an int while a program is built, "
                            f"but received {type(v).__name__}")
    return check


def same_dtype_args(api: str, x: torch.Tensor, **others: Any) -> None:
    """Paddle's kernels read their parameters (weight, bias, running statistics) in x's dtype:
    another dtype is its ValueError. Kernels call this where torch refused a call, so that the
    message is Paddle's rather than torch's."""
    for name, t in others.items():
        if isinstance(t, torch.Tensor) and t.dtype is not x.dtype:
            raise ValueError(f"paddle.{api}: '{name}' ({dtype_name(t)}) must have the dtype of the "
                             f"input ({dtype_name(x)})")


def float_weight(api: str, x: torch.Tensor, w: Any, arg: str = "weight") -> None:
    """A loss multiplies its ``w`` into the floating loss of ``x``: an integer or bool one is
    Paddle's type-promotion TypeError."""
    if isinstance(w, torch.Tensor) and not (w.is_floating_point() or w.is_complex()) \
            and x.is_floating_point():
        raise TypeError(f"paddle.{api}: '{arg}' must be a floating-point tensor, but received "
                        f"{dtype_name(w)} (type promotion does not mix it with {dtype_name(x)})")
