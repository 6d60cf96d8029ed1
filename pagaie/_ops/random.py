"""Random ops: samplers drawing from the default generators of ``pagaie._core.random``.

On the CPU (outside ``torch.compile``) the samplers follow Paddle's CPU kernels: they draw
from Paddle's engine (:func:`pagaie._core.random.cpu_engine`) with the same libstdc++
distributions, in the same order and number of draws (:mod:`pagaie._ops._std_dists`,
:mod:`pagaie._ops._std_dists_samplers`), so a ``paddle.seed`` gives Paddle's numbers and
leaves the stream where Paddle leaves it. Float16 and bfloat16 samples are drawn in
float32 and rounded, as Paddle's kernels do. Other devices, and compiled code, draw
from torch's samplers on the device's default generator, which :func:`pagaie.seed` seeds.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.random import (Generator, cpu_engine, get_cuda_rng_state, get_rng_state,
                                 manual_seed, on_paddle_cpu, seed, set_cuda_rng_state,
                                 set_rng_state)
from pagaie._core.registry import NoKernelError, defop
from pagaie._ops import _std_dists_gamma as _sg
from pagaie._ops import _std_dists_samplers as _ss
from pagaie._ops.creation import _from_data, _size_args
from pagaie._ops._factory import device_of, finish, float_only, returns_self, shape_of, size_args
from pagaie._ops._helpers import F32_F64, float_dtype, kernel_dtypes, parser_int_args

__all__ = ["Generator", "seed", "manual_seed", "get_rng_state", "set_rng_state",
           "get_cuda_rng_state", "set_cuda_rng_state",
           "rand", "randn", "standard_normal", "uniform", "normal", "normal_", "log_normal",
           "log_normal_", "randint", "randint_like", "rand_like", "randn_like", "randperm",
           "bernoulli", "bernoulli_", "binomial", "poisson", "standard_gamma", "multinomial",
           "cauchy_", "geometric_"]

_T = torch.Tensor


def _dtype_name(t: torch.dtype) -> str:
    return _dt.from_torch_dtype(t).name



def _fill_cuts_grad(kernel):
    """An in-place sampler's kernel whose fill leaves no gradient to the values it overwrote,
    as Paddle's (its backward is zero): the sample is written under ``no_grad`` (a leaf that
    needs gradients may be filled), and a tensor in a graph then takes it through ``copy_``,
    whose backward gives its old values zero."""
    @functools.wraps(kernel)
    def fill(x, *args, **kwargs):
        r = kernel(x, *args, **kwargs)
        if r.requires_grad and not r.is_leaf and torch.is_grad_enabled():
            r.copy_(r.detach().clone())
        return r
    return fill


# The dtypes of Paddle's CPU sampling kernels (its GPU kernels also take float16 and bfloat16):
# uniform_inplace (under uniform_, bernoulli_, geometric_), bernoulli, exponential and binomial
# take float32/float64, gaussian_inplace (under normal_, log_normal_, cauchy_) complex too.
_GAUSSIAN_INPLACE_DTYPES = F32_F64 | {torch.complex64, torch.complex128}


def _need_float(x: torch.Tensor, api: str, arg: str = "x", error: type = NoKernelError) -> None:
    """A sampler's input must be floating: Paddle has no kernel for other dtypes (RuntimeError,
    its NotFound; ``geometric_`` checks in Python and raises ValueError)."""
    if not x.is_floating_point():
        raise error(f"paddle.{api}: '{arg}' must be a float16, bfloat16, float32 or float64 "
                    f"tensor, but received {_dtype_name(x.dtype)}")


# ---- sampling into a new tensor -----------------------------------------------------

class _NegativeSizeError(ValueError, RuntimeError):
    """A negative size: Paddle's random kernels then fail to allocate (a RuntimeError, where
    its creation ops raise ValueError); both types, so either ``except`` catches it."""


class _ShapeTypeError(TypeError, AttributeError):
    """A shape that is neither a list, a tuple nor an array: Paddle reads it as an array
    (``shape.astype(int)``) and fails with an AttributeError; a TypeError too, as pagaie's
    creation ops raise."""


# The dtypes of a shape Tensor that Paddle's static API of normal and randint takes (eagerly a
# floating one is truncated to ints).
_INT_SHAPE = frozenset({torch.int32, torch.int64})


def _dims(shape, api: str, int_ok: bool = False) -> list[int]:
    """``shape`` as a list of ints (see :func:`shape_of`). As Paddle's random ops: a floating
    array or tensor is truncated to ints, a plain int is a shape only where ``int_ok`` (rand,
    randn), and a negative dimension raises :class:`_NegativeSizeError`."""
    if isinstance(shape, (np.ndarray, np.generic)) and shape.dtype.kind == "f":
        shape = shape.astype(np.int64)
    elif isinstance(shape, _T) and shape.is_floating_point():
        shape = shape.to(torch.int64)
    elif not (isinstance(shape, (list, tuple, _T, np.ndarray, np.generic))
              or (int_ok and isinstance(shape, int) and not isinstance(shape, bool))):
        raise _ShapeTypeError(f"paddle.{api}: 'shape' must be a list, tuple or Tensor, but "
                              f"received {type(shape).__name__}")
    if isinstance(shape, (_T, np.ndarray)) and shape.ndim > 1:
        # Paddle reads a shape tensor as a list of its rows (its parser's TypeError)
        raise TypeError(f"paddle.{api}: a 'shape' Tensor must be 1-D, but received one of shape "
                        f"{list(shape.shape)}")
    try:
        return shape_of(shape, api)
    except ValueError as exc:
        raise _NegativeSizeError(str(exc)) from None


def _num(v, api: str, arg: str, error: type) -> float | complex:
    """A number argument Paddle reads as a C++ double (or with ``float()``): a string or a
    tensor of several elements is ``error`` (its argument parser's TypeError, or the
    AssertionError of its Python ``float(Tensor)``)."""
    if isinstance(v, _T):
        if v.numel() != 1:
            raise error(f"paddle.{api}: '{arg}' must be a number or a one-element Tensor, but "
                        f"received a Tensor of shape {list(v.shape)}")
        v = v.reshape(-1)[0].item()
    elif isinstance(v, str) and error is TypeError:     # Python's float() reads strings
        raise TypeError(f"paddle.{api}: '{arg}' must be a number, but received str ({v!r})")
    return v if isinstance(v, complex) else float(v)


def _seed_arg(seed, api: str) -> int:
    """The ``seed=`` argument as Paddle's int32 attribute takes it."""
    if isinstance(seed, (bool, float, complex, str)) or seed is None:
        raise TypeError(f"paddle.{api}: 'seed' must be an int, but received "
                        f"{type(seed).__name__} ({seed!r})")
    seed = int(seed)
    if not -2**31 <= seed < 2**31:
        raise IndexError(f"paddle.{api}: 'seed' must be within the int32 range "
                         f"[-2147483648, 2147483647], but received {seed}")
    return seed


