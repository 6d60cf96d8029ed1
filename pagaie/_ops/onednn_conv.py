"""Inference convolutions through oneDNN with prepacked weights, on the CPU.

ATen's CPU convolution hands oneDNN a plain NCHW weight and lets it reorder the weight to
its blocked layout on every call; for inference that reorder is repeated work, and the
bias, residual add and relu run as separate passes over the output. Here the weight is
reordered once (cached per weight tensor, its version and the input shape) and the
convolution runs with the bias, the residual add and relu as oneDNN post-ops. The result
is in channels-last memory order (oneDNN's native layout); its values and shape are the
same. Used by ``fused_conv2d_bn_act`` when nothing needs gradients, for float32 NCHW
convolutions on the CPU; anything else returns None and takes the ATen path.
"""
from __future__ import annotations

import weakref
from typing import Any

import torch

__all__ = ["prepacked_conv2d"]

# id(weight) -> (weak reference to it, its version, the packing key, the packed weight);
# keyed by identity (a tensor's == is elementwise), dropped when the weight is freed
_PACKED: dict[int, tuple] = {}


def _pair(v: Any, symmetric4: bool = False) -> list[int] | None:
    """Two ints from an int or a 2-list (or a symmetric 4-list of paddings); else None."""
    if type(v) is int:
        return [v, v]
    if isinstance(v, (list, tuple)) and all(type(e) is int for e in v):
        if len(v) == 2:
            return list(v)
        if symmetric4 and len(v) == 4 and v[0] == v[1] and v[2] == v[3]:
            return [v[0], v[2]]
    return None


def _usable(*tensors: torch.Tensor | None) -> bool:
    if torch.compiler.is_compiling() or not torch.backends.mkldnn.is_available():
        return False
    grad = torch.is_grad_enabled()
    return all(t is None or (t.device.type == "cpu" and t.dtype == torch.float32 and
                             not (grad and t.requires_grad)) for t in tensors)


def prepacked_conv2d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None,
                     residual: torch.Tensor | None, stride: Any, padding: Any, dilation: Any,
                     groups: int, data_format: str, act: str | None) -> torch.Tensor | None:
    """``act(conv2d(x, weight, bias) + residual)`` through oneDNN, or None when not applicable.

    Args:
        x (torch.Tensor): the NCHW input.
        weight (torch.Tensor): ``[out, in / groups, kh, kw]``.
        bias, residual (torch.Tensor, optional): added to the convolution.
        stride, padding, dilation: ints or pairs (a symmetric 4-list of paddings too).
        groups (int): the convolution groups.
        data_format (str): only ``'NCHW'`` is handled.
        act (str, optional): None or ``'relu'``.

    Returns:
        torch.Tensor | None: the result (channels-last memory order), or None.

    Examples:
        >>> import torch
        >>> from pagaie._ops.onednn_conv import prepacked_conv2d
        >>> x, w = torch.randn(1, 3, 8, 8), torch.randn(4, 3, 3, 3)
        >>> with torch.no_grad():
        ...     y = prepacked_conv2d(x, w, None, None, 1, 1, 1, 1, 'NCHW', 'relu')
        >>> ref = torch.relu(torch.nn.functional.conv2d(x, w, None, 1, 1))
        >>> y is None or bool(torch.allclose(y, ref, atol=1e-4))
        True
    """
    if data_format != "NCHW" or act not in (None, "relu") or x.dim() != 4 or weight.dim() != 4:
        return None
    if not _usable(x, weight, bias, residual):
        return None
    s, p, d = _pair(stride), _pair(padding, symmetric4=True), _pair(dilation)
    if s is None or p is None or d is None or type(groups) is not int:
        return None
    out_hw = [(x.shape[2 + i] + 2 * p[i] - d[i] * (weight.shape[2 + i] - 1) - 1) // s[i] + 1
              for i in range(2)]
    out_shape = (x.shape[0], weight.shape[0], *out_hw)
    if residual is not None and tuple(residual.shape) != out_shape:
        return None
    key = (tuple(x.shape), tuple(s), tuple(p), tuple(d), groups)
    entry = _PACKED.get(id(weight))
    if entry is None or entry[0]() is not weight or entry[1] != weight._version or entry[2] != key:
        packed = torch._C._nn.mkldnn_reorder_conv2d_weight(weight.detach().to_mkldnn(), p, s, d,
                                                           groups, list(x.shape))
        wid = id(weight)
        ref = weakref.ref(weight, lambda _, wid=wid: _PACKED.pop(wid, None))
        entry = _PACKED[wid] = (ref, weight._version, key, packed)
    packed = entry[3]
    b = None if bias is None else bias.detach()
    if residual is not None:
        other = residual.contiguous(memory_format=torch.channels_last)
        return torch.ops.mkldnn._convolution_pointwise(x, other, packed, b, p, s, d, groups,
                                                       "add", 1.0, act, [], "")
    return torch.ops.mkldnn._convolution_pointwise(x, packed, b, p, s, d, groups,
                                                   act or "none", [], "")
