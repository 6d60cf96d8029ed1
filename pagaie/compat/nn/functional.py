"""``paddle.compat.nn.functional``: PyTorch-style functional ops (argument names ``input``,
``dim``), as in Paddle's compat layer.

Examples:
    >>> import pagaie as paddle
    >>> x = paddle.to_tensor([[0.0, 0.0], [1.0, 1.0]])
    >>> paddle.compat.nn.functional.softmax(x, -1).tolist()
    [[0.5, 0.5], [0.5, 0.5]]
"""
from __future__ import annotations

from typing import Any, Sequence

from pagaie._ops.math import softmax
from pagaie.compat._keywords import forbid_keywords

__all__ = ["pad", "softmax", "linear", "scaled_dot_product_attention", "unfold"]

_PAD_MODES = ("constant", "reflect", "replicate", "circular")

@forbid_keywords({"x", "name", "data_format", "pad_from_left_axis"},
                 "paddle.compat.nn.functional.pad", "paddle.nn.functional.pad")
def pad(input: Any, pad: Sequence[int], mode: str = "constant", value: float = 0.0) -> Any:
    """Pad ``input`` with PyTorch's convention: ``pad`` lists (before, after) pairs starting
    from the *last* dim, so ``(1, 2)`` pads the last dim by 1 before and 2 after.

    Args:
        input (Tensor): the tensor to pad.
        pad (Sequence[int]|Tensor): an even number of sizes; for ``'constant'`` up to two per
            dim, otherwise at most 6 and covering at most ``input.ndim - 2`` dims.
        mode (str, optional): ``'constant'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
        value (float, optional): fill value of ``'constant'`` padding. Default 0.

    Returns:
        Tensor: the padded tensor, same dtype as ``input``.

    Raises:
        AssertionError: an unknown ``mode`` (as Paddle).
        ValueError: ``pad`` too long for ``input``, or non-constant padding of a 1-D input.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 2, 3])
        >>> paddle.compat.nn.functional.pad(x, (1, 1)).shape
        paddle.Size([1, 2, 5])
        >>> paddle.compat.nn.functional.pad(x, (1, 1, 1, 0)).shape
        paddle.Size([1, 3, 5])
    """
    from pagaie._core.tensor import Tensor
    from pagaie.nn.functional import pad as _pad
    if mode not in _PAD_MODES:
        raise AssertionError("paddle.compat.nn.functional.pad: mode should be one of constant, "
                             f"reflect, replicate, circular, but got {mode}.")
    if isinstance(pad, Tensor):
        if pad.size == 0:
            return input.clone()
        pad = [int(v) for v in pad.tolist()]
    pad = [int(v) for v in pad]
    ndim = len(input.shape)
    if mode != "constant":
        if ndim < 2:
            raise ValueError("paddle.compat.nn.functional.pad: only 2D, 3D, 4D, 5D padding with "
                             f"non-constant padding are supported for now, got ndim: {ndim}")
        limit = 2 * ndim - 2
        if len(pad) > 6 or len(pad) > limit:
            raise ValueError(f"paddle.compat.nn.functional.pad: len(pad) is bounded by "
                             f"input.ndim: expect len(pad) <= {min(limit, 6)}, got: {len(pad)}")
    elif len(pad) > 2 * ndim:
        raise ValueError(f"paddle.compat.nn.functional.pad: len(pad) is bounded by input.ndim: "
                         f"expect len(pad) <= {2 * ndim}, got: {len(pad)}")
    if len(pad) % 2:
        raise ValueError("paddle.compat.nn.functional.pad: 'pad' must hold (before, after) "
                         f"pairs, but got {len(pad)} values")
    if mode == "constant":
        full = pad + [0] * (2 * ndim - len(pad))
        return _pad(input, full, mode=mode, value=value, pad_from_left_axis=False)
    # Other modes pad spatial dims of an NCDHW tensor, last dim first: view the input as 5-D.
    lead = list(range(5 - ndim))
    x5 = input.unsqueeze(lead) if lead else input
    out = _pad(x5, pad + [0] * (6 - len(pad)), mode=mode, value=value, data_format="NCDHW")
    return out.squeeze(lead) if lead else out


