"""Mel scales, filter banks, DCT matrices and decibels (``paddle.audio.functional``).

Everything is composed of public pagaie ops, so the functions work on eager tensors and on
the values of a static program alike. The mel scale is Slaney's (linear below 1 kHz,
logarithmic above) unless ``htk=True`` (``2595 log10(1 + f / 700)``).

    >>> import pagaie as paddle
    >>> F = paddle.audio.functional
    >>> round(F.hz_to_mel(1000.0), 4), round(F.mel_to_hz(15.0), 4)
    (15.0, 1000.0)
"""
from __future__ import annotations

import math
from typing import Any, Union

import numpy as np

import pagaie
from pagaie._core.tensor import Tensor

__all__ = ["hz_to_mel", "mel_to_hz", "mel_frequencies", "fft_frequencies", "compute_fbank_matrix",
           "power_to_db", "create_dct"]

TensorOrFloat = Union[Tensor, float]

# Slaney's scale: 3 mels per 200 Hz up to 1 kHz, then a constant ratio of 6.4 per 27 mels.
_F_SP = 200.0 / 3
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0


def _float_tensor(x: Tensor, api: str, arg: str) -> None:
    if not x.dtype.is_floating_point:
        raise TypeError(f"paddle.audio.functional.{api}: '{arg}' must be a floating-point tensor "
                        f"(Paddle promotes only between floating-point types), but received {x.dtype}")


def hz_to_mel(freq: TensorOrFloat, htk: bool = False) -> TensorOrFloat:
    """Convert frequencies in Hz to mels.

    Args:
        freq (Tensor|float): frequencies (a float, or a floating tensor of any shape).
        htk (bool, optional): use the HTK formula ``2595 log10(1 + f / 700)`` instead of
            Slaney's. Default: False.

    Returns:
        Tensor|float: mels, of the same kind (and dtype) as ``freq``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.audio.functional
        >>> round(F.hz_to_mel(500.0), 4), round(F.hz_to_mel(500.0, htk=True), 4)
        (7.5, 607.4459)
        >>> F.hz_to_mel(paddle.to_tensor([0.0, 4000.0], dtype='float64')).numpy().round(3).tolist()
        [0.0, 35.164]
    """
    if isinstance(freq, Tensor):
        if htk:
            return 2595.0 * pagaie.log10(1.0 + freq / 700.0)
        _float_tensor(freq, "hz_to_mel", "freq")
        linear = freq / _F_SP
        log = _MIN_LOG_MEL + pagaie.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
        return pagaie.where(freq > _MIN_LOG_HZ, log, linear)
    if htk:
        return 2595.0 * math.log10(1.0 + freq / 700.0)
    if freq >= _MIN_LOG_HZ:
        return _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
    return freq / _F_SP


def mel_to_hz(mel: TensorOrFloat, htk: bool = False) -> TensorOrFloat:
    """Convert mels to frequencies in Hz (the inverse of :func:`hz_to_mel`).

    Args:
        mel (Tensor|float): mels (a float, or a floating tensor of any shape).
        htk (bool, optional): use the HTK formula. Default: False.

    Returns:
        Tensor|float: frequencies in Hz, of the same kind (and dtype) as ``mel``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.audio.functional
        >>> round(F.mel_to_hz(10.0), 4), round(F.mel_to_hz(10.0, htk=True), 4)
        (666.6667, 6.2389)
    """
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    if isinstance(mel, Tensor):
        _float_tensor(mel, "mel_to_hz", "mel")
        linear = mel * _F_SP
        log = _MIN_LOG_HZ * pagaie.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
        return pagaie.where(mel > _MIN_LOG_MEL, log, linear)
    if mel >= _MIN_LOG_MEL:
        return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return _F_SP * mel


