"""The kernels of ``paddle.vision.transforms.functional_tensor``, written over torch tensors.

Images are CHW (or NCHW) tensors. Every function takes and returns ``torch.Tensor``; the
public ``functional_tensor`` runs them through one op record, which unwraps and wraps pagaie
Tensors, so autograd flows through these functions as through any op.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import torch
import torch.nn.functional as tF

from pagaie._core.dtype import default_float
from pagaie._core.registry import NoKernelError
from pagaie._ops._helpers import check_binary_dtypes, dtype_name, kernel_dtypes
from pagaie._ops.manipulation import flip
from pagaie._ops.nn_resample import interpolate
from pagaie._ops.nn_resample import pad as pad_op
from pagaie.vision.transforms.functional_cv2 import center_box, check_pad_args, output_size_for, parse_padding

__all__: list[str] = []


def check_image(img: torch.Tensor, data_format: str = "CHW") -> None:
    if img.ndim < 3 or img.ndim > 4 or data_format.lower() not in ("chw", "hwc"):
        raise RuntimeError(f"paddle.vision.transforms: not support [type=<class 'paddle.Tensor'>, ndim={img.ndim}, "
                           f"data_format={data_format}] paddle image")


def _channels(img: torch.Tensor) -> int:
    return img.shape[-3]


def normalize(img: torch.Tensor, mean: Any, std: Any, data_format: str = "CHW") -> torch.Tensor:
    check_image(img, data_format)
    mean_t, std_t = _as_stat(mean, img.device), _as_stat(std, img.device)
    if data_format.lower() == "chw":
        mean_t, std_t = mean_t.reshape(-1, 1, 1), std_t.reshape(-1, 1, 1)
    # Paddle subtracts, then divides, tensors: an integer mean or std (or a uint8 image) meets
    # its promotion rule, each step checked (dtypes, then shapes) before the next one runs.
    check_binary_dtypes("vision.transforms.normalize", img, mean_t, scalar_0d=True)
    centred = img - mean_t
    check_binary_dtypes("vision.transforms.normalize", centred, std_t, scalar_0d=True)
    return centred / std_t


def _as_stat(v: Any, device: torch.device) -> torch.Tensor:
    """``mean``/``std`` as ``paddle.to_tensor`` makes them: numpy arrays keep their dtype,
    Python floats take the default float dtype, Python ints become int64."""
    v = getattr(v, "_t", v)  # a pagaie Tensor
    if isinstance(v, torch.Tensor):
        return v.to(device)
    a = np.asarray(v)
    dtype = default_float() if not isinstance(v, np.ndarray) and a.dtype.kind == "f" else None
    return torch.as_tensor(a, dtype=dtype, device=device)


# Paddle's CPU kernels behind the Tensor colour transforms (another dtype is its NotFound):
# the grayscale product, the blend (lerp) and the hue's channel maximum.
_MULTIPLY_CPU = frozenset({torch.bool, torch.int32, torch.int64, torch.bfloat16, torch.float32, torch.float64,
                           torch.complex64, torch.complex128})
# (a program with a uint8 or int8 product builds; its kernel fails when the program runs)
_MULTIPLY_STATIC = _MULTIPLY_CPU | {torch.uint8, torch.int8}
_F32_F64 = frozenset({torch.float32, torch.float64})
_MAX_CPU = frozenset({torch.int32, torch.int64, torch.float32, torch.float64})


def _no_kernel(api: str, step: str, dtype: torch.dtype, allowed: frozenset) -> NoKernelError:
    names = ", ".join(sorted(str(d).replace("torch.", "") for d in allowed))
    return NoKernelError(f"paddle.vision.transforms.{api}: {step} of a {str(dtype).replace('torch.', '')} "
                         f"image has no kernel (Paddle's takes {names})")


def to_grayscale(img: torch.Tensor, num_output_channels: int = 1, data_format: str = "CHW",
                 api: str = "to_grayscale") -> torch.Tensor:
    check_image(img, data_format)
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    kernel_dtypes(f"vision.transforms.{api}", img, _MULTIPLY_CPU, arg="img", static=_MULTIPLY_STATIC)
    # Paddle casts the luma weights to the image dtype (integer images get zero weights).
    w = torch.tensor([0.2989, 0.587, 0.114], device=img.device).to(img.dtype)
    axis = -3 if data_format.lower() == "chw" else -1
    if axis == -3:
        w = w.reshape(-1, 1, 1)
    # the sum widens int32 and bool to int64, as Paddle's
    gray = (img * w).sum(dim=axis, keepdim=True)
    shape = list(gray.shape)
    shape[axis] = num_output_channels
    return gray.expand(shape)


def _blend(img: torch.Tensor, target: torch.Tensor, ratio: float, api: str) -> torch.Tensor:
    """``lerp(target, img, ratio)`` clipped to the image's range, in the image's dtype. Paddle's
    lerp kernel is looked up by the target's dtype, then wants the image in the same one."""
    if target.dtype not in _F32_F64:
        raise _no_kernel(api, "the blend (lerp)", target.dtype, _F32_F64)
    if target.dtype != img.dtype:
        raise ValueError(f"paddle.vision.transforms.{api}: the image ({dtype_name(img)}) "
                         f"is blended with a {dtype_name(target)} target, but both "
                         f"should have one dtype")
    top = 1.0 if img.is_floating_point() else 255.0
    out = target + float(ratio) * (img - target)
    return out.clip(0, top).to(img.dtype)


