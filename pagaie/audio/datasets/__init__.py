"""paddle.audio.datasets: the ESC-50 and TESS audio classification datasets.

    >>> import pagaie as paddle
    >>> paddle.audio.datasets.TESS.audio_path
    'TESS_Toronto_emotional_speech_set'
"""
from pagaie.audio.datasets.esc50 import ESC50  # noqa: F401
from pagaie.audio.datasets.tess import TESS  # noqa: F401

__all__ = ["ESC50", "TESS"]
