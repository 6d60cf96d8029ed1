"""DatasetFolder and ImageFolder: datasets over a directory tree of image files."""
from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from pagaie.vision.datasets._common import Dataset

__all__ = ["DatasetFolder", "ImageFolder"]

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename: str, extensions: Sequence[str]) -> bool:
    """Whether ``filename`` ends with one of ``extensions`` (case-insensitive)."""
    assert isinstance(extensions, (list, tuple)), "`extensions` must be list or tuple."
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def _walk_files(top: str) -> list[str]:
    """All files under ``top`` (following links), directories and names in sorted order."""
    out = []
    for root, _, fnames in sorted(os.walk(top, followlinks=True)):
        out.extend(os.path.join(root, f) for f in sorted(fnames))
    return out


def make_dataset(dir: str, class_to_idx: dict, extensions: Any, is_valid_file: Any = None) -> list:
    """(path, class index) of every valid file under each class sub-directory of ``dir``."""
    dir = os.path.expanduser(dir)
    if extensions is not None:
        def is_valid_file(x: str) -> bool:
            return has_valid_extension(x, extensions)
    images = []
    for target in sorted(class_to_idx):
        d = os.path.join(dir, target)
        if os.path.isdir(d):
            images.extend((p, class_to_idx[target]) for p in _walk_files(d) if is_valid_file(p))
    return images


def pil_loader(path: str) -> Any:
    from PIL import Image
    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


def cv2_loader(path: str) -> Any:
    from pagaie.vision.transforms.functional_cv2 import cv2_module
    cv2 = cv2_module()
    return cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)


def default_loader(path: str) -> Any:
    from pagaie.vision.image import get_image_backend
    return cv2_loader(path) if get_image_backend() == "cv2" else pil_loader(path)


class DatasetFolder(Dataset):
    """A dataset over ``root/<class>/.../<file>``: one sample per valid file, labelled by its
    class directory (classes sorted by name, indexed from 0).

    Args:
        root (str): The root directory.
        loader (callable, optional): Reads one file; default: PIL RGB image, or an RGB numpy
            array with the 'cv2' image backend.
        extensions (list|tuple, optional): Accepted file endings. Default: common image types.
        transform (callable, optional): Applied to each loaded sample. Default: None.
        is_valid_file (callable, optional): Accepted for Paddle compatibility; as in Paddle,
            the extension check (default list included) decides which files are used.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> from pagaie.vision.datasets import DatasetFolder
        >>> root = tempfile.mkdtemp()
        >>> for cls in ('cat', 'dog'):
        ...     os.makedirs(os.path.join(root, cls))
        ...     Image.fromarray(np.zeros((4, 4, 3), 'uint8')).save(os.path.join(root, cls, 'a.png'))
        >>> ds = DatasetFolder(root)
        >>> len(ds), ds.classes, ds[1][1]
        (2, ['cat', 'dog'], 1)
    """

    def __init__(self, root: str, loader: Callable | None = None, extensions: Sequence[str] | None = None,
                 transform: Callable | None = None, is_valid_file: Callable | None = None) -> None:
        import pagaie
        self.root = root
        self.transform = transform
        if extensions is None:
            extensions = IMG_EXTENSIONS
        classes, class_to_idx = self._find_classes(self.root)
        samples = make_dataset(self.root, class_to_idx, extensions, is_valid_file)
        if not samples:
            raise RuntimeError(f"Found 0 directories in subfolders of: {self.root}\n"
                               f"Supported extensions are: {','.join(extensions)}")
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]
        self.dtype = pagaie.get_default_dtype()

    def _find_classes(self, dir: str) -> tuple[list[str], dict[str, int]]:
        classes = sorted(d.name for d in os.scandir(dir) if d.is_dir())
        return classes, {c: i for i, c in enumerate(classes)}

    def __getitem__(self, index: int) -> tuple[Any, int]:
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self) -> int:
        return len(self.samples)


class ImageFolder(Dataset):
    """A dataset over every image file under ``root`` (no labels): items are ``[sample]``.

    Args:
        root (str): The root directory.
        loader (callable, optional): Reads one file; see :class:`DatasetFolder`.
        extensions (list|tuple, optional): Accepted file endings. Default: common image types.
        transform (callable, optional): Applied to each loaded sample. Default: None.
        is_valid_file (callable, optional): Accepted for Paddle compatibility; as in Paddle,
            the extension check decides which files are used.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> from pagaie.vision.datasets import ImageFolder
        >>> root = tempfile.mkdtemp()
        >>> Image.fromarray(np.zeros((4, 4, 3), 'uint8')).save(os.path.join(root, 'a.png'))
        >>> ds = ImageFolder(root)
        >>> len(ds), ds[0][0].size
        (1, (4, 4))
    """

    def __init__(self, root: str, loader: Callable | None = None, extensions: Sequence[str] | None = None,
                 transform: Callable | None = None, is_valid_file: Callable | None = None) -> None:
        self.root = root
        if extensions is None:
            extensions = IMG_EXTENSIONS
        samples = [f for f in _walk_files(os.path.expanduser(root)) if has_valid_extension(f, extensions)]
        if not samples:
            raise RuntimeError(f"Found 0 files in subfolders of: {self.root}\n"
                               f"Supported extensions are: {','.join(extensions)}")
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.samples = samples
        self.transform = transform

    def __getitem__(self, index: int) -> list:
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self) -> int:
        return len(self.samples)
