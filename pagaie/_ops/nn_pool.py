"""Pooling: max / avg / lp pools, their adaptive forms and max-unpooling.

Paddle's output size rule differs from torch's in ceil mode (Paddle keeps a last
window that starts in the right padding), and Paddle accepts asymmetric and
``'SAME'`` paddings. Pools that torch can run directly take the fast path; the
others pad explicitly and pool with no padding, which gives Paddle's results:
max ignores padding, exclusive averages divide by the real elements covered,
non-exclusive ones by the window clipped to ``before`` padding past either input end
(Paddle's rule, also for asymmetric and 'SAME' padding).

Not a top-level family: ``pagaie.nn.functional`` re-exports ``__all__``.
"""
from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from pagaie._core import engine
from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import F32_F64, kernel_dtypes
from pagaie._ops._nn_helpers import (channel_last, conv_padding, ntuple, pad_input, same_pads,
                                     to_first, to_last, scan_max)

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "lp_pool1d", "lp_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
           "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
           "adaptive_max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d",
           "fractional_max_pool2d", "fractional_max_pool3d"]


def _float32_sums(pool):
    """``pool`` over a float16 CPU input summed in float32, as Paddle's CPU kernels do (its
    average is rounded once): torch's 3-D CPU average pool has no float16 kernel and its
    adaptive one sums in float16, whose rounding differs."""
    def run(x, *args):
        if x.dtype is torch.float16 and x.device.type == "cpu":
            return pool(x.float(), *args).to(torch.float16)
        return pool(x, *args)
    return run


_MAX = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
_AVG = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: _float32_sums(F.avg_pool3d)}
_AMAX = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}
_AAVG = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d,
         3: _float32_sums(F.adaptive_avg_pool3d)}
_UNPOOL = {1: F.max_unpool1d, 2: F.max_unpool2d, 3: F.max_unpool3d}
_DEFAULT_FMT = {1: "NCL", 2: "NCHW", 3: "NCDHW"}


_HALF = F32_F64 | {torch.float16}
_HALVES = _HALF | {torch.bfloat16}
# Paddle's CPU kernels of each pool: api -> (eager dtypes, dtypes a CPU program may be built
# with where they differ: its oneDNN bfloat16 kernels). Another dtype is its NotFound eagerly
# (a RuntimeError; integers, bool and complex on any device), a TypeError while a program is
# built. The indexed max pools (``return_mask``) take float32/float64 only.
_DTYPES = {
    **dict.fromkeys(("avg_pool1d", "avg_pool3d", "max_pool3d", "adaptive_avg_pool3d",
                     "fractional_max_pool2d", "fractional_max_pool3d"), (_HALF, None)),
    **dict.fromkeys(("avg_pool2d", "max_pool1d", "max_pool2d", "adaptive_avg_pool1d",
                     "adaptive_avg_pool2d"), (_HALF, _HALVES)),
    **dict.fromkeys(("lp_pool1d", "lp_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d",
                     "adaptive_max_pool3d", "mask"), (F32_F64, None)),
    **dict.fromkeys(("max_unpool1d", "max_unpool2d", "max_unpool3d"), (F32_F64 | {torch.int64}, None)),
}


def _check_float(x: torch.Tensor, api: str, key: str | None = None) -> None:
    """Paddle's NotFound (RuntimeError) for a dtype the CPU kernels of ``api`` lack (see
    ``_DTYPES``, read under ``key`` when given)."""
    allowed, static = _DTYPES[key or api.rsplit(".", 1)[-1]]
    if x.dtype not in allowed:
        if not x.is_floating_point():
            names = ", ".join(sorted(str(d).replace("torch.", "") for d in allowed))
            raise NoKernelError(f"paddle.{api}: the input dtype must be one of {names}, but "
                                f"received {str(x.dtype).replace('torch.', '')}")
        kernel_dtypes(api, x, allowed, static=static)


def _refuse_tensor(v, api: str, arg: str, want: str) -> None:
    """Paddle's pools read ``arg`` as Python data: a Tensor, alone or in a list, is its
    NotSupportedTensorArgumentError (a TypeError)."""
    if isinstance(v, torch.Tensor) or isinstance(v, (list, tuple)) and any(
            isinstance(e, torch.Tensor) for e in v):
        from pagaie.utils.layers_utils import NotSupportedTensorArgumentError
        raise NotSupportedTensorArgumentError(
            f"paddle.{api}: '{arg}' must be {want}, but received a Tensor", arg)


def _refuse_str(v, n: int, api: str, arg: str) -> None:
    """A string window argument, which Paddle reads as a sequence of characters: too short for
    n > 1 (ValueError), else not the list of ints its argument parser wants (TypeError, as for
    a string inside a list)."""
    if isinstance(v, str) or isinstance(v, (list, tuple)) and any(isinstance(e, str) for e in v):
        error = ValueError if isinstance(v, str) and n > 1 and len(v) != n else TypeError
        raise error(f"paddle.{api}: '{arg}' must be an int or a list/tuple of {n} ints, but "
                    f"received {v!r}")


def _window_ints(v, n: int, api: str, arg: str) -> list[int]:
    """``kernel_size`` / ``stride`` (and the unpools' ``padding``) as ``n`` ints, read as
    Paddle reads them: a Python int, or a list, tuple or 1-D array of exactly ``n`` ints.
    A Tensor, alone or in a list, is a TypeError (NotSupportedTensorArgumentError); any other
    single value (a float, a numpy scalar) or a sequence of another length a ValueError; a
    bool, or a float or bool in a list, a TypeError (Paddle's argument parser)."""
    _refuse_tensor(v, api, arg, "an int or a list of ints")
    _refuse_str(v, n, api, arg)
    if isinstance(v, np.ndarray) and v.ndim == 1:
        v = v.tolist()
    items = v if isinstance(v, (list, tuple)) else [v]
    if any(isinstance(e, (bool, np.bool_)) for e in items) or isinstance(v, (list, tuple)) and any(
            isinstance(e, (float, np.floating)) for e in v):
        raise TypeError(f"paddle.{api}: '{arg}' must hold ints, but received {v!r}")
    if not isinstance(v, (int, list, tuple)):
        raise ValueError(f"paddle.{api}: '{arg}' must be an int or a list/tuple of {n} ints, "
                         f"but received {type(v).__name__} {v!r}")
    if isinstance(v, (list, tuple)) and len(v) != n:
        raise ValueError(f"paddle.{api}: '{arg}' must be an int or a list/tuple of {n} ints, "
                         f"but received {list(v)} ({len(v)} values)")
    return ntuple(v, n, api, arg)


