"""Reading by index: gather, index_select, masked_select, where, slice, take...

Writing by index (scatter, index_put, masked_fill, put_along_axis...) lives in
``indexing_scatter``; ``Tensor.__getitem__`` / ``__setitem__`` in ``tensor_index``.
"""
from __future__ import annotations

import builtins
import numbers
from typing import Any

import numpy as np
import torch

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import Tensor, check_inplace
from pagaie._ops._helpers import (ALL_DTYPES, SMALL_INTS, check_binary_dtypes, dtype_name, int_list,
                                  int_only_in_programs,
                                  kernel_dtypes, no_small_int_kernel, norm_axis, parser_ints, scalar_axis,
                                  stopped, write_out, write_result_into)
from pagaie._ops.manipulation import _dims_of, view_results

_T = torch.Tensor
_slice = builtins.slice

__all__ = ["gather", "gather_nd", "index_select", "index_sample", "masked_select", "where",
           "where_", "slice", "strided_slice", "take", "take_along_axis", "take_along_dim",
           "multiplex", "shard_index"]


_INT_INDEX = (torch.int32, torch.int64)
_SMALL_INT_INDEX = (torch.int16, torch.int8, torch.uint8)


def check_index(index: Any, api: str, arg: str = "index", static_type: type | None = None,
                small_ints: bool = False, error: type = ValueError) -> _T:
    """``index`` must be an int32 or int64 tensor; returned as int64 (what torch's kernels take).

    ``small_ints``: also take int8/int16/uint8 (Paddle's kernels of ``take_along_axis`` and of
    the PyTorch form of ``gather`` read them without a check, as garbage; pagaie reads them
    right). ``error``: the exception of Paddle's check for another dtype (its kernels'
    InvalidArgument, a ValueError, unless the API checks in Python first). ``static_type``: the
    exception Paddle's Python dtype check raises for another dtype while a program is recorded."""
    if not isinstance(index, _T):
        from pagaie._core.bad_input import exception_type
        raise exception_type(api, arg, index)(
            f"paddle.{api}: '{arg}' must be a Tensor, but received {type(index).__name__}")
    if index.dtype is torch.int64:
        return index
    if index.dtype not in _INT_INDEX and not (small_ints and index.dtype in _SMALL_INT_INDEX):
        err = error(f"paddle.{api}: '{arg}' must be an int32 or int64 tensor, but received "
                    f"dtype {str(index.dtype).replace('torch.', '')}")
        err.static_type = static_type
        raise err
    return index.long()


def bound_index(index: _T, n: int, api: str, exc: type = IndexError, negative: bool = True) -> _T:
    """Check ``index`` against a dimension of size ``n``; negative entries count from the end."""
    if index.numel():
        lo, hi = int(index.min()), int(index.max())
        if hi >= n or lo < (-n if negative else 0):
            bad = hi if hi >= n else lo
            raise exc(f"paddle.{api}: index {bad} is out of range for a dimension of size {n} "
                      f"(expected [{-n if negative else 0}, {n}))")
        if negative and lo < 0:
            index = torch.where(index < 0, index + n, index)
    return index


@defop(paddle_types=("gather", "pd_op.gather"), static_check=int_only_in_programs("gather", "axis", 2))
def gather(x, index, axis=None, name=None, out=None, *, dim=None):
    """Select the slices of ``x`` at positions ``index`` along ``axis`` (default 0).

    A 0-D ``index`` removes the axis; a higher-rank ``index`` is flattened.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1, 2], [3, 4], [5, 6]])
        >>> paddle.gather(x, paddle.to_tensor([2, 0])).tolist()
        [[5, 6], [1, 2]]
    """
    torch_form = dim is not None or _torch_order(index, axis)
    if not torch_form and isinstance(index, int) and axis is None:
        _missing_index("gather")
    if torch_form:
        # Paddle 3 also takes PyTorch's ``gather(input, dim, index)`` (positionally, or with
        # ``dim=`` as a keyword): elementwise along dim.
        if dim is not None:
            if axis is not None:
                raise ValueError("paddle.gather: got both 'axis' and its alias 'dim'")
            d, idx = norm_axis(dim, x.dim(), "gather", error=IndexError), index
        else:
            d, idx = norm_axis(index, x.dim(), "gather", error=IndexError), axis
        r = torch.gather(x, d, bound_index(check_index(idx, "gather", small_ints=True), x.shape[d],
                                            "gather"))
        return write_out(out, r)
    if x.dtype is torch.float16:  # Paddle's CPU kernel of gather has no float16 version
        kernel_dtypes("gather", x, ALL_DTYPES - {torch.float16})
    if axis is not None and type(axis) is not int:
        axis = scalar_axis(axis)  # Paddle's scalar parser: a bool, float or array counts
    _axis_of_0d("gather", x, 0 if axis is None else axis)
    a = 0 if axis is None else norm_axis(axis, x.dim(), "gather", error=IndexError)
    index = check_index(index, "gather")
    if index.dim() > 2:  # Paddle's InvalidArgument
        raise ValueError(f"paddle.gather: 'index' must be 0-D, 1-D or 2-D, but received shape "
                         f"{list(index.shape)}")
    if index.dim() == 2 and index.shape[1] > 1:
        raise ValueError(f"paddle.gather: a 2-D 'index' must have a last dimension of size 0 or 1, "
                         f"but received shape {list(index.shape)}")
    idx = bound_index(index.reshape(-1), x.shape[a] if x.dim() else 1, "gather")
    r = torch.index_select(x, a, idx)
    if index.dim() == 0:
        r = r.squeeze(a)
    return write_out(out, r)


