"""Binary arithmetic ops and the Python arithmetic operators of ``Tensor`` built on them."""
from __future__ import annotations

import numbers

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, binary_operator, defop, number_api, read_numpy_number
from pagaie._core.tensor import Tensor, wrap
from pagaie._ops._helpers import (ALL_DTYPES, SMALL_INTS, check_binary_dtypes, dtype_name, kernel_dtypes, pair_kernel_dtypes,
                                  promote_pair, stopped, write_out)

_T = torch.Tensor

__all__ = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod",
           "floor_mod", "pow", "sub", "mul", "div", "true_divide", "subtract_", "sub_",
           "multiply_", "mul_", "divide_", "div_", "floor_divide_", "remainder_", "mod_",
           "floor_mod_", "pow_", "maximum", "minimum", "fmax", "fmin", "add_n", "increment"]


_LOW = (torch.float16, torch.bfloat16)
_DIV_CPU_DTYPES = ALL_DTYPES - set(_LOW)
_DIV_PROGRAM_DTYPES = ALL_DTYPES - {torch.float16}
_DIV_ROUNDING_DTYPES = ALL_DTYPES - {torch.bool, torch.complex64, torch.complex128}
_NOT_BOOL = ALL_DTYPES - {torch.bool}
_LOW_MAX = {d: torch.finfo(d).max for d in _LOW}


def _scalar_operand(x, y, cast_low=False):
    """A Python number operand of a binary op (either side), as Paddle uses it.

    A complex number with a float16/bfloat16 tensor computes in complex64 (torch would pick
    complex32, which has few kernels). With ``cast_low`` (``*``, ``/``, ``//``, ``%``), an int
    or float with a float16/bfloat16 tensor is first rounded to that dtype, as Paddle does
    (its scalar becomes a tensor of x's dtype), so the results round as Paddle's do.
    """
    t, v, first = (x, y, True) if type(x) is _T else (y, x, False)
    if type(t) is not _T or (t.dtype is not torch.float16 and t.dtype is not torch.bfloat16):
        return x, y
    if type(v) is complex:
        t = t.to(torch.complex64)
    elif cast_low and (type(v) is float or type(v) is int):
        v = torch.tensor(v, dtype=t.dtype, device=t.device)
    else:
        return x, y
    return (t, v) if first else (v, t)


def _bool_operand_kernel(api, x, y, lacks, allowed, program):
    """A Python bool operand of an operator: Paddle makes it a tensor of the other operand's
    dtype and runs its elementwise kernel (not ``scale``), whose CPU version ``lacks`` some."""
    t = x if type(y) is bool else y if type(x) is bool else None
    if type(t) is _T and t.dtype in lacks:
        kernel_dtypes(api, t, allowed, static=program)


def _pow_inplace(x, y, name=None):
    if type(y) not in (int, float, bool):
        raise TypeError(f"paddle.pow_: 'y' must be a Python int or float, but received "
                        f"{'Tensor' if type(y) is _T else type(y).__name__}")
    kernel_dtypes("pow_", x, _POW_DTYPES)
    if type(y) is float and not (x.is_floating_point() or x.is_complex()):
        y = int(y)  # the exponent is truncated for an integer x, as in paddle.pow
    elif type(y) is float and (y == 0.5 or y == -0.5) and x.is_floating_point():
        y = torch.tensor(y, dtype=x.dtype, device=x.device)  # C's pow at -inf, as in paddle.pow
    return x.pow_(y)


# Paddle's add/subtract/multiply/divide take only Tensors (a Python number is its parser's
# ValueError); the operators ``+ - * /`` call the kernels and take numbers.
_TENSORS = ("x", "y")


@defop(amp="promote", paddle_types=("elementwise_add", "add", "pd_op.add"),
       promotes=True, inplace=lambda x, y, name=None, *, alpha=1: x.add_(y, alpha=alpha),
       tensor_args=_TENSORS)
