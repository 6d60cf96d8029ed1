"""``paddle.special``: special functions, under the names ``torch.special`` uses.

The three functions are the same objects as elsewhere in pagaie, as in Paddle:
``paddle.special.expm1 is paddle.expm1``, ``paddle.special.logsumexp is paddle.logsumexp``,
and ``paddle.special.softmax`` is the PyTorch-style softmax ``(input, dim=None, dtype=None,
*, out=None)`` (also ``paddle.softmax`` and ``paddle.compat.nn.functional.softmax``), not
``paddle.nn.functional.softmax``.

Examples:
    >>> import pagaie as paddle
    >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 2.0]])
    >>> paddle.special.softmax(x, dim=1).tolist()
    [[0.2689414322376251, 0.7310585975646973], [0.5, 0.5]]
    >>> round(paddle.special.logsumexp(paddle.to_tensor([0.0, 0.0])).item(), 6)
    0.693147
    >>> paddle.special.expm1(paddle.to_tensor([0.0])).tolist()
    [0.0]
"""
from __future__ import annotations

from pagaie._ops.math import softmax
from pagaie._ops.math_unary import expm1
from pagaie._ops.reduce import logsumexp

__all__ = ["logsumexp", "softmax", "expm1"]
