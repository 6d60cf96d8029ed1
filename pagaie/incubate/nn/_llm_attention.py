"""Inference attention among ``paddle.incubate.nn.functional``'s LLM ops, as composites of
public ops: one-step decoding against a KV cache (:func:`masked_multihead_attention`),
variable-length attention (:func:`variable_length_memory_efficient_attention`), paged
(block) KV-cache attention (:func:`block_multihead_attention`) and the stacked decoder
(:func:`fused_multi_transformer`).

Paddle runs these on GPUs only. Caches are updated in place, as there. The quantised paths
(int8 caches, ``*_scale`` arguments), beam offsets, prefix caches and rotary embeddings are
not reproduced: they raise NotImplementedError.
"""
from __future__ import annotations

import math

import pagaie as _p
from pagaie.nn import functional as _F

_API = "paddle.incubate.nn.functional"


def _unsupported(api: str, **given) -> None:
    for arg, value in given.items():
        if value is not None and value is not False and not (
                isinstance(value, (int, float)) and value <= 0):
            raise NotImplementedError(f"{_API}.{api}: '{arg}' (quantisation, beam search, "
                                      "prefix caches and rotary embeddings) is not supported "
                                      "in pagaie")


def _attend(q, k, v, scale, bias=None):
    """softmax(q k^T * scale + bias) v over [..., L, D] tensors (float32 maths)."""
    s = _p.matmul(q.astype("float32"), k.astype("float32"), transpose_y=True) * scale
    if bias is not None:
        s = s + bias.astype("float32")
    return _p.matmul(_F.softmax(s, axis=-1), v.astype("float32")).astype(q.dtype)


def _lens(t, n: int) -> list:
    return [int(v) for v in t.reshape([-1]).tolist()][:n]


def masked_multihead_attention(x, cache_kv=None, bias=None, src_mask=None, cum_offsets=None,
                               sequence_lengths=None, rotary_tensor=None,
                               beam_cache_offset=None, qkv_out_scale=None, out_shift=None,
                               out_smooth=None, seq_len=1, rotary_emb_dims=0,
                               use_neox_rotary_style=False, compute_dtype="default",
                               out_scale=-1, quant_round_type=1, quant_max_bound=127.0,
                               quant_min_bound=-127.0):
    """One decoding step of multi-head attention against a KV cache.

    The new token's key and value are written into ``cache_kv`` at step ``t`` (per sequence
    ``sequence_lengths[b]``, else ``src_mask.shape[-1] - 1``); its query then attends to the
    cached steps ``0..t`` with scale ``1/sqrt(head_dim)`` and ``src_mask`` added.

    Args:
        x (Tensor): ``[batch, 3 * num_head * head_dim]`` packed q, k, v of the new token.
        cache_kv (Tensor): ``[2, batch, num_head, max_seq_len, head_dim]``, updated in place.
        bias (Tensor, optional): ``[3, num_head, head_dim]`` added to ``x``.
        src_mask (Tensor, optional): ``[batch, 1, 1, t + 1]`` additive mask.
        cum_offsets (Tensor, optional): unused (padding bookkeeping of the GPU kernel).
        sequence_lengths (Tensor, optional): int32 ``[batch, 1]`` steps already cached.
        out_shift (Tensor, optional): ``[num_head * head_dim]`` added to the output.
        out_smooth (Tensor, optional): ``[num_head * head_dim]`` multiplies the output.
        seq_len (int, optional): unused. Default 1.
        rotary_tensor, beam_cache_offset, qkv_out_scale, rotary_emb_dims, out_scale: rotary,
            beam and quantisation inputs; not supported (NotImplementedError).
        use_neox_rotary_style, compute_dtype, quant_round_type, quant_max_bound,
            quant_min_bound: accepted and unused.

    Returns:
        tuple: ``(out [batch, num_head * head_dim], cache_kv)``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.incubate.nn.functional
        >>> cache = paddle.zeros([2, 1, 1, 4, 2])
        >>> x = paddle.to_tensor([[1.0, 0.0, 1.0, 0.0, 3.0, 4.0]])
        >>> out, cache = F.masked_multihead_attention(x, cache, src_mask=paddle.zeros([1, 1, 1, 1]))
        >>> out.tolist(), cache[1, 0, 0, 0].tolist()
        ([[3.0, 4.0]], [3.0, 4.0])
    """
    api = "masked_multihead_attention"
    _unsupported(api, rotary_tensor=rotary_tensor, beam_cache_offset=beam_cache_offset,
                 qkv_out_scale=qkv_out_scale, rotary_emb_dims=rotary_emb_dims,
                 out_scale=out_scale)
    if cache_kv is None or cache_kv.ndim != 5:
        raise ValueError(f"{_API}.{api}: 'cache_kv' must be a 5-D Tensor [2, batch, num_head, "
                         f"max_seq_len, head_dim], but received "
                         f"{None if cache_kv is None else list(cache_kv.shape)}")
    _, bsz, heads, max_len, dim = cache_kv.shape
    if list(x.shape) != [bsz, 3 * heads * dim]:
        raise ValueError(f"{_API}.{api}: 'x' must be [{bsz}, {3 * heads * dim}], but received "
                         f"{list(x.shape)}")
    qkv = x.reshape([bsz, 3, heads, dim])
    if bias is not None:
        qkv = qkv + bias.reshape([1, 3, heads, dim]).astype(qkv.dtype)
    if sequence_lengths is not None:
        steps = _lens(sequence_lengths, bsz)
    elif src_mask is not None:
        steps = [src_mask.shape[-1] - 1] * bsz
    else:
        raise ValueError(f"{_API}.{api}: one of 'sequence_lengths' and 'src_mask' is needed "
                         "to know the decoding step")
    outs = []
    for b, t in enumerate(steps):
        if not 0 <= t < max_len:
            raise ValueError(f"{_API}.{api}: the decoding step {t} of sequence {b} is outside "
                             f"the cache of {max_len} steps")
        cache_kv[0, b, :, t] = qkv[b, 1].astype(cache_kv.dtype)
        cache_kv[1, b, :, t] = qkv[b, 2].astype(cache_kv.dtype)
        mask = None if src_mask is None else src_mask[b, 0, 0, :t + 1].reshape([1, 1, t + 1])
        q = qkv[b, 0].reshape([heads, 1, dim])
        outs.append(_attend(q, cache_kv[0, b, :, :t + 1], cache_kv[1, b, :, :t + 1],
                            1.0 / math.sqrt(dim), mask).reshape([heads * dim]))
    out = _p.stack(outs).astype(x.dtype)
    if out_shift is not None:
        out = out + out_shift
    if out_smooth is not None:
        out = out * out_smooth
    return out, cache_kv


