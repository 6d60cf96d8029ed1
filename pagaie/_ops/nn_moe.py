"""Mixture-of-Experts token routing of ``paddle.nn.functional``: ``moe_permute`` groups
each token's copies by expert (the "unzip" before the expert GEMMs) and ``moe_unpermute``
sums the expert outputs back per token (the "zip").

Paddle ships these as CUDA kernels only; here they are index gathers and scatters, so they
run on any device and stay differentiable. Within an expert, tokens keep their input
order, which makes the layout deterministic.
"""
from __future__ import annotations

import torch

from pagaie._core.registry import defop

__all__ = ["moe_permute", "moe_unpermute"]

_MAX_EXPERTS = 64


def _check_experts(num_experts, api):
    if not 1 <= int(num_experts) <= _MAX_EXPERTS:
        raise ValueError(f"paddle.nn.functional.{api}: num_experts must be in [1, {_MAX_EXPERTS}], "
                         f"but received {num_experts}")


@defop(paddle_types=("moe_permute", "pd_op.moe_permute"), method=False)
def moe_permute(hidden_states, scale, expert_routemap_topk, expert_prob_topk, num_experts,
                tokens_per_expert, padding_alignment, do_gather=True, using_ue8m0_scale=False,
                return_expert_indices=False, override_buffer_size=-1, name=None):
    """Copy each token to the rows of the experts it is routed to, grouped by expert.

    Expert ``e`` owns a block of ``ceil(tokens_per_expert[e] / padding_alignment) *
    padding_alignment`` rows, blocks in expert order; its tokens fill the block in input
    order and the rest is zero padding.

    Args:
        hidden_states (Tensor): ``[seq_len, dim]`` tokens.
        scale (Tensor|None): per-token quantisation scales ``[seq_len, n]`` (float8 inputs),
            permuted alongside the tokens; None otherwise.
        expert_routemap_topk (Tensor): int32 ``[seq_len, topk]`` expert ids, -1 for none.
        expert_prob_topk (Tensor): float32 ``[seq_len, topk]`` routing weights.
        num_experts (int): number of experts (1 to 64).
        tokens_per_expert (list[int]): tokens routed to each expert.
        padding_alignment (int): each expert block is padded to a multiple of this.
        do_gather (bool): copy the token values (False leaves the rows zero).
        using_ue8m0_scale (bool): ``scale`` is int32-packed; it is permuted the same way.
        return_expert_indices (bool): also return each row's expert id (-1 for padding).
        override_buffer_size (int): when >= 0, the number of output rows; the block sizes are
            then counted from ``expert_routemap_topk`` instead of ``tokens_per_expert``.
        name (str, optional): unused.

    Returns:
        tuple: ``(hidden_states_unzipped [rows, dim], zipped_expertwise_rowmap int32
        [seq_len, num_experts] (the row of each token/expert pair, -1 for none),
        token_prob_unzipped float32 [rows], scale_unzipped [rows, n] (empty when ``scale``
        is None))``, plus ``expert_indices`` int32 ``[rows]`` with ``return_expert_indices``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
        >>> route = paddle.to_tensor([[0, 1], [1, -1], [0, -1]], dtype='int32')
        >>> prob = paddle.to_tensor([[0.5, 0.5], [1.0, 0.0], [1.0, 0.0]])
        >>> out, rowmap, p, _ = paddle.nn.functional.moe_permute(x, None, route, prob, 2, [2, 2], 1)
        >>> out[:, 0].tolist(), rowmap.tolist()
        ([1.0, 3.0, 1.0, 2.0], [[0, 2], [-1, 3], [1, -1]])
    """
    _check_experts(num_experts, "moe_permute")
    align = int(padding_alignment)
    if align <= 0:
        raise ValueError(f"paddle.nn.functional.moe_permute: padding_alignment must be positive, "
                         f"but received {padding_alignment}")
    route = expert_routemap_topk
    seq, dev = hidden_states.shape[0], hidden_states.device
    if route.dim() != 2 or route.shape[0] != seq:
        raise ValueError(f"paddle.nn.functional.moe_permute: expert_routemap_topk must be "
                         f"[{seq}, topk], but received {list(route.shape)}")
    t_idx, k_idx = torch.nonzero(route >= 0, as_tuple=True)
    e_idx = route[t_idx, k_idx].to(torch.int64)
    if e_idx.numel() and int(e_idx.max()) >= num_experts:
        raise ValueError(f"paddle.nn.functional.moe_permute: expert ids must be < num_experts "
                         f"({num_experts}), but received {int(e_idx.max())}")
    counts = torch.bincount(e_idx, minlength=num_experts).tolist()
    if override_buffer_size is not None and override_buffer_size >= 0:
        sizes = counts
    else:
        sizes = [int(n) for n in tokens_per_expert]
        if len(sizes) != num_experts or any(c > s for c, s in zip(counts, sizes)):
            raise ValueError(f"paddle.nn.functional.moe_permute: tokens_per_expert {sizes} does not "
                             f"match the routing map, which sends {counts} tokens to the experts")
    blocks = [-(-s // align) * align for s in sizes]
    offsets = torch.tensor([0] + blocks[:-1], dtype=torch.int64, device=dev).cumsum(0)
    total = int(override_buffer_size) if override_buffer_size is not None and override_buffer_size >= 0 \
        else sum(blocks)
    # Order the (token, expert) pairs by expert, then token; rank within each expert.
    order = torch.argsort(e_idx * seq + t_idx, stable=True)
    t_idx, k_idx, e_idx = t_idx[order], k_idx[order], e_idx[order]
    first = torch.tensor([0] + counts[:-1], dtype=torch.int64, device=dev).cumsum(0)
    rows = offsets[e_idx] + torch.arange(e_idx.numel(), device=dev) - first[e_idx]
    if rows.numel() and int(rows.max()) >= total:
        raise ValueError(f"paddle.nn.functional.moe_permute: override_buffer_size={total} is too "
                         f"small for the {int(rows.max()) + 1} rows the routing needs")
    rowmap = torch.full((seq, num_experts), -1, dtype=torch.int32, device=dev)
    rowmap[t_idx, e_idx] = rows.to(torch.int32)
    unzipped = hidden_states.new_zeros((total,) + tuple(hidden_states.shape[1:]))
    if do_gather:
        unzipped = unzipped.index_copy(0, rows, hidden_states[t_idx])
    probs = expert_prob_topk.new_zeros(total).index_copy(0, rows, expert_prob_topk[t_idx, k_idx])
    if scale is not None:
        scale_unz = scale.new_zeros((total,) + tuple(scale.shape[1:])).index_copy(0, rows, scale[t_idx])
    else:
        scale_unz = torch.empty(0, dtype=torch.int32 if using_ue8m0_scale else torch.float32, device=dev)
    outs = (unzipped, rowmap, probs, scale_unz)
    if return_expert_indices:
        experts = torch.full((total,), -1, dtype=torch.int32, device=dev)
        experts[rows] = e_idx.to(torch.int32)
        outs = outs + (experts,)
    return outs


@defop(paddle_types=("moe_unpermute", "pd_op.moe_unpermute"), method=False)
def moe_unpermute(hidden_states_unzipped, zipped_expertwise_rowmap, expert_routemap_topk,
                  token_prob_unzipped, total_zipped_tokens, num_experts, using_mix_precision=True,
                  using_weighted_combine=False, name=None):
    """Sum each token's expert outputs back into one row (the inverse of :func:`moe_permute`).

    Args:
        hidden_states_unzipped (Tensor): ``[rows, dim]`` expert outputs, laid out as
            :func:`moe_permute` returned them.
        zipped_expertwise_rowmap (Tensor): int32 ``[seq_len, num_experts]`` from ``moe_permute``.
        expert_routemap_topk (Tensor): int32 ``[seq_len, topk]`` expert ids, -1 for none.
        token_prob_unzipped (Tensor): float32 ``[rows]`` routing weights per row.
        total_zipped_tokens (int): ``seq_len``, the number of output rows.
        num_experts (int): number of experts.
        using_mix_precision (bool): accumulate in float32 (then cast back).
        using_weighted_combine (bool): weight each expert output by its routing weight.
        name (str, optional): unused.

    Returns:
        tuple: ``(hidden_states [seq_len, dim], expert_prob_topk float32 [seq_len, topk])``,
        the latter being each top-k slot's weight read back from ``token_prob_unzipped``
        (0 for empty slots).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
        >>> route = paddle.to_tensor([[0, 1], [1, -1], [0, -1]], dtype='int32')
        >>> prob = paddle.to_tensor([[0.5, 0.5], [1.0, 0.0], [1.0, 0.0]])
        >>> F = paddle.nn.functional
        >>> out, rowmap, p, _ = F.moe_permute(x, None, route, prob, 2, [2, 2], 1)
        >>> y, q = F.moe_unpermute(out * p.unsqueeze(-1), rowmap, route, p, 3, 2)
        >>> y.tolist() == x.tolist(), q.tolist() == prob.tolist()
        (True, True)
    """
    _check_experts(num_experts, "moe_unpermute")
    rowmap = zipped_expertwise_rowmap
    if rowmap.dim() != 2 or rowmap.shape[1] != num_experts:
        raise ValueError(f"paddle.nn.functional.moe_unpermute: zipped_expertwise_rowmap must be "
                         f"[seq_len, {num_experts}], but received {list(rowmap.shape)}")
    x = hidden_states_unzipped
    t_idx, e_idx = torch.nonzero(rowmap >= 0, as_tuple=True)
    rows = rowmap[t_idx, e_idx].to(torch.int64)
    acc_dtype = torch.float32 if using_mix_precision and x.dtype in (torch.float16, torch.bfloat16) \
        else x.dtype
    contrib = x[rows].to(acc_dtype)
    if using_weighted_combine:
        contrib = contrib * token_prob_unzipped[rows].to(acc_dtype).unsqueeze(-1)
    out = contrib.new_zeros((int(total_zipped_tokens),) + tuple(x.shape[1:])).index_add(0, t_idx, contrib)
    route = expert_routemap_topk.to(torch.int64)
    valid = route >= 0
    slot_rows = rowmap.to(torch.int64).gather(1, route.clamp(min=0))
    slot_rows = torch.where(valid, slot_rows, 0)
    probs = token_prob_unzipped[slot_rows.clamp(min=0)]
    probs = torch.where(valid & (slot_rows >= 0), probs, torch.zeros((), dtype=probs.dtype))
    return out.to(x.dtype), probs
