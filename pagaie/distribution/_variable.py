"""The sets transforms map between: real, positive, ranges, the simplex; with event ranks."""
from __future__ import annotations

from typing import Callable, Sequence

import pagaie as P
from pagaie._core.tensor import Tensor


class _Variable:
    """A set of values: whether discrete, its event rank, and a membership test."""

    def __init__(self, is_discrete: bool = False, event_rank: int = 0,
                 constraint: Callable | None = None) -> None:
        self._is_discrete = is_discrete
        self._event_rank = event_rank
        self._constraint = constraint

    @property
    def is_discrete(self) -> bool:
        return self._is_discrete

    @property
    def event_rank(self) -> int:
        return self._event_rank

    def constraint(self, value: Tensor) -> Tensor:
        return self._constraint(value)


class _Independent(_Variable):
    """``base`` with ``rank`` more rightmost axes counted as part of the event."""

    def __init__(self, base: _Variable, rank: int) -> None:
        self._base = base
        self._rank = rank
        super().__init__(base.is_discrete, base.event_rank + rank)

    def constraint(self, value: Tensor) -> Tensor:
        ok = self._base.constraint(value)
        if ok.dim() < self._rank:
            raise ValueError(f"paddle.distribution: input dimensions must be equal or greater "
                             f"than {self._rank}")
        return ok.reshape((*ok.shape[:ok.dim() - self._rank], -1)).all(-1)


class _Stack(_Variable):
    """Variables stacked along ``axis``."""

    def __init__(self, variables: Sequence[_Variable], axis: int = 0) -> None:
        self._vars = variables
        self._axis = axis
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        return any(v.is_discrete for v in self._vars)

    @property
    def event_rank(self) -> int:
        rank = max(v.event_rank for v in self._vars)
        return rank + 1 if self._axis + rank < 0 else rank

    def constraint(self, value: Tensor) -> Tensor:
        if not -value.dim() <= self._axis < value.dim():
            raise ValueError(f"paddle.distribution: input dimensions {value.dim()} should be "
                             f"greater than the stack axis {self._axis}")
        parts = P.unstack(value, self._axis)
        return P.stack([v.constraint(p) for v, p in zip(self._vars, parts)], self._axis)


def _in_range(lo: float, hi: float) -> Callable:
    return lambda v: (lo <= v) & (v <= hi)


def _on_simplex(v: Tensor) -> Tensor:
    return P.all(v >= 0, axis=-1) & ((v.sum(-1) - 1).abs() < 1e-6)


_real = _Variable(False, 0, lambda v: v == v)
_positive = _Variable(False, 0, lambda v: v >= 0.0)
