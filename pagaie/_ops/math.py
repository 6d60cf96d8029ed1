"""Elementwise math beyond one torch call: scale, clip, lerp, special functions with
parameters, complex parts, and binary math functions (atan2, hypot, gcd...)."""
from __future__ import annotations

import math as _math

import numpy as np
import torch

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import Tensor
from pagaie._ops._helpers import (ALL_DTYPES, F32_F64, LOW_FLOATS, AssertionValueError, check_binary_dtypes, counted_writes,
                                  dtype_name, float_inplace, kernel_dtypes, no_low_float_kernel,
                                  pair_kernel_dtypes, parser_bool, reject_bool, unpromoted_pair, write_out)

_T = torch.Tensor

__all__ = ["scale", "clip", "clamp", "lerp", "nan_to_num", "nan_to_num_", "logit", "logit_", "stanh",
           "softmax", "real", "imag", "conj", "angle", "polygamma", "polygamma_", "multigammaln",
           "multigammaln_", "gammainc", "gammainc_", "gammaincc", "gammaincc_", "frexp", "atan2",
           "hypot", "hypot_", "copysign", "copysign_", "heaviside", "gcd", "gcd_", "lcm", "lcm_",
           "ldexp", "ldexp_", "nextafter", "logaddexp"]


def _is_int(t: torch.Tensor) -> bool:
    return not (t.is_floating_point() or t.is_complex())


class _ZeroGrad(torch.autograd.Function):
    """Pass ``value`` through and give ``src`` a zero gradient (ops whose derivative is 0 but
    that Paddle still treats as differentiable, such as heaviside)."""

    @staticmethod
    def forward(ctx, value, src):
        ctx.meta = (src.shape, src.dtype, src.device)
        return value.view_as(value)

    @staticmethod
    def backward(ctx, g):
        shape, dtype, dev = ctx.meta
        return g, torch.zeros(shape, dtype=dtype, device=dev)


def _activation(act, r):
    if act is None:
        return r
    fns = {"relu": torch.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh,
           "softmax": lambda t: torch.softmax(t, -1), "abs": torch.abs, "exp": torch.exp,
           "sqrt": torch.sqrt, "square": torch.square, "relu6": lambda t: torch.clamp(t, 0, 6)}
    if act not in fns:
        raise ValueError(f"paddle.scale: 'act' must be None or one of {sorted(fns)}, but received {act!r}")
    return fns[act](r)


@defop(paddle_types=("scale", "pd_op.scale"), inplace=True)
def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    """Scale and shift: ``scale * x + bias`` (or ``scale * (x + bias)``).

    For integer tensors ``scale`` and ``bias`` are truncated to integers, so the result
    keeps ``x``'s dtype.

    Args:
        x (Tensor): the input tensor.
        scale (float|Tensor, optional): the multiplier (a number or a one-element tensor). Default 1.0.
        bias (float, optional): the offset. Default 0.0.
        bias_after_scale (bool, optional): add ``bias`` after scaling (True) or before (False).
        act (str, optional): an activation applied to the result (``'relu'``, ``'tanh'``...).
        name (str, optional): unused.

    Returns:
        Tensor: same shape and dtype as ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> paddle.scale(x, scale=2.0, bias=1.0).tolist()
        [3.0, 5.0]
        >>> paddle.scale(x, scale=2.0, bias=1.0, bias_after_scale=False).tolist()
        [4.0, 6.0]
    """
    if type(bias_after_scale) is not bool:
        bias_after_scale = parser_bool(bias_after_scale, "scale", "bias_after_scale")
    if type(scale) is _T:
        if scale.numel() != 1:
            raise ValueError(f"paddle.scale: 'scale' must be a number or a one-element Tensor, "
                             f"but received a Tensor of shape {list(scale.shape)}")
        scale = scale.detach().reshape(()).to(x.dtype)  # Paddle gives no gradient to it
    if x.dtype is torch.bool:  # Paddle's bool kernel: scale and bias act as bools (and / or)
        s = bool(scale.item()) if type(scale) is _T else bool(scale)
        b = bool(bias.item()) if type(bias) is _T else bool(bias)
        r = (x & s) | b if bias_after_scale else (x | b) & s
        return _activation(act, r.clone())
    if _is_int(x):
        if type(scale) is not _T:
            scale = int(scale)
        bias = int(bias)
    elif x.dtype is torch.float16 or x.dtype is torch.bfloat16:
        # Paddle's kernel holds scale and bias in x's dtype: round them first
        scale, bias = (v if type(v) is _T else torch.tensor(v, dtype=x.dtype, device=x.device)
                       for v in (scale, bias))
    if bias_after_scale:   # the bias is added even when 0: a -0.0 product becomes +0.0, as Paddle's
        r = x * scale if bias == 0 and not x.is_floating_point() else torch.add(x * scale, bias)
    else:
        r = (x + bias) * scale
    return _activation(act, r)


def _one_element(v, api, arg):
    """A Tensor bound is a Scalar to Paddle's kernel: one element only (ValueError)."""
    if type(v) is _T and v.numel() != 1:
        raise ValueError(f"paddle.{api}: '{arg}' must be a number or a one-element Tensor, "
                         f"but received a Tensor of shape {list(v.shape)}")


