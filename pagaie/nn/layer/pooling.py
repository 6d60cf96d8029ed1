"""Pooling layers: each a thin shell over one ``paddle.nn.functional`` pooling op.

The constructor takes the functional op's options (same names and defaults); ``forward``
calls the op. ``MaxUnPool*`` take the pooling mask in ``forward(x, indices)``.
"""
from __future__ import annotations

from typing import Any

from pagaie._ops import nn_pool as _f
from pagaie.nn.layer.layers import Layer, attr_alias, kw_alias

__all__ = ["MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D", "LPPool1D", "LPPool2D", "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool1D", "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "FractionalMaxPool2D", "FractionalMaxPool3D",
           "MaxUnPool1D", "MaxUnPool2D", "MaxUnPool3D", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d"]


def _repr(options: dict) -> str:
    if "norm_type" in options:
        return (f"norm_type={float(options['norm_type'])}, kernel_size={options['kernel_size']}, "
                f"stride={options['stride']}, padding={options['padding']}")
    keys = [k for k in ("kernel_size", "stride", "padding") if k in options]
    if not keys or "random_u" in options:
        keys = ["output_size"] + (["return_mask"] if "return_mask" in options else [])
    return ", ".join(f"{k}={options[k]}" for k in keys)


# Paddle's attribute names for the options (``layer.ksize``, ``layer.divisor``...): the
# N-D pools keep them public, the 2-D/3-D adaptive and fractional pools private.
_PUBLIC_ND = {"kernel_size": "ksize", "divisor_override": "divisor"}
_PUBLIC_1D = {"kernel_size": "kernel_size"}
_PRIVATE = {}


class _Pool(Layer):
    """Keeps each option as an attribute under Paddle's name; ``forward`` applies the op
    with the current attribute values."""

    _fn: Any = None
    _attr_names: dict | None = _PUBLIC_ND  # option -> attribute; None: "_" + option

    def __init__(self, **options: Any) -> None:
        super().__init__()
        names = type(self)._attr_names
        self._option_attrs = {}
        for key, value in options.items():
            attr = "_" + key if names is None else names.get(key, key)
            object.__setattr__(self, attr, value)
            if key != "name":
                self._option_attrs[key] = attr

    def _options_now(self) -> dict:
        return {key: getattr(self, attr) for key, attr in self._option_attrs.items()}

    @kw_alias("x", "input")
    def forward(self, x: Any) -> Any:
        return type(self)._fn(x, **self._options_now())

    def extra_repr(self) -> str:
        return _repr(self._options_now())



class MaxPool1D(_Pool):
    """1-D max pooling layer: :func:`paddle.nn.functional.max_pool1d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.max_pool1d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.MaxPool1D(2)
        >>> pool(paddle.rand([1, 3, 8])).shape
        paddle.Size([1, 3, 4])
    """

    _fn = _f.max_pool1d
    _attr_names = _PUBLIC_1D

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: Any = False, ceil_mode: Any = False, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask, ceil_mode=ceil_mode, name=name)


class MaxPool2D(_Pool):
    """2-D max pooling layer: :func:`paddle.nn.functional.max_pool2d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.max_pool2d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.MaxPool2D(2)
        >>> pool(paddle.rand([1, 3, 8, 8])).shape
        paddle.Size([1, 3, 4, 4])
    """

    _fn = _f.max_pool2d

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: Any = False, ceil_mode: Any = False, data_format: Any = "NCHW", name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask, ceil_mode=ceil_mode, data_format=data_format, name=name)


class MaxPool3D(_Pool):
    """3-D max pooling layer: :func:`paddle.nn.functional.max_pool3d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.max_pool3d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.MaxPool3D(2)
        >>> pool(paddle.rand([1, 3, 4, 4, 4])).shape
        paddle.Size([1, 3, 2, 2, 2])
    """

    _fn = _f.max_pool3d

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: Any = False, ceil_mode: Any = False, data_format: Any = "NCDHW", name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, return_mask=return_mask, ceil_mode=ceil_mode, data_format=data_format, name=name)


class AvgPool1D(_Pool):
    """1-D average pooling layer: :func:`paddle.nn.functional.avg_pool1d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.avg_pool1d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AvgPool1D(2)
        >>> pool(paddle.rand([1, 3, 8])).shape
        paddle.Size([1, 3, 4])
    """

    _fn = _f.avg_pool1d
    _attr_names = _PUBLIC_1D

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, exclusive: Any = True, ceil_mode: Any = False, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, exclusive=exclusive, ceil_mode=ceil_mode, name=name)


class AvgPool2D(_Pool):
    """2-D average pooling layer: :func:`paddle.nn.functional.avg_pool2d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.avg_pool2d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AvgPool2D(2)
        >>> pool(paddle.rand([1, 3, 8, 8])).shape
        paddle.Size([1, 3, 4, 4])
    """

    _fn = _f.avg_pool2d

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: Any = False, exclusive: Any = True, divisor_override: Any = None, data_format: Any = "NCHW", name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode, exclusive=exclusive, divisor_override=divisor_override, data_format=data_format, name=name)


