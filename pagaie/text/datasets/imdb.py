"""The IMDB movie review sentiment dataset, read from ``aclImdb_v1.tar.gz``."""
from __future__ import annotations

import collections
import re
import string
import tarfile

import numpy as np

from pagaie.vision.datasets._common import Dataset, resolve

__all__ = ["Imdb"]

_URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
_MD5 = "7c2ac02c03563afcf9b574c7e56c153a"
_PUNCT = string.punctuation.encode("latin-1")


class Imdb(Dataset):
    """IMDB reviews as word-id sequences with labels 0 (positive) and 1 (negative).

    The vocabulary holds the words (bytes, lower-cased, punctuation removed) seen more than
    ``cutoff`` times in the train and test reviews, most frequent first, plus ``'<unk>'``.

    Args:
        data_file (str, optional): The ``aclImdb_v1.tar.gz`` archive. Default: None (Paddle's cache).
        mode (str, optional): 'train' or 'test'. Default: 'train'.
        cutoff (int, optional): Minimal count (exclusive) of a vocabulary word. Default: 150.
        download (bool, optional): Fetch an absent archive into the cache. Default: True.

    Examples:
        >>> from pagaie.text import Imdb
        >>> Imdb.__name__
        'Imdb'
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", cutoff: int = 150,
                 download: bool = True) -> None:
        assert mode.lower() in ("train", "test"), f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.data_file = resolve(data_file, download, _URL, _MD5, "imdb", "paddle.text.Imdb", "data_file")
        self.word_idx = self._build_work_dict(cutoff)
        self._load_anno()

    def _tokenize(self, pattern: re.Pattern) -> list[list[bytes]]:
        docs = []
        with tarfile.open(self.data_file) as tar:
            for member in iter(tar.next, None):
                if pattern.match(member.name):
                    text = tar.extractfile(member).read().rstrip(b"\n\r")
                    docs.append(text.translate(None, _PUNCT).lower().split())
        return docs

    def _build_work_dict(self, cutoff: int) -> dict:
        freq: dict = collections.defaultdict(int)
        for doc in self._tokenize(re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")):
            for w in doc:
                freq[w] += 1
        kept = sorted((kv for kv in freq.items() if kv[1] > cutoff), key=lambda kv: (-kv[1], kv[0]))
        word_idx = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load_anno(self) -> None:
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, kind in ((0, "pos"), (1, "neg")):
            for doc in self._tokenize(re.compile(rf"aclImdb/{self.mode}/{kind}/.*\.txt$")):
                self.docs.append([self.word_idx.get(w, unk) for w in doc])
                self.labels.append(label)

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self) -> int:
        return len(self.docs)
