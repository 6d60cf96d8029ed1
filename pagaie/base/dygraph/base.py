"""``paddle.base.dygraph.base``: the module where Paddle defines its dynamic-mode switches.

The same objects as :mod:`paddle.base.dygraph` and :mod:`paddle.autograd` (``guard``,
``enabled``, ``no_grad_`` ...), plus the dynamic-to-static queries Paddle keeps here.

Examples:
    >>> import pagaie as paddle
    >>> paddle.base.dygraph.base.guard is paddle.base.dygraph.guard
    True
    >>> paddle.base.dygraph.base.in_to_static_mode()
    False
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from pagaie.autograd import enable_grad, grad, is_grad_enabled, set_grad_enabled  # noqa: F401
from pagaie.autograd import no_grad as no_grad_  # Paddle's class behind ``paddle.no_grad``
from pagaie.base.dygraph import enabled, guard, no_grad  # noqa: F401
from pagaie.static.framework import disable_static as enable_dygraph  # noqa: F401  (Paddle's
from pagaie.static.framework import enable_static as disable_dygraph  # noqa: F401  own objects)
from pagaie.base.framework import _get_paddle_place  # noqa: F401

__all__ = ["guard", "enabled", "enable_dygraph", "disable_dygraph", "no_grad_", "grad",
           "enable_grad", "is_grad_enabled", "set_grad_enabled", "in_to_static_mode",
           "param_guard"]


def in_to_static_mode() -> bool:
    """Whether code is being converted by ``paddle.jit.to_static`` (always False when eager
    code runs, as here).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.dygraph.base.in_to_static_mode()
        False
    """
    return False


@contextmanager
def param_guard(parameters: Any) -> Iterator[None]:
    """Context manager Paddle's dynamic-to-static conversion uses around layer parameters;
    eager code sees its parameters unchanged.

    Args:
        parameters (dict|list): the parameters of a layer.

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.nn.Linear(2, 2)
        >>> with paddle.base.dygraph.base.param_guard(layer._parameters):
        ...     out = layer(paddle.ones([1, 2]))
        >>> out.shape
        paddle.Size([1, 2])
    """
    yield
