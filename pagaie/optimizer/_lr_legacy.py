"""The fluid-era learning-rate functions that ``paddle.optimizer.lr`` still carries
(``noam_decay``, ``exponential_decay``...). They are not in the module's ``__all__``, but old
code calls them: each returns the matching scheduler object, as Paddle's dynamic-graph path
does. Arguments that only the old static-graph formula used (``decay_steps``, ``staircase``,
``step_each_epoch``) are accepted and ignored, as there.
"""
from __future__ import annotations

from typing import Sequence

from pagaie.optimizer.lr import (CosineAnnealingDecay, ExponentialDecay, InverseTimeDecay, LinearWarmup,
                                 LRScheduler, NaturalExpDecay, NoamDecay, PiecewiseDecay, PolynomialDecay)

__all__: list[str] = []


def noam_decay(d_model: float, warmup_steps: int, learning_rate: float = 1.0) -> NoamDecay:
    """Noam decay (``paddle.optimizer.lr.NoamDecay``) of ``learning_rate``.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.noam_decay(64, 10, learning_rate=2.0)
        >>> type(s).__name__, s()
        ('NoamDecay', 0.0)
    """
    return NoamDecay(d_model, warmup_steps, learning_rate=learning_rate)


def exponential_decay(learning_rate: float, decay_steps: int, decay_rate: float,
                      staircase: bool = False) -> ExponentialDecay:
    """``ExponentialDecay(learning_rate, decay_rate)``; ``decay_steps`` and ``staircase`` are unused.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.exponential_decay(0.1, 10, 0.5)
        >>> s.step(); s()
        0.05
    """
    return ExponentialDecay(learning_rate, decay_rate)


def natural_exp_decay(learning_rate: float, decay_steps: int, decay_rate: float,
                      staircase: bool = False) -> NaturalExpDecay:
    """``NaturalExpDecay(learning_rate, decay_rate)``; ``decay_steps`` and ``staircase`` are unused.

    Examples:
        >>> import pagaie as paddle
        >>> type(paddle.optimizer.lr.natural_exp_decay(0.1, 10, 0.5)).__name__
        'NaturalExpDecay'
    """
    return NaturalExpDecay(learning_rate, decay_rate)


def inverse_time_decay(learning_rate: float, decay_steps: int, decay_rate: float,
                       staircase: bool = False) -> InverseTimeDecay:
    """``InverseTimeDecay(learning_rate, decay_rate)``; ``decay_steps`` and ``staircase`` are unused.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.inverse_time_decay(0.1, 10, 1.0)
        >>> s.step(); s()
        0.05
    """
    return InverseTimeDecay(learning_rate, decay_rate)


def polynomial_decay(learning_rate: float, decay_steps: int, end_learning_rate: float = 0.0001,
                     power: float = 1.0, cycle: bool = False) -> PolynomialDecay:
    """``PolynomialDecay(learning_rate, decay_steps, end_learning_rate, power, cycle)``.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.polynomial_decay(1.0, 2, end_learning_rate=0.0)
        >>> s.step(); s()
        0.5
    """
    return PolynomialDecay(learning_rate, decay_steps, end_learning_rate, power, cycle)


def piecewise_decay(boundaries: Sequence[int], values: Sequence[float]) -> PiecewiseDecay:
    """``PiecewiseDecay(boundaries, values)``.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.piecewise_decay([1], [0.1, 0.01])
        >>> s.step(); s()
        0.01
    """
    return PiecewiseDecay(boundaries, values)


def cosine_decay(learning_rate: float, step_each_epoch: int, epochs: int) -> CosineAnnealingDecay:
    """``CosineAnnealingDecay(learning_rate, epochs)``; ``step_each_epoch`` is unused.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.cosine_decay(0.1, 100, 2)
        >>> s.step(); round(s(), 6)
        0.05
    """
    return CosineAnnealingDecay(learning_rate, epochs)


def linear_lr_warmup(learning_rate: float | LRScheduler, warmup_steps: int, start_lr: float,
                     end_lr: float) -> LinearWarmup:
    """``LinearWarmup(learning_rate, warmup_steps, start_lr, end_lr)``.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.linear_lr_warmup(0.1, 2, 0.0, 0.1)
        >>> s.step(); s()
        0.05
    """
    return LinearWarmup(learning_rate, warmup_steps, start_lr, end_lr)
