"""paddle.vision.transforms: image transforms over PIL Images, numpy HWC arrays and Tensors."""
from pagaie.vision.transforms import functional  # noqa: F401
from pagaie.vision.transforms.functional import (  # noqa: F401
    adjust_brightness, adjust_contrast, adjust_hue, affine, center_crop, crop,
    erase, hflip, normalize, pad, perspective, resize, rotate, to_grayscale, to_tensor, vflip,
)
from pagaie.vision.transforms.transforms import (  # noqa: F401
    BaseTransform, CenterCrop, Compose, Normalize, Pad, RandomCrop, RandomHorizontalFlip,
    RandomResizedCrop, RandomVerticalFlip, Resize, ToTensor, Transpose,
)
from pagaie.vision.transforms.transforms_random import (  # noqa: F401
    BrightnessTransform, ColorJitter, ContrastTransform, Grayscale, HueTransform, RandomAffine,
    RandomErasing, RandomPerspective, RandomRotation, SaturationTransform,
)

__all__ = [
    "BaseTransform", "Compose", "Resize", "RandomResizedCrop", "CenterCrop", "RandomHorizontalFlip",
    "RandomVerticalFlip", "Transpose", "Normalize", "BrightnessTransform", "SaturationTransform",
    "ContrastTransform", "HueTransform", "ColorJitter", "RandomCrop", "Pad", "RandomAffine",
    "RandomRotation", "RandomPerspective", "Grayscale", "ToTensor", "RandomErasing",
    "to_tensor", "hflip", "vflip", "resize", "pad", "affine", "rotate", "perspective",
    "to_grayscale", "crop", "center_crop", "adjust_brightness", "adjust_contrast", "adjust_hue",
    "normalize", "erase",
]
