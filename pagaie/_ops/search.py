"""Search and sort ops: arg-reductions, top-k, sorting, unique values, bucketing, sampling."""
from __future__ import annotations

import functools
import numbers
from typing import Any, NamedTuple

import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import Tensor
from pagaie._ops._helpers import (ALL_DTYPES, LOW_FLOATS, int_only_in_programs, kernel_dtypes,
                                  no_grad_kernel, norm_axis, parsed_dtype, parser_bool, parser_ints,
                                  scalar_axis, scalar_of, torch_dtype, write_out)

__all__ = ["argmax", "argmin", "argsort", "argwhere", "bucketize", "kthvalue", "mode", "msort",
           "nonzero", "searchsorted", "sort", "topk", "unique", "unique_consecutive"]


def _one_axis(axis, ndim: int, api: str) -> int:
    """A single axis made non-negative and checked; Paddle's parser takes a numpy integer too."""
    if isinstance(axis, numbers.Integral) and not isinstance(axis, (bool, int)):
        axis = int(axis)
    return norm_axis(axis, ndim, api)


def _unique_index_dtype(dtype, api: str) -> torch.dtype:
    """The index dtype of unique / unique_consecutive: an unknown name is a TypeError, a known
    dtype other than int32/int64 (None too) is Paddle's Unimplemented (NotImplementedError)."""
    d = None if dtype is None else torch_dtype(dtype, api)
    if d not in (torch.int32, torch.int64):
        raise NotImplementedError(f"paddle.{api}: 'dtype' must be int32 or int64, but received "
                                  f"{dtype}")
    return d


# Paddle's argmax/argmin CPU kernels (and its static build-time check) take no int8, float16,
# bfloat16 or complex tensor (a GPU tensor passes kernel_dtypes: its kernels take more)
_ARG_DTYPES = ALL_DTYPES - {torch.bool, torch.int8, torch.float16, torch.bfloat16, torch.complex64,
                            torch.complex128}


def _arg_reduce(fn, api, x, axis, keepdim, dtype):
    # Paddle's order: its argument parser (axis, keepdim, then the dtype's name), the input's
    # kernel, and only then the index dtype and the axis' range
    if axis is not None and type(axis) is not int and not isinstance(axis, torch.Tensor):
        axis = scalar_axis(axis)  # Paddle's scalar parser: a float is truncated, an array read
    if isinstance(axis, (list, tuple, str)):
        raise TypeError(f"paddle.{api}: 'axis' must be an int, a float, a bool or a Tensor, "
                        f"but received {type(axis).__name__} {axis!r}")
    if type(keepdim) is not bool:
        keepdim = parser_bool(keepdim, api, "keepdim")
    if dtype is None:
        raise ValueError(f"paddle.{api}: 'dtype' must be int32 or int64, but received None")
    d = torch.int64 if dtype == "int64" else parsed_dtype(dtype, api)
    if x.dtype is torch.bool:  # Paddle has no bool kernel: its eager mode raises RuntimeError
        raise NoKernelError(f"paddle.{api}: bool tensors are not supported; cast to an integer or "
                            "float dtype first")
    kernel_dtypes(api, x, _ARG_DTYPES)
    if d not in (torch.int32, torch.int64):
        raise ValueError(f"paddle.{api}: 'dtype' must be int32 or int64, but received {dtype}")
    if x.is_floating_point():  # Paddle's kernel skips NaN entries (all NaN: index 0)
        x = torch.nan_to_num(x, nan=float("-inf") if fn is torch.argmax else float("inf"),
                             posinf=float("inf"), neginf=float("-inf"))
    if x.numel() == 0 and (axis is None or x.shape[_one_axis(axis, x.dim(), api)] == 0):
        # (Paddle's kernel returns memory it never wrote here)
        raise ValueError(f"paddle.{api}: cannot reduce along an axis of size 0 (input shape "
                         f"{list(x.shape)}, axis={axis})")
    if axis is None:
        r = fn(x)
        if keepdim:
            r = r.reshape([1] * x.dim())
    else:
        n = x.dim() or 1
        if type(axis) is not int or not -n <= axis < n:
            axis = _one_axis(axis, x.dim(), api)
        r = fn(x, dim=axis, keepdim=keepdim)
        if keepdim and x.dim() == 0:  # Paddle keeps a size-1 axis even for a 0-D input
            r = r.reshape(1)
    return r if d is torch.int64 else r.to(d)


