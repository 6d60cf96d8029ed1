"""Autocast op lists: Paddle's default white and black lists, and how an op's policy is decided.

An op's policy comes from its record (``OpRecord.amp``: white / black / promote);
``custom_white_list`` / ``custom_black_list`` override it by name (pagaie's op name
or any of the Paddle program op names in ``OpRecord.paddle_types``).
"""
from __future__ import annotations

from typing import Any, Iterable

from pagaie._core.registry import OpRecord
from pagaie._core.tensor import Tensor

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


# Ops with no low-precision kernel (linear algebra decompositions, FFTs): Paddle's AMP
# falls back to float32 for an op without a kernel of the AMP dtype, at every level. Every
# other black op is black as Paddle's O1 black list is: at O2 it follows its inputs.
NO_LOW_KERNEL = frozenset({
    "cond", "det", "slogdet", "inv", "pinv", "matrix_power", "matrix_exp", "solve", "triangular_solve",
    "cholesky_solve", "cholesky", "cholesky_inverse", "lstsq", "svd", "svdvals", "qr", "eig", "eigvals",
    "eigh", "eigvalsh", "lu", "lu_unpack", "lu_solve", "householder_product", "ormqr", "svd_lowrank",
    "pca_lowrank", "sparse_pca_lowrank", "stft", "istft", "fft", "ifft", "rfft", "irfft", "hfft", "ihfft",
    "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn",
    "ihfftn",
})


# Ops whose Paddle API fixes the output dtype from x before the op runs (``dtype=None``
# means ``x.dtype``), so a cast of x could not change what Paddle returns: autocast leaves
# their inputs alone ("keep").
DTYPE_FROM_INPUT = frozenset({"full_like", "zeros_like", "ones_like", "empty_like", "rand_like",
                              "randn_like", "randint_like"})

# Paddle APIs that run matmul (white) and then reshape the product: at OD the trailing
# reshape runs in float32, so the result is float32.
RESHAPED_PRODUCTS = frozenset({"inner", "tensordot"})


def call_arg(rec: OpRecord, args: tuple, kwargs: dict, name: str, default: Any = None) -> Any:
    """The value one call of ``rec`` passes for its parameter ``name`` (by keyword or
    position), ``default`` when the call leaves it out."""
    if name in kwargs:
        return kwargs[name]
    params = list(rec.signature.parameters)
    i = params.index(name)
    return args[i] if i < len(args) else default


def _depthwise(rec: OpRecord, args: tuple, kwargs: dict, channel_last: tuple) -> bool:
    x, w = call_arg(rec, args, kwargs, "x"), call_arg(rec, args, kwargs, "weight")
    groups = call_arg(rec, args, kwargs, "groups", 1)
    fmt = call_arg(rec, args, kwargs, "data_format", "")
    try:
        c = x.shape[-1] if fmt in channel_last else x.shape[1]
        return c == groups and c != 1 and w.shape[0] % c == 0
    except (AttributeError, IndexError, TypeError):
        return False


def _pool_rule(rec: OpRecord, args: tuple, kwargs: dict) -> tuple:
    # max pooling runs Paddle's max_pool2d_with_index (white) only when it returns the mask
    if call_arg(rec, args, kwargs, "return_mask", False):
        return frozenset({"max_pool2d_with_index"}), "white"
    return frozenset({"pool2d"}), "promote"


def _conv_rule(rec: OpRecord, args: tuple, kwargs: dict) -> tuple:
    # a depthwise convolution runs Paddle's depthwise_conv2d, which is on no list
    if _depthwise(rec, args, kwargs, ("NHWC", "NLC")):
        return frozenset({"depthwise_conv2d"}), "promote"
    return frozenset({"conv2d"}), "white"


def _pow_rule(rec: OpRecord, args: tuple, kwargs: dict) -> tuple:
    # a Tensor exponent runs Paddle's elementwise_pow, which is on no list
    if isinstance(call_arg(rec, args, kwargs, "y"), Tensor):
        return frozenset({"elementwise_pow"}), "promote"
    return frozenset({"pow"}), "black"


def _norm_rule(rec: OpRecord, args: tuple, kwargs: dict) -> tuple:
    # paddle.linalg.norm runs frobenius_norm (black) only for p='fro' over two axes, p_norm
    # (on no list) otherwise
    p, axis = call_arg(rec, args, kwargs, "p"), call_arg(rec, args, kwargs, "axis")
    if p in (None, "fro") and isinstance(axis, (list, tuple)) and len(axis) == 2:
        return frozenset({"frobenius_norm"}), "black"
    return frozenset({"p_norm"}), "promote"


