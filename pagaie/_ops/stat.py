"""Statistics: variance and deviation, medians and quantiles, histograms, bincount,
covariance and correlation."""
from __future__ import annotations

import builtins

import math
import numbers
import operator

import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import flag_grad
from pagaie._ops._helpers import (ALL_DTYPES, F32_F64, AssertionValueError, SMALL_INTS, dtype_name, kernel_dtypes,
                                  no_low_float_kernel, no_small_int_kernel, norm_axis, parser_bool,
                                  scalar_axis, stopped, write_out)
from pagaie._ops.reduce import _axes, _tensor_axis

_T = torch.Tensor

__all__ = ["std", "var", "median", "nanmedian", "quantile", "nanquantile", "histogram",
           "histogram_bin_edges", "histogramdd", "bincount"]


def _is_int(t):
    return not (t.is_floating_point() or t.is_complex())


def _check_correction(correction: object) -> None:
    """var's ``correction``: a number (a float too); Paddle's parser refuses None and
    sequences (TypeError) and cannot read a string as a number (ValueError)."""
    if isinstance(correction, str):
        raise ValueError(f"paddle.var: 'correction' must be a number, but received {correction!r}")
    if correction is None or isinstance(correction, (list, tuple, dict, set, complex)):
        raise TypeError(f"paddle.var: 'correction' must be a number, but received "
                        f"{type(correction).__name__} {correction!r}")


# Paddle's var/std check the dtype in a static program only (eagerly the kernels decide).
_VAR_PROGRAM_DTYPES = {"x": frozenset({torch.float16, torch.float32, torch.float64})}
# The dtypes of Paddle's CPU mean kernel, which var/std run on (no float16/bfloat16 there).
_MEAN_CPU_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.float16, torch.bfloat16}


@defop(amp="promote", paddle_types=("variance", "var"), program_dtypes=_VAR_PROGRAM_DTYPES)
def var(x, axis=None, unbiased=None, keepdim=False, name=None, *, correction=1, out=None):
    """Variance over ``axis``: ``sum((x - mean)^2) / (N - correction)``.

    Integer inputs give a (truncated) integer result, as in Paddle.

    Args:
        x (Tensor): the input tensor.
        axis (int|list|tuple, optional): axes to reduce; None reduces all.
        unbiased (bool, optional): when given, sets ``correction`` (True: 1, False: 0); giving
            both it and a ``correction`` other than 1 is a ValueError.
        keepdim (bool, optional): keep reduced axes with size 1.
        name (str, optional): unused.
        correction (int, optional): the degrees-of-freedom correction. Default 1.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> round(paddle.var(x).item(), 4), paddle.var(x, unbiased=False).item()
        (1.6667, 1.25)
    """
    if type(correction) is not int:
        _check_correction(correction)
    if unbiased is not None:
        if correction != 1:
            raise ValueError(f"paddle.var: only one of 'unbiased' and 'correction' may be given, but "
                             f"received unbiased={unbiased!r} and correction={correction!r}")
        correction = 1 if unbiased else 0
    dims = _axes(axis, x.dim(), "var")  # Paddle checks the axes before the dtype
    _check_real("var", x)
    if x.dtype in SMALL_INTS:
        no_small_int_kernel("var", x)
    elif x.dtype is torch.float16 or x.dtype is torch.bfloat16:   # its CPU mean kernel has neither
        kernel_dtypes("var", x, _MEAN_CPU_DTYPES)
    if type(keepdim) is not bool:
        keepdim = parser_bool(keepdim, "var", "keepdim")
    if x.dim() == 0 and correction == 0:
        r = _constant_zero_var(x)
    elif _is_int(x):
        r = _int_var(x, dims, correction, keepdim).to(x.dtype)
    else:
        r = torch.var(x, dims, correction=correction, keepdim=keepdim)
    return r if out is None else write_out(out, r)


def _constant_zero_var(x):
    """The variance of a 0-D input without correction: Paddle returns a constant 0, which
    carries no gradient back to ``x`` but says stop_gradient=False when ``x`` does."""
    r = torch.zeros((), dtype=x.dtype, device=x.device)
    if x.requires_grad and torch.is_grad_enabled():
        flag_grad(r, carried=True)
    return r


def _check_real(api, x):
    """Paddle has no kernel for bool or complex inputs here (NotFound: RuntimeError)."""
    if x.dtype is torch.bool or x.is_complex():
        raise NoKernelError(f"paddle.{api}: 'x' must be a real number tensor, but received "
                            f"{dtype_name(x)} (no kernel for this dtype)")


def _check_cov_input(api, x):
    if x.dim() == 0:
        raise ValueError(f"paddle.{api}: 'x' must be a 1-D or 2-D tensor, but received a 0-D tensor")
    if x.is_complex():
        raise NoKernelError(f"paddle.{api}: complex inputs are not supported, but received {dtype_name(x)} "
                            "(no kernel for this dtype)")


def _int_var(x, dims, correction, keepdim):
    """Paddle's integer variance: truncated integer mean and truncated integer quotient."""
    x64 = x.to(torch.int64)
    s = torch.sum(x64, dims, keepdim=True)
    n = x.numel() // builtins.max(s.numel(), 1)
    if n == 0:  # an empty reduction: NaN, as a float (Paddle's own result is undefined here)
        return torch.full(torch.sum(x64, dims, keepdim=keepdim).shape, float("nan"),
                          dtype=torch.float64, device=x.device)
    m = torch.div(s, n, rounding_mode="trunc")
    d = torch.sum((x64 - m) ** 2, dims, keepdim=keepdim)
    if n - correction <= 0:  # no degrees of freedom: NaN (or inf), as a float
        return d.to(torch.float64) / (n - correction)
    return torch.div(d, n - correction, rounding_mode="trunc")


