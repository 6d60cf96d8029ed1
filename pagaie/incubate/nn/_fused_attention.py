"""Transformer blocks among ``paddle.incubate.nn.functional``'s fused ops: the feed-forward
block, multi-head attention, cuDNN's dot-product attention and rotary position embedding, as
composites of public ops."""
from __future__ import annotations

import pagaie as _p
from pagaie.nn import functional as _F

_API = "paddle.incubate.nn.functional"


def _check_rates(api: str, mode, **rates) -> None:
    """The dropout arguments of a fused block, checked under its own name (as Paddle's fused
    op checks its attributes): numbers in [0, 1] and one of the two modes."""
    for arg, p in rates.items():
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise TypeError(f"{api}: '{arg}' should be a number, but received {type(p).__name__}")
        if not 0 <= p <= 1:
            raise ValueError(f"{api}: '{arg}' should be between 0 and 1, but received {p}")
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise ValueError(f"{api}: 'mode' should be 'downscale_in_infer' or 'upscale_in_train', "
                         f"but received {mode!r}")


def _ln(x, scale, bias, eps):
    return _F.layer_norm(x, x.shape[-1:], scale, bias, eps)


def fused_feedforward(x, linear1_weight, linear2_weight, linear1_bias=None, linear2_bias=None,
                      ln1_scale=None, ln1_bias=None, ln2_scale=None, ln2_bias=None,
                      dropout1_rate=0.5, dropout2_rate=0.5, activation="relu", ln1_epsilon=1e-05,
                      ln2_epsilon=1e-05, pre_layer_norm=False, training=True,
                      mode="upscale_in_train", ring_id=-1, add_residual=True, name=None):
    """Transformer feed-forward block: ``linear2(dropout1(act(linear1(ln1(x)))))``, then
    dropout2, the residual ``x`` and (post-norm) ``ln2``.

    With ``pre_layer_norm`` the input goes through ``ln1`` first; otherwise the sum goes
    through ``ln2`` last.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 2, 4])
        >>> out = paddle.incubate.nn.functional.fused_feedforward(
        ...     x, paddle.ones([4, 8]), paddle.ones([8, 4]), dropout1_rate=0.0, dropout2_rate=0.0)
        >>> list(out.shape)
        [1, 2, 4]
    """
    if activation not in ("relu", "gelu"):
        raise ValueError(f"{_API}.fused_feedforward: 'activation' should be 'relu' or 'gelu', "
                         f"but received {activation!r}")
    _check_rates(f"{_API}.fused_feedforward", mode, dropout1_rate=dropout1_rate,
                 dropout2_rate=dropout2_rate)
    residual = x
    h = _ln(x, ln1_scale, ln1_bias, ln1_epsilon) if pre_layer_norm else x
    h = _F.linear(h, linear1_weight, linear1_bias)
    h = _F.relu(h) if activation == "relu" else _F.gelu(h)
    h = _F.dropout(h, dropout1_rate, training=training, mode=mode)
    h = _F.dropout(_F.linear(h, linear2_weight, linear2_bias), dropout2_rate, training=training,
                   mode=mode)
    if add_residual:
        h = residual + h
    return h if pre_layer_norm else _ln(h, ln2_scale, ln2_bias, ln2_epsilon)


def _check_qkv(api: str, embed_dim: int, weight, bias, transposed: bool, num_heads: int,
               ring_id: int) -> int:
    """The number of heads of a valid ``qkv_weight``; Paddle checks its layout with ``assert``,
    so a bad one raises AssertionError. Without model parallelism (``ring_id`` -1) the heads
    must also cover ``embed_dim`` exactly."""
    shape = list(weight.shape)
    if transposed:
        ok = (num_heads > 0 and len(shape) == 2 and shape[0] == embed_dim
              and (ring_id != -1 or shape[1] == 3 * shape[0])
              and (bias is None or list(bias.shape) == shape[1:]))
        want = (f"num_heads > 0, 'qkv_weight' [embed_dim, 3 * embed_dim] and 'qkv_bias' "
                f"[3 * embed_dim] (embed_dim {embed_dim})")
        heads = num_heads
    else:
        ok = (len(shape) == 4 and shape[0] == 3 and shape[3] == embed_dim
              and (ring_id != -1 or shape[1] * shape[2] == shape[3]))
        want = f"'qkv_weight' [3, num_heads, head_dim, embed_dim] (embed_dim {embed_dim})"
        heads = shape[1] if len(shape) == 4 else -1
    if not ok:
        raise AssertionError(f"{api}: expected {want}, but received 'qkv_weight' {shape}"
                             + ("" if bias is None else f", 'qkv_bias' {list(bias.shape)}")
                             + (f", num_heads {num_heads}" if transposed else ""))
    return heads