def _check_pool_padding(padding, api: str) -> None:
    """Paddle's pools take int paddings only: a Tensor is a TypeError
    (NotSupportedTensorArgumentError), a float or a numpy number a ValueError, as is a Tensor
    or a numpy number in the list of ints (a float inside pairs is a TypeError)."""
    if isinstance(padding, torch.Tensor):
        _refuse_tensor(padding, api, "padding", "an int, a list of ints or a string")
    items = padding if isinstance(padding, (list, tuple)) else [padding]
    pairs = [v for e in items if isinstance(e, (list, tuple)) for v in e]
    if any(isinstance(v, float) for v in pairs):  # the pairs form reaches the kernel's checks
        raise TypeError(f"paddle.{api}: 'padding' must hold ints, but received {padding!r}")
    if any(not isinstance(v, (int, str, list, tuple)) for v in items):
        raise ValueError(f"paddle.{api}: 'padding' must hold ints, but received {padding!r}")


def _trunc_div(a: int, b: int) -> int:
    return -((-a) // b) if a < 0 else a // b


class _Geom:
    """A pooling call's normalised geometry (channels-first input)."""

    __slots__ = ("x", "last", "k", "s", "pairs", "out", "fast", "ceil", "empty")

    def __init__(self, api, n, x, kernel_size, stride, padding, ceil_mode, data_format):
        if ceil_mode is None:   # Paddle's bool attribute reads None as False
            ceil_mode = False
        elif not isinstance(ceil_mode, bool):
            raise TypeError(f"paddle.{api}: 'ceil_mode' must be a bool, but received "
                            f"{type(ceil_mode).__name__} {ceil_mode!r}")
        self.last = channel_last(data_format, n, api)
        if x.dim() != n + 2:
            raise ValueError(f"paddle.{api}: the input 'x' must be a {n + 2}-D tensor, but "
                             f"received a {x.dim()}-D tensor of shape {list(x.shape)}")
        _check_float(x, api)
        x = to_first(x) if self.last else x
        k = _window_ints(kernel_size, n, api, "kernel_size")
        s = k if stride is None else _window_ints(stride, n, api, "stride")
        if min(k) <= 0 or min(s) <= 0:
            raise ValueError(f"paddle.{api}: 'kernel_size' and 'stride' must be positive, but "
                             f"received kernel_size={kernel_size}, stride={stride}")
        _check_pool_padding(padding, api)
        mode, pad = conv_padding(padding, n, self.last, api)
        sizes = list(x.shape[2:])
        if mode == "VALID":
            if ceil_mode:
                raise ValueError('When Attr(padding) is "VALID", Attr(ceil_mode) must be False. '
                                 f"Received ceil_mode: {ceil_mode}.")
            pairs = [(0, 0)] * n
        elif mode == "SAME":   # ceil_mode still applies (a window past the end, as Paddle's)
            pairs = same_pads(sizes, k, s)
        elif mode == "sym":
            pairs = [(p, p) for p in pad]
        else:
            pairs = pad
        if any(a < 0 or b < 0 for a, b in pairs):
            # Paddle's windows start at -before and end by size + after: a negative padding
            # crops the input
            for d, (a, b) in enumerate(pairs):
                lo, hi = max(-a, 0), max(-b, 0)
                x = x.narrow(d + 2, min(lo, x.shape[d + 2]), max(x.shape[d + 2] - lo - hi, 0))
            pairs = [(max(a, 0), max(b, 0)) for a, b in pairs]
            sizes = list(x.shape[2:])
        out = []
        for i, kk, ss, (a, b) in zip(sizes, k, s, pairs):
            span = i + a + b - kk
            # Paddle divides as C does (toward zero): a window up to one stride larger than
            # the input still gives one output, over the part that exists; less gives none.
            o = _trunc_div(span + ss - 1 if ceil_mode else span, ss) + 1
            out.append(max(o, 0))
        # no window, or no element (a zero batch or channel count, which torch's pool
        # kernels refuse): an empty result of Paddle's shape
        self.empty = min(out) == 0 or x.numel() == 0
        # torch runs it directly when padding is symmetric, at most half the kernel, the
        # windows fit in the input, and torch's ceil-mode output size agrees with Paddle's.
        fast = all(a == b and a <= kk // 2 and i + a + b >= kk
                   for (a, b), kk, i in zip(pairs, k, sizes))
        if fast and ceil_mode:
            for i, kk, ss, (a, _), o in zip(sizes, k, s, pairs, out):
                if (o - 1) * ss >= i + a:
                    fast = False
        self.x, self.k, self.s, self.pairs, self.out = x, k, s, pairs, out
        self.fast, self.ceil = fast, ceil_mode

    def padded(self, value: float, x: torch.Tensor | None = None) -> torch.Tensor:
        """The input (or ``x``) padded by the pairs, then on the right so floor pooling gives ``out``."""
        x = self.x if x is None else x
        pairs = [(a, b + max((o - 1) * ss + kk - (i + a + b), 0))
                 for i, kk, ss, (a, b), o in zip(self.x.shape[2:], self.k, self.s, self.pairs, self.out)]
        return pad_input(x, pairs, value)

    def finish(self, y: torch.Tensor) -> torch.Tensor:
        return to_last(y) if self.last else y

    def nothing(self) -> torch.Tensor:
        """The empty result of windows that do not fit at all (as Paddle gives)."""
        r = self.x.new_empty(tuple(self.x.shape[:2]) + tuple(self.out))
        if self.x.requires_grad:   # still in the graph (zero gradients), as Paddle's result
            r = r + self.x.reshape(-1)[:0].sum()
        return self.finish(r)


class _WindowGrad(torch.autograd.Function):
    """``fn(x)`` whose gradient map does not depend on ``x`` in the graph.

    A max or average pool's gradient only routes the output gradient through fixed windows,
    and Paddle's pool double grad reaches the output gradient alone (``x`` gets None). torch's
    pool backward kernels take ``x`` as an input, which links ``x`` into the gradient's graph
    (as zeros); here the pool runs on a detached copy of ``x`` whose graph the backward reuses.
    """

    @staticmethod
    def forward(ctx, x, fn):
        inner = x.detach().requires_grad_()
        with torch.enable_grad():
            y = fn(inner)
        ctx.inner = (inner, y)
        return y.detach()

    @staticmethod
    def backward(ctx, grad):
        inner, y = ctx.inner
        (gx,) = engine.grad([y], [inner], [grad], retain_graph=True,
                            create_graph=torch.is_grad_enabled())
        return gx, None


def _window_pool(x: torch.Tensor, fn) -> torch.Tensor:
    """``fn(x)`` through :class:`_WindowGrad` when a gradient is recorded, else directly.
    Compiled code keeps torch's pool gradient: the nested ``autograd.grad`` would split the
    graph at every pool (the compiled executor's other kernels skip such extras likewise)."""
    if x.requires_grad and torch.is_grad_enabled() and not torch.compiler.is_compiling():
        return _WindowGrad.apply(x, fn)
    return fn(x)


def _prefers_channels_last(x: torch.Tensor) -> bool:
    """A large, contiguous 4-D CPU float map with several channels."""
    return (x.device.type == "cpu" and x.dim() == 4 and x.is_floating_point()
            and x.shape[1] >= 8 and x.numel() >= 1 << 16 and x.is_contiguous())


def _lowest(dtype: torch.dtype) -> float:
    """What Paddle fills windows that lie entirely in the padding with: float32's lowest value
    (also for float64)."""
    return torch.finfo(torch.float32 if dtype == torch.float64 else dtype).min


def _floor_lowest(out: torch.Tensor, idx: torch.Tensor | None = None):
    """Paddle's max pools start each window at float32's lowest value (for float64 too) and
    keep an element only when it is larger: a window of ``-inf`` (or, in float64, of values
    below that) gives the lowest value, and its mask -1. ``out`` (and ``idx``) so adjusted;
    the gradient of such a window is 0, as Paddle's (no element equals the result)."""
    if out.dtype not in (torch.float32, torch.float64):
        return out if idx is None else (out, idx)
    low = _lowest(out.dtype)
    if idx is not None:
        idx = torch.where(out < low, torch.full_like(idx, -1), idx)
    out = out.clamp_min(low)
    return out if idx is None else (out, idx)


def _skip_nan(x: torch.Tensor) -> torch.Tensor:
    """``x`` with NaN as ``-inf``: Paddle's indexed (and adaptive) max pools keep an element
    only when the running maximum is smaller than it, which a NaN never is."""
    if not x.is_floating_point():
        return x
    return torch.where(torch.isnan(x), torch.full_like(x, -math.inf), x)


def _max_values(g: _Geom, n: int, x: torch.Tensor) -> torch.Tensor:
    """The max pool of channels-first ``x`` over ``g``'s windows."""
    # (compiled code and meta tensors have no values to look at: torch's pool there)
    if x.is_floating_point() and x.device.type != "meta" and not torch.compiler.is_compiling() \
            and bool(torch.isnan(x).any()):
        return _nan_max_windows(g, n, x)
    return _floor_lowest(_max_windows(g, n, x))


def _nan_max_windows(g: _Geom, n: int, x: torch.Tensor) -> torch.Tensor:
    """Paddle's plain max pool of a map holding NaN. Its kernel scans each window's elements
    in row-major order with ``y = y > v ? y : v``: a NaN replaces the running value, and the
    next element replaces a NaN. So a window gives the maximum of its elements after its last
    NaN, or NaN when the NaN is its last element. Its gradient goes to the window's first
    element equal to the result (none for NaN): :func:`scan_max` over the windows."""
    xp = g.padded(-math.inf, x=x)
    valid = g.padded(0.0, x=torch.ones_like(x, dtype=torch.uint8)).bool()
    for d, (kk, ss) in enumerate(zip(g.k, g.s)):
        xp, valid = xp.unfold(d + 2, kk, ss), valid.unfold(d + 2, kk, ss)
    return scan_max(xp.flatten(-n), valid.flatten(-n))


def _max_windows(g: _Geom, n: int, x: torch.Tensor) -> torch.Tensor:
    if not g.fast:
        return _MAX[n](g.padded(_lowest(x.dtype), x=x), g.k, g.s, 0, 1, False)
    pad = [a for a, _ in g.pairs]
    if n == 2 and _prefers_channels_last(x):
        # torch's CPU kernel for NCHW max pooling walks each plane with scalar code;
        # its channels-last one is vectorised over channels: 3-4x faster with the copies.
        return _MAX[2](x.contiguous(memory_format=torch.channels_last), g.k, g.s, pad, 1,
                       g.ceil).contiguous()
    return _MAX[n](x, g.k, g.s, pad, 1, g.ceil)


def _max_pool(api, n, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format):
    if return_mask and data_format != _DEFAULT_FMT[n]:
        raise ValueError(f"When setting return_mask to true, data_format must be set to "
                         f"{_DEFAULT_FMT[n]} in API:{api.split('.')[-1]}")
    if return_mask and isinstance(padding, str) and padding.upper() == "SAME":
        padding = 0  # Paddle's indexed max pool has no padding algorithm: SAME acts as 0
    g = _Geom(api, n, x, kernel_size, stride, padding, ceil_mode, data_format)
    if return_mask:
        _check_float(x, api, "mask")
    if g.empty:
        out = g.nothing()
        return (out, torch.empty(out.shape, dtype=torch.int32, device=out.device)) if return_mask else out
    if return_mask and any(a != b for a, b in g.pairs):
        raise ValueError(f"paddle.{api}: asymmetric padding {g.pairs} is not supported together "
                         "with return_mask=True")
    if not return_mask:
        return g.finish(_window_pool(g.x, lambda t: _max_values(g, n, t)))
    if g.fast:
        r = _MAX[n](_skip_nan(g.x), g.k, g.s, [a for a, _ in g.pairs], 1, g.ceil, True)
        return _floor_lowest(r[0], r[1].to(torch.int32))
    xp = g.padded(_lowest(x.dtype), x=_skip_nan(g.x))
    out, idx = _MAX[n](xp, g.k, g.s, 0, 1, False, True)
    # Indices refer to the padded map: back to the input's flattened spatial positions.
    psz, sz = list(xp.shape[2:]), list(g.x.shape[2:])
    flat = torch.zeros_like(idx)
    valid = torch.ones_like(idx, dtype=torch.bool)
    rem = idx
    coords = []
    for d in reversed(psz):
        coords.append(rem % d)
        rem = rem // d
    coords.reverse()
    for c, (a, _), d in zip(coords, g.pairs, sz):
        c = c - a
        valid &= (c >= 0) & (c < d)
        flat = flat * d + c
    # A window entirely in the padding has no maximum: Paddle marks it -1.
    return _floor_lowest(out, torch.where(valid, flat, -1).to(torch.int32))


def _avg_pool(api, n, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
              data_format):
    if exclusive is not None and type(exclusive) is not bool:   # Paddle's bool attribute
        raise TypeError(f"paddle.{api}: 'exclusive' must be a bool, but received "
                        f"{type(exclusive).__name__} {exclusive!r}")
    g = _Geom(api, n, x, kernel_size, stride, padding, ceil_mode, data_format)
    if divisor_override is not None and not isinstance(divisor_override, (int, float)):
        raise ValueError(f"paddle.{api}: 'divisor_override' must be an int or a float, but "
                         f"received {type(divisor_override).__name__}")
    if g.empty:
        return g.nothing()
    return g.finish(_window_pool(g.x, lambda t: _avg_values(g, n, t, exclusive,
                                                            divisor_override)))


def _avg_values(g: _Geom, n: int, x: torch.Tensor, exclusive: bool,
                divisor_override: float | None) -> torch.Tensor:
    """The average pool of channels-first ``x`` over ``g``'s windows."""
    # torch's 3-D average pool also refuses an input smaller than the kernel, padding or not
    if g.fast and divisor_override is None and (n != 3 or all(
            i >= kk for i, kk in zip(x.shape[2:], g.k))):
        return _AVG[n](x, g.k, g.s, [a for a, _ in g.pairs], g.ceil, not exclusive)
    numel = math.prod(g.k)
    sums = _AVG[n](g.padded(0.0, x=x), g.k, g.s, 0) * numel
    if exclusive:
        count = _exclusive_counts(g, x, sums.shape[2:])
        if divisor_override is not None:
            count = count.abs()  # an empty window past the end is +0 there, as Paddle's
    else:
        count = _inclusive_counts(g, x, sums.shape[2:])
    out = sums / count
    if divisor_override is not None:
        # Paddle rescales the average by kernel size / divisor (tensor division: a zero
        # divisor gives inf / nan, as in Paddle)
        out = out * numel / float(divisor_override)
    return out


def _inclusive_counts(g: _Geom, x: torch.Tensor, out_shape: torch.Size) -> torch.Tensor:
    """Paddle's divisor of each non-exclusive window: per axis ``min(start + k, size + before)
    - start`` (the padding counts up to ``before`` past the end), multiplied over the axes. A
    ceil-mode window starting past that is negative: its average is -0, not NaN."""
    count = torch.ones((), dtype=x.dtype, device=x.device)
    dims = len(out_shape)
    for d, (size, o) in enumerate(zip(x.shape[2:], out_shape)):
        before = g.pairs[d][0]
        start = torch.arange(o, device=x.device) * g.s[d] - before
        c = (start + g.k[d]).clamp(max=size + before) - start
        count = count * c.to(x.dtype).reshape((o,) + (1,) * (dims - d - 1))
    return count


def _exclusive_counts(g: _Geom, x: torch.Tensor, out_shape: torch.Size) -> torch.Tensor:
    """Paddle's element count of each exclusive window: per axis ``min(start + k, size) -
    max(start, 0)``, multiplied over the axes. A ceil-mode window past the input's end counts
    0 (its average is 0 / 0, NaN) or a negative number (-0, or +0 for two negative axes)."""
    count = torch.ones((), dtype=x.dtype, device=x.device)
    dims = len(out_shape)
    for d, (size, o) in enumerate(zip(x.shape[2:], out_shape)):
        start = torch.arange(o, device=x.device) * g.s[d] - g.pairs[d][0]
        c = (start + g.k[d]).clamp(max=size) - start.clamp(min=0)
        count = count * c.to(x.dtype).reshape((o,) + (1,) * (dims - d - 1))
    return count


def _lp_pool(api, n, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format):
    if norm_type == 0:
        raise ValueError(f"paddle.{api}: 'norm_type' cannot be 0, but received {norm_type}")
    if norm_type == math.inf:
        return _max_pool(api, n, x, kernel_size, stride, padding, False, ceil_mode, data_format)
    g = _Geom(api, n, x, kernel_size, stride, padding, ceil_mode, data_format)
    if g.empty:
        return g.nothing()
    p = float(norm_type)
    sums = _AVG[n](g.padded(0.0, x=g.x.pow(p)), g.k, g.s, 0) * math.prod(g.k)
    return g.finish(sums.pow(1.0 / p))


def _adaptive_size(output_size, x, n, api):
    if n == 1:
        # Paddle's 1-D adaptive pools take ints only: no Tensor (a TypeError), no None
        _refuse_tensor(output_size, api, "output_size", "an int")
        values = output_size if isinstance(output_size, (list, tuple)) else [output_size]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ValueError(f"paddle.{api}: 'output_size' must be an int or a list of one int, "
                             f"but received {output_size!r}")
    elif not isinstance(output_size, (int, list, tuple, torch.Tensor)) or isinstance(output_size, bool):
        raise TypeError(f"paddle.{api}: 'output_size' must be an int, a list/tuple or a Tensor, "
                        f"but received {type(output_size).__name__} {output_size!r}")
    if isinstance(output_size, torch.Tensor):
        output_size = output_size.tolist()
    sizes = output_size if isinstance(output_size, (list, tuple)) else [output_size] * n
    sizes = [v.item() if isinstance(v, torch.Tensor) else v for v in sizes]
    if len(sizes) < n:  # Paddle reads entry n - 1 of the list
        raise IndexError(f"paddle.{api}: 'output_size' must be an int or a list of {n} ints, but "
                         f"received {output_size}")
    if any(isinstance(v, float) for v in sizes):
        raise TypeError(f"paddle.{api}: 'output_size' must hold ints or None, but received "
                        f"{output_size}")
    if len(sizes) != n:
        raise ValueError(f"paddle.{api}: 'output_size' must be an int or a list of {n} ints, but "
                         f"received {output_size}")
    if x.dim() < n + 2 and any(v is None for v in sizes):  # None reads an input size
        raise ValueError(f"paddle.{api}: the input must be a {n + 2}-D tensor when 'output_size' "
                         f"has None entries, but received a {x.dim()}-D tensor")
    sizes = [int(x.shape[2 + i]) if v is None else int(v) for i, v in enumerate(sizes)]
    if any(v < 0 for v in sizes):   # Paddle's PreconditionNotMet on allocating the result
        raise RuntimeError(f"paddle.{api}: 'output_size' must not be negative, but received "
                           f"{output_size}")
    return sizes


def _adaptive_avg(api, n, x, output_size, data_format):
    if x.dim() != n + 2:
        raise ValueError(f"paddle.{api}: the input 'x' must be a {n + 2}-D tensor, but received "
                         f"a {x.dim()}-D tensor of shape {list(x.shape)}")
    _check_float(x, api)
    last = channel_last(data_format, n, api)
    x = to_first(x) if last else x
    sizes = _adaptive_size(output_size, x, n, api)
    out = _empty_map(x, sizes) if 0 in sizes else _window_pool(x, lambda t: _AAVG[n](t, sizes))
    return to_last(out) if last else out


def _empty_map(x: torch.Tensor, sizes: list[int]) -> torch.Tensor:
    """The empty result of an adaptive pool to a zero size, still linked to ``x``'s graph
    (torch's kernels have no backward for it; Paddle's gradient is zeros)."""
    return x.new_zeros(list(x.shape[:2]) + sizes) + x.flatten()[:0].sum()


def _adaptive_max(api, n, x, output_size, return_mask):
    if x.dim() != n + 2:
        raise ValueError(f"paddle.{api}: the input 'x' must be a {n + 2}-D tensor, but received "
                         f"a {x.dim()}-D tensor of shape {list(x.shape)}")
    _check_float(x, api)
    sizes = _adaptive_size(output_size, x, n, api)
    if 0 in sizes:
        out = _empty_map(x, sizes)
        return (out, torch.empty(out.shape, dtype=torch.int32, device=x.device)) if return_mask else out
    out = _AMAX[n](_skip_nan(x), sizes, return_mask)
    if return_mask:
        return _floor_lowest(out[0], out[1].to(torch.int32))
    return _floor_lowest(out)


def _unpool(api, n, x, indices, kernel_size, stride, padding, data_format, output_size):
    if x.dim() != n + 2:
        layout = {1: "[N, C, L]", 2: "[N, C, H, W]", 3: "[N, C, D, H, W]"}[n]
        raise ValueError(f"paddle.{api}: the input 'x' should have {layout} format, but received "
                         f"shape {list(x.shape)}")
    if data_format != _DEFAULT_FMT[n]:
        raise ValueError(f"paddle.{api}: Attr(data_format) should be '{_DEFAULT_FMT[n]}'. "
                         f"Received Attr(data_format): {data_format}.")
    if indices.is_floating_point() or indices.is_complex() or indices.dtype == torch.bool:
        raise ValueError(f"paddle.{api}: 'indices' must be an int32 or int64 tensor, but "
                         f"received {str(indices.dtype).replace('torch.', '')}")
    _check_float(x, api)
    k = _window_ints(kernel_size, n, api, "kernel_size")
    s = k if stride is None else _window_ints(stride, n, api, "stride")
    if isinstance(padding, str):
        raise ValueError(f"paddle.{api}: 'padding' must be an int or a list/tuple of {n} ints, "
                         f"but received {padding!r}")
    p = _window_ints(padding, n, api, "padding")
    default = [(i - 1) * ss - 2 * pp + kk for i, ss, pp, kk in zip(x.shape[2:], s, p, k)]
    if isinstance(output_size, torch.Tensor):
        # Paddle asserts a list/tuple (its 1-D form fails earlier, on list + tuple: a TypeError)
        error = TypeError if n == 1 else AssertionError
        raise error(f"paddle.{api}: output_size must be None, a list or a tuple, but received a "
                    f"Tensor")
    if output_size is None:
        size = default
    else:
        size = [int(v) for v in (output_size.tolist() if isinstance(output_size, torch.Tensor)
                                 else output_size)]
        if len(size) == n + 2:
            size = size[2:]
        elif n == 1 and len(size) == 1:
            # Paddle's 1-D form checks a one-value size as the 2-D [L, 1] against the sizes
            # of its unsqueezed input, which no L passes: only [N, C, L] works there
            raise ValueError(f"paddle.{api}: invalid output_size {size + [1]} (a one-value "
                             f"output_size is checked as 2-D; give [N, C, L])")
        if len(size) != n:
            raise ValueError(f"paddle.{api}: output_size should be a sequence of {n} or {n + 2} "
                             f"ints, but received {output_size}")
        for d, (w, f, ss) in enumerate(zip(size, default, s)):
            if not f - ss < w < f + ss:
                raise ValueError(f"paddle.{api}: invalid output_size {size}: dim {d} must be in "
                                 f"({f - ss}, {f + ss})")
    if list(indices.shape) != list(x.shape):
        raise ValueError(f"paddle.{api}: 'indices' must have the shape of 'x' {list(x.shape)}, "
                         f"but received shape {list(indices.shape)}")
    volume = math.prod(size)
    lo, hi = (int(indices.min()), int(indices.max())) if indices.numel() else (0, 0)
    if not 0 <= lo <= hi < volume:
        bad = hi if hi >= volume else lo
        raise ValueError(f"paddle.{api}: every index must be in [0, {volume}) (the output's "
                         f"spatial size {size}), but received index {bad}")
    if x.dtype == torch.int64:
        # torch's CPU unpooling has no int64 kernel; Paddle's has (and none for other ints)
        out = x.new_zeros(list(x.shape[:2]) + [volume])
        out.scatter_(2, indices.long().flatten(2), x.flatten(2))
        return out.reshape(list(x.shape[:2]) + size)
    return _UNPOOL[n](x, indices.long(), k, s, p, size)


@defop(amp="white", method=False, paddle_types=("pool2d", "max_pool2d_with_index", "pd_op.pool2d"))
def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               name=None):
    """1-D max pooling over a ``[N, C, L]`` input.

    Args:
        x (Tensor): the input, 3-D.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; defaults to ``kernel_size``.
        padding (int|list|str): an int, ``[pad]``, ``[before, after]`` or ``'SAME'``/``'VALID'``.
        return_mask (bool): also return the int32 positions of the maxima.
        ceil_mode (bool): round the output size up.
        name (str, optional): unused.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_mask``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0]]])
        >>> paddle.nn.functional.max_pool1d(x, 2).tolist()
        [[[3.0, 5.0]]]
    """
    return _max_pool("nn.functional.max_pool1d", 1, x, kernel_size, stride, padding, return_mask,
                     ceil_mode, "NCL")