@defop(amp="promote", paddle_types=("std",), int_autocast=True, program_dtypes=_VAR_PROGRAM_DTYPES)  # Paddle: sqrt(var(x))
def std(x, axis=None, unbiased=True, keepdim=False, name=None):
    """Standard deviation over ``axis`` (with Bessel's correction when ``unbiased``).

    Integer inputs give a float32 result. Computed as ``sqrt(var(x))``, as Paddle does: the
    gradient where the deviation is 0 is NaN there too.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> round(paddle.std(x).item(), 4)
        1.291
    """
    dims = _axes(axis, x.dim(), "std")
    if type(keepdim) is not bool:
        keepdim = parser_bool(keepdim, "std", "keepdim")
    _check_real("std", x)
    if x.dtype in SMALL_INTS:
        no_small_int_kernel("std", x)
    elif x.dtype is torch.float16 or x.dtype is torch.bfloat16:   # its CPU mean kernel has neither
        kernel_dtypes("std", x, _MEAN_CPU_DTYPES)
    if x.dim() == 0 and not unbiased:
        r = _constant_zero_var(x)
        return r.to(torch.float32) if _is_int(x) else r
    if _is_int(x):
        return torch.sqrt(_int_var(x, dims, 1 if unbiased else 0, keepdim).to(torch.float32))
    return torch.sqrt(torch.var(x, dims, correction=1 if unbiased else 0, keepdim=keepdim))


def _select_mean(xs, v, ax):
    """``v`` (the value of some elements of ``xs`` along ``ax``, detached) with a gradient
    shared equally among the elements equal to it, as Paddle's median does for ties (a NaN
    ``v``: among the NaN elements)."""
    if not xs.requires_grad:
        return v
    mask = ((xs == v) | (torch.isnan(xs) & torch.isnan(v))).detach()
    cnt = mask.sum(ax, keepdim=True).clamp_min(1).to(xs.dtype)
    s = torch.where(mask, xs, torch.zeros((), dtype=xs.dtype, device=xs.device))
    shared = v + (s.sum(ax, keepdim=True) - s.sum(ax, keepdim=True).detach()) / cnt
    # (an infinite v would give inf - inf there: the mean of its equal entries is v itself)
    return torch.where(torch.isinf(v), (s / cnt).sum(ax, keepdim=True), shared)


def _check_median_mode(api, mode):
    if mode not in ("avg", "min"):
        raise ValueError(f"paddle.{api}: 'mode' must be 'avg' or 'min', but received {mode!r}")