@defop(paddle_types=("arg_max", "pd_op.argmax"), differentiable=False,
       static_check=int_only_in_programs("argmax", "axis", 1))
def argmax(x, axis=None, keepdim=False, dtype="int64", name=None, *, out=None):
    """Indices of the maximum values along an axis (the first one on ties).

    Args:
        x (Tensor): the input.
        axis (int, optional): the axis to reduce; None flattens the input first.
        keepdim (bool, optional): keep the reduced axis with size 1.
        dtype (str|paddle.dtype, optional): ``'int64'`` (default) or ``'int32'``.
        name (str, optional): unused.

    Returns:
        Tensor: the indices, of type ``dtype``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
        >>> paddle.argmax(x).item()
        3
        >>> paddle.argmax(x, axis=1).tolist()
        [1, 0]
    """
    r = _arg_reduce(torch.argmax, "argmax", x, axis, keepdim, dtype)
    return r if out is None else write_out(out, r)


@defop(paddle_types=("arg_min", "pd_op.argmin"), differentiable=False,
       static_check=int_only_in_programs("argmin", "axis", 1))
def argmin(x, axis=None, keepdim=False, dtype="int64", name=None, *, out=None):
    """Indices of the minimum values along an axis (the first one on ties).

    Args:
        x (Tensor): the input.
        axis (int, optional): the axis to reduce; None flattens the input first.
        keepdim (bool, optional): keep the reduced axis with size 1.
        dtype (str|paddle.dtype, optional): ``'int64'`` (default) or ``'int32'``.
        name (str, optional): unused.

    Returns:
        Tensor: the indices, of type ``dtype``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.argmin(paddle.to_tensor([[1.0, 5.0], [-7.0, 0.0]]), axis=0).tolist()
        [1, 1]
    """
    r = _arg_reduce(torch.argmin, "argmin", x, axis, keepdim, dtype)
    return r if out is None else write_out(out, r)


class TopKRetType(NamedTuple):
    """``(values, indices)`` of :func:`topk`, as Paddle names them."""
    values: Any
    indices: Any


# the dtypes Paddle's CPU kernels take (NotFound, a RuntimeError, for the others)
_SORT_DTYPES = ALL_DTYPES - {torch.bool, torch.int8, torch.complex64, torch.complex128}
_TOPK_DTYPES = frozenset((torch.int32, torch.int64, torch.float16, torch.float32, torch.float64))
_MODE_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64))


@defop("topk", paddle_types=("top_k_v2", "pd_op.topk"), method=False,
       static_check=int_only_in_programs("topk", "k", 1))
def _topk(x, k, axis=None, largest=True, sorted=True, name=None, *, out=None):
    """The ``k`` largest (or smallest) entries along an axis, with their indices.

    Args:
        x (Tensor): the input.
        k (int|Tensor): how many entries to keep.
        axis (int, optional): the axis to search; None means the last one.
        largest (bool, optional): the largest entries (True) or the smallest.
        sorted (bool, optional): return the entries in sorted order.
        name (str, optional): unused.
        out (tuple, optional): two tensors to receive the values and indices.

    Returns:
        TopKRetType: ``(values, indices)``, also as ``.values`` and ``.indices``; the
        indices are int64.

    Examples:
        >>> import pagaie as paddle
        >>> v, i = paddle.topk(paddle.to_tensor([1.0, 4.0, 3.0, 2.0]), k=2)
        >>> v.tolist(), i.tolist()
        ([4.0, 3.0], [1, 2])
        >>> paddle.topk(paddle.to_tensor([1.0, 4.0]), k=1).indices.tolist()
        [1]
    """
    # Paddle's order: its argument parser (axis, largest, sorted), then the input's kernel
    if axis is not None and not isinstance(axis, torch.Tensor):
        parser_ints("topk", axis=axis)
    if type(largest) is not bool or type(sorted) is not bool:
        largest, sorted = _bool_flags("topk", largest=largest, sorted=sorted)
    kernel_dtypes("topk", x, _TOPK_DTYPES)
    if hasattr(k, "item") and getattr(k, "size", None) == 1 and not isinstance(k, torch.Tensor):
        k = k.item()   # a one-element numpy array counts as its number
    if not isinstance(k, (numbers.Real, str, torch.Tensor)):   # Paddle's Scalar parser
        raise TypeError(f"paddle.topk: 'k' must be an int, float, bool or Tensor, but received "
                        f"{type(k).__name__}")
    k = int(scalar_of(k))  # an int or a Tensor, at least 1 either way (Paddle's kernel)
    dim = -1 if axis is None else _one_axis(axis, x.dim(), "topk")
    if x.dim() == 0:  # Paddle takes any k >= 1 here: the value itself, at index 0
        if k < 1:
            raise ValueError(f"paddle.topk: 'k' must be at least 1, but received {k}")
        v, i = x.clone(), torch.zeros((), dtype=torch.int64, device=x.device)
    else:
        n = x.shape[dim]
        if not 1 <= k <= n:
            raise ValueError(f"paddle.topk: 'k' must be in [1, {n}] (the size of axis {dim}), "
                             f"but received {k}")
        v, i = torch.topk(x, k, dim=dim, largest=largest, sorted=sorted)
    if x.dtype is torch.float16 and x.requires_grad:   # no float16 CPU topk_grad kernel
        v = no_grad_kernel("topk", v, x, LOW_FLOATS - {torch.bfloat16})
    if out is not None:
        return write_out(out[0], v), write_out(out[1], i)
    return v, i


