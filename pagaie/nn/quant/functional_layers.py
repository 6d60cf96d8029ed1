"""Functional ops wrapped as Layers (``paddle.nn.quant.functional_layers``).

A model that calls ``self.add(x, y)`` instead of ``x + y`` exposes the op as a sublayer,
so quantization passes can find it and insert observers around it. Each layer's
``forward`` is the functional op with the same arguments.
"""
from __future__ import annotations

from typing import Any, Sequence

import pagaie
from pagaie.nn import Layer

__all__: list[str] = []


class FloatFunctionalLayer(Layer):
    """Base class of the functional layers: a Layer with no parameters.

    Examples:
        >>> from pagaie.nn.quant import FloatFunctionalLayer, add
        >>> isinstance(add(), FloatFunctionalLayer)
        True
    """

    def __init__(self) -> None:
        super().__init__()


class add(FloatFunctionalLayer):  # noqa: N801  (Paddle's name)
    """``paddle.add`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import add
        >>> add()(paddle.to_tensor([1.0]), paddle.to_tensor([2.0])).tolist()
        [3.0]
    """

    def forward(self, x: Any, y: Any, name: str | None = None) -> Any:
        """``x + y``."""
        return pagaie.add(x, y, name=name)


class subtract(FloatFunctionalLayer):  # noqa: N801
    """``paddle.subtract`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import subtract
        >>> subtract()(paddle.to_tensor([1.0]), paddle.to_tensor([2.0])).tolist()
        [-1.0]
    """

    def forward(self, x: Any, y: Any, name: str | None = None) -> Any:
        """``x - y``."""
        return pagaie.subtract(x, y, name=name)


class multiply(FloatFunctionalLayer):  # noqa: N801
    """``paddle.multiply`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import multiply
        >>> multiply()(paddle.to_tensor([3.0]), paddle.to_tensor([2.0])).tolist()
        [6.0]
    """

    def forward(self, x: Any, y: Any, name: str | None = None) -> Any:
        """``x * y``."""
        return pagaie.multiply(x, y, name=name)


class divide(FloatFunctionalLayer):  # noqa: N801
    """``paddle.divide`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import divide
        >>> divide()(paddle.to_tensor([3.0]), paddle.to_tensor([2.0])).tolist()
        [1.5]
    """

    def forward(self, x: Any, y: Any, name: str | None = None) -> Any:
        """``x / y``."""
        return pagaie.divide(x, y, name=name)


class reshape(FloatFunctionalLayer):  # noqa: N801
    """``paddle.reshape`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import reshape
        >>> reshape()(paddle.ones([2, 3]), [3, 2]).shape
        paddle.Size([3, 2])
    """

    def forward(self, x: Any, shape: Any, name: str | None = None) -> Any:
        """``x`` with a new shape."""
        return pagaie.reshape(x, shape, name=name)


class transpose(FloatFunctionalLayer):  # noqa: N801
    """``paddle.transpose`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import transpose
        >>> transpose()(paddle.ones([2, 3]), [1, 0]).shape
        paddle.Size([3, 2])
    """

    def forward(self, x: Any, perm: Sequence[int], name: str | None = None) -> Any:
        """``x`` with its axes permuted by ``perm``."""
        return pagaie.transpose(x, perm, name=name)


class concat(FloatFunctionalLayer):  # noqa: N801
    """``paddle.concat`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import concat
        >>> concat()([paddle.ones([1, 2]), paddle.zeros([1, 2])], axis=0).shape
        paddle.Size([2, 2])
    """

    def forward(self, x: Any, axis: int = 0, name: str | None = None) -> Any:
        """The tensors of ``x`` joined along ``axis``."""
        return pagaie.concat(x, axis, name=name)


class flatten(FloatFunctionalLayer):  # noqa: N801
    """``paddle.flatten`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import flatten
        >>> flatten()(paddle.ones([2, 3, 4]), 1).shape
        paddle.Size([2, 12])
    """

    def forward(self, x: Any, start_axis: int = 0, stop_axis: int = -1, name: str | None = None) -> Any:
        """``x`` with axes ``start_axis..stop_axis`` merged."""
        return pagaie.flatten(x, start_axis, stop_axis, name=name)


class matmul(FloatFunctionalLayer):  # noqa: N801
    """``paddle.matmul`` as a Layer.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import matmul
        >>> matmul()(paddle.ones([2, 3]), paddle.ones([2, 3]), transpose_y=True).tolist()
        [[3.0, 3.0], [3.0, 3.0]]
    """

    def forward(self, x: Any, y: Any, transpose_x: bool = False, transpose_y: bool = False,
                name: str | None = None) -> Any:
        """The matrix product of ``x`` and ``y`` (optionally transposed)."""
        return pagaie.matmul(x, y, transpose_x, transpose_y, name=name)
