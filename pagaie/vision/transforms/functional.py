"""``paddle.vision.transforms.functional``: image functions over PIL Images, numpy HWC arrays
(the ``cv2`` backend) and CHW Tensors.

Each public function checks the image kind once and hands it to its backend module
(``functional_pil``, ``functional_cv2``, ``functional_tensor``).
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Callable, Sequence

import numpy as np
from PIL import Image

from pagaie._core.tensor import Tensor
from pagaie.vision.transforms import functional_cv2 as F_cv2
from pagaie.vision.transforms import functional_pil as F_pil
from pagaie.vision.transforms import functional_tensor as F_t

__all__ = [
    "to_tensor", "hflip", "vflip", "resize", "pad", "affine", "rotate", "perspective",
    "to_grayscale", "crop", "center_crop", "adjust_brightness", "adjust_contrast",
    "adjust_saturation", "adjust_hue", "normalize", "erase",
]


def _is_pil_image(img: Any) -> bool:
    return isinstance(img, Image.Image)


def _is_tensor_image(img: Any) -> bool:
    return isinstance(img, Tensor)


def _is_numpy_image(img: Any) -> bool:
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _check_kind(img: Any, argname: str = "img") -> None:
    if not (_is_pil_image(img) or _is_numpy_image(img) or _is_tensor_image(img)):
        raise TypeError(f"{argname} should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. "
                        f"Got {type(img)}")


def _dispatch(img: Any, pil: Callable, cv2: Callable, tensor: Callable, *args: Any) -> Any:
    _check_kind(img)
    if _is_pil_image(img):
        return pil(img, *args)
    if _is_tensor_image(img):
        return tensor(img, *args)
    return cv2(img, *args)


def to_tensor(pic: Any, data_format: str = "CHW") -> Tensor:
    """Convert a PIL Image or numpy HWC array to a Tensor (uint8 data is scaled to [0, 1]).

    Args:
        pic (PIL.Image|np.ndarray|Tensor): The image. A Tensor is returned as is ('CHW')
            or transposed from CHW to HWC ('HWC').
        data_format (str, optional): Layout of the result, 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: float32 in [0, 1] for uint8 input, else the input's dtype.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional as F
        >>> img = np.full((2, 3, 3), 255, dtype='uint8')
        >>> t = F.to_tensor(img)
        >>> t.shape, t.dtype, float(t.max())
        (paddle.Size([3, 2, 3]), <DataType.FLOAT32: 10>, 1.0)
    """
    _check_kind(pic, "pic")
    if _is_pil_image(pic):
        return F_pil.to_tensor(pic, data_format)
    if _is_numpy_image(pic):
        return F_cv2.to_tensor(pic, data_format)
    return pic if data_format.lower() == "chw" else pic.transpose((1, 2, 0))


def resize(img: Any, size: Any, interpolation: str = "bilinear") -> Any:
    """Resize an image to ``size``.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image (HWC array, CHW Tensor).
        size (int|list|tuple): (height, width), or an int: the shorter side becomes ``size``
            and the longer keeps the aspect ratio.
        interpolation (str, optional): 'nearest', 'bilinear', 'bicubic' and backend-specific
            modes ('box', 'lanczos', 'hamming' for PIL; 'area', 'lanczos' for cv2). Default: 'bilinear'.

    Returns:
        The resized image, of the input's kind.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.resize(np.zeros((4, 8, 3), dtype='uint8'), 2).shape
        (2, 4, 3)
    """
    return _dispatch(img, F_pil.resize, F_cv2.resize, F_t.resize, size, interpolation)


def pad(img: Any, padding: Any, fill: Any = 0, padding_mode: str = "constant") -> Any:
    """Pad an image on its borders.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        padding (int|list|tuple): One value for all borders, (left/right, top/bottom), or
            (left, top, right, bottom).
        fill (int|tuple, optional): Border value for 'constant' mode. Default: 0.
        padding_mode (str, optional): 'constant', 'edge', 'reflect' or 'symmetric'. Default: 'constant'.

    Returns:
        The padded image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.pad(np.zeros((2, 2, 3), dtype='uint8'), (1, 2)).shape
        (6, 4, 3)
    """
    return _dispatch(img, F_pil.pad, F_cv2.pad, F_t.pad, padding, fill, padding_mode)


def crop(img: Any, top: int, left: int, height: int, width: int) -> Any:
    """Crop the box whose top-left corner is (top, left) and size (height, width).

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        top (int): Row of the top-left corner.
        left (int): Column of the top-left corner.
        height (int): Box height.
        width (int): Box width.

    Returns:
        The cropped image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.crop(np.zeros((5, 5, 3)), 1, 1, 2, 3).shape
        (2, 3, 3)
    """
    return _dispatch(img, F_pil.crop, F_cv2.crop, F_t.crop, top, left, height, width)


def center_crop(img: Any, output_size: Any) -> Any:
    """Crop the centre of an image.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        output_size (int|list|tuple): (height, width) of the crop, or one int for both.

    Returns:
        The cropped image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.center_crop(np.zeros((6, 6, 3)), 4).shape
        (4, 4, 3)
    """
    return _dispatch(img, F_pil.center_crop, F_cv2.center_crop, F_t.center_crop, output_size)


def hflip(img: Any) -> Any:
    """Flip an image left to right.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.

    Returns:
        The flipped image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.hflip(np.arange(9, dtype='uint8').reshape(1, 3, 3))[0, :, 0].tolist()
        [6, 3, 0]
    """
    return _dispatch(img, F_pil.hflip, F_cv2.hflip, F_t.hflip)


def vflip(img: Any) -> Any:
    """Flip an image top to bottom.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.

    Returns:
        The flipped image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.vflip(np.arange(3, dtype='uint8').reshape(3, 1, 1))[:, 0, 0].tolist()
        [2, 1, 0]
    """
    return _dispatch(img, F_pil.vflip, F_cv2.vflip, F_t.vflip)


def adjust_brightness(img: Any, brightness_factor: float) -> Any:
    """Scale the brightness of an image.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        brightness_factor (float): Non-negative factor: 0 gives black, 1 the original.

    Returns:
        The adjusted image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.adjust_brightness(np.full((1, 1, 3), 100, dtype='uint8'), 1.5)[0, 0].tolist()
        [150, 150, 150]
    """
    _check_kind(img)
    if _is_numpy_image(img):
        return F_cv2.adjust_brightness(img.astype(np.uint8), brightness_factor)
    return _dispatch(img, F_pil.adjust_brightness, None, F_t.adjust_brightness, brightness_factor)


def adjust_contrast(img: Any, contrast_factor: float) -> Any:
    """Adjust the contrast of an image.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        contrast_factor (float): Non-negative factor: 0 gives a flat grey image, 1 the original.

    Returns:
        The adjusted image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.adjust_contrast(np.full((1, 1, 3), 100, dtype='uint8'), 2.0)[0, 0].tolist()
        [126, 126, 126]
    """
    return _dispatch(img, F_pil.adjust_contrast, F_cv2.adjust_contrast, F_t.adjust_contrast, contrast_factor)


def adjust_saturation(img: Any, saturation_factor: float) -> Any:
    """Adjust the colour saturation of an image.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        saturation_factor (float): 0 gives a grey image, 1 the original. The numpy (cv2)
            backend draws its blend weight uniformly in [max(0, 1 - f), 1 + f], as Paddle's does.

    Returns:
        The adjusted image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional as F
        >>> F.adjust_saturation(paddle.ones([3, 2, 2]) * 0.5, 0.0).shape
        paddle.Size([3, 2, 2])
    """
    return _dispatch(img, F_pil.adjust_saturation, F_cv2.adjust_saturation, F_t.adjust_saturation,
                     saturation_factor)


def adjust_hue(img: Any, hue_factor: float) -> Any:
    """Shift the hue of an image.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        hue_factor (float): Shift of the hue channel, in [-0.5, 0.5].

    Returns:
        The adjusted image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.adjust_hue(np.zeros((2, 2, 3), dtype='uint8'), 0.1).shape
        (2, 2, 3)
    """
    return _dispatch(img, F_pil.adjust_hue, F_cv2.adjust_hue, F_t.adjust_hue, hue_factor)


def _get_affine_matrix(center: Sequence[float], angle: float, translate: Sequence[float],
                       scale: float, shear: Sequence[float]) -> list[float]:
    """Inverse affine matrix (6 numbers, output -> input) of rotation about ``center``,
    translation, scale and shear (degrees)."""
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    cx, cy = center
    tx, ty = translate
    m = [v / scale for v in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m


def affine(img: Any, angle: float, translate: Sequence[float], scale: float, shear: Any,
           interpolation: str = "nearest", fill: Any = 0, center: Any = None) -> Any:
    """Apply an affine transform (rotation, translation, scale, shear) keeping the image centre.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        angle (int|float): Rotation in degrees, counter-clockwise.
        translate (list|tuple): Horizontal and vertical translation in pixels.
        scale (float): Scale factor (> 0).
        shear (float|list|tuple): Shear angle(s) in degrees: one value (x only) or (x, y).
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic' (cv2 also 'area',
            'lanczos'). Default: 'nearest'.
        fill (int|tuple, optional): Value outside the source image. Default: 0.
        center (list|tuple, optional): Centre of rotation; default the image centre.

    Returns:
        The transformed image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional as F
        >>> F.affine(paddle.rand([3, 4, 4]), 45, [0, 0], 1.0, [0.0, 0.0]).shape
        paddle.Size([3, 4, 4])
    """
    _check_kind(img)
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(shear, (numbers.Number, list, tuple)):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    if not isinstance(interpolation, str):
        raise TypeError("Argument interpolation should be a string")
    angle = float(angle)
    translate = list(translate)
    shear = [shear, 0.0] if isinstance(shear, numbers.Number) else list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    if _is_pil_image(img):
        w, h = img.size
        c = [w * 0.5, h * 0.5] if center is None else center
        return F_pil.affine(img, _get_affine_matrix(c, angle, translate, scale, shear), interpolation, fill)
    if _is_numpy_image(img):
        # Paddle's default centre for numpy images is (rows / 2, cols / 2).
        if center is None:
            center = (img.shape[0] * 0.5, img.shape[1] * 0.5)
        return F_cv2.affine(img, angle, translate, scale, shear, interpolation, fill, center)
    c = [0.0, 0.0]
    if center is not None:
        # Paddle offsets the centre by (rows / 2, cols / 2) for tensors; kept for parity.
        c = [float(center[0]) - img.shape[-2] * 0.5, float(center[1]) - img.shape[-1] * 0.5]
    m = _get_affine_matrix(c, angle, [float(t) for t in translate], scale, shear)
    return F_t.affine(img, m, interpolation, fill)


def rotate(img: Any, angle: float, interpolation: str = "nearest", expand: bool = False,
           center: Any = None, fill: Any = 0) -> Any:
    """Rotate an image by ``angle`` degrees counter-clockwise.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        angle (float|int): Rotation in degrees.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        expand (bool, optional): Enlarge the output to hold the whole rotated image. Default: False.
        center (list|tuple, optional): Centre of rotation; default the image centre.
        fill (int|tuple, optional): Value outside the source image. Default: 0.

    Returns:
        The rotated image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.rotate(np.zeros((4, 6, 3), dtype='uint8'), 90, expand=True).shape
        (6, 4, 3)
    """
    _check_kind(img)
    if isinstance(center, list):
        center = tuple(center)
    if isinstance(fill, list):
        fill = tuple(fill)
    return _dispatch(img, F_pil.rotate, F_cv2.rotate, F_t.rotate, angle, interpolation, expand, center, fill)


def _get_perspective_coeffs(startpoints: Sequence, endpoints: Sequence) -> list[float]:
    """The 8 coefficients of the perspective map taking ``endpoints`` back to ``startpoints``."""
    rows = []
    for (ex, ey), (sx, sy) in zip(endpoints, startpoints):
        rows.append([ex, ey, 1, 0, 0, 0, -sx * ex, -sx * ey])
        rows.append([0, 0, 0, ex, ey, 1, -sy * ex, -sy * ey])
    a = np.array(rows, dtype=np.float64)
    b = np.array(startpoints, dtype=np.float64).reshape(8)
    return list(np.linalg.lstsq(a, b, rcond=None)[0])


def perspective(img: Any, startpoints: Sequence, endpoints: Sequence, interpolation: str = "nearest",
                fill: Any = 0) -> Any:
    """Apply the perspective transform that moves ``startpoints`` to ``endpoints``.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image.
        startpoints (list): Four [x, y] corners of the source quadrilateral.
        endpoints (list): The four matching corners in the output.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        fill (int|tuple, optional): Value outside the source image. Default: 0.

    Returns:
        The transformed image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> pts = [[0, 0], [3, 0], [3, 3], [0, 3]]
        >>> int(F.perspective(np.ones((4, 4, 3), dtype='uint8'), pts, pts).sum())
        48
    """
    _check_kind(img)
    if _is_numpy_image(img):
        return F_cv2.perspective(img, startpoints, endpoints, interpolation, fill)
    coeffs = _get_perspective_coeffs(startpoints, endpoints)
    return _dispatch(img, F_pil.perspective, None, F_t.perspective, coeffs, interpolation, fill)


def to_grayscale(img: Any, num_output_channels: int = 1) -> Any:
    """Convert an image to grayscale.

    Args:
        img (PIL.Image|np.ndarray|Tensor): An RGB image.
        num_output_channels (int, optional): 1, or 3 (grey copied to three channels). Default: 1.

    Returns:
        The grayscale image.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.to_grayscale(np.zeros((2, 2, 3), dtype='uint8')).shape
        (2, 2, 1)
    """
    return _dispatch(img, F_pil.to_grayscale, F_cv2.to_grayscale, F_t.to_grayscale, num_output_channels)


def normalize(img: Any, mean: Any, std: Any, data_format: str = "CHW", to_rgb: bool = False) -> Any:
    """Normalize an image channel-wise: ``(img - mean) / std``.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image; PIL Images become float32 numpy arrays.
        mean (list|tuple): Per-channel means.
        std (list|tuple): Per-channel standard deviations.
        data_format (str, optional): 'CHW' or 'HWC', the layout of ``img``. Default: 'CHW'.
        to_rgb (bool, optional): Reverse the channel order first (numpy / PIL only). Default: False.

    Returns:
        Tensor for Tensor input, else a numpy array.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import functional as F
        >>> F.normalize(np.full((1, 1, 3), 2.0), [1, 1, 1], [2, 2, 2], 'HWC')[0, 0].tolist()
        [0.5, 0.5, 0.5]
    """
    if _is_tensor_image(img):
        return F_t.normalize(img, mean, std, data_format)
    if _is_pil_image(img):
        img = np.array(img).astype(np.float32)
    return F_cv2.normalize(img, mean, std, data_format, to_rgb)


def erase(img: Any, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> Any:
    """Fill the box at (i, j) of size (h, w) with ``v``.

    Args:
        img (PIL.Image|np.ndarray|Tensor): The image (CHW Tensor, HWC array).
        i (int): Row of the top-left corner.
        j (int): Column of the top-left corner.
        h (int): Box height.
        w (int): Box width.
        v (np.ndarray|Tensor|number): Values written into the box.
        inplace (bool, optional): Modify ``img`` itself (numpy / Tensor). Default: False.

    Returns:
        The erased image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional as F
        >>> float(F.erase(paddle.ones([3, 4, 4]), 1, 1, 2, 2, 0.0).sum())
        36.0
    """
    if _is_tensor_image(img):
        return F_t.erase(img, i, j, h, w, v, inplace)
    if _is_pil_image(img):
        return F_pil.erase(img, i, j, h, w, v, inplace=inplace)
    return F_cv2.erase(img, i, j, h, w, v, inplace=inplace)