@functools.wraps(_topk)  # (the signature, docstring and record of the op)
def topk(*args: Any, **kwargs: Any) -> TopKRetType:
    return TopKRetType(*_topk(*args, **kwargs))


Tensor.topk = topk  # type: ignore[attr-defined]


def _check_0d_axis(axis, api):
    """A 0-D input sorts along axis 0 or -1 only (Paddle's InvalidArgument otherwise)."""
    if isinstance(axis, torch.Tensor):
        axis = axis.item()
    if axis not in (0, -1):
        raise ValueError(f"paddle.{api}: 'axis' must be 0 or -1 for a 0-D input, but received {axis}")


_SEARCH_DTYPES = (torch.float32, torch.float64, torch.int32, torch.int64)
_SEARCH_VALUE_DTYPES = _SEARCH_DTYPES + (torch.float16, torch.bfloat16)


def _check_search_inputs(seq, values, api, seq_arg):
    """Paddle's searchsorted kernel is registered for a float32/float64/int32/int64 sequence
    (NotFound otherwise), takes values of those dtypes or float16/bfloat16 (InvalidArgument
    otherwise) and needs a 1-D sequence or one whose leading dimensions match the values'
    (Unavailable)."""
    if seq.dtype not in _SEARCH_DTYPES:
        raise NoKernelError(f"paddle.{api}: '{seq_arg}' must be a float32, float64, int32 or int64 "
                            f"tensor, but received {str(seq.dtype).replace('torch.', '')}")
    if values.dtype not in _SEARCH_VALUE_DTYPES:
        raise ValueError(f"paddle.{api}: '{'values' if api == 'searchsorted' else 'x'}' must be a "
                         f"float16, bfloat16, float32, float64, int32 or int64 tensor, but received "
                         f"{str(values.dtype).replace('torch.', '')}")
    if seq.dim() > 1 and (values.dim() != seq.dim() or list(seq.shape[:-1]) != list(values.shape[:-1])):
        raise RuntimeError(f"paddle.{api}: the leading dimensions of '{seq_arg}' {list(seq.shape)} "
                           f"and of the values {list(values.shape)} must match when '{seq_arg}' "
                           "is not 1-D")


def _bool_flags(api: str, **flags: Any) -> list[bool]:
    """Paddle's argument parser takes only a Python bool (or None: False) for these flags
    (TypeError for an int, a string or a numpy bool)."""
    return [v if type(v) is bool else parser_bool(v, api, k) for k, v in flags.items()]


def _nan_last_sequence(seq, right):
    """Paddle's left binary search takes a NaN of the sorted sequence as larger than every
    value (where it sorts NaN); torch's takes it as smaller, so NaN entries become +inf here.
    (The right search already agrees.)"""
    if right or not seq.is_floating_point():
        return seq
    return torch.nan_to_num(seq, nan=float("inf"), posinf=float("inf"), neginf=float("-inf"))


@defop(paddle_types=("pd_op.sort",))
def sort(x, axis=-1, descending=False, stable=False, name=None):
    """Sorted copy of ``x`` along an axis.

    Args:
        x (Tensor): the input.
        axis (int, optional): the axis to sort along (default the last).
        descending (bool, optional): sort from largest to smallest.
        stable (bool, optional): keep the order of equal entries.
        name (str, optional): unused.

    Returns:
        Tensor: the sorted values.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.sort(paddle.to_tensor([3.0, 1.0, 2.0]), descending=True).tolist()
        [3.0, 2.0, 1.0]
    """
    kernel_dtypes("sort", x, _SORT_DTYPES)
    if x.dim() == 0:
        _check_0d_axis(axis, "sort")
        return x.clone()
    if type(descending) is not bool or (stable is not None and type(stable) is not bool):
        descending, stable = _bool_flags("sort", descending=descending, stable=stable)
    return torch.sort(x, dim=_one_axis(axis, x.dim(), "sort"), descending=descending, stable=stable)[0]


