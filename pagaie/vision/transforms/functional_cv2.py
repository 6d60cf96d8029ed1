"""The numpy (``cv2``) backend of ``paddle.vision.transforms.functional``.

Images are ``numpy.ndarray`` in HWC (or HW) layout. Geometry and colour conversions go
through OpenCV, as in Paddle's ``cv2`` backend; OpenCV is imported on first use.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__: list[str] = []


def cv2_module() -> Any:
    """The ``cv2`` module, or an ImportError saying how to get it."""
    try:
        import cv2
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "paddle.vision.transforms: numpy images need OpenCV (the 'cv2' backend); "
            "install it with `pip install opencv-python-headless`") from e
    return cv2


def _interp(cv2: Any, interpolation: str) -> int:
    table = {"nearest": cv2.INTER_NEAREST, "bilinear": cv2.INTER_LINEAR, "area": cv2.INTER_AREA,
             "bicubic": cv2.INTER_CUBIC, "lanczos": cv2.INTER_LANCZOS4}
    if interpolation not in table:
        raise KeyError(interpolation)
    return table[interpolation]


def _keep_channel(src: np.ndarray, out: np.ndarray) -> np.ndarray:
    """OpenCV drops a trailing channel axis of size 1; put it back."""
    if src.ndim == 3 and src.shape[2] == 1 and out.ndim == 2:
        return out[:, :, None]
    return out


def to_tensor(pic: np.ndarray, data_format: str = "CHW") -> Any:
    import pagaie
    if data_format not in ("CHW", "HWC"):
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    if pic.ndim == 2:
        pic = pic[:, :, None]
    t = pagaie.to_tensor(np.array(pic.transpose(2, 0, 1) if data_format == "CHW" else pic))
    if t.dtype == pagaie.uint8:
        return t.astype("float32") / 255.0
    return t


def output_size_for(h: int, w: int, size: Any) -> tuple[int, int] | None:
    """(out_h, out_w) for ``resize``; None when an int ``size`` already matches the short side."""
    if isinstance(size, int):
        if (w <= h and w == size) or (h <= w and h == size):
            return None
        if w < h:
            return int(size * h / w), size
        return size, int(size * w / h)
    return size[0], size[1]


def resize(img: np.ndarray, size: Any, interpolation: str = "bilinear") -> np.ndarray:
    cv2 = cv2_module()
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    hw = output_size_for(img.shape[0], img.shape[1], size)
    if hw is None:
        return img
    out = cv2.resize(img, dsize=(hw[1], hw[0]), interpolation=_interp(cv2, interpolation))
    return _keep_channel(img, out)


def parse_padding(padding: Any) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) from an int, a 2-sequence (lr, tb) or a 4-sequence."""
    if isinstance(padding, numbers.Number):
        p = int(padding)
        return p, p, p, p
    if len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    return tuple(padding)  # type: ignore[return-value]


def check_pad_args(padding: Any, fill: Any, padding_mode: Any) -> None:
    if not isinstance(padding, (numbers.Number, list, tuple)):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, (numbers.Number, str, list, tuple)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, Sequence) and len(padding) not in (2, 4):
        raise ValueError("Padding must be an int or a 2, or 4 element tuple, not a "
                         f"{len(padding)} element tuple")
    assert padding_mode in ("constant", "edge", "reflect", "symmetric"), \
        "Padding mode should be either constant, edge, reflect or symmetric"
    if isinstance(padding, numbers.Number) and not isinstance(padding, numbers.Integral):
        # Paddle reads a single padding only as an integer (a float fails there further on)
        raise TypeError(f"paddle.vision.transforms.pad: a single padding should be an integer, but "
                        f"received {type(padding).__name__} {padding!r}")


def pad(img: np.ndarray, padding: Any, fill: Any = 0, padding_mode: str = "constant") -> np.ndarray:
    cv2 = cv2_module()
    check_pad_args(padding, fill, padding_mode)
    left, top, right, bottom = parse_padding(padding)
    if padding_mode in ("reflect", "symmetric") and 0 in img.shape[:2]:
        # OpenCV never returns there (so Paddle hangs); nothing can be reflected anyway
        raise ValueError(f"paddle.vision.transforms.pad: padding_mode {padding_mode!r} cannot pad an empty "
                         f"image, got shape {list(img.shape)}")
    border = {"constant": cv2.BORDER_CONSTANT, "edge": cv2.BORDER_REPLICATE,
              "reflect": cv2.BORDER_REFLECT_101, "symmetric": cv2.BORDER_REFLECT}[padding_mode]
    out = cv2.copyMakeBorder(img, top=top, bottom=bottom, left=left, right=right,
                             borderType=border, value=fill)
    return _keep_channel(img, out)


def crop(img: np.ndarray, top: int, left: int, height: int, width: int) -> np.ndarray:
    return img[top:top + height, left:left + width, :]


