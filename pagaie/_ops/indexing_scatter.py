"""Writing by index: scatter, scatter_nd, index_add/fill/put, masked_fill/scatter, put_along_axis."""
from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy as np
import torch

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core.registry import REGISTRY, OpRecord, defop
from pagaie._core.tensor import GRAD_FLAG, Tensor, check_inplace, flag_grad
from pagaie._ops._helpers import (ALL_DTYPES, SMALL_INTS, AssertionValueError, axis_arg, counted_writes, kernel_dtypes, norm_axis,
                                  parser_bool, write_out, write_result_into)
from pagaie._ops.creation import _from_data
from pagaie._ops.indexing import _slice_dims, bound_index, check_index
from pagaie._ops.manipulation import _dims_of

_T = torch.Tensor

# the dtypes of Paddle's CPU kernels (NotFound, a RuntimeError, for the others)
_ALONG_DTYPES = frozenset((torch.uint8, torch.int16, torch.int32, torch.int64, torch.float32,
                           torch.float64))
_SCATTER_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64))
_SCATTER_ND_ADD_DTYPES = frozenset((torch.uint8, torch.int32, torch.int64, torch.float32,
                                    torch.float64))

__all__ = ["scatter", "scatter_", "scatter_nd", "scatter_nd_add", "scatter_add", "scatter_add_",
           "scatter_reduce", "index_add", "index_add_", "index_fill", "index_fill_", "index_put",
           "index_put_", "masked_fill", "masked_fill_", "masked_scatter", "masked_scatter_",
           "put_along_axis", "slice_scatter", "select_scatter", "diagonal_scatter"]


def _same_dtype(x: _T, v: Any, api: str, arg: str, error: type = ValueError, target: str = "x") -> None:
    """Paddle writes a tensor ``arg`` into ``x`` (its argument ``target``) only when their
    dtypes agree (no casting)."""
    if isinstance(v, _T) and v.dtype is not x.dtype:
        raise error(f"paddle.{api}: '{arg}' must have the dtype of '{target}' "
                    f"({str(x.dtype).replace('torch.', '')}), but received "
                    f"{str(v.dtype).replace('torch.', '')}")


def _complex_fill_value(x: _T, v: Any, api: str) -> Any:
    """The tensor ``value`` of masked_fill, index_fill or index_put for a complex ``x``:
    Paddle's kernel input transform casts a real floating ``value`` to x's dtype, and cannot
    cast another complex dtype (NotImplementedError); other values are left to the dtype check."""
    if isinstance(v, _T) and x.is_complex() and v.dtype is not x.dtype:
        if v.is_complex():
            raise NotImplementedError(f"paddle.{api}: 'value' of dtype {str(v.dtype)[6:]} cannot be "
                                      f"cast to the dtype of 'x' ({str(x.dtype)[6:]})")
        if v.is_floating_point():
            return v.to(x.dtype)
    return v


def cast_number(value: Any, dtype: torch.dtype, device: torch.device) -> _T:
    """A Python number that overflows ``dtype`` as a 0-D tensor of it, converted as Paddle's C++
    casts from a double do (float32 ``1e40`` is inf, uint8 ``300`` is 44, int32 ``2**40`` the
    platform's out-of-range cast), where torch refuses the number."""
    if isinstance(value, complex):
        t = torch.tensor(complex(value), dtype=torch.complex128)
    else:
        t = torch.tensor(float(value), dtype=torch.float64)
    return t.to(device=device, dtype=dtype)


def overflow(exc: Exception, value: Any) -> bool:
    """Whether torch refused the Python number ``value`` as out of its tensor dtype's range."""
    return isinstance(value, (int, float, complex)) and (
        isinstance(exc, OverflowError) or "verflow" in str(exc))


_REDUCE = {"assign": None, "add": "sum", "sum": "sum", "mul": "prod", "multiply": "prod",
           "prod": "prod", "mean": "mean", "amax": "amax", "amin": "amin"}


def _last_writer_only(v: _T, idx: _T, axis: int, shape: list[int]) -> _T:
    """``v`` whose gradient reaches only the value written last into each cell, as in
    Paddle (an overwritten duplicate has no effect on the result, so no gradient)."""
    coords = list(torch.meshgrid(*[torch.arange(n, device=idx.device) for n in idx.shape],
                                 indexing="ij"))
    coords[axis] = idx
    cell = torch.zeros_like(idx)
    for c, n in zip(coords, shape):
        cell = cell * n + c
    cell = cell.reshape(-1)
    pos = torch.arange(cell.numel(), device=idx.device)
    last = torch.full((int(cell.max()) + 1,), -1, dtype=pos.dtype, device=idx.device)
    last = last.scatter_reduce(0, cell, pos, "amax")
    keep = (last[cell] == pos).reshape(idx.shape)
    return torch.where(keep, v, v.detach())