@defop(paddle_types=("argsort", "pd_op.argsort"), int_results=True)
def argsort(x, axis=-1, descending=False, stable=False, name=None):
    """Indices that sort ``x`` along an axis.

    Args:
        x (Tensor): the input.
        axis (int, optional): the axis to sort along (default the last).
        descending (bool, optional): sort from largest to smallest.
        stable (bool, optional): keep the order of equal entries.
        name (str, optional): unused.

    Returns:
        Tensor: int64 indices.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.argsort(paddle.to_tensor([3.0, 1.0, 2.0])).tolist()
        [1, 2, 0]
    """
    kernel_dtypes("argsort", x, _SORT_DTYPES)
    if isinstance(axis, torch.Tensor) and axis.numel() != 1:   # Paddle's int parser
        raise TypeError(f"paddle.argsort: 'axis' must be an int, but received a Tensor of {axis.numel()} "
                        "elements")
    if x.dim() == 0:
        _check_0d_axis(axis, "argsort")
        return torch.zeros((), dtype=torch.int64, device=x.device)
    if type(descending) is not bool or (stable is not None and type(stable) is not bool):
        descending, stable = _bool_flags("argsort", descending=descending, stable=stable)
    return torch.sort(x, dim=_one_axis(axis, x.dim(), "argsort"), descending=descending, stable=stable)[1]


@defop()
def msort(input, *, out=None):
    """Sorted copy of ``input`` along its first axis.

    Args:
        input (Tensor): the input.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: the sorted values.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.msort(paddle.to_tensor([[3, 1], [1, 2]])).tolist()
        [[1, 1], [3, 2]]
    """
    kernel_dtypes("msort", input, _SORT_DTYPES, "input")
    return write_out(out, torch.msort(input))


# Paddle's CPU nonzero kernel, which argwhere runs too, and its static build-time check: no int8,
# uint8 or float16 version (a GPU tensor passes kernel_dtypes: its kernels take more)
_NONZERO_DTYPES = ALL_DTYPES - {torch.int8, torch.uint8, torch.float16}


@defop(paddle_types=("where_index", "pd_op.nonzero"), differentiable=False)
def nonzero(x, as_tuple=False, *, out=None):
    """Indices of the non-zero entries.

    Args:
        x (Tensor): the input, at least 1-D.
        as_tuple (bool, optional): return one 1-D index tensor per dimension
            instead of one ``[N, ndim]`` tensor.
        out (Tensor, optional): receives the result (when ``as_tuple`` is False).

    Returns:
        Tensor|tuple: int64 indices.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nonzero(paddle.to_tensor([[1, 0], [0, 3]])).tolist()
        [[0, 0], [1, 1]]
    """
    if x.dim() == 0:
        raise ValueError("paddle.nonzero: 'x' must have at least 1 dimension, but received a 0-D tensor")
    if x.dtype not in _NONZERO_DTYPES:
        kernel_dtypes("nonzero", x, _NONZERO_DTYPES)
    if as_tuple:
        return tuple(torch.nonzero(x, as_tuple=True))
    return write_out(out, torch.nonzero(x))


@defop(differentiable=False)
def argwhere(input):
    """Indices of the non-zero entries as one ``[N, ndim]`` int64 tensor.

    Args:
        input (Tensor): the input, at least 1-D.

    Returns:
        Tensor: int64 indices.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.argwhere(paddle.to_tensor([0, 2, 3])).tolist()
        [[1], [2]]
    """
    if input.dim() == 0:
        raise ValueError("paddle.argwhere: 'input' must have at least 1 dimension, but received a 0-D tensor")
    kernel_dtypes("argwhere", input, _NONZERO_DTYPES, "input")
    return torch.nonzero(input)


def _first_index(inverse: torch.Tensor, n_unique: int, n: int) -> torch.Tensor:
    """For each unique entry, the position of its first occurrence."""
    pos = torch.arange(n, device=inverse.device)
    first = torch.full((n_unique,), n, dtype=torch.int64, device=inverse.device)
    return first.scatter_reduce_(0, inverse, pos, reduce="amin")


