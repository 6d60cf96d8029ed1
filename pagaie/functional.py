"""``paddle.functional``: a few tensor functions gathered under one name, as in Paddle.

They are the very objects of the top-level namespace (``paddle.functional.einsum is
paddle.einsum``), except ``split``, which is PyTorch-style :func:`paddle.compat.split`.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie import functional
    >>> functional.broadcast_shapes([2, 1], [1, 3])
    [2, 3]
    >>> [t.shape for t in functional.split(paddle.zeros([3]), 2)]
    [paddle.Size([2]), paddle.Size([1])]
"""
from __future__ import annotations

from pagaie import (atleast_1d, atleast_2d, atleast_3d, broadcast_shapes, einsum, meshgrid, norm,
                    unique_consecutive)
from pagaie.compat.tensor_ops import split

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "einsum", "norm",
           "split", "unique_consecutive", "meshgrid"]
