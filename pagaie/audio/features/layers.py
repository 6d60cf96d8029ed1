"""Audio feature layers: spectrogram, mel spectrogram, log-mel spectrogram and MFCC.

Each layer builds its constant matrices (window, mel filter bank, DCT) once, eagerly, as
buffers (so they appear in ``state_dict`` as in Paddle, even when the layer is created while
a static program is being recorded), and its ``forward`` is a few public ops
(:func:`pagaie.signal.stft`, ``abs``, ``pow``, ``matmul``), so it runs eagerly, in static
programs and under ``to_static``.

    >>> import pagaie as paddle
    >>> from pagaie.audio.features import MFCC
    >>> MFCC(sr=16000, n_mfcc=13, n_fft=256)(paddle.zeros([1, 1600])).shape
    paddle.Size([1, 13, 26])
"""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie._core.registry import suspended
from pagaie._core.tensor import Tensor
from pagaie.audio.functional.functional import compute_fbank_matrix, create_dct, power_to_db
from pagaie.audio.functional.window import get_window
from pagaie.nn import Layer

__all__ = ["Spectrogram", "MelSpectrogram", "LogMelSpectrogram", "MFCC"]


class Spectrogram(Layer):
    """Magnitude spectrogram ``|STFT(x)| ** power`` of waveforms.

    Args:
        n_fft (int, optional): DFT size. Default: 512.
        hop_length (int, optional): step between frames; None means ``n_fft // 4``.
            Default: 512.
        win_length (int, optional): window length (at most ``n_fft``); None means ``n_fft``.
            Default: None.
        window (str|tuple, optional): window name or (name, parameters), as in
            :func:`pagaie.audio.functional.get_window` (periodic). Default: 'hann'.
        power (float, optional): exponent applied to the magnitude (> 0). Default: 1.0.
        center (bool, optional): pad the signal so frame ``t`` is centred at
            ``t * hop_length``. Default: True.
        pad_mode (str, optional): 'reflect' or 'constant' padding when centring.
            Default: 'reflect'.
        dtype (str, optional): dtype of the window. Default: 'float32'.

    Shape:
        ``x``: ``[N, T]`` or ``[T]``; output: ``[N, n_fft // 2 + 1, num_frames]`` (or without N).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.audio.features import Spectrogram
        >>> Spectrogram(n_fft=64, hop_length=16)(paddle.ones([2, 160])).shape
        paddle.Size([2, 33, 11])
    """

    power: float
    fft_window: Tensor

    def __init__(self, n_fft: int = 512, hop_length: int | None = 512, win_length: int | None = None,
                 window: Any = "hann", power: float = 1.0, center: bool = True,
                 pad_mode: str = "reflect", dtype: str = "float32") -> None:
        super().__init__()
        assert power > 0, "Power of spectrogram must be > 0."
        self.power = power
        if win_length is None:
            win_length = n_fft
        with suspended():  # a constant, computed now even while a static program is recorded
            fft_window = get_window(window, win_length, fftbins=True, dtype=dtype)
        self.register_buffer("fft_window", fft_window)
        self._stft_args = dict(n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                               center=center, pad_mode=pad_mode)

    def forward(self, x: Tensor) -> Tensor:
        """Spectrogram of ``x`` (``[N, T]`` or ``[T]`` waveforms)."""
        if isinstance(x, Tensor) and x.dtype in (pagaie.int32, pagaie.int64):  # (others: stft's)
            raise TypeError(f"paddle.audio.features.Spectrogram: the waveform 'x' must be a floating-point "
                            f"tensor (Paddle does not promote it against the {self.fft_window.dtype} window), "
                            f"but received {x.dtype}")
        spec = pagaie.signal.stft(x, window=self.fft_window, **self._stft_args)
        return pagaie.pow(pagaie.abs(spec), self.power)


class MelSpectrogram(Layer):
    """Mel spectrogram: the power spectrogram projected on a triangular mel filter bank.

    Args:
        sr (int, optional): sample rate. Default: 22050.
        n_fft (int, optional): DFT size. Default: 2048.
        hop_length (int, optional): step between frames (None: ``n_fft // 4``). Default: 512.
        win_length (int, optional): window length (None: ``n_fft``). Default: None.
        window (str|tuple, optional): window, as in :class:`Spectrogram`. Default: 'hann'.
        power (float, optional): exponent of the magnitude. Default: 2.0.
        center (bool, optional): centre the frames. Default: True.
        pad_mode (str, optional): padding when centring. Default: 'reflect'.
        n_mels (int, optional): number of mel bands. Default: 64.
        f_min (float, optional): lowest frequency in Hz. Default: 50.0.
        f_max (float, optional): highest frequency in Hz (None: ``sr // 2``). Default: None.
        htk (bool, optional): HTK mel scale. Default: False.
        norm (str|float, optional): filter bank normalisation ('slaney' or a p-norm).
            Default: 'slaney'.
        dtype (str, optional): dtype of the window and filter bank. Default: 'float32'.

    Shape:
        ``x``: ``[N, T]``; output: ``[N, n_mels, num_frames]``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.audio.features import MelSpectrogram
        >>> MelSpectrogram(sr=16000, n_fft=256, hop_length=64, n_mels=32)(paddle.ones([1, 640])).shape
        paddle.Size([1, 32, 11])
    """

    n_mels: int
    f_min: float
    f_max: float | None
    htk: bool
    norm: Any
    fbank_matrix: Tensor

    def __init__(self, sr: int = 22050, n_fft: int = 2048, hop_length: int | None = 512,
                 win_length: int | None = None, window: Any = "hann", power: float = 2.0,
                 center: bool = True, pad_mode: str = "reflect", n_mels: int = 64, f_min: float = 50.0,
                 f_max: float | None = None, htk: bool = False, norm: Any = "slaney",
                 dtype: str = "float32") -> None:
        super().__init__()
        self._spectrogram = Spectrogram(n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                                        window=window, power=power, center=center, pad_mode=pad_mode,
                                        dtype=dtype)
        self.n_mels = n_mels
        self.f_min = f_min
        self.f_max = f_max
        self.htk = htk
        self.norm = norm
        with suspended():
            fbank = compute_fbank_matrix(sr=sr, n_fft=n_fft, n_mels=n_mels, f_min=f_min,
                                         f_max=sr // 2 if f_max is None else f_max, htk=htk,
                                         norm=norm, dtype=dtype)
        self.register_buffer("fbank_matrix", fbank)

    def forward(self, x: Tensor) -> Tensor:
        """Mel spectrogram of the ``[N, T]`` waveforms ``x``."""
        return pagaie.matmul(self.fbank_matrix, self._spectrogram(x))