def _unique_axis(x, axis, api):
    """Check an ``axis`` given to unique / unique_consecutive (a 0-D input takes none)."""
    if x.dim() == 0:
        raise ValueError(f"paddle.{api}: a 0-D input takes axis=None only, but received "
                         f"axis={axis}")
    _one_axis(axis, x.dim(), api)


def _empty_unique(x, d, *flags):
    """Paddle's result for an empty input: the input itself, then an empty index tensor for
    each requested extra output."""
    extra = [torch.zeros(0, dtype=d, device=x.device) for f in flags if f]
    return tuple([x.clone(), *extra]) if extra else x.clone()


_UNIQUE_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64))


@defop(paddle_types=("unique", "pd_op.unique"), differentiable=False)
def unique(x, return_index=False, return_inverse=False, return_counts=False, axis=None,
           dtype="int64", sorted=True, name=None):
    """The sorted unique entries of ``x`` (or unique slices along ``axis``).

    Args:
        x (Tensor): the input.
        return_index (bool, optional): also return where each unique entry first occurs.
        return_inverse (bool, optional): also return, for each input entry, its unique index.
        return_counts (bool, optional): also return how often each unique entry occurs.
        axis (int, optional): find unique slices along this axis; None flattens first.
        dtype (str|paddle.dtype, optional): ``'int64'`` or ``'int32'``, for the index outputs.
        sorted (bool, optional): the result is always sorted; kept for compatibility.
        name (str, optional): unused.

    Returns:
        Tensor|tuple: the unique values, followed by the requested index tensors in the
        order index, inverse, counts.

    Examples:
        >>> import pagaie as paddle
        >>> out, counts = paddle.unique(paddle.to_tensor([2, 3, 3, 1]), return_counts=True)
        >>> out.tolist(), counts.tolist()
        ([1, 2, 3], [1, 1, 2])
    """
    kernel_dtypes("unique", x, _UNIQUE_DTYPES)
    return_index, return_inverse, return_counts = _bool_flags(
        "unique", return_index=return_index, return_inverse=return_inverse,
        return_counts=return_counts)
    d = _unique_index_dtype(dtype, "unique")
    if axis is not None:
        _unique_axis(x, axis, "unique")
    if x.numel() == 0:  # Paddle hands an empty input back whole, with empty index outputs
        return _empty_unique(x, d, return_index, return_inverse, return_counts)
    if axis is None:
        flat = x.reshape(-1)
        out, inv, cnt = torch.unique(flat, sorted=True, return_inverse=True, return_counts=True)
        n = flat.numel()
    else:
        ax = _one_axis(axis, x.dim(), "unique")
        out, inv, cnt = torch.unique(x, sorted=True, return_inverse=True, return_counts=True, dim=ax)
        n = x.shape[ax]
    if not (return_index or return_inverse or return_counts):
        return out
    res = [out]
    if return_index:
        res.append(_first_index(inv, out.shape[0] if axis is None else cnt.numel(), n).to(d))
    if return_inverse:
        res.append(inv.to(d))
    if return_counts:
        res.append(cnt.to(d))
    return tuple(res)


@defop(paddle_types=("unique_consecutive", "pd_op.unique_consecutive"), differentiable=False)
def unique_consecutive(x, return_inverse=False, return_counts=False, axis=None, dtype="int64", name=None):
    """Collapse runs of equal consecutive entries (or slices along ``axis``) to one.

    Args:
        x (Tensor): the input.
        return_inverse (bool, optional): also return, for each input entry, its output index.
        return_counts (bool, optional): also return the length of each run.
        axis (int, optional): compare slices along this axis; None flattens first.
        dtype (str|paddle.dtype, optional): ``'int64'`` or ``'int32'``, for the index outputs.
        name (str, optional): unused.

    Returns:
        Tensor|tuple: the collapsed values, then inverse and counts as requested.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.unique_consecutive(paddle.to_tensor([1, 1, 2, 2, 1])).tolist()
        [1, 2, 1]
    """
    kernel_dtypes("unique_consecutive", x, _UNIQUE_DTYPES)
    return_inverse, return_counts = _bool_flags("unique_consecutive", return_inverse=return_inverse,
                                                return_counts=return_counts)
    d = _unique_index_dtype(dtype, "unique_consecutive")
    if axis is not None:
        _unique_axis(x, axis, "unique_consecutive")
        if x.numel() == 0:  # Paddle hands an empty input back whole, with empty index outputs
            return _empty_unique(x, d, False, return_inverse, return_counts)
    if axis is None:
        out, inv, cnt = torch.unique_consecutive(x.reshape(-1), return_inverse=True, return_counts=True)
    else:
        ax = _one_axis(axis, x.dim(), "unique_consecutive")
        out, inv, cnt = torch.unique_consecutive(x, return_inverse=True, return_counts=True, dim=ax)
    if not (return_inverse or return_counts):
        return out
    res = [out]
    if return_inverse:
        res.append(inv.to(d))
    if return_counts:
        res.append(cnt.to(d))
    return tuple(res)


