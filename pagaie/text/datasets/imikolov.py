"""The Penn Treebank language-model data (Mikolov's ``simple-examples.tgz``)."""
from __future__ import annotations

import collections
import tarfile

import numpy as np

from pagaie.vision.datasets._common import Dataset, resolve

__all__ = ["Imikolov"]

_URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
_MD5 = "30177ea32e27c525793142b6bf2c8e2d"


class Imikolov(Dataset):
    """PTB sentences as word ids: n-grams ('NGRAM') or (source, target) sequences ('SEQ').

    The vocabulary holds the words of ``ptb.train.txt`` and ``ptb.valid.txt`` seen more than
    ``min_word_freq`` times (plus the sentence marks ``'<s>'`` and ``'<e>'``), most frequent
    first, then ``'<unk>'``.

    Args:
        data_file (str, optional): The ``simple-examples.tgz`` archive. Default: None (Paddle's cache).
        data_type (str, optional): 'NGRAM' or 'SEQ'. Default: 'NGRAM'.
        window_size (int, optional): n of the n-grams; for 'SEQ', the maximal source length
            (-1: no limit). Default: -1.
        mode (str, optional): 'train' or 'test' (reads ``ptb.<mode>.txt``). Default: 'train'.
        min_word_freq (int, optional): Minimal count (exclusive) of a vocabulary word. Default: 50.
        download (bool, optional): Fetch an absent archive into the cache. Default: True.

    Examples:
        >>> from pagaie.text import Imikolov
        >>> Imikolov.__name__
        'Imikolov'
    """

    def __init__(self, data_file: str | None = None, data_type: str = "NGRAM", window_size: int = -1,
                 mode: str = "train", min_word_freq: int = 50, download: bool = True) -> None:
        assert data_type.upper() in ("NGRAM", "SEQ"), f"data type should be 'NGRAM', 'SEQ', but got {data_type}"
        self.data_type = data_type.upper()
        assert mode.lower() in ("train", "test"), f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.window_size = window_size
        self.min_word_freq = min_word_freq
        self.data_file = resolve(data_file, download, _URL, _MD5, "imikolov", "paddle.text.Imikolov",
                                 "data_file")
        self.word_idx = self._build_work_dict(min_word_freq)
        self._load_anno()

    def word_count(self, f, word_freq: dict | None = None) -> dict:
        """Add the word counts of the lines of ``f`` (and one '<s>' / '<e>' per line) to ``word_freq``."""
        if word_freq is None:
            word_freq = collections.defaultdict(int)
        for line in f:
            for w in line.strip().split():
                word_freq[w] += 1
            word_freq["<s>"] += 1
            word_freq["<e>"] += 1
        return word_freq

    def _build_work_dict(self, cutoff: int) -> dict:
        with tarfile.open(self.data_file) as tar:
            freq = self.word_count(tar.extractfile("./simple-examples/data/ptb.train.txt"))
            freq = self.word_count(tar.extractfile("./simple-examples/data/ptb.valid.txt"), freq)
        freq.pop("<unk>", None)
        # the words are bytes and the marks str, as in Paddle; a tie between the two kinds (which
        # makes Paddle's sort raise TypeError) is ordered as if the marks were bytes too
        kept = sorted((kv for kv in freq.items() if kv[1] > self.min_word_freq),
                      key=lambda kv: (-kv[1], kv[0].encode() if isinstance(kv[0], str) else kv[0]))
        word_idx = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load_anno(self) -> None:
        self.data = []
        unk = self.word_idx["<unk>"]
        with tarfile.open(self.data_file) as tar:
            for line in tar.extractfile(f"./simple-examples/data/ptb.{self.mode}.txt"):
                if self.data_type == "NGRAM":
                    assert self.window_size > -1, "Invalid gram length"
                    words = ["<s>", *line.strip().split(), "<e>"]
                    if len(words) >= self.window_size:
                        ids = [self.word_idx.get(w, unk) for w in words]
                        n = self.window_size
                        self.data.extend(tuple(ids[i - n:i]) for i in range(n, len(ids) + 1))
                else:
                    ids = [self.word_idx.get(w, unk) for w in line.strip().split()]
                    src, trg = [self.word_idx["<s>"], *ids], [*ids, self.word_idx["<e>"]]
                    if self.window_size > 0 and len(src) > self.window_size:
                        continue
                    self.data.append((src, trg))

    def __getitem__(self, idx: int) -> tuple:
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
