"""MNIST and FashionMNIST, read from the gzipped idx files."""
from __future__ import annotations

import gzip
import struct
from typing import Any, Callable

import numpy as np

from pagaie.vision.datasets._common import Dataset, check_backend, resolve

__all__ = ["MNIST", "FashionMNIST"]


def _read_idx(path: str) -> tuple[tuple[int, ...], bytes, int]:
    """(dims, buffer, data offset) of a gzipped big-endian idx file."""
    with gzip.GzipFile(path, "rb") as f:
        buf = f.read()
    ndim = buf[3]
    dims = struct.unpack_from(">" + "I" * ndim, buf, 4)
    return dims, buf, 4 + 4 * ndim


class MNIST(Dataset):
    """The MNIST handwritten digits: 28x28 grey images and int64 labels.

    Args:
        image_path (str, optional): The images idx file (``*-images-idx3-ubyte.gz``).
            Default: None (Paddle's cache, downloaded if possible).
        label_path (str, optional): The labels idx file (``*-labels-idx1-ubyte.gz``). Default: None.
        mode (str, optional): 'train' or 'test'. Default: 'train'.
        transform (callable, optional): Applied to each image. Default: None.
        download (bool, optional): Fetch absent files into the cache. Default: True.
        backend (str, optional): 'pil' (PIL Images) or 'cv2' (float numpy arrays). Default:
            the current image backend.

    Examples:
        >>> import gzip, os, struct, tempfile
        >>> import numpy as np
        >>> from pagaie.vision.datasets import MNIST
        >>> d = tempfile.mkdtemp()
        >>> with gzip.open(os.path.join(d, 'img.gz'), 'wb') as f:
        ...     _ = f.write(struct.pack('>IIII', 2051, 2, 28, 28) + bytes(2 * 784))
        >>> with gzip.open(os.path.join(d, 'lab.gz'), 'wb') as f:
        ...     _ = f.write(struct.pack('>II', 2049, 2) + bytes([3, 7]))
        >>> ds = MNIST(os.path.join(d, 'img.gz'), os.path.join(d, 'lab.gz'), backend='cv2')
        >>> img, label = ds[1]
        >>> len(ds), img.shape, img.dtype, label
        (2, (28, 28), dtype('float32'), array([7]))
    """

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_IMAGE_MD5 = "9fb629c4189551a2d022fa330f9573f3"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TEST_LABEL_MD5 = "ec29112dd5afa0611ce80d1b7f02629c"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_IMAGE_MD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    TRAIN_LABEL_MD5 = "d53e105ee54ea40749a09fcbcd1e9432"

    def __init__(self, image_path: str | None = None, label_path: str | None = None, mode: str = "train",
                 transform: Callable | None = None, download: bool = True, backend: str | None = None) -> None:
        import pagaie
        assert mode.lower() in ("train", "test"), f"mode should be 'train' or 'test', but got {mode}"
        self.backend = check_backend(backend)
        self.mode = mode.lower()
        train = self.mode == "train"
        api = f"paddle.vision.datasets.{type(self).__name__}"
        self.image_path = resolve(image_path, download, self.TRAIN_IMAGE_URL if train else self.TEST_IMAGE_URL,
                                  self.TRAIN_IMAGE_MD5 if train else self.TEST_IMAGE_MD5, self.NAME, api,
                                  "image_path")
        self.label_path = resolve(label_path, download, self.TRAIN_LABEL_URL if train else self.TEST_LABEL_URL,
                                  self.TRAIN_LABEL_MD5 if train else self.TEST_LABEL_MD5, self.NAME, api,
                                  "label_path")
        self.transform = transform
        self._parse_dataset()
        self.dtype = pagaie.get_default_dtype()

    def _parse_dataset(self) -> None:
        (n, rows, cols), ibuf, ioff = _read_idx(self.image_path)
        (m,), lbuf, loff = _read_idx(self.label_path)
        self._shape = (rows, cols)
        pixels = np.frombuffer(ibuf, np.uint8, count=n * rows * cols, offset=ioff).reshape(n, rows * cols)
        labels = np.frombuffer(lbuf, np.uint8, count=m, offset=loff)
        self.images = list(pixels.astype("float32"))
        self.labels = [np.array([v], dtype="int64") for v in labels]

    def __getitem__(self, idx: int) -> tuple[Any, np.ndarray]:
        image = np.reshape(self.images[idx], self._shape)
        label = self.labels[idx]
        if self.backend == "pil":
            from PIL import Image
            image = Image.fromarray(image.astype("uint8"), mode="L")
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(self.dtype), label.astype("int64")

    def __len__(self) -> int:
        return len(self.labels)


class FashionMNIST(MNIST):
    """Fashion-MNIST: 28x28 grey images of clothes in 10 classes, in MNIST's file format.

    Args:
        image_path (str, optional): The images idx file. Default: None (Paddle's cache).
        label_path (str, optional): The labels idx file. Default: None.
        mode (str, optional): 'train' or 'test'. Default: 'train'.
        transform (callable, optional): Applied to each image. Default: None.
        download (bool, optional): Fetch absent files into the cache. Default: True.
        backend (str, optional): 'pil' or 'cv2'. Default: the current image backend.

    Examples:
        >>> from pagaie.vision.datasets import FashionMNIST
        >>> FashionMNIST.NAME
        'fashion-mnist'
    """

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_IMAGE_MD5 = "bef4ecab320f06d8554ea6380940ec79"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TEST_LABEL_MD5 = "bb300cfdad3c16e7a12a480ee83cd310"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_IMAGE_MD5 = "8d4fb7e6c68d591d4c3dfef9ec88bf0d"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    TRAIN_LABEL_MD5 = "25c81989df183df01b3e8a0aad5dffbe"
