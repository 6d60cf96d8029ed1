"""Normalisation layers: the batch norms (and SyncBatchNorm), LayerNorm, GroupNorm, the
instance norms, LocalResponseNorm and SpectralNorm.

Parameter and state names follow Paddle so state dicts interchange: batch norms hold
``weight``, ``bias`` and the non-trainable ``_mean`` / ``_variance`` (parameters with
``stop_gradient=True``, as in Paddle); instance norms hold ``scale`` and ``bias``.
"""
from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

from pagaie._core import dtype as _dt
from pagaie._ops import nn_norm as _f
from pagaie.nn.layer.layers import Layer, kw_alias

__all__ = ["BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm", "LayerNorm",
           "GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D", "LocalResponseNorm",
           "SpectralNorm"]


def _constant(value: float) -> Any:
    from pagaie.nn.initializer import Constant
    return Constant(value)


def _stat(layer: Layer, shape: list, value: float, dtype: Any, name: str | None = None) -> Any:
    from pagaie.framework.param_attr import ParamAttr
    attr = ParamAttr(name=name, initializer=_constant(value), trainable=False, do_model_average=True)
    p = layer.create_parameter(shape, attr=attr, dtype=dtype)
    p.stop_gradient = True
    return p


class _BatchNormBase(Layer):
    _formats: tuple = ("NCHW", "NHWC")
    _ranks: tuple = (4,)

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 use_global_stats: bool | None = None, name: str | None = None) -> None:
        super().__init__()
        self._num_features = num_features
        self._momentum = momentum
        self._epsilon = epsilon
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._in_place, self._fuse_with_relu = False, False   # Paddle's (unused) attributes
        self._data_format = data_format
        self._use_global_stats = use_global_stats
        self._name = name
        dtype = _dt.get_default_dtype()
        if dtype == "float16":   # as Paddle: float16 models keep float32 statistics and affine
            dtype = "float32"
        self._dtype = dtype
        self.weight = None if weight_attr is False else self.create_parameter(
            [num_features], attr=weight_attr, dtype=dtype, default_initializer=_constant(1.0))
        self.bias = None if bias_attr is False else self.create_parameter(
            [num_features], attr=bias_attr, dtype=dtype, is_bias=True)
        # a named layer names its running statistics "<name>_mean" / "<name>_variance"
        self._mean = _stat(self, [num_features], 0.0, dtype, name and name + "_mean")
        self._variance = _stat(self, [num_features], 1.0, dtype, name and name + "_variance")

    def _check_input(self, x: Any) -> None:
        # as Paddle's forward: the data format first, then the rank
        if self._data_format not in self._formats:
            raise ValueError(f"paddle.nn.{type(self).__name__}: data_format must be one of "
                             f"{', '.join(self._formats)}, but received {self._data_format!r}")
        # Paddle's forward rewrites the layer's format to the kernel's layout name (so a
        # BatchNorm1D/3D prints no data_format once it has run)
        self._data_format = "NHWC" if self._data_format in ("NLC", "NHWC", "NDHWC") else "NCHW"
        if x.ndim not in self._ranks:
            raise ValueError(f"expected {' or '.join(f'{r}D' for r in self._ranks)} input "
                             f"(got {x.ndim}D input)")

    @kw_alias("x", "input")
    def forward(self, x: Any) -> Any:
        self._check_input(x)
        if self.training:   # Paddle's notice on every training call (use_global_stats aside)
            warnings.warn("When training, we now always track global mean and variance.")
        return _f.batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                             training=self.training, momentum=self._momentum,
                             epsilon=self._epsilon, data_format=self._data_format,
                             use_global_stats=self._use_global_stats)

    def extra_repr(self) -> str:
        s = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