def adjust_brightness(img: torch.Tensor, brightness_factor: float) -> torch.Tensor:
    check_image(img)
    assert brightness_factor >= 0, "brightness_factor should be non-negative."
    assert _channels(img) in (1, 3), "channels of input should be either 1 or 3."
    return _blend(img, torch.zeros_like(img), brightness_factor, "adjust_brightness")


def adjust_contrast(img: torch.Tensor, contrast_factor: float) -> torch.Tensor:
    check_image(img)
    assert contrast_factor >= 0, "contrast_factor should be non-negative."
    c = _channels(img)
    dtype = img.dtype if img.is_floating_point() else torch.float32
    if c == 1:
        src = img
    elif c == 3:
        src = to_grayscale(img, api="adjust_contrast")
    else:
        raise ValueError("channels of input should be either 1 or 3.")
    target = src.to(dtype).mean(dim=(-3, -2, -1), keepdim=True)
    return _blend(img, target, contrast_factor, "adjust_contrast")


def adjust_saturation(img: torch.Tensor, saturation_factor: float) -> torch.Tensor:
    check_image(img)
    assert saturation_factor >= 0, "saturation_factor should be non-negative."
    c = _channels(img)
    if c == 1:
        return img
    if c != 3:
        raise ValueError("channels of input should be either 1 or 3.")
    return _blend(img, to_grayscale(img, api="adjust_saturation"), saturation_factor, "adjust_saturation")


def _rgb_to_hsv(img: torch.Tensor) -> torch.Tensor:
    maxc = img.amax(dim=-3)
    minc = img.amin(dim=-3)
    flat = maxc == minc
    delta = maxc - minc
    ones = torch.ones_like(maxc)
    s = delta / torch.where(flat, ones, maxc)
    r, g, b = img.unbind(dim=-3)
    d = torch.where(flat, ones, delta)
    rc, gc, bc = (maxc - r) / d, (maxc - g) / d, (maxc - b) / d
    is_r = maxc == r
    is_g = (maxc == g) & ~is_r
    is_b = ~is_r & (maxc != g)
    h = (is_r.to(img.dtype) * (bc - gc) + is_g.to(img.dtype) * (rc - bc + 2.0)
         + is_b.to(img.dtype) * (gc - rc + 4.0)) / 6.0 + 1.0
    h = h - h.trunc()
    return torch.stack([h, s, maxc], dim=-3)