@defop(paddle_types=("searchsorted", "pd_op.searchsorted"), method=False, differentiable=False,
       tensor_args=("sorted_sequence", "values"))
def searchsorted(sorted_sequence, values, out_int32=False, right=False, name=None, *, side=None,
                 out=None, sorter=None):
    """Insertion points of ``values`` into the innermost axis of ``sorted_sequence``.

    Args:
        sorted_sequence (Tensor): sorted along its last axis; its leading dimensions
            match those of ``values`` (or it is 1-D).
        values (Tensor): the values to place.
        out_int32 (bool, optional): return int32 instead of int64 indices.
        right (bool, optional): on equal entries return the last suitable index.
        name (str, optional): unused.
        side (str, optional): ``'left'`` or ``'right'``; overrides ``right`` (``'left'`` with
            ``right=True`` is an error).
        out (Tensor, optional): receives the result.
        sorter (Tensor, optional): indices that sort an unsorted ``sorted_sequence``.

    Returns:
        Tensor: the insertion indices, shaped like ``values``.

    Examples:
        >>> import pagaie as paddle
        >>> seq = paddle.to_tensor([1, 3, 5, 7, 9])
        >>> paddle.searchsorted(seq, paddle.to_tensor([3, 6, 9])).tolist()
        [1, 3, 4]
    """
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError(f"paddle.searchsorted: 'side' must be 'left' or 'right', but received {side!r}")
        if side == "left" and isinstance(right, (bool, int)) and right:
            raise ValueError("paddle.searchsorted: 'side' is 'left' while 'right' is True: they ask "
                             "for opposite sides")
        right = side == "right"
    _check_search_inputs(sorted_sequence, values, "searchsorted", "sorted_sequence")
    out_int32, right = _bool_flags("searchsorted", out_int32=out_int32, right=right)
    if out_int32 and sorted_sequence.shape[-1] >= 2**31 - 1:
        raise RuntimeError(f"paddle.searchsorted: the last dimension of 'sorted_sequence' "
                           f"({sorted_sequence.shape[-1]}) must be less than 2147483647 (the largest "
                           "int32 index) when out_int32 is True")
    if sorter is not None:
        sorted_sequence = sorted_sequence.gather(-1, sorter.to(torch.int64))
    r = torch.searchsorted(_nan_last_sequence(sorted_sequence, bool(right)), values,
                           out_int32=bool(out_int32), right=bool(right))
    return write_out(out, r)


@defop(paddle_types=("pd_op.bucketize",), differentiable=False)
def bucketize(x, sorted_sequence, out_int32=False, right=False, name=None, *, out=None):
    """Bucket index of each entry of ``x`` in the 1-D ``sorted_sequence`` of boundaries.

    Args:
        x (Tensor): the values.
        sorted_sequence (Tensor): 1-D, increasing boundaries.
        out_int32 (bool, optional): return int32 instead of int64 indices.
        right (bool, optional): on equal entries return the last suitable index.
        name (str, optional): unused.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: the bucket indices, shaped like ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.bucketize(paddle.to_tensor([3.0, 6.0]), paddle.to_tensor([1.0, 3.0, 5.0])).tolist()
        [1, 3]
    """
    if sorted_sequence.dim() != 1:
        raise ValueError("paddle.bucketize: 'sorted_sequence' must be a 1-D tensor, but received "
                         f"a {sorted_sequence.dim()}-D tensor")
    _check_search_inputs(sorted_sequence, x, "bucketize", "sorted_sequence")
    # Paddle's bucketize is its searchsorted, whose parser takes only a bool (or None) flag
    out_int32, right = _bool_flags("bucketize", out_int32=out_int32, right=right)
    r = torch.bucketize(x, _nan_last_sequence(sorted_sequence, right), out_int32=out_int32, right=right)
    if x.is_floating_point():
        # Paddle's search kernel puts every non-finite value (-inf too) past the last boundary
        r = torch.where(torch.isfinite(x), r, sorted_sequence.shape[-1])
    return write_out(out, r)


