"""Adam: adaptive moment estimation (with optional AMSGrad)."""
from __future__ import annotations

import math
from typing import Any, Sequence

import torch

from pagaie._core.tensor import Tensor
from pagaie.optimizer.optimizer import SPARSE_GRAD, Optimizer, _check_range, _flag, _in_dtype, _low_precision_note, _scalar

__all__ = ["Adam"]


class Adam(Optimizer):
    r"""Adam (Kingma & Ba), in Paddle's form:

    .. math::
        m \leftarrow \beta_1 m + (1-\beta_1) g, \quad
        v \leftarrow \beta_2 v + (1-\beta_2) g^2, \quad
        \theta \leftarrow \theta - lr \frac{\sqrt{1-\beta_2^t}}{1-\beta_1^t}
        \frac{m}{\sqrt{v} + \epsilon \sqrt{1-\beta_2^t}}

    With ``amsgrad`` the running maximum of ``v`` is used in the denominator.

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        beta1 (float|Tensor, optional): decay of the first moment. Default 0.9.
        beta2 (float|Tensor, optional): decay of the second moment. Default 0.999.
        epsilon (float|Tensor, optional): numerical stabilizer. Default 1e-8.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        lazy_mode (bool, optional): for a parameter with row-sparse gradients (the weight
            of an ``Embedding(sparse=True)``), update only the rows looked up in the step
            (rows whose gradient is not all zero): the other rows keep their values and
            moments. Other parameters are updated in full either way. Default False.
        multi_precision (bool, optional): float32 master weights for low-precision parameters.
        use_multi_tensor (bool, optional): accepted for compatibility; updates are always
            batched over a group's tensors. Default False.
        amsgrad (bool, optional): use AMSGrad. Default False.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0, -1.0]), name="doc_adam_w")
        >>> adam = paddle.optimizer.Adam(learning_rate=0.1, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0, 1.0])).backward(paddle.to_tensor([0.5, -2.0]))
        >>> adam.step()
        >>> [round(v, 4) for v in w.tolist()]
        [0.9, -0.9]
    """

    _low_precision_warning = _low_precision_note("FP16 or BF16", "Adam")

    _acc_names = ("moment1", "moment2", "moment2_max", "beta1_pow_acc", "beta2_pow_acc")

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999, epsilon: Any = 1e-8,
                 parameters: Sequence | None = None, weight_decay: Any = None, grad_clip: Any = None,
                 lazy_mode: bool = False, multi_precision: bool = False, use_multi_tensor: bool = False,
                 amsgrad: bool = False, name: str | None = None) -> None:
        # Paddle's Adam takes Tensor hyper-parameters unchecked
        self._check_hparams(type(self).__name__, learning_rate, beta1, beta2, epsilon, check_tensors=False)
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        self.type = "adam"
        self._init_hparams(beta1, beta2, epsilon, lazy_mode, multi_precision, amsgrad)
        self._use_multi_tensor = use_multi_tensor

    def step(self) -> None:
        # Paddle's Adam refuses weight decay on the row-sparse gradient of an
        # Embedding(sparse=True) weight (only with an ungrouped parameter list, as Paddle checks)
        if self.regularization is not None and not self._grouped:
            for p in self._param_groups:
                if getattr(p, SPARSE_GRAD, False) and p._t.grad is not None and not p.stop_gradient:
                    raise RuntimeError(f"paddle.optimizer.{type(self).__name__}: weight_decay is not "
                                       f"supported with sparse parameters ({p.name} gets row-sparse "
                                       "gradients); set weight_decay to None")
        super().step()

    @staticmethod
    def _check_hparams(api: str, learning_rate: Any, beta1: Any, beta2: Any, epsilon: Any,
                       check_tensors: bool) -> None:
        for n, v in (("learning_rate", learning_rate), ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
            if v is None:
                raise AssertionError(f"paddle.optimizer.{api}: {n} is not set")
        _check_range(api, "beta1", beta1, 0.0, 1.0, tensors=check_tensors)
        _check_range(api, "beta2", beta2, 0.0, 1.0, tensors=check_tensors)
        _check_range(api, "epsilon", epsilon, 0.0, tensors=check_tensors)

    def _init_hparams(self, beta1, beta2, epsilon, lazy_mode, multi_precision, amsgrad) -> None:
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lazy_mode = lazy_mode
        self._multi_precision = multi_precision
        self._amsgrad = amsgrad
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon, "lazy_mode": lazy_mode}

    def _init_state(self, target: Tensor, hp: dict) -> None:
        dt = self._acc_dtype(target)
        self._add_accumulator("moment1", target, dtype=dt)
        self._add_accumulator("moment2", target, dtype=dt)
        if self._amsgrad:
            self._add_accumulator("moment2_max", target, dtype=dt)
        # Paddle starts the power accumulators at 0.9 / 0.999 when the beta is a Tensor.
        b1 = 0.9 if isinstance(hp["beta1"], Tensor) else hp["beta1"]
        b2 = 0.999 if isinstance(hp["beta2"], Tensor) else hp["beta2"]
        self._add_accumulator("beta1_pow_acc", target, dtype=dt, fill_value=b1, shape=[1], device="cpu")
        self._add_accumulator("beta2_pow_acc", target, dtype=dt, fill_value=b2, shape=[1], device="cpu")

    def _decay_factors(self, params, lrs, hp, tensors) -> None:
        """Hook for decoupled weight decay (AdamW)."""

    def _update(self, params, grads, states, lrs, hp, tensors) -> None:
        if _flag(hp["lazy_mode"], f"{type(self).__name__}'s lazy_mode"):
            kept = _untouched_rows(params, grads, states, tensors)
            self._adam_rule(params, grads, states, lrs, hp, tensors)
            for t, rows, saved in kept:
                t[rows] = saved
        else:
            self._adam_rule(params, grads, states, lrs, hp, tensors)

    def _adam_rule(self, params, grads, states, lrs, hp, tensors) -> None:
        dt = params[0].dtype
        # Paddle's Adam reads Tensor betas by their first element; its epsilon is a Scalar of one element
        api = type(self).__name__
        b1, b2 = (_in_dtype(_scalar(hp[k], f"{api}'s {k}", many=None), dt) for k in ("beta1", "beta2"))
        eps = _in_dtype(_scalar(hp["epsilon"], f"{api}'s epsilon", many=ValueError), dt)
        _flag(self._amsgrad, f"{type(self).__name__}'s amsgrad")
        b1p_t = [st["beta1_pow_acc"] for st in states]
        b2p_t = [st["beta2_pow_acc"] for st in states]
        b1p = torch.cat(b1p_t).tolist() if len(b1p_t) > 1 else [b1p_t[0].item()]
        b2p = torch.cat(b2p_t).tolist() if len(b2p_t) > 1 else [b2p_t[0].item()]
        lrs = self._decay_factors(params, lrs, hp, tensors) or lrs
        m1 = [st["moment1"] for st in states]
        m2 = [st["moment2"] for st in states]
        torch._foreach_mul_(m1, b1)
        torch._foreach_add_(m1, grads, alpha=_in_dtype(1 - b1, dt))
        torch._foreach_mul_(m2, b2)
        torch._foreach_addcmul_(m2, grads, grads, value=_in_dtype(1 - b2, dt))
        if self._amsgrad:
            m2max = [st["moment2_max"] for st in states]
            torch._foreach_maximum_(m2max, m2)
            denom = torch._foreach_sqrt(m2max)
        else:
            denom = torch._foreach_sqrt(m2)
        bias2 = [math.sqrt(1 - p) for p in b2p]
        torch._foreach_add_(denom, [eps * s for s in bias2])
        steps = [-lr * s / (1 - p1) for lr, s, p1 in zip(lrs, bias2, b1p)]
        torch._foreach_addcdiv_(params, m1, denom, steps)
        torch._foreach_mul_(b1p_t, b1)
        torch._foreach_mul_(b2p_t, b2)


def _untouched_rows(params, grads, states, tensors) -> list:
    """For lazy mode: the rows of each row-sparse parameter (and of its per-element
    moments) that the step's gradient does not touch, with their current values, as
    ``(tensor, row_mask, saved_rows)`` to put back after the update."""
    kept = []
    for p, g, st, t in zip(params, grads, states, tensors):
        if not getattr(t, SPARSE_GRAD, False) or p.dim() == 0:
            continue
        rows = ~g.reshape(g.shape[0], -1).ne(0).any(dim=1)
        if not bool(rows.any()):
            continue
        for x in (p, *(v for v in st.values() if v.shape == p.shape)):
            kept.append((x, rows, x[rows].clone()))
    return kept
