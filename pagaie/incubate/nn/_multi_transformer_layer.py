"""``paddle.incubate.nn.FusedMultiTransformer``: the Layer that owns the per-layer weights of
:func:`pagaie.incubate.nn.functional.fused_multi_transformer`."""
from __future__ import annotations

from typing import Any

from pagaie._core import dtype as _dt
from pagaie.incubate.nn._multi_transformer import fused_multi_transformer
from pagaie.nn.initializer import Constant
from pagaie.nn.layer.layers import Layer

_NAME = "paddle.incubate.nn.FusedMultiTransformer"


class FusedMultiTransformer(Layer):
    """A stack of ``num_layers`` transformer decoder layers with fused weights (see
    :func:`pagaie.incubate.nn.functional.fused_multi_transformer`).

    Per layer it holds ``ln_scales``, ``qkv_weights`` (``[3, num_heads, head_dim, embed_dim]``,
    or ``[num_heads + 2 * gqa_group_size, ...]``; the embed axis first when ``trans_qkvw`` is
    False), ``linear_weights``, ``ffn_ln_scales``, ``ffn1_weights`` and ``ffn2_weights``;
    a bias list exists only when its ``*_attrs`` argument is given (else it is None). The
    number of layers comes from ``num_layers`` or the length of ``qkv_weight_attrs``.

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.incubate.nn.FusedMultiTransformer(8, 2, 16, num_layers=2)
        >>> layer(paddle.rand([1, 3, 8])).shape
        paddle.Size([1, 3, 8])
    """

    def __init__(self, embed_dim: int, num_heads: int, dim_feedforward: int,
                 dropout_rate: float = 0.0, activation: str = "gelu",
                 normalize_before: bool = True, ln_scale_attrs: Any = None,
                 ln_bias_attrs: Any = None, qkv_weight_attrs: Any = None,
                 qkv_bias_attrs: Any = None, linear_weight_attrs: Any = None,
                 linear_bias_attrs: Any = None, ffn_ln_scale_attrs: Any = None,
                 ffn_ln_bias_attrs: Any = None, ffn1_weight_attrs: Any = None,
                 ffn1_bias_attrs: Any = None, ffn2_weight_attrs: Any = None,
                 ffn2_bias_attrs: Any = None, epsilon: float = 1e-5,
                 residual_alpha: float = 1.0, num_layers: int = -1, nranks: int = 1,
                 trans_qkvw: bool = True, ring_id: int = -1, norm_type: str = "layernorm",
                 use_neox_rotary_style: bool = False, gqa_group_size: int = -1,
                 name: str | None = None) -> None:
        super().__init__()
        for arg, v in (("embed_dim", embed_dim), ("num_heads", num_heads),
                       ("dim_feedforward", dim_feedforward)):
            if v <= 0:
                raise AssertionError(f"{_NAME}: expected '{arg}' to be greater than 0, but "
                                     f"received {v}")
        if embed_dim % num_heads:
            raise AssertionError(f"{_NAME}: 'embed_dim' ({embed_dim}) must be divisible by "
                                 f"'num_heads' ({num_heads})")
        if num_heads % nranks or dim_feedforward % nranks:
            raise AssertionError(f"{_NAME}: 'num_heads' and 'dim_feedforward' must be "
                                 f"divisible by 'nranks' ({nranks})")
        if isinstance(qkv_weight_attrs, (list, tuple)):
            num_layers = len(qkv_weight_attrs)
        if num_layers <= 0:
            raise AssertionError(f"{_NAME}: 'num_layers' must be positive (or given by the "
                                 f"length of 'qkv_weight_attrs'), but received {num_layers}")
        self.normalize_before, self._epsilon = normalize_before, epsilon
        self._residual_alpha, self._trans_qkvw, self._ring_id = residual_alpha, trans_qkvw, ring_id
        self._norm_type, self._use_neox_rotary_style = norm_type, use_neox_rotary_style
        self._gqa_group_size = gqa_group_size
        self._dtype = _dt.get_default_dtype()
        self._norm_weight_dtype = "float32" if norm_type == "layernorm" else self._dtype
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        heads, ffn = num_heads // nranks, dim_feedforward // nranks
        self._dim_feedforward = ffn
        self.dropout_rate, self.activation, self.name = dropout_rate, activation, name
        slots = [3, heads] if gqa_group_size <= 0 else [heads + 2 * gqa_group_size]
        glu = 2 if activation.endswith("glu") else 1
        nw, dt = self._norm_weight_dtype, self._dtype
        one = Constant(1.0)
        specs = [  # list name, shape, attrs, dtype, is_bias, optional, initializer
            ("ln_scales", [embed_dim], ln_scale_attrs, nw, False, False, one),
            ("ln_biases", [embed_dim], ln_bias_attrs, nw, True, True, None),
            ("qkv_weights", [*slots, self.head_dim, embed_dim] if trans_qkvw
             else [embed_dim, *slots, self.head_dim], qkv_weight_attrs, dt, False, False, None),
            ("qkv_biases", [*slots, self.head_dim], qkv_bias_attrs, dt, True, True, None),
            ("linear_weights", [heads * self.head_dim, embed_dim], linear_weight_attrs, dt,
             False, False, None),
            ("linear_biases", [embed_dim], linear_bias_attrs, dt, True, True, None),
            ("ffn_ln_scales", [embed_dim], ffn_ln_scale_attrs, nw, False, False, one),
            ("ffn_ln_biases", [embed_dim], ffn_ln_bias_attrs, nw, True, True, None),
            ("ffn1_weights", [embed_dim, ffn * glu], ffn1_weight_attrs, dt, False, False, None),
            ("ffn1_biases", [ffn * glu], ffn1_bias_attrs, dt, True, True, None),
            ("ffn2_weights", [ffn, embed_dim], ffn2_weight_attrs, dt, False, False, None),
            ("ffn2_biases", [embed_dim], ffn2_bias_attrs, dt, True, True, None),
        ]
        lists: dict = {spec[0]: [] for spec in specs}
        for i in range(num_layers):
            for lname, shape, attrs, dtype, is_bias, optional, init in specs:
                attr = attrs[i] if isinstance(attrs, (list, tuple)) else attrs
                if optional and not attr:
                    continue
                p = self.create_parameter(shape=shape, attr=attr, dtype=dtype, is_bias=is_bias,
                                          default_initializer=init)
                self._parameters[p.name] = p
                lists[lname].append(p)
        for lname, params in lists.items():
            object.__setattr__(self, lname, params or None)

    def forward(self, src, attn_mask=None, caches=None, pre_caches=None, rotary_embs=None,
                rotary_emb_dims=0, beam_offset=None, seq_lens=None, time_step=None):
        """Run the stack on ``src`` ``[batch, seq, embed_dim]``; with ``caches`` returns
        ``(out, caches)``."""
        return fused_multi_transformer(
            src, self.ln_scales, self.ln_biases, self.qkv_weights, self.qkv_biases,
            self.linear_weights, self.linear_biases, self.ffn_ln_scales, self.ffn_ln_biases,
            self.ffn1_weights, self.ffn1_biases, self.ffn2_weights, self.ffn2_biases,
            pre_layer_norm=self.normalize_before, epsilon=self._epsilon,
            residual_alpha=self._residual_alpha, cache_kvs=caches, beam_offset=beam_offset,
            pre_caches=pre_caches, seq_lens=seq_lens, rotary_embs=rotary_embs,
            time_step=time_step, attn_mask=attn_mask, dropout_rate=self.dropout_rate,
            rotary_emb_dims=rotary_emb_dims, activation=self.activation,
            training=self.training, mode="upscale_in_train", trans_qkvw=self._trans_qkvw,
            ring_id=self._ring_id, norm_type=self._norm_type,
            use_neox_rotary_style=self._use_neox_rotary_style,
            gqa_group_size=self._gqa_group_size, name=self.name)
