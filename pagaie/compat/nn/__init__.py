"""``paddle.compat.nn``: PyTorch-style layers and the :mod:`functional` module.

Examples:
    >>> import pagaie as paddle
    >>> layer = paddle.compat.nn.Softmax(dim=1)
    >>> layer(paddle.to_tensor([[0.0, 0.0]])).tolist()
    [[0.5, 0.5]]
"""
from __future__ import annotations

from typing import Any

from pagaie.compat.nn import functional
from pagaie.compat.nn.layers import (AvgPool1d, AvgPool1D, AvgPool2d, AvgPool2D, AvgPool3d,
                                     AvgPool3D, Linear, Unfold)
from pagaie.compat.nn.transformer import MultiheadAttention
from pagaie.nn.layer.layers import Layer

__all__ = ["Unfold", "Linear", "Softmax", "AvgPool1D", "AvgPool2D", "AvgPool3D", "AvgPool1d",
           "AvgPool2d", "AvgPool3d", "MultiheadAttention"]


class Softmax(Layer):
    """Layer form of :func:`paddle.compat.nn.functional.softmax`.

    Args:
        dim (int, optional): the axis to normalise over; None uses PyTorch's implicit rule.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.compat.nn.Softmax()(paddle.to_tensor([1.0, 1.0])).tolist()
        [0.5, 0.5]
    """

    def __init__(self, dim: int | None = None, **kwargs: Any) -> None:
        for key in kwargs:
            if key in ("axis", "name"):
                raise TypeError(f"paddle.compat.nn.Softmax() received unexpected keyword "
                                f"argument '{key}'. \nDid you mean to use paddle.nn.Softmax() "
                                "instead?")
            raise TypeError(f"Softmax.__init__() got an unexpected keyword argument '{key}'")
        super().__init__()
        self._dim = dim

    def forward(self, input: Any) -> Any:
        return functional.softmax(input, self._dim)

    def extra_repr(self) -> str:
        return f"dim={self._dim}"