_KTHVALUE_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64))  # its CPU kernels


@defop(paddle_types=("kthvalue", "pd_op.kthvalue"), static_check=int_only_in_programs("kthvalue", "k", 1, True))
def kthvalue(x, k, axis=None, keepdim=False, name=None):
    """The ``k``-th smallest entry along an axis, with its index.

    Args:
        x (Tensor): the input.
        k (int): 1-based rank of the entry.
        axis (int, optional): the axis to search; None means the last one.
        keepdim (bool, optional): keep the reduced axis with size 1.
        name (str, optional): unused.

    Returns:
        tuple: ``(values, indices)``; the indices are int64.

    Examples:
        >>> import pagaie as paddle
        >>> v, i = paddle.kthvalue(paddle.to_tensor([4.0, 1.0, 3.0]), k=2)
        >>> v.item(), i.item()
        (3.0, 2)
    """
    # Paddle's order: its argument parser (k, axis, keepdim), the input's kernel, the ranges
    if not isinstance(k, torch.Tensor):
        parser_ints("kthvalue", k=k)
    if axis is not None and not isinstance(axis, torch.Tensor):
        parser_ints("kthvalue", axis=axis)
    if type(keepdim) is not bool:
        keepdim = parser_bool(keepdim, "kthvalue", "keepdim")
    kernel_dtypes("kthvalue", x, _KTHVALUE_DTYPES)
    dim = -1 if axis is None else _one_axis(axis, x.dim(), "kthvalue")
    k = int(scalar_of(k))
    n = x.shape[dim] if x.dim() else 1
    if not 1 <= k <= n:
        raise ValueError(f"paddle.kthvalue: 'k' must be in [1, {n}] (the size of axis {dim}), "
                         f"but received {k}")
    if x.dim() == 0:
        return torch.kthvalue(x, k, dim=dim, keepdim=keepdim)
    # Paddle takes the k-th entry of an ascending partial top-k (NaN last); torch.topk picks
    # the same one among equal entries (torch.kthvalue does not), so the index agrees
    v, i = torch.topk(x, k, dim=dim, largest=False, sorted=True)
    v, i = v.narrow(dim, k - 1, 1), i.narrow(dim, k - 1, 1)
    return (v, i) if keepdim else (v.squeeze(dim), i.squeeze(dim))


@defop(paddle_types=("mode", "pd_op.mode"))
def mode(x, axis=-1, keepdim=False, name=None):
    """The most frequent entry along an axis (the smallest one on ties), with its index.

    Args:
        x (Tensor): the input.
        axis (int, optional): the axis to search (default the last).
        keepdim (bool, optional): keep the reduced axis with size 1.
        name (str, optional): unused.

    Returns:
        tuple: ``(values, indices)``; the indices are int64.

    Examples:
        >>> import pagaie as paddle
        >>> v, i = paddle.mode(paddle.to_tensor([2.0, 1.0, 2.0]))
        >>> v.item()
        2.0
    """
    # Paddle's order: its argument parser (axis, keepdim), the input's kernel, the axis' range
    if not isinstance(axis, torch.Tensor):
        parser_ints("mode", axis=axis)
    if type(keepdim) is not bool:  # read by Paddle's C++ parser (None is False)
        keepdim = parser_bool(keepdim, "mode", "keepdim")
    kernel_dtypes("mode", x, _MODE_DTYPES)
    dim = _one_axis(axis, x.dim(), "mode")
    if x.dim() == 0 and keepdim and axis >= 0:  # Paddle's kernel then checks a 0-size axis
        raise ValueError(f"paddle.mode: a 0-D input with keepdim=True takes axis=-1 only, but "
                         f"received axis={axis}")
    if x.dim() and x.shape[dim] == 0 and (keepdim or x.shape[:dim].numel() * x.shape[dim + 1:].numel()):
        raise ValueError(f"paddle.mode: axis {axis} of 'x' (shape {list(x.shape)}) is empty, so "
                         "it has no most frequent value")
    if x.numel() == 0:  # nothing to reduce into: empty results of the reduced shape
        v = x.amax(dim, keepdim=keepdim) if x.shape[dim] else x.sum(dim, keepdim=keepdim)
        return v, torch.zeros(v.shape, dtype=torch.int64, device=x.device)
    if x.is_floating_point() and x.numel() and not x.is_meta and bool(torch.isnan(x).any()):
        return _mode_with_nan(x, dim, keepdim)
    v, i = torch.mode(x, dim=dim, keepdim=keepdim)
    return v, i


