"""``paddle.base.dygraph``: switching to and querying dynamic graph (eager) mode.

Examples:
    >>> import numpy as np
    >>> import pagaie as paddle
    >>> paddle.enable_static()
    >>> with paddle.base.dygraph.guard():
    ...     t = paddle.to_tensor(np.ones([2], dtype='float32'))
    ...     paddle.base.dygraph.enabled()
    True
    >>> paddle.base.dygraph.enabled()
    False
    >>> paddle.disable_static()
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from pagaie.autograd import grad, no_grad as _no_grad_mode  # noqa: F401
from pagaie.static.framework import disable_static, enable_static, in_dynamic_mode

__all__ = ["guard", "enabled", "enable_dygraph", "disable_dygraph", "grad", "no_grad"]


def no_grad(func: Callable | None = None, *, orig_func: Callable | None = None) -> Any:
    """Stop recording gradients: ``base.dygraph.no_grad`` is used without parentheses as a
    decorator (``@base.dygraph.no_grad``), or called with no argument as a context manager.

    Args:
        func (callable, optional): the function to decorate; None gives the context manager.
        orig_func (callable, optional): Paddle's alias of ``func``.

    Returns:
        The decorated function (with ``func``'s name and signature), or the context manager.

    Examples:
        >>> import pagaie as paddle
        >>> @paddle.base.dygraph.no_grad
        ... def f():
        ...     return paddle.is_grad_enabled()
        >>> f()
        False
        >>> with paddle.base.dygraph.no_grad():
        ...     paddle.is_grad_enabled()
        False
    """
    if orig_func is not None:
        if func is not None:
            raise ValueError("paddle.base.dygraph.no_grad: cannot specify both 'func' and its "
                             "alias 'orig_func'")
        func = orig_func
    if func is None:
        return _no_grad_mode()
    return _no_grad_mode()(func)


def enabled() -> bool:
    """Whether the program runs in dynamic graph mode (same as ``paddle.in_dynamic_mode``).

    Returns:
        bool: True in dynamic mode.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.dygraph.enabled()
        True
    """
    return in_dynamic_mode()


def enable_dygraph(place: Any = None) -> None:
    """Switch to dynamic graph mode (same as ``paddle.disable_static``).

    Args:
        place (Place|str, optional): the device to run on; None keeps the current one.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.enable_dygraph()
        >>> paddle.in_dynamic_mode()
        True
    """
    if place is not None:
        _set_place(place)
    disable_static()


def disable_dygraph() -> None:
    """Switch to static graph mode (same as ``paddle.enable_static``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.disable_dygraph()
        >>> paddle.in_dynamic_mode()
        False
        >>> paddle.base.enable_dygraph()
    """
    enable_static()


def _set_place(place: Any) -> str:
    """Make ``place`` (a Place or a device string) the current device; returns the previous one."""
    from pagaie._core.place import get_device, set_device
    previous = get_device()
    if not isinstance(place, str):
        from pagaie._core.place import Place
        if not isinstance(place, Place):
            raise TypeError(f"paddle.base.dygraph.guard: place should be a Place or a device "
                            f"string like 'cpu' or 'gpu:0', but received {type(place).__name__}")
        place = f"gpu:{place.gpu_device_id()}" if place.is_gpu_place() else "cpu"
    set_device(place)
    return previous


@contextmanager
def guard(place: Any = None) -> Iterator[None]:
    """Run the ``with`` block in dynamic graph mode, with fresh unique names.

    Static mode (if on) is switched off inside the block and back on after it.

    Args:
        place (Place|str, optional): device for the block (``'cpu'``, ``'gpu:0'``, a Place);
            None keeps the current device.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn import Linear
        >>> with paddle.base.dygraph.guard():
        ...     out = Linear(4, 2)(paddle.ones([3, 4]))
        >>> out.shape
        paddle.Size([3, 2])
    """
    from pagaie.utils import unique_name
    was_static = not in_dynamic_mode()
    previous = _set_place(place) if place is not None else None
    if was_static:
        disable_static()
    try:
        with unique_name.guard():
            yield
    finally:
        if was_static:
            enable_static()
        if previous is not None:
            from pagaie._core.place import set_device
            set_device(previous)


from pagaie.base.dygraph import base  # noqa: E402,F401  (Paddle's ``dygraph.base`` submodule)
