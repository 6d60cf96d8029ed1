"""Attention ops of ``paddle.nn.functional``: scaled_dot_product_attention and the
flash-attention family, on torch's fused attention kernel.

Paddle's layout is ``[batch, seq_len, num_heads, head_dim]`` (torch's is heads-first); the
kernels transpose views in and out. Not a top-level family: exported by
``pagaie.nn.functional``.
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from pagaie._core.bad_input import type_name
from pagaie._core.random import on_paddle_cpu
from pagaie._core.registry import defop
from pagaie._ops._helpers import kernel_dtypes
from pagaie._ops._random_mask import keep_mask, upscale_kept

__all__ = ["scaled_dot_product_attention", "flash_attn_qkvpacked", "flash_attn_varlen_qkvpacked",
           "sparse_attention"]


def _repeat_kv(k, heads):
    """Grouped-query attention: repeat each key/value head to match ``heads`` query heads."""
    n = k.shape[1]
    return k if n == heads or n == 0 else k.repeat_interleave(heads // n, dim=1)


def attention_bhsd(q, k, v, mask=None, dropout_p=0.0, causal=False, scale=None, nan_rows=False):
    """softmax(q k^T * scale + mask) (dropout) @ v on ``[batch, heads, seq, dim]`` torch tensors.

    ``mask`` is additive (float) or boolean (True = attend); a causal mask replaces it.
    A query row that the mask leaves no key gives zeros, as the fused kernels do, or with
    ``nan_rows`` NaN on the CPU, as Paddle's CPU attention (a softmax over ``-inf`` only).
    """
    if mask is not None:
        if mask.dim() < 2:   # a mask over the keys only: broadcast like Paddle's ``product + mask``
            mask = mask.reshape([1] * (2 - mask.dim()) + list(mask.shape))
        if mask.dtype == torch.bool:
            mask = torch.where(mask, 0.0, float("-inf")).to(q.dtype)
        elif mask.dtype != q.dtype:
            mask = mask.to(q.dtype)
    if causal:
        mask = None
    if q.device.type == "cpu" and (dropout_p > 0.0 or (nan_rows and on_paddle_cpu(q.device)
                                                       and _has_masked_row(mask))):
        return _math_attention_cpu(q, k, v, mask, dropout_p, causal, scale, not nan_rows)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=dropout_p,
                                          is_causal=causal, scale=scale)


def _has_masked_row(mask):
    """Whether an additive ``mask`` hides every key from some query row: all ``-inf``, or all
    so negative (a bool mask made additive as ``(mask - 1) * 1e9``) that the scores vanish
    under it; the fused kernels' backward loses such rows' softmax to rounding."""
    return mask is not None and mask.numel() > 0 and bool((mask <= -1e8).all(-1).any())


def _math_attention_cpu(q, k, v, mask, dropout_p, causal, scale, safe=True):
    """The attention core spelled out as Paddle's CPU attention is
    (``softmax((q * scale) k^T + mask)``, then ``dropout``), drawing Paddle's dropout mask.

    Rows with no allowed key give zeros when ``safe`` (as the fused kernels do), else NaN.
    """
    if scale is None:
        scale = q.shape[-1] ** -0.5 if q.shape[-1] else 1.0
    scores = torch.matmul(q * scale, k.transpose(-1, -2))
    if causal:
        # aligned at the top-left corner (query i sees keys 0..i), as Paddle's math path and
        # torch's ``is_causal`` are
        lq, lk = scores.shape[-2], scores.shape[-1]
        mask = torch.ones(lq, lk, dtype=torch.bool, device=q.device).tril()
        mask = torch.zeros(lq, lk, dtype=q.dtype, device=q.device).masked_fill_(~mask, float("-inf"))
    if mask is not None:
        scores = scores + mask
    weights = _safe_softmax(scores) if safe and mask is not None else torch.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = _drop_weights(weights, dropout_p)
    return torch.matmul(weights, v)


def _drop_weights(w, p):
    """``dropout(w, p)`` in training mode: Paddle's mask and division on the CPU."""
    if float(np.float32(p)) == 1.0:   # Paddle's dropout zeroes without drawing
        return torch.where(torch.zeros((), dtype=torch.bool, device=w.device), w, 0)
    if w.is_cuda:
        return F.dropout(w, p, True)
    return upscale_kept(w, keep_mask(w.shape, p, w.device), p)