def _bound(v, x, api, arg):
    if v is not None and not isinstance(v, (int, float, np.generic, np.ndarray, torch.Tensor)):
        raise TypeError(f"paddle.{api}: '{arg}' must be an int, float, bool or Tensor, but received "
                        f"{type(v).__name__}")
    exact = x.is_floating_point() or x.is_complex()
    if isinstance(v, np.floating) and not isinstance(v, float) and not exact:
        v = int(v)  # a numpy float32/float16 bound keeps an integer x's dtype (np.float64 is a float)
    if type(v) is np.ndarray:  # read as a number of the array's kind, from its first element
        if v.size == 0:
            raise ValueError(f"paddle.{api}: '{arg}' as an array must not be empty")
        v = v.reshape(-1)[0].item()
        if not exact and isinstance(v, float):
            v = int(v)  # an integer x keeps its dtype: Paddle's kernel truncates the bound
    if type(v) is _T and not exact and v.numel() and not v.is_meta:
        v = v.reshape(-1)[0].item()  # Paddle reads an integer x's Tensor bound with item(0)
    if type(v) is _T:
        _one_element(v, api, arg)
        v = v.reshape(())
        if x.is_floating_point() and v.dtype is not x.dtype:
            v = v.to(x.dtype)
    elif x.is_floating_point() and isinstance(v, (int, float)) and abs(v) > torch.finfo(x.dtype).max:
        v = _math.copysign(_math.inf, v)  # past the dtype's range: the bound is +-inf, as in Paddle
    elif type(v) is int and not x.is_floating_point() and not x.is_complex() and x.dtype is not torch.bool:
        info = torch.iinfo(x.dtype)  # saturated (Paddle's cast wraps it around)
        v = min(max(v, info.min), info.max)
    return v



def _clip_inplace(x, min=None, max=None, name=None):
    """``clip_``: an integer tensor keeps its dtype, its float bounds truncated (as in Paddle)."""
    if not (x.is_floating_point() or x.is_complex()):
        min = int(min) if isinstance(min, float) else min
        max = int(max) if isinstance(max, float) else max
    return clip.op_record.kernel(x, min, max)


@defop(paddle_types=("clip", "pd_op.clip"), method=("clip", "clamp"), inplace=_clip_inplace)
def clip(x, min=None, max=None, name=None, *, out=None):
    """Clamp every element into ``[min, max]``.

    The gradient is 1 where ``min <= x <= max`` (bounds included) and 0 elsewhere. An
    integer tensor with float bounds gives a float result.

    Args:
        x (Tensor): the input tensor.
        min (float|Tensor, optional): lower bound (None: unbounded).
        max (float|Tensor, optional): upper bound (None: unbounded).
        name (str, optional): unused.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.clip(paddle.to_tensor([-2.0, 0.5, 3.0]), min=-1.0, max=1.0).tolist()
        [-1.0, 0.5, 1.0]
    """
    if x.dtype not in _CLIP_DTYPES or x.dtype in LOW_FLOATS:
        _clip_dtype(x, min, max)
    limit = _CLIP_LIMITS.get(x.dtype)
    if limit is not None:  # Paddle's missing bound is the dtype's finite limit: it clips +-inf
        min = -limit if min is None else min
        max = limit if max is None else max
    if min is None and max is None:
        r = x.clone()
    else:
        min = _bound(min, x, "clip", "min")
        max = _bound(max, x, "clip", "max")
        lo, hi = _bound_value(min), _bound_value(max)
        if lo != lo or hi != hi:
            raise ValueError(f"paddle.clip: 'min' and 'max' must not be NaN, but received "
                             f"min = {lo}, max = {hi}")  # Paddle's 'max >= min' check fails
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"paddle.clip: 'max' must be greater than or equal to 'min', but "
                             f"received min = {lo}, max = {hi}")
        # Paddle's clip differentiates x only: Tensor bounds get no gradient
        r = torch.clamp(x, *(v.detach() if isinstance(v, torch.Tensor) else v for v in (min, max)))
    return r if out is None else write_out(out, r)


# Paddle registers clip's kernels for these (float16/bfloat16 on GPU only: pagaie computes
# them on any device)
_CLIP_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64, torch.float16,
                          torch.bfloat16))
_CLIP_PROGRAM_DTYPES = ALL_DTYPES - {torch.float16}


def _clip_dtype(x, min, max):
    """The dtypes clip's CPU kernel lacks; a Tensor bound of more than one element is Paddle's
    ValueError first (its Scalar conversion comes before the kernel's choice)."""
    if type(x) is not _T:   # not a tensor: the argument error comes later
        return
    _one_element(min, "clip", "min")
    _one_element(max, "clip", "max")
    if x.dtype in LOW_FLOATS:   # (GPU kernels; bfloat16 builds into a program and runs)
        no_low_float_kernel("clip", x, static=_CLIP_PROGRAM_DTYPES)
        return
    raise NoKernelError(f"paddle.clip: 'x' of dtype {dtype_name(x)} is not supported (Paddle's kernel "
                        f"takes float32, float64, int32, int64)")


# The bound Paddle puts in place of a missing one, per float dtype (others: none)
_CLIP_LIMITS = {d: torch.finfo(d).max for d in (torch.float16, torch.float32, torch.float64)}


def _bound_value(v):
    """A clip bound as a Python number to check (None for a missing or symbolic one): Paddle's
    kernel reads a Tensor bound's value and checks it as it does a number."""
    if type(v) is _T:
        return None if v.is_meta else v.item()
    return v


clamp = clip


def _lerp_weight(x, weight, api):
    """Paddle takes a Python float (made a tensor of x's dtype) or a tensor of x's dtype."""
    if type(weight) is _T:
        if weight.dtype is not x.dtype:
            raise ValueError(f"paddle.{api}: 'weight' must have the dtype of 'x' ({dtype_name(x)}), "
                             f"but received {dtype_name(weight)}")
        return weight
    if not isinstance(weight, float):
        raise ValueError(f"paddle.{api}: 'weight' must be a float or a Tensor, but received "
                         f"{type(weight).__name__} {weight!r}")
    return torch.tensor(weight, dtype=x.dtype, device=x.device)


def _lerp_inplace(x, y, weight, name=None):
    return x.copy_(lerp.op_record.kernel(x, y, weight))


@defop(paddle_types=("lerp", "pd_op.lerp"), inplace=_lerp_inplace)
def lerp(x, y, weight, name=None):
    """Linear interpolation ``x + weight * (y - x)``, rounded as that very expression (Paddle's
    kernel), not torch's two-sided formula.

    Args:
        x (Tensor): start values.
        y (Tensor): end values (same dtype as ``x``).
        weight (float|Tensor): the interpolation weight (a tensor of ``x``'s dtype), broadcast
            against ``x``.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.lerp(paddle.to_tensor([0.0, 1.0]), paddle.to_tensor([10.0, 3.0]), 0.5).tolist()
        [5.0, 2.0]
    """
    kernel_dtypes("lerp", x, F32_F64)   # (x's kernel is looked up first, as in Paddle)
    if x.dtype is not y.dtype:
        raise ValueError(f"paddle.lerp: 'x' and 'y' must have the same dtype, but received "
                         f"{dtype_name(x)} and {dtype_name(y)}")
    weight = _lerp_weight(x, weight, "lerp").detach()  # Paddle's lerp has no weight gradient
    return x + weight * (y - x)


