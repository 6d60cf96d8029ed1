"""``paddle.vision.transforms``: the transform classes (base, geometry and crops).

A transform is a callable object. ``BaseTransform`` applies ``_apply_<key>`` to each input
named in ``keys`` (default ``('image',)``) and passes further inputs through. Random
transforms draw from Python's ``random`` and ``numpy.random`` exactly as Paddle does, so
seeding both reproduces Paddle's choices.
"""
from __future__ import annotations

import math
import numbers
import random
import traceback
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from pagaie.vision.transforms import functional as F

__all__ = [
    "BaseTransform", "Compose", "Resize", "RandomResizedCrop", "CenterCrop", "RandomHorizontalFlip",
    "RandomVerticalFlip", "Transpose", "Normalize", "RandomCrop", "Pad", "ToTensor",
]


def _get_image_size(img: Any) -> tuple[int, int]:
    """(width, height) of a PIL Image, HWC array or CHW / NCHW Tensor."""
    if F._is_pil_image(img):
        return img.size
    if F._is_numpy_image(img):
        return img.shape[1], img.shape[0]
    if F._is_tensor_image(img):
        if img.ndim in (3, 4):
            return img.shape[-1], img.shape[-2]
        raise ValueError(f"The dim for input Tensor should be 3-D or 4-D, but received {img.ndim}")
    raise TypeError(f"Unexpected type {type(img)}")


class Compose:
    """Chain several transforms: each one's output is the next one's input.

    Args:
        transforms (list|tuple): The transforms to apply, in order.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import Compose, Resize, ToTensor
        >>> t = Compose([Resize((4, 4)), ToTensor()])
        >>> t(np.zeros((8, 8, 3), dtype='uint8')).shape
        paddle.Size([3, 4, 4])
    """

    def __init__(self, transforms: Sequence[Any]) -> None:
        self.transforms = transforms

    def __call__(self, data: Any) -> Any:
        for f in self.transforms:
            try:
                data = f(data)
            except Exception as e:
                print(f"fail to perform transform [{f}] with error: {e} and stack:\n{traceback.format_exc()}")
                raise e
        return data

    def __repr__(self) -> str:
        body = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({body}\n)"


class BaseTransform:
    """Base class of the transforms: applies ``_apply_<key>`` to each input named in ``keys``.

    Subclasses implement ``_apply_image`` (and ``_apply_boxes``, ``_apply_mask``,
    ``_apply_coords`` where meaningful) and may draw shared random parameters once per call
    in ``_get_params`` (stored in ``self.params``).

    Args:
        keys (list|tuple, optional): Names of the inputs, among 'image', 'coords', 'boxes'
            and 'mask'. Default: ('image',).

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import BaseTransform
        >>> class Invert(BaseTransform):
        ...     def _apply_image(self, img):
        ...         return 255 - img
        >>> Invert()(np.zeros((1, 1, 1), dtype='uint8')).item()
        255
    """

    def __init__(self, keys: Sequence[str] | None = None) -> None:
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence):
            raise ValueError(f"keys should be a sequence, but got keys={keys}")
        for k in keys:
            if self._get_apply(k) is None:
                raise NotImplementedError(f"{k} is unsupported data structure")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs: tuple) -> Any:
        return None

    def __call__(self, inputs: Any) -> Any:
        if not isinstance(inputs, tuple):
            inputs = (inputs,)
        self.params = self._get_params(inputs)
        n = min(len(inputs), len(self.keys))
        outputs = [self._get_apply(self.keys[i])(inputs[i]) for i in range(n)]
        outputs.extend(inputs[n:])
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _get_apply(self, key: str) -> Any:
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image: Any) -> Any:
        raise NotImplementedError

    def _apply_boxes(self, boxes: Any) -> Any:
        raise NotImplementedError

    def _apply_mask(self, mask: Any) -> Any:
        raise NotImplementedError

    def _apply_coords(self, coords: Any) -> Any:
        raise NotImplementedError


class ToTensor(BaseTransform):
    """Convert a PIL Image or HWC numpy array to a Tensor; uint8 data is scaled to [0, 1].

    Args:
        data_format (str, optional): Layout of the result, 'CHW' or 'HWC'. Default: 'CHW'.
        keys (list|tuple, optional): Input names, see :class:`BaseTransform`. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import ToTensor
        >>> ToTensor()(np.zeros((2, 3, 3), dtype='uint8')).shape
        paddle.Size([3, 2, 3])
    """

    def __init__(self, data_format: str = "CHW", keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img: Any) -> Any:
        return F.to_tensor(img, self.data_format)


