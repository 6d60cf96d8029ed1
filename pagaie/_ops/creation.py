"""Creation ops: tensors from data, constants and ranges."""
from __future__ import annotations

from typing import Any

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.place import to_torch_device
from pagaie._core.registry import defop
from pagaie._ops._helpers import device, float_dtype, int_list, torch_dtype

__all__ = ["to_tensor", "zeros", "ones", "full"]


def _infer_dtype(data: Any) -> torch.dtype | None:
    """Paddle's dtype for Python data: floats use the default dtype, ints int64, bools bool."""
    if isinstance(data, (bool, np.bool_)):
        return torch.bool
    if isinstance(data, (int, np.integer)) and not isinstance(data, np.integer):
        return torch.int64
    if isinstance(data, float):
        return _dt.default_float()
    if isinstance(data, complex):
        return torch.complex128 if _dt.default_float() is torch.float64 else torch.complex64
    if isinstance(data, (list, tuple)):
        kinds = set()
        _scan_kinds(data, kinds)
        if not kinds:
            return _dt.default_float()
        if "t" in kinds:
            return None
        if "c" in kinds:
            return torch.complex128 if _dt.default_float() is torch.float64 else torch.complex64
        if "f" in kinds:
            return _dt.default_float()
        if "i" in kinds:
            return torch.int64
        return torch.bool
    return None


def _scan_kinds(data: Any, kinds: set) -> None:
    for e in data:
        if isinstance(e, (list, tuple)):
            _scan_kinds(e, kinds)
        elif isinstance(e, (bool, np.bool_)):
            kinds.add("b")
        elif isinstance(e, (int, np.integer)):
            kinds.add("i")
        elif isinstance(e, (float, np.floating)):
            kinds.add("f")
        elif isinstance(e, (complex, np.complexfloating)):
            kinds.add("c")
        else:
            kinds.add("t")


def _as_torch_data(data: Any, api: str) -> torch.Tensor:
    if isinstance(data, torch.Tensor):
        return data.detach().clone()
    if isinstance(data, np.ndarray):
        if data.dtype.kind in "OUS":
            raise TypeError(f"paddle.{api}: cannot convert a numpy array of dtype {data.dtype} to a Tensor")
        return torch.from_numpy(np.array(data, copy=True))
    if isinstance(data, np.generic):
        return torch.from_numpy(np.array(data))
    if isinstance(data, (list, tuple)):
        if any(isinstance(e, torch.Tensor) for e in data):
            return torch.stack([_as_torch_data(e, api) for e in data])
        try:
            arr = np.array(data)
        except ValueError as exc:
            raise ValueError(f"paddle.{api}: the nested list has inconsistent lengths "
                             f"and cannot form a rectangular Tensor ({exc})") from None
        if arr.dtype.kind in "OUS":
            raise TypeError(f"paddle.{api}: cannot convert data of element type {arr.dtype} to a Tensor")
        return torch.from_numpy(arr)
    if isinstance(data, (bool, int, float, complex)):
        return torch.tensor(data)
    raise TypeError(f"paddle.{api}: data must be a scalar, list, tuple, numpy.ndarray or Tensor, "
                    f"but received {type(data).__name__}")


@defop(method=False, differentiable=False, paddle_types=("assign_value", "pd_op.assign_value_"))
def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """Create a Tensor from Python data, a numpy array or another Tensor.

    Args:
        data (scalar|list|tuple|numpy.ndarray|Tensor): the values.
        dtype (str|paddle.dtype, optional): the element type; by default Python floats
            take the default dtype (float32), ints int64, bools bool, numpy arrays keep theirs.
        place (str|Place, optional): the device; the current default device when None.
        stop_gradient (bool, optional): whether gradients stop here. Default True.

    Returns:
        Tensor: a new tensor holding a copy of ``data``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([1, 2, 3]).dtype
        paddle.int64
    """
    want = torch_dtype(dtype, "to_tensor")
    inferred = _infer_dtype(data)
    t = _as_torch_data(data, "to_tensor")
    target = want or inferred
    if target is None and t.dtype is torch.float64 and isinstance(data, (list, tuple)):
        target = _dt.default_float()
    if target is not None and t.dtype is not target:
        t = t.to(target)
    dev = to_torch_device(place, "paddle.to_tensor") if place is not None else device()
    if t.device != dev:
        t = t.to(dev)
    if not stop_gradient:
        t.requires_grad_(True)
    return t


@defop(method=False, differentiable=False, paddle_types=("fill_constant", "pd_op.full"))
def zeros(shape, dtype=None, name=None):
    """A tensor of zeros.

    Args:
        shape (list|tuple|Tensor): the shape.
        dtype (str|paddle.dtype, optional): default float32.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.zeros([2]).tolist()
        [0.0, 0.0]
    """
    return torch.zeros(int_list(shape), dtype=float_dtype(dtype, "zeros"), device=device())


@defop(method=False, differentiable=False)
def ones(shape, dtype=None, name=None):
    """A tensor of ones.

    Args:
        shape (list|tuple|Tensor): the shape.
        dtype (str|paddle.dtype, optional): default float32.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2]).tolist()
        [1.0, 1.0]
    """
    return torch.ones(int_list(shape), dtype=float_dtype(dtype, "ones"), device=device())


@defop(method=False, differentiable=False)
def full(shape, fill_value, dtype=None, name=None):
    """A tensor filled with ``fill_value``.

    Args:
        shape (list|tuple|Tensor): the shape.
        fill_value (scalar|Tensor): the value.
        dtype (str|paddle.dtype, optional): default float32.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.full([2], 7.0).tolist()
        [7.0, 7.0]
    """
    if isinstance(fill_value, torch.Tensor):
        fill_value = fill_value.item()
    return torch.full(int_list(shape), fill_value, dtype=float_dtype(dtype, "full"), device=device())
