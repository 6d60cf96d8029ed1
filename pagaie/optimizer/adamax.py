"""Adamax: Adam with the infinity norm."""
from __future__ import annotations

from typing import Any, Sequence

import torch

from pagaie._core.tensor import Tensor
from pagaie.optimizer.optimizer import Optimizer, _check_range, _f32, _in_dtype, _low_precision_note, _scalar

__all__ = ["Adamax"]


class Adamax(Optimizer):
    r"""Adamax (Kingma & Ba, section 7):

    .. math::
        m \leftarrow \beta_1 m + (1-\beta_1) g, \quad
        u \leftarrow \max(\beta_2 u + \epsilon, |g|), \quad
        \theta \leftarrow \theta - \frac{lr}{1-\beta_1^t} \frac{m}{u}

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        beta1 (float, optional): decay of the first moment. Default 0.9.
        beta2 (float, optional): decay of the infinity norm. Default 0.999.
        epsilon (float, optional): numerical stabilizer. Default 1e-8.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_adamax_w")
        >>> opt = paddle.optimizer.Adamax(learning_rate=0.1, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([2.0]))
        >>> opt.step()
        >>> round(w.item(), 4)
        0.9
    """

    _low_precision_warning = _low_precision_note("FP16/BF16", "Adam")

    _acc_names = ("moment", "inf_norm", "beta1_pow_acc")

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-8, parameters: Sequence | None = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        for n, v in (("learning_rate", learning_rate), ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
            if v is None:
                raise AssertionError(f"paddle.optimizer.Adamax: {n} is not set")
        _check_range("Adamax", "beta1", beta1, 0.0, 1.0)
        _check_range("Adamax", "beta2", beta2, 0.0, 1.0)
        _check_range("Adamax", "epsilon", epsilon, 0.0)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "adamax"
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._multi_precision = False
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon}

    def _init_state(self, target: Tensor, hp: dict) -> None:
        dt = self._acc_dtype(target)
        self._add_accumulator("moment", target, dtype=dt)
        self._add_accumulator("inf_norm", target, dtype=dt)
        # as Paddle: the beta1 power stays in the parameter's dtype (float16 too)
        self._add_accumulator("beta1_pow_acc", target, dtype=target._t.dtype, fill_value=_scalar(hp["beta1"]),
                              shape=[1])

    def _update_one(self, p, g, state, lr, hp, param) -> None:
        b1, b2, eps = (_f32(_scalar(hp[k])) for k in ("beta1", "beta2", "epsilon"))
        m, u, b1p = state["moment"], state["inf_norm"], state["beta1_pow_acc"]
        m.mul_(b1).add_(g, alpha=1 - b1)
        torch.maximum(u.mul_(b2).add_(eps), g.abs(), out=u)
        step = lr / (1 - b1p[0])  # a 0-D factor: the power is [1]-shaped, the parameter may be 0-D
        p.sub_(step * (m / u))

    def _finish_update(self, states, hp) -> None:
        # Paddle scales the powers by beta1 after all the updates of a step (so a parameter
        # listed twice is updated twice with the same power), with its scale op, whose factor
        # is a double: exact for a float64 parameter (the kernel takes its betas as C++ floats)
        for st in states:
            b1p = st["beta1_pow_acc"]
            b1p.mul_(_in_dtype(_scalar(hp["beta1"]), b1p.dtype))
