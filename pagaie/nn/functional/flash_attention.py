"""paddle.nn.functional.flash_attention: the flash-attention family in one module.

The functions also public in ``paddle.nn.functional`` are the very same objects here
(``flash_attn_qkvpacked``, ``flashmask_attention``...); ``flash_attention``,
``flash_attn_unpadded``, ``flash_attn_varlen_func``, ``calc_reduced_attention_scores`` and
``get_triangle_upper_mask`` live only here, as in Paddle. Paddle runs most of them only on
NVIDIA GPUs; pagaie computes the same math on every device (op records in
:mod:`pagaie._ops.nn_attention` and :mod:`pagaie._ops.nn_attention_mask`).
"""
from __future__ import annotations

from pagaie._ops.nn_attention import flash_attn_qkvpacked, flash_attn_varlen_qkvpacked
from pagaie._ops.nn_attention_mask import (calc_reduced_attention_scores, flash_attention,
                                           flash_attention_v3_varlen, flash_attn_unpadded,
                                           flashmask_attention)
from pagaie.nn.attention.sdpa import SDPBackend, sdp_kernel, sdpa_kernel

__all__ = ["flash_attention", "flash_attn_qkvpacked", "flash_attn_unpadded", "flash_attn_varlen_func",
           "flash_attn_varlen_qkvpacked", "flash_attention_v3_varlen", "flashmask_attention",
           "calc_reduced_attention_scores", "sdp_kernel", "sdpa_kernel", "SDPBackend",
           "get_triangle_upper_mask"]


def get_triangle_upper_mask(x):
    """An additive causal mask shaped like ``x``: ``-1e4`` above the diagonal of the last two
    axes, 0 elsewhere (``stop_gradient=True``).

    Args:
        x (Tensor): attention scores ``[..., seq_q, seq_k]``.

    Returns:
        Tensor: the mask, with ``x``'s shape and dtype.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.functional.flash_attention import get_triangle_upper_mask
        >>> get_triangle_upper_mask(paddle.zeros([2, 2]))
        Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,
               [[ 0.    , -10000.],
                [ 0.    ,  0.    ]])
    """
    import pagaie
    mask = pagaie.triu(pagaie.full_like(x, -1e4), diagonal=1)
    mask.stop_gradient = True
    return mask


def flash_attn_varlen_func(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k,
                           seqused_q=None, seqused_k=None, softmax_scale=None, causal=False, qv=None,
                           q_descale=None, k_descale=None, v_descale=None, window_size=(-1, -1),
                           softcap=0.0, num_splits=1, pack_gqa=None, sm_margin=0):
    """FlashAttention-3's variable-length attention: the same as
    :func:`flash_attention_v3_varlen` (sequences packed back to back, each attending only to
    itself).

    Args:
        query (Tensor): ``[total_q, heads, dim]``.
        key, value (Tensor): ``[total_k, kv_heads, dim]``.
        cu_seqlens_q, cu_seqlens_k (Tensor): int32 ``[batch + 1]`` cumulative lengths.
        max_seqlen_q, max_seqlen_k (int): the longest sequences.
        seqused_q, seqused_k, softmax_scale, causal, qv, q_descale, k_descale, v_descale,
            window_size, softcap, num_splits, pack_gqa, sm_margin: as in
            :func:`flash_attention_v3_varlen`.

    Returns:
        tuple: ``(out [total_q, heads, dim], softmax_lse float32 [heads, total_q])``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.functional.flash_attention import flash_attn_varlen_func
        >>> q = paddle.rand([7, 2, 8])
        >>> cu = paddle.to_tensor([0, 3, 7], dtype='int32')
        >>> out, lse = flash_attn_varlen_func(q, q, q, cu, cu, 4, 4, causal=True)
        >>> out.shape, lse.shape
        (paddle.Size([7, 2, 8]), paddle.Size([2, 7]))
    """
    return flash_attention_v3_varlen(
        query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, seqused_q=seqused_q,
        seqused_k=seqused_k, softmax_scale=softmax_scale, causal=causal, qv=qv, q_descale=q_descale,
        k_descale=k_descale, v_descale=v_descale, window_size=window_size, softcap=softcap,
        num_splits=num_splits, pack_gqa=pack_gqa, sm_margin=sm_margin)