def _axis_of_0d(api: str, x: _T, axis: Any) -> None:
    """As Paddle's kernels (OutOfRange): a 0-D ``x`` has no axis to index along."""
    if x.dim() == 0:
        raise IndexError(f"paddle.{api}: 'x' is a 0-D Tensor, so it has no axis {axis} to "
                         "index along")


def _missing_index(api: str) -> None:
    """Paddle reads an int second argument as PyTorch's ``dim``: without a third argument
    (the indices) the call is its TypeError."""
    raise TypeError(f"paddle.{api}: missing the 'index' argument (an int second argument is "
                    "read as PyTorch's 'dim', with the indices third)")


def _torch_order(index, axis) -> bool:
    """``f(x, <int>, <tensor>)``: the dimension came second and the indices third."""
    return isinstance(index, int) and not isinstance(index, bool) and isinstance(axis, torch.Tensor) \
        and axis.dim() > 0


# the dtypes of Paddle's CPU kernel of gather_nd
_GATHER_ND_DTYPES = ALL_DTYPES - {torch.float16, torch.bfloat16}


@defop(paddle_types=("gather_nd", "pd_op.gather_nd"))
def gather_nd(x, index, name=None):
    """Gather slices of ``x`` addressed by the last axis of ``index``.

    ``index[..., :k]`` indexes the first ``k`` axes of ``x``; the result has shape
    ``index.shape[:-1] + x.shape[k:]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1, 2], [3, 4]])
        >>> paddle.gather_nd(x, paddle.to_tensor([[1, 0], [0, 1]])).tolist()
        [3, 2]
    """
    kernel_dtypes("gather_nd", x, _GATHER_ND_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    index = check_index(index, "gather_nd", static_type=TypeError)
    if index.dim() == 0:  # Paddle's InvalidArgument
        raise ValueError("paddle.gather_nd: 'index' must have at least 1 dimension (its last "
                         "one addresses the axes of 'x'), but received a 0-D Tensor")
    k = index.shape[-1]
    if k > x.dim():
        raise ValueError(f"paddle.gather_nd: the last dimension of 'index' ({k}) must not exceed "
                         f"the rank of 'x' ({x.dim()})")
    lead = list(index.shape[:-1])
    if k == 0:
        return x.expand(lead + list(x.shape)) if lead else x
    # Paddle checks the index values in its infer step: InvalidArgument (ValueError)
    cols = [bound_index(index[..., i], x.shape[i], "gather_nd", ValueError) for i in range(k)]
    return x[tuple(cols)]


# the dtypes of Paddle's CPU kernel of index_select
_INDEX_SELECT_DTYPES = ALL_DTYPES - {torch.float16, torch.int8, torch.int16, torch.uint8}


@defop(paddle_types=("index_select", "pd_op.index_select"))
def index_select(x, index, axis=0, name=None, *, out=None):
    """Select the entries of ``x`` at positions ``index`` (1-D) along ``axis``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> paddle.index_select(x, paddle.to_tensor([2, 0]), axis=1).tolist()
        [[3, 1], [6, 4]]
    """
    kernel_dtypes("index_select", x, _INDEX_SELECT_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    if _torch_order(index, axis):
        index, axis = axis, index  # PyTorch's index_select(input, dim, index), as Paddle 3 allows
    elif isinstance(index, int) and not isinstance(axis, torch.Tensor):
        _missing_index("index_select")
    _axis_of_0d("index_select", x, axis)
    a = norm_axis(axis, x.dim(), "index_select", error=IndexError)
    idx = check_index(index, "index_select")
    if not (idx.dim() == 1 or (idx.dim() == 2 and idx.shape[1] == 1)):  # Paddle's InvalidArgument
        raise ValueError(f"paddle.index_select: 'index' must be 1-D (or of shape [N, 1]), but "
                         f"received shape {list(idx.shape)}")
    idx = bound_index(idx, x.shape[a], "index_select", ValueError)
    return write_out(out, torch.index_select(x, a, idx.reshape(-1)))


# the dtypes of Paddle's CPU kernel of index_sample
_INDEX_SAMPLE_DTYPES = frozenset({torch.float32, torch.float64, torch.int32, torch.int64, torch.complex64, torch.complex128})


def _index_sample_static_shape(x, index):
    """Static rule: Paddle's output has ``index``'s shape (an unknown row count of ``x`` does
    not make it unknown); None (the generic checks) where the known row counts differ."""
    xs, js = list(x.shape), list(index.shape)
    if len(xs) != 2 or len(js) != 2 or (xs[0] >= 0 and js[0] >= 0 and xs[0] != js[0]):
        return None
    return js


@defop(paddle_types=("index_sample", "pd_op.index_sample"), static_shape=_index_sample_static_shape)
def index_sample(x, index):
    """Row-wise selection: ``out[i, j] = x[i, index[i, j]]`` for 2-D ``x`` and ``index``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
        >>> paddle.index_sample(x, paddle.to_tensor([[2], [0]])).tolist()
        [[3], [4]]
    """
    kernel_dtypes("index_sample", x, _INDEX_SAMPLE_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    if x.dim() != 2 or index.dim() != 2 or x.shape[0] != index.shape[0]:
        raise ValueError(f"paddle.index_sample: 'x' and 'index' must be 2-D with the same number of "
                         f"rows, but received shapes {list(x.shape)} and {list(index.shape)}")
    idx = bound_index(check_index(index, "index_sample"), x.shape[1], "index_sample", ValueError,
                      negative=False)
    return torch.gather(x, 1, idx)


# the static API's own check (its kernels take every dtype)
@defop(paddle_types=("masked_select", "pd_op.masked_select"), program_dtypes={"x": frozenset(
    (torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64)),
    "mask": frozenset((torch.bool,))})
def masked_select(x, mask, name=None, *, out=None):
    """The elements of ``x`` where the boolean ``mask`` (broadcast with ``x``) is True, as 1-D.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1, 2, 3, 4])
        >>> paddle.masked_select(x, x > 2).tolist()
        [3, 4]
    """
    if mask.dtype is not torch.bool:  # Paddle's kernel reads it as bool: InvalidArgument
        raise ValueError(f"paddle.masked_select: 'mask' must be a bool tensor, but received "
                         f"{str(mask.dtype).replace('torch.', '')}")
    try:
        broadcast_shapes(x.shape, mask.shape)
    except RuntimeError:  # Paddle's PreconditionNotMet
        raise RuntimeError(f"paddle.masked_select: the shapes of 'x' {list(x.shape)} and 'mask' "
                           f"{list(mask.shape)} cannot be broadcast together") from None
    return write_out(out, torch.masked_select(x, mask))


def _where_operand(v: Any, device: torch.device, arg: str) -> _T:
    """A Python scalar operand becomes a 0-D tensor of Paddle's dtype for it (a numpy scalar
    one of its own dtype); other non-Tensors get the errors of Paddle's where (its Python
    part reads ``v.shape``, its argument parser refuses an array, its tensor constructor a
    string)."""
    if isinstance(v, _T):
        return v
    pos = 1 if arg == "x" else 2
    if isinstance(v, np.ndarray):
        raise ValueError(f"paddle.where: argument '{arg}' (position {pos}) must be Tensor, but got "
                         f"numpy.ndarray")
    if isinstance(v, (str, bytes)):
        raise TypeError(f"paddle.where: '{arg}' must be a Tensor or a number, but received "
                        f"{type(v).__name__} {v!r}")
    if not isinstance(v, (numbers.Number, np.generic)):
        raise AttributeError(f"paddle.where: '{arg}' must be a Tensor or a number, but received "
                             f"{type(v).__name__}")
    if isinstance(v, np.generic):   # Paddle's to_tensor of it: the numpy dtype is kept
        return torch.from_numpy(np.asarray(v)).to(device)
    if isinstance(v, bool):
        dt = torch.bool
    elif isinstance(v, int):
        dt = torch.int64
    elif isinstance(v, complex):
        dt = torch.complex128 if _dt.default_float() is torch.float64 else torch.complex64
    else:
        dt = _dt.default_float()
    return torch.tensor(v, dtype=dt, device=device)


@defop(paddle_types=("where", "pd_op.where"), method=("where",))
def where(condition, x=None, y=None, name=None, *, out=None):
    """Elementwise choice: ``x`` where ``condition`` is True, else ``y``.

    With only ``condition``, returns the indices of its nonzero elements, one
    int64 tensor per axis (like ``nonzero(as_tuple=True)``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 5.0, 3.0])
        >>> paddle.where(x > 2, x, 0.0).tolist()
        [0.0, 5.0, 3.0]
    """
    if x is None and y is None:
        if type(condition) is not torch.Tensor:  # Paddle's nonzero parser rejects it
            raise ValueError(f"paddle.where: argument 'condition' (position 0) must be Tensor, "
                             f"but got {type(condition).__name__}")
        if condition.dim() == 0:
            raise ValueError("paddle.where: 'condition' must have at least 1 dimension when x and y "
                             "are omitted, but received a 0-D Tensor")
        # nonzero's indices: stop_gradient=True whatever the condition says
        return tuple(stopped(i) for i in torch.nonzero(condition, as_tuple=True)) \
            if condition.dim() else (stopped(torch.nonzero(condition.reshape(1)).reshape(-1)),)
    if x is None or y is None:
        raise ValueError("paddle.where: 'x' and 'y' must both be given, or neither")
    if type(condition) is not torch.Tensor:  # a program's argument parser wants a Value
        # (eagerly Paddle reads condition.shape first: a numpy array then fails its dtype check)
        kind = ValueError if hasattr(condition, "shape") else AttributeError
        err = kind(f"paddle.where: 'condition' must be a bool Tensor, but received "
                   f"{type(condition).__name__}")
        err.static_type = TypeError
        raise err
    if condition.dtype is not torch.bool:  # Paddle checks it before the operands' dtypes
        # (a program's build checks only the operands' promotion: TypeError)
        err = ValueError(f"paddle.where: 'condition' must be a bool Tensor, but received "
                         f"{str(condition.dtype).replace('torch.', '')}")
        err.static_type = TypeError
        raise err
    x = _where_operand(x, condition.device, "x")
    y = _where_operand(y, condition.device, "y")
    if x.dtype is not y.dtype:
        check_binary_dtypes("where", x, y)
        common = torch.promote_types(x.dtype, y.dtype)
        x, y = x.to(common), y.to(common)
    if x.dtype in SMALL_INTS:
        no_small_int_kernel("where", x)
    elif x.dtype is torch.float16 or x.dtype is torch.bfloat16:   # nor float16/bfloat16 ones
        kernel_dtypes("where", x, _WHERE_CPU_DTYPES)
    return write_out(out, torch.where(condition, x, y))


_WHERE_CPU_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.float16, torch.bfloat16}


def _where_inplace(condition, x=None, y=None, name=None):
    """``where`` writing into ``x``."""
    return x.copy_(torch.where(condition.bool(), x, y))


def _attach_where_inplace() -> Any:
    from pagaie._core.registry import REGISTRY, OpRecord
    from pagaie._core.tensor import Tensor
    rec = OpRecord("where_", _where_inplace, inplace_of="where")
    REGISTRY["where_"] = rec

    def where_(condition, x=None, y=None, name=None):
        """In-place :func:`where`: writes the result into ``x`` and returns it.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 5.0])
            >>> _ = paddle.where_(x > 2, x, paddle.zeros([2]))
            >>> x.tolist()
            [0.0, 5.0]
        """
        if x is None or y is None:
            raise ValueError("paddle.where_: either both or neither of 'x' and 'y' should be "
                             "given, and the in-place form needs both")
        for arg, v in (("x", x), ("y", y)):
            if isinstance(v, (numbers.Number, str, bytes)):  # Paddle's where_ takes Tensors only
                raise ValueError(f"paddle.where_: '{arg}' must be a Tensor (both 'x' and 'y' are "
                                 f"needed), but received {type(v).__name__} {v!r}")
        r = where(condition, x, y)
        if r._t.shape != x._t.shape:
            return r   # a result bigger than x: Paddle hands back the new tensor, x is left alone
        check_inplace(x, "where_", "where")
        return write_result_into(x, r)

    where_.op_record = rec
    Tensor.where_ = where_
    return where_


where_ = _attach_where_inplace()


# ---- slicing ------------------------------------------------------------------------------
def _ints(v: Any) -> list[int]:
    if v is None:  # Paddle's parser reads None as an empty list (its length check fails)
        return []
    if isinstance(v, np.ndarray):  # a 0-D array reads as empty too; a 1-D one as its items
        return [int(e) for e in v.reshape(-1)] if v.ndim else []
    return int_list(v) if isinstance(v, (list, tuple, _T)) else [int(v)]


def _check_int_bounds(v: Any, api: str, arg: str) -> None:
    """Paddle's slice parsers take ints or integer Tensors only: a float, bool or str (a Python
    value, or a Tensor of a float or bool dtype, alone or in the list) is a TypeError."""
    if api == "slice" and isinstance(v, _T) and v.dim() == 0:  # paddle.slice iterates them
        raise TypeError(f"paddle.{api}: '{arg}' must be a list of int or a 1-D integer Tensor, "
                        f"but received a 0-D Tensor")
    if isinstance(v, np.ndarray) and v.dtype.kind != "i":  # signed ints only, as Paddle
        raise TypeError(f"paddle.{api}: '{arg}' must be a list of int (or an integer Tensor), "
                        f"but received a numpy array of dtype {v.dtype}")
    for e in (v if isinstance(v, (list, tuple)) else [v]):
        bad = (e.dtype.is_floating_point or e.dtype.is_complex or e.dtype is torch.bool) \
            if isinstance(e, _T) else isinstance(e, (bool, float, complex, str, np.bool_,
                                                     np.floating, np.complexfloating))
        if bad:
            seen = f"a {dtype_name(e)} Tensor" if isinstance(e, _T) else repr(e)
            raise TypeError(f"paddle.{api}: '{arg}' must be a list of int (or an integer Tensor), "
                            f"but it holds {seen}")


def _slice_dims(x: _T, axes: Any, starts: Any, ends: Any, strides: Any, api: str) -> tuple:
    for arg, v in (("starts", starts), ("ends", ends), ("strides", strides)):
        _check_int_bounds(v, api, arg)
    axes_l, st, en = _ints(axes), _ints(starts), _ints(ends)
    sd = [1] * len(axes_l) if strides is None else _ints(strides)
    if not (len(axes_l) == len(st) == len(en) == len(sd)):
        raise ValueError(f"paddle.{api}: 'axes', 'starts', 'ends' (and 'strides') must have the "
                         f"same length, but received {axes_l}, {st}, {en}, {sd}")
    idx: list = [_slice(None)] * x.dim()
    flips = []
    for a, s, e, k in zip(axes_l, st, en, sd):
        if x.dim() == 0:
            raise ValueError(f"paddle.{api}: a 0-D input has no axis to slice, but received "
                             f"axes={axes_l}")
        a = norm_axis(a, x.dim(), api, "axes")
        if k == 0:
            raise ValueError(f"paddle.{api}: 'strides' must not contain 0")
        n = x.shape[a]
        if k > 0:
            s = min(max(s + n if s < 0 else s, 0), n)
            e = min(max(e + n if e < 0 else e, 0), n)
            idx[a] = _slice(s, max(e, s), k)
        else:
            s = min(max(s + n if s < 0 else s, -1), n - 1)
            e = min(max(e + n if e < 0 else e, -1), n - 1)
            cnt = max(0, (s - e + (-k) - 1) // (-k))
            last = s - (cnt - 1) * (-k)
            idx[a] = _slice(last, s + 1, -k) if cnt else _slice(0, 0)
            flips.append(a)
    return tuple(idx), flips


def _slice_in_rounds(x: _T, axes: Any, starts: Any, ends: Any, strides: Any, api: str) -> _T:
    """``x`` sliced as ``slice``/``strided_slice`` do: an axis named again starts a new round
    that slices the previous round's result, as Paddle composes repeated axes."""
    idx, flips = _slice_dims(x, axes, starts, ends, strides, api)  # checks every argument
    axes_l = [a % x.dim() for a in _ints(axes)]
    rounds, seen, lo = [], set(), 0
    for i, a in enumerate(axes_l):
        if a in seen:
            rounds.append((lo, i))
            seen, lo = set(), i
        seen.add(a)
    if not rounds:
        r = x[idx]
        return r.flip(flips) if flips else r
    rounds.append((lo, len(axes_l)))
    bounds = [_ints(starts), _ints(ends), None if strides is None else _ints(strides)]
    r = x
    for lo, hi in rounds:
        idx, flips = _slice_dims(r, axes_l[lo:hi], *[b if b is None else b[lo:hi] for b in bounds],
                                 api)
        r = r[idx]
        r = r.flip(flips) if flips else r
    return r


def _has_tensor_bound(*bounds: Any) -> bool:
    return any(isinstance(b, Tensor) or (isinstance(b, (list, tuple)) and
                                          any(isinstance(e, Tensor) for e in b)) for b in bounds)


def _slice_static_shape(input, axes, starts, ends) -> list | None:
    """Static rule (see ``Recorder``): a bound held by a Tensor leaves the sliced axes'
    sizes unknown, as Paddle records them (probing it with made-up values found 0)."""
    dims = _dims_of(input)
    if not _has_tensor_bound(starts, ends) or not isinstance(axes, (list, tuple)) or \
            not all(type(a) is int and -len(dims) <= a < len(dims) for a in axes):
        return None
    cut = {a % len(dims) for a in axes}
    return [-1 if i in cut else d for i, d in enumerate(dims)]


def _strided_slice_static_shape(x, axes, starts, ends, strides, name=None) -> list | None:
    """Static rule: a bound or stride held by a Tensor leaves every size unknown in Paddle's
    programs."""
    if not _has_tensor_bound(starts, ends, strides):
        return None
    return [-1] * len(_dims_of(x))


@defop(paddle_types=("slice", "pd_op.slice"), static_shape=_slice_static_shape)
@view_results
def slice(input, axes, starts, ends):  # noqa: A001 (Paddle's name)
    """Take ``input[starts[i]:ends[i]]`` along each axis ``axes[i]`` (bounds are clamped).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(12).reshape([3, 4])
        >>> paddle.slice(x, axes=[0, 1], starts=[1, 0], ends=[3, 2]).tolist()
        [[4, 5], [8, 9]]
    """
    if not isinstance(axes, (list, tuple)):   # Paddle's check (strided_slice takes an int)
        raise ValueError(f"paddle.slice: 'axes' must be a list or tuple, but received "
                         f"{type(axes).__name__}")
    if not axes:
        raise ValueError("paddle.slice: 'axes' must not be an empty list or tuple")
    return _slice_in_rounds(input, axes, starts, ends, None, "slice")


@defop(paddle_types=("strided_slice", "pd_op.strided_slice"), static_shape=_strided_slice_static_shape)
@view_results
def strided_slice(x, axes, starts, ends, strides, name=None):
    """Take ``x[starts[i]:ends[i]:strides[i]]`` along each axis ``axes[i]`` (negative strides too).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(6)
        >>> paddle.strided_slice(x, [0], [5], [0], [-2]).tolist()
        [5, 3, 1]
    """
    _check_int_bounds(axes, "strided_slice", "axes")
    if any(a < 0 for a in _ints(axes)):
        raise ValueError(f"paddle.strided_slice: every axis must be non-negative, but received {axes}")
    return _slice_in_rounds(x, axes, starts, ends, [] if strides is None else strides,
                            "strided_slice")


# ---- take ---------------------------------------------------------------------------------
@defop(paddle_types=("take",))
def take(x, index, mode="raise", name=None):
    """The elements of the flattened ``x`` at positions ``index`` (result shaped like ``index``).

    Args:
        mode (str, optional): out-of-range handling: ``'raise'`` (negative indices
            count from the end), ``'wrap'`` (modulo) or ``'clip'`` (to the ends).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1, 2], [3, 4]])
        >>> paddle.take(x, paddle.to_tensor([0, -1])).tolist()
        [1, 4]
    """
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"paddle.take: 'mode' must be 'raise', 'wrap' or 'clip', but received {mode!r}")
    if not isinstance(index, _T):
        raise TypeError(f"paddle.take: 'index' must be a Tensor, but received "
                        f"{type(index).__name__}")
    if index.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"paddle.take: 'index' must be an int32 or int64 tensor, but received "
                        f"dtype {str(index.dtype).replace('torch.', '')}")
    kernel_dtypes("take", x, _TAKE_DTYPES)
    idx = check_index(index, "take")
    n = x.numel()
    if mode == "raise":
        idx = bound_index(idx, n, "take", ValueError)
    elif mode == "wrap":
        idx = torch.remainder(idx, n)
    else:
        idx = idx.clamp(0, n - 1)
    return x.reshape(-1)[idx]


def _along_axis_inputs(arr: _T, indices: _T, axis: Any, broadcast: bool, api: str) -> tuple:
    if arr.dim() != indices.dim():
        raise ValueError(f"paddle.{api}: 'indices' and 'arr' must have the same number of "
                         f"dimensions, but received {indices.dim()} and {arr.dim()}")
    if arr.dim() == 0:   # Paddle asserts the axis range, [-0, 0) for a 0-D arr
        raise AssertionError(f"paddle.{api}: 'axis' must be in the range [-0, 0) for a 0-D "
                             f"'arr', but received {axis}")
    a = norm_axis(axis, arr.dim(), api, error=AssertionError)  # Paddle asserts the range
    idx = check_index(indices, api, "indices", small_ints=True)
    if broadcast:
        shp = [0 if (i == 0 or s == 0) else max(s, i) for s, i in zip(arr.shape, idx.shape)]
        shp[a] = idx.shape[a]
        idx = idx.expand(shp)
        shp[a] = arr.shape[a]
        arr = arr.expand(shp)
    else:
        for d, (s, i) in enumerate(zip(arr.shape, idx.shape)):
            if d != a and i > s:  # Paddle's own check: RuntimeError
                raise RuntimeError(f"paddle.{api}: 'indices' of shape {list(idx.shape)} must not be "
                                   f"larger than 'arr' of shape {list(arr.shape)} apart from axis "
                                   f"{a} (broadcast=False), but dimension {d} is")
    idx = bound_index(idx, arr.shape[a], api)
    return arr, idx, a


# The dtypes of Paddle's CPU take_along_axis and take kernels (probed; others are NotFound).
_TAKE_ALONG_DTYPES = frozenset({torch.uint8, torch.int16, torch.int32, torch.int64, torch.float32, torch.float64})
_TAKE_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.float16}


