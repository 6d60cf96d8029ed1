"""Reductions: sum, mean, prod, max/min, all/any, logsumexp, nan-aware sums and counts.

All follow Paddle: ``axis`` is None (every axis), an int, or a list/tuple of ints (an
empty list also means every axis); a full reduction gives a 0-D tensor; ``keepdim``
keeps reduced axes with size 1.
"""
from __future__ import annotations

import builtins
import numbers

import numpy as np
import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import flag_grad
from pagaie._ops._helpers import (ALL_DTYPES, SMALL_INTS, dense_only, kernel_dtypes, no_small_int_kernel, parsed_dtype, torch_dtype,
                                  write_out)

_T = torch.Tensor

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "all", "any", "logsumexp", "nansum",
           "nanmean", "count_nonzero"]

# Paddle's default accumulation dtype of sum: int32 and bool become int64, the rest stay.
_SUM_DTYPE = {torch.int32: torch.int64, torch.bool: torch.int64, torch.int8: torch.int8,
              torch.int16: torch.int16, torch.uint8: torch.uint8}


_F = (torch.float32, torch.float64)
_C = (torch.complex64, torch.complex128)
_I = (torch.int32, torch.int64)
# The dtypes Paddle's CPU kernels take (another is its NotFound) and, where they differ, the
# ones its static API lets a program record (bfloat16 passes there, to fail when it runs).
_MEAN_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.float16, torch.bfloat16}
_MEAN_STATIC = _MEAN_DTYPES | {torch.bfloat16}
_PROD_DTYPES = frozenset(_I + _F + _C)
_EXTREME_DTYPES = frozenset(_I + _F)
_EXTREME_STATIC = {"max": _EXTREME_DTYPES | {torch.bfloat16}, "min": _EXTREME_DTYPES | {torch.bfloat16}}
# integers are cast to float32 first
_LOGSUMEXP_DTYPES = frozenset((torch.int8, torch.uint8, torch.int16) + _I + _F)
_NANSUM_DTYPES = frozenset(_I + _F + _C)
_NAN_STATIC = {"nansum": frozenset(_I + _F), "nanmean": frozenset(_F)}
# all/any: no int8/uint8/int16, float16 or bfloat16 kernel on the CPU, nor in the static check
_ALL_ANY_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.float16, torch.bfloat16}


# Paddle's argument parser takes a multi-axis ``axis`` for these only as a list or tuple
_LIST_AXIS_ONLY = frozenset({"amax", "amin", "all", "any", "logsumexp"})


def _tensor_axis(t):
    """The axis or axes a Tensor ``axis`` holds: Paddle reads its values as ints, whatever
    the tensor's dtype (a float 0-D tensor is taken) or rank (a 2-D one is flattened)."""
    t = t.detach().to(torch.int64)
    return t.item() if t.dim() == 0 else t.reshape(-1).tolist()


def _axes(axis, ndim, api):
    """Normalise ``axis`` to None (all axes) or a tuple of non-negative ints."""
    if axis is None:
        return None
    if isinstance(axis, _T):  # a 0-D tensor is one axis, a 1-D tensor a list of axes
        if axis.numel() > 1 and api in _LIST_AXIS_ONLY:
            raise TypeError(f"paddle.{api}: 'axis' must be an int or a list or tuple of ints, but "
                            f"received a Tensor of shape {list(axis.shape)}")
        axis = _tensor_axis(axis)
    elif type(axis) is np.ndarray and axis.dtype.kind in "iu":
        axis = axis.tolist()  # read as a list (a 0-D array as an int), as in Paddle
    if type(axis) is not int and isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
        axis = int(axis)  # a numpy integer, as Paddle's argument parser takes it
    if type(axis) is int:
        n = ndim if ndim else 1
        if not -n <= axis < n:
            raise ValueError(f"paddle.{api}: 'axis' must be in the range [{-n}, {n}), but received "
                             f"{axis} (input has {ndim} dimension(s))")
        return (axis % n,) if ndim else None
    if not isinstance(axis, (list, tuple)):
        raise TypeError(f"paddle.{api}: 'axis' must be None, an int or a list of ints, but received "
                        f"{type(axis).__name__}")
    if len(axis) == 0:
        return None
    n = ndim if ndim else 1
    out = []
    for a in axis:
        if isinstance(a, bool) or not isinstance(a, (numbers.Integral, _T)):
            raise TypeError(f"paddle.{api}: 'axis' must be a list of ints, but received "
                            f"{type(a).__name__} {a!r} in {list(axis)}")
        a = int(a)
        if not -n <= a < n:
            raise ValueError(f"paddle.{api}: 'axis' must be in the range [{-n}, {n}), but received "
                             f"{a} (input has {ndim} dimension(s))")
        out.append(a % n)
    if len(set(out)) != len(out):
        raise ValueError(f"paddle.{api}: 'axis' contains duplicate dimensions: {list(axis)}")
    return tuple(out) if ndim else None