def _median(x, axis, keepdim, mode, api, ignore_nan, shared_grad=False):
    _check_median_mode(api, mode)
    if type(keepdim) is not bool:  # read by Paddle's C++ parser
        keepdim = parser_bool(keepdim, api, "keepdim")
    if ignore_nan and isinstance(axis, _T):
        axis = _tensor_axis(axis)
    if ignore_nan and type(axis) is not int and isinstance(axis, numbers.Integral) \
            and not isinstance(axis, bool):
        axis = int(axis)  # nanmedian's argument parser takes a numpy integer
    if ignore_nan and isinstance(axis, (list, tuple)):
        # nanmedian over several axes: move them last, flatten them, take one median
        # (values only, even for mode='min', whose gradient is then shared among the ties
        # when there are several axes).
        dims = _axes(axis, x.dim(), api)
        if dims is None:
            return _median(x, None, keepdim, mode, api, ignore_nan)
        keep = [d for d in range(x.dim()) if d not in dims]
        red = 1
        for d in dims:
            red *= x.shape[d]
        xt = x.permute(keep + list(dims)).reshape([x.shape[d] for d in keep] + [red])
        r = _median(xt, -1, False, mode, api, ignore_nan, shared_grad=len(dims) > 1)
        r = r[0] if isinstance(r, tuple) else r
        return r.reshape([1 if d in dims else x.shape[d] for d in range(x.dim())]) if keepdim else r
    if axis is not None and not isinstance(axis, int):
        empty = isinstance(axis, (list, tuple)) and len(axis) == 0
        if x.dim() == 0 and not ignore_nan and not empty:  # Paddle's median asserts this
            raise AssertionValueError(f"paddle.{api}: 'axis' must be 0, -1 or None for a 0-D "
                                      f"input, but received {axis!r}")
        if ignore_nan:  # nanmedian's argument parser: TypeError
            raise TypeError(f"paddle.{api}: 'axis' must be an int, a list, a tuple or a Tensor, "
                            f"but received {type(axis).__name__}")
        raise ValueError(f"paddle.{api}: 'axis' must be None or an int in [-rank(x), rank(x)), "
                         f"but received {axis!r}")
    if x.numel() == 0:  # NaN medians of the requested shape
        shape = list(x.shape)
        if axis is None:
            shape = [1] * x.dim() if keepdim else []
        else:
            ax = norm_axis(axis, x.dim(), api)
            shape = [1 if d == ax else n for d, n in enumerate(shape)] if keepdim else \
                [n for d, n in enumerate(shape) if d != ax]
        if x.is_floating_point():
            val = torch.full(shape, float("nan"), dtype=x.dtype, device=x.device)
            if x.requires_grad:  # still a function of x: its (empty) gradient exists
                val = val + x.sum() * 0
        else:  # integer results keep x's dtype: a NaN as an integer, the lowest value
            val = torch.full(shape, torch.iinfo(x.dtype).min, dtype=x.dtype, device=x.device)
        if mode == "min" and axis is not None:
            return val, torch.zeros(shape, dtype=torch.int64, device=x.device)
        return val
    if x.dim() == 0 and axis is not None:  # a 0-D input: the result stays 0-D
        if not ignore_nan and axis not in (0, -1):  # Paddle's median asserts this
            raise AssertionError(f"paddle.{api}: 'axis' must be 0, -1 or None for a 0-D input, "
                                 f"but received {axis}")
        norm_axis(axis, 0, api)
        r = _median(x, None, False, mode, api, ignore_nan)
        return (r, torch.zeros((), dtype=torch.int64, device=x.device)) if mode == "min" else r
    full = axis is None
    if full:
        xs, ax = x.reshape(-1), 0
    else:
        ax = norm_axis(axis, x.dim(), api)
        xs = x if x.dim() else x.reshape(1)
    n = xs.shape[ax]
    floating = xs.is_floating_point()
    if ignore_nan and floating:
        cnt = (~torch.isnan(xs)).sum(ax, keepdim=True)
        lo_pos = ((cnt - 1).clamp_min(0)) // 2
        hi_pos = cnt.clamp_min(1) // 2 if mode == "avg" else lo_pos
        hi_pos = torch.where(cnt == 0, lo_pos, hi_pos)
    # Paddle reads the middle entries off an ascending partial top-k (NaN last) of the
    # largest count of non-NaN entries of a line for nanmedian, n // 2 + 1 entries for
    # median; torch.topk makes the same choice among equal entries, so the returned
    # indices (and the gradients that follow them) agree.
    if not ignore_nan:
        k = n // 2 + 1
    elif floating and not xs.is_meta:
        k = builtins.max(int(cnt.max()), 1)
    else:
        k = n
    sd, idx = torch.topk(xs.detach(), k, dim=ax, largest=False, sorted=True)
    if not (ignore_nan and floating):
        shape = list(sd.shape)
        shape[ax] = 1
        lo_pos = torch.full(shape, (n - 1) // 2, dtype=torch.int64, device=xs.device)
        hi_pos = torch.full(shape, n // 2, dtype=torch.int64, device=xs.device)
        cnt = None
    lo = sd.gather(ax, lo_pos)
    if not ignore_nan and floating:
        has_nan = torch.isnan(xs.detach()).any(ax, keepdim=True)
        lo = torch.where(has_nan, torch.full_like(lo, float("nan")), lo)
    if mode == "min":
        index = idx.gather(ax, lo_pos)
        if not ignore_nan and floating:  # a NaN median: the index of the first NaN
            nan_pos = torch.argmax(torch.isnan(xs.detach()).to(torch.int8), ax, keepdim=True)
            index = torch.where(has_nan, nan_pos, index)
        # over all elements, Paddle shares the gradient among the ties (as for 'avg'); along
        # an axis it goes to the element at the returned index
        val = _select_mean(xs, lo, ax) if (full or shared_grad) and floating else xs.gather(ax, index)
        if not keepdim or full:
            val, index = val.squeeze(ax), index.squeeze(ax)
        if full:
            return val.reshape([1] * x.dim()) if keepdim else val
        return val, index
    hi = sd.gather(ax, hi_pos)
    if not ignore_nan and floating:
        hi = torch.where(has_nan, lo, hi)
    out_dtype = x.dtype if floating else (x.dtype if ignore_nan else torch.get_default_dtype())
    if floating:
        # Paddle's gradient: shared among the entries equal to the median when there are
        # any (one middle value, or a NaN median), else half to each middle entry it picked
        picked = (xs.gather(ax, idx.gather(ax, lo_pos)) + xs.gather(ax, idx.gather(ax, hi_pos))) / 2
        one = (lo == hi) | torch.isnan(lo)
        val = torch.where(one, _select_mean(xs, lo, ax), picked)
    else:
        val = (lo.to(torch.float64) + hi.to(torch.float64)) / 2
        if ignore_nan:
            val = torch.trunc(val)
        val = val.to(out_dtype)
    if full:
        return val.reshape([1] * x.dim()) if keepdim else val.reshape(())
    return val if keepdim else val.squeeze(ax)


@defop(paddle_types=("median", "pd_op.median"))
def median(x, axis=None, keepdim=False, mode='avg', name=None, *, out=None):
    """Median over ``axis`` (the flattened tensor when None).

    ``mode='avg'`` averages the two middle values of an even count, computed and returned in
    float32 for every input dtype but float64, as in Paddle; ``mode='min'`` takes the lower
    one and, with an ``axis``, also returns its index (among equal entries, the one Paddle's
    partial sort picks). A NaN in a slice makes its median NaN. The gradient is shared
    equally among the elements equal to the median (the NaN elements for a NaN median); two
    different middle values get half each, at the picked entries.

    Args:
        x (Tensor): the input tensor.
        axis (int, optional): the axis; None uses all elements.
        keepdim (bool, optional): keep the reduced axis with size 1.
        mode (str, optional): ``'avg'`` (default) or ``'min'``.
        name (str, optional): unused.
        out (tuple[Tensor, Tensor], optional): also store the values in ``out[0]`` and, for
            ``mode='min'`` with an axis, the indices in ``out[1]``.

    Returns:
        Tensor, or (Tensor, Tensor) of values and int64 indices for ``mode='min'`` with an axis.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 4.0, 2.0, 3.0], [5.0, 6.0, 7.0, 9.0]])
        >>> paddle.median(x, axis=1).tolist()
        [2.5, 6.5]
        >>> v, i = paddle.median(x, axis=1, mode='min')
        >>> v.tolist(), i.tolist()
        ([2.0, 6.0], [2, 1])
    """
    if x.dtype is torch.bool or x.is_complex():
        if mode == "min":  # Paddle has no kernel for these (NotFound: RuntimeError)
            raise NoKernelError(f"paddle.median: {dtype_name(x)} tensors are not supported with "
                                "mode='min' (no kernel for this dtype)")
    if mode == "min":
        kernel_dtypes("median", x, _NANMEDIAN_DTYPES)  # (the same CPU kernels)
    if mode == "avg" and x.dtype is not torch.float64:
        # Paddle computes the 'avg' median in float32 for every dtype but float64 (a complex
        # input gives the median of its real parts)
        x = (x.real if x.is_complex() else x).to(torch.float32)
    if out is not None and (not isinstance(out, tuple) or len(out) != 2):
        raise ValueError("paddle.median: 'out' must be a tuple of 2 Tensors (values and indices), "
                         f"but received {type(out).__name__}")
    r = _median(x, axis, keepdim, mode, "median", False)
    if out is not None:
        write_out(out[0], r[0] if isinstance(r, tuple) else r)
        if isinstance(r, tuple):
            write_out(out[1], r[1])
    if isinstance(r, tuple):
        return r[0], stopped(r[1])  # Paddle's indices say stop_gradient=True
    return r


_NANMEDIAN_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64))  # its CPU kernels