def _put_along(arr: _T, indices: _T, values: Any, axis: Any, reduce: str, include_self: bool,
               broadcast: bool, api: str) -> _T:
    if reduce not in _REDUCE:
        raise ValueError(f"paddle.{api}: 'reduce' must be one of {sorted(_REDUCE)}, but received "
                         f"{reduce!r}")
    if arr.dim() != indices.dim():
        raise ValueError(f"paddle.{api}: 'indices' and 'arr' must have the same number of "
                         f"dimensions, but received {indices.dim()} and {arr.dim()}")
    if arr.dim() == 0:   # Paddle asserts the axis range, [-0, 0) for a 0-D arr
        raise AssertionError(f"paddle.{api}: 'axis' must be in the range [-0, 0) for a 0-D "
                             f"'arr', but received {axis}")
    a = norm_axis(axis, arr.dim(), api, error=AssertionError)  # Paddle asserts the range
    if not broadcast and isinstance(values, _T):
        # Paddle's own checks without broadcasting: rank (ValueError), then sizes (RuntimeError)
        if values.dim() != indices.dim():
            raise ValueError(f"paddle.{api}: 'indices' and 'values' must have the same number of "
                             f"dimensions when broadcast=False, but received {indices.dim()} and "
                             f"{values.dim()}")
        for d in range(arr.dim()):
            if (d != a and indices.shape[d] > arr.shape[d]) or indices.shape[d] > values.shape[d]:
                raise RuntimeError(
                    f"paddle.{api}: 'indices' of shape {list(indices.shape)} must not be larger "
                    f"than 'arr' of shape {list(arr.shape)} apart from axis {a}, nor than "
                    f"'values' of shape {list(values.shape)} (broadcast=False)")
    if indices.dtype not in (torch.int32, torch.int64):  # Paddle's dtype check: TypeError
        raise TypeError(f"paddle.{api}: 'indices' must be an int32 or int64 tensor, but received "
                        f"dtype {str(indices.dtype).replace('torch.', '')}")
    idx = check_index(indices, api, "indices")
    if not broadcast and idx.numel() and int(idx.max()) >= arr.shape[a]:
        raise RuntimeError(f"paddle.{api}: index {int(idx.max())} is out of bounds for axis {a} "
                           f"of size {arr.shape[a]}")
    # As Paddle: data values become a tensor of to_tensor's dtype (a Python float the default
    # float dtype, an int int64), which must be arr's dtype as a tensor's must; without
    # broadcasting, Paddle converts them to arr's dtype
    v = values if isinstance(values, _T) else \
        _from_data(values, None if broadcast else arr.dtype, api).to(arr.device)
    _same_dtype(arr, v, api, "values", target="input" if api == "scatter" else "arr")
    if broadcast:
        if all(i <= s for i, s in zip(idx.shape, arr.shape)):
            shp = list(arr.shape)
            shp[a] = idx.shape[a]
            idx = idx.expand(shp)
        v = v.expand(idx.shape)
    elif v.numel() == 1 and v.shape != idx.shape:
        v = v.reshape([1] * idx.dim()).expand(idx.shape)
    elif v.dim() == idx.dim() and v.shape != idx.shape:
        v = v[tuple(slice(0, n) for n in idx.shape)]  # as Paddle: the leading part of values
    idx = bound_index(idx, arr.shape[a], api)
    red = _REDUCE[reduce]
    if red is None:
        if v.requires_grad and idx.numel():
            v = _last_writer_only(v, idx, a, list(arr.shape))
        return torch.scatter(arr, a, idx, v)
    return torch.scatter_reduce(arr, a, idx, v, red, include_self=include_self)


def _like_x_static_shape(x, *args, **kwargs) -> list | None:
    """Static rule of the scatters whose result has ``x``'s shape (scatter, index_add,
    diagonal_scatter): ``x``'s sizes, unknown ones included, when an input has unknown sizes
    (probing them against each other loses ``x``'s known ones); None when all are known (the
    kernel's own checks stand)."""
    dims = [_dims_of(v) for v in (x, *args, *kwargs.values()) if isinstance(v, (Tensor, torch.Tensor))]
    return dims[0] if any(-1 in d for d in dims) else None


def _put_along_static_shape(arr, indices, values, axis, *args, **kwargs) -> list | None:
    """Static rule (see ``Recorder``): the result has ``arr``'s sizes, known or not, as in
    Paddle's programs (probing an unknown index size against ``arr`` loses them)."""
    dims, idx_dims = _dims_of(arr), _dims_of(indices)
    if -1 not in dims + idx_dims or len(dims) != len(idx_dims) or type(axis) is not int or \
            not -len(dims) <= axis < len(dims) or \
            getattr(indices, "_t", indices).dtype not in (torch.int32, torch.int64):
        return None   # (the kernel's own checks stand)
    return dims


@defop(paddle_types=("put_along_axis", "pd_op.put_along_axis"), inplace=True,
       static_shape=_put_along_static_shape, static_shape_first=True)