def _logit_inplace(x, eps=None, name=None):
    float_inplace("logit_", x)
    kernel_dtypes("logit_", x, _REAL_OR_INT_DTYPES)
    return _logit(x, eps)


@defop(paddle_types=("nan_to_num",), inplace=True)
def nan_to_num(x, nan=0.0, posinf=None, neginf=None, name=None):
    """Replace NaN, +inf and -inf with finite numbers.

    Args:
        x (Tensor): the input tensor.
        nan (float, optional): value for NaN. Default 0.0.
        posinf (float, optional): value for +inf; the dtype's largest value by default.
        neginf (float, optional): value for -inf; the dtype's lowest value by default.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([float('nan'), 1.0, float('inf')])
        >>> paddle.nan_to_num(x, posinf=9.0).tolist()
        [0.0, 1.0, 9.0]
    """
    if x.dtype is not torch.float32 and x.dtype is not torch.float64:  # Paddle asserts this
        raise AssertionValueError(f"paddle.nan_to_num: the input dtype must be float32 or "
                                  f"float64, but received {dtype_name(x)}")
    limit = torch.finfo(x.dtype).max
    posinf = limit if posinf is None else posinf
    neginf = -limit if neginf is None else neginf
    for arg, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if _math.isfinite(v) and abs(v) > limit:  # Paddle fills a tensor of x's dtype with it
            raise ValueError(f"paddle.nan_to_num: '{arg}' = {v} is out of the range of "
                             f"{dtype_name(x)} [{-limit}, {limit}]")
    if _math.isfinite(nan) and _math.isfinite(posinf) and _math.isfinite(neginf):
        return torch.nan_to_num(x, nan, posinf, neginf)
    # Paddle replaces one after the other (NaN, then +inf, then -inf), so a value put in
    # place of one is replaced again by a later one (nan=inf gives posinf)
    full = lambda v: torch.full((), v, dtype=x.dtype, device=x.device)  # noqa: E731
    x = torch.where(torch.isnan(x), full(nan), x)
    x = torch.where(x == _math.inf, full(posinf), x)
    return torch.where(x == -_math.inf, full(neginf), x)


@defop(paddle_types=("logit", "pd_op.logit"), inplace=_logit_inplace, int_autocast=True)
def logit(x, eps=None, name=None):
    """Elementwise log-odds ``log(x / (1 - x))``; with ``eps``, ``x`` is first clamped to
    ``[eps, 1 - eps]`` (and the gradient is 0 outside).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logit(paddle.to_tensor([0.5, 0.75], 'float64')).numpy().round(4).tolist()
        [0.0, 1.0986]
    """
    if x.dtype is torch.bool:
        reject_bool("logit", x)
    kernel_dtypes("logit", x, _REAL_OR_INT_DTYPES)
    return _logit(x, eps)


def _logit(x: torch.Tensor, eps) -> torch.Tensor:
    """Paddle's logit: an ``eps`` of 0 clamps nothing (as None), and the clamp takes the upper
    bound ``1 - eps`` first, so an ``eps`` above 0.5 maps every value to ``eps``."""
    if not eps:
        return torch.logit(x)
    if eps > 0.5:
        x = torch.clamp(torch.clamp(x, max=1 - eps), min=eps)
        return torch.log(x / (1 - x))
    return torch.logit(x, eps)


_STANH_CPU_DTYPES = frozenset({torch.float32, torch.float64})


@defop(paddle_types=("stanh", "pd_op.stanh"), int_autocast=True)
def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    """Scaled tanh: ``scale_b * tanh(scale_a * x)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.stanh(paddle.to_tensor([0.0, 1.0], 'float64')).numpy().round(4).tolist()
        [0.0, 1.0038]
    """
    if x.dtype is torch.bool:
        reject_bool("stanh", x)
    elif x.dtype is torch.float16 or x.dtype is torch.bfloat16:   # Paddle's CPU kernel has neither
        kernel_dtypes("stanh", x, _STANH_CPU_DTYPES)
    return torch.tanh(x * scale_a) * scale_b


_SOFTMAX_PADDLE_KEYS = ("x", "axis", "name")


def softmax(input, dim: int | None = None, dtype=None, *args, out=None, **kwargs):
    """Softmax ``exp(x) / sum(exp(x))`` along ``dim``, with PyTorch's argument names.

    The one object behind ``paddle.softmax``, ``Tensor.softmax``, ``paddle.special.softmax``
    and ``paddle.compat.nn.functional.softmax``; a composite over
    ``paddle.nn.functional.softmax`` (the op record). PyTorch's private ``_stacklevel`` is
    accepted and ignored, as a keyword or as an int in the third position (before ``dtype``).

    Args:
        input (Tensor): the input tensor.
        dim (int, optional): the axis; when None, 0 for 0-D, 1-D and 3-D inputs and 1 otherwise.
        dtype (str, optional): cast the input to this dtype first.
        out (Tensor, optional): also store the result here.

    Returns:
        Tensor: same shape as ``input``.

    Raises:
        TypeError: for Paddle-style keywords (``x``, ``axis``, ``name``) or unknown ones.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 1.0], [0.0, 0.0]])
        >>> paddle.softmax(x, dim=1).tolist()
        [[0.5, 0.5], [0.5, 0.5]]
        >>> str(paddle.softmax(x, 1, 3, 'float64').dtype)   # 3: PyTorch's _stacklevel, ignored
        'paddle.float64'
    """
    for key in kwargs:
        if key in _SOFTMAX_PADDLE_KEYS:
            raise TypeError(f"paddle.compat.nn.functional.softmax() received unexpected keyword "
                            f"argument '{key}'. \nDid you mean to use "
                            "paddle.nn.functional.softmax() instead?")
        if key != "_stacklevel":
            raise TypeError(f"softmax() got an unexpected keyword argument '{key}'")
    if isinstance(dtype, int) and not isinstance(dtype, bool):   # softmax(x, dim, _stacklevel, ...)
        dtype, args = (args[0], args[1:]) if args else (None, args)
    if args:
        raise TypeError(f"softmax() takes from 1 to 3 positional arguments but "
                        f"{3 + len(args)} were given")
    from pagaie.nn import functional as F
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return F.softmax(input, dim, dtype, out=out)