class LogMelSpectrogram(Layer):
    """Log-mel spectrogram: :class:`MelSpectrogram` in decibels (see
    :func:`pagaie.audio.functional.power_to_db`).

    Args:
        sr, n_fft, hop_length, win_length, window, power, center, pad_mode, n_mels, f_min,
            f_max, htk, norm, dtype: as in :class:`MelSpectrogram`, except the defaults
            ``n_fft=512`` and ``hop_length=None`` (``n_fft // 4``).
        ref_value (float, optional): power mapped to 0 dB. Default: 1.0.
        amin (float, optional): floor of the power before the logarithm. Default: 1e-10.
        top_db (float, optional): dynamic range kept below the maximum (None: all).
            Default: None.

    Shape:
        ``x``: ``[N, T]``; output: ``[N, n_mels, num_frames]``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.audio.features import LogMelSpectrogram
        >>> LogMelSpectrogram(sr=16000, n_fft=256, n_mels=32)(paddle.ones([1, 640])).shape
        paddle.Size([1, 32, 11])
    """

    ref_value: float
    amin: float
    top_db: float | None

    def __init__(self, sr: int = 22050, n_fft: int = 512, hop_length: int | None = None,
                 win_length: int | None = None, window: Any = "hann", power: float = 2.0,
                 center: bool = True, pad_mode: str = "reflect", n_mels: int = 64, f_min: float = 50.0,
                 f_max: float | None = None, htk: bool = False, norm: Any = "slaney",
                 ref_value: float = 1.0, amin: float = 1e-10, top_db: float | None = None,
                 dtype: str = "float32") -> None:
        super().__init__()
        self._melspectrogram = MelSpectrogram(sr=sr, n_fft=n_fft, hop_length=hop_length,
                                              win_length=win_length, window=window, power=power,
                                              center=center, pad_mode=pad_mode, n_mels=n_mels,
                                              f_min=f_min, f_max=f_max, htk=htk, norm=norm, dtype=dtype)
        self.ref_value = ref_value
        self.amin = amin
        self.top_db = top_db

    def forward(self, x: Tensor) -> Tensor:
        """Log-mel spectrogram (dB) of the ``[N, T]`` waveforms ``x``."""
        return power_to_db(self._melspectrogram(x), ref_value=self.ref_value, amin=self.amin,
                           top_db=self.top_db)


class MFCC(Layer):
    """Mel-frequency cepstral coefficients: the orthonormal DCT-II of the log-mel spectrogram.

    Args:
        sr (int, optional): sample rate. Default: 22050.
        n_mfcc (int, optional): number of coefficients (at most ``n_mels``). Default: 40.
        n_fft, hop_length, win_length, window, power, center, pad_mode, n_mels, f_min, f_max,
            htk, norm, ref_value, amin, top_db, dtype: as in :class:`LogMelSpectrogram`.

    Shape:
        ``x``: ``[N, T]``; output: ``[N, n_mfcc, num_frames]``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.audio.features import MFCC
        >>> MFCC(sr=16000, n_mfcc=20, n_fft=256)(paddle.ones([2, 640])).shape
        paddle.Size([2, 20, 11])
    """

    dct_matrix: Tensor

    def __init__(self, sr: int = 22050, n_mfcc: int = 40, n_fft: int = 512, hop_length: int | None = None,
                 win_length: int | None = None, window: Any = "hann", power: float = 2.0,
                 center: bool = True, pad_mode: str = "reflect", n_mels: int = 64, f_min: float = 50.0,
                 f_max: float | None = None, htk: bool = False, norm: Any = "slaney",
                 ref_value: float = 1.0, amin: float = 1e-10, top_db: float | None = None,
                 dtype: str = "float32") -> None:
        super().__init__()
        assert n_mfcc <= n_mels, f"n_mfcc cannot be larger than n_mels: {n_mfcc} vs {n_mels}"
        self._log_melspectrogram = LogMelSpectrogram(
            sr=sr, n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window,
            power=power, center=center, pad_mode=pad_mode, n_mels=n_mels, f_min=f_min, f_max=f_max,
            htk=htk, norm=norm, ref_value=ref_value, amin=amin, top_db=top_db, dtype=dtype)
        with suspended():
            dct = create_dct(n_mfcc=n_mfcc, n_mels=n_mels, dtype=dtype)
        self.register_buffer("dct_matrix", dct)

    def forward(self, x: Tensor) -> Tensor:
        """MFCCs of the ``[N, T]`` waveforms ``x``."""
        log_mel = self._log_melspectrogram(x)  # [N, n_mels, frames]
        return pagaie.matmul(log_mel.transpose((0, 2, 1)), self.dct_matrix).transpose((0, 2, 1))
