"""Switching gradient recording on and off: ``no_grad``, ``enable_grad``, ``set_grad_enabled``."""
from __future__ import annotations

import functools
import inspect
import numbers
from typing import Any, Callable

import numpy as np
import torch

__all__ = ["no_grad", "no_grad_", "enable_grad", "set_grad_enabled", "is_grad_enabled"]


class _GradMode:
    """A context manager and decorator that sets gradient recording to ``self._mode``."""

    _mode = False

    def __enter__(self) -> None:
        self._prev = torch.is_grad_enabled()
        torch.set_grad_enabled(self._mode)

    def __exit__(self, *exc: Any) -> None:
        torch.set_grad_enabled(self._prev)

    def __call__(self, func: Callable) -> Callable:
        mode = type(self)
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def gen_wrapper(*args: Any, **kwargs: Any) -> Any:
                gen = func(*args, **kwargs)
                sent = None
                while True:  # the mode holds while the generator body runs, not between yields
                    with mode():
                        try:
                            value = gen.send(sent)
                        except StopIteration as stop:
                            return stop.value
                    sent = yield value
            return gen_wrapper

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with mode():
                return func(*args, **kwargs)
        wrapper.__jst_grad_mode__ = mode  # to_static converts ``func`` and keeps the mode
        return wrapper


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


class set_grad_enabled:
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
        pass

    def __exit__(self, *exc: Any) -> None:
        torch.set_grad_enabled(self._prev)

    def __call__(self, func: Callable) -> Callable:
        torch.set_grad_enabled(self._prev)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with set_grad_enabled(self._mode):
                return func(*args, **kwargs)
        wrapper.__jst_grad_mode__ = functools.partial(set_grad_enabled, self._mode)
        return wrapper


def is_grad_enabled() -> bool:
    """Whether gradients are being recorded now.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.is_grad_enabled()
        True
    """
    return torch.is_grad_enabled()