@defop(paddle_types=("nanmedian", "pd_op.nanmedian"))
def nanmedian(x, axis=None, keepdim=False, mode='avg', name=None):
    """Median over ``axis`` ignoring NaN (see :func:`median`); integer inputs keep their dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nanmedian(paddle.to_tensor([1.0, float('nan'), 2.0, 4.0])).item()
        2.0
    """
    if isinstance(axis, (list, tuple)) and len(axis) == 0:
        raise ValueError("paddle.nanmedian: 'axis' must not be an empty list")
    _check_median_mode("nanmedian", mode)  # Paddle checks the mode before the dtype
    _check_real("nanmedian", x)
    kernel_dtypes("nanmedian", x, _NANMEDIAN_DTYPES)
    r = _median(x, axis, keepdim, mode, "nanmedian", True)
    if isinstance(r, tuple) and x.is_floating_point() and x.numel():  # all-NaN lines: index -1, as Paddle
        ax = norm_axis(axis, x.dim(), "nanmedian") if x.dim() else 0
        all_nan = torch.isnan(x).all(dim=ax, keepdim=keepdim) if x.dim() else torch.isnan(x)
        # (and no gradient: Paddle's backward skips the index -1)
        r = (torch.where(all_nan, r[0].detach(), r[0]),
             torch.where(all_nan, torch.full_like(r[1], -1), r[1]))
    return (r[0], stopped(r[1])) if isinstance(r, tuple) else r  # indices: stop_gradient=True


def _quantile_kernel(fn):
    """``fn`` (torch.quantile or torch.nanquantile) as Paddle computes it: 'midpoint' is the
    plain mean of the lower and higher entries (two equal infinities give that infinity, not
    NaN), and int32/int64 inputs take the interpolations that pick entries (their result
    keeps the dtype; 'midpoint' gives float32)."""
    def kernel(x, q, dim, interpolation):
        xf = x if x.is_floating_point() else x.to(torch.float64)
        if interpolation == "midpoint":
            r = (fn(xf, q, dim=dim, interpolation="lower") +
                 fn(xf, q, dim=dim, interpolation="higher")) / 2
            return r if x.is_floating_point() else r.to(torch.float32)
        r = fn(xf, q, dim=dim, interpolation=interpolation)
        if interpolation == "linear" and not xf.is_meta and bool(torch.isinf(xf).any()):
            # between a finite entry and an infinite one the quantile is that infinity
            # (torch's interpolation gives NaN on one side)
            lo = fn(xf, q, dim=dim, interpolation="lower")
            hi = fn(xf, q, dim=dim, interpolation="higher")
            r = torch.where((lo == hi) | (torch.isinf(lo) & (lo < 0) & ~torch.isinf(hi)), lo,
                            torch.where(torch.isinf(hi) & (hi > 0) & ~torch.isinf(lo), hi, r))
        return r if x.is_floating_point() else r.to(x.dtype)
    return kernel


def _quantile(x, q, axis, keepdim, interpolation, api, fn):
    # Paddle's order of checks: q, interpolation, axis, then the dtype
    if type(q) is _T:
        if q.dim() > 1:
            raise ValueError(f"paddle.{api}: 'q' must be a 0-D or 1-D tensor, but received a "
                             f"{q.dim()}-D tensor")
        qt = q.detach().to(torch.float64)
        scalar_q = q.dim() == 0
    elif isinstance(q, (list, tuple)):
        if len(q) == 0:
            raise ValueError(f"paddle.{api}: 'q' must not be empty")
        qt = torch.tensor([float(v) for v in q], dtype=torch.float64, device=x.device)
        scalar_q = False
    elif isinstance(q, (int, float)):
        qt = torch.tensor(float(q), dtype=torch.float64, device=x.device)
        scalar_q = True
    else:
        raise TypeError(f"paddle.{api}: 'q' must be a float, a list of floats or a Tensor, "
                        f"but received {type(q).__name__}")
    if bool(((qt < 0) | (qt > 1)).any()):
        raise ValueError(f"paddle.{api}: 'q' must be in the range [0, 1], but received {q!r}")
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise ValueError(f"paddle.{api}: 'interpolation' must be one of linear, lower, higher, "
                         f"midpoint or nearest, but received {interpolation!r}")
    for a in (axis if isinstance(axis, list) else [] if axis is None else [axis]):
        if isinstance(a, bool):  # Paddle's argument parser refuses it
            raise TypeError(f"paddle.{api}: 'axis' must be None, an int or a list of ints, but "
                            f"received {axis!r}")
        if type(a) is not int or not -x.dim() <= a < x.dim():
            raise ValueError(f"paddle.{api}: 'axis' must be None, an int or a list of ints in "
                             f"[-rank(x), rank(x)) = [{-x.dim()}, {x.dim()}), but received {axis!r}")
    dims = _axes(axis, x.dim(), api)
    if x.dtype not in (torch.float32, torch.float64) and not (
            x.dtype in (torch.int32, torch.int64) and interpolation != "linear"):
        # Paddle has no kernel for other dtypes (nor a linear interpolation of integers): its
        # eager mode raises RuntimeError (NotFound).
        raise NoKernelError(f"paddle.{api}: the input must be a float32 or float64 tensor (or "
                            f"int32/int64 with an interpolation other than 'linear'), but received "
                            f"{dtype_name(x)} with interpolation={interpolation!r}")
    qt = qt.to(x.dtype if x.is_floating_point() else torch.float64)
    fn = _quantile_kernel(fn)
    scalar_q = scalar_q or qt.numel() == 1  # Paddle drops the q axis for a single quantile
    qt = qt.reshape(()) if scalar_q else qt
    if dims is None:
        # An empty input gives 0 quantiles, as in Paddle.
        r = fn(x.reshape(-1) if x.numel() else x.new_zeros(1), qt, dim=0, interpolation=interpolation)
        if keepdim:
            r = r.reshape(list(r.shape[:1] if not scalar_q else []) + [1] * x.dim())
    else:
        keep = [d for d in range(x.dim()) if d not in dims]
        red = 1
        for d in dims:
            red *= x.shape[d]
        kept = [x.shape[d] for d in keep]
        xt = x.permute(keep + list(dims)).reshape(kept + [red]) if red else x.new_zeros(kept + [1])
        if xt.numel():
            r = fn(xt, qt, dim=-1, interpolation=interpolation)
        else:  # nothing is kept: an empty result
            r = x.new_zeros(([] if scalar_q else [qt.numel()]) + kept)
        if keepdim:
            shape = [1 if d in dims else x.shape[d] for d in range(x.dim())]
            r = r.reshape(list(r.shape[:1] if not scalar_q else []) + shape)
    if x.requires_grad and not x.numel():  # still a function of x: its (empty) gradient exists
        r = r + x.sum() * 0
    return r