class AvgPool3D(_Pool):
    """3-D average pooling layer: :func:`paddle.nn.functional.avg_pool3d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.avg_pool3d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AvgPool3D(2)
        >>> pool(paddle.rand([1, 3, 4, 4, 4])).shape
        paddle.Size([1, 3, 2, 2, 2])
    """

    _fn = _f.avg_pool3d

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: Any = False, exclusive: Any = True, divisor_override: Any = None, data_format: Any = "NCDHW", name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode, exclusive=exclusive, divisor_override=divisor_override, data_format=data_format, name=name)


class LPPool1D(_Pool):
    """1-D power-average pooling layer: :func:`paddle.nn.functional.lp_pool1d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.lp_pool1d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.LPPool1D(2, 2)
        >>> pool(paddle.rand([1, 3, 8])).shape
        paddle.Size([1, 3, 4])
    """

    _fn = _f.lp_pool1d
    _attr_names = _PUBLIC_1D

    def __init__(self, norm_type: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: Any = False, data_format: Any = "NCL", name: str | None = None) -> None:
        super().__init__(norm_type=float(norm_type), kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode, data_format=data_format, name=name)


class LPPool2D(_Pool):
    """2-D power-average pooling layer: :func:`paddle.nn.functional.lp_pool2d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.lp_pool2d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.LPPool2D(2, 2)
        >>> pool(paddle.rand([1, 3, 8, 8])).shape
        paddle.Size([1, 3, 4, 4])
    """

    _fn = _f.lp_pool2d

    def __init__(self, norm_type: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: Any = False, data_format: Any = "NCHW", name: str | None = None) -> None:
        # Paddle's LPPool2D stores (and shows) the effective stride; LPPool1D keeps None
        stride = kernel_size if stride is None else stride
        super().__init__(norm_type=float(norm_type), kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode, data_format=data_format, name=name)


class AdaptiveAvgPool1D(_Pool):
    """1-D adaptive average pooling layer: :func:`paddle.nn.functional.adaptive_avg_pool1d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.adaptive_avg_pool1d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AdaptiveAvgPool1D(2)
        >>> pool(paddle.rand([1, 3, 8])).shape
        paddle.Size([1, 3, 2])
    """

    _fn = _f.adaptive_avg_pool1d
    _attr_names = _PUBLIC_1D

    def __init__(self, output_size: Any, name: str | None = None) -> None:
        super().__init__(output_size=output_size, name=name)


class AdaptiveAvgPool2D(_Pool):
    """2-D adaptive average pooling layer: :func:`paddle.nn.functional.adaptive_avg_pool2d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.adaptive_avg_pool2d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AdaptiveAvgPool2D(2)
        >>> pool(paddle.rand([1, 3, 8, 8])).shape
        paddle.Size([1, 3, 2, 2])
    """

    _fn = _f.adaptive_avg_pool2d
    _attr_names = None
    output_size = attr_alias("_output_size")

    def __init__(self, output_size: Any, data_format: Any = "NCHW", name: str | None = None) -> None:
        super().__init__(output_size=output_size, data_format=data_format, name=name)


class AdaptiveAvgPool3D(_Pool):
    """3-D adaptive average pooling layer: :func:`paddle.nn.functional.adaptive_avg_pool3d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.adaptive_avg_pool3d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AdaptiveAvgPool3D(2)
        >>> pool(paddle.rand([1, 3, 4, 4, 4])).shape
        paddle.Size([1, 3, 2, 2, 2])
    """

    _fn = _f.adaptive_avg_pool3d
    _attr_names = None
    output_size = attr_alias("_output_size")

    def __init__(self, output_size: Any, data_format: Any = "NCDHW", name: str | None = None) -> None:
        super().__init__(output_size=output_size, data_format=data_format, name=name)


class AdaptiveMaxPool1D(_Pool):
    """1-D adaptive max pooling layer: :func:`paddle.nn.functional.adaptive_max_pool1d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.adaptive_max_pool1d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AdaptiveMaxPool1D(2)
        >>> pool(paddle.rand([1, 3, 8])).shape
        paddle.Size([1, 3, 2])
    """

    _fn = _f.adaptive_max_pool1d
    _attr_names = _PUBLIC_1D
    return_indices = attr_alias("return_mask")

    @kw_alias("return_mask", "return_indices")
    def __init__(self, output_size: Any, return_mask: Any = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask, name=name)