_COMPLEX = frozenset((torch.complex64, torch.complex128))
_REAL_32_64 = frozenset((torch.float32, torch.float64, torch.int32, torch.int64))
_INT_32_64 = frozenset((torch.int32, torch.int64))
_HYPOT_DTYPES = _REAL_32_64 | {torch.complex64, torch.complex128}


@defop(paddle_types=("real", "pd_op.real"))
def real(x, name=None):
    """The real part of a complex tensor (Paddle has no kernel for a real one: RuntimeError).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.real(paddle.to_tensor([1 + 2j, 3 - 1j])).tolist()
        [1.0, 3.0]
    """
    kernel_dtypes("real", x, _COMPLEX)
    return torch.real(x).clone()


@defop(paddle_types=("imag", "pd_op.imag"))
def imag(x, name=None):
    """The imaginary part of a complex tensor (Paddle has no kernel for a real one: RuntimeError).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.imag(paddle.to_tensor([1 + 2j, 3 - 1j])).tolist()
        [2.0, -1.0]
    """
    kernel_dtypes("imag", x, _COMPLEX)
    return torch.imag(x).clone()


# Paddle's CPU conj kernel has no bool, int8, uint8 or int16 version (float16 and bfloat16 run
# on its GPU only; pagaie computes them on any device)
_CONJ_REAL_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64})


@defop(paddle_types=("conj", "pd_op.conj"))
def conj(x, name=None):
    """Elementwise complex conjugate (real tensors are returned unchanged).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.conj(paddle.to_tensor([1 + 2j])).tolist()
        [(1-2j)]
    """
    if x.is_complex():
        return torch.conj_physical(x)
    kernel_dtypes("conj", x, _CONJ_REAL_DTYPES)
    return x.clone()


@defop(paddle_types=("angle", "pd_op.angle"))
def angle(x, name=None):
    """Elementwise argument (phase angle, radians) of complex numbers; pi for negative reals.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.angle(paddle.to_tensor([-1.0, 2.0], 'float64')).numpy().round(4).tolist()
        [3.1416, 0.0]
    """
    if not (x.is_floating_point() or x.is_complex()):   # Paddle has float and complex kernels only
        raise NoKernelError(f"paddle.angle: 'x' of dtype {dtype_name(x)} is not supported (Paddle's kernel "
                            f"takes floating and complex tensors)")
    if x.dtype in LOW_FLOATS:
        no_low_float_kernel("angle", x)
    return torch.angle(x)


def _polygamma_inplace(x, n, name=None):
    kernel_dtypes("polygamma_", x, _REAL_OR_INT_DTYPES)
    if int(n) == 0 and x.is_floating_point():   # (the out-of-place result, written back)
        from pagaie._ops.math_unary import _digamma
        return _digamma(x)
    if int(n) != 1 or not x.is_floating_point():
        return x.polygamma_(int(n))
    x0 = x.detach().clone()
    x.polygamma_(1)
    return x.add_(_trigamma_fix(x0, x)).masked_fill_(x0 == -_math.inf, _math.inf)


@defop(paddle_types=("polygamma", "pd_op.polygamma"), inplace=_polygamma_inplace)
def polygamma(x, n, name=None):
    """The ``n``-th derivative of the digamma function.

    Args:
        x (Tensor): the input tensor.
        n (int): the derivative order, ``n >= 0``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.polygamma(paddle.to_tensor([1.0, 2.0], 'float64'), 1).numpy().round(4).tolist()
        [1.6449, 0.6449]
    """
    if not isinstance(n, int) or n is True:   # False is order 0, as Paddle reads it
        raise TypeError(f"paddle.polygamma: 'n' must be an int, but received "
                        f"{type(n).__name__} ({n!r})")
    if n < 0:
        raise ValueError(f"paddle.polygamma: 'n' must be a non-negative int, but received {n}")
    kernel_dtypes("polygamma", x, _REAL_OR_INT_DTYPES)
    if n == 0 and x.is_floating_point():   # digamma, with Paddle's gradient (its trigamma)
        from pagaie._ops.math_unary import _digamma
        return _digamma(x)
    r = torch.polygamma(int(n), x)
    return _trigamma(x, r) if n == 1 and x.is_floating_point() else r


