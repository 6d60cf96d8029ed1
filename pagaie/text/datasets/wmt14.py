"""The WMT14 English-French translation subset (Paddle's ``wmt14.tgz``)."""
from __future__ import annotations

import tarfile

import numpy as np

from pagaie.vision.datasets._common import Dataset, resolve

__all__ = ["WMT14"]

_URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
_MD5_TRAIN = "0791583d57d5beb693b9414c5b36798c"
START, END, UNK = "<s>", "<e>", "<unk>"
UNK_IDX = 2


def _read_dict(fd, size: int) -> dict[str, int]:
    out = {}
    for i, line in enumerate(fd):
        if i >= size:
            break
        out[line.strip().decode()] = i
    return out


class WMT14(Dataset):
    """WMT14 en-fr pairs as (source ids, target ids, next target ids).

    Sources get '<s>' and '<e>' around them; pairs with more than 80 ids on either side
    are skipped. Dictionaries are the first ``dict_size`` lines of ``src.dict`` / ``trg.dict``.

    Args:
        data_file (str, optional): The ``wmt14.tgz`` archive. Default: None (Paddle's cache).
        mode (str, optional): 'train', 'test' or 'gen' (reads ``<mode>/<mode>``). Default: 'train'.
        dict_size (int, optional): Dictionary size (must be set, > 0). Default: -1.
        download (bool, optional): Fetch an absent archive into the cache. Default: True.

    Examples:
        >>> from pagaie.text import WMT14
        >>> WMT14.__name__
        'WMT14'
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", dict_size: int = -1,
                 download: bool = True) -> None:
        assert mode.lower() in ("train", "test", "gen"), f"mode should be 'train', 'test' or 'gen', but got {mode}"
        self.mode = mode.lower()
        self.data_file = resolve(data_file, download, _URL_TRAIN, _MD5_TRAIN, "wmt14", "paddle.text.WMT14",
                                 "data_file")
        assert dict_size > 0, "dict_size should be set as positive number"
        self.dict_size = dict_size
        self._load_data()

    def _load_data(self) -> None:
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as f:
            names = [m.name for m in f]
            dicts = []
            for suffix in ("src.dict", "trg.dict"):
                found = [n for n in names if n.endswith(suffix)]
                assert len(found) == 1
                dicts.append(_read_dict(f.extractfile(found[0]), self.dict_size))
            self.src_dict, self.trg_dict = dicts
            for name in [n for n in names if n.endswith(f"{self.mode}/{self.mode}")]:
                for line in f.extractfile(name):
                    parts = line.decode().strip().split("\t")
                    if len(parts) != 2:
                        continue
                    src = [self.src_dict.get(w, UNK_IDX) for w in [START, *parts[0].split(), END]]
                    trg = [self.trg_dict.get(w, UNK_IDX) for w in parts[1].split()]
                    if len(src) > 80 or len(trg) > 80:
                        continue
                    self.src_ids.append(src)
                    self.trg_ids.append([self.trg_dict[START], *trg])
                    self.trg_ids_next.append([*trg, self.trg_dict[END]])

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, reverse: bool = False) -> tuple[dict, dict]:
        """The (source, target) dictionaries; ``reverse=True`` maps ids to words.

        Args:
            reverse (bool, optional): Return id -> word maps. Default: False.

        Returns:
            tuple: (src_dict, trg_dict).
        """
        if reverse:
            return {v: k for k, v in self.src_dict.items()}, {v: k for k, v in self.trg_dict.items()}
        return self.src_dict, self.trg_dict
