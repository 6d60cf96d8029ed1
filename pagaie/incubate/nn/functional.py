"""``paddle.incubate.nn.functional``: Paddle's fused kernels written as composites of public
ops (so they run, and differentiate, in every mode on every device).

Only the arithmetic of each fused op is reproduced; quantisation arguments follow Paddle's
round-and-clip rule, and arguments that only tune GPU kernels are accepted and ignored.
"""
from __future__ import annotations

import math

import pagaie as _p
from pagaie._core.bad_input import type_name
from pagaie._core.registry import NoKernelError
from pagaie.nn import functional as _F
from pagaie.utils import deprecated as _deprecated

__all__ = ["swiglu", "fused_rms_norm", "fused_layer_norm", "fused_linear", "fused_matmul_bias",
           "fused_linear_activation", "fused_dropout_add", "fused_bias_dropout_residual_layer_norm",
           "fused_bias_act", "fused_rotary_position_embedding", "fused_feedforward",
           "fused_multi_head_attention"]

_MODES = ("upscale_in_train", "downscale_in_infer")
_LOW = (_p.float16, _p.bfloat16)


@_deprecated(since="3.3.0", update_to="paddle.nn.functional.swiglu", level=1,
             reason="paddle.incubate.nn.functional.swiglu will be removed in future. Please use "
                    "paddle.nn.functional.swiglu instead.")
def swiglu(x: _p.Tensor, y: _p.Tensor | None = None, name: str | None = None) -> _p.Tensor:
    """``silu(x) * y``; with ``y`` None, ``x`` is split in two halves along its last axis.

    Deprecated alias of :func:`paddle.nn.functional.swiglu`, which checks the arguments.

    Args:
        x (Tensor): the gated input (both halves when ``y`` is None).
        y (Tensor, optional): the gate, of the shape and dtype of ``x``. Default None.
        name (str, optional): unused, for Paddle compatibility.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0]])
        >>> round(paddle.incubate.nn.functional.swiglu(x).item(), 4)
        1.4621
    """
    return _F.swiglu(x, y)


def _norm_axis(api: str, x, begin_norm_axis: int, allow_negative: bool = True) -> int:
    # fused_layer_norm's kernel slices the shape at ``begin_norm_axis`` as given, so it takes
    # no negative axis; fused_rms_norm wraps one.
    axis = begin_norm_axis + x.ndim if begin_norm_axis < 0 and allow_negative else begin_norm_axis
    if not 0 <= axis < (x.ndim if allow_negative else max(x.ndim, 1)):
        lo = -x.ndim if allow_negative else 0
        raise ValueError(f"paddle.incubate.nn.functional.{api}: 'begin_norm_axis' must lie in "
                         f"[{lo}, {x.ndim}), but received {begin_norm_axis}")
    return axis


def _pre_add(x, bias, residual, alpha=1.0):
    # As in Paddle's kernels, ``bias`` belongs to the residual add: it is ignored when
    # ``residual`` is None (except in fused_layer_norm's add-only form, see there).
    h = x
    if bias is not None and residual is not None:
        h = h + bias
    if residual is not None:
        h = h + (residual * alpha if alpha != 1.0 else residual)
    return h


def _quant(out, scale, round_type, max_bound, min_bound):
    if scale <= 0:
        return out
    q = out * (max_bound * scale)
    q = _p.round(q) if round_type == 1 else _p.sign(q) * _p.floor(_p.abs(q) + 0.5)
    return _p.clip(q, min_bound, max_bound).astype("int8")


def _need_tensor(api: str, **args) -> None:
    """ValueError, as Paddle's argument parser says it, for each argument (name=(position,
    value)) holding something other than a Tensor (None counts only for ``x``)."""
    for arg, (pos, v) in args.items():
        if not isinstance(v, _p.Tensor) and (v is not None or arg == "x"):
            raise ValueError(f"paddle.incubate.nn.functional.{api}: argument '{arg}' (position "
                             f"{pos}) must be Tensor, but got {type_name(v)}")