def _safe_softmax(scores):
    """Softmax over the last axis that gives 0 (not NaN) on rows that are all ``-inf``."""
    safe = getattr(torch.ops.aten, "_safe_softmax", None)
    if safe is not None:
        return safe(scores, -1)
    w = torch.softmax(scores, -1)
    return torch.where(torch.isneginf(scores).all(-1, keepdim=True), 0.0, w)


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
    api = "paddle.nn.functional.scaled_dot_product_attention"
    for name, t in (("query", query), ("key", key), ("value", value)):
        tensor_arg(api, name, t, place_read=True)
    batched = query.dim() == 4
    # Paddle compares the head counts first (an AssertionError), reading axis 2 of each input
    # after giving all three a batch axis when the query has none; the shape checks follow
    shapes = [t.shape if batched else (1, *t.shape) for t in (query, key, value)]
    if all(len(s) > 2 for s in shapes):
        _check_heads(*(s[2] for s in shapes), enable_gqa)
    query, key, value, attn_mask = _check_sdpa_args(query, key, value, attn_mask)
    if not batched:
        query, key, value = query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0)
    qh = query.shape[2]
    q, k, v = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
    k, v = _repeat_kv(k, qh), _repeat_kv(v, qh)
    if not scale:
        scale = q.shape[-1] ** -0.5 if q.shape[-1] else 1.0
    p = _dropout_rate(api, "dropout_p", dropout_p, training)
    out = attention_bhsd(q, k, v, attn_mask, p, bool(is_causal), scale, nan_rows=True).transpose(1, 2)
    return out if batched else out.squeeze(0)


def _check_heads(qh, kh, vh, enable_gqa):
    """Grouped-query attention needs kv heads that divide the query heads (all equal without)."""
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


def _dropout_rate(api, arg, p, training):
    """The rate applied: Paddle's attention drops only for ``p > 0`` (a negative rate is no
    dropout) and its ``dropout`` rejects ``p > 1`` even outside training."""
    p = float(p)
    if p > 1.0:
        raise ValueError(f"{api}: '{arg}' must be between 0 and 1, but received {p}")
    return max(p, 0.0) if training else 0.0


_SDPA_CPU_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64,
                              torch.complex64, torch.complex128})
_SDPA_STATIC_DTYPES = frozenset({torch.uint8, torch.int8, torch.int32, torch.int64, torch.bfloat16,
                                 torch.float32, torch.float64})


def _check_sdpa_args(query, key, value, attn_mask):
    """Paddle's checks (and promotions) of scaled_dot_product_attention's tensors."""
    api = "paddle.nn.functional.scaled_dot_product_attention"
    for name, t in (("query", query), ("key", key), ("value", value)):
        if t.dim() not in (3, 4):
            raise ValueError(f"{api}: '{name}' must be 3-D [seq_len, num_heads, head_dim] or 4-D "
                             f"[batch_size, seq_len, num_heads, head_dim], but received shape "
                             f"{list(t.shape)}")
    if not (query.dim() == key.dim() == value.dim()):
        raise ValueError(f"{api}: query, key and value must have the same rank, but received "
                         f"shapes {list(query.shape)}, {list(key.shape)} and {list(value.shape)}")
    if key.shape[-3] != value.shape[-3]:
        raise ValueError(f"{api}: key and value must have the same sequence length, but received "
                         f"key of shape {list(key.shape)} and value of shape {list(value.shape)}")
    batches = {t.shape[0] for t in (query, key, value)} - {1} if query.dim() == 4 else set()
    if key.shape[-1] != query.shape[-1] or len(batches) > 1:
        raise ValueError(f"{api}: query and key must have the same head_dim, and query, key and "
                         f"value batch sizes that broadcast, but received query of shape {list(query.shape)}, key of shape "
                         f"{list(key.shape)} and value of shape {list(value.shape)}")
    if isinstance(attn_mask, np.ndarray):
        attn_mask = _array_mask(api, attn_mask, query)
    elif attn_mask is not None:
        tensor_arg(api, "attn_mask", attn_mask)
    if attn_mask is not None:
        _check_mask_shape(api, attn_mask, query, key, value)
    # Paddle's CPU matmul kernel (its static API's check takes another set); the kernel runs
    # in its second operand's dtype: the key's (a query of another dtype is its
    # InvalidArgument), then the value's
    first, arg = (query, "query") if query.dtype == key.dtype else (key, "key")
    kernel_dtypes("nn.functional.scaled_dot_product_attention", first, _SDPA_CPU_DTYPES, arg,
                  static=_SDPA_STATIC_DTYPES)
    if value.dtype != first.dtype and value.is_floating_point() and query.dtype == key.dtype:
        kernel_dtypes("nn.functional.scaled_dot_product_attention", value, _SDPA_CPU_DTYPES,
                      "value", static=_SDPA_STATIC_DTYPES)
    # integer inputs compute in float32, as Paddle's ``query * scale`` promotes them
    query, key, value = (t if t.is_floating_point() or t.is_complex() else t.to(torch.float32)
                         for t in (query, key, value))
    if not (query.dtype == key.dtype == value.dtype):
        raise ValueError(f"{api}: query, key and value must have the same dtype, but received "
                         f"{_name(query.dtype)}, {_name(key.dtype)} and {_name(value.dtype)}")
    if attn_mask is not None and attn_mask.dtype != torch.bool and not attn_mask.is_floating_point():
        raise TypeError(f"{api}: 'attn_mask' must be bool (True: attend) or an additive float "
                        f"mask, but received {_name(attn_mask.dtype)}")
    if attn_mask is not None and attn_mask.is_floating_point() and attn_mask.dtype != query.dtype:
        # Paddle adds the mask to the scores: a narrower float mask is promoted to the query's
        # type, a wider one fails in its kernel (a ValueError)
        if attn_mask.dtype.itemsize < query.dtype.itemsize:
            return query, key, value, attn_mask.to(query.dtype)
        raise ValueError(f"{api}: a float 'attn_mask' must have the dtype of query "
                         f"({_name(query.dtype)}), but received {_name(attn_mask.dtype)}")
    return query, key, value, attn_mask


