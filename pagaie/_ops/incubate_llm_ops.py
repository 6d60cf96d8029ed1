"""LLM kernels of ``paddle.incubate.nn.functional``: fast norms, MoE routing (gate dispatch,
combine, auxiliary loss, expert-id bookkeeping), counting and the embedding-grad accumulate.

Paddle ships these as CUDA kernels only; here each is written from the kernel's documented
arithmetic over torch tensors, so it runs on every device and (where it makes sense)
differentiates through torch autograd. Data-routing outputs follow the CUDA layouts:
``scatter_index`` is ``[k, seq]`` and routing is stable (ties go to the lower expert id,
tokens keep their input order within an expert).
"""
from __future__ import annotations

import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import defop

__all__: list = []

_API = "paddle.incubate.nn.functional"


def _rows_stats(x: torch.Tensor, scale: torch.Tensor, api: str):
    if x.dim() < 1 or scale.numel() != x.shape[-1]:
        width = x.shape[-1] if x.dim() else 0
        raise ValueError(f"{_API}.{api}: 'scale' must have x.shape[-1] ({width})"
                         f" elements, but received shape {list(scale.shape)}")
    return x.float(), scale.reshape(-1).float()


@defop(paddle_types=("fast_ln", "pd_op.fast_ln"), method=False)
def fast_ln(x, scale, bias, epsilon=1e-5):
    """Layer normalisation over the last axis, also returning the row statistics.

    Args:
        x (Tensor): the input, normalised over its last axis.
        scale (Tensor): ``[x.shape[-1]]`` weight.
        bias (Tensor): ``[x.shape[-1]]`` shift.
        epsilon (float, optional): added to the variance. Default 1e-5.

    Returns:
        tuple: ``(y, mean, invvar)``; ``y`` has ``x``'s shape and dtype, ``mean`` and
        ``invvar = 1 / sqrt(var + epsilon)`` are float32 with one value per row.

    Examples:
        >>> import pagaie as paddle
        >>> y, mean, invvar = paddle.incubate.nn.functional.fast_ln(
        ...     paddle.to_tensor([[1.0, 3.0]]), paddle.ones([2]), paddle.zeros([2]), 0.0)
        >>> y.tolist(), mean.tolist(), invvar.tolist()
        ([[-1.0, 1.0]], [2.0], [1.0])
    """
    xf, w = _rows_stats(x, scale, "fast_ln")
    mean = xf.mean(-1, keepdim=True)
    var = (xf - mean).pow(2).mean(-1, keepdim=True)
    inv = torch.rsqrt(var + epsilon)
    y = (xf - mean) * inv * w + bias.reshape(-1).float()
    return y.to(x.dtype), mean.reshape(-1), inv.reshape(-1)


def _rms(x, scale, epsilon, api):
    xf, w = _rows_stats(x, scale, api)
    inv = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + epsilon)
    return (xf * inv * w).to(x.dtype), inv.reshape(-1)


@defop(paddle_types=("fast_rms_norm", "pd_op.fast_rms_norm"), method=False)
def fast_rms_norm(x, scale, epsilon=1e-5):
    """RMS normalisation over the last axis: ``x / sqrt(mean(x**2) + epsilon) * scale``.

    Args:
        x (Tensor): the input.
        scale (Tensor): ``[x.shape[-1]]`` weight.
        epsilon (float, optional): added to the mean square. Default 1e-5.

    Returns:
        tuple: ``(y, invvar)``; ``invvar`` is float32, one value per row.

    Examples:
        >>> import pagaie as paddle
        >>> y, inv = paddle.incubate.nn.functional.fast_rms_norm(
        ...     paddle.to_tensor([[3.0, 4.0]]), paddle.ones([2]), 0.0)
        >>> [round(v, 4) for v in y[0].tolist()]
        [0.8485, 1.1314]
    """
    return _rms(x, scale, epsilon, "fast_rms_norm")