def fused_multi_head_attention(x, qkv_weight, linear_weight, pre_layer_norm=False,
                               pre_ln_scale=None, pre_ln_bias=None, ln_scale=None, ln_bias=None,
                               pre_ln_epsilon=1e-05, qkv_bias=None, linear_bias=None,
                               cache_kv=None, attn_mask=None, dropout_rate=0.5,
                               attn_dropout_rate=0.5, ln_epsilon=1e-05, training=True,
                               mode="upscale_in_train", ring_id=-1, add_residual=True,
                               num_heads=-1, transpose_qkv_wb=False, name=None):
    """Multi-head self-attention block with an output projection, dropout, the residual and
    layer norm (before the attention with ``pre_layer_norm``, else after the sum).

    ``qkv_weight`` is ``[3, num_heads, head_dim, embed_dim]`` (``[embed_dim, 3 * embed_dim]``
    with ``transpose_qkv_wb``, which then needs ``num_heads``); ``cache_kv`` is
    ``[2, batch, num_heads, cache_len, head_dim]`` and, when given, the updated cache is
    returned as a second output.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.rand([2, 3, 8])
        >>> out = paddle.incubate.nn.functional.fused_multi_head_attention(
        ...     x, paddle.rand([3, 2, 4, 8]), paddle.rand([8, 8]), dropout_rate=0.0,
        ...     attn_dropout_rate=0.0)
        >>> list(out.shape)
        [2, 3, 8]
    """
    api = f"{_API}.fused_multi_head_attention"
    _check_rates(api, mode, dropout_rate=dropout_rate, attn_dropout_rate=attn_dropout_rate)
    if x.ndim != 3:
        raise ValueError(f"{api}: 'x' must be 3-D [batch_size, seq_len, embed_dim], but "
                         f"received shape {list(x.shape)}")
    b, s, d = x.shape
    heads = _check_qkv(api, d, qkv_weight, qkv_bias, transpose_qkv_wb, num_heads, ring_id)
    w = qkv_weight if transpose_qkv_wb else qkv_weight.reshape([-1, d]).t()
    residual = x
    h = _ln(x, pre_ln_scale, pre_ln_bias, pre_ln_epsilon) if pre_layer_norm else x
    qkv = _p.matmul(h, w)
    if qkv_bias is not None:
        qkv = qkv + qkv_bias.reshape([-1])
    qkv = qkv.reshape([b, s, 3, heads, -1]).transpose([2, 0, 3, 1, 4])
    q, k, v = qkv[0], qkv[1], qkv[2]
    cache_out = None
    if cache_kv is not None:
        k = _p.concat([cache_kv[0], k], axis=2)
        v = _p.concat([cache_kv[1], v], axis=2)
        cache_out = _p.stack([k, v])
    scores = _p.matmul(q * (q.shape[-1] ** -0.5), k, transpose_y=True)
    if attn_mask is not None:
        scores = scores + attn_mask
    probs = _F.dropout(_F.softmax(scores, axis=-1), attn_dropout_rate, training=training,
                       mode=mode)
    out = _p.matmul(probs, v).transpose([0, 2, 1, 3]).reshape([b, s, -1])
    out = _F.dropout(_F.linear(out, linear_weight, linear_bias), dropout_rate,
                     training=training, mode=mode)
    if add_residual:
        out = residual + out
    if not pre_layer_norm:
        out = _ln(out, ln_scale, ln_bias, ln_epsilon)
    return out if cache_out is None else (out, cache_out)


def fused_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                scaling_factor=None, training=True, name=None):
    """Attention ``softmax(Q K^T * scaling_factor + attn_mask) V`` on ``[batch, seq, heads,
    head_dim]`` tensors: Paddle's cuDNN attention, computed here by
    :func:`paddle.nn.functional.scaled_dot_product_attention`.

    Args:
        query (Tensor): ``[batch, seq_q, heads, head_dim]``.
        key, value (Tensor): ``[batch, seq_k, kv_heads, head_dim]``.
        attn_mask (Tensor, optional): additive mask of query's dtype, broadcastable to
            ``[batch, heads, seq_q, seq_k]``; must be None when ``is_causal``.
        dropout_p (float): dropout on the attention weights (training only).
        is_causal (bool): hide the keys after each query.
        scaling_factor (float, optional): ``1/sqrt(head_dim)`` when None.
        training (bool): apply dropout.
        name (str, optional): unused.

    Returns:
        Tensor: ``[batch, seq_q, heads, head_dim]``.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.rand([1, 4, 2, 8])
        >>> paddle.incubate.nn.functional.fused_dot_product_attention(q, q, q, is_causal=True).shape
        paddle.Size([1, 4, 2, 8])
    """
    # Paddle's own checks are assertions; raised here so that ``python -O`` keeps them
    if is_causal and attn_mask is not None:
        raise AssertionError("mask must be None when is_causal is True")
    if attn_mask is not None and attn_mask.dtype != query.dtype:
        raise AssertionError("attn_mask dtype should be the same as qkv dtype")
    if scaling_factor is None:
        if query.ndim < 4:   # Paddle reads the head_dim as shape[3]
            raise IndexError(f"{_API}.fused_dot_product_attention: 'query' must be 4-D [batch_size, "
                             f"seq_len, num_heads, head_dim], but received shape {list(query.shape)}")
        scaling_factor = query.shape[3] ** -0.5
    return _F.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal,
                                           training, scale=scaling_factor)