def put_along_axis(arr, indices, values, axis, reduce="assign", include_self=True, broadcast=True):
    """Write ``values`` into ``arr`` at ``indices`` along ``axis``, combining with ``reduce``.

    Args:
        arr (Tensor): the input.
        indices (Tensor): int positions along ``axis``, same rank as ``arr``.
        values (Tensor|scalar): what to write (broadcast to the index shape).
        axis (int): the axis the indices refer to.
        reduce (str, optional): ``'assign'``, ``'add'``, ``'mul'``/``'multiply'``,
            ``'mean'``, ``'amax'`` or ``'amin'``.
        include_self (bool, optional): whether ``arr``'s own values join the reduction.
        broadcast (bool, optional): broadcast ``indices`` against ``arr`` off ``axis``.

    Returns:
        Tensor: the result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 3])
        >>> paddle.put_along_axis(x, paddle.to_tensor([[1], [2]]), 5.0, 1).tolist()
        [[0.0, 5.0, 0.0], [0.0, 0.0, 5.0]]
    """
    kernel_dtypes("put_along_axis", arr, _ALONG_DTYPES, "arr")
    if not isinstance(reduce, str):  # Paddle's argument parser
        raise TypeError(f"paddle.put_along_axis: 'reduce' must be a str, but received "
                        f"{type(reduce).__name__} ({reduce!r})")
    if type(include_self) is not bool:
        include_self = parser_bool(include_self, "put_along_axis", "include_self")
    return _put_along(arr, indices, values, axis, reduce, include_self, broadcast, "put_along_axis")


def _scatter_paddle(x: _T, index: _T, updates: _T, overwrite: bool, api: str) -> _T:
    kernel_dtypes(api, x, _SCATTER_DTYPES)
    index = check_index(index, api)
    if index.dim() > 1 and not (index.dim() == 2 and index.shape[1] == 1):
        raise ValueError(f"paddle.{api}: 'index' must be 1-D (or of shape [N, 1]), but received "
                         f"shape {list(index.shape)}")
    # Paddle's shape checks (InvalidArgument): a 0-D index takes one slice of x, any other
    # index takes the leading rows of updates (extra rows are ignored, as in Paddle)
    want = x.dim() - 1 if index.dim() == 0 else x.dim()
    if updates.dim() != want or x.dim() == 0:
        raise ValueError(f"paddle.{api}: 'updates' must have {want} dimension(s) for an 'index' of "
                         f"shape {list(index.shape)} and 'x' of shape {list(x.shape)}, but received "
                         f"shape {list(updates.shape)}")
    tail = list(updates.shape) if index.dim() == 0 else list(updates.shape[1:])
    if tail != list(x.shape[1:]):
        raise ValueError(f"paddle.{api}: 'updates' of shape {list(updates.shape)} does not match "
                         f"'x' of shape {list(x.shape)} beyond the first axis")
    n = index.numel()
    if index.dim() and updates.shape[0] < n:
        raise ValueError(f"paddle.{api}: 'index' holds {n} entries but 'updates' has only "
                         f"{updates.shape[0]} rows")
    idx = bound_index(index.reshape(-1), x.shape[0], api)  # negative rows count from the end
    u = updates.unsqueeze(0) if index.dim() == 0 else updates[:n]
    _same_dtype(x, u, api, "updates")
    if overwrite:
        return x.index_copy(0, idx, u)
    return x.index_fill(0, idx, 0).index_add(0, idx, u)


def _scatter_torch(input: _T, dim: int, index: _T, src: Any, reduce: Any, api: str) -> _T:
    return _put_along(input, index, src, dim, "assign" if reduce is None else reduce, True, False, api)


@defop(amp="black", paddle_types=("scatter", "pd_op.scatter"), static_shape=_like_x_static_shape)
def scatter(x, index, updates, overwrite=True, name=None, out=None):
    """The record of :func:`scatter` (Paddle's form, or PyTorch's with an int second
    argument): see the public function below for both forms and an example."""
    if isinstance(index, int) and not isinstance(index, bool):
        r = _scatter_torch(x, index, updates, overwrite, name, "scatter")
    else:
        if type(overwrite) is not bool:
            overwrite = parser_bool(overwrite, "scatter", "overwrite")
        r = _scatter_paddle(x, index, updates, overwrite, "scatter")
    return write_out(out, r)


_scatter_op = scatter


def _torch_scatter(input, dim, index, src=None, reduce=None, out=None, value=None):
    """PyTorch's ``scatter(input, dim, index, src (alias value), *, reduce, out)``, called with
    keywords: the record's positional torch form (put_along_axis without broadcasting)."""
    if src is None:
        if value is None:   # Paddle's TypeError: no pattern of the two matches
            raise TypeError("paddle.scatter: expects (Tensor input, int dim, Tensor index, Tensor "
                            "src (alias value), *, str reduce, Tensor out) or (Tensor x, Tensor "
                            "index, Tensor updates, bool overwrite, str name), but the PyTorch "
                            "form got neither 'src' nor 'value'")
        src = value
    elif value is not None:
        raise TypeError("paddle.scatter: 'value' is an alias of 'src'; give only one of them")
    return _scatter_op(input, dim, index, src, reduce, out=out)