def _hsv_to_rgb(img: torch.Tensor) -> torch.Tensor:
    h, s, v = img.unbind(dim=-3)
    f = h * 6.0
    i = torch.floor(f)
    f = f - i
    sector = i.to(torch.int32) % 6
    p = (v * (1.0 - s)).clip(0.0, 1.0)
    q = (v * (1.0 - s * f)).clip(0.0, 1.0)
    t = (v * (1.0 - s * (1.0 - f))).clip(0.0, 1.0)
    # One (r, g, b) choice per hue sector 0..5.
    table = [torch.stack(c, dim=0) for c in ((v, q, p, p, t, v), (t, v, v, q, p, p), (p, p, t, v, v, q))]
    idx = sector.long().unsqueeze(0)
    return torch.stack([tbl.gather(0, idx).squeeze(0) for tbl in table], dim=-3)


def adjust_hue(img: torch.Tensor, hue_factor: float) -> torch.Tensor:
    check_image(img)
    assert -0.5 <= hue_factor <= 0.5, "hue_factor should be in range [-0.5, 0.5]"
    c = _channels(img)
    if c == 1:
        return img
    if c != 3:
        raise ValueError("channels of input should be either 1 or 3.")
    dtype = img.dtype
    x = img.to(torch.float32) / 255.0 if dtype == torch.uint8 else img
    if x.dtype not in _MAX_CPU:
        raise _no_kernel("adjust_hue", "the channel maximum", x.dtype, _MAX_CPU)
    if not x.is_floating_point():
        # Paddle's hue arithmetic turns the channel differences into float32 and then meets an
        # integer mask of the image dtype: its type promotion error
        raise TypeError(f"paddle.vision.transforms.adjust_hue: a {dtype_name(img)} image "
                        f"cannot be converted to HSV (only uint8 and floating images can); cast it first")
    h, s, v = _rgb_to_hsv(x).unbind(dim=-3)
    h = h + hue_factor
    h = h - h.floor()
    out = _hsv_to_rgb(torch.stack([h, s, v], dim=-3))
    return (out * 255.0).to(dtype) if dtype == torch.uint8 else out


def _to_batch(img: torch.Tensor, chw: bool, batched: bool = False) -> torch.Tensor:
    """``img`` as an NCHW batch; a single image (``batched`` False) gets a leading axis."""
    x = img if batched else img.unsqueeze(0)
    return x if chw else x.permute(0, 3, 1, 2)


def _from_batch(out: torch.Tensor, chw: bool, batched: bool = False) -> torch.Tensor:
    """The inverse of :func:`_to_batch`: back to the input's layout and rank."""
    out = out if chw else out.permute(0, 2, 3, 1)
    return out if batched else out.squeeze(0)


def _affine_grid(theta: torch.Tensor, w: int, h: int, ow: int, oh: int) -> torch.Tensor:
    """Sampling grid (normalised coordinates) for an inverse affine ``theta`` [1, 2, 3]."""
    xs = torch.linspace(-ow * 0.5 + 0.5, ow * 0.5 - 0.5, ow, dtype=theta.dtype, device=theta.device)
    ys = torch.linspace(-oh * 0.5 + 0.5, oh * 0.5 - 0.5, oh, dtype=theta.dtype, device=theta.device)
    base = torch.ones(1, oh, ow, 3, dtype=theta.dtype, device=theta.device)
    base[..., 0] = xs
    base[..., 1] = ys.unsqueeze(-1)
    scale = torch.tensor([0.5 * w, 0.5 * h], dtype=theta.dtype, device=theta.device)
    grid = base.reshape(1, oh * ow, 3).bmm(theta.transpose(1, 2) / scale)
    return grid.reshape(1, oh, ow, 2)


