"""Shared pieces of the creation and random families: shapes, the ``out=`` /
``device=`` / ``requires_grad=`` keywords, and in-place methods that return ``self``."""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import numpy as np
import torch

from pagaie._core.registry import NoKernelError
from pagaie._core import dtype as _dt
from pagaie._core.place import to_torch_device
from pagaie._core.registry import NoKernelError
from pagaie._core.tensor import Tensor, check_inplace, is_leaf_view, require_grad, write_leaf_view
from pagaie._ops._helpers import PARSER_NUMPY_INTS
from pagaie._ops._helpers import device as default_device

__all__ = ["size_args", "shape_of", "device_of", "finish", "write_out", "float_only", "returns_self",
           "c_float_to_int"]

_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_FLOATS_COMPLEX = _FLOATS + (torch.complex64, torch.complex128)


def c_float_to_int(v: float, dt: torch.dtype) -> int:
    """C++'s ``static_cast<T>(double)`` on x86 CPUs, as Paddle's kernels compute it: the value
    truncates toward zero through a 32-bit conversion (64-bit for int64) that gives the
    smallest integer for NaN and out-of-range values, then wraps to ``dt``'s width."""
    bits = 64 if dt is torch.int64 else 32
    lo = -(1 << (bits - 1))
    i = int(v) if v == v and abs(v) != float("inf") else lo
    if not lo <= i < -lo:
        i = lo
    tlo, thi = (0, 255) if dt is torch.uint8 else (torch.iinfo(dt).min, torch.iinfo(dt).max)
    return (i - tlo) % (thi - tlo + 1) + tlo


def shape_of(shape: Any, api: str) -> list[int]:
    """A shape argument (int, list/tuple of ints or 0-D tensors, or a 1-D int tensor) as ints."""
    if isinstance(shape, np.ndarray):  # Paddle takes a numpy array of ints as a list
        if shape.dtype.kind not in "iu":
            raise TypeError(f"paddle.{api}: 'shape' must hold integers, but received a numpy "
                            f"array of dtype {shape.dtype}")
        shape = list(shape.reshape(-1))
    elif isinstance(shape, np.integer):
        shape = int(shape)
    if isinstance(shape, torch.Tensor):
        if shape.is_floating_point() or shape.is_complex():
            raise TypeError(f"paddle.{api}: 'shape' must hold integers, but received a tensor of "
                            f"dtype {_dt.from_torch_dtype(shape.dtype).name}")
        dims = [int(v) for v in shape.reshape(-1).tolist()]
    elif isinstance(shape, (list, tuple)):
        dims = []
        for e in shape:
            if isinstance(e, torch.Tensor):
                e = e.item()
            if isinstance(e, PARSER_NUMPY_INTS):
                e = int(e)
            if isinstance(e, bool) or not isinstance(e, int):
                raise TypeError(f"paddle.{api}: each element of 'shape' must be an int, but received "
                                f"{type(e).__name__} ({e!r})")
            dims.append(e)
    elif isinstance(shape, int) and not isinstance(shape, bool):
        dims = [shape]
    else:
        raise TypeError(f"paddle.{api}: 'shape' must be a list, tuple or Tensor, but received "
                        f"{type(shape).__name__}")
    for d in dims:
        if d < 0:
            raise ValueError(f"paddle.{api}: every dimension of 'shape' must be non-negative, "
                             f"but received shape {dims}")
    return dims


def device_of(device: Any, api: str) -> torch.device:
    """The ``device=`` keyword (a Place, 'cpu', 'gpu:0'...) or the default device."""
    return default_device() if device is None else to_torch_device(device, f"paddle.{api}")


def finish(t: torch.Tensor, out: Any = None, requires_grad: bool = False,
           pin_memory: bool = False, api: str = "") -> torch.Tensor:
    """Apply the common keywords to a freshly created tensor.

    ``out`` (a torch tensor, already unwrapped) is resized and receives the values;
    ``requires_grad`` makes a floating result a gradient leaf; ``pin_memory`` pins it.
    """
    if pin_memory:
        t = _pinned(t, api)
    if requires_grad:
        t = require_grad(t.detach())  # integer results are flagged stop_gradient=False
    if out is not None:
        write_out(out, t)
        if requires_grad and out.is_leaf:
            require_grad(out)
        return out
    return t


