"""``paddle.device.xpu``: Kunlun XPU devices, answered as Paddle's CPU build answers.

pagaie runs on torch's CPU and CUDA back ends and has no XPU support: ``device_count()``
is 0, the memory functions raise ``ValueError`` (Paddle: "only supported in XPU
PaddlePaddle"), streams, events and ``synchronize`` raise ``RuntimeError``, and the random
state functions act on the CPU generator when the current device is the CPU, as Paddle's
CPU build does.

Examples:
    >>> from pagaie.device import xpu
    >>> xpu.device_count()
    0
"""
from __future__ import annotations

from typing import Any

import torch

__all__ = ["Stream", "Event", "synchronize", "device_count", "set_debug_level", "empty_cache",
           "max_memory_allocated", "max_memory_reserved", "reset_max_memory_allocated",
           "reset_max_memory_reserved", "memory_allocated", "memory_reserved", "memory_total",
           "memory_used"]


def _no_xpu_runtime(api: str) -> RuntimeError:
    return RuntimeError(f"paddle.device.xpu.{api}: (Unavailable) this installation is not "
                        "compiled with XPU support (pagaie runs on CPUs and CUDA GPUs only)")


def _xpu_only(api: str) -> ValueError:
    return ValueError(f"The API paddle.device.xpu.{api} is only supported in XPU PaddlePaddle; "
                      "pagaie has no XPU support")


class Stream:
    """An XPU stream. No XPU exists here: creating one raises ``RuntimeError``.

    Args:
        device (int|str, optional): the XPU.
        priority (int, optional): the stream priority.
        blocking (bool, optional): whether the stream synchronises with the default one.

    Examples:
        >>> from pagaie.device import xpu
        >>> try:
        ...     xpu.Stream()
        ... except RuntimeError:
        ...     print('no XPU')
        no XPU
    """

    def __init__(self, device: Any = None, priority: int = 2, blocking: bool = False) -> None:
        raise _no_xpu_runtime("Stream")