def _mode_with_nan(x: torch.Tensor, dim: int, keepdim: bool) -> tuple:
    """Paddle's mode over runs of equal sorted entries: NaN equals nothing, so each NaN is a
    run of its own; the longest run wins (the smallest value on ties) and its index is the
    last occurrence of that value."""
    xs = x.movedim(dim, -1) if x.dim() else x.reshape(1)
    s, perm = torch.sort(xs, dim=-1, stable=True)  # NaN sorts last
    start = torch.ones_like(s, dtype=torch.bool)
    start[..., 1:] = s[..., 1:] != s[..., :-1]
    run = torch.cumsum(start, dim=-1) - 1
    cnt = torch.zeros_like(run).scatter_add_(-1, run, torch.ones_like(run)).gather(-1, run)
    pos = torch.argmax((cnt == cnt.amax(-1, keepdim=True)).to(torch.uint8), dim=-1, keepdim=True)
    idx = perm.gather(-1, pos + cnt.gather(-1, pos) - 1)  # the run's last (stable) entry
    v = xs.gather(-1, idx)
    if x.dim() == 0:
        return v.reshape(()), idx.reshape(())
    if keepdim:
        return v.movedim(-1, dim), idx.movedim(-1, dim)
    return v.squeeze(-1), idx.squeeze(-1)


@defop(differentiable=False)
def top_p_sampling(x, ps, threshold=None, topp_seed=None, seed=-1, k=0, mode="truncated",
                    return_top=False, name=None):
    """Nucleus (top-p) sampling: one token id per row of the probabilities ``x``.

    The candidates of each row are its most probable entries whose cumulative
    probability stays within ``ps``; one of them is drawn in proportion to its
    probability (``mode='non-truncated'`` draws from the whole row instead, and
    ``threshold`` drops entries below it).

    Args:
        x (Tensor): 2-D probabilities ``[batch, vocab]``.
        ps (Tensor): 1-D top-p value per row.
        threshold (Tensor, optional): 1-D minimum probability per row.
        topp_seed (Tensor, optional): 1-D int64 seed per row.
        seed (int, optional): the random seed; -1 uses the global generator.
        k (int, optional): also compute the top ``k`` scores and ids.
        mode (str, optional): ``'truncated'`` or ``'non-truncated'``.
        return_top (bool, optional): also return the top ``k`` scores and ids.
        name (str, optional): unused.

    Returns:
        tuple: ``(scores, ids)`` each ``[batch, 1]`` (and the top-k pair when ``return_top``).

    Examples:
        >>> import pagaie as paddle
        >>> probs = paddle.to_tensor([[0.05, 0.9, 0.05]])
        >>> v, i = paddle.Tensor.top_p_sampling(probs, paddle.to_tensor([0.5]))
        >>> i.tolist()
        [[1]]
    """
    if x.dim() != 2:
        raise ValueError(f"paddle.top_p_sampling: 'x' must be 2-D, but received {x.dim()}-D")
    if mode not in ("truncated", "non-truncated"):
        raise ValueError(f"paddle.top_p_sampling: 'mode' must be 'truncated' or 'non-truncated', "
                         f"but received {mode!r}")
    probs, ids = torch.sort(x, dim=-1, descending=True, stable=True)  # ties: lower id first, any device
    weights = probs.float()
    if mode == "truncated":
        before = torch.cumsum(weights, dim=-1) - weights
        keep = before < ps.reshape(-1, 1).float()
        keep[:, 0] = True
        weights = weights * keep
    if threshold is not None:
        weights = weights * (probs.float() >= threshold.reshape(-1, 1).float())
        weights[:, 0] = torch.where(weights.sum(-1) > 0, weights[:, 0], probs[:, 0].float())
    rows = []
    for r in range(x.shape[0]):
        gen = None
        s = int(topp_seed[r]) if topp_seed is not None else (seed if seed != -1 else None)
        if s is not None:
            gen = torch.Generator(device=x.device).manual_seed(s)
        rows.append(torch.multinomial(weights[r], 1, generator=gen))
    pick = torch.stack(rows)
    res = (torch.gather(probs, 1, pick), torch.gather(ids, 1, pick))
    if return_top:
        kk = max(int(k), 1)
        return res + (probs[:, :kk], ids[:, :kk])
    return res

