"""``paddle.amp``: automatic mixed precision (autocast, loss scaling, decorate, debugging)."""
from __future__ import annotations

import torch as _torch

from pagaie.amp import amp_lists, debugging
from pagaie.amp.auto_cast import (amp_guard, auto_cast, autocast, get_autocast_cpu_dtype,
                                  get_autocast_dtype, get_autocast_gpu_dtype, is_autocast_enabled)
from pagaie.amp.decorate import decorate
from pagaie.amp.grad_scaler import AmpScaler, GradScaler, OptimizerState
from pagaie.amp.lists import black_list, white_list

__all__ = ["auto_cast", "autocast", "GradScaler", "AmpScaler", "OptimizerState", "decorate",
           "amp_guard", "amp_decorate", "white_list", "black_list", "is_float16_supported",
           "is_bfloat16_supported", "is_autocast_enabled", "get_autocast_dtype",
           "get_autocast_cpu_dtype", "get_autocast_gpu_dtype", "debugging"]
__paddle_toplevel__ = ["autocast", "is_autocast_enabled", "get_autocast_dtype",
                       "get_autocast_cpu_dtype", "get_autocast_gpu_dtype"]

amp_decorate = decorate


def _device_of(device: str | None) -> _torch.device:
    from pagaie._core.place import default_device, to_torch_device
    return default_device() if device is None else to_torch_device(device, "paddle.amp")


def is_float16_supported(device: str | None = None) -> bool:
    """Whether ``device`` (the current one by default) runs float16 at speed: a GPU of
    compute capability 5.3 or newer. False on CPU, as in Paddle (pagaie still computes
    float16 correctly there).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.amp.is_float16_supported('cpu')
        False
    """
    dev = _device_of(device)
    if dev.type != "cuda":
        return False
    return _torch.cuda.get_device_capability(dev) >= (5, 3)


def is_bfloat16_supported(device: str | None = None) -> bool:
    """Whether ``device`` supports bfloat16: the CPU, or a GPU of compute capability 8.0+.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.amp.is_bfloat16_supported('cpu')
        True
    """
    dev = _device_of(device)
    if dev.type != "cuda":
        return True
    return _torch.cuda.get_device_capability(dev) >= (8, 0)
