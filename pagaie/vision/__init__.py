"""paddle.vision."""

from pagaie.vision import datasets, transforms  # noqa: F401
from pagaie.vision import models, ops  # noqa: F401
from pagaie.vision.models import *  # noqa: F401,F403
from pagaie.vision.datasets import (  # noqa: F401
    MNIST, VOC2012, Cifar10, Cifar100, DatasetFolder, FashionMNIST, Flowers, ImageFolder,
)
from pagaie.vision.image import get_image_backend, image_load, set_image_backend  # noqa: F401
from pagaie.vision.transforms import (  # noqa: F401
    BaseTransform, BrightnessTransform, CenterCrop, ColorJitter, Compose, ContrastTransform, Grayscale,
    HueTransform, Normalize, Pad, RandomCrop, RandomHorizontalFlip, RandomResizedCrop, RandomRotation,
    RandomVerticalFlip, Resize, SaturationTransform, ToTensor, Transpose, adjust_brightness,
    adjust_contrast, adjust_hue, center_crop, crop, hflip, normalize, pad, resize, rotate,
    to_grayscale, to_tensor, vflip,
)

__all__: list[str] = ["set_image_backend", "get_image_backend", "image_load"]
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = []
