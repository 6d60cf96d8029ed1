"""ASGD: stochastic average gradient over the last ``batch_num`` batches."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch

from pagaie._core.tensor import Tensor
from pagaie.optimizer.optimizer import Optimizer, _low_precision_note

__all__ = ["ASGD"]


def _batch_count(batch_num: Any) -> int:
    """``batch_num`` as a Python int: an int, or a one-element integer Tensor (Paddle reads a
    0-D Tensor as its value); a float or bool is a TypeError, as in Paddle."""
    if isinstance(batch_num, Tensor) and batch_num.size == 1 and not batch_num.is_floating_point() \
            and str(batch_num.dtype) != "paddle.bool":
        return int(batch_num.item())
    if isinstance(batch_num, bool) or not isinstance(batch_num, (int, np.integer)):
        raise TypeError("paddle.optimizer.ASGD: batch_num should be an int, but received "
                        f"{type(batch_num).__name__} {batch_num}")
    return int(batch_num)


class ASGD(Optimizer):
    r"""Averaged SGD in the SAG form (Schmidt et al.): keep the last gradient of each of
    ``n = batch_num`` batches in ``y``, their sum in ``d``, and step along the average:

    .. math::
        i = m \bmod n, \quad d \leftarrow d - y_i + g, \quad y_i \leftarrow g, \quad
        \theta \leftarrow \theta - lr \frac{d}{\min(m + 1, n)}

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        batch_num (int, optional): the number of batches per epoch ``n``. Default 1.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        multi_precision (bool, optional): float32 master weights for low-precision parameters.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_asgd_w")
        >>> opt = paddle.optimizer.ASGD(learning_rate=0.1, batch_num=2, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
        >>> opt.step()
        >>> round(w.item(), 4)
        0.9
    """

    _low_precision_warning = _low_precision_note("FP16/BF16", "Adam")

    _acc_names = ("d", "y", "m")

    def __init__(self, learning_rate: Any = 0.001, batch_num: int = 1, parameters: Sequence | None = None,
                 weight_decay: Any = None, grad_clip: Any = None, multi_precision: bool = False,
                 name: str | None = None) -> None:
        if learning_rate is None:
            raise ValueError("paddle.optimizer.ASGD: learning_rate should not be none")
        if batch_num is None:
            raise ValueError("paddle.optimizer.ASGD: batch_num should not be none")
        if not 0 < batch_num:
            raise ValueError(f"paddle.optimizer.ASGD: batch_num should be greater than 0, but received {batch_num}")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "asgd"
        self._n = _batch_count(batch_num)
        self._multi_precision = multi_precision
        self._default_dict = {}

    def _init_state(self, target: Tensor, hp: dict) -> None:
        # Paddle keeps these in the parameter's dtype, even next to float32 master weights
        dt = self._creating_param_dtype or target._t.dtype
        self._add_accumulator("d", target, dtype=dt)
        self._add_accumulator("y", target, dtype=dt, shape=[self._n, *target._t.shape])
        self._add_accumulator("m", target, dtype=torch.int64, shape=[1])

    def _update_one(self, p, g, state, lr, hp, param) -> None:
        d, ys, m = state["d"], state["y"], state["m"]
        count = int(m.item())
        y = ys[count % self._n]
        m.add_(1)
        n = min(count + 1, self._n)
        d.sub_(y).add_(g)
        y.copy_(g)
        p.sub_(lr * d / n)
