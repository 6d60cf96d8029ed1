"""RAdam: Adam with a rectified adaptive learning rate."""
from __future__ import annotations

import math
from typing import Any, Sequence

from pagaie._core.tensor import Tensor
from pagaie.optimizer.optimizer import Optimizer, _check_range, _f32, _low_precision_note, _scalar

__all__ = ["RAdam"]


class RAdam(Optimizer):
    r"""RAdam (Liu et al.): Adam whose adaptive term is used only once the variance of
    its estimate is tractable (:math:`\rho_t > 5`), scaled by the rectification
    :math:`r_t`; before that, momentum SGD with bias correction.

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        beta1 (float, optional): decay of the first moment. Default 0.9.
        beta2 (float, optional): decay of the second moment. Default 0.999.
        epsilon (float, optional): numerical stabilizer. Default 1e-8.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_radam_w")
        >>> opt = paddle.optimizer.RAdam(learning_rate=0.1, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
        >>> opt.step()
        >>> round(w.item(), 4)
        0.9
    """

    _low_precision_warning = _low_precision_note("FP16", "Lars")

    _acc_names = ("beta1_pow", "beta2_pow", "rho", "moment1", "moment2")

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 parameters: Sequence | None = None, weight_decay: Any = None, grad_clip: Any = None,
                 name: str | None = None) -> None:
        if learning_rate is None:
            raise TypeError("paddle.optimizer.RAdam: learning_rate should be a float or an LRScheduler, "
                            "but received None")
        if isinstance(learning_rate, (int, float)):
            _check_range("RAdam", "learning_rate", learning_rate, 0.0)
        _check_range("RAdam", "epsilon", epsilon, 0.0)
        _check_range("RAdam", "beta1", beta1, 0.0, 1.0)
        _check_range("RAdam", "beta2", beta2, 0.0, 1.0)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "radam"
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._multi_precision = False
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon}

    def _init_state(self, target: Tensor, hp: dict) -> None:
        dt = self._acc_dtype(target)
        for acc in ("beta1_pow", "beta2_pow", "rho"):
            self._add_accumulator(acc, target, dtype=dt, fill_value=1.0)
        self._add_accumulator("moment1", target, dtype=dt)
        self._add_accumulator("moment2", target, dtype=dt)

    def _update_one(self, p, g, state, lr, hp, param) -> None:
        b1, b2, eps = (_f32(_scalar(hp[k])) for k in ("beta1", "beta2", "epsilon"))
        b1pow, b2pow, rho = state["beta1_pow"], state["beta2_pow"], state["rho"]
        m1, m2 = state["moment1"], state["moment2"]
        rho_inf = 2 / (1 - b2) - 1
        b1pow.mul_(b1)
        b2pow.mul_(b2)
        rho.mul_(b2 - b2pow).add_(b2pow).div_(1 - b2pow)
        m1.mul_(b1).add_(g, alpha=1 - b1)
        m2.mul_(b2).addcmul_(g, g, value=1 - b2)
        if p.numel() == 0:  # an empty parameter has no rho to read and nothing to update
            return
        m_hat = m1 / (1 - b1pow)
        rho_t = rho_inf - 2 * rho.reshape(-1)[0].item()
        if rho_t > 5:
            l_t = (1 - b2pow).sqrt_() / m2.sqrt().add_(eps)
            r_t = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            p.sub_(lr * m_hat * r_t * l_t)
        else:
            p.sub_(lr * m_hat)