class Resize(BaseTransform):
    """Resize the image to ``size``.

    Args:
        size (int|list|tuple): (height, width), or an int for the shorter side (aspect kept).
        interpolation (str, optional): See :func:`functional.resize`. Default: 'bilinear'.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import Resize
        >>> Resize((2, 5))(np.zeros((4, 4, 3), dtype='uint8')).shape
        (2, 5, 3)
    """

    def __init__(self, size: Any, interpolation: str = "bilinear", keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        assert isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img: Any) -> Any:
        return F.resize(img, self.size, self.interpolation)


class RandomResizedCrop(BaseTransform):
    """Crop a random area and aspect ratio of the image, then resize it to ``size``.

    Args:
        size (int|list|tuple): Output (height, width), or an int for a square.
        scale (list|tuple, optional): Range of the crop area, as a fraction of the image.
            Default: (0.08, 1.0).
        ratio (list|tuple, optional): Range of the crop aspect ratio. Default: (3/4, 4/3).
        interpolation (str, optional): See :func:`functional.resize`. Default: 'bilinear'.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import RandomResizedCrop
        >>> RandomResizedCrop(4)(np.zeros((10, 10, 3), dtype='uint8')).shape
        (4, 4, 3)
    """

    def __init__(self, size: Any, scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3.0 / 4, 4.0 / 3), interpolation: str = "bilinear",
                 keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.size = (size, size) if isinstance(size, int) else size
        assert scale[0] <= scale[1], "scale should be of kind (min, max)"
        assert ratio[0] <= ratio[1], "ratio should be of kind (min, max)"
        self.scale = scale
        self.ratio = ratio
        self.interpolation = interpolation

    def _dynamic_get_param(self, image: Any, attempts: int = 10) -> tuple[int, int, int, int]:
        width, height = _get_image_size(image)
        area = height * width
        log_ratio = tuple(math.log(x) for x in self.ratio)
        for _ in range(attempts):
            target_area = np.random.uniform(*self.scale) * area
            aspect = math.exp(np.random.uniform(*log_ratio))
            w = int(round(math.sqrt(target_area * aspect)))
            h = int(round(math.sqrt(target_area / aspect)))
            if 0 < w <= width and 0 < h <= height:
                return random.randint(0, height - h), random.randint(0, width - w), h, w
        # Fallback: the largest centred crop within the ratio range.
        in_ratio = float(width) / float(height)
        if in_ratio < min(self.ratio):
            w, h = width, int(round(width / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            w, h = int(round(height * max(self.ratio))), height
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img: Any) -> Any:
        i, j, h, w = self._dynamic_get_param(img)
        return F.resize(F.crop(img, i, j, h, w), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    """Crop the centre of the image.

    Args:
        size (int|list|tuple): (height, width) of the crop, or one int for both.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import CenterCrop
        >>> CenterCrop(2)(np.zeros((4, 4, 3))).shape
        (2, 2, 3)
    """

    def __init__(self, size: Any, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size

    def _apply_image(self, img: Any) -> Any:
        return F.center_crop(img, self.size)


class RandomHorizontalFlip(BaseTransform):
    """Flip the image left to right with probability ``prob``.

    Args:
        prob (float, optional): Probability of flipping. Default: 0.5.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import RandomHorizontalFlip
        >>> RandomHorizontalFlip(1.0)(np.arange(9, dtype='uint8').reshape(1, 3, 3))[0, :, 0].tolist()
        [6, 3, 0]
    """

    def __init__(self, prob: float = 0.5, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        assert 0 <= prob <= 1, "probability must be between 0 and 1"
        self.prob = prob

    def _apply_image(self, img: Any) -> Any:
        return F.hflip(img) if random.random() < self.prob else img


class RandomVerticalFlip(BaseTransform):
    """Flip the image top to bottom with probability ``prob``.

    Args:
        prob (float, optional): Probability of flipping. Default: 0.5.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import RandomVerticalFlip
        >>> RandomVerticalFlip(1.0)(np.arange(3, dtype='uint8').reshape(3, 1, 1))[:, 0, 0].tolist()
        [2, 1, 0]
    """

    def __init__(self, prob: float = 0.5, keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        assert 0 <= prob <= 1, "probability must be between 0 and 1"
        self.prob = prob

    def _apply_image(self, img: Any) -> Any:
        return F.vflip(img) if random.random() < self.prob else img


class Normalize(BaseTransform):
    """Normalize the image channel-wise: ``(img - mean) / std``.

    Args:
        mean (float|list|tuple, optional): Per-channel means (a number is used for 3 channels).
            Default: 0.0.
        std (float|list|tuple, optional): Per-channel standard deviations. Default: 1.0.
        data_format (str, optional): 'CHW' or 'HWC'. Default: 'CHW'.
        to_rgb (bool, optional): Reverse the channel order first (numpy / PIL). Default: False.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.transforms import Normalize
        >>> Normalize(mean=0.5, std=0.5)(paddle.ones([3, 1, 1])).flatten().tolist()
        [1.0, 1.0, 1.0]
    """

    def __init__(self, mean: Any = 0.0, std: Any = 1.0, data_format: str = "CHW", to_rgb: bool = False,
                 keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        if isinstance(mean, numbers.Number):
            mean = [mean, mean, mean]
        if isinstance(std, numbers.Number):
            std = [std, std, std]
        self.mean = mean
        self.std = std
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img: Any) -> Any:
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


class Transpose(BaseTransform):
    """Permute the image axes (HWC -> CHW by default); PIL Images become numpy arrays.

    Args:
        order (list|tuple, optional): The new axis order. Default: (2, 0, 1).
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import Transpose
        >>> Transpose()(np.zeros((4, 5, 3))).shape
        (3, 4, 5)
    """

    def __init__(self, order: Sequence[int] = (2, 0, 1), keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.order = order

    def _apply_image(self, img: Any) -> Any:
        if F._is_tensor_image(img):
            return img.transpose(self.order)
        if F._is_pil_image(img):
            img = np.asarray(img)
        if img.ndim == 2:
            img = img[..., None]
        return img.transpose(self.order)


class RandomCrop(BaseTransform):
    """Crop the image at a random position, padding it first if asked.

    Args:
        size (int|list|tuple): (height, width) of the crop, or one int for both.
        padding (int|list|tuple, optional): Padding applied before cropping (see
            :func:`functional.pad`). Default: None.
        pad_if_needed (bool, optional): Pad the image when smaller than ``size``. Default: False.
        fill (int|tuple, optional): Fill value for constant padding. Default: 0.
        padding_mode (str, optional): 'constant', 'edge', 'reflect' or 'symmetric'. Default: 'constant'.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import RandomCrop
        >>> RandomCrop(6, pad_if_needed=True)(np.zeros((4, 4, 3), dtype='uint8')).shape
        (6, 6, 3)
    """

    def __init__(self, size: Any, padding: Any = None, pad_if_needed: bool = False, fill: Any = 0,
                 padding_mode: str = "constant", keys: Sequence[str] | None = None) -> None:
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def _get_param(self, img: Any, output_size: Any) -> tuple[int, int, int, int]:
        w, h = _get_image_size(img)
        th, tw = output_size
        if w == tw and h == th:
            return 0, 0, h, w
        return random.randint(0, h - th), random.randint(0, w - tw), th, tw

    def _apply_image(self, img: Any) -> Any:
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        w, h = _get_image_size(img)
        if self.pad_if_needed and w < self.size[1]:
            img = F.pad(img, (self.size[1] - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < self.size[0]:
            img = F.pad(img, (0, self.size[0] - h), self.fill, self.padding_mode)
        return F.crop(img, *self._get_param(img, self.size))


class Pad(BaseTransform):
    """Pad the image borders.

    Args:
        padding (int|list|tuple): One value for all borders, (left/right, top/bottom) or
            (left, top, right, bottom).
        fill (int|list|tuple, optional): Fill value for constant padding. Default: 0.
        padding_mode (str, optional): 'constant', 'edge', 'reflect' or 'symmetric'. Default: 'constant'.
        keys (list|tuple, optional): Input names. Default: None.

    Examples:
        >>> import numpy as np
        >>> from pagaie.vision.transforms import Pad
        >>> Pad(2)(np.zeros((4, 4, 3), dtype='uint8')).shape
        (8, 8, 3)
    """

    def __init__(self, padding: Any, fill: Any = 0, padding_mode: str = "constant",
                 keys: Sequence[str] | None = None) -> None:
        assert isinstance(padding, (numbers.Number, list, tuple))
        assert isinstance(fill, (numbers.Number, str, list, tuple))
        assert padding_mode in ("constant", "edge", "reflect", "symmetric")
        if isinstance(padding, list):
            padding = tuple(padding)
        if isinstance(fill, list):
            fill = tuple(fill)
        if isinstance(padding, Sequence) and len(padding) not in (2, 4):
            raise ValueError("Padding must be an int or a 2, or 4 element tuple, not a "
                             f"{len(padding)} element tuple")
        super().__init__(keys)
        self.padding = padding
        self.fill = fill
        self.padding_mode = padding_mode

    def _apply_image(self, img: Any) -> Any:
        return F.pad(img, self.padding, self.fill, self.padding_mode)