def _check_norm_args(api: str, x, axis: int, residual, **params) -> None:
    # Paddle's kernels read the norm parameters as vectors of their first dimension, and need
    # them (float32 also serves a half-precision ``x``) and ``residual`` in ``x``'s dtype
    # (``residual`` also in its shape).
    if not x.dtype.is_floating_point:  # no kernel of Paddle's takes it: its NotFound
        raise NoKernelError(f"paddle.incubate.nn.functional.{api}: 'x' must be a floating-point "
                            f"tensor, but received {x.dtype}")
    size = math.prod(x.shape[axis:])
    for arg, t in params.items():
        if t is None:
            continue
        if t.ndim == 0 or t.shape[0] != size:
            raise ValueError(f"paddle.incubate.nn.functional.{api}: the first dimension of "
                             f"'{arg}' must equal the normalized size of 'x' ({size}), but "
                             f"received shape {list(t.shape)}")
        if t.dtype != x.dtype and not (x.dtype in _LOW and t.dtype == _p.float32):
            raise ValueError(f"paddle.incubate.nn.functional.{api}: '{arg}' must have the dtype "
                             f"of 'x' ({x.dtype}), but received {t.dtype}")
    if residual is not None and (list(residual.shape) != list(x.shape)
                                 or residual.dtype != x.dtype):
        raise ValueError(f"paddle.incubate.nn.functional.{api}: 'residual' must have the shape "
                         f"and dtype of 'x' ({list(x.shape)}, {x.dtype}), but received "
                         f"{list(residual.shape)}, {residual.dtype}")


def fused_rms_norm(x, norm_weight, norm_bias, epsilon, begin_norm_axis=1, bias=None,
                   residual=None, quant_scale=-1, quant_round_type=0, quant_max_bound=0,
                   quant_min_bound=0):
    """RMS normalisation over the axes from ``begin_norm_axis`` on, of ``x + bias + residual``.

    Args:
        x (Tensor): the input.
        norm_weight (Tensor): scale, one value per normalized element.
        norm_bias (Tensor|None): shift added after scaling.
        epsilon (float): added to the mean square.
        begin_norm_axis (int, optional): first normalized axis. Default 1.
        bias (Tensor, optional): added to ``x`` first, only together with ``residual`` (as in
            Paddle, it is ignored when ``residual`` is None). Default None.
        residual (Tensor, optional): added to ``x`` first. Default None.
        quant_scale (float, optional): > 0 quantises the output to int8. Default -1.
        quant_round_type (int, optional): 0 rounds half away from zero, 1 half to even.
        quant_max_bound (float, optional): upper clip bound of the quantised value.
        quant_min_bound (float, optional): lower clip bound of the quantised value.

    Returns:
        tuple: ``(out, residual_out)``; ``residual_out`` is ``x + bias + residual`` when
        ``residual`` is given, else an empty tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[3.0, 4.0]])
        >>> out, _ = paddle.incubate.nn.functional.fused_rms_norm(x, paddle.ones([2]), None, 0.0, 1)
        >>> [round(v, 4) for v in out[0].tolist()]
        [0.8485, 1.1314]
    """
    api = "fused_rms_norm"
    if norm_weight is None:
        raise ValueError(f"paddle.incubate.nn.functional.{api}: 'norm_weight' must be a Tensor, "
                         "but received None")
    axis = _norm_axis(api, x, begin_norm_axis)   # (reads x.ndim first, as Paddle)
    _need_tensor(api, x=(0, x), norm_bias=(4, norm_bias))
    _check_norm_args(api, x, axis, residual, norm_weight=norm_weight)
    h = _pre_add(x, bias, residual)
    dims = list(range(axis, x.ndim))
    tail = x.shape[axis:]
    out = h * _p.rsqrt((h * h).mean(axis=dims, keepdim=True) + epsilon)
    out = out * norm_weight.reshape(tail).astype(x.dtype)
    if norm_bias is not None:
        out = out + norm_bias.reshape(tail).astype(x.dtype)
    out = _quant(out, quant_scale, quant_round_type, quant_max_bound, quant_min_bound)
    # without ``residual`` the second output is empty, joined to ``x`` (as Paddle's, it takes
    # the input's stop_gradient)
    res = h if residual is not None else h.reshape([-1])[:0]
    return out, res


