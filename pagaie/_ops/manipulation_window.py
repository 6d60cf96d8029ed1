"""Small-rank promotion and sub-blocks: atleast_*d, crop, narrow, unfold (windows), diagonal."""
from __future__ import annotations

from typing import Any, Callable

import torch

from pagaie._core.registry import defop
from pagaie._core.tensor import Tensor
from pagaie._ops._helpers import (axis_arg, int_only_in_programs, kernel_dtypes, norm_axis, parser_ints,
                                  shape_arg as _shape, write_out)
from pagaie._ops.manipulation import check_int_array, view_results

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "crop", "narrow", "unfold", "diagonal"]


# ---- small-rank promotion -------------------------------------------------------------------
# Composites, as Paddle's: an input that already has the rank comes back as the same object,
# a 0-D one is reshaped (a copy), a 1-D/2-D one unsqueezed (a view); non-Tensor inputs are
# converted first, and one list or tuple holding a Tensor is taken as the inputs.
def _atleast(inputs: tuple, nd: int) -> Any:
    from pagaie._ops.creation import to_tensor
    from pagaie._ops.manipulation import reshape, unsqueeze

    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)) and \
            any(isinstance(t, Tensor) for t in inputs[0]):
        inputs = inputs[0]
    out = []
    for t in inputs:
        t = t if isinstance(t, Tensor) else to_tensor(t)
        d = t.dim()
        if d >= nd:
            out.append(t)
        elif d == 0:
            out.append(reshape(t, [1] * nd))
        else:  # atleast_2d: [n] -> [1, n]; atleast_3d: [n] -> [1, n, 1], [m, n] -> [m, n, 1]
            out.append(unsqueeze(t, [0] if nd == 2 else [0, 2] if d == 1 else [2]))
    return out[0] if len(out) == 1 else out


def atleast_1d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 1 dimension (a list when several are given).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.atleast_1d(paddle.to_tensor(1.0)).shape
        paddle.Size([1])
    """
    return _atleast(inputs, 1)


def atleast_2d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 2 dimensions (a list when several are given).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.atleast_2d(paddle.ones([3])).shape
        paddle.Size([1, 3])
    """
    return _atleast(inputs, 2)


def atleast_3d(*inputs: Any, name: str | None = None) -> Any:
    """Each input with at least 3 dimensions (a list when several are given).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.atleast_3d(paddle.ones([2, 3])).shape
        paddle.Size([2, 3, 1])
    """
    return _atleast(inputs, 3)


for _f in (atleast_1d, atleast_2d, atleast_3d):
    setattr(Tensor, _f.__name__, _f)


# ---- windows and sub-blocks --------------------------------------------------------------
# Paddle's crop kernels take int32, int64, float32 and float64 (its static API checks for those;
# pagaie's eager crop also computes float16 and bfloat16, on any device)
# Paddle's CPU crop kernel and its static build-time check (a GPU tensor passes kernel_dtypes)
_CROP_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64})


def _crop_static_check(x, shape=None, offsets=None, name=None) -> None:
    """Paddle's static crop takes ``shape`` and ``offsets`` only as a list, a tuple, a Value or
    None (TypeError while a program is built; its eager API reads a number as one size)."""
    for arg, v in (("shape", shape), ("offsets", offsets)):
        if not (v is None or isinstance(v, (list, tuple, Tensor))):
            raise TypeError(f"paddle.crop: '{arg}' must be a list, a tuple or a Tensor in a static "
                            f"program, but received {type(v).__name__}")


@defop(method=False, paddle_types=("crop", "crop_tensor", "pd_op.crop"), program_dtypes={"x": _CROP_DTYPES},
       static_check=_crop_static_check)
def crop(x, shape=None, offsets=None, name=None):
    """The block of ``x`` of size ``shape`` (``-1``: to the end) starting at ``offsets``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.crop(paddle.arange(12).reshape([3, 4]), [2, 2], [1, 1]).tolist()
        [[5, 6], [9, 10]]
    """
    nd = x.dim()
    if nd == 0:
        raise ValueError("paddle.crop: the input 'x' must have at least 1 dimension, but it is 0-D")
    check_int_array(shape, "crop")
    check_int_array(offsets, "crop")
    s = list(x.shape) if shape is None else _shape(shape, "crop")
    o = [0] * nd if offsets is None else _shape(offsets, "crop")
    if len(s) != nd or len(o) != nd:
        raise ValueError(f"paddle.crop: 'shape' and 'offsets' must have {nd} elements, but received "
                         f"{s} and {o}")
    idx = []
    for i in range(nd):
        size = x.shape[i] - o[i] if s[i] == -1 else s[i]
        if o[i] < 0 or size < 0 or o[i] + size > x.shape[i]:
            raise ValueError(f"paddle.crop: offset {o[i]} plus size {s[i]} exceeds dimension {i} "
                             f"of size {x.shape[i]}")
        idx.append(slice(o[i], o[i] + size))
    kernel_dtypes("crop", x, _CROP_DTYPES)
    return x[tuple(idx)].clone()  # Paddle's crop kernel copies: the block does not share x's memory


