"""``Device``: a device name that is also a ``str`` (what ``Tensor.device`` returns)."""
from __future__ import annotations

from typing import Any

import torch

__all__ = ["Device", "device_of"]

_TYPES = ("cpu", "gpu", "cuda", "xpu")


class Device(str):
    """A computing device such as ``'cpu'`` or ``'cuda:0'``; compares equal to its string.

    Args:
        type (str|int|Place, optional): ``'cpu'``, ``'cuda:0'``, ``'gpu:1'``, a Place, or a
            GPU index (legacy form).
        index (int, optional): the device index when ``type`` has none.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.to_tensor([1.0]).device
        >>> d == 'cpu', d.type, d.index
        (True, 'cpu', None)
    """

    _type: str
    _index: int | None

    def __new__(cls, type: Any = None, index: int | None = None) -> Device:
        from pagaie._core.place import Place
        if isinstance(type, Place):
            type = type.torch_device
        if isinstance(type, torch.device):
            kind, idx = ("cpu", None) if type.type == "cpu" else ("cuda", type.index or 0)
        elif isinstance(type, str):
            s = type.lower()
            kind, _, rest = s.partition(":")
            if kind not in _TYPES:
                raise ValueError(f"paddle.device.Device: unsupported device type {kind!r}; "
                                 f"expected one of {list(_TYPES)}")
            if rest:
                idx = int(rest)
            else:
                idx = index if index is not None else 0
            if kind == "cpu":
                idx = None
        elif isinstance(type, int) and not isinstance(type, bool):
            kind, idx = "cuda", type
        elif type is None and index is not None:
            raise ValueError("paddle.device.Device: the device type must be given with an index")
        else:
            raise TypeError(f"paddle.device.Device: unsupported type for a device: {type!r}")
        obj = str.__new__(cls, "cpu" if kind == "cpu" else f"{kind}:{idx}")
        obj._type = kind
        obj._index = idx
        return obj

    @property
    def type(self) -> str:
        """The device type: ``'cpu'``, ``'cuda'``, ``'gpu'`` or ``'xpu'``."""
        return self._type

    @property
    def index(self) -> int | None:
        """The device index (None for the CPU)."""
        return self._index

    def __repr__(self) -> str:
        return str.__repr__(self)

    def __enter__(self) -> Device:
        from pagaie._core import place
        self._prev = place.get_device()
        place.set_device("cpu" if self._type == "cpu" else f"gpu:{self._index}")
        return self

    def __exit__(self, *exc: Any) -> None:
        from pagaie._core import place
        place.set_device(self._prev)


_cache: dict = {}


def device_of(t: torch.Tensor) -> Device:
    """The :class:`Device` of a torch tensor (cached per torch device)."""
    d = t.device
    r = _cache.get(d)
    if r is None:
        r = _cache[d] = Device(d)
    return r
