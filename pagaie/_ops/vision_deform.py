"""Deformable convolution (v1 and the modulated v2) of ``paddle.vision.ops``.

Bilinear sampling at offset kernel taps gathered into columns, then one grouped matrix
product, over torch tensors; torch autograd gives the gradients of every input.
Not a top-level family: ``pagaie.vision.ops`` re-exports it.
"""
from __future__ import annotations

import torch

from pagaie._core.registry import defop
from pagaie._ops._helpers import F32_F64, kernel_dtypes
from pagaie._ops._nn_helpers import ntuple
from pagaie._ops.vision import _check_positive, _check_rank, _check_same_dtype, _fail

__all__ = ["deform_conv2d"]


@defop(method=False, amp="promote", paddle_types=("deformable_conv", "pd_op.deformable_conv"))
def deform_conv2d(x, offset, weight, bias=None, stride=1, padding=0, dilation=1, deformable_groups=1, groups=1,
                  mask=None, name=None):
    """Deformable convolution v1 (``mask=None``) or v2 (modulated by ``mask``).

    Each kernel tap samples the input bilinearly at its regular position plus a learned
    offset (zero outside the input), optionally scaled by a mask, then the samples are
    combined with ``weight`` as in a normal convolution.

    Args:
        x (Tensor): ``[N, C, H, W]`` input.
        offset (Tensor): ``[N, 2 * deformable_groups * kh * kw, Ho, Wo]`` offsets, ``(dy, dx)``
            pairs per tap.
        weight (Tensor): ``[Co, C / groups, kh, kw]`` filters.
        bias (Tensor, optional): ``[Co]`` bias.
        stride, padding, dilation (int|list|tuple, optional): as in conv2d.
        deformable_groups (int, optional): channel groups sharing one offset field. Default: 1.
        groups (int, optional): convolution groups. Default: 1.
        mask (Tensor, optional): ``[N, deformable_groups * kh * kw, Ho, Wo]`` modulation.
        name (str, optional): unused.

    Returns:
        Tensor: ``[N, Co, Ho, Wo]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.rand([1, 2, 5, 5])
        >>> w = paddle.rand([3, 2, 3, 3])
        >>> out = paddle.vision.ops.deform_conv2d(x, paddle.zeros([1, 18, 3, 3]), w)
        >>> bool(paddle.allclose(out, paddle.nn.functional.conv2d(x, w), atol=1e-5))
        True
    """
    sh, sw = ntuple(stride, 2, "vision.ops.deform_conv2d", "stride")
    ph_, pw_ = ntuple(padding, 2, "vision.ops.deform_conv2d", "padding")
    dh, dw = ntuple(dilation, 2, "vision.ops.deform_conv2d", "dilation")
    _check_deform(x, offset, weight, bias, mask, (sh, sw), (dh, dw), (ph_, pw_), deformable_groups, groups)
    n, c, hgt, wid = x.shape
    co, _, kh, kw = weight.shape
    ho = (hgt + 2 * ph_ - (dh * (kh - 1) + 1)) // sh + 1
    wo = (wid + 2 * pw_ - (dw * (kw - 1) + 1)) // sw + 1
    dg = deformable_groups
    taps = kh * kw
    off = offset.reshape(n, dg, taps, 2, ho, wo)
    base_y = (torch.arange(ho, device=x.device, dtype=x.dtype) * sh - ph_).reshape(1, 1, 1, ho, 1) + \
        (torch.arange(kh, device=x.device, dtype=x.dtype) * dh).repeat_interleave(kw).reshape(1, 1, taps, 1, 1)
    base_x = (torch.arange(wo, device=x.device, dtype=x.dtype) * sw - pw_).reshape(1, 1, 1, 1, wo) + \
        (torch.arange(kw, device=x.device, dtype=x.dtype) * dw).repeat(kh).reshape(1, 1, taps, 1, 1)
    py = base_y + off[:, :, :, 0]  # [N, dg, taps, Ho, Wo]
    px = base_x + off[:, :, :, 1]
    # samples of every batch item and offset group at once: [N, dg, C / dg, taps, Ho, Wo]
    col = _deform_sample(x.reshape(n, dg, c // dg, hgt, wid), py, px)
    if mask is not None:
        col = col * mask.reshape(n, dg, 1, taps, ho, wo)
    col = col.reshape(n, groups, (c // groups) * taps, ho * wo)
    w = weight.reshape(groups, co // groups, (c // groups) * taps)
    out = torch.einsum("gok,ngkl->ngol", w, col).reshape(n, co, ho, wo)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1)
    return out


def _check_deform(x, offset, weight, bias, mask, stride, dilation, padding, dg, groups) -> None:
    api = "deform_conv2d"
    # Paddle's CPU kernel (and its build-time check) take float32/float64 only; its kernel
    # lookup precedes the shape checks
    kernel_dtypes("vision.ops.deform_conv2d", x, F32_F64)
    _check_rank(api, x, "x", 4, " [N, C, H, W]")
    _check_rank(api, weight, "weight", 4, " [Co, C / groups, kh, kw]")
    _check_rank(api, offset, "offset", 4, " [N, 2 * deformable_groups * kh * kw, Ho, Wo]")
    _check_positive(api, "stride", stride)
    _check_positive(api, "dilation", dilation)
    if any(int(v) < 0 for v in padding):
        raise _fail(ValueError, api, f"'padding' must not be negative, but received {list(padding)}")
    if groups <= 0 or dg <= 0:
        raise _fail(ValueError, api, f"'groups' and 'deformable_groups' must be positive, but received "
                                     f"groups={groups}, deformable_groups={dg}")
    co, ci, kh, kw = weight.shape
    if x.shape[1] != ci * groups:
        raise _fail(ValueError, api, f"the channels of x ({x.shape[1]}) must equal weight.shape[1] * groups "
                                     f"({ci} * {groups})")
    if co % groups:
        raise _fail(ValueError, api, f"weight.shape[0] ({co}) must be divisible by groups ({groups})")
    if co % dg:
        raise _fail(ValueError, api, f"weight.shape[0] ({co}) must be divisible by "
                                     f"deformable_groups ({dg})")
    if x.shape[1] % dg:  # Paddle's kernel then reads offsets past the groups given
        raise _fail(ValueError, api, f"the channels of x ({x.shape[1]}) must be divisible by "
                                     f"deformable_groups ({dg})")
    ho = (x.shape[2] + 2 * padding[0] - (dilation[0] * (kh - 1) + 1)) // stride[0] + 1
    wo = (x.shape[3] + 2 * padding[1] - (dilation[1] * (kw - 1) + 1)) // stride[1] + 1
    if ho <= 0 or wo <= 0:
        raise _fail(ValueError, api, f"the output size must be positive, but received [{ho}, {wo}] from the input "
                                     f"size {list(x.shape[2:])}, padding {list(padding)}, kernel [{kh}, {kw}], "
                                     f"dilation {list(dilation)} and stride {list(stride)}")
    if offset.shape[1] != 2 * dg * kh * kw:
        raise _fail(ValueError, api, f"the channels of offset ({offset.shape[1]}) must equal 2 * "
                                     f"deformable_groups * kh * kw ({2 * dg * kh * kw})")
    if offset.shape[0] != x.shape[0] or list(offset.shape[2:]) != [ho, wo]:
        raise _fail(ValueError, api, f"'offset' must have shape [{x.shape[0]}, {offset.shape[1]}, {ho}, {wo}] "
                                     f"(batch of x, output size), but received {list(offset.shape)}")
    if mask is not None and list(mask.shape) != [x.shape[0], dg * kh * kw, ho, wo]:
        raise _fail(ValueError, api, f"'mask' must have shape {[x.shape[0], dg * kh * kw, ho, wo]}, but "
                                     f"received {list(mask.shape)}")
    if bias is not None and (bias.dim() != 1 or bias.numel() != co):
        raise _fail(ValueError, api, f"'bias' must have {co} values (one per output channel), but received "
                                     f"shape {list(bias.shape)}")
    for arg, t in (("offset", offset), ("weight", weight), ("mask", mask), ("bias", bias)):
        if t is not None:
            _check_same_dtype(api, x, t, "x", arg)


def _deform_sample(img: torch.Tensor, y: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Bilinear samples of ``img [N, G, C, H, W]`` at ``y, x [N, G, *S]`` with zero padding,
    as ``[N, G, C, *S]``; a point outside (-1, H) x (-1, W) gives 0."""
    n, g, c, hgt, wid = img.shape
    inside = (y > -1) & (y < hgt) & (x > -1) & (x < wid)
    y0 = torch.floor(y)
    x0 = torch.floor(x)
    ly, lx = y - y0, x - x0
    y0 = y0.long()
    x0 = x0.long()
    flat = img.reshape(n, g, c, hgt * wid)
    points = y[0, 0].numel() if n * g else 0
    out = 0
    for dy, wy in ((0, 1 - ly), (1, ly)):
        for dx, wx in ((0, 1 - lx), (1, lx)):
            yy, xx = y0 + dy, x0 + dx
            ok = (yy >= 0) & (yy < hgt) & (xx >= 0) & (xx < wid) & inside
            idx = (yy.clamp(0, hgt - 1) * wid + xx.clamp(0, wid - 1)).reshape(n, g, 1, points)
            vals = torch.gather(flat, 3, idx.expand(n, g, c, points)).reshape(n, g, c, *y.shape[2:])
            out = out + vals * (wy * wx * ok).unsqueeze(2)
    return out
