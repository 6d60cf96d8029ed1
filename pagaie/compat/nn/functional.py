"""``paddle.compat.nn.functional``: PyTorch-style functional ops (argument names ``input``,
``dim``), as in Paddle's compat layer.

Examples:
    >>> import pagaie as paddle
    >>> x = paddle.to_tensor([[0.0, 0.0], [1.0, 1.0]])
    >>> paddle.compat.nn.functional.softmax(x, -1).tolist()
    [[0.5, 0.5], [0.5, 0.5]]
"""
from __future__ import annotations

from typing import Any

__all__ = ["softmax"]

_PADDLE_STYLE_KEYS = ("x", "axis", "name")


def _implicit_dim(ndim: int) -> int:
    # PyTorch's legacy rule for softmax without ``dim``.
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Any, dim: int | None = None, dtype: Any = None, *, out: Any = None,
            **kwargs: Any) -> Any:
    """Softmax of ``input`` along ``dim`` (PyTorch's argument names and defaults).

    Args:
        input (Tensor): a float32 or float64 tensor.
        dim (int, optional): the axis to normalise over. None picks 0 for 0-D, 1-D and 3-D
            inputs and 1 otherwise.
        dtype (str|paddle.dtype, optional): cast ``input`` to this type first.
        out (Tensor, optional): a tensor that receives the result.

    Returns:
        Tensor: same shape as ``input``; values along ``dim`` sum to 1.

    Raises:
        TypeError: for Paddle-style keywords (``x``, ``axis``, ``name``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[2.0, 3.0], [1.0, 1.0]])
        >>> out = paddle.compat.nn.functional.softmax(x, dim=0, dtype='float64')
        >>> out.dtype, [round(v, 4) for v in out[:, 0].tolist()]
        (<DataType.FLOAT64: 11>, [0.7311, 0.2689])
    """
    for key in kwargs:
        if key in _PADDLE_STYLE_KEYS:
            raise TypeError(f"paddle.compat.nn.functional.softmax() received unexpected keyword "
                            f"argument '{key}'. \nDid you mean to use "
                            "paddle.nn.functional.softmax() instead?")
        if key != "_stacklevel":   # PyTorch's private argument; accepted and ignored
            raise TypeError(f"softmax() got an unexpected keyword argument '{key}'")
    from pagaie.nn.functional import softmax as _softmax
    if dim is None:
        dim = _implicit_dim(len(input.shape))
    return _softmax(input, axis=dim, dtype=dtype, out=out)
