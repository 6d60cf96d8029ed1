"""``fused_multi_transformer``: a stack of decoder layers (attention with an optional KV cache,
then the feed-forward block), as a composite of public ops."""
from __future__ import annotations

import math

import pagaie as _p
from pagaie.nn import functional as _F
from pagaie.incubate.nn._llm_attention import _API, _attend, _unsupported

_ACTS = {"gelu": _F.gelu, "relu": _F.relu, "silu": _F.silu, "swish": _F.silu}


def _norm(x, scale, bias, eps, norm_type):
    if norm_type == "rmsnorm":
        xf = x.astype("float32")
        out = xf * _p.rsqrt((xf * xf).mean(axis=-1, keepdim=True) + eps)
        out = out * scale.astype("float32")
        return out.astype(x.dtype)
    return _F.layer_norm(x, x.shape[-1:], scale, bias, eps)


def _ffn_act(h, activation):
    if activation in ("swiglu", "geglu"):
        a, b = _p.chunk(h, 2, axis=-1)
        return (_F.silu(a) if activation == "swiglu" else _F.gelu(a)) * b
    return _ACTS[activation](h)


def _qkv(h, w, b, trans_qkvw, heads_kv):
    """Project to q, k, v of shape [batch, heads, seq, head_dim]."""
    bsz, seq, _ = h.shape
    if trans_qkvw:                                    # [n_slots..., head_dim, embed]
        dim = w.shape[-2]
        flat = w.reshape([-1, w.shape[-1]])
        out = _p.matmul(h, flat, transpose_y=True)
    else:                                             # [embed, n_slots..., head_dim]
        dim = w.shape[-1]
        out = _p.matmul(h, w.reshape([w.shape[0], -1]))
    if b is not None:
        out = out + b.reshape([-1])
    out = out.reshape([bsz, seq, -1, dim]).transpose([0, 2, 1, 3])
    n_q = out.shape[1] - 2 * heads_kv
    return out[:, :n_q], out[:, n_q:n_q + heads_kv], out[:, n_q + heads_kv:], dim


