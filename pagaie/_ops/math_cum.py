"""Cumulative ops (cumsum, cumprod, cummax, logcumsumexp), differences and integration
(diff, trapezoid), renorm and reduce_as."""
from __future__ import annotations

import math
import numbers

import numpy as np
import torch

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core.bad_input import type_name
from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import (LOW_FLOATS, dtype_name, kernel_dtypes, no_low_float_kernel, norm_axis,
                                  scalar_axis, torch_dtype, write_out)

_T = torch.Tensor

__all__ = ["cumsum", "cumsum_", "cumprod", "cumprod_", "cummax", "cummin", "logcumsumexp", "diff",
           "trapezoid", "cumulative_trapezoid", "renorm", "renorm_", "reduce_as"]

_SMALL_INTS = (torch.int32, torch.int16, torch.int8, torch.uint8)


def _axis_arg(axis, api, lenient=False):
    """``axis`` as Paddle's argument parser reads it (None, or an int; ``lenient`` as in
    :func:`_cum_axis`): the TypeError of a wrong type comes before any dtype or range check."""
    if axis is None or type(axis) is int:
        return axis
    if isinstance(axis, _T):
        if axis.numel() != 1 and not lenient:   # Paddle's int parser takes one element only
            raise TypeError(f"paddle.{api}: 'axis' must be an int, but received a Tensor of "
                            f"{axis.numel()} elements")
        return int(axis.item())
    if lenient and type(axis) is np.ndarray:
        return scalar_axis(axis)  # Paddle's scalar parser reads an array's first value
    if isinstance(axis, numbers.Integral) and (lenient or not isinstance(axis, bool)):
        return int(axis)
    if lenient and isinstance(axis, numbers.Real) and math.isfinite(axis):
        return int(axis)
    if not (lenient and isinstance(axis, numbers.Real)):  # (a NaN axis is out of range)
        raise TypeError(f"paddle.{api}: 'axis' must be an int, but received "
                        f"{type(axis).__name__} {axis!r}")
    return axis


def _cum_axis(x, axis, api, error=IndexError, lenient=False, zero_d=(-1, 0)):
    """Flatten for ``axis=None`` (0-D inputs become 1-D); otherwise check the axis
    (a 0-D input accepts the axes in ``zero_d`` and stays 0-D). ``lenient`` (cumsum) takes any
    real number and truncates it, as Paddle's cumsum does (``axis=1.0``); the others take
    integers only."""
    if axis is None:
        return x.reshape(-1), 0
    axis = _axis_arg(axis, api, lenient)
    if x.dim() == 0:
        if axis not in zero_d:
            raise ValueError(f"paddle.{api}: 'axis' must be {' or '.join(map(str, zero_d))} for a 0-D "
                             f"input, but got {axis}")
        return x, 0
    if not -x.dim() <= axis < x.dim():
        raise error(f"paddle.{api}: 'axis' is out of range (expected to be in range of "
                    f"[{-x.dim()}, {x.dim()}), but got {axis})")
    return x, axis


def _check_not_bool(x, api):
    # Paddle has no bool kernel here: its eager mode raises RuntimeError (NotFound).
    if x.dtype is torch.bool:
        raise NoKernelError(f"paddle.{api}: bool tensors are not supported; cast to an integer or "
                            "float dtype first")


_NO_CUM_KERNEL = frozenset((torch.uint8, torch.int8, torch.int16))


def _check_not_small_int(x, api):
    # cumprod, cummax and cummin have no uint8/int8/int16 kernels either (cumsum has)
    if x.dtype in _NO_CUM_KERNEL:
        raise NoKernelError(f"paddle.{api}: 'x' of dtype {str(x.dtype)[6:]} is not supported (Paddle's "
                            "kernel takes no uint8, int8 or int16 tensors)")


def _flat_store(x, r):
    """In-place result over the flattened input (``axis=None``): ``x`` takes its shape, as in Paddle."""
    if r.shape != x.shape and not x.requires_grad:
        x.data = r
        return x
    return r


def _same_dtype(r, x, dtype):
    """``cumsum_`` without ``dtype`` keeps the input's dtype (no int64 accumulation for int32)."""
    return r.to(x.dtype) if dtype is None and r.dtype is not x.dtype else r


@defop(amp="black", paddle_types=("cumsum", "pd_op.cumsum"),
       inplace=lambda x, axis=None, dtype=None, name=None: _flat_store(
           x, _same_dtype(cumsum.op_record.kernel(x, axis, dtype), x, dtype)))