@defop(amp="white", method=False, paddle_types=("pool2d", "max_pool2d_with_index", "pd_op.pool2d",
                                   "pd_op.max_pool2d_with_index"))
def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCHW", name=None):
    """2-D max pooling.

    Args:
        x (Tensor): the input, 4-D.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; defaults to ``kernel_size``.
        padding (int|list|str): an int, 2 ints, 4 ints ``[top, bottom, left, right]``, 4 pairs,
            or ``'SAME'``/``'VALID'``.
        return_mask (bool): also return the int32 positions of the maxima (NCHW only).
        ceil_mode (bool): round the output size up.
        data_format (str): ``'NCHW'`` or ``'NHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_mask``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> paddle.nn.functional.max_pool2d(x, 2).tolist()
        [[[[5.0, 7.0], [13.0, 15.0]]]]
    """
    return _max_pool("nn.functional.max_pool2d", 2, x, kernel_size, stride, padding, return_mask,
                     ceil_mode, data_format)


@defop(method=False, paddle_types=("pool3d", "max_pool3d_with_index", "pd_op.pool3d",
                                   "pd_op.max_pool3d_with_index"))
def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               data_format="NCDHW", name=None):
    """3-D max pooling.

    Args:
        x (Tensor): the input, 5-D.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; defaults to ``kernel_size``.
        padding (int|list|str): as in :func:`max_pool2d`, for three spatial dims.
        return_mask (bool): also return the int32 positions of the maxima (NCDHW only).
        ceil_mode (bool): round the output size up.
        data_format (str): ``'NCDHW'`` or ``'NDHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_mask``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 1, 4, 4, 4])
        >>> paddle.nn.functional.max_pool3d(x, 2).shape
        paddle.Size([1, 1, 2, 2, 2])
    """
    return _max_pool("nn.functional.max_pool3d", 3, x, kernel_size, stride, padding, return_mask,
                     ceil_mode, data_format)


