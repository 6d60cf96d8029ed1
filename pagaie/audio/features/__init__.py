"""paddle.audio.features: spectrogram, mel spectrogram, log-mel spectrogram and MFCC layers.

    >>> import pagaie as paddle
    >>> paddle.audio.features.Spectrogram(n_fft=32, hop_length=8)(paddle.ones([64])).shape
    paddle.Size([17, 9])
"""
from pagaie.audio.features.layers import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram  # noqa: F401

__all__ = ["LogMelSpectrogram", "MelSpectrogram", "MFCC", "Spectrogram"]
