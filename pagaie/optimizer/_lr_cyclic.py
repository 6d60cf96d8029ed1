"""Cyclic learning-rate schedulers of ``paddle.optimizer.lr`` (one-cycle, cyclical and
cosine annealing with warm restarts); imported into :mod:`pagaie.optimizer.lr`."""
from __future__ import annotations

import math
from typing import Callable

from pagaie.optimizer.lr import LRScheduler

__all__ = ["OneCycleLR", "CyclicLR", "CosineAnnealingWarmRestarts"]


class OneCycleLR(LRScheduler):
    """The one-cycle policy: warm up from ``max_learning_rate / divide_factor`` to
    ``max_learning_rate`` over ``phase_pct`` of the steps, then anneal to ``end_learning_rate``
    (with ``three_phase``, back to the initial value first).

    Args:
        max_learning_rate (float): the peak. total_steps (int): the number of steps.
        divide_factor (float, optional): initial = max / divide_factor. Default 25.
        end_learning_rate (float, optional): the final value. Default 1e-4.
        phase_pct (float, optional): fraction of steps spent increasing. Default 0.3.
        anneal_strategy (str, optional): 'cos' or 'linear'. Default 'cos'.
        three_phase (bool, optional): use three phases. Default False.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.OneCycleLR(max_learning_rate=1.0, total_steps=10, anneal_strategy='linear')
        >>> round(s(), 6)
        0.04
    """

    def __init__(self, max_learning_rate: float, total_steps: int, divide_factor: float = 25.0,
                 end_learning_rate: float = 0.0001, phase_pct: float = 0.3, anneal_strategy: str = "cos",
                 three_phase: bool = False, last_epoch: int = -1, verbose: bool = False) -> None:
        name = "paddle.optimizer.lr.OneCycleLR"
        for arg, val in (("max_learning_rate", max_learning_rate), ("end_learning_rate", end_learning_rate)):
            if not isinstance(val, (float, int)):
                raise TypeError(f"{name}: '{arg}' must be a float or int, but received {type(val).__name__}")
            if val < 0:
                raise ValueError(f"{name}: '{arg}' must be non-negative, but received {val}")
        if not isinstance(total_steps, int):
            raise TypeError(f"{name}: 'total_steps' must be an int, but received {type(total_steps).__name__}")
        if total_steps <= 0:
            raise ValueError(f"{name}: 'total_steps' must be a positive integer, but received {total_steps}")
        if not isinstance(phase_pct, float):
            raise TypeError(f"{name}: 'phase_pct' must be a float, but received {type(phase_pct).__name__}")
        if phase_pct < 0 or phase_pct > 1:
            raise ValueError(f"{name}: 'phase_pct' must be between 0 and 1, but received {phase_pct}")
        if not isinstance(divide_factor, (float, int)):
            raise TypeError(f"{name}: 'divide_factor' must be a float or int, "
                            f"but received {type(divide_factor).__name__}")
        self.total_steps = total_steps
        initial = max_learning_rate / float(divide_factor)
        final = float(end_learning_rate)
        up_end = phase_pct * total_steps - 1
        last = total_steps - 1
        if three_phase:
            if phase_pct >= 0.5:
                raise ValueError(f"{name}: when three_phase is True, 'phase_pct' must be less than 0.5")
            self._step_config = [0, up_end, 2 * phase_pct * total_steps - 2, last, last]
            self._lr_config = [initial, max_learning_rate, initial, final]
        else:
            self._step_config = [0, up_end, last, last]
            self._lr_config = [initial, max_learning_rate, final]
        cfg = self._step_config
        n = len(self._lr_config)
        self._steps_size = [cfg[i + 1] - cfg[i] for i in range(n - 1)] + [cfg[n - 1] - cfg[n - 2]]
        if anneal_strategy == "cos":
            self.anneal_func = self._cos_annealing
        elif anneal_strategy == "linear":
            self.anneal_func = self._linear_annealing
        else:
            raise ValueError(f"{name}: 'anneal_strategy' must be one of 'cos' or 'linear', "
                             f"but received {anneal_strategy}")
        super().__init__(initial, last_epoch, verbose)

    @staticmethod
    def _cos_annealing(start_lr: float, end_lr: float, pct: float) -> float:
        return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _linear_annealing(start_lr: float, end_lr: float, pct: float) -> float:
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self) -> float:
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"paddle.optimizer.lr.OneCycleLR: tried to step {step} times, but the "
                             f"number of total steps is {self.total_steps}")
        last_phase = len(self._lr_config) - 2
        for i, (end_step, size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if step <= end_step or i == last_phase:
                pct = (step - self._step_config[i]) / size
                return self.anneal_func(self._lr_config[i], self._lr_config[i + 1], pct)
        return self.last_lr


class CyclicLR(LRScheduler):
    """Cyclical learning rate between ``base_learning_rate`` and ``max_learning_rate``
    (triangular, triangular2, exp_range, or a custom ``scale_fn``).

    Args:
        base_learning_rate (float): the lower bound. max_learning_rate (float): the upper bound.
        step_size_up (int): steps of the increasing half.
        step_size_down (int|None, optional): steps of the decreasing half; = up when None.
        mode (str, optional): 'triangular', 'triangular2' or 'exp_range'. Default 'triangular'.
        exp_gamma (float, optional): the factor of 'exp_range'. Default 1.0.
        scale_fn (callable|None, optional): a custom amplitude scale. Default None.
        scale_mode (str, optional): 'cycle' or 'iterations' (argument of scale_fn). Default 'cycle'.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.CyclicLR(0.0, 1.0, step_size_up=2)
        >>> [s() for _ in range(4) if s.step() is None]
        [0.5, 1.0, 0.5, 0.0]
    """

    def __init__(self, base_learning_rate: float, max_learning_rate: float, step_size_up: int,
                 step_size_down: int | None = None, mode: str = "triangular", exp_gamma: float = 1.0,
                 scale_fn: Callable[[float], float] | None = None, scale_mode: str = "cycle",
                 last_epoch: int = -1, verbose: bool = False) -> None:
        name = "paddle.optimizer.lr.CyclicLR"
        if not isinstance(max_learning_rate, (float, int)):
            raise TypeError(f"{name}: 'max_learning_rate' must be a float or int, "
                            f"but received {type(max_learning_rate).__name__}")
        if max_learning_rate < 0:
            raise ValueError(f"{name}: 'max_learning_rate' must be non-negative, but received {max_learning_rate}")
        for arg, val in (("step_size_up", step_size_up), ("step_size_down", step_size_down)):
            if val is None:
                continue
            if not isinstance(val, int):
                raise TypeError(f"{name}: '{arg}' must be an int, but received {type(val).__name__}")
            if val <= 0:
                raise ValueError(f"{name}: '{arg}' must be a positive integer, but received {val}")
        if not isinstance(exp_gamma, float):
            raise TypeError(f"{name}: 'exp_gamma' must be a float, but received {type(exp_gamma).__name__}")
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(f"{name}: 'mode' is invalid and 'scale_fn' is not given; one must be valid")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError(f"{name}: 'scale_mode' must be one of 'cycle' or 'iterations'")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        elif mode == "triangular":
            self.scale_fn, self.scale_mode = self._triangular_scale_fn, "cycle"
        elif mode == "triangular2":
            self.scale_fn, self.scale_mode = self._triangular2_scale_fn, "cycle"
        else:
            self.scale_fn, self.scale_mode = self._exp_range_scale_fn, "iterations"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def _triangular_scale_fn(self, x: float) -> float:
        return 1.0

    def _triangular2_scale_fn(self, x: float) -> float:
        return 1 / 2.0 ** (x - 1)

    def _exp_range_scale_fn(self, x: float) -> float:
        return self.gamma ** x

    def get_lr(self) -> float:
        it = self.last_epoch
        cycle = 1 + it // self.cycle_size
        pct = 1.0 + it / self.cycle_size - cycle
        if pct <= self.step_up_pct:
            scale = pct / self.step_up_pct
        else:
            scale = (1 - pct) / (1 - self.step_up_pct)
        x = cycle if self.scale_mode == "cycle" else it
        return self.base_lr + self.amplitude * scale * self.scale_fn(x)


class CosineAnnealingWarmRestarts(LRScheduler):
    r"""Cosine annealing with warm restarts (SGDR): periods ``T_0, T_0 T_{mult}, ...``;
    :math:`lr = \eta_{min} + (base - \eta_{min})(1 + \cos(\pi T_{cur} / T_i)) / 2`.

    Args:
        learning_rate (float): the start value. T_0 (int): the first period.
        T_mult (int, optional): period growth factor (>= 1). Default 1.
        eta_min (float, optional): the minimum. Default 0.
        last_epoch (int, optional): Default -1. verbose (bool, optional): Default False.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.optimizer.lr.CosineAnnealingWarmRestarts(learning_rate=1.0, T_0=2)
        >>> [round(s(), 6) for _ in range(3) if s.step() is None]
        [0.5, 1.0, 0.5]
    """

    def __init__(self, learning_rate: float, T_0: int, T_mult: int = 1, eta_min: float = 0,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        # the comparison comes first, as in Paddle: a str or None raises TypeError
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"paddle.optimizer.lr.CosineAnnealingWarmRestarts: expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"paddle.optimizer.lr.CosineAnnealingWarmRestarts: expected integer T_mult >= 1, but got {T_mult}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.eta_min + (self.base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch: int | None = None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"paddle.optimizer.lr.CosineAnnealingWarmRestarts.step: expected "
                                 f"non-negative epoch, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        self._report()
