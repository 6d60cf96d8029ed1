"""Common layers: Linear, Bilinear, Embedding, the dropouts, Flatten/Unflatten,
Identity, the padding layers, upsampling, pixel/channel shuffles, Unfold/Fold and
the distance layers. Each is a thin shell over one functional op."""
from __future__ import annotations

import numbers
from typing import Any

import torch

import pagaie as _pg
from pagaie._core import dtype as _dt
from pagaie._ops import nn_common as _c
from pagaie._ops import nn_resample as _r
from pagaie.nn.layer.layers import Layer, attr_alias, kw_alias

__all__ = ["Linear", "Bilinear", "Embedding", "Dropout", "Dropout2D", "Dropout3D", "AlphaDropout",
           "FeatureAlphaDropout", "Flatten", "Unflatten", "Identity", "Pad1D", "Pad2D", "Pad3D",
           "ZeroPad1D", "ZeroPad2D", "ZeroPad3D", "ConstantPad1D", "ConstantPad2D", "ConstantPad3D",
           "ReflectionPad1D", "ReflectionPad2D", "ReflectionPad3D", "ReplicationPad1D",
           "ReplicationPad2D", "ReplicationPad3D", "CircularPad1D", "CircularPad2D", "CircularPad3D",
           "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
           "CircularPad1d", "CircularPad2d", "CircularPad3d", "Upsample", "UpsamplingNearest2D",
           "UpsamplingBilinear2D", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Unfold", "Fold",
           "CosineSimilarity", "PairwiseDistance"]


def _name_str(name: Any, lead: str = ", ") -> str:
    return f"{lead}name={name}" if name else ""


class Linear(Layer):
    """Fully connected layer ``y = x @ weight + bias``, weight ``[in_features, out_features]``.

    Args:
        in_features (int): input size.
        out_features (int): output size.
        weight_attr (ParamAttr, optional): weight attributes (Xavier-uniform by default).
        bias_attr (ParamAttr|bool, optional): bias attributes (zeros); False: no bias.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.Linear(4, 2)
        >>> fc.weight.shape, fc(paddle.ones([3, 4])).shape
        (paddle.Size([4, 2]), paddle.Size([3, 2]))
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        self._dtype = _dt.get_default_dtype()
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self.weight = self.create_parameter([in_features, out_features], attr=weight_attr,
                                            dtype=self._dtype, is_bias=False)
        self.bias = self.create_parameter([out_features], attr=bias_attr, dtype=self._dtype, is_bias=True)
        self.name = name

    def forward(self, input: Any) -> Any:
        return _c.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.weight.shape[0]}, out_features={self.weight.shape[1]}, "
                f"dtype={self._dtype}{_name_str(self.name)}")


class Bilinear(Layer):
    """Bilinear layer ``out[:, k] = x1 @ W[k] @ x2 + b[k]``, weight ``[out, in1, in2]``,
    bias ``[1, out]``.

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.nn.Bilinear(3, 4, 5)
        >>> layer(paddle.ones([2, 3]), paddle.ones([2, 4])).shape
        paddle.Size([2, 5])
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        self._in1_features, self._in2_features, self._out_features = in1_features, in2_features, out_features
        self._dtype = _dt.get_default_dtype()
        self.weight = self.create_parameter([out_features, in1_features, in2_features], attr=weight_attr,
                                            dtype=self._dtype, is_bias=False)
        self.bias = self.create_parameter([1, out_features], attr=bias_attr, dtype=self._dtype, is_bias=True)

    def forward(self, x1: Any, x2: Any) -> Any:
        return _c.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self._in1_features}, in2_features={self._in2_features}, "
                f"out_features={self._out_features}, dtype={self._dtype}{_name_str(self._name)}")