def _rope_tables(seq: int, dim: int, base: float, interleaved: bool, dtype):
    inv = 1.0 / (base ** (_p.arange(0, dim, 2, dtype="float32") / dim))
    ang = _p.arange(seq, dtype="float32").unsqueeze(1) * inv.unsqueeze(0)  # [seq, dim/2]
    sin, cos = _p.sin(ang), _p.cos(ang)
    if interleaved:
        sin = _p.stack([sin, sin], axis=-1).reshape([seq, dim])
        cos = _p.stack([cos, cos], axis=-1).reshape([seq, dim])
    else:
        sin, cos = _p.concat([sin, sin], axis=-1), _p.concat([cos, cos], axis=-1)
    return sin.astype(dtype), cos.astype(dtype)


def _rotate(t, interleaved: bool):
    if interleaved:
        pairs = t.reshape(t.shape[:-1] + [-1, 2])
        return _p.stack([-pairs[..., 1], pairs[..., 0]], axis=-1).reshape(t.shape)
    a, b = _p.chunk(t, 2, axis=-1)
    return _p.concat([-b, a], axis=-1)


def fused_rotary_position_embedding(q, k=None, v=None, sin=None, cos=None, position_ids=None,
                                    use_neox_rotary_style=True, time_major=False,
                                    rotary_emb_base=10000.0):
    """Rotary position embedding of ``q`` (and ``k``, ``v``), each
    ``[batch, seq_len, num_heads, head_dim]`` (``[seq_len, batch, ...]`` with ``time_major``).

    With ``use_neox_rotary_style`` every two adjacent numbers are rotated together; otherwise
    the first half of ``head_dim`` is paired with the second half. ``sin`` / ``cos`` default to
    the standard tables with base ``rotary_emb_base``; ``position_ids`` (``[batch, seq_len]``)
    picks their rows. As in Paddle, ``position_ids`` and ``use_neox_rotary_style=False`` need
    ``sin`` and ``cos`` (AssertionError otherwise).

    Returns:
        tuple: ``(out_q, out_k, out_v)``, None for an input that is None.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.ones([1, 2, 1, 4])
        >>> out_q, out_k, out_v = paddle.incubate.nn.functional.fused_rotary_position_embedding(q)
        >>> list(out_q.shape), out_k is None
        ([1, 2, 1, 4], True)
    """
    api = f"{_API}.fused_rotary_position_embedding"
    if sin is None or cos is None:
        # Paddle checks these with ``assert``: its default tables support neither.
        if position_ids is not None:
            raise AssertionError(f"{api}: 'position_ids' needs 'sin' and 'cos'")
        if not use_neox_rotary_style:
            raise AssertionError(f"{api}: use_neox_rotary_style=False needs 'sin' and 'cos'")
    if not isinstance(q, _p.Tensor):
        raise ValueError(f"{api}: argument 'q' (position 0) must be Tensor, but got "
                         f"{type(q).__name__}")
    if not q.is_floating_point():
        raise RuntimeError(f"{api}: the kernel takes float16, bfloat16, float32 or float64 "
                           f"inputs, but received {str(q.dtype).replace('paddle.', '')}")
    for arg, t in (("q", q), ("k", k), ("v", v)):
        if t is not None and t.ndim != 4:
            raise ValueError(f"{api}: '{arg}' must be a 4-D tensor [batch_size, seq_len, "
                             f"num_heads, head_dim], but received shape {list(t.shape)}")
    if time_major:
        q, k, v = (None if t is None else t.transpose([1, 0, 2, 3]) for t in (q, k, v))
    seq, dim = q.shape[1], q.shape[-1]
    if dim % 2:
        raise ValueError(f"{api}: the last dimension of 'q' must be even, but received {dim}")
    if sin is None or cos is None:
        n = seq if position_ids is None else max(seq, int(position_ids.max()) + 1)
        sin, cos = _rope_tables(n, dim, rotary_emb_base, use_neox_rotary_style, q.dtype)
    else:
        sin, cos = sin.reshape([-1, dim]), cos.reshape([-1, dim])
    if position_ids is None:
        sin, cos = sin[:seq].reshape([1, seq, 1, dim]), cos[:seq].reshape([1, seq, 1, dim])
    else:
        sin = _p.gather(sin, position_ids.reshape([-1])).reshape(position_ids.shape + [1, dim])
        cos = _p.gather(cos, position_ids.reshape([-1])).reshape(position_ids.shape + [1, dim])
    outs = tuple(None if t is None else t * cos + _rotate(t, use_neox_rotary_style) * sin
                 for t in (q, k, v))
    if time_major:
        outs = tuple(None if t is None else t.transpose([1, 0, 2, 3]) for t in outs)
    return outs
