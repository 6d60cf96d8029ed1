"""ESC-50: 2000 five-second environmental recordings in 50 classes, in 5 folds."""
from __future__ import annotations

import csv
import os
from typing import Any, NamedTuple

from pagaie.audio.datasets import _archive
from pagaie.audio.datasets.dataset import AudioClassificationDataset, check_feat_type

__all__ = ["ESC50"]


class ESC50(AudioClassificationDataset):
    """The ESC-50 environmental sound classification dataset (Piczak, 2015).

    ``mode='train'`` gives the recordings of the four folds other than ``split``, any other
    mode (``'dev'``) those of fold ``split``. The data is read from
    ``~/.cache/paddle/dataset/ESC-50-master`` (``meta/esc50.csv`` and ``audio/*.wav``); when
    it is not there it comes from ``archive``.

    Args:
        mode (str, optional): 'train' or 'dev'. Default: 'train'.
        split (int, optional): the dev fold, 1 to 5. Default: 1.
        feat_type (str, optional): 'raw', 'spectrogram', 'melspectrogram',
            'logmelspectrogram' or 'mfcc'. Default: 'raw'.
        archive (dict, optional): ``{'url': ..., 'md5': ...}`` where the data comes from:
            an http(s) URL (one download attempt), a local zip/tar archive (path or
            ``file://`` URL) or a local directory holding ``ESC-50-master``. Default: None
            (Paddle's download URL).
        **kwargs: arguments of the feature layer (``n_mfcc``, ``n_fft``...).

    Raises:
        RuntimeError: the data is not cached and cannot be fetched (the message says where
            to put it), or an unknown ``feat_type``.

    Examples:
        >>> from pagaie.audio.datasets import ESC50
        >>> len(ESC50.label_list), ESC50.label_list[0]
        (50, 'Dog')
    """

    archive: dict = {
        "url": "https://paddleaudio.bj.bcebos.com/datasets/ESC-50-master.zip",
        "md5": "7771e4b9d86d0945acce719c7a59305a",
    }
    label_list: list[str] = [
        # animals
        "Dog", "Rooster", "Pig", "Cow", "Frog", "Cat", "Hen", "Insects (flying)", "Sheep", "Crow",
        # natural soundscapes and water sounds
        "Rain", "Sea waves", "Crackling fire", "Crickets", "Chirping birds", "Water drops", "Wind",
        "Pouring water", "Toilet flush", "Thunderstorm",
        # human, non-speech sounds
        "Crying baby", "Sneezing", "Clapping", "Breathing", "Coughing", "Footsteps", "Laughing",
        "Brushing teeth", "Snoring", "Drinking, sipping",
        # interior / domestic sounds
        "Door knock", "Mouse click", "Keyboard typing", "Door, wood creaks", "Can opening",
        "Washing machine", "Vacuum cleaner", "Clock alarm", "Clock tick", "Glass breaking",
        # exterior / urban noises
        "Helicopter", "Chainsaw", "Siren", "Car horn", "Engine", "Train", "Church bells", "Airplane",
        "Fireworks", "Hand saw",
    ]
    meta: str = os.path.join("ESC-50-master", "meta", "esc50.csv")
    audio_path: str = os.path.join("ESC-50-master", "audio")

    class meta_info(NamedTuple):
        filename: str
        fold: str
        target: str
        category: str
        esc10: str
        src_file: str
        take: str

    def __init__(self, mode: str = "train", split: int = 1, feat_type: str = "raw",
                 archive: dict | None = None, **kwargs: Any) -> None:
        assert split in range(1, 6), (
            f"The selected split should be integer, and 1 <= split <= 5, but got {split}")
        check_feat_type(feat_type)
        if archive is not None:
            self.archive = archive
        files, labels = self._get_data(mode, split)
        super().__init__(files=files, labels=labels, feat_type=feat_type, **kwargs)

    def _present(self, root: str) -> bool:
        return os.path.isdir(os.path.join(root, self.audio_path)) and os.path.isfile(os.path.join(root, self.meta))

    def _get_meta_info(self, root: str) -> list:
        with open(os.path.join(root, self.meta), newline="") as f:
            rows = list(csv.reader(f))[1:]
        return [self.meta_info(*row) for row in rows if row]

    def _get_data(self, mode: str, split: int) -> tuple[list[str], list[int]]:
        root = _archive.dataset_root(self.archive, self._present, "paddle.audio.datasets.ESC50")
        files, labels = [], []
        for sample in self._get_meta_info(root):
            if (int(sample.fold) != split) == (mode == "train"):
                files.append(os.path.join(root, self.audio_path, sample.filename))
                labels.append(int(sample.target))
        return files, labels