class Embedding(Layer):
    """Lookup table of ``num_embeddings`` vectors of size ``embedding_dim``.

    Args:
        num_embeddings (int): table size.
        embedding_dim (int): vector size.
        padding_idx (int, optional): this id outputs zeros (its row starts at zero).
        max_norm, norm_type, scale_grad_by_freq, sparse: see
            :func:`paddle.nn.functional.embedding`.
        weight_attr (ParamAttr, optional): weight attributes (Xavier-uniform by default).
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> emb = paddle.nn.Embedding(10, 3, padding_idx=0)
        >>> emb(paddle.to_tensor([[0, 2]])).shape
        paddle.Size([1, 2, 3])
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Any = None,
                 max_norm: float | None = None, norm_type: float = 2.0, *, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Any = None, _freeze: bool = False, device: Any = None,
                 dtype: Any = None, weight_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        if num_embeddings <= 0:
            raise ValueError(f"paddle.nn.Embedding: num_embeddings must be greater than 0, but "
                             f"received {num_embeddings}")
        if embedding_dim <= 0:
            raise ValueError(f"paddle.nn.Embedding: embedding_dim must be greater than 0, but "
                             f"received {embedding_dim}")
        # Paddle keeps the index as given (shown by repr); the functional op normalises it
        self._padding_idx, self._max_norm, self._norm_type = padding_idx, max_norm, norm_type
        if padding_idx is not None:
            # Paddle checks the index after adding num_embeddings to a negative one, so
            # [-2n, -n) pass too (-n - 1 then means no padding, as its kernel's -1)
            padding_idx = padding_idx if padding_idx >= 0 else num_embeddings + padding_idx
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"paddle.nn.Embedding: padding_idx must be within "
                                 f"[-{num_embeddings}, {num_embeddings}), but received "
                                 f"{self._padding_idx}")
            if isinstance(padding_idx, _pg.Tensor) and not padding_idx.is_floating_point():
                padding_idx = int(padding_idx)
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, numbers.Integral):
                # Paddle fails zeroing the row with it (a tensor index): a ValueError
                raise ValueError(f"paddle.nn.Embedding: 'padding_idx' must be an int, but received "
                                 f"{type(padding_idx).__name__} {self._padding_idx!r}")
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        self._size = [num_embeddings, embedding_dim]
        self._sparse, self._scale_grad_by_freq, self._name = sparse, scale_grad_by_freq, name
        self._dtype = dtype if dtype is not None else _dt.get_default_dtype()
        self._weight_attr = weight_attr
        if _weight is not None:
            # as Paddle: the given tensor itself becomes the weight (a plain Tensor is then no
            # parameter), trainable unless _freeze
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = _weight
            self.weight.stop_gradient = _freeze
        else:
            self.weight = self.create_parameter([num_embeddings, embedding_dim], attr=weight_attr,
                                                dtype=self._dtype, is_bias=False, device=device)
            if weight_attr is None:
                self.weight.stop_gradient = _freeze
        if padding_idx is not None and padding_idx != -1:
            with torch.no_grad():
                self.weight._t[padding_idx] = 0
        if sparse:  # Paddle's gradient of this weight is row-sparse (see optimizer.SPARSE_GRAD)
            from pagaie.optimizer.optimizer import SPARSE_GRAD
            setattr(self.weight, SPARSE_GRAD, True)

    @property
    def padding_idx(self) -> Any:
        """The padding index as given to the constructor."""
        return self._padding_idx

    @padding_idx.setter
    def padding_idx(self, value: Any) -> None:
        self._padding_idx = value

    @kw_alias("x", "input")
    def forward(self, x: Any) -> Any:
        return _c.embedding(x, self.weight, self._padding_idx, self._max_norm, self._norm_type,
                            self._sparse, self._scale_grad_by_freq)

    def extra_repr(self) -> str:
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        s += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


class Dropout(Layer):
    """Dropout (see :func:`paddle.nn.functional.dropout`); active only in training mode.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.nn.Dropout(0.5)
        >>> d.eval()(paddle.ones([2])).tolist()
        [1.0, 1.0]
    """

    def __init__(self, p: float = 0.5, inplace: bool = False, axis: Any = None,
                 mode: str = "upscale_in_train", name: str | None = None) -> None:
        super().__init__()
        self.p, self.inplace, self.axis, self.mode, self.name = p, inplace, axis, mode, name

    def forward(self, input: Any) -> Any:
        return _c.dropout(input, p=self.p, axis=self.axis, training=self.training, inplace=self.inplace,
                          mode=self.mode)

    def extra_repr(self) -> str:
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{_name_str(self.name)}, inplace={self.inplace}"


class Dropout2D(Layer):
    """Channel dropout for 4-D inputs.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Dropout2D(0.5).eval()(paddle.ones([1, 2, 2, 2])).shape
        paddle.Size([1, 2, 2, 2])
    """

    def __init__(self, p: float = 0.5, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input: Any) -> Any:
        return _c.dropout2d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}{_name_str(self.name)}"


class Dropout3D(Layer):
    """Channel dropout for 5-D inputs.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Dropout3D(0.5).eval()(paddle.ones([1, 2, 1, 2, 2])).shape
        paddle.Size([1, 2, 1, 2, 2])
    """

    def __init__(self, p: float = 0.5, data_format: str = "NCDHW", name: str | None = None) -> None:
        super().__init__()
        self.p, self.data_format, self.name = p, data_format, name

    def forward(self, input: Any) -> Any:
        return _c.dropout3d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}{_name_str(self.name)}"


class AlphaDropout(Layer):
    """Alpha dropout for SELU networks.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.AlphaDropout(0.2).eval()(paddle.ones([2])).tolist()
        [1.0, 1.0]
    """

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input: Any) -> Any:
        return _c.alpha_dropout(input, p=self.p, training=self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}{_name_str(self.name)}"


class FeatureAlphaDropout(Layer):
    """Channel-wise alpha dropout.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.FeatureAlphaDropout(0.2).eval()(paddle.ones([1, 2, 2])).shape
        paddle.Size([1, 2, 2])
    """

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input: Any) -> Any:
        return _c.feature_alpha_dropout(input, p=self.p, training=self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}{_name_str(self.name)}"


class Flatten(Layer):
    """Flatten dims ``start_axis`` to ``stop_axis`` into one.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Flatten()(paddle.ones([2, 3, 4])).shape
        paddle.Size([2, 12])
    """

    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input: Any) -> Any:
        return _pg.flatten(input, start_axis=self.start_axis, stop_axis=self.stop_axis)


class Unflatten(Layer):
    """Split dim ``axis`` into ``shape``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Unflatten(1, [2, 3])(paddle.ones([4, 6])).shape
        paddle.Size([4, 2, 3])
    """

    def __init__(self, axis: int, shape: Any, name: str | None = None) -> None:
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input: Any) -> Any:
        return _pg.unflatten(input, self.axis, self.shape)

    def extra_repr(self) -> str:
        return f"axis={self.axis}, shape={self.shape}{_name_str(self.name)}"


class Identity(Layer):
    """Return the input unchanged (arguments are accepted and ignored).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Identity(54, unused='x')(paddle.ones([2])).tolist()
        [1.0, 1.0]
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:
        return input


