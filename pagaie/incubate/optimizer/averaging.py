"""``paddle.incubate`` optimizers: :class:`LookAhead` (slow/fast weights around an inner
optimizer) and :class:`ModelAverage` (sliding-window parameter averages for evaluation)."""
from __future__ import annotations

import numbers
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

import numpy as np
import torch

from pagaie._core.tensor import Tensor
from pagaie._static.interpreter import register_graph_op
from pagaie.static.framework import default_main_program, in_dynamic_mode
from pagaie.optimizer.optimizer import Optimizer

__all__ = ["LookAhead", "ModelAverage"]


def _flat_params(parameters: Sequence[Any]) -> list[Tensor]:
    out: list[Tensor] = []
    for p in parameters:
        if isinstance(p, dict):
            ps = p["params"]
            out.extend([ps] if isinstance(ps, Tensor) else list(ps))
        else:
            out.append(p)
    return out


def _with_grads(params: Sequence[Tensor]) -> list[Tensor]:
    """The trainable parameters that currently have a gradient."""
    return [p for p in params if not p.stop_gradient and getattr(p, "trainable", True)
            and p._t.grad is not None]


class LookAhead(Optimizer):
    r"""The Lookahead optimizer (Zhang et al., 2019): ``inner_optimizer`` updates the (fast)
    parameters every step; every ``k`` steps the slow copies move towards them and the
    parameters are reset to the slow copies:

    .. math::

        slow_t = slow_{t-1} + \alpha (fast_t - slow_{t-1}), \qquad fast_t = slow_t

    The slow copies start as the parameters after the first step.

    Args:
        inner_optimizer (Optimizer): the optimizer of the fast parameters.
        alpha (float, optional): the slow step size, in [0, 1]. Default 0.5.
        k (int, optional): synchronise every ``k`` steps, a positive int. Default 5.
        name (str, optional): prefix of the accumulator names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_lookahead_w")
        >>> sgd = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
        >>> opt = paddle.incubate.LookAhead(sgd, alpha=0.5, k=2)
        >>> for _ in range(2):
        ...     (w * 1.0).sum().backward()
        ...     opt.step()
        ...     opt.clear_grad()
        >>> round(w.item(), 4)  # fast reached 0.8, slow (0.9) moved half way: 0.85
        0.85
    """

    _slow_str = "slow"

    def __init__(self, inner_optimizer: Optimizer, alpha: float = 0.5, k: int = 5,
                 name: str | None = None) -> None:
        if inner_optimizer is None:
            raise AssertionError("paddle.incubate.LookAhead: inner optimizer can not be None")
        if not 0.0 <= alpha <= 1.0:
            raise AssertionError("paddle.incubate.LookAhead: alpha should be larger or equal to 0.0, "
                                 f"and less or equal than 1.0, but received {alpha}")
        if not isinstance(k, int) or k <= 0:
            raise AssertionError(f"paddle.incubate.LookAhead: k should be a positive integer, but "
                                 f"received {k!r}")
        if not isinstance(alpha, float):
            # As in Paddle, alpha is the wrapper's learning rate, which must be a float.
            raise TypeError(f"paddle.incubate.LookAhead: alpha should be a float, but received "
                            f"{type(alpha).__name__}")
        self.inner_optimizer = inner_optimizer
        params = _flat_params(inner_optimizer._parameter_list or [])
        super().__init__(learning_rate=alpha, parameters=params, weight_decay=None,
                         grad_clip=None, name=name)
        self.alpha = alpha
        self.k = k
        self.type = "lookahead"
        self._global_step = 0

    def _set_auxiliary_var(self, key: str, val: Any) -> None:
        super()._set_auxiliary_var(key, val)
        self.inner_optimizer._set_auxiliary_var(key, val)

    def _lookahead(self, params: Sequence[Tensor]) -> None:
        """Count one step and move slow/fast weights of ``params`` (those with gradients)."""
        self._global_step += 1
        first, sync = self._global_step == 1, self._global_step % self.k == 0
        a = self.alpha
        with torch.no_grad():
            for p in params:
                slow = self._add_accumulator(self._slow_str, p)._t
                fast = p._t
                if first:
                    slow.copy_(fast)
                if sync:
                    mixed = a * fast + (1.0 - a) * slow
                    fast.copy_(mixed)
                    slow.copy_(mixed)

    def _apply_optimize(self, pairs: list, group: dict | None) -> None:
        # a static program's step over the (parameter, gradient) pairs minimize() found
        self.inner_optimizer._apply_optimize(pairs, group)
        self._lookahead([p for p, g in pairs if g is not None])

    def step(self) -> None:
        """Run the inner optimizer's step, then the Lookahead update.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([2.0]), name="doc_lookahead_step_w")
            >>> opt = paddle.incubate.LookAhead(paddle.optimizer.SGD(0.5, parameters=[w]), k=1)
            >>> (w * 1.0).sum().backward()
            >>> opt.step()
            >>> w.item()
            1.5
        """
        self.inner_optimizer.step()
        self._lookahead(_with_grads(self._parameter_list))

    def minimize(self, loss: Tensor, startup_program: Any = None, parameters: list | None = None,
                 no_grad_set: set | None = None) -> tuple[list, list]:
        """Minimize ``loss`` with the inner optimizer, then apply the Lookahead update.

        Args:
            loss (Tensor): the loss (call ``loss.backward()`` first).
            startup_program (None): unused in dynamic mode.
            parameters (list, optional): the parameters (or names) to update; all by default.
            no_grad_set (set, optional): parameters (or names) not to update.

        Returns:
            tuple: (the operators appended, always empty in dynamic mode; the (parameter,
            gradient) pairs used).

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([2.0]), name="doc_lookahead_min_w")
            >>> opt = paddle.incubate.LookAhead(paddle.optimizer.SGD(0.5, parameters=[w]), k=1)
            >>> loss = (w * 1.0).sum()
            >>> loss.backward()
            >>> _, pairs = opt.minimize(loss)
            >>> w.item()
            1.5
        """
        if not isinstance(loss, Tensor):
            raise AssertionError("paddle.incubate.LookAhead.minimize: the loss should be a Tensor, "
                                 f"but received {type(loss).__name__}")
        from pagaie._static.ir import Value
        if isinstance(loss, Value):   # a static program: one step op runs both rules per run
            from pagaie.static.backward import minimize as static_minimize
            return static_minimize(self, loss, parameters, no_grad_set, startup_program)
        ops, params_grads = self.inner_optimizer.minimize(
            loss, startup_program=startup_program, parameters=parameters, no_grad_set=no_grad_set)
        self._lookahead([p for p, g in params_grads if g is not None and not p.stop_gradient])
        return ops, params_grads


