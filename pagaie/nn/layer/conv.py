"""Convolution layers: Conv1D/2D/3D and their transposes (plus the ``Conv*d`` aliases).

Weights use Paddle's layouts: ``[out, in / groups, *kernel]`` for a convolution and
``[in, out / groups, *kernel]`` for a transposed one. A convolution's default weight
initializer is ``Normal(0, sqrt(2 / (in_channels * prod(kernel))))``; a transposed one's is
Xavier-uniform; biases start at zero.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from pagaie._ops import nn_conv as _f
from pagaie._ops._nn_helpers import ntuple
from pagaie.nn.layer.layers import Layer

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose",
           "Conv1d", "Conv2d", "Conv3d"]

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}
# Paddle's convolution layers take the format of any rank; a 2-D or 3-D convolution then
# reads a channels-first one as its own (a Conv2D made with 'NCL' computes as 'NCHW')
_ANY_FORMAT = ("NCL", "NLC", "NCHW", "NHWC", "NCDHW", "NDHWC")
_PAD_MODES = ("zeros", "reflect", "replicate", "circular")


def _int_list(value: Any, n: int, api: str, name: str) -> list:
    """``value`` (an int or ``n`` ints) as a list of ``n`` ints; ValueError otherwise, as Paddle."""
    if isinstance(value, int):
        return [value] * n
    try:
        values = list(value)
    except TypeError:
        raise ValueError(f"paddle.{api}: {name} must be an int or a list/tuple of {n} ints, "
                         f"but received {value!r}") from None
    if len(values) != n:
        raise ValueError(f"paddle.{api}: {name} must have {n} values, but received {value!r}")
    try:
        return [int(v) for v in values]
    except (TypeError, ValueError):
        raise ValueError(f"paddle.{api}: {name} must hold ints, but received {value!r}") from None


def _check_padding(padding: Any, n: int, api: str) -> None:
    """Paddle's construction-time checks of an N-D (N > 1) convolution's padding."""
    if isinstance(padding, str):
        if padding.upper() not in ("SAME", "VALID"):
            raise ValueError(f"paddle.{api}: padding must be 'SAME' or 'VALID' when it is a "
                             f"string, but received {padding!r}")
        return
    if isinstance(padding, (list, tuple)):
        if padding and isinstance(padding[0], (list, tuple)):
            return    # [[before, after], ...] pairs: checked by the op
        if len(padding) not in (n, 2 * n) or not all(isinstance(p, int) for p in padding):
            raise ValueError(f"paddle.{api}: padding must hold {n} or {2 * n} ints, but "
                             f"received {padding!r}")
        values = list(padding)
    elif isinstance(padding, int):
        values = [padding]
    else:   # a float, None...
        raise ValueError(f"paddle.{api}: padding must be an int, a list/tuple or a string, but "
                         f"received {padding!r}")
    if any(p < 0 for p in values):
        raise ValueError(f"paddle.{api}: padding must not be negative, but received {padding!r}")


class _ConvNd(Layer):
    _n = 2
    _transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros",
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str | None = None,
                 output_padding: Any = 0, bias: bool = True, dtype: Any = None) -> None:
        super().__init__()
        n = self._n
        api = f"nn.{type(self).__name__}"
        # Paddle's checks, in Paddle's order
        if weight_attr is False:   # Paddle asserts this
            raise AssertionError(f"paddle.{api}: weight_attr should not be False in Conv")
        if padding_mode not in _PAD_MODES:
            raise ValueError(f"paddle.{api}: padding_mode must be one of {list(_PAD_MODES)}, but got "
                             f"padding_mode='{padding_mode}'")
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError(f"paddle.{api}: when padding_mode is one of ['reflect', 'replicate', "
                            f"'circular'], padding must be an int, but received {padding!r}")
        if data_format not in _ANY_FORMAT:   # None too: each layer passes its default
            raise ValueError(f"paddle.{api}: data_format must be one of {_ANY_FORMAT}, but "
                             f"received {data_format}")
        self._stride = _int_list(stride, n, api, "stride")
        self._dilation = _int_list(dilation, n, api, "dilation")
        self._kernel_size = _int_list(kernel_size, n, api, "kernel_size")
        if n != 1:
            _check_padding(padding, n, api)
        # As Paddle: a convolution checks in_channels % groups here, a transposed one
        # nothing; other channel/groups mismatches surface in forward (ValueError), and
        # a negative groups makes a negative weight dimension (AssertionError).
        if groups == 0:
            raise ValueError(f"paddle.{api}: groups must not be 0, but received {groups}")
        if not self._transposed and in_channels % groups:
            raise ValueError(f"paddle.{api}: in_channels ({in_channels}) must be divisible by "
                             f"groups ({groups})")
        if isinstance(kernel_size, (list, tuple)) and not all(
                isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in kernel_size):
            # Paddle makes the weight's shape from the list as given: a float or a bool there is
            # its TypeError
            raise TypeError(f"paddle.{api}: kernel_size must hold ints, but received "
                            f"{kernel_size!r}")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._param_attr, self._bias_attr = weight_attr, False if bias is False else bias_attr
        self._channel_dim = len(data_format) - 1 if data_format[-1] == "C" else 1
        self._padding = padding
        self._groups = groups
        self._padding_mode = padding_mode
        self.output_padding = output_padding
        self._data_format = data_format
        self._op_format = (_FORMATS[n][0] if n > 1 and data_format in ("NCL", "NCHW", "NCDHW")
                           else data_format)
        # the dtype asked for (None: the global default, read when the parameters are made)
        self._dtype = dtype
        if self._transposed:
            shape = [in_channels, out_channels // groups] + self._kernel_size
            init = None
        else:
            shape = [out_channels, in_channels // groups] + self._kernel_size
            from pagaie.nn.initializer import Normal
            init = Normal(0.0, math.sqrt(2.0 / max(in_channels * math.prod(self._kernel_size), 1)))
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=dtype,
                                            default_initializer=init)
        self.bias = self.create_parameter([out_channels], attr=self._bias_attr, dtype=dtype,
                                          is_bias=True)

    def _padded_input(self, x: Any) -> tuple[Any, Any]:
        if self._padding_mode == "zeros":
            return x, self._padding
        from pagaie.nn.functional import pad
        p = self._padding
        return pad(x, [p] * (2 * self._n), mode=self._padding_mode,
                   data_format=self._data_format), 0

    def extra_repr(self) -> str:
        n = self._n
        stride = ntuple(self._stride, n, "nn.Conv", "stride")
        dilation = ntuple(self._dilation, n, "nn.Conv", "dilation")
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if stride != [1] * n:
            s += f", stride={stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if dilation != [1] * n:
            s += f", dilation={dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


_CONV_FN = {1: _f.conv1d, 2: _f.conv2d, 3: _f.conv3d}
_CONV_T_FN = {1: _f.conv1d_transpose, 2: _f.conv2d_transpose, 3: _f.conv3d_transpose}


class _Conv(_ConvNd):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str | None = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         padding_mode, weight_attr, bias_attr, data_format, bias=bias, dtype=dtype)

    def forward(self, x: Any = None, *, input: Any = None) -> Any:  # noqa: A002 (torch's name)
        x = input if x is None else x
        x, padding = self._padded_input(x)
        return _CONV_FN[self._n](x, self.weight, self.bias, self._stride, padding, self._dilation,
                                 self._groups, self._op_format)


class Conv1D(_Conv):
    """1-D convolution layer over ``[N, C, L]`` (or ``[N, L, C]``) inputs.

    Args:
        in_channels (int): input channels.
        out_channels (int): output channels.
        kernel_size (int|list): the kernel size.
        stride (int|list): the stride.
        padding (int|list|str): as in :func:`paddle.nn.functional.conv1d`.
        dilation (int|list): the dilation.
        groups (int): channel groups.
        bias (bool): whether to add a bias.
        padding_mode (str): ``'zeros'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
        device: unused.
        dtype (str, optional): the parameter dtype.
        weight_attr (ParamAttr, optional): weight attributes.
        bias_attr (ParamAttr|bool, optional): bias attributes; False: no bias.
        data_format (str): ``'NCL'`` or ``'NLC'``.

    Examples:
        >>> import pagaie as paddle
        >>> conv = paddle.nn.Conv1D(2, 4, 3, padding=1)
        >>> conv.weight.shape, conv(paddle.ones([1, 2, 5])).shape
        (paddle.Size([4, 2, 3]), paddle.Size([1, 4, 5]))
    """

    _n = 1

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, *, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCL") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         bias, padding_mode, device, dtype, weight_attr, bias_attr, data_format)


class Conv2D(_Conv):
    """2-D convolution layer over ``[N, C, H, W]`` (or ``[N, H, W, C]``) inputs.

    Args: as :class:`Conv1D`, with ``data_format`` ``'NCHW'`` or ``'NHWC'``.

    Examples:
        >>> import pagaie as paddle
        >>> conv = paddle.nn.Conv2D(3, 8, 3, stride=2, padding=1)
        >>> conv.weight.shape, conv(paddle.ones([1, 3, 8, 8])).shape
        (paddle.Size([8, 3, 3, 3]), paddle.Size([1, 8, 4, 4]))
    """

    _n = 2

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, *, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         bias, padding_mode, device, dtype, weight_attr, bias_attr, data_format)


class Conv3D(_Conv):
    """3-D convolution layer over ``[N, C, D, H, W]`` (or ``[N, D, H, W, C]``) inputs.

    Args: as :class:`Conv1D`, with ``data_format`` ``'NCDHW'`` or ``'NDHWC'``.

    Examples:
        >>> import pagaie as paddle
        >>> conv = paddle.nn.Conv3D(2, 4, 2)
        >>> conv(paddle.ones([1, 2, 3, 3, 3])).shape
        paddle.Size([1, 4, 2, 2, 2])
    """

    _n = 3

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, *, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCDHW") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         bias, padding_mode, device, dtype, weight_attr, bias_attr, data_format)


class _ConvT(_ConvNd):
    _transposed = True

    def forward(self, x: Any, output_size: Any = None) -> Any:
        # Paddle's 2-D/3-D layers drop output_padding when output_size is given
        output_padding = self.output_padding if output_size is None or self._n == 1 else 0
        return _CONV_T_FN[self._n](x, self.weight, self.bias, stride=self._stride,
                                   padding=self._padding, output_padding=output_padding,
                                   groups=self._groups, dilation=self._dilation,
                                   output_size=output_size, data_format=self._data_format)


class Conv1DTranspose(_ConvT):
    """1-D transposed convolution layer; weight ``[in_channels, out_channels / groups, k]``.

    Args:
        in_channels (int): input channels.
        out_channels (int): output channels.
        kernel_size (int|list): the kernel size.
        stride (int|list): the stride.
        padding (int|list|str): the padding.
        output_padding (int|list): extra output size at the end.
        groups (int): channel groups.
        dilation (int|list): the dilation.
        weight_attr (ParamAttr, optional): weight attributes.
        bias_attr (ParamAttr|bool, optional): bias attributes; False: no bias.
        data_format (str): ``'NCL'`` or ``'NLC'``.

    Examples:
        >>> import pagaie as paddle
        >>> conv = paddle.nn.Conv1DTranspose(2, 4, 3, stride=2)
        >>> conv.weight.shape, conv(paddle.ones([1, 2, 5])).shape
        (paddle.Size([2, 4, 3]), paddle.Size([1, 4, 11]))
    """

    _n = 1

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCL") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         "zeros", weight_attr, bias_attr, data_format, output_padding)


class Conv2DTranspose(_ConvT):
    """2-D transposed convolution layer; weight ``[in_channels, out_channels / groups, kh, kw]``.

    Args: as :class:`Conv1DTranspose`, with ``data_format`` ``'NCHW'`` or ``'NHWC'``;
    ``forward(x, output_size=None)``.

    Examples:
        >>> import pagaie as paddle
        >>> conv = paddle.nn.Conv2DTranspose(4, 2, 3, stride=2, padding=1)
        >>> conv(paddle.ones([1, 4, 5, 5])).shape
        paddle.Size([1, 2, 9, 9])
    """

    _n = 2

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         "zeros", weight_attr, bias_attr, data_format, output_padding)


class Conv3DTranspose(_ConvT):
    """3-D transposed convolution layer.

    Args: as :class:`Conv1DTranspose`, with ``data_format`` ``'NCDHW'`` or ``'NDHWC'``.

    Examples:
        >>> import pagaie as paddle
        >>> conv = paddle.nn.Conv3DTranspose(2, 2, 2)
        >>> conv(paddle.ones([1, 2, 2, 2, 2])).shape
        paddle.Size([1, 2, 3, 3, 3])
    """

    _n = 3

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCDHW") -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                         "zeros", weight_attr, bias_attr, data_format, output_padding)


Conv1d = Conv1D
Conv2d = Conv2D
Conv3d = Conv3D