def _trigamma_fix(x: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
    """What to add to torch's trigamma ``r`` of ``x`` (a constant): torch's is finite at the
    poles (0, -1, -2...) and 0 at +inf, where Paddle's polygamma series (as torch's for
    n >= 2) gives +inf at the poles (and at -inf: see :func:`_trigamma`), NaN at +inf.
    Added rather than substituted, the gradient stays torch's ``polygamma(2, x)``, infinite
    at the poles as Paddle's."""
    xd, rd = x.detach(), r.detach()
    pole = (xd <= 0) & (xd == torch.floor(xd))  # also -inf
    inf = torch.full((), _math.inf, dtype=r.dtype, device=r.device)
    fixed = torch.where(pole, inf, torch.where(xd == _math.inf, inf - inf, rd))
    return torch.where(fixed == rd, torch.zeros((), dtype=r.dtype, device=r.device), fixed - rd)


def _trigamma(x: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
    """torch's trigamma ``r`` of ``x`` with Paddle's values at the special points (torch's
    NaN at -inf cannot be corrected by adding: it is replaced)."""
    return torch.where(x.detach() == -_math.inf, _math.inf, r + _trigamma_fix(x, r))


def _multigammaln_p(p):
    """``p`` of multigammaln as an int. Paddle reads any number (a numpy one, a 0-D Tensor too)
    and asserts ``p >= 1``; a non-number fails its comparison (TypeError). A non-integral
    ``p`` is refused (ValueError): Paddle would mix two different dimensions in its sum."""
    if isinstance(p, torch.Tensor):
        if p.dim() != 0:
            raise TypeError(f"paddle.multigammaln: 'p' must be a number or a 0-D Tensor, but "
                            f"received a Tensor of shape {list(p.shape)}")
        p = p.item()
    elif isinstance(p, np.generic):
        p = p.item()
    if not isinstance(p, (int, float)):
        raise TypeError(f"paddle.multigammaln: 'p' must be an int, but received "
                        f"{type(p).__name__} ({p!r})")
    if not p >= 1:
        raise AssertionError(f"paddle.multigammaln: 'p' must be >= 1, but received {p}")
    if p != int(p):
        raise ValueError(f"paddle.multigammaln: 'p' must be an integer, but received {p}")
    return int(p)


@defop(paddle_types=("multigammaln",), inplace=True, leaf_check=False,  # a composite in Paddle
       program_dtypes={"x": frozenset((torch.float32, torch.float64))})
def multigammaln(x, p, name=None):
    """Multivariate log-gamma of dimension ``p``:
    ``p (p - 1) / 4 * log(pi) + sum_{i<p} lgamma(x - i / 2)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.multigammaln(paddle.to_tensor([3.0], 'float64'), 2).numpy().round(4).tolist()
        [1.5502]
    """
    p = _multigammaln_p(p)
    # (its arange has no kernel for these: NotFound; other integers fail its type promotion)
    kernel_dtypes("multigammaln", x, _REAL_32_64 | _COMPLEX)
    if not (x.is_floating_point() or x.is_complex()):  # Paddle's promotion with its float terms
        raise TypeError(f"paddle.multigammaln: 'x' must be a floating tensor, but received "
                        f"{str(x.dtype).replace('torch.', '')}")
    offs = torch.arange(p, dtype=x.dtype, device=x.device) * -0.5
    return torch.lgamma(x.unsqueeze(-1) + offs).sum(-1) + p * (p - 1) / 4 * _math.log(_math.pi)


def _gamma_args_nonneg(api, x, y):
    """Paddle checks eagerly that both arguments of gammainc/gammaincc are >= 0 (a NaN is not)."""
    for arg, t in (("x", x), ("y", y)):
        if type(t) is _T and t.device.type != "meta" and t.numel() and not bool((t >= 0).all()):
            bad = t[~(t >= 0)].reshape(-1)[0]
            raise ValueError(f"paddle.{api}: every element of '{arg}' must be >= 0, but received "
                             f"{float(bad)}")


def _igamma(x, y, upper):
    """Paddle's kernel: Q(x, y) is 1 (P is 0) where ``x <= 0`` or ``y < 0``."""
    kernel_dtypes("gammaincc" if upper else "gammainc", x, F32_F64)
    if type(y) is _T and y.requires_grad and torch.is_grad_enabled():
        r = _IgammaOfY.apply(x.detach(), y, upper)
    else:
        r = (torch.special.gammaincc if upper else torch.special.gammainc)(x.detach(), y)
    if type(y) is _T:
        outside = (x.detach() <= 0) | (y.detach() < 0)
        r = torch.where(outside, torch.ones_like(r) if upper else torch.zeros_like(r), r)
        # Paddle's series does not converge at y = inf: NaN for every x > 0 (torch: the limit)
        r = torch.where((y.detach() == _math.inf) & (x.detach() > 0), _math.nan, r)
    return r


class _IgammaOfY(torch.autograd.Function):
    """P(x, y) or Q(x, y) with Paddle's gradient in ``y``, ``+-exp(-y) * y^(x-1) / gamma(x)``
    computed with a power: 1 at x = 1, y = 0 and 0 at y = inf, where torch's exp-of-log form
    gives NaN (``x`` is a constant, as in Paddle)."""

    @staticmethod
    def forward(ctx, x, y, upper):  # type: ignore[override]
        ctx.save_for_backward(x, y)
        ctx.upper = upper
        return (torch.special.gammaincc if upper else torch.special.gammainc)(x, y)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        x, y = ctx.saved_tensors
        d = torch.exp(-y) * y.pow(x - 1) / torch.exp(torch.lgamma(x))
        d = g * (-d if ctx.upper else d)
        return None, d.sum_to_size(y.shape), None


def _igamma_dtypes(api, x, y, not_tensor=AttributeError):
    """Paddle's kernel choice (:func:`unpromoted_pair`); a non-Tensor ``y`` fails first, on an
    attribute (AttributeError), or in the in-place forms on the C++ parser (``not_tensor``:
    ValueError)."""
    if type(y) is not _T:
        raise not_tensor(f"paddle.{api}: argument 'y' (position 1) must be Tensor, but got "
                         f"{type(y).__name__}")
    unpromoted_pair(api, x, y, F32_F64)


def _igamma_inplace(upper):
    def ikernel(x, y, name=None):  # Paddle's in-place form skips the >= 0 checks
        _igamma_dtypes("gammaincc_" if upper else "gammainc_", x, y, ValueError)
        return x.copy_(_igamma(x, y, upper))
    return ikernel


@defop(paddle_types=("gammainc",), inplace=_igamma_inplace(False))
def gammainc(x, y, name=None):
    """Regularized lower incomplete gamma function ``P(x, y)`` (gradient only w.r.t. ``y``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0], 'float64')
        >>> paddle.gammainc(x, x).numpy().round(4).tolist()
        [0.6321, 0.594]
    """
    _igamma_dtypes("gammainc", x, y)
    _gamma_args_nonneg("gammainc", x, y)
    return _igamma(x, y, upper=False)


@defop(paddle_types=("gammaincc",), inplace=_igamma_inplace(True))
def gammaincc(x, y, name=None):
    """Regularized upper incomplete gamma function ``Q(x, y) = 1 - P(x, y)``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0], 'float64')
        >>> paddle.gammaincc(x, x).numpy().round(4).tolist()
        [0.3679, 0.406]
    """
    _igamma_dtypes("gammaincc", x, y)
    _gamma_args_nonneg("gammaincc", x, y)
    return _igamma(x, y, upper=True)


@defop(paddle_types=("frexp",))
def frexp(x, name=None):
    """Split into mantissa in ``[0.5, 1)`` and exponent: ``x = mantissa * 2 ** exponent``.

    Returns:
        tuple(Tensor, Tensor): the mantissa and the exponent, both of ``x``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> m, e = paddle.frexp(paddle.to_tensor([8.0, -3.0]))
        >>> m.tolist(), e.tolist()
        ([0.5, -0.75], [4.0, 2.0])
    """
    if x.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"paddle.frexp: the input dtype must be float32 or float64, but received "
                        f"{dtype_name(x)}")
    m, e = torch.frexp(x)
    # Paddle's exponent of an infinity is 1 and of a NaN is NaN; its mantissa of -0.0 is +0.0
    # and of any NaN a NaN without the sign bit, as its exponent
    nan = torch.isnan(x)
    e = torch.where(torch.isinf(x), 1, e.to(x.dtype))
    m = torch.where(nan, x.abs(), torch.where(x == 0, 0, m))
    return m, torch.where(nan, x.abs(), e)


def _tensor_operands(api: str, x, y, error: type[Exception]) -> None:
    """Paddle's atan2, gcd, lcm, nextafter take tensors only: a Python number fails on an
    attribute in its Python code (AttributeError) or in its argument parser (ValueError); a
    numpy array has the attributes and reaches the parser (ValueError)."""
    for i, (arg, v) in enumerate((("x", x), ("y", y))):
        if type(v) is not _T:
            kind = ValueError if isinstance(v, np.ndarray) else error
            name = "numpy.ndarray" if isinstance(v, np.ndarray) else type(v).__name__
            raise kind(f"paddle.{api}: argument '{arg}' (position {i}) must be Tensor, but got {name}")


# Paddle's CPU kernels of logit and polygamma (an integer input is cast to float32 first) and
# of the subtract/maximum kernels its logaddexp composes
_REAL_OR_INT_DTYPES = frozenset((torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64,
                                 torch.float32, torch.float64))
_LOGADDEXP_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64))