class AdaptiveMaxPool2D(_Pool):
    """2-D adaptive max pooling layer: :func:`paddle.nn.functional.adaptive_max_pool2d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.adaptive_max_pool2d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AdaptiveMaxPool2D(2)
        >>> pool(paddle.rand([1, 3, 8, 8])).shape
        paddle.Size([1, 3, 2, 2])
    """

    _fn = _f.adaptive_max_pool2d
    _attr_names = None
    return_indices = attr_alias("_return_mask")

    @kw_alias("return_mask", "return_indices")
    def __init__(self, output_size: Any, return_mask: Any = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask, name=name)


class AdaptiveMaxPool3D(_Pool):
    """3-D adaptive max pooling layer: :func:`paddle.nn.functional.adaptive_max_pool3d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.adaptive_max_pool3d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.AdaptiveMaxPool3D(2)
        >>> pool(paddle.rand([1, 3, 4, 4, 4])).shape
        paddle.Size([1, 3, 2, 2, 2])
    """

    _fn = _f.adaptive_max_pool3d
    _attr_names = None
    return_indices = attr_alias("_return_mask")

    @kw_alias("return_mask", "return_indices")
    def __init__(self, output_size: Any, return_mask: Any = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, return_mask=return_mask, name=name)


class FractionalMaxPool2D(_Pool):
    """2-D fractional max pooling layer: :func:`paddle.nn.functional.fractional_max_pool2d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.fractional_max_pool2d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.FractionalMaxPool2D(4, random_u=0.3)
        >>> pool(paddle.rand([1, 3, 9, 9])).shape
        paddle.Size([1, 3, 4, 4])
    """

    _fn = _f.fractional_max_pool2d
    _attr_names = None

    def __init__(self, output_size: Any, kernel_size: Any = None, random_u: Any = None, return_mask: Any = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, kernel_size=kernel_size, random_u=random_u, return_mask=return_mask, name=name)


class FractionalMaxPool3D(_Pool):
    """3-D fractional max pooling layer: :func:`paddle.nn.functional.fractional_max_pool3d` with fixed options.

    Args: the options of :func:`paddle.nn.functional.fractional_max_pool3d` (same names and defaults).

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.nn.FractionalMaxPool3D(3, random_u=0.3)
        >>> pool(paddle.rand([1, 3, 6, 6, 6])).shape
        paddle.Size([1, 3, 3, 3, 3])
    """

    _fn = _f.fractional_max_pool3d
    _attr_names = None

    def __init__(self, output_size: Any, kernel_size: Any = None, random_u: Any = None, return_mask: Any = False, name: str | None = None) -> None:
        super().__init__(output_size=output_size, kernel_size=kernel_size, random_u=random_u, return_mask=return_mask, name=name)


class _Unpool(_Pool):
    """``forward(x, indices)``: the mask of a max pool comes with the input."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 data_format: str = "NCHW", output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         data_format=data_format, output_size=output_size, name=name)

    @kw_alias("x", "input")
    def forward(self, x: Any, indices: Any) -> Any:
        return type(self)._fn(x, indices, **self._options_now())

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class MaxUnPool1D(_Unpool):
    """1-D max-unpooling layer: :func:`paddle.nn.functional.max_unpool1d`; call it as
    ``layer(x, indices)`` with the mask of a max pool.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.rand([1, 1, 4])
        >>> out, mask = paddle.nn.functional.max_pool1d(x, 2, return_mask=True)
        >>> paddle.nn.MaxUnPool1D(2)(out, mask).shape
        paddle.Size([1, 1, 4])
    """

    _fn = _f.max_unpool1d

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 data_format: str = "NCL", output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


class MaxUnPool2D(_Unpool):
    """2-D max-unpooling layer: :func:`paddle.nn.functional.max_unpool2d`; call it as
    ``layer(x, indices)`` with the mask of a max pool.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.rand([1, 1, 4, 4])
        >>> out, mask = paddle.nn.functional.max_pool2d(x, 2, return_mask=True)
        >>> paddle.nn.MaxUnPool2D(2)(out, mask).shape
        paddle.Size([1, 1, 4, 4])
    """

    _fn = _f.max_unpool2d

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 data_format: str = "NCHW", output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


class MaxUnPool3D(_Unpool):
    """3-D max-unpooling layer: :func:`paddle.nn.functional.max_unpool3d`; call it as
    ``layer(x, indices)`` with the mask of a max pool.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.rand([1, 1, 4, 4, 4])
        >>> out, mask = paddle.nn.functional.max_pool3d(x, 2, return_mask=True)
        >>> paddle.nn.MaxUnPool3D(2)(out, mask).shape
        paddle.Size([1, 1, 4, 4, 4])
    """

    _fn = _f.max_unpool3d

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 data_format: str = "NCDHW", output_size: Any = None, name: str | None = None) -> None:
        super().__init__(kernel_size, stride, padding, data_format, output_size, name)


AdaptiveMaxPool1d = AdaptiveMaxPool1D
AdaptiveMaxPool2d = AdaptiveMaxPool2D
AdaptiveMaxPool3d = AdaptiveMaxPool3D
LPPool1d = LPPool1D
LPPool2d = LPPool2D
