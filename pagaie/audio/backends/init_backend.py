"""Choosing the audio backend behind ``paddle.audio.load / info / save``.

pagaie has one backend, ``'wave_backend'`` (16-bit PCM WAV). Paddle's optional
``'soundfile'`` backend comes from the ``paddleaudio`` package, which is built on real Paddle
and so cannot serve pagaie.

    >>> import pagaie as paddle
    >>> paddle.audio.backends.list_available_backends()
    ['wave_backend']
"""
from __future__ import annotations

from types import ModuleType

from pagaie.audio.backends import backend, wave_backend

__all__ = ["get_current_backend", "list_available_backends", "set_backend"]

_BACKENDS: dict[str, ModuleType] = {"wave_backend": wave_backend}
_current = "wave_backend"


def list_available_backends() -> list[str]:
    """Names of the audio backends that :func:`set_backend` accepts.

    Returns:
        list[str]: ``['wave_backend']``.

    Examples:
        >>> import pagaie as paddle
        >>> 'wave_backend' in paddle.audio.backends.list_available_backends()
        True
    """
    return list(_BACKENDS)


def get_current_backend() -> str:
    """Name of the backend that ``paddle.audio.load / info / save`` use.

    Returns:
        str: the backend's name (``'wave_backend'`` by default).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.audio.backends.get_current_backend()
        'wave_backend'
    """
    return _current


def set_backend(backend_name: str) -> None:
    """Make ``paddle.audio.load / info / save`` use the backend ``backend_name``.

    Args:
        backend_name (str): one of :func:`list_available_backends`.

    Raises:
        NotImplementedError: the backend is not available.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.audio.backends.set_backend('wave_backend')
        >>> paddle.audio.backends.get_current_backend()
        'wave_backend'
    """
    global _current
    if backend_name not in _BACKENDS:
        raise NotImplementedError(
            f"paddle.audio.backends.set_backend: backend {backend_name!r} is not available; "
            f"available backends: {list_available_backends()} (paddleaudio's 'soundfile' backend "
            "needs real Paddle)")
    _current = backend_name
    backend._impl = _BACKENDS[backend_name]


set_backend("wave_backend")
