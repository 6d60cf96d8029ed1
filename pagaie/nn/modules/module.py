"""``paddle.nn.modules.module``: ``Module``, PyTorch's name for :class:`paddle.nn.Layer`.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.nn.modules.module import Module
    >>> isinstance(paddle.nn.Linear(2, 2), Module)
    True
"""
from __future__ import annotations

from pagaie.nn.layer.layers import Layer

Module = Layer

__all__ = ["Module"]