def _grid_transform(img: torch.Tensor, grid: torch.Tensor, mode: str, fill: Any, api: str) -> torch.Tensor:
    """Sample NCHW ``img`` at ``grid``; outside points get ``fill`` (None: zeros). Paddle's
    grid_sample CPU kernel takes float32 and float64 only."""
    if img.dtype not in _F32_F64:
        raise _no_kernel(api, "the grid sampling", img.dtype, _F32_F64)
    n = img.shape[0]
    if n > 1:
        grid = grid.expand(n, *grid.shape[1:])
    grid = grid.to(img.dtype)
    if img.shape[-2] * img.shape[-1] == 0:  # an empty image: nothing to sample (Paddle returns it empty)
        return img.new_zeros(n, img.shape[1], grid.shape[1], grid.shape[2])
    if fill is not None:
        img = torch.cat([img, torch.ones_like(img[:, :1])], dim=1)
    out = tF.grid_sample(img, grid, mode=mode, padding_mode="zeros", align_corners=False)
    if fill is None:
        return out
    out, mask = out[:, :-1], out[:, -1:].expand(-1, out.shape[1] - 1, -1, -1)
    k = len(fill) if isinstance(fill, (tuple, list)) else 1
    if k not in (1, out.shape[1]):
        raise ValueError(f"paddle.vision.transforms.{api}: fill should be one value or one per "
                         f"channel ({out.shape[1]}), but received {fill!r}")
    fill_img = torch.as_tensor(fill, device=out.device).reshape(1, k, 1, 1).to(out.dtype).expand_as(out)
    if mode == "nearest":
        outside = (mask < 0.5).to(out.dtype)
        return out * (1.0 - outside) + outside * fill_img
    return out * mask + (1.0 - mask) * fill_img


def _check_warp(img: torch.Tensor, interpolation: str, api: str) -> None:
    """Paddle's checks before a grid-sampled warp: an image of rank 3 or 4 (IndexError, as
    Paddle's layout lookup fails on a 2-D one) and grid_sample's two modes (a string, else
    TypeError; 'nearest' or 'bilinear', else ValueError)."""
    if img.ndim < 3:
        raise IndexError(f"paddle.vision.transforms.{api}: img should be a CHW or NCHW Tensor, "
                         f"got shape {list(img.shape)}")
    if not isinstance(interpolation, str):
        raise TypeError(f"paddle.vision.transforms.{api}: interpolation should be a str, got "
                        f"{type(interpolation).__name__} {interpolation!r}")
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError(f"paddle.vision.transforms.{api}: interpolation of a Tensor image should be "
                         f"'nearest' or 'bilinear', got {interpolation!r}")


def affine(img: torch.Tensor, matrix: Sequence[float], interpolation: str = "nearest",
           fill: Any = None, data_format: str = "CHW") -> torch.Tensor:
    _check_warp(img, interpolation, "affine")
    batched, chw = img.ndim == 4, data_format.lower() == "chw"
    x = _to_batch(img, chw, batched)
    theta = torch.tensor(matrix, dtype=torch.float32, device=img.device).reshape(1, 2, 3)
    h, w = x.shape[-2], x.shape[-1]
    grid = _affine_grid(theta, w, h, w, h)
    if isinstance(fill, int):
        fill = (fill, fill, fill)
    return _from_batch(_grid_transform(x, grid, interpolation, fill, "affine"), chw, batched)


def rotate(img: torch.Tensor, angle: float, interpolation: str = "nearest", expand: bool = False,
           center: Any = None, fill: Any = None, data_format: str = "CHW") -> torch.Tensor:
    _check_warp(img, interpolation, "rotate")
    # A 4-D batch is rotated image by image, as affine and perspective do (Paddle's own
    # rotate fails on one with a concat shape error).
    batched, chw = img.ndim == 4, data_format.lower() == "chw"
    w, h = (img.shape[-1], img.shape[-2]) if chw else (img.shape[-2], img.shape[-3])
    x = _to_batch(img, chw, batched)
    cx, cy = (0.0, 0.0) if center is None else (center[0] - w * 0.5, center[1] - h * 0.5)
    rad = math.radians(-angle % 360)
    # float32 arithmetic, as Paddle builds this matrix as a float32 tensor.
    m = torch.tensor([math.cos(rad), math.sin(rad), 0.0, -math.sin(rad), math.cos(rad), 0.0],
                     device=img.device)
    m[2] = m[2] + m[0] * (-cx) + m[1] * (-cy) + cx
    m[5] = m[5] + m[3] * (-cx) + m[4] * (-cy) + cy
    m = m.reshape(1, 2, 3)
    ow, oh = w, h
    if expand:
        corners = torch.tensor([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0],
                                [0.5 * w, 0.5 * h, 1.0], [0.5 * w, -0.5 * h, 1.0]], device=img.device)
        pos = corners.unsqueeze(0).bmm(m.transpose(1, 2)).reshape(-1, 2)
        size = pos.amax(dim=0).ceil() - pos.amin(dim=0).floor()
        ow, oh = int(size[0]), int(size[1])
    grid = _affine_grid(m, w, h, ow, oh)
    return _from_batch(_grid_transform(x, grid, interpolation, fill, "rotate"), chw, batched)


