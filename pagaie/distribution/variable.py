"""Random variables as transforms see them: a support (constraint), an event rank, and
whether the values are discrete."""
from __future__ import annotations

from typing import Sequence

import pagaie as P
from pagaie._core.tensor import Tensor
from pagaie.distribution import constraint as _c

__all__ = ["Variable", "Real", "Positive", "Independent", "Stack", "real", "positive"]


class Variable:
    """A random variable's kind.

    Args:
        is_discrete (bool, optional): whether the values are discrete. Default False.
        event_rank (int, optional): how many rightmost axes form one event. Default 0.
        constraint (Constraint, optional): the support. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distribution import variable
        >>> v = variable.Independent(variable.real, 1)
        >>> v.event_rank, v.constraint(paddle.to_tensor([[1.0, 2.0]])).tolist()
        (1, [True])
    """

    def __init__(self, is_discrete: bool = False, event_rank: int = 0,
                 constraint: _c.Constraint | None = None) -> None:
        self._is_discrete = is_discrete
        self._event_rank = event_rank
        self._constraint = constraint

    @property
    def is_discrete(self) -> bool:
        """bool: whether the values are discrete."""
        return self._is_discrete

    @property
    def event_rank(self) -> int:
        """int: the number of event axes."""
        return self._event_rank

    def constraint(self, value: Tensor) -> Tensor:
        """Whether each element of ``value`` lies in the support."""
        if self._constraint is None:  # Paddle asserts it has one
            raise AssertionError("paddle.distribution.variable.Variable.constraint: this "
                                 "variable has no constraint")
        return self._constraint.check(value)


class Real(Variable):
    """Real values with ``event_rank`` event axes."""

    def __init__(self, event_rank: int = 0) -> None:
        super().__init__(False, event_rank, _c.real)


class Positive(Variable):
    """Non-negative values with ``event_rank`` event axes."""

    def __init__(self, event_rank: int = 0) -> None:
        super().__init__(False, event_rank, _c.positive)


class Independent(Variable):
    """``base`` with ``reinterpreted_batch_rank`` more rightmost axes counted as the event.

    Args:
        base (Variable): the base variable.
        reinterpreted_batch_rank (int): how many batch axes join the event.
    """

    def __init__(self, base: Variable, reinterpreted_batch_rank: int) -> None:
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__(base.is_discrete, base.event_rank + reinterpreted_batch_rank)

    def constraint(self, value: Tensor) -> Tensor:
        """Whether each event of ``value`` lies in the support (all of its elements do)."""
        ok = self._base.constraint(value)
        rank = self._reinterpreted_batch_rank
        if ok.dim() < rank:
            raise ValueError("paddle.distribution.variable.Independent.constraint: input "
                             f"dimensions must be equal or greater than {rank}, but got {ok.dim()}")
        return ok.reshape((*ok.shape[:ok.dim() - rank], -1)).all(-1)


class Stack(Variable):
    """Variables stacked along ``axis``.

    Args:
        vars (Sequence[Variable]): one variable per slice.
        axis (int, optional): the stacking axis. Default 0.
    """

    def __init__(self, vars: Sequence[Variable], axis: int = 0) -> None:
        self._vars = vars
        self._axis = axis
        super().__init__()

    @property
    def is_discrete(self) -> bool:
        """bool: whether any stacked variable is discrete."""
        return any(v.is_discrete for v in self._vars)

    @property
    def event_rank(self) -> int:
        """int: the largest event rank, plus one when the axis falls inside the event."""
        rank = max(v.event_rank for v in self._vars)
        return rank + 1 if self._axis + rank < 0 else rank

    def constraint(self, value: Tensor) -> Tensor:
        """Each slice checked by its own variable, stacked back along ``axis``."""
        if not -value.dim() <= self._axis < value.dim():
            raise ValueError("paddle.distribution.variable.Stack.constraint: input dimensions "
                             f"{value.dim()} should be greater than the stack axis {self._axis}")
        parts = P.unstack(value, self._axis)
        return P.stack([v.constraint(p) for v, p in zip(self._vars, parts)], self._axis)


real = Real()
positive = Positive()
