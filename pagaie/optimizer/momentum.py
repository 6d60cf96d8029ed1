"""Momentum: SGD with (optionally Nesterov) momentum."""
from __future__ import annotations

from typing import Any, Sequence

import torch

from pagaie.optimizer.optimizer import Optimizer, _f32, _low_precision_note
from pagaie.regularizer import L2Decay

__all__ = ["Momentum"]


def _l2_method(decay: Any) -> tuple[str, float]:
    if isinstance(decay, L2Decay):
        return "l2_decay", decay._coeff
    if isinstance(decay, float):
        return "l2_decay", decay
    return "", 0.0


class Momentum(Optimizer):
    r"""Momentum SGD:

    .. math::
        v \leftarrow \mu v + g, \qquad
        \theta \leftarrow \theta - lr \cdot v \quad
        (\text{Nesterov: } \theta \leftarrow \theta - lr (g + \mu v))

    L2 weight decay is folded into the update (``g + coeff * theta``), as in Paddle's fused
    kernel. ``rescale_grad`` is accepted but, as in Paddle 3.3.1's CPU kernel, not applied.

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        momentum (float, optional): the momentum factor :math:`\mu`. Default 0.9.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        use_nesterov (bool, optional): use Nesterov momentum. Default False.
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        multi_precision (bool, optional): float32 master weights for low-precision parameters.
        rescale_grad (float, optional): gradient scale; stored, not applied (see above).
            Default 1.0.
        use_multi_tensor (bool, optional): accepted for compatibility; updates are always
            batched over a group's tensors. Default False.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_momentum_w")
        >>> opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[w])
        >>> for _ in range(2):
        ...     paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
        ...     opt.step()
        ...     opt.clear_grad()
        >>> round(w.item(), 6)
        0.71
    """

    _low_precision_warning = _low_precision_note("FP16/BF16", "Momentum")

    _acc_names = ("velocity",)
    _acc_in_param_dtype = True  # float16/bfloat16 parameters keep float16/bfloat16 state

    def __init__(self, learning_rate: Any = 0.001, momentum: float = 0.9, parameters: Sequence | None = None,
                 use_nesterov: bool = False, weight_decay: Any = None, grad_clip: Any = None,
                 multi_precision: bool = False, rescale_grad: float = 1.0, use_multi_tensor: bool = False,
                 name: str | None = None) -> None:
        if learning_rate is None:
            raise ValueError("paddle.optimizer.Momentum: learning_rate is not set")
        if momentum is None:
            raise ValueError("paddle.optimizer.Momentum: momentum is not set")
        if isinstance(weight_decay, int) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)
        is_l2 = lambda d: isinstance(d, (L2Decay, float))  # noqa: E731
        if isinstance(parameters, list) and not parameters:
            # Paddle reads the first entry of a list to tell Tensors from parameter groups
            raise IndexError("paddle.optimizer.Momentum: 'parameters' is an empty list")
        if isinstance(parameters, list) and isinstance(parameters[0], dict):
            groups = []
            for g in parameters:
                g = dict(g)
                decay = g.get("weight_decay", weight_decay)
                g["regularization_method"], g["regularization_coeff"] = _l2_method(decay)
                g["weight_decay"] = None if is_l2(decay) else decay
                groups.append(g)
            parameters = groups
        super().__init__(learning_rate, parameters, None if is_l2(weight_decay) else weight_decay,
                         grad_clip, name)
        self.type = "momentum"
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)
        self._regularization_method, self._regularization_coeff = _l2_method(weight_decay)
        self._multi_precision = multi_precision
        self._rescale_grad = rescale_grad
        self._use_multi_tensor = use_multi_tensor
        self._default_dict = {
            "momentum": momentum, "use_nesterov": use_nesterov, "rescale_grad": rescale_grad,
            "regularization_method": self._regularization_method,
            "regularization_coeff": self._regularization_coeff,
        }

    def _regularizer_of(self, param, regularization):
        reg = getattr(param, "regularizer", None)
        if isinstance(reg, L2Decay):
            return None  # folded into the update rule
        return reg if reg is not None else regularization

    def _l2_coeff(self, param, hp: dict) -> float:
        reg = getattr(param, "regularizer", None)
        if isinstance(reg, L2Decay):
            return reg._coeff
        if reg is not None:
            return 0.0
        return hp["regularization_coeff"] if hp["regularization_method"] == "l2_decay" else 0.0

    def _update(self, params, grads, states, lrs, hp, tensors) -> None:
        mu = _f32(hp["momentum"], "Momentum's momentum")
        _f32(hp["rescale_grad"], "Momentum's rescale_grad")  # checked as Paddle's kernel does, not applied
        coeffs = [_f32(self._l2_coeff(t, hp)) for t in tensors]
        if any(coeffs):
            if len(set(coeffs)) == 1:
                grads = torch._foreach_add(grads, params, alpha=coeffs[0])
            else:
                grads = [g.add(p, alpha=c) for g, p, c in zip(grads, params, coeffs)]
        vel = [st["velocity"] for st in states]
        torch._foreach_mul_(vel, mu)
        torch._foreach_add_(vel, grads)
        neg_lr = [-lr for lr in lrs]
        if hp["use_nesterov"]:
            step = torch._foreach_add(grads, vel, alpha=mu)
            torch._foreach_mul_(step, neg_lr)
            torch._foreach_add_(params, step)
        elif len(set(neg_lr)) == 1:
            torch._foreach_add_(params, vel, alpha=neg_lr[0])
        else:
            torch._foreach_add_(params, torch._foreach_mul(vel, neg_lr))