def cumsum(x, axis=None, dtype=None, name=None, *, out=None):
    """Cumulative sum along ``axis`` (over the flattened tensor when ``axis`` is None).

    int32, int16, int8 and uint8 inputs accumulate (and return) in int64, as in Paddle,
    unless ``dtype`` names the type.

    Args:
        x (Tensor): the input tensor.
        axis (int, optional): the axis; None flattens first.
        dtype (str, optional): cast the input to this dtype first.
        name (str, optional): unused.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cumsum(paddle.to_tensor([[1, 2], [3, 4]]), axis=1).tolist()
        [[1, 3], [3, 7]]
    """
    if dtype is not None:
        x = x.to(torch_dtype(dtype, "cumsum"))
    axis = _axis_arg(axis, "cumsum", lenient=True)
    _check_not_bool(x, "cumsum")
    if x.dtype in LOW_FLOATS:
        no_low_float_kernel("cumsum", x)
    x, axis = _cum_axis(x, axis, "cumsum", lenient=True)
    small = dtype is None and x.dtype in _SMALL_INTS  # an explicit dtype is kept, as in Paddle
    r = torch.cumsum(x, axis, dtype=torch.int64 if small else x.dtype)
    return r if out is None else write_out(out, r)


@defop(amp="black", paddle_types=("cumprod", "pd_op.cumprod"),
       inplace=lambda x, dim=None, dtype=None, name=None: _flat_store(
           x, cumprod.op_record.kernel(x, dim, dtype=dtype)))
def cumprod(x, dim=None, *, dtype=None, out=None, name=None):
    """Cumulative product along ``dim`` (over the flattened tensor when ``dim`` is None).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cumprod(paddle.to_tensor([1.0, 2.0, 3.0]), dim=0).tolist()
        [1.0, 2.0, 6.0]
    """
    if not isinstance(x, torch.Tensor):
        kind = type(x).__name__
        if dim is None:
            # Paddle flattens x first, in Python (numpy's flatten takes no axes); in a program too
            err = (TypeError if isinstance(x, np.ndarray) else AttributeError)(
                f"paddle.cumprod: 'x' must be a Tensor, but received {kind}, which cannot be flattened")
            err.static_type = type(err)
            raise err
        raise ValueError(f"paddle.cumprod: argument 'x' (position 0) must be Tensor, but got {kind}")
    if dtype is not None:
        x = x.to(torch_dtype(dtype, "cumprod"))
    dim = _axis_arg(dim, "cumprod")
    _check_not_bool(x, "cumprod")
    _check_not_small_int(x, "cumprod")
    if x.dtype in LOW_FLOATS:
        no_low_float_kernel("cumprod", x)
    x, dim = _cum_axis(x, dim, "cumprod", ValueError, zero_d=(0,))  # Paddle's cumprod: no -1 on 0-D
    r = torch.cumprod(x, dim, dtype=x.dtype)
    return r if out is None else write_out(out, r)


def _cum_extreme(x, axis, dtype, api, fn):
    if axis is not None and type(x) is not torch.Tensor:
        # with an axis Paddle hands ``x`` straight to its argument parser (no flatten first)
        raise ValueError(f"paddle.{api}: argument 'x' (position 0) must be Tensor, but got "
                         f"{type_name(x)}")
    axis = _axis_arg(axis, api)
    _check_not_bool(x, api)
    _check_not_small_int(x, api)
    if x.dtype in LOW_FLOATS:
        no_low_float_kernel(api, x)
    if x.is_complex():  # no Paddle kernel (NotFound: RuntimeError), checked before 'dtype'
        raise NoKernelError(f"paddle.{api}: {str(x.dtype)[6:]} tensors are not supported; 'x' must "
                           "be a real number tensor")
    idt = torch_dtype(dtype, api)
    if idt not in (torch.int32, torch.int64):
        err = ValueError(f"paddle.{api}: 'dtype' of the indices must be int32 or int64, "
                         f"but received {dtype}")
        err.static_type = TypeError   # the static API's dtype check
        raise err
    x, axis = _cum_axis(x, axis, api)
    v, i = fn(x, axis)
    return v, i.to(idt)


@defop(paddle_types=("cummax", "pd_op.cummax"))
def cummax(x, axis=None, dtype='int64', name=None):
    """Cumulative maximum along ``axis`` and the index where each running maximum was found.

    Args:
        x (Tensor): the input tensor.
        axis (int, optional): the axis; None flattens first.
        dtype (str, optional): dtype of the indices, ``'int32'`` or ``'int64'`` (default).

    Returns:
        tuple(Tensor, Tensor): the running maxima and their indices.

    Examples:
        >>> import pagaie as paddle
        >>> v, i = paddle.cummax(paddle.to_tensor([1.0, 3.0, 2.0, 3.0]))
        >>> v.tolist(), i.tolist()
        ([1.0, 3.0, 3.0, 3.0], [0, 1, 1, 3])
    """
    return _cum_extreme(x, axis, dtype, "cummax", torch.cummax)