def scatter(*args: Any, **kwargs: Any) -> Tensor:  # noqa: F811 (the public form of the record)
    """Write the rows of ``updates`` into the rows ``index`` of ``x``; or, called as PyTorch's
    ``scatter(input, dim, index, src, *, reduce=None, out=None)`` (an int second argument, or
    ``dim=``), :func:`put_along_axis` along ``dim`` without broadcasting (``value=`` is an alias
    of ``src``; ``reduce`` is ``'add'``, ``'multiply'``... or None to assign).

    With ``overwrite`` a repeated index keeps the last update; without it the addressed rows
    are zeroed and then all their updates are summed.

    Args:
        x (Tensor): the input, at least 1-D.
        index (Tensor): 1-D (or 0-D) int32/int64 row numbers.
        updates (Tensor): the rows to write, ``x``'s shape past the first axis.
        overwrite (bool, optional): replace (True) or sum (False) at repeated rows.
        name (str, optional): unused, for Paddle compatibility.
        out (Tensor, optional): also store the result here.

    Returns:
        Tensor: the result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([3, 2])
        >>> u = paddle.to_tensor([[1.0, 1.0], [2.0, 2.0]])
        >>> paddle.scatter(x, paddle.to_tensor([1, 1]), u, overwrite=False).tolist()
        [[0.0, 0.0], [3.0, 3.0], [0.0, 0.0]]
        >>> paddle.scatter(x, dim=1, index=paddle.to_tensor([[1], [0], [1]]), src=paddle.ones([3, 1]),
        ...                reduce='add').tolist()
        [[0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]
    """
    # Paddle's dispatch: the PyTorch form has an int second argument, or ``dim`` as a keyword
    torch_form = isinstance(args[1], int) if len(args) >= 2 else "dim" in kwargs
    if torch_form and (kwargs or len(args) < 4):
        return _torch_scatter(*args, **kwargs)
    return _scatter_op(*args, **kwargs)


scatter.__signature__ = inspect.signature(_scatter_op)   # Paddle's, as its inspect shows
scatter.op_record = _scatter_op.op_record
Tensor.scatter = scatter


def scatter_(*args: Any, **kwargs: Any) -> Tensor:
    """In-place :func:`scatter`: writes into ``x`` (or ``input``) and returns it.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 2])
        >>> _ = paddle.scatter_(x, paddle.to_tensor([1]), paddle.ones([1, 2]))
        >>> x.tolist()
        [[0.0, 0.0], [1.0, 1.0]]
    """
    x = args[0] if args else kwargs.get("x", kwargs.get("input"))
    return _write_back("scatter_", x, scatter(*args, **kwargs))


def _write_back(api: str, x: Tensor, r: Tensor) -> Tensor:
    check_inplace(x, api, api[:-1])
    return write_result_into(x, r)


REGISTRY["scatter_"] = OpRecord("scatter_", scatter.op_record.kernel, inplace_of="scatter")
scatter_.op_record = REGISTRY["scatter_"]
Tensor.scatter_ = scatter_


def _nd_columns(x_shape: Any, index: _T, api: str) -> tuple:
    index = check_index(index, api)
    if index.dim() == 0:   # Paddle's InvalidArgument: the last axis of index addresses x's axes
        raise ValueError(f"paddle.{api}: 'index' must have at least 1 dimension, but received a "
                         "0-D Tensor")
    k = index.shape[-1]
    if k > len(x_shape):
        raise ValueError(f"paddle.{api}: the last dimension of 'index' ({k}) must not exceed the "
                         f"rank of the target ({len(x_shape)})")
    return tuple(bound_index(index[..., i], x_shape[i], api) for i in range(k)), k


# The dtypes of Paddle's CPU scatter_nd kernel (probed; others are NotFound).
_SCATTER_ND_DTYPES = frozenset({torch.uint8, torch.int32, torch.int64, torch.float32, torch.float64})


@defop(method=False, paddle_types=("scatter_nd", "pd_op.scatter_nd"))
def scatter_nd(index, updates, shape, name=None):
    """A zero tensor of ``shape`` with ``updates`` summed in at the positions ``index``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.scatter_nd(paddle.to_tensor([[1], [1]]), paddle.to_tensor([1.0, 2.0]), [3]).tolist()
        [0.0, 3.0, 0.0]
    """
    from pagaie._ops._helpers import int_list
    kernel_dtypes("scatter_nd", updates, _SCATTER_ND_DTYPES, "updates")
    shp = int_list(shape)
    zeros = torch.zeros(shp, dtype=updates.dtype, device=updates.device)
    return _scatter_nd_add(zeros, index, updates, "scatter_nd")


def _scatter_nd_add(x: _T, index: _T, updates: _T, api: str) -> _T:
    cols, k = _nd_columns(list(x.shape), index, api)
    u = updates
    if k == 0:
        return x + u.reshape([-1] + list(x.shape)).sum(0) if index.dim() > 1 else x + u
    return x.index_put(cols, u, accumulate=True)