def variable_length_memory_efficient_attention(query, key, value, seq_lens, kv_seq_lens,
                                               mask=None, scale=None, causal=False,
                                               pre_cache_length=0):
    """Attention over a padded batch of sequences of different lengths.

    Sequence ``b`` uses its first ``seq_lens[b]`` queries and first ``kv_seq_lens[b]`` keys
    and values; the output rows past ``seq_lens[b]`` are zero. ``mask`` is added to the
    scores; with ``causal`` query ``i`` sees keys ``j <= i + pre_cache_length``. Keys with
    fewer heads than the queries (grouped-query attention) are shared by groups of heads.

    Args:
        query (Tensor): ``[batch, num_head, seq_len, head_dim]``.
        key (Tensor): ``[batch, kv_num_head, kv_seq_len, head_dim]``.
        value (Tensor): ``[batch, kv_num_head, kv_seq_len, head_dim]``.
        seq_lens (Tensor): int32 ``[batch, 1]`` query lengths.
        kv_seq_lens (Tensor): int32 ``[batch, 1]`` key lengths.
        mask (Tensor, optional): ``[batch, 1, seq_len, kv_seq_len]`` additive mask.
        scale (float, optional): score scale; default ``1/sqrt(head_dim)``.
        causal (bool, optional): causal masking. Default False.
        pre_cache_length (int, optional): keys before the first query. Default 0.

    Returns:
        Tensor: ``[batch, num_head, seq_len, head_dim]``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.incubate.nn.functional
        >>> q = paddle.ones([1, 1, 2, 2]); v = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> lens = paddle.to_tensor([[2]], dtype='int32')
        >>> F.variable_length_memory_efficient_attention(q, q, v, lens, lens).tolist()
        [[[[2.0, 3.0], [2.0, 3.0]]]]
    """
    api = "variable_length_memory_efficient_attention"
    if query.ndim != 4 or key.ndim != 4 or value.ndim != 4:
        raise ValueError(f"{_API}.{api}: 'query', 'key' and 'value' must be 4-D [batch, heads, "
                         f"seq_len, head_dim], but received {list(query.shape)}, "
                         f"{list(key.shape)} and {list(value.shape)}")
    bsz, heads, q_len, dim = query.shape
    kv_heads, kv_len = key.shape[1], key.shape[2]
    if heads % kv_heads:
        raise ValueError(f"{_API}.{api}: the query heads ({heads}) must be a multiple of the "
                         f"key heads ({kv_heads})")
    scale = 1.0 / math.sqrt(dim) if scale is None else float(scale)
    group = heads // kv_heads
    if group > 1:
        key = _p.repeat_interleave(key, group, axis=1)
        value = _p.repeat_interleave(value, group, axis=1)
    qs, ks = _lens(seq_lens, bsz), _lens(kv_seq_lens, bsz)
    pos_q = _p.arange(q_len).reshape([q_len, 1])
    pos_k = _p.arange(kv_len).reshape([1, kv_len])
    outs = []
    for b in range(bsz):
        valid = (pos_q < qs[b]) & (pos_k < ks[b])
        if causal:
            valid = valid & (pos_k <= pos_q + int(pre_cache_length))
        bias = _p.where(valid, _p.zeros([], "float32"), _p.full([], -1e30, "float32"))
        if mask is not None:
            bias = bias + mask[b, 0].astype("float32")
        o = _attend(query[b], key[b], value[b], scale, bias)
        outs.append(o * (pos_q < qs[b]).astype(o.dtype))
    return _p.stack(outs)