@defop()
@view_results
def narrow(input, dim, start, length):
    """The ``length`` elements of ``input`` along ``dim`` from ``start``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.narrow(paddle.arange(5), 0, 1, 3).tolist()
        [1, 2, 3]
    """
    # Paddle asserts its arguments (AssertionError); a bad dim is an IndexError
    if isinstance(start, torch.Tensor):
        if start.dim() != 0 or start.dtype not in (torch.int32, torch.int64):
            raise AssertionError("paddle.narrow: a 'start' tensor must be a 0-D int32/int64 "
                                 f"tensor, but received shape {list(start.shape)} and dtype "
                                 f"{str(start.dtype).replace('torch.', '')}")
        start = int(start.item())
    elif isinstance(start, bool):  # (Paddle computes with it as an int)
        start = int(start)
    if isinstance(length, torch.Tensor):  # Paddle reads a 0-D tensor of any dtype as its value
        if length.dim() != 0:
            raise ValueError("paddle.narrow: a 'length' tensor must be 0-D, but received shape "
                             f"{list(length.shape)}")
        length = int(length.item())
    elif type(length) is not int:
        parser_ints("narrow", length=length)
    if input.dim() == 0:
        raise AssertionError("paddle.narrow: 'input' must have at least 1 dimension, but "
                             "received a 0-D tensor")
    if length < 0:
        raise AssertionError(f"paddle.narrow: 'length' must be non-negative, but received {length}")
    d = axis_arg(dim, input.dim(), "narrow", "dim", low=IndexError, high=IndexError)
    n = input.shape[d]
    if not -n <= start <= n:
        raise AssertionError(f"paddle.narrow: 'start' must be in [{-n}, {n}] for dim {dim} of "
                             f"size {n}, but received {start}")
    st = start + n if start < 0 else start
    if st + length > n:
        raise AssertionError(f"paddle.narrow: 'start' ({st}) + 'length' ({length}) exceeds the "
                             f"size of dim {dim} ({n})")
    return input.narrow(d, st, int(length))


@defop("tensor_unfold", method="unfold", paddle_types=("tensor_unfold", "pd_op.tensor_unfold"),
       dygraph_only="unfold")
@view_results
def unfold(x, axis, size, step, name=None):
    """Sliding windows of ``size`` elements, ``step`` apart, along ``axis`` (new last axis).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.unfold(paddle.arange(5), 0, 2, 2).tolist()
        [[0, 1], [2, 3]]
    """
    a = norm_axis(axis, x.dim(), "unfold")
    if size < 0 or step <= 0:  # Paddle takes an empty window (size 0)
        raise ValueError(f"paddle.unfold: 'size' must be non-negative and 'step' positive, but "
                         f"received {size} and {step}")
    if size > max(x.shape[a] if x.dim() else 1, 0):
        raise ValueError(f"paddle.unfold: 'size' ({size}) exceeds the size of axis {axis} "
                         f"({x.shape[a] if x.dim() else 1})")
    return x.unfold(a, int(size), int(step))


unfold.__name__ = unfold.__qualname__ = "unfold"


@defop(paddle_types=("diagonal", "pd_op.diagonal"),
       static_check=int_only_in_programs("diagonal", "offset", 1, True))
@view_results
def diagonal(x, offset=0, axis1=0, axis2=1, name=None, *, out=None):
    """The diagonal of the planes spanned by ``axis1`` and ``axis2`` (appended as the last axis).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.diagonal(paddle.to_tensor([[1, 2], [3, 4]])).tolist()
        [1, 4]
    """
    if x.dim() < 2:  # Paddle's OutOfRange
        raise IndexError(f"paddle.diagonal: the input must have at least 2 dimensions, but it has "
                         f"{x.dim()}")
    a1 = axis_arg(axis1, x.dim(), "diagonal", "axis1", low=IndexError, high=IndexError)
    a2 = axis_arg(axis2, x.dim(), "diagonal", "axis2", low=IndexError, high=IndexError)
    if a1 == a2:
        raise ValueError(f"paddle.diagonal: 'axis1' and 'axis2' must differ, but both are {axis1}")
    if isinstance(offset, torch.Tensor) and offset.dim() == 0 and offset.device.type != "meta":
        offset = int(offset.item())   # Paddle's parser reads a 0-D Tensor's value (truncated)
    elif type(offset) is not int:
        parser_ints("diagonal", offset=offset)
    r = torch.diagonal(x, int(offset), a1, a2)
    return r if out is None else write_out(out, r)