@defop(method=False, paddle_types=("pool2d", "pd_op.pool2d"))
def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False, name=None):
    """1-D average pooling over a ``[N, C, L]`` input.

    Args:
        x (Tensor): the input, 3-D.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; defaults to ``kernel_size``.
        padding (int|list|str): an int, ``[pad]``, ``[before, after]`` or ``'SAME'``/``'VALID'``.
        exclusive (bool): divide by the number of real (non-padding) elements.
        ceil_mode (bool): round the output size up.
        name (str, optional): unused.

    Returns:
        Tensor: the pooled result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 6.0]]])
        >>> paddle.nn.functional.avg_pool1d(x, 2).tolist()
        [[[2.0, 4.0]]]
    """
    return _avg_pool("nn.functional.avg_pool1d", 1, x, kernel_size, stride, padding, ceil_mode,
                     exclusive, None, "NCL")


@defop(method=False, paddle_types=("pool2d", "pd_op.pool2d"))
def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCHW", name=None):
    """2-D average pooling.

    Args:
        x (Tensor): the input, 4-D.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; defaults to ``kernel_size``.
        padding (int|list|str): as in :func:`max_pool2d`.
        ceil_mode (bool): round the output size up.
        exclusive (bool): divide by the number of real (non-padding) elements.
        divisor_override (int, optional): scale the average by ``kernel elements / divisor_override``.
        data_format (str): ``'NCHW'`` or ``'NHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the pooled result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> paddle.nn.functional.avg_pool2d(x, 2).tolist()
        [[[[2.5, 4.5], [10.5, 12.5]]]]
    """
    return _avg_pool("nn.functional.avg_pool2d", 2, x, kernel_size, stride, padding, ceil_mode,
                     exclusive, divisor_override, data_format)


