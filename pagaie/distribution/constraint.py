"""Constraints: predicates telling whether values lie in a random variable's support."""
from __future__ import annotations

from typing import Any

import pagaie as P
from pagaie._core.tensor import Tensor

__all__ = ["Constraint", "Real", "Range", "Positive", "Simplex", "real", "positive", "simplex"]


class Constraint:
    """A condition on values; calling it gives a boolean tensor (True where it holds).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distribution import constraint
        >>> constraint.positive(paddle.to_tensor([-1.0, 2.0])).tolist()
        [False, True]
    """

    def __call__(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def check(self, value: Tensor) -> Tensor:
        """Same as calling the constraint."""
        return self(value)


class Real(Constraint):
    """Every real number (False only at NaN)."""

    def __call__(self, value: Tensor) -> Tensor:
        return value == value


class Range(Constraint):
    """The closed interval ``[lower, upper]``.

    Args:
        lower (float|Tensor): the lower end.
        upper (float|Tensor): the upper end.
    """

    def __init__(self, lower: Any, upper: Any) -> None:
        self._lower = lower
        self._upper = upper
        super().__init__()

    def __call__(self, value: Tensor) -> Tensor:
        return (self._lower <= value) & (value <= self._upper)


class Positive(Constraint):
    """Non-negative numbers."""

    def __call__(self, value: Tensor) -> Tensor:
        return value >= 0.0


class Simplex(Constraint):
    """Vectors (last axis) of non-negative entries summing to 1."""

    def __call__(self, value: Tensor) -> Tensor:
        return P.all(value >= 0, axis=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


real = Real()
positive = Positive()
simplex = Simplex()
