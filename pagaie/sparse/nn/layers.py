"""Layers of ``paddle.sparse.nn``: each validates its settings and calls one sparse functional op."""
from __future__ import annotations

import math
import warnings
from typing import Any

from pagaie._ops import sparse_nn as _f
from pagaie.nn.layer.layers import Layer
from pagaie.nn.layer.norm import BatchNorm1D as _DenseBatchNorm1D
from pagaie.nn.layer.norm import SyncBatchNorm as _DenseSyncBatchNorm
from pagaie.nn.layer.norm import _BatchNormBase
from pagaie.utils.layers_utils import convert_to_list

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Softmax", "BatchNorm", "SyncBatchNorm", "Conv2D",
           "Conv3D", "SubmConv2D", "SubmConv3D", "MaxPool3D"]


class _Activation(Layer):
    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self._name = name

    def extra_repr(self) -> str:
        return f"name={self._name}" if self._name else ""


class ReLU(_Activation):
    """Sparse ReLU: ``max(x, 0)`` of the stored values of a COO or CSR tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [-1.0, 2.0], [3])
        >>> paddle.sparse.nn.ReLU()(x).values().tolist()
        [0.0, 2.0]
    """

    def forward(self, x: Any) -> Any:
        return _f.sparse_relu(x)


class ReLU6(_Activation):
    """Sparse ReLU6: ``min(max(x, 0), 6)`` of the stored values.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [-1.0, 8.0], [3])
        >>> paddle.sparse.nn.ReLU6()(x).values().tolist()
        [0.0, 6.0]
    """

    def forward(self, x: Any) -> Any:
        return _f.sparse_relu6(x)


class LeakyReLU(_Activation):
    """Sparse leaky ReLU of the stored values.

    Args:
        negative_slope (float, optional): the slope for negative values. Default 0.01.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [-1.0, 2.0], [3])
        >>> paddle.sparse.nn.LeakyReLU(0.5)(x).values().tolist()
        [-0.5, 2.0]
    """

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__(name)
        self._negative_slope = negative_slope

    def forward(self, x: Any) -> Any:
        return _f.sparse_leaky_relu(x, self._negative_slope)


class Softmax(_Activation):
    """Sparse softmax over the stored entries along ``axis`` (CSR: the last axis only).

    Args:
        axis (int, optional): the axis. Default -1.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 1.0, 5.0], [2, 3])
        >>> paddle.sparse.nn.Softmax()(x).values().tolist()
        [0.5, 0.5, 1.0]
    """

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name)
        self._axis = axis

    def forward(self, x: Any) -> Any:
        return _f.sparse_softmax(x, self._axis)


def _check_channel_axis(api: str, x: Any) -> None:
    """A sparse batch norm normalises values ``[nnz, C]``: a COO tensor without a dense
    channel axis (values ``[nnz]``) is rejected, as in Paddle."""
    is_coo = getattr(x, "is_sparse_coo", None)
    if callable(is_coo) and is_coo() and x.dense_dim() < 1:
        raise ValueError(f"paddle.sparse.nn.{api}: x must keep its channels as a dense last "
                         f"axis (values [nnz, C]), but received x of shape {list(x.shape)} with "
                         f"values of shape {list(x.values().shape)}")