def perspective(img: torch.Tensor, coeffs: Sequence[float], interpolation: str = "nearest",
                fill: Any = None, data_format: str = "CHW") -> torch.Tensor:
    _check_warp(img, interpolation, "perspective")
    batched, chw = img.ndim == 4, data_format.lower() == "chw"
    x = _to_batch(img, chw, batched)
    oh, ow = x.shape[-2], x.shape[-1]
    dtype = img.dtype if img.is_floating_point() else torch.float32
    c = torch.tensor([float(v) for v in coeffs], dtype=torch.float64, device=img.device).to(dtype)
    theta1 = c[:6].reshape(1, 2, 3)
    theta2 = torch.cat([c[6:].reshape(1, 2).repeat(2, 1), torch.ones(2, 1, dtype=dtype, device=img.device)],
                       dim=1).unsqueeze(0)
    base = torch.ones(1, oh, ow, 3, dtype=dtype, device=img.device)
    base[..., 0] = torch.linspace(0.5, ow - 0.5, ow, dtype=dtype, device=img.device)
    base[..., 1] = torch.linspace(0.5, oh - 0.5, oh, dtype=dtype, device=img.device).unsqueeze(-1)
    flat = base.reshape(1, oh * ow, 3)
    scale = torch.tensor([0.5 * ow, 0.5 * oh], dtype=dtype, device=img.device)
    grid = flat.bmm(theta1.transpose(1, 2) / scale) / flat.bmm(theta2.transpose(1, 2)) - 1.0
    return _from_batch(_grid_transform(x, grid.reshape(1, oh, ow, 2), interpolation, fill, "perspective"), chw, batched)


def vflip(img: torch.Tensor, data_format: str = "CHW") -> torch.Tensor:
    check_image(img, data_format)
    return flip.op_record.kernel(img, [-2 if data_format.lower() == "chw" else -3])


def hflip(img: torch.Tensor, data_format: str = "CHW") -> torch.Tensor:
    check_image(img, data_format)
    return flip.op_record.kernel(img, [-1 if data_format.lower() == "chw" else -2])


def crop(img: torch.Tensor, top: int, left: int, height: int, width: int,
         data_format: str = "CHW") -> torch.Tensor:
    check_image(img, data_format)
    for arg, v in (("top", top), ("left", left), ("height", height), ("width", width)):
        if isinstance(v, (float, np.floating)):
            raise ValueError(f"paddle.vision.transforms.crop: {arg} should be an integer (slice indices of a "
                             f"Tensor image), got {v!r}")
    if data_format.lower() == "chw":
        return img[:, top:top + height, left:left + width]
    return img[top:top + height, left:left + width, :]


def erase(img: torch.Tensor, i: int, j: int, h: int, w: int, v: Any) -> torch.Tensor:
    """``img`` with the box at (i, j) of size (h, w) set to ``v`` (a new tensor: the public
    ``erase`` writes it back for ``inplace``)."""
    check_image(img)
    if isinstance(v, (list, tuple)):
        raise ValueError(f"paddle.vision.transforms.erase: v should be a Tensor, numpy.ndarray or number "
                         f"for a Tensor image, got {type(v).__name__} {v!r}")
    if isinstance(v, np.ndarray):
        if img.dtype not in _NDARRAY_ASSIGNABLE:
            raise ValueError(f"paddle.vision.transforms.erase: a numpy.ndarray v can be written only into a "
                             f"bool, float32, float64, complex, int32 or int64 image, got {img.dtype}"
                             .replace("torch.", ""))
        v = torch.as_tensor(v, dtype=img.dtype, device=img.device)
    img = img.clone()
    region = img[..., i:i + h, j:j + w]
    if isinstance(v, torch.Tensor) and not _broadcasts_to(tuple(v.shape), tuple(region.shape)):
        raise ValueError(f"paddle.vision.transforms.erase: the value's shape {list(v.shape)} cannot be "
                         f"broadcast to the erased region's shape {list(region.shape)}")
    img[..., i:i + h, j:j + w] = v
    return img


