"""``paddle.vision.transforms.functional_tensor``: the Tensor backend of
``paddle.vision.transforms.functional``, over CHW (or HWC) image Tensors.

Every function runs the kernel of the same name in ``_tensor_kernels`` through one op record,
``vision_image_transform``: eager calls unwrap and wrap Tensors (autograd flows through), and a
program (static mode, ``jit.to_static``) records the call instead of running it.
"""
from __future__ import annotations

from typing import Any, Sequence

from pagaie._core.registry import defop, translate_error
from pagaie._core.tensor import Tensor, wrap
from pagaie.vision.transforms import _tensor_kernels as K

__all__: list[str] = []


@defop("vision_image_transform", method=False)
def image_transform(img, transform, args):
    """The ``_tensor_kernels`` function named ``transform`` over a CHW/HWC image tensor: one
    op record for all of them; torch errors become Paddle's types."""
    try:
        return getattr(K, transform)(img, *args)
    except (RuntimeError, IndexError, NotImplementedError, ValueError, TypeError) as exc:
        raise translate_error(f"vision.transforms.{transform}", exc, (wrap(img), *args), {}) from None


def _run(transform: str, img: Tensor, *args: Any) -> Tensor:
    return image_transform(img, transform, list(args))


def _check_channels_known(img: Tensor, api: str, exc_type: type) -> None:
    """Paddle's colour adjustments check the channel count (1 or 3) while a program is built,
    so an image whose channel size is unknown (-1) is refused (brightness: AssertionError,
    the others: ValueError)."""
    shape = list(img.shape)
    if len(shape) >= 3 and shape[-3] < 0:
        raise exc_type(f"paddle.vision.transforms.{api}: channels of input should be either 1 or 3, "
                       f"but the channel size of the image of shape {shape} is unknown")


def normalize(img: Tensor, mean: Any, std: Any, data_format: str = "CHW") -> Tensor:
    """Normalize a float image Tensor channel-wise: ``(img - mean) / std``.

    Args:
        img (Tensor): The image, CHW or HWC.
        mean (float|list|tuple): Per-channel means (one number for every channel).
        std (float|list|tuple): Per-channel standard deviations.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the normalized image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.normalize(paddle.full([3, 1, 1], 2.0), [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]).flatten().tolist()
        [0.5, 0.5, 0.5]
    """
    return _run("normalize", img, mean, std, data_format)


def to_grayscale(img: Tensor, num_output_channels: int = 1, data_format: str = "CHW") -> Tensor:
    """Convert an RGB image Tensor to grayscale (luma weights 0.2989, 0.587, 0.114).

    Args:
        img (Tensor): The image, CHW or HWC.
        num_output_channels (int, optional): 1, or 3 (grey copied to three channels). Default: 1.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the grayscale image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.to_grayscale(paddle.ones([3, 2, 2]), 3).shape
        paddle.Size([3, 2, 2])
    """
    return _run("to_grayscale", img, num_output_channels, data_format)


def adjust_brightness(img: Tensor, brightness_factor: float) -> Tensor:
    """Scale the brightness of a CHW image Tensor (blend with black, clipped to the dtype's range).

    Args:
        img (Tensor): The image, CHW.
        brightness_factor (float): Non-negative; 0 gives black, 1 the original image.

    Returns:
        Tensor: the adjusted image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.adjust_brightness(paddle.full([3, 1, 1], 0.25), 2.0).flatten().tolist()
        [0.5, 0.5, 0.5]
    """
    _check_channels_known(img, "adjust_brightness", AssertionError)
    return _run("adjust_brightness", img, brightness_factor)


def adjust_contrast(img: Tensor, contrast_factor: float) -> Tensor:
    """Adjust the contrast of a CHW image Tensor (blend with its mean grey level).

    Args:
        img (Tensor): The image, CHW with 3 channels.
        contrast_factor (float): Non-negative; 0 gives a solid grey image, 1 the original.

    Returns:
        Tensor: the adjusted image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.adjust_contrast(paddle.full([3, 2, 2], 0.5), 1.0).shape
        paddle.Size([3, 2, 2])
    """
    _check_channels_known(img, "adjust_contrast", ValueError)
    return _run("adjust_contrast", img, contrast_factor)


