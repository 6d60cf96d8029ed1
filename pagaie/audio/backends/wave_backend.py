"""The default audio backend: 16-bit PCM WAV files through Python's ``wave`` module.

    >>> import io
    >>> import pagaie as paddle
    >>> from pagaie.audio.backends import wave_backend
    >>> buf = io.BytesIO()
    >>> wave_backend.save(buf, paddle.to_tensor([[0.5, -0.5]]), 8000)
    >>> _ = buf.seek(0)
    >>> wave_backend.load(buf)[0].numpy().tolist()
    [[0.5, -0.5]]
"""
from __future__ import annotations

import os
import wave
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Iterator

import numpy as np

import pagaie
from pagaie._core.tensor import Tensor
from pagaie.audio.backends.backend import AudioInfo

__all__ = ["info", "load", "save"]

_UNSUPPORTED = ("only PCM16 WAV supported. The wave_backend reads and writes 16-bit PCM WAV files "
                "only; the other backends of Paddle (paddleaudio's 'soundfile') are not available "
                "in pagaie.")


@contextmanager
def _wav_reader(filepath: str | Path | BinaryIO, api: str) -> Iterator[wave.Wave_read]:
    """An open ``wave`` reader; a file this opens is closed afterwards, a file object given is not."""
    own = not hasattr(filepath, "read")
    f = open(os.fspath(filepath), "rb") if own else filepath
    try:
        try:
            reader = wave.open(f)
        except wave.Error as e:
            raise NotImplementedError(f"{api}: cannot read {_name(filepath)} ({e}): {_UNSUPPORTED}") from None
        yield reader
    finally:
        if own:
            f.close()


def _name(filepath: Any) -> str:
    return repr(os.fspath(filepath)) if isinstance(filepath, (str, Path)) else "the file object"


def info(filepath: str | Path | BinaryIO) -> AudioInfo:
    """Sample rate, frames, channels, bits per sample and encoding of a PCM WAV file
    (see :func:`pagaie.audio.info`).

    Examples:
        >>> import io
        >>> import pagaie as paddle
        >>> from pagaie.audio.backends import wave_backend
        >>> buf = io.BytesIO()
        >>> wave_backend.save(buf, paddle.zeros([1, 5]), 22050)
        >>> _ = buf.seek(0)
        >>> wave_backend.info(buf).sample_rate
        22050
    """
    with _wav_reader(filepath, "paddle.audio.info") as r:
        return AudioInfo(r.getframerate(), r.getnframes(), r.getnchannels(), r.getsampwidth() * 8, "PCM_S")


def load(filepath: str | Path | BinaryIO, frame_offset: int = 0, num_frames: int = -1,
         normalize: bool = True, channels_first: bool = True) -> tuple[Tensor, int]:
    """Read ``num_frames`` frames from ``frame_offset`` of a 16-bit PCM WAV file
    (see :func:`pagaie.audio.load`).

    Examples:
        >>> import io
        >>> import pagaie as paddle
        >>> from pagaie.audio.backends import wave_backend
        >>> buf = io.BytesIO()
        >>> wave_backend.save(buf, paddle.to_tensor([[0.5, 0.25], [-0.5, 0.0]]), 8000)
        >>> _ = buf.seek(0)
        >>> wave_backend.load(buf, channels_first=False)[0].shape
        paddle.Size([2, 2])
    """
    api = "paddle.audio.load"
    if int(frame_offset) < 0:
        raise ValueError(f"{api}: 'frame_offset' must be >= 0, but received {frame_offset}")
    if int(num_frames) < -1:
        raise ValueError(f"{api}: 'num_frames' must be -1 (to the end) or >= 0, but received {num_frames}")
    with _wav_reader(filepath, api) as r:
        if r.getsampwidth() != 2:
            raise NotImplementedError(f"{api}: {_name(filepath)} holds {r.getsampwidth() * 8}-bit "
                                      f"samples: {_UNSUPPORTED}")
        channels, sample_rate, total = r.getnchannels(), r.getframerate(), r.getnframes()
        start = min(int(frame_offset), total)
        count = total - start if num_frames == -1 else min(int(num_frames), total - start)
        r.setpos(start)
        data = r.readframes(count)
    samples = np.frombuffer(data, dtype="<i2").astype(np.float32)
    if normalize:
        samples = samples / np.float32(2 ** 15)
    waveform = pagaie.to_tensor(samples.reshape(-1, channels))
    if channels_first:
        waveform = pagaie.transpose(waveform, perm=[1, 0])
    return waveform, sample_rate


def _pcm16(src: Tensor) -> np.ndarray:
    """16-bit samples of a waveform: floats in [-1, 1] scaled by 2**15 (truncated toward zero,
    clipped), integers clipped to the 16-bit range."""
    if src.dtype in (pagaie.float16, pagaie.bfloat16):
        src = src.astype("float32")
    a = src.numpy()
    if a.dtype.kind == "f":
        a = a.astype(np.float64) * 2 ** 15
    elif a.dtype.kind not in "iub":
        raise TypeError(f"paddle.audio.save: 'src' must hold real samples, but received dtype {a.dtype}")
    return np.clip(a, -(2 ** 15), 2 ** 15 - 1).astype("<i2")


def save(filepath: str | Path | BinaryIO, src: Tensor, sample_rate: int, channels_first: bool = True,
         encoding: str | None = None, bits_per_sample: int | None = 16) -> None:
    """Write a 2-D waveform as a 16-bit PCM WAV file (see :func:`pagaie.audio.save`).

    Examples:
        >>> import io
        >>> import pagaie as paddle
        >>> from pagaie.audio.backends import wave_backend
        >>> buf = io.BytesIO()
        >>> wave_backend.save(buf, paddle.zeros([2, 100]), 16000)
        >>> len(buf.getvalue())  # 44-byte header + 2 channels * 100 frames * 2 bytes
        444
    """
    if not isinstance(src, Tensor):  # Paddle reads ``src.numpy()``: AttributeError
        raise AttributeError(f"paddle.audio.save: 'src' must be a Tensor, but received "
                             f"{type(src).__name__}")
    assert src.ndim == 2, f"Expected 2D tensor (paddle.audio.save: 'src' has {src.ndim} dimensions)"
    if bits_per_sample not in (None, 16):
        raise ValueError(f"Invalid bits_per_sample, only support 16 bit (paddle.audio.save: received "
                         f"{bits_per_sample})")
    samples = _pcm16(src)
    if channels_first:
        samples = samples.T
    target = filepath if hasattr(filepath, "write") else os.fspath(filepath)
    with wave.open(target, "wb") as w:
        w.setnchannels(samples.shape[1])
        w.setsampwidth(2)
        w.setframerate(int(sample_rate))
        w.writeframes(np.ascontiguousarray(samples).tobytes())
