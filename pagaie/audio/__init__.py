"""paddle.audio: audio I/O (WAV), feature layers, mel/DCT/window functions and datasets.

    >>> import os, tempfile
    >>> import pagaie as paddle
    >>> path = os.path.join(tempfile.mkdtemp(), 'noise.wav')
    >>> paddle.audio.save(path, paddle.rand([1, 1600]) * 0.2 - 0.1, 16000)
    >>> wav, sr = paddle.audio.load(path)
    >>> feats = paddle.audio.features.LogMelSpectrogram(sr=sr, n_fft=400, n_mels=40)(wav)
    >>> feats.shape
    paddle.Size([1, 40, 17])
"""
from pagaie.audio import backends, datasets, features, functional  # noqa: F401
from pagaie.audio.backends.backend import info, load, save  # noqa: F401
from pagaie.audio.functional.window_tensors import (  # noqa: F401
    bartlett_window,
    blackman_window,
    hamming_window,
    hann_window,
    kaiser_window,
)

__all__ = ["functional", "features", "datasets", "backends", "load", "info", "save"]
# Paddle defines its PyTorch-style window creators here and exports them as paddle.hann_window...
__paddle_toplevel__ = ("hann_window", "hamming_window", "kaiser_window", "blackman_window", "bartlett_window")
