"""The image backend of ``paddle.vision`` (how datasets and loaders read images)."""
from __future__ import annotations

from typing import Any

__all__ = ["set_image_backend", "get_image_backend", "image_load"]

_BACKENDS = ("pil", "cv2", "tensor")
_image_backend = "pil"


def _check_backend(backend: Any) -> None:
    if backend not in _BACKENDS:
        raise ValueError(f"Expected backend are one of ['pil', 'cv2', 'tensor'], but got {backend}")


def set_image_backend(backend: str) -> None:
    """Set the backend used to load images: 'pil', 'cv2' or 'tensor'.

    Args:
        backend (str): 'pil' (PIL Images), 'cv2' (numpy BGR arrays via OpenCV) or 'tensor'.

    Examples:
        >>> from pagaie.vision import get_image_backend, set_image_backend
        >>> set_image_backend('cv2')
        >>> get_image_backend()
        'cv2'
        >>> set_image_backend('pil')
    """
    global _image_backend
    _check_backend(backend)
    _image_backend = backend


def get_image_backend() -> str:
    """The current image backend, 'pil' unless changed by :func:`set_image_backend`.

    Returns:
        str: 'pil', 'cv2' or 'tensor'.

    Examples:
        >>> from pagaie.vision import get_image_backend
        >>> get_image_backend()
        'pil'
    """
    return _image_backend


def image_load(path: str, backend: str | None = None) -> Any:
    """Load an image file with the given backend.

    Args:
        path (str): Path of the image file.
        backend (str, optional): 'pil' returns a PIL Image, 'cv2' a BGR uint8 numpy array;
            'tensor' returns None (as Paddle does). Default: the current image backend.

    Returns:
        PIL.Image | numpy.ndarray | None: The image.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> from pagaie.vision import image_load
        >>> path = os.path.join(tempfile.mkdtemp(), 'a.png')
        >>> Image.fromarray(np.zeros((4, 5, 3), dtype='uint8')).save(path)
        >>> image_load(path).size
        (5, 4)
        >>> image_load(path, backend='cv2').shape
        (4, 5, 3)
    """
    if backend is None:
        backend = _image_backend
    _check_backend(backend)
    if backend == "pil":
        from PIL import Image
        return Image.open(path)
    if backend == "cv2":
        from pagaie.vision.transforms.functional_cv2 import cv2_module
        return cv2_module().imread(path)
    return None
