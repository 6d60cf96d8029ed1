"""Attention layers: MultiHeadAttention (with incremental and static key/value caches), the
Transformer encoder and decoder layers and stacks, and Transformer.

The math is Paddle's (``softmax(q k^T / sqrt(d) + mask)``, dropout on the weights,
residual + dropout around each block, post- or pre-norm); the attention core runs on
torch's fused ``scaled_dot_product_attention`` unless the weights are asked for.
"""
from __future__ import annotations

import collections
import copy
from typing import Any, Sequence

import pagaie as _pg
from pagaie._core import dtype as _dt
from pagaie._ops import nn_attention as _a
from pagaie.nn import functional as F
from pagaie.nn.layer.common import Dropout, Linear
from pagaie.nn.layer.container import LayerList
from pagaie.nn.layer.layers import Layer
from pagaie.nn.layer.norm import LayerNorm

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


def _param_attr_list(param_attr: Any, n: int, api: str, arg: str) -> list:
    """One ParamAttr (or False) per sub-block of layer ``api``: a list is taken as is (Paddle's
    AssertionError naming ``arg`` unless it holds ``n``), a single attr is copied (a name gets
    the suffix ``_<i>``)."""
    from pagaie.framework.param_attr import ParamAttr
    if isinstance(param_attr, (list, tuple)):
        assert len(param_attr) == n, (f"paddle.nn.{api}: the length of {arg} should be {n} when "
                                      f"it is a list/tuple, but received {len(param_attr)}")
        out = []
        for attr in param_attr:
            if isinstance(attr, bool):
                out.append(ParamAttr._to_attr(None) if attr else False)
            else:
                out.append(ParamAttr._to_attr(attr))
        return out
    if isinstance(param_attr, bool):
        return [ParamAttr._to_attr(None) for _ in range(n)] if param_attr else [False] * n
    attr = ParamAttr._to_attr(param_attr)
    out = []
    for i in range(n):
        a = copy.deepcopy(attr)
        if attr.name:
            a.name = f"{a.name}_{i}"
        out.append(a)
    return out


def _convert_attention_mask(attn_mask: Any, dtype: Any) -> Any:
    """Bool/int masks (1 = attend) become additive ``(mask - 1) * 1e9``; float masks are cast."""
    if attn_mask is not None and attn_mask.dtype != dtype:
        name = _dt.convert_dtype(attn_mask.dtype) if hasattr(_dt, "convert_dtype") else \
            str(attn_mask.dtype).replace("paddle.", "")
        if name == "bool" or "int" in name:
            return (_pg.cast(attn_mask, dtype) - 1.0) * 1e9
        return _pg.cast(attn_mask, dtype)
    return attn_mask


def _check_mask(mask: Any, scores: Sequence) -> None:
    """``mask`` broadcasts (right-aligned) to the scores ``[batch, heads, len_q, len_k]``."""
    dims, scores = [int(d) for d in mask.shape], [int(d) for d in scores]
    if len(dims) > len(scores) or any(d not in (1, s) and min(d, s) >= 0
                                      for d, s in zip(dims[::-1], scores[::-1])):
        raise ValueError("paddle.nn.MultiHeadAttention: 'attn_mask' must broadcast to [batch_size, "
                         f"num_heads, len_q, len_k] = {scores}, but received shape {dims}")


