"""``paddle.vision.transforms``: colour transforms and random geometric transforms."""
from __future__ import annotations

import numbers
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from pagaie.vision.transforms import functional as F
from pagaie.vision.transforms.transforms import BaseTransform, Compose, _get_image_size

__all__ = [
    "BrightnessTransform", "SaturationTransform", "ContrastTransform", "HueTransform", "ColorJitter",
    "RandomAffine", "RandomRotation", "RandomPerspective", "Grayscale", "RandomErasing",
]


def _check_input(value: Any, name: str, center: float = 1, bound: tuple = (0, float("inf")),
                 clip_first_on_zero: bool = True) -> list | None:
    """A [low, high] range for a jitter amount (a number ``v`` means [center - v, center + v]);
    None when the range is the single point ``center``."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"If {name} is a single number, it must be non negative.")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name} values should be between {bound}")
    else:
        raise TypeError(f"{name} should be a single number or a list/tuple with length 2.")
    if value[0] == value[1] == center:
        return None
    return value


class _Jitter(BaseTransform):
    """Apply ``_adjust(img, factor)`` with a factor drawn uniformly from ``self.value``."""

    _adjust = None

    def _apply_image(self, img: Any) -> Any:
        if self.value is None:
            return img
        return type(self)._adjust(img, random.uniform(self.value[0], self.value[1]))


class BrightnessTransform(_Jitter):
    """Scale the brightness by a random factor in [max(0, 1 - value), 1 + value].

    Args:
        value (float|list|tuple): The jitter amount, or an explicit [min, max] range.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import BrightnessTransform
        >>> BrightnessTransform(0.4)(np.zeros((2, 2, 3), dtype='uint8')).shape
        (2, 2, 3)
    """

    _adjust = staticmethod(F.adjust_brightness)

    def __init__(self, value: Any, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.value = _check_input(value, "brightness")


class ContrastTransform(_Jitter):
    """Adjust the contrast by a random factor in [max(0, 1 - value), 1 + value].

    Args:
        value (float|list|tuple): The jitter amount (non-negative), or a [min, max] range.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import ContrastTransform
        >>> ContrastTransform(0.4)(np.zeros((2, 2, 3), dtype='uint8')).shape
        (2, 2, 3)
    """

    _adjust = staticmethod(F.adjust_contrast)

    def __init__(self, value: Any, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        if value < 0:
            raise ValueError("contrast value should be non-negative")
        self.value = _check_input(value, "contrast")


class SaturationTransform(_Jitter):
    """Adjust the saturation by a random factor in [max(0, 1 - value), 1 + value].

    Args:
        value (float|list|tuple): The jitter amount, or a [min, max] range.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import SaturationTransform
        >>> SaturationTransform(0.4)(np.zeros((2, 2, 3), dtype='uint8')).shape
        (2, 2, 3)
    """

    _adjust = staticmethod(F.adjust_saturation)

    def __init__(self, value: Any, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.value = _check_input(value, "saturation")


class HueTransform(_Jitter):
    """Shift the hue by a random amount in [-value, value] (value <= 0.5).

    Args:
        value (float|list|tuple): The jitter amount, or a [min, max] range within [-0.5, 0.5].
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import HueTransform
        >>> HueTransform(0.4)(np.zeros((2, 2, 3), dtype='uint8')).shape
        (2, 2, 3)
    """

    _adjust = staticmethod(F.adjust_hue)

    def __init__(self, value: Any, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.value = _check_input(value, "hue", center=0, bound=(-0.5, 0.5), clip_first_on_zero=False)


class ColorJitter(BaseTransform):
    """Randomly change brightness, contrast, saturation and hue, in a random order.

    Args:
        brightness (float|list|tuple, optional): See :class:`BrightnessTransform`. Default: 0.
        contrast (float|list|tuple, optional): See :class:`ContrastTransform`. Default: 0.
        saturation (float|list|tuple, optional): See :class:`SaturationTransform`. Default: 0.
        hue (float|list|tuple, optional): See :class:`HueTransform`. Default: 0.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import ColorJitter
        >>> ColorJitter(0.4, 0.4, 0.4, 0.1)(np.zeros((2, 2, 3), dtype='uint8')).shape
        (2, 2, 3)
    """

    def __init__(self, brightness: Any = 0, contrast: Any = 0, saturation: Any = 0, hue: Any = 0,
                 keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
        self.hue = hue

    def _get_param(self, brightness: Any, contrast: Any, saturation: Any, hue: Any) -> Compose:
        parts = []
        for value, cls in ((brightness, BrightnessTransform), (contrast, ContrastTransform),
                           (saturation, SaturationTransform), (hue, HueTransform)):
            if value is not None:
                parts.append(cls(value, self.keys))
        random.shuffle(parts)
        return Compose(parts)

    def _apply_image(self, img: Any) -> Any:
        return self._get_param(self.brightness, self.contrast, self.saturation, self.hue)(img)


def _check_sequence_input(x: Any, name: str, req_sizes: Sequence[int]) -> None:
    msg = req_sizes[0] if len(req_sizes) < 2 else " or ".join(str(s) for s in req_sizes)
    if not isinstance(x, Sequence):
        raise TypeError(f"{name} should be a sequence of length {msg}.")
    if len(x) not in req_sizes:
        raise ValueError(f"{name} should be sequence of length {msg}.")


def _setup_angle(x: Any, name: str, req_sizes: Sequence[int] = (2,)) -> list[float]:
    if isinstance(x, numbers.Number):
        if x < 0:
            raise ValueError(f"If {name} is a single number, it must be positive.")
        x = [-x, x]
    else:
        _check_sequence_input(x, name, req_sizes)
    return [float(d) for d in x]


class RandomAffine(BaseTransform):
    """Random affine transform: rotation, translation, scale and shear drawn per call.

    Args:
        degrees (float|list|tuple): Rotation range; a number d means (-d, d).
        translate (list|tuple, optional): Maximal horizontal and vertical shifts as fractions
            of the width and height. Default: None.
        scale (list|tuple, optional): Scale range. Default: None (scale 1).
        shear (float|list|tuple, optional): Shear range(s) in degrees: a number s means x
            shear in (-s, s); 2 values an x range; 4 values x and y ranges. Default: None.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        fill (int|list|tuple, optional): Value outside the source image. Default: 0.
        center (list|tuple, optional): Centre of rotation. Default: None (image centre).
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import RandomAffine
        >>> RandomAffine([-30, 30], translate=[0.1, 0.1])(paddle.rand([3, 8, 8])).shape
        paddle.Size([3, 8, 8])
    """

    def __init__(self, degrees: Any, translate: Any = None, scale: Any = None, shear: Any = None,
                 interpolation: str = "nearest", fill: Any = 0, center: Any = None,
                 keys: Sequence[str] | None = None) -> None:
        self.degrees = _setup_angle(degrees, name="degrees", req_sizes=(2,))
        super().__init__(keys)
        assert interpolation in ("nearest", "bilinear", "bicubic")
        self.interpolation = interpolation
        if translate is not None:
            _check_sequence_input(translate, "translate", req_sizes=(2,))
            for t in translate:
                if not 0.0 <= t <= 1.0:
                    raise ValueError("translation values should be between 0 and 1")
        self.translate = translate
        if scale is not None:
            _check_sequence_input(scale, "scale", req_sizes=(2,))
            for s in scale:
                if s <= 0:
                    raise ValueError("scale values should be positive")
        self.scale = scale
        self.shear = None if shear is None else _setup_angle(shear, name="shear", req_sizes=(2, 4))
        if fill is None:
            fill = 0
        elif not isinstance(fill, (Sequence, numbers.Number)):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fill = fill
        if center is not None:
            _check_sequence_input(center, "center", req_sizes=(2,))
        self.center = center

    def _get_param(self, img_size: Sequence[int], degrees: Sequence[float], translate: Any = None,
                   scale_ranges: Any = None, shears: Any = None) -> tuple:
        angle = random.uniform(degrees[0], degrees[1])
        if translate is not None:
            max_dx = float(translate[0] * img_size[0])
            max_dy = float(translate[1] * img_size[1])
            translations = (int(random.uniform(-max_dx, max_dx)), int(random.uniform(-max_dy, max_dy)))
        else:
            translations = (0, 0)
        scale = 1.0 if scale_ranges is None else random.uniform(scale_ranges[0], scale_ranges[1])
        shear_x = shear_y = 0.0
        if shears is not None:
            shear_x = random.uniform(shears[0], shears[1])
            if len(shears) == 4:
                shear_y = random.uniform(shears[2], shears[3])
        return angle, translations, scale, (shear_x, shear_y)

    def _apply_image(self, img: Any) -> Any:
        w, h = _get_image_size(img)
        angle, translations, scale, shear = self._get_param([w, h], self.degrees, self.translate,
                                                            self.scale, self.shear)
        return F.affine(img, angle, translations, scale, shear, interpolation=self.interpolation,
                        fill=self.fill, center=self.center)


class RandomRotation(BaseTransform):
    """Rotate the image by a random angle.

    Args:
        degrees (float|list|tuple): Angle range; a number d means (-d, d).
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        expand (bool, optional): Enlarge the output to hold the whole rotated image. Default: False.
        center (list|tuple, optional): Centre of rotation. Default: None (image centre).
        fill (int|tuple, optional): Value outside the source image. Default: 0.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import RandomRotation
        >>> RandomRotation(90)(np.zeros((4, 4, 3), dtype='uint8')).shape
        (4, 4, 3)
    """

    def __init__(self, degrees: Any, interpolation: str = "nearest", expand: bool = False,
                 center: Any = None, fill: Any = 0, keys: Sequence[str] | None = None) -> None:
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("If degrees is a single number, it must be positive.")
            self.degrees = (-degrees, degrees)
        else:
            if len(degrees) != 2:
                raise ValueError("If degrees is a sequence, it must be of len 2.")
            self.degrees = degrees
        super().__init__(keys)
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def _get_param(self, degrees: Sequence[float]) -> float:
        return random.uniform(degrees[0], degrees[1])

    def _apply_image(self, img: Any) -> Any:
        angle = self._get_param(self.degrees)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)


class RandomPerspective(BaseTransform):
    """With probability ``prob``, move the image corners randomly inwards (perspective warp).

    Args:
        prob (float, optional): Probability of transforming. Default: 0.5.
        distortion_scale (float, optional): How far corners may move, in [0, 1]. Default: 0.5.
        interpolation (str, optional): 'nearest', 'bilinear' or 'bicubic'. Default: 'nearest'.
        fill (int|list|tuple, optional): Value outside the source image. Default: 0.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import RandomPerspective
        >>> RandomPerspective(prob=1.0)(paddle.rand([3, 8, 8])).shape
        paddle.Size([3, 8, 8])
    """

    def __init__(self, prob: float = 0.5, distortion_scale: float = 0.5, interpolation: str = "nearest",
                 fill: Any = 0, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        assert 0 <= prob <= 1, "probability must be between 0 and 1"
        assert 0 <= distortion_scale <= 1, "distortion_scale must be between 0 and 1"
        assert interpolation in ("nearest", "bilinear", "bicubic")
        assert isinstance(fill, (numbers.Number, str, list, tuple))
        self.prob = prob
        self.distortion_scale = distortion_scale
        self.interpolation = interpolation
        self.fill = fill

    def get_params(self, width: int, height: int, distortion_scale: float) -> tuple[list, list]:
        """Random end corners (top-left, top-right, bottom-right, bottom-left) for the image corners.

        Args:
            width (int): Image width.
            height (int): Image height.
            distortion_scale (float): How far corners may move, in [0, 1].

        Returns:
            (startpoints, endpoints): two lists of four [x, y] points.
        """
        dx = int(distortion_scale * (width // 2))
        dy = int(distortion_scale * (height // 2))

        def low(n: int) -> int:
            return int(random.uniform(0, n + 1))

        def high(size: int, n: int) -> int:
            return int(random.uniform(size - n - 1, size))

        topleft = [low(dx), low(dy)]
        topright = [high(width, dx), low(dy)]
        botright = [high(width, dx), high(height, dy)]
        botleft = [low(dx), high(height, dy)]
        startpoints = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return startpoints, [topleft, topright, botright, botleft]

    def _apply_image(self, img: Any) -> Any:
        width, height = _get_image_size(img)
        if random.random() < self.prob:
            start, end = self.get_params(width, height, self.distortion_scale)
            return F.perspective(img, start, end, self.interpolation, self.fill)
        return img


class Grayscale(BaseTransform):
    """Convert the image to grayscale.

    Args:
        num_output_channels (int, optional): 1, or 3 (grey copied to three channels). Default: 1.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import Grayscale
        >>> Grayscale()(np.zeros((4, 4, 3), dtype='uint8')).shape
        (4, 4, 1)
    """

    def __init__(self, num_output_channels: int = 1, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img: Any) -> Any:
        return F.to_grayscale(img, self.num_output_channels)


class RandomErasing(BaseTransform):
    """With probability ``prob``, erase a random rectangle of the image.

    Args:
        prob (float, optional): Probability of erasing. Default: 0.5.
        scale (list|tuple, optional): Range of the erased area as a fraction of the image.
            Default: (0.02, 0.33).
        ratio (list|tuple, optional): Range of the box aspect ratio. Default: (0.3, 3.3).
        value (int|float|list|tuple|str, optional): Fill value: a number, one value per channel,
            or 'random' (normal noise). Default: 0.
        inplace (bool, optional): Modify the input itself. Default: False.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import RandomErasing
        >>> RandomErasing(prob=1.0)(paddle.ones([3, 8, 8])).shape
        paddle.Size([3, 8, 8])
    """

    def __init__(self, prob: float = 0.5, scale: Sequence[float] = (0.02, 0.33),
                 ratio: Sequence[float] = (0.3, 3.3), value: Any = 0, inplace: bool = False,
                 keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        assert isinstance(scale, (tuple, list)), "scale should be a tuple or list"
        assert scale[0] >= 0 and scale[1] <= 1 and scale[0] <= scale[1], \
            "scale should be of kind (min, max) and in range [0, 1]"
        assert isinstance(ratio, (tuple, list)), "ratio should be a tuple or list"
        assert 0 <= ratio[0] <= ratio[1], "ratio should be of kind (min, max)"
        assert 0 <= prob <= 1, "The probability should be in range [0, 1]"
        assert isinstance(value, (numbers.Number, str, tuple, list)), \
            "value should be a number, tuple, list or str"
        if isinstance(value, str) and value != "random":
            raise ValueError("value must be 'random' when type is str")
        self.prob = prob
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    def _dynamic_get_param(self, img: Any, scale: Sequence[float], ratio: Sequence[float],
                           value: Any) -> tuple:
        import pagaie
        if not (F._is_pil_image(img) or F._is_numpy_image(img) or F._is_tensor_image(img)):
            # (Paddle fails there with an UnboundLocalError, its bug)
            raise TypeError(f"paddle.vision.transforms.RandomErasing: the image should be a PIL Image, "
                            f"numpy.ndarray or Tensor, got {type(img).__name__}")
        shape = np.asarray(img).shape if F._is_pil_image(img) else tuple(img.shape)
        if len(shape) < 3:
            # Paddle fails the same way (IndexError) on a 2-D (single-channel HW) image.
            raise IndexError(f"paddle.vision.transforms.RandomErasing: the image should have 3 dimensions "
                             f"(HWC for PIL/numpy, CHW for Tensor), got shape {list(shape)}")
        if F._is_tensor_image(img):
            c, h, w = shape[-3:]
        else:
            h, w, c = shape[-3:]
        area = h * w
        log_ratio = np.log(ratio)
        for _ in range(10):
            erase_area = np.random.uniform(*scale) * area
            aspect = np.exp(np.random.uniform(*log_ratio))
            eh = int(round(np.sqrt(erase_area * aspect)))
            ew = int(round(np.sqrt(erase_area / aspect)))
            if eh >= h or ew >= w:
                continue
            if F._is_tensor_image(img):
                if value is None:
                    v = pagaie.normal(shape=[c, eh, ew]).astype(img.dtype)
                else:
                    v = pagaie.to_tensor(value, dtype=img.dtype)[:, None, None]
            elif value is None:
                v = np.random.normal(size=[eh, ew, c]) * 255
            else:
                v = np.array(value)[None, None, :]
            top = np.random.randint(0, h - eh + 1)
            left = np.random.randint(0, w - ew + 1)
            return top, left, eh, ew, v
        return 0, 0, h, w, img

    def _apply_image(self, img: Any) -> Any:
        if random.random() >= self.prob:
            return img
        if isinstance(self.value, numbers.Number):
            value = [self.value]
        elif isinstance(self.value, str):
            value = None
        else:
            value = self.value
        if value is not None and len(value) not in (1, 3):
            raise ValueError("Value should be a single number or a sequence with length equals to image's channel.")
        top, left, eh, ew, v = self._dynamic_get_param(img, self.scale, self.ratio, value)
        return F.erase(img, top, left, eh, ew, v, self.inplace)
