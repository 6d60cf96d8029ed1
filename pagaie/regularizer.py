"""paddle.regularizer: weight-decay terms added to a parameter's gradient.

An optimizer (or a parameter's ``ParamAttr(regularizer=...)``, which wins over the
optimizer's ``weight_decay``) adds ``regularizer(param, grad)`` to each gradient before
the update rule runs.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import torch

from pagaie._core.tensor import Tensor, as_torch, wrap

__all__ = ["L1Decay", "L2Decay"]


class WeightDecayRegularizer:
    """Base of the weight-decay regularizers: ``__call__`` returns the term added to the gradient."""

    _coeff: float = 0.0

    def _term(self, p: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError(f"paddle.regularizer: {type(self).__name__} does not define its term")

    def __call__(self, param: Tensor, grad: Tensor, block: Any = None) -> Tensor:
        return wrap(self._term(as_torch(param).detach()))

    def __str__(self) -> str:
        return f"{type(self).__name__}, coeff={self._coeff:f}"


def _check_coeff(api: str, coeff: Any) -> float:
    if coeff is None:  # Paddle asserts the coefficient is given
        raise AssertionError(f"paddle.regularizer.{api}: coeff should not be None")
    if isinstance(coeff, Tensor):
        return float(coeff.item())
    if isinstance(coeff, (bool, np.bool_)) or not isinstance(coeff, (int, float, np.integer, np.floating)):
        raise TypeError(f"paddle.regularizer.{api}: coeff must be a float, but received {type(coeff).__name__}")
    return float(coeff)


class L1Decay(WeightDecayRegularizer):
    r"""L1 weight decay: adds ``coeff * sign(param)`` to the gradient
    (the gradient of :math:`coeff \cdot \sum |w|`).

    Args:
        coeff (float, optional): the regularization coefficient. Default 0.0.

    Examples:
        >>> import pagaie as paddle
        >>> reg = paddle.regularizer.L1Decay(0.1)
        >>> print(reg)
        L1Decay, coeff=0.100000
        >>> w = paddle.to_tensor([2.0, -3.0])
        >>> reg(w, w).tolist()
        [0.10000000149011612, -0.10000000149011612]
    """

    def __init__(self, coeff: float = 0.0) -> None:
        self._coeff = _check_coeff("L1Decay", coeff)

    def _term(self, p: torch.Tensor) -> torch.Tensor:
        return torch.sign(p).mul_(self._coeff)


class L2Decay(WeightDecayRegularizer):
    r"""L2 weight decay: adds ``coeff * param`` to the gradient
    (the gradient of :math:`\frac{coeff}{2} \sum w^2`).

    Args:
        coeff (float, optional): the regularization coefficient. Default 0.0.

    Examples:
        >>> import pagaie as paddle
        >>> reg = paddle.regularizer.L2Decay(0.5)
        >>> print(reg)
        L2Decay, coeff=0.500000
        >>> w = paddle.to_tensor([2.0, -3.0])
        >>> reg(w, w).tolist()
        [1.0, -1.5]
    """

    def __init__(self, coeff: float = 0.0) -> None:
        self._coeff = _check_coeff("L2Decay", coeff)

    def _term(self, p: torch.Tensor) -> torch.Tensor:
        return p * self._coeff