class BatchNorm1D(_BatchNormBase):
    """Batch normalisation over ``[N, C]`` or ``[N, C, L]`` inputs (``'NCL'``/``'NLC'``).

    In training mode batch statistics normalise the input and update the running ones:
    ``running = momentum * running + (1 - momentum) * batch``.

    Args:
        num_features (int): the number of channels ``C``.
        momentum (float): the weight of the old running statistics.
        epsilon (float): added to the variance.
        weight_attr (ParamAttr|bool, optional): scale attributes (ones); False with
            ``bias_attr=False``: no affine parameters.
        bias_attr (ParamAttr|bool, optional): shift attributes (zeros).
        data_format (str): ``'NC'``, ``'NCL'`` or ``'NLC'``.
        use_global_stats (bool, optional): force running (True) or batch (False) statistics.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> bn = paddle.nn.BatchNorm1D(3)
        >>> bn(paddle.rand([4, 3])).shape, list(bn.state_dict())
        (paddle.Size([4, 3]), ['weight', 'bias', '_mean', '_variance'])
    """

    _formats = ("NC", "NCL", "NCHW", "NLC", "NHWC")
    _ranks = (2, 3)

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCL",
                 use_global_stats: bool | None = None, name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    """Batch normalisation over ``[N, C, H, W]`` inputs (``'NCHW'``/``'NHWC'``).

    Args: as :class:`BatchNorm1D`.

    Examples:
        >>> import pagaie as paddle
        >>> bn = paddle.nn.BatchNorm2D(3)
        >>> bn(paddle.rand([2, 3, 4, 4])).shape
        paddle.Size([2, 3, 4, 4])
    """

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 use_global_stats: bool | None = None, name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm3D(_BatchNormBase):
    """Batch normalisation over ``[N, C, D, H, W]`` inputs (``'NCDHW'``/``'NDHWC'``).

    Args: as :class:`BatchNorm1D`.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.BatchNorm3D(2)(paddle.rand([2, 2, 2, 2, 2])).shape
        paddle.Size([2, 2, 2, 2, 2])
    """

    _formats = ("NCHW", "NCDHW", "NHWC", "NDHWC")
    _ranks = (5,)

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCDHW",
                 use_global_stats: bool | None = None, name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class SyncBatchNorm(_BatchNormBase):
    """Cross-device batch normalisation; in a single process it is a plain batch norm over
    every axis but the channel axis (inputs of rank 2 to 5).

    Args: as :class:`BatchNorm2D` (no ``use_global_stats``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.SyncBatchNorm(3)(paddle.rand([2, 3, 4])).shape
        paddle.Size([2, 3, 4])
    """

    _formats = ("NCHW", "NCDHW", "NC", "NCL", "NHWC", "NDHWC", "NLC")
    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         None, name)
        # without affine attributes Paddle still keeps fixed (non-trainable) ones and zeros
        if weight_attr is False:
            self.weight = self.create_parameter([num_features], dtype=self._dtype,
                                                default_initializer=_constant(1.0))
            self.weight.stop_gradient = True
        if bias_attr is False:
            self.bias = self.create_parameter([num_features], dtype=self._dtype, is_bias=True)
            self.bias.stop_gradient = True

    def forward(self, x: Any) -> Any:
        self._check_input(x)
        return _f.batch_norm(x, self._mean, self._variance, self.weight, self.bias,
                             training=self.training, momentum=self._momentum,
                             epsilon=self._epsilon, data_format=self._data_format)

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer) -> Layer:
        """Replace every batch-norm sublayer of ``layer`` (or ``layer`` itself) by a
        :class:`SyncBatchNorm` sharing its parameters and statistics.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3), paddle.nn.BatchNorm2D(4))
            >>> type(paddle.nn.SyncBatchNorm.convert_sync_batchnorm(net)[1]).__name__
            'SyncBatchNorm'
        """
        out = layer
        if isinstance(layer, _BatchNormBase) and not isinstance(layer, SyncBatchNorm):
            out = cls(layer._num_features, layer._momentum, layer._epsilon, layer._weight_attr,
                      layer._bias_attr, layer._data_format, layer._name)
            for attr in ("weight", "bias", "_mean", "_variance"):
                if getattr(layer, attr, None) is not None:
                    setattr(out, attr, getattr(layer, attr))
        for name, sub in list(layer.named_children()):
            setattr(out, name, cls.convert_sync_batchnorm(sub))
        return out


