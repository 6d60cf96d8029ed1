"""``paddle.device``: choosing and querying devices, streams, events and memory.

pagaie runs on torch's CPU and CUDA back ends. Hardware that torch cannot drive
here (XPU, IPU, Paddle custom devices, CINN) answers exactly as Paddle's CPU build
does: ``is_compiled_with_xpu()`` is False, ``XPUPlace`` raises ``ValueError``.
"""
from __future__ import annotations

import sys
from typing import Any

import torch

from pagaie._core import place as _place
from pagaie._core.device_name import Device
from pagaie._core.place import set_device
from pagaie._core.tensor import Tensor
from pagaie.device import cpu, cuda, xpu
from pagaie.device.cuda import (Event, Stream, device_count, empty_cache, max_memory_allocated,
                                max_memory_reserved, memory_allocated, memory_reserved,
                                reset_max_memory_allocated, reset_max_memory_reserved,
                                stream_guard)

__all__ = [
    "BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
    "HalfTensor", "IntTensor", "LongTensor", "ShortTensor",
    "Event", "Stream", "StreamContext", "IPUPlace", "XPUPlace", "current_stream", "device",
    "device_count", "device_guard", "empty_cache", "get_all_custom_device_type",
    "get_all_device_type", "get_available_custom_device", "get_available_device",
    "get_cudnn_version", "get_device", "get_device_capability", "get_device_name",
    "get_device_properties", "get_rng_state", "get_stream_from_external", "ipc_collect",
    "is_available", "is_bf16_supported", "is_compiled_with_cinn", "is_compiled_with_cuda",
    "is_compiled_with_custom_device", "is_compiled_with_distribute", "is_compiled_with_ipu",
    "is_compiled_with_rocm", "is_compiled_with_xpu", "is_current_stream_capturing",
    "manual_seed", "max_memory_allocated", "max_memory_reserved", "memory_allocated",
    "memory_reserved", "reset_max_memory_allocated", "reset_max_memory_reserved",
    "reset_peak_memory_stats", "set_device", "set_rng_state", "set_stream", "stream_guard",
    "synchronize", "cuda", "Device", "cpu", "xpu", "current_device", "device_to_place",
    "get_default_device", "get_device_module", "manual_seed_all", "set_default_device", "stream",
]

StreamContext = stream_guard
stream = stream_guard

_TYPED_TENSORS = ("BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor",
                  "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor")


def __getattr__(name: str) -> Any:
    # The typed tensor constructors are creation ops, declared with the other ones.
    if name in _TYPED_TENSORS:
        import pagaie
        if hasattr(pagaie, name):
            return getattr(pagaie, name)
    raise AttributeError(f"module 'paddle.device' has no attribute {name!r}")


# ---- what this build supports -----------------------------------------------------------
def is_compiled_with_cuda() -> bool:
    """Whether this installation can run on NVIDIA GPUs (its backend was built with CUDA).

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.device.is_compiled_with_cuda(), bool)
        True
    """
    return torch.version.cuda is not None


def is_compiled_with_rocm() -> bool:
    """Whether the backend was built for AMD GPUs (ROCm).

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.device.is_compiled_with_rocm(), bool)
        True
    """
    return getattr(torch.version, "hip", None) is not None


def is_compiled_with_xpu() -> bool:
    """Whether Kunlun XPUs are supported: never in pagaie.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.is_compiled_with_xpu()
        False
    """
    return False


def is_compiled_with_ipu() -> bool:
    """Whether Graphcore IPUs are supported: never in pagaie.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.is_compiled_with_ipu()
        False
    """
    return False


def is_compiled_with_cinn() -> bool:
    """Whether the CINN compiler is built in: never in pagaie (``to_static`` uses its own back end).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.is_compiled_with_cinn()
        False
    """
    return False


def is_compiled_with_custom_device(device_type: str) -> bool:
    """Whether the custom device plug-in ``device_type`` is built in: never in pagaie.

    Args:
        device_type (str): a custom device type such as ``'npu'``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.is_compiled_with_custom_device('npu')
        False
    """
    if not isinstance(device_type, str):
        raise TypeError("paddle.device.is_compiled_with_custom_device: device_type should be a "
                        f"str, but received {type(device_type).__name__}")
    return False


def is_compiled_with_distribute() -> bool:
    """Whether distributed training is available.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.device.is_compiled_with_distribute(), bool)
        True
    """
    return bool(torch.distributed.is_available())