class _PadnD(Layer):
    _nd = 1
    _fmt = "NCL"
    _fixed_mode: str | None = None

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0,
                 data_format: str | None = None, name: str | None = None) -> None:
        super().__init__()
        n = 2 * self._nd
        if not isinstance(padding, (list, tuple, _pg.Tensor)):
            # as Paddle: anything else is repeated, and pad() checks the values when called
            padding = [padding] * n
        self.padding = padding
        self._mode = mode
        self.value = value
        self._data_format = data_format or self._fmt
        self._name = name

    @kw_alias("x", "input")
    def forward(self, x: Any) -> Any:
        return _r.pad(x, pad=self.padding, mode=self._mode, value=self.value, data_format=self._data_format)

    def extra_repr(self) -> str:
        return (f"padding={self.padding}, mode={self._mode}, value={self.value}, "
                f"data_format={self._data_format}{_name_str(self._name)}")


def _pad_class(cls_name: str, nd: int, mode: str | None, doc: str) -> type:
    fmt = {1: "NCL", 2: "NCHW", 3: "NCDHW"}[nd]
    if mode is None:
        def __init__(self, padding, mode="constant", value=0.0, data_format=fmt, name=None):
            _PadnD.__init__(self, padding, mode, value, data_format, name)
    elif mode == "constant_value":
        def __init__(self, padding, value, data_format=fmt, name=None):
            _PadnD.__init__(self, padding, "constant", value, data_format, name)
    else:
        def __init__(self, padding, data_format=fmt, name=None):
            _PadnD.__init__(self, padding, mode, 0.0, data_format, name)
    cls = type(cls_name, (_PadnD,), {"__init__": __init__, "_nd": nd, "_fmt": fmt, "__doc__": doc,
                                      "__module__": __name__})
    cls.__init__.__qualname__ = f"{cls_name}.__init__"
    return cls


