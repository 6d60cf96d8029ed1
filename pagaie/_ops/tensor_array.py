"""Tensor arrays of imported Paddle programs (``pd_op.create_array``, ``array_write_``...).

In eager code a Paddle tensor array is a Python list (:mod:`pagaie.tensor.array`). A
program read from a Paddle file needs the array as one value that loops can carry, so
these records hold it as the stack of its elements along a new first axis: an array of
``n`` tensors of shape ``s`` is a tensor of shape ``[n, *s]``, and the empty array is a
1-D tensor of shape ``[0]`` (its element shape is not known until the first write).
Reads, writes and stacking keep torch.autograd's graph, so gradients flow through them.
The program readers (:mod:`pagaie._formats.paddle_program`) give the values the shapes Paddle declares;
these kernels only run on data.
"""
from __future__ import annotations

import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import defop

__all__: list[str] = []   # program-level records only: nothing at the top level


def _index(i, api: str) -> int:
    if isinstance(i, torch.Tensor):
        if i.numel() != 1:
            raise ValueError(f"paddle.tensor.{api}: the index must hold one element, but it has "
                             f"shape {list(i.shape)}")
        return int(i.reshape(()).item())
    return int(i)


def _length(array: torch.Tensor) -> int:
    return int(array.shape[0])


@defop("tensor_array_create", method=False, differentiable=False)
def _create(dtype: str = "float32") -> torch.Tensor:
    return torch.empty([0], dtype=_dt.to_torch_dtype(dtype))


def _write_static_shape(array, x, i) -> list:
    """A write's result while a program is built: the element count is read from the index."""
    return [-1, *x.shape]


def _read_static_shape(array, i) -> list:
    return list(array.shape[1:])


@defop("tensor_array_write", method=False, inplace=True, program_inplace=True,
       static_shape=_write_static_shape)
def _write(array: torch.Tensor, x: torch.Tensor, i) -> torch.Tensor:
    idx, n = _index(i, "array_write"), _length(array)
    if idx < 0 or idx > n:
        raise NotImplementedError(f"paddle.tensor.array_write: writing at index {idx} of an array of "
                                  f"{n} tensors (only indices 0..{n} are supported)")
    item = x.unsqueeze(0)
    if n == 0:
        return item
    if list(array.shape[1:]) != list(x.shape):
        raise ValueError(f"paddle.tensor.array_write: the array holds tensors of shape "
                         f"{list(array.shape[1:])}, but x has shape {list(x.shape)}")
    return torch.cat([array[:idx], item.to(array.dtype), array[idx + 1:]])


@defop("tensor_array_read", method=False, static_shape=_read_static_shape)
def _read(array: torch.Tensor, i) -> torch.Tensor:
    idx, n = _index(i, "array_read"), _length(array)
    idx = idx + n if idx < 0 else idx  # (slice_array_dense counts from the end too)
    if not 0 <= idx < n:
        raise IndexError(f"paddle.tensor.array_read: index {idx} is out of range for an array of "
                         f"{n} tensors")
    return array[idx]


@defop("tensor_array_length", method=False, differentiable=False)
def _array_length(array: torch.Tensor) -> torch.Tensor:
    return torch.tensor([_length(array)], dtype=torch.int64)


@defop("tensor_array_slice", method=False)
def _slice(array: torch.Tensor, start, end) -> torch.Tensor:
    n = _length(array)
    s, e = _index(start, "slice_array"), _index(end, "slice_array")
    s, e = (s + n if s < 0 else s), (e + n if e < 0 else e)
    return array[max(s, 0):max(min(e, n), 0)]


@defop("tensor_array_to_tensor", method=False)
def _to_tensor(array: torch.Tensor, axis: int = 1, use_stack: bool = False):
    if _length(array) == 0:
        raise ValueError("paddle.tensor.tensor_array_to_tensor: the array is empty")
    nd = array.dim() - 1  # the elements' rank
    if use_stack:
        ax = axis + nd + 1 if axis < 0 else axis
        out = torch.movedim(array, 0, ax)
        size = array.shape[1 + ax] if ax < nd else 1
    else:
        ax = axis + nd if axis < 0 else axis
        out = torch.movedim(array, 0, ax).flatten(ax, ax + 1)
        size = array.shape[1 + ax]
    return out, torch.full([_length(array)], int(size), dtype=torch.int32)