@defop(method=False, differentiable=False, paddle_types=("uniform_random", "pd_op.uniform"),
       program_no_arrays=("shape",))
def uniform(shape, dtype=None, min=0, max=1.0, seed=0, name=None, *, out=None, device=None,
            requires_grad=False):
    """Samples uniformly distributed in ``[min, max)``.

    Args:
        shape (list|tuple|Tensor): the output shape.
        dtype (str|paddle.dtype, optional): a floating or complex dtype; the default
            float dtype when None.
        min (float, optional): lower bound. Default 0.
        max (float, optional): upper bound. Default 1.0.
        seed (int, optional): when non-zero, draw from a private generator seeded with
            it (the same values every call) instead of the global one. Default 0.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.

    Returns:
        Tensor: the samples.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.uniform([2, 3], min=-1.0, max=1.0)
        >>> x.shape, bool((x >= -1).all() and (x < 1).all())
        (paddle.Size([2, 3]), True)
    """
    seed = _seed_arg(seed, "uniform")
    dt = float_only(float_dtype(dtype, "uniform"), "uniform")
    dev = device_of(device, "uniform")
    lo, hi = _num(min, "uniform", "min", AssertionError), _num(max, "uniform", "max", AssertionError)
    dims = _dims(shape, "uniform")
    if on_paddle_cpu(dev):
        return finish(_ss.uniform_cpu(dims, dt, lo, hi, int(seed)), out, requires_grad)
    t = torch.empty(dims, dtype=dt, device=dev)
    gen = torch.Generator(dev).manual_seed(int(seed)) if seed else None
    if dt.is_complex:
        real = torch.rand(t.shape, dtype=t.real.dtype, device=dev, generator=gen)
        imag = torch.rand(t.shape, dtype=t.real.dtype, device=dev, generator=gen)
        t = torch.complex(real, imag) * (hi - lo) + lo
    else:
        torch.rand(t.shape, dtype=dt, device=dev, generator=gen, out=t)
        if lo != 0.0 or hi != 1.0:
            t.mul_(hi - lo).add_(lo)
    return finish(t, out, requires_grad)


@defop(method=False, differentiable=False, paddle_types=("uniform_random", "pd_op.uniform"),
       program_no_arrays=("shape",))
def rand(shape, dtype=None, name=None, *, out=None, device=None, requires_grad=False,
         pin_memory=False):
    """Samples uniformly distributed in ``[0, 1)``.

    Args:
        shape (list|tuple|Tensor|int): the output shape.
        dtype (str|paddle.dtype, optional): a floating dtype; the default float dtype when None.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the samples.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.rand([2, 3]).shape
        paddle.Size([2, 3])
    """
    shape, dtype = _size_args(shape, dtype, name)
    dt = float_only(float_dtype(dtype, "rand"), "rand")
    t = _uniform01(_dims(shape, "rand", int_ok=True), dt, device_of(device, "rand"))
    return finish(t, out, requires_grad, pin_memory, "rand")


def _uniform01(dims: list[int], dt: torch.dtype, dev: torch.device) -> torch.Tensor:
    if on_paddle_cpu(dev):
        return _ss.uniform_cpu(dims, dt, 0.0, 1.0)
    return torch.rand(dims, dtype=dt, device=dev)


def _gaussian(dims: list[int], dt: torch.dtype, dev: torch.device, mean: float = 0.0,
              std: float = 1.0) -> torch.Tensor:
    """Paddle's ``gaussian``: N(mean, std²) samples (complex: std²/2 for each part)."""
    if on_paddle_cpu(dev):
        return _ss.normal_cpu(dims, dt, mean, std)
    t = torch.randn(dims, dtype=dt, device=dev)
    if (mean, std) == (0.0, 1.0):
        return t
    return t * std + (complex(mean, mean) if dt.is_complex else mean)


@defop(method=False, differentiable=False, paddle_types=("gaussian_random", "pd_op.gaussian"))
def randn(shape, dtype=None, name=None, *, out=None, device=None, requires_grad=False,
          pin_memory=False):
    """Samples from the standard normal distribution N(0, 1).

    Args:
        shape (list|tuple|Tensor|int): the output shape.
        dtype (str|paddle.dtype, optional): a floating or complex dtype; the default
            float dtype when None. Complex samples have independent real and
            imaginary parts of variance 1/2 each.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the samples.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.randn([2, 3]).dtype
        <DataType.FLOAT32: 10>
    """
    shape, dtype = _size_args(shape, dtype, name)
    dt = float_only(float_dtype(dtype, "randn"), "randn")
    t = _gaussian(_dims(shape, "randn", int_ok=True), dt, device_of(device, "randn"))
    return finish(t, out, requires_grad, pin_memory, "randn")