@defop(paddle_types=("scatter_nd_add", "pd_op.scatter_nd_add"))
def scatter_nd_add(x, index, updates, name=None):
    """``x`` with ``updates`` added at the positions addressed by the last axis of ``index``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([3])
        >>> paddle.scatter_nd_add(x, paddle.to_tensor([[1], [1]]), paddle.to_tensor([1.0, 2.0])).tolist()
        [0.0, 3.0, 0.0]
    """
    _same_dtype(x, updates, "scatter_nd_add", "updates", TypeError)
    kernel_dtypes("scatter_nd_add", x, _SCATTER_ND_ADD_DTYPES)
    return _scatter_nd_add(x, index, updates, "scatter_nd_add")


@defop(inplace=True)
def scatter_add(input, dim, index, src):
    """Add ``src`` into ``input`` at ``index`` along ``dim`` (torch's ``scatter_add``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([1, 3])
        >>> paddle.scatter_add(x, 1, paddle.to_tensor([[0, 0]]), paddle.ones([1, 2])).tolist()
        [[2.0, 0.0, 0.0]]
    """
    d = norm_axis(dim, input.dim(), "scatter_add", "dim")
    idx = bound_index(check_index(index, "scatter_add", error=TypeError), input.shape[d],
                      "scatter_add")
    _same_dtype(input, src, "scatter_add", "src")
    return torch.scatter_add(input, d, idx, src.to(input.dtype))


_SCATTER_REDUCE_CPU_DTYPES = frozenset({torch.uint8, torch.int16, torch.int32, torch.int64,
                                        torch.float32, torch.float64})


@defop()
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """Combine ``src`` into ``input`` at ``index`` along ``dim`` with ``reduce``
    (``'sum'``, ``'prod'``, ``'mean'``, ``'amax'``, ``'amin'``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([1, 3])
        >>> paddle.scatter_reduce(x, 1, paddle.to_tensor([[0, 0]]), paddle.ones([1, 2]), 'sum').tolist()
        [[2.0, 0.0, 0.0]]
    """
    if reduce not in ("sum", "prod", "mean", "amax", "amin"):
        raise ValueError(f"paddle.scatter_reduce: 'reduce' must be one of sum, prod, mean, amax, amin, "
                         f"but received {reduce!r}")
    if input.dtype not in _SCATTER_REDUCE_CPU_DTYPES:   # its CPU kernel (put_along_axis)
        kernel_dtypes("scatter_reduce", input, _SCATTER_REDUCE_CPU_DTYPES, "input", static=frozenset())
    d = norm_axis(dim, input.dim(), "scatter_reduce", "dim")
    idx = bound_index(check_index(index, "scatter_reduce", error=TypeError), input.shape[d],
                      "scatter_reduce")
    return torch.scatter_reduce(input, d, idx, src.to(input.dtype), reduce, include_self=include_self)


# the dtypes of Paddle's CPU kernel of index_add
_INDEX_ADD_DTYPES = frozenset({torch.float16, torch.float32, torch.float64, torch.int32, torch.int64})