def _pinned(t: torch.Tensor, api: str) -> torch.Tensor:
    """``pin_memory=True`` as Paddle reads it: a tensor made for a GPU goes to page-locked host
    memory instead; one made on the CPU can't be pinned (RuntimeError)."""
    if t.device.type == "meta":   # (static recording: nothing to pin)
        return t
    if t.device.type == "cpu":
        raise RuntimeError(f"paddle.{api}: pinning memory is not supported for Place(cpu) "
                           "('pin_memory' needs a GPU place)")
    return t.cpu().pin_memory()


def write_out(out: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """Make ``out`` hold the result ``t``, taking its shape and dtype, as Paddle's ``out=`` does."""
    if not isinstance(out, torch.Tensor):
        raise ValueError(f"'out' must be a Tensor, but received {type(out).__name__}")
    # torch refuses resize_ on a leaf that needs gradients, even to its own shape
    if out.dtype is t.dtype and out.device == t.device and \
            (out.shape == t.shape or not out.requires_grad):
        with torch.no_grad():
            if out.shape != t.shape:
                out.resize_(t.shape)
            out.copy_(t)
    else:
        out.data = t.detach()
    return out


def float_only(dtype: torch.dtype, api: str, complex_ok: bool = True) -> torch.dtype:
    """Check a random op's output dtype: floating (and complex where allowed)."""
    allowed = _FLOATS_COMPLEX if complex_ok else _FLOATS
    if dtype not in allowed:
        names = ", ".join(_dt.from_torch_dtype(d).name for d in allowed)
        raise NoKernelError(f"paddle.{api}: 'dtype' must be one of {names}, but received "
                            f"{_dt.from_torch_dtype(dtype).name} (no kernel for it)")
    return dtype


def returns_self(fn: Callable, method: str | None = None, leaf_check: bool = True) -> Callable:
    """Make an in-place op's public function return its first argument itself, as Paddle does.

    The op record's function returns a new wrapper around the mutated torch tensor;
    this one hands back the very ``Tensor`` the caller passed (``x.uniform_() is x``).
    Attaches the result as ``Tensor.<method>`` when ``method`` is given. ``leaf_check``
    False: Paddle lets the op overwrite a leaf that doesn't stop gradient (``exponential_``).
    """
    sig = inspect.signature(fn)
    api_name = method or fn.__name__

    @functools.wraps(fn)
    def api(x, *args, **kwargs):
        if isinstance(x, Tensor) and is_leaf_view(x._t):
            # a view of a leaf that needs gradients: Paddle writes the leaf's memory
            return write_leaf_view(x, lambda c: fn(c, *args, **kwargs))
        if leaf_check and isinstance(x, Tensor):
            check_inplace(x, api_name)  # Paddle's rule, for integer leaves too
        out = fn(x, *args, **kwargs)
        if isinstance(x, Tensor) and isinstance(out, Tensor) and out._t is x._t:
            return x
        return out

    api.__signature__ = sig
    del api.__wrapped__
    api.op_record = getattr(fn, "op_record", None)
    if method:
        setattr(Tensor, method, api)
    return api


def size_args(api: Callable) -> Callable:
    """``api`` taking its shape as separate ints too, as Paddle's creation functions do:
    ``f(2, 3, dtype=...)`` is ``f([2, 3], dtype=...)`` (when the first positional argument is
    an int, every positional one is a dim), ``size=`` names the shape, and an int shape is a
    one-dim shape.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.zeros(2, 3, dtype='int32').shape, paddle.ones(size=[2]).shape
        (paddle.Size([2, 3]), paddle.Size([2]))
    """
    @functools.wraps(api)
    def call(*args: Any, **kwargs: Any) -> Any:
        if "size" in kwargs:
            kwargs["shape"] = kwargs.pop("size")
        elif args and isinstance(args[0], int):
            kwargs["shape"] = list(args)
            args = ()
        if isinstance(kwargs.get("shape"), int):
            kwargs["shape"] = [kwargs["shape"]]
        return api(*args, **kwargs)

    call.__signature__ = inspect.signature(api)
    del call.__wrapped__
    return call
