"""Autocast op lists: Paddle's default white and black lists, and how an op's policy is decided.

An op's policy comes from its record (``OpRecord.amp``: white / black / promote);
``custom_white_list`` / ``custom_black_list`` override it by name (pagaie's op name
or any of the Paddle program op names in ``OpRecord.paddle_types``).
"""
from __future__ import annotations

from typing import Iterable

from pagaie._core.registry import REGISTRY, OpRecord

__all__ = ["white_list", "black_list", "op_names", "policy_of"]

# Paddle 3.3.1's default lists (program op names), reported by white_list()/black_list()
# and used to check that every record's ``amp`` field agrees with Paddle.
PADDLE_WHITE = frozenset({
    "conv2d", "einsum", "matmul", "matmul_v2", "max_pool2d_with_index", "mul", "linear_v2",
    "fused_gemm_epilogue", "flash_attn", "fused_rotary_position_embedding",
})
PADDLE_WHITE_FP16_ONLY = frozenset({
    "fake_quantize_dequantize_abs_max", "fake_quantize_dequantize_moving_average_abs_max",
    "fused_attention", "fused_feedforward",
})
PADDLE_BLACK_O1 = frozenset({
    "acos", "asin", "atanh", "bicubic_interp_v2", "bilinear_interp_v2", "c_softmax_with_cross_entropy",
    "c_softmax_with_multi_label_cross_entropy", "cosh", "cross_entropy", "cross_entropy2", "cumprod",
    "cumsum", "dist", "erfinv", "exp", "expm1", "frobenius_norm", "group_norm", "hsigmoid_loss",
    "huber_loss", "layer_norm", "linear_interp_v2", "log", "log10", "log2", "log_loss",
    "log_softmax", "lookup_table", "lookup_table_v2", "margin_cross_entropy", "mean",
    "nearest_interp_v2", "nll_loss", "pnorm", "pow", "reciprocal", "reduce_mean", "reduce_prod",
    "reduce_sum", "renorm", "rsqrt", "scatter", "sigmoid_cross_entropy_with_logits", "sinh",
    "softmax", "softmax_with_cross_entropy", "softmin", "softplus", "square", "tan", "tanh_shrink",
    "trilinear_interp_v2", "triplet_margin_loss",
})
PADDLE_BLACK_O2 = frozenset({
    "bicubic_interp_v2", "bilinear_interp_v2", "linear_interp_v2", "lookup_table", "lookup_table_v2",
    "nearest_interp_v2", "scatter", "trilinear_interp_v2",
})


def op_names(rec: OpRecord) -> set[str]:
    """Every name an op answers to in lists: its own and its Paddle program names."""
    names = {rec.name}
    names.update(rec.paddle_types)
    names.update(n.split(".", 1)[1] for n in rec.paddle_types if n.startswith("pd_op."))
    return names


def policy_of(rec: OpRecord, level: str, custom_white: frozenset, custom_black: frozenset) -> str:
    """``'white'``, ``'black'`` or ``'promote'`` for one op under one autocast configuration."""
    names = op_names(rec)
    if names & custom_black:
        return "black"
    if names & custom_white:
        return "white"
    if level == "O2" and rec.amp == "black" and not names & PADDLE_BLACK_O2 and names & PADDLE_BLACK_O1:
        # Paddle's O2 keeps only its short O2 black list in float32.
        return "promote"
    return rec.amp


def _names_with(policy: str) -> set[str]:
    out: set[str] = set()
    for rec in REGISTRY.values():
        if rec.amp == policy and rec.inplace_of is None:
            out.add(rec.name)
    return out


def white_list() -> dict:
    """The ops that autocast runs in low precision, per dtype and level (Paddle's layout).

    Returns:
        ``{'float16': {'OD': set, 'O1': set, 'O2': set}, 'bfloat16': {...}}``.

    Examples:
        >>> import pagaie as paddle
        >>> 'matmul' in paddle.amp.white_list()['bfloat16']['O1']
        True
    """
    ours = _names_with("white")
    fp16 = set(PADDLE_WHITE | PADDLE_WHITE_FP16_ONLY) | ours
    bf16 = set(PADDLE_WHITE) | ours
    return {"float16": {lvl: set(fp16) for lvl in ("OD", "O1", "O2")},
            "bfloat16": {lvl: set(bf16) for lvl in ("OD", "O1", "O2")}}


def black_list() -> dict:
    """The ops that autocast keeps in float32, per dtype and level (Paddle's layout).

    Examples:
        >>> import pagaie as paddle
        >>> 'softmax' in paddle.amp.black_list()['float16']['O1']
        True
    """
    o1 = set(PADDLE_BLACK_O1) | _names_with("black")
    lists = {"OD": set(), "O1": o1, "O2": set(PADDLE_BLACK_O2)}
    return {"float16": {k: set(v) for k, v in lists.items()},
            "bfloat16": {k: set(v) for k, v in lists.items()}}


def normalise_custom(names: Iterable[str] | None) -> frozenset:
    if names is None:
        return frozenset()
    if isinstance(names, str):
        return frozenset({names})
    return frozenset(names)