# ---- index_* ----------------------------------------------------------------------------
@defop(paddle_types=("index_add", "pd_op.index_add"), inplace=True, static_shape=_like_x_static_shape)
def index_add(x, index, axis, value, alpha=1, name=None, *, out=None):
    """Add ``alpha * value`` into ``x`` at the positions ``index`` along ``axis``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 2])
        >>> paddle.index_add(x, paddle.to_tensor([1, 1]), 0, paddle.ones([2, 2])).tolist()
        [[0.0, 0.0], [2.0, 2.0]]
    """
    kernel_dtypes("index_add", x, _INDEX_ADD_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    if isinstance(index, int) and not isinstance(index, bool):  # torch order: (x, dim, index, source)
        index, axis = axis, index
    a = norm_axis(axis, x.dim(), "index_add", error=IndexError)
    idx = check_index(index, "index_add")
    if idx.dim() != 1:  # Paddle's InvalidArgument
        raise ValueError(f"paddle.index_add: 'index' must be 1-D, but received shape "
                         f"{list(idx.shape)}")
    idx = bound_index(idx, x.shape[a], "index_add", ValueError)
    if not isinstance(value, torch.Tensor):  # Paddle's argument parser takes only a Tensor
        raise ValueError(f"paddle.index_add: argument 'value' must be a Tensor, but received "
                         f"{type(value).__name__}")
    _same_dtype(x, value, "index_add", "value")
    want = list(x.shape)
    want[a] = idx.numel()
    if value.dim() != x.dim() or list(value.shape) != want:
        # As Paddle: too few entries along ``axis`` is its RuntimeError (PreconditionNotMet),
        # other mismatches its ValueError (Paddle ignores extra entries; pagaie refuses them)
        short = value.dim() == x.dim() and value.shape[a] < want[a] and all(
            value.shape[d] == want[d] for d in range(x.dim()) if d != a)
        raise (RuntimeError if short else ValueError)(f"paddle.index_add: 'value' must have shape {want} (x's shape with "
                         f"axis {a} the length of 'index'), but received {list(value.shape)}")
    if isinstance(alpha, float) and not (x.dtype.is_floating_point or x.dtype.is_complex):
        # Paddle's kernel reads a float alpha as the tensor's integer type: InvalidArgument
        raise ValueError(f"paddle.index_add: a float 'alpha' ({alpha}) needs a floating 'x', but "
                         f"'x' is {str(x.dtype).replace('torch.', '')}")
    return write_out(out, torch.index_add(x, a, idx, value.to(x.dtype), alpha=alpha))


@defop(paddle_types=("index_fill", "pd_op.index_fill"), inplace=True)
def index_fill(x, index, axis, value, name=None):
    """Set the entries at positions ``index`` along ``axis`` to ``value``.

    Args:
        x (Tensor): the input.
        index (Tensor): 1-D int32/int64 positions along ``axis``.
        axis (int): the axis the positions index.
        value (float|Tensor|list|numpy.ndarray): a number or 0-D Tensor; other data is
            converted to ``x``'s dtype (as ``paddle.to_tensor``) and broadcast over the
            selected slices (``axis`` moved first, as Paddle's transposed ``index_put``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.index_fill(paddle.zeros([2, 2]), paddle.to_tensor([0]), 1, 5.0).tolist()
        [[5.0, 0.0], [5.0, 0.0]]
        >>> paddle.index_fill(paddle.zeros([2, 2]), paddle.to_tensor([0]), 0, [1.0, 2.0]).tolist()
        [[1.0, 2.0], [0.0, 0.0]]
    """
    if isinstance(axis, bool):  # it passes Paddle's int check, then transpose's parser refuses it
        raise TypeError(f"paddle.index_fill: 'axis' must be an int, but received bool ({axis})")
    if not isinstance(axis, int):  # Paddle takes a Python int only (no Tensor, no numpy int)
        raise ValueError(f"paddle.index_fill: 'axis' must be an int, but received "
                         f"{'a Tensor' if isinstance(axis, _T) else type(axis).__name__}")
    # Paddle: ValueError for a non-int and an out-of-range axis; a 0-D 'x' has no axis
    a = axis_arg(axis, x.dim(), "index_fill", bad=ValueError, rank0=0)
    idx = check_index(index, "index_fill")
    if idx.dim() == 0:  # Paddle's InvalidArgument
        raise ValueError("paddle.index_fill: 'index' must have at least 1 dimension, but "
                         "received a 0-D Tensor")
    idx = bound_index(idx.reshape(-1), x.shape[a], "index_fill", ValueError)
    if isinstance(value, _T):
        if value.dim():
            raise ValueError(f"paddle.index_fill: 'value' must be a scalar or a 0-D Tensor, but "
                             f"received a Tensor of shape {list(value.shape)}")
        value = _complex_fill_value(x, value, "index_fill")
        _same_dtype(x, value, "index_fill", "value")
    elif not isinstance(value, (bool, int, float)) and not (isinstance(value, complex) and x.is_complex()):
        # Paddle converts other data with to_tensor(value, dtype=x.dtype) (a complex number
        # for a real x loses its imaginary part), then index_put broadcasts it
        v = _from_data(value, x.dtype, "index_fill").to(x.device)
        if v.dim() == 0:
            return torch.index_fill(x, a, idx, v)
        if not idx.numel():
            return x.clone()
        xt = x.transpose(0, a)
        want = [idx.numel()] + list(xt.shape[1:])
        try:
            v = v.broadcast_to(want)
        except RuntimeError:
            raise ValueError(f"paddle.index_fill: 'value' of shape {list(v.shape)} cannot be "
                             f"broadcast to the filled slices' shape {want}") from None
        r = xt.clone()
        r[idx] = v
        return r.transpose(0, a)
    return torch.index_fill(x, a, idx, value)


@defop(paddle_types=("index_put", "pd_op.index_put"), inplace=True, program_inplace=True)
def index_put(x, indices, value, accumulate=False, name=None):
    """Write ``value`` at ``x[indices]`` (a tuple of int or bool tensors); sum with ``accumulate``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([3])
        >>> paddle.index_put(x, (paddle.to_tensor([0, 2]),), paddle.to_tensor(1.0)).tolist()
        [1.0, 0.0, 1.0]
    """
    # Paddle's argument parser takes only Tensors here (ValueError, as for a non-Tensor x).
    if not isinstance(indices, (list, tuple)) or not all(isinstance(t, _T) for t in indices):
        raise ValueError(f"paddle.index_put: argument 'indices' (position 1) must be a tuple or "
                         f"list of Tensors, but got {type(indices).__name__}")
    if not indices:
        raise ValueError("paddle.index_put: argument 'indices' (position 1) must be a non-empty "
                         "tuple or list of Tensors, but got an empty one")
    if not isinstance(value, _T):
        raise ValueError(f"paddle.index_put: argument 'value' (position 2) must be Tensor, but got "
                         f"{type(value).__name__}")
    if type(accumulate) is not bool:
        accumulate = parser_bool(accumulate, "index_put", "accumulate")
    value = _complex_fill_value(x, value, "index_put")
    _same_dtype(x, value, "index_put", "value")
    if indices and all(t.dim() == 0 for t in indices):   # Paddle's InvalidArgument
        raise ValueError("paddle.index_put: at least one of 'indices' must have 1 or more "
                         f"dimensions, but all {len(indices)} are 0-D Tensors")
    used = sum(t.dim() if t.dtype is torch.bool else 1 for t in indices)
    if used > x.dim():
        raise IndexError(f"paddle.index_put: too many indices ({used}) for 'x' of rank {x.dim()} "
                         f"(shape {list(x.shape)})")
    idx = []
    dim = 0
    for t in indices:
        if t.dtype is torch.bool:
            if not t.any():
                # nothing selected: Paddle returns x whatever value's shape (value gets a zero
                # gradient, here through an empty slice of it); a mask after other indices
                # selects nothing either, written as an empty mask over x's first axis
                none = t if dim == 0 else torch.zeros(x.shape[:1], dtype=torch.bool, device=x.device)
                return x.index_put((none,), value.reshape(-1)[:0].sum().to(x.dtype))
            idx.append(t)
            dim += t.dim()
        else:
            idx.append(bound_index(check_index(t, "index_put", "indices"), x.shape[dim], "index_put"))
            dim += 1
    return x.index_put(tuple(idx), value.to(x.dtype), accumulate=bool(accumulate))


# ---- masked_* ----------------------------------------------------------------------------
def _check_mask(mask: _T, api: str) -> None:
    if mask.dtype is not torch.bool:  # Paddle asserts it
        raise AssertionError(f"paddle.{api}: 'mask' must be a bool tensor, but received "
                             f"{str(mask.dtype).replace('torch.', '')}")


def _broadcast_shape(x: _T, mask: _T, api: str) -> Any:
    try:
        return broadcast_shapes(x.shape, mask.shape)
    except RuntimeError:  # Paddle's InvalidArgument
        raise ValueError(f"paddle.{api}: the shapes of 'x' {list(x.shape)} and 'mask' "
                         f"{list(mask.shape)} cannot be broadcast together") from None


@defop(paddle_types=("masked_fill", "pd_op.masked_fill"), inplace=True)
def masked_fill(x, mask, value, name=None):
    """``x`` with the elements where ``mask`` is True replaced by ``value`` (scalar or 0-D tensor).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0, 3.0])
        >>> paddle.masked_fill(x, x > 1.5, 0.0).tolist()
        [1.0, 0.0, 0.0]
    """
    if mask.dtype is not torch.bool:  # Paddle reads a numeric mask as "non-zero"
        mask = mask != 0
    if isinstance(value, _T):
        value = _complex_fill_value(x, value, "masked_fill")
        _same_dtype(x, value, "masked_fill", "value")
        if value.requires_grad and value.numel() == 1 and x.requires_grad:
            # When x needs a gradient too, Paddle's masked_fill_grad writes the int64 count of
            # masked elements into the value's gradient buffer: read as a float, a denormal ~0
            # (a larger value gets uninitialised memory, not matched). A zero gradient, then.
            from pagaie._ops.math import _ZeroGrad
            value = _ZeroGrad.apply(value.detach(), value)
        if value.dim():
            return torch.where(mask, value, x)
    if mask.dim() > x.dim() or any(m != s and s == 1 for m, s in zip(mask.shape[::-1], x.shape[::-1])):
        x = x.expand(broadcast_shapes(x.shape, mask.shape))
    try:
        return x.masked_fill(mask, value)
    except (RuntimeError, ValueError, OverflowError) as exc:   # torch's kinds, by path
        if not overflow(exc, value):
            raise
    return x.masked_fill(mask, cast_number(value, x.dtype, x.device))


# Paddle's masked_scatter composes CPU kernels (where...) that take these dtypes only
_MASKED_SCATTER_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.float16, torch.bfloat16}