@defop(paddle_types=("cummin", "pd_op.cummin"))
def cummin(x, axis=None, dtype='int64', name=None):
    """Cumulative minimum along ``axis`` and the index where each running minimum was found.

    Examples:
        >>> import pagaie as paddle
        >>> v, i = paddle.cummin(paddle.to_tensor([3.0, 1.0, 2.0]))
        >>> v.tolist(), i.tolist()
        ([3.0, 1.0, 1.0], [0, 1, 1])
    """
    return _cum_extreme(x, axis, dtype, "cummin", torch.cummin)


# Paddle's CPU kernels (float32 and float64; an integer input is cast to float first)
_LOGCUMSUMEXP_DTYPES = frozenset((torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64,
                                  torch.float32, torch.float64))


@defop(amp="promote", paddle_types=("logcumsumexp", "pd_op.logcumsumexp"), int_autocast=True)
def logcumsumexp(x, axis=None, dtype=None, name=None):
    """Cumulative ``log(sum(exp(x)))`` along ``axis``, computed stably.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logcumsumexp(paddle.to_tensor([0.0, 0.0], 'float64')).numpy().round(4).tolist()
        [0.0, 0.6931]
    """
    if dtype is not None:
        x = x.to(torch_dtype(dtype, "logcumsumexp"))
    axis = _axis_arg(axis, "logcumsumexp")
    if x.dtype is torch.bool or x.is_complex():
        # Paddle has no kernel for these (RuntimeError); a real result would drop the
        # imaginary part.
        raise NoKernelError(f"paddle.logcumsumexp: {str(x.dtype)[6:]} tensors are not supported; "
                           "'x' must be a float or integer tensor")
    kernel_dtypes("logcumsumexp", x, _LOGCUMSUMEXP_DTYPES)
    if not x.is_floating_point():  # integers are computed in the default float dtype
        x = x.to(torch.get_default_dtype())
    x, axis = _cum_axis(x, axis, "logcumsumexp")
    # Paddle's running sum starts from the dtype's lowest finite value, so -inf inputs count
    # as that value: a prefix of only -inf gives it (not -inf), and their gradient is 0
    # (torch's backward of -inf is NaN)
    return torch.logcumsumexp(x.clamp(min=torch.finfo(x.dtype).min), axis)


@defop(paddle_types=("diff",))
def diff(x, n=1, axis=-1, prepend=None, append=None, name=None, *, out=None):
    """The ``n``-th forward difference along ``axis`` (``x[i+1] - x[i]``; xor for bool).

    Args:
        x (Tensor): the input tensor.
        n (int, optional): how many times to difference. Default 1.
        axis (int, optional): the axis. Default -1.
        prepend (Tensor, optional): values put before ``x`` along ``axis`` first.
        append (Tensor, optional): values put after ``x`` along ``axis`` first.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.diff(paddle.to_tensor([1, 4, 9, 16])).tolist()
        [3, 5, 7]
    """
    if x.dim() == 0:  # Paddle fails indexing the shape: IndexError
        raise IndexError("paddle.diff: 'x' must be at least 1-D, but received a 0-D tensor")
    # Paddle reads the axis' size from the shape first (an axis past the last one is its
    # IndexError) unless it concatenates ``prepend``/``append`` first (then ValueError)
    past_end = isinstance(axis, int) and axis >= x.dim() and prepend is None and append is None
    axis = norm_axis(axis, x.dim(), "diff", error=IndexError if past_end else ValueError)
    kernel_dtypes("diff", x, _DIFF_DTYPES, static=_DIFF_STATIC_DTYPES)   # (a composite in programs)
    if isinstance(n, np.integer):
        n = int(n)   # Paddle counts with a numpy integer as with an int
    if n < 1:
        raise ValueError(f"paddle.diff: 'n' must be a positive int, but received {n}")
    if not isinstance(n, int):  # Paddle takes a float 1.0 and fails counting past it: TypeError
        if n != 1:
            raise TypeError(f"paddle.diff: 'n' must be an int, but received {type(n).__name__} {n!r}")
        n = 1
    for arg, t in (("prepend", prepend), ("append", append)):
        if t is not None and t.dtype is not x.dtype:  # Paddle concatenates them: no promotion
            raise ValueError(f"paddle.diff: '{arg}' must have the dtype of 'x' ({dtype_name(x)}), "
                             f"but received {dtype_name(t)}")
    r = torch.diff(x, n, axis, prepend, append)
    return r if out is None else write_out(out, r)


