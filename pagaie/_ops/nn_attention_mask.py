"""Masked flash-attention variants of ``paddle.nn.functional``: ``flashmask_attention``
(a column-wise sparse mask given by start/end row indices) and ``flash_attention_v3_varlen``
(variable-length sequences packed without padding); and the ops that Paddle keeps in
``paddle.nn.functional.flash_attention`` only (``flash_attention``, ``flash_attn_unpadded``,
``calc_reduced_attention_scores``: not in ``__all__``, exported by that module).

Paddle runs these only on recent NVIDIA GPUs; here they are the same math spelled out with
an explicit boolean mask, so they work on every device (and give the reference values the
fused kernels approximate). Layout is Paddle's ``[batch, seq, heads, head_dim]``.
"""
from __future__ import annotations

import torch

from pagaie._core.registry import defop
from pagaie._ops._helpers import kernel_dtypes
from pagaie._ops._random_mask import keep_mask
from pagaie._ops.nn_attention import (FLASH_CPU_DTYPES, _drop_weights, _repeat_kv, _weights,
                                     attention_bhsd, flash_bshd, tensor_arg)

__all__ = ["flashmask_attention", "flash_attention_v3_varlen"]


def _masked_attention(q, k, v, allowed, scale, dropout_p=0.0, softcap=0.0):
    """``softmax(q k^T * scale)`` restricted to ``allowed`` (bool, broadcastable to
    ``[b, h, sq, sk]``), then ``@ v``, on ``[b, h, s, d]`` tensors.

    Returns ``(out, lse)``; rows with no allowed key give zeros and ``lse = -inf``.
    Half-precision inputs are computed in float32 and cast back.
    """
    dt = q.dtype
    low = dt in (torch.float16, torch.bfloat16)
    if low:
        q, k, v = q.float(), k.float(), v.float()
    scores = torch.matmul(q, k.transpose(-1, -2)) * scale
    if softcap > 0:
        scores = torch.tanh(scores / softcap) * softcap
    if allowed is not None:
        scores = scores.masked_fill(~allowed, float("-inf"))
    lse = torch.logsumexp(scores, -1)
    w = torch.exp(scores - torch.where(torch.isinf(lse), 0.0, lse).unsqueeze(-1))
    if dropout_p > 0.0:
        w = w * keep_mask(w.shape, dropout_p, w.device).to(w.dtype) / (1.0 - dropout_p)
    out = torch.matmul(w, v)
    return (out.to(dt) if low else out), lse.float()