def _dropout_rule(rec: OpRecord, args: tuple, kwargs: dict) -> tuple:
    # paddle's dropout returns x itself for a Python p == 0: no op runs, nothing is cast
    p = call_arg(rec, args, kwargs, "p", 0.5)
    if isinstance(p, (int, float)) and p == 0:
        return frozenset({"dropout"}), "keep"
    return frozenset({"dropout"}), "promote"


def _inner_rule(rec: OpRecord, args: tuple, kwargs: dict) -> tuple:
    # paddle.inner multiplies when an operand has a single element, else runs matmul (white)
    x, y = call_arg(rec, args, kwargs, "x"), call_arg(rec, args, kwargs, "y")
    if getattr(x, "size", 0) == 1 or getattr(y, "size", 0) == 1:
        return frozenset({"elementwise_mul", "multiply"}), "promote"
    return frozenset({"matmul_v2", "matmul"}), "white"


# Convolutions whose Paddle API adds the bias with a separate ``add`` op after the
# convolution op: under autocast the add makes its own decision (see auto_cast).
LATE_BIAS = frozenset({"conv1d", "conv2d"})

# Ops whose Paddle op (and so autocast policy) depends on the call's arguments:
# record name -> rule(rec, args, kwargs) -> (Paddle op names, policy).
CALL_RULES: dict = {"max_pool1d": _pool_rule, "max_pool2d": _pool_rule, "conv1d": _conv_rule,
                    "conv2d": _conv_rule, "pow": _pow_rule, "norm": _norm_rule,
                    "dropout": _dropout_rule, "inner": _inner_rule}


def decide(names: set | frozenset, amp: str, rec_name: str, level: str, custom_white: frozenset,
           custom_black: frozenset) -> str:
    """The policy of an op known by ``names`` whose default policy is ``amp``: ``'white'``,
    ``'black'``, ``'promote'`` or ``'keep'`` (inputs left as they are)."""
    if amp == "keep":
        return amp
    if names & custom_black:
        return "black"
    if names & custom_white:
        return "white"
    if level == "OD" and rec_name in RESHAPED_PRODUCTS:
        return "promote"   # OD runs every op off the white list (the last reshape) in float32
    if level == "O2" and amp == "black" and not names & PADDLE_BLACK_O2 and rec_name not in NO_LOW_KERNEL:
        # Paddle's O2 keeps only its short O2 black list (and ops without a low kernel) in float32.
        return "promote"
    return amp


def policy_of(rec: OpRecord, level: str, custom_white: frozenset, custom_black: frozenset) -> str:
    """``'white'``, ``'black'``, ``'promote'`` or ``'keep'`` for one op under one autocast
    configuration."""
    amp = "keep" if rec.name in DTYPE_FROM_INPUT else rec.amp
    return decide(op_names(rec), amp, rec.name, level, custom_white, custom_black)


def call_policy(rec: OpRecord, args: tuple, kwargs: dict, level: str, custom_white: frozenset,
                custom_black: frozenset) -> str:
    """The policy of one call of an op in :data:`CALL_RULES`."""
    names, amp = CALL_RULES[rec.name](rec, args, kwargs)
    return decide(names | {rec.name}, amp, rec.name, level, custom_white, custom_black)


def white_list() -> dict:
    """Paddle's default white list: the program ops autocast runs in low precision, per dtype
    and level. It is Paddle's list exactly (what Paddle prints); pagaie's own op records carry
    their policies themselves (``OpRecord.amp``).

    Returns:
        ``{'float16': {'OD': set, 'O1': set, 'O2': set}, 'bfloat16': {...}}``.

    Examples:
        >>> import pagaie as paddle
        >>> 'matmul' in paddle.amp.white_list()['bfloat16']['O1']
        True
    """
    fp16 = PADDLE_WHITE | PADDLE_WHITE_FP16_ONLY
    return {"float16": {lvl: set(fp16) for lvl in ("OD", "O1", "O2")},
            "bfloat16": {lvl: set(PADDLE_WHITE) for lvl in ("OD", "O1", "O2")}}


def black_list() -> dict:
    """Paddle's default black list: the program ops autocast keeps in float32, per dtype and
    level (Paddle's list exactly, as :func:`white_list`).

    Examples:
        >>> import pagaie as paddle
        >>> 'softmax' in paddle.amp.black_list()['float16']['O1']
        True
    """
    lists = {"OD": set(), "O1": PADDLE_BLACK_O1, "O2": PADDLE_BLACK_O2}
    return {"float16": {k: set(v) for k, v in lists.items()},
            "bfloat16": {k: set(v) for k, v in lists.items()}}


def normalise_custom(names: Iterable[str] | None) -> frozenset:
    if names is None:
        return frozenset()
    if isinstance(names, str):
        return frozenset({names})
    return frozenset(names)
