"""Attention ops of ``paddle.nn.functional``: scaled_dot_product_attention and the
flash-attention family, on torch's fused attention kernel.

Paddle's layout is ``[batch, seq_len, num_heads, head_dim]`` (torch's is heads-first); the
kernels transpose views in and out. Not a top-level family: exported by
``pagaie.nn.functional``.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from pagaie._core.registry import defop

__all__ = ["scaled_dot_product_attention"]


def _repeat_kv(k, heads):
    """Grouped-query attention: repeat each key/value head to match ``heads`` query heads."""
    n = k.shape[1]
    return k if n == heads or n == 0 else k.repeat_interleave(heads // n, dim=1)


def attention_bhsd(q, k, v, mask=None, dropout_p=0.0, causal=False, scale=None):
    """softmax(q k^T * scale + mask) (dropout) @ v on ``[batch, heads, seq, dim]`` torch tensors.

    ``mask`` is additive (float) or boolean (True = attend); a causal mask replaces it.
    """
    if mask is not None:
        if mask.dtype == torch.bool:
            mask = torch.where(mask, 0.0, float("-inf")).to(q.dtype)
        elif mask.dtype != q.dtype:
            mask = mask.to(q.dtype)
    if causal:
        mask = None
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p,
                                          is_causal=causal, scale=scale)


@defop(amp="white", paddle_types=("flash_attn", "memory_efficient_attention",
                                  "pd_op.flash_attn", "pd_op.memory_efficient_attention"), method=False)
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 training=True, backend=None, scale=None, enable_gqa=True, name=None):
    """Attention ``softmax(Q K^T * scale + mask) V`` per head.

    Args:
        query (Tensor): ``[batch, seq_q, heads, dim]`` (or 3-D without the batch).
        key (Tensor): ``[batch, seq_k, kv_heads, dim]``.
        value (Tensor): ``[batch, seq_k, kv_heads, dim_v]``.
        attn_mask (Tensor, optional): broadcastable to ``[batch, heads, seq_q, seq_k]``; bool
            (True = attend) or additive float.
        dropout_p (float): dropout on the attention weights (training only).
        is_causal (bool): mask out future keys (the mask argument is then ignored).
        training (bool): apply dropout.
        backend (str, optional): unused (torch picks its fastest kernel).
        scale (float, optional): ``1/sqrt(dim)`` when None.
        enable_gqa (bool): allow fewer key/value heads than query heads (grouped queries).
        name (str, optional): unused.

    Returns:
        Tensor: ``[batch, seq_q, heads, dim_v]``.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.rand([2, 5, 4, 8])
        >>> paddle.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True).shape
        paddle.Size([2, 5, 4, 8])
    """
    batched = query.dim() == 4
    if not batched:
        query, key, value = query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0)
    qh, kh, vh = query.shape[2], key.shape[2], value.shape[2]
    if enable_gqa:
        assert kh == 0 or qh % kh == 0, (
            f"The number of groups in query({qh}) must be divisible by the number of groups in "
            f"key({kh}) if GQA enabled.")
        assert kh == vh, (f"The number of groups in key({kh}) must be equal to the number of groups "
                          f"in value({vh}) if GQA enabled.")
    else:
        assert qh == kh == vh, (
            f"The number of groups in query({qh}) must be equal to the number of groups in key({kh}) "
            f"and the number of groups in value({vh}) if GQA disabled.")
    q, k, v = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
    k, v = _repeat_kv(k, qh), _repeat_kv(v, qh)
    if not scale:
        scale = q.shape[-1] ** -0.5 if q.shape[-1] else 1.0
    p = float(dropout_p) if training else 0.0
    out = attention_bhsd(q, k, v, attn_mask, p, bool(is_causal), scale).transpose(1, 2)
    return out if batched else out.squeeze(0)