_K_MAX_NUM_ACCUMULATES = 16384


class ModelAverage(Optimizer):
    r"""Sliding-window average of parameters, to evaluate a model with averaged weights.

    Each :meth:`step` adds the current value of every parameter (that has a gradient) to
    running sums. When the window becomes too long, i.e. ``num_accumulates >=
    min_average_window`` and ``num_accumulates >= min(max_average_window, num_updates *
    average_window_rate)``, the current sums become the "old" sums and a new window starts;
    the average covers the old and the current window. :meth:`apply` swaps the averages
    into the parameters (a context manager that restores them on exit), :meth:`restore` puts
    the trained values back. ``step`` does not change the parameters: pair it with a
    training optimizer. Made while a static program is built, it adds the accumulation to that
    program (each run accumulates; ``apply`` and ``restore`` then take the executor).

    Args:
        average_window_rate (float): window length relative to the number of updates.
        parameters (list, optional): the parameters to average (required in dynamic mode).
        min_average_window (int, optional): minimum window length. Default 10000.
        max_average_window (int, optional): maximum window length. Default 10000.
        name (str, optional): prefix of the accumulator names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([0.0]), name="doc_model_average_w")
        >>> avg = paddle.incubate.ModelAverage(0.15, parameters=[w], min_average_window=2,
        ...                                    max_average_window=10)
        >>> for v in [1.0, 2.0, 3.0]:
        ...     w.set_value(paddle.to_tensor([v]))
        ...     (w * 1.0).sum().backward()
        ...     avg.step()
        >>> with avg.apply():
        ...     print(w.item())
        2.0
        >>> w.item()
        3.0
    """

    def __init__(self, average_window_rate: float, parameters: Sequence[Tensor] | None = None,
                 min_average_window: int = 10000, max_average_window: int = 10000,
                 name: str | None = None) -> None:
        super().__init__(learning_rate=0.0, parameters=parameters, weight_decay=None,
                         grad_clip=None, name=name)
        self._params = _flat_params(self._parameter_list)
        self.average_window = average_window_rate
        self.min_average_window = min_average_window
        self.max_average_window = max_average_window
        self.type = "average_accumulates"
        if not in_dynamic_mode():
            self._append_static_step()

    def _append_static_step(self) -> None:
        # As Paddle, a ModelAverage made while a program is built adds the accumulation of its
        # parameters (all the program's parameters by default) to that program: each run then
        # accumulates them, and apply(executor) / restore(executor) swap the averages in and out.
        self._check_windows()
        block = default_main_program().global_block()
        params = self._params or [v.source for v in block.all_parameters()]
        self._params = [getattr(p, "source", None) or p for p in params]
        self._create_accumulators(self._params)
        block.append_op("pagaie.model_average_step", [], {}, None, {"optimizer": self})

    def _create_accumulators(self, params: Sequence[Tensor], hp: dict | None = None) -> None:
        for p in params:
            for acc in ("sum_1", "sum_2", "sum_3", "restore"):
                self._add_accumulator(acc, p)
            for acc in ("num_accumulates", "old_num_accumulates", "num_updates"):
                self._add_accumulator(acc, p, dtype=torch.int64, shape=[1])

    def _accumulate(self, p: Tensor) -> None:
        get = self._get_accumulator
        s1, s2, s3 = get("sum_1", p)._t, get("sum_2", p)._t, get("sum_3", p)._t
        num_acc_t, old_t, upd_t = (get("num_accumulates", p)._t, get("old_num_accumulates", p)._t,
                                   get("num_updates", p)._t)
        num_updates = int(upd_t.item()) + 1
        num_acc = int(num_acc_t.item()) + 1
        s1.add_(p._t)
        if num_updates % _K_MAX_NUM_ACCUMULATES == 0:
            s2.add_(s1)  # move the sum to another buffer to keep precision
            s1.zero_()
        # Paddle compares with min(max_window, int64(float(num_updates) * float(rate))).
        window = min(self.max_average_window,
                     int(np.float32(num_updates) * np.float32(self.average_window)))
        if num_acc >= self.min_average_window and num_acc >= window:
            s3.copy_(s1 + s2)  # the window is too long: the current sums become the old ones
            s1.zero_()
            s2.zero_()
            old_t.fill_(num_acc)
            num_acc = 0
        num_acc_t.fill_(num_acc)
        upd_t.fill_(num_updates)

    def _check_windows(self) -> None:
        self._check_attr_types()
        if self.min_average_window > self.max_average_window:
            raise ValueError("paddle.incubate.ModelAverage.step: min_average_window must not exceed "
                             f"max_average_window, but received {self.min_average_window} > "
                             f"{self.max_average_window}")

    def _check_attr_types(self) -> None:
        # What Paddle's kernel-argument parser refuses (TypeError): a rate that is not a
        # number (a bool is one), a window that is not an integer (a float or a bool).
        rate = self.average_window
        if not isinstance(rate, (numbers.Real, np.number)):
            raise TypeError("paddle.incubate.ModelAverage.step: 'average_window_rate' must be a "
                            f"float, but received {type(rate).__name__}")
        for arg in ("max_average_window", "min_average_window"):
            v = getattr(self, arg)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"paddle.incubate.ModelAverage.step: '{arg}' must be an int, but "
                                f"received {type(v).__name__}")

    def step(self) -> None:
        """Add the current parameter values (of parameters with gradients) to the sums.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([4.0]), name="doc_model_average_step_w")
            >>> avg = paddle.incubate.ModelAverage(0.15, parameters=[w])
            >>> (w * 1.0).sum().backward()
            >>> avg.step()
            >>> [k for k in avg.state_dict() if 'sum_1' in k]
            ['doc_model_average_step_w_sum_1_0']
        """
        self._check_windows()
        params = _with_grads(self._params)
        with torch.no_grad():
            self._create_accumulators(self._params)
            for p in params:
                self._accumulate(p)

    def minimize(self, loss: Tensor, startup_program: Any = None, parameters: list | None = None,
                 no_grad_set: set | None = None) -> None:
        """Same as :meth:`step` in dynamic mode (``loss`` and the other arguments are unused).

        Args:
            loss (Tensor): the loss.
            startup_program (None): unused.
            parameters (list, optional): unused.
            no_grad_set (set, optional): unused.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([4.0]), name="doc_model_average_min_w")
            >>> avg = paddle.incubate.ModelAverage(0.15, parameters=[w])
            >>> loss = (w * 1.0).sum()
            >>> loss.backward()
            >>> avg.minimize(loss)
        """
        self.step()

    @contextmanager
    def apply(self, executor: Any = None, need_restore: bool = True) -> Iterator[None]:
        """Context manager: put the averaged values into the parameters (saving the current
        ones); on exit, restore them when ``need_restore``.

        Args:
            executor (Executor, optional): unused in dynamic mode; required in static mode
                (RuntimeError without it).
            need_restore (bool, optional): restore the parameters on exit. Default True.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_model_average_apply_w")
            >>> avg = paddle.incubate.ModelAverage(0.15, parameters=[w])
            >>> for v in [1.0, 3.0]:
            ...     w.set_value(paddle.to_tensor([v]))
            ...     (w * 1.0).sum().backward()
            ...     avg.step()
            >>> with avg.apply(need_restore=False):
            ...     pass
            >>> w.item()
            2.0
            >>> avg.restore()
            >>> w.item()
            3.0
        """
        _need_executor("apply", executor)
        with torch.no_grad():
            for p in self._params:
                get = self._get_accumulator
                get("restore", p)._t.copy_(p._t)
                total = (get("sum_1", p)._t + get("sum_2", p)._t + get("sum_3", p)._t).float()
                count = (get("num_accumulates", p)._t + get("old_num_accumulates", p)._t).float()
                p._t.copy_(total / count)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor: Any = None) -> None:
        """Put back the parameter values saved by :meth:`apply`.

        Args:
            executor (Executor, optional): unused in dynamic mode; required in static mode
                (RuntimeError without it).

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([5.0]), name="doc_model_average_restore_w")
            >>> avg = paddle.incubate.ModelAverage(0.15, parameters=[w])
            >>> (w * 1.0).sum().backward()
            >>> avg.step()
            >>> with avg.apply(need_restore=False):
            ...     w.set_value(paddle.to_tensor([0.0]))
            >>> avg.restore()
            >>> w.item()
            5.0
        """
        _need_executor("restore", executor)
        with torch.no_grad():
            for p in self._params:
                p._t.copy_(self._get_accumulator("restore", p)._t)


def _need_executor(method: str, executor: Any) -> None:
    if executor is None and not in_dynamic_mode():
        raise RuntimeError(f"paddle.incubate.ModelAverage.{method}: Executor should not be None "
                           "in static graph mode.")


@register_graph_op("pagaie.model_average_step")
def _run_model_average_step(op: Any, args: list, kwargs: dict, plan: Any) -> None:
    """One run of a program's ModelAverage accumulation: every averaged parameter is added."""
    average = op.attrs["optimizer"]
    with torch.no_grad():
        for p in average._params:
            average._accumulate(p)