class BatchNorm(_DenseBatchNorm1D):
    """Batch normalisation of a sparse COO tensor's values ``[nnz, C]`` (channels last).

    As in Paddle, when ``use_global_stats`` is None the first call fixes it to
    ``not training``; afterwards a layer first run in training keeps using batch statistics.

    Args:
        num_features (int): the number of channels ``C``.
        momentum (float, optional): the weight of the old running statistics. Default 0.9.
        epsilon (float, optional): added to the variance. Default 1e-5.
        weight_attr (ParamAttr|bool, optional): scale attributes.
        bias_attr (ParamAttr|bool, optional): shift attributes.
        data_format (str, optional): ``'NDHWC'`` or ``'NHWC'``.
        use_global_stats (bool, optional): force running (True) or batch (False) statistics.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 0], [0, 1], [0, 1], [0, 1]],
        ...                                     [[1.0], [3.0]], [1, 2, 2, 2, 1])
        >>> bn = paddle.sparse.nn.BatchNorm(1)
        >>> [round(v, 3) for v in bn(x).values().reshape([-1]).tolist()]
        [-1.0, 1.0]
    """

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NDHWC",
                 use_global_stats: bool | None = None, name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)

    def forward(self, input: Any) -> Any:
        if self._data_format not in ("NDHWC", "NHWC"):
            raise ValueError('sparse BatchNorm only supports the layouts "NDHWC" and "NHWC"')
        _check_channel_axis("BatchNorm", input)
        if self.training:
            warnings.warn("When training, we now always track global mean and variance.")
        if self._use_global_stats is None:
            self._use_global_stats = not self.training
            trainable = False
        else:
            trainable = not self._use_global_stats
        use_global = self._use_global_stats or (not self.training and not trainable)
        # test mode with batch statistics: Paddle treats them as constants in the backward
        return _f.sparse_batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                                    training=not use_global, momentum=self._momentum,
                                    epsilon=self._epsilon, use_global_stats=use_global,
                                    constant_stats=not use_global and not self.training)


class SyncBatchNorm(_DenseSyncBatchNorm):
    """Cross-device batch normalisation of a sparse COO tensor's values; in one process it
    is :class:`BatchNorm` with batch statistics in training.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1]], [[1.0], [3.0]], [2, 1])
        >>> paddle.sparse.nn.SyncBatchNorm(1)(x).shape
        paddle.Size([2, 1])
    """

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         name)

    def forward(self, x: Any) -> Any:
        _check_channel_axis("SyncBatchNorm", x)
        return _f.sparse_batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                                    training=self.training, momentum=self._momentum,
                                    epsilon=self._epsilon)

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer) -> Layer:
        """Replace sparse :class:`BatchNorm` sublayers by sparse ``SyncBatchNorm`` (dense
        batch norms by ``paddle.nn.SyncBatchNorm``), sharing parameters and statistics.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.sparse.nn.BatchNorm(4))
            >>> type(paddle.sparse.nn.SyncBatchNorm.convert_sync_batchnorm(net)[0]).__name__
            'SyncBatchNorm'
        """
        out = layer
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, _DenseSyncBatchNorm):
            kind = cls if isinstance(layer, BatchNorm) else _DenseSyncBatchNorm
            out = kind(layer._num_features, layer._momentum, layer._epsilon, layer._weight_attr,
                       layer._bias_attr, layer._data_format, layer._name)
            for attr in ("weight", "bias", "_mean", "_variance"):
                if getattr(layer, attr, None) is not None:
                    setattr(out, attr, getattr(layer, attr))
        for name, sub in list(layer.named_children()):
            setattr(out, name, cls.convert_sync_batchnorm(sub))
        return out


def _pad_pairs_ok(pairs: list) -> bool:
    return all(isinstance(p, (list, tuple)) and len(p) == 2 for p in pairs)


def _explicit_padding(padding: Any, nd: int) -> tuple[list, str]:
    """Paddle's normal form of a conv layer's ``padding``: ``(padding, algorithm)``.

    A string gives ``[0] * nd`` with ``'SAME'``/``'VALID'``; ``nd`` numbers stay; ``2 * nd``
    numbers (before, after per axis) or ``nd + 2`` pairs (channels last, batch and channel
    pairs zero) collapse to ``nd`` numbers when every axis is symmetric.
    """
    if isinstance(padding, str):
        algo = padding.upper()
        if algo not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{algo}'. It can only be 'SAME' or 'VALID'.")
        return [0] * nd, algo
    if isinstance(padding, (list, tuple)):
        if len(padding) == nd + 2 and isinstance(padding[0], (list, tuple)):
            if not _pad_pairs_ok(padding) or any(padding[0]) or any(padding[-1]):
                raise ValueError(f"Non-zero padding({padding}) in the batch or channel "
                                 "dimensions is not supported.")
            pads = [int(v) for pair in padding[1:-1] for v in pair]
        elif len(padding) == 2 * nd and isinstance(padding[0], int):
            pads = convert_to_list(padding, 2 * nd, "padding")
        elif len(padding) == nd and isinstance(padding[0], int):
            pads = convert_to_list(padding, nd, "padding")
        else:
            raise ValueError(f"In valid padding: {padding}")
        if len(pads) == 2 * nd and pads[0::2] == pads[1::2]:
            pads = pads[0::2]
    else:
        pads = convert_to_list(padding, nd, "padding")
    if any(p < 0 for p in pads):
        raise ValueError("Invalid padding, all value should be larger than or equal to 0, but "
                         f"received: {pads}")
    return pads, "EXPLICIT"


