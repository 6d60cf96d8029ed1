"""``paddle.utils.dlpack``: share tensors with other frameworks through DLPack.

:func:`to_dlpack` exports a Tensor as a DLPack capsule; :func:`from_dlpack` imports a
capsule, or any object with the ``__dlpack__`` protocol (numpy arrays, torch/cupy/jax
arrays, pagaie Tensors), without copying when it can. The work is done by
``torch.utils.dlpack``.

As in Paddle, a 16-bit unsigned integer buffer is read as ``bfloat16`` (Paddle keeps
bfloat16 data in uint16 arrays).

Examples:
    >>> import numpy as np
    >>> import pagaie as paddle
    >>> a = np.arange(3.0)
    >>> t = paddle.utils.dlpack.from_dlpack(a)
    >>> a[0] = 7.0
    >>> t.tolist()
    [7.0, 1.0, 2.0]
"""
from __future__ import annotations

import enum
from typing import Any

import numpy as np
import torch
import torch.utils.dlpack

from pagaie._core.tensor import Tensor

__all__ = ["to_dlpack", "from_dlpack"]


class DLDeviceType(enum.IntEnum):
    """The device codes of the DLPack standard (``Tensor.__dlpack_device__()[0]``).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.utils.dlpack import DLDeviceType
        >>> DLDeviceType(paddle.ones([1]).__dlpack_device__()[0])
        <DLDeviceType.kDLCPU: 1>
    """

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17
    kDLTrn = 18

_INVALID = ("from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed "
            "only once, so you might have already constructed a tensor from it once.")


def to_dlpack(x: Tensor) -> Any:
    """Export a Tensor as a DLPack capsule that shares its memory.

    Args:
        x (Tensor|DenseTensor): the tensor (any dtype torch can export: bool, integers,
            floats, complex); in static mode also a ``DenseTensor`` (what ``paddle.load``
            and ``from_dlpack`` give there).

    Returns:
        PyCapsule: a ``"dltensor"`` capsule, consumable once.

    Raises:
        TypeError: ``x`` is not a Tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> capsule = paddle.utils.dlpack.to_dlpack(x)
        >>> paddle.utils.dlpack.from_dlpack(capsule).tolist()
        [[1.0, 2.0], [3.0, 4.0]]
    """
    from pagaie.static.framework import DenseTensor
    if isinstance(x, DenseTensor) and x._var.tensor is not None:
        x = x._var.tensor
    if not isinstance(x, Tensor):
        raise TypeError(f"The type of 'x' in to_dlpack must be paddle.Tensor, but received {type(x)}.")
    return torch.utils.dlpack.to_dlpack(x._t.detach())


def _torch_device(device: Any) -> torch.device:
    from pagaie._core.place import to_torch_device
    return to_torch_device(device, "paddle.utils.dlpack.from_dlpack")


def _import(obj: Any, device: torch.device | None, copy: bool | None) -> torch.Tensor:
    """The torch tensor behind ``obj`` (a capsule or a ``__dlpack__`` exporter)."""
    if isinstance(obj, np.ndarray) and any(s < 0 for s in obj.strides):
        # DLPack cannot describe negative strides: a copy is unavoidable.
        if copy is False:
            raise BufferError("paddle.utils.dlpack.from_dlpack: the array has negative strides, so it "
                              "cannot be shared without a copy, but copy=False was given")
        obj, copy = np.ascontiguousarray(obj), None
    if hasattr(obj, "__dlpack__"):
        try:
            return torch.utils.dlpack.from_dlpack(obj, device=device, copy=copy)
        except TypeError:  # an exporter that predates the device/copy keywords
            t = torch.utils.dlpack.from_dlpack(obj)
            if device is not None and t.device != device:
                if copy is False:
                    raise BufferError("paddle.utils.dlpack.from_dlpack: moving to another device "
                                      "needs a copy, but copy=False was given") from None
                return t.to(device)
            return t.clone() if copy else t
    if type(obj).__name__ != "PyCapsule":
        raise ValueError(f"{_INVALID} (received an object of type {type(obj).__name__}, which is "
                         "neither a DLPack capsule nor has a __dlpack__ method)")
    try:
        t = torch.utils.dlpack.from_dlpack(obj)
    except (RuntimeError, ValueError, TypeError, BufferError):
        raise ValueError(_INVALID) from None
    if device is not None and t.device != device:
        t = t.to(device)
    elif copy:
        t = t.clone()
    return t


def from_dlpack(dlpack: Any, *, device: Any = None, copy: bool | None = None) -> Tensor:
    """Make a Tensor from a DLPack capsule or from any object with ``__dlpack__``, sharing
    its memory when possible.

    Args:
        dlpack (PyCapsule|object): a DLPack capsule (as :func:`to_dlpack` gives; usable
            once), or an object with ``__dlpack__`` and ``__dlpack_device__`` (numpy arrays,
            Tensors of pagaie or other frameworks).
        device (str|Place, optional): the device of the result; default: the device of
            the data.
        copy (bool, optional): True always copies; False never copies (BufferError when a
            copy is needed); None (default) copies only when needed.

    Returns:
        Tensor: the tensor, with ``stop_gradient=True`` (in static mode, as in Paddle, a
        ``DenseTensor`` holding it). Its dtype is that of the data, except that 16-bit
        unsigned integers are read as bfloat16, as in Paddle.

    Raises:
        ValueError: ``dlpack`` is neither a capsule nor a ``__dlpack__`` exporter, or the
            capsule was already used.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> t = paddle.utils.dlpack.from_dlpack(np.array([[1, 2], [3, 4]], dtype='int32'))
        >>> print(t.dtype, t.shape)
        paddle.int32 paddle.Size([2, 2])
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> paddle.utils.dlpack.from_dlpack(paddle.utils.dlpack.to_dlpack(x)).tolist()
        [1.0, 2.0]
    """
    dev = None if device is None else _torch_device(device)
    t = _import(dlpack, dev, copy)
    if t.dtype is torch.uint16:
        t = t.view(torch.bfloat16)
    from pagaie.framework.io import _as_loaded
    return _as_loaded(t.detach())   # named generated_tensor_N, as Paddle names it
