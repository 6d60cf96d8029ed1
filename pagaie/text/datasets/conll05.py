"""The CoNLL-2005 semantic role labelling test set (``conll05st-tests.tar.gz``)."""
from __future__ import annotations

import gzip
import tarfile

import numpy as np

from pagaie.vision.datasets._common import Dataset, resolve

__all__ = ["Conll05st"]

_P = "http://paddlemodels.bj.bcebos.com/conll05st"
_FILES = {
    "data_file": (f"{_P}/conll05st-tests.tar.gz", "387719152ae52d60422c016e92a742fc"),
    "word_dict_file": (f"{_P}%2FwordDict.txt", "ea7fb7d4c75cc6254716f0177a506baa"),
    "verb_dict_file": (f"{_P}%2FverbDict.txt", "0d2977293bbb6cbefab5b0f97db1e77c"),
    "target_dict_file": (f"{_P}%2FtargetDict.txt", "d8c7f03ceb5fc2e5a0fa7503a4353751"),
    "emb_file": (f"{_P}%2Femb", "bf436eb0faa1f6f9103017f8be57cdb7"),
}
UNK_IDX = 0


def _bio_tags(column: list[str]) -> list[str]:
    """BIO tags of one predicate's bracketed argument column ('(A0*', '*', '*)', '(V*)')."""
    tags, tag, inside = [], "O", False
    for cell in column:
        if cell == "*":
            tags.append("I-" + tag if inside else "O")
        elif cell == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in cell:
            tag = cell[1:cell.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in cell
        else:
            raise RuntimeError(f"Unexpected label: {cell}")
    return tags


class Conll05st(Dataset):
    """CoNLL-2005 SRL (WSJ test part): one sample per (sentence, predicate).

    Items are 9 int arrays: word ids, the ids of the words at offsets -2, -1, 0, +1, +2
    around the predicate (each repeated over the sentence), predicate ids, the 0/1 mark of
    that 5-word window, and the BIO label ids.

    Args:
        data_file (str, optional): ``conll05st-tests.tar.gz``. Default: None (Paddle's cache).
        word_dict_file (str, optional): Word dictionary, one word per line. Default: None.
        verb_dict_file (str, optional): Predicate dictionary. Default: None.
        target_dict_file (str, optional): Label dictionary ('B-X' / 'I-X' lines). Default: None.
        emb_file (str, optional): Word embedding file (its path is returned by
            :meth:`get_embedding`). Default: None.
        download (bool, optional): Fetch absent files into the cache. Default: True.

    Examples:
        >>> from pagaie.text import Conll05st
        >>> Conll05st.__name__
        'Conll05st'
    """

    def __init__(self, data_file: str | None = None, word_dict_file: str | None = None,
                 verb_dict_file: str | None = None, target_dict_file: str | None = None,
                 emb_file: str | None = None, download: bool = True) -> None:
        given = {"data_file": data_file, "word_dict_file": word_dict_file, "verb_dict_file": verb_dict_file,
                 "target_dict_file": target_dict_file, "emb_file": emb_file}
        for arg, path in given.items():
            setattr(self, arg, resolve(path, download, *_FILES[arg], "conll05st", "paddle.text.Conll05st", arg))
        self.word_dict = self._load_dict(self.word_dict_file)
        self.predicate_dict = self._load_dict(self.verb_dict_file)
        self.label_dict = self._load_label_dict(self.target_dict_file)
        self._load_anno()

    def _load_label_dict(self, filename: str) -> dict[str, int]:
        tags = set()
        with open(filename) as f:
            for line in f:
                line = line.strip()
                if line.startswith(("B-", "I-")):
                    tags.add(line[2:])
        d = {}
        for tag in tags:  # set order, as in Paddle
            d["B-" + tag] = len(d)
            d["I-" + tag] = len(d)
        d["O"] = len(d)
        return d

    def _load_dict(self, filename: str) -> dict[str, int]:
        with open(filename) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    def _load_anno(self) -> None:
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as tar:
            wf = tar.extractfile("conll05st-release/test.wsj/words/test.wsj.words.gz")
            pf = tar.extractfile("conll05st-release/test.wsj/props/test.wsj.props.gz")
            with gzip.GzipFile(fileobj=wf) as words, gzip.GzipFile(fileobj=pf) as props:
                sentence, rows = [], []
                for word, label in zip(words, props):
                    word, cells = word.strip().decode(), label.strip().decode().split()
                    if cells:
                        sentence.append(word)
                        rows.append(cells)
                        continue
                    columns = [[r[i] for r in rows] for i in range(len(rows[0]))]
                    if columns:
                        verbs = [x for x in columns[0] if x != "-"]
                        for i, column in enumerate(columns[1:]):
                            self.sentences.append(sentence)
                            self.predicates.append(verbs[i])
                            self.labels.append(_bio_tags(column))
                    sentence, rows = [], []

    def __getitem__(self, idx: int) -> tuple:
        sentence, predicate, labels = self.sentences[idx], self.predicates[idx], self.labels[idx]
        n = len(sentence)
        v = labels.index("B-V")
        mark = [0] * len(labels)
        ctx = {}
        for off, edge in ((-2, "bos"), (-1, "bos"), (0, None), (1, "eos"), (2, "eos")):
            j = v + off
            inside = (j >= 0) if off < 0 else (j <= len(labels) - 1)
            if inside:
                mark[j] = 1
                ctx[off] = sentence[j]
            else:
                ctx[off] = edge
        wid = self.word_dict.get
        out = [[wid(w, UNK_IDX) for w in sentence]]
        out += [[wid(ctx[off], UNK_IDX)] * n for off in (-2, -1, 0, 1, 2)]
        out += [[self.predicate_dict.get(predicate)] * n, mark, [self.label_dict.get(w) for w in labels]]
        return tuple(np.array(x) for x in out)

    def __len__(self) -> int:
        return len(self.sentences)

    def get_dict(self) -> tuple[dict, dict, dict]:
        """The (word, predicate, label) dictionaries."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self) -> str:
        """The path of the word embedding file."""
        return self.emb_file