def fused_multi_transformer(x, ln_scales, ln_biases, qkv_weights, qkv_biases, linear_weights,
                            linear_biases, ffn_ln_scales, ffn_ln_biases, ffn1_weights,
                            ffn1_biases, ffn2_weights, ffn2_biases, pre_layer_norm=True,
                            epsilon=1e-05, residual_alpha=1.0, cache_kvs=None, beam_offset=None,
                            pre_caches=None, seq_lens=None, rotary_embs=None, time_step=None,
                            attn_mask=None, dropout_rate=0.0, rotary_emb_dims=0,
                            activation="gelu", training=False, mode="upscale_in_train",
                            trans_qkvw=True, ring_id=-1, norm_type="layernorm",
                            use_neox_rotary_style=False, gqa_group_size=-1, name=None):
    """Run ``len(qkv_weights)`` transformer decoder layers.

    Each layer: ``h = norm(x)`` (pre-norm), ``q, k, v = h @ qkv_weight + qkv_bias``,
    ``attn = softmax(q k^T / sqrt(head_dim) + attn_mask) v``, ``x = x + dropout(attn @
    linear_weight + linear_bias)`` (post-norm: ``norm(residual_alpha * x + ...)``), then the
    feed-forward block ``x + dropout(act(norm(x) @ ffn1 + b1) @ ffn2 + b2)`` the same way.

    With ``cache_kvs`` (``[2, batch, kv_heads, max_seq_len, head_dim]`` per layer) and no
    ``time_step``, the keys and values of the ``seq`` input steps are written at steps
    ``0..seq-1``; with ``time_step`` (decoding one token) they are written at step
    ``time_step`` and attention covers steps ``0..time_step``.

    Args:
        x (Tensor): ``[batch, seq, embed_dim]``.
        ln_scales, ln_biases (list[Tensor]): attention norm weights ``[embed_dim]`` (biases
            may be None).
        qkv_weights (list[Tensor]): ``[3, num_head, head_dim, embed_dim]`` (``[num_head + 2 *
            gqa_group_size, head_dim, embed_dim]`` with grouped-query attention; the embed axis
            first when ``trans_qkvw`` is False).
        qkv_biases (list[Tensor]|None): ``[3, num_head, head_dim]``.
        linear_weights (list[Tensor]): ``[num_head * head_dim, embed_dim]``.
        linear_biases (list[Tensor]|None): ``[embed_dim]``.
        ffn_ln_scales, ffn_ln_biases (list[Tensor]): feed-forward norm weights.
        ffn1_weights, ffn1_biases (list[Tensor]): ``[embed_dim, dim_ffn]`` (``2 * dim_ffn``
            for ``'swiglu'``/``'geglu'``).
        ffn2_weights, ffn2_biases (list[Tensor]): ``[dim_ffn, embed_dim]``.
        pre_layer_norm (bool, optional): pre-norm (True) or post-norm. Default True.
        epsilon (float, optional): norm epsilon. Default 1e-5.
        residual_alpha (float, optional): residual scale of post-norm layers. Default 1.0.
        cache_kvs (list[Tensor], optional): KV caches, updated in place.
        seq_lens (Tensor, optional): unused (padding bookkeeping of the GPU kernel).
        time_step (Tensor, optional): ``[1]`` decoding step.
        attn_mask (Tensor, optional): ``[batch, 1, seq, kv_len]`` additive mask.
        dropout_rate (float, optional): dropout after each block. Default 0.0.
        activation (str, optional): ``'gelu'``, ``'relu'``, ``'silu'``, ``'swiglu'`` or
            ``'geglu'``. Default ``'gelu'``.
        training (bool, optional): apply dropout. Default False.
        mode (str, optional): dropout mode. Default ``'upscale_in_train'``.
        trans_qkvw (bool, optional): layout of ``qkv_weights``. Default True.
        norm_type (str, optional): ``'layernorm'`` or ``'rmsnorm'``. Default ``'layernorm'``.
        gqa_group_size (int, optional): key/value heads (grouped-query attention); -1 for
            none.
        beam_offset, pre_caches, rotary_embs, rotary_emb_dims: not supported
            (NotImplementedError).
        ring_id, use_neox_rotary_style, name: accepted and unused.

    Returns:
        Tensor|tuple: the output ``[batch, seq, embed_dim]``, or ``(out, cache_kvs)`` with
        ``cache_kvs``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.incubate.nn.functional
        >>> one, zero = paddle.ones([4]), paddle.zeros([4])
        >>> out = F.fused_multi_transformer(
        ...     paddle.rand([1, 3, 4]), [one], [zero], [paddle.rand([3, 2, 2, 4])], None,
        ...     [paddle.rand([4, 4])], None, [one], [zero], [paddle.rand([4, 8])], None,
        ...     [paddle.rand([8, 4])], None)
        >>> out.shape
        paddle.Size([1, 3, 4])
    """
    api = "fused_multi_transformer"
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError(f"{_API}.{api}: 'mode' should be 'downscale_in_infer' or "
                         f"'upscale_in_train', but received {mode!r}")
    if activation not in _ACTS and activation not in ("swiglu", "geglu"):
        raise ValueError(f"{_API}.{api}: 'activation' should be one of gelu, relu, silu, "
                         f"swish, swiglu, geglu, but received {activation!r}")
    if norm_type not in ("layernorm", "rmsnorm"):
        raise ValueError(f"{_API}.{api}: 'norm_type' should be 'layernorm' or 'rmsnorm', but "
                         f"received {norm_type!r}")
    _unsupported(api, beam_offset=beam_offset, pre_caches=pre_caches, rotary_embs=rotary_embs,
                 rotary_emb_dims=rotary_emb_dims)
    n_layers = len(qkv_weights)
    if cache_kvs is not None and len(cache_kvs) != n_layers:
        raise ValueError(f"{_API}.{api}: 'cache_kvs' must hold one cache per layer "
                         f"({n_layers}), but received {len(cache_kvs)}")
    step = None if time_step is None else int(time_step.reshape([-1])[0].item())

    def get(seq, i):
        return None if seq is None else seq[i]

    def drop(t):
        return _F.dropout(t, dropout_rate, training=training, mode=mode)

    bsz, seq, _ = x.shape
    for i in range(n_layers):
        w = qkv_weights[i]
        if gqa_group_size > 0:
            kv_heads = gqa_group_size
        else:
            kv_heads = w.shape[1] if trans_qkvw else w.shape[2]
        residual = x
        h = _norm(x, ln_scales[i], get(ln_biases, i), epsilon, norm_type) if pre_layer_norm \
            else x
        q, k, v, dim = _qkv(h, w, get(qkv_biases, i), trans_qkvw, kv_heads)
        if cache_kvs is not None:
            cache = cache_kvs[i]
            first = 0 if step is None else step
            cache[0, :, :, first:first + seq] = k.astype(cache.dtype)
            cache[1, :, :, first:first + seq] = v.astype(cache.dtype)
            k, v = cache[0, :, :, :first + seq], cache[1, :, :, :first + seq]
        heads = q.shape[1]
        if heads != k.shape[1]:
            k = _p.repeat_interleave(k, heads // k.shape[1], axis=1)
            v = _p.repeat_interleave(v, heads // v.shape[1], axis=1)
        attn = _attend(q, k, v, 1.0 / math.sqrt(dim), attn_mask)
        attn = attn.transpose([0, 2, 1, 3]).reshape([bsz, seq, heads * dim])
        out = _p.matmul(attn, linear_weights[i])
        if get(linear_biases, i) is not None:
            out = out + linear_biases[i]
        if pre_layer_norm:
            x = residual + drop(out)
        else:
            x = _norm(residual * residual_alpha + drop(out), ln_scales[i], get(ln_biases, i),
                      epsilon, norm_type)
        residual = x
        h = _norm(x, ffn_ln_scales[i], get(ffn_ln_biases, i), epsilon, norm_type) \
            if pre_layer_norm else x
        h = _p.matmul(h, ffn1_weights[i])
        if get(ffn1_biases, i) is not None:
            h = h + ffn1_biases[i]
        h = _p.matmul(drop(_ffn_act(h, activation)), ffn2_weights[i])
        if get(ffn2_biases, i) is not None:
            h = h + ffn2_biases[i]
        if pre_layer_norm:
            x = residual + drop(h)
        else:
            x = _norm(residual * residual_alpha + drop(h), ffn_ln_scales[i],
                      get(ffn_ln_biases, i), epsilon, norm_type)
    return (x, cache_kvs) if cache_kvs is not None else x