def add(x, y, name=None, *, alpha=1, out=None):
    """Elementwise ``x + alpha * y`` with broadcasting.

    Args:
        x (Tensor): the first operand.
        y (Tensor|scalar): the second operand.
        name (str, optional): unused, for Paddle compatibility.
        alpha (scalar, optional): multiplier of ``y``. Default 1.
        out (Tensor, optional): also store the result here.

    Returns:
        Tensor: the sum.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.add(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])).tolist()
        [4.0, 6.0]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        x, y = promote_pair("add", x, y)
    elif type(y) is not _T or type(x) is not _T:
        x, y = _scalar_operand(x, y)
    if alpha == 1:
        r = torch.add(x, y)
    else:
        if type(y) is _T and not (y.is_floating_point() or y.is_complex()) and \
                (isinstance(alpha, float) or y.dtype is torch.bool):
            # Paddle scales y first: a float alpha (or any alpha on bool) makes it another
            # dtype than x, and adding the two is its type promotion's TypeError
            raise TypeError(f"paddle.add: alpha={alpha!r} scales {dtype_name(y)} 'y' to another dtype "
                            "than 'x'; type promotion only takes floating-point and complex pairs")
        r = torch.add(x, y, alpha=alpha)
    return r if out is None else write_out(out, r)


def _sub_inplace(x, y, name=None, *, alpha=1):
    if x.dtype is torch.bool and type(y) is _T and y.dtype is torch.bool:
        _bool_sub_operands(x, y)   # (its NotFound, as subtract's)
    if type(y) is _T and y.dtype is torch.bool and x.dtype is not torch.bool:
        y = y.to(x.dtype)  # torch refuses ``-`` with a bool operand (complex_x.subtract_(mask))
    if x.dtype in _SUB_NO_CPU and type(y) is _T:
        kernel_dtypes("subtract_", x, _SUB_CPU_DTYPES, static=frozenset())
    return x.sub_(y, alpha=alpha)


@defop(paddle_types=("elementwise_sub", "subtract", "pd_op.subtract"),
       promotes=True, inplace=_sub_inplace, tensor_args=_TENSORS)
def subtract(x, y, name=None, *, alpha=1, out=None):
    """Elementwise ``x - alpha * y`` with broadcasting.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.subtract(paddle.to_tensor([3.0]), paddle.to_tensor([1.0])).tolist()
        [2.0]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        x, y = promote_pair("subtract", x, y)
    elif type(y) is not _T or type(x) is not _T:
        _bool_operand_kernel("subtract", x, y, _SUB_NO_CPU | {torch.bool},
                             _SUB_CPU_DTYPES - {torch.bool}, frozenset())
        x, y = _scalar_operand(x, y)
    try:
        r = torch.sub(x, y) if alpha == 1 else torch.sub(x, y, alpha=alpha)
    except RuntimeError:
        if not (getattr(x, "dtype", None) is torch.bool or getattr(y, "dtype", None) is torch.bool
                or type(x) is bool or type(y) is bool):
            raise
        x, y = _bool_sub_operands(x, y)
        r = torch.sub(x, y) if alpha == 1 else torch.sub(x, y, alpha=alpha)
    if r.dtype in _SUB_NO_CPU and type(x) is _T and type(y) is _T:
        # Paddle's CPU subtract kernel has none of these (a number operand goes to scale)
        kernel_dtypes("subtract", r, _SUB_CPU_DTYPES, static=frozenset())   # (a program builds)
    return r if out is None else write_out(out, r)


# (Paddle has no float16 CPU kernel either; pagaie computes it, as its add does, so that
# float16 programs run on the CPU)
_SUB_NO_CPU = frozenset({torch.uint8, torch.int8})
_SUB_CPU_DTYPES = frozenset({torch.bool, torch.int16, torch.int32, torch.int64, torch.float16,
                             torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                             torch.complex128})


def _bool_sub_operands(x, y):
    """torch refuses ``-`` on bools; Paddle computes a bool tensor minus a number in int64
    (or the default float), and an int tensor minus True as minus 1."""
    if type(x) is _T and type(y) is _T:
        d = torch.result_type(x, y)
        if d is torch.bool:
            raise NoKernelError("paddle.subtract: subtraction of two bool tensors is not supported; "
                                "use paddle.logical_xor")
        return x.to(d), y.to(d)
    t, v = (x, y) if type(x) is _T else (y, x)
    if type(v) is bool:
        v = int(v)
    if t.dtype is torch.bool:
        t = t.to(torch.int64 if isinstance(v, int) else torch.get_default_dtype())
    return (t, v) if type(x) is _T else (v, t)


def _mul_inplace(x, y, name=None):
    if x.dtype in SMALL_INTS and type(y) is _T and y.dtype is x.dtype:
        kernel_dtypes("multiply_", x, _MUL_CPU_DTYPES)
    return x.mul_(y)


@defop(paddle_types=("elementwise_mul", "multiply", "pd_op.multiply"), method=("multiply", "mul"),
       promotes=True, inplace=_mul_inplace, tensor_args=_TENSORS)