@defop(paddle_types=("fused_rms_norm_ext", "pd_op.fused_rms_norm_ext"), method=False)
def fused_rms_norm_ext(x, scale, epsilon=1e-5, name=None):
    """RMS normalisation over the last axis (same arithmetic as :func:`fast_rms_norm`).

    Args:
        x (Tensor): the input.
        scale (Tensor): ``[x.shape[-1]]`` weight.
        epsilon (float, optional): added to the mean square. Default 1e-5.
        name (str, optional): unused.

    Returns:
        tuple: ``(y, invvar)``; ``invvar`` is float32, one value per row.

    Examples:
        >>> import pagaie as paddle
        >>> y, inv = paddle.incubate.nn.functional.fused_rms_norm_ext(
        ...     paddle.to_tensor([[2.0, 2.0]]), paddle.ones([2]), 0.0)
        >>> y.tolist(), inv.tolist()
        ([[1.0, 1.0]], [0.5])
    """
    return _rms(x, scale, epsilon, "fused_rms_norm_ext")


@defop(paddle_types=("int_bincount", "pd_op.int_bincount"), method=False, differentiable=False)
def int_bincount(x, low, high, dtype=None, name=None):
    """Count the occurrences of each integer of ``[low, high)`` in ``x`` (values outside are
    ignored).

    Args:
        x (Tensor): int32/int64 values, any shape.
        low (int): first counted value.
        high (int): one past the last counted value.
        dtype (str|paddle.dtype, optional): int32 or int64 result; default ``x``'s dtype.
        name (str, optional): unused.

    Returns:
        Tensor: ``[high - low]`` counts.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1, 2, 2, 5], dtype='int64')
        >>> paddle.incubate.nn.functional.int_bincount(x, 0, 4, 'int64').tolist()
        [0, 1, 2, 0]
    """
    if x.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"{_API}.int_bincount: 'x' must be int32 or int64, but received "
                        f"{_dt.from_torch_dtype(x.dtype).name}")
    low, high = int(low), int(high)
    if high < low:
        raise ValueError(f"{_API}.int_bincount: 'high' ({high}) must be >= 'low' ({low})")
    out_dtype = x.dtype if dtype is None else _dt.to_torch_dtype(dtype, f"{_API}.int_bincount")
    if out_dtype not in (torch.int32, torch.int64):
        raise ValueError(f"{_API}.int_bincount: 'dtype' must be int32 or int64, but received "
                         f"{dtype!r}")
    v = x.reshape(-1).to(torch.int64)
    v = v[(v >= low) & (v < high)] - low
    return torch.bincount(v, minlength=high - low).to(out_dtype)


@defop(paddle_types=("blha_get_max_len", "pd_op.blha_get_max_len"), method=False,
       differentiable=False)
def blha_get_max_len(seq_lens_encoder, seq_lens_decoder, batch_size):
    """The longest encoder and decoder lengths of the batch (the first ``batch_size.shape[0]``
    entries), as used before :func:`block_multihead_attention`.

    Args:
        seq_lens_encoder (Tensor): int32 ``[bsz]`` encoder lengths.
        seq_lens_decoder (Tensor): int32 ``[bsz]`` decoder lengths.
        batch_size (Tensor): a tensor whose first dimension is the batch size.

    Returns:
        tuple: ``(max_enc_len_this_time, max_dec_len_this_time)``, int32 ``[1]`` tensors on
        the CPU (0 for an empty or all-negative input).

    Examples:
        >>> import pagaie as paddle
        >>> enc = paddle.to_tensor([3, 0, 5], dtype='int32')
        >>> dec = paddle.to_tensor([0, 4, 0], dtype='int32')
        >>> e, d = paddle.incubate.nn.functional.blha_get_max_len(enc, dec, paddle.ones([3]))
        >>> e.tolist(), d.tolist()
        ([5], [4])
    """
    for arg, t in (("seq_lens_encoder", seq_lens_encoder), ("seq_lens_decoder", seq_lens_decoder),
                   ("batch_size", batch_size)):
        if not isinstance(t, torch.Tensor):
            raise ValueError(f"paddle.incubate.nn.functional.blha_get_max_len: '{arg}' must be a "
                             f"Tensor, but received {type(t).__name__}")
    bsz = batch_size.shape[0] if batch_size.dim() else 1

    def mx(t):
        v = t.reshape(-1)[:bsz]
        m = int(v.max()) if v.numel() else 0
        return torch.tensor([max(m, 0)], dtype=torch.int32)

    return mx(seq_lens_encoder), mx(seq_lens_decoder)