@defop(paddle_types=("quantile",))
def quantile(x, q, axis=None, keepdim=False, interpolation='linear', name=None, *, out=None):
    """The ``q``-th quantile(s) of ``x`` over ``axis``; a NaN in a slice gives NaN.

    Args:
        x (Tensor): float32 or float64 input.
        q (float|list|Tensor): quantile(s) in ``[0, 1]``; a list adds a leading axis.
        axis (int|list, optional): axes to reduce; None uses all elements.
        keepdim (bool, optional): keep reduced axes with size 1.
        interpolation (str, optional): ``'linear'``, ``'lower'``, ``'higher'``, ``'midpoint'``
            or ``'nearest'``.
        name (str, optional): unused.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> paddle.quantile(x, 0.5).item(), paddle.quantile(x, [0.0, 1.0]).tolist()
        (2.5, [1.0, 4.0])
    """
    r = _quantile(x, q, axis, keepdim, interpolation, "quantile", torch.quantile)
    return r if out is None else write_out(out, r)


@defop(paddle_types=("nanquantile",))
def nanquantile(x, q, axis=None, keepdim=False, interpolation='linear'):
    """Like :func:`quantile`, ignoring NaN values.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nanquantile(paddle.to_tensor([1.0, float('nan'), 3.0]), 0.5).item()
        2.0
    """
    return _quantile(x, q, axis, keepdim, interpolation, "nanquantile", torch.nanquantile)


def _hist_range(x, min, max, api, pad=1.0):
    lo, hi = float(min), float(max)
    if lo == 0 and hi == 0 and x.numel():
        vals = x[~torch.isnan(x)] if x.is_floating_point() else x  # NaN values are skipped, as in Paddle
        if vals.numel():
            lo, hi = float(vals.min()), float(vals.max())
    if math.isinf(hi - lo):
        raise ValueError(f"paddle.{api}: the range of the histogram must be finite, but received "
                         f"[{lo}, {hi}]")
    if lo > hi:
        raise ValueError(f"paddle.{api}: 'max' must be larger or equal to 'min', but received "
                         f"min = {min}, max = {max}")
    if lo == hi:  # histogram widens a single value by 1 each side, histogram_bin_edges by 0.5
        lo, hi = lo - pad, hi + pad
    return lo, hi


def _hist_kernel_range(x, min, max):
    """The flat values, ``lo`` and ``hi`` as Paddle's histogram kernel computes them: in the
    input's dtype (float32 for 16-bit floats), ``min``/``max`` held as float32 attributes and
    cast to that dtype; equal bounds (after the cast) mean the data's range, then +-1."""
    t = x.dtype
    if t in (torch.float16, torch.bfloat16):
        t = torch.float32
    elif t is torch.bool or t.is_complex:  # no Paddle kernel: count them as integers / reals
        t = torch.int64 if t is torch.bool else torch.float64
    xf = x.reshape(-1).to(t)
    lo, hi = (torch.tensor(float(v), dtype=torch.float32).item() for v in (min, max))
    if not t.is_floating_point:
        lo, hi = int(lo), int(hi)
    if lo == hi and xf.numel():
        vals = xf[~torch.isnan(xf)] if t.is_floating_point else xf
        if vals.numel():
            lo, hi = vals.min().item(), vals.max().item()
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    return xf, lo, hi


def _int_bins(bins, api: str) -> int:
    """``bins`` as Paddle's parser reads it: an integer (a numpy integer or a one-element
    tensor too; a float, bool or string is a TypeError), then at least 1 (ValueError)."""
    if type(bins) is torch.Tensor and bins.numel() == 1 and bins.dtype is not torch.bool:
        bins = int(bins.item())  # Paddle's parser reads a one-element tensor of any real dtype
    elif type(bins) is not bool:
        try:
            bins = operator.index(bins)
        except TypeError:
            pass
    if type(bins) is not int:
        raise TypeError(f"paddle.{api}: 'bins' must be an int, but received "
                        f"{type(bins).__name__} ({bins!r})")
    if bins < 1:
        raise ValueError(f"paddle.{api}: 'bins' must be greater than or equal to 1, but received {bins}")
    return bins


_HISTOGRAM_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64))


