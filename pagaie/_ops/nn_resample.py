"""Resampling and rearranging nn ops of ``paddle.nn.functional``: pad, interpolate /
upsample, pixel (un)shuffle, channel shuffle, unfold and fold.

Not a top-level family: these records are exported by ``pagaie.nn.functional``.
"""
from __future__ import annotations

import itertools
import numbers

import numpy as np
import torch
import torch.nn.functional as F

from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import F32_F64, float_kernel, int_list, kernel_dtypes
from pagaie._ops._nn_helpers import float_attr
from pagaie._ops._random_mask import as_scalar

__all__ = ["pad", "zeropad2d", "interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle",
           "channel_shuffle", "unfold", "fold"]

_PAD_FORMATS = {3: ("NCL", "NLC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _pad_generic(x, pad, value, from_left):
    """Constant padding of any dims (Paddle's ``pad`` kernel): ``pad`` pairs from the first
    axis (from_left and len == 2*ndim) or from the last axis backwards (torch order)."""
    nd = x.dim()
    if len(pad) > 2 * nd:
        # Paddle reads the first 2 * ndim values (from the last axis backwards) and ignores
        # the rest
        pad, from_left = pad[:2 * nd], False
    if any(p < 0 for p in pad):   # this kernel does not crop
        raise ValueError(f"paddle.nn.functional.pad: the paddings must be >= 0 in constant mode "
                         f"of a {nd}-D input, but received {list(pad)}")
    from_left = from_left and len(pad) == 2 * nd
    if len(pad) % 2:   # Paddle fills a missing last 'after' with 0
        pad = list(pad) + [0]
    if from_left:
        pairs = [pad[2 * i:2 * i + 2] for i in range(nd)]
        torch_pad = [v for p in reversed(pairs) for v in p]
    else:
        torch_pad = list(pad)
    return F.pad(x, torch_pad, mode="constant", value=value)


def _pad_tensor_dtype(pad, nd):
    """A Tensor ``pad`` of a 3-D or 4-D input, which Paddle joins with int32 zeros first, must
    be int32 (another dtype is its ValueError, TypeError while a program is built); a 5-D
    input's must hold integers (TypeError)."""
    name = str(pad.dtype).replace("torch.", "")
    if nd in (3, 4) and pad.dtype != torch.int32:
        err = ValueError(f"paddle.nn.functional.pad: a Tensor 'pad' of a {nd}-D input must be "
                         f"int32, but received {name}")
        err.static_type = TypeError
        raise err
    if pad.is_floating_point() or pad.is_complex() or pad.dtype == torch.bool:
        raise TypeError(f"paddle.nn.functional.pad: a Tensor 'pad' must hold integers, but "
                        f"received {name}")
    if pad.dim() > 1 and nd in (3, 4, 5):
        # Paddle joins a 3-D/4-D input's pad with 1-D zeros (a ValueError for another rank);
        # a 5-D input's is read as a list of ints (a TypeError for rows)
        raise (ValueError if nd < 5 else TypeError)(
            f"paddle.nn.functional.pad: a Tensor 'pad' must be 1-D, but received shape "
            f"{list(pad.shape)}")


def _pad_static_shape(x, pad, mode="constant", value=0.0, data_format=None, *args, **kwargs):
    """The output of a Tensor ``pad`` in a program: its values are read when the program runs,
    so the padded (spatial) sizes are unknown (-1), as in Paddle."""
    if isinstance(pad, (list, tuple, np.ndarray)):
        return None
    dims = list(x.shape)
    nd = len(dims)
    if nd not in (3, 4, 5) or (data_format is not None and data_format.upper() not in _PAD_FORMATS[nd]):
        return None   # the kernel's own checks report it
    first = data_format is None or data_format.upper() == _PAD_FORMATS[nd][0]
    for i in range(2, nd) if first else range(1, nd - 1):
        dims[i] = -1
    return dims


def _pad_static_check(x, pad, mode="constant", value=0.0, *args, **kwargs):
    """Paddle's static pad3d takes ``value`` as a float attribute: a Tensor there is its
    TypeError while a program is built (its every-axis pad, and eager code, read it)."""
    if isinstance(value, (list, tuple, np.ndarray, numbers.Number, str)) or value is None:
        return
    nd = len(x.shape)
    generic = mode == "constant" and isinstance(pad, (list, tuple)) and len(pad) != 2 * (nd - 2)
    if not generic and nd in (3, 4, 5):
        raise TypeError("paddle.nn.functional.pad: 'value' must be a number while a program is "
                        f"built with the spatial paddings, but received {type(value).__name__}")


def _pad_ints(pad, nd):
    """The paddings as ints, read as Paddle's argument parser does: int items and one-value
    Tensors (a float Tensor truncated); a float, bool, str or None item is its TypeError."""
    if isinstance(pad, torch.Tensor):
        return int_list(pad)
    for v in pad:
        ok = v.numel() == 1 if isinstance(v, torch.Tensor) else (
            isinstance(v, (int, np.integer)) and not isinstance(v, bool))
        if not ok:
            seen = f"a Tensor of shape {list(v.shape)}" if isinstance(v, torch.Tensor) else repr(v)
            raise TypeError(f"paddle.nn.functional.pad: 'pad' must be a list of ints, but "
                            f"received {seen} in it")
    return int_list(pad)


def _crop_pad(x, plist, value):
    """Constant padding of the trailing dims in torch order, negative values cropping (the
    positive paddings first, so a crop may reach into the other side's padding)."""
    out = F.pad(x, [max(p, 0) for p in plist], mode="constant", value=value)
    for i in range(len(plist) // 2):
        lo, hi = min(plist[2 * i], 0), min(plist[2 * i + 1], 0)
        if lo or hi:
            axis = x.dim() - 1 - i
            out = out.narrow(axis, -lo, out.shape[axis] + lo + hi)
    return out


_PAD_NO_KERNEL = (torch.bool, torch.uint8, torch.int8)
# the CPU kernels of Paddle's pad (every axis padded) and pad3d (the spatial axes)
_PAD_DTYPES = frozenset((torch.int16, torch.int32, torch.int64, torch.bfloat16, torch.float32,
                         torch.float64, torch.complex64, torch.complex128))
_PAD3D_DTYPES = _PAD_DTYPES - {torch.int16, torch.bfloat16}
# what its static API lets a program record for pad3d (float16 and bfloat16 then fail when it runs)
_PAD_STATIC = _PAD3D_DTYPES | {torch.float16, torch.bfloat16}


@defop(paddle_types=("pad", "pad3d", "pd_op.pad", "pd_op.pad3d"), method=False, static_shape=_pad_static_shape,
       static_check=_pad_static_check)
def pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True, name=None):
    """Pad a tensor.

    With ``mode='constant'`` and a list ``pad`` whose length is not ``2 * (ndim - 2)``,
    any dims can be padded: a length of ``2 * ndim`` pads from the first axis
    (``[before_0, after_0, before_1, ...]``, or from the last with
    ``pad_from_left_axis=False``), a shorter one pads from the last axis backwards.
    Otherwise (also for 'reflect', 'replicate', 'circular' and tensor pads) the input
    is 3-D, 4-D or 5-D and ``pad`` holds ``2 * (ndim - 2)`` values for the spatial
    dims of ``data_format``, last dim first: ``[left, right, top, bottom, front, back]``.

    Args:
        x (Tensor): input.
        pad (list|tuple|Tensor): the paddings.
        mode (str): 'constant', 'reflect', 'replicate' or 'circular'.
        value (float): the constant fill value.
        data_format (str, optional): 'NCL'/'NLC', 'NCHW'/'NHWC', 'NCDHW'/'NDHWC'.
        pad_from_left_axis (bool): see above.
        name (str, optional): unused.

    Returns:
        Tensor: the padded tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 1, 2])
        >>> paddle.nn.functional.pad(x, [1, 2], value=0.0).tolist()
        [[[0.0, 1.0, 1.0, 0.0, 0.0]]]
        >>> paddle.nn.functional.pad(paddle.to_tensor([[[1.0, 2.0]]]), [1, 1], mode='reflect').tolist()
        [[[2.0, 1.0, 2.0, 1.0]]]
    """
    if mode not in ("reflect", "replicate", "constant", "circular"):
        raise AssertionError("mode should be one of constant, reflect, replicate, circular, but got "
                             f"{mode}.")
    if isinstance(pad, range):   # read as the list it holds
        pad = list(pad)
    if not isinstance(pad, (list, tuple, torch.Tensor, np.ndarray)):
        raise TypeError(f"paddle.nn.functional.pad: 'pad' must be a list, tuple or Tensor, but "
                        f"received {type(pad).__name__} {pad!r}")
    nd = x.dim()
    generic = mode == "constant" and isinstance(pad, (list, tuple)) and len(pad) != 2 * (nd - 2)
    # Paddle's pad and pad3d kernels have none for these (the spatial form asserts the rank
    # first)
    if x.dtype in _PAD_NO_KERNEL and (generic or nd in (3, 4, 5)):
        raise NoKernelError(f"paddle.nn.functional.pad: no kernel for dtype "
                            f"{str(x.dtype).replace('torch.', '')}")
    is_tensor = isinstance(pad, torch.Tensor)
    if is_tensor and pad.numel() == 0:
        return x.clone()
    if is_tensor:
        _pad_tensor_dtype(pad, nd)
        if nd in (3, 4, 5) and (data_format is None or str(data_format).upper() in _PAD_FORMATS[nd]):
            # the pad3d kernel's dtypes, checked before a program reads the values
            kernel_dtypes("nn.functional.pad", x, _PAD3D_DTYPES, static=_PAD_STATIC)
    # a numpy array is read as a list, but only in the spatial (pad3d) form, as in Paddle
    plist = _pad_ints(pad.reshape(-1).tolist() if isinstance(pad, np.ndarray) else pad, nd)
    value = float(value.reshape(-1)[0]) if isinstance(value, torch.Tensor) else value
    if mode == "constant" and isinstance(pad, (list, tuple)) and len(plist) != (nd - 2) * 2:
        # Paddle's Python code takes float(value) there (a str of a number too)
        if type(value) is not float and type(value) is not int and not isinstance(value, str):
            value = float_attr(value, "pad", "value")
        # the static check of Paddle's every-axis pad is its kernel's dtype set (int16 passes,
        # float16 does not), unlike pad3d's
        kernel_dtypes("nn.functional.pad", x, _PAD_DTYPES)
        return _pad_generic(x, plist, float(value), pad_from_left_axis)
    if type(value) is not float and type(value) is not int:   # pad3d's double attribute
        value = float_attr(value, "pad", "value")
    if nd not in (3, 4, 5):
        raise AssertionError(f"input tensor dimension must be in [3, 4, 5] but got {nd}")
    if data_format is None:
        data_format = _PAD_FORMATS[nd][0]
    data_format = data_format.upper()
    if data_format not in _PAD_FORMATS[nd]:
        raise AssertionError(f"input tensor dimension is {nd}, it's data format should be in "
                             f"{list(_PAD_FORMATS[nd])} but got {data_format}")
    if len(plist) != 2 * (nd - 2):
        raise ValueError(f"paddle.nn.functional.pad: Size of paddings should be equal to {2 * (nd - 2)}, "
                         f"but received {len(plist)}.")
    kernel_dtypes("nn.functional.pad", x, _PAD3D_DTYPES, static=_PAD_STATIC)
    last = data_format != _PAD_FORMATS[nd][0]
    if last:
        x = x.movedim(-1, 1)
    sizes = list(x.shape[2:])[::-1]
    outs = [s + plist[2 * i] + plist[2 * i + 1] for i, s in enumerate(sizes)]
    if min(outs) < 0:   # Paddle's kernel fails to allocate the output
        raise RuntimeError(f"paddle.nn.functional.pad: the paddings {plist} crop more than the "
                           f"spatial sizes {sizes[::-1]} hold (output sizes {outs[::-1]})")
    if mode != "constant" and x.numel() == 0:
        mode, value = "constant", 0.0   # nothing to reflect or repeat: Paddle's output is zeros
    if mode != "constant":
        for i, s in enumerate(sizes):
            lo, hi = plist[2 * i], plist[2 * i + 1]
            if mode == "reflect" and (lo >= s or hi >= s):
                raise ValueError(f"paddle.nn.functional.pad: in reflect mode the paddings ({lo}, {hi}) "
                                 f"must be smaller than the padded dimension ({s})")
        if mode == "circular" and any(p > s or p < 0 for p, s in
                                      zip(plist, [s for s in sizes for _ in (0, 1)])):
            # paddings longer than the dimension wrap around it several times, and negative
            # ones crop after wrapping (the other side still wraps to the original ends), as
            # in Paddle
            out = x
            for i, s in enumerate(sizes):
                idx = torch.arange(-plist[2 * i], s + plist[2 * i + 1], device=x.device) % s
                out = out.index_select(x.dim() - 1 - i, idx)
        else:
            out = F.pad(x, plist, mode=mode)
    else:
        out = _crop_pad(x, plist, value)
    return out.movedim(1, -1) if last else out


@defop(paddle_types=("zeropad2d",), method=False)
def zeropad2d(x, padding, data_format="NCHW", name=None):
    """Zero-pad a 4-D tensor: ``padding`` is ``[left, right, top, bottom]`` (a list, tuple or
    Tensor; an int is Paddle's TypeError here, the ``ZeroPad2D`` layer takes one).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.zeropad2d(paddle.ones([1, 1, 1, 1]), [1, 0, 0, 1]).tolist()
        [[[[0.0, 1.0], [0.0, 0.0]]]]
    """
    return pad.op_record.kernel(x, padding, "constant", 0.0, data_format)


_INTERP_MODES = ("linear", "bilinear", "trilinear", "nearest", "bicubic", "area")
_MODE_RANK = {"linear": 3, "bilinear": 4, "trilinear": 5, "bicubic": 4}
_INTERP_FORMATS = {3: ("NCW", "NWC"), 4: ("NCHW", "NHWC"), 5: ("NCDHW", "NDHWC")}


def _src_index(out_size, in_size, ratio, align_corners, align_mode, device, mode, dtype,
               first=False):
    """Source positions of each output along one axis (``first``: the first spatial one),
    computed as Paddle's CPU kernels do: for the linear modes the two taps and their weights
    (1 - lam, lam), for nearest the tap.

    The ratio is a float32 value. ``ratio * dst`` is a float product. The half-pixel
    coordinate ``ratio * (dst + 0.5) - 0.5`` is computed in double by the 1-D kernel and in
    float by the 2-D and 3-D ones, except that the 2-D kernel's first axis rounds it to float
    once (as a fused multiply-add); the 1-D kernel then keeps the coordinate and the weights
    in the input's dtype, the others in float32."""
    dst = torch.arange(out_size, device=device, dtype=torch.float64)
    if mode == "nearest":
        # Paddle's nearest kernel multiplies in float32 (its ratio is a float)
        idx = torch.floor(dst.float() * as_scalar(ratio, torch.float32) + (0.5 if align_corners else 0.0))
        return torch.clamp(idx.long(), max=in_size - 1), None, None, None
    cdt = dtype if mode == "linear" else torch.float32
    if not align_corners and align_mode == 0:
        if mode == "linear" or (mode == "bilinear" and first):
            src = ratio * (dst + 0.5) - 0.5
        else:
            src = (dst.float() + 0.5) * ratio - 0.5
        i0 = torch.trunc(src).clamp(min=0)
        src = src.clamp(min=0).to(cdt)
    else:
        src = dst.float() * ratio
        i0 = torch.trunc(src)
        src = src.to(cdt)
    lam = src - i0.to(cdt)
    i0 = i0.long().clamp(max=in_size - 1)
    i1 = torch.clamp(i0 + 1, max=in_size - 1)
    return i0, i1, lam, 1 - lam


def _ratio(in_size, out_size, scale, align_corners, mode):
    """Paddle's ratio of input to output coordinates along one axis: a float32 value (its
    kernels hold it in a float; ``1 / scale`` is rounded from double)."""
    f32 = np.float32
    if out_size == 1 and mode == "bilinear":
        return 0.0  # Paddle's bilinear kernel reads a single output from the first input
    if align_corners:
        return float(f32(in_size - 1) / f32(out_size - 1)) if out_size > 1 else 0.0
    if scale is not None and scale > 0:
        return float(f32(1.0 / scale))
    return float(f32(in_size) / f32(out_size))


def _torch_kernel_agrees(x, sizes, scales, mode, align_corners, align_mode) -> bool:
    """Whether torch's resize kernel samples where Paddle's does on every axis.

    Both compute the source coordinate from the same float32 ratio, but torch's backward
    reads an unchanged size as an identity (and, for nearest, a doubled one as ``dst // 2``)
    whatever the scale factor says, where Paddle applies the ratio; Paddle's bilinear kernel
    reads a single output at ratio 0; torch has no ``align_mode=1``."""
    if not x.is_floating_point() or (mode != "nearest" and not align_corners and align_mode != 0):
        return False
    if x.dtype == torch.float64 and mode != "nearest":
        return False   # Paddle weighs float64 inputs with float32 coordinates; torch's in double
    for k, out in enumerate(sizes):
        if type(out) is not int or out <= 0 or (out == 1 and mode != "nearest"):
            return False
        n = x.shape[2 + k]
        ratio = as_scalar(_ratio(n, out, scales[k], align_corners, mode), torch.float32)
        if (out == n and ratio != 1) or (mode == "nearest" and out == 2 * n and ratio != 0.5):
            return False
    return True


def _resample(x, sizes, scales, mode, align_corners, align_mode):
    """Linear / nearest resampling over the trailing spatial dims (NC... layout): torch's
    kernel where it samples as Paddle's, else separable index_selects."""
    if list(sizes) == list(x.shape[2:]):
        return x.clone()   # Paddle's kernels copy the input when no size changes, whatever the scale
    if _torch_kernel_agrees(x, sizes, scales, mode, align_corners, align_mode):
        # the same sources, interpolated in Paddle's order: values within an ulp or two (and
        # bitwise for nearest, gradients included), in one pass each way
        given = all(s is not None for s in scales) and not align_corners
        out = F.interpolate(x, size=None if given else sizes, scale_factor=scales if given else None,
                            mode=mode, align_corners=None if mode == "nearest" else align_corners,
                            recompute_scale_factor=False if given else None)
        if list(out.shape[2:]) == list(sizes):
            return out
    out = x
    linear = mode != "nearest"
    nsp = len(sizes)
    for k in range(nsp):
        axis = 2 + k
        in_size = out.shape[axis]
        ratio = _ratio(in_size, sizes[k], scales[k], align_corners, mode)
        i0, i1, lam, rest = _src_index(sizes[k], in_size, ratio, align_corners, align_mode,
                                       out.device, mode, out.dtype, k == 0)
        a = out.index_select(axis, i0)
        if linear:
            b = out.index_select(axis, i1)
            shape = [1] * out.dim()
            shape[axis] = sizes[k]
            blend = a * rest.to(out.dtype).reshape(shape) + b * lam.to(out.dtype).reshape(shape)
            if mode == "linear" and sizes[k] == 1 and align_mode == 0 and not align_corners \
                    and blend.requires_grad:
                # Paddle's linear_interp forward samples a single output at the scaled
                # coordinate, but its backward takes a ratio of 0 there: the whole gradient
                # goes to the first input position
                first = out.narrow(axis, 0, 1)
                blend = first + (blend - first).detach()
            out = blend
        else:
            out = a
    return out


def _bicubic(x, sizes, scales, align_corners):
    """Bicubic resampling as Paddle's CPU kernel computes it: the source coordinate from the
    float32 ratio (a single output reads at ratio 0) in double, then held in the input's
    dtype; its tap the floor of that coordinate read as a float; the four cubic-convolution
    (A = -0.75) weights in the input's dtype. Applied per axis, the last one first; an
    unchanged size copies."""
    if list(sizes) == list(x.shape[2:]):
        return x.clone()
    a = -0.75
    for k in reversed(range(len(sizes))):
        axis, in_size, out_size = 2 + k, x.shape[2 + k], sizes[k]
        ratio = 0.0 if out_size <= 1 else _ratio(in_size, out_size, scales[k], align_corners, "")
        dst = torch.arange(out_size, device=x.device, dtype=torch.float64)
        src = (dst.float() * ratio).to(x.dtype) if align_corners else \
            (ratio * (dst + 0.5) - 0.5).to(x.dtype)
        base = torch.floor(src.float()).to(x.dtype)
        t = src - base
        u = 1 - t
        weights = (((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
                   ((a + 2) * t - (a + 3)) * t * t + 1,
                   ((a + 2) * u - (a + 3)) * u * u + 1,
                   ((a * (u + 1) - 5 * a) * (u + 1) + 8 * a) * (u + 1) - 4 * a)
        shape = [1] * x.dim()
        shape[axis] = out_size
        base = base.long()
        x = sum(x.index_select(axis, (base + j - 1).clamp(0, in_size - 1)) * w.reshape(shape)
                for j, w in enumerate(weights))
    return x


def _uint8_linear(x, sizes, scales, mode, align_corners, align_mode):
    """Linear / bilinear / trilinear resampling of a uint8 input (NC... layout) as Paddle's CPU
    kernels compute it: the sum over the 2**n corner taps of ``input * weight_0 * weight_1 ...``
    in float32, in the kernels' term order (bilinear: the row tap varies fastest; trilinear:
    the column tap), truncated back to uint8. The 1-D kernel holds its weights in the input's
    dtype, so a uint8 input reads its west tap whole. An unchanged size copies."""
    if list(sizes) == list(x.shape[2:]):
        return x.clone()
    taps = []
    for k, out_size in enumerate(sizes):
        n = x.shape[2 + k]
        ratio = _ratio(n, out_size, scales[k], align_corners, mode)
        i0, i1, lam, rest = _src_index(out_size, n, ratio, align_corners, align_mode, x.device,
                                       mode, torch.float32, k == 0)
        if mode == "linear":
            lam, rest = torch.zeros_like(lam), torch.ones_like(rest)
        taps.append((i0, i1, rest, lam))
    corners = list(itertools.product((0, 1), repeat=len(sizes)))
    if mode == "bilinear":
        corners = [c[::-1] for c in corners]
    src = x.float()
    out = None
    for corner in corners:
        term = src
        for k, side in enumerate(corner):
            term = term.index_select(2 + k, taps[k][side])
        for k, side in enumerate(corner):
            shape = [1] * x.dim()
            shape[2 + k] = sizes[k]
            term = term * taps[k][2 + side].reshape(shape)
        out = term if out is None else out + term
    return out.to(torch.uint8)


_AREA_CPU = frozenset({torch.float16, torch.float32, torch.float64})
# the integer dtypes Paddle's static interpolate records although its CPU kernel has none
_INTERP_STATIC_INTS = {"nearest": frozenset({torch.int8}),
                       "bilinear": frozenset({torch.int32, torch.int64}),
                       "area": frozenset({torch.uint8, torch.int8})}


@defop(amp="black", paddle_types=("bilinear_interp_v2", "nearest_interp_v2", "bicubic_interp_v2",
                     "linear_interp_v2", "trilinear_interp_v2", "pd_op.bilinear_interp",
                     "pd_op.nearest_interp", "pd_op.bicubic_interp", "pd_op.linear_interp",
                     "pd_op.trilinear_interp"), method=False)
def interpolate(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
                data_format=None, recompute_scale_factor=None, antialias=False, name=None):
    """Resize the spatial dims of a 3-D, 4-D or 5-D tensor.

    Args:
        x (Tensor): input, ``NCW``/``NCHW``/``NCDHW`` (or channel-last per ``data_format``).
        size (list|Tensor, optional): output spatial sizes.
        scale_factor (float|list, optional): multipliers of the input sizes (exactly one
            of ``size`` and ``scale_factor`` is given).
        mode (str): 'nearest' (4-D/5-D), 'linear' (3-D), 'bilinear' (4-D), 'trilinear'
            (5-D), 'bicubic' (4-D) or 'area'.
        align_corners (bool): align the corner pixels (linear modes and bicubic).
        align_mode (int): for linear modes without align_corners: 0 samples at
            ``(dst + 0.5) * ratio - 0.5``, 1 at ``dst * ratio``.
        data_format (str, optional): the layout; channel-first by default.
        recompute_scale_factor (bool, optional): compute the ratio from the sizes.
        antialias (bool): low-pass filter when downsampling ('bilinear' and 'bicubic' only).
        name (str, optional): unused.

    Returns:
        Tensor: the resized tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
        >>> paddle.nn.functional.interpolate(x, scale_factor=2, mode='nearest').shape
        paddle.Size([1, 1, 4, 4])
        >>> paddle.nn.functional.interpolate(x, size=[3, 3], mode='bilinear', align_corners=True).numpy()[0, 0, 1].tolist()
        [2.0, 2.5, 3.0]
    """
    if isinstance(align_mode, bool) or align_mode is None:
        # torch's positional form interpolate(input, size, scale_factor, mode, align_corners,
        # recompute_scale_factor, antialias), which Paddle also accepts
        recompute_scale_factor, align_mode = align_mode, 0
        if isinstance(data_format, bool):
            antialias, data_format = data_format, None
    mode = mode.lower() if isinstance(mode, str) else mode
    if mode not in _INTERP_MODES:
        raise ValueError("The 'resample' of image_resize can only be 'area', 'linear', 'bilinear', "
                         "'trilinear',  'bicubic' or 'nearest' currently.")
    nd = x.dim()
    if mode in _MODE_RANK and nd != _MODE_RANK[mode]:
        raise ValueError(f"'{mode}' only support {_MODE_RANK[mode]}-D tensor.")
    if mode == "nearest" and nd not in (4, 5):
        raise ValueError("'NEAREST' only support 4-D  or 5-D tensor.")
    if nd not in (3, 4, 5):
        raise ValueError(f"paddle.nn.functional.interpolate: the input must be 3-D, 4-D or 5-D, "
                         f"but received {nd}-D")
    if isinstance(size, np.ndarray):   # Paddle reads an array as a list of sizes
        size = size.reshape(-1).tolist()
    if isinstance(scale_factor, np.ndarray):   # a 0-D array is one factor for every axis
        if scale_factor.size != 1:
            raise ValueError("paddle.nn.functional.interpolate: a numpy 'scale_factor' must hold "
                             f"one value, but received {scale_factor.size}")
        if scale_factor.ndim:
            raise TypeError("paddle.nn.functional.interpolate: a numpy 'scale_factor' must be "
                            f"0-D, but received shape {list(scale_factor.shape)}")
        scale_factor = float(scale_factor)
    if size is None and scale_factor is None:
        raise ValueError("One of size and scale_factor must not be None.")
    if size is not None and scale_factor is not None:
        raise ValueError("Only one of size or scale_factor should be defined.")
    if isinstance(size, torch.Tensor) and size.dim() != 1:
        raise ValueError(f"paddle.nn.functional.interpolate: if size is a tensor, its rank must be "
                         f"1, but received {size.dim()}")
    if not isinstance(align_corners, bool):
        raise TypeError("paddle.nn.functional.interpolate: Attr align_corners should be a bool "
                        f"value, but received {align_corners!r}")
    if not isinstance(antialias, bool):
        raise TypeError("paddle.nn.functional.interpolate: Attr antialias should be a bool value, "
                        f"but received {antialias!r}")
    if align_mode not in (0, 1):
        raise ValueError("align_mode can only be 0 or 1")
    if align_corners and mode == "nearest":
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if antialias and mode not in ("bilinear", "bicubic"):
        raise ValueError("paddle.nn.functional.interpolate: Anti-alias option is only supported "
                         f"for bilinear and bicubic modes, but received mode='{mode}'")
    if mode == "area" and size is None:
        raise ValueError("paddle.nn.functional.interpolate: 'size' must be given in 'area' mode "
                         "(scale_factor is not supported there)")
    fmts = _INTERP_FORMATS[nd]
    if data_format is None:
        data_format = fmts[0]
    data_format = data_format.upper() if isinstance(data_format, str) else data_format
    if data_format not in fmts:
        raise ValueError(f"Got wrong value for param `data_format`: {data_format} received but only "
                         f"`{fmts[0]}` or `{fmts[1]}` supported for {nd}-D input.")
    # Paddle's area mode pools the axes after the first two whatever data_format says (its
    # adaptive average pooling is called without it)
    last = data_format == fmts[1] and mode != "area"
    if last:
        x = x.movedim(-1, 1)
    nsp = nd - 2
    in_sizes = list(x.shape[2:])
    if mode == "area":
        # as Paddle, area mode is adaptive average pooling to ``size``: an int, or None
        # entries that keep an input size, are accepted there
        from pagaie._ops.nn_pool import _adaptive_size
        if isinstance(size, (list, tuple)) and not size:
            raise ValueError("paddle.nn.functional.interpolate: output size can not be empty")
        sizes = _adaptive_size(size, x, nsp, "nn.functional.interpolate")
        scales = [None] * nsp
    elif size is not None:
        if recompute_scale_factor:  # (area mode, above, ignores it as Paddle does)
            raise ValueError("paddle.nn.functional.interpolate: recompute_scale_factor is not "
                             f"meaningful with an explicit size (received size={size!r})")
        if not isinstance(size, (list, tuple, torch.Tensor)):
            raise TypeError(f"paddle.nn.functional.interpolate: 'size' must be a list, tuple or "
                            f"Tensor, but received {type(size).__name__} {size!r}")
        sizes = int_list(size)
        if len(sizes) != nsp:
            raise ValueError("The x and size should satisfy rank(x) - 2 == len(size).")
        if not (isinstance(size, torch.Tensor) and size.is_meta) and min(sizes) <= 0:
            raise AssertionError("paddle.nn.functional.interpolate: each dimension size given in "
                                 f"'size' must be greater than 0, but received {sizes}")
        scales = [None] * nsp
    else:
        sf = scale_factor
        if isinstance(sf, torch.Tensor):  # a 0-D tensor is one factor for every axis
            sf = sf.item() if sf.dim() == 0 else sf.reshape(-1).tolist()
        if not isinstance(sf, (int, float, list, tuple)) or isinstance(sf, bool):
            raise TypeError(f"paddle.nn.functional.interpolate: 'scale_factor' must be a float, int, "
                            f"list, tuple or Tensor, but received {type(sf).__name__} {sf!r}")
        if isinstance(sf, (list, tuple)) and any(isinstance(s, str) for s in sf):
            # Paddle compares each factor with 0: a string there is its TypeError
            raise TypeError(f"paddle.nn.functional.interpolate: 'scale_factor' must hold numbers, "
                            f"but received {sf!r}")
        scales = [float(s) for s in sf] if isinstance(sf, (list, tuple)) else [float(sf)] * nsp
        if len(scales) != nsp:
            raise ValueError("The x and scale_factor should satisfy rank(x) - 2 == len(scale_factor).")
        if any(s <= 0 for s in scales):
            raise ValueError("Attr(scale) should be greater than zero.")
        sizes = [int(i * s) for i, s in zip(in_sizes, scales)]
        if recompute_scale_factor:
            scales = [None] * nsp
    uint8_linear = mode in ("linear", "bilinear", "trilinear") and x.dtype == torch.uint8
    if not x.is_floating_point() and not uint8_linear:
        # Paddle's CPU kernels: nearest takes integers, the linear modes uint8 (computed in
        # float, truncated back), bicubic and area floats only; the rest is NotFound
        if x.device.type == "meta" and x.dtype in _INTERP_STATIC_INTS.get(mode, ()):
            pass   # Paddle's static check lets these build; its CPU kernel fails when run
        elif mode != "nearest" or x.dtype not in (torch.uint8, torch.int32, torch.int64):
            raise NoKernelError(f"paddle.nn.functional.interpolate: mode '{mode}' has no kernel for "
                                f"dtype {str(x.dtype).replace('torch.', '')}")
    if mode == "area" and x.dtype is torch.bfloat16:
        # its adaptive average pool: no bfloat16 CPU kernel (a program builds, as in Paddle)
        kernel_dtypes("nn.functional.interpolate", x, _AREA_CPU, static=_AREA_CPU | {torch.bfloat16})
    if min(sizes, default=1) <= 0 and mode != "area":   # (after the kernel lookup, as Paddle)
        raise ValueError(f"paddle.nn.functional.interpolate: the output sizes {sizes} must be "
                         f"greater than 0 (input spatial sizes {in_sizes})")
    if uint8_linear:
        out = _uint8_linear(x, sizes, scales, mode, bool(align_corners), align_mode)
        return out.movedim(1, -1) if last else out
    if x.numel() == 0 and not last and (mode == "area" or (x.shape[1] == 0 and min(in_sizes) > 0)):
        # Paddle returns the empty result when there are no channels, and area mode (an
        # adaptive average pool) averages empty spatial axes into NaN; torch's kernels refuse
        # both. The zero sum keeps the result in the graph (its gradient is zeros).
        fill = float("nan") if x.shape[0] * x.shape[1] else 0
        out = torch.full(list(x.shape[:2]) + list(sizes), fill, dtype=x.dtype, device=x.device)
        return out + (x.sum() * 0).to(x.dtype)
    half = x.dtype if x.dtype in (torch.float16, torch.bfloat16) and mode != "nearest" else None
    if half is not None:   # Paddle's kernels compute half types in float32
        x = x.float()
    if antialias:
        given = all(s is not None for s in scales)
        out = F.interpolate(x, size=None if given else sizes, scale_factor=scales if given else None,
                            mode=mode, align_corners=align_corners, antialias=True)
    elif mode == "area":
        pool = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}[nsp]
        out = pool(x, sizes)
    elif mode == "bicubic":
        # (torch's kernel rounds the coordinates differently: a few ulps apart)
        out = _bicubic(x, sizes, scales, bool(align_corners))
    else:
        out = _resample(x, sizes, scales, mode, bool(align_corners), align_mode)
    if half is not None:
        out = out.to(half)
    return out.movedim(1, -1) if last else out


@defop(paddle_types=("upsample",), method=False)
def upsample(x, size=None, scale_factor=None, mode="nearest", align_corners=False, align_mode=0,
             data_format=None, name=None):
    """Same as :func:`interpolate`.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.upsample(paddle.ones([1, 1, 2]), size=[4], mode='linear').shape
        paddle.Size([1, 1, 4])
    """
    return interpolate.op_record.kernel(x, size, scale_factor, mode, align_corners, align_mode,
                                        data_format)




def _check_real_float(x, api):
    """Paddle's CPU kernels of the shuffles are float32/float64 only (its GPU ones also take
    float16/bfloat16): another dtype is its NotFound, a TypeError while a program is built."""
    if x.dtype not in F32_F64:
        float_kernel(f"paddle.nn.functional.{api}", x)
        kernel_dtypes(f"nn.functional.{api}", x, F32_F64)


def _int_factor(v, api, arg):
    """Paddle's Python check of a shuffle's factor: an int (a bool passes here)."""
    if not isinstance(v, int):
        raise TypeError(f"paddle.nn.functional.{api}: {arg} must be an int, but received {v!r}")


def _bool_factor(v, api, arg):
    """A bool factor: the TypeError of Paddle's argument parser, after its Python checks."""
    if isinstance(v, bool):
        raise TypeError(f"paddle.nn.functional.{api}: {arg} must be an int, but received bool {v!r}")


def _check_fmt(data_format, api):
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"paddle.nn.functional.{api}: Attr(data_format) should be 'NCHW' or 'NHWC'. "
                         f"But received Attr(data_format): {data_format} ")
    return data_format == "NHWC"


@defop(paddle_types=("pixel_shuffle", "pd_op.pixel_shuffle"), method=False)
def pixel_shuffle(x, upscale_factor, data_format="NCHW", name=None):
    """Rearrange ``[N, C*r*r, H, W]`` into ``[N, C, H*r, W*r]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.pixel_shuffle(paddle.ones([1, 4, 2, 2]), 2).shape
        paddle.Size([1, 1, 4, 4])
    """
    # Paddle's order: a non-int factor, data_format, a bool factor (its argument parser), the
    # dtype (kernel), then the shapes (its shape inference)
    _int_factor(upscale_factor, "pixel_shuffle", "upscale_factor")
    last = _check_fmt(data_format, "pixel_shuffle")
    _bool_factor(upscale_factor, "pixel_shuffle", "upscale_factor")
    _check_real_float(x, "pixel_shuffle")
    if x.dim() != 4:
        raise ValueError(f"paddle.nn.functional.pixel_shuffle: the input must be 4-D, but received {x.dim()}-D")
    if upscale_factor <= 0:
        raise ValueError("paddle.nn.functional.pixel_shuffle: upscale_factor must be positive, but "
                         f"received {upscale_factor}")
    if last:
        x = x.movedim(-1, 1)
    c = x.shape[1]
    if c % (upscale_factor * upscale_factor) != 0:
        raise ValueError(f"paddle.nn.functional.pixel_shuffle: The square of upscale_factor[{upscale_factor}] "
                         f"should divide the number of channel[{c}]")
    if x.numel():
        out = F.pixel_shuffle(x, upscale_factor)
    else:   # spelled out: torch's backward of an empty input gives the wrong shape
        n, _, h, w = x.shape
        r = upscale_factor
        out = x.reshape(n, c // (r * r), r, r, h, w).permute(0, 1, 4, 2, 5, 3)
        out = out.reshape(n, c // (r * r), h * r, w * r)
    return out.movedim(1, -1) if last else out


@defop(paddle_types=("pixel_unshuffle", "pd_op.pixel_unshuffle"), method=False)
def pixel_unshuffle(x, downscale_factor, data_format="NCHW", name=None):
    """Rearrange ``[N, C, H*r, W*r]`` into ``[N, C*r*r, H, W]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.pixel_unshuffle(paddle.ones([1, 1, 4, 4]), 2).shape
        paddle.Size([1, 4, 2, 2])
    """
    # Paddle's order: the rank, a non-int factor, its sign, data_format, a bool factor (its
    # argument parser), the dtype (kernel), then divisibility (its shape inference)
    if x.dim() != 4:
        raise ValueError(f"paddle.nn.functional.pixel_unshuffle: the input must be 4-D, but received {x.dim()}-D")
    _int_factor(downscale_factor, "pixel_unshuffle", "downscale_factor")
    if downscale_factor <= 0:
        raise ValueError("paddle.nn.functional.pixel_unshuffle: downscale_factor must be positive, "
                         f"but received {downscale_factor}")
    last = _check_fmt(data_format, "pixel_unshuffle")
    _bool_factor(downscale_factor, "pixel_unshuffle", "downscale_factor")
    _check_real_float(x, "pixel_unshuffle")
    if last:
        x = x.movedim(-1, 1)
    if x.shape[2] % downscale_factor or x.shape[3] % downscale_factor:
        raise ValueError("paddle.nn.functional.pixel_unshuffle: the height and width must be divisible "
                         f"by downscale_factor ({downscale_factor}), but received {list(x.shape[2:])}")
    n, c, h, w = x.shape
    r = downscale_factor
    # spelled out: F.pixel_unshuffle returns an empty batch unchanged
    out = x.reshape(n, c, h // r, r, w // r, r).permute(0, 1, 3, 5, 2, 4)
    out = out.reshape(n, c * r * r, h // r, w // r)
    return out.movedim(1, -1) if last else out


@defop(paddle_types=("channel_shuffle", "pd_op.channel_shuffle"), method=False)
def channel_shuffle(x, groups, data_format="NCHW", name=None):
    """Split channels into ``groups`` and interleave them (ShuffleNet).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[[0.0]], [[1.0]], [[2.0]], [[3.0]], [[4.0]], [[5.0]]]])
        >>> paddle.nn.functional.channel_shuffle(x, 3).numpy().ravel().tolist()
        [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]
    """
    if x.dim() != 4:
        raise ValueError(f"paddle.nn.functional.channel_shuffle: the input must be 4-D, but received {x.dim()}-D")
    # Paddle's order: the rank, a non-int groups, data_format, its sign, a bool groups (its
    # argument parser), the dtype (kernel), then divisibility (its shape inference)
    _int_factor(groups, "channel_shuffle", "groups")
    last = _check_fmt(data_format, "channel_shuffle")
    if groups <= 0:
        raise ValueError(f"paddle.nn.functional.channel_shuffle: groups must be positive, but "
                         f"received {groups}")
    _bool_factor(groups, "channel_shuffle", "groups")
    _check_real_float(x, "channel_shuffle")
    if last:
        x = x.movedim(-1, 1)
    n, c, h, w = x.shape
    if c % groups != 0:
        raise ValueError(f"paddle.nn.functional.channel_shuffle: The number of groups to divide channels "
                         f"in [{groups}] should divide the number of channel [{c}]")
    out = x.reshape(n, groups, c // groups, h, w).transpose(1, 2).reshape(n, c, h, w)
    return out.movedim(1, -1) if last else out


def _int_items(v, api, arg):
    """The ints of a list/tuple argument; a float, bool or numpy-array item is the TypeError
    of Paddle's argument parser (its attribute is a list of int)."""
    for e in v:
        if isinstance(e, (float, np.floating, bool, np.bool_, np.ndarray)):
            raise TypeError(f"paddle.nn.functional.{api}: '{arg}' must be a list of int, but "
                            f"received {list(v)} (a {type(e).__name__} item)")
    return int_list(v)


def _pair(v, api, arg, error=ValueError):
    """An int or two ints as a list of two; ``error`` (Paddle's type for this API) otherwise.
    ``error=None`` stands for Paddle's NotSupportedTensorArgumentError (a TypeError)."""
    if isinstance(v, int):
        return [v, v]
    if not isinstance(v, (list, tuple)) or len(v) != 2:
        seen = f"a Tensor of shape {list(v.shape)}" if isinstance(v, torch.Tensor) else repr(v)
        msg = (f"paddle.nn.functional.{api}: '{arg}' must be an int or a list/tuple of 2 ints, "
               f"but received {seen}")
        if error is None:
            from pagaie.utils.layers_utils import NotSupportedTensorArgumentError
            raise NotSupportedTensorArgumentError(msg, arg)
        raise error(msg)
    return _int_items(v, api, arg)


def _paddings4(p, api):
    p = _int_items(p if isinstance(p, (list, tuple)) else [p], api, "paddings")
    if len(p) == 1:
        return p * 4
    if len(p) == 2:
        return [p[0], p[1], p[0], p[1]]
    if len(p) == 4:
        return p
    raise ValueError(f"paddle.nn.functional.{api}: paddings must be an int, 2 or 4 ints, but received {p}")


@defop(paddle_types=("unfold", "pd_op.unfold"), method=False)
def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """Extract sliding blocks (im2col): ``[N, C, H, W]`` to ``[N, C*kh*kw, L]``.

    Args:
        x (Tensor): 4-D input.
        kernel_sizes (int|list): block size.
        strides, dilations (int|list): per spatial dim.
        paddings (int|list): an int, ``[ph, pw]`` or ``[top, left, bottom, right]``.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.unfold(paddle.ones([1, 2, 4, 4]), [2, 2]).shape
        paddle.Size([1, 8, 9])
    """
    if x.dim() != 4:
        raise AssertionError(f"paddle.nn.functional.unfold: The dimension of input x should be 4, but "
                         f"received {x.dim()}")
    k = _pair(kernel_sizes, "unfold", "kernel_sizes", None)
    s = _pair(strides, "unfold", "strides", None)
    d = _pair(dilations, "unfold", "dilations", None)
    if not isinstance(paddings, (int, list, tuple)):
        from pagaie.utils.layers_utils import NotSupportedTensorArgumentError
        raise NotSupportedTensorArgumentError(
            "paddle.nn.functional.unfold: 'paddings' must be an int or a list/tuple of 2 or 4 "
            f"ints, but received {type(paddings).__name__}", "paddings")
    top, left, bottom, right = _paddings4(paddings, "unfold")
    # Paddle's CPU kernel is float32/float64 only (its kernel lookup precedes the shape checks)
    kernel_dtypes("nn.functional.unfold", x, F32_F64)
    if top != bottom or left != right or min(top, left) < 0:
        # uneven paddings pad the input first; negative ones crop it, as in Paddle
        x = _crop_pad(x, [left, right, top, bottom], 0.0)
        top = left = 0
    return F.unfold(x, k, dilation=d, padding=[top, left], stride=s)


# Paddle's fold kernels and its static API's check take no float16/bfloat16, bool or integer
_FOLD_DTYPES = frozenset({torch.float32, torch.float64, torch.complex64, torch.complex128})


@defop(program_dtypes={"x": _FOLD_DTYPES}, paddle_types=("fold", "pd_op.fold"), method=False)
def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """Combine sliding blocks into a tensor (col2im): ``[N, C*kh*kw, L]`` to
    ``[N, C, H, W]``, summing overlaps. ``paddings`` is an int, ``[ph, pw]`` or
    ``[top, left, bottom, right]``; as in Paddle the blocks are placed with ``top`` and
    ``left`` on both sides, and four paddings must give the same block counts as that.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.fold(paddle.ones([1, 8, 9]), [4, 4], 2).shape
        paddle.Size([1, 2, 4, 4])
    """
    if x.dim() != 3:   # Paddle asserts the shapes and sizes here
        raise AssertionError(f"paddle.nn.functional.fold: The dimension of input x should be 3 "
                             f"([N, C, L]), but received {x.dim()}")
    o = _pair(output_sizes, "fold", "output_sizes", AssertionError)
    k = _pair(kernel_sizes, "fold", "kernel_sizes", AssertionError)
    s = _pair(strides, "fold", "strides", AssertionError)
    d = _pair(dilations, "fold", "dilations", AssertionError)
    if not isinstance(paddings, (int, list, tuple)):
        raise ValueError(f"paddle.nn.functional.fold: 'paddings' must be an int or a list of 2 or "
                         f"4 ints, but received {type(paddings).__name__}")
    top, left, bottom, right = _paddings4(paddings, "fold")
    kernel_dtypes("nn.functional.fold", x, _FOLD_DTYPES)   # before the kernel's shape checks
    if min(k + s + d) > 0:
        blocks, spans = [], []
        for axis, size, lo, hi in ((0, o[0], top, bottom), (1, o[1], left, right)):
            # Paddle divides as C does (toward zero): a window larger than the padded output
            # still makes one block, its part past the end dropped
            spans.append(d[axis] * (k[axis] - 1) + 1)
            blocks.append(int((size + 2 * lo - spans[-1]) / s[axis]) + 1)
            if int((size + lo + hi - spans[-1]) / s[axis]) + 1 != blocks[-1]:
                raise ValueError(f"paddle.nn.functional.fold: the paddings {[top, left, bottom, right]} "
                                 f"give another number of blocks along output dim {axis} (size {size}) "
                                 f"than padding {lo} on both sides")
        if blocks[0] * blocks[1] != x.shape[2]:
            raise ValueError(f"paddle.nn.functional.fold: output_sizes {o}, kernel_sizes {k}, strides "
                             f"{s}, paddings {[top, left, bottom, right]} and dilations {d} make "
                             f"{blocks[0]} * {blocks[1]} blocks, but the input holds {x.shape[2]} "
                             f"(its dimension 2)")
        if any(size + 2 * lo < span for size, lo, span in zip(o, (top, left), spans)):
            # torch would count no block there: fold onto a canvas the blocks fill, then
            # keep the output's part of it (block i starts at i * stride - top / left)
            canvas = [(b - 1) * st + span for b, st, span in zip(blocks, s, spans)]
            out = F.fold(x, canvas, k, dilation=d, stride=s)
            return _crop_pad(out, [-left, o[1] + left - canvas[1], -top, o[0] + top - canvas[0]], 0.0)
    return F.fold(x, o, k, dilation=d, padding=[top, left], stride=s)
