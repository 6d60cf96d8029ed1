"""TESS: the Toronto emotional speech set, 2800 recordings of 7 emotions."""
from __future__ import annotations

import os
from typing import Any, NamedTuple

from pagaie.audio.datasets import _archive
from pagaie.audio.datasets.dataset import AudioClassificationDataset, check_feat_type

__all__ = ["TESS"]


class TESS(AudioClassificationDataset):
    """The Toronto emotional speech set: 200 words said by two actresses in 7 emotions.

    The WAV files (named ``<speaker>_<word>_<emotion>.wav``) found under
    ``~/.cache/paddle/dataset/TESS_Toronto_emotional_speech_set`` (in ``os.walk`` order) are
    dealt into ``n_folds`` folds in turn; ``mode='train'`` gives the folds other than
    ``split``, any other mode (``'dev'``) fold ``split``. The label is the emotion's index in
    :attr:`label_list`.

    Args:
        mode (str, optional): 'train' or 'dev'. Default: 'train'.
        n_folds (int, optional): number of folds. Default: 5.
        split (int, optional): the dev fold, 1 to ``n_folds``. Default: 1.
        feat_type (str, optional): 'raw', 'spectrogram', 'melspectrogram',
            'logmelspectrogram' or 'mfcc'. Default: 'raw'.
        archive (dict, optional): ``{'url': ..., 'md5': ...}`` where the data comes from:
            an http(s) URL (one download attempt), a local zip/tar archive (path or
            ``file://`` URL) or a local directory holding
            ``TESS_Toronto_emotional_speech_set``. Default: None (Paddle's download URL).
        **kwargs: arguments of the feature layer.

    Raises:
        RuntimeError: the data is not cached and cannot be fetched (the message says where
            to put it), or an unknown ``feat_type``.

    Examples:
        >>> from pagaie.audio.datasets import TESS
        >>> TESS.label_list
        ['angry', 'disgust', 'fear', 'happy', 'neutral', 'ps', 'sad']
    """

    archive: dict = {
        "url": "https://bj.bcebos.com/paddleaudio/datasets/TESS_Toronto_emotional_speech_set.zip",
        "md5": "1465311b24d1de704c4c63e4ccc470c7",
    }
    label_list: list[str] = ["angry", "disgust", "fear", "happy", "neutral", "ps", "sad"]  # ps: pleasant surprise
    audio_path: str = "TESS_Toronto_emotional_speech_set"

    class meta_info(NamedTuple):
        speaker: str
        word: str
        emotion: str

    def __init__(self, mode: str = "train", n_folds: int = 5, split: int = 1, feat_type: str = "raw",
                 archive: dict | None = None, **kwargs: Any) -> None:
        assert isinstance(n_folds, int) and n_folds >= 1, (
            f"the n_folds should be integer and n_folds >= 1, but got {n_folds}")
        assert split in range(1, n_folds + 1), (
            f"The selected split should be integer and should be 1 <= split <= {n_folds}, but got {split}")
        check_feat_type(feat_type)
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, n_folds, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _present(self, root: str) -> bool:
        return os.path.isdir(os.path.join(root, self.audio_path))

    def _get_meta_info(self, files: list[str]) -> list:
        return [self.meta_info(*os.path.basename(f)[:-4].split("_")) for f in files]

    def _get_data(self, mode: str, n_folds: int, split: int) -> tuple[list[str], list[int]]:
        root = _archive.dataset_root(self.archive, self._present, "paddle.audio.datasets.TESS")
        wav_files = [os.path.join(d, f) for d, _, names in os.walk(os.path.join(root, self.audio_path))
                     for f in names if f.endswith(".wav")]
        files, labels = [], []
        for idx, sample in enumerate(self._get_meta_info(wav_files)):
            fold = idx % n_folds + 1
            if (fold != split) == (mode == "train"):
                files.append(wav_files[idx])
                labels.append(self.label_list.index(sample.emotion))
        return files, labels