@defop(method=False, paddle_types=("pool3d", "pd_op.pool3d"))
def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True,
               divisor_override=None, data_format="NCDHW", name=None):
    """3-D average pooling.

    Args:
        x (Tensor): the input, 5-D.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; defaults to ``kernel_size``.
        padding (int|list|str): as in :func:`max_pool3d`.
        ceil_mode (bool): round the output size up.
        exclusive (bool): divide by the number of real (non-padding) elements.
        divisor_override (int, optional): scale the average by ``kernel elements / divisor_override``.
        data_format (str): ``'NCDHW'`` or ``'NDHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the pooled result.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.avg_pool3d(paddle.ones([1, 1, 2, 2, 2]), 2).tolist()
        [[[[[1.0]]]]]
    """
    return _avg_pool("nn.functional.avg_pool3d", 3, x, kernel_size, stride, padding, ceil_mode,
                     exclusive, divisor_override, data_format)


@defop(method=False, paddle_types=("lp_pool2d", "pd_op.lp_pool2d"))
def lp_pool1d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCL", name=None):
    """1-D power-average pooling: ``(sum over the window of x ** p) ** (1 / p)``.

    Args:
        x (Tensor): the input, 3-D.
        norm_type (int|float): the power ``p``; ``inf`` gives max pooling.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; defaults to ``kernel_size``.
        padding (int|list|str): as in :func:`max_pool1d`.
        ceil_mode (bool): round the output size up.
        data_format (str): ``'NCL'`` or ``'NLC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the pooled result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[3.0, 4.0]]])
        >>> paddle.nn.functional.lp_pool1d(x, 2, 2).tolist()
        [[[5.0]]]
    """
    return _lp_pool("nn.functional.lp_pool1d", 1, x, norm_type, kernel_size, stride, padding,
                    ceil_mode, data_format)