@defop(method=False, differentiable=False)
def standard_normal(shape, dtype=None, name=None, *, out=None, device=None, requires_grad=False):
    """Samples from the standard normal distribution N(0, 1) (same as :func:`randn`).

    Args:
        shape (list|tuple|Tensor|int): the output shape.
        dtype (str|paddle.dtype, optional): a floating or complex dtype.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.

    Returns:
        Tensor: the samples.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.standard_normal([4]).shape
        paddle.Size([4])
    """
    dt = float_only(float_dtype(dtype, "standard_normal"), "standard_normal")
    t = _gaussian(_dims(shape, "standard_normal"), dt, device_of(device, "standard_normal"))
    return finish(t, out, requires_grad)


def _complex_mean(mean: complex, api: str) -> float:
    if mean.real != mean.imag:
        raise ValueError(f"paddle.{api}: a complex 'mean' must have equal real and imaginary "
                         f"parts, but received {mean.real} != {mean.imag}")
    return mean.real


@defop(method=False, paddle_types=("gaussian_random", "pd_op.gaussian"),
       program_dtypes={"shape": _INT_SHAPE, "mean": frozenset(
           (torch.float32, torch.float64, torch.complex64, torch.complex128))},
       program_no_arrays=("shape",))
def normal(mean=0.0, std=1.0, shape=None, name=None, *, out=None):
    """Samples from normal distributions with the given means and standard deviations.

    ``mean`` and ``std`` are numbers or tensors. With two numbers, ``shape`` gives
    the output shape; with a tensor, the output has that tensor's shape (a tensor
    ``std`` is reshaped to a tensor ``mean``'s shape). A complex ``mean`` (equal
    real and imaginary parts) draws complex64 samples.

    Args:
        mean (float|complex|Tensor, optional): the mean(s). Default 0.0.
        std (float|Tensor, optional): the standard deviation(s). Default 1.0.
        shape (list|tuple|Tensor, optional): the output shape when both are numbers.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.

    Returns:
        Tensor: the samples.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.normal(0.0, 2.0, [2, 3]).shape
        paddle.Size([2, 3])
        >>> paddle.normal(paddle.to_tensor([0.0, 10.0]), 1.0).shape
        paddle.Size([2])
    """
    mt, st = isinstance(mean, _T), isinstance(std, _T)
    if mt:
        if not (mean.is_floating_point() or mean.is_complex()):
            raise NoKernelError("paddle.normal: a Tensor 'mean' must be float32, float64, complex64 "
                                f"or complex128, but received {_dtype_name(mean.dtype)}")
        if st:
            if std.numel() != mean.numel():
                raise ValueError(f"paddle.normal: 'std' of shape {list(std.shape)} cannot be "
                                 f"reshaped to the shape of 'mean' {list(mean.shape)}")
            std = std.to(mean.dtype.to_real() if mean.is_complex() else mean.dtype).reshape(mean.shape)
        else:
            std = float(std)
        r = _gaussian(list(mean.shape), mean.dtype, mean.device) * std + mean
    elif st:
        if not std.is_floating_point():
            raise NoKernelError("paddle.normal: a Tensor 'std' must be float32 or float64, but "
                                f"received {_dtype_name(std.dtype)}")
        if isinstance(mean, complex):
            m = _complex_mean(mean, "normal")
            r = _gaussian(list(std.shape), torch.complex64, std.device) * std + complex(m, m)
        else:
            r = _gaussian(list(std.shape), std.dtype, std.device) * std + float(mean)
    else:
        m = _complex_mean(mean, "normal") if isinstance(mean, complex) else None
        dims = _dims(shape, "normal")   # Paddle checks a complex mean first
        if m is not None:
            r = _gaussian(dims, torch.complex64, device_of(None, "normal"), m, float(std))
        else:
            r = _gaussian(dims, float_dtype(None, "normal"), device_of(None, "normal"), float(mean),
                          float(std))
    return finish(r, out)


def _normal_(x, mean=0.0, std=1.0, name=None):
    """Fill ``x`` in place with samples from N(mean, std²) and return it.

    Args:
        x (Tensor): a floating or complex tensor, overwritten.
        mean (float, optional): the mean. Default 0.0.
        std (float, optional): the standard deviation. Default 1.0.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([3])
        >>> x.normal_(1.0, 0.5) is x
        True
    """
    if not (x.is_floating_point() or x.is_complex()):
        _need_float(x, "normal_")
    mean, std = _num(mean, "normal_", "mean", AssertionError), _num(std, "normal_", "std", AssertionError)
    kernel_dtypes("normal_", x, _GAUSSIAN_INPLACE_DTYPES)
    if isinstance(mean, complex):
        if not x.is_complex():
            raise TypeError("paddle.normal_: a complex 'mean' needs a complex64 or complex128 'x', "
                            f"but received {_dtype_name(x.dtype)}")
        mean = _complex_mean(mean, "normal_")
    if on_paddle_cpu(x.device):
        with torch.no_grad():
            return x.copy_(_ss.normal_cpu(list(x.shape), x.dtype, float(mean), float(std)))
    return x.normal_(float(mean), float(std))


normal_ = returns_self(defop("normal_", method=False, dygraph_only=True)(_fill_cuts_grad(_normal_)), "normal_")


@defop(method=False, paddle_types=("gaussian_random",))
def log_normal(mean=1.0, std=2.0, shape=None, name=None):
    """Samples ``exp(N(mean, std²))`` from the log-normal distribution.

    Args:
        mean (float|Tensor, optional): the mean of the underlying normal. Default 1.0.
        std (float|Tensor, optional): its standard deviation. Default 2.0.
        shape (list|tuple|Tensor, optional): the output shape when both are numbers.
        name (str, optional): unused.

    Returns:
        Tensor: the samples, all positive.

    Examples:
        >>> import pagaie as paddle
        >>> bool((paddle.log_normal(shape=[4]) > 0).all())
        True
    """
    return torch.exp(normal.op_record.kernel(mean, std, shape))


