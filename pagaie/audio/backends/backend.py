"""The audio I/O entry points ``paddle.audio.load / info / save`` and their result type.

They forward to the module chosen with :func:`pagaie.audio.backends.set_backend` (only
``'wave_backend'``, 16-bit PCM WAV through Python's ``wave`` module, exists in pagaie).

    >>> from pagaie.audio.backends.backend import AudioInfo
    >>> AudioInfo(16000, 8000, 1, 16, 'PCM_S').num_samples
    8000
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any, BinaryIO

from pagaie._core.tensor import Tensor

__all__: list[str] = []

_impl: ModuleType | None = None  # set by init_backend: the module that implements load/info/save


class AudioInfo:
    """What :func:`info` reports about an audio file.

    Args:
        sample_rate (int): samples per second.
        num_samples (int): number of frames (samples per channel).
        num_channels (int): number of channels.
        bits_per_sample (int): bits of each sample.
        encoding (str): sample encoding ('PCM_S': signed integer PCM).

    Examples:
        >>> from pagaie.audio.backends.backend import AudioInfo
        >>> AudioInfo(8000, 10, 2, 16, 'PCM_S')
        AudioInfo(sample_rate=8000, num_samples=10, num_channels=2, bits_per_sample=16, encoding='PCM_S')
    """

    sample_rate: int
    num_samples: int
    num_channels: int
    bits_per_sample: int
    encoding: str

    def __init__(self, sample_rate: int, num_samples: int, num_channels: int, bits_per_sample: int,
                 encoding: str) -> None:
        self.sample_rate = sample_rate
        self.num_samples = num_samples
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"AudioInfo({fields})"


def info(filepath: str | Path | BinaryIO) -> AudioInfo:
    """Sample rate, length, channels, sample size and encoding of an audio file.

    Args:
        filepath (str|Path|file object): the file, or an open binary file object.

    Returns:
        AudioInfo: the file's description.

    Raises:
        NotImplementedError: the file is not a PCM WAV file (the only format supported).

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'tone.wav')
        >>> paddle.audio.save(path, paddle.zeros([2, 800]), 8000)
        >>> paddle.audio.info(path)
        AudioInfo(sample_rate=8000, num_samples=800, num_channels=2, bits_per_sample=16, encoding='PCM_S')
    """
    return _impl.info(filepath)


def load(filepath: str | Path | BinaryIO, frame_offset: int = 0, num_frames: int = -1,
         normalize: bool = True, channels_first: bool = True) -> tuple[Tensor, int]:
    """Read an audio file into a float32 tensor.

    Args:
        filepath (str|Path|file object): the file, or an open binary file object.
        frame_offset (int, optional): first frame to read. Default: 0.
        num_frames (int, optional): number of frames to read; -1 reads to the end. Default: -1.
        normalize (bool, optional): True scales 16-bit samples to [-1, 1) (divided by
            32768); False keeps the integer sample values (still float32, as Paddle does).
            Default: True.
        channels_first (bool, optional): shape ``[channels, frames]`` (True) or
            ``[frames, channels]`` (False). Default: True.

    Returns:
        tuple(Tensor, int): the waveform and the sample rate.

    Raises:
        NotImplementedError: the file is not a 16-bit PCM WAV file.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'ramp.wav')
        >>> paddle.audio.save(path, paddle.to_tensor([[0.0, 0.25, 0.5, -0.5]]), 16000)
        >>> wav, sr = paddle.audio.load(path)
        >>> print(wav.numpy().tolist(), wav.dtype, sr)
        [[0.0, 0.25, 0.5, -0.5]] paddle.float32 16000
        >>> paddle.audio.load(path, frame_offset=1, num_frames=2, normalize=False)[0].numpy().tolist()
        [[8192.0, 16384.0]]
    """
    return _impl.load(filepath, frame_offset=frame_offset, num_frames=num_frames, normalize=normalize,
                      channels_first=channels_first)


def save(filepath: str | Path | BinaryIO, src: Tensor, sample_rate: int, channels_first: bool = True,
         encoding: str | None = None, bits_per_sample: int | None = 16) -> None:
    """Write a 2-D waveform tensor to a 16-bit PCM WAV file.

    Args:
        filepath (str|Path|file object): where to write.
        src (Tensor): ``[channels, frames]`` (or ``[frames, channels]``, see
            ``channels_first``). Floating values are samples in [-1, 1] (scaled by 32768 and
            clipped to the 16-bit range); integer values are 16-bit sample values.
        sample_rate (int): samples per second.
        channels_first (bool, optional): layout of ``src``. Default: True.
        encoding (str, optional): unused: the file is always 16-bit signed PCM.
        bits_per_sample (int, optional): 16 (or None, meaning 16). Default: 16.

    Raises:
        AttributeError: ``src`` is not a Tensor.
        AssertionError: ``src`` is not 2-D.
        ValueError: ``bits_per_sample`` is not 16.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'silence.wav')
        >>> paddle.audio.save(path, paddle.zeros([1, 160]), 16000)
        >>> paddle.audio.info(path).num_samples
        160
    """
    return _impl.save(filepath, src, sample_rate, channels_first=channels_first, encoding=encoding,
                      bits_per_sample=bits_per_sample)
