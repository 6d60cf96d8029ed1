"""``paddle.compat.nn`` layers with PyTorch's arguments: ``Linear``, ``Unfold`` and the
average pools ``AvgPool1D/2D/3D`` (also spelled ``AvgPool1d/2d/3d``).

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.compat.nn import layers
    >>> layers.Linear(3, 2).weight.shape
    paddle.Size([2, 3])
"""
from __future__ import annotations

import math
from typing import Any

from pagaie.compat._keywords import forbid_keywords
from pagaie.compat.nn import functional
from pagaie.nn.layer.common import Unfold as _PaddleUnfold
from pagaie.nn.layer.layers import Layer

__all__ = ["Linear", "Unfold", "AvgPool1D", "AvgPool2D", "AvgPool3D", "AvgPool1d", "AvgPool2d",
           "AvgPool3d"]


def _tuple(v: Any, n: int) -> tuple:
    if isinstance(v, (list, tuple)):
        return tuple(v)
    return (v,) * n


class Linear(Layer):
    """``y = x @ weight.T + bias`` with PyTorch's weight layout ``[out_features, in_features]``
    and initialisation: weight and bias uniform in ``±1/sqrt(in_features)``.

    Args:
        in_features (int): size of each input sample.
        out_features (int): size of each output sample.
        bias (bool, optional): learn an additive bias. Default True.
        device (str|Place, optional): where the parameters live.
        dtype (str|paddle.dtype, optional): parameter dtype; the default dtype when None.

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.compat.nn.Linear(3, 2, bias=False)
        >>> layer(paddle.ones([4, 3])).shape, layer.bias
        (paddle.Size([4, 2]), None)
    """

    @forbid_keywords({"weight_attr", "bias_attr", "name"}, "paddle.compat.nn.Linear",
                     "paddle.nn.Linear")
    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        import pagaie
        self._dtype = pagaie.get_default_dtype() if dtype is None else dtype
        self.in_features = in_features
        self.out_features = out_features
        self.weight = self.create_parameter([out_features, in_features], dtype=self._dtype,
                                            device=device)
        self.bias = None
        if bias:
            self.bias = self.create_parameter([out_features], dtype=self._dtype, is_bias=True,
                                              device=device)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw the parameters again from ``U(-1/sqrt(in_features), 1/sqrt(in_features))``."""
        from pagaie.nn import init
        bound = 1 / math.sqrt(self.in_features) if self.in_features > 0 else 0.0
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Any) -> Any:
        return functional.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Unfold(_PaddleUnfold):
    """:class:`paddle.nn.Unfold` with PyTorch's argument names and order.

    Args:
        kernel_size (int|list[int]): block size.
        dilation (int|list[int], optional): spacing inside a block. Default 1.
        padding (int|list[int], optional): zero padding. Default 0.
        stride (int|list[int], optional): step between blocks. Default 1.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.compat.nn.Unfold(2)(paddle.ones([1, 1, 3, 3])).shape
        paddle.Size([1, 4, 4])
    """

    @forbid_keywords({"kernel_sizes", "dilations", "paddings", "strides"},
                     "paddle.compat.nn.Unfold", "paddle.nn.Unfold")
    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__(kernel_size, dilation, padding, stride)

    def forward(self, input: Any) -> Any:
        return functional.unfold(input, self.kernel_sizes, self.dilations, self.paddings,
                                 self.strides)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
                f"padding={self.paddings}, stride={self.strides}")


class _AvgPool(Layer):
    _n = 0

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AvgPoolND(_AvgPool):
    """The 2-D and 3-D layers: Paddle's functional pooling with PyTorch's argument meanings."""
    _functional = ""

    def forward(self, input: Any) -> Any:
        from pagaie.nn import functional as F
        return getattr(F, self._functional)(input, self.kernel_size, self.stride, self.padding,
                                            self.ceil_mode, not self.count_include_pad,
                                            self.divisor_override)


class AvgPool1D(_AvgPool):
    """1-D average pooling of ``[N, C, L]`` inputs with PyTorch's arguments.

    Args:
        kernel_size (int|tuple[int]): window size.
        stride (int|tuple[int], optional): window step; ``kernel_size`` when None.
        padding (int|tuple[int], optional): zero padding on both sides. Default 0.
        ceil_mode (bool, optional): round the output size up. Default False.
        count_include_pad (bool, optional): count padded zeros in the average. Default True.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(6, dtype='float32').reshape([1, 1, 6])
        >>> paddle.compat.nn.AvgPool1D(2)(x).tolist()
        [[[0.5, 2.5, 4.5]]]
    """

    @forbid_keywords({"exclusive", "name"}, "paddle.compat.nn.AvgPool1D", "paddle.nn.AvgPool1D")
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        super().__init__(_tuple(kernel_size, 1), _tuple(kernel_size if stride is None else stride,
                                                        1), _tuple(padding, 1), ceil_mode,
                         count_include_pad)

    def forward(self, input: Any) -> Any:
        from pagaie.nn.functional import avg_pool1d
        return avg_pool1d(input, self.kernel_size, self.stride, self.padding,
                          not self.count_include_pad, self.ceil_mode)


class AvgPool2D(_AvgPoolND):
    """2-D average pooling of ``[N, C, H, W]`` inputs with PyTorch's arguments.

    Args:
        kernel_size (int|tuple[int, int]): window size.
        stride (int|tuple[int, int], optional): window step; ``kernel_size`` when None.
        padding (int|tuple[int, int], optional): zero padding. Default 0.
        ceil_mode (bool, optional): round the output size up. Default False.
        count_include_pad (bool, optional): count padded zeros in the average. Default True.
        divisor_override (int, optional): divide every window sum by this instead.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.compat.nn.AvgPool2D(2)(paddle.ones([1, 1, 4, 4])).shape
        paddle.Size([1, 1, 2, 2])
    """

    _functional = "avg_pool2d"

    @forbid_keywords({"exclusive", "data_format", "name"}, "paddle.compat.nn.AvgPool2D",
                     "paddle.nn.AvgPool2D")
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad,
                         divisor_override)



class AvgPool3D(_AvgPoolND):
    """3-D average pooling of ``[N, C, D, H, W]`` inputs with PyTorch's arguments.

    Args:
        kernel_size (int|tuple[int, int, int]): window size.
        stride (int|tuple[int, int, int], optional): window step; ``kernel_size`` when None.
        padding (int|tuple[int, int, int], optional): zero padding. Default 0.
        ceil_mode (bool, optional): round the output size up. Default False.
        count_include_pad (bool, optional): count padded zeros in the average. Default True.
        divisor_override (int, optional): divide every window sum by this instead.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.compat.nn.AvgPool3D(2)(paddle.ones([1, 1, 2, 4, 4])).shape
        paddle.Size([1, 1, 1, 2, 2])
    """

    _functional = "avg_pool3d"

    @forbid_keywords({"exclusive", "data_format", "name"}, "paddle.compat.nn.AvgPool3D",
                     "paddle.nn.AvgPool3D")
    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad,
                         divisor_override)



AvgPool1d = AvgPool1D
AvgPool2d = AvgPool2D
AvgPool3d = AvgPool3D