class Event:
    """An XPU event. No XPU exists here: creating one raises ``RuntimeError``.

    Args:
        enable_timing (bool, optional): record timing data.
        blocking (bool, optional): whether ``synchronize`` blocks.
        interprocess (bool, optional): shareable between processes.

    Examples:
        >>> from pagaie.device import xpu
        >>> try:
        ...     xpu.Event()
        ... except RuntimeError:
        ...     print('no XPU')
        no XPU
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False) -> None:
        raise _no_xpu_runtime("Event")


def create_stream(device_id: Any = None, priority: int = 2, device_type: str | None = None,
                  blocking: bool = False) -> Stream:
    """Create an XPU stream: raises ``RuntimeError`` (no XPU here).

    Examples:
        >>> from pagaie.device import xpu
        >>> try:
        ...     xpu.create_stream()
        ... except RuntimeError:
        ...     print('no XPU')
        no XPU
    """
    raise _no_xpu_runtime("create_stream")


def create_event(enable_timing: bool = False, blocking: bool = False, interprocess: bool = False,
                 device_type: str | None = None, device_id: int = 0) -> Event:
    """Create an XPU event: raises ``RuntimeError`` (no XPU here).

    Examples:
        >>> from pagaie.device import xpu
        >>> try:
        ...     xpu.create_event()
        ... except RuntimeError:
        ...     print('no XPU')
        no XPU
    """
    raise _no_xpu_runtime("create_event")


def current_stream(device: Any = None) -> Stream:
    """The current XPU stream: raises ``RuntimeError`` (no XPU here).

    Examples:
        >>> from pagaie.device import xpu
        >>> try:
        ...     xpu.current_stream()
        ... except RuntimeError:
        ...     print('no XPU')
        no XPU
    """
    raise _no_xpu_runtime("current_stream")


def synchronize(device: Any = None) -> int:
    """Wait for an XPU's work to finish: raises ``RuntimeError`` (no XPU here).

    Examples:
        >>> from pagaie.device import xpu
        >>> try:
        ...     xpu.synchronize()
        ... except RuntimeError:
        ...     print('no XPU')
        no XPU
    """
    raise _no_xpu_runtime("synchronize")


def device_count() -> int:
    """The number of XPUs visible: 0.

    Examples:
        >>> from pagaie.device import xpu
        >>> xpu.device_count()
        0
    """
    return 0


def set_debug_level(level: int = 0) -> None:
    """Set the XPU runtime's debug level: raises ``ValueError`` (no XPU here).

    Examples:
        >>> from pagaie.device import xpu
        >>> try:
        ...     xpu.set_debug_level(1)
        ... except ValueError:
        ...     print('XPU only')
        XPU only
    """
    raise _xpu_only("set_debug_level")


def empty_cache() -> None:
    """Free the XPU allocator's cached memory: raises ``ValueError`` (no XPU here).

    Examples:
        >>> from pagaie.device import xpu
        >>> try:
        ...     xpu.empty_cache()
        ... except ValueError:
        ...     print('XPU only')
        XPU only
    """
    raise _xpu_only("empty_cache")


def _memory_fn(api: str, returns: str) -> Any:
    def fn(device: Any = None) -> Any:
        raise _xpu_only(api)
    fn.__name__ = fn.__qualname__ = api
    fn.__doc__ = (f"{returns} of an XPU: raises ``ValueError`` (no XPU here).\n\n"
                  "    Args:\n        device (int|str, optional): the XPU.\n\n"
                  "    Examples:\n        >>> from pagaie.device import xpu\n"
                  "        >>> try:\n"
                  f"        ...     xpu.{api}()\n"
                  "        ... except ValueError:\n        ...     print('XPU only')\n"
                  "        XPU only\n")
    return fn


max_memory_allocated = _memory_fn("max_memory_allocated", "The peak memory allocated")
max_memory_reserved = _memory_fn("max_memory_reserved", "The peak memory reserved")
reset_max_memory_allocated = _memory_fn("reset_max_memory_allocated",
                                        "Reset the peak allocated memory")
reset_max_memory_reserved = _memory_fn("reset_max_memory_reserved",
                                       "Reset the peak reserved memory")
memory_allocated = _memory_fn("memory_allocated", "The memory allocated")
memory_reserved = _memory_fn("memory_reserved", "The memory reserved")
memory_total = _memory_fn("memory_total", "The total memory")
memory_used = _memory_fn("memory_used", "The memory in use")


def _cpu_or_raise(device: Any, api: str) -> None:
    from pagaie._core.place import default_device
    if device is None:
        kind = default_device().type
    elif isinstance(device, str):
        kind = device.split(":")[0]
    else:
        kind = type(device).__name__.lower()
    if kind not in ("cpu", "cpuplace"):
        raise ValueError(f"paddle.device.xpu.{api}: device {device!r} is not an XPU this "
                         "installation can drive (only the CPU generator is available here)")


def get_rng_state(device: Any = None) -> Any:
    """The random state of the default generator; with no XPU, the CPU's (as Paddle's CPU
    build when the current device is the CPU).

    Args:
        device (str|Place, optional): the device; the current one by default.

    Returns:
        GeneratorState: the state, for :func:`set_rng_state`.

    Raises:
        ValueError: the device is not the CPU.

    Examples:
        >>> from pagaie.device import xpu
        >>> s = xpu.get_rng_state('cpu')
        >>> xpu.set_rng_state(s, 'cpu')
    """
    from pagaie._core.random import default_generator
    _cpu_or_raise(device, "get_rng_state")
    return default_generator(torch.device("cpu")).get_state()


def set_rng_state(new_state: Any, device: Any = None) -> None:
    """Restore a state from :func:`get_rng_state` (the CPU generator's, with no XPU).

    Args:
        new_state: the state.
        device (str|Place, optional): the device; the current one by default.

    Raises:
        TypeError: ``new_state`` is not a state from :func:`get_rng_state`.

    Examples:
        >>> from pagaie.device import xpu
        >>> xpu.set_rng_state(xpu.get_rng_state('cpu'), 'cpu')
    """
    from pagaie._core.random import default_generator
    _cpu_or_raise(device, "set_rng_state")
    default_generator(torch.device("cpu")).set_state(new_state)


def manual_seed(seed: int) -> None:
    """Seed the current device's generator (the CPU's when no XPU is current).

    Args:
        seed (int): the seed.

    Examples:
        >>> from pagaie.device import xpu
        >>> xpu.manual_seed(102)
    """
    from pagaie._core.place import default_device
    from pagaie._core.random import default_generator
    default_generator(default_device()).manual_seed(int(seed))