def _take_along_static_shape(arr, indices, axis, broadcast=True, **kwargs) -> list | None:
    """Static rule of take_along_axis with unknown sizes: ``indices``' size along ``axis``
    and, elsewhere, the broadcast of both sizes (``indices``' own with ``broadcast=False``),
    a known size winning over an unknown one as in Paddle's programs; None when all sizes
    are known or the call is malformed (the kernel's own checks stand)."""
    dims, idx = _dims_of(arr), _dims_of(indices)
    if -1 not in dims + idx or len(dims) != len(idx) or type(axis) is not int or \
            not -len(dims) <= axis < len(dims):
        return None
    a = axis % len(dims)
    if not broadcast:
        return idx

    def size(d: int, i: int) -> int:
        if d == 1 or i == 1:
            return i if d == 1 else d
        return max(d, i)   # one unknown (-1): the known size; both unknown: -1
    return [i if k == a else size(d, i) for k, (d, i) in enumerate(zip(dims, idx))]


@defop(paddle_types=("take_along_axis", "pd_op.take_along_axis"), static_shape=_take_along_static_shape)
def take_along_axis(arr, indices, axis, broadcast=True, *, out=None):
    """``out[..., i, ...] = arr[..., indices[..., i, ...], ...]`` along ``axis``.

    With ``broadcast`` the other axes of ``indices`` and ``arr`` are broadcast together.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1, 2], [3, 4]])
        >>> paddle.take_along_axis(x, paddle.to_tensor([[1], [0]]), 1).tolist()
        [[2], [3]]
    """
    kernel_dtypes("take_along_axis", arr, _TAKE_ALONG_DTYPES, "arr")
    arr, idx, a = _along_axis_inputs(arr, indices, axis, broadcast, "take_along_axis")
    return write_out(out, torch.gather(arr, a, idx))


