"""Fusion hints for :func:`paddle.incubate.cc.compile`.

Paddle's compiler fuses the ops run inside :func:`by_register` into the preceding kernel
(e.g. a matmul epilogue) on GPU. pagaie runs the same ops unfused, so the results are the same.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

__all__ = ["matmul", "by_register"]


@contextmanager
def by_register() -> Iterator[None]:
    """Mark the ops run inside as one fusion group (a hint; they run as written).

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.incubate.cc.fuse.by_register():
        ...     y = paddle.nn.functional.relu(paddle.to_tensor([-1.0, 2.0]))
        >>> y.tolist()
        [0.0, 2.0]
    """
    yield


def matmul(x: Any, w: Any, epilogue: Callable, **kwargs: Any) -> Any:
    """``epilogue(paddle.matmul(x, w, **kwargs))``, the epilogue marked for fusion.

    Args:
        x (Tensor): left operand.
        w (Tensor): right operand.
        epilogue (callable): applied to the product (bias, activation...).
        **kwargs: passed to ``paddle.matmul`` (``transpose_x``, ``transpose_y``).

    Returns:
        Tensor: the epilogue's result.

    Examples:
        >>> import pagaie as paddle
        >>> x, w = paddle.ones([1, 2]), paddle.ones([2, 2])
        >>> paddle.incubate.cc.fuse.matmul(x, w, lambda t: t + 1.0).tolist()
        [[3.0, 3.0]]
    """
    from pagaie import matmul as _matmul
    out = _matmul(x, w, **kwargs)
    with by_register():
        return epilogue(out)
