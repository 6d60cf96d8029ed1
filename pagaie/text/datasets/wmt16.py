"""The WMT16 English-German multimodal translation data (Paddle's ``wmt16.tar.gz``)."""
from __future__ import annotations

import os
import tarfile
from collections import defaultdict

import numpy as np

from pagaie.vision.datasets import _common
from pagaie.vision.datasets._common import Dataset, resolve

__all__ = ["WMT16"]

_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
_MD5 = "0c38be43600334966403524a40dcd81e"
TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220
START_MARK, END_MARK, UNK_MARK = "<s>", "<e>", "<unk>"


class WMT16(Dataset):
    """WMT16 en-de pairs as (source ids, target ids, next target ids).

    Dictionaries are built on first use from the ``wmt16/train`` member and stored, as in
    Paddle, as ``<DATA_HOME>/wmt16/<lang>_<dict_size>.dict`` (marks '<s>', '<e>', '<unk>'
    first, then words by decreasing count). As in Paddle, both dictionaries count the words
    of the ``lang`` column.

    Args:
        data_file (str, optional): The ``wmt16.tar.gz`` archive. Default: None (Paddle's cache).
        mode (str, optional): 'train', 'test' or 'val'. Default: 'train'.
        src_dict_size (int, optional): Source dictionary size (> 0). Default: -1.
        trg_dict_size (int, optional): Target dictionary size (> 0). Default: -1.
        lang (str, optional): Source language, 'en' or 'de'. Default: 'en'.
        download (bool, optional): Fetch an absent archive into the cache. Default: True.

    Examples:
        >>> from pagaie.text import WMT16
        >>> WMT16.__name__
        'WMT16'
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", src_dict_size: int = -1,
                 trg_dict_size: int = -1, lang: str = "en", download: bool = True) -> None:
        assert mode.lower() in ("train", "test", "val"), f"mode should be 'train', 'test' or 'val', but got {mode}"
        self.mode = mode.lower()
        self.data_file = resolve(data_file, download, _URL, _MD5, "wmt16", "paddle.text.WMT16", "data_file")
        self.lang = lang
        assert src_dict_size > 0, "dict_size should be set as positive number"
        assert trg_dict_size > 0, "dict_size should be set as positive number"
        en_first = lang == "en"
        self.src_dict_size = min(src_dict_size, TOTAL_EN_WORDS if en_first else TOTAL_DE_WORDS)
        self.trg_dict_size = min(trg_dict_size, TOTAL_DE_WORDS if en_first else TOTAL_EN_WORDS)
        self.src_dict = self._load_dict(lang, src_dict_size)
        self.trg_dict = self._load_dict("de" if en_first else "en", trg_dict_size)
        self._load_data()

    @staticmethod
    def _dict_path(lang: str, dict_size: int) -> str:
        return os.path.join(_common.DATA_HOME, f"wmt16/{lang}_{dict_size}.dict")

    def _load_dict(self, lang: str, dict_size: int, reverse: bool = False) -> dict:
        path = self._dict_path(lang, dict_size)
        found = False
        if os.path.exists(path):
            with open(path, "rb") as d:
                found = len(d.readlines()) == dict_size
        if not found:
            self._build_dict(path, dict_size, lang)
        with open(path, "rb") as f:
            words = [line.strip().decode() for line in f]
        return dict(enumerate(words)) if reverse else {w: i for i, w in enumerate(words)}

    def _build_dict(self, dict_path: str, dict_size: int, lang: str) -> None:
        counts: dict = defaultdict(int)
        with tarfile.open(self.data_file, mode="r") as f:
            for line in f.extractfile("wmt16/train"):
                parts = line.decode().strip().split("\t")
                if len(parts) != 2:
                    continue
                for w in (parts[0] if self.lang == "en" else parts[1]).split():
                    counts[w] += 1
        os.makedirs(os.path.dirname(dict_path), exist_ok=True)
        with open(dict_path, "wb") as out:
            out.write(f"{START_MARK}\n{END_MARK}\n{UNK_MARK}\n".encode())
            for idx, (word, _) in enumerate(sorted(counts.items(), key=lambda kv: kv[1], reverse=True)):
                if idx + 3 == dict_size:
                    break
                out.write(word.encode() + b"\n")

    def _load_data(self) -> None:
        start, end, unk = (self.src_dict[m] for m in (START_MARK, END_MARK, UNK_MARK))
        src_col = 0 if self.lang == "en" else 1
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as f:
            for line in f.extractfile(f"wmt16/{self.mode}"):
                parts = line.decode().strip().split("\t")
                if len(parts) != 2:
                    continue
                src = [self.src_dict.get(w, unk) for w in parts[src_col].split()]
                trg = [self.trg_dict.get(w, unk) for w in parts[1 - src_col].split()]
                self.src_ids.append([start, *src, end])
                self.trg_ids.append([start, *trg])
                self.trg_ids_next.append([*trg, end])

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, lang: str, reverse: bool = False) -> dict:
        """The dictionary of ``lang`` ('en' or 'de').

        Args:
            lang (str): 'en' or 'de'.
            reverse (bool, optional): Accepted for Paddle compatibility; as in Paddle, the
                word -> id map is returned. Default: False.

        Returns:
            dict: word -> id.
        """
        size = self.src_dict_size if lang == self.lang else self.trg_dict_size
        assert os.path.exists(self._dict_path(lang, size)), "Word dictionary does not exist. "
        return self._load_dict(lang, size)