def _check_nonempty(x, dims, api):
    if x.numel() == 0:
        sizes = x.shape if dims is None else [x.shape[d] for d in dims]
        if 0 in sizes:
            raise ValueError(f"paddle.{api}: cannot reduce along an axis of size 0 "
                             f"(input shape {list(x.shape)})")


def _untracked_sum(r: _T) -> _T:
    """An integer or bool sum of a tensor that needs gradients: torch cannot track it (so
    it is computed from the detached input), but Paddle's result says stop_gradient=False."""
    if torch.is_grad_enabled():
        flag_grad(r, carried=True)
    return r


@defop(amp="black", paddle_types=("reduce_sum", "sum", "pd_op.sum"))
def sum(x, axis=None, dtype=None, keepdim=False, name=None, *, out=None):
    """Sum of elements over ``axis``.

    int32 and bool inputs are summed (and returned) as int64 unless ``dtype`` is given.

    Args:
        x (Tensor): the input tensor.
        axis (int|list|tuple, optional): axes to reduce; None reduces all.
        dtype (str, optional): dtype of the result (the input is cast first).
        keepdim (bool, optional): keep reduced axes with size 1. Default False.
        name (str, optional): unused.
        out (Tensor, optional): also store the result here.

    Returns:
        Tensor: the sums (0-D for a full reduction).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.sum(x).item(), paddle.sum(x, axis=0).tolist()
        (10.0, [4.0, 6.0])
        >>> paddle.sum(paddle.to_tensor([True, True, False])).dtype
        <DataType.INT64: 9>
        >>> paddle.sum(x, 1, True).shape   # a bool third argument is keepdim
        paddle.Size([2, 1])
    """
    if dtype.__class__ is bool:   # torch's order sum(x, axis, keepdim, dtype), as Paddle reads it
        dtype, keepdim = (None if keepdim.__class__ is bool else keepdim), dtype
    if dtype is None:
        dt = _SUM_DTYPE.get(x.dtype)
    else:
        dt = parsed_dtype(dtype, "sum")
        if x.requires_grad and not (dt.is_floating_point or dt.is_complex):
            return _untracked_sum(sum.op_record.kernel(x.detach(), axis, dt, keepdim, out=out))
    if axis is None:
        dense_only("sum", x)
        if keepdim:
            r = torch.sum(x, None, True, dtype=dt)
        else:
            r = torch.sum(x) if dt is None else torch.sum(x, dtype=dt)
    else:
        r = torch.sum(x, _axes(axis, x.dim(), "sum"), keepdim, dtype=dt)
    return r if out is None else write_out(out, r)


@defop(amp="black", paddle_types=("reduce_mean", "mean", "pd_op.mean", "pd_op.mean_all"))
def mean(x, axis=None, keepdim=False, name=None, *, dtype=None, out=None):
    """Arithmetic mean over ``axis``.

    Integer inputs give an integer result (the mean truncated toward zero), bool
    inputs a bool result, as in Paddle.

    Args:
        x (Tensor): the input tensor.
        axis (int|list|tuple, optional): axes to reduce; None reduces all.
        keepdim (bool, optional): keep reduced axes with size 1.
        name (str, optional): unused.
        dtype (str, optional): cast the input to this dtype first.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.mean(x).item(), paddle.mean(x, axis=1).tolist()
        (2.5, [1.5, 3.5])
    """
    if dtype is not None:
        x = x.to(torch_dtype(dtype, "mean"))
    kernel_dtypes("mean", x, _MEAN_DTYPES, static=_MEAN_STATIC)
    dims = None if axis is None else _axes(axis, x.dim(), "mean")
    if x.is_floating_point() or x.is_complex():
        r = torch.mean(x, dims, keepdim)
    elif x.dtype is torch.bool:
        r = torch.mean(x.to(torch.float32), dims, keepdim).to(torch.bool)
    else:
        s = torch.sum(x, dims, keepdim, dtype=torch.int64)
        n = x.numel() // builtins.max(s.numel(), 1)
        if n == 0:  # the mean of nothing: NaN, which as an integer is the lowest value
            r = torch.full_like(s, torch.iinfo(x.dtype).min, dtype=x.dtype)
        else:
            r = torch.div(s, n, rounding_mode="trunc").to(x.dtype)
    return r if out is None else write_out(out, r)