def _log_normal_(x, mean=1.0, std=2.0, name=None):
    """Fill ``x`` in place with log-normal samples ``exp(N(mean, std²))`` and return it.

    Args:
        x (Tensor): a floating tensor, overwritten.
        mean (float, optional): mean of the underlying normal. Default 1.0.
        std (float, optional): its standard deviation. Default 2.0.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([3])
        >>> bool((x.log_normal_() > 0).all())
        True
    """
    if not x.is_complex():
        _need_float(x, "log_normal_")
    kernel_dtypes("log_normal_", x, _GAUSSIAN_INPLACE_DTYPES)
    if on_paddle_cpu(x.device) or x.is_complex():       # Paddle: normal_, then exp_
        _normal_(x, mean, std)
        with torch.no_grad():
            return x.exp_()
    return x.log_normal_(float(mean), float(std))


log_normal_ = returns_self(defop("log_normal_", method=False, dygraph_only=True)(_fill_cuts_grad(_log_normal_)), "log_normal_")


def _int_dtype(dtype, api: str) -> torch.dtype:
    dt = torch.int64 if dtype is None else _dt.to_torch_dtype(dtype, f"paddle.{api}")
    if dt not in (torch.int32, torch.int64):
        raise NoKernelError(f"paddle.{api}: 'dtype' must be int32 or int64, but received "
                            f"{_dtype_name(dt)} (no kernel for it)")
    return dt


def _bounds(low, high, api: str) -> tuple[int, int]:
    for arg, v in (("low", low), ("high", high)):
        if isinstance(v, (bool, float, np.floating)):
            raise TypeError(f"paddle.{api}: '{arg}' must be an int, but received "
                            f"{type(v).__name__} ({v!r})")
    parser_int_args(api, low=low, high=high)
    low = int(low.item()) if isinstance(low, _T) else low
    high = int(high.item()) if isinstance(high, _T) else high
    if high is None:
        low, high = 0, low
    for arg, v in (("low", low), ("high", high)):
        if not -2**31 <= v < 2**31:     # Paddle's int32 attributes
            raise IndexError(f"paddle.{api}: '{arg}' must be within the int32 range "
                             f"[-2147483648, 2147483647], but received {v}")
    if low >= high:
        raise ValueError(f"paddle.{api}: 'low' must be less than 'high', but received low = {low}, "
                         f"high = {high}")
    return int(low), int(high)


@defop(method=False, differentiable=False, paddle_types=("randint", "pd_op.randint"),
       program_dtypes={"shape": _INT_SHAPE}, program_no_arrays=("shape",))
def randint(low=0, high=None, shape=[1], dtype=None, name=None):  # noqa: B006 (Paddle's default)
    """Random integers uniformly drawn from ``[low, high)``.

    Args:
        low (int, optional): lower bound, inclusive; the exclusive upper bound when
            ``high`` is None (then the range is ``[0, low)``). Default 0.
        high (int, optional): upper bound, exclusive.
        shape (list|tuple|Tensor, optional): the output shape. Default [1].
        dtype (str|paddle.dtype, optional): int32 or int64 (default).
        name (str, optional): unused.

    Returns:
        Tensor: the integers.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.randint(2, 5, [3])
        >>> x.dtype, bool(((x >= 2) & (x < 5)).all())
        (<DataType.INT64: 9>, True)
    """
    lo, hi = _bounds(low, high, "randint")
    dt = _int_dtype(dtype, "randint")
    return _randint(lo, hi, _dims(shape, "randint"), dt, device_of(None, "randint"))


def _randint(lo: int, hi: int, dims: list[int], dt: torch.dtype, dev: torch.device) -> torch.Tensor:
    if on_paddle_cpu(dev):
        return _ss.randint_cpu(dims, dt, lo, hi)
    return torch.randint(lo, hi, dims, dtype=dt, device=dev)


# (the static API's check of x)
@defop(method=False, differentiable=False, program_dtypes={"x": frozenset(
    (torch.bool, torch.int32, torch.int64, torch.float16, torch.float32, torch.float64))})
def randint_like(x, low=0, high=None, dtype=None, name=None):
    """Random integers from ``[low, high)`` in a tensor shaped like ``x``.

    Args:
        x (Tensor): gives the shape (and the dtype when ``dtype`` is None).
        low (int, optional): lower bound, or the upper bound when ``high`` is None.
        high (int, optional): upper bound, exclusive.
        dtype (str|paddle.dtype, optional): output dtype; ``x``'s when None. The int64
            samples are cast to it (floating dtypes hold integral values, bool is nonzero).
        name (str, optional): unused.

    Returns:
        Tensor: the samples.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.randint_like(paddle.zeros([2, 2]), 10).dtype
        <DataType.FLOAT32: 10>
    """
    lo, hi = _bounds(low, high, "randint_like")
    dt = x.dtype if dtype is None else _dt.to_torch_dtype(dtype, "paddle.randint_like")
    out = _randint(lo, hi, list(x.shape), torch.int64, x.device)
    # like Paddle, int64 samples are cast to any dtype (bool: nonzero; uint8: wraps around)
    return out if dt is torch.int64 else out.to(dt)


