"""``paddle.framework`` and the top-level names that are not ops.

Type predicates (``is_tensor``, ``is_floating_point`` ...), constants (``e``, ``pi``,
``nan``, ``inf``, ``newaxis``), global flags, ``LazyGuard``, the legacy ``batch``
reader decorator and ``disable_signal_handler``. Everything in
``__paddle_toplevel__`` is also exported as ``paddle.<name>``.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Iterator

import torch

from pagaie._core import dtype as _dt
from pagaie._core.flags import get_flags, set_flags
from pagaie._core.param_aliases import keyword_aliases
from pagaie.compat import disable_compat, enable_compat, use_compat_guard
from pagaie._core.registry import defop
from pagaie._core.tensor import Tensor
from pagaie._ops._helpers import kernel_dtypes

__all__ = ["is_tensor", "is_complex", "is_floating_point", "is_integer", "is_empty",
           "e", "pi", "nan", "inf", "newaxis", "LazyGuard", "batch", "disable_signal_handler",
           "get_flags", "set_flags", "enable_compat", "disable_compat", "use_compat_guard",
           "lazy_init_active"]
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = [n for n in __all__ if n != "lazy_init_active"]

from pagaie.framework.param_attr import ParamAttr, WeightNormParamAttr  # noqa: E402,F401
from pagaie.framework.io import load, save  # noqa: E402,F401
__paddle_toplevel__ += ["ParamAttr", "save", "load"]
from pagaie.framework.storage import MmapStorage  # noqa: E402,F401
from pagaie._core.dtype import pstring, raw  # noqa: E402,F401
from pagaie._core.place import XPUPinnedPlace  # noqa: E402,F401
__paddle_toplevel__ += ["MmapStorage", "pstring", "raw", "XPUPinnedPlace"]
from pagaie.framework import tensor_methods as _tensor_methods  # noqa: E402,F401  (attaches Tensor methods)

# Paddle's short dtype aliases (``paddle.float is paddle.float32``); assigned through
# globals() so the builtins ``float`` keeps its meaning in this module.
globals().update({"half": _dt.float16, "double": _dt.float64})
globals()["float"] = _dt.float32
__paddle_toplevel__ += ["half", "float", "double"]
from pagaie.framework.async_save import async_save, clear_async_save_task_queue  # noqa: E402,F401
from pagaie.framework import random  # noqa: E402,F401  (paddle.framework.random)
__paddle_toplevel__ += ["async_save", "clear_async_save_task_queue"]

e: float = math.e
pi: float = math.pi
nan: float = math.nan
inf: float = math.inf
newaxis = None


@keyword_aliases(obj="x")
def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a Tensor (a Parameter counts).

    Args:
        x (object): anything.

    Returns:
        bool: True for a Tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.is_tensor(paddle.to_tensor([1.0])), paddle.is_tensor([1.0])
        (True, False)
    """
    return isinstance(x, Tensor)


def _check_tensor(x: Any, api: str) -> torch.Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"paddle.{api}: expected Tensor, but received type of x: {type(x)}")
    return x._t


@keyword_aliases(input="x")
def is_complex(x: Tensor) -> bool:
    """Whether the dtype of ``x`` is complex64 or complex128.

    Args:
        x (Tensor): the tensor to check.

    Returns:
        bool: True for a complex dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.is_complex(paddle.to_tensor([1 + 2j]))
        True
    """
    return _check_tensor(x, "is_complex").is_complex()


@keyword_aliases(input="x")
def is_floating_point(x: Tensor) -> bool:
    """Whether the dtype of ``x`` is a floating type (float16/bfloat16/float32/float64...).

    Args:
        x (Tensor): the tensor to check.

    Returns:
        bool: True for a floating dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.is_floating_point(paddle.to_tensor([1.0]))
        True
    """
    _check_tensor(x, "is_floating_point")
    return x.is_floating_point()   # float8 types are not, as in Paddle


