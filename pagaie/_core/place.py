"""Places (Paddle's devices) and the current default device."""
from __future__ import annotations

import operator
from typing import Any

import torch

__all__ = ["Place", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "CustomPlace", "XPUPinnedPlace", "set_device", "get_device",
           "to_torch_device", "place_of", "default_device"]


class Place:
    """Where a tensor lives. ``str(place)`` is Paddle's ``Place(cpu)`` / ``Place(gpu:0)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.CPUPlace()
        Place(cpu)
    """

    __slots__ = ("_device",)

    def __init__(self, device: torch.device | str = "cpu") -> None:
        self._device = torch.device(device)

    @property
    def torch_device(self) -> torch.device:
        return self._device

    def is_cpu_place(self) -> bool:
        return self._device.type == "cpu"

    def is_gpu_place(self) -> bool:
        return self._device.type == "cuda"

    def is_cuda_pinned_place(self) -> bool:
        return False

    def gpu_device_id(self) -> int:
        return self._device.index or 0

    def get_device_id(self) -> int:
        return self._device.index or 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Place):
            a, b = self._device, other._device
            return a.type == b.type and (a.index or 0) == (b.index or 0)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._device.type, self._device.index or 0))

    def __repr__(self) -> str:
        if self._device.type == "cpu":
            return "Place(cpu)"
        return f"Place(gpu:{self._device.index or 0})"

    __str__ = __repr__


class CPUPlace(Place):
    """The host CPU.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.CPUPlace().is_cpu_place()
        True
    """

    def __init__(self) -> None:
        super().__init__("cpu")


class CUDAPlace(Place):
    """GPU number ``id``. Raises ValueError when no such GPU exists.

    Args:
        id: the device index.

    Examples:
        >>> import pagaie as paddle
        >>> # paddle.CUDAPlace(0) on a machine with a GPU
    """

    def __init__(self, id: int) -> None:
        if isinstance(id, (str, bytes, float)) or not hasattr(id, "__index__"):
            raise TypeError(f"paddle.CUDAPlace: 'id' must be an int, but received "
                            f"{type(id).__name__} {id!r}")
        _check_gpu(operator.index(id), "paddle.CUDAPlace")
        super().__init__(torch.device("cuda", operator.index(id)))


class CustomPlace(Place):
    """A device of a plug-in device type (Paddle's custom devices, e.g. ``'npu'``).

    pagaie registers no custom device types (its devices are the CPU and CUDA GPUs), so
    every ``CustomPlace`` is refused with ValueError, as Paddle refuses a type that no
    plug-in registered.

    Args:
        dev_type (str): the device type name.
        dev_id (int): the device index.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.CustomPlace('npu', 0)
        ... except ValueError as e:
        ...     print('refused')
        refused
    """

    def __init__(self, dev_type: str, dev_id: int = 0) -> None:
        if not isinstance(dev_type, str):
            raise TypeError(f"paddle.CustomPlace: 'dev_type' must be a str, but received "
                            f"{type(dev_type).__name__} {dev_type!r}")
        raise ValueError(f"paddle.CustomPlace: the device type {dev_type!r} (id {dev_id}) is not "
                         f"registered as a custom device; pagaie's devices are 'cpu' and 'gpu'")


class CUDAPinnedPlace(Place):
    """Page-locked host memory; tensors placed here live on the CPU.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.CUDAPinnedPlace()
        Place(gpu_pinned)
    """

    def __init__(self) -> None:
        super().__init__("cpu")

    def is_cuda_pinned_place(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "Place(gpu_pinned)"

    __str__ = __repr__


class XPUPinnedPlace(Place):
    """Page-locked host memory for Kunlun XPU transfers.

    pagaie runs on CPU and CUDA only, so constructing one raises RuntimeError, as a
    Paddle build without XPU support does.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.XPUPinnedPlace()
        ... except RuntimeError:
        ...     print('no XPU')
        no XPU
    """

    def __init__(self) -> None:
        raise RuntimeError("paddle.XPUPinnedPlace: cannot use XPUPinnedPlace in this build: "
                           "pagaie supports only CPU and CUDA devices (use paddle.CPUPlace() "
                           "or paddle.CUDAPinnedPlace())")

    def is_xpu_pinned_place(self) -> bool:
        return True


def _check_gpu(index: int, api: str) -> None:
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if count == 0:
        raise ValueError(f"{api}: a GPU (gpu:{index}) was requested but this installation sees "
                         "no CUDA device; use 'cpu', or a CUDA build of the backend on a machine "
                         "with a GPU")
    if not 0 <= index < count:
        raise ValueError(f"{api}: GPU index {index} is out of range; {count} GPU(s) found "
                         f"(valid ids 0..{count - 1})")


def _initial_device() -> torch.device:
    # Paddle's CUDA builds start on gpu:0 whenever a GPU is visible; its CPU build on the CPU.
    return torch.device("cuda", 0) if torch.cuda.is_available() else torch.device("cpu")


_default = _initial_device()


def default_device() -> torch.device:
    return _default


def to_torch_device(place: Any, api: str = "paddle") -> torch.device:
    """Normalise a Place, a device string ('cpu', 'gpu', 'gpu:1', 'cuda:0') or an int."""
    if place is None:
        return _default
    if isinstance(place, Place):
        return place._device
    if isinstance(place, torch.device):
        return place
    if isinstance(place, int):
        _check_gpu(place, api)
        return torch.device("cuda", place)
    if isinstance(place, str):
        s = place.strip().lower()
        if s == "cpu":
            return torch.device("cpu")
        for prefix in ("gpu", "cuda"):
            if s == prefix or s.startswith(prefix + ":"):
                idx = int(s.split(":", 1)[1]) if ":" in s else 0
                _check_gpu(idx, api)
                return torch.device("cuda", idx)
        raise ValueError(f"{api}: the device should be 'cpu', 'gpu' or 'gpu:x', but received {place!r}")
    if isinstance(place, float):  # Paddle's place conversion rejects it as an invalid argument
        raise ValueError(f"{api}: expected a Place, a device string or an int, but received {place!r}")
    raise TypeError(f"{api}: expected a Place or a device string, but received {type(place).__name__}")


def place_of(device: torch.device) -> Place:
    p = Place.__new__(CPUPlace if device.type == "cpu" else Place)
    p._device = device
    return p


def set_device(device: str) -> Place:
    """Set the default device for new tensors: ``'cpu'``, ``'gpu'`` or ``'gpu:N'``.

    Args:
        device: the device name.

    Returns:
        The Place now in use.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.set_device('cpu')
        Place(cpu)
    """
    global _default
    api = "paddle.device.set_device"
    if isinstance(device, int) and not isinstance(device, bool):
        # an int is an index on the current device type, as in Paddle
        if device < 0:
            raise ValueError(f"{api}: Device index must be non-negative, got {device}")
        if _default.type == "cpu":
            if device != 0:
                raise ValueError(f"{api}: CPU device only supports index 0, got {device}")
            device = "cpu"
    _default = to_torch_device(device, api)
    if _default.type == "cuda":
        torch.cuda.set_device(_default)
    return place_of(_default)


def get_device() -> str:
    """The current default device as Paddle spells it: ``'cpu'`` or ``'gpu:0'``.

    It starts as ``'gpu:0'`` when a CUDA device is visible and ``'cpu'`` otherwise, as in
    Paddle's CUDA and CPU builds.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.device.get_device()
        'cpu'
    """
    return "cpu" if _default.type == "cpu" else f"gpu:{_default.index or 0}"
