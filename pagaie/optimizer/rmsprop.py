"""RMSProp: scale gradients by a running root mean square."""
from __future__ import annotations

from typing import Any, Sequence

import torch

from pagaie.optimizer.optimizer import Optimizer, _check_range, _f32, _flag, _low_precision_note

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    r"""RMSProp (Hinton), with momentum and the centered variant:

    .. math::
        r \leftarrow \rho r + (1-\rho) g^2, \quad
        v \leftarrow \mu v + \frac{lr \cdot g}{\sqrt{r - \bar g^2 + \epsilon}}, \quad
        \theta \leftarrow \theta - v

    where :math:`\bar g \leftarrow \rho \bar g + (1-\rho) g` when ``centered`` (else 0).

    Args:
        learning_rate (float|LRScheduler): the learning rate.
        rho (float, optional): decay of the averages. Default 0.95.
        epsilon (float, optional): numerical stabilizer. Default 1e-6.
        momentum (float, optional): momentum :math:`\mu`. Default 0.0.
        centered (bool, optional): normalize by the variance estimate. Default False.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_rmsprop_w")
        >>> opt = paddle.optimizer.RMSProp(learning_rate=0.1, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
        >>> opt.step()
        >>> round(w.item(), 4)
        0.5528
    """

    _low_precision_warning = _low_precision_note("FP16", "Lars")

    _acc_names = ("momentum", "mean_square", "mean_grad")
    _acc_in_param_dtype = True  # float16/bfloat16 parameters keep float16/bfloat16 state

    def __init__(self, learning_rate: Any, rho: float = 0.95, epsilon: float = 1e-6, momentum: float = 0.0,
                 centered: bool = False, parameters: Sequence | None = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        for n, v in (("learning_rate", learning_rate), ("rho", rho), ("epsilon", epsilon), ("momentum", momentum)):
            if v is None:
                raise ValueError(f"paddle.optimizer.RMSProp: {n} is not set.")
        _check_range("RMSProp", "epsilon", epsilon, 0.0)
        _check_range("RMSProp", "momentum", momentum, 0.0)
        _check_range("RMSProp", "rho", rho, 0.0)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "rmsprop"
        self._rho, self._epsilon, self._momentum, self._centered = rho, epsilon, momentum, centered
        self._multi_precision = False
        self._default_dict = {"rho": rho, "epsilon": epsilon, "momentum": momentum, "centered": centered}

    def _update(self, params, grads, states, lrs, hp, tensors) -> None:
        # Paddle's rule: ms = rho ms + (1 - rho) g^2 (and mg = rho mg + (1 - rho) g, centred),
        # mom = mu mom + lr g / sqrt(ms [- mg^2] + eps), p -= mom; one foreach kernel per step
        rho, eps, mu = (_f32(hp[k], f"RMSProp's {k}") for k in ("rho", "epsilon", "momentum"))
        mom = [st["momentum"] for st in states]
        ms = [st["mean_square"] for st in states]
        torch._foreach_mul_(ms, rho)
        torch._foreach_addcmul_(ms, grads, grads, value=1 - rho)
        if _flag(hp["centered"], "RMSProp's centered"):
            mg = [st["mean_grad"] for st in states]
            torch._foreach_mul_(mg, rho)
            torch._foreach_add_(mg, grads, alpha=1 - rho)
            denom = torch._foreach_addcmul(ms, mg, mg, value=-1)
            torch._foreach_add_(denom, eps)
        else:
            denom = torch._foreach_add(ms, eps)
        torch._foreach_sqrt_(denom)
        torch._foreach_mul_(mom, mu)
        torch._foreach_addcdiv_(mom, grads, denom, [float(lr) for lr in lrs])
        torch._foreach_sub_(params, mom)