# layout names Paddle's layout parser knows but its batch-norm kernel refuses (ValueError);
# a name it does not know at all is its OSError
_OTHER_LAYOUTS = frozenset({"NCDHW", "NDHWC", "ANYLAYOUT", "MKLDNNLAYOUT", "SPARSE_COO",
                            "SPARSE_CSR", "STRIDED", "PSTRING_UNION"})


def _legacy_layout_is_last(layout: str) -> bool:
    """Whether ``paddle.nn.BatchNorm``'s ``data_layout`` (any case) puts channels last."""
    name = str(layout).upper()
    if name in ("NCHW", "NHWC"):
        return name == "NHWC"
    if name in _OTHER_LAYOUTS:
        raise ValueError(f"paddle.nn.BatchNorm: data_layout must be 'NCHW' or 'NHWC', but "
                         f"received {layout!r}")
    raise OSError(f"paddle.nn.BatchNorm: unknown data layout {layout!r}; data_layout must be "
                  f"'NCHW' or 'NHWC'")


class BatchNorm(Layer):
    """The legacy batch-norm layer (``paddle.nn.BatchNorm``), for inputs of rank 2 to 5.

    Args:
        num_channels (int): the number of channels.
        act (str, optional): an activation applied to the output (e.g. ``'relu'``).
        is_test (bool): start in evaluation mode (running statistics), as ``eval()`` does.
        momentum (float): the weight of the old running statistics.
        epsilon (float): added to the variance.
        param_attr (ParamAttr, optional): scale attributes (ones).
        bias_attr (ParamAttr, optional): shift attributes (zeros).
        dtype (str): the parameter dtype.
        data_layout (str): ``'NCHW'`` or ``'NHWC'``.
        in_place (bool): unused.
        moving_mean_name (str, optional): the running mean's name.
        moving_variance_name (str, optional): the running variance's name.
        do_model_average_for_mean_and_var (bool): unused.
        use_global_stats (bool): use the running statistics even in training.
        trainable_statistics (bool): use batch statistics even in evaluation.

    Examples:
        >>> import pagaie as paddle
        >>> bn = paddle.nn.BatchNorm(3, act='relu')
        >>> float(bn(paddle.randn([4, 3, 2, 2])).min()) >= 0
        True
    """

    def __init__(self, num_channels: int, act: str | None = None, is_test: bool = False,
                 momentum: float = 0.9, epsilon: float = 1e-05, param_attr: Any = None,
                 bias_attr: Any = None, dtype: Any = "float32", data_layout: str = "NCHW",
                 in_place: bool = False, moving_mean_name: str | None = None,
                 moving_variance_name: str | None = None,
                 do_model_average_for_mean_and_var: bool = True, use_global_stats: bool = False,
                 trainable_statistics: bool = False) -> None:
        super().__init__()
        self._act, self._is_test = act, is_test
        self._param_attr, self._bias_attr = param_attr, bias_attr
        self._in_place, self._fuse_with_relu = in_place, False
        self._momentum, self._epsilon = momentum, epsilon
        self._data_layout = data_layout
        self._use_global_stats = use_global_stats
        self._trainable_statistics = trainable_statistics
        if isinstance(dtype, str) and dtype == "float16":   # Paddle's rule (the string only)
            dtype = "float32"
        self._dtype = dtype
        self.weight = self.create_parameter([num_channels], attr=param_attr, dtype=dtype,
                                            default_initializer=_constant(1.0))
        self.bias = self.create_parameter([num_channels], attr=bias_attr, dtype=dtype, is_bias=True)
        self._mean = _stat(self, [num_channels], 0.0, dtype, moving_mean_name)
        self._variance = _stat(self, [num_channels], 1.0, dtype, moving_variance_name)
        # as Paddle: ``is_test=True`` starts the layer in evaluation mode (train() undoes it)
        self.training = not is_test

    def forward(self, input: Any) -> Any:
        if not 2 <= input.ndim <= 5:
            raise ValueError(f"paddle.nn.BatchNorm: the input must be 2-D to 5-D, but received a "
                             f"{input.ndim}-D tensor of shape {list(input.shape)}")
        last = _legacy_layout_is_last(self._data_layout)
        fmt = {2: "NC", 3: "NLC" if last else "NCL", 4: "NHWC" if last else "NCHW",
               5: "NDHWC" if last else "NCDHW"}[input.ndim]
        # as in Paddle's dygraph, only the training flag matters (``is_test`` only sets it);
        # trainable_statistics in evaluation is the functional form's is_test with batch statistics
        test_batch_stats = self._trainable_statistics and not self.training
        out = _f.batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                            training=self.training, momentum=self._momentum, epsilon=self._epsilon,
                            data_format=fmt,
                            use_global_stats=True if self._use_global_stats else
                            (False if test_batch_stats else None))
        if self._act:
            import pagaie.nn.functional as F
            out = getattr(F, self._act)(out)
        return out