def adjust_saturation(img: Tensor, saturation_factor: float) -> Tensor:
    """Adjust the colour saturation of a CHW image Tensor (blend with its grayscale version).

    Args:
        img (Tensor): The image, CHW with 3 channels.
        saturation_factor (float): Non-negative; 0 gives a grey image, 1 the original.

    Returns:
        Tensor: the adjusted image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.adjust_saturation(paddle.full([3, 2, 2], 0.5), 0.0).shape
        paddle.Size([3, 2, 2])
    """
    _check_channels_known(img, "adjust_saturation", ValueError)
    return _run("adjust_saturation", img, saturation_factor)


def adjust_hue(img: Tensor, hue_factor: float) -> Tensor:
    """Shift the hue of a CHW image Tensor (through HSV).

    Args:
        img (Tensor): The image, CHW with 3 channels.
        hue_factor (float): The shift, in [-0.5, 0.5] (fractions of the hue circle).

    Returns:
        Tensor: the adjusted image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.adjust_hue(paddle.full([3, 2, 2], 0.5), 0.1).shape
        paddle.Size([3, 2, 2])
    """
    _check_channels_known(img, "adjust_hue", ValueError)
    return _run("adjust_hue", img, hue_factor)


def affine(img: Tensor, matrix: Sequence[float], interpolation: str = "nearest", fill: Any = None,
           data_format: str = "CHW") -> Tensor:
    """Warp an image Tensor by the inverse affine ``matrix`` (6 numbers, output to input pixel
    coordinates about the image centre).

    Args:
        img (Tensor): The image, CHW (float32 or float64).
        matrix (list|tuple): The 2x3 matrix, row-major.
        interpolation (str, optional): 'nearest' or 'bilinear'. Default: 'nearest'.
        fill (float|list|tuple, optional): Value outside the source image. Default: None (0).
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the warped image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.affine(paddle.ones([3, 4, 4]), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]).shape
        paddle.Size([3, 4, 4])
    """
    return _run("affine", img, matrix, interpolation, fill, data_format)


def rotate(img: Tensor, angle: float, interpolation: str = "nearest", expand: bool = False,
           center: Any = None, fill: Any = None, data_format: str = "CHW") -> Tensor:
    """Rotate an image Tensor by ``angle`` degrees counter-clockwise.

    Args:
        img (Tensor): The image, CHW (float32 or float64).
        angle (float): Rotation in degrees.
        interpolation (str, optional): 'nearest' or 'bilinear'. Default: 'nearest'.
        expand (bool, optional): Enlarge the output to hold the whole rotated image. Default: False.
        center (list|tuple, optional): Centre of rotation (x, y); default the image centre.
        fill (float|list|tuple, optional): Value outside the source image. Default: None (0).
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the rotated image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.rotate(paddle.ones([3, 4, 6]), 90, expand=True).shape
        paddle.Size([3, 6, 4])
    """
    return _run("rotate", img, angle, interpolation, expand, center, fill, data_format)


def perspective(img: Tensor, coeffs: Sequence[float], interpolation: str = "nearest", fill: Any = None,
                data_format: str = "CHW") -> Tensor:
    """Warp an image Tensor by the perspective map of 8 ``coeffs`` (output to input pixels).

    Args:
        img (Tensor): The image, CHW (float32 or float64).
        coeffs (list|tuple): a, b, c, d, e, f, g, h of ``x' = (ax + by + c) / (gx + hy + 1)``,
            ``y' = (dx + ey + f) / (gx + hy + 1)``.
        interpolation (str, optional): 'nearest' or 'bilinear'. Default: 'nearest'.
        fill (float|list|tuple, optional): Value outside the source image. Default: None (0).
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the warped image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.perspective(paddle.ones([3, 4, 4]), [1, 0, 0, 0, 1, 0, 0, 0]).shape
        paddle.Size([3, 4, 4])
    """
    return _run("perspective", img, coeffs, interpolation, fill, data_format)


def vflip(img: Tensor, data_format: str = "CHW") -> Tensor:
    """Flip an image Tensor upside down.

    Args:
        img (Tensor): The image, CHW or HWC.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the flipped image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.vflip(paddle.arange(4, dtype='float32').reshape([1, 2, 2])).flatten().tolist()
        [2.0, 3.0, 0.0, 1.0]
    """
    return _run("vflip", img, data_format)