_PAD_DOC = """{kind} padding of the last {nd} spatial dim(s) of a {rank}-D input.

    ``padding`` is an int or {n} ints ``[{order}]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.{name}(1{extra})(paddle.ones({shape})).shape
        paddle.Size({out})
    """

_ORDER = {1: "left, right", 2: "left, right, top, bottom", 3: "left, right, top, bottom, front, back"}
_SHAPES = {1: ([1, 1, 2], [1, 1, 4]), 2: ([1, 1, 2, 2], [1, 1, 4, 4]), 3: ([1, 1, 2, 2, 2], [1, 1, 4, 4, 4])}


def _make_pads() -> dict:
    out = {}
    for nd in (1, 2, 3):
        for prefix, mode, kind in (("Pad", None, "Constant, reflect, replicate or circular"),
                                   ("ZeroPad", "constant", "Zero"),
                                   ("ConstantPad", "constant_value", "Constant-value"),
                                   ("ReflectionPad", "reflect", "Reflection"),
                                   ("ReplicationPad", "replicate", "Replication"),
                                   ("CircularPad", "circular", "Circular")):
            name = f"{prefix}{nd}D"
            doc = _PAD_DOC.format(kind=kind, nd=nd, rank=nd + 2, n=2 * nd, order=_ORDER[nd], name=name,
                                  extra=", 0.0" if mode == "constant_value" else "",
                                  shape=_SHAPES[nd][0], out=_SHAPES[nd][1])
            out[name] = _pad_class(name, nd, mode, doc)
    return out


_PADS = _make_pads()
globals().update(_PADS)
for _n in list(_PADS):
    if not _n.startswith(("Pad", "ZeroPad")):
        globals()[_n[:-1] + "d"] = _PADS[_n]
del _n


class Upsample(Layer):
    """Resize layer over :func:`paddle.nn.functional.interpolate`.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Upsample(scale_factor=2, mode='nearest')(paddle.ones([1, 1, 2, 2])).shape
        paddle.Size([1, 1, 4, 4])
    """

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool = False, align_mode: int = 0, data_format: str | None = None,
                 recompute_scale_factor: bool | None = None, name: str | None = None) -> None:
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode, self.data_format = align_corners, align_mode, data_format
        self.recompute_scale_factor, self.name = recompute_scale_factor, name

    def forward(self, x: Any) -> Any:
        if self.data_format is None:
            # as Paddle: the first input's rank fixes the layout for every later call (and the repr)
            fmt = {3: "NCW", 4: "NCHW", 5: "NCDHW"}.get(x.ndim)
            if fmt is None:
                raise ValueError(f"paddle.nn.Upsample: the dimension of the input tensor should only be "
                                 f"3-D, 4-D or 5-D, but the received dimension is {x.ndim}.")
            self.data_format = fmt
        return _r.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self.mode,
                              align_corners=self.align_corners, align_mode=self.align_mode,
                              data_format=self.data_format,
                              recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        main = f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"
        return (f"{main}, mode={self.mode}, align_corners={self.align_corners}, align_mode={self.align_mode}, "
                f"data_format={self.data_format}{_name_str(self.name)}")


