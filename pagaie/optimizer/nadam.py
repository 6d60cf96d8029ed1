"""NAdam: Adam with Nesterov momentum."""
from __future__ import annotations

from typing import Any, Sequence

from pagaie._core.tensor import Tensor
from pagaie.optimizer.optimizer import Optimizer, _check_range, _f32, _low_precision_note, _scalar

__all__ = ["NAdam"]


class NAdam(Optimizer):
    r"""NAdam (Dozat): Adam with Nesterov momentum and momentum decay :math:`\psi`:

    .. math::
        \mu_t = \beta_1 (1 - \tfrac12 0.96^{t\psi}), \quad
        \hat m = \frac{\mu_{t+1} m_t}{1 - \prod_{i \le t+1}\mu_i} + \frac{(1-\mu_t) g}{1 - \prod_{i \le t}\mu_i},
        \quad \theta \leftarrow \theta - lr \frac{\hat m}{\sqrt{v_t / (1-\beta_2^t)} + \epsilon}

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.002.
        beta1 (float, optional): decay of the first moment. Default 0.9.
        beta2 (float, optional): decay of the second moment. Default 0.999.
        epsilon (float, optional): numerical stabilizer. Default 1e-8.
        momentum_decay (float, optional): :math:`\psi`. Default 0.004.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_nadam_w")
        >>> opt = paddle.optimizer.NAdam(learning_rate=0.1, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
        >>> opt.step()
        >>> round(w.item(), 4)
        0.8944
    """

    _low_precision_warning = _low_precision_note("FP16", "Lars")

    _acc_names = ("momentum_decay_pow", "beta2_pow", "mu_product", "moment1", "moment2")

    def __init__(self, learning_rate: Any = 0.002, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 momentum_decay: float = 0.004, parameters: Sequence | None = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        if learning_rate is None:
            raise TypeError("paddle.optimizer.NAdam: learning_rate should be a float or an LRScheduler, "
                            "but received None")
        if isinstance(learning_rate, (int, float)):
            _check_range("NAdam", "learning_rate", learning_rate, 0.0)
        _check_range("NAdam", "epsilon", epsilon, 0.0)
        _check_range("NAdam", "beta1", beta1, 0.0, 1.0)
        _check_range("NAdam", "beta2", beta2, 0.0, 1.0)
        _check_range("NAdam", "momentum_decay", momentum_decay, 0.0)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "nadam"
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._momentum_decay = momentum_decay
        self._multi_precision = False
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon, "momentum_decay": momentum_decay}

    def _init_state(self, target: Tensor, hp: dict) -> None:
        dt = self._acc_dtype(target)
        for acc in ("momentum_decay_pow", "beta2_pow", "mu_product"):
            self._add_accumulator(acc, target, dtype=dt, fill_value=1.0)
        self._add_accumulator("moment1", target, dtype=dt)
        self._add_accumulator("moment2", target, dtype=dt)

    def _update_one(self, p, g, state, lr, hp, param) -> None:
        b1, b2, eps = (_f32(_scalar(hp[k])) for k in ("beta1", "beta2", "epsilon"))
        psi = _f32(hp["momentum_decay"])
        dpow, b2pow, mu_prod = state["momentum_decay_pow"], state["beta2_pow"], state["mu_product"]
        m1, m2 = state["moment1"], state["moment2"]
        dpow.mul_(0.96)
        b2pow.mul_(b2)
        half = dpow.pow(psi).mul_(0.5)
        mu_t = (1 - half) * b1
        mu_next = (1 - half * (0.96 ** psi)) * b1
        mu_prod.mul_(mu_t)
        m1.mul_(b1).add_(g, alpha=1 - b1)
        m2.mul_(b2).addcmul_(g, g, value=1 - b2)
        m_hat = mu_next * m1 / (1 - mu_prod * mu_next) + (1 - mu_t) * g / (1 - mu_prod)
        denom = (m2 / (1 - b2pow)).sqrt_().add_(eps)
        p.sub_(lr * m_hat / denom)