def is_available() -> bool:
    """Whether an accelerator (GPU) can be used now.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.device.is_available(), bool)
        True
    """
    return torch.cuda.is_available()


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Whether bfloat16 is supported on the current device (always on the CPU).

    Args:
        including_emulation (bool, optional): count emulated support on older GPUs. Default True.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.device.is_bf16_supported(), bool)
        True
    """
    if _place.default_device().type == "cuda":
        return bool(torch.cuda.is_bf16_supported(including_emulation))
    return True


def get_cudnn_version() -> int | None:
    """The cuDNN version as an int (e.g. 90100), or None without cuDNN.

    Examples:
        >>> import pagaie as paddle
        >>> v = paddle.device.get_cudnn_version()
    """
    if not (torch.cuda.is_available() and torch.backends.cudnn.is_available()):
        return None
    return torch.backends.cudnn.version()


def get_all_device_type() -> list[str]:
    """The accelerator device types this installation can use: ``['gpu']`` with CUDA, ``[]``
    without (as Paddle's CPU build; the CPU is never listed).

    Examples:
        >>> import pagaie as paddle
        >>> 'cpu' in paddle.device.get_all_device_type()
        False
    """
    return ["gpu"] if torch.cuda.is_available() else []


def get_available_device() -> list[str]:
    """The accelerator devices usable now: ``['gpu:0', 'gpu:1', ...]``, ``[]`` without CUDA
    (as Paddle's CPU build; the CPU is never listed).

    Examples:
        >>> import pagaie as paddle
        >>> all(d.startswith('gpu:') for d in paddle.device.get_available_device())
        True
    """
    return [f"gpu:{i}" for i in range(device_count())]


def get_all_custom_device_type() -> list[str]:
    """Registered custom device types: none in pagaie.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.get_all_custom_device_type()
        []
    """
    return []


def get_available_custom_device() -> list[str]:
    """Available custom devices: none in pagaie.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.get_available_custom_device()
        []
    """
    return []


def IPUPlace() -> Any:
    """Graphcore IPU place: unavailable in pagaie, raises ValueError as Paddle's CPU build does.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.device.IPUPlace()
        ... except ValueError:
        ...     print('no IPU')
        no IPU
    """
    raise ValueError("paddle.device.IPUPlace: cannot use IPU because this installation has no IPU "
                     "support; use paddle.CPUPlace() or a GPU place instead")


def XPUPlace(dev_id: int) -> Any:
    """Kunlun XPU place: unavailable in pagaie, raises ValueError as Paddle's CPU build does.

    Args:
        dev_id (int): the XPU index.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.device.XPUPlace(0)
        ... except ValueError:
        ...     print('no XPU')
        no XPU
    """
    raise ValueError(f"paddle.device.XPUPlace: cannot use XPU {dev_id} because this installation "
                     "has no XPU support; use paddle.CPUPlace() or a GPU place instead")


# ---- the current device -------------------------------------------------------------------
def get_device(input: Tensor | None = None) -> str | int:
    """The current default device (``'cpu'`` or ``'gpu:0'``), or, given a tensor, the index of
    its GPU (-1 for a CPU tensor).

    Args:
        input (Tensor, optional): a tensor whose device to report.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.get_device()
        'cpu'
        >>> paddle.device.get_device(paddle.ones([1]))
        -1
    """
    if isinstance(input, Tensor):
        d = input._t.device
        return -1 if d.type == "cpu" else (d.index or 0)
    return _place.get_device()


class device:
    """Context manager that makes ``device`` the default device inside the block.

    Args:
        device (str|int|Place, optional): ``'cpu'``, ``'gpu:0'``, a GPU index or a Place;
            None changes nothing.

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.device.device('cpu'):
        ...     paddle.device.get_device()
        'cpu'
    """

    def __init__(self, device: Any = None) -> None:
        self._target = device
        self._prev: str | None = None

    def __enter__(self) -> None:
        if self._target is not None:
            self._prev = _place.get_device()
            set_device(_normalise(self._target, "paddle.device.device"))

    def __exit__(self, *exc: Any) -> None:
        if self._prev is not None:
            set_device(self._prev)
            self._prev = None


class device_guard(device):
    """Context manager that runs the block with ``device`` as the default device.

    Args:
        device (str|int|Place): ``'cpu'``, ``'gpu:0'``, a GPU index or a Place.

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.device.device_guard('cpu'):
        ...     x = paddle.ones([2])
        >>> x.place
        Place(cpu)
    """

    def __init__(self, device: Any) -> None:
        if not isinstance(device, (str, _place.Place)):
            raise ValueError("paddle.device.device_guard: 'device' must be a string or a Place, "
                             f"but received {type(device).__name__}")
        super().__init__(device)


def current_device() -> int:
    """The index of the current device (0 on the CPU).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.current_device()
        0
    """
    d = _place.default_device()
    return d.index or 0


def device_to_place(device: Any = None) -> Any:
    """The Place of ``device``: a Place, a GPU index, ``'cpu'``, ``'gpu'``/``'gpu:N'`` or
    ``'cuda:N'``; None gives the current device's Place.

    Args:
        device (Place|int|str, optional): the device.

    Returns:
        Place: the place.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.device_to_place('cpu')
        Place(cpu)
    """
    if device is None:
        return _place.place_of(_place.default_device())
    if isinstance(device, _place.Place):
        return device
    if isinstance(device, int) and not isinstance(device, bool) and not torch.cuda.is_available():
        if device != 0:
            raise ValueError(f"paddle.device.device_to_place: CPU device only supports index 0, got {device}")
        return _place.CPUPlace()
    return _place.place_of(_place.to_torch_device(device, "paddle.device.device_to_place"))


def get_default_device() -> Device:
    """The default device as a :class:`Device`: ``'cpu'`` or ``'cuda:N'``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.get_default_device()
        'cpu'
    """
    return Device(_place.default_device())


def set_default_device(device: Any) -> None:
    """Make ``device`` the default device (as :func:`set_device`, returning nothing).

    Args:
        device (str|int|Place): ``'cpu'``, ``'gpu:0'``, ``'cuda:0'``, a GPU index or a Place.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.set_default_device('cpu')
        >>> paddle.device.get_device()
        'cpu'
    """
    if isinstance(device, int) and not isinstance(device, bool):
        device = _indexed(device, "paddle.device.set_default_device")
    set_device(_normalise(device, "paddle.device.set_default_device"))


def get_device_module(device: Any = None) -> Any:
    """The module of a device type, chosen by name as Paddle does: ``paddle.cuda`` for
    ``'gpu'``/``'cuda'`` (and a CUDAPlace), ``paddle.device.xpu`` for ``'xpu'``,
    ``paddle.device.cpu`` for ``'cpu'``, ``paddle.device`` for a CPUPlace; the current
    device's by default. An int is an index on the current device type.

    Args:
        device (str|int|Place, optional): the device.

    Raises:
        RuntimeError: for a device type without a module.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.get_device_module('cpu').__name__
        'pagaie.device.cpu'
        >>> paddle.device.get_device_module('gpu:0').__name__
        'pagaie.cuda'
    """
    import pagaie.cuda
    if isinstance(device, int) and not isinstance(device, bool):
        device = _indexed(device, "paddle.device.get_device_module")
    elif device is None:
        device = _place.get_device()
    if isinstance(device, str):
        kind = device.strip().lower().split(":")[0]
        modules = {"gpu": pagaie.cuda, "cuda": pagaie.cuda, "xpu": xpu, "cpu": cpu}
        if kind not in modules:
            raise RuntimeError(f"paddle.device.get_device_module: unsupported device type {kind!r}")
        return modules[kind]
    if isinstance(device, _place.CUDAPlace):
        return pagaie.cuda
    if isinstance(device, _place.CPUPlace):
        return sys.modules[__name__]
    raise RuntimeError(f"paddle.device.get_device_module: unsupported device {device!r}")


def _indexed(index: int, api: str) -> str:
    """A device index on the current device type (``'cpu'`` allows only 0), as Paddle reads it."""
    if index < 0:
        raise ValueError(f"{api}: device index must be non-negative, got {index}")
    current = _place.get_device()
    if current == "cpu":
        if index != 0:
            raise ValueError(f"{api}: CPU device only supports index 0, got {index}")
        return "cpu"
    return f"{current.split(':')[0]}:{index}"


def manual_seed_all(seed: int) -> None:
    """Seed the random generators of every device (as :func:`manual_seed`).

    Args:
        seed (int): the seed.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.manual_seed_all(7)
    """
    manual_seed(seed)


def _normalise(dev: Any, api: str) -> str:
    d = _place.to_torch_device(dev, api)
    return "cpu" if d.type == "cpu" else f"gpu:{d.index or 0}"


# ---- streams ------------------------------------------------------------------------------
def _accelerator(device: Any, api: str) -> Any:
    """``device`` for a stream API; as in Paddle, a CPU device (the current one included) is a
    TypeError, since the CPU has no streams."""
    if device is None:
        on_cpu = _place.default_device().type == "cpu"
    elif isinstance(device, _place.Place):
        on_cpu = device.torch_device.type == "cpu"
    elif isinstance(device, str):
        on_cpu = _place.to_torch_device(device, api).type == "cpu"
    else:
        on_cpu = not torch.cuda.is_available()
    if on_cpu:
        raise TypeError(f"{api}: device should be gpu, xpu or a custom device, but received "
                        f"{'the current device (cpu)' if device is None else repr(device)}")
    return device


def current_stream(device: Any = None) -> Stream:
    """The stream in use on a GPU (the current device by default).

    Args:
        device (str|int|CUDAPlace, optional): ``'gpu'``, ``'gpu:x'``, a GPU index or a place;
            the current device when None. A CPU device raises TypeError, as in Paddle.

    Returns:
        Stream: the current stream.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     s = paddle.device.current_stream('gpu:0')
    """
    return cuda.current_stream(_accelerator(device, "paddle.device.current_stream"))


def synchronize(device: Any = None) -> None:
    """Wait for all work queued on a GPU (the current device by default) to finish.

    Args:
        device (str|int|CUDAPlace, optional): ``'gpu'``, ``'gpu:x'``, a GPU index or a place;
            the current device when None. A CPU device raises TypeError, as in Paddle.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     paddle.device.synchronize()
    """
    cuda.synchronize(_accelerator(device, "paddle.device.synchronize"))


def set_stream(stream: Stream) -> Stream:
    """Make ``stream`` the current stream of its GPU; returns the previous one.

    Args:
        stream (Stream): the new current stream.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     prev = paddle.device.set_stream(paddle.device.Stream())
        ...     _ = paddle.device.set_stream(prev)
    """
    if not isinstance(stream, Stream):
        raise TypeError(f"paddle.device.set_stream: stream should be a paddle.device.Stream, "
                        f"but received {type(stream).__name__}")
    prev = current_stream(stream._s.device.index or 0)
    torch.cuda.set_stream(stream._s)
    return prev


def get_stream_from_external(data_ptr: int, device: Any = None) -> Stream:
    """Wrap a stream created outside pagaie (a raw ``cudaStream_t`` address).

    Args:
        data_ptr (int): the stream handle.
        device (int|str|CUDAPlace, optional): its GPU.

    Returns:
        Stream: the wrapped stream.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     s = paddle.device.get_stream_from_external(paddle.device.current_stream().cuda_stream)
    """
    idx = cuda._index(device, "get_stream_from_external")
    return Stream(stream_base=torch.cuda.ExternalStream(int(data_ptr), device=idx))


def is_current_stream_capturing() -> bool:
    """Whether the current GPU stream is capturing a CUDA graph (False without a GPU).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.is_current_stream_capturing()
        False
    """
    return bool(torch.cuda.is_available() and torch.cuda.is_current_stream_capturing())


def ipc_collect() -> None:
    """Free GPU memory that other processes no longer share with this one.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     paddle.device.ipc_collect()
    """
    if not torch.cuda.is_available():
        raise RuntimeError("paddle.device.ipc_collect: no GPU is available, so there is no shared "
                           "GPU memory to collect")
    torch.cuda.ipc_collect()


def reset_peak_memory_stats(device: Any = None) -> None:
    """Restart all peak memory counters of a GPU.

    Args:
        device (int|str|CUDAPlace, optional): the GPU.

    Examples:
        >>> import pagaie as paddle
        >>> if paddle.device.cuda.device_count() > 0:
        ...     paddle.device.reset_peak_memory_stats()
    """
    torch.cuda.reset_peak_memory_stats(cuda._index(device, "reset_peak_memory_stats"))


get_device_properties = cuda.get_device_properties
get_device_name = cuda.get_device_name
get_device_capability = cuda.get_device_capability


# ---- random state -------------------------------------------------------------------------
def manual_seed(seed: int) -> None:
    """Seed the random generators of every device.

    Args:
        seed (int): the seed.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.manual_seed(7)
    """
    import pagaie
    if hasattr(pagaie, "seed"):
        pagaie.seed(int(seed))
    else:
        torch.manual_seed(int(seed))


def get_rng_state(device: Any = None) -> Any:
    """The random state of ``device`` (the current device by default).

    Args:
        device (str|Place, optional): the device.

    Returns:
        GeneratorState: the state of the device's default generator, for :func:`set_rng_state`.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.device.get_rng_state()
        >>> a = paddle.rand([2])
        >>> paddle.device.set_rng_state(s)
        >>> bool((paddle.rand([2]) == a).all())
        True
    """
    return _generator(device, "paddle.device.get_rng_state").get_state()


def set_rng_state(new_state: Any, device: Any = None) -> None:
    """Restore a random state from :func:`get_rng_state`.

    Args:
        new_state (GeneratorState): a state from :func:`get_rng_state`.
        device (str|Place, optional): the device.

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.device.get_rng_state()
        >>> paddle.device.set_rng_state(s)
    """
    _generator(device, "paddle.device.set_rng_state").set_state(new_state)


def _generator(device: Any, api: str) -> Any:
    """The default generator of ``device`` (the current device when None)."""
    from pagaie._core.random import default_generator
    return default_generator(None if device is None else _place.to_torch_device(device, api))