@defop(amp="black", paddle_types=("reduce_prod", "prod", "pd_op.prod"))
def prod(x, axis=None, keepdim=False, dtype=None, out=None, name=None):
    """Product of elements over ``axis`` (the input's dtype is kept unless ``dtype`` is given).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.prod(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0).tolist()
        [3.0, 8.0]
    """
    if axis is not None and not isinstance(axis, (int, list, tuple, _T)) or isinstance(axis, bool):
        # Paddle's prod checks the type itself: a numpy integer is refused too
        raise TypeError(f"paddle.prod: 'axis' must be an int, a list or a tuple, but received "
                        f"{type(axis).__name__} {axis!r}")
    if dtype is not None:
        x = x.to(torch_dtype(dtype, "prod"))
    _no_kernel(x, "prod", complex_too=False)
    kernel_dtypes("prod", x, _PROD_DTYPES)
    if isinstance(axis, _T) and axis.numel() == 0:   # Paddle's prod then reduces no axis
        return x.clone() if out is None else write_out(out, x.clone())
    dims = _axes(axis, x.dim(), "prod")
    if x.requires_grad and x.is_floating_point():
        r = _ProdOverQuotient.apply(x, dims, keepdim)
    else:
        r = _prod(x, dims, keepdim)
    return r if out is None else write_out(out, r)


def _prod(x: torch.Tensor, dims: list[int] | None, keepdim: bool) -> torch.Tensor:
    if dims is None:
        r = torch.prod(x, dtype=x.dtype)
        return r.reshape([1] * x.dim()) if keepdim else r
    for d in sorted(dims, reverse=True):
        x = torch.prod(x, d, keepdim, dtype=x.dtype)
    return x