def mel_frequencies(n_mels: int = 64, f_min: float = 0.0, f_max: float = 11025.0, htk: bool = False,
                    dtype: str = "float32") -> Tensor:
    """``n_mels`` frequencies in Hz, evenly spaced on the mel scale from ``f_min`` to ``f_max``.

    Args:
        n_mels (int, optional): number of frequencies. Default: 64.
        f_min (float, optional): lowest frequency in Hz. Default: 0.0.
        f_max (float, optional): highest frequency in Hz. Default: 11025.0.
        htk (bool, optional): use the HTK mel scale. Default: False.
        dtype (str, optional): dtype of the result. Default: 'float32'.

    Returns:
        Tensor: shape ``[n_mels]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.audio.functional.mel_frequencies(3, 0.0, 2000.0, dtype='float64').numpy().round(1).tolist()
        [0.0, 836.1, 2000.0]
    """
    mels = pagaie.linspace(hz_to_mel(f_min, htk=htk), hz_to_mel(f_max, htk=htk), n_mels, dtype=dtype)
    return mel_to_hz(mels, htk=htk)


def fft_frequencies(sr: int, n_fft: int, dtype: str = "float32") -> Tensor:
    """The centre frequencies in Hz of the ``n_fft // 2 + 1`` bins of a one-sided DFT.

    Args:
        sr (int): sample rate.
        n_fft (int): DFT size.
        dtype (str, optional): dtype of the result. Default: 'float32'.

    Returns:
        Tensor: shape ``[n_fft // 2 + 1]``, from 0 to ``sr / 2``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.audio.functional.fft_frequencies(16000, 8).numpy().tolist()
        [0.0, 2000.0, 4000.0, 6000.0, 8000.0]
    """
    return pagaie.linspace(0, float(sr) / 2, int(1 + n_fft // 2), dtype=dtype)


def compute_fbank_matrix(sr: int, n_fft: int, n_mels: int = 64, f_min: float = 0.0,
                         f_max: float | None = None, htk: bool = False, norm: str | float = "slaney",
                         dtype: str = "float32") -> Tensor:
    """Triangular mel filter bank: row ``i`` weights the DFT bins for mel band ``i``.

    Band ``i`` rises from mel frequency ``i`` to ``i + 1`` and falls to ``i + 2`` of
    ``n_mels + 2`` frequencies evenly spaced on the mel scale.

    Args:
        sr (int): sample rate.
        n_fft (int): DFT size.
        n_mels (int, optional): number of mel bands. Default: 64.
        f_min (float, optional): lowest frequency in Hz. Default: 0.0.
        f_max (float, optional): highest frequency in Hz. Default: None (``sr / 2``).
        htk (bool, optional): use the HTK mel scale. Default: False.
        norm (str|float, optional): 'slaney' scales each band to unit area (``2 / width``);
            a number p normalises each row to unit p-norm; anything else leaves the
            triangles' peaks at 1. Default: 'slaney'.
        dtype (str, optional): dtype of the result. Default: 'float32'.

    Returns:
        Tensor: shape ``[n_mels, n_fft // 2 + 1]``.

    Raises:
        TypeError: ``n_mels`` is not an int.
        ValueError: ``n_mels`` is negative.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.audio.functional.compute_fbank_matrix(16000, 512, n_mels=40).shape
        paddle.Size([40, 257])
    """
    if isinstance(n_mels, bool) or not isinstance(n_mels, (int, np.integer)):
        raise TypeError(f"paddle.audio.functional.compute_fbank_matrix: 'n_mels' must be an int, "
                        f"but received {type(n_mels).__name__} {n_mels!r}")
    if n_mels < 0:
        raise ValueError(f"paddle.audio.functional.compute_fbank_matrix: 'n_mels' must be "
                         f"non-negative, but received {n_mels}")
    if f_max is None:
        f_max = float(sr) / 2
    fftfreqs = fft_frequencies(sr=sr, n_fft=n_fft, dtype=dtype)
    mel_f = mel_frequencies(n_mels + 2, f_min=f_min, f_max=f_max, htk=htk, dtype=dtype)
    fdiff = (mel_f[1:] - mel_f[:-1]).unsqueeze(1)
    ramps = mel_f.unsqueeze(1) - fftfreqs.unsqueeze(0)
    lower = -ramps[:n_mels] / fdiff[:n_mels]
    upper = ramps[2:n_mels + 2] / fdiff[1:n_mels + 1]
    weights = pagaie.clip(pagaie.minimum(lower, upper), min=0.0)
    if isinstance(norm, str):
        if norm == "slaney":
            weights = weights * (2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels])).unsqueeze(1)
    elif isinstance(norm, (int, float)):
        weights = pagaie.nn.functional.normalize(weights, p=norm, axis=-1)
    # the sizes are known when a program is built, as in Paddle (its linspace's are not)
    return weights.reshape([n_mels, int(1 + n_fft // 2)])


def power_to_db(spect: Tensor, ref_value: float = 1.0, amin: float = 1e-10,
                top_db: float | None = 80.0) -> Tensor:
    """Convert a power spectrogram to decibels: ``10 log10(max(spect, amin) / max(ref_value, amin))``.

    Args:
        spect (Tensor): power spectrogram (squared magnitudes).
        ref_value (float, optional): the power mapped to 0 dB. Default: 1.0.
        amin (float, optional): floor applied to ``spect`` before the logarithm. Default: 1e-10.
        top_db (float, optional): if not None, values below ``max - top_db`` (the maximum
            over the whole tensor) are raised to it. Default: 80.0.

    Returns:
        Tensor: decibels, same shape and dtype as ``spect``.

    Raises:
        ValueError: ``amin`` or ``ref_value`` not positive, or ``top_db`` negative.
        RuntimeError: ``spect`` is complex.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 10.0, 1e-12])
        >>> paddle.audio.functional.power_to_db(x, top_db=None).numpy().round(1).tolist()
        [0.0, 10.0, -100.0]
        >>> paddle.audio.functional.power_to_db(x, top_db=50.0).numpy().round(1).tolist()
        [0.0, 10.0, -40.0]
    """
    if amin <= 0:
        raise ValueError(f"amin must be strictly positive (paddle.audio.functional.power_to_db: "
                         f"received amin={amin})")
    if ref_value <= 0:
        raise ValueError(f"ref_value must be strictly positive (paddle.audio.functional.power_to_db: "
                         f"received ref_value={ref_value})")
    if isinstance(spect, Tensor) and not spect.is_complex():  # complex: maximum has no kernel
        _float_tensor(spect, "power_to_db", "spect")
    log_spec = 10.0 * pagaie.log10(pagaie.maximum(spect, pagaie.full_like(spect, amin)))
    log_spec = log_spec - 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        if top_db < 0:
            raise ValueError(f"top_db must be non-negative (paddle.audio.functional.power_to_db: "
                             f"received top_db={top_db})")
        log_spec = pagaie.maximum(log_spec, log_spec.max() - top_db)
    return log_spec


def create_dct(n_mfcc: int, n_mels: int, norm: str | None = "ortho", dtype: str = "float32") -> Tensor:
    """The DCT-II matrix that maps ``n_mels`` log-mel energies to ``n_mfcc`` cepstral coefficients.

    Args:
        n_mfcc (int): number of coefficients.
        n_mels (int): number of mel bands.
        norm (str, optional): 'ortho' for the orthonormal DCT, None for the unscaled one
            (``2 cos(...)``). Default: 'ortho'.
        dtype (str, optional): dtype of the result. Default: 'float32'.

    Returns:
        Tensor: shape ``[n_mels, n_mfcc]`` (multiply log-mel frames on the right).

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.audio.functional.create_dct(n_mfcc=3, n_mels=4)
        >>> d.shape, round(float(d[0, 0]), 4)
        (paddle.Size([4, 3]), 0.5)
    """
    if norm is not None and norm != "ortho":
        raise AssertionError(f"paddle.audio.functional.create_dct: 'norm' must be 'ortho' or None, "
                             f"but received {norm!r}")
    n = pagaie.arange(n_mels, dtype=dtype)
    k = pagaie.arange(n_mfcc, dtype=dtype).unsqueeze(1)
    dct = pagaie.cos(math.pi / float(n_mels) * (n + 0.5) * k)  # [n_mfcc, n_mels]
    if norm is None:
        dct = dct * 2.0
    else:
        rows = k.shape[0]  # ceil(n_mfcc) for a float, as arange counts
        scale = [math.sqrt(1.0 / n_mels)] + [math.sqrt(2.0 / n_mels)] * (rows - 1)
        dct = dct * pagaie.to_tensor(scale[:rows], dtype=dtype).unsqueeze(1)
    return dct.T