def _array_mask(api, mask, query):
    """A numpy ``attn_mask``: Paddle adds it to the scores as a tensor of its dtype, so a
    float array is an additive mask and a bool or integer one fails type promotion."""
    if mask.dtype.kind not in "fc":
        raise TypeError(f"{api}: a numpy 'attn_mask' is added to the attention scores, so it must "
                        f"be floating-point, but received {mask.dtype}")
    return torch.from_numpy(mask).to(query.device)


def _check_mask_shape(api, mask, query, key, value):
    """``mask`` broadcasts to the scores ``[batch, heads, seq_q, seq_k]`` (right-aligned)."""
    batch = max(query.shape[0], key.shape[0], value.shape[0]) if query.dim() == 4 else 1
    scores = [batch, query.shape[-2], query.shape[-3], key.shape[-3]]
    dims = list(mask.shape)
    if len(dims) > 4 or any(d not in (1, s) for d, s in zip(dims[::-1], scores[::-1])):
        raise ValueError(f"{api}: 'attn_mask' must broadcast to [batch_size, num_heads, seq_len_q, "
                         f"seq_len_k] = {scores}, but received shape {dims}")


def _name(dtype):
    return str(dtype).replace("torch.", "")


def _weights(q, k, mask, causal, scale):
    """Explicit ``softmax(q k^T * scale + mask)`` (for ``return_softmax``)."""
    prod = torch.matmul(q * scale, k.transpose(-1, -2))
    if causal:
        lq, lk = prod.shape[-2], prod.shape[-1]
        prod = prod.masked_fill(torch.ones(lq, lk, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
    elif mask is not None:
        prod = prod + mask
    return torch.softmax(prod, -1)


# Paddle's CPU attention runs matmul (no bool, small-integer or half-precision kernel), then
# softmax (real floats only): the dtypes its flash-attention functions take on the CPU
FLASH_CPU_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64})


def tensor_arg(api: str, name: str, t, shape_read: bool = True, place_read: bool = False) -> None:
    """Refuse a non-Tensor ``t`` where attention op ``api`` wants a Tensor: Paddle's ValueError
    (its argument parser), or its AttributeError where its Python code first reads the value's
    shape (``shape_read``), which a numpy array has, or its place (``place_read``), which a
    numpy array lacks too."""
    if not isinstance(t, torch.Tensor):
        array = isinstance(t, np.ndarray)
        kind = AttributeError if place_read or (shape_read and not array) else ValueError
        raise kind(f"{api}: argument '{name}' must be Tensor, but got {type_name(t)}")


def _unpack_qkv(qkv, heads_axis):
    """``[..., groups + 2, kv_heads, dim]`` -> q ``[..., heads, dim]``, k, v ``[..., kv_heads, dim]``."""
    q = qkv.narrow(heads_axis, 0, qkv.shape[heads_axis] - 2)
    q = q.reshape(*q.shape[:heads_axis], -1, qkv.shape[-1])
    return q, qkv.select(heads_axis, -2), qkv.select(heads_axis, -1)