def fused_layer_norm(x, norm_weight, norm_bias, epsilon, residual_alpha=1.0, begin_norm_axis=1,
                     bias=None, residual=None, quant_scale=-1, quant_round_type=0,
                     quant_max_bound=0, quant_min_bound=0):
    """Layer normalisation over the axes from ``begin_norm_axis`` on, of
    ``x + bias + residual_alpha * residual``.

    Args:
        x (Tensor): the input.
        norm_weight (Tensor|None): scale, one value per normalized element.
        norm_bias (Tensor|None): shift.
        epsilon (float): added to the variance.
        residual_alpha (float, optional): scale of ``residual``. Default 1.0.
        begin_norm_axis (int, optional): first normalized axis, not negative. Default 1.
        bias (Tensor, optional): added to ``x`` first, only together with ``residual`` (as in
            Paddle, it is ignored when ``residual`` is None, except in the add-only form).
        residual (Tensor, optional): added to ``x`` first. Default None.
        quant_scale (float, optional): > 0 quantises the output to int8. Default -1.
        quant_round_type (int, optional): 0 rounds half away from zero, 1 half to even.
        quant_max_bound (float, optional): upper clip bound of the quantised value.
        quant_min_bound (float, optional): lower clip bound of the quantised value.

    Returns:
        tuple: ``(out, residual_out, mean, inv_std)``; the statistics have one value per
        normalized row, ``inv_std`` is ``1 / sqrt(var + epsilon)``; ``residual_out`` is the
        pre-normalisation sum when ``residual`` is given, else an empty tensor of shape
        ``x.shape + [0]``. With ``norm_weight`` and ``norm_bias`` both None nothing is
        normalised (Paddle's add-only form): ``out`` is ``x + bias + residual_alpha * residual``.
        As in Paddle (whose kernel has no backward), the outputs carry no gradient.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 3.0]])
        >>> out = paddle.incubate.nn.functional.fused_layer_norm(
        ...     x, paddle.ones([2]), paddle.zeros([2]), 0.0)
        >>> out[0].tolist(), out[2].tolist()
        ([[-1.0, 1.0]], [2.0])
    """
    api = "fused_layer_norm"
    _need_tensor(api, x=(0, x))
    axis = _norm_axis(api, x, begin_norm_axis, allow_negative=False)
    _check_norm_args(api, x, axis, residual, norm_weight=norm_weight, norm_bias=norm_bias)
    add_only = norm_weight is None and norm_bias is None
    if add_only and residual is None and bias is not None:
        h = x + bias
    else:
        h = _pre_add(x, bias, residual, residual_alpha)
    rows = math.prod(x.shape[:axis])
    flat = h.reshape([rows, -1])
    mean = flat.mean(axis=1)
    centered = flat - mean.unsqueeze(1)
    inv_std = _p.rsqrt((centered * centered).mean(axis=1) + epsilon)
    if add_only:
        out = h
    else:
        out = (centered * inv_std.unsqueeze(1)).reshape(x.shape)
        tail = x.shape[axis:]
        if norm_weight is not None:
            out = out * norm_weight.reshape(tail).astype(x.dtype)
        if norm_bias is not None:
            out = out + norm_bias.reshape(tail).astype(x.dtype)
    out = _quant(out, quant_scale, quant_round_type, quant_max_bound, quant_min_bound)
    res = h if residual is not None else _p.empty(list(x.shape) + [0], dtype=x.dtype)
    # Paddle's kernel has no backward: its outputs never carry gradients.
    return out.detach(), res.detach(), mean.detach(), inv_std.detach()


def fused_linear(x, weight, bias=None, transpose_weight=False, name=None):
    """``x @ weight + bias`` (``weight`` transposed first when ``transpose_weight``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([2, 3])
        >>> list(paddle.incubate.nn.functional.fused_linear(x, paddle.ones([3, 4])).shape)
        [2, 4]
    """
    return fused_matmul_bias(x, weight, bias, False, transpose_weight)