@defop(method=False, differentiable=False)
def rand_like(input, name=None, *, dtype=None, device=None, requires_grad=False):
    """Samples uniform in ``[0, 1)`` in a tensor shaped like ``input``.

    Args:
        input (Tensor): gives the shape, dtype and device.
        name (str, optional): unused.
        dtype (str|paddle.dtype, optional): a floating dtype; ``input``'s when None.
        device (str|Place, optional): where to create it; ``input``'s when None.
        requires_grad (bool, optional): make the result a gradient leaf.

    Returns:
        Tensor: the samples.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.rand_like(paddle.zeros([2], dtype='float64')).dtype
        <DataType.FLOAT64: 11>
    """
    dt = input.dtype if dtype is None else _dt.to_torch_dtype(dtype, "paddle.rand_like")
    float_only(dt, "rand_like")
    dev = input.device if device is None else device_of(device, "rand_like")
    return finish(_uniform01(list(input.shape), dt, dev), None, requires_grad)


@defop(method=False, differentiable=False)
def randn_like(x, dtype=None, name=None, *, device=None, requires_grad=False):
    """Samples from N(0, 1) in a tensor shaped like ``x``.

    Args:
        x (Tensor): gives the shape, dtype and device.
        dtype (str|paddle.dtype, optional): a floating dtype; ``x``'s when None.
        name (str, optional): unused.
        device (str|Place, optional): where to create it; ``x``'s when None.
        requires_grad (bool, optional): make the result a gradient leaf.

    Returns:
        Tensor: the samples.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.randn_like(paddle.zeros([2, 3])).shape
        paddle.Size([2, 3])
    """
    dt = x.dtype if dtype is None else _dt.to_torch_dtype(dtype, "paddle.randn_like")
    float_only(dt, "randn_like")
    dev = x.device if device is None else device_of(device, "randn_like")
    return finish(_gaussian(list(x.shape), dt, dev), None, requires_grad)


@defop(method=False, differentiable=False, paddle_types=("randperm", "pd_op.randperm"))
def randperm(n, dtype="int64", name=None, *, out=None, device=None, requires_grad=False,
             pin_memory=False):
    """A random permutation of the integers ``0 .. n-1``.

    Args:
        n (int): the number of integers.
        dtype (str|paddle.dtype, optional): int32, int64 (default), float32 or float64.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make a floating result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the permutation, shape ``[n]``.

    Examples:
        >>> import pagaie as paddle
        >>> sorted(paddle.randperm(5).tolist())
        [0, 1, 2, 3, 4]
    """
    if isinstance(n, (bool, float, np.floating)):
        raise TypeError(f"paddle.randperm: 'n' must be an int, but received {type(n).__name__} ({n!r})")
    parser_int_args("randperm", n=n)
    n = int(n.item()) if isinstance(n, _T) else int(n)
    if n < 0:
        raise _NegativeSizeError(f"paddle.randperm: 'n' must be non-negative, but received {n}")
    dt = _dt.to_torch_dtype(dtype, "paddle.randperm")
    if dt not in (torch.int32, torch.int64, torch.float32, torch.float64):
        raise NoKernelError("paddle.randperm: 'dtype' must be int32, int64, float32 or float64, but "
                            f"received {_dtype_name(dt)} (no kernel for it)")
    dev = device_of(device, "randperm")
    if on_paddle_cpu(dev):
        t = torch.from_numpy(_ss.shuffle(cpu_engine(), n)).to(dt)
    else:
        t = torch.randperm(n, dtype=dt, device=dev)
    return finish(t, out, requires_grad, pin_memory, "randperm")


# ---- sampling from per-element parameters ---------------------------------------------

def _concrete(t: torch.Tensor) -> bool:
    """Whether values can be inspected (not a meta tensor during shape inference)."""
    return t.device.type != "meta" and t.numel() > 0


def _check_probs(p: torch.Tensor, api: str) -> None:
    if _concrete(p) and not bool(((p >= 0) & (p <= 1)).all()):
        raise IndexError(f"paddle.{api}: every probability must be in [0, 1], but received values "
                         f"from {float(p.min())} to {float(p.max())}")


@defop(method=False, differentiable=False, paddle_types=("bernoulli", "pd_op.bernoulli"))
def bernoulli(x, p=None, name=None):
    """Bernoulli samples: 1 with probability ``x`` (elementwise), else 0.

    Args:
        x (Tensor): the probabilities, a floating tensor in [0, 1].
        p (float, optional): when given, one probability used for every element
            instead of ``x``'s values (``x`` then gives only shape and dtype).
        name (str, optional): unused.

    Returns:
        Tensor: 0/1 samples with ``x``'s shape and dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.bernoulli(paddle.to_tensor([0.0, 1.0])).tolist()
        [0.0, 1.0]
    """
    _need_float(x, "bernoulli")
    kernel_dtypes("bernoulli", x, F32_F64)
    if p is not None:
        p = float(p)
        if not 0.0 <= p <= 1.0:
            raise IndexError(f"paddle.bernoulli: 'p' must be in [0, 1], but received {p}")
        x = torch.full_like(x, p)          # as Paddle: bernoulli(full_like(x, p))
    else:
        _check_probs(x, "bernoulli")
    if on_paddle_cpu(x.device):
        return _ss.bernoulli_cpu(x)
    return torch.bernoulli(x.detach())


def _bernoulli_(x, p=0.5, name=None):
    """Fill ``x`` in place with Bernoulli(p) samples (0 or 1) and return it.

    Args:
        x (Tensor): the tensor, overwritten.
        p (float|Tensor, optional): the probability of a 1, a number or a tensor
            broadcastable to ``x``. Default 0.5.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Like Paddle, ``p`` is not validated: ``x`` is filled with uniform samples ``u``
    and becomes 1 where ``u < p`` and 0 where ``u > p`` (so ``p <= 0`` gives zeros,
    ``p >= 1`` ones, and a NaN ``p`` leaves the uniform samples).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.zeros([3]).bernoulli_(1.0).tolist()
        [1.0, 1.0, 1.0]
        >>> paddle.zeros([2, 2]).bernoulli_(paddle.to_tensor([[2.0], [-1.0]])).tolist()
        [[1.0, 1.0], [0.0, 0.0]]
    """
    if not x.is_floating_point():
        # Paddle has no uniform kernel for these dtypes: its eager mode raises RuntimeError (NotFound)
        raise NoKernelError(f"paddle.bernoulli_: 'x' must be a floating tensor, but received "
                            f"{_dtype_name(x.dtype)}")
    kernel_dtypes("bernoulli_", x, F32_F64)
    if isinstance(p, _T):
        if not (p.is_floating_point() or p.is_complex()):
            raise TypeError(f"paddle.bernoulli_: 'p' must be a floating tensor like 'x' "
                            f"({_dtype_name(x.dtype)}), but received {_dtype_name(p.dtype)}")
        p = p.to(x.device)
    else:
        p = float(p)
    with torch.no_grad():
        _uniform_(x, 0.0, 1.0)
        ones, zeros = x < p, x > p
        return x.masked_fill_(ones, 1.0).masked_fill_(zeros, 0.0)


