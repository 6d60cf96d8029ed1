"""Cifar10 and Cifar100, read from the python-version tar.gz archives."""
from __future__ import annotations

import pickle
import tarfile
from typing import Any, Callable

import numpy as np

from pagaie.vision.datasets._common import Dataset, check_backend, resolve

__all__ = ["Cifar10", "Cifar100"]

_URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"
_CIFAR10 = (_URL_PREFIX + "cifar-10-python.tar.gz", "c58f30108f718f92721af3b95e74349a")
_CIFAR100 = (_URL_PREFIX + "cifar-100-python.tar.gz", "eb9058c3a382ffc7106e4002c42a8d85")


class Cifar10(Dataset):
    """CIFAR-10: 32x32 RGB images in 10 classes.

    Args:
        data_file (str, optional): The ``cifar-10-python.tar.gz`` archive. Default: None
            (Paddle's cache, downloaded if possible).
        mode (str, optional): 'train' (the ``data_batch_*`` members) or 'test' (``test_batch``).
            Default: 'train'.
        transform (callable, optional): Applied to each HWC image. Default: None.
        download (bool, optional): Fetch an absent archive into the cache. Default: True.
        backend (str, optional): 'pil' (PIL Images) or 'cv2' (float numpy arrays). Default:
            the current image backend.

    Examples:
        >>> import io, os, pickle, tarfile, tempfile
        >>> import numpy as np
        >>> from pagaie.vision.datasets import Cifar10
        >>> path = os.path.join(tempfile.mkdtemp(), 'cifar.tar.gz')
        >>> batch = pickle.dumps({b'data': np.zeros((2, 3072), 'uint8'), b'labels': [4, 9]})
        >>> with tarfile.open(path, 'w:gz') as tar:
        ...     info = tarfile.TarInfo('cifar-10-batches-py/test_batch'); info.size = len(batch)
        ...     tar.addfile(info, io.BytesIO(batch))
        >>> ds = Cifar10(path, mode='test', backend='cv2')
        >>> img, label = ds[1]
        >>> len(ds), img.shape, img.dtype, label
        (2, (32, 32, 3), dtype('float32'), array(9))
    """

    _flags = {"train": "data_batch", "test": "test_batch"}
    _source = _CIFAR10

    def __init__(self, data_file: str | None = None, mode: str = "train", transform: Callable | None = None,
                 download: bool = True, backend: str | None = None) -> None:
        import pagaie
        assert mode.lower() in ("train", "test"), f"mode.lower() should be 'train' or 'test', but got {mode}"
        self.mode = mode.lower()
        self.backend = check_backend(backend)
        self.data_url, self.data_md5 = self._source
        self.flag = self._flags[self.mode]
        self.data_file = resolve(data_file, download, self.data_url, self.data_md5, "cifar",
                                 f"paddle.vision.datasets.{type(self).__name__}", "data_file")
        self.transform = transform
        self._load_data()
        self.dtype = pagaie.get_default_dtype()

    def _load_data(self) -> None:
        self.data = []
        with tarfile.open(self.data_file, mode="r") as f:
            for name in sorted(m.name for m in f if self.flag in m.name):
                batch = pickle.load(f.extractfile(name), encoding="bytes")
                labels = batch.get(b"labels", batch.get(b"fine_labels", None))
                assert labels is not None
                self.data.extend(zip(batch[b"data"], labels))

    def __getitem__(self, idx: int) -> tuple[Any, np.ndarray]:
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.backend == "pil":
            from PIL import Image
            image = Image.fromarray(image.astype("uint8"))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, np.array(label).astype("int64")
        return image.astype(self.dtype), np.array(label).astype("int64")

    def __len__(self) -> int:
        return len(self.data)


class Cifar100(Cifar10):
    """CIFAR-100: 32x32 RGB images in 100 classes (the fine labels).

    Args:
        data_file (str, optional): The ``cifar-100-python.tar.gz`` archive. Default: None.
        mode (str, optional): 'train' (member ``train``) or 'test' (member ``test``). Default: 'train'.
        transform (callable, optional): Applied to each HWC image. Default: None.
        download (bool, optional): Fetch an absent archive into the cache. Default: True.
        backend (str, optional): 'pil' or 'cv2'. Default: the current image backend.

    Examples:
        >>> from pagaie.vision.datasets import Cifar100
        >>> Cifar100._flags['test']
        'test'
    """

    _flags = {"train": "train", "test": "test"}
    _source = _CIFAR100

    def __init__(self, data_file: str | None = None, mode: str = "train", transform: Callable | None = None,
                 download: bool = True, backend: str | None = None) -> None:
        super().__init__(data_file, mode, transform, download, backend)