@defop(paddle_types=("histogram", "pd_op.histogram"), differentiable=False)
def histogram(input, bins=100, min=0.0, max=0.0, weight=None, density=False, name=None):
    """Histogram of ``input`` with ``bins`` equal-width bins over ``[min, max]``.

    When ``min`` and ``max`` are both 0 the data's own range is used. Counts are int64;
    with ``weight`` (sums of weights) or ``density`` the result is float32.

    Args:
        input (Tensor): the values (any shape).
        bins (int, optional): number of bins. Default 100.
        min (float, optional): lower edge.
        max (float, optional): upper edge.
        weight (Tensor, optional): a weight per element.
        density (bool, optional): normalise so the histogram integrates to 1.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.histogram(paddle.to_tensor([1.0, 2.0, 1.0, 4.0]), bins=3).tolist()
        [2, 1, 1]
    """
    bins = _int_bins(bins, "histogram")
    if weight is not None and not isinstance(weight, torch.Tensor):  # Paddle's argument parser
        raise ValueError(f"paddle.histogram: argument 'weight' must be a Tensor, but received "
                         f"{type(weight).__name__}")
    if weight is not None and weight.dtype is not input.dtype:
        raise ValueError(f"paddle.histogram: 'weight' must have the dtype of 'input' ({dtype_name(input)}), "
                         f"but received {dtype_name(weight)}")
    kernel_dtypes("histogram", input, _HISTOGRAM_DTYPES, "input")
    if type(density) is not bool:
        density = parser_bool(density, "histogram", "density")
    for arg, v in (("min", min), ("max", max)):
        if isinstance(v, str):  # Paddle's argument parser wants a number
            raise TypeError(f"paddle.histogram: '{arg}' must be a number, but received str ({v!r})")
    if input.numel() == 0:  # Paddle's shortcut: zeros of the input's dtype, whatever the options
        if float(min) > float(max):
            raise ValueError(f"paddle.histogram: 'max' must be larger or equal to 'min', but "
                             f"received min = {min}, max = {max}")
        return torch.zeros(bins, dtype=input.dtype, device=input.device)
    _hist_range(input, min, max, "histogram")  # the argument checks
    xf, lo, hi = _hist_kernel_range(input, min, max)
    info = torch.finfo(xf.dtype) if xf.is_floating_point() else torch.iinfo(xf.dtype)
    if not float(hi) - float(lo) < float(info.max):   # Paddle's kernel checks the span in double
        raise ValueError(f"paddle.histogram: the range max - min must be less than {info.max} for "
                         f"'input' of dtype {dtype_name(input)}, but min is {lo}, max is {hi}")
    inside = (xf >= lo) & (xf <= hi)
    if xf.is_floating_point():
        pos = torch.where(inside, (xf - lo) * bins / (hi - lo), torch.zeros_like(xf)).floor()
    else:  # integer arithmetic, as Paddle's kernel does for integer inputs
        pos = torch.where(inside, torch.div((xf - lo) * bins, hi - lo, rounding_mode="floor"),
                          torch.zeros_like(xf))
    idx = pos.clamp(0, bins - 1).to(torch.int64)
    if weight is None:
        w = inside.to(torch.int64)
        out_dtype = torch.int64
    else:
        w = torch.where(inside, weight.reshape(-1), torch.zeros((), dtype=weight.dtype,
                                                                 device=weight.device))
        out_dtype = torch.float32
    counts = torch.zeros(bins, dtype=w.dtype, device=input.device).index_add_(0, idx, w)
    if density:
        counts = counts.to(torch.float64)
        return (counts / (counts.sum() * ((hi - lo) / bins))).to(torch.float32)
    return counts.to(out_dtype)


# the dtypes of Paddle's CPU min and max kernels (histogram_bin_edges takes the data's range)
_HIST_EDGES_DTYPES = frozenset({torch.float32, torch.float64, torch.int32, torch.int64})


@defop(paddle_types=("histogram_bin_edges",), differentiable=False)
def histogram_bin_edges(input, bins=100, min=0.0, max=0.0, name=None):
    """The ``bins + 1`` edges that :func:`histogram` uses.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.histogram_bin_edges(paddle.to_tensor([1.0, 4.0]), bins=3).tolist()
        [1.0, 2.0, 3.0, 4.0]
    """
    if float(min) == 0 and float(max) == 0:
        # the data's range, from Paddle's min and max kernels: float32/64 and int32/64 only
        kernel_dtypes("histogram_bin_edges", input, _HIST_EDGES_DTYPES, "input")
    if input.numel() == 0 and float(min) == 0 and float(max) == 0:
        raise ValueError("paddle.histogram_bin_edges: cannot take the range of an empty input; "
                         "pass 'min' and 'max'")
    lo, hi = _hist_range(input, min, max, "histogram_bin_edges", pad=0.5)
    n = int(bins + 1) if isinstance(bins, float) else bins + 1  # linspace truncates a float count
    return torch.linspace(lo, hi, n, dtype=torch.float32, device=input.device)