@defop(paddle_types=("masked_scatter", "pd_op.masked_scatter"), inplace=True)
def masked_scatter(x, mask, value, name=None):
    """``x`` with the elements where ``mask`` is True taken, in order, from ``value``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([4])
        >>> paddle.masked_scatter(x, x == 0, paddle.to_tensor([1.0, 2.0, 3.0, 4.0])).tolist()
        [1.0, 2.0, 3.0, 4.0]
    """
    _check_mask(mask, "masked_scatter")
    _same_dtype(x, value, "masked_scatter", "value", AssertionError)  # Paddle asserts it
    kernel_dtypes("masked_scatter", x, _MASKED_SCATTER_DTYPES)
    n = int(mask.expand(_broadcast_shape(x, mask, "masked_scatter")).sum())
    if value.numel() < n:
        raise AssertionError(f"paddle.masked_scatter: 'value' has {value.numel()} elements, fewer "
                             f"than the {n} True entries of the mask")
    return x.masked_scatter(mask, value.to(x.dtype))


# ---- *_scatter (the inverse of slicing) -----------------------------------------------------
@defop()
def slice_scatter(x, value, axes, starts, ends, strides, name=None):
    """``x`` with the strided slice given by ``axes/starts/ends/strides`` replaced by ``value``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([4])
        >>> paddle.slice_scatter(x, paddle.ones([2]), [0], [0], [4], [2]).tolist()
        [1.0, 0.0, 1.0, 0.0]
    """
    idx, flips = _slice_dims(x, axes, starts, ends, strides, "slice_scatter")
    v = value.to(x.dtype)
    if flips:
        v = v.flip(flips)
    out = x.clone()
    out[idx] = v
    return out