class _Conv(Layer):
    _nd = 3
    _subm = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros",
                 key: str | None = None, weight_attr: Any = None, bias_attr: Any = None,
                 data_format: str | None = None, backend: str | None = None) -> None:
        super().__init__()
        nd = self._nd
        fmt = "NHWC" if nd == 2 else "NDHWC"
        data_format = fmt if data_format is None else data_format
        if weight_attr is False:
            raise AssertionError("weight_attr should not be False in Conv.")
        if padding_mode != "zeros":
            raise AssertionError("Currently, only padding_mode='zeros' is supported")
        if groups != 1:
            raise AssertionError("Currently, only groups=1 is supported")
        if backend not in (None, "igemm"):
            raise AssertionError(f"The value of 'backend' should be None or 'igemm', but "
                                 f"received {backend!r}")
        if data_format != fmt:
            raise ValueError(f"data_format must be one of {{'{fmt}'}}, but got "
                             f"data_format='{data_format}'")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._stride = convert_to_list(stride, nd, "stride")
        self._dilation = convert_to_list(dilation, nd, "dilation")
        self._kernel_size = convert_to_list(kernel_size, nd, "kernel_size")
        self._padding, self._padding_mode, self._groups = padding, padding_mode, groups
        # Paddle's normal form, kept for code that reads it; forward passes ``padding`` itself
        # so that 'SAME' and per-side paddings keep their meaning
        self._updated_padding, self._padding_algorithm = _explicit_padding(padding, nd)
        self._data_format, self._key, self._backend = data_format, key, backend
        from pagaie.nn.initializer import Normal
        fan_in = math.prod(self._kernel_size) * in_channels
        std = math.sqrt(2.0 / fan_in) if fan_in else math.inf  # an empty kernel: no values
        self.weight = self.create_parameter(self._kernel_size + [in_channels, out_channels],
                                            attr=weight_attr, default_initializer=Normal(0.0, std))
        self.bias = self.create_parameter([out_channels], attr=bias_attr, is_bias=True)

    def forward(self, x: Any) -> Any:
        nd, subm = self._nd, self._subm
        fn = {(2, False): _f.sparse_conv2d, (3, False): _f.sparse_conv3d,
              (2, True): _f.sparse_subm_conv2d, (3, True): _f.sparse_subm_conv3d}[(nd, subm)]
        if subm:
            return fn(x, self.weight, self.bias, self._stride, self._padding, self._dilation,
                      self._groups, self._data_format, self._key)
        return fn(x, self.weight, self.bias, self._stride, self._padding, self._dilation,
                  self._groups, self._data_format)

    def extra_repr(self) -> str:
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * self._nd:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._dilation != [1] * self._nd:
            s += f", dilation={self._dilation}"
        return s + f", data_format={self._data_format}"


