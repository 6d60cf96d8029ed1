"""Adagrad: per-coordinate learning rates from the sum of squared gradients."""
from __future__ import annotations

from typing import Any, Sequence

import torch

from pagaie._core.tensor import Tensor
from pagaie.optimizer.optimizer import Optimizer, _f32, _low_precision_note

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    r"""Adagrad (Duchi et al.):
    :math:`G \leftarrow G + g^2, \ \theta \leftarrow \theta - lr \cdot g / (\sqrt{G} + \epsilon)`.

    Args:
        learning_rate (float|LRScheduler): the learning rate.
        epsilon (float, optional): numerical stabilizer. Default 1e-6.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        name (str|None, optional): prefix of the accumulators' names. Default None.
        initial_accumulator_value (float, optional): initial value of ``G``. Default 0.0.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_adagrad_w")
        >>> opt = paddle.optimizer.Adagrad(learning_rate=0.1, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([2.0]))
        >>> opt.step()
        >>> round(w.item(), 4)
        0.9
    """

    _low_precision_warning = _low_precision_note("FP16/BF16", "Momentum")

    _acc_names = ("moment",)

    def __init__(self, learning_rate: Any, epsilon: float = 1e-6, parameters: Sequence | None = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: str | None = None,
                 initial_accumulator_value: float = 0.0) -> None:
        if learning_rate is None or epsilon is None:
            raise AssertionError("paddle.optimizer.Adagrad: learning_rate and epsilon must be set")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "adagrad"
        self._multi_precision = False
        self._epsilon = epsilon
        self.initial_accumulator_value = initial_accumulator_value
        self._default_dict = {"epsilon": epsilon, "initial_accumulator_value": initial_accumulator_value}

    def _init_state(self, target: Tensor, hp: dict) -> None:
        # as Paddle: in the parameter's dtype (float16/bfloat16 too)
        self._add_accumulator("moment", target, dtype=target._t.dtype, fill_value=hp["initial_accumulator_value"])

    def _update(self, params, grads, states, lrs, hp, tensors) -> None:
        eps = _f32(hp["epsilon"], "Adagrad's epsilon")
        acc = [st["moment"] for st in states]
        torch._foreach_addcmul_(acc, grads, grads)
        denom = torch._foreach_sqrt(acc)
        torch._foreach_add_(denom, eps)
        torch._foreach_addcdiv_(params, grads, denom, [-lr for lr in lrs])