@defop(method=False, paddle_types=("lp_pool2d", "pd_op.lp_pool2d"))
def lp_pool2d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
              data_format="NCHW", name=None):
    """2-D power-average pooling: ``(sum over the window of x ** p) ** (1 / p)``.

    Args:
        x (Tensor): the input, 4-D.
        norm_type (int|float): the power ``p``; ``inf`` gives max pooling.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; defaults to ``kernel_size``.
        padding (int|list|str): as in :func:`max_pool2d`.
        ceil_mode (bool): round the output size up.
        data_format (str): ``'NCHW'`` or ``'NHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the pooled result.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.lp_pool2d(paddle.ones([1, 1, 2, 2]), 2, 2).tolist()
        [[[[2.0]]]]
    """
    return _lp_pool("nn.functional.lp_pool2d", 2, x, norm_type, kernel_size, stride, padding,
                    ceil_mode, data_format)


@defop(method=False, paddle_types=("pool2d", "pd_op.pool2d"))
def adaptive_avg_pool1d(x, output_size, name=None):
    """1-D adaptive average pooling to ``output_size`` bins.

    Args:
        x (Tensor): the input, ``[N, C, L]``.
        output_size (int): the number of output bins.
        name (str, optional): unused.

    Returns:
        Tensor: ``[N, C, output_size]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 6.0]]])
        >>> paddle.nn.functional.adaptive_avg_pool1d(x, 2).tolist()
        [[[2.0, 4.0]]]
    """
    return _adaptive_avg("nn.functional.adaptive_avg_pool1d", 1, x, output_size, "NCL")


@defop(method=False, paddle_types=("pool2d", "pd_op.pool2d"))
def adaptive_avg_pool2d(x, output_size, data_format="NCHW", name=None):
    """2-D adaptive average pooling; a None entry of ``output_size`` keeps that input size.

    Args:
        x (Tensor): the input, 4-D.
        output_size (int|list): the output spatial size.
        data_format (str): ``'NCHW'`` or ``'NHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the pooled result.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.adaptive_avg_pool2d(paddle.ones([1, 3, 8, 8]), [2, None]).shape
        paddle.Size([1, 3, 2, 8])
    """
    return _adaptive_avg("nn.functional.adaptive_avg_pool2d", 2, x, output_size, data_format)