@defop()
def select_scatter(x, values, axis, index, name=None):
    """``x`` with the slice at ``index`` along ``axis`` replaced by ``values``.

    Args:
        x (Tensor): the input tensor.
        values (Tensor): the new slice, of ``x``'s shape without ``axis``.
        axis (int): the axis the slice is taken along.
        index (int): the position of the slice along ``axis`` (negative counts from the end).
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.select_scatter(paddle.zeros([2, 2]), paddle.ones([2]), 0, 1).tolist()
        [[0.0, 0.0], [1.0, 1.0]]
    """
    if not isinstance(index, (int, np.integer, torch.Tensor)) or isinstance(index, bool):
        # Paddle's argument parser wants an int (a float or bool is refused)
        raise TypeError(f"paddle.select_scatter: 'index' must be an int, but received "
                        f"{type(index).__name__}")
    a = axis_arg(axis, x.dim(), "select_scatter", low=IndexError, high=IndexError)
    n = x.shape[a]
    if not -n <= index < n:
        raise IndexError(f"paddle.select_scatter: 'index' {index} is out of range for axis {axis} "
                         f"of size {n}")
    want = list(x.shape[:a]) + list(x.shape[a + 1:])
    if list(values.shape) != want:  # Paddle's check: RuntimeError
        raise RuntimeError(f"paddle.select_scatter: 'values' must have the shape of the selected "
                           f"slice {want}, but received {list(values.shape)}")
    return torch.select_scatter(x, values.to(x.dtype), a, int(index))


# the dtypes of Paddle's CPU kernel of diagonal_scatter
_DIAGONAL_SCATTER_DTYPES = ALL_DTYPES - {torch.bfloat16}


@defop(own_stop_gradient=True,   # (only x decides the result's stop_gradient)
       static_shape=_like_x_static_shape)
def diagonal_scatter(x, y, offset=0, axis1=0, axis2=1, name=None):
    """``x`` with the diagonal (``offset``, ``axis1``, ``axis2``) replaced by ``y``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.diagonal_scatter(paddle.zeros([2, 2]), paddle.ones([2])).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    kernel_dtypes("diagonal_scatter", x, _DIAGONAL_SCATTER_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    n = x.dim()
    for arg, a in (("axis1", axis1), ("axis2", axis2)):  # Paddle asserts the axes
        if not -n <= a < n:
            raise AssertionValueError(f"paddle.diagonal_scatter: '{arg}' must be in [-{n}, {n}) for "
                                      f"'x' of {n} dimension(s), but received {a}")
    a1, a2 = axis1 % n, axis2 % n
    if a1 == a2:
        raise AssertionValueError(f"paddle.diagonal_scatter: 'axis1' and 'axis2' must differ, but "
                                  f"both are dimension {a1}")
    want = list(torch.diagonal(x, int(offset), a1, a2).shape)
    if list(y.shape) != want:  # Paddle asserts the shape
        raise AssertionError(f"paddle.diagonal_scatter: 'y' must have the shape of the diagonal "
                             f"{want}, but received {list(y.shape)}")
    # Paddle runs fill_diagonal_tensor, whose gradient has no part for y: y gets none
    r = torch.diagonal_scatter(x, y.detach().to(x.dtype), int(offset), a1, a2)
    if getattr(x, GRAD_FLAG, False) and torch.is_grad_enabled():   # an integer x saying False
        flag_grad(r, carried=True)
    return r


scatter_add_ = scatter_add.inplace
index_add_ = index_add.inplace
_index_fill_write = index_fill.inplace


@functools.wraps(_index_fill_write)
def index_fill_(x, index, axis, value, name=None):
    """In-place :func:`index_fill`: writes into ``x`` and returns it.

    As Paddle, an empty ``index`` leaves ``x`` untouched, and a write counts three
    in ``inplace_version`` (Paddle runs it as transpose_, index_put_, transpose_).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 2])
        >>> _ = x.index_fill_(paddle.to_tensor([1]), 0, 5.0)
        >>> x.tolist(), x.inplace_version
        ([[0.0, 0.0], [5.0, 5.0]], 3)
    """
    if isinstance(index, Tensor) and 0 in index.shape:
        return x
    return counted_writes(x, _index_fill_write(x, index, axis, value, name), 3)


index_fill.inplace = index_fill_
Tensor.index_fill_ = index_fill_
index_put_ = index_put.inplace
masked_fill_ = masked_fill.inplace
masked_scatter_ = masked_scatter.inplace
put_along_axis_ = put_along_axis.inplace