_DIFF_DTYPES = frozenset((torch.bool, torch.int16, torch.int32, torch.int64, torch.bfloat16, torch.float32,
                          torch.float64, torch.complex64, torch.complex128))


_DIFF_STATIC_DTYPES = _DIFF_DTYPES | {torch.uint8, torch.int8}


def _float_name(t):
    return t.is_floating_point() and t.dtype is not torch.bfloat16


_TRAPZ_CPU_DTYPES = frozenset({torch.float32, torch.float64})


def _trapz(y, x, dx, axis, api, cumulative):
    """The trapezoidal rule as Paddle composes it: ``0.5 * sum((y[1:] + y[:-1]) * d)`` with
    ``d`` the spacing ``dx`` (a number or a 0-/1-D tensor, 1.0 by default) or ``diff(x)``
    (a 1-D ``x`` lies along ``axis``); ``d`` broadcasts and promotes as a multiplication."""
    if x is not None and dx is not None:
        raise ValueError(f"paddle.{api}: not permitted to specify both 'x' and 'dx'")
    for arg, t in (("y", y), ("x", x)):
        if t is not None and not _float_name(t):
            raise TypeError(f"paddle.{api}: '{arg}' must be a float16, float32 or float64 Tensor, "
                            f"but received {dtype_name(t)}")
    if type(axis) is int and not -y.dim() <= axis < y.dim():  # Paddle indexes y's shape: IndexError
        raise IndexError(f"paddle.{api}: 'axis' is out of range (expected to be in range of "
                         f"[{-y.dim()}, {y.dim()}), but got {axis})")
    axis = norm_axis(axis, y.dim(), api, error=IndexError)
    if y.dtype is torch.float16:   # Paddle's composite reaches a CPU kernel without float16
        kernel_dtypes(api, y, _TRAPZ_CPU_DTYPES, "y")
    if x is not None and x.dtype is torch.float16:   # (its diff: no float16 CPU subtract)
        kernel_dtypes(api, x, _TRAPZ_CPU_DTYPES, "x")
    if x is None:
        if dx is None:
            dx = 1.0
        if type(dx) is not _T:
            dx = torch.tensor(dx, device=y.device, dtype=torch.get_default_dtype()
                              if isinstance(dx, float) else None)
        if dx.dim() > 1:
            raise ValueError(f"paddle.{api}: 'dx' must be a scalar, but received a Tensor of shape "
                             f"{list(dx.shape)}")
        d = dx
    elif x.dim() == 1:
        d = torch.diff(x)
        shape = [1] * y.dim()
        shape[axis] = d.shape[0]
        d = d.reshape(shape)
    else:
        d = torch.diff(x, dim=axis)
    n = max(y.shape[axis] - 1, 0)
    pairs = y.narrow(axis, min(1, y.shape[axis]), n) + y.narrow(axis, 0, n)
    try:
        broadcast_shapes(pairs.shape, d.shape)
    except RuntimeError:
        raise ValueError(f"paddle.{api}: the spacing of shape {list(d.shape)} does not broadcast "
                         f"with the {n} intervals of 'y' (shape {list(y.shape)}) along axis "
                         f"{axis}") from None
    prod = pairs * d
    return 0.5 * (torch.cumsum(prod, axis) if cumulative else torch.sum(prod, axis))


@defop(paddle_types=("trapezoid",))
def trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """Integrate ``y`` along ``axis`` with the trapezoidal rule.

    Args:
        y (Tensor): the values to integrate (float16, float32 or float64).
        x (Tensor, optional): the sample points, ``[y.shape[axis]]`` or ``y``'s shape; else
            spacing ``dx``.
        dx (float, optional): the constant spacing (1.0 when neither ``x`` nor ``dx``).
        axis (int, optional): the axis. Default -1.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.trapezoid(paddle.to_tensor([1.0, 2.0, 4.0])).item()
        4.5
    """
    return _trapz(y, x, dx, axis, "trapezoid", False)


@defop(paddle_types=("cumulative_trapezoid",))
def cumulative_trapezoid(y, x=None, dx=None, axis=-1, name=None):
    """Cumulative trapezoidal integration of ``y`` along ``axis`` (arguments as :func:`trapezoid`).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cumulative_trapezoid(paddle.to_tensor([1.0, 2.0, 4.0])).tolist()
        [1.5, 4.5]
    """
    return _trapz(y, x, dx, axis, "cumulative_trapezoid", True)