@defop(method=False, paddle_types=("pool3d", "pd_op.pool3d"))
def adaptive_avg_pool3d(x, output_size, data_format="NCDHW", name=None):
    """3-D adaptive average pooling; a None entry of ``output_size`` keeps that input size.

    Args:
        x (Tensor): the input, 5-D.
        output_size (int|list): the output spatial size.
        data_format (str): ``'NCDHW'`` or ``'NDHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the pooled result.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.adaptive_avg_pool3d(paddle.ones([1, 2, 4, 4, 4]), 1).shape
        paddle.Size([1, 2, 1, 1, 1])
    """
    return _adaptive_avg("nn.functional.adaptive_avg_pool3d", 3, x, output_size, data_format)


@defop(amp="white", method=False, paddle_types=("max_pool2d_with_index", "pd_op.max_pool2d_with_index"))
def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    """1-D adaptive max pooling.

    Args:
        x (Tensor): the input, ``[N, C, L]``.
        output_size (int): the number of output bins.
        return_mask (bool): also return the int32 positions of the maxima.
        name (str, optional): unused.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_mask``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[1.0, 3.0, 2.0, 6.0]]])
        >>> paddle.nn.functional.adaptive_max_pool1d(x, 2).tolist()
        [[[3.0, 6.0]]]
    """
    return _adaptive_max("nn.functional.adaptive_max_pool1d", 1, x, output_size, return_mask)


@defop(amp="white", method=False, paddle_types=("max_pool2d_with_index", "pd_op.max_pool2d_with_index"))
def adaptive_max_pool2d(x, output_size, return_mask=False, name=None):
    """2-D adaptive max pooling (NCHW).

    Args:
        x (Tensor): the input, 4-D.
        output_size (int|list): the output spatial size; None entries keep the input size.
        return_mask (bool): also return the int32 positions of the maxima.
        name (str, optional): unused.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_mask``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> paddle.nn.functional.adaptive_max_pool2d(x, 2).tolist()
        [[[[5.0, 7.0], [13.0, 15.0]]]]
    """
    return _adaptive_max("nn.functional.adaptive_max_pool2d", 2, x, output_size, return_mask)


@defop(method=False, paddle_types=("max_pool3d_with_index", "pd_op.max_pool3d_with_index"))
def adaptive_max_pool3d(x, output_size, return_mask=False, name=None):
    """3-D adaptive max pooling (NCDHW).

    Args:
        x (Tensor): the input, 5-D.
        output_size (int|list): the output spatial size; None entries keep the input size.
        return_mask (bool): also return the int32 positions of the maxima.
        name (str, optional): unused.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_mask``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.adaptive_max_pool3d(paddle.ones([1, 1, 4, 4, 4]), 2).shape
        paddle.Size([1, 1, 2, 2, 2])
    """
    return _adaptive_max("nn.functional.adaptive_max_pool3d", 3, x, output_size, return_mask)


@defop(method=False, paddle_types=("unpool", "pd_op.unpool"))
def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL",
                 output_size=None, name=None):
    """Partial inverse of :func:`max_pool1d`: scatter values back to the mask positions.

    Args:
        x (Tensor): the pooled values, ``[N, C, L]``.
        indices (Tensor): the mask returned by ``max_pool1d(..., return_mask=True)``.
        kernel_size (int|list): the pooling window size.
        stride (int|list, optional): the pooling stride; defaults to ``kernel_size``.
        padding (int|list|str): the pooling padding ('SAME' and 'VALID': none).
        data_format (str): ``'NCL'``.
        output_size (list, optional): the output size ``[N, C, L]`` (a one-value list is
            Paddle's ValueError).
        name (str, optional): unused.

    Returns:
        Tensor: zeros except at the mask positions.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.nn.functional as F
        >>> out, mask = F.max_pool1d(paddle.to_tensor([[[1.0, 3.0, 2.0, 5.0]]]), 2, return_mask=True)
        >>> F.max_unpool1d(out, mask, 2).tolist()
        [[[0.0, 3.0, 0.0, 5.0]]]
    """
    if isinstance(padding, str):
        # Paddle's 1-D unpooling reads "SAME" and "VALID" (any case) as no padding
        if padding.upper() not in ("SAME", "VALID"):
            raise ValueError(f"paddle.nn.functional.max_unpool1d: unknown padding {padding!r}: a "
                             "string padding can only be 'SAME' or 'VALID'")
        padding = 0
    return _unpool("nn.functional.max_unpool1d", 1, x, indices, kernel_size, stride, padding,
                   data_format, output_size)


@defop(method=False, paddle_types=("unpool", "pd_op.unpool"))
def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW",
                 output_size=None, name=None):
    """Partial inverse of :func:`max_pool2d`: scatter values back to the mask positions.

    Args:
        x (Tensor): the pooled values, 4-D.
        indices (Tensor): the mask returned by ``max_pool2d(..., return_mask=True)``.
        kernel_size (int|list): the pooling window size.
        stride (int|list, optional): the pooling stride; defaults to ``kernel_size``.
        padding (int|list): the pooling padding.
        data_format (str): ``'NCHW'``.
        output_size (list, optional): the output spatial size (2 or 4 ints).
        name (str, optional): unused.

    Returns:
        Tensor: zeros except at the mask positions.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.nn.functional as F
        >>> out, mask = F.max_pool2d(paddle.rand([1, 1, 4, 4]), 2, return_mask=True)
        >>> F.max_unpool2d(out, mask, 2).shape
        paddle.Size([1, 1, 4, 4])
    """
    return _unpool("nn.functional.max_unpool2d", 2, x, indices, kernel_size, stride, padding,
                   data_format, output_size)


@defop(method=False, paddle_types=("unpool3d", "pd_op.unpool3d"))
def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW",
                 output_size=None, name=None):
    """Partial inverse of :func:`max_pool3d`: scatter values back to the mask positions.

    Args:
        x (Tensor): the pooled values, 5-D.
        indices (Tensor): the mask returned by ``max_pool3d(..., return_mask=True)``.
        kernel_size (int|list): the pooling window size.
        stride (int|list, optional): the pooling stride; defaults to ``kernel_size``.
        padding (int|list): the pooling padding.
        data_format (str): ``'NCDHW'``.
        output_size (list, optional): the output spatial size (3 or 5 ints).
        name (str, optional): unused.

    Returns:
        Tensor: zeros except at the mask positions.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.nn.functional as F
        >>> out, mask = F.max_pool3d(paddle.rand([1, 1, 4, 4, 4]), 2, return_mask=True)
        >>> F.max_unpool3d(out, mask, 2).shape
        paddle.Size([1, 1, 4, 4, 4])
    """
    return _unpool("nn.functional.max_unpool3d", 3, x, indices, kernel_size, stride, padding,
                   data_format, output_size)


