"""``paddle.device.cpu``: the CPU's device-module functions (counts, memory, random state)."""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core.random import default_generator

__all__ = ["device_count", "get_rng_state", "manual_seed", "max_memory_allocated",
           "max_memory_reserved", "reset_max_memory_allocated", "reset_max_memory_reserved",
           "set_rng_state"]


def device_count() -> int:
    """Accelerator devices this module manages: 0 (the CPU is not counted, as in Paddle).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.cpu.device_count()
        0
    """
    return 0


def _no_memory_stats(api: str) -> None:
    raise ValueError(f"The API paddle.device.{api} is not supported on the CPU: memory statistics "
                     "are kept for GPUs only (use paddle.device.cuda on a CUDA device)")


def max_memory_allocated(device: Any = None) -> int:
    """Not available for the CPU: raises ValueError, as Paddle's CPU build does.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.device.cpu.max_memory_allocated()
        ... except ValueError:
        ...     print('GPU only')
        GPU only
    """
    _no_memory_stats("max_memory_allocated")


def max_memory_reserved(device: Any = None) -> int:
    """Not available for the CPU: raises ValueError, as Paddle's CPU build does.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.device.cpu.max_memory_reserved()
        ... except ValueError:
        ...     print('GPU only')
        GPU only
    """
    _no_memory_stats("max_memory_reserved")


def reset_max_memory_allocated(device: Any = None) -> None:
    """Not available for the CPU: raises ValueError.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.device.cpu.reset_max_memory_allocated()
        ... except ValueError:
        ...     print('GPU only')
        GPU only
    """
    _no_memory_stats("reset_max_memory_allocated")


def reset_max_memory_reserved(device: Any = None) -> None:
    """Not available for the CPU: raises ValueError.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.device.cpu.reset_max_memory_reserved()
        ... except ValueError:
        ...     print('GPU only')
        GPU only
    """
    _no_memory_stats("reset_max_memory_reserved")


def manual_seed(seed: int) -> None:
    """Seed the CPU's default generator.

    Args:
        seed (int): the seed.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.cpu.manual_seed(3)
    """
    default_generator(torch.device("cpu")).manual_seed(int(seed))


def get_rng_state(device: Any = None) -> torch.Tensor:
    """The CPU generator's state, for :func:`set_rng_state`.

    Args:
        device (optional): accepted for symmetry with the GPU module; the CPU's state.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.device.cpu.get_rng_state()
        >>> paddle.device.cpu.set_rng_state(s)
    """
    return torch.get_rng_state()


def set_rng_state(new_state: torch.Tensor, device: Any = None) -> None:
    """Restore the CPU generator's state from :func:`get_rng_state`.

    Args:
        new_state: the state.
        device (optional): accepted for symmetry with the GPU module.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.cpu.set_rng_state(paddle.device.cpu.get_rng_state())
    """
    torch.set_rng_state(new_state)
