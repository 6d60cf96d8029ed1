"""Places (Paddle's devices) and the current default device."""
from __future__ import annotations

import operator
from typing import Any

import torch

__all__ = ["Place", "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "CustomPlace", "XPUPinnedPlace", "set_device", "get_device",
           "to_torch_device", "place_of", "default_device"]


class Place:
    """Where a tensor lives. ``str(place)`` is Paddle's ``Place(cpu)`` / ``Place(gpu:0)``.

    ``Place()`` with no device is Paddle's undefined place (``Place(undefined:0)``), which
    :meth:`set_place` later points at another place.

    Args:
        device: a torch device or device string; None for the undefined place.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.CPUPlace()
        Place(cpu)
        >>> p = paddle.base.core.Place()
        >>> p
        Place(undefined:0)
        >>> p.set_place(paddle.CPUPlace())
        >>> p.is_cpu_place()
        True
    """

    __slots__ = ("_device", "_pinned")

    def __init__(self, device: torch.device | str | None = None) -> None:
        self._device = None if device is None else torch.device(device)
        self._pinned = False

    @property
    def torch_device(self) -> torch.device:
        return self._device

    def set_place(self, place: Place) -> None:
        """Point this place at the device of ``place`` (Paddle's ``Place.set_place``)."""
        if not isinstance(place, Place):
            raise TypeError(f"Place.set_place: expected a Place, but received "
                            f"{type(place).__name__} {place!r}")
        self._device, self._pinned = place._device, place._pinned

    def _type(self) -> int:
        # Paddle's allocation type codes: undefined 0, cpu 1, gpu 2, gpu_pinned 3
        if self._device is None:
            return 0
        if self._pinned:
            return 3
        return 1 if self._device.type == "cpu" else 2

    def is_cpu_place(self) -> bool:
        return self._type() == 1

    def is_gpu_place(self) -> bool:
        return self._type() == 2

    def is_cuda_pinned_place(self) -> bool:
        return self._pinned

    # pagaie has no XPU, IPU or plug-in devices: a place is never one of them
    def is_xpu_place(self) -> bool:
        return False

    def is_xpu_pinned_place(self) -> bool:
        return False

    def is_ipu_place(self) -> bool:
        return False

    def is_custom_place(self) -> bool:
        return False

    def gpu_device_id(self) -> int:
        return (self._device.index or 0) if self.is_gpu_place() else 0

    def get_device_id(self) -> int:
        return self.gpu_device_id()

    def xpu_device_id(self) -> int:
        return 0

    def ipu_device_id(self) -> int:
        return 0

    def custom_device_id(self) -> int:
        return 0

    def custom_device_type(self) -> str:
        return ""

    def _key(self) -> tuple:
        return self._type(), self.gpu_device_id()

    def _equals(self, other: Place) -> bool:
        return self == other

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Place):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        kind = self._type()
        if kind == 0:
            return "Place(undefined:0)"
        if kind == 3:
            return "Place(gpu_pinned)"
        return "Place(cpu)" if kind == 1 else f"Place(gpu:{self.gpu_device_id()})"

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
        self._pinned = True


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
        if place._device is None:
            raise ValueError(f"{api}: the place is undefined (Place(undefined:0)); place should be "
                             "one of CPUPlace/CUDAPlace/CUDAPinnedPlace")
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
                num = s.split(":", 1)[1] if ":" in s else "0"
                if not num.isdigit():
                    raise ValueError(f"{api}: the device should be 'cpu', 'gpu' or 'gpu:x' with x "
                                     f"a GPU index, but received {place!r}")
                idx = int(num)
                _check_gpu(idx, api)
                return torch.device("cuda", idx)
        raise ValueError(f"{api}: the device should be 'cpu', 'gpu' or 'gpu:x', but received {place!r}")
    if isinstance(place, float):  # Paddle's place conversion rejects it as an invalid argument
        raise ValueError(f"{api}: expected a Place, a device string or an int, but received {place!r}")
    raise TypeError(f"{api}: expected a Place or a device string, but received {type(place).__name__}")


def place_of(device: torch.device) -> Place:
    p = Place.__new__(CPUPlace if device.type == "cpu" else Place)
    p._device, p._pinned = device, False
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