def _fractional_windows(size: int, out: int, k: int | None, u: float) -> list[tuple[int, int]]:
    """Pseudo-random pooling windows ``[start, end)`` along one axis (Graham's scheme), in
    Paddle's float32 arithmetic.

    ``alpha = (size - k) / (out - 1)`` with a kernel size ``k`` (windows of ``k`` that overlap),
    else ``size / out`` with ``u`` first scaled into the range that keeps every window
    non-empty; window ``i`` starts at ``int((i + u) * alpha) - int(u * alpha)`` and, without a
    kernel size, ends where window ``i + 1`` would start; both are clipped to the axis.
    """
    f = np.float32
    kk = int(k or 0)
    alpha = f(f(size - kk) / f(out - (1 if kk else 0))) if out - (1 if kk else 0) else f(0)
    u = f(u)
    if not kk:
        base = size // out
        u = u * min(f(base + 2) / alpha - f(1), f(size + 1 - base) / alpha - f(out - 1))
    shift = int(u * alpha)
    wins = []
    for i in range(out):
        start = int((f(i) + u) * alpha) - shift
        end = start + kk if kk else int((f(i + 1) + u) * alpha) - shift
        wins.append((max(start, 0), min(end, size)))
    return wins


def _fractional_u(x: torch.Tensor) -> float:
    """The pooling offset drawn when ``random_u`` is not given: on the CPU, Paddle's
    kernel's one ``uniform_real_distribution<float>(0, 1)`` draw from its engine."""
    from pagaie._core.random import cpu_engine, on_paddle_cpu
    if on_paddle_cpu(x.device):
        from pagaie._ops._std_dists import uniform_real
        return float(uniform_real(cpu_engine(), 1, 0.0, 1.0)[0])
    return float(torch.rand((), device=x.device).item())


def _fractional(api, n, x, output_size, kernel_size, random_u, return_mask):
    if x.dim() != n + 2:
        raise ValueError(f"paddle.{api}: the input 'x' must be a {n + 2}-D tensor, but received "
                         f"a {x.dim()}-D tensor of shape {list(x.shape)}")
    _check_float(x, api)
    sizes = list(x.shape[2:])
    outs = _adaptive_size(output_size, x, n, api)
    ks = [None] * n if kernel_size is None else _window_ints(kernel_size, n, api, "kernel_size")
    if random_u is None:
        u = _fractional_u(x)
    else:
        u = float(random_u)
        if not 0 < u < 1:
            raise ValueError(f"paddle.{api}: random_u must be in (0, 1), but received {random_u}")
    names = ("depth", "height", "width")[3 - n:]
    for axis, size, o, k in zip(names, sizes, outs, ks):
        if not k and o > size:
            raise ValueError(f"paddle.{api}: the output {axis} {o} must not exceed the input "
                             f"{axis} {size} when kernel_size is None")
        if k and size < o - 1 + k:
            raise ValueError(f"paddle.{api}: the input {axis} {size} is less than output_size - 1 + "
                             f"kernel_size = {o - 1 + k} along that axis (output_size {o}, "
                             f"kernel_size {k})")
    # Gather each window padded to the longest one (repeating its last element), then reduce.
    idx = []
    for size, o, k in zip(sizes, outs, ks):
        wins = _fractional_windows(size, o, k, u)
        longest = max(e - s for s, e in wins)
        rows = [[min(s + t, e - 1) for t in range(longest)] for s, e in wins]
        idx.append(torch.tensor(rows, dtype=torch.long, device=x.device))
    if n == 2:
        ih, iw = idx
        g = x[:, :, ih[:, :, None, None], iw[None, None, :, :]]  # N C Oh Kh Ow Kw
        g = g.permute(0, 1, 2, 4, 3, 5).flatten(4)
        flat_pos = (ih[:, :, None, None] * sizes[1] + iw[None, None, :, :]).permute(0, 2, 1, 3).flatten(2)
    else:
        id_, ih, iw = idx
        g = x[:, :, id_[:, :, None, None, None, None], ih[None, None, :, :, None, None],
              iw[None, None, None, None, :, :]]  # N C Od Kd Oh Kh Ow Kw
        g = g.permute(0, 1, 2, 4, 6, 3, 5, 7).flatten(5)
        flat_pos = ((id_[:, :, None, None, None, None] * sizes[1]
                     + ih[None, None, :, :, None, None]) * sizes[2]
                    + iw[None, None, None, None, :, :]).permute(0, 2, 4, 1, 3, 5).flatten(3)
    out, arg = g.max(dim=-1)
    if not return_mask:
        return out
    mask = flat_pos.expand(*out.shape, flat_pos.shape[-1]).gather(-1, arg.unsqueeze(-1)).squeeze(-1)
    return out, mask.to(torch.int32)


@defop(method=False, paddle_types=("fractional_max_pool2d", "pd_op.fractional_max_pool2d"))
def fractional_max_pool2d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """2-D fractional max pooling: pseudo-random windows that shrink the input to ``output_size``.

    Args:
        x (Tensor): the input, ``[N, C, H, W]``.
        output_size (int|list): the output spatial size; None entries keep the input size.
        kernel_size (int|list, optional): a fixed window size (overlapping windows); None tiles
            the input with disjoint windows.
        random_u (float, optional): the pseudo-random offset in (0, 1); drawn when None.
        return_mask (bool): also return the int32 positions of the maxima.
        name (str, optional): unused.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_mask``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.rand([1, 2, 9, 9])
        >>> paddle.nn.functional.fractional_max_pool2d(x, 4, kernel_size=3, random_u=0.3).shape
        paddle.Size([1, 2, 4, 4])
    """
    return _fractional("nn.functional.fractional_max_pool2d", 2, x, output_size, kernel_size,
                       random_u, return_mask)


@defop(method=False, paddle_types=("fractional_max_pool3d", "pd_op.fractional_max_pool3d"))
def fractional_max_pool3d(x, output_size, kernel_size=None, random_u=None, return_mask=False,
                          name=None):
    """3-D fractional max pooling: pseudo-random windows that shrink the input to ``output_size``.

    Args:
        x (Tensor): the input, ``[N, C, D, H, W]``.
        output_size (int|list): the output spatial size; None entries keep the input size.
        kernel_size (int|list, optional): a fixed window size (overlapping windows); None tiles
            the input with disjoint windows.
        random_u (float, optional): the pseudo-random offset in (0, 1); drawn when None.
        return_mask (bool): also return the int32 positions of the maxima.
        name (str, optional): unused.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_mask``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.rand([1, 1, 6, 6, 6])
        >>> paddle.nn.functional.fractional_max_pool3d(x, 3, kernel_size=2, random_u=0.5).shape
        paddle.Size([1, 1, 3, 3, 3])
    """
    return _fractional("nn.functional.fractional_max_pool3d", 3, x, output_size, kernel_size,
                       random_u, return_mask)