bernoulli_ = returns_self(defop("bernoulli_", method=False, dygraph_only=True)(_fill_cuts_grad(_bernoulli_)), "bernoulli_")


@defop(method=False, differentiable=False, paddle_types=("binomial", "pd_op.binomial"))
def binomial(count, prob, name=None):
    """Binomial samples: successes in ``count`` trials of success probability ``prob``.

    Args:
        count (Tensor): the numbers of trials (integer or floating).
        prob (Tensor): the success probabilities, floating, broadcastable with ``count``.
        name (str, optional): unused.

    Returns:
        Tensor: int64 counts, the broadcast shape of the inputs.

    Examples:
        >>> import pagaie as paddle
        >>> out = paddle.binomial(paddle.to_tensor([10, 20]), paddle.to_tensor([0.0, 1.0]))
        >>> out.tolist(), out.dtype
        ([0, 20], <DataType.INT64: 9>)
    """
    if not isinstance(count, torch.Tensor):
        # Paddle casts count first: its argument parser's ValueError (TypeError while a program
        # is built, except for None)
        err = ValueError(f"paddle.binomial: argument 'count' (position 0) must be Tensor, but got "
                         f"{type(count).__name__}")
        if count is not None:
            err.static_type = TypeError
        raise err
    _need_float(prob, "binomial", "prob")
    kernel_dtypes("binomial", prob, F32_F64, arg="prob")
    calc = torch.float64 if prob.dtype is torch.float64 else torch.float32
    c, p = torch.broadcast_tensors(count.to(calc), prob.to(calc))
    if on_paddle_cpu(p.device):
        npdt = np.float64 if calc is torch.float64 else np.float32
        v = _sg.binomial(cpu_engine(), c.detach().reshape(-1).numpy().astype(npdt),
                         p.detach().reshape(-1).numpy().astype(npdt))
        return torch.from_numpy(v).reshape(p.shape)
    return torch.binomial(c, p).to(torch.int64)


@defop(method=False, paddle_types=("poisson", "pd_op.poisson"))
def poisson(x, name=None):
    """Poisson samples with rates ``x`` (elementwise); the gradient is zero.

    Args:
        x (Tensor): the rates, a floating tensor of non-negative values.
        name (str, optional): unused.

    Returns:
        Tensor: the counts, ``x``'s shape and dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.poisson(paddle.to_tensor([0.0, 0.0])).tolist()
        [0.0, 0.0]
    """
    _need_float(x, "poisson")
    kernel_dtypes("poisson", x, _MULTINOMIAL_DTYPES)  # (float32 and float64 kernels)
    if on_paddle_cpu(x.device) and x.dtype in (torch.float32, torch.float64):
        rate = x.detach().reshape(-1).numpy()
        sample = torch.from_numpy(_sg.poisson(cpu_engine(), rate)).reshape(x.shape)
    else:
        sample = torch.poisson(x.detach())
    return _ZeroGradSample.apply(x, sample)


class _ZeroGradSample(torch.autograd.Function):
    """A sample whose gradient with respect to the rate is zero (Paddle's rule for poisson)."""

    @staticmethod
    def forward(ctx, x, sample):  # noqa: D102
        return sample

    @staticmethod
    def backward(ctx, g):  # noqa: D102
        return torch.zeros_like(g), None


@defop(method=False, differentiable=False, paddle_types=("standard_gamma", "pd_op.standard_gamma"))
def standard_gamma(x, name=None):
    """Samples from Gamma(x, 1) with shape (concentration) ``x`` elementwise.

    Args:
        x (Tensor): the concentrations, a floating tensor of positive values.
        name (str, optional): unused.

    Returns:
        Tensor: the samples, ``x``'s shape and dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.standard_gamma(paddle.to_tensor([1.0, 2.0])).shape
        paddle.Size([2])
    """
    _need_float(x, "standard_gamma")
    if on_paddle_cpu(x.device) and x.dtype in (torch.float32, torch.float64):
        alpha = x.detach().reshape(-1).numpy()
        return torch.from_numpy(_sg.standard_gamma(cpu_engine(), alpha)).reshape(x.shape)
    return torch._standard_gamma(x.detach())


_MULTINOMIAL_DTYPES = frozenset((torch.float32, torch.float64))  # Paddle's CPU kernels


