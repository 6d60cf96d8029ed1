"""The AMP dtype last chosen by ``auto_cast`` or ``decorate`` (read by the loss scaler)."""
from __future__ import annotations

_AMP_DTYPE = ["float32"]


def amp_dtype() -> str:
    return _AMP_DTYPE[0]


def set_amp_dtype(name: str) -> None:
    _AMP_DTYPE[0] = name
