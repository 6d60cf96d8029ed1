"""``paddle.static.InputSpec``: the shape, dtype and name of a program input."""
from __future__ import annotations

from typing import Any

import numpy as np

from pagaie._core import dtype as _dt
from pagaie._core.tensor import Tensor

__all__ = ["InputSpec"]


def _dim(d: Any, i: int) -> int:
    """One dimension of a spec: None and negative sizes are unknown (-1); as Paddle, only a
    Python int is a size (a numpy integer is refused)."""
    if d is None:
        return -1
    if isinstance(d, bool) or not isinstance(d, int):
        raise ValueError(f"paddle.static.InputSpec: shape[{i}] must be an int or None, but received "
                         f"{type(d).__name__} {d!r}")
    return -1 if d < 0 else int(d)


class InputSpec:
    """Describes an input: shape (None or -1 for unknown dims), dtype and name.

    Args:
        shape (list|tuple): the shape.
        dtype (str, optional): the dtype. Default 'float32'.
        name (str, optional): the input name.
        stop_gradient (bool, optional): whether the input stops gradient. Default False.

    Examples:
        >>> from pagaie.static import InputSpec
        >>> InputSpec([None, 784], 'float32', 'x')
        InputSpec(shape=(-1, 784), dtype=paddle.float32, name=x, stop_gradient=False)
    """

    def __init__(self, shape: Any, dtype: Any = "float32", name: str | None = None,
                 stop_gradient: bool = False) -> None:
        if not isinstance(shape, (list, tuple)):
            raise TypeError(f"paddle.static.InputSpec: shape must be a list or tuple, but received "
                            f"{type(shape).__name__}")
        self.shape = tuple(_dim(d, i) for i, d in enumerate(shape))
        # as Paddle, a numpy dtype or a name is normalised; a numpy scalar type (np.float32)
        # or a paddle dtype is kept as given (it reads as such, and compares unequal)
        if isinstance(dtype, (np.dtype, str)):
            dtype = _dt.to_dtype(dtype)
        else:
            _dt.to_dtype(dtype)  # an unknown dtype is still an error here
        self.dtype = dtype
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor: Tensor, name: str | None = None) -> "InputSpec":
        """The spec of an existing tensor."""
        if not isinstance(tensor, Tensor):  # ValueError, as Paddle
            raise ValueError(f"paddle.static.InputSpec.from_tensor: tensor must be a Tensor, but "
                             f"received {type(tensor).__name__}")
        return cls(list(tensor.shape), tensor.dtype, name or tensor.name)

    @classmethod
    def from_numpy(cls, ndarray: np.ndarray, name: str | None = None) -> "InputSpec":
        """The spec of a numpy array."""
        return cls(list(ndarray.shape), ndarray.dtype, name)

    def batch(self, batch_size: int | list) -> "InputSpec":
        """Prepend a batch dimension."""
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 1:
                raise ValueError(f"paddle.static.InputSpec.batch: batch_size must hold one element, "
                                 f"but received {list(batch_size)}")
            batch_size = batch_size[0]
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)):
            raise TypeError(f"paddle.static.InputSpec.batch: batch_size must be an int, but received "
                            f"{type(batch_size).__name__}")
        self.shape = (int(batch_size),) + self.shape
        return self

    def unbatch(self) -> "InputSpec":
        """Drop the leading dimension."""
        if not self.shape:
            raise ValueError("paddle.static.InputSpec.unbatch: the shape has no dimension to remove")
        self.shape = self.shape[1:]
        return self

    def __repr__(self) -> str:
        return (f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, "
                f"stop_gradient={self.stop_gradient})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InputSpec) and (self.shape, self.dtype, self.name,
                                                 self.stop_gradient) == \
            (other.shape, other.dtype, other.name, other.stop_gradient)

    def __hash__(self) -> int:
        return hash((self.shape, str(self.dtype), self.stop_gradient))  # not the name, as Paddle
