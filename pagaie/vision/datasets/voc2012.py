"""PASCAL VOC2012 segmentation, read from the ``VOCtrainval_11-May-2012.tar`` archive."""
from __future__ import annotations

import io
import tarfile
from typing import Any, Callable

import numpy as np

from pagaie.vision.datasets._common import Dataset, check_backend, resolve

__all__ = ["VOC2012"]

_VOC = ("https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar", "6cd6e144f989b92b3379bac3b3de84fd")
_SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
_DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
_LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
# As in Paddle: 'train' reads trainval, 'test' reads train, 'valid' reads val.
_FLAGS = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    """PASCAL VOC2012 semantic segmentation: (image, label mask) pairs.

    Args:
        data_file (str, optional): The VOC tar archive. Default: None (Paddle's cache).
        mode (str, optional): 'train', 'valid' or 'test'. Default: 'train'.
        transform (callable, optional): Applied to each image (not to the mask). Default: None.
        download (bool, optional): Fetch an absent archive into the cache. Default: True.
        backend (str, optional): 'pil' (PIL Images) or 'cv2' (float numpy arrays). Default:
            the current image backend.

    Examples:
        >>> from pagaie.vision.datasets import VOC2012
        >>> VOC2012.__name__
        'VOC2012'
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", transform: Callable | None = None,
                 download: bool = True, backend: str | None = None) -> None:
        import pagaie
        assert mode.lower() in ("train", "valid", "test"), \
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        self.backend = check_backend(backend)
        self.flag = _FLAGS[mode.lower()]
        self.data_tar = None
        self.data_file = resolve(data_file, download, *_VOC, "voc2012", "paddle.vision.datasets.VOC2012",
                                 "data_file")
        self.transform = transform
        self._load_anno()
        self.dtype = pagaie.get_default_dtype()

    def _load_anno(self) -> None:
        self.data_tar = tarfile.open(self.data_file)
        self.name2mem = {m.name: m for m in self.data_tar.getmembers()}
        sets = self.data_tar.extractfile(self.name2mem[_SET_FILE.format(self.flag)])
        names = [line.strip().decode("utf-8") for line in sets]
        self.data = [_DATA_FILE.format(n) for n in names]
        self.labels = [_LABEL_FILE.format(n) for n in names]

    def _open(self, name: str) -> Any:
        from PIL import Image
        return Image.open(io.BytesIO(self.data_tar.extractfile(self.name2mem[name]).read()))

    def __getitem__(self, idx: int) -> tuple[Any, Any]:
        data, label = self._open(self.data[idx]), self._open(self.labels[idx])
        if self.backend == "cv2":
            data, label = np.array(data), np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return data.astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self) -> int:
        return len(self.data)

    def __del__(self) -> None:
        if getattr(self, "data_tar", None):
            self.data_tar.close()
