"""``paddle.device.cuda``: GPU streams, events, memory statistics and properties.

Everything runs on torch's CUDA runtime. Without a GPU, the calls that need one
raise ``ValueError`` saying so (as Paddle's CPU build does), and the harmless ones
(``device_count``, ``empty_cache``) answer as on a machine without GPUs.
"""
from __future__ import annotations

from typing import Any

import torch

__all__ = ["Stream", "Event", "current_stream", "synchronize", "device_count", "empty_cache",
           "max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_reserved",
           "stream_guard", "get_device_properties", "get_device_name", "get_device_capability",
           "reset_max_memory_allocated", "reset_max_memory_reserved", "memory_summary", "vmm_compact"]


class _NoGpuError(ValueError, RuntimeError):
    """A GPU-only API called without a GPU: Paddle's CPU build raises ValueError for the memory and
    property queries and RuntimeError (Unavailable) for synchronize, Stream and Event."""


def _need_gpu(api: str) -> None:
    if not torch.cuda.is_available():
        raise _NoGpuError(f"The API paddle.device.cuda.{api} is not supported without a GPU: this "
                         "pagaie installation sees no CUDA device. Install a CUDA build of the "
                         "backend and run on a machine with a GPU to call this API.")


def _index(device: Any, api: str) -> int:
    """A GPU index from None (current), an int, 'gpu:N'/'cuda:N' or a Place."""
    _need_gpu(api)
    if device is None:
        return torch.cuda.current_device()
    from pagaie._core.place import Place, to_torch_device
    if isinstance(device, Place):
        d = device.torch_device
    elif isinstance(device, (int, str, torch.device)) and not isinstance(device, bool):
        d = to_torch_device(device, f"paddle.device.cuda.{api}")
    else:
        raise ValueError(f"paddle.device.cuda.{api}: the device must be an int, a 'gpu:x' string "
                         f"or a CUDAPlace, but received {device!r}")
    if d.type != "cuda":
        raise ValueError(f"paddle.device.cuda.{api}: expected a GPU device, but received {device!r}")
    return d.index or 0