def center_box(h: int, w: int, output_size: Any) -> tuple[int, int, int, int]:
    """(top, left, th, tw) of a centred crop."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    th, tw = output_size
    return int(round((h - th) / 2.0)), int(round((w - tw) / 2.0)), th, tw


def center_crop(img: np.ndarray, output_size: Any) -> np.ndarray:
    return crop(img, *center_box(img.shape[0], img.shape[1], output_size))


def hflip(img: np.ndarray) -> np.ndarray:
    return cv2_module().flip(img, 1)


def vflip(img: np.ndarray) -> np.ndarray:
    return _keep_channel(img, cv2_module().flip(img, 0))


def _lut(img: np.ndarray, values: np.ndarray) -> np.ndarray:
    table = values.clip(0, 255).astype(np.uint8)
    return _keep_channel(img, cv2_module().LUT(img, table))


def adjust_brightness(img: np.ndarray, brightness_factor: float) -> np.ndarray:
    return _lut(img, np.array([i * brightness_factor for i in range(256)]))


def adjust_contrast(img: np.ndarray, contrast_factor: float) -> np.ndarray:
    # Paddle's cv2 backend pivots the contrast around the fixed grey level 74.
    return _lut(img, np.array([(i - 74) * contrast_factor + 74 for i in range(256)]))


def adjust_saturation(img: np.ndarray, saturation_factor: float) -> np.ndarray:
    cv2 = cv2_module()
    dtype = img.dtype
    f = img.astype(np.float32)
    # As in Paddle's cv2 backend, the blend weight is drawn around the factor.
    alpha = np.random.uniform(max(0, 1 - saturation_factor), 1 + saturation_factor)
    gray = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY)[..., None]
    return (f * alpha + gray * (1 - alpha)).clip(0, 255).astype(dtype)


def adjust_hue(img: np.ndarray, hue_factor: float) -> np.ndarray:
    cv2 = cv2_module()
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    dtype = img.dtype
    hsv = cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2HSV_FULL)
    h = ((hsv[..., 0].astype(np.int32) + int(hue_factor * 255)) % 256).astype(np.uint8)
    hsv = np.ascontiguousarray(np.stack([h, hsv[..., 1], hsv[..., 2]], axis=-1))
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL).astype(dtype)


def affine(img: np.ndarray, angle: float, translate: Sequence[float], scale: float,
           shear: Sequence[float], interpolation: str = "nearest", fill: Any = 0,
           center: Any = None) -> np.ndarray:
    cv2 = cv2_module()
    h, w = img.shape[:2]
    if isinstance(fill, int):
        fill = (fill, fill, fill)
    if center is None:
        center = (w / 2.0, h / 2.0)
    rot = cv2.getRotationMatrix2D(angle=angle, center=center, scale=scale)
    sx = math.tan(math.radians(shear[0]))
    sy = math.tan(math.radians(shear[1]))
    m = np.ones([2, 3])
    m[0] = rot[0] + sy * rot[1]
    m[1] = rot[1] + sx * rot[0]
    m[0, 2], m[1, 2] = translate
    out = cv2.warpAffine(img, m, dsize=(w, h), flags=_interp(cv2, interpolation), borderValue=fill)
    return _keep_channel(img, out)


def expanded_size(w: int, h: int, angle: float, center: Sequence[float]) -> tuple[int, int]:
    """Width and height that hold the whole image rotated by ``angle`` degrees about ``center``."""
    a = -math.radians(angle)
    cos, sin = round(math.cos(a), 15), round(math.sin(a), 15)
    tx = -center[0] * cos - center[1] * sin + center[0]
    ty = center[0] * sin - center[1] * cos + center[1]
    xs, ys = [], []
    for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
        xs.append(cos * x + sin * y + tx)
        ys.append(-sin * x + cos * y + ty)
    return (math.ceil(max(xs)) - math.floor(min(xs)), math.ceil(max(ys)) - math.floor(min(ys)))


def rotate(img: np.ndarray, angle: float, interpolation: str = "nearest", expand: bool = False,
           center: Any = None, fill: Any = 0) -> np.ndarray:
    cv2 = cv2_module()
    h, w = img.shape[:2]
    if center is None:
        center = (w / 2.0, h / 2.0)
    m = cv2.getRotationMatrix2D(center, angle, 1)
    if expand:
        nw, nh = expanded_size(w, h, angle, center)
        m[0, 2] += (nw - w) * 0.5
        m[1, 2] += (nh - h) * 0.5
        w, h = int(nw), int(nh)
    out = cv2.warpAffine(img, m, (w, h), flags=_interp(cv2, interpolation), borderValue=fill)
    return _keep_channel(img, out)


def perspective(img: np.ndarray, startpoints: Any, endpoints: Any, interpolation: str = "nearest",
                fill: Any = 0) -> np.ndarray:
    cv2 = cv2_module()
    h, w = img.shape[:2]
    m = cv2.getPerspectiveTransform(np.array(startpoints, dtype="float32"),
                                    np.array(endpoints, dtype="float32"))
    out = cv2.warpPerspective(img, m, dsize=(w, h), flags=_interp(cv2, interpolation),
                              borderValue=fill)
    return _keep_channel(img, out)


def to_grayscale(img: np.ndarray, num_output_channels: int = 1) -> np.ndarray:
    cv2 = cv2_module()
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)[:, :, None]
    return gray if num_output_channels == 1 else np.broadcast_to(gray, img.shape)


def normalize(img: np.ndarray, mean: Any, std: Any, data_format: str = "CHW",
              to_rgb: bool = False) -> np.ndarray:
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    mean = np.float32(np.array(mean).reshape(shape))
    std = np.float32(np.array(std).reshape(shape))
    if to_rgb:
        img = img[..., ::-1]
    return (img - mean) / std


def erase(img: np.ndarray, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> np.ndarray:
    if not inplace:
        img = img.copy()
    img[i:i + h, j:j + w, ...] = v
    return img
