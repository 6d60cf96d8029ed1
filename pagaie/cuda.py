"""``paddle.cuda``: torch-style names for the device API (``paddle.cuda.device`` ...).

Most names are the same objects as in :mod:`paddle.device`; the rest (``current_device``,
``manual_seed_all``, ``set_device``, ``mem_get_info``, ``is_initialized``, ``nvtx``,
``cudart``, ``check_error``) follow Paddle's ``paddle.cuda`` module.

Examples:
    >>> import pagaie as paddle
    >>> with paddle.cuda.device("cpu"):
    ...     print(paddle.device.get_device())
    cpu
    >>> paddle.cuda.manual_seed(102)
    >>> isinstance(paddle.cuda.is_bf16_supported(), bool)
    True
"""
from __future__ import annotations

from typing import Any

import torch

from pagaie import device as _device
from pagaie._core.place import CUDAPlace, Place
from pagaie.device import (Event, Stream, StreamContext, current_stream, device,  # noqa: F401
                           device_count, empty_cache, get_device_capability, get_device_name,
                           get_device_properties, get_rng_state, get_stream_from_external,
                           ipc_collect, is_available, is_bf16_supported,
                           is_current_stream_capturing, manual_seed, max_memory_allocated,
                           max_memory_reserved, memory_allocated, memory_reserved,
                           reset_max_memory_allocated, reset_max_memory_reserved,
                           reset_peak_memory_stats, set_rng_state, set_stream, synchronize)
from pagaie.device import (BFloat16Tensor, BoolTensor, ByteTensor, CharTensor,  # noqa: F401
                           DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor,
                           ShortTensor)

__all__ = ["cudart", "check_error", "is_available", "is_initialized", "mem_get_info", "synchronize",
           "current_stream", "get_device_properties", "get_device_name", "get_device_capability",
           "stream", "Stream", "get_stream_from_external", "current_device", "device_count",
           "empty_cache", "memory_allocated", "memory_reserved", "set_device", "set_stream",
           "manual_seed_all", "get_rng_state", "set_rng_state", "FloatTensor", "DoubleTensor",
           "HalfTensor", "BFloat16Tensor", "ByteTensor", "CharTensor", "ShortTensor", "IntTensor",
           "LongTensor", "BoolTensor", "device", "is_bf16_supported", "manual_seed",
           "max_memory_allocated", "reset_peak_memory_stats", "Event", "ipc_collect",
           "StreamContext"]


def stream(stream: Stream | None) -> StreamContext:
    """Context manager that makes ``stream`` the current stream inside the block.

    Args:
        stream (Stream|None): the stream; None changes nothing.

    Returns:
        StreamContext: the context manager.

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.cuda.stream(None):
        ...     pass
    """
    return StreamContext(stream)


def current_device() -> int:
    """The index of the current device (0 when the current device has no index, e.g. CPU).

    Returns:
        int: the device index.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.set_device('cpu')
        Place(cpu)
        >>> paddle.cuda.current_device()
        0
    """
    name = _device.get_device()
    return int(name.split(":")[1]) if ":" in name else 0


def manual_seed_all(seed: int) -> None:
    """Seed the global random generator (all devices share it), like ``paddle.seed``.

    Args:
        seed (int): the seed.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cuda.manual_seed_all(102)
    """
    import pagaie
    pagaie.seed(seed)


def is_initialized() -> bool:
    """Whether an accelerator backend (CUDA or XPU) is built in.

    Returns:
        bool: True with CUDA available.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.cuda.is_initialized(), bool)
        True
    """
    return bool(_device.is_compiled_with_cuda() or _device.is_compiled_with_xpu())


def set_device(device: int | str | Place) -> None:
    """Make ``device`` the current device.

    Args:
        device (int|str|Place): a GPU index (only when the current device is a GPU), a device
            string such as ``'gpu:0'`` / ``'cpu'``, or a place.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cuda.set_device('cpu')
        >>> paddle.device.get_device()
        'cpu'
    """
    if isinstance(device, bool) or not isinstance(device, (int, str, Place)):
        raise ValueError(f"Unsupported device type: {type(device)}. Expected int, str, CUDAPlace, "
                         "XPUPlace, or CustomPlace.")
    if isinstance(device, int):
        if not _device.get_device().startswith("gpu"):
            raise ValueError("Paddle-CPU is not supported. Please use PaddlePaddle with CUDA, XPU "
                             "or Custom Device")
        device = f"gpu:{device}"
    elif isinstance(device, Place):
        if not isinstance(device, CUDAPlace):
            raise ValueError(f"Unsupported device type: {type(device)}. Expected int, str, "
                             "CUDAPlace, XPUPlace, or CustomPlace.")
        device = f"gpu:{device.get_device_id()}"
    _device.set_device(device)


def mem_get_info(device: Any = None) -> tuple[int, int]:
    """Free and total memory of a GPU, in bytes.

    Args:
        device (int|str|CUDAPlace, optional): the GPU; None for the current device.

    Returns:
        tuple[int, int]: ``(free, total)``.

    Raises:
        ValueError: when the device is not a GPU.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.cuda.is_available():
        ...     free, total = paddle.cuda.mem_get_info(0)
    """
    if device is None:
        device = _device.get_device()
    if isinstance(device, str):
        if not device.startswith(("gpu", "cuda")):
            raise ValueError(f"Expected a cuda device, but got: Place({device})")
        device = int(device.split(":")[1]) if ":" in device else 0
    elif isinstance(device, CUDAPlace):
        device = device.get_device_id()
    elif not isinstance(device, int) or isinstance(device, bool):
        raise ValueError(f"Expected a cuda device, but got: {device}")
    return tuple(int(v) for v in torch.cuda.mem_get_info(device))


class nvtx:
    """NVTX range markers for GPU profilers (need a CUDA build)."""

    @staticmethod
    def range_push(msg: str) -> None:
        """Open an NVTX range named ``msg``.

        Args:
            msg (str): the range name.

        Examples:
            >>> import pagaie as paddle
            >>> if paddle.cuda.is_available():
            ...     paddle.cuda.nvtx.range_push("step")
            ...     paddle.cuda.nvtx.range_pop()
        """
        torch.cuda.nvtx.range_push(msg)

    @staticmethod
    def range_pop() -> None:
        """Close the innermost NVTX range."""
        torch.cuda.nvtx.range_pop()


def cudart() -> Any:
    """The CUDA runtime API module (``cudaProfilerStart``, ``cudaMemGetInfo`` ...).

    Returns:
        module: the runtime bindings.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.cuda.is_available():
        ...     rt = paddle.cuda.cudart()
    """
    if not torch.cuda.is_available():
        raise RuntimeError("paddle.cuda.cudart: the CUDA runtime is not available, because this "
                           "installation sees no CUDA device")
    return torch.cuda.cudart()


class CudaError(RuntimeError):
    """A failed CUDA runtime call; the message names the error and its code."""

    def __init__(self, code: int) -> None:
        if torch.cuda.is_available():
            rt = cudart()
            super().__init__(f"{rt.cudaGetErrorString(rt.cudaError(code))} ({code})")
        else:
            super().__init__(f"CUDA error ({code})")


def check_error(res: int) -> None:
    """Raise :class:`CudaError` when a CUDA runtime return code is not success (0).

    Args:
        res (int): the return code.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.cuda.is_available():
        ...     paddle.cuda.check_error(0)
    """
    if int(res) != 0:
        raise CudaError(res)