def hflip(img: Tensor, data_format: str = "CHW") -> Tensor:
    """Flip an image Tensor left to right.

    Args:
        img (Tensor): The image, CHW or HWC.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the flipped image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.hflip(paddle.arange(4, dtype='float32').reshape([1, 2, 2])).flatten().tolist()
        [1.0, 0.0, 3.0, 2.0]
    """
    return _run("hflip", img, data_format)


def crop(img: Tensor, top: int, left: int, height: int, width: int, data_format: str = "CHW") -> Tensor:
    """Crop the box at (top, left) of size (height, width) from an image Tensor.

    Args:
        img (Tensor): The image, CHW or HWC.
        top (int): Row of the top-left corner.
        left (int): Column of the top-left corner.
        height (int): Box height.
        width (int): Box width.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the cropped image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.crop(paddle.ones([3, 4, 4]), 1, 1, 2, 3).shape
        paddle.Size([3, 2, 3])
    """
    return _run("crop", img, top, left, height, width, data_format)


def erase(img: Tensor, i: int, j: int, h: int, w: int, v: Any, inplace: bool = False) -> Tensor:
    """Fill the box at (i, j) of size (h, w) of a CHW image Tensor with ``v``.

    Args:
        img (Tensor): The image, CHW.
        i (int): Row of the top-left corner.
        j (int): Column of the top-left corner.
        h (int): Box height.
        w (int): Box width.
        v (Tensor|np.ndarray|number): Values written into the box (broadcast to it).
        inplace (bool, optional): Write into ``img`` itself. Default: False.

    Returns:
        Tensor: the erased image (``img`` itself when ``inplace``).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> float(F_t.erase(paddle.ones([3, 4, 4]), 1, 1, 2, 2, 0.0).sum())
        36.0
    """
    out = _run("erase", img, i, j, h, w, v)
    if not inplace:
        return out
    # written back by item assignment, which Paddle's in-place rules (a leaf that needs
    # gradients refuses it) and programs (a recorded write) apply to
    img[..., i:i + h, j:j + w] = out[..., i:i + h, j:j + w]
    return img


def center_crop(img: Tensor, output_size: Any, data_format: str = "CHW") -> Tensor:
    """Crop the centre of an image Tensor.

    Args:
        img (Tensor): The image, CHW or HWC.
        output_size (int|list|tuple): (height, width) of the crop; an int for a square.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the cropped image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.center_crop(paddle.ones([3, 5, 5]), 3).shape
        paddle.Size([3, 3, 3])
    """
    return _run("center_crop", img, output_size, data_format)


def pad(img: Tensor, padding: Any, fill: Any = 0, padding_mode: str = "constant",
        data_format: str = "CHW") -> Tensor:
    """Pad the borders of an image Tensor.

    Args:
        img (Tensor): The image, CHW or HWC.
        padding (int|list|tuple): One width for every side, (left/right, top/bottom) or
            (left, top, right, bottom).
        fill (float, optional): Value of 'constant' padding. Default: 0.
        padding_mode (str, optional): 'constant', 'edge' or 'reflect'. Default: 'constant'.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the padded image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.pad(paddle.ones([3, 2, 2]), 1).shape
        paddle.Size([3, 4, 4])
    """
    return _run("pad", img, padding, fill, padding_mode, data_format)


def resize(img: Tensor, size: Any, interpolation: str = "bilinear", data_format: str = "CHW") -> Tensor:
    """Resize an image Tensor.

    Args:
        img (Tensor): The image, CHW or HWC.
        size (int|list|tuple): (height, width); an int sets the shorter side, keeping the
            aspect ratio.
        interpolation (str, optional): 'nearest', 'bilinear', 'bicubic', 'area' or 'linear'
            (those of ``nn.functional.interpolate`` for a batch of one). Default: 'bilinear'.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.

    Returns:
        Tensor: the resized image.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import functional_tensor as F_t
        >>> F_t.resize(paddle.ones([3, 4, 8]), 2).shape
        paddle.Size([3, 2, 4])
    """
    shape = list(img.shape)
    if isinstance(data_format, str) and data_format.lower() in ("chw", "hwc") and len(shape) >= 3:
        # In a program the kernel sees a placeholder for an unknown (-1) side: check the
        # declared sizes, as an int size needs both sides when the program is built.
        chw = data_format.lower() == "chw"
        K.check_resize_sides(*(shape[-2:] if chw else shape[-3:-1]), size)
    return _run("resize", img, size, interpolation, data_format)