class LayerNorm(Layer):
    """Layer normalisation over the trailing ``normalized_shape`` axes; weight and bias are
    1-D with ``prod(normalized_shape)`` elements (ones / zeros).

    Args:
        normalized_shape (int|list): the normalised trailing shape.
        epsilon (float): added to the variance.
        elementwise_affine (bool): whether to learn a scale (and shift).
        bias (bool): whether to learn the shift.
        device: unused.
        dtype (str, optional): the parameter dtype.
        weight_attr (ParamAttr|bool, optional): scale attributes; False: no scale.
        bias_attr (ParamAttr|bool, optional): shift attributes; False: no shift.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> ln = paddle.nn.LayerNorm([2, 3])
        >>> ln.weight.shape, ln(paddle.rand([4, 2, 3])).shape
        (paddle.Size([6]), paddle.Size([4, 2, 3]))
    """

    @kw_alias("epsilon", "eps")
    def __init__(self, normalized_shape: Any, epsilon: float = 1e-05, *,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None, weight_attr: Any = None, bias_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        shape = [normalized_shape] if isinstance(normalized_shape, numbers.Integral) else list(normalized_shape)
        self._normalized_shape = shape
        self._epsilon = epsilon
        self._name = name
        if not elementwise_affine:
            weight_attr = bias_attr = False
        elif not bias:
            bias_attr = False
        self._weight_attr, self._bias_attr, self._device = weight_attr, bias_attr, device
        self._dtype = dtype if dtype is not None else _dt.get_default_dtype()
        numel = [math.prod(shape)]
        self.weight = None
        self.bias = None
        if weight_attr is not False:
            self.weight = self.create_parameter(numel, attr=weight_attr, dtype=self._dtype,
                                                default_initializer=_constant(1.0))
        if bias_attr is not False:
            self.bias = self.create_parameter(numel, attr=bias_attr, dtype=self._dtype,
                                              is_bias=True)

    def forward(self, input: Any) -> Any:
        return _f.layer_norm(input, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """Group normalisation with per-channel scale and shift ``[num_channels]``.

    Args:
        num_groups (int): the number of groups.
        num_channels (int): the number of channels.
        epsilon (float): added to the variance.
        affine (bool): whether to learn scale and shift.
        device: unused.
        dtype (str, optional): the parameter dtype.
        weight_attr (ParamAttr|bool, optional): scale attributes; False: no scale.
        bias_attr (ParamAttr|bool, optional): shift attributes; False: no shift.
        data_format (str): ``'NCHW'`` or another channels-first/last format.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.GroupNorm(2, 4)(paddle.rand([2, 4, 3, 3])).shape
        paddle.Size([2, 4, 3, 3])
    """

    @kw_alias("epsilon", "eps")
    def __init__(self, num_groups: int, num_channels: int, epsilon: float = 1e-05, *,
                 affine: bool = True, device: Any = None, dtype: Any = None,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__()
        if data_format not in ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(f"paddle.nn.GroupNorm: unsupported data layout: {data_format} "
                             "(expected NCL, NCHW, NCDHW, NLC, NHWC or NDHWC)")
        # as in Paddle, a group count that does not divide the channels fails at forward
        self._num_groups, self._num_channels = num_groups, num_channels
        # Paddle keeps only the channel position: 'NCHW' (channels first) or 'NHWC'
        self._data_format = "NCHW" if data_format[1] == "C" else "NHWC"
        self._epsilon, self._name = epsilon, name
        if not affine:
            weight_attr = bias_attr = False
        self._weight_attr, self._bias_attr, self._device = weight_attr, bias_attr, device
        self._dtype = dtype if dtype is not None else _dt.get_default_dtype()
        self.weight = None
        self.bias = None
        if weight_attr is not False:
            self.weight = self.create_parameter([num_channels], attr=weight_attr,
                                                dtype=self._dtype,
                                                default_initializer=_constant(1.0))
        if bias_attr is not False:
            self.bias = self.create_parameter([num_channels], attr=bias_attr, dtype=self._dtype,
                                              is_bias=True)
        # as Paddle's GroupNorm: a parameter is frozen exactly when its attribute has learning
        # rate 0 (this overrides a ParamAttr's trainable=False)
        for param, attr in ((self.weight, weight_attr), (self.bias, bias_attr)):
            if param is not None:
                param.stop_gradient = getattr(attr, "learning_rate", None) == 0.0

    def forward(self, input: Any) -> Any:
        return _f.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias,
                             self._data_format)

    def extra_repr(self) -> str:
        return (f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
                f"epsilon={self._epsilon}")


class _InstanceNormBase(Layer):
    _default_format = "NCHW"
    _ranks: tuple = (4,)

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__()
        if (weight_attr is False) != (bias_attr is False):
            raise AssertionError(f"paddle.nn.{type(self).__name__}: weight_attr and bias_attr must "
                                 f"be set to False at the same time, but received weight_attr="
                                 f"{weight_attr!r} and bias_attr={bias_attr!r}")
        self._num_features, self._epsilon, self._momentum = num_features, epsilon, momentum
        self._data_format, self._name = data_format, name
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        dtype = _dt.get_default_dtype()   # the parameters' (the Layer's own dtype stays, as Paddle)
        self.scale = None
        self.bias = None
        if weight_attr is not False:
            self.scale = self.create_parameter([num_features], attr=weight_attr, dtype=dtype,
                                               default_initializer=_constant(1.0))
            self.bias = self.create_parameter([num_features], attr=bias_attr, dtype=dtype,
                                              is_bias=True)

    def forward(self, input: Any) -> Any:
        if input.ndim not in self._ranks:
            raise ValueError(f"expected {' or '.join(f'{r}D' for r in self._ranks)} input "
                             f"(got {input.ndim}D input)")
        return _f.instance_norm(input, weight=self.scale, bias=self.bias, eps=self._epsilon,
                                momentum=self._momentum, data_format=self._data_format)

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalisation over ``[N, C, L]`` inputs; parameters ``scale`` and ``bias``.

    Args:
        num_features (int): the number of channels.
        epsilon (float): added to the variance.
        momentum (float): unused (no running statistics).
        weight_attr (ParamAttr|bool, optional): scale attributes; False (with
            ``bias_attr=False``): no affine parameters.
        bias_attr (ParamAttr|bool, optional): shift attributes.
        data_format (str): ``'NCL'`` or ``'NLC'``.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.InstanceNorm1D(3)(paddle.rand([2, 3, 5])).shape
        paddle.Size([2, 3, 5])
    """

    _ranks = (2, 3)

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCL",
                 name: str | None = None) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalisation over ``[N, C, H, W]`` inputs.

    Args: as :class:`InstanceNorm1D`, with ``data_format`` ``'NCHW'`` or ``'NHWC'``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.InstanceNorm2D(3)(paddle.rand([2, 3, 4, 4])).shape
        paddle.Size([2, 3, 4, 4])
    """

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalisation over ``[N, C, D, H, W]`` inputs.

    Args: as :class:`InstanceNorm1D`, with ``data_format`` ``'NCDHW'`` or ``'NDHWC'``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.InstanceNorm3D(2)(paddle.rand([1, 2, 2, 3, 3])).shape
        paddle.Size([1, 2, 2, 3, 3])
    """

    _ranks = (5,)

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCDHW",
                 name: str | None = None) -> None:
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format, name)


class LocalResponseNorm(Layer):
    """Local response normalisation across neighbouring channels
    (:func:`paddle.nn.functional.local_response_norm`).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.LocalResponseNorm(3)(paddle.rand([1, 4, 2, 2])).shape
        paddle.Size([1, 4, 2, 2])
    """

    def __init__(self, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format, self.name = data_format, name

    def forward(self, input: Any) -> Any:
        return _f.local_response_norm(input, self.size, self.alpha, self.beta, self.k,
                                      self.data_format)

    def extra_repr(self) -> str:
        s = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            s += f", data_format={self.data_format}"
        return s + (f", name={self.name}" if self.name is not None else "")


class SpectralNorm(Layer):
    """Spectral normalisation of a weight: ``weight / sigma(weight)``, with ``sigma``
    estimated by ``power_iters`` steps of power iteration from the vectors ``weight_u``
    ``[h]`` and ``weight_v`` ``[w]`` (non-trainable; like Paddle, they are not updated).

    Args:
        weight_shape (list): the weight's shape.
        dim (int): the axis treated as the output (rows) dimension.
        power_iters (int): power iterations per call.
        eps (float): added to norms.
        dtype (str): the dtype of ``weight_u`` / ``weight_v``.

    Examples:
        >>> import pagaie as paddle
        >>> sn = paddle.nn.SpectralNorm([3, 4], power_iters=5)
        >>> sn(paddle.rand([3, 4])).shape
        paddle.Size([3, 4])
    """

    def __init__(self, weight_shape: Any, dim: int = 0, power_iters: int = 1, eps: float = 1e-12,
                 dtype: Any = "float32") -> None:
        super().__init__()
        from pagaie.framework.param_attr import ParamAttr
        from pagaie.nn.initializer import Normal
        self._weight_shape = list(weight_shape)
        # Paddle checks these with ``assert``: the same AssertionError here
        if math.prod(self._weight_shape) <= 0:
            raise AssertionError(f"paddle.nn.SpectralNorm: any dimension of weight_shape cannot "
                                 f"be 0, but received weight_shape={self._weight_shape}")
        if dim >= len(self._weight_shape):
            raise AssertionError(f"paddle.nn.SpectralNorm: dim should be less than the length of "
                                 f"weight_shape, but received dim={dim}")
        self._dim, self._power_iters, self._eps, self._dtype = dim, power_iters, eps, dtype
        h = self._weight_shape[dim]
        w = math.prod(self._weight_shape) // h
        # N(0, 1) is the default initializer: a global one (set_global_initializer) wins
        self.weight_u = self.create_parameter([h], attr=ParamAttr(), dtype=dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_u.stop_gradient = True
        self.weight_v = self.create_parameter([w], attr=ParamAttr(), dtype=dtype,
                                              default_initializer=Normal(0.0, 1.0))
        self.weight_v.stop_gradient = True

    def forward(self, x: Any) -> Any:
        return _f.spectral_norm(x, self.weight_u, self.weight_v, self._dim, self._power_iters,
                              self._eps)