class MultiHeadAttention(Layer):
    """Multi-head attention with projections ``q_proj, k_proj, v_proj, out_proj``.

    Args:
        embed_dim (int): model size (query size and output size).
        num_heads (int): heads; must divide ``embed_dim``.
        dropout (float): dropout on the attention weights. Default 0.
        kdim, vdim (int, optional): key / value sizes (``embed_dim`` when None).
        need_weights (bool): also return the attention weights.
        weight_attr, bias_attr (ParamAttr, optional): attributes of the projections.

    Call ``mha(query, key=None, value=None, attn_mask=None, cache=None)``: key and value
    default to query; ``attn_mask`` (bool/int with 1 = attend, or additive float) broadcasts
    to ``[batch, heads, len_q, len_k]``. Returns the output, plus the weights when
    ``need_weights`` and the updated cache when one is given.

    Examples:
        >>> import pagaie as paddle
        >>> mha = paddle.nn.MultiHeadAttention(16, 4)
        >>> mha(paddle.rand([2, 5, 16])).shape
        paddle.Size([2, 5, 16])
    """

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, kdim: int | None = None,
                 vdim: int | None = None, need_weights: bool = False, weight_attr: Any = None,
                 bias_attr: Any = None) -> None:
        super().__init__()
        api = "paddle.nn.MultiHeadAttention"
        assert embed_dim > 0, f"{api}: embed_dim must be greater than 0, but received {embed_dim}"
        assert num_heads > 0, f"{api}: num_heads must be greater than 0, but received {num_heads}"
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == self.embed_dim, (
            f"{api}: embed_dim ({embed_dim}) must be divisible by num_heads ({num_heads})")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _split_heads(self, x: Any) -> Any:
        """``[batch, seq, embed]`` -> ``[batch, seq, heads, head_dim]`` (a view)."""
        return _pg.reshape(x, [0, 0, self.num_heads, self.head_dim])

    def compute_kv(self, key: Any, value: Any) -> tuple:
        """Project keys and values to ``[batch, heads, seq, head_dim]`` (the cache layout).

        Examples:
            >>> import pagaie as paddle
            >>> mha = paddle.nn.MultiHeadAttention(16, 4)
            >>> k, v = mha.compute_kv(paddle.rand([2, 3, 16]), paddle.rand([2, 3, 16]))
            >>> k.shape
            paddle.Size([2, 4, 3, 4])
        """
        k = _pg.transpose(self._split_heads(self.k_proj(key)), [0, 2, 1, 3])
        v = _pg.transpose(self._split_heads(self.v_proj(value)), [0, 2, 1, 3])
        return k, v

    def _prepare_qkv(self, query: Any, key: Any, value: Any, cache: Any = None) -> tuple:
        q = _pg.transpose(self._split_heads(self.q_proj(query)), [0, 2, 1, 3])
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k = _pg.concat([cache.k, k], axis=2)
            v = _pg.concat([cache.v, v], axis=2)
            cache = self.Cache(k, v)
        return (q, k, v) if cache is None else (q, k, v, cache)

    def gen_cache(self, key: Any, value: Any = None, type: Any = Cache) -> Any:
        """Make a cache: ``StaticCache`` holds projected keys/values of ``key``/``value`` (for
        cross attention); ``Cache`` (default) starts empty, or wraps ``key``/``value`` as given,
        and grows at each incremental step.

        Examples:
            >>> import pagaie as paddle
            >>> mha = paddle.nn.MultiHeadAttention(16, 4)
            >>> cache = mha.gen_cache(paddle.rand([2, 1, 16]))
            >>> out, cache = mha(paddle.rand([2, 1, 16]), cache=cache)
            >>> cache.k.shape
            paddle.Size([2, 4, 1, 4])
        """
        type = MultiHeadAttention.Cache if type is None else type
        if type == MultiHeadAttention.StaticCache:
            k, v = self.compute_kv(key, value)
            return self.StaticCache(k, v)
        if value is None:
            shape = [int(key.shape[0]), self.num_heads, 0, self.head_dim]
            return self.Cache(_pg.full(shape, 0, key.dtype), _pg.full(shape, 0, key.dtype))
        return self.Cache(key, value)

    def forward(self, query: Any, key: Any = None, value: Any = None, attn_mask: Any = None,
                cache: Any = None) -> Any:
        key = query if key is None else key
        value = query if value is None else value
        if self.dropout and not 0 <= self.dropout <= 1:   # Paddle's dropout on the weights
            raise ValueError("paddle.nn.MultiHeadAttention: 'dropout' must be between 0 and 1, "
                             f"but received {self.dropout}")
        scale = self.head_dim ** -0.5
        if attn_mask is not None:
            attn_mask = _convert_attention_mask(attn_mask, query.dtype)
        weights = None
        if cache is None and not self.need_weights:
            # fast path: Paddle's [batch, seq, heads, dim] layout straight into the fused kernel
            q = self._split_heads(self.q_proj(query))
            k = self._split_heads(self.k_proj(key))
            v = self._split_heads(self.v_proj(value))
            out = _a.scaled_dot_product_attention(q, k, v, attn_mask, self.dropout, False, self.training,
                                                  None, scale)
        else:
            if cache is None:
                q, k, v = self._prepare_qkv(query, key, value)
            else:
                q, k, v, cache = self._prepare_qkv(query, key, value, cache)
            if self.need_weights:
                product = _pg.matmul(q * scale, k, transpose_y=True)
                if attn_mask is not None:
                    _check_mask(attn_mask, product.shape)
                    product = product + attn_mask
                weights = F.softmax(product)
                if self.dropout:
                    weights = F.dropout(weights, self.dropout, training=self.training,
                                        mode="upscale_in_train")
                out = _pg.transpose(_pg.matmul(weights, v), [0, 2, 1, 3])
            else:
                t = [0, 2, 1, 3]
                out = _a.scaled_dot_product_attention(_pg.transpose(q, t), _pg.transpose(k, t),
                                                      _pg.transpose(v, t), attn_mask, self.dropout, False,
                                                      self.training, None, scale)
        out = self.out_proj(_pg.reshape(out, [0, 0, self.embed_dim]))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)


