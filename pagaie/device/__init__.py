"""``paddle.device``: choosing and querying devices."""
from __future__ import annotations

import torch

from pagaie._core.place import get_device, set_device

__all__ = ["get_device", "set_device", "is_compiled_with_cuda", "device_count"]


def is_compiled_with_cuda() -> bool:
    """Whether the underlying torch build supports CUDA.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.device.is_compiled_with_cuda(), bool)
        True
    """
    return torch.backends.cuda.is_built()


def device_count() -> int:
    """Number of visible GPUs.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.device_count() >= 0
        True
    """
    return torch.cuda.device_count() if torch.cuda.is_available() else 0