@defop(amp="black", paddle_types=("renorm", "pd_op.renorm"), inplace=True)
def renorm(x, p, axis, max_norm):
    """Rescale each slice along ``axis`` whose ``p``-norm exceeds ``max_norm`` down to ``max_norm``.

    Args:
        x (Tensor): the input tensor.
        p (float): the norm order.
        axis (int): the axis that indexes the slices.
        max_norm (float): the largest allowed norm.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[3.0, 4.0], [0.3, 0.4]])
        >>> paddle.renorm(x, 2, 0, 1.0).tolist()
        [[0.6000000238418579, 0.800000011920929], [0.30000001192092896, 0.4000000059604645]]
    """
    if not -x.dim() <= axis < x.dim():
        raise ValueError(f"paddle.renorm: 'axis' must be in [{-x.dim()}, {x.dim()}), but received {axis}")
    if not x.is_floating_point():  # no Paddle kernel (NotFound: RuntimeError)
        raise NoKernelError(f"paddle.renorm: {str(x.dtype)[6:]} tensors are not supported; 'x' must be "
                            "a float tensor")
    kernel_dtypes("renorm", x, _LOGCUMSUMEXP_DTYPES)  # (float32 and float64 here)
    if not p > 0:
        raise ValueError(f"paddle.renorm: 'p' must be positive, but received {p}")
    if not max_norm >= 0:
        raise ValueError(f"paddle.renorm: 'max_norm' must be non-negative, but received {max_norm}")
    # Paddle's attributes are float32; a 1-D tensor's elements are slices of their own
    return _Renorm.apply(x, float(np.float32(p)), axis % x.dim(), float(np.float32(max_norm)))


class _Renorm(torch.autograd.Function):
    """Paddle's renorm kernels: the slice sums ``S = sum |x|^p`` and norms ``N = S^(1/p)``
    give the factor ``max_norm / N`` where ``N > max_norm`` (no epsilon, unlike torch's); the
    gradient is ``factor * g - sum(x * g) * max_norm * S^(-1-1/p) * |x|^(p-1) * sign(x)``
    (``sign(0)`` is 1), in that order."""

    @staticmethod
    def forward(ctx, x, p, axis, max_norm):  # noqa: D102
        dims = [d for d in range(x.dim()) if d != axis]
        s = x.abs().pow(p)
        if dims:
            s = s.sum(dims, keepdim=True)
        n = s.pow(1.0 / p)
        over = n > max_norm
        factor = torch.where(over, max_norm / n, torch.ones_like(n))
        ctx.save_for_backward(x, s, factor, over)
        ctx.p, ctx.dims, ctx.max_norm = p, dims, max_norm
        return torch.where(factor < 1.0, factor * x, x)

    @staticmethod
    def backward(ctx, g):  # noqa: D102
        x, s, factor, over = ctx.saved_tensors
        p, dims = ctx.p, ctx.dims
        power = torch.where(over, s.pow(-1.0 - 1.0 / p) * -1 * ctx.max_norm, torch.zeros_like(s))
        w = x * g
        if dims:
            w = w.sum(dims, keepdim=True)
        sign = torch.where(x >= 0, 1.0, -1.0).to(x.dtype)
        return factor * g + w * power * x.abs().pow(p - 1.0) * sign, None, None, None


@defop(amp="black", paddle_types=("reduce_as", "pd_op.reduce_as"))
def reduce_as(x, target, name=None):
    """Sum ``x`` over its broadcast dimensions so that it takes ``target``'s shape.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.reduce_as(paddle.ones([2, 3]), paddle.ones([3])).tolist()
        [2.0, 2.0, 2.0]
    """
    shape = list(target.shape)
    lead = x.dim() - len(shape)
    if lead < 0 or any(s not in (1, d) for s, d in zip(shape, x.shape[lead:])):
        raise ValueError(f"paddle.reduce_as: cannot reduce a tensor of shape {list(x.shape)} to "
                         f"the shape {shape}")
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape) if s == 1 and x.shape[lead + i] != 1]
    # int32 and bool sum as int64; every other dtype (int8/int16/uint8 too) stays, and so
    # does every dtype when there is nothing to reduce
    dt = torch.int64 if x.dtype in (torch.int32, torch.bool) else x.dtype
    r = torch.sum(x, dims, dtype=dt) if dims else x.clone()
    return r.reshape(shape)


cumsum_ = cumsum.inplace
cumprod_ = cumprod.inplace
renorm_ = renorm.inplace
