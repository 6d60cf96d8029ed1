"""``paddle.incubate.nn``: Layers over the fused ops of :mod:`pagaie.incubate.nn.functional`."""
from __future__ import annotations

from typing import Any

from pagaie._core import dtype as _dt
from pagaie.incubate.nn import functional  # noqa: F401
from pagaie.incubate.nn import functional as _IF
from pagaie.nn import functional as _F
from pagaie.nn.layer.layers import Layer
from pagaie.nn.initializer import Constant

__all__ = ["FusedLinear", "FusedDropoutAdd", "FusedDropout", "FusedBiasDropoutResidualLayerNorm",
           "FusedFeedForward", "FusedMultiHeadAttention", "FusedTransformerEncoderLayer",
           "FusedMultiTransformer"]


def _check_positive(layer: str, **sizes: int) -> None:
    # Paddle checks these sizes with ``assert``, so a bad one raises AssertionError.
    for arg, v in sizes.items():
        if v <= 0:
            raise AssertionError(f"paddle.incubate.nn.{layer}: expected '{arg}' to be greater "
                                 f"than 0, but received {v}")


class FusedLinear(Layer):
    """``x @ weight + bias`` with ``weight`` ``[in_features, out_features]``
    (``[out_features, in_features]`` with ``transpose_weight``).

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.incubate.nn.FusedLinear(4, 2)
        >>> list(layer(paddle.ones([3, 4])).shape)
        [3, 2]
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Any = None, transpose_weight: bool = False, name: str | None = None):
        super().__init__()
        shape = [out_features, in_features] if transpose_weight else [in_features, out_features]
        self._dtype = _dt.get_default_dtype()
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=self._dtype,
                                            is_bias=False)
        self.bias = self.create_parameter([out_features], attr=bias_attr, dtype=self._dtype,
                                          is_bias=True)
        self.transpose_weight = transpose_weight
        self.name = name

    def forward(self, input):
        return _IF.fused_linear(input, self.weight, self.bias, self.transpose_weight)


class FusedDropoutAdd(Layer):
    """``dropout(x) + y``.

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.incubate.nn.FusedDropoutAdd(p=0.5)
        >>> _ = layer.eval()
        >>> layer(paddle.ones([2]), paddle.ones([2])).tolist()
        [2.0, 2.0]
    """

    def __init__(self, p: float = 0.5, mode: str = "upscale_in_train", name: str | None = None):
        super().__init__()
        self.p, self.mode, self.name = p, mode, name

    def forward(self, x, y):
        return _IF.fused_dropout_add(x, y, p=self.p, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        name_str = f", name={self.name}" if self.name else ""
        return f"p={self.p}, mode={self.mode}{name_str}"


class FusedDropout(Layer):
    """Dropout (the fused kernel's Layer form).

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.incubate.nn.FusedDropout(p=0.5)
        >>> _ = layer.eval()
        >>> layer(paddle.ones([2])).tolist()
        [1.0, 1.0]
    """

    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        if not isinstance(p, (float, int)):
            raise TypeError(f"paddle.incubate.nn.FusedDropout: 'p' should be a number, but "
                            f"received {type(p).__name__}")
        if not 0 <= p <= 1:
            raise ValueError(f"paddle.incubate.nn.FusedDropout: 'p' should be between 0 and 1, "
                             f"but received {p!r}")
        if mode not in ("upscale_in_train", "downscale_in_infer"):
            raise ValueError("paddle.incubate.nn.FusedDropout: 'mode' should be "
                             f"'downscale_in_infer' or 'upscale_in_train', but received {mode!r}")
        if axis is not None and not isinstance(axis, (int, list, tuple)):
            raise TypeError("paddle.incubate.nn.FusedDropout: 'axis' should be an int or a list, "
                            f"but received {type(axis).__name__}")
        # as in Paddle, the axes are kept (and shown) as a list
        self.axis = None if axis is None else [axis] if isinstance(axis, int) else list(axis)
        self.p, self.mode, self.name = p, mode, name

    def forward(self, input):
        return _F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        name_str = f", name={self.name}" if self.name else ""
        return f"p={self.p}, axis={self.axis}, mode={self.mode}{name_str}"


class FusedBiasDropoutResidualLayerNorm(Layer):
    """``layer_norm(residual + dropout(x + linear_bias))``.

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.incubate.nn.FusedBiasDropoutResidualLayerNorm(4, dropout_rate=0.0)
        >>> list(layer(paddle.rand([2, 3, 4]), paddle.rand([2, 3, 4])).shape)
        [2, 3, 4]
    """

    def __init__(self, embed_dim: int, dropout_rate: float = 0.5, weight_attr: Any = None,
                 bias_attr: Any = None, epsilon: float = 1e-05, name: str | None = None):
        super().__init__()
        _check_positive("FusedBiasDropoutResidualLayerNorm", embed_dim=embed_dim)
        self._dtype = _dt.get_default_dtype()
        self.linear_bias = self.create_parameter([embed_dim], attr=bias_attr, dtype=self._dtype,
                                                 is_bias=True)
        self.ln_scale = self.create_parameter([embed_dim], attr=weight_attr, dtype=self._dtype,
                                              default_initializer=Constant(1.0))
        self.ln_bias = self.create_parameter([embed_dim], attr=bias_attr, dtype=self._dtype,
                                             is_bias=True)
        self.embed_dim, self.dropout_rate, self._epsilon, self.name = (embed_dim, dropout_rate,
                                                                      epsilon, name)

    def forward(self, x, residual):
        return _IF.fused_bias_dropout_residual_layer_norm(
            x, residual, self.linear_bias, self.ln_scale, self.ln_bias, self.dropout_rate,
            self._epsilon, self.training)

    def extra_repr(self) -> str:
        return (f"embed_dim={self.embed_dim}, dropout_rate={self.dropout_rate}, "
                f"epsilon={self._epsilon}, dtype={self._dtype}")


class FusedFeedForward(Layer):
    """Transformer feed-forward block (see :func:`functional.fused_feedforward`).

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.incubate.nn.FusedFeedForward(8, 16)
        >>> list(layer(paddle.rand([2, 3, 8])).shape)
        [2, 3, 8]
    """

    def __init__(self, d_model: int, dim_feedforward: int, dropout_rate: float = 0.1,
                 epsilon: float = 1e-05, activation: str = "relu", act_dropout_rate=None,
                 normalize_before: bool = False, linear1_weight_attr=None, linear1_bias_attr=None,
                 linear2_weight_attr=None, linear2_bias_attr=None, ln1_scale_attr=None,
                 ln1_bias_attr=None, ln2_scale_attr=None, ln2_bias_attr=None, nranks: int = 1,
                 ring_id: int = -1, name: str | None = None):
        super().__init__()
        _check_positive("FusedFeedForward", d_model=d_model, dim_feedforward=dim_feedforward)
        self._dtype = _dt.get_default_dtype()
        self._dropout_rate = dropout_rate
        self._act_dropout_rate = dropout_rate if act_dropout_rate is None else act_dropout_rate
        self._act_method, self._normalize_before, self._epsilon = activation, normalize_before, epsilon
        self._d_model, self._dim_feedforward = d_model, dim_feedforward
        mk = self.create_parameter
        self._linear1_weight = mk([d_model, dim_feedforward], attr=linear1_weight_attr,
                                  dtype=self._dtype, is_bias=False)
        self._linear1_bias = mk([dim_feedforward], attr=linear1_bias_attr, dtype=self._dtype,
                                is_bias=True)
        self._linear2_weight = mk([dim_feedforward, d_model], attr=linear2_weight_attr,
                                  dtype=self._dtype, is_bias=False)
        self._linear2_bias = mk([d_model], attr=linear2_bias_attr, dtype=self._dtype, is_bias=True)
        pre = "_ln1" if normalize_before else "_ln2"
        s_attr, b_attr = ((ln1_scale_attr, ln1_bias_attr) if normalize_before
                          else (ln2_scale_attr, ln2_bias_attr))
        setattr(self, pre + "_scale", mk([d_model], attr=s_attr, dtype=self._dtype,
                                         default_initializer=Constant(1.0)))
        setattr(self, pre + "_bias", mk([d_model], attr=b_attr, dtype=self._dtype, is_bias=True))
        self.name = name

    def forward(self, src, cache=None):
        pre = self._normalize_before
        return _IF.fused_feedforward(
            src, self._linear1_weight, self._linear2_weight, self._linear1_bias,
            self._linear2_bias, getattr(self, "_ln1_scale", None), getattr(self, "_ln1_bias", None),
            getattr(self, "_ln2_scale", None), getattr(self, "_ln2_bias", None),
            self._act_dropout_rate, self._dropout_rate, self._act_method, self._epsilon,
            self._epsilon, pre, self.training)

    def extra_repr(self) -> str:
        return (f"d_model={self._d_model}, dim_feedforward={self._dim_feedforward}, "
                f"dropout_rate={self._dropout_rate}, epsilon={self._epsilon}, "
                f"activation={self._act_method}, act_dropout_rate={self._act_dropout_rate}, "
                f"normalize_before={self._normalize_before}, dtype={self._dtype}")


class FusedMultiHeadAttention(Layer):
    """Multi-head self-attention block (see :func:`functional.fused_multi_head_attention`).

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.incubate.nn.FusedMultiHeadAttention(8, 2)
        >>> list(layer(paddle.rand([2, 3, 8])).shape)
        [2, 3, 8]
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout_rate: float = 0.5,
                 attn_dropout_rate: float = 0.5, kdim=None, vdim=None,
                 normalize_before: bool = False, need_weights: bool = False,
                 qkv_weight_attr=None, qkv_bias_attr=None, linear_weight_attr=None,
                 linear_bias_attr=None, pre_ln_scale_attr=None, pre_ln_bias_attr=None,
                 ln_scale_attr=None, ln_bias_attr=None, epsilon: float = 1e-05, nranks: int = 1,
                 ring_id: int = -1, transpose_qkv_wb: bool = False, name: str | None = None):
        super().__init__()
        api = "FusedMultiHeadAttention"
        _check_positive(api, embed_dim=embed_dim, num_heads=num_heads)
        if embed_dim % num_heads:
            raise AssertionError(f"paddle.incubate.nn.{api}: 'embed_dim' ({embed_dim}) must be "
                                 f"divisible by 'num_heads' ({num_heads})")
        if need_weights is not False:
            raise AssertionError(f"paddle.incubate.nn.{api}: only need_weights=False is "
                                 f"supported, but received {need_weights!r}")
        self._dtype = _dt.get_default_dtype()
        self.normalize_before, self._epsilon = normalize_before, epsilon
        self.embed_dim, self.num_heads, self.head_dim = embed_dim, num_heads, embed_dim // num_heads
        self.kdim, self.vdim, self.need_weights = kdim, vdim, need_weights
        self.transpose_qkv_wb = transpose_qkv_wb
        mk = self.create_parameter
        qkv_shape = ([embed_dim, 3 * embed_dim] if transpose_qkv_wb
                     else [3, num_heads, self.head_dim, embed_dim])
        bias_shape = [3 * embed_dim] if transpose_qkv_wb else [3, num_heads, self.head_dim]
        self.qkv_weight = mk(qkv_shape, attr=qkv_weight_attr, dtype=self._dtype, is_bias=False)
        self.qkv_bias = mk(bias_shape, attr=qkv_bias_attr, dtype=self._dtype, is_bias=True)
        self.linear_weight = mk([embed_dim, embed_dim], attr=linear_weight_attr,
                                dtype=self._dtype, is_bias=False)
        self.linear_bias = mk([embed_dim], attr=linear_bias_attr, dtype=self._dtype, is_bias=True)
        one = Constant(1.0)
        if normalize_before:
            self.pre_ln_scale = mk([embed_dim], attr=pre_ln_scale_attr, dtype=self._dtype,
                                   default_initializer=one)
            self.pre_ln_bias = mk([embed_dim], attr=pre_ln_bias_attr, dtype=self._dtype,
                                  is_bias=True)
            self.ln_scale = self.ln_bias = None
        else:
            self.pre_ln_scale = self.pre_ln_bias = None
            self.ln_scale = mk([embed_dim], attr=ln_scale_attr, dtype=self._dtype,
                               default_initializer=one)
            self.ln_bias = mk([embed_dim], attr=ln_bias_attr, dtype=self._dtype, is_bias=True)
        self.dropout_rate, self.attn_dropout_rate, self.name = dropout_rate, attn_dropout_rate, name

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        return _IF.fused_multi_head_attention(
            query, self.qkv_weight, self.linear_weight, self.normalize_before, self.pre_ln_scale,
            self.pre_ln_bias, self.ln_scale, self.ln_bias, self._epsilon, self.qkv_bias,
            self.linear_bias, cache, attn_mask, self.dropout_rate, self.attn_dropout_rate,
            self._epsilon, self.training, num_heads=self.num_heads,
            transpose_qkv_wb=self.transpose_qkv_wb)

    def extra_repr(self) -> str:
        return (f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, "
                f"dropout_rate={self.dropout_rate}, attn_dropout_rate={self.attn_dropout_rate}, "
                f"epsilon={self._epsilon}, kdim={self.kdim}, vdim={self.vdim}, "
                f"normalize_before={self.normalize_before}, need_weights={self.need_weights}, "
                f"dtype={self._dtype}")