class _AuxLoss(torch.autograd.Function):
    """Scaled forward, unscaled backward (the kernel's "local me forward, global me backward")."""

    @staticmethod
    def forward(ctx, gate_prob, ce, factor, scale):
        ctx.save_for_backward(ce)
        ctx.factor, ctx.rows = factor, gate_prob.shape[0]
        return (gate_prob.float().sum(0) * ce).sum().mul(factor * scale).to(gate_prob.dtype)

    @staticmethod
    def backward(ctx, g):
        (ce,) = ctx.saved_tensors
        grad = (g.float() * ctx.factor * ce).expand(ctx.rows, -1)
        return grad.to(g.dtype), None, None, None


@defop(paddle_types=("cal_aux_loss", "pd_op.cal_aux_loss"), method=False)
def cal_aux_loss(gate_prob, dispatch_mask, tokens_mask, dispatch_tokens_mask, num_experts,
                 use_group, moe_k, clip_min, name=None):
    """Mixture-of-Experts load-balancing loss ``num_experts * sum_e(me_e * ce_e)``.

    ``me_e = sum_s gate_prob[s, e] / seqlen`` and ``ce_e = tokens sent to e / seqlen``, where
    ``seqlen`` is the number of true ``dispatch_tokens_mask`` entries, else the sum of
    ``tokens_mask``, else ``gate_prob.size / num_experts``, clipped below at ``clip_min``.

    Args:
        gate_prob (Tensor): ``[seq, experts]`` routing probabilities.
        dispatch_mask (Tensor): int64 ``[seq, experts]`` (summed over tokens) or ``[experts]``
            token counts per expert.
        tokens_mask (Tensor|None): ``[seq]`` mask of real tokens (``gate_prob``'s dtype).
        dispatch_tokens_mask (Tensor|None): bool ``[global_seq]`` mask of dispatched tokens.
        num_experts (int): total number of experts.
        use_group (bool): divide the loss by ``moe_k``.
        moe_k (int): experts per token.
        clip_min (float): lower bound of the token counts.
        name (str, optional): unused.

    Returns:
        tuple: ``(l_aux_loss, seqlen_float, ce)``: 0-D loss, 0-D ``seqlen``, ``[experts]`` ce.
        With ``tokens_mask`` the loss is scaled by ``seqlen / sum(tokens_mask)`` in the
        forward pass only (the gradient is the unscaled one).

    Examples:
        >>> import pagaie as paddle
        >>> gate = paddle.to_tensor([[0.5, 0.5], [1.0, 0.0]])
        >>> mask = paddle.to_tensor([1, 1], dtype='int64')
        >>> loss, seqlen, ce = paddle.incubate.nn.functional.cal_aux_loss(
        ...     gate, mask, None, None, 2, False, 1, 0.0)
        >>> round(loss.item(), 4), seqlen.item(), ce.tolist()
        (1.0, 2.0, [0.5, 0.5])
    """
    if gate_prob.dim() != 2:
        raise ValueError(f"{_API}.cal_aux_loss: 'gate_prob' must be 2-D [seq, experts], but "
                         f"received shape {list(gate_prob.shape)}")
    rows, cols = gate_prob.shape
    if dispatch_tokens_mask is not None:
        seqlen = dispatch_tokens_mask.float().sum()
    elif tokens_mask is not None:
        seqlen = tokens_mask.float().sum()
    else:
        seqlen = torch.tensor(rows / num_experts * cols, device=gate_prob.device)
    seqlen = seqlen.clamp(min=clip_min)
    counts = dispatch_mask.sum(0) if dispatch_mask.dim() > 1 else dispatch_mask
    ce = counts.float() / seqlen
    scale = 1.0
    if tokens_mask is not None:
        scale = float(seqlen / tokens_mask.float().sum().clamp(min=clip_min))
    factor = float(num_experts) / float(seqlen) / (float(moe_k) if use_group else 1.0)
    loss = _AuxLoss.apply(gate_prob, ce, factor, scale)
    return loss, seqlen.to(gate_prob.dtype), ce.to(gate_prob.dtype)


