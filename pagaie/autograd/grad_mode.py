"""Switching gradient recording on and off: ``no_grad``, ``enable_grad``, ``set_grad_enabled``."""
from __future__ import annotations

import functools
import inspect
import numbers
from typing import Any, Callable

import numpy as np
import torch

__all__ = ["no_grad", "no_grad_", "enable_grad", "set_grad_enabled", "is_grad_enabled"]


class _Decorator:
    """Use of a gradient-mode context manager as a decorator, as Paddle does it: each call of
    the function runs inside ``with self`` (the decorating instance itself, so nested calls
    share its saved mode); a generator function runs in the mode from its first ``next`` until
    it ends, also while the caller's loop body runs between its yields. The wrapper carries
    the function's signature (``inspect.getfullargspec`` reads it as the function's)."""

    def _jst_mode(self) -> Callable:
        raise NotImplementedError

    def __call__(self, func: Callable) -> Callable:
        if not callable(func):
            raise TypeError(f"paddle.{type(self).__name__.rstrip('_')}: only a callable can be "
                            f"decorated, but received {type(func).__name__} {func!r:.40}")
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def gen_wrapper(*args: Any, **kwargs: Any) -> Any:
                gen = func(*args, **kwargs)
                with self:
                    yield from gen  # as in Paddle, the generator's return value is dropped
            return _with_signature(gen_wrapper, func)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)
        wrapper.__jst_grad_mode__ = self._jst_mode()  # to_static converts ``func`` and keeps the mode
        return _with_signature(wrapper, func)


def _with_signature(wrapper: Callable, func: Callable) -> Callable:
    """``wrapper`` with ``func``'s signature as its ``__signature__`` (kept as it is when
    ``func`` has none that Python can read, a builtin's for example)."""
    try:
        wrapper.__signature__ = inspect.signature(func)
    except (TypeError, ValueError):
        pass
    return wrapper


class _GradMode(_Decorator):
    """A context manager and decorator that sets gradient recording to ``self._mode``."""

    _mode = False

    def __enter__(self) -> None:
        self._prev = torch.is_grad_enabled()
        torch.set_grad_enabled(self._mode)

    def __exit__(self, *exc: Any) -> None:
        torch.set_grad_enabled(self._prev)

    def _jst_mode(self) -> Callable:
        return type(self)


class no_grad_(_GradMode):
    """Stop recording gradients, as a context manager or a decorator.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([2], dtype='float32'); x.stop_gradient = False
        >>> with paddle.no_grad():
        ...     y = x * 2
        >>> y.stop_gradient
        True
    """

    _mode = False


no_grad = no_grad_  # Paddle's class is named ``no_grad_``


class enable_grad(_GradMode):
    """Record gradients again inside a ``no_grad`` region (context manager or decorator).

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.no_grad():
        ...     with paddle.enable_grad():
        ...         print(paddle.is_grad_enabled())
        True
    """

    _mode = True


class set_grad_enabled(_Decorator):
    """Turn gradient recording on or off: a plain call, a context manager or a decorator.

    Args:
        mode (bool): True to record gradients.

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.set_grad_enabled(False):
        ...     print(paddle.is_grad_enabled())
        False
    """

    def __init__(self, mode: bool) -> None:
        if not (mode is None or isinstance(mode, (numbers.Number, np.bool_))):
            raise TypeError(f"paddle.set_grad_enabled: 'mode' must be a bool, but received "
                            f"{type(mode).__name__}")
        self._prev = torch.is_grad_enabled()
        self._mode = bool(mode)
        torch.set_grad_enabled(self._mode)

    def __enter__(self) -> None:
        # As in Paddle, the mode was set when the object was made and leaving restores the
        # mode seen then: a decorated function's first call runs in the mode, later calls
        # in whatever mode is current.
        pass

    def __exit__(self, *exc: Any) -> None:
        torch.set_grad_enabled(self._prev)

    def _jst_mode(self) -> Callable:
        return functools.partial(set_grad_enabled, self._mode)


def is_grad_enabled() -> bool:
    """Whether gradients are being recorded now.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.is_grad_enabled()
        True
    """
    return torch.is_grad_enabled()