@defop(paddle_types=("histogramdd",), differentiable=False)
def histogramdd(x, bins=10, ranges=None, density=False, weights=None, name=None):
    """Multi-dimensional histogram of the points in the rows of ``x`` (shape ``[..., D]``).

    Args:
        x (Tensor): the points; the last axis holds the D coordinates.
        bins (int|list[int]|list[Tensor], optional): bin counts per dimension, or bin edges.
        ranges (list[float], optional): ``[min0, max0, min1, max1, ...]``; the data range by default.
        density (bool, optional): normalise to a density.
        weights (Tensor, optional): a weight per point.

    Returns:
        tuple(Tensor, list[Tensor]): the histogram and the bin edges of each dimension.

    Examples:
        >>> import pagaie as paddle
        >>> h, edges = paddle.histogramdd(paddle.to_tensor([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]), bins=2)
        >>> h.tolist(), edges[0].tolist()
        ([[0.0, 1.0], [1.0, 1.0]], [0.0, 1.0, 2.0])
    """
    if weights is not None and weights.dtype != x.dtype:   # (Paddle asserts it before any kernel)
        raise AssertionError(f"paddle.histogramdd: 'weights' must have the dtype of 'x' "
                             f"({dtype_name(x)}), but received {dtype_name(weights)}")
    kernel_dtypes("histogramdd", x, _HISTOGRAM_DTYPES, static=F32_F64)   # (a float-only static check)
    if x.dim() < 2:
        raise AssertionError(f"paddle.histogramdd: 'x' must have at least 2 dimensions, but received shape "
                             f"{list(x.shape)}")
    d = x.shape[-1]
    if density and _is_int(x):  # Paddle divides the integer counts by float volumes: TypeError
        raise TypeError(f"paddle.histogramdd: density=True needs a float 'x', but received "
                        f"{dtype_name(x)}")
    if isinstance(bins, bool):  # an int to Paddle
        bins = int(bins)
    if not isinstance(bins, (int, list, tuple)):
        raise ValueError(f"paddle.histogramdd: 'bins' must be an int, a list of ints or a list of "
                         f"Tensors, but received {type(bins).__name__}")
    if isinstance(bins, (list, tuple)):
        if len(bins) != d:
            raise AssertionError(f"paddle.histogramdd: 'bins' must have {d} entries (the last dimension of x), "
                                 f"but received {len(bins)}")
        if not all(type(b) is _T for b in bins) and not all(isinstance(b, int) for b in bins):
            raise ValueError(f"paddle.histogramdd: the entries of 'bins' must all be ints or all "
                             f"Tensors, but received {bins}")
    counts = [bins] * d if isinstance(bins, int) else [b for b in bins if isinstance(b, int)]
    if any(b <= 0 for b in counts):
        raise ValueError(f"paddle.histogramdd: the bin counts must be positive, but received {bins}")
    if ranges is not None and len(ranges) != 2 * d:
        raise AssertionError(f"paddle.histogramdd: 'ranges' must have {2 * d} values (a min and a max per "
                             f"dimension), but received {len(ranges)}")
    if ranges is not None and any(float(lo) > float(hi) for lo, hi in zip(ranges[0::2], ranges[1::2])):
        raise ValueError(f"paddle.histogramdd: each min of 'ranges' must not exceed its max, but "
                         f"received {list(ranges)}")
    if weights is not None and list(weights.shape) != list(x.shape[:-1]):
        raise AssertionError(f"paddle.histogramdd: 'weights' must have the shape of 'x' without its "
                             f"last dimension ({list(x.shape[:-1])}), but received "
                             f"{list(weights.shape)}")
    if ranges is None and x.numel() == 0:   # Paddle reduces the data for its range: ValueError
        raise ValueError("paddle.histogramdd: 'x' is empty, so the data range is unknown; give "
                         "'ranges'")
    dev = x.device
    pts = x.detach().cpu()
    if isinstance(bins, (list, tuple)) and bins and type(bins[0]) is _T:
        bins = [b.detach().cpu().to(pts.dtype) for b in bins]
    w = None if weights is None else weights.detach().cpu().to(pts.dtype)
    rng = None if ranges is None else [float(v) for v in ranges]
    out_dt = pts.dtype
    if not pts.is_floating_point():  # integer points: counted in float64, results in x's dtype
        pts = pts.to(torch.float64)
        w = None if w is None else w.to(torch.float64)
        if isinstance(bins, (list, tuple)) and bins and type(bins[0]) is _T:
            bins = [b.to(torch.float64) for b in bins]
        else:  # Paddle computes the edges in x's integer dtype (truncated), then counts with them
            fedges = _flat_dims_edges(pts, bins, rng)
            if fedges is bins:
                _, fedges = torch.histogramdd(pts, bins, range=rng)
            bins = [e.to(out_dt).to(torch.float64) for e in fedges]
            rng = None
    bins = _flat_dims_edges(pts, bins, rng)
    if bins is not None and not isinstance(bins, int) and type(bins[0]) is _T:
        rng = None
    h, edges = torch.histogramdd(pts, bins, range=rng, weight=w, density=density)
    return h.to(dev, out_dt), [e.to(dev, out_dt) for e in edges]


def _flat_dims_edges(pts, bins, rng):
    """``bins`` as explicit edges when a dimension's range is a single value: Paddle does not
    widen it (torch pads it by 0.5), its edges all equal that value and every point falls in
    the last bin."""
    if isinstance(bins, (list, tuple)) and bins and type(bins[0]) is _T:
        return bins
    d = pts.shape[-1]
    flat = pts.reshape(-1, d)
    if rng is None:
        if flat.shape[0] == 0:
            return bins
        lo, hi = flat.min(0).values.tolist(), flat.max(0).values.tolist()
    else:
        lo, hi = rng[0::2], rng[1::2]
    if all(a != b for a, b in zip(lo, hi)):
        return bins
    _, edges = torch.histogramdd(pts, bins, range=rng)
    return [torch.full_like(e, a) if a == b else e for e, a, b in zip(edges, lo, hi)]


def _scalar_int(v, api: str, arg: str) -> int:
    """An int argument Paddle's Scalar parser reads: a one-element tensor gives its value, a
    float (numpy's too) is truncated, a bool or a one-element numpy array gives its int."""
    if isinstance(v, torch.Tensor):
        if v.numel() != 1:
            raise ValueError(f"paddle.{api}: a Tensor '{arg}' must have 1 element, but it has "
                             f"{v.numel()}")
        return int(v.item())
    n = scalar_axis(v)
    if type(n) is not int:
        raise TypeError(f"paddle.{api}: '{arg}' must be an int, a float, a bool or a Tensor, but "
                        f"received {type(v).__name__}")
    return n


_BINCOUNT_WEIGHTS = F32_F64 | {torch.int32, torch.int64}


def _bincount_static_shape(x, weights=None, minlength=0, name=None):
    """Static rule of bincount: the length follows x's largest value (minlength only bounds it
    below), so Paddle's programs declare it unknown (-1); int64 counts, or sums in the float
    weights' dtype (float64 for integer weights)."""
    w = None if weights is None else getattr(weights, "_t", weights)
    dtype = torch.int64 if w is None else w.dtype if w.is_floating_point() else torch.float64
    return [-1], dtype


def _bincount_static_check(x, weights=None, minlength=0, name=None):
    """Paddle's program builder checks bincount's input before any kernel runs: integer
    elements (TypeError), a 1-D ``x`` and ``weights`` of its shape (ValueError)."""
    t = getattr(x, "_t", x)
    if t.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"paddle.bincount: the elements of 'x' must be int32 or int64 integers, but "
                        f"received {dtype_name(t)}")
    if t.dim() != 1:
        raise ValueError(f"paddle.bincount: 'x' must be a 1-D tensor, but received shape {list(x.shape)}")
    if weights is not None and list(weights.shape) != list(x.shape):
        raise ValueError(f"paddle.bincount: 'weights' must have the shape of 'x' ({list(x.shape)}), "
                         f"but received {list(weights.shape)}")


@defop(paddle_types=("bincount", "pd_op.bincount"), differentiable=False, static_shape=_bincount_static_shape,
       static_check=_bincount_static_check)
