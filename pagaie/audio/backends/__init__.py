"""paddle.audio.backends: the backend behind ``paddle.audio.load / info / save``.

    >>> import pagaie as paddle
    >>> paddle.audio.backends.get_current_backend()
    'wave_backend'
"""
from pagaie.audio.backends.init_backend import (  # noqa: F401
    get_current_backend,
    list_available_backends,
    set_backend,
)

__all__ = ["get_current_backend", "list_available_backends", "set_backend"]