def _check_sizes(api: str, d_model: int, nhead: int, dim_feedforward: int) -> None:
    """Paddle's AssertionError for a size that is not positive, naming the layer ``api``."""
    for name, value in (("d_model", d_model), ("nhead", nhead), ("dim_feedforward", dim_feedforward)):
        assert value > 0, f"paddle.nn.{api}: {name} must be greater than 0, but received {value}"


def _activation(api: str, name: str) -> Any:
    """The ``paddle.nn.functional`` activation called ``name``; Paddle's TypeError for a name
    that is not a string, its AttributeError for an unknown one."""
    if not isinstance(name, str):
        raise TypeError(f"paddle.nn.{api}: activation must be the name (str) of a function of "
                        f"paddle.nn.functional, but received {type(name).__name__} {name!r}")
    fn = getattr(F, name, None)
    if fn is None:
        raise AttributeError(f"paddle.nn.{api}: activation must name a function of "
                             f"paddle.nn.functional, but received {name!r}")
    return fn


class TransformerEncoderLayer(Layer):
    """Self-attention then a feed-forward block, each wrapped in residual + dropout and a
    LayerNorm (after the block, or before it when ``normalize_before``).

    Args:
        d_model (int): model size.
        nhead (int): attention heads.
        dim_feedforward (int): hidden size of the feed-forward block.
        dropout (float): dropout after each block (and the default of the two below). 0.1.
        activation (str): name of a ``paddle.nn.functional`` activation. 'relu'.
        attn_dropout (float, optional): dropout on attention weights.
        act_dropout (float, optional): dropout after the activation.
        normalize_before (bool): pre-norm. Default False.
        weight_attr, bias_attr (ParamAttr|list, optional): one attr, or a list of 2 (attention,
            feed-forward).
        layer_norm_eps (float): LayerNorm epsilon. 1e-5.

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.nn.TransformerEncoderLayer(16, 4, 32)
        >>> layer(paddle.rand([2, 5, 16]), paddle.rand([2, 4, 5, 5])).shape
        paddle.Size([2, 5, 16])
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None,
                 act_dropout: float | None = None, normalize_before: bool = False,
                 weight_attr: Any = None, bias_attr: Any = None, layer_norm_eps: float = 1e-5) -> None:
        config = dict(locals())
        config.pop("self")
        config.pop("__class__", None)
        super().__init__()
        self._config = config
        _check_sizes(type(self).__name__, d_model, nhead, dim_feedforward)
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        w = _param_attr_list(weight_attr, 2, type(self).__name__, "weight_attr")
        b = _param_attr_list(bias_attr, 2, type(self).__name__, "bias_attr")
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[0],
                                            bias_attr=b[0])
        self.linear1 = Linear(d_model, dim_feedforward, w[1], bias_attr=b[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[1], bias_attr=b[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(type(self).__name__, activation)

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, incremental_cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(src)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = residual + self.dropout2(src)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, incremental_cache)

    def gen_cache(self, src: Any) -> Any:
        """An empty incremental cache for the self-attention (see
        :meth:`MultiHeadAttention.gen_cache`)."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """``num_layers`` encoder layers (the first is ``encoder_layer``, the others fresh copies of
    its configuration), then an optional final norm.

    Examples:
        >>> import pagaie as paddle
        >>> enc = paddle.nn.TransformerEncoder(paddle.nn.TransformerEncoderLayer(16, 4, 32), 2)
        >>> enc(paddle.rand([2, 5, 16])).shape
        paddle.Size([2, 5, 16])
    """

    def __init__(self, encoder_layer: Layer, num_layers: int, norm: Layer | None = None) -> None:
        super().__init__()
        self.layers = LayerList([encoder_layer if i == 0 else type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src: Any, src_mask: Any = None, cache: Any = None) -> Any:
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        output = src
        new_caches = []
        for i, mod in enumerate(self.layers):
            if cache is None:
                output = mod(output, src_mask=src_mask)
            else:
                output, new_cache = mod(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src: Any) -> list:
        """One empty incremental cache per layer."""
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    """Self-attention, cross-attention over ``memory``, then feed-forward; each block wrapped in
    residual + dropout and a LayerNorm (post-norm, or pre-norm with ``normalize_before``).

    Args: as :class:`TransformerEncoderLayer`; ``weight_attr`` / ``bias_attr`` lists have 3
    entries (self-attention, cross-attention, feed-forward).

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.nn.TransformerDecoderLayer(16, 4, 32)
        >>> layer(paddle.rand([2, 4, 16]), paddle.rand([2, 6, 16])).shape
        paddle.Size([2, 4, 16])
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None,
                 act_dropout: float | None = None, normalize_before: bool = False,
                 weight_attr: Any = None, bias_attr: Any = None, layer_norm_eps: float = 1e-5) -> None:
        config = dict(locals())
        config.pop("self")
        config.pop("__class__", None)
        super().__init__()
        self._config = config
        _check_sizes(type(self).__name__, d_model, nhead, dim_feedforward)
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        w = _param_attr_list(weight_attr, 3, type(self).__name__, "weight_attr")
        b = _param_attr_list(bias_attr, 3, type(self).__name__, "bias_attr")
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[0],
                                            bias_attr=b[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout, weight_attr=w[1],
                                             bias_attr=b[1])
        self.linear1 = Linear(d_model, dim_feedforward, w[2], bias_attr=b[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[2], bias_attr=b[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(type(self).__name__, activation)

    def forward(self, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None,
                cache: Any = None) -> Any:
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, incremental_cache = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = residual + self.dropout1(tgt)
        if not self.normalize_before:
            tgt = self.norm1(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static_cache = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = residual + self.dropout2(tgt)
        if not self.normalize_before:
            tgt = self.norm2(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        tgt = residual + self.dropout3(tgt)
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (incremental_cache, static_cache))

    def gen_cache(self, memory: Any) -> tuple:
        """``(incremental Cache for self-attention, StaticCache of memory for cross-attention)``."""
        incremental = self.self_attn.gen_cache(memory, type=self.self_attn.Cache)
        static = self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache)
        return incremental, static


class TransformerDecoder(Layer):
    """``num_layers`` decoder layers (fresh copies of ``decoder_layer``'s configuration after the
    first), then an optional final norm.

    Examples:
        >>> import pagaie as paddle
        >>> dec = paddle.nn.TransformerDecoder(paddle.nn.TransformerDecoderLayer(16, 4, 32), 2)
        >>> dec(paddle.rand([2, 4, 16]), paddle.rand([2, 6, 16])).shape
        paddle.Size([2, 4, 16])
    """

    def __init__(self, decoder_layer: Layer, num_layers: int, norm: Layer | None = None) -> None:
        super().__init__()
        self.layers = LayerList([decoder_layer if i == 0 else type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Any, memory: Any, tgt_mask: Any = None, memory_mask: Any = None,
                cache: Any = None) -> Any:
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        output = tgt
        new_caches = []
        for i, mod in enumerate(self.layers):
            if cache is None:
                output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=None)
            else:
                output, new_cache = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                                        cache=cache[i])
                new_caches.append(new_cache)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory: Any, do_zip: bool = False) -> list:
        """Per layer ``(Cache, StaticCache)``; ``do_zip`` regroups them as
        ``[(Cache, ...), (StaticCache, ...)]``."""
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attrs(attr: Any) -> tuple:
    if isinstance(attr, (list, tuple)):
        if len(attr) == 1:
            return [attr[0]] * 2, [attr[0]] * 3
        if len(attr) == 2:
            return attr, [attr[0], attr[0], attr[-1]]
        if len(attr) == 3:
            return [attr[0], attr[-1]], attr
        raise AssertionError("paddle.nn.Transformer: the length of weight_attr should be 1, 2 or 3 "
                             f"when it is a list/tuple, but received {len(attr)}")
    return attr, attr


class Transformer(Layer):
    """Encoder-decoder Transformer (each stack ends with a LayerNorm).

    Args:
        d_model (int): model size. 512.
        nhead (int): heads. 8.
        num_encoder_layers, num_decoder_layers (int): depths. 6 and 6.
        dim_feedforward (int): feed-forward size. 2048.
        dropout, activation, attn_dropout, act_dropout, normalize_before: see
            :class:`TransformerEncoderLayer`.
        weight_attr, bias_attr (ParamAttr|list, optional): one attr, or a list of 1, 2 or 3.
        custom_encoder, custom_decoder (Layer, optional): replace the built stacks.

    Examples:
        >>> import pagaie as paddle
        >>> model = paddle.nn.Transformer(16, 4, 1, 1, 32)
        >>> mask = model.generate_square_subsequent_mask(4)
        >>> model(paddle.rand([2, 6, 16]), paddle.rand([2, 4, 16]), tgt_mask=mask).shape
        paddle.Size([2, 4, 16])
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: str = "relu", attn_dropout: float | None = None,
                 act_dropout: float | None = None, normalize_before: bool = False,
                 weight_attr: Any = None, bias_attr: Any = None, custom_encoder: Layer | None = None,
                 custom_decoder: Layer | None = None) -> None:
        super().__init__()
        _check_sizes(type(self).__name__, d_model, nhead, dim_feedforward)
        if isinstance(bias_attr, (list, tuple)) and len(bias_attr) not in (1, 2, 3):
            raise AssertionError("paddle.nn.Transformer: the length of bias_attr should be 1, 2 or 3 "
                                 f"when it is a list/tuple, but received {len(bias_attr)}")
        enc_b, dec_b = _split_attrs(bias_attr)
        enc_w, dec_w = _split_attrs(weight_attr)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            attn_dropout, act_dropout, normalize_before, enc_w, enc_b)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            attn_dropout, act_dropout, normalize_before, dec_w, dec_b)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src: Any, tgt: Any, src_mask: Any = None, tgt_mask: Any = None,
                memory_mask: Any = None) -> Any:
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length: Any) -> Any:
        """``[length, length]`` additive mask: 0 on and below the diagonal, -inf above.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Transformer(16, 4, 1, 1, 32).generate_square_subsequent_mask(2).tolist()
            [[0.0, -inf], [0.0, 0.0]]
        """
        # ``full`` reads the length: an int or an integer Tensor, anything else Paddle's TypeError
        return _pg.triu(_pg.full([length, length], float("-inf"), _dt.get_default_dtype()), 1)
