"""``paddle.incubate.optimizer.LBFGS``: the deprecated incubating home of L-BFGS, the same
algorithm as :class:`pagaie.optimizer.LBFGS` (which it is, plus a deprecation warning)."""
from __future__ import annotations

import warnings
from typing import Any, Sequence

from pagaie.optimizer.lbfgs import LBFGS as _LBFGS
from pagaie.utils import VisibleDeprecationWarning

__all__ = ["LBFGS"]


class LBFGS(_LBFGS):
    r"""L-BFGS, deprecated since Paddle 2.5.0 in favour of ``paddle.optimizer.LBFGS``: every
    construction warns with ``VisibleDeprecationWarning``; everything else is
    :class:`pagaie.optimizer.LBFGS` (same arguments, ``step(closure)``, ``state_dict``).

    Args:
        learning_rate (float, optional): the step size. Default 1.0.
        max_iter (int, optional): iterations per ``step``. Default 20.
        max_eval (int, optional): evaluations per ``step``; ``max_iter * 5 // 4`` when None.
        tolerance_grad (float, optional): gradient tolerance. Default 1e-7.
        tolerance_change (float, optional): loss/step change tolerance. Default 1e-9.
        history_size (int, optional): curvature pairs kept. Default 100.
        line_search_fn (str, optional): None or ``'strong_wolfe'``. Default None.
        parameters (list, optional): the Tensors to update.
        weight_decay, grad_clip: accepted, unused (as in Paddle).
        name (str, optional): unused.

    Examples:
        >>> import warnings
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([3.0]), name="doc_inc_lbfgs_w")
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     opt = paddle.incubate.optimizer.LBFGS(parameters=[w], line_search_fn='strong_wolfe')
        >>> def closure():
        ...     opt.clear_grad()
        ...     loss = ((w - 1.0) * (w - 1.0)).sum()
        ...     loss.backward()
        ...     return loss
        >>> _ = opt.step(closure)
        >>> round(w.item(), 4)
        1.0
    """

    def __init__(self, learning_rate: float = 1.0, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9,
                 history_size: int = 100, line_search_fn: str | None = None,
                 parameters: Sequence | None = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        warnings.warn('API "paddle.incubate.optimizer.lbfgs.LBFGS" is deprecated since 2.5.0, and '
                      'will be removed in future versions. Please use "paddle.optimizer.LBFGS" '
                      "instead.", category=VisibleDeprecationWarning, stacklevel=2)
        super().__init__(learning_rate, max_iter, max_eval, tolerance_grad, tolerance_change,
                         history_size, line_search_fn, parameters, weight_decay, grad_clip, name)