class UpsamplingNearest2D(Layer):
    """Nearest-neighbour upsampling of 4-D inputs.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.UpsamplingNearest2D(scale_factor=2)(paddle.ones([1, 1, 2, 2])).shape
        paddle.Size([1, 1, 4, 4])
    """

    _mode, _align = "nearest", False

    def __init__(self, size: Any = None, scale_factor: Any = None, data_format: str = "NCHW",
                 name: str | None = None) -> None:
        super().__init__()
        if isinstance(size, int):   # as Paddle: kept (and printed) as [size, size]
            size = [size, size]
        self.size, self.scale_factor, self.data_format, self.name = size, scale_factor, data_format, name

    @kw_alias("x", "input")
    def forward(self, x: Any) -> Any:
        return _r.interpolate(x, size=self.size, scale_factor=self.scale_factor, mode=self._mode,
                              align_corners=self._align, align_mode=0, data_format=self.data_format)

    def extra_repr(self) -> str:
        main = f"scale_factor={self.scale_factor}" if self.scale_factor is not None else f"size={self.size}"
        return f"{main}, data_format={self.data_format}{_name_str(self.name)}"


class UpsamplingBilinear2D(UpsamplingNearest2D):
    """Bilinear upsampling of 4-D inputs with aligned corners.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.UpsamplingBilinear2D(size=[3, 3])(paddle.ones([1, 1, 2, 2])).shape
        paddle.Size([1, 1, 3, 3])
    """

    _mode, _align = "bilinear", True


class _Shuffle(Layer):
    _arg = "upscale_factor"
    _positive = False   # Paddle checks > 0 at construction for PixelUnshuffle / ChannelShuffle

    def __init__(self, factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__()
        if not isinstance(factor, int):
            raise TypeError(f"paddle.nn.{type(self).__name__}: {self._arg} must be int type, but "
                            f"received {type(factor).__name__} {factor!r}")
        if self._positive and factor <= 0:
            raise ValueError(f"paddle.nn.{type(self).__name__}: {self._arg} must be positive, "
                             f"but received {factor}")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"paddle.nn.{type(self).__name__}: data_format should be 'NCHW' or "
                             f"'NHWC', but received {data_format!r}")
        self.__dict__[f"_{self._arg}"] = factor
        self._data_format, self._name = data_format, name

    def extra_repr(self) -> str:
        s = f"{self._arg}={self.__dict__['_' + self._arg]}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        if self._name is not None:
            s += f", name={self._name}"
        return s


