"""``Tensor.size``: Paddle 3's element count that can also be called for the shape."""
from __future__ import annotations

from typing import Any

__all__ = ["TensorSize"]


class TensorSize(int):
    """The value of ``Tensor.size``: the element count, callable for the shape.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([2, 3])
        >>> x.size, x.size(), x.size(-1)
        (6, paddle.Size([2, 3]), 3)
    """

    def __new__(cls, tensor: Any) -> "TensorSize":
        obj = super().__new__(cls, tensor._t.numel())
        obj._tensor = tensor
        return obj

    def __call__(self, dim: int | None = None) -> Any:
        if dim is None:
            return self._tensor.shape
        return self._tensor.shape[dim]

    def __repr__(self) -> str:
        return int.__repr__(self)

    def __reduce__(self) -> tuple:
        return (int, (int(self),))  # pickles and copies as the plain count