def _float_pair(api, x, y, int_dtype=None):
    """Both operands as floating tensors of a common dtype (ints become float32/``int_dtype``)."""
    if type(y) is not _T:
        y = torch.as_tensor(y, dtype=x.dtype if x.is_floating_point() else None, device=x.device)
    elif type(x) is _T and x.dtype is not y.dtype:
        check_binary_dtypes(api, x, y)
    if _is_int(x):
        d = int_dtype or torch.get_default_dtype()
        x, y = x.to(d), y.to(d)
    elif y.dtype is not x.dtype:
        d = torch.promote_types(x.dtype, y.dtype)
        x, y = x.to(d), y.to(d)
    return x, y


_NO_ATAN2_KERNEL = frozenset((torch.bool, torch.uint8, torch.int8, torch.int16))


def _no_complex_kernel(api: str, x, y) -> None:
    """Paddle's kernel of ``api`` takes real tensors only: NotFound (RuntimeError), and its
    build-time TypeError in a program (torch's meta kernels would take complex ones)."""
    c = x if type(x) is _T and x.is_complex() else y
    raise NoKernelError(f"paddle.{api}: not implemented for dtype {dtype_name(c)} (Paddle's kernel "
                        "takes real tensors only)")


@defop(paddle_types=("atan2", "pd_op.atan2"))
def atan2(x, y, name=None):
    """Elementwise arc tangent of ``x / y`` using both signs to pick the quadrant.

    Integer inputs give a float64 result, as in Paddle.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.atan2(paddle.to_tensor([1.0, -1.0], 'float64'),
        ...              paddle.to_tensor([1.0, -1.0], 'float64')).numpy().round(4).tolist()
        [0.7854, -2.3562]
    """
    if type(x) is _T and type(y) is _T and x.dtype is y.dtype and x.dtype in _NO_ATAN2_KERNEL:
        raise NoKernelError(f"paddle.atan2: 'x' of dtype {dtype_name(x)} is not supported (Paddle's kernel "
                            f"takes no bool, uint8, int8 or int16 tensors)")
    _tensor_operands("atan2", x, y, AttributeError)   # (before any dtype check, as Paddle)
    if x.is_complex() or y.is_complex():
        _no_complex_kernel("atan2", x, y)
    if x.dtype is torch.bfloat16 and y.dtype is x.dtype:
        no_low_float_kernel("atan2", x)   # (its float16 CPU kernel exists)
    if type(x) is _T and type(y) is _T and _is_int(x) and _is_int(y) and x.dtype is y.dtype:
        # Paddle's integer kernel works in float32 and returns float64
        return torch.atan2(x.to(torch.float32), y.to(torch.float32)).to(torch.float64)
    x, y = _float_pair("atan2", x, y, torch.float64)
    if (x.requires_grad or y.requires_grad) and torch.is_grad_enabled():
        return _Atan2.apply(x, y)
    return torch.atan2(x, y)


class _Atan2(torch.autograd.Function):
    """atan2 with Paddle's gradient ``(y, -x) / (x^2 + y^2)`` unmasked: NaN at the origin,
    where torch's is 0."""

    @staticmethod
    def forward(ctx, x, y):  # type: ignore[override]
        ctx.save_for_backward(x, y)
        return torch.atan2(x, y)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        x, y = ctx.saved_tensors
        q = g / (x * x + y * y)
        gx = (q * y).sum_to_size(x.shape) if ctx.needs_input_grad[0] else None
        gy = (-q * x).sum_to_size(y.shape) if ctx.needs_input_grad[1] else None
        return gx, gy


def _hypot_inplace(x, y, name=None):
    if type(y) is not _T:  # Paddle checks y's type first
        raise TypeError(f"paddle.hypot_: 'y' must be a Tensor, but received {type(y).__name__}")
    float_inplace("hypot_", x)   # (an integer x: Paddle has no kernel writing floats into it)
    return hypot.op_record.kernel(x, y)