def _broadcasts_to(src: tuple, dst: tuple) -> bool:
    if len(src) > len(dst):
        return False
    return all(s in (1, d) for s, d in zip(reversed(src), reversed(dst)))


_NDARRAY_ASSIGNABLE = (torch.bool, torch.float32, torch.float64, torch.complex64, torch.complex128,
                       torch.int32, torch.int64)


def center_crop(img: torch.Tensor, output_size: Any, data_format: str = "CHW") -> torch.Tensor:
    check_image(img, data_format)
    chw = data_format.lower() == "chw"
    h, w = (img.shape[-2], img.shape[-1]) if chw else (img.shape[-3], img.shape[-2])
    return crop(img, *center_box(h, w, output_size), data_format=data_format)


def pad(img: torch.Tensor, padding: Any, fill: Any = 0, padding_mode: str = "constant",
        data_format: str = "CHW") -> torch.Tensor:
    check_image(img, data_format)
    check_pad_args(padding, fill, padding_mode)
    left, top, right, bottom = parse_padding(padding)
    if padding_mode == "symmetric":
        raise ValueError("Do not support symmetric mode")
    mode = "replicate" if padding_mode == "edge" else padding_mode
    # Paddle pads the image as a batch of one with nn.functional.pad, whose checks apply: its
    # kernels' dtypes, and a batched image becomes 5-D, which only the constant mode takes.
    out = pad_op.op_record.kernel(img.unsqueeze(0), [left, right, top, bottom], mode=mode,
                                  value=float(fill), data_format="N" + data_format)
    return out.squeeze(0)


def check_resize_sides(h: int, w: int, size: Any) -> None:
    """Paddle's check before an int ``size`` (the shorter side) is applied: the image's height
    and width must be known and positive (in a program, -1 stands for an unknown size)."""
    if isinstance(size, int) and (w <= 0 or h <= 0):
        raise NotImplementedError(f"paddle.vision.transforms.resize: Not support while w<=0 or h<=0, "
                                  f"but received w={w}, h={h}")


def resize(img: torch.Tensor, size: Any, interpolation: str = "bilinear", data_format: str = "CHW") -> torch.Tensor:
    check_image(img, data_format)
    if not (isinstance(size, int) or (isinstance(size, (tuple, list)) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    chw = data_format.lower() == "chw"
    h, w = (img.shape[-2], img.shape[-1]) if chw else (img.shape[-3], img.shape[-2])
    check_resize_sides(h, w, size)
    hw = output_size_for(h, w, size)
    if hw is None:
        return img
    if not isinstance(interpolation, str):
        # Paddle lower-cases the mode name, which fails on anything but a string.
        raise AttributeError(f"paddle.vision.transforms.resize: 'interpolation' should be a str, "
                             f"but received {type(interpolation).__name__} {interpolation!r}")
    # Paddle resizes the image as a batch of one with interpolate, whose checks (the mode's
    # rank, so a batched image fails; the kernel's dtypes; sizes > 0) and sampling apply.
    try:
        out = interpolate.op_record.kernel(img.unsqueeze(0), size=list(hw), mode=interpolation.lower(),
                                           data_format="N" + data_format.upper())
    except (ValueError, AssertionError, NoKernelError) as exc:
        said = str(exc).removeprefix("paddle.nn.functional.interpolate: ")
        raise type(exc)(f"paddle.vision.transforms.resize: interpolation {interpolation!r} of a "
                        f"{img.ndim}-D image of shape {list(img.shape)} (resized as a batch of one): "
                        f"{said}") from None
    return out.squeeze(0)