def is_integer(x: Tensor) -> bool:
    """Whether the dtype of ``x`` is an integer type (bool is not).

    Args:
        x (Tensor): the tensor to check.

    Returns:
        bool: True for int8/16/32/64 and uint8.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.is_integer(paddle.to_tensor([1])), paddle.is_integer(paddle.to_tensor([True]))
        (True, False)
    """
    t = _check_tensor(x, "is_integer")
    return not (t.is_floating_point() or t.is_complex() or t.dtype is torch.bool)


@defop(paddle_types=("is_empty", "pd_op.is_empty"), differentiable=False)
def is_empty(x, name=None):
    """Whether ``x`` has no elements, as a 0-D bool tensor.

    Args:
        x (Tensor): the tensor to check.
        name (str, optional): unused label.

    Returns:
        Tensor: a 0-D bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.is_empty(paddle.zeros([0, 3])).item()
        True
    """
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"paddle.is_empty: argument 'x' must be a Tensor, but got {type(x).__name__}")
    if x.dtype not in _IS_EMPTY_DTYPES:   # Paddle's CPU kernel and static check take only these
        kernel_dtypes("is_empty", x, _IS_EMPTY_DTYPES)
    return torch.tensor(x.numel() == 0, device=x.device)


_IS_EMPTY_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64})


_lazy_depth = 0


def lazy_init_active() -> bool:
    """Whether a :class:`LazyGuard` is open (Layers may defer parameter initialisation)."""
    return _lazy_depth > 0


class LazyGuard:
    """Context in which Layers may defer initialising their parameters.

    Inside the guard, :func:`lazy_init_active` is True; parameters keep their shapes,
    dtypes and initializers and get their values from the same initializers, so
    building a model inside the guard gives a model that behaves like one built
    outside it.

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.LazyGuard():
        ...     x = paddle.ones([2])
        >>> x.shape
        paddle.Size([2])
    """

    def __enter__(self) -> None:
        global _lazy_depth
        _lazy_depth += 1

    def __exit__(self, *exc: Any) -> None:
        global _lazy_depth
        _lazy_depth -= 1


def batch(reader: Callable[[], Iterator], batch_size: int, drop_last: bool = False) -> Callable[[], Iterator[list]]:
    """Wrap a sample reader into one that yields lists of ``batch_size`` samples.

    Args:
        reader (callable): returns an iterable of samples when called.
        batch_size (int): samples per batch, positive.
        drop_last (bool, optional): drop a last batch shorter than ``batch_size``. Default False.

    Returns:
        callable: the batched reader.

    Examples:
        >>> import pagaie as paddle
        >>> def reader():
        ...     yield from range(5)
        >>> list(paddle.batch(reader, batch_size=2)())
        [[0, 1], [2, 3], [4]]
    """
    size = int(batch_size)
    if size <= 0:
        raise ValueError(f"paddle.batch: batch_size should be a positive integer value, but got "
                         f"batch_size={size}")

    def batch_reader() -> Iterator[list]:
        buf: list = []
        for sample in reader():
            buf.append(sample)
            if len(buf) == size:
                yield buf
                buf = []
        if buf and not drop_last:
            yield buf

    return batch_reader


def disable_signal_handler() -> None:
    """Remove the framework's own signal handlers. pagaie installs none, so this does nothing.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.disable_signal_handler()
    """


def use_pir_api() -> bool:
    """Whether static programs are built with the PIR API (``FLAGS_enable_pir_api``, on by default).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.framework.use_pir_api()
        True
    """
    from pagaie._core.flags import flag
    return bool(flag("enable_pir_api"))


# Static-graph names Paddle also exposes here; looked up on first use (pagaie.base imports this module).
_FROM_BASE = {"in_pir_mode": "pagaie.base.framework", "in_dynamic_or_pir_mode": "pagaie.base.framework",
              "Program": "pagaie.base.framework", "Parameter": "pagaie.base.framework",
              "IPUPlace": "pagaie.device", "XPUPlace": "pagaie.device"}


def __getattr__(name: str) -> Any:
    if name in _FROM_BASE:
        import importlib
        value = getattr(importlib.import_module(_FROM_BASE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'paddle.framework' has no attribute '{name}'")
