"""``Tensor.__getitem__`` / ``__setitem__`` and ``Tensor.set_value``.

Indices follow Paddle (which follows numpy/torch for combinations): ints, slices
with any step (negative too), ``...``, ``None``, bool masks, int lists/tensors
(advanced indexing; a ``range`` counts as its list) and 0-D int tensors. Both ops are records (``getitem``,
``setitem``) so the dispatcher sees them like any other op. ``setitem`` writes in
place into the torch tensor and torch.autograd tracks the write: assigned
values receive gradients and the overwritten entries of the target get none.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

import numpy as np
import torch

from pagaie._core.bad_input import type_name
from pagaie._core.parameter import Parameter
from pagaie._core.registry import defop
from pagaie._core.tensor import (Tensor, flag_grad, is_grad_leaf, is_leaf_view, next_data_number,
                                 write_leaf_view)
from pagaie._ops.indexing_scatter import cast_number, overflow
from pagaie._ops.manipulation import view_results

_T = torch.Tensor
_ELLIPSIS = type(Ellipsis)

__all__: list[str] = []


def _static_type(err: Exception, kind: type) -> Exception:
    """``err`` raised as ``kind`` while a program is built (Paddle's static index parser)."""
    err.static_type = kind
    return err


def _bad_type(item: Any, pos: int) -> ValueError:
    return _static_type(ValueError(
        "paddle.Tensor.__getitem__: indices must be ints, slices, Ellipsis, None, bool, or "
        f"lists/Tensors of ints or bools, but received {type_name(item)} at position {pos}"),
        IndexError)


def _bad_list(item: list, pos: int) -> ValueError:
    """A list index that makes no index tensor: Paddle's ValueError, and while a program is
    built the error of its static parser, which stacks the entries: RuntimeError for a None,
    slice or Ellipsis among them, TypeError for a string, ValueError for ragged ones."""
    if any(e is None or e is Ellipsis or type(e) is slice for e in item):
        kind = RuntimeError
    elif any(isinstance(e, str) for e in item):
        kind = TypeError
    else:
        kind = ValueError
    return _static_type(ValueError(
        "paddle.Tensor.__getitem__: a list index must hold ints, bools or integer Tensors of "
        f"one shape, but the one at position {pos} is {item!r:.60}"), kind)


def _as_index_tensor(item: Any, pos: int, device: torch.device, api: str = "__getitem__") -> _T:
    if isinstance(item, _T):
        t = item
    else:
        try:
            if isinstance(item, list) and any(isinstance(e, _T) for e in item):
                # ints beside Tensors: stacked where the Tensors are (a program's on ``meta``)
                on = next(e.device for e in item if isinstance(e, _T))
                t = torch.stack([torch.as_tensor(e, device=on) for e in item])
            else:
                t = torch.as_tensor(np.asarray(item))
        except (TypeError, ValueError, RuntimeError):
            raise (_bad_list(item, pos) if isinstance(item, list) else _bad_type(item, pos)) from None
    if t.dtype is torch.bool or t.dtype is torch.int64:
        pass
    elif t.dtype is torch.int32 or (t.numel() == 0 and t.dtype.is_floating_point):
        t = t.long()
    else:  # as Paddle: int8/int16/uint8 index tensors are refused too (a program's getitem
        # checks the dtype as it builds, TypeError; its setitem where it runs, ValueError)
        raise _static_type(ValueError(
            f"paddle.Tensor.{api}: an index tensor must hold int32, int64 or bool values, "
            f"but the one at position {pos} holds {str(t.dtype).replace('torch.', '')}"),
            TypeError if api == "__getitem__" else ValueError)
    return t if t.device == device else t.to(device)


def _as_int(v: Any) -> Any:
    """A slice bound as an int: a Tensor bound must hold one int32/int64 value (any shape,
    as Paddle's slice parser reads it), other kinds go through ``__index__``."""
    if v is None or type(v) is int:
        return v
    t = v._t if isinstance(v, Tensor) else v if isinstance(v, _T) else None
    if t is None:
        try:
            return operator.index(v)
        except TypeError:   # (a program's slice parser: TypeError)
            raise _static_type(ValueError(
                "paddle.Tensor.__getitem__: slice bounds must be int, None or an integer Tensor, "
                f"but received {type_name(v)}"), TypeError) from None
    if t.dtype is not torch.int64 and t.dtype is not torch.int32:
        raise _static_type(ValueError(
            "paddle.Tensor.__getitem__: a Tensor in slice indices must be int32 or int64, but "
            f"received {str(t.dtype).replace('torch.', '')}"), TypeError)
    if t.numel() != 1:
        raise ValueError("paddle.Tensor.__getitem__: a Tensor in slice indices must hold 1 "
                         f"element, but received {t.numel()}")
    return int(t.reshape(()).item())


def _too_many(x: _T, items: tuple, n_used: int, api: str) -> None:
    """Raise Paddle's error for an index with more entries than ``x`` has axes.

    As Paddle, which checks each int and bool mask where it stands before counting:
    an int (or 0-D int tensor) past the last axis or out of range, or a bool mask that
    does not fit, is an IndexError; otherwise (extra slices or int arrays) a ValueError.
    """
    shape, nd, dim = list(x.shape), x.dim(), 0
    for it in items:
        if it is None or isinstance(it, (bool, np.bool_)) or (
                isinstance(it, _T) and it.dtype is torch.bool and it.dim() == 0):
            continue
        if it is Ellipsis:
            dim += max(nd - n_used, 0)
            continue
        mask = _mask_shape(it)
        if mask is not None:
            if shape[dim:dim + len(mask)] != mask:
                raise IndexError(f"paddle.Tensor.{api}: the bool index of shape {mask} does not "
                                 f"match the indexed tensor of shape {shape} at axis {dim}")
            dim += len(mask)
            continue
        if isinstance(it, (int, np.integer)) or (isinstance(it, _T) and it.dim() == 0):
            i = int(it)
            size = shape[dim] if dim < nd else 0
            if not -size <= i < size:
                raise IndexError(f"paddle.Tensor.{api}: index {i} is out of bounds for axis "
                                 f"{dim} of a tensor of shape {shape}")
        dim += 1
    raise ValueError(f"paddle.Tensor.{api}: too many indices ({n_used}) for a tensor of rank "
                     f"{nd} (shape {shape})")


def _mask_shape(it: Any) -> list[int] | None:
    """The shape of a bool-mask index item, or None when ``it`` is not one."""
    if isinstance(it, _T) and it.dtype is torch.bool and it.dim():
        return list(it.shape)
    if isinstance(it, np.ndarray) and it.dtype == np.bool_ and it.ndim:
        return list(it.shape)
    if isinstance(it, list) and it and all(isinstance(e, (bool, np.bool_)) for e in it):
        return [len(it)]
    return None


def _normalize(x: _T, index: Any, api: str = "__getitem__") -> tuple[tuple, list[int], bool]:
    """Torch index for ``index`` on ``x``.

    Returns (index tuple, input axes to flip first, whether it is advanced). A
    slice with a negative step is rewritten as a positive one on ``x`` flipped
    along that axis. ``api`` (``__getitem__`` or ``__setitem__``) names the caller in errors.
    """
    items = index if type(index) is tuple else (index,)
    if any(type(it) is range for it in items):  # as Paddle: a range is its list of ints
        items = tuple(list(it) if type(it) is range else it for it in items)
    n_used = 0
    for pos, it in enumerate(items):
        if type(it) is np.bool_:   # as Paddle: a numpy bool is no index (a list of them is a mask)
            raise _bad_type(it, pos)
        if it is None or it is Ellipsis or type(it) is bool:
            continue
        if isinstance(it, _T) and it.dtype is torch.bool:
            n_used += max(it.dim(), 1) if it.dim() else 0
        elif isinstance(it, (np.ndarray,)) and it.dtype == np.bool_:
            n_used += it.ndim
        elif isinstance(it, list) and it and all(isinstance(e, (bool, np.bool_)) for e in it):
            n_used += 1
        else:
            n_used += 1
    nd = x.dim()
    if n_used > nd:
        _too_many(x, items, n_used, api)
    out: list = []
    flips: list[int] = []
    advanced = False
    dim = 0
    seen_ellipsis = False
    for pos, it in enumerate(items):
        if it is None:
            out.append(None)
        elif it is Ellipsis:
            if seen_ellipsis:
                raise _static_type(ValueError(f"paddle.Tensor.{api}: an index can only have a "
                                          "single ellipsis ('...')"), IndexError)
            seen_ellipsis = True
            out.append(Ellipsis)
            dim += nd - n_used
        elif isinstance(it, slice):
            size = x.shape[dim]
            step = 1 if it.step is None else _as_int(it.step)
            if step == 0:
                raise ValueError(f"paddle.Tensor.{api}: slice step cannot be zero")
            start, stop = _as_int(it.start), _as_int(it.stop)
            if step > 0:
                out.append(slice(start, stop, step))
            else:
                s, e, k = slice(start, stop, step).indices(size)
                # position p in x is size-1-p in the flipped x
                out.append(slice(size - 1 - s, size - 1 - e, -k))
                flips.append(dim)
            dim += 1
        elif type(it) is bool:
            out.append(it)
            advanced = True
        elif isinstance(it, (int, np.integer)) or (isinstance(it, _T) and it.dim() == 0 and (
                it.dtype is torch.int64 or it.dtype is torch.int32)):
            # (a 0-D tensor of another dtype is refused by _as_index_tensor, as in Paddle)
            i = int(it)
            size = x.shape[dim]
            if not -size <= i < size:   # (a program's slice op refuses a negative one: ValueError)
                raise _static_type(IndexError(
                    f"paddle.Tensor.{api}: index {i} is out of bounds for axis {dim} with size "
                    f"{size} (expected [{-size}, {size}))"), ValueError if i < 0 else IndexError)
            out.append(i)
            dim += 1
        elif type(it) is list and it and all(type(e) is int for e in it):
            size = x.shape[dim]
            lo, hi = min(it), max(it)
            if hi >= size or lo < -size:
                raise IndexError(f"paddle.Tensor.{api}: index {hi if hi >= size else lo} is out of "
                                 f"bounds for axis {dim} with size {size}")
            out.append(torch.tensor(it, dtype=torch.int64, device=x.device))
            advanced = True
            dim += 1
        elif isinstance(it, (_T, list, tuple, np.ndarray)):
            t = _as_index_tensor(it, pos, x.device, api)
            advanced = True
            if t.dtype is torch.bool:
                dim += t.dim()
            else:
                if t.numel():
                    size = x.shape[dim]
                    lo, hi = int(t.min()), int(t.max())
                    if hi >= size or lo < -size:
                        raise IndexError(f"paddle.Tensor.{api}: index {hi if hi >= size else lo} "
                                         f"is out of bounds for axis {dim} with size {size}")
                dim += 1
            out.append(t)
        else:
            raise _bad_type(it, pos)
    return tuple(out), flips, advanced


_int, _slice_t, _tuple = int, slice, tuple


def _is_basic(x: _T, index: Any) -> bool:
    """Whether ``index`` is plain ints (in range), positive-step int slices and None:
    the common case torch handles exactly as Paddle does."""
    shape = x.shape
    nd = len(shape)
    d = 0
    for it in (index if type(index) is _tuple else (index,)):
        tp = type(it)
        if tp is _slice_t:
            st = it.step
            if d >= nd or not (st is None or (type(st) is _int and st > 0)) or \
                    not (it.start is None or type(it.start) is _int) or \
                    not (it.stop is None or type(it.stop) is _int):
                return False
            d += 1
        elif tp is _int:
            if d >= nd or not -shape[d] <= it < shape[d]:
                return False
            d += 1
        elif it is not None:
            return False
    return True


def _name_temporaries(index: Any) -> None:
    """Take the data numbers Paddle's indexing gives the tensors it makes from an index's
    lists, tuples, ranges and numpy arrays (one each), so that the ``generated_tensor_N``
    names of later tensors follow Paddle's."""
    for it in (index if type(index) is tuple else (index,)):
        if type(it) is list or type(it) is tuple or type(it) is range or isinstance(it, np.ndarray):
            next_data_number()


# Stand-ins for the sizes a program does not know (the count of a bool mask's True entries,
# an unknown input size), two of them: an output size that differs between the two runs
# follows them and is unknown (-1).
_STAND_INS = (9973, 10007)
# The most entries a stand-in index tensor may hold (an index with several unknown sizes)
_MAX_STAND_IN = 1 << 20


def _is_mask(it: Any) -> bool:
    if isinstance(it, Tensor):
        return it._t.dtype is torch.bool
    if type(it) is list:   # nested too: a list of lists of bools is a mask
        try:
            return np.asarray(it).dtype == np.bool_
        except ValueError:   # ragged
            return False
    return type(it) is bool or (isinstance(it, np.ndarray) and it.dtype == np.bool_)


def _stand_in(it: Any, n: int) -> Any:
    """An index item of a program with data made up for it: a Tensor (a program Value) as
    zeros of its shape, its unknown sizes at ``n``; other items as they are."""
    if not isinstance(it, Tensor):
        return it
    shape = [n if d < 0 else d for d in it.shape]
    if np.prod(shape) > _MAX_STAND_IN:
        raise ValueError("paddle.Tensor.__getitem__: index too large to infer a shape from")
    return torch.zeros(shape, dtype=it._t.dtype)


def _axes_used(it: Any) -> int | None:
    """How many axes of the indexed tensor index item ``it`` reads (None for an Ellipsis)."""
    if it is Ellipsis:
        return None
    if it is None or type(it) is bool:
        return 0
    if _is_mask(it):
        return it._t.dim() if isinstance(it, Tensor) else np.asarray(it).ndim
    return 1


def _value_bound(it: Any) -> bool:
    return type(it) is slice and any(isinstance(b, Tensor) for b in (it.start, it.stop, it.step))


def _masked_shape(x: Tensor, items: tuple, n: int, count: int) -> list[int]:
    """The output shape of ``x[items]`` with each bool mask holding ``count`` True entries
    (a Python bool too, on its new axis), ``x``'s unknown sizes at ``n``, and the axes sliced
    by bounds a program computes (Tensors) whole, at size ``n``."""
    size = [n if d < 0 else d for d in x.shape]
    used = [_axes_used(it) for it in items]
    d = 0
    for it, k in zip(items, used):
        if k is None:
            d += len(size) - sum(u for u in used if u is not None)
        else:
            if _value_bound(it):
                size[d] = n
            d += k
    items = tuple(slice(None) if _value_bound(it) else it for it in items)
    base = torch.zeros((), dtype=x._t.dtype).expand(size)   # no memory: only read for checks
    idx, _, _ = _normalize(base, tuple(_stand_in(it, n) for it in items))
    picks = torch.empty(count, dtype=torch.int64, device="meta")
    used = sum(0 if it is None or type(it) is bool else
               it.dim() if isinstance(it, _T) and it.dtype is torch.bool else 1
               for it in idx if it is not Ellipsis)
    view = torch.empty(size, dtype=x._t.dtype, device="meta")
    out: list = []
    d = 0
    for it in idx:
        if it is Ellipsis:
            out.extend([slice(None)] * (len(size) - used))
            d += len(size) - used
        elif it is None:
            out.append(None)
        elif type(it) is bool or (isinstance(it, _T) and it.dtype is torch.bool and it.dim() == 0):
            view = view.unsqueeze(d)   # the mask's own new axis
            out.append(picks)
            d += 1
        elif isinstance(it, _T) and it.dtype is torch.bool:
            out.extend([picks] * it.dim())
            d += it.dim()
        else:
            out.append(it.to("meta") if isinstance(it, _T) else it)
            d += 1
    return list(view[tuple(out)].shape)


def _getitem_static_shape(x: Tensor, index: Any) -> list[int] | None:
    """Static rule of ``x[index]`` with a bool mask or a slice bounded by Tensors: Paddle's
    programs select the masked entries by their positions (``nonzero``), so their count is
    unknown (-1) even for a constant mask (a Python bool, a list or array of bools), and it
    broadcasts with the other advanced indices (a known size there wins); a slice whose bounds
    the program computes has an unknown length. None (the shape as inferred) otherwise."""
    items = index if type(index) is tuple else (index,)
    if not any(_is_mask(it) or _value_bound(it) for it in items):
        return None
    for count in (None, 1):   # the count unknown, else (broadcast with a known size) one
        try:
            a, b = (_masked_shape(x, items, n, n if count is None else count) for n in _STAND_INS)
        except (IndexError, RuntimeError):
            continue
        return [d if d == e else -1 for d, e in zip(a, b)]
    return None


def _numpy_scalars_check(api: str) -> Callable[..., None]:
    """Static check of ``x[index]`` / ``x[index] = value``: Paddle's static index parser takes
    Python ints only, so a numpy integer scalar (which eager indexing reads as its int) is its
    IndexError while a program is built."""
    def check(x: Any, index: Any, *value: Any) -> None:
        for it in (index if type(index) is tuple else (index,)):
            if isinstance(it, np.integer):
                raise IndexError(f"paddle.Tensor.{api}: a program's index takes Python ints, "
                                 f"but received the numpy scalar {it!r} (use int() on it)")
    return check


@defop("getitem", method=False, paddle_types=(), static_shape=_getitem_static_shape,
       static_shape_first="always", static_check=_numpy_scalars_check("__getitem__"))
@view_results
def getitem(x, index):
    """``x[index]``: basic and advanced indexing with Paddle's rules.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(12).reshape([3, 4])
        >>> x[1:, ::-2].tolist()
        [[7, 5], [11, 9]]
        >>> x[x > 9].tolist()
        [10, 11]
    """
    if type(index) is _int:
        if x.dim() and -x.shape[0] <= index < x.shape[0]:
            return x[index]
    elif _is_basic(x, index):
        return x[index]
    _name_temporaries(index)
    idx, flips, _ = _normalize(x, index)
    if flips:
        x = x.flip(flips)
    try:
        return x[idx]
    except IndexError as exc:
        raise _mismatch("__getitem__", exc) from None


def _mismatch(api: str, exc: IndexError) -> Exception:
    """Advanced indices whose shapes do not broadcast: Paddle's ValueError."""
    text = str(exc)
    if "shape mismatch" not in text:
        return exc
    shapes = text.split("shapes", 1)[-1].strip()
    return ValueError(f"paddle.Tensor.{api}: the advanced indices cannot be broadcast together "
                      f"(their shapes are {shapes})")



# The tensor dtypes Paddle's __setitem__ writes a numpy array into (ValueError for the others)
_NUMPY_VALUE_DTYPES = frozenset((torch.bool, torch.int32, torch.int64, torch.float32, torch.float64,
                                 torch.complex64, torch.complex128))


def _value_for(x: _T, index: Any, value: Any) -> Any:
    tp = type(value)
    if tp is float or tp is int or tp is bool:
        return value
    if isinstance(value, _T):
        return value if value.dtype is x.dtype else value.to(x.dtype)
    if isinstance(value, (int, float, complex)) and not isinstance(value, np.generic) or \
            isinstance(value, (np.float64, np.complex128)):
        # (np.float64 and np.complex128 are Python float/complex subclasses, which Paddle takes)
        return value
    # As Paddle: the index is read (and its errors raised) before the value is
    _normalize(x, index, "__setitem__")
    if not isinstance(value, np.ndarray):
        # numpy scalars (np.float32, np.int64, np.bool_...) included, as Paddle refuses them
        raise ValueError("paddle.Tensor.__setitem__: the value must be a Tensor, numpy.ndarray, "
                         f"int, float, complex or bool, but received {type_name(value)}")
    if x.dtype not in _NUMPY_VALUE_DTYPES:
        raise ValueError("paddle.Tensor.__setitem__: a numpy.ndarray value can only be written into "
                         "a tensor of dtype bool, int32, int64, float32, float64, complex64 or "
                         f"complex128, but the tensor is {str(x.dtype).replace('torch.', '')} "
                         "(convert the value with paddle.to_tensor first)")
    try:
        return torch.as_tensor(value, device=x.device).to(x.dtype)
    except (TypeError, ValueError, RuntimeError):
        raise ValueError(f"paddle.Tensor.__setitem__: the value must be a Tensor, a number or "
                         f"array-like, but received a numpy.ndarray of dtype {value.dtype}") from None


@defop("setitem", method=False, paddle_types=("set_value", "set_value_with_tensor", "pd_op.set_value",
                                              "pd_op.set_value_with_tensor"),
       static_check=_numpy_scalars_check("__setitem__"))
def setitem(x, index, value):
    """``x[index] = value`` written in place (value broadcast and cast to ``x``'s dtype).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 3])
        >>> x[:, 1] = 5.0
        >>> x.tolist()
        [[0.0, 5.0, 0.0], [0.0, 5.0, 0.0]]
    """
    if is_grad_leaf(x) and torch.is_grad_enabled():   # under no_grad: a manual update, allowed
        raise ValueError("paddle.Tensor.__setitem__: Leaf Tensor that doesn't stop gradient can't "
                         "use inplace strategy (set stop_gradient=True first, or write into a copy)")
    _name_temporaries(index)
    if isinstance(value, np.ndarray):
        next_data_number()
    v = _value_for(x, index, value)
    try:
        _write(x, index, v)
    except (RuntimeError, ValueError, OverflowError) as exc:   # torch's kinds, by path
        if not overflow(exc, v):
            raise
        _write(x, index, cast_number(v, x.dtype, x.device))
    if isinstance(value, _T) and value.requires_grad and not (x.is_floating_point() or x.is_complex()) \
            and torch.is_grad_enabled():
        flag_grad(x, carried=True)   # as Paddle: an int x written from a value needing gradients
    return x


def _check_value_shape(v: _T, target: list[int]) -> None:
    """Paddle's ValueError for a value that does not broadcast to the indexed part of x."""
    try:
        fits = list(torch.broadcast_shapes(v.shape, target)) == target
    except RuntimeError:
        fits = False
    if not fits:
        raise ValueError(f"paddle.Tensor.__setitem__: the value of shape {list(v.shape)} cannot "
                         f"be broadcast to the target shape {target}") from None


def _write(x: _T, index: Any, v: Any) -> _T:
    """``x[index] = v`` with Paddle's rules (``v`` a number, or a tensor of ``x``'s dtype)."""
    if isinstance(v, _T) and not v.is_meta and v.device == x.device and \
            v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr():
        v = v.clone()   # a view of x (``x[1:] = x[:-1]``): Paddle reads the value first
    if _is_basic(x, index):
        try:
            x[index] = v
        except RuntimeError:
            if isinstance(v, _T):
                _check_value_shape(v, list(x[index].shape))
            raise
        return x
    idx, flips, advanced = _normalize(x, index, "__setitem__")
    if index is False or (advanced and isinstance(v, _T) and v.numel() == 0):
        # As Paddle: ``x[False] = v``, or an empty value through advanced indices, writes
        # nothing and leaves the tensor's inplace_version where it was.
        return x
    tracked = isinstance(v, _T) and v.requires_grad and not v.is_meta
    if isinstance(v, _T) and v.device != x.device:
        v = v.to(x.device)
    if not (flips or tracked):
        try:
            x[idx] = v
        except IndexError as exc:
            raise _mismatch("__setitem__", exc) from None
        except RuntimeError:
            if isinstance(v, _T):
                _check_value_shape(v, list(x[idx].shape))
            raise
        return x
    # Negative steps, or a value that needs gradient: address the elements through their
    # coordinates in x. Where the index repeats a cell, the last value written wins (as in
    # Paddle) and only that value receives the cell's gradient: each cell counts once.
    ids = torch.arange(x.numel(), device=x.device).reshape(x.shape)
    try:
        ids = (ids.flip(flips) if flips else ids)[idx]
    except IndexError as exc:
        raise _mismatch("__setitem__", exc) from None
    flat = ids.reshape(-1)
    keep = None
    if tracked:
        cells, which = torch.unique(flat, return_inverse=True)
        if cells.numel() < flat.numel():
            pos = torch.arange(flat.numel(), device=flat.device)
            keep = torch.full_like(cells, -1).scatter_reduce_(0, which, pos, "amax")
            flat = flat[keep]
    coords = torch.unravel_index(flat, x.shape)
    if isinstance(v, _T):
        _check_value_shape(v, list(ids.shape))
        v = v.expand(ids.shape)
        v = v.reshape(-1) if keep is None else v.reshape(-1)[keep]
    x[coords] = v
    return x


def _setitem_method(self: Tensor, index: Any, value: Any) -> None:
    if is_leaf_view(self._t):
        # ``y = x[0]; y[1] = v`` with ``x`` a leaf that needs gradients: Paddle writes ``x``'s
        # memory and ``y`` takes the write as its history (``x`` stays the same leaf)
        write_leaf_view(self, lambda c: setitem(c, index, value))
    else:
        setitem(self, index, value)


_setitem_method.__name__ = _setitem_method.__qualname__ = "__setitem__"
_setitem_method.__doc__ = setitem.__doc__
Tensor.__getitem__ = getitem
Tensor.__setitem__ = _setitem_method


def set_value(self: Tensor, value: Any) -> None:
    """Replace the values of this tensor with ``value`` (same shape and dtype), outside autograd
    and without counting in ``inplace_version``.

    Args:
        value (Tensor|numpy.ndarray): the new values; a uint16 array holds bfloat16 bit
            patterns (what ``numpy()`` gives for a bfloat16 tensor), as in Paddle.

    Returns:
        None, as in Paddle.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2])
        >>> x.set_value(paddle.to_tensor([1.0, 2.0]))
        >>> x.tolist()
        [1.0, 2.0]
    """
    t = self._t
    if not isinstance(value, (Tensor, np.ndarray)):
        raise AssertionError("paddle.Tensor.set_value: arguments type only support Tensor and "
                             f"numpy.ndarray, but received {type(value).__name__}")
    if isinstance(value, Tensor):
        src = value._t
    elif value.dtype == np.uint16:   # bfloat16 bit patterns
        src = torch.from_numpy(np.require(value, requirements="C").view(np.int16)).view(torch.bfloat16)
    else:
        src = torch.from_numpy(np.require(value, requirements="C"))
    if list(src.shape) != list(t.shape):
        raise AssertionError(f"paddle.Tensor.set_value: the value's shape {list(src.shape)} must "
                             f"equal the shape {list(t.shape)} of tensor '{self.name}'")
    if src.dtype is not t.dtype:
        raise AssertionError(f"paddle.Tensor.set_value: the value's dtype "
                             f"{str(src.dtype).replace('torch.', '')} must equal the dtype "
                             f"{str(t.dtype).replace('torch.', '')} of tensor '{self.name}'")
    # ``.data``: as Paddle's, the write counts in no inplace_version (of this tensor or of a
    # tensor it views), and a backward that saved this tensor reads the new values
    t.data.copy_(src.to(device=t.device, dtype=t.dtype))
    if isinstance(self, Parameter):
        self._note_write()   # a parameter made under LazyGuard now holds values


Tensor.set_value = set_value