class Stream:
    """A CUDA stream: work queued on it runs in order, concurrently with other streams.

    Args:
        device (int|str|CUDAPlace, optional): the GPU; the current one by default.
        priority (int, optional): 1 (high) or 2 (normal, the default).
        stream_base (optional): an existing stream to wrap.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     s = paddle.device.cuda.Stream()
        ...     s.synchronize()
    """

    def __init__(self, device: Any = None, priority: int = 2, stream_base: Any = None) -> None:
        if stream_base is not None:
            self._s = stream_base._s if isinstance(stream_base, Stream) else stream_base
            return
        idx = _index(device, "Stream")
        if priority not in (1, 2):
            raise ValueError(f"paddle.device.Stream: priority should be 1 (high) or 2 (normal), "
                             f"but received {priority}")
        self._s = torch.cuda.Stream(device=idx, priority=-1 if priority == 1 else 0)

    @property
    def cuda_stream(self) -> int:
        """The raw stream handle."""
        return self._s.cuda_stream

    @property
    def place(self) -> Any:
        from pagaie._core.place import CUDAPlace
        return CUDAPlace(self._s.device.index or 0)

    def wait_event(self, event: Event) -> None:
        """Make future work on this stream wait for ``event``."""
        self._s.wait_event(event._e)

    def wait_stream(self, stream: Stream) -> None:
        """Make future work on this stream wait for the work queued so far on ``stream``."""
        self._s.wait_stream(stream._s)

    def query(self) -> bool:
        """Whether all queued work has finished."""
        return self._s.query()

    def synchronize(self) -> None:
        """Wait for all queued work to finish."""
        self._s.synchronize()

    def record_event(self, event: Event | None = None) -> Event:
        """Record ``event`` (a new one by default) on this stream and return it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and self._s == other._s

    def __hash__(self) -> int:
        return hash(self._s)

    def __repr__(self) -> str:
        return f"<paddle.device.Stream device={self._s.device} handle={self._s.cuda_stream:#x}>"


class Event:
    """A CUDA event: a marker in a stream for synchronisation and timing.

    Args:
        enable_timing (bool, optional): record timing data. Default False.
        blocking (bool, optional): ``synchronize`` blocks the CPU thread. Default False.
        interprocess (bool, optional): shareable between processes. Default False.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     e = paddle.device.cuda.Event()
        ...     e.record()
        ...     e.synchronize()
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False) -> None:
        _need_gpu("Event")
        self._e = torch.cuda.Event(enable_timing=enable_timing, blocking=blocking,
                                   interprocess=interprocess)

    def record(self, stream: Stream | None = None) -> None:
        """Record the event on ``stream`` (the current stream by default)."""
        self._e.record(None if stream is None else stream._s)

    def query(self) -> bool:
        """Whether the work before the event has finished."""
        return self._e.query()

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds between this event and ``end_event`` (both recorded with timing)."""
        return self._e.elapsed_time(end_event._e)

    def synchronize(self) -> None:
        """Wait until the event has completed."""
        self._e.synchronize()


def current_stream(device: Any = None) -> Stream:
    """The stream in use on ``device`` (the current GPU by default).

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        Stream: the current stream.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     s = paddle.device.cuda.current_stream()
    """
    return Stream(stream_base=torch.cuda.current_stream(_index(device, "current_stream")))


def synchronize(device: Any = None) -> None:
    """Wait for all work on ``device`` (the current GPU by default) to finish.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     paddle.device.cuda.synchronize()
    """
    torch.cuda.synchronize(_index(device, "synchronize"))


def device_count() -> int:
    """Number of visible GPUs (0 without any).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.cuda.device_count() >= 0
        True
    """
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def empty_cache() -> None:
    """Release the cached, unused GPU memory held by the allocator (nothing without a GPU).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.cuda.empty_cache()
    """
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def _stat(fn: Any, api: str, device: Any) -> int:
    return int(fn(_index(device, api)))


def max_memory_allocated(device: Any = None) -> int:
    """Peak bytes of GPU memory held by tensors on ``device`` since start or the last reset.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        int: bytes.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     n = paddle.device.cuda.max_memory_allocated()
    """
    return _stat(torch.cuda.max_memory_allocated, "max_memory_allocated", device)


def max_memory_reserved(device: Any = None) -> int:
    """Peak bytes of GPU memory reserved by the allocator on ``device``.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        int: bytes.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     n = paddle.device.cuda.max_memory_reserved()
    """
    return _stat(torch.cuda.max_memory_reserved, "max_memory_reserved", device)


def memory_allocated(device: Any = None) -> int:
    """Bytes of GPU memory held by tensors on ``device`` now.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        int: bytes.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     n = paddle.device.cuda.memory_allocated()
    """
    return _stat(torch.cuda.memory_allocated, "memory_allocated", device)


def memory_reserved(device: Any = None) -> int:
    """Bytes of GPU memory reserved by the allocator on ``device`` now.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        int: bytes.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     n = paddle.device.cuda.memory_reserved()
    """
    return _stat(torch.cuda.memory_reserved, "memory_reserved", device)


def reset_max_memory_allocated(device: Any = None) -> None:
    """Restart the peak count of :func:`max_memory_allocated`.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     paddle.device.cuda.reset_max_memory_allocated()
    """
    torch.cuda.reset_peak_memory_stats(_index(device, "reset_max_memory_allocated"))


def reset_max_memory_reserved(device: Any = None) -> None:
    """Restart the peak count of :func:`max_memory_reserved`.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     paddle.device.cuda.reset_max_memory_reserved()
    """
    torch.cuda.reset_peak_memory_stats(_index(device, "reset_max_memory_reserved"))


def memory_summary(device: Any = None) -> None:
    """Print a table of the allocator's memory statistics for ``device``.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     paddle.device.cuda.memory_summary()  # doctest: +SKIP
    """
    print(torch.cuda.memory_summary(_index(device, "memory_summary")))


def vmm_compact(device: Any = None) -> int:
    """Defragment the virtual-memory allocator; returns bytes freed.

    pagaie's allocator has no compaction step: this releases cached blocks
    (like :func:`empty_cache`) and returns how many reserved bytes that freed.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        int: bytes released.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     n = paddle.device.cuda.vmm_compact()
    """
    idx = _index(device, "vmm_compact")
    before = torch.cuda.memory_reserved(idx)
    torch.cuda.empty_cache()
    return int(before - torch.cuda.memory_reserved(idx))


def get_device_properties(device: Any = None) -> Any:
    """Properties of a GPU: ``name``, ``major``, ``minor``, ``total_memory``,
    ``multi_processor_count``.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        the properties object.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     p = paddle.device.cuda.get_device_properties()
    """
    return torch.cuda.get_device_properties(_index(device, "get_device_properties"))


def get_device_name(device: Any = None) -> str:
    """The name of a GPU, e.g. ``'NVIDIA H100'``.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        str: the name.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     name = paddle.device.cuda.get_device_name()
    """
    return torch.cuda.get_device_name(_index(device, "get_device_name"))


def get_device_capability(device: Any = None) -> tuple[int, int]:
    """The compute capability ``(major, minor)`` of a GPU.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Returns:
        tuple[int, int]: the capability.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     major, minor = paddle.device.cuda.get_device_capability()
    """
    return tuple(torch.cuda.get_device_capability(_index(device, "get_device_capability")))


class stream_guard:
    """Run the work queued inside the ``with`` block on ``stream``.

    Args:
        stream (Stream, optional): the stream; None leaves the current stream in place.

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.device.cuda.stream_guard(None):
        ...     x = paddle.ones([2])
    """

    def __init__(self, stream: Stream | None = None) -> None:
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError(f"paddle.device.stream_guard: stream should be a paddle.device.Stream, "
                            f"but received {type(stream).__name__}")
        self._stream = stream
        self._ctx: Any = None

    def __enter__(self) -> None:
        if self._stream is not None:
            self._ctx = torch.cuda.stream(self._stream._s)
            self._ctx.__enter__()

    def __exit__(self, *exc: Any) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(*exc)
            self._ctx = None


# ---- random state (not in Paddle's ``__all__`` here, but reachable as in Paddle) --------------
def get_rng_state(device: Any = None) -> Any:
    """The state of the default random generator of ``device`` (the current device by default).

    Args:
        device (int|str|Place, optional): the device.

    Returns:
        GeneratorState: the state, for :func:`set_rng_state`.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.device.cuda.get_rng_state()
        >>> paddle.device.cuda.set_rng_state(s)
    """
    return _generator(device, "get_rng_state").get_state()


def set_rng_state(new_state: Any, device: Any = None) -> None:
    """Restore the state of the default random generator of ``device``.

    Args:
        new_state (GeneratorState): a state from :func:`get_rng_state`.
        device (int|str|Place, optional): the device; the current device by default.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.device.cuda.get_rng_state()
        >>> a = paddle.rand([2])
        >>> paddle.device.cuda.set_rng_state(s)
        >>> bool((paddle.rand([2]) == a).all())
        True
    """
    _generator(device, "set_rng_state").set_state(new_state)


def manual_seed(seed: int) -> None:
    """Seed the default random generator of the current device.

    Args:
        seed (int): the seed.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.cuda.manual_seed(102)
    """
    _generator(None, "manual_seed").manual_seed(int(seed))


def _generator(device: Any, api: str) -> Any:
    from pagaie._core.place import default_device, to_torch_device
    from pagaie._core.random import default_generator
    if isinstance(device, int) and not isinstance(device, bool) and not torch.cuda.is_available():
        if device != 0:  # as Paddle's device_to_place on a machine without GPUs
            raise ValueError(f"paddle.device.cuda.{api}: CPU device only supports index 0, got {device}")
        device = "cpu"
    dev = default_device() if device is None else to_torch_device(device, f"paddle.device.cuda.{api}")
    return default_generator(dev)