@defop(paddle_types=("moe_combine", "pd_op.moe_combine"), method=False)
def moe_combine(x, combine_weights, scatter_index, name=None):
    """Sum the expert outputs of each token: ``y[s] = sum_k combine_weights[s, k] *
    x[scatter_index[s, k]]``.

    Args:
        x (Tensor): ``[rows, dim]`` expert outputs.
        combine_weights (Tensor): ``[seq, k]`` weights (``x``'s dtype).
        scatter_index (Tensor): int32 ``[seq, k]`` rows of ``x`` (the transpose of the
            ``[k, seq]`` index :func:`moe_gate_dispatch` returns).
        name (str, optional): unused.

    Returns:
        Tensor: ``[seq, dim]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0], [2.0], [3.0]])
        >>> w = paddle.to_tensor([[0.5, 0.5], [1.0, 0.0]])
        >>> idx = paddle.to_tensor([[0, 2], [1, 0]], dtype='int32')
        >>> paddle.incubate.nn.functional.moe_combine(x, w, idx).tolist()
        [[2.0], [2.0]]
    """
    if x.dim() != 2:
        raise ValueError(f"{_API}.moe_combine: 'x' must be 2-D, but received shape "
                         f"{list(x.shape)}")
    if combine_weights.dim() != 2 or scatter_index.numel() != combine_weights.numel():
        raise ValueError(f"{_API}.moe_combine: 'scatter_index' must have the shape of "
                         f"'combine_weights' {list(combine_weights.shape)}, but received "
                         f"{list(scatter_index.shape)}")
    seq, k = combine_weights.shape
    idx = scatter_index.reshape(seq, k).to(torch.int64)
    return (x[idx] * combine_weights.to(x.dtype).unsqueeze(-1)).sum(1)


def _check_gate(api, x, gate_logits, corr_bias, k):
    if x.dim() != 2 or gate_logits.dim() != 2 or gate_logits.shape[0] != x.shape[0]:
        raise ValueError(f"{_API}.{api}: 'x' [seq, dim] and 'gate_logits' [seq, experts] must "
                         f"be 2-D with the same rows, but received {list(x.shape)} and "
                         f"{list(gate_logits.shape)}")
    if gate_logits.dtype != torch.float32:
        raise ValueError(f"{_API}.{api}: 'gate_logits' must be float32, but received "
                         f"{_dt.from_torch_dtype(gate_logits.dtype).name}")
    if not 0 < k <= gate_logits.shape[1]:
        raise ValueError(f"{_API}.{api}: 'k' must be in [1, num_experts={gate_logits.shape[1]}]"
                         f", but received {k}")
    if corr_bias is not None and corr_bias.shape != (gate_logits.shape[1],):
        raise ValueError(f"{_API}.{api}: 'corr_bias' must be [{gate_logits.shape[1]}], but "
                         f"received {list(corr_bias.shape)}")


