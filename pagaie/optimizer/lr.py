"""paddle.optimizer.lr: learning-rate schedulers.

A scheduler is a small Python object: ``scheduler()`` is the current learning rate,
``scheduler.step()`` advances one epoch (or step) and recomputes it with ``get_lr()``.
Pass one as an optimizer's ``learning_rate``; the optimizer reads it at every ``step()``.
"""
from __future__ import annotations

import math
import warnings
from typing import Any, Callable, Sequence

import numpy as np

from pagaie._core.tensor import Tensor

__all__ = [
    "LRScheduler", "NoamDecay", "PiecewiseDecay", "NaturalExpDecay", "InverseTimeDecay",
    "PolynomialDecay", "LinearWarmup", "ExponentialDecay", "MultiStepDecay", "StepDecay",
    "LambdaDecay", "ReduceOnPlateau", "CosineAnnealingDecay", "MultiplicativeDecay", "OneCycleLR",
    "CyclicLR", "LinearLR", "CosineAnnealingWarmRestarts",
]


def _require(cond: bool, exc: type, msg: str) -> None:
    if not cond:
        raise exc(f"paddle.optimizer.lr.{msg}")


class LRScheduler:
    """Base of the schedulers. Subclasses define ``get_lr()`` from ``self.last_epoch``.

    Args:
        learning_rate (float, optional): the base learning rate. Default 0.1.
        last_epoch (int, optional): the epoch to resume from; -1 starts fresh. Default -1.
        verbose (bool, optional): print the learning rate at each step. Default False.

    Examples:
        >>> import pagaie as paddle
        >>> class Halving(paddle.optimizer.lr.LRScheduler):
        ...     def get_lr(self):
        ...         return self.base_lr * 0.5 ** self.last_epoch
        >>> s = Halving(learning_rate=1.0)
        >>> s.step(); s.step()
        >>> s()
        0.25
    """

    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(learning_rate, (float, int)):
            raise TypeError("paddle.optimizer.lr.LRScheduler: the learning rate must be a float, "
                            f"but received {type(learning_rate).__name__}")
        if learning_rate < 0:
            raise ValueError(f"paddle.optimizer.lr.LRScheduler: invalid learning rate {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._var_name = None
        self.step()

    def __call__(self) -> float:
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance to the next epoch (or to ``epoch``) and update ``last_lr``.

        Args:
            epoch (int|None, optional): the epoch to jump to; the next one when None.
        """
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            self.last_lr = closed() if closed is not None else self.get_lr()
        self._report()

    def _report(self) -> None:
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to {self.last_lr}.")

    def state_keys(self) -> None:
        """Set ``self.keys``: the attribute names saved by :meth:`state_dict`."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict[str, Any]:
        """The scheduler state (``last_epoch``, ``last_lr`` and any subclass keys); a
        one-element Tensor value is saved as a float.

        Returns:
            dict: the state, a subset of ``self.__dict__``.

        Examples:
            >>> import pagaie as paddle
            >>> s = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2)
            >>> s.state_dict()
            {'last_epoch': 0, 'last_lr': 0.5}
        """
        self.state_keys()
        out = {}
        for key in self.keys:
            if key not in self.__dict__:
                continue
            value = self.__dict__[key]
            if isinstance(value, Tensor):
                if value.size != 1:
                    raise AssertionError(f"paddle.optimizer.lr.{type(self).__name__}.state_dict: a Tensor in the "
                                         f"state must have one element, but '{key}' has {value.size}")
                value = float(np.asarray(value.numpy()).reshape(-1)[0])
            out[key] = value
        return out

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state from :meth:`state_dict`."""
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError(f"paddle.optimizer.lr.{type(self).__name__}.set_state_dict: "
                                   f"the state dict has no entry [ {key} ]")
            self.__dict__[key] = state_dict[key]
        if len(state_dict) > len(self.keys):
            warnings.warn("There are some unused values in state_dict. Maybe the optimizer have "
                          "different 'LearningRateDecay' when invoking state_dict and set_dict")

    set_dict = set_state_dict

    def get_lr(self) -> float:
        """The learning rate of epoch ``self.last_epoch`` (subclasses define it)."""
        raise NotImplementedError(f"paddle.optimizer.lr.{type(self).__name__}: get_lr is not defined")


class NoamDecay(LRScheduler):
    r"""Noam decay (Transformer warm-up):
    :math:`lr = base \cdot d_{model}^{-0.5} \cdot \min(epoch^{-0.5}, epoch \cdot warmup^{-1.5})`.

    Args:
        d_model (int): the model width. warmup_steps (int): warm-up length.
        learning_rate (float, optional): the base factor. Default 1.0.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.NoamDecay(d_model=4, warmup_steps=2)
        >>> s.step(); round(s(), 6)
        0.176777
    """

    def __init__(self, d_model: int, warmup_steps: int, learning_rate: float = 1.0,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        _require(d_model > 0, ValueError, "NoamDecay: d_model should be greater than 0")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e = self.last_epoch
        a = 1 if e == 0 else e ** -0.5
        b = self.warmup_steps ** -1.5 * e
        return self.base_lr * self.d_model ** -0.5 * min(a, b)


class PiecewiseDecay(LRScheduler):
    """Piecewise-constant learning rate: ``values[i]`` while ``epoch < boundaries[i]``.

    Args:
        boundaries (list[int]): the epochs where the value changes.
        values (list[float]): one more value than boundaries.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.PiecewiseDecay(boundaries=[2], values=[1.0, 0.5])
        >>> [s() for _ in range(3) if s.step() is None]
        [1.0, 0.5, 0.5]
    """

    def __init__(self, boundaries: Sequence[int], values: Sequence[float], last_epoch: int = -1,
                 verbose: bool = False) -> None:
        _require(len(boundaries) > 0, ValueError, "PiecewiseDecay: the boundaries cannot be empty")
        _require(len(values) > len(boundaries), ValueError,
                 f"PiecewiseDecay: values must have one more element than boundaries, but received "
                 f"len(values) [{len(values)}] < len(boundaries) + 1 [{len(boundaries) + 1}]")
        self.boundaries = boundaries
        self.values = values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self) -> float:
        for bound, value in zip(self.boundaries, self.values):
            if self.last_epoch < bound:
                return value
        return self.values[len(self.values) - 1]


class NaturalExpDecay(LRScheduler):
    r"""Natural exponential decay: :math:`lr = base \cdot e^{-\gamma \cdot epoch}`.

    Args:
        learning_rate (float): the base learning rate. gamma (float): the decay rate (> 0).
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.NaturalExpDecay(learning_rate=1.0, gamma=0.5)
        >>> s.step(); round(s(), 6)
        0.606531
    """

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        _require(gamma > 0.0, AssertionError, "NaturalExpDecay: 'gamma' must be a positive number")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    r"""Inverse time decay: :math:`lr = base / (1 + \gamma \cdot epoch)`.

    Args:
        learning_rate (float): the base learning rate. gamma (float): the decay rate.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.InverseTimeDecay(learning_rate=1.0, gamma=1.0)
        >>> s.step(); s()
        0.5
    """

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    r"""Polynomial decay from ``learning_rate`` to ``end_lr`` over ``decay_steps``:
    :math:`lr = (base - end) (1 - epoch / steps)^{power} + end`; with ``cycle`` the decay
    restarts with ``steps`` grown to the next multiple of ``decay_steps``.

    Args:
        learning_rate (float): the start value. decay_steps (int): the decay length.
        end_lr (float, optional): the final value. Default 0.0001.
        power (float, optional): the polynomial power. Default 1.0.
        cycle (bool, optional): restart after ``decay_steps``. Default False.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.PolynomialDecay(learning_rate=1.0, decay_steps=4, end_lr=0.0)
        >>> s.step(); s()
        0.75
    """

    def __init__(self, learning_rate: float, decay_steps: int, end_lr: float = 0.0001, power: float = 1.0,
                 cycle: bool = False, last_epoch: int = -1, verbose: bool = False) -> None:
        _require(decay_steps > 0 and isinstance(decay_steps, int), AssertionError,
                 "PolynomialDecay: 'decay_steps' must be a positive integer")
        _require(power > 0.0, AssertionError, "PolynomialDecay: 'power' must be greater than 0.0")
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            mult = 1 if epoch == 0 else math.ceil(float(epoch) / float(steps))
            steps = steps * mult
        else:
            epoch = min(epoch, steps)
        return (self.base_lr - self.end_lr) * (1 - float(epoch) / float(steps)) ** self.power + self.end_lr


class LinearWarmup(LRScheduler):
    """Linear warm-up from ``start_lr`` to ``end_lr`` over ``warmup_steps``, then
    ``learning_rate`` (a float, or a scheduler stepped from 0 after the warm-up).

    Args:
        learning_rate (float|LRScheduler): the learning rate after the warm-up.
        warmup_steps (int): the warm-up length. start_lr (float): first value.
        end_lr (float): value reached at the end of the warm-up.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.LinearWarmup(learning_rate=0.5, warmup_steps=2, start_lr=0.0, end_lr=1.0)
        >>> [s() for _ in range(3) if s.step() is None]
        [0.5, 0.5, 0.5]
    """

    def __init__(self, learning_rate: float | LRScheduler, warmup_steps: int, start_lr: float, end_lr: float,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(learning_rate, (float, int, LRScheduler)):
            raise TypeError("paddle.optimizer.lr.LinearWarmup: the type of learning_rate should be int, "
                            f"float or LRScheduler, but received {type(learning_rate).__name__}")
        _require(warmup_steps > 0 and isinstance(warmup_steps, int), AssertionError,
                 "LinearWarmup: 'warmup_steps' must be a positive integer")
        _require(end_lr > start_lr, AssertionError,
                 f"LinearWarmup: end_lr {end_lr} must be greater than start_lr {start_lr}")
        self.learning_rate = learning_rate
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self) -> dict[str, Any]:
        out = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            out["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        super().set_state_dict(state_dict)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    def get_lr(self) -> float:
        if self.last_epoch < self.warmup_steps:
            # the product before the division, as Paddle rounds it
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class ExponentialDecay(LRScheduler):
    r"""Exponential decay: :math:`lr = base \cdot \gamma^{epoch}`.

    Args:
        learning_rate (float): the base learning rate. gamma (float): the factor, in (0, 1).
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.ExponentialDecay(learning_rate=1.0, gamma=0.5)
        >>> s.step(); s()
        0.5
    """

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False) -> None:
        _require(0.0 < gamma < 1.0, AssertionError, "ExponentialDecay: 'gamma' must be in interval (0.0, 1.0)")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.gamma ** self.last_epoch


class MultiStepDecay(LRScheduler):
    """Multiply the learning rate by ``gamma`` at each epoch in ``milestones``.

    Args:
        learning_rate (float): the base learning rate. milestones (list|tuple): increasing epochs.
        gamma (float, optional): the factor (< 1). Default 0.1.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.MultiStepDecay(learning_rate=1.0, milestones=[1, 3], gamma=0.5)
        >>> [s() for _ in range(4) if s.step() is None]
        [0.5, 0.5, 0.25, 0.25]
    """

    def __init__(self, learning_rate: float, milestones: Sequence[int], gamma: float = 0.1,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(milestones, (tuple, list)):
            raise TypeError("paddle.optimizer.lr.MultiStepDecay: 'milestones' must be a tuple or list, "
                            f"but received {type(milestones).__name__}")
        _require(all(a < b for a, b in zip(milestones[:-1], milestones[1:])), ValueError,
                 "MultiStepDecay: the elements of milestones must be increasing")
        _require(gamma < 1.0, ValueError, "MultiStepDecay: gamma should be < 1.0")
        self.milestones = milestones
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        passed = next((i for i, m in enumerate(self.milestones) if self.last_epoch < m), len(self.milestones))
        return self.base_lr * self.gamma ** passed


class StepDecay(LRScheduler):
    r"""Step decay: :math:`lr = base \cdot \gamma^{\lfloor epoch / step\_size \rfloor}`.

    Args:
        learning_rate (float): the base learning rate. step_size (int): epochs per decay.
        gamma (float, optional): the factor (< 1). Default 0.1.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.StepDecay(learning_rate=1.0, step_size=2, gamma=0.5)
        >>> [s() for _ in range(4) if s.step() is None]
        [1.0, 0.5, 0.5, 0.25]
    """

    def __init__(self, learning_rate: float, step_size: int, gamma: float = 0.1, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(step_size, int):
            raise TypeError("paddle.optimizer.lr.StepDecay: 'step_size' must be an int, "
                            f"but received {type(step_size).__name__}")
        _require(gamma < 1.0, ValueError, "StepDecay: gamma should be < 1.0")
        _require(step_size > 0, AssertionError, "StepDecay: 'step_size' must be a positive integer")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.gamma ** (self.last_epoch // self.step_size)


class LambdaDecay(LRScheduler):
    """``lr = learning_rate * lr_lambda(epoch)``.

    Args:
        learning_rate (float): the base learning rate. lr_lambda (callable): epoch -> factor.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.LambdaDecay(learning_rate=1.0, lr_lambda=lambda e: 0.5 ** e)
        >>> s.step(); s()
        0.5
    """

    def __init__(self, learning_rate: float, lr_lambda: Callable[[int], float], last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not callable(lr_lambda):
            raise TypeError("paddle.optimizer.lr.LambdaDecay: 'lr_lambda' must be a function, "
                            f"but received {type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """Multiply the learning rate by ``lr_lambda(epoch)`` at each epoch.

    Args:
        learning_rate (float): the base learning rate. lr_lambda (callable): epoch -> factor.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.MultiplicativeDecay(learning_rate=1.0, lr_lambda=lambda e: 0.5)
        >>> s.step(); s.step(); s()
        0.25
    """

    def __init__(self, learning_rate: float, lr_lambda: Callable[[int], float], last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not callable(lr_lambda):
            raise TypeError("paddle.optimizer.lr.MultiplicativeDecay: 'lr_lambda' must be a function, "
                            f"but received {type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        lr = self.base_lr
        for e in range(1, self.last_epoch + 1):
            lr = lr * self.lr_lambda(e)
        return lr


class ReduceOnPlateau(LRScheduler):
    """Reduce the learning rate by ``factor`` when ``metrics`` stops improving for
    ``patience`` epochs. ``step(metrics)`` takes the monitored value.

    Args:
        learning_rate (float): the start value.
        mode (str, optional): 'min' (lower is better) or 'max'. Default 'min'.
        factor (float, optional): the reduction factor (< 1). Default 0.1.
        patience (int, optional): epochs without improvement tolerated. Default 10.
        threshold (float, optional): the minimal improvement. Default 1e-4.
        threshold_mode (str, optional): 'rel' or 'abs'. Default 'rel'.
        cooldown (int, optional): epochs to wait after a reduction. Default 0.
        min_lr (float, optional): lower bound. Default 0.
        epsilon (float, optional): smaller changes are ignored. Default 1e-8.
        verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.ReduceOnPlateau(learning_rate=1.0, patience=1, factor=0.5)
        >>> for loss in [1.0, 1.0, 1.0]:
        ...     s.step(loss)
        >>> s()
        0.5
    """

    def __init__(self, learning_rate: float, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: float = 0,
                 epsilon: float = 1e-8, verbose: bool = False) -> None:
        mode = mode.lower()
        _require(mode in ("min", "max"), ValueError, f"ReduceOnPlateau: mode: {mode} is unknown!")
        _require(factor < 1.0, ValueError, "ReduceOnPlateau: new_lr = origin_lr * factor and factor should be < 1.0")
        threshold_mode = threshold_mode.lower()
        _require(threshold_mode in ("rel", "abs"), ValueError,
                 f"ReduceOnPlateau: threshold mode: {threshold_mode} is unknown!")
        if not isinstance(learning_rate, (float, int)):
            raise TypeError("paddle.optimizer.lr.ReduceOnPlateau: 'learning_rate' must be a float, "
                            f"but received {type(learning_rate).__name__}")
        self.mode = mode
        self.factor = factor
        self.threshold_mode = threshold_mode
        self.patience = patience
        self.threshold = threshold
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose
        self._var_name = None

    def state_keys(self) -> None:
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        """Record ``metrics`` for this epoch and reduce the learning rate if it plateaued.

        Args:
            metrics (float|Tensor|numpy.ndarray): the monitored value (one element).
            epoch (int|None, optional): the epoch number; the next one when None.
        """
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if isinstance(metrics, (np.ndarray, Tensor)):
            size = int(np.prod(metrics.shape))
            if size != 1:
                raise AssertionError("paddle.optimizer.lr.ReduceOnPlateau.step: the size of metrics must "
                                     f"be 1, but received {size}; reduce it with paddle.mean first")
        elif not isinstance(metrics, (int, float, np.float32, np.float64)):
            raise TypeError("paddle.optimizer.lr.ReduceOnPlateau.step: metrics must be int, float, "
                            f"numpy.ndarray or Tensor, but received {type(metrics).__name__}")
        # The metric is kept as given (a Tensor stays a Tensor in ``best``), as Paddle does;
        # the state dict turns a one-element Tensor into a float.
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                self._report()

    def _is_better(self, current: Any, best: Any) -> Any:
        rel = self.threshold_mode == "rel"
        if self.mode == "min":
            return current < (best - best * self.threshold if rel else best - self.threshold)
        return current > (best + best * self.threshold if rel else best + self.threshold)


class CosineAnnealingDecay(LRScheduler):
    r"""Cosine annealing between ``learning_rate`` and ``eta_min`` with half-period ``T_max``
    (SGDR without restarts), computed recursively from the previous value.

    Args:
        learning_rate (float): the start value. T_max (int): the half period.
        eta_min (float|int, optional): the minimum. Default 0.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=1.0, T_max=2)
        >>> [round(s(), 6) for _ in range(3) if s.step() is None]
        [0.5, 0.0, 0.5]
    """

    def __init__(self, learning_rate: float, T_max: int, eta_min: float = 0, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not isinstance(T_max, int):
            raise TypeError("paddle.optimizer.lr.CosineAnnealingDecay: 'T_max' must be an int, "
                            f"but received {type(T_max).__name__}")
        if not isinstance(eta_min, (float, int)):
            raise TypeError("paddle.optimizer.lr.CosineAnnealingDecay: 'eta_min' must be a float or "
                            f"int, but received {type(eta_min).__name__}")
        _require(T_max > 0, AssertionError, "CosineAnnealingDecay: 'T_max' must be a positive integer")
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e, T = self.last_epoch, self.T_max
        if e == 0:
            return self.base_lr
        if (e - 1 - T) % (2 * T) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / T)) / 2
        ratio = (1 + math.cos(math.pi * e / T)) / (1 + math.cos(math.pi * (e - 1) / T))
        return ratio * (self.last_lr - self.eta_min) + self.eta_min

    def _get_closed_form_lr(self) -> float:
        cos = 1 + math.cos(math.pi * self.last_epoch / self.T_max)
        return self.eta_min + (self.base_lr - self.eta_min) * cos / 2


class LinearLR(LRScheduler):
    """Scale the learning rate linearly from ``start_factor`` to ``end_factor`` over
    ``total_steps`` (computed recursively from the previous value), then keep it.

    Args:
        learning_rate (float): the base learning rate. total_steps (int): the ramp length.
        start_factor (float, optional): the first factor, in (0, 1]. Default 1/3.
        end_factor (float, optional): the last factor, in [0, 1]. Default 1.0.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.LinearLR(learning_rate=1.0, total_steps=2, start_factor=0.5)
        >>> [s() for _ in range(3) if s.step() is None]
        [0.75, 1.0, 1.0]
    """

    def __init__(self, learning_rate: float, total_steps: int, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, last_epoch: int = -1, verbose: bool = False) -> None:
        _require(0 < start_factor <= 1.0, ValueError,
                 f"LinearLR: `start_factor` must be greater than 0 and at most 1, but got {start_factor}")
        _require(0 <= end_factor <= 1.0, ValueError,
                 f"LinearLR: `end_factor` must be between 0 and 1, but got {end_factor}")
        _require(total_steps > 0, ValueError, f"LinearLR: `total_steps` must be greater than 0, but got {total_steps}")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e = self.last_epoch
        if e == 0:
            return self.base_lr * self.start_factor
        if e > self.total_steps:
            return self.last_lr
        delta = self.end_factor - self.start_factor
        return self.last_lr * (1.0 + delta / (self.total_steps * self.start_factor + (e - 1) * delta))


# The cyclic schedulers live in their own module (file size); same public namespace.
from pagaie.optimizer._lr_cyclic import CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR  # noqa: E402

# They live in their own file, but Paddle (and pickles, reprs) know them as members of this module.
for _cls in (CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR):
    _cls.__module__ = __name__
del _cls

# Fluid-era functions Paddle keeps in this module (outside ``__all__``): each returns a scheduler.
from pagaie.optimizer._lr_legacy import (cosine_decay, exponential_decay, inverse_time_decay,  # noqa: E402,F401
                                         linear_lr_warmup, natural_exp_decay, noam_decay, piecewise_decay,
                                         polynomial_decay)