class FusedTransformerEncoderLayer(Layer):
    """Transformer encoder layer: :class:`FusedMultiHeadAttention` then
    :class:`FusedFeedForward` (sublayers ``fused_attn`` and ``ffn``).

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.incubate.nn.FusedTransformerEncoderLayer(8, 2, 16)
        >>> list(layer(paddle.rand([2, 3, 8])).shape)
        [2, 3, 8]
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout_rate: float = 0.1,
                 activation: str = "relu", attn_dropout_rate=None, act_dropout_rate=None,
                 normalize_before: bool = False, weight_attr=None, bias_attr=None):
        super().__init__()
        _check_positive("FusedTransformerEncoderLayer", d_model=d_model, nhead=nhead,
                        dim_feedforward=dim_feedforward)
        self._config = {"d_model": d_model, "nhead": nhead, "dim_feedforward": dim_feedforward,
                        "dropout_rate": dropout_rate, "activation": activation,
                        "attn_dropout_rate": attn_dropout_rate,
                        "act_dropout_rate": act_dropout_rate,
                        "normalize_before": normalize_before, "weight_attr": weight_attr,
                        "bias_attr": bias_attr}
        attn_drop = dropout_rate if attn_dropout_rate is None else attn_dropout_rate
        act_drop = dropout_rate if act_dropout_rate is None else act_dropout_rate
        w = weight_attr if isinstance(weight_attr, (list, tuple)) else [weight_attr] * 2
        b = bias_attr if isinstance(bias_attr, (list, tuple)) else [bias_attr] * 2
        self.normalize_before = normalize_before
        self.fused_attn = FusedMultiHeadAttention(
            d_model, nhead, dropout_rate=dropout_rate, attn_dropout_rate=attn_drop,
            normalize_before=normalize_before, qkv_weight_attr=w[0], qkv_bias_attr=b[0],
            linear_weight_attr=w[0], linear_bias_attr=b[0], pre_ln_scale_attr=w[0],
            pre_ln_bias_attr=b[0], ln_scale_attr=w[0], ln_bias_attr=b[0])
        self.ffn = FusedFeedForward(
            d_model, dim_feedforward, dropout_rate=dropout_rate, activation=activation,
            act_dropout_rate=act_drop, normalize_before=normalize_before,
            linear1_weight_attr=w[-1], linear1_bias_attr=b[-1], linear2_weight_attr=w[-1],
            linear2_bias_attr=b[-1])

    def forward(self, src, src_mask=None, cache=None):
        if cache is None:
            return self.ffn(self.fused_attn(src, attn_mask=src_mask))
        out, new_cache = self.fused_attn(src, attn_mask=src_mask, cache=cache)
        return self.ffn(out), new_cache


from pagaie.incubate.nn._multi_transformer_layer import FusedMultiTransformer  # noqa: E402
