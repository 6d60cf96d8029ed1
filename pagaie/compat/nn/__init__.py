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


class MultiheadAttention(Layer):
    """PyTorch-style multi-head attention (``batch_first``, ``kdim``/``vdim``, packed
    ``in_proj_weight``). Not available yet in pagaie: constructing one raises
    ``NotImplementedError``; use :class:`paddle.nn.MultiHeadAttention` (Paddle's layout) or
    :func:`paddle.compat.nn.functional.scaled_dot_product_attention`.

    Args:
        embed_dim (int): model width.
        num_heads (int): number of heads.
        dropout (float, optional): attention dropout.
        bias (bool, optional): projection biases.
        add_bias_kv (bool, optional): learned bias rows appended to key and value.
        add_zero_attn (bool, optional): a zero row appended to key and value.
        kdim (int, optional): key width.
        vdim (int, optional): value width.
        batch_first (bool, optional): inputs are ``[batch, seq, feature]``.
        device (str|Place, optional): parameter device.
        dtype (str|paddle.dtype, optional): parameter dtype.

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.compat.nn.MultiheadAttention(4, 2)
        ... except NotImplementedError:
        ...     print('use paddle.nn.MultiHeadAttention')
        use paddle.nn.MultiHeadAttention
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        raise NotImplementedError(
            "paddle.compat.nn.MultiheadAttention is not available in pagaie yet; use "
            "paddle.nn.MultiHeadAttention (Paddle's argument names and layout) or "
            "paddle.compat.nn.functional.scaled_dot_product_attention.")
