"""Oxford 102 Flowers, read from ``102flowers.tgz`` and the two ``.mat`` label files."""
from __future__ import annotations

import os
import tarfile
from typing import Any, Callable

import numpy as np

from pagaie.vision.datasets._common import Dataset, check_backend, resolve

__all__ = ["Flowers"]

_DATA = ("http://paddlemodels.bj.bcebos.com/flowers/102flowers.tgz", "52808999861908f626f3c1f4e79d11fa")
_LABEL = ("http://paddlemodels.bj.bcebos.com/flowers/imagelabels.mat", "e0620be6f572b9609742df49c70aed4d")
_SETID = ("http://paddlemodels.bj.bcebos.com/flowers/setid.mat", "a5357ecc9cb78c4bef273ce3793fc85c")
# Paddle trains on the (larger) official test split and tests on the training split.
_FLAGS = {"train": "tstid", "test": "trnid", "valid": "valid"}


def _loadmat(path: str) -> dict:
    try:
        import scipy.io
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("paddle.vision.datasets.Flowers: reading the .mat label files needs scipy "
                          "(`pip install scipy`)") from e
    return scipy.io.loadmat(path)


class Flowers(Dataset):
    """Oxford 102 Flowers: RGB JPEG images in 102 classes.

    The archive is extracted once next to itself (``<data_file without .tgz>/jpg``).

    Args:
        data_file (str, optional): ``102flowers.tgz``. Default: None (Paddle's cache).
        label_file (str, optional): ``imagelabels.mat``. Default: None.
        setid_file (str, optional): ``setid.mat``. Default: None.
        mode (str, optional): 'train', 'valid' or 'test'. Default: 'train'.
        transform (callable, optional): Applied to each image. Default: None.
        download (bool, optional): Fetch absent files into the cache. Default: True.
        backend (str, optional): 'pil' (PIL Images) or 'cv2' (float numpy arrays). Default:
            the current image backend.

    Examples:
        >>> from pagaie.vision.datasets import Flowers
        >>> Flowers.__name__
        'Flowers'
    """

    def __init__(self, data_file: str | None = None, label_file: str | None = None,
                 setid_file: str | None = None, mode: str = "train", transform: Callable | None = None,
                 download: bool = True, backend: str | None = None) -> None:
        assert mode.lower() in ("train", "valid", "test"), \
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        self.backend = check_backend(backend)
        flag = _FLAGS[mode.lower()]
        api = "paddle.vision.datasets.Flowers"
        data_file = resolve(data_file or None, download, *_DATA, "flowers", api, "data_file")
        label_file = resolve(label_file or None, download, *_LABEL, "flowers", api, "label_file")
        setid_file = resolve(setid_file or None, download, *_SETID, "flowers", api, "setid_file")
        self.transform = transform
        self.data_path = data_file.replace(".tgz", "/")
        os.makedirs(self.data_path, exist_ok=True)
        if not os.path.exists(os.path.join(self.data_path, "jpg")):
            with tarfile.open(data_file) as tar:
                kw = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                tar.extractall(self.data_path, **kw)
        self.labels = _loadmat(label_file)["labels"][0]
        self.indexes = _loadmat(setid_file)[flag][0]

    def __getitem__(self, idx: int) -> tuple[Any, np.ndarray]:
        from PIL import Image
        index = self.indexes[idx]
        label = np.array([self.labels[index - 1]])
        image = Image.open(os.path.join(self.data_path, f"jpg/image_{index:05}.jpg"))
        if self.backend == "cv2":
            image = np.array(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        import pagaie
        return image.astype(pagaie.get_default_dtype()), label.astype("int64")

    def __len__(self) -> int:
        return len(self.indexes)