@defop(paddle_types=("hypot",), inplace=_hypot_inplace, promotes=True)
def hypot(x, y, name=None):
    """Elementwise ``sqrt(x ** 2 + y ** 2)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.hypot(paddle.to_tensor([3.0]), paddle.to_tensor([4.0])).tolist()
        [5.0]
    """
    if type(y) is not _T:
        raise TypeError(f"paddle.hypot: 'y' must be a Tensor, but received {type(y).__name__}")
    kernel_dtypes("hypot", x, _HYPOT_DTYPES)
    kernel_dtypes("hypot", y, _HYPOT_DTYPES, "y")
    if x.is_complex() or y.is_complex():
        # Paddle computes ``sqrt(x ** 2 + y ** 2)`` (complex in, complex out)
        if x.dtype is not y.dtype:
            check_binary_dtypes("hypot", x, y, True)
            # a 0-D complex128 does not widen complex64; a real/complex mix takes the wider
            d = torch.result_type(x, y) if x.is_complex() == y.is_complex() \
                else torch.promote_types(x.dtype, y.dtype)
            if d is torch.complex32:
                d = torch.complex64
            x, y = x.to(d), y.to(d)
        return torch.sqrt(x * x + y * y)
    if x.dtype is not y.dtype:  # promotion as torch does it: a 0-D operand does not widen
        check_binary_dtypes("hypot", x, y, True)
        d = torch.result_type(x, y)
        d = d if d.is_floating_point else torch.get_default_dtype()
        x, y = x.to(d), y.to(d)
    elif _is_int(x):
        x, y = x.to(torch.get_default_dtype()), y.to(torch.get_default_dtype())
    return torch.hypot(x, y)


@defop(paddle_types=("copysign", "pd_op.copysign"), inplace=True, promotes=True, scalar_keeps_dtype=True)
def copysign(x, y, name=None):
    """Elementwise ``|x|`` with the sign of ``y`` (integer tensors keep their dtype).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.copysign(paddle.to_tensor([1.0, -2.0]), paddle.to_tensor([-1.0, 1.0])).tolist()
        [-1.0, 2.0]
    """
    if type(y) is complex:  # Paddle's Python code reads the shape of any other number it
        # cannot take (AttributeError)
        raise AttributeError("paddle.copysign: 'y' must be a Tensor or a real number, but "
                             "received complex")
    if (type(x) is _T and x.is_complex()) or (type(y) is _T and y.is_complex()):
        _no_complex_kernel("copysign", x, y)
    if type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("copysign", x, y, True)
        d = torch.result_type(x, y)  # a 0-D operand promotes like a scalar
        if d.is_floating_point:
            return torch.copysign(x.to(d), y.to(d))
        x = x.to(d)
    if x.dtype is torch.bool or x.dtype is torch.uint8:  # no sign to take: x itself
        shape = broadcast_shapes(x.shape, y.shape) if type(y) is _T else x.shape
        return x.expand(shape).clone()
    if _is_int(x):
        a = torch.abs(x)
        neg = torch.signbit(y) if type(y) is _T else torch.signbit(torch.tensor(float(y)))
        return torch.where(neg, -a, a)
    return torch.copysign(x, y)


@defop(paddle_types=("heaviside", "elementwise_heaviside", "pd_op.heaviside"))
def heaviside(x, y, name=None):
    """Heaviside step: 0 where ``x < 0``, ``y`` where ``x == 0``, 1 where ``x > 0``.

    The gradient w.r.t. ``x`` is 0 and w.r.t. ``y`` is 1 where ``x == 0``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.heaviside(paddle.to_tensor([-1.0, 0.0, 2.0]), paddle.to_tensor([0.5])).tolist()
        [0.0, 0.5, 1.0]
    """
    if type(y) is not _T:
        raise ValueError(f"paddle.heaviside: 'y' must be a Tensor, but received {type(y).__name__}")
    unpromoted_pair("heaviside", x, y, _REAL_32_64)
    r = torch.where(x == 0, y, (x > 0).to(x.dtype))
    if x.requires_grad:
        r = _ZeroGrad.apply(r, x)
    return r


def _int_pair(api, x, y):
    if type(y) is not _T:
        y = torch.as_tensor(y, dtype=x.dtype, device=x.device)
    if x.dtype is not y.dtype:
        check_binary_dtypes(api, x, y)
        d = torch.promote_types(x.dtype, y.dtype)
        x, y = x.to(d), y.to(d)
    if x.is_complex():  # numpy's gcd/lcm refuse complex numbers too (TypeError)
        raise TypeError(f"paddle.{api}: the inputs must be integer or real floating tensors, "
                        f"but received {dtype_name(x)}")
    if x.dtype is torch.bool:
        raise NoKernelError(f"paddle.{api}: the inputs must be integer or real floating tensors, "
                            f"but received {dtype_name(x)}")
    return x, y


