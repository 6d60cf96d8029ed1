"""The base of the audio classification datasets: files, labels and a feature extractor.

    >>> from pagaie.audio.datasets.dataset import feat_funcs
    >>> sorted(feat_funcs)
    ['logmelspectrogram', 'melspectrogram', 'mfcc', 'raw', 'spectrogram']
"""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie._core.tensor import Tensor
from pagaie.audio.backends import backend
from pagaie.audio.features import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram
from pagaie.io import Dataset
from pagaie.nn import Layer

__all__: list[str] = []

feat_funcs: dict[str, Any] = {
    "raw": None,
    "melspectrogram": MelSpectrogram,
    "mfcc": MFCC,
    "logmelspectrogram": LogMelSpectrogram,
    "spectrogram": Spectrogram,
}


def check_feat_type(feat_type: str) -> None:
    if feat_type not in feat_funcs:
        raise RuntimeError(f"Unknown feat_type: {feat_type}, it must be one in {list(feat_funcs)}")


class AudioClassificationDataset(Dataset):
    """Audio files with integer labels; an item is ``(feature, label)``.

    The feature is the mono waveform (``feat_type='raw'``, shape ``[T]``) or the output of
    one of the :mod:`pagaie.audio.features` layers for it (``[feature_dim, frames]``), built
    with the file's sample rate and the extra keyword arguments.

    Args:
        files (list[str]): paths of WAV files.
        labels (list[int]): their labels.
        feat_type (str, optional): 'raw', 'spectrogram', 'melspectrogram',
            'logmelspectrogram' or 'mfcc'. Default: 'raw'.
        sample_rate (int, optional): the files' sample rate (set from each file read).
        **kwargs: arguments of the feature layer (``n_fft``, ``n_mels``, ``n_mfcc``...).

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> from pagaie.audio.datasets.dataset import AudioClassificationDataset
        >>> path = os.path.join(tempfile.mkdtemp(), 'a.wav')
        >>> paddle.audio.save(path, paddle.zeros([1, 1024]), 8000)
        >>> ds = AudioClassificationDataset([path], [3], feat_type='mfcc', n_fft=256, n_mfcc=13)
        >>> feat, label = ds[0]
        >>> feat.shape, label
        (paddle.Size([13, 17]), 3)
    """

    def __init__(self, files: list[str], labels: list[int], feat_type: str = "raw",
                 sample_rate: int | None = None, **kwargs: Any) -> None:
        super().__init__()
        check_feat_type(feat_type)
        self.files = files
        self.labels = labels
        self.feat_type = feat_type
        self.sample_rate = sample_rate
        self.feat_config = kwargs
        self._extractors: dict[int, Layer] = {}

    def _extractor(self, sample_rate: int) -> Layer:
        """The feature layer for ``sample_rate`` (built once: its matrices are constants)."""
        layer = self._extractors.get(sample_rate)
        if layer is None:
            cls = feat_funcs[self.feat_type]
            if self.feat_type == "spectrogram":
                layer = cls(**self.feat_config)
            else:
                layer = cls(sr=sample_rate, **self.feat_config)
            self._extractors[sample_rate] = layer
        return layer

    def _convert_to_record(self, idx: int) -> dict:
        waveform, sample_rate = backend.load(self.files[idx])
        self.sample_rate = sample_rate
        if len(waveform.shape) == 2:
            waveform = waveform.squeeze(0)  # mono: [T]
        waveform = pagaie.to_tensor(waveform, dtype=pagaie.float32)
        if feat_funcs[self.feat_type] is not None:
            feat = self._extractor(sample_rate)(waveform.unsqueeze(0)).squeeze(0)
        else:
            feat = waveform
        return {"feat": feat, "label": self.labels[idx]}

    def __getitem__(self, idx: int) -> tuple[Tensor, int]:
        record = self._convert_to_record(idx)
        return record["feat"], record["label"]

    def __len__(self) -> int:
        return len(self.files)
