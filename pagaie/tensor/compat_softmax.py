"""``paddle.tensor.compat_softmax``: the PyTorch-style ``softmax(input, dim=None, dtype=None,
*, out=None)``, the same object as ``paddle.softmax`` and ``paddle.special.softmax``.
"""
from pagaie._ops.math import softmax

__all__ = ["softmax"]
