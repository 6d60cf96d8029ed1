"""Adadelta: step sizes from running averages of squared gradients and updates."""
from __future__ import annotations

from typing import Any, Sequence

from pagaie.optimizer.optimizer import Optimizer, _f32, _low_precision_note

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    r"""Adadelta (Zeiler), with a learning rate:

    .. math::
        E[g^2] \leftarrow \rho E[g^2] + (1-\rho) g^2, \quad
        \Delta = -\frac{\sqrt{E[\Delta^2] + \epsilon}}{\sqrt{E[g^2] + \epsilon}}\, g, \quad
        E[\Delta^2] \leftarrow \rho E[\Delta^2] + (1-\rho) \Delta^2, \quad
        \theta \leftarrow \theta + lr \cdot \Delta

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        epsilon (float, optional): numerical stabilizer. Default 1e-6.
        rho (float, optional): decay of the running averages. Default 0.95.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_adadelta_w")
        >>> opt = paddle.optimizer.Adadelta(learning_rate=1.0, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
        >>> opt.step()
        >>> round(w.item(), 5)
        0.99553
    """

    _low_precision_warning = _low_precision_note("FP16/BF16", "Lars")

    _acc_names = ("_avg_squared_grad", "_avg_squared_update")
    _acc_in_param_dtype = True  # float16/bfloat16 parameters keep float16/bfloat16 state

    def __init__(self, learning_rate: Any = 0.001, epsilon: float = 1e-6, rho: float = 0.95,
                 parameters: Sequence | None = None, weight_decay: Any = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        for n, v in (("learning_rate", learning_rate), ("epsilon", epsilon), ("rho", rho)):
            if v is None:
                raise ValueError(f"paddle.optimizer.Adadelta: {n} is not set.")
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self._multi_precision = False
        self.type = "adadelta"
        self._epsilon, self._rho = epsilon, rho
        self._default_dict = {"epsilon": epsilon, "rho": rho}

    def _update_one(self, p, g, state, lr, hp, param) -> None:
        rho, eps = _f32(hp["rho"], "Adadelta's rho"), _f32(hp["epsilon"], "Adadelta's epsilon")
        eg, ed = state["_avg_squared_grad"], state["_avg_squared_update"]
        eg.mul_(rho).addcmul_(g, g, value=1 - rho)
        # RMS[update] / RMS[grad], each root taken on its own as Paddle does (a negative
        # epsilon gives NaN, not the root of a positive ratio)
        delta = (ed + eps).sqrt_().div_((eg + eps).sqrt_()).mul_(g).neg_()
        ed.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        p.add_(delta, alpha=lr)