def _dispatch(x, gate_logits, corr_bias, k, capacity, use_pad, world_size=None):
    """The routing shared by the gate-dispatch ops (see :func:`moe_gate_dispatch`)."""
    seq, n_exp = gate_logits.shape
    dev = gate_logits.device
    scores = gate_logits if corr_bias is None else gate_logits + corr_bias
    expert_id = torch.argsort(-scores.detach(), dim=1, stable=True)[:, :k]
    weights = gate_logits.gather(1, expert_id)
    flat = expert_id.reshape(-1)                       # position p = s * k + ki
    ki = torch.arange(k, device=dev).repeat(seq)
    s = torch.arange(seq, device=dev).repeat_interleave(k)
    key = flat * k + ki if use_pad else flat
    order = torch.argsort(key, stable=True)
    exp_sorted = flat[order]
    counts = torch.bincount(flat, minlength=n_exp)
    expert_offset = counts.cumsum(0)
    start = expert_offset - counts
    dest = torch.arange(seq * k, device=dev)
    row_in = dest - start[exp_sorted]
    keep = row_in < capacity
    src_s, src_k = s[order], ki[order]
    if world_size is not None:
        local = n_exp // world_size
        slot = ((exp_sorted % local) * world_size + exp_sorted // local) * capacity + row_in
        y_rows = n_exp * capacity
    elif use_pad:
        slot = exp_sorted * capacity + row_in
        y_rows = n_exp * capacity
    else:
        slot, y_rows = dest, seq * k
    scatter = torch.zeros(k, seq, dtype=torch.int32, device=dev)
    scatter[src_k, src_s] = torch.where(keep, slot, torch.zeros_like(slot)).to(torch.int32)
    drop = torch.zeros(seq, k, dtype=torch.bool, device=dev)
    drop[src_s[~keep], src_k[~keep]] = True
    weights = weights.masked_fill(drop, 0.0)
    y = x.new_zeros((y_rows,) + tuple(x.shape[1:]))
    y = y.index_copy(0, slot[keep], x[src_s[keep]])
    return y, weights.float(), scatter, expert_offset.to(torch.int64), expert_id.to(torch.int32)


@defop(paddle_types=("moe_gate_dispatch", "pd_op.moe_gate_dispatch"), method=False)
def moe_gate_dispatch(x, gate_logits, corr_bias, k, capacity, use_pad, name=None):
    """Route each token to its top-``k`` experts and copy it into the experts' rows.

    The top-``k`` experts of a token are those with the highest ``gate_logits + corr_bias``
    (ties to the lower id); the combine weights are the ``gate_logits`` values (without the
    bias). Copies are ordered by expert (with ``use_pad`` by expert, then choice rank), then
    token; an expert keeps at most ``capacity`` copies, and a dropped copy gets weight 0.

    Args:
        x (Tensor): ``[seq, dim]`` tokens.
        gate_logits (Tensor): float32 ``[seq, experts]`` routing probabilities.
        corr_bias (Tensor|None): float32 ``[experts]`` bias used only for the selection.
        k (int): experts per token.
        capacity (int): most tokens per expert.
        use_pad (bool): give each expert a block of ``capacity`` rows (``y`` is
            ``[experts * capacity, dim]``); otherwise ``y`` is ``[seq * k, dim]``, packed.
        name (str, optional): unused.

    Returns:
        tuple: ``(y, combine_weights float32 [seq, k], scatter_index int32 [k, seq]`` (the
        row of ``y`` holding each copy, 0 when dropped), ``expert_offset int64 [experts]``
        (cumulative copies per expert, before the capacity cut), ``expert_id int32 [seq, k])``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0], [2.0]])
        >>> gate = paddle.to_tensor([[0.9, 0.1], [0.2, 0.8]])
        >>> y, w, idx, off, eid = paddle.incubate.nn.functional.moe_gate_dispatch(
        ...     x, gate, None, 1, 2, True)
        >>> y[:, 0].tolist(), idx.tolist(), eid.tolist()
        ([1.0, 0.0, 2.0, 0.0], [[0, 2]], [[0], [1]])
    """
    _check_gate("moe_gate_dispatch", x, gate_logits, corr_bias, int(k))
    return _dispatch(x, gate_logits, corr_bias, int(k), int(capacity), bool(use_pad))


@defop(paddle_types=("moe_gate_dispatch_permute", "pd_op.moe_gate_dispatch_permute"),
       method=False)
def moe_gate_dispatch_permute(x, gate_logits, corr_bias, k, capacity, world_size, name=None):
    """:func:`moe_gate_dispatch` with padding, laid out for an all-to-all over ``world_size``
    ranks: ``y`` is ``[local_experts, world_size, capacity, dim]`` where expert ``e`` lives on
    rank ``e // local_experts`` as local expert ``e % local_experts``.

    Args:
        x (Tensor): ``[seq, dim]`` tokens.
        gate_logits (Tensor): float32 ``[seq, experts]``; ``experts`` divisible by
            ``world_size``.
        corr_bias (Tensor|None): float32 ``[experts]`` selection bias.
        k (int): experts per token.
        capacity (int): most tokens per expert.
        world_size (int): number of ranks.
        name (str, optional): unused.

    Returns:
        tuple: ``(y, combine_weights, scatter_index, expert_offset, expert_id)`` as in
        :func:`moe_gate_dispatch` (``scatter_index`` indexes the flattened ``y``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0], [2.0]])
        >>> gate = paddle.to_tensor([[0.9, 0.1], [0.2, 0.8]])
        >>> y = paddle.incubate.nn.functional.moe_gate_dispatch_permute(x, gate, None, 1, 1, 2)[0]
        >>> y.shape, y.flatten().tolist()
        (paddle.Size([1, 2, 1, 1]), [1.0, 2.0])
    """
    api = "moe_gate_dispatch_permute"
    _check_gate(api, x, gate_logits, corr_bias, int(k))
    world_size = int(world_size)
    n_exp = gate_logits.shape[1]
    if world_size <= 0 or n_exp % world_size:
        raise ValueError(f"{_API}.{api}: the number of experts ({n_exp}) must be divisible by "
                         f"'world_size', but received {world_size}")
    outs = _dispatch(x, gate_logits, corr_bias, int(k), int(capacity), True, world_size)
    y = outs[0].reshape(n_exp // world_size, world_size, int(capacity), *x.shape[1:])
    return (y,) + outs[1:]


@defop(paddle_types=("expand_modality_expert_id", "pd_op.expand_modality_expert_id"),
       method=False, differentiable=False)
def expand_modality_expert_id(expert_id, num_expert_per_modality, group_size, modality_offset,
                              is_group_expert, name=None):
    """Map per-modality expert ids to global ids for a two-modality MoE.

    With ``is_group_expert`` the id in column ``j`` is first shifted by ``j * group_size``.
    Then ``e -> (e // n) * 2n + e % n + modality_offset * n`` with ``n =
    num_expert_per_modality`` (unchanged when ``n <= 0``).

    Args:
        expert_id (Tensor): int32/int64 ``[seq, k]``.
        num_expert_per_modality (int): experts of one modality per rank.
        group_size (int): experts per group (with ``is_group_expert``).
        modality_offset (int): 0 or 1, the modality.
        is_group_expert (bool): ids are local to the column's group.
        name (str, optional): unused.

    Returns:
        Tensor: ``[seq, k]`` global ids, ``expert_id``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> e = paddle.to_tensor([[0, 1], [2, 3]], dtype='int64')
        >>> paddle.incubate.nn.functional.expand_modality_expert_id(e, 2, 4, 1, False).tolist()
        [[2, 3], [6, 7]]
    """
    api = "expand_modality_expert_id"
    if expert_id.dim() != 2:
        raise ValueError(f"{_API}.{api}: 'expert_id' must be 2-D [seq, k], but received shape "
                         f"{list(expert_id.shape)}")
    if expert_id.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"{_API}.{api}: 'expert_id' must be int32 or int64, but received "
                         f"{_dt.from_torch_dtype(expert_id.dtype).name}")
    e = expert_id
    if is_group_expert:
        e = e + torch.arange(e.shape[1], device=e.device, dtype=e.dtype) * int(group_size)
    n = int(num_expert_per_modality)
    if n <= 0:
        return e.clone()
    return (torch.div(e, n, rounding_mode="trunc") * (2 * n) + torch.remainder(e, n)
            + int(modality_offset) * n).to(expert_id.dtype)


@defop(paddle_types=("build_src_rank_and_local_expert_id",
                     "pd_op.build_src_rank_and_local_expert_id"),
       method=False, differentiable=False)
def build_src_rank_and_local_expert_id(expert_num_global_tensor, expert_num_global,
                                       num_local_experts, name=None):
    """For tokens grouped by global expert, the rank and local expert id of each token.

    Expert ``e`` receives ``expert_num_global[e]`` consecutive tokens; each gets source rank
    ``e // num_local_experts`` and local id ``e % num_local_experts``.

    Args:
        expert_num_global_tensor (Tensor): int64 ``[experts]`` token counts.
        expert_num_global (list[int]): the same counts (fix the output length).
        num_local_experts (int): experts per rank.
        name (str, optional): unused.

    Returns:
        tuple: ``(src_rank, local_expert_id)``, int32 ``[sum(expert_num_global)]``.

    Examples:
        >>> import pagaie as paddle
        >>> n = paddle.to_tensor([1, 2, 0, 1], dtype='int64')
        >>> r, l = paddle.incubate.nn.functional.build_src_rank_and_local_expert_id(
        ...     n, [1, 2, 0, 1], 2)
        >>> r.tolist(), l.tolist()
        ([0, 0, 0, 1], [0, 1, 1, 1])
    """
    local = int(num_local_experts)
    if local <= 0:
        raise ValueError(f"{_API}.build_src_rank_and_local_expert_id: 'num_local_experts' must "
                         f"be positive, but received {num_local_experts}")
    total = sum(int(c) for c in expert_num_global)
    counts = expert_num_global_tensor.reshape(-1).to(torch.int64)
    dev = counts.device
    experts = torch.repeat_interleave(torch.arange(counts.numel(), device=dev), counts)
    if experts.numel() != total:
        raise ValueError(f"{_API}.build_src_rank_and_local_expert_id: 'expert_num_global' sums "
                         f"to {total} but 'expert_num_global_tensor' to {experts.numel()}")
    return (torch.div(experts, local, rounding_mode="floor").to(torch.int32),
            torch.remainder(experts, local).to(torch.int32))


def _embedding_grad_add_kernel(token_indices, main_grad_, out_grad):
    if out_grad.shape[-1] != main_grad_.shape[-1]:
        raise ValueError(f"{_API}.embedding_grad_add_to_: 'out_grad' rows must have "
                         f"{main_grad_.shape[-1]} columns, but received {list(out_grad.shape)}")
    idx = token_indices.reshape(-1).to(torch.int64)
    rows = out_grad.reshape(-1, out_grad.shape[-1]).to(main_grad_.dtype)
    return main_grad_.index_add_(0, idx, rows)


@defop(paddle_types=("embedding_grad_add_to", "pd_op.embedding_grad_add_to_"), method=False,
       differentiable=False)
def embedding_grad_add_to_(token_indices, main_grad_, out_grad, name=None):
    """Accumulate an embedding's gradient in place: ``main_grad_[token_indices[i]] +=
    out_grad[i]`` (``out_grad`` is cast to ``main_grad_``'s dtype).

    Args:
        token_indices (Tensor): integer token ids, any shape.
        main_grad_ (Tensor): ``[vocab, dim]`` accumulator, updated in place.
        out_grad (Tensor): ``token_indices.shape + [dim]`` gradient of the lookup.
        name (str, optional): unused.

    Returns:
        Tensor: ``main_grad_``.

    Examples:
        >>> import pagaie as paddle
        >>> g = paddle.zeros([3, 2])
        >>> ids = paddle.to_tensor([0, 2, 0])
        >>> out = paddle.incubate.nn.functional.embedding_grad_add_to_(ids, g, paddle.ones([3, 2]))
        >>> g.tolist()
        [[2.0, 2.0], [0.0, 0.0], [1.0, 1.0]]
    """
    return _embedding_grad_add_kernel(token_indices, main_grad_, out_grad)