_CONV_DOC = """Sparse {kind}{nd}-D convolution layer over a sparse COO input ``[N, {sp}, C]``.

    Weight ``[{k}, in_channels, out_channels]`` (normal initialisation with std
    ``sqrt(2 / (prod(kernel_size) * in_channels))``), bias ``[out_channels]``. {rule}

    Args:
        in_channels (int): input channels.
        out_channels (int): output channels.
        kernel_size (int|list): the kernel size.
        stride (int|list, optional): the stride. Default 1.
        padding (int|list|str, optional): the padding. Default 0.
        dilation (int|list, optional): the dilation. Default 1.
        groups (int, optional): must be 1.
        padding_mode (str, optional): must be ``'zeros'``.{extra}
        weight_attr (ParamAttr, optional): weight attributes.
        bias_attr (ParamAttr|bool, optional): bias attributes; False for no bias.
        data_format (str, optional): ``'{fmt}'``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 0]{idx}], [[1.0], [2.0]], [1{dims}, 1])
        >>> conv = paddle.sparse.nn.{name}(1, 2, 3, padding=1)
        >>> conv(x).shape
        paddle.Size([1{dims}, 2])
"""


def _make_conv(name: str, nd: int, subm: bool) -> type:
    fmt = "NHWC" if nd == 2 else "NDHWC"
    rule = ("The output keeps the input's sites." if subm else
            "The output holds every site reached from a stored input site.")
    extra = ("\n        key (str, optional): unused (Paddle's rulebook cache key).\n"
             "        backend (str, optional): None or ``'igemm'``; same result.") if subm else ""
    doc = _CONV_DOC.format(kind="submanifold " if subm else "", nd=nd, sp=", ".join(fmt[1:-1]),
                           k=", ".join("k" + c.lower() for c in fmt[1:-1]), rule=rule,
                           extra=extra, fmt=fmt, idx=", [1, 2]" * nd, dims=", 4" * nd, name=name)
    if subm:
        def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                     padding: Any = 0, dilation: Any = 1, groups: int = 1,
                     padding_mode: str = "zeros", key: str | None = None, weight_attr: Any = None,
                     bias_attr: Any = None, data_format: str = fmt,
                     backend: str | None = None) -> None:
            _Conv.__init__(self, in_channels, out_channels, kernel_size, stride, padding,
                           dilation, groups, padding_mode, key, weight_attr, bias_attr,
                           data_format, backend)
    else:
        def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                     padding: Any = 0, dilation: Any = 1, groups: int = 1,
                     padding_mode: str = "zeros", weight_attr: Any = None, bias_attr: Any = None,
                     data_format: str = fmt) -> None:
            _Conv.__init__(self, in_channels, out_channels, kernel_size, stride, padding,
                           dilation, groups, padding_mode, None, weight_attr, bias_attr,
                           data_format)
    return type(name, (_Conv,), {"_nd": nd, "_subm": subm, "__init__": __init__,
                                 "__doc__": doc, "__module__": __name__})


Conv2D = _make_conv("Conv2D", 2, False)
Conv3D = _make_conv("Conv3D", 3, False)
SubmConv2D = _make_conv("SubmConv2D", 2, True)
SubmConv3D = _make_conv("SubmConv3D", 3, True)


class MaxPool3D(Layer):
    """Sparse 3-D max pooling over stored sites only (see ``sparse.nn.functional.max_pool3d``).

    Args:
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; ``kernel_size`` when None.
        padding (int|list|str, optional): the padding. Default 0.
        return_mask (bool, optional): unsupported, as in Paddle (ignored).
        ceil_mode (bool, optional): checked only, as in Paddle (sizes are rounded down).
            Default False.
        data_format (str, optional): ``'NDHWC'``.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 0], [0, 1], [0, 1], [0, 1]],
        ...                                     [[-1.0], [-2.0]], [1, 2, 2, 2, 1])
        >>> paddle.sparse.nn.MaxPool3D(2)(x).values().tolist()
        [[-1.0]]
    """

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 return_mask: bool = False, ceil_mode: bool = False, data_format: str = "NDHWC",
                 name: str | None = None) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode = return_mask, ceil_mode
        self.data_format, self.name = data_format, name

    def forward(self, x: Any) -> Any:
        return _f.sparse_max_pool3d(x, self.ksize, self.stride, self.padding, self.ceil_mode,
                                    self.data_format)

    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"
