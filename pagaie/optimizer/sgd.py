"""SGD: plain stochastic gradient descent."""
from __future__ import annotations

from typing import Any, Sequence

import torch

from pagaie.optimizer.optimizer import Optimizer, _low_precision_note

__all__ = ["SGD"]


class SGD(Optimizer):
    r"""Stochastic gradient descent: :math:`\theta \leftarrow \theta - lr \cdot g`.

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        multi_precision (bool, optional): keep float32 master weights for float16/bfloat16
            parameters. Default False.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0, 2.0]), name="doc_sgd_w")
        >>> sgd = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0, 1.0])).backward(paddle.to_tensor([1.0, 2.0]))
        >>> sgd.step()
        >>> [round(v, 6) for v in w.tolist()]
        [0.9, 1.8]
    """

    _low_precision_warning = _low_precision_note("FP16/BF16", "Adam")

    def __init__(self, learning_rate: Any = 0.001, parameters: Sequence | None = None,
                 weight_decay: Any = None, grad_clip: Any = None, multi_precision: bool = False,
                 name: str | None = None) -> None:
        if learning_rate is None:
            raise ValueError("paddle.optimizer.SGD: learning_rate is not set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "sgd"
        self._multi_precision = multi_precision

    def _update(self, params, grads, states, lrs, hp, tensors) -> None:
        if len(set(lrs)) == 1:
            torch._foreach_add_(params, grads, alpha=-lrs[0])
        else:
            for p, g, lr in zip(params, grads, lrs):
                p.add_(g, alpha=-lr)
