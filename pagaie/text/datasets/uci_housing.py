"""The UCI Boston housing regression dataset (``housing.data``)."""
from __future__ import annotations

import numpy as np

from pagaie.vision.datasets._common import Dataset, resolve

__all__ = ["UCIHousing"]

_URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
_MD5 = "d4accdce7a25600298819f8e28e8d593"
feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B",
                 "LSTAT"]


class UCIHousing(Dataset):
    """Boston housing: 13 normalised features and the price; the first 80% of rows are 'train'.

    Each feature is centred on its mean and divided by its range (over the whole file).

    Args:
        data_file (str, optional): ``housing.data`` (whitespace-separated, 14 columns). Default:
            None (Paddle's cache).
        mode (str, optional): 'train' or 'test'. Default: 'train'.
        download (bool, optional): Fetch an absent file into the cache. Default: True.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from pagaie.text import UCIHousing
        >>> path = os.path.join(tempfile.mkdtemp(), 'housing.data')
        >>> np.savetxt(path, np.arange(140.0).reshape(10, 14))
        >>> ds = UCIHousing(path, mode='test')
        >>> len(ds), ds[0][0].shape, ds[0][1]
        (2, (13,), array([125.], dtype=float32))
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", download: bool = True) -> None:
        import pagaie
        assert mode.lower() in ("train", "test"), f"mode should be 'train' or 'test', but got {mode}"
        self.mode = mode.lower()
        self.data_file = resolve(data_file, download, _URL, _MD5, "uci_housing", "paddle.text.UCIHousing",
                                 "data_file")
        self._load_data()
        self.dtype = pagaie.get_default_dtype()

    def _load_data(self, feature_num: int = 14, ratio: float = 0.8) -> None:
        data = np.fromfile(self.data_file, sep=" ")
        data = data.reshape(data.shape[0] // feature_num, feature_num)
        hi, lo, avg = data.max(axis=0), data.min(axis=0), data.sum(axis=0) / data.shape[0]
        for i in range(feature_num - 1):
            data[:, i] = (data[:, i] - avg[i]) / (hi[i] - lo[i])
        offset = int(data.shape[0] * ratio)
        self.data = data[:offset] if self.mode == "train" else data[offset:]

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        row = self.data[idx]
        return np.array(row[:-1]).astype(self.dtype), np.array(row[-1:]).astype(self.dtype)

    def __len__(self) -> int:
        return len(self.data)
