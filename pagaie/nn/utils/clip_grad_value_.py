"""In-place gradient clipping of parameter lists by value: clip_grad_value_ (the module of
Paddle's name, ``paddle.nn.utils.clip_grad_value_``)."""
from __future__ import annotations

from typing import Iterable

import torch

from pagaie._core.tensor import Tensor
from pagaie.nn.utils.clip_grad_norm_ import _dynamic_only, _params

__all__ = ["clip_grad_value_"]


def clip_grad_value_(parameters: Iterable[Tensor] | Tensor, clip_value: float) -> None:
    """Clamp every gradient element of ``parameters`` into ``[-clip_value, clip_value]``, in place.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.Linear(2, 2)
        >>> (fc(paddle.ones([1, 2])) * 10).sum().backward()
        >>> paddle.nn.utils.clip_grad_value_(fc.parameters(), 1.0)
        >>> float(abs(fc.weight.grad.numpy()).max()) <= 1.0
        True
    """
    _dynamic_only("clip_grad_value_")
    clip_value = float(clip_value)
    if clip_value < 0:
        raise ValueError(f"paddle.nn.utils.clip_grad_value_: 'clip_value' must be >= 0 (the clip range is "
                         f"[-clip_value, clip_value]), but received {clip_value}")
    from pagaie._ops.math import clip
    kernel = clip.op_record.kernel   # Paddle clips with its clip kernel, and so its dtypes
    with torch.no_grad():
        for p in _params(parameters):
            g = p._t.grad
            if g is not None:
                g.copy_(kernel(g, -clip_value, clip_value))