@defop(amp="white", paddle_types=("flash_attn_qkvpacked", "pd_op.flash_attn_qkvpacked"), method=False)
def flash_attn_qkvpacked(qkv, dropout=0.0, causal=False, return_softmax=False, *, fixed_seed_offset=None,
                         rng_name="", training=True, name=None):
    """Attention over a packed ``qkv`` tensor ``[batch, seq, heads/kv_heads + 2, kv_heads, dim]``
    (query heads first, then the key and the value).

    Args:
        qkv (Tensor): the packed query/key/value.
        dropout (float): dropout on the attention weights (training only).
        causal (bool): mask out future keys.
        return_softmax (bool): also return the attention weights ``[batch, heads, seq, seq]``.
        fixed_seed_offset, rng_name: unused (torch's generator drives dropout).
        training (bool): apply dropout.
        name (str, optional): unused.

    Returns:
        tuple: ``(out [batch, seq, heads, dim], softmax or None)``.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.rand((1, 6, 2, 8))
        >>> out, _ = paddle.nn.functional.flash_attn_qkvpacked(paddle.stack([q, q, q], axis=2))
        >>> out.shape
        paddle.Size([1, 6, 2, 8])
    """
    api = "paddle.nn.functional.flash_attn_qkvpacked"
    tensor_arg(api, "qkv", qkv)
    if qkv.dim() != 5 or qkv.shape[2] < 3:
        raise ValueError(f"{api}: 'qkv' must be 5-D [batch_size, seq_len, num_heads/num_heads_k + 2, "
                         f"num_heads_k, head_dim], but received shape {list(qkv.shape)}")
    kernel_dtypes(api[len("paddle."):], qkv, FLASH_CPU_DTYPES, "qkv")
    if not qkv.is_floating_point():   # Paddle's ``query * scale`` promotes integers
        qkv = qkv.to(torch.float32)
    q, k, v = _unpack_qkv(qkv, 2)
    return flash_bshd(q, k, v, q.shape[-1] ** -0.5, dropout, causal, return_softmax, training,
                      api=api)


def flash_bshd(query, key, value, scale, dropout, causal, return_softmax, training,
               api="paddle.nn.functional.flash_attention"):
    """Paddle's flash-attention ops on ``[batch, seq, heads, dim]`` inputs (key/value heads
    repeated for grouped queries): ``(out, softmax or None)``."""
    q, k, v = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
    k, v = _repeat_kv(k, q.shape[1]), _repeat_kv(v, q.shape[1])
    p = _dropout_rate(api, "dropout", dropout, training)
    if return_softmax:
        w = _weights(q, k, None, causal, scale)
        wd = _drop_weights(w, p) if p else w
        # Paddle's CPU attention returns the weights after dropout, its GPU kernel before
        return torch.matmul(wd, v).transpose(1, 2), (w if w.is_cuda else wd)
    return attention_bhsd(q, k, v, None, p, bool(causal), scale).transpose(1, 2), None


@defop(amp="white", paddle_types=("flash_attn_varlen_qkvpacked", "pd_op.flash_attn_varlen_qkvpacked"),
       method=False)