class PixelShuffle(_Shuffle):
    """Rearrange ``[N, C*r*r, H, W]`` into ``[N, C, H*r, W*r]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.PixelShuffle(2)(paddle.ones([1, 4, 2, 2])).shape
        paddle.Size([1, 1, 4, 4])
    """

    def __init__(self, upscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(upscale_factor, data_format, name)

    def forward(self, x: Any) -> Any:
        return _r.pixel_shuffle(x, self._upscale_factor, self._data_format)


class PixelUnshuffle(_Shuffle):
    """Rearrange ``[N, C, H*r, W*r]`` into ``[N, C*r*r, H, W]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.PixelUnshuffle(2)(paddle.ones([1, 1, 4, 4])).shape
        paddle.Size([1, 4, 2, 2])
    """

    _arg = "downscale_factor"
    _positive = True

    def __init__(self, downscale_factor: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(downscale_factor, data_format, name)

    def forward(self, x: Any) -> Any:
        return _r.pixel_unshuffle(x, self._downscale_factor, self._data_format)


class ChannelShuffle(_Shuffle):
    """Interleave ``groups`` channel groups.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.ChannelShuffle(2)(paddle.ones([1, 4, 2, 2])).shape
        paddle.Size([1, 4, 2, 2])
    """

    _arg = "groups"
    _positive = True

    def __init__(self, groups: int, data_format: str = "NCHW", name: str | None = None) -> None:
        super().__init__(groups, data_format, name)

    def forward(self, x: Any) -> Any:
        return _r.channel_shuffle(x, self._groups, self._data_format)


class Unfold(Layer):
    """Extract sliding blocks (im2col), see :func:`paddle.nn.functional.unfold`.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Unfold([2, 2])(paddle.ones([1, 2, 3, 3])).shape
        paddle.Size([1, 8, 4])
    """

    def __init__(self, kernel_sizes: Any, dilations: Any = 1, paddings: Any = 0, strides: Any = 1,
                 name: str | None = None) -> None:
        super().__init__()
        self.kernel_sizes, self.dilations, self.paddings, self.strides = kernel_sizes, dilations, paddings, strides
        self.name = name

    def forward(self, input: Any) -> Any:
        return _r.unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, padding={self.paddings}, "
                f"stride={self.strides}{_name_str(self.name)}")


class Fold(Layer):
    """Combine sliding blocks (col2im), see :func:`paddle.nn.functional.fold`.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Fold([3, 3], [2, 2])(paddle.ones([1, 8, 4])).shape
        paddle.Size([1, 2, 3, 3])
    """

    output_size = attr_alias("output_sizes")
    kernel_size = attr_alias("kernel_sizes")
    stride = attr_alias("strides")
    padding = attr_alias("paddings")
    dilation = attr_alias("dilations")

    @kw_alias("output_sizes", "output_size")
    @kw_alias("kernel_sizes", "kernel_size")
    @kw_alias("dilations", "dilation")
    @kw_alias("paddings", "padding")
    @kw_alias("strides", "stride")
    def __init__(self, output_sizes: Any, kernel_sizes: Any, dilations: Any = 1, paddings: Any = 0,
                 strides: Any = 1, name: str | None = None) -> None:
        super().__init__()
        self.output_sizes, self.kernel_sizes = output_sizes, kernel_sizes
        self.dilations, self.paddings, self.strides, self.name = dilations, paddings, strides, name

    def forward(self, input: Any) -> Any:
        return _r.fold(input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings,
                       self.dilations)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, padding={self.paddings}, "
                f"stride={self.strides}{_name_str(self.name)}")


class CosineSimilarity(Layer):
    """Cosine similarity along ``axis``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.CosineSimilarity(axis=0)(paddle.to_tensor([1.0, 0.0]), paddle.to_tensor([1.0, 0.0])).tolist()
        1.0
    """

    dim = attr_alias("_axis")

    @kw_alias("axis", "dim")
    def __init__(self, axis: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1: Any, x2: Any) -> Any:
        return _c.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"


class PairwiseDistance(Layer):
    """``p``-norm distance of ``x - y + epsilon`` along the last axis.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.PairwiseDistance(epsilon=0.0)(paddle.to_tensor([[3.0, 4.0]]), paddle.zeros([1, 2])).tolist()
        [5.0]
    """

    eps = attr_alias("epsilon")
    norm = attr_alias("p")

    @kw_alias("epsilon", "eps")
    def __init__(self, p: float = 2.0, epsilon: float = 1e-6, keepdim: bool = False,
                 name: str | None = None) -> None:
        super().__init__()
        self.p, self.epsilon, self.keepdim, self.name = p, epsilon, keepdim, name

    @kw_alias("x", "x1")
    @kw_alias("y", "x2")
    def forward(self, x: Any, y: Any) -> Any:
        return _c.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self) -> str:
        s = f"p={self.p}"
        if self.epsilon != 1e-6:
            s += f", epsilon={self.epsilon}"
        if self.keepdim is not False:
            s += f", keepdim={self.keepdim}"
        if self.name is not None:
            s += f", name={self.name}"
        return s