def _heads_to(t, heads, what):
    """Broadcast a per-head mask tensor ``[b, h_m, ...]`` to ``heads`` heads."""
    hm = t.shape[1]
    if hm == 1 or hm == heads:
        return t
    if heads % hm:
        raise AssertionError(f"{what} head_num ({hm}) must be 1 or divide the query head_num ({heads})")
    return t.repeat_interleave(heads // hm, dim=1)


def _startend_mask(idx, causal, sq, sk, device):
    """The allowed-positions mask ``[b, h_m, sq, sk]`` of FlashMask row indices ``idx``
    ``[b, h_m, sk, n]``: key column ``j`` is hidden from the query rows the indices name."""
    rows = torch.arange(sq, device=device).view(1, 1, sq, 1)
    col = idx.to(torch.int64).permute(0, 1, 3, 2).unsqueeze(-2)  # [b, h, n, 1, sk]
    n = idx.shape[-1]
    if causal:
        masked = rows >= col[:, :, 0]
        if n == 2:
            masked = masked & (rows < col[:, :, 1])
        allowed = torch.ones(sq, sk, dtype=torch.bool, device=device).tril(sk - sq)
        return allowed & ~masked
    if n == 2:
        masked = (rows >= col[:, :, 0]) | (rows < col[:, :, 1])
    else:
        masked = ((rows >= col[:, :, 0]) & (rows < col[:, :, 1])) | \
                 ((rows >= col[:, :, 2]) & (rows < col[:, :, 3]))
    return ~masked


def _window_indices(window_size, causal, b, sq, device):
    """Sliding-window attention as FlashMask row indices (keys within the window stay)."""
    if isinstance(window_size, int):
        window_size = (window_size, window_size)
    left, right = int(window_size[0]), int(window_size[1])
    j = torch.arange(sq, device=device, dtype=torch.int32)
    start = (j + left + 1).clamp(max=sq)
    if causal:
        idx = start.view(1, 1, sq, 1)
    else:
        idx = torch.stack([start, (j - right).clamp(min=0, max=sq)], -1).view(1, 1, sq, 2)
    return idx.expand(b, 1, sq, idx.shape[-1])


def _seed_offset():
    return torch.tensor([torch.initial_seed() % (1 << 63), 0], dtype=torch.int64)


@defop(amp="white", paddle_types=("flashmask_attention", "pd_op.flashmask_attention",
                                  "flashmask_attention_v2", "pd_op.flashmask_attention_v2"),
       method=False)
def flashmask_attention(query, key, value, startend_row_indices=None, *, dropout=0.0, causal=False,
                        window_size=None, return_softmax_lse=False, return_seed_offset=False,
                        fixed_seed_offset=None, rng_name="", training=True, name=None,
                        softmax_scale=None, block_mask=None):
    """Attention with FlashMask's column-wise sparse mask.

    For key column ``j``, ``startend_row_indices[b, h, j]`` names the query rows that may
    not see it:

    - ``causal=True``, last dim 1 ``[s]``: rows ``>= s`` (on top of the causal mask);
      last dim 2 ``[s, e]``: rows in ``[s, e)``.
    - ``causal=False``, last dim 2 ``[s, e]``: rows ``>= s`` and rows ``< e``;
      last dim 4 ``[s1, e1, s2, e2]``: rows in ``[s1, e1)`` and in ``[s2, e2)``.

    Query rows that see no key at all give zeros.

    Args:
        query (Tensor): ``[batch, seq_q, heads, dim]``.
        key (Tensor): ``[batch, seq_k, kv_heads, dim]`` (``heads`` a multiple of ``kv_heads``).
        value (Tensor): ``[batch, seq_k, kv_heads, dim]``.
        startend_row_indices (Tensor, optional): int32 ``[batch, 1 or heads or kv_heads,
            seq_k, 1/2/4]`` (see above). None: plain (optionally causal) attention.
        dropout (float): dropout on the attention weights (training only).
        causal (bool): causal attention (keys after the query are hidden).
        window_size (int|tuple, optional): sliding window ``(left, right)`` (an int for both);
            cannot be combined with ``startend_row_indices``.
        return_softmax_lse (bool): also return the log-sum-exp of each score row,
            float32 ``[batch, heads, seq_q]``.
        return_seed_offset (bool): also return the int64 ``[seed, offset]`` pair.
        fixed_seed_offset, rng_name: unused (the global generator drives dropout).
        training (bool): apply dropout.
        name (str, optional): unused.
        softmax_scale (float, optional): ``1/sqrt(dim)`` when None.
        block_mask (Tensor, optional): int32 ``[batch, heads_m, ceil(seq_q/128),
            ceil(seq_k/128)]``; a 0 hides a whole 128x128 block. Needs ``startend_row_indices``.

    Returns:
        Tensor ``[batch, seq_q, heads, dim]``, or a list ``[out, lse?, seed_offset?]`` when
        ``return_softmax_lse`` or ``return_seed_offset`` is set.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.rand([1, 4, 2, 8])
        >>> idx = paddle.to_tensor([4, 4, 3, 3], dtype='int32').reshape([1, 1, 4, 1])
        >>> out = paddle.nn.functional.flashmask_attention(q, q, q, idx, causal=True)
        >>> out.shape
        paddle.Size([1, 4, 2, 8])
    """
    b, sq, hq, d = query.shape
    sk = key.shape[1]
    if window_size is not None:
        assert startend_row_indices is None, "can't use window_size with startend_row_indices"
        startend_row_indices = _window_indices(window_size, causal, b, sq, query.device)
    if block_mask is not None:
        assert startend_row_indices is not None, \
            "must provide startend_row_indices when using block_mask_attn"
    q, k, v = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
    k, v = _repeat_kv(k, hq), _repeat_kv(v, hq)
    allowed = None
    if startend_row_indices is None:
        if causal:
            allowed = torch.ones(sq, sk, dtype=torch.bool, device=q.device).tril(sk - sq)
    else:
        idx = startend_row_indices
        assert idx.dtype == torch.int32, (f"startend_row_indices.dtype must be paddle.int32, but got "
                                        f"{str(idx.dtype).replace('torch.', 'paddle.')}")
        assert idx.dim() == 4, f"startend_row_indices rank must be 4, but got {list(idx.shape)}"
        assert idx.shape[0] == b, (f"startend_row_indices.shape[0] must be equal to batch_size, but "
                                   f"got {idx.shape[0]} and {b}")
        assert idx.shape[2] == sk, (f"startend_row_indices.shape[2] must be equal to seqlen_k, but got "
                                    f"{idx.shape[2]} and {sk}")
        assert idx.shape[1] in (1, hq, key.shape[2]), \
            "startend_row_indices head_num must be equal to 1(broadcast) or head_num_q or head_num_k."
        allowed_n = (1, 2) if causal else (2, 4)
        if idx.shape[-1] not in allowed_n:
            raise ValueError(f"Invalid shape of startend_row_indices, when causal is {bool(causal)}, "
                             f"the last dimension should be either {allowed_n[0]} or {allowed_n[1]} "
                             f"but got {idx.shape[-1]}")
        allowed = _heads_to(_startend_mask(idx, causal, sq, sk, q.device), hq, "startend_row_indices")
        if block_mask is not None:
            assert block_mask.dtype == torch.int32, f"block_mask.dtype must be paddle.int32, but got {block_mask.dtype}"
            nq, nk = (sq + 127) // 128, (sk + 127) // 128
            assert list(block_mask.shape[::2]) == [b, nq] and block_mask.shape[3] == nk, (
                f"block_mask must have shape [batch, heads, {nq}, {nk}] (128x128 blocks), but got "
                f"{list(block_mask.shape)}")
            blocks = (block_mask != 0).repeat_interleave(128, 2).repeat_interleave(128, 3)
            allowed = allowed & _heads_to(blocks[:, :, :sq, :sk], hq, "block_mask")
    scale = softmax_scale if softmax_scale is not None else (d ** -0.5 if d else 1.0)
    p = float(dropout) if training else 0.0
    out, lse = _masked_attention(q, k, v, allowed, scale, p)
    outs = [out.transpose(1, 2)]
    if return_softmax_lse:
        outs.append(lse)
    if return_seed_offset:
        outs.append(_seed_offset())
    return outs[0] if len(outs) == 1 else outs


@defop(amp="white", paddle_types=("flash_attn_v3_varlen", "pd_op.flash_attn_v3_varlen"), method=False)
def flash_attention_v3_varlen(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                              max_seqlen_k, seqused_q=None, seqused_k=None, softmax_scale=None,
                              causal=False, qv=None, q_descale=None, k_descale=None, v_descale=None,
                              window_size=(-1, -1), softcap=0.0, num_splits=1, pack_gqa=None,
                              sm_margin=0):
    """Attention over variable-length sequences packed back to back (no padding).

    Sequence ``i`` holds query rows ``cu_seqlens_q[i]:cu_seqlens_q[i+1]`` and key rows
    ``cu_seqlens_k[i]:cu_seqlens_k[i+1]``, and attends only to itself.

    Args:
        query (Tensor): ``[total_q, heads, dim]``.
        key, value (Tensor): ``[total_k, kv_heads, dim]``.
        cu_seqlens_q, cu_seqlens_k (Tensor): int32 ``[batch + 1]`` cumulative lengths.
        max_seqlen_q, max_seqlen_k (int): the longest sequences (sizing hints).
        seqused_q, seqused_k (Tensor, optional): int32 ``[batch]``: only the first
            ``seqused[i]`` rows of sequence ``i`` take part (other query rows give zeros).
        softmax_scale (float, optional): ``1/sqrt(dim)`` when None.
        causal (bool): causal mask, aligned at the sequence ends.
        qv, q_descale, k_descale, v_descale: FP8 / extra-projection inputs of the Hopper
            kernel; only None is supported.
        window_size (tuple): sliding window ``(left, right)``; -1 means unbounded.
        softcap (float): when > 0, scores become ``softcap * tanh(scores / softcap)``.
        num_splits, pack_gqa, sm_margin: kernel tuning knobs, unused.

    Returns:
        tuple: ``(out [total_q, heads, dim], softmax_lse float32 [heads, total_q])``.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.rand([7, 2, 8])
        >>> cu = paddle.to_tensor([0, 3, 7], dtype='int32')
        >>> out, lse = paddle.nn.functional.flash_attention_v3_varlen(q, q, q, cu, cu, 4, 4, causal=True)
        >>> out.shape, lse.shape
        (paddle.Size([7, 2, 8]), paddle.Size([2, 7]))
    """
    assert qv is None, "flash_attn_varlen_func does not support setting qv"
    if q_descale is not None or k_descale is not None or v_descale is not None:
        raise NotImplementedError("paddle.nn.functional.flash_attention_v3_varlen: FP8 descale "
                                  "factors are not supported; pass float16/bfloat16/float32 inputs")
    hq, d = query.shape[1], query.shape[2]
    scale = softmax_scale if softmax_scale is not None else (d ** -0.5 if d else 1.0)
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    uq = seqused_q.tolist() if seqused_q is not None else None
    uk = seqused_k.tolist() if seqused_k is not None else None
    left, right = int(window_size[0]), int(window_size[1])
    out = torch.zeros_like(query)
    lse = torch.full((hq, query.shape[0]), float("-inf"), dtype=torch.float32, device=query.device)
    for i in range(len(cq) - 1):
        lq, lk = cq[i + 1] - cq[i], ck[i + 1] - ck[i]
        if uq is not None:
            lq = min(lq, uq[i])
        if uk is not None:
            lk = min(lk, uk[i])
        if lq <= 0:
            continue
        qi = query[cq[i]:cq[i] + lq].transpose(0, 1).unsqueeze(0)
        ki = _repeat_kv(key[ck[i]:ck[i] + lk].transpose(0, 1).unsqueeze(0), hq)
        vi = _repeat_kv(value[ck[i]:ck[i] + lk].transpose(0, 1).unsqueeze(0), hq)
        rel = (torch.arange(lk, device=query.device).view(1, lk)
               - torch.arange(lq, device=query.device).view(lq, 1) - (lk - lq))  # key - aligned query
        allowed = torch.ones(lq, lk, dtype=torch.bool, device=query.device)
        if causal:
            allowed &= rel <= 0
        if left >= 0:
            allowed &= rel >= -left
        if right >= 0 and not causal:
            allowed &= rel <= right
        o, l = _masked_attention(qi, ki, vi, allowed, scale, 0.0, float(softcap))
        out[cq[i]:cq[i] + lq] = o.squeeze(0).transpose(0, 1)
        lse[:, cq[i]:cq[i] + lq] = l.squeeze(0)
    return out, lse


def _check_qkv(api, query, key, value, rank):
    """Paddle's checks of an attention op's tensors; integer tensors compute in float32 (as
    Paddle's ``query * scale`` promotes them)."""
    api = f"paddle.nn.functional.flash_attention.{api}"
    ts = []
    for what, t in (("query", query), ("key", key), ("value", value)):
        tensor_arg(api, what, t, what == "query")
        if t.dim() != rank:
            # Paddle reads the query's head_dim as ``shape[rank - 1]`` first
            kind = IndexError if what == "query" and t.dim() < rank else ValueError
            raise kind(f"{api}: '{what}' must be {rank}-D, but received shape {list(t.shape)}")
        kernel_dtypes(api[len("paddle."):], t, FLASH_CPU_DTYPES, what)
        if t.dtype == torch.bool or t.is_complex():
            raise TypeError(f"{api}: '{what}' must be a floating point (or integer) tensor, but "
                            f"received {str(t.dtype).replace('torch.', '')}")
        ts.append(t if t.is_floating_point() else t.to(torch.float32))
    query, key, value = ts
    if not (query.dtype == key.dtype == value.dtype):
        names = ", ".join(str(t.dtype).replace("torch.", "") for t in ts)
        raise ValueError(f"{api}: query, key and value must have the same dtype, but received {names}")
    if query.shape[-1] != key.shape[-1] or key.shape[-3] != value.shape[-3]:
        raise ValueError(f"{api}: query and key must have the same head_dim and key and value the same "
                         f"sequence length, but received shapes {list(query.shape)}, {list(key.shape)} "
                         f"and {list(value.shape)}")
    hq, hk = query.shape[-2], key.shape[-2]
    if hk != value.shape[-2] or (hk and hq % hk):
        raise ValueError(f"{api}: the number of heads of query ({hq}) must be a multiple of those of "
                         f"key ({hk}), equal to those of value ({value.shape[-2]})")
    return query, key, value


@defop(amp="white", method=False)
def flash_attention(query, key, value, dropout=0.0, causal=False, return_softmax=False, *,
                    fixed_seed_offset=None, rng_name="", training=True, name=None, softmax_scale=None):
    """Attention ``softmax(Q K^T * scale) V`` per head, in Paddle's ``[batch, seq, heads, dim]``.

    Args:
        query (Tensor): ``[batch, seq_q, heads, dim]``.
        key (Tensor): ``[batch, seq_k, kv_heads, dim]`` (``heads`` a multiple of ``kv_heads``).
        value (Tensor): ``[batch, seq_k, kv_heads, dim]``.
        dropout (float): dropout on the attention weights (training only).
        causal (bool): hide the keys after each query (top-left aligned).
        return_softmax (bool): also return the attention weights ``[batch, heads, seq_q, seq_k]``
            (after dropout on the CPU, as Paddle's CPU path).
        fixed_seed_offset, rng_name: unused (the global generator drives dropout).
        training (bool): apply dropout.
        name (str, optional): unused.
        softmax_scale (float, optional): ``1/sqrt(dim)`` when None.

    Returns:
        tuple: ``(out [batch, seq_q, heads, dim], softmax or None)``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.functional.flash_attention import flash_attention
        >>> q = paddle.rand([1, 6, 2, 8])
        >>> out, _ = flash_attention(q, q, q, causal=True)
        >>> out.shape
        paddle.Size([1, 6, 2, 8])
    """
    query, key, value = _check_qkv("flash_attention", query, key, value, 4)
    d = query.shape[-1]
    scale = softmax_scale if softmax_scale else (d ** -0.5 if d else 1.0)
    return flash_bshd(query, key, value, scale, dropout, causal, return_softmax, training)


@defop(amp="white", method=False)
def flash_attn_unpadded(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, scale,
                        dropout=0.0, causal=False, return_softmax=False, fixed_seed_offset=None,
                        rng_name="", training=True, name=None):
    """Attention over variable-length sequences packed back to back: sequence ``i`` holds
    query rows ``cu_seqlens_q[i]:cu_seqlens_q[i+1]`` and key rows
    ``cu_seqlens_k[i]:cu_seqlens_k[i+1]``, and attends only to itself.

    Args:
        query (Tensor): ``[total_q, heads, dim]``.
        key, value (Tensor): ``[total_k, kv_heads, dim]``.
        cu_seqlens_q, cu_seqlens_k (Tensor): int32 ``[batch + 1]`` cumulative lengths.
        max_seqlen_q, max_seqlen_k (int): the longest sequences (sizing hints).
        scale (float): multiplier of ``q k^T``.
        dropout (float): dropout on the attention weights (training only).
        causal (bool): causal mask, aligned at the sequence ends.
        return_softmax (bool): not supported (raises NotImplementedError).
        fixed_seed_offset, rng_name: unused.
        training (bool): apply dropout.
        name (str, optional): unused.

    Returns:
        tuple: ``(out [total_q, heads, dim], None)``; rows outside every sequence are zeros.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.functional.flash_attention import flash_attn_unpadded
        >>> q = paddle.rand([7, 2, 8])
        >>> cu = paddle.to_tensor([0, 3, 7], dtype='int32')
        >>> out, _ = flash_attn_unpadded(q, q, q, cu, cu, 4, 4, 0.35, causal=True)
        >>> out.shape
        paddle.Size([7, 2, 8])
    """
    if return_softmax:
        raise NotImplementedError("paddle.nn.functional.flash_attention.flash_attn_unpadded: "
                                  "return_softmax=True is not supported")
    query, key, value = _check_qkv("flash_attn_unpadded", query, key, value, 3)
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    if len(cq) != len(ck):
        raise ValueError("paddle.nn.functional.flash_attention.flash_attn_unpadded: cu_seqlens_q and "
                         f"cu_seqlens_k must have the same length, but received {len(cq)} and {len(ck)}")
    hq = query.shape[1]
    out = torch.zeros(query.shape[:2] + value.shape[2:], dtype=query.dtype, device=query.device)
    p = float(dropout) if training else 0.0
    for i in range(len(cq) - 1):
        lq, lk = cq[i + 1] - cq[i], ck[i + 1] - ck[i]
        if lq <= 0:
            continue
        qi = query[cq[i]:cq[i + 1]].transpose(0, 1).unsqueeze(0)
        ki = _repeat_kv(key[ck[i]:ck[i + 1]].transpose(0, 1).unsqueeze(0), hq)
        vi = _repeat_kv(value[ck[i]:ck[i + 1]].transpose(0, 1).unsqueeze(0), hq)
        mask = torch.ones(lq, lk, dtype=torch.bool, device=query.device).tril(lk - lq) if causal else None
        out[cq[i]:cq[i + 1]] = attention_bhsd(qi, ki, vi, mask, p, False, scale).squeeze(0).transpose(0, 1)
    return out, None


@defop(method=False, differentiable=False)
def calc_reduced_attention_scores(query, key, softmax_lse):
    """The attention weights ``softmax(Q K^T / sqrt(d))`` summed over the query rows, from the
    row log-sum-exps ``softmax_lse`` of a previous attention call (inference only).

    Args:
        query (Tensor): ``[batch, seq_q, heads, dim]``.
        key (Tensor): ``[batch, seq_k, heads, dim]``.
        softmax_lse (Tensor): float32 ``[batch, heads, >= seq_q]`` (extra columns are ignored).

    Returns:
        Tensor: float32 ``[batch, heads, 1, seq_k]``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.functional.flash_attention import (calc_reduced_attention_scores,
        ...                                                   flashmask_attention)
        >>> q = paddle.rand([1, 4, 2, 8])
        >>> out, lse = flashmask_attention(q, q, q, return_softmax_lse=True)
        >>> s = calc_reduced_attention_scores(q, q, lse)
        >>> s.shape, round(float(s.sum()), 3)   # each of the 2 x 4 query rows sums to 1
        (paddle.Size([1, 2, 1, 4]), 8.0)
    """
    assert not (query.requires_grad or key.requires_grad), \
        "calc_reduced_attention_scores() is for inference only."
    query, key, _ = _check_qkv("calc_reduced_attention_scores", query, key, key, 4)
    q, k = query.transpose(1, 2).float(), key.transpose(1, 2).float()
    k = _repeat_kv(k, q.shape[1])
    d = q.shape[-1]
    scores = torch.matmul(q, k.transpose(-1, -2)) * (d ** -0.5 if d else 1.0)
    lse = softmax_lse.float()[..., :q.shape[2]].unsqueeze(-1)
    return torch.exp(scores - lse).sum(-2, keepdim=True)
