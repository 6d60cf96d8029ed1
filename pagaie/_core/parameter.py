"""``Parameter``: a trainable Tensor owned by a Layer (Paddle's EagerParamBase)."""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core.tensor import Tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A Tensor that a Layer trains. ``stop_gradient`` is ``not trainable``.

    Args:
        data (torch.Tensor|Tensor): the initial value (copied into a leaf).
        trainable (bool): whether optimizers update it.
        name (str, optional): the parameter name (Paddle's e.g. ``linear_0.w_0``).
        optimize_attr (dict, optional): ``{'learning_rate': float}`` scale for this parameter.
        regularizer (optional): a weight-decay regularizer overriding the optimizer's.
        need_clip (bool): whether gradient clipping applies to it.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([2, 2], 'float32')
        >>> w.stop_gradient, w.trainable
        (False, True)
    """

    def __init__(self, data: Any, trainable: bool = True, name: str | None = None,
                 optimize_attr: dict | None = None, regularizer: Any = None,
                 need_clip: bool = True, do_model_average: bool | None = None,
                 is_distributed: bool = False) -> None:
        t = data._t if isinstance(data, Tensor) else torch.as_tensor(data).clone()  # never alias the caller's array
        self._t = t.detach().requires_grad_(bool(trainable) and (t.is_floating_point() or t.is_complex()))
        self._name = name
        self.persistable = True
        self.optimize_attr = dict(optimize_attr or {"learning_rate": 1.0})
        self.regularizer = regularizer
        self.need_clip = need_clip
        self.do_model_average = do_model_average
        self.is_distributed = is_distributed

    @property
    def trainable(self) -> bool:
        return self._t.requires_grad

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self.stop_gradient = not value