def _float_gcd(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Euclid's algorithm with ``fmod`` for floating tensors (Paddle accepts them)."""
    a, b = torch.broadcast_tensors(x.abs(), y.abs())
    a, b = a.clone(), b.clone()
    nz = b.double() >= 1e-15  # Paddle's float != treats |b| < 1e-15 as zero
    while bool(nz.any()):
        r = torch.where(nz, torch.fmod(a, torch.where(nz, b, 1)), 0)
        a = torch.where(nz, b, a)
        a, b = torch.maximum(a, r), torch.minimum(a, r)  # Paddle keeps the larger one first
        nz = b.double() >= 1e-15
    return a


@defop(paddle_types=("gcd",), inplace=True, promotes=True)  # Paddle: a loop of differentiable ops
def gcd(x, y, name=None):
    """Elementwise greatest common divisor (non-negative; ``gcd(0, 0) = 0``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.gcd(paddle.to_tensor([12, -20]), paddle.to_tensor([18, 8])).tolist()
        [6, 4]
    """
    _tensor_operands("gcd", x, y, AttributeError)
    x, y = _int_pair("gcd", x, y)
    # (Paddle's loop of remainder kernels; its program-time check takes int32/int64 only)
    kernel_dtypes("gcd", x, _REAL_32_64, static=_INT_32_64)
    return torch.gcd(x, y) if _is_int(x) else _float_gcd(x, y)


@defop(paddle_types=("lcm",), inplace=True, differentiable=False, promotes=True, leaf_check=True)
def lcm(x, y, name=None):
    """Elementwise least common multiple (non-negative; 0 if either is 0).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.lcm(paddle.to_tensor([4, 0]), paddle.to_tensor([6, 3])).tolist()
        [12, 0]
    """
    _tensor_operands("lcm", x, y, AttributeError)
    x, y = _int_pair("lcm", x, y)
    kernel_dtypes("lcm", x, _REAL_32_64, static=_INT_32_64)   # (as gcd's)
    if _is_int(x):
        return torch.lcm(x, y)
    g = _float_gcd(x, y)
    z = g.double() < 1e-15  # Paddle's float == 0
    r = torch.where(z, 0, torch.floor((x * y).abs() / torch.where(z, 1, g)))  # Paddle: //
    return r.detach()  # Paddle's lcm output never carries a gradient


@defop(paddle_types=("ldexp",), inplace=True)
def ldexp(x, y, name=None):
    """Elementwise ``x * 2 ** y`` for an integer tensor ``y``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ldexp(paddle.to_tensor([1.0, 3.0]), paddle.to_tensor([2, -1])).tolist()
        [4.0, 1.5]
    """
    if type(y) is not _T:
        raise TypeError(f"paddle.ldexp: 'y' must be a Tensor, but received {type(y).__name__}")
    # Paddle casts both to float64 when either is float64, else to the default float dtype
    # (a complex operand keeps its real part), then computes ``x * 2 ** y`` there.
    if x.dtype is torch.float64 or y.dtype is torch.float64:
        d = torch.float64
    else:
        from pagaie._core.dtype import default_float
        d = default_float()
    x = (x.real if x.is_complex() else x).to(d)
    y = (y.real if y.is_complex() else y).to(d)
    return x * torch.pow(torch.tensor(2.0, dtype=d, device=x.device), y)


@defop(paddle_types=("nextafter", "pd_op.nextafter"), differentiable=False)
def nextafter(x, y, name=None):
    """The next representable floating-point value after ``x`` in the direction of ``y``.

    Examples:
        >>> import pagaie as paddle
        >>> r = paddle.nextafter(paddle.to_tensor([1.0], 'float64'), paddle.to_tensor([2.0], 'float64'))
        >>> r.item() > 1.0
        True
    """
    _tensor_operands("nextafter", x, y, ValueError)
    if type(y) is _T and y.dtype is not x.dtype:  # type promotion comes before the kernel
        check_binary_dtypes("nextafter", x, y)
        d = torch.promote_types(x.dtype, y.dtype)
        x, y = x.to(d), y.to(d)
    kernel_dtypes("nextafter", x, F32_F64)
    x, y = _float_pair("nextafter", x, y)
    r = torch.nextafter(x, y)
    return r.detach() if r.requires_grad else r


@defop(amp="black", paddle_types=("logaddexp",))
def logaddexp(x, y, name=None):
    """Elementwise ``log(exp(x) + exp(y))``, computed stably.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logaddexp(paddle.to_tensor([0.0], 'float64'),
        ...                  paddle.to_tensor([0.0], 'float64')).numpy().round(4).tolist()
        [0.6931]
    """
    for arg, v, other in (("x", x, y), ("y", y, x)):
        # Paddle's maximum(x, y) takes tensors only (a bool tensor fails before, on x - y's
        # missing kernel, and is computed here)
        if type(v) is not _T and not (type(other) is _T and other.dtype is torch.bool):
            raise ValueError(f"paddle.logaddexp: '{arg}' must be a Tensor, but received "
                             f"{type(v).__name__} {v!r}")
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("logaddexp", x, y)   # (its type promotion's TypeError comes first)
    if x.device.type == "meta":  # (a program records bfloat16, which fails when it runs)
        kernel_dtypes("logaddexp", x, _LOGADDEXP_DTYPES | {torch.bfloat16})
    else:
        pair_kernel_dtypes("logaddexp", x, y, _LOGADDEXP_DTYPES)
    x, y = _float_pair("logaddexp", x, y)
    # Paddle's composite, log1p(exp(-|x - y|)) + maximum(x, y): NaN where x and y are the
    # same infinity (torch's kernel gives that infinity)
    return torch.log1p(torch.exp(-(x - y).abs())) + torch.maximum(x, y)


_nan_to_num_write = nan_to_num.inplace


def nan_to_num_(x: Tensor, nan: float = 0.0, posinf: float | None = None,
                neginf: float | None = None, name: str | None = None) -> Tensor:
    """In-place :func:`nan_to_num`: writes into ``x`` and returns it.

    As Paddle, a call counts three in ``inplace_version`` (Paddle runs it as three
    ``where_``: NaN, then +inf, then -inf).

    Args:
        x (Tensor): the float32 or float64 tensor to write into.
        nan (float, optional): value for NaN. Default 0.0.
        posinf (float, optional): value for +inf; the dtype's largest value by default.
        neginf (float, optional): value for -inf; the dtype's lowest value by default.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([float('nan'), 1.0, float('inf')])
        >>> _ = x.nan_to_num_(posinf=9.0)
        >>> x.tolist(), x.inplace_version
        ([0.0, 1.0, 9.0], 3)
    """
    return counted_writes(x, _nan_to_num_write(x, nan, posinf, neginf, name), 3)


nan_to_num.inplace = nan_to_num_
Tensor.nan_to_num_ = nan_to_num_
logit_ = logit.inplace
polygamma_ = polygamma.inplace
multigammaln_ = multigammaln.inplace
gammainc_ = gammainc.inplace
gammaincc_ = gammaincc.inplace
hypot_ = hypot.inplace
copysign_ = copysign.inplace
gcd_ = gcd.inplace
lcm_ = lcm.inplace
ldexp_ = ldexp.inplace


Tensor.softmax = softmax
Tensor.clamp_ = clip.inplace