def fused_matmul_bias(x, y, bias=None, transpose_x=False, transpose_y=False, name=None):
    """``matmul(x, y, transpose_x, transpose_y) + bias``.

    Examples:
        >>> import pagaie as paddle
        >>> out = paddle.incubate.nn.functional.fused_matmul_bias(
        ...     paddle.ones([2, 3]), paddle.ones([3, 4]), paddle.ones([4]))
        >>> out.tolist()[0]
        [4.0, 4.0, 4.0, 4.0]
    """
    out = _p.matmul(x, y, transpose_x, transpose_y)
    return out if bias is None else out + bias


def fused_linear_activation(x, y, bias, trans_x=False, trans_y=False, activation=None):
    """``act(matmul(x, y) + bias)`` with ``activation`` ``'gelu'``, ``'relu'`` or None.

    Examples:
        >>> import pagaie as paddle
        >>> out = paddle.incubate.nn.functional.fused_linear_activation(
        ...     paddle.ones([1, 2]), -paddle.ones([2, 2]), paddle.zeros([2]), activation='relu')
        >>> out.tolist()
        [[0.0, 0.0]]
    """
    if activation not in (None, "none", "gelu", "relu"):
        raise ValueError("paddle.incubate.nn.functional.fused_linear_activation: 'activation' "
                         f"should be 'gelu', 'relu' or None, but received {activation!r}")
    out = fused_matmul_bias(x, y, bias, trans_x, trans_y)
    if activation == "gelu":
        return _F.gelu(out)
    return _F.relu(out) if activation == "relu" else out


def _check_dropout(api: str, p, mode, arg: str = "p") -> None:
    if not isinstance(p, (int, float, _p.Tensor)):
        raise TypeError(f"paddle.incubate.nn.functional.{api}: '{arg}' should be a number or "
                        f"Tensor, but received {type(p).__name__}")
    if isinstance(p, (int, float)) and not 0 <= p <= 1:
        raise ValueError(f"paddle.incubate.nn.functional.{api}: '{arg}' should be between 0 and "
                         f"1, but received {p}")
    if isinstance(p, _p.Tensor) and p.size != 1:   # Paddle reads it as one scalar
        raise ValueError(f"paddle.incubate.nn.functional.{api}: a Tensor '{arg}' must have one "
                         f"element, but received shape {list(p.shape)}")
    if mode not in _MODES:
        raise ValueError(f"paddle.incubate.nn.functional.{api}: 'mode' should be "
                         f"'downscale_in_infer' or 'upscale_in_train', but received {mode!r}")


def fused_dropout_add(x, y, p=0.5, training=True, mode="upscale_in_train", name=None):
    """``dropout(x, p, training, mode) + y``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([2])
        >>> paddle.incubate.nn.functional.fused_dropout_add(x, x, p=0.5, training=False).tolist()
        [2.0, 2.0]
    """
    _check_dropout("fused_dropout_add", p, mode)
    return _F.dropout(x, p=p, training=training, mode=mode) + y


def fused_bias_dropout_residual_layer_norm(x, residual, bias=None, ln_scale=None, ln_bias=None,
                                           dropout_rate=0.5, ln_epsilon=1e-05, training=True,
                                           mode="upscale_in_train", name=None):
    """``layer_norm(residual + dropout(x + bias))`` over the last axis.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 3.0]])
        >>> out = paddle.incubate.nn.functional.fused_bias_dropout_residual_layer_norm(
        ...     x, paddle.zeros([1, 2]), dropout_rate=0.0, ln_epsilon=0.0)
        >>> out.tolist()
        [[-1.0, 1.0]]
    """
    api = "fused_bias_dropout_residual_layer_norm"
    _check_dropout(api, dropout_rate, mode, "dropout_rate")
    for arg, t in (("ln_scale", ln_scale), ("ln_bias", ln_bias)):
        # Paddle checks these with ``assert``
        if t is not None and (t.ndim != 1 or t.shape[0] != x.shape[-1]):
            raise AssertionError(f"paddle.incubate.nn.functional.{api}: '{arg}' must be 1-D of "
                                 f"the size of the last dimension of 'x' ({x.shape[-1]}), but "
                                 f"received shape {list(t.shape)}")
    h = x if bias is None else x + bias
    h = residual + _F.dropout(h, p=dropout_rate, training=training, mode=mode)
    return _F.layer_norm(h, h.shape[-1:], ln_scale, ln_bias, ln_epsilon)