@forbid_keywords({"x", "name"}, "paddle.compat.nn.functional.linear",
                 "paddle.nn.functional.linear")
def linear(input: Any, weight: Any, bias: Any = None) -> Any:
    """``input @ weight.T + bias``, with PyTorch's weight layout ``[out_features, in_features]``.

    Args:
        input (Tensor): ``[*, in_features]``.
        weight (Tensor): ``[out_features, in_features]``.
        bias (Tensor, optional): ``[out_features]``.

    Returns:
        Tensor: ``[*, out_features]``.

    Examples:
        >>> import pagaie as paddle
        >>> out = paddle.compat.nn.functional.linear(paddle.ones([2, 3]), paddle.ones([4, 3]),
        ...                                          paddle.ones([4]))
        >>> out.shape, out[0, 0].item()
        (paddle.Size([2, 4]), 4.0)
    """
    import pagaie
    out = pagaie.matmul(input, weight, transpose_y=True)
    return out if bias is None else out + bias


@forbid_keywords({"x", "kernel_sizes", "dilations", "paddings", "strides", "name"},
                 "paddle.compat.nn.functional.unfold", "paddle.nn.functional.unfold")
def unfold(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Any:
    """Extract sliding blocks of a ``[N, C, H, W]`` tensor as columns (PyTorch's ``unfold``).

    Args:
        input (Tensor): ``[N, C, H, W]``.
        kernel_size (int|list[int]): block size.
        dilation (int|list[int], optional): spacing inside a block. Default 1.
        padding (int|list[int], optional): zero padding of H and W. Default 0.
        stride (int|list[int], optional): step between blocks. Default 1.

    Returns:
        Tensor: ``[N, C * prod(kernel_size), L]`` with ``L`` the number of blocks.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.compat.nn.functional.unfold(paddle.ones([1, 1, 3, 3]), 2).shape
        paddle.Size([1, 4, 4])
    """
    from pagaie._core.tensor import Tensor
    from pagaie.nn.functional import unfold as _unfold

    def plain(v: Any) -> Any:
        return v.tolist() if isinstance(v, Tensor) else v
    return _unfold(input, plain(kernel_size), strides=plain(stride), paddings=plain(padding),
                   dilations=plain(dilation))


def scaled_dot_product_attention(query: Any, key: Any, value: Any, attn_mask: Any = None,
                                 dropout_p: float = 0.0, is_causal: bool = False,
                                 scale: float | None = None, enable_gqa: bool = False) -> Any:
    """Scaled dot-product attention with PyTorch's layout ``[batch, heads, seq, dim]``.

    ``softmax(query @ key^T * scale + mask) @ value``, with dropout ``dropout_p``.

    Args:
        query (Tensor): ``[N, H, L, E]``.
        key (Tensor): ``[N, H_kv, S, E]``.
        value (Tensor): ``[N, H_kv, S, Ev]``.
        attn_mask (Tensor, optional): a bool mask (True keeps) or an additive float mask,
            broadcastable to ``[N, H, L, S]``.
        dropout_p (float, optional): dropout probability on the attention weights.
        is_causal (bool, optional): apply a causal mask (then ``attn_mask`` must be None).
        scale (float, optional): defaults to ``1 / sqrt(E)``.
        enable_gqa (bool, optional): let ``H`` be a multiple of ``H_kv`` (grouped-query).

    Returns:
        Tensor: ``[N, H, L, Ev]``.

    Raises:
        RuntimeError: ``attn_mask`` given with ``is_causal=True``.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.ones([1, 2, 3, 4])
        >>> paddle.compat.nn.functional.scaled_dot_product_attention(q, q, q).shape
        paddle.Size([1, 2, 3, 4])
    """
    from pagaie.nn.functional import scaled_dot_product_attention as _sdpa
    if is_causal and attn_mask is not None:
        raise RuntimeError("paddle.compat.nn.functional.scaled_dot_product_attention: explicit "
                           "attn_mask should not be set when is_causal=True")
    q, k, v = (t.swapaxes(-3, -2) for t in (query, key, value))
    out = _sdpa(q, k, v, attn_mask, dropout_p, is_causal, True, None, scale, enable_gqa)
    return out.swapaxes(-3, -2)