take_along_dim = take_along_axis


@defop(paddle_types=("multiplex", "pd_op.multiplex"))
def multiplex(inputs, index, name=None):
    """Row ``i`` of the result is row ``i`` of ``inputs[index[i]]``.

    Examples:
        >>> import pagaie as paddle
        >>> a, b = paddle.to_tensor([[1, 2], [3, 4]]), paddle.to_tensor([[5, 6], [7, 8]])
        >>> paddle.multiplex([a, b], paddle.to_tensor([[1], [0]], dtype='int32')).tolist()
        [[5, 6], [3, 4]]
    """
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(f"paddle.multiplex: argument 'inputs' (position 0) must be list of "
                         f"Tensors, but got {type(inputs).__name__}")
    if len(inputs) < 2:  # Paddle's InvalidArgument
        raise ValueError(f"paddle.multiplex: 'inputs' must hold more than one candidate tensor, "
                         f"but received {len(inputs)}")
    x0 = inputs[0]
    kernel_dtypes("multiplex", x0, _MULTIPLEX_DTYPES, "inputs")
    if any(t.dtype != x0.dtype for t in inputs):
        raise ValueError(f"paddle.multiplex: the tensors of 'inputs' must have one dtype, but "
                         f"received {[dtype_name(t) for t in inputs]}")
    if x0.dim() < 2:
        raise ValueError(f"paddle.multiplex: the tensors of 'inputs' must be at least 2-D, but "
                         f"received shape {list(x0.shape)}")
    if any(t.shape != x0.shape for t in inputs):  # Paddle's PreconditionNotMet: RuntimeError
        raise RuntimeError(f"paddle.multiplex: the tensors of 'inputs' must have one shape, but "
                           f"received {[list(t.shape) for t in inputs]}")
    if isinstance(index, _T) and (index.dim() != 2 or index.shape[1] != 1):
        raise RuntimeError(f"paddle.multiplex: 'index' must have shape [batch_size, 1], but "
                           f"received {list(index.shape)}")
    idx = check_index(index, "multiplex", static_type=TypeError)
    if idx.shape[0] > x0.shape[0]:  # fewer rows are fine: the result has one per index row
        raise ValueError(f"paddle.multiplex: 'index' has {idx.shape[0]} rows, more than the "
                         f"{x0.shape[0]} of the tensors of 'inputs'")
    if index.dtype is not torch.int32:  # Paddle's kernel reads the index as int32
        err = ValueError(f"paddle.multiplex: 'index' must be an int32 tensor, but received "
                         f"{dtype_name(index)}")
        err.static_type = TypeError   # Paddle's static check of the index comes first
        raise err
    # Paddle's kernel checks the rows it picks: PreconditionNotMet (RuntimeError)
    idx = bound_index(idx.reshape(-1), len(inputs), "multiplex", RuntimeError, negative=False)
    stacked = torch.stack(list(inputs), 0)
    rows = torch.arange(idx.shape[0], device=stacked.device)
    return stacked[idx, rows]