def flash_attn_varlen_qkvpacked(qkv, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, scale,
                                dropout=0.0, causal=False, return_softmax=False, fixed_seed_offset=None,
                                rng_name="", varlen_padded=True, training=True, name=None):
    """Attention over variable-length sequences packed in one ``qkv`` tensor
    ``[total, heads/kv_heads + 2, kv_heads, dim]``; each sequence attends only to itself.

    Sequence ``i`` has ``cu_seqlens[i+1] - cu_seqlens[i]`` tokens. With ``varlen_padded``
    (default) sequence ``i`` starts at row ``i * max_seqlen`` and rows past its length are
    padding (zeros in the output); otherwise sequences are contiguous from ``cu_seqlens[i]``.

    Args:
        qkv (Tensor): the packed query/key/value.
        cu_seqlens_q, cu_seqlens_k (Tensor): ``[batch + 1]`` cumulative lengths.
        max_seqlen_q, max_seqlen_k (int): padded (maximum) lengths.
        scale (float): multiplier of ``q k^T``.
        dropout (float): dropout on the attention weights (training only).
        causal (bool): mask out future keys (aligned at the sequence ends).
        return_softmax (bool): not supported (raises NotImplementedError).
        fixed_seed_offset, rng_name: unused.
        varlen_padded (bool): padded layout (see above).
        training (bool): apply dropout.
        name (str, optional): unused.

    Returns:
        tuple: ``(out [total, heads, dim], None)``.

    Examples:
        >>> import pagaie as paddle
        >>> qkv = paddle.rand((8, 3, 2, 4))
        >>> cu = paddle.to_tensor([0, 3, 7], dtype='int32')
        >>> out, _ = paddle.nn.functional.flash_attn_varlen_qkvpacked(qkv, cu, cu, 4, 4, 0.5)
        >>> out.shape
        paddle.Size([8, 2, 4])
    """
    if return_softmax:
        raise NotImplementedError("paddle.nn.functional.flash_attn_varlen_qkvpacked: return_softmax=True "
                                  "is not supported")
    q, k, v = _unpack_qkv(qkv, 1)
    cq, ck = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    out = torch.zeros_like(q)
    p = float(dropout) if training else 0.0
    for i in range(len(cq) - 1):
        lq, lk = cq[i + 1] - cq[i], ck[i + 1] - ck[i]
        sq = i * max_seqlen_q if varlen_padded else cq[i]
        sk = i * max_seqlen_k if varlen_padded else ck[i]
        if lq <= 0:
            continue
        qi = q[sq:sq + lq].transpose(0, 1).unsqueeze(0)
        ki = _repeat_kv(k[sk:sk + lk].transpose(0, 1).unsqueeze(0), qi.shape[1])
        vi = _repeat_kv(v[sk:sk + lk].transpose(0, 1).unsqueeze(0), qi.shape[1])
        mask = None
        if causal:
            mask = torch.ones(lq, lk, dtype=torch.bool, device=q.device).tril(lk - lq)
        o = attention_bhsd(qi, ki, vi, mask, p, False, scale)
        out[sq:sq + lq] = o.squeeze(0).transpose(0, 1)
    return out, None


@defop(paddle_types=("sparse_attention", "pd_op.sparse_attention"), method=False)
def sparse_attention(query, key, value, sparse_csr_offset, sparse_csr_columns, key_padding_mask=None,
                     attn_mask=None, name=None):
    """Attention restricted to a sparse (CSR) layout of allowed query/key pairs.

    Args:
        query, key, value (Tensor): ``[batch, heads, seq, dim]``.
        sparse_csr_offset (Tensor): ``[batch, heads, seq + 1]`` row offsets (int32).
        sparse_csr_columns (Tensor): ``[batch, heads, nnz]`` allowed key columns per row.
        key_padding_mask (Tensor, optional): ``[batch, seq]``; 0 masks a key.
        attn_mask (Tensor, optional): ``[seq, seq]``; 0 masks a pair.
        name (str, optional): unused.

    Returns:
        Tensor: ``[batch, heads, seq, dim]`` (zeros for a query with no allowed key).

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.rand([1, 1, 4, 2])
        >>> offset = paddle.to_tensor([[[0, 2, 4, 6, 8]]], dtype='int32')
        >>> columns = paddle.to_tensor([[[0, 1, 0, 1, 2, 3, 2, 3]]], dtype='int32')
        >>> paddle.nn.functional.sparse_attention(q, q, q, offset, columns).shape
        paddle.Size([1, 1, 4, 2])
    """
    b, h, s, _ = query.shape
    sk = key.shape[2]
    counts = (sparse_csr_offset[..., 1:] - sparse_csr_offset[..., :-1]).long()   # [b, h, s]
    rows = torch.repeat_interleave(torch.arange(s, device=query.device).expand(b, h, s).reshape(-1),
                                   counts.reshape(-1))
    bh = torch.repeat_interleave(torch.arange(b * h, device=query.device), counts.sum(-1).reshape(-1))
    nnz = counts.sum(-1).reshape(-1)
    cols = torch.cat([sparse_csr_columns.reshape(b * h, -1)[i, :int(n)] for i, n in enumerate(nnz.tolist())])
    allowed = torch.zeros(b * h, s, sk, dtype=torch.bool, device=query.device)
    allowed[bh, rows, cols.long()] = True
    allowed = allowed.reshape(b, h, s, sk)
    if key_padding_mask is not None:
        allowed = allowed & (key_padding_mask != 0).reshape(b, 1, 1, sk)
    if attn_mask is not None:
        allowed = allowed & (attn_mask != 0).reshape(1, 1, s, sk)
    out = attention_bhsd(query, key, value, allowed, 0.0, False, query.shape[-1] ** -0.5)
    return torch.where(allowed.any(-1, keepdim=True), out, torch.zeros((), dtype=out.dtype, device=out.device))
