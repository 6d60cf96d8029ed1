"""Rprop: resilient backpropagation with per-element step sizes."""
from __future__ import annotations

from typing import Any, Sequence

import torch

from pagaie._core.tensor import Tensor
from pagaie.optimizer.lr import LRScheduler
from pagaie.optimizer.optimizer import Optimizer, _low_precision_note

__all__ = ["Rprop"]


class Rprop(Optimizer):
    r"""Rprop (Riedmiller & Braun): each element keeps its own step size, grown by
    ``etas[1]`` while the gradient keeps its sign and shrunk by ``etas[0]`` when it flips
    (that step then skips the update); steps are clipped to ``learning_rate_range`` and
    :math:`\theta \leftarrow \theta - \mathrm{sign}(g) \cdot step`.

    Args:
        learning_rate (float|LRScheduler, optional): the initial step size. Default 0.001.
        learning_rate_range (tuple, optional): (min, max) step size. Default (1e-5, 50).
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        etas (tuple, optional): (decrease, increase) factors. Default (0.5, 1.2).
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        multi_precision (bool, optional): float32 master weights for low-precision parameters.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_rprop_w")
        >>> opt = paddle.optimizer.Rprop(learning_rate=0.1, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([3.0]))
        >>> opt.step()
        >>> round(w.item(), 4)
        0.9
    """

    _low_precision_warning = _low_precision_note("FP16/BF16", "Adam")

    _acc_names = ("prevs", "learning_rates")
    _steps_with_lr = False  # the step sizes live in the accumulators; a group's rate is unused

    def __init__(self, learning_rate: Any = 0.001, learning_rate_range: tuple = (1e-5, 50),
                 parameters: Sequence | None = None, etas: tuple = (0.5, 1.2), grad_clip: Any = None,
                 multi_precision: bool = False, name: str | None = None) -> None:
        if learning_rate is None:
            raise ValueError("paddle.optimizer.Rprop: learning_rate is not set")
        lr0 = learning_rate() if isinstance(learning_rate, LRScheduler) else learning_rate
        if not 0.0 < learning_rate_range[0] <= lr0 <= learning_rate_range[1]:
            raise ValueError("paddle.optimizer.Rprop: '0.0 < learning_rate_range[0] <= learning_rate <= "
                             f"learning_rate_range[1]' must be true, but received {lr0} and {learning_rate_range}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"paddle.optimizer.Rprop: '0.0 < etas[0] < 1.0 < etas[1]' must be true, but received {etas}")
        super().__init__(learning_rate, parameters, 0.0, grad_clip, name)
        self.type = "rprop"
        self._initial_learning_rate = lr0
        self._multi_precision = multi_precision
        self._learning_rate_range = [learning_rate_range]
        self._etas = [etas]
        self._bounds_cache: tuple | None = None
        self._default_dict = {}

    def _init_state(self, target: Tensor, hp: dict) -> None:
        # Paddle keeps these in the parameter's dtype, even next to float32 master weights
        dt = self._creating_param_dtype or target._t.dtype
        self._add_accumulator("prevs", target, dtype=dt)
        self._add_accumulator("learning_rates", target, dtype=dt, fill_value=self._initial_learning_rate)

    def _bounds(self, param: Tensor) -> tuple:
        """(lo, hi, eta_minus, eta_plus) as Paddle's kernel sees them: Paddle turns the range
        and the etas into tensors of the dtype of the first parameter it updates (so a
        bfloat16 model grows its steps by bfloat16(1.2) = 1.203125)."""
        if self._bounds_cache is None:
            dt = param._t.dtype
            vals = (*self._learning_rate_range[0], *self._etas[0])
            self._bounds_cache = tuple(torch.tensor([float(v) for v in vals], dtype=dt).tolist())
        return self._bounds_cache

    def _update_one(self, p, g, state, lr, hp, param) -> None:
        lo, hi, eta_minus, eta_plus = self._bounds(param)
        prev, steps = state["prevs"], state["learning_rates"]
        prod = g * prev
        one = torch.ones_like(steps)
        eta = torch.where(prod > 0, one * eta_plus, torch.where(prod < 0, one * eta_minus, one))
        g = torch.where(prod < 0, torch.zeros_like(g), g)
        steps.mul_(eta).clamp_(lo, hi)
        acc_dtype = param._t.dtype  # the accumulators are kept in the parameter's dtype
        if steps.dtype != acc_dtype and acc_dtype in (torch.float16, torch.bfloat16):
            # Paddle's kernel writes the new step sizes into the low-precision accumulator
            # and steps the parameter by that stored (rounded) value
            steps.copy_(steps.to(acc_dtype))
        p.sub_(g.sign() * steps)
        prev.copy_(g)