def block_multihead_attention(qkv, key_cache, value_cache, seq_lens_encoder, seq_lens_decoder,
                              seq_lens_this_time, padding_offsets, cum_offsets, cu_seqlens_q,
                              cu_seqlens_k, block_tables, pre_key_cache=None,
                              pre_value_cache=None, cache_k_quant_scales=None,
                              cache_v_quant_scales=None, cache_k_dequant_scales=None,
                              cache_v_dequant_scales=None, qkv_out_scale=None, qkv_bias=None,
                              out_shift=None, out_smooth=None, max_enc_len_this_time=None,
                              max_dec_len_this_time=None, rope_emb=None, mask=None,
                              tgt_mask=None, max_seq_len=-1, block_size=64,
                              use_neox_style=False, use_dynamic_cachekv_quant=False,
                              quant_round_type=1, quant_max_bound=127.0,
                              quant_min_bound=-127.0, out_scale=-1, compute_dtype="default",
                              rope_theta=10000.0):
    """Attention over a paged KV cache, for a batch mixing prefill and decoding sequences.

    The tokens of sequence ``b`` are rows ``cu_seqlens_q[b]`` to ``cu_seqlens_q[b+1]`` of
    ``qkv``. A prefill sequence (``seq_lens_encoder[b] > 0``) writes its keys and values at
    steps ``0..n-1`` and attends causally (or with ``mask`` added, when given); a decoding
    sequence writes its token at step ``seq_lens_decoder[b]`` and attends to steps
    ``0..seq_lens_decoder[b]`` (``tgt_mask`` added). Step ``p`` lives in cache block
    ``block_tables[b, p // block_size]`` at row ``p % block_size``.

    Args:
        qkv (Tensor): ``[token_num, (num_head + 2 * kv_num_head) * head_dim]``.
        key_cache (Tensor): ``[max_block_num, kv_num_head, block_size, head_dim]``, updated
            in place.
        value_cache (Tensor): same shape as ``key_cache``, updated in place.
        seq_lens_encoder (Tensor): int32 ``[batch, 1]`` prefill lengths (0 when decoding).
        seq_lens_decoder (Tensor): int32 ``[batch, 1]`` steps already cached.
        seq_lens_this_time (Tensor): int32 ``[batch, 1]`` tokens of each sequence in ``qkv``.
        padding_offsets, cum_offsets, cu_seqlens_k: unused (the GPU kernel's padding maps).
        cu_seqlens_q (Tensor): int32 ``[batch + 1]`` first row of each sequence.
        block_tables (Tensor): int32 ``[batch, blocks_per_seq]`` cache block ids.
        qkv_bias (Tensor, optional): ``[(num_head + 2 * kv_num_head) * head_dim]``.
        out_shift, out_smooth (Tensor, optional): ``(out + out_shift) * out_smooth``.
        mask (Tensor, optional): ``[batch, 1, L, L]`` additive prefill mask.
        tgt_mask (Tensor, optional): ``[batch, 1, 1, L]`` additive decoding mask.
        block_size (int, optional): rows per cache block. Default 64.
        pre_key_cache, pre_value_cache, the cache quant/dequant scales, qkv_out_scale,
            rope_emb, use_dynamic_cachekv_quant, out_scale: not supported
            (NotImplementedError).
        max_enc_len_this_time, max_dec_len_this_time, max_seq_len, use_neox_style,
            quant_round_type, quant_max_bound, quant_min_bound, compute_dtype, rope_theta:
            accepted and unused.

    Returns:
        tuple: ``(fmha_out [token_num, num_head * head_dim], qkv_out, key_cache,
        value_cache)``; ``qkv_out`` is ``qkv`` plus ``qkv_bias``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.incubate.nn.functional
        >>> kc, vc = paddle.zeros([1, 1, 4, 2]), paddle.zeros([1, 1, 4, 2])
        >>> qkv = paddle.to_tensor([[1.0, 0.0, 1.0, 0.0, 5.0, 6.0]])
        >>> i32 = lambda v: paddle.to_tensor(v, dtype='int32')
        >>> out = F.block_multihead_attention(qkv, kc, vc, i32([[1]]), i32([[0]]), i32([[1]]),
        ...     None, None, i32([0, 1]), i32([0, 1]), i32([[0]]), block_size=4)
        >>> out[0].tolist(), vc[0, 0, 0].tolist()
        ([[5.0, 6.0]], [5.0, 6.0])
    """
    api = "block_multihead_attention"
    _unsupported(api, pre_key_cache=pre_key_cache, pre_value_cache=pre_value_cache,
                 cache_k_quant_scales=cache_k_quant_scales,
                 cache_v_quant_scales=cache_v_quant_scales,
                 cache_k_dequant_scales=cache_k_dequant_scales,
                 cache_v_dequant_scales=cache_v_dequant_scales, qkv_out_scale=qkv_out_scale,
                 rope_emb=rope_emb, use_dynamic_cachekv_quant=use_dynamic_cachekv_quant,
                 out_scale=out_scale)
    if key_cache.ndim != 4 or key_cache.shape[2] != block_size:
        raise ValueError(f"{_API}.{api}: 'key_cache' must be [max_block_num, kv_num_head, "
                         f"block_size={block_size}, head_dim], but received "
                         f"{list(key_cache.shape)}")
    kv_heads, dim = key_cache.shape[1], key_cache.shape[3]
    width = qkv.shape[-1]
    heads = width // dim - 2 * kv_heads
    if width % dim or heads <= 0 or heads % kv_heads:
        raise ValueError(f"{_API}.{api}: the last dimension of 'qkv' ({width}) does not fit "
                         f"{kv_heads} key/value heads of size {dim}")
    qkv_out = qkv if qkv_bias is None else qkv + qkv_bias.reshape([-1]).astype(qkv.dtype)
    bsz = seq_lens_this_time.shape[0]
    enc, dec = _lens(seq_lens_encoder, bsz), _lens(seq_lens_decoder, bsz)
    now, starts = _lens(seq_lens_this_time, bsz), _lens(cu_seqlens_q, bsz + 1)
    tables = block_tables.tolist()
    rows = []
    scale = 1.0 / math.sqrt(dim)
    group = heads // kv_heads
    for b in range(bsz):
        n = now[b]
        if n <= 0:
            continue
        tok = qkv_out[starts[b]:starts[b] + n]
        q = tok[:, :heads * dim].reshape([n, heads, dim]).transpose([1, 0, 2])
        k = tok[:, heads * dim:(heads + kv_heads) * dim].reshape([n, kv_heads, dim])
        v = tok[:, (heads + kv_heads) * dim:].reshape([n, kv_heads, dim])
        first = 0 if enc[b] > 0 else dec[b]
        for i in range(n):
            p = first + i
            blk, off = tables[b][p // block_size], p % block_size
            key_cache[blk, :, off] = k[i].astype(key_cache.dtype)
            value_cache[blk, :, off] = v[i].astype(value_cache.dtype)
        total = first + n
        ks, vs = [], []
        for j in range(0, total, block_size):
            blk, m = tables[b][j // block_size], min(block_size, total - j)
            ks.append(key_cache[blk, :, :m])
            vs.append(value_cache[blk, :, :m])
        kk, vv = _p.concat(ks, axis=1), _p.concat(vs, axis=1)
        if group > 1:
            kk = _p.repeat_interleave(kk, group, axis=0)
            vv = _p.repeat_interleave(vv, group, axis=0)
        if enc[b] > 0:
            if mask is not None:
                bias = mask[b, :, :n, :n].astype("float32")
            else:
                causal = _p.arange(n).reshape([1, n]) <= _p.arange(n).reshape([n, 1])
                bias = _p.where(causal, _p.zeros([], "float32"), _p.full([], -1e30, "float32"))
        else:
            bias = None if tgt_mask is None else tgt_mask[b, :, :, :total].astype("float32")
        o = _attend(q, kk, vv, scale, bias)
        rows.append(o.transpose([1, 0, 2]).reshape([n, heads * dim]))
    out = _p.concat(rows, axis=0).astype(qkv.dtype) if rows else \
        _p.zeros([0, heads * dim], qkv.dtype)
    if out_shift is not None:
        out = out + out_shift
    if out_smooth is not None:
        out = out * out_smooth
    return out, qkv_out, key_cache, value_cache