def bincount(x, weights=None, minlength=0, name=None):
    """Count occurrences of each non-negative integer in the 1-D tensor ``x``.

    Args:
        x (Tensor): 1-D int tensor of non-negative values.
        weights (Tensor, optional): a weight per element; sums of weights are returned.
        minlength (int, optional): the minimum length of the result.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.bincount(paddle.to_tensor([1, 1, 3])).tolist()
        [0, 2, 0, 1]
    """
    if x.dtype not in (torch.int32, torch.int64):  # (int8, int16 and uint8 are refused too)
        raise TypeError(f"paddle.bincount: the elements of 'x' must be int32 or int64 integers, but "
                        f"received {dtype_name(x)}")
    if weights is not None and not isinstance(weights, torch.Tensor):  # Paddle's argument parser
        raise ValueError(f"paddle.bincount: argument 'weights' must be a Tensor, but received "
                         f"{type(weights).__name__}")
    if weights is not None and weights.dtype not in _BINCOUNT_WEIGHTS:  # no Paddle kernel
        raise NoKernelError(f"paddle.bincount: 'weights' of dtype {dtype_name(weights)} is not "
                            "supported (Paddle's kernel takes float32, float64, int32, int64)")
    if x.dim() != 1:
        raise ValueError(f"paddle.bincount: 'x' must be a 1-D tensor, but received shape {list(x.shape)}")
    if x.numel() and int(x.min()) < 0:
        raise ValueError("paddle.bincount: the elements of 'x' must be non-negative")
    if type(minlength) is not int:
        minlength = _scalar_int(minlength, "bincount", "minlength")
    if minlength < 0:
        raise ValueError(f"paddle.bincount: 'minlength' must be non-negative, but received {minlength}")
    if x.numel() == 0:  # Paddle's shortcut: int64 zeros, whatever the weights' dtype
        return torch.zeros(minlength, dtype=torch.int64, device=x.device)
    r = torch.bincount(x, weights, minlength)
    if weights is not None and weights.is_floating_point() and r.dtype is not weights.dtype:
        r = r.to(weights.dtype)
    return r


_NO_SUBTRACT = frozenset((torch.bool, torch.uint8, torch.int8, torch.int16))


@defop(amp="black", paddle_types=("cov",), program_no_arrays=("x",))   # its static type check
def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """Covariance matrix of the variables in the rows (``rowvar=True``) or columns of ``x``.

    Args:
        x (Tensor): 1-D or 2-D float tensor.
        rowvar (bool, optional): rows are variables (True) or observations (False).
        ddof (bool|float, optional): divide by ``N - 1`` (True) or ``N`` (False); a number
            divides by ``N - ddof`` (clipped at 0), except with ``aweights``.
        fweights (Tensor, optional): integer frequency weights per observation.
        aweights (Tensor, optional): observation weights.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.cov(paddle.to_tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]])).tolist()
        [[1.0, 2.0], [2.0, 4.0]]
    """
    _check_cov_input("linalg.cov", x)
    no_low_float_kernel("linalg.cov", x)   # (Paddle's CPU divide kernel)
    for arg, w in (("fweights", fweights), ("aweights", aweights)):
        if w is not None and not isinstance(w, torch.Tensor):
            raise TypeError(f"paddle.linalg.cov: '{arg}' must be a Tensor, but received {type(w).__name__}")
    if aweights is not None:   # Paddle checks their minimum (no float16/bfloat16 CPU min kernel)
        no_low_float_kernel("linalg.cov", aweights, arg="aweights")
    if fweights is not None and fweights.is_floating_point():  # Paddle takes integral float weights too
        if not bool(torch.all(fweights == torch.round(fweights))):
            raise ValueError("paddle.linalg.cov: 'fweights' must hold integers, but received non-integral values")
        fweights = fweights.to(torch.int64)
    if x.dtype in _NO_SUBTRACT:   # Paddle's CPU kernel of the centring subtraction lacks them
        raise NoKernelError(f"paddle.linalg.cov: {dtype_name(x)} inputs are not supported (no kernel for "
                            f"'subtract')")
    if _is_int(x):
        raise TypeError(f"paddle.linalg.cov: the input must be a float tensor, but received "
                        f"{dtype_name(x)}")
    if x.dim() > 2:
        raise ValueError(f"paddle.linalg.cov: the input must be 1-D or 2-D, but received {x.dim()}-D")
    if not rowvar and x.dim() == 2:
        x = x.t()
    if aweights is not None and aweights.dtype is not x.dtype:
        aweights = aweights.to(x.dtype)
    if ddof is None:
        raise TypeError("paddle.linalg.cov: 'ddof' must be a bool or a number, but received None")
    if aweights is not None or type(ddof) is bool or ddof in (0, 1):
        # (with aweights Paddle reads ddof as a flag)
        return torch.cov(x, correction=int(bool(ddof)), fweights=fweights, aweights=aweights)
    # Paddle divides by the observation count less ddof, taken as a number, clipped at 0
    n = fweights.sum().to(x.dtype) if fweights is not None else \
        torch.tensor(float(x.shape[-1] if x.dim() else 1), dtype=x.dtype, device=x.device)
    return torch.cov(x, correction=0, fweights=fweights) * (n / torch.clamp(n - ddof, min=0))


@defop(amp="black", paddle_types=("corrcoef",), program_no_arrays=("x",))
def corrcoef(x, rowvar=True, name=None):
    """Pearson correlation coefficients of the variables in the rows (or columns) of ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.corrcoef(paddle.to_tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])).tolist()
        [[1.0, -1.0], [-1.0, 1.0]]
    """
    _check_cov_input("linalg.corrcoef", x)
    no_low_float_kernel("linalg.corrcoef", x)
    if x.dtype in _NO_SUBTRACT:   # Paddle's CPU kernel of the centring subtraction lacks them
        raise NoKernelError(f"paddle.linalg.corrcoef: {dtype_name(x)} inputs are not supported (no kernel for "
                            f"'subtract')")
    if _is_int(x):
        raise TypeError(f"paddle.linalg.corrcoef: the input must be a float tensor, but received "
                        f"{dtype_name(x)}")
    if x.dim() > 2:
        raise ValueError(f"paddle.linalg.corrcoef: the input must be 1-D or 2-D, but received {x.dim()}-D")
    if not rowvar and x.dim() == 2:
        x = x.t()
    return torch.corrcoef(x)