@defop(method=True, differentiable=False, paddle_types=("multinomial", "pd_op.multinomial"))
def multinomial(x, num_samples=1, replacement=False, name=None, *, out=None):
    """Draw category indices from the (unnormalised) distributions in the last axis of ``x``.

    Args:
        x (Tensor): non-negative weights, 1-D or 2-D (one distribution per row).
        num_samples (int, optional): samples per distribution. Default 1.
        replacement (bool, optional): draw with replacement. Default False, which
            needs at least ``num_samples`` non-zero weights.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.

    Returns:
        Tensor: int64 indices, shape ``[..., num_samples]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.multinomial(paddle.to_tensor([0.0, 1.0, 0.0]), 2, True).tolist()
        [1, 1]
    """
    _need_float(x, "multinomial")
    kernel_dtypes("multinomial", x, _MULTINOMIAL_DTYPES)
    if x.dim() == 0:
        raise ValueError("paddle.multinomial: 'x' must have at least 1 dimension, but received a 0-D Tensor")
    if x.dim() > 2:
        raise ValueError("paddle.multinomial: 'x' must have at most 2 dimensions, but received "
                         f"shape {list(x.shape)}")
    if int(num_samples) <= 0:
        raise ValueError("paddle.multinomial: 'num_samples' must be > 0, but received "
                         f"{int(num_samples)}")
    if _concrete(x) and bool(((x < 0) | x.isnan()).any()):
        bad = x[(x < 0) | x.isnan()].reshape(-1)[0]
        raise ValueError("paddle.multinomial: every weight in 'x' must be >= 0, but received "
                         f"{float(bad)}")
    if x.dim() == 2 and x.shape[0] == 0:        # no distributions: nothing drawn
        return finish(torch.empty(0, int(num_samples), dtype=torch.int64, device=x.device), out)
    if not replacement and x.device.type != "meta":
        nonzero = int((x != 0).sum(-1).min()) if x.numel() else 0
        if nonzero < num_samples:
            raise ValueError(f"paddle.multinomial: without replacement, 'num_samples' ({num_samples}) "
                             f"must not exceed the number of non-zero categories ({nonzero})")
    if on_paddle_cpu(x.device):
        return finish(_ss.multinomial_cpu(x, int(num_samples), bool(replacement)), out)
    r = torch.multinomial(x.detach().float() if x.dtype in (torch.float16, torch.bfloat16) else x.detach(),
                          int(num_samples), bool(replacement))
    return finish(r, out)


# ---- in-place samplers (Tensor methods) -----------------------------------------------

def _cauchy_(x, loc=0, scale=1, name=None):
    """Fill ``x`` in place with Cauchy(loc, scale) samples and return it.

    Args:
        x (Tensor): a floating tensor, overwritten.
        loc (float, optional): the location (median). Default 0.
        scale (float, optional): the scale (half width at half maximum). Default 1.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.zeros([4]).cauchy_(0.0, 2.0).shape
        paddle.Size([4])
    """
    if not x.is_complex():
        _need_float(x, "cauchy_")
    kernel_dtypes("cauchy_", x, _GAUSSIAN_INPLACE_DTYPES)
    if isinstance(loc, str):   # Paddle makes a tensor of it (to_tensor's TypeError)
        raise TypeError(f"paddle.cauchy_: 'loc' must be a number, a list or a Tensor, but received "
                        f"str {loc!r}")
    if isinstance(loc, (list, tuple)):   # ... added elementwise, as a tensor
        loc = torch.tensor(loc, device=x.device)
    if on_paddle_cpu(x.device) or x.is_complex() or (isinstance(loc, _T) and loc.numel() != 1):
        # Paddle's composite: normal_(), then tan((x - 0.5) * pi) * scale + loc (complex too)
        if isinstance(loc, _T) and loc.numel() != 1:     # Paddle adds it elementwise
            loc = loc.to(x.dtype)
        else:
            loc = loc.item() if isinstance(loc, _T) else loc
            loc = complex(loc) if x.is_complex() else float(loc.real if isinstance(loc, complex) else loc)
        with torch.no_grad():
            _normal_(x)
            return x.sub_(0.5).mul_(math.pi).tan_().mul_(float(scale)).add_(loc)
    return x.cauchy_(float(loc), float(scale))


cauchy_ = returns_self(defop("cauchy_", method=False, dygraph_only=True)(_fill_cuts_grad(_cauchy_)), "cauchy_")


def _geometric_(x, probs, name=None):
    """Fill ``x`` in place with geometric samples ``log(u) / log(1 - probs)``, ``u ~ U(0, 1)``.

    As in Paddle, the samples are the continuous form (not rounded up to integers).

    Args:
        x (Tensor): a floating tensor, overwritten.
        probs (float|list|numpy.ndarray|Tensor): the success probability, in (0, 1); data
            other than a Tensor is read as ``paddle.to_tensor`` reads it (a Python float as
            float32), and an array broadcasts against ``x``.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> bool((paddle.zeros([5]).geometric_(0.3) >= 0).all())
        True
    """
    if not x.is_complex():   # (Paddle's Python check takes any inexact numpy dtype)
        _need_float(x, "geometric_", error=ValueError)
    kernel_dtypes("geometric_", x, F32_F64)
    tiny = torch.finfo(x.dtype).tiny
    # As Paddle: probs is read as ``paddle.to_tensor`` reads data (a Python float as float32,
    # a list or array elementwise), then cast to x's dtype.
    p = _from_data(probs, None, "geometric_").to(x.dtype)
    with torch.no_grad():
        _uniform_(x, tiny, 1.0)
        # Paddle negates by scale(-1) + 0, so probs = 0 gives log1p(+0) and -inf samples
        return x.log_().div_(torch.log1p(-p.to(x.device) + 0.0))


geometric_ = returns_self(defop("geometric_", method=False, dygraph_only=True)(_fill_cuts_grad(_geometric_)), "geometric_")


def _exponential_(x, lam=1.0, name=None):
    """Fill ``x`` in place with Exponential(lam) samples and return it.

    Args:
        x (Tensor): a floating tensor, overwritten.
        lam (float, optional): the rate. Default 1.0.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> bool((paddle.zeros([4]).exponential_(2.0) >= 0).all())
        True
    """
    _need_float(x, "exponential_")
    lam = _num(lam, "exponential_", "lam", TypeError)
    kernel_dtypes("exponential_", x, F32_F64)
    with torch.no_grad():  # Paddle also fills a leaf that doesn't stop gradient
        if on_paddle_cpu(x.device):
            return x.copy_(_ss.exponential_cpu(list(x.shape), x.dtype, float(lam)))
        return x.exponential_(float(lam))


