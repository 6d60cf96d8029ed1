"""paddle.audio.functional: mel scales, filter banks, DCT matrices, decibels and windows.

    >>> import pagaie as paddle
    >>> paddle.audio.functional.fft_frequencies(8000, 4).numpy().tolist()
    [0.0, 2000.0, 4000.0]
"""
from pagaie.audio.functional.functional import (  # noqa: F401
    compute_fbank_matrix,
    create_dct,
    fft_frequencies,
    hz_to_mel,
    mel_frequencies,
    mel_to_hz,
    power_to_db,
)
from pagaie.audio.functional.window import get_window  # noqa: F401

__all__ = ["compute_fbank_matrix", "create_dct", "fft_frequencies", "hz_to_mel", "mel_frequencies",
           "mel_to_hz", "power_to_db", "get_window"]