class _ProdOverQuotient(torch.autograd.Function):
    """``prod`` with Paddle's gradient, ``grad * out / x``: NaN where ``x`` is 0 and the
    product is 0 (torch's gradient there is the product of the other elements)."""

    @staticmethod
    def forward(ctx, x, dims, keepdim):  # type: ignore[override]
        out = _prod(x, dims, keepdim)
        ctx.save_for_backward(x, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        x, out = ctx.saved_tensors
        if not ctx.keepdim:
            dims = range(x.dim()) if ctx.dims is None else ctx.dims
            for d in sorted(d % x.dim() if x.dim() else d for d in dims):
                g, out = g.unsqueeze(d), out.unsqueeze(d)
        return g * out / x, None, None


def _no_kernel(x, api, complex_too=True, axis=None):
    """Paddle has no kernel for bool (and complex) inputs here: NotFound, a RuntimeError,
    raised before any check of the values of ``axis`` (its argument parser refuses an axis of
    a wrong type, a TypeError, before that)."""
    if x.dtype is torch.bool or (complex_too and x.is_complex()):
        try:
            _axes(axis, 64, api)  # (the type checks only: any rank would do)
        except ValueError:
            pass
        raise NoKernelError(f"paddle.{api}: {str(x.dtype)[6:]} tensors are not supported (no kernel "
                            "for this dtype); cast 'x' to a real number dtype first")


def _extreme(x, axis, keepdim, api, fn):
    _no_kernel(x, api, axis=axis)
    kernel_dtypes(api, x, _EXTREME_DTYPES, static=_EXTREME_STATIC.get(api))
    dims = _axes(axis, x.dim(), api)
    _check_nonempty(x, dims, api)
    if dims is None:
        return fn(x, (), keepdim) if keepdim else fn(x)
    return fn(x, dims, keepdim)


@defop(paddle_types=("reduce_max", "max", "pd_op.max"))
def max(x, axis=None, keepdim=False, name=None):
    """Maximum over ``axis`` (values only). The gradient is shared equally among ties.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 5.0], [3.0, 2.0]])
        >>> paddle.max(x).item(), paddle.max(x, axis=1).tolist()
        (5.0, [5.0, 3.0])
    """
    return _extreme(x, axis, keepdim, "max", torch.amax)


@defop(paddle_types=("reduce_min", "min", "pd_op.min"))
def min(x, axis=None, keepdim=False, name=None):
    """Minimum over ``axis`` (values only). The gradient is shared equally among ties.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 5.0], [3.0, 2.0]])
        >>> paddle.min(x).item(), paddle.min(x, axis=0).tolist()
        (1.0, [1.0, 2.0])
    """
    return _extreme(x, axis, keepdim, "min", torch.amin)


@defop(paddle_types=("reduce_amax", "amax", "pd_op.amax"))
def amax(x, axis=None, keepdim=False, name=None, *, out=None):
    """Maximum over ``axis``; the gradient is shared equally among tied maxima.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.amax(paddle.to_tensor([[1.0, 5.0], [3.0, 2.0]]), axis=0).tolist()
        [3.0, 5.0]
    """
    if x.dtype in SMALL_INTS:
        no_small_int_kernel("amax", x)
    r = _extreme(x, axis, keepdim, "amax", torch.amax)
    return r if out is None else write_out(out, r)


@defop(paddle_types=("reduce_amin", "amin", "pd_op.amin"))
def amin(x, axis=None, keepdim=False, name=None, *, out=None):
    """Minimum over ``axis``; the gradient is shared equally among tied minima.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.amin(paddle.to_tensor([[1.0, 5.0], [3.0, 2.0]]), axis=0).tolist()
        [1.0, 2.0]
    """
    if x.dtype in SMALL_INTS:
        no_small_int_kernel("amin", x)
    r = _extreme(x, axis, keepdim, "amin", torch.amin)
    return r if out is None else write_out(out, r)


def _bool_reduce(x, axis, keepdim, api, fn):
    dims = _axes(axis, x.dim(), api)
    if dims is None:
        r = fn(x) if not keepdim else fn(x, tuple(range(x.dim())), True)
    else:
        r = fn(x, dims, keepdim)
    return r if r.dtype is torch.bool else r.to(torch.bool)


@defop(paddle_types=("reduce_all", "all", "pd_op.all"), differentiable=False)
def all(x, axis=None, keepdim=False, name=None, *, out=None):
    """Whether every element over ``axis`` is true (non-zero). Returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[True, False], [True, True]])
        >>> paddle.all(x).item(), paddle.all(x, axis=1).tolist()
        (False, [False, True])
    """
    if x.dtype not in _ALL_ANY_DTYPES:
        kernel_dtypes("all", x, _ALL_ANY_DTYPES)
    r = _bool_reduce(x, axis, keepdim, "all", torch.all)
    return r if out is None else write_out(out, r)


@defop(paddle_types=("reduce_any", "any", "pd_op.any"), differentiable=False)
def any(x, axis=None, keepdim=False, name=None, *, out=None):
    """Whether any element over ``axis`` is true (non-zero). Returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[True, False], [False, False]])
        >>> paddle.any(x).item(), paddle.any(x, axis=1).tolist()
        (True, [True, False])
    """
    if x.dtype not in _ALL_ANY_DTYPES:
        kernel_dtypes("any", x, _ALL_ANY_DTYPES)
    r = _bool_reduce(x, axis, keepdim, "any", torch.any)
    return r if out is None else write_out(out, r)


@defop(amp="promote", paddle_types=("logsumexp", "pd_op.logsumexp"), int_autocast=True)
def logsumexp(x, axis=None, keepdim=False, name=None, *, out=None):
    """``log(sum(exp(x)))`` over ``axis``, computed stably; integer inputs give float32.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logsumexp(paddle.to_tensor([0.0, 0.0], 'float64')).numpy().round(4).tolist()
        0.6931
    """
    _no_kernel(x, "logsumexp", axis=axis)  # (a complex result would need a complex kernel Paddle lacks)
    kernel_dtypes("logsumexp", x, _LOGSUMEXP_DTYPES)
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(torch.float32)
    dims = _axes(axis, x.dim(), "logsumexp")
    dims = tuple(range(x.dim())) if dims is None else dims
    if x.numel() == 0 or x.dim() == 0 or x.is_complex():
        r = torch.logsumexp(x, dims, keepdim)
    else:
        # Paddle's kernel: log(sum(exp(x - max))) + max, so a row whose max is infinite gives
        # NaN (and NaN gradients), where torch's fused kernel gives -inf / inf
        xf = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        m = xf.detach().amax(dims, keepdim=True)
        r = torch.log(torch.exp(xf - m).sum(dims, keepdim=True)) + m
        r = (r if keepdim else r.squeeze(dims)).to(x.dtype)
    return r if out is None else write_out(out, r)


@defop(amp="black", paddle_types=("nansum",))
def nansum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum over ``axis`` treating NaN as zero.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nansum(paddle.to_tensor([1.0, float('nan'), 2.0])).item()
        3.0
    """
    if x.dtype is torch.bool:
        raise NoKernelError("paddle.nansum: bool tensors are not supported (no kernel for this dtype)")
    kernel_dtypes("nansum", x, _NANSUM_DTYPES, static=_NAN_STATIC["nansum"])
    dt = _SUM_DTYPE.get(x.dtype) if dtype is None else parsed_dtype(dtype, "nansum")
    if dt is not None and x.requires_grad and not (dt.is_floating_point or dt.is_complex):
        return _untracked_sum(nansum.op_record.kernel(x.detach(), axis, dt, keepdim))
    if dt is not None and dt.is_complex and not x.is_complex():  # a real x summed as complex
        x = x.to(dt)
    if not (x.is_floating_point() or x.is_complex()):
        return sum.op_record.kernel(x, axis, dt, keepdim)
    if x.is_complex():  # torch's nansum has no complex kernel; NaN in either part counts as 0
        axes = _axes(axis, x.dim(), "nansum")
        return torch.where(torch.isnan(x), 0, x).sum(axes, keepdim, dtype=dt)
    return torch.nansum(x, _axes(axis, x.dim(), "nansum"), keepdim, dtype=dt)


@defop(amp="black", paddle_types=("nanmean",))
def nanmean(x, axis=None, keepdim=False, name=None):
    """Mean over ``axis`` ignoring NaN; integer inputs give float32.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nanmean(paddle.to_tensor([1.0, float('nan'), 2.0])).item()
        1.5
    """
    if x.dtype is torch.bool:
        raise NoKernelError("paddle.nanmean: bool tensors are not supported (no kernel for this dtype)")
    kernel_dtypes("nanmean", x, _NANSUM_DTYPES, static=_NAN_STATIC["nanmean"])
    axes = _axes(axis, x.dim(), "nanmean")
    if x.dtype is torch.int32 and x.dim() and (keepdim or axes is not None and len(axes) < x.dim()):
        # Paddle divides the int32 sums by int64 counts, which its type promotion refuses
        # unless the result is 0-D
        raise TypeError("paddle.nanmean: an int32 'x' can only be averaged over all its axes with "
                        f"keepdim=False, but received axis={axis}, keepdim={keepdim}; cast 'x' to "
                        "a floating dtype first")
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(torch.float32)
    # the sum of the non-NaN values over their count, as Paddle composes it: an all-NaN slice
    # gives NaN with a zero gradient (torch.nanmean's gradient there is NaN)
    keep = ~torch.isnan(x)
    return torch.where(keep, x, 0).sum(axes, keepdim) / keep.sum(axes, keepdim).to(x.dtype)


@defop(paddle_types=("count_nonzero",), int_results=True)
def count_nonzero(x, axis=None, keepdim=False, name=None):
    """Number of non-zero elements over ``axis`` (int64).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0]])
        >>> paddle.count_nonzero(x).item(), paddle.count_nonzero(x, axis=1).tolist()
        (3, [1, 2])
    """
    dims = _axes(axis, x.dim(), "count_nonzero")
    return torch.sum(x != 0, dims, keepdim, dtype=torch.int64)