returns_self(defop("exponential_", method=False)(_fill_cuts_grad(_exponential_)), "exponential_", leaf_check=False)


def _uniform_(x, min=0, max=1.0, seed=0, name=None):
    """Fill ``x`` in place with samples uniform in ``[min, max)`` and return it.

    Args:
        x (Tensor): a floating tensor, overwritten.
        min (float, optional): lower bound. Default 0.
        max (float, optional): upper bound. Default 1.0.
        seed (int, optional): when non-zero, draw from a private generator seeded with it.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([3])
        >>> x.uniform_(-1.0, 1.0) is x
        True
    """
    if not (x.is_floating_point() or x.is_complex()):
        _need_float(x, "uniform_")
    seed = _seed_arg(seed, "uniform_")
    lo, hi = _num(min, "uniform_", "min", TypeError), _num(max, "uniform_", "max", TypeError)
    kernel_dtypes("uniform_", x, F32_F64)
    if not lo < hi:   # Paddle's in-place kernel checks this (paddle.uniform does not)
        raise ValueError(f"paddle.uniform_: 'min' must be less than 'max', but received min = "
                         f"{lo}, max = {hi}")
    if on_paddle_cpu(x.device):
        with torch.no_grad():
            return x.copy_(_ss.uniform_cpu(list(x.shape), x.dtype, lo, hi, int(seed)))
    gen = torch.Generator(x.device).manual_seed(int(seed)) if seed else None
    return x.uniform_(lo, hi, generator=gen)


returns_self(defop("uniform_", method=False, dygraph_only=True)(_fill_cuts_grad(_uniform_)), "uniform_")

_MANTISSA = {torch.float32: 24, torch.float64: 53, torch.float16: 11, torch.bfloat16: 8}


def _random_(x, from_=0, to=None, *, generator=None):
    """Fill ``x`` in place with integers uniform in ``[from_, to)`` and return it.

    With ``to`` None: ``[0, from_)`` when ``from_`` is non-zero, else every integer
    the dtype holds exactly (``[0, 2**mantissa]`` for floats, ``[0, max)`` for ints).

    Args:
        x (Tensor): the tensor, overwritten.
        from_ (int, optional): lower bound, inclusive. Default 0.
        to (int, optional): upper bound, exclusive.
        generator (Generator, optional): accepted and ignored, as in Paddle: the samples
            always come from the default generator of ``x``'s device.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([4], dtype='int64').random_(0, 3)
        >>> bool(((x >= 0) & (x < 3)).all())
        True
    """
    if to is None:
        if from_ == 0:
            if x.is_floating_point():
                to = 2 ** _MANTISSA.get(x.dtype, 8)
            elif x.dtype is torch.bool or x.is_complex():  # Paddle asks iinfo(dtype) for the bound
                raise ValueError(f"paddle.Tensor.random_: a {_dtype_name(x.dtype)} tensor needs an "
                                 "explicit 'to' (iinfo only covers int8, int16, int32, int64 and "
                                 "uint8), but received to=None")
            else:
                to = torch.iinfo(x.dtype).max
        else:
            from_, to = 0, from_
    if from_ >= to:
        raise ValueError(f"paddle.Tensor.random_: 'from_' must be less than 'to', but received "
                         f"from_={from_} >= to={to}")
    kernel_dtypes("Tensor.random_", x, _RANDOM_DTYPES)
    if on_paddle_cpu(x.device) and x.dtype in _RANDOM_DTYPES:
        from_, to = int(from_), int(to)
        if x.is_floating_point():
            from_, to = _float_from(from_, x.dtype), _float_to(to, x.dtype)
            if from_ >= to:
                raise ValueError(f"paddle.Tensor.random_: 'from_' cast to {_dtype_name(x.dtype)} must be "
                                 f"less than 'to' cast to it, but received from={from_} >= to={to}")
        with torch.no_grad():
            return x.copy_(_ss.random_cpu(list(x.shape), x.dtype, from_, to))
    return x.random_(int(from_), int(to))


def _as_float_int(v: int, dtype: torch.dtype) -> int:
    """``int64(dtype(v))`` as C++ casts it (half types through float; a non-finite value
    becomes INT64_MIN, x86's result)."""
    t = torch.tensor(float(v), dtype=torch.float64 if dtype is torch.float64 else torch.float32)
    f = float(t.to(dtype))
    return int(f) if math.isfinite(f) else -2 ** 63


def _float_from(from_: int, dtype: torch.dtype) -> int:
    """Paddle's (and torch's) ``update_from``: raise ``from_`` when ``from_ + 1`` rounds
    below it in ``dtype``."""
    plus1 = _as_float_int(from_ + 1, dtype)
    if plus1 < from_:
        n = abs(from_ + 1).bit_length() - 1
        from_ = plus1 + (1 << (n - _MANTISSA[dtype] + 1))
    return from_


def _float_to(to: int, dtype: torch.dtype) -> int:
    """Paddle's (and torch's) ``update_to``: lower ``to`` when ``to - 1`` rounds up to it
    or beyond in ``dtype``, so every sample stays below ``to`` once cast."""
    minus1 = _as_float_int(to - 1, dtype)
    if minus1 >= to:
        n = abs(to - 1).bit_length() - 1
        to = minus1 - (1 << (n - _MANTISSA[dtype] + 1))
    return to


# the dtypes of Paddle's CPU random_ kernel
_RANDOM_DTYPES = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32,
                            torch.int64})


returns_self(defop("random_", method=False)(_fill_cuts_grad(_random_)), "random_")


# Paddle's creation functions take the dims as separate ints too (``paddle.rand(2, 3)``)
rand = size_args(rand)
randn = size_args(randn)
