"""Broadcasting of shapes without ``torch.broadcast_shapes``.

torch's ``broadcast_shapes`` is written in Python over torch's reference kernels, whose first
call imports torch's symbolic-shape module and sympy (about 30 MB of memory and half a
second) into a process that may never need them. The rule is NumPy's and short.
"""
from __future__ import annotations

from typing import Sequence

import torch

__all__ = ["broadcast_shapes"]


def broadcast_shapes(*shapes: Sequence[int]) -> torch.Size:
    """The shape that tensors of ``shapes`` broadcast to (NumPy's rule), as
    ``torch.broadcast_shapes`` gives it.

    Raises:
        RuntimeError: a size is negative, or two sizes of an axis are neither equal nor 1.

    Examples:
        >>> from pagaie._core.broadcast import broadcast_shapes
        >>> broadcast_shapes((2,), (3, 1), (1, 1, 1))
        torch.Size([1, 3, 2])
    """
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for i, shape in enumerate(shapes):
        for axis, size in enumerate(shape, ndim - len(shape)):
            if size < 0:
                raise RuntimeError(f"broadcast_shapes: shape {list(shape)} has a negative size")
            if size == 1 or size == out[axis]:
                continue
            if out[axis] != 1:
                raise RuntimeError(f"broadcast_shapes: shapes cannot be broadcast together: size "
                                   f"{size} of shape {i} against {out[axis]} at axis {axis}")
            out[axis] = size
    return torch.Size(out)