def multiply(x, y, name=None, *, out=None):
    """Elementwise ``x * y`` with broadcasting.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.multiply(paddle.to_tensor([2.0]), paddle.to_tensor([3.0])).tolist()
        [6.0]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        x, y = promote_pair("multiply", x, y)
    elif type(y) is not _T or type(x) is not _T:
        _bool_operand_kernel("multiply", x, y, SMALL_INTS, _MUL_CPU_DTYPES, _MUL_PROGRAM_DTYPES)
        zero_biased = _scaled_by_number(x, y)
        if zero_biased is not None:
            return zero_biased if out is None else write_out(out, zero_biased)
        x, y = _scalar_operand(x, y, True)
    r = torch.mul(x, y)
    if r.dtype in SMALL_INTS and type(x) is _T and type(y) is _T:
        # Paddle's CPU multiply kernel has none of these (a number operand goes to scale;
        # uint8/int8 pass its program-time check and fail when the program runs)
        kernel_dtypes("multiply", r, _MUL_CPU_DTYPES, static=_MUL_PROGRAM_DTYPES)
    return r if out is None else write_out(out, r)


# (Paddle has no float16 CPU multiply kernel either; pagaie computes it, as its add does)
_MUL_CPU_DTYPES = ALL_DTYPES - SMALL_INTS
_MUL_PROGRAM_DTYPES = ALL_DTYPES - {torch.int16}


_ZEROS: dict = {}


def _scaled_by_number(x, y):
    """A float tensor times a Python int or float as Paddle's ``scale`` computes it,
    ``t * v + 0``: a zero product is ``+0.0`` whatever the signs (``-1.0 * 0`` is ``0.0``,
    not ``-0.0``). One kernel, ``0 + v * t``; None for other operand kinds."""
    t, v = (x, y) if type(x) is _T else (y, x)
    if type(t) is not _T or not t.is_floating_point() or (type(v) is not float and type(v) is not int):
        return None
    key = (t.dtype, t.device)
    zero = _ZEROS.get(key)
    if zero is None:
        zero = _ZEROS[key] = torch.zeros((), dtype=t.dtype, device=t.device)
    v = float(v)
    if t.dtype is not torch.float64 and abs(v) > _SCALE_MAX[t.dtype]:
        # past the dtype's range: +-inf, as Paddle holds the factor (torch would refuse it)
        v = torch.tensor(v, dtype=t.dtype).item()
    return torch.add(zero, t, alpha=v)


_SCALE_MAX = {d: torch.finfo(d).max for d in (torch.float16, torch.bfloat16, torch.float32)}


@defop(paddle_types=("elementwise_div", "divide", "pd_op.divide"), method=("divide", "div"),
       inplace=True, promotes=True, tensor_args=_TENSORS)
def divide(x, y, name=None, *, rounding_mode=None, out=None):
    """Elementwise true division ``x / y``; integer inputs give a float result.

    Args:
        x (Tensor): dividend.
        y (Tensor|scalar): divisor.
        name (str, optional): unused.
        rounding_mode (str, optional): None (true division), ``'trunc'`` or ``'floor'``.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.divide(paddle.to_tensor([3.0]), paddle.to_tensor([2.0])).tolist()
        [1.5]
    """
    if type(x) is _T and type(y) is _T:
        if x.dtype is not y.dtype:
            x, y = promote_pair("divide", x, y)
        if (x.dtype in _LOW or y.dtype in _LOW) and rounding_mode is None:
            # no float16/bfloat16 CPU kernel, also where a 0-D operand of another dtype leaves
            # the result low (a number operand goes to scale; a bfloat16 program builds and runs)
            d = x.dtype if x.dtype is y.dtype else torch.result_type(x, y)
            if d in _LOW:
                kernel_dtypes("divide", x if x.dtype is d else y, _DIV_CPU_DTYPES,
                              static=_DIV_PROGRAM_DTYPES)
    else:
        if rounding_mode is None:
            _bool_operand_kernel("divide", x, y, _LOW, _DIV_CPU_DTYPES, _DIV_PROGRAM_DTYPES)
            if (type(x) is int or type(x) is float) and type(y) is _T and y.dtype in _LOW:
                # ``2 / low_x``: Paddle has no scalar kernel for a reflected division; the number
                # becomes a tensor of x's dtype, whose divide kernel the CPU lacks
                kernel_dtypes("divide", y, _DIV_CPU_DTYPES, static=_DIV_PROGRAM_DTYPES)
        x, y = _scalar_operand(x, y, True)
    if rounding_mode is None and _bool_operand(x) and _bool_operand(y):
        r = _bool_divide(x, y)
    elif rounding_mode is None:
        r = torch.div(x, y)
    elif rounding_mode in ("trunc", "floor"):
        if type(x) is _T and (x.dtype is torch.bool or x.is_complex()):
            # Paddle's trunc/floor kernels have none (TypeError while a program is built)
            kernel_dtypes("divide", x, _DIV_ROUNDING_DTYPES)
        r = _trunc_divide(x, y) if rounding_mode == "trunc" else torch.div(x, y, rounding_mode="floor")
        r = stopped(r)   # Paddle's rounding divisions have no backward (stop_gradient=True)
    else:
        raise ValueError(f"paddle.divide: 'rounding_mode' must be None, 'trunc' or 'floor', "
                         f"but received {rounding_mode!r}")
    return r if out is None else write_out(out, r)


def _bool_operand(v):
    return type(v) is bool or (type(v) is _T and v.dtype is torch.bool)


def _bool_divide(x, y):
    """``bool / bool`` (a Python bool counts: Paddle makes it a bool tensor): Paddle's bool
    kernel divides as integers, so the result is bool (``x`` itself for a True divisor) and a
    False divisor is an integer division by zero."""
    x, y = torch.as_tensor(x), torch.as_tensor(y)
    if not bool(y.all()):
        raise ZeroDivisionError("paddle.divide: integer division by zero (a False divisor of a bool tensor)")
    return torch.logical_and(x, y)


def _trunc_divide(x, y):
    """``x / y`` rounded toward zero. The integer quotient of a dtype's minimum by -1 traps on
    x86 (a crash, as Paddle's own kernel does): there the result is ``-x``, wrapped around."""
    if type(x) is not _T or x.is_floating_point() or x.is_complex():
        return torch.div(x, y, rounding_mode="trunc")
    if type(y) is not _T:
        return torch.neg(x) if y == -1 else torch.div(x, y, rounding_mode="trunc")
    if y.is_floating_point() or y.is_complex():
        return torch.div(x, y, rounding_mode="trunc")
    minus_one = y == -1
    return torch.where(minus_one, torch.neg(x), torch.div(x, y.masked_fill(minus_one, 1), rounding_mode="trunc"))


@defop(paddle_types=("elementwise_floordiv", "floor_divide", "pd_op.floor_divide"),
       inplace=True, differentiable=False, promotes=True)
def floor_divide(x, y, name=None, *, out=None):
    """Elementwise floor division ``x // y``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.floor_divide(paddle.to_tensor([7, -7]), paddle.to_tensor([2, 2])).tolist()
        [3, -4]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        x, y = _promoted("floor_divide", x, y, True)
    elif type(y) is not _T or type(x) is not _T:
        x, y = _scalar_operand(x, y, True)
    pair_kernel_dtypes("floor_divide", x, y, _NOT_BOOL, True, scalar_0d=True)   # (before the zero check, as Paddle)
    if type(y) is torch.Tensor and not (y.is_floating_point() or y.is_complex()) \
            and type(x) is not float and type(x) is not complex and bool((y == 0).any()):
        raise ZeroDivisionError("paddle.floor_divide: integer division by zero")
    r = torch.floor_divide(x, y)
    if r.requires_grad:  # no gradient flows through floor division in Paddle
        r = r.detach()
    return r if out is None else write_out(out, r)


@defop(paddle_types=("elementwise_mod", "remainder", "pd_op.remainder"),
       method=("remainder", "mod", "floor_mod"), inplace=True, promotes=True,
       tensor_args=("x",))   # (Paddle's parser takes a number ``y``, not a number ``x``)
def remainder(x, y, name=None, *, out=None):
    """Elementwise remainder with the sign of the divisor (Python's ``%``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.remainder(paddle.to_tensor([5, -5]), paddle.to_tensor([3, 3])).tolist()
        [2, 1]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        x, y = promote_pair("remainder", x, y)
    elif type(y) is not _T or type(x) is not _T:
        x, y = _scalar_operand(x, y, True)
    pair_kernel_dtypes("remainder", x, y, _POW_DTYPES, True, scalar_0d=True)  # (the same CPU kernels as pow)
    try:
        r = torch.remainder(x, y)
    except RuntimeError:
        if not any(type(v) is complex or (type(v) is _T and v.is_complex()) for v in (x, y)):
            raise
        r = _complex_remainder(x, y)
    return r if out is None else write_out(out, r)


def _complex_remainder(x, y):
    """Paddle's complex remainder: ``x - y * q``, with ``q`` the quotient ``x / y`` rounded
    half away from zero in its real and imaginary parts."""
    q = torch.div(x, y)
    if not q.is_complex():
        q = q.to(torch.complex64)
    rnd = lambda v: torch.sign(v) * torch.floor(v.abs() + 0.5)  # noqa: E731
    k = torch.complex(rnd(q.real), rnd(q.imag))
    if type(x) is _T and x.dtype is torch.bool:
        x = x.to(q.dtype)
    elif type(x) is bool:
        x = int(x)
    return x - y * k


@defop(amp="black", paddle_types=("elementwise_pow", "pow", "pd_op.pow", "pd_op.elementwise_pow"),
       inplace=_pow_inplace, tensor_args=("x",))   # ``2 ** x`` takes a number base
def pow(x, y, name=None, *, out=None):
    """Elementwise power ``x ** y``; ``y`` is a scalar or a Tensor.

    For an integer ``x`` and a float scalar ``y`` the exponent is truncated to an
    integer, so the result keeps ``x``'s integer dtype (as in Paddle).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.pow(paddle.to_tensor([2.0, 3.0]), 2).tolist()
        [4.0, 9.0]
    """
    if type(y) is _T:
        if type(x) is _T and x.dtype is not y.dtype:
            x, y = promote_pair("pow", x, y)
        elif type(x) is not _T:
            x, y = _scalar_operand(x, y)
    elif type(y) is float and type(x) is _T and not (x.is_floating_point() or x.is_complex()):
        y = int(y)
    elif type(y) is complex and type(x) is _T:
        raise TypeError("paddle.pow: 'y' must be a Python int or float, or a Tensor, but received "
                        "complex; use a complex Tensor exponent")
    if type(y) is _T or type(x) is not _T or x.dtype not in _POW_DTYPES:
        pair_kernel_dtypes("pow", x, y, _POW_TENSOR_DTYPES if type(y) is _T else _POW_DTYPES,
                           scalar_0d=True)
    if type(x) is _T and x.dtype in _LOW and type(y) in (int, float) and abs(y) > _LOW_MAX[x.dtype]:
        r = torch.pow(x.float(), y).to(x.dtype)  # an exponent float16 cannot hold: in float32
    elif type(y) is float and (y == 0.5 or y == -0.5) and type(x) is _T and x.is_floating_point():
        # torch computes these as sqrt/rsqrt, NaN at -inf; C's pow (Paddle's kernel) gives
        # inf and 0 there, and torch's pow with a tensor exponent follows it
        r = torch.pow(x, torch.tensor(y, dtype=x.dtype, device=x.device))
    else:
        r = torch.pow(x, y)
    return r if out is None else write_out(out, r)


def true_divide(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Elementwise true division ``input / other`` (same as :func:`divide`).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.true_divide(paddle.to_tensor([1, 3]), paddle.to_tensor([2, 2])).tolist()
        [0.5, 1.5]
    """
    return divide(input, other, out=out)


def _promoted(api, x, y, scalar_0d=False):
    """Two tensors of different dtypes cast to their common dtype; unlike torch, a 0-D
    float64 operand widens a float32 one (Paddle promotes by dtype only, for these ops)."""
    check_binary_dtypes(api, x, y, scalar_0d)
    d = torch.promote_types(x.dtype, y.dtype)
    return x.to(d), y.to(d)


# Paddle's CPU kernels: pow with a number exponent (also remainder's), pow with a Tensor one
# (elementwise_pow), maximum and minimum
_POW_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64, torch.complex64,
                         torch.complex128))
_POW_TENSOR_DTYPES = _POW_DTYPES | {torch.bfloat16}
_MAXIMUM_DTYPES = frozenset((torch.int32, torch.int64, torch.bfloat16, torch.float32, torch.float64))


def _binary_pair(api, x, y):
    """Two tensor operands of maximum/minimum/fmax/fmin, promoted: Paddle's argument parser
    rejects a Python number (ValueError)."""
    if type(x) is _T and type(y) is _T:
        if x.dtype is not y.dtype:
            return _promoted(api, x, y)
        return x, y
    arg, v, i = ("x", x, 0) if type(x) is not _T else ("y", y, 1)
    raise ValueError(f"paddle.{api}: argument '{arg}' (position {i}) must be Tensor, but got "
                     f"{type(v).__name__}")


@defop(paddle_types=("elementwise_max", "maximum", "pd_op.maximum"))
def maximum(x, y, name=None, *, out=None):
    """Elementwise maximum of ``x`` and ``y``; NaN wins (propagates).

    Where ``x == y`` the gradient is split equally between both inputs.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.maximum(paddle.to_tensor([1.0, 5.0]), paddle.to_tensor([3.0, 2.0])).tolist()
        [3.0, 5.0]
    """
    x, y = _binary_pair("maximum", x, y)
    pair_kernel_dtypes("maximum", x, y, _MAXIMUM_DTYPES)
    r = _MaxMinSplit.apply(x, y, True) if x.requires_grad or y.requires_grad else torch.maximum(x, y)
    return r if out is None else write_out(out, r)


@defop(paddle_types=("elementwise_min", "minimum", "pd_op.minimum"))
def minimum(x, y, name=None, *, out=None):
    """Elementwise minimum of ``x`` and ``y``; NaN wins (propagates).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.minimum(paddle.to_tensor([1.0, 5.0]), paddle.to_tensor([3.0, 2.0])).tolist()
        [1.0, 2.0]
    """
    x, y = _binary_pair("minimum", x, y)
    pair_kernel_dtypes("minimum", x, y, _MAXIMUM_DTYPES)
    r = _MaxMinSplit.apply(x, y, False) if x.requires_grad or y.requires_grad else torch.minimum(x, y)
    return r if out is None else write_out(out, r)


class _MaxMinSplit(torch.autograd.Function):
    """maximum/minimum with Paddle's gradient: the winner takes it, a tie splits it in half,
    and where either value is NaN neither input gets any (torch sends it to the NaN)."""

    @staticmethod
    def forward(ctx, x, y, is_max):  # type: ignore[override]
        ctx.save_for_backward(x, y)
        ctx.is_max = is_max
        return torch.maximum(x, y) if is_max else torch.minimum(x, y)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        x, y = ctx.saved_tensors
        x_wins = (x > y) if ctx.is_max else (x < y)
        y_wins = (y > x) if ctx.is_max else (y < x)
        half = (x == y).to(g.dtype) * 0.5
        gx = (g * (x_wins.to(g.dtype) + half)).sum_to_size(x.shape) if ctx.needs_input_grad[0] else None
        gy = (g * (y_wins.to(g.dtype) + half)).sum_to_size(y.shape) if ctx.needs_input_grad[1] else None
        return gx, gy, None


_FMINMAX_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64))


@defop(paddle_types=("fmax", "pd_op.fmax"))
def fmax(x, y, name=None):
    """Elementwise maximum that ignores NaN (the other value is taken).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.fmax(paddle.to_tensor([1.0, float('nan')]), paddle.to_tensor([3.0, 2.0])).tolist()
        [3.0, 2.0]
    """
    x, y = _binary_pair("fmax", x, y)
    kernel_dtypes("fmax", x, _FMINMAX_DTYPES)
    return _fminmax(x, y, True)


@defop(paddle_types=("fmin", "pd_op.fmin"))
def fmin(x, y, name=None):
    """Elementwise minimum that ignores NaN (the other value is taken).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.fmin(paddle.to_tensor([1.0, float('nan')]), paddle.to_tensor([3.0, 2.0])).tolist()
        [1.0, 2.0]
    """
    x, y = _binary_pair("fmin", x, y)
    kernel_dtypes("fmin", x, _FMINMAX_DTYPES)
    return _fminmax(x, y, False)


def _fminmax(x, y, is_max):
    # Paddle sends the whole gradient to x on ties (x >= y for fmax), unlike torch's split.
    if not (x.requires_grad or y.requires_grad):
        return torch.fmax(x, y) if is_max else torch.fmin(x, y)
    take_x = (x >= y) if is_max else (x <= y)
    take_x = take_x | torch.isnan(y)
    return torch.where(take_x, x, y)


# Paddle's CPU add_n kernel: no bool, int8, uint8 or int16 version
_ADD_N_DTYPES = frozenset({torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,
                           torch.float64, torch.complex64, torch.complex128})


@defop(paddle_types=("sum", "add_n", "pd_op.add_n"))
def add_n(inputs, name=None):
    """Sum a list of tensors of the same shape and dtype elementwise.

    Args:
        inputs (Tensor|list[Tensor]): the tensors to add.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> paddle.add_n([x, x, x]).tolist()
        [3.0, 6.0]
    """
    if type(inputs) is _T:
        kernel_dtypes("add_n", inputs, _ADD_N_DTYPES, "inputs")
        return inputs.clone()
    if inputs is None:   # Paddle's kernel lookup finds nothing to key on (TypeError in a program)
        raise NoKernelError("paddle.add_n: 'inputs' must be a Tensor or a list of Tensors, but received None")
    if not isinstance(inputs, (list, tuple)) or not all(type(t) is _T for t in inputs):
        # Paddle's argument parser (a program's wants Values: TypeError)
        bad = inputs if not isinstance(inputs, (list, tuple)) else next(t for t in inputs if type(t) is not _T)
        err = ValueError(f"paddle.add_n: argument 'inputs' (position 0) must be list of Tensors, but got "
                         f"{type(bad).__name__}")
        err.static_type = TypeError
        raise err
    if not inputs:
        raise ValueError("paddle.add_n: 'inputs' must be a Tensor or a non-empty list of Tensors, "
                         f"but received {inputs!r}")
    d = inputs[0].dtype
    for t in inputs[1:]:
        if t.dtype is not d:
            raise ValueError(f"paddle.add_n: all inputs must have the same dtype, but received "
                             f"{str(d).replace('torch.', '')} and {str(t.dtype).replace('torch.', '')}")
    for i, t in enumerate(inputs[1:], 1):   # no broadcasting, as in Paddle
        # (a program's placeholders stand for unknown sizes too: only their ranks must agree)
        if t.shape != inputs[0].shape and (t.device.type != "meta" or t.dim() != inputs[0].dim()):
            raise ValueError(f"paddle.add_n: all inputs must have the same shape, but input 0 has "
                             f"{list(inputs[0].shape)} and input {i} has {list(t.shape)}")
    kernel_dtypes("add_n", inputs[0], _ADD_N_DTYPES, "inputs")
    r = inputs[0]
    for t in inputs[1:]:
        r = r + t
    return r if len(inputs) > 1 else r.clone()


# the dtypes of Paddle's CPU kernel of increment
_INCREMENT_DTYPES = frozenset({torch.float32, torch.float64, torch.int32, torch.int64})


def _increment_inplace(x, value=1.0, name=None):
    if x.numel() > 1:  # (an empty tensor passes Paddle's check and stays empty)
        raise ValueError(f"paddle.increment: the input must have exactly one element, "
                         f"but it has {x.numel()}")
    kernel_dtypes("increment", x, _INCREMENT_DTYPES)
    return x.add_(value if x.is_floating_point() else int(value))


@defop("increment", paddle_types=("increment", "pd_op.increment"), inplace=_increment_inplace,
       program_inplace=True)
def _increment(x, value=1.0, name=None):
    # The op record (and its in-place twin ``increment_``, the one programs record);
    # the public ``increment`` below updates its input in place, as Paddle's does.
    if x.numel() > 1:  # (an empty tensor passes Paddle's check and stays empty)
        raise ValueError(f"paddle.increment: the input must have exactly one element, "
                         f"but it has {x.numel()}")
    kernel_dtypes("increment", x, _INCREMENT_DTYPES)
    return x + (value if x.is_floating_point() else int(value))


def increment(x: Tensor, value: float = 1.0, name: str | None = None) -> Tensor:
    """Add ``value`` in place to a one-element tensor and return that tensor.

    Integer tensors add ``int(value)``. As in Paddle, a leaf tensor that needs
    gradients may be incremented too (its gradient is unchanged by the update).

    Args:
        x (Tensor): a tensor with exactly one element.
        value (float, optional): the amount to add. Default 1.0.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: ``x`` itself, updated.

    Examples:
        >>> import pagaie as paddle
        >>> counter = paddle.zeros([1])
        >>> out = paddle.increment(counter)
        >>> counter.tolist(), out is counter
        ([1.0], True)
    """
    t = getattr(x, "_t", None)
    if t is not None and t.requires_grad and t.is_leaf:
        with torch.no_grad():
            _increment_inplace(t, value)
        return x
    return _increment.inplace(x, value, name)


increment.op_record = _increment.op_record  # type: ignore[attr-defined]
Tensor.increment = increment  # type: ignore[attr-defined]


# ``paddle.floor_divide`` / ``paddle.remainder`` (and their Tensor methods) turn a Python
# number ``y`` into a tensor before the kernel runs, unlike the ``//`` and ``%`` operators,
# which keep x's dtype (``int32 // 2`` is int32, ``paddle.floor_divide(int32, 2)`` int64).
_floor_divide_op, _remainder_op = floor_divide, remainder


def _number_dtype(v: bool | int | float) -> torch.dtype:
    """The dtype ``paddle.to_tensor`` gives a Python bool, int or float."""
    return torch.bool if type(v) is bool else torch.int64 if type(v) is int else _dt.default_float()


def _with_number_y(op, rule, no_complex=False):
    """``op`` (a binary op's API) with ``rule(x, y) -> (x, y)`` applied first when ``x`` is a
    tensor and ``y`` a Python bool/int/float; ``x`` and ``y`` may come by position or by
    keyword (``x=``/``input=``, ``y=``/``other=``). ``no_complex``: a Python complex ``y`` is
    the ValueError of Paddle's argument parser."""
    def api(*args, **kwargs):
        xk = next((k for k in ("x", "input") if k in kwargs), None)
        yk = next((k for k in ("y", "other") if k in kwargs), None)
        x = args[0] if args else kwargs.get(xk)
        y = args[1] if len(args) > 1 else kwargs.get(yk)
        if no_complex and type(y) is complex:
            raise ValueError(f"paddle.{op.__name__}: argument 'y' (position 1) must be Tensor, "
                             "but got complex")
        if type(y) in (bool, int, float) and isinstance(getattr(x, "dtype", None), _dt.DType):
            x, y = rule(x, y)
            args = (x, y, *args[2:])[:len(args)]
            if xk is not None and not args:
                kwargs[xk] = x
            if yk is not None and len(args) < 2:
                kwargs[yk] = y
        return op(*args, **kwargs)
    for attr in ("__signature__", "accepts_aliases", "op_record", "inplace"):
        setattr(api, attr, getattr(op, attr))
    return api


def _floor_divide_number(x, y):
    # Eager Paddle makes y a 0-D tensor of its default dtype and x widens to the common dtype;
    # for a value of a static program (a meta tensor here) its dtype inference keeps x's.
    if x._t.is_meta:
        return x, y
    d = _dt.to_torch_dtype(x.dtype)
    wide = torch.promote_types(d, _number_dtype(y))
    return (x if wide is d else x.astype(_dt.from_torch_dtype(wide))), y


def _remainder_number(x, y):
    # y is cast to x's dtype (a cast to an integer dtype truncates toward zero)
    d = _dt.to_torch_dtype(x.dtype)
    return x, (bool(y) if d is torch.bool else y if d.is_floating_point or d.is_complex else int(y))


floor_divide = _with_number_y(_floor_divide_op, _floor_divide_number)
floor_divide.__name__ = floor_divide.__qualname__ = "floor_divide"
floor_divide.__doc__ = """Elementwise floor division ``x // y``.

    A Python number ``y`` counts as a 0-D tensor of its default dtype (int64 for an int,
    the default float dtype for a float), so ``floor_divide(int32_x, 2)`` is int64 and
    ``floor_divide(float16_x, 2.5)`` is float32, as in Paddle's eager mode. The ``//``
    operator, and a static program, keep ``x``'s dtype instead.

    Args:
        x (Tensor): the dividend.
        y (Tensor|int|float): the divisor.
        name (str, optional): unused, for Paddle compatibility.
        out (Tensor, optional): also store the result here.

    Returns:
        Tensor: the floored quotient.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.floor_divide(paddle.to_tensor([7, -7]), paddle.to_tensor([2, 2])).tolist()
        [3, -4]
        >>> print(paddle.floor_divide(paddle.to_tensor([7, -7], 'int32'), 2).dtype)
        paddle.int64
    """
remainder = _with_number_y(_remainder_op, _remainder_number, no_complex=True)
remainder.__name__ = remainder.__qualname__ = "remainder"
remainder.__doc__ = """Elementwise remainder with the sign of the divisor (Python's ``%``).

    A Python number ``y`` is first cast to ``x``'s dtype, as Paddle does (``remainder(int_x,
    2.5)`` divides by 2). The ``%`` operator promotes instead (``int_x % 2.5`` is float).

    Args:
        x (Tensor): the dividend.
        y (Tensor|int|float): the divisor.
        name (str, optional): unused, for Paddle compatibility.
        out (Tensor, optional): also store the result here.

    Returns:
        Tensor: the remainder.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.remainder(paddle.to_tensor([5, -5]), paddle.to_tensor([3, 3])).tolist()
        [2, 1]
        >>> paddle.remainder(paddle.to_tensor([5, -5]), 2.5).tolist()
        [1, 1]
    """
Tensor.floor_divide = floor_divide  # type: ignore[attr-defined]
Tensor.remainder = Tensor.mod = Tensor.floor_mod = remainder  # type: ignore[attr-defined]


# Plain aliases (same record, other public names).
sub = subtract
mul = multiply
div = divide
mod = floor_mod = remainder
subtract_ = sub_ = subtract.inplace
multiply_ = mul_ = multiply.inplace
divide_ = div_ = divide.inplace
floor_divide_ = _floor_divide_op.inplace
remainder_ = mod_ = floor_mod_ = _remainder_op.inplace
pow_ = pow.inplace
for _alias, _fn in (("sub", subtract), ("sub_", subtract_), ("mul_", multiply_), ("div_", divide_),
                    ("mod_", remainder_), ("floor_mod_", remainder_)):
    setattr(Tensor, _alias, _fn)


def _pow_operand(other, op):
    """The other operand of ``**``: a number, a Tensor or a numpy array (made a tensor)."""
    if isinstance(other, (Tensor, numbers.Number)):
        return other
    if isinstance(other, np.ndarray) and other.dtype.kind in "biufc":
        return wrap(torch.from_numpy(other.copy()))
    raise TypeError(f"paddle.pow: {op}(): argument (position 1) must be int, float, bool or "
                    f"Tensor, but got {type(other).__name__}")


_pow_number_base = number_api(pow)


def _rpow_operator(self, other):
    other = read_numpy_number(self, other, "pow", True)
    if type(other) is int and self._t.dtype is torch.bool:  # (paddle.pow has no bool kernel)
        return _pow_number_base(other, self.astype("int64"))
    if type(other) in (float, complex) and not (self._t.is_floating_point() or self._t.is_complex()):
        # ``2.5 ** int_x`` makes x float32 (complex64 for a complex base) first, whatever the
        # default dtype, as Paddle's operator does, so the integer dtypes paddle.pow lacks
        # (bool, int8...) work
        self = self.astype("float32" if type(other) is float else "complex64")
    return _pow_number_base(_pow_operand(other, "__rpow__"), self)


def _pow_operator(self, other):
    other = read_numpy_number(self, other, "pow")
    if other is NotImplemented:
        return other
    # ``int_tensor ** 2.5`` promotes to float32 whatever the default dtype, as Paddle's other
    # operators do (unlike paddle.pow, which truncates the exponent).
    if type(other) is float and not (self._t.is_floating_point() or self._t.is_complex()):
        return pow(self.astype("float32"), other)
    if type(other) is int and self._t.dtype is torch.bool:  # (paddle.pow has no bool kernel)
        return pow(self.astype("int64"), other)
    if self._t.dtype is torch.bfloat16 and type(other) in (bool, int, float):
        # ``**`` makes the number a tensor of x's dtype (elementwise_pow, which has bfloat16
        # kernels) for a bool, and in a program for any number; eagerly an int/float goes to
        # pow's scalar kernel, which has no bfloat16 CPU version
        if type(other) is not bool:
            kernel_dtypes("pow", self._t, _POW_DTYPES, static=_POW_TENSOR_DTYPES)
        return pow(self, wrap(torch.tensor(other, dtype=torch.bfloat16)))
    if type(other) is complex:  # paddle.pow refuses a complex number; ``**`` takes it
        d = torch.complex128 if self._t.dtype in (torch.float64, torch.complex128) else torch.complex64
        return pow(self if self._t.dtype is d else self.astype(d), wrap(torch.tensor(other, dtype=d)))
    return pow(self, _pow_operand(other, "__pow__"))


for _name, _fn in (("add", add), ("sub", subtract), ("mul", multiply), ("truediv", divide),
                   ("div", divide), ("floordiv", _floor_divide_op), ("mod", _remainder_op)):
    setattr(Tensor, f"__{_name}__", binary_operator(_fn))
    setattr(Tensor, f"__r{_name}__", binary_operator(_fn, reflected=True))
Tensor.__pow__ = _pow_operator


def _dynamic() -> bool:
    from pagaie.static.framework import in_dynamic_mode
    return in_dynamic_mode()


def _number_as_shape1(op):
    """``//`` with a Python number: Paddle's eager operator makes the number a ``[1]``-shaped
    tensor first, so a 0-D Tensor's quotient has shape ``[1]`` (also in ``to_static`` code, which
    runs in dynamic mode; the other operators, and ``//`` in static mode, keep 0-D)."""
    def floordiv(self, other):
        r = op(self, other)
        if type(other) in (int, float) and len(r.shape) == 0 and _dynamic():
            return r.reshape([1])
        return r
    floordiv.__name__ = floordiv.__qualname__ = op.__name__
    floordiv.__doc__ = op.__doc__
    return floordiv


Tensor.__floordiv__ = _number_as_shape1(Tensor.__floordiv__)
Tensor.__rfloordiv__ = _number_as_shape1(Tensor.__rfloordiv__)
Tensor.true_divide = true_divide
Tensor.__rpow__ = _rpow_operator
