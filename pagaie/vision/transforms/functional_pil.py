"""The PIL (``pillow``) backend of ``paddle.vision.transforms.functional``."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from pagaie.vision.transforms.functional_cv2 import check_pad_args, output_size_for, parse_padding

__all__: list[str] = []

_R = Image.Resampling
INTERPOLATIONS = {"nearest": _R.NEAREST, "bilinear": _R.BILINEAR, "bicubic": _R.BICUBIC,
                  "box": _R.BOX, "lanczos": _R.LANCZOS, "hamming": _R.HAMMING}


def to_tensor(pic: Image.Image, data_format: str = "CHW") -> Any:
    import pagaie
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    mode = pic.mode
    if mode in ("I", "I;16"):
        arr = np.asarray(pic, np.int32)
    elif mode == "F":
        arr = np.asarray(pic, np.float32)
    elif mode == "1":
        arr = 255 * np.asarray(pic, np.uint8)
    else:
        arr = np.asarray(pic)
    channels = 3 if mode == "YCbCr" else 1 if mode == "I;16" else len(mode)
    arr = np.array(arr).reshape(pic.size[1], pic.size[0], channels)
    if data_format == "CHW":
        arr = np.ascontiguousarray(arr.transpose(2, 0, 1))
    t = pagaie.to_tensor(arr)
    if t.dtype == pagaie.uint8:
        t = t.astype("float32") / 255.0
    return t


def resize(img: Image.Image, size: Any, interpolation: str = "bilinear") -> Image.Image:
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    w, h = img.size
    hw = output_size_for(h, w, size)
    if hw is None:
        return img
    return img.resize((hw[1], hw[0]), INTERPOLATIONS[interpolation])


def pad(img: Image.Image, padding: Any, fill: Any = 0, padding_mode: str = "constant") -> Image.Image:
    check_pad_args(padding, fill, padding_mode)
    if isinstance(padding, list):
        padding = tuple(padding)
    left, top, right, bottom = parse_padding(padding)
    palette = img.getpalette() if img.mode == "P" else None
    if padding_mode == "constant":
        out = ImageOps.expand(img, border=padding, fill=fill)
    else:
        arr = np.asarray(img)
        widths = ((top, bottom), (left, right)) + (((0, 0),) if arr.ndim == 3 else ())
        out = Image.fromarray(np.pad(arr, widths, padding_mode))
    if palette is not None:
        out.putpalette(palette)
    return out


def crop(img: Image.Image, top: int, left: int, height: int, width: int) -> Image.Image:
    return img.crop((left, top, left + width, top + height))


def center_crop(img: Image.Image, output_size: Any) -> Image.Image:
    from pagaie.vision.transforms.functional_cv2 import center_box
    w, h = img.size
    return crop(img, *center_box(h, w, output_size))


def hflip(img: Image.Image) -> Image.Image:
    return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)


def vflip(img: Image.Image) -> Image.Image:
    return img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)


def adjust_brightness(img: Image.Image, brightness_factor: float) -> Image.Image:
    return ImageEnhance.Brightness(img).enhance(brightness_factor)


def adjust_contrast(img: Image.Image, contrast_factor: float) -> Image.Image:
    return ImageEnhance.Contrast(img).enhance(contrast_factor)


def adjust_saturation(img: Image.Image, saturation_factor: float) -> Image.Image:
    return ImageEnhance.Color(img).enhance(saturation_factor)


def adjust_hue(img: Image.Image, hue_factor: float) -> Image.Image:
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    mode = img.mode
    if mode in {"L", "1", "I", "F"}:
        return img
    h, s, v = img.convert("HSV").split()
    shifted = (np.array(h, dtype=np.uint8).astype(np.int16) + int(hue_factor * 255)) % 256
    h = Image.fromarray(shifted.astype(np.uint8), "L")
    return Image.merge("HSV", (h, s, v)).convert(mode)


def _fill3(fill: Any) -> Any:
    return (fill, fill, fill) if isinstance(fill, int) else fill


def affine(img: Image.Image, matrix: list, interpolation: str = "nearest", fill: Any = 0) -> Image.Image:
    # Paddle hands ``fill`` to PIL's ``fill`` flag (not ``fillcolor``): the border stays black.
    return img.transform(img.size, Image.Transform.AFFINE, matrix, INTERPOLATIONS[interpolation],
                         _fill3(fill))


def rotate(img: Image.Image, angle: float, interpolation: str = "nearest", expand: bool = False,
           center: Any = None, fill: Any = 0) -> Image.Image:
    return img.rotate(angle, INTERPOLATIONS[interpolation], expand, center, fillcolor=_fill3(fill))


def perspective(img: Image.Image, coeffs: list, interpolation: str = "nearest", fill: Any = 0) -> Image.Image:
    return img.transform(img.size, Image.Transform.PERSPECTIVE, coeffs, INTERPOLATIONS[interpolation],
                         _fill3(fill))


def to_grayscale(img: Image.Image, num_output_channels: int = 1) -> Image.Image:
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    gray = img.convert("L")
    if num_output_channels == 1:
        return gray
    g = np.array(gray, dtype=np.uint8)
    return Image.fromarray(np.dstack([g, g, g]), "RGB")


def erase(img: Image.Image, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> Image.Image:
    arr = np.array(img, dtype=np.uint8)
    arr[i:i + h, j:j + w, ...] = v
    return Image.fromarray(arr, "RGB")
