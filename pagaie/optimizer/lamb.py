"""Lamb: layer-wise adaptive moments for large-batch training."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import torch

from pagaie._core.tensor import Tensor
from pagaie.optimizer.optimizer import Optimizer, _f32, _flag

__all__ = ["Lamb"]


class Lamb(Optimizer):
    r"""Lamb (You et al.): an Adam direction plus weight decay, rescaled per parameter by the
    trust ratio :math:`\|\theta\| / \|r\|`:

    .. math::
        r = \frac{m / (1-\beta_1^t)}{\sqrt{v / (1-\beta_2^t)} + \epsilon} + \lambda \theta, \quad
        \theta \leftarrow \theta - lr \frac{\|\theta\|}{\|r\|} r

    (the ratio is 1 when either norm is 0, or when the decay is not positive and ``always_adapt``
    is False).

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        lamb_weight_decay (float, optional): the decay :math:`\lambda`. Default 0.01.
        beta1 (float, optional): decay of the first moment. Default 0.9.
        beta2 (float, optional): decay of the second moment. Default 0.999.
        epsilon (float, optional): numerical stabilizer. Default 1e-6.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        exclude_from_weight_decay_fn (callable|None, optional): ``fn(param)`` True means no
            decay for that parameter. Default None.
        multi_precision (bool, optional): float32 master weights for low-precision parameters.
        always_adapt (bool, optional): apply the trust ratio even without decay. Default False.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([3.0, 4.0]), name="doc_lamb_w")
        >>> opt = paddle.optimizer.Lamb(learning_rate=0.1, lamb_weight_decay=0.0, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0, 1.0])).backward(paddle.to_tensor([1.0, 1.0]))
        >>> opt.step()
        >>> [round(v, 4) for v in w.tolist()]
        [2.9, 3.9]
    """

    _acc_names = ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")

    def __init__(self, learning_rate: Any = 0.001, lamb_weight_decay: float = 0.01, beta1: float = 0.9,
                 beta2: float = 0.999, epsilon: float = 1e-6, parameters: Sequence | None = None,
                 grad_clip: Any = None, exclude_from_weight_decay_fn: Callable | None = None,
                 multi_precision: bool = False, always_adapt: bool = False, name: str | None = None) -> None:
        for n, v in (("learning_rate", learning_rate), ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
            if v is None:
                raise AssertionError(f"paddle.optimizer.Lamb: {n} is not set")
        super().__init__(learning_rate, parameters, None, grad_clip, name)
        self.type = "lamb"
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lamb_weight_decay = lamb_weight_decay
        self._exclude_from_weight_decay_fn = exclude_from_weight_decay_fn
        self._default_dict = {
            "beta1": beta1, "beta2": beta2, "epsilon": epsilon, "lamb_weight_decay": lamb_weight_decay,
            "exclude_from_weight_decay_fn": exclude_from_weight_decay_fn,
        }
        self._multi_precision = multi_precision
        self.always_adapt = always_adapt

    def _init_state(self, target: Tensor, hp: dict) -> None:
        dt = self._acc_dtype(target)
        self._add_accumulator("moment1", target, dtype=dt)
        self._add_accumulator("moment2", target, dtype=dt)
        b1 = 0.9 if isinstance(hp["beta1"], Tensor) else hp["beta1"]
        b2 = 0.999 if isinstance(hp["beta2"], Tensor) else hp["beta2"]
        self._add_accumulator("beta1_pow_acc", target, dtype=dt, fill_value=b1, shape=[1], device="cpu")
        self._add_accumulator("beta2_pow_acc", target, dtype=dt, fill_value=b2, shape=[1], device="cpu")

    def _update_one(self, p, g, state, lr, hp, param) -> None:
        b1, b2, eps = (_f32(hp[k], f"Lamb's {k}") for k in ("beta1", "beta2", "epsilon"))
        fn = hp["exclude_from_weight_decay_fn"]
        wd = _f32(hp["lamb_weight_decay"], "Lamb's lamb_weight_decay")
        wd = 0.0 if fn is not None and fn(param) else wd
        _flag(self.always_adapt, "Lamb's always_adapt")
        m1, m2 = state["moment1"], state["moment2"]
        b1p, b2p = state["beta1_pow_acc"].item(), state["beta2_pow_acc"].item()
        m1.mul_(b1).add_(g, alpha=1 - b1)
        m2.mul_(b2).addcmul_(g, g, value=1 - b2)
        r = (m1 / (1 - b1p)) / ((m2 / (1 - b2p)).sqrt_().add_(eps))
        if wd != 0.0:
            r.add_(p, alpha=wd)
        # Paddle's kernel takes the trust ratio only for a positive decay (or always_adapt);
        # a negative decay still enters r
        if wd > 0.0 or self.always_adapt:
            pn, rn = torch.linalg.vector_norm(p), torch.linalg.vector_norm(r)
            ratio = torch.where((pn > 0) & (rn > 0), pn / rn, torch.ones_like(pn))
            p.sub_(r * (ratio * lr))
        else:
            p.sub_(r, alpha=lr)
        state["beta1_pow_acc"].mul_(b1)
        state["beta2_pow_acc"].mul_(b2)