_MULTIPLEX_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64,
                               torch.complex64, torch.complex128))


@defop(paddle_types=("shard_index", "pd_op.shard_index"), differentiable=False)
def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):
    """Map global indices to shard-local ones: indices of shard ``shard_id`` become
    ``index % shard_size``, others ``ignore_value`` (shard size = ceil(index_num / nshards)).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.shard_index(paddle.to_tensor([[16], [1]]), 20, 2, 0).tolist()
        [[-1], [1]]
    """
    if not isinstance(input, torch.Tensor):  # Paddle's argument parser (a numpy array too)
        raise ValueError(f"paddle.shard_index: argument 'input' must be a Tensor, but received "
                         f"{type(input).__name__}")
    if input.dtype not in (torch.int32, torch.int64):  # Paddle has int kernels only: NotFound
        raise NoKernelError(f"paddle.shard_index: 'input' must be an int32 or int64 tensor, but "
                            f"received {dtype_name(input)}")
    parser_ints("shard_index", index_num=index_num, nshards=nshards, shard_id=shard_id)
    if type(ignore_value) is bool or not isinstance(ignore_value, numbers.Integral):
        raise TypeError(f"paddle.shard_index: 'ignore_value' must be an int, but received "
                        f"{type(ignore_value).__name__} {ignore_value!r}")
    if input.dim() < 2 or input.shape[-1] != 1:
        raise ValueError(f"paddle.shard_index: 'input' must be at least 2-D with a last dimension "
                         f"of 1, but received shape {list(input.shape)}")
    if not 0 <= shard_id < nshards:
        raise ValueError(f"paddle.shard_index: 'shard_id' must be in [0, {nshards}), but received "
                         f"{shard_id}")
    if input.numel() and (int(input.max()) >= index_num or int(input.min()) < 0):
        raise ValueError(f"paddle.shard_index: every index must be in [0, {index_num}), but the "
                         f"input holds values in [{int(input.min())}, {int(input.max())}]")
    size = (index_num + nshards - 1) // nshards
    return torch.where(input // size == shard_id, input % size, torch.full_like(input, ignore_value))