_BIAS_ACTS = {"gelu": _F.gelu, "relu": _F.relu, "silu": _F.silu, "swish": _F.silu,
              "sigmoid": _F.sigmoid}


def fused_bias_act(x, bias=None, dequant_scales=None, shift=None, smooth=None, act_method="gelu",
                   compute_dtype="default", quant_scale=-1, quant_round_type=0, quant_max_bound=0,
                   quant_min_bound=0):
    """``act(x + bias)``; ``'swiglu'`` / ``'geglu'`` gate the first half of the last axis with
    the second half. ``shift`` and ``smooth`` (smooth-quant) apply as ``(y + shift) * smooth``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[-1.0, 2.0]])
        >>> paddle.incubate.nn.functional.fused_bias_act(x, act_method='relu').tolist()
        [[0.0, 2.0]]
    """
    h = x if dequant_scales is None else x.astype("float32") * dequant_scales
    if bias is not None:
        h = h + bias
    if act_method in ("swiglu", "geglu"):
        a, b = _p.chunk(h, 2, axis=-1)
        h = (_F.silu(a) if act_method == "swiglu" else _F.gelu(a)) * b
    elif act_method in _BIAS_ACTS:
        h = _BIAS_ACTS[act_method](h)
    else:
        raise ValueError("paddle.incubate.nn.functional.fused_bias_act: 'act_method' should be "
                         f"one of {sorted(_BIAS_ACTS) + ['geglu', 'swiglu']}, but received "
                         f"{act_method!r}")
    if shift is not None:
        h = h + shift
    if smooth is not None:
        h = h * smooth
    return _quant(h, quant_scale, quant_round_type, quant_max_bound, quant_min_bound)


# (``fused_dot_product_attention`` is public there, though not in Paddle's ``__all__``)
from pagaie.incubate.nn._fused_attention import (  # noqa: E402
    fused_dot_product_attention, fused_feedforward, fused_multi_head_attention,
    fused_rotary_position_embedding)
from pagaie._ops.incubate_llm_ops import (  # noqa: E402
    blha_get_max_len, build_src_rank_and_local_expert_id, cal_aux_loss, embedding_grad_add_to_,
    expand_modality_expert_id, fast_ln, fast_rms_norm, fused_rms_norm_ext, int_bincount,
    moe_combine, moe_gate_dispatch, moe_gate_dispatch_permute)
from pagaie.incubate.nn._llm_attention import (  # noqa: E402
    block_multihead_attention, masked_multihead_attention,
    variable_length_memory_efficient_attention)
from pagaie.incubate.nn._multi_transformer import fused_multi_transformer  # noqa: E402
from pagaie.incubate.nn._llm_unsupported import (  # noqa: E402
    cross_entropy_with_softmax_bwd_w_downcast, fp8_gemm_blockwise, fp8_quant_blockwise,
    fused_act_dequant, fused_stack_transpose_quant, fused_swiglu_weighted_bwd,
    fused_transpose_split_quant, fused_transpose_wlch_split_quant,
    fused_weighted_swiglu_act_quant, moe_gate_dispatch_and_quant,
    moe_gate_dispatch_partial_nosoftmaxtopk)

__all__ += [
    "fused_multi_transformer", "masked_multihead_attention",
    "variable_length_memory_efficient_attention", "block_multihead_attention",
    "blha_get_max_len", "fast_ln", "fast_rms_norm", "fused_rms_norm_ext", "int_bincount",
    "cal_aux_loss", "moe_combine", "moe_gate_dispatch", "moe_gate_dispatch_permute",
    "moe_gate_dispatch_partial_nosoftmaxtopk", "moe_gate_dispatch_and_quant",
    "expand_modality_expert_id", "build_src_rank_and_local_expert_id", "fused_act_dequant",
    "fp8_quant_blockwise", "fp8_gemm_blockwise", "fused_stack_transpose_quant",
    "fused_transpose_split_quant", "fused_transpose_wlch_split_quant",
    "fused_swiglu_weighted_bwd", "fused_weighted_swiglu_act_quant",
    "cross_entropy_with_softmax_bwd_w_downcast", "embedding_grad_add_to_"]
