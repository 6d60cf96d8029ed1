"""``paddle.compat.nn.MultiheadAttention``: PyTorch's multi-head attention (its argument names,
``[seq, batch, feature]`` layout unless ``batch_first``, packed ``in_proj_weight``, masks where
True hides a position) over pagaie's public ops."""
from __future__ import annotations

from typing import Any

import pagaie as _pg
from pagaie.compat.nn import functional as _CF
from pagaie.compat.nn.layers import Linear
from pagaie.nn import functional as F
from pagaie.nn.initializer import XavierNormal, XavierUniform
from pagaie.nn.layer.layers import Layer

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Layer):
    """PyTorch-style multi-head attention ``softmax(Q K^T / sqrt(head_dim) + mask) V``, each of
    ``num_heads`` heads on its slice of the projections, then ``out_proj``.

    Args:
        embed_dim (int): model width (query size and output size).
        num_heads (int): number of heads; must divide ``embed_dim``.
        dropout (float, optional): dropout on the attention weights (training only).
        bias (bool, optional): biases of the projections.
        add_bias_kv (bool, optional): a learned row appended to the keys and to the values.
        add_zero_attn (bool, optional): a zero row appended to the keys and values (after the
            projections).
        kdim, vdim (int, optional): key and value widths (``embed_dim`` when None); when both
            are ``embed_dim`` the three input projections are one ``in_proj_weight``
            ``[3 * embed_dim, embed_dim]``, else ``q_proj_weight``, ``k_proj_weight``,
            ``v_proj_weight`` (each ``[embed_dim, in_width]``).
        batch_first (bool, optional): inputs and output are ``[batch, seq, feature]``.
        device (str|Place, optional): where the parameters live.
        dtype (str|paddle.dtype, optional): the parameters' dtype.

    Call ``mha(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True, is_causal=False)``: masks are bool (True hides) or additive
    float; ``key_padding_mask`` is ``[batch, seq_k]``, ``attn_mask`` ``[seq_q, seq_k]`` or
    ``[batch * num_heads, seq_q, seq_k]``. Returns ``(output, weights)``: the weights
    (averaged over the heads unless ``average_attn_weights`` is False) or None without
    ``need_weights``.

    Examples:
        >>> import pagaie as paddle
        >>> mha = paddle.compat.nn.MultiheadAttention(8, 2, batch_first=True)
        >>> x = paddle.rand([3, 5, 8])
        >>> out, weights = mha(x, x, x)
        >>> out.shape, weights.shape
        (paddle.Size([3, 5, 8]), paddle.Size([3, 5, 5]))
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(dtype=dtype) if dtype else super().__init__()
        self.embed_dim = embed_dim
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == embed_dim
        self.add_bias_kv = add_bias_kv
        self.add_zero_attn = add_zero_attn
        self._make_projections(bias, device)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, dtype=self._dtype)
        self.bias_k = self.bias_v = None
        if add_bias_kv:
            self.bias_k = self._param([1, 1, embed_dim], True, device, XavierNormal())
            self.bias_v = self._param([1, 1, embed_dim], True, device, XavierNormal())

    def _param(self, shape: list, is_bias: bool, device: Any, init: Any = None) -> Any:
        return self.create_parameter(shape, dtype=self._dtype, is_bias=is_bias, device=device,
                                     default_initializer=init)

    def _make_projections(self, bias: bool, device: Any) -> None:
        """The input projections, packed (``in_proj_*``) or one per input (``*_proj_*``);
        the other set's attributes hold None, as in PyTorch."""
        e = self.embed_dim
        self.in_proj_bias = self.q_proj_bias = self.k_proj_bias = self.v_proj_bias = None
        if self._qkv_same_embed_dim:
            self.in_proj_weight = self._param([3 * e, e], False, device, XavierUniform())
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
            if bias:
                self.in_proj_bias = self._param([3 * e], True, device)
            return
        self.q_proj_weight = self._param([e, e], False, device, XavierUniform())
        self.k_proj_weight = self._param([e, self.kdim], False, device, XavierUniform())
        self.v_proj_weight = self._param([e, self.vdim], False, device, XavierUniform())
        self.in_proj_weight = None
        if bias:
            self.q_proj_bias = self._param([e], True, device)
            self.k_proj_bias = self._param([e], True, device)
            self.v_proj_bias = self._param([e], True, device)

    def _project(self, query: Any, key: Any, value: Any) -> list:
        """``[batch, seq, width]`` inputs -> their ``[batch, seq, embed_dim]`` projections."""
        if self._qkv_same_embed_dim:
            weights = _pg.chunk(self.in_proj_weight, 3, axis=0)
            biases = (_pg.chunk(self.in_proj_bias, 3, axis=0) if self.in_proj_bias is not None
                      else [None] * 3)
        else:
            weights = [self.q_proj_weight, self.k_proj_weight, self.v_proj_weight]
            biases = [self.q_proj_bias, self.k_proj_bias, self.v_proj_bias]
        return [F.linear(x, w.T, b) for x, w, b in zip((query, key, value), weights, biases)]

    def _heads(self, x: Any) -> Any:
        """``[batch, seq, embed_dim]`` -> ``[batch, heads, seq, head_dim]``."""
        return x.reshape([x.shape[0], x.shape[1], self.num_heads, self.head_dim]).transpose([0, 2, 1, 3])

    def _extra_keys(self) -> int:
        return int(self.add_bias_kv) + int(self.add_zero_attn)

    def _hiding(self, mask: Any, dtype: Any) -> Any:
        """A bool mask (True hides) as an additive one: the dtype's lowest value where hidden."""
        low = _pg.full([], _pg.finfo(dtype).min, dtype)
        return _pg.where(mask, low, _pg.zeros(mask.shape, dtype))

    def _final_mask(self, attn_mask: Any, key_padding_mask: Any, len_q: int, len_k: int,
                    dtype: Any, batch: int, is_causal: bool, need_weights: bool) -> Any:
        """The additive ``[batch, heads, len_q, keys]`` mask combining ``attn_mask``,
        ``key_padding_mask`` and causality, or None where the attention needs none (a causal
        attention with nothing else to mask runs as such)."""
        extra = self._extra_keys()
        if is_causal and not extra and key_padding_mask is None and not need_weights:
            return None
        if attn_mask is None and key_padding_mask is None and not is_causal:
            return None
        if attn_mask is None:
            attn_mask = (_pg.triu(_pg.ones([len_q, len_k], "bool"), 1) if is_causal
                         else _pg.zeros([len_q, len_k], dtype))
        if extra:   # the appended keys are visible to every query
            attn_mask = _pad_keys(attn_mask, extra)
            key_padding_mask = None if key_padding_mask is None else _pad_keys(key_padding_mask, extra)
        if attn_mask.dim() == 2:
            attn_mask = attn_mask.expand([batch * self.num_heads, *attn_mask.shape])
        if attn_mask.dim() == 3:   # PyTorch's [batch * heads, len_q, keys]
            attn_mask = attn_mask.reshape([batch, self.num_heads, len_q, -1])
        if key_padding_mask is not None:
            pad = key_padding_mask.unsqueeze([1, 2]).tile([1, *attn_mask.shape[1:3], 1])
            if attn_mask.dtype == _pg.bool and pad.dtype == _pg.bool:
                attn_mask = attn_mask | pad
            else:
                attn_mask = (self._as_additive(attn_mask, dtype) + self._as_additive(pad, dtype))
        return self._as_additive(attn_mask, dtype)

    def _as_additive(self, mask: Any, dtype: Any) -> Any:
        if mask.dtype == dtype:
            return mask
        return self._hiding(mask, dtype) if mask.dtype == _pg.bool else mask.astype(dtype)

    def _attend(self, q: Any, k: Any, v: Any, mask: Any, need_weights: bool,
                is_causal: bool) -> tuple:
        """``[batch, heads, seq, head_dim]`` heads -> (``[batch, len_q, embed_dim]``, the
        per-head weights or None)."""
        batch, _, len_q, _ = q.shape
        p = self.dropout if self.training else 0.0
        if not need_weights:
            out = _CF.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p,
                                                   is_causal=is_causal and mask is None)
            return out.transpose([0, 2, 1, 3]).reshape([batch, len_q, self.embed_dim]), None
        scores = _pg.matmul(q, k, transpose_y=True) / (self.head_dim ** 0.5)
        if mask is not None:
            scores = scores + mask
        weights = F.dropout(F.softmax(scores, axis=-1), self.dropout, training=self.training)
        out = _pg.matmul(weights, v).transpose([0, 2, 1, 3]).reshape([batch, len_q, self.embed_dim])
        return out, weights

    def forward(self, query: Any, key: Any, value: Any, key_padding_mask: Any = None,
                need_weights: bool = True, attn_mask: Any = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple:
        batched = query.dim() == 3
        batch_axis = 0 if self.batch_first else 1
        if not batched:
            query, key, value = (t.unsqueeze(batch_axis) for t in (query, key, value))
            if key_padding_mask is not None and key_padding_mask.dim() != 2:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        if not self.batch_first:
            query, key, value = (t.transpose([1, 0, 2]) for t in (query, key, value))
        batch, len_q, _ = query.shape
        len_k = key.shape[1]
        if key_padding_mask is not None:
            assert key_padding_mask.shape == (batch, len_k)
        q, k, v = self._project(query, key, value)
        if self.add_bias_kv:
            k = _pg.concat([k, self.bias_k.expand([batch, -1, -1])], axis=1)
            v = _pg.concat([v, self.bias_v.expand([batch, -1, -1])], axis=1)
        q, k, v = self._heads(q), self._heads(k), self._heads(v)
        if self.add_zero_attn:
            zeros = _pg.zeros([batch, self.num_heads, 1, self.head_dim], k.dtype)
            k, v = _pg.concat([k, zeros], axis=2), _pg.concat([v, zeros], axis=2)
        mask = self._final_mask(attn_mask, key_padding_mask, len_q, len_k, q.dtype, batch,
                                is_causal, need_weights)
        out, weights = self._attend(q, k, v, mask, need_weights, is_causal)
        out = self.out_proj(out)
        if not self.batch_first:
            out = out.transpose([1, 0, 2])
        if weights is not None and average_attn_weights:
            weights = weights.mean(axis=1)
        if not batched:
            out = out.squeeze(batch_axis)
            weights = None if weights is None else weights.squeeze(0)
        return out, weights


def _pad_keys(mask: Any, n: int) -> Any:
    """``mask`` with ``n`` unmasked key columns appended (zeros of its dtype)."""
    return _pg.concat([mask, _pg.zeros([*mask.shape[:-1], n], mask.dtype)], axis=-1)
