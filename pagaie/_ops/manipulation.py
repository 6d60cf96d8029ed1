"""Shape and layout ops: reshape, view, squeeze, transpose, expand, tile, flip, cast...

Joining and splitting (concat, stack, split...) live in ``manipulation_join``;
``Tensor``-only helpers (``T``, ``detach``, ``copy_``...) in ``manipulation_tensor``.
"""
from __future__ import annotations

import functools
import numbers
import operator
from typing import Any, Callable

import numpy as np
import torch

from pagaie._core.broadcast import broadcast_shapes as _broadcast_shapes
from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, REGISTRY, STATE, OpRecord, defop, inplace_not_tensor
from pagaie._core.tensor import Tensor, check_inplace
from pagaie._core.bad_input import type_name
from pagaie._ops._helpers import axis_arg, dense_only, device, int_array_as_list, int_entries, kernel_dtypes, int_list, norm_axis, norm_axes, shape_arg as _shape, write_out
from pagaie._ops._helpers import (ALL_DTYPES, LOW_FLOATS, SMALL_INTS, AssertionValueError, no_grad_kernel,
                                  program_constant)

_T = torch.Tensor


_grad_on = torch.is_grad_enabled


def view_results(kernel: Callable) -> Callable:
    """Mark the kernel of an op whose result is a view of its input: made under ``no_grad``,
    such a view of a tensor that needs gradients says ``stop_gradient=True``, as Paddle's
    (torch's views keep ``requires_grad``). The registry's generated API applies that to the
    single result inline (a wrapper here would cost every reshape and ``x[i]`` a call); the
    detached view still shares the input's memory and ``inplace_version``."""
    kernel.returns_views = True
    return kernel


def view_pieces(kernel: Callable) -> Callable:
    """As :func:`view_results`, for a kernel returning a list of views (``unbind``, ``split``)."""
    @functools.wraps(kernel)
    def k(*args: Any, **kwargs: Any) -> Any:
        r = kernel(*args, **kwargs)
        if not _grad_on():
            return [e.detach() if type(e) is _T else e for e in r]
        return r
    return k


__all__ = ["reshape", "reshape_", "view", "view_as", "flatten", "flatten_", "ravel", "unflatten",
           "squeeze", "squeeze_", "unsqueeze", "unsqueeze_", "transpose", "transpose_", "permute",
           "swapaxes", "swapdims", "moveaxis", "t", "t_", "matrix_transpose", "expand", "expand_as",
           "broadcast_to", "broadcast_tensors", "broadcast_shape", "broadcast_shapes", "tile",
           "repeat_interleave", "flip", "reverse", "roll", "rot90", "cast", "cast_", "as_complex",
           "as_real", "view_as_complex", "view_as_real", "as_strided", "numel", "rank", "shape",
           "tolist", "check_shape"]


def rebinding_inplace(base: Callable, name: str, check: Callable | None = None) -> Callable:
    """In-place variant of an op that changes shape or dtype.

    The tensor object keeps its identity and takes the out-of-place result (the
    registry's generic in-place path requires the shape to stay the same). ``check(x)``, when
    given, refuses inputs the in-place form does not take although the function does. While a
    program is recorded, the call is the out-of-place op (Paddle's programs: ``x`` keeps its
    shape and the result is a new value).
    """
    brec = base.op_record
    rec = OpRecord(name, brec.kernel, brec.amp, (), None, brec.differentiable, inplace_of=brec.name)
    REGISTRY[name] = rec
    first = next(iter(brec.signature.parameters))

    @functools.wraps(base)
    def api(*args, **kwargs):
        if STATE.recording:   # a program value cannot change its shape: the result is new
            return base(*args, **kwargs)
        x = args[0] if args else kwargs[first]
        if not isinstance(x, Tensor):
            raise inplace_not_tensor(name, brec.name, first, x)
        if check is not None:
            check(x)
        check_inplace(x, name, brec.name)
        t = x._t
        r = base(*args, **kwargs)._t
        if t.is_leaf and t.requires_grad and not torch.is_grad_enabled():
            t.data = r   # a manual update under no_grad: x stays the same gradient leaf
            x._version_bias += 1
        else:
            # Counted on x's own version counter, as Paddle's: a tensor x views and the other
            # views of it count the write too, and a backward that saved x before this write
            # raises (the new x only views or copies it, so its own backward does not need the
            # old version).
            torch.autograd.graph.increment_version(t)
            x._rebind(r, bump=0)  # the bump above is this op's count
        return x

    api.__name__ = api.__qualname__ = name
    api.op_record = rec
    base.inplace = api
    setattr(Tensor, name, api)
    return api


# ---- reshape family -------------------------------------------------------------------
def check_int_array(shape: Any, api: str, exc: type = OSError) -> None:
    """A shape given as one Tensor must be int32/int64: Paddle's IntArray reader raises its
    data-type error (an OSError) for any other dtype (``paddle.view``: a ValueError)."""
    if isinstance(shape, _T) and shape.dtype not in (torch.int32, torch.int64):
        raise exc(f"paddle.{api}: a Tensor 'shape' must be int32 or int64, but received "
                  f"{str(shape.dtype).replace('torch.', '')}")


def check_int_entries(v: Any, api: str, arg: str) -> None:
    """Paddle's "list of int" argument parser rejects a floating tensor inside a list or tuple
    (reshape, split, unsqueeze...) with a TypeError, where a bool or integer one is read as
    its integer value."""
    if type(v) is list or type(v) is tuple:
        for i, e in enumerate(v):
            if isinstance(e, _T) and (e.is_floating_point() or e.is_complex()):
                raise TypeError(f"paddle.{api}: '{arg}' must be a list of int, but the tensor at "
                                f"position {i} has dtype {_dt.from_torch_dtype(e.dtype).name}")


def _dims_of(x: Any) -> list[int]:
    """``x``'s sizes with -1 for the unknown ones (a symbolic value's), for the static rules."""
    known = getattr(x, "_known_dims", None)
    return known() if known is not None else list(x.shape)


def _entries(shape: Any) -> list | None:
    """The sizes a shape argument asks for, None for each one a symbolic value gives; None
    when even their count is unknown."""
    if isinstance(shape, Tensor):
        if not shape._t.is_meta:
            return [int(v) for v in shape._t.reshape(-1).tolist()]
        n = _dims_of(shape)
        return None if len(n) != 1 or n[0] < 0 else [None] * n[0]
    return [_entry(e) if isinstance(e, Tensor) else int(e) for e in shape]


def _entry(e: Tensor) -> int | None:
    """A size one Tensor entry of a shape list gives: None when a program reads it only when
    it runs (a 0-D constant of ``full`` is known when the program is built, as in Paddle)."""
    if not e._t.is_meta:
        return int(e._t.item())
    c = program_constant(e) if e._t.dim() == 0 else None
    return None if c is None else int(c)


def _reshape_static_shape(x, shape, name=None) -> list[int] | None:
    """Static rule (see ``Recorder``) for a shape holding symbolic values, or an ``x`` of
    unknown sizes that no placeholder fits (``[-1, -1]`` to ``[6, 4]``): a 0 copies x's size,
    the sizes read from the values are -1 (and so is a -1: as Paddle records them)."""
    xs, asked = _dims_of(x), _entries(shape)
    if asked is None or (None not in asked and -1 not in xs):   # all known: the kernel's own
        return None                                              # error stands
    return [-1 if d is None else xs[i] if d == 0 and i < len(xs) else d for i, d in enumerate(asked)]


def _expand_static_shape(x, shape, name=None) -> list[int] | None:
    """Static rule of expand/broadcast_to: a -1 keeps x's (aligned) size, sizes read from
    symbolic values are -1."""
    xs, asked = _dims_of(x), _entries(shape)
    if asked is None or None not in asked or len(asked) < len(xs):
        return None
    off = len(asked) - len(xs)
    return [-1 if d is None else xs[i - off] if d == -1 and i >= off else d for i, d in enumerate(asked)]


@defop(paddle_types=("reshape2", "reshape", "pd_op.reshape"), static_shape=_reshape_static_shape,
       static_shape_first=True)
@view_results
def reshape(x, shape, name=None):
    """Give ``x`` a new shape with the same number of elements.

    A ``0`` in ``shape`` copies the size of that dimension from ``x``; one ``-1`` is
    inferred from the others.

    Args:
        x (Tensor): the input.
        shape (list|tuple|Tensor): the new shape (ints or 0-D int tensors, or a 1-D int tensor).
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: ``x`` with the new shape.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(6)
        >>> paddle.reshape(x, [2, -1]).shape
        paddle.Size([2, 3])
        >>> paddle.reshape(x.reshape([2, 3]), [0, 3, 1]).shape
        paddle.Size([2, 3, 1])
    """
    r = _reshape(x, shape)
    return r.clone() if x.dim() == 0 and r.dim() else r  # Paddle copies a 0-D input


def _reshape(x: _T, shape: Any) -> _T:
    if (type(shape) is list or type(shape) is tuple) and 0 not in shape:
        try:
            return x.reshape(shape)
        except (RuntimeError, TypeError):
            pass  # the checked path below gives Paddle's error
    if not isinstance(shape, (list, tuple, _T, int)):
        err = ValueError(f"paddle.reshape: 'shape' must be a list, tuple or Tensor, but received "
                         f"{type(shape).__name__}")
        err.static_type = TypeError   # Paddle's static API checks the type first
        raise err
    check_int_array(shape, "reshape")
    check_int_entries(shape, "reshape", "shape")
    s = _shape(shape, "reshape", allow_bool=True)
    given = s
    if 0 in s and x.numel() == 0:
        return x.reshape(_empty_shape(list(x.shape), list(s)))
    if 0 in s:
        xs = x.shape
        s = [xs[i] if d == 0 and i < len(xs) else d for i, d in enumerate(s)]
    try:
        return x.reshape(s)
    except RuntimeError:
        dense_only("reshape", x)
        if x.numel() == 0 and -1 not in given:  # an empty input: a 0 may mean a literal 0
            try:
                return x.reshape(given)
            except RuntimeError:
                pass
        # (Paddle's static API asserts a single -1: AssertionError there, ValueError eagerly)
        error = AssertionValueError if s.count(-1) > 1 else ValueError
        raise error(f"paddle.reshape: the input of shape {list(x.shape)} ({x.numel()} elements) "
                    f"cannot be reshaped to {s}") from None


def _empty_shape(xs: list, s: list) -> list:
    """Paddle's reshape of a 0-size input to a shape holding a 0: each 0 is a literal 0 (not
    a copy of ``x``'s size there); a -1 then needs as many 0s as ``x`` has and takes the
    product of ``x``'s non-zero sizes over that of the other non-zero entries."""
    if -1 not in s:
        return s
    rest_in = rest_out = 1
    for d in xs:
        rest_in *= d or 1
    for d in s:
        rest_out *= d if d > 0 else 1
    if s.count(0) != xs.count(0) or rest_in % rest_out:
        raise ValueError(f"paddle.reshape: the input of shape {xs} (0 elements) cannot be "
                         f"reshaped to {s}: the -1 is ambiguous or does not divide evenly")
    return [rest_in // rest_out if d == -1 else d for d in s]


_reshape_rebind = rebinding_inplace(reshape, "reshape_")


@functools.wraps(_reshape_rebind)
def reshape_(x, shape, name=None):
    # As Paddle: a list/tuple equal to x's shape leaves x as it is (no inplace_version bump)
    if isinstance(shape, (list, tuple)) and not isinstance(x, Tensor):   # (it reads x.shape)
        raise AttributeError(f"paddle.reshape_: 'x' must be a Tensor, but received "
                             f"{type_name(x)}")
    if isinstance(shape, (list, tuple)):
        given = [int(v.item()) if isinstance(v, Tensor) else v for v in shape]
        if given == list(x.shape):
            return x
    return _reshape_rebind(x, shape, name)


reshape.inplace = reshape_
Tensor.reshape_ = reshape_
_reshape_op = reshape


_ABSENT = object()


@functools.wraps(_reshape_op)
def reshape(x: Any = _ABSENT, shape: Any = _ABSENT, name: Any = None, **kwargs: Any) -> Any:
    if not kwargs and shape is not _ABSENT and x is not _ABSENT:
        # As Paddle's eager reshape: a list/tuple equal to x's shape returns x itself
        if type(shape) is list or type(shape) is tuple:
            try:
                t = x._t
                if t.shape == tuple(shape) and not t.is_meta and isinstance(x, Tensor):
                    return x
            except Exception:  # noqa: BLE001 - odd arguments: the op's own checks report them
                pass
        return _reshape_op(x, shape, name)
    if x is not _ABSENT:
        kwargs["x"] = x
    if shape is not _ABSENT:
        kwargs["shape"] = shape
    return _reshape_op(name=name, **kwargs)


Tensor.reshape = reshape


@defop(paddle_types=("view_shape", "view_dtype"), int_results=True, dygraph_only=True)
@view_results
def view(x, shape_or_dtype, name=None):
    """A view of ``x`` with another shape, or with another dtype of the same bits.

    Args:
        x (Tensor): the input.
        shape_or_dtype (list|tuple|str|paddle.dtype): the new shape (``-1`` inferred)
            or the dtype to reinterpret the data as.

    Returns:
        Tensor: a view sharing ``x``'s memory.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.view(paddle.arange(6), [3, 2]).shape
        paddle.Size([3, 2])
    """
    if isinstance(shape_or_dtype, int) and not isinstance(shape_or_dtype, bool):
        shape_or_dtype = [shape_or_dtype]  # x.view(-1), as in Paddle 3
    if isinstance(shape_or_dtype, (list, tuple, _T)) and not isinstance(shape_or_dtype, str):
        check_int_array(shape_or_dtype, "view", ValueError)
        s = int_list(shape_or_dtype)
        if 0 in s and x.numel():  # unlike reshape, a 0 is a literal size 0
            raise RuntimeError(f"paddle.view: a tensor of {x.numel()} elements cannot be viewed "
                               f"as {s}, which holds no element")
        try:
            return x.view(s)
        except RuntimeError:
            raise ValueError(f"paddle.view: a tensor of shape {list(x.shape)} and strides "
                             f"{list(x.stride())} cannot be viewed as {s}; use reshape") from None
    return x.view(_dt.to_torch_dtype(shape_or_dtype, "paddle.view"))


_view_op = view


@functools.wraps(_view_op)
def view(x: Any = _ABSENT, shape_or_dtype: Any = _ABSENT, name: Any = None, **kwargs: Any) -> Any:
    # Paddle's PyTorch-style spellings: view(dtype=...), view(size=[...])
    for alias in ("dtype", "size"):
        if alias in kwargs and shape_or_dtype is _ABSENT:
            shape_or_dtype = kwargs.pop(alias)
    if x is _ABSENT and "x" in kwargs:
        x = kwargs.pop("x")
    if kwargs or x is _ABSENT or shape_or_dtype is _ABSENT:
        raise TypeError(f"paddle.view() takes 'x' and 'shape_or_dtype' (or 'dtype'/'size'), but "
                        f"received keywords {sorted(kwargs)}")
    # As Paddle: viewing as x's own dtype returns x itself
    if isinstance(x, Tensor) and not isinstance(shape_or_dtype, (list, tuple, int, Tensor)):
        try:
            if _dt.to_torch_dtype(shape_or_dtype, "paddle.view") is x._t.dtype:
                return x
        except (TypeError, ValueError):
            pass  # the op reports the bad dtype
    return _view_op(x, shape_or_dtype, name)


@defop(dygraph_only=True)
@view_results
def view_as(x, other, name=None):
    """A view of ``x`` with the shape of ``other``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.view_as(paddle.arange(6), paddle.ones([2, 3])).shape
        paddle.Size([2, 3])
    """
    return x.view(other.shape)


@defop(paddle_types=("flatten_contiguous_range", "pd_op.flatten"))
@view_results
def flatten(x, start_axis=0, stop_axis=-1, name=None):
    """Merge the axes ``start_axis`` .. ``stop_axis`` into one.

    Args:
        x (Tensor): the input (a 0-D tensor becomes shape ``[1]``).
        start_axis (int, optional): first axis to merge. Default 0.
        stop_axis (int, optional): last axis to merge. Default -1.

    Returns:
        Tensor: the flattened tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.flatten(paddle.ones([2, 3, 4]), 1, 2).shape
        paddle.Size([2, 12])
    """
    nd = x.dim()
    # Paddle: a non-int or out-of-range axis is a ValueError (a bool a TypeError)
    for v, arg in ((start_axis, "start_axis"), (stop_axis, "stop_axis")):
        if isinstance(v, bool):
            raise TypeError(f"paddle.flatten: '{arg}' must be an int, but received {v!r}")
        if isinstance(v, _T):
            raise ValueError(f"paddle.flatten: '{arg}' must be an int, but received a Tensor")
    s = axis_arg(start_axis, nd, "flatten", "start_axis", bad=ValueError)
    e = axis_arg(stop_axis, nd, "flatten", "stop_axis", bad=ValueError)
    if nd == 0:
        return x.reshape([1]).clone()  # Paddle copies a 0-D input
    if s > e:
        raise ValueError(f"paddle.flatten: 'stop_axis' ({stop_axis}) must not be before "
                         f"'start_axis' ({start_axis})")
    return torch.flatten(x, s, e)


def _not_0d(x: Any) -> None:
    # Paddle's flatten_ has no 0-D case (flatten makes it shape [1]): no axis is in range
    if x.ndim == 0:
        raise ValueError("paddle.flatten_: 'start_axis' must be in range [-rank(x), rank(x)), "
                         "but x is 0-D; use paddle.flatten, which gives shape [1]")


flatten_ = rebinding_inplace(flatten, "flatten_", _not_0d)


@defop()
@view_results
def ravel(input):
    """The elements of ``input`` as a 1-D tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ravel(paddle.ones([2, 3])).shape
        paddle.Size([6])
    """
    return input.reshape(-1) if input.dim() else input.reshape(1).clone()  # 0-D: a copy, as Paddle


def _unflatten_static_shape(x, axis, shape, name=None) -> list[int] | None:
    """Static rule of unflatten for a shape holding symbolic values: Paddle records every
    size of the result as unknown (-1). Of an unknown size split by known ones, the result
    has the asked sizes there (a -1 among them stays unknown) and x's sizes elsewhere."""
    asked = _entries(shape) if isinstance(shape, (list, tuple, Tensor)) else None
    if asked is None:
        return None
    dims = _dims_of(x)
    if None in asked:
        return [-1] * (len(dims) - 1 + len(asked))
    if type(axis) is not int or not -len(dims) <= axis < len(dims) or dims[axis] != -1 or \
            asked.count(-1) > 1:
        return None
    a = axis % len(dims)
    return dims[:a] + asked + dims[a + 1:]


@defop(static_shape=_unflatten_static_shape)
@view_results
def unflatten(x, axis, shape, name=None):
    """Split axis ``axis`` of ``x`` into several axes of sizes ``shape`` (one may be -1).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.unflatten(paddle.ones([2, 6]), 1, [2, -1]).shape
        paddle.Size([2, 2, 3])
    """
    a = axis_arg(axis, x.dim(), "unflatten", low=AssertionError, high=AssertionError, rank0=0)
    if not isinstance(shape, (list, tuple, _T)):  # (no numpy array here, unlike expand's)
        raise TypeError(f"paddle.unflatten: 'shape' must be a list, tuple or Tensor, but "
                        f"received {type(shape).__name__}")
    s = _shape(shape, "unflatten")
    if not s:
        raise ValueError("paddle.unflatten: 'shape' must not be empty")
    return x.unflatten(a, s)


def _axis_entries(axis: Any, api: str) -> list[int]:
    """squeeze/unsqueeze's ``axis``: an int, a list/tuple of ints or int tensors, or an int
    tensor (or a 1-D numpy array of ints); anything else (a float, a str, a bool) is Paddle's
    TypeError."""
    axis = int_array_as_list(axis)
    if isinstance(axis, _T):
        if axis.is_floating_point() or axis.is_complex() or axis.dtype is torch.bool:
            raise TypeError(f"paddle.{api}: an 'axis' tensor must hold ints, but received dtype "
                            f"{_dt.from_torch_dtype(axis.dtype).name}")
        if axis.dim() > 1 and api.startswith("unsqueeze"):  # Paddle: not a list of ints
            raise TypeError(f"paddle.{api}: an 'axis' tensor must be 0-D or 1-D, but received "
                            f"shape {list(axis.shape)}")
        return [int(a) for a in axis.reshape(-1).tolist()]
    if isinstance(axis, numbers.Integral) and not isinstance(axis, bool):
        return [int(axis)]
    if not isinstance(axis, (list, tuple)):
        raise TypeError(f"paddle.{api}: 'axis' must be an int, a list, a tuple or a Tensor, but "
                        f"received {axis!r}")
    return int_entries(axis, api, "axis")


def _squeeze_axes(axis: Any, nd: int, api: str) -> list[int] | None:
    if axis is None:
        return None
    out = []
    for a in _axis_entries(axis, api):
        if not -max(nd, 1) <= a < max(nd, 1):
            raise ValueError(f"paddle.{api}: each axis must be in [{-max(nd, 1)}, {max(nd, 1) - 1}], "
                             f"but received {a} for an input of rank {nd}")
        out.append(a % max(nd, 1))
    return out


def _symbolic_axis_count(axis: Any) -> int | None:
    """How many axes a squeeze/unsqueeze ``axis`` names when a symbolic value gives some of
    them (a 1-D value counts its length); None when none is symbolic."""
    entries = axis if isinstance(axis, (list, tuple)) else [axis]
    if not any(isinstance(e, Tensor) and e._t.is_meta for e in entries):
        return None
    return sum(e._t.numel() if isinstance(e, Tensor) and e._t.dim() else 1 for e in entries)


def _squeeze_static_shape(x, axis=None, name=None) -> list[int] | None:
    """Static rule (see ``Recorder``), Paddle's: axes a symbolic value gives each remove one
    axis, and every size left is unknown (-1); an axis named explicitly whose size is unknown
    is removed, as if it were 1."""
    count = _symbolic_axis_count(axis)
    dims = _dims_of(x)
    if count is not None:
        return [-1] * max(len(dims) - count, 0)
    if axis is None or -1 not in dims:
        return None
    axes = set(_squeeze_axes(axis, len(dims), "squeeze"))
    if not axes:   # an empty list: every axis of size 1, as the kernel finds them
        return None
    return [d for i, d in enumerate(dims) if i not in axes or d not in (1, -1)]


def _unsqueeze_static_shape(x, axis, name=None) -> list[int] | None:
    """Static rule (see ``Recorder``) for axes a symbolic value gives: as Paddle's, each adds
    one axis, and every size is unknown (-1)."""
    count = _symbolic_axis_count(axis)
    return None if count is None else [-1] * (len(_dims_of(x)) + count)


@defop(paddle_types=("squeeze2", "squeeze", "pd_op.squeeze"), static_shape=_squeeze_static_shape,
       static_shape_first=True)
@view_results
def squeeze(x, axis=None, name=None):
    """Remove axes of size 1 (all of them, or those in ``axis``; others are kept).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.squeeze(paddle.ones([1, 3, 1]), axis=0).shape
        paddle.Size([3, 1])
        >>> paddle.squeeze(paddle.ones([1, 3, 1])).shape
        paddle.Size([3])
    """
    axes = _squeeze_axes(axis, x.dim(), "squeeze")
    if axes is None or (not axes and not isinstance(axis, _T)):
        return x.squeeze()  # None or an empty list: Paddle removes every axis of size 1
    if x.dim() == 0:
        return x
    return x.squeeze(tuple(dict.fromkeys(axes)))  # Paddle takes an axis given twice


squeeze_ = rebinding_inplace(squeeze, "squeeze_")


@defop(paddle_types=("unsqueeze2", "unsqueeze", "pd_op.unsqueeze"), static_shape=_unsqueeze_static_shape)
@view_results
def unsqueeze(x, axis, name=None):
    """Insert axes of size 1 at the positions ``axis`` (in the output's numbering).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.unsqueeze(paddle.ones([2, 3]), [0, 3]).shape
        paddle.Size([1, 2, 3, 1])
    """
    if type(axis) is int and -x.dim() - 1 <= axis <= x.dim():
        return x.unsqueeze(axis)
    if axis is None:  # Paddle inserts nothing
        return x.view(x.shape)
    check_int_entries(axis, "unsqueeze", "axis")
    out = x
    for a in _axis_entries(axis, "unsqueeze"):
        cur = out.dim()
        if not -(cur + 1) <= a <= cur:
            raise ValueError(f"paddle.unsqueeze: axis {a} is out of range for inserting into a "
                             f"tensor of rank {cur} (expected [{-(cur + 1)}, {cur}])")
        out = out.unsqueeze(a if a >= 0 else a + cur + 1)
    return out


unsqueeze_ = rebinding_inplace(unsqueeze, "unsqueeze_")


# ---- axis order ---------------------------------------------------------------------------
def _perm(perm: Any, nd: int, api: str) -> list[int]:
    p = int_list(perm)
    if len(p) < nd:
        # Paddle permutes only the leading axes when 'perm' is a permutation of them
        q = [norm_axis(a, nd, api, "perm") for a in p]
        if sorted(q) == list(range(len(q))):
            return q + list(range(len(q), nd))
    if len(p) != nd:
        raise ValueError(f"paddle.{api}: 'perm' must have as many entries as the input has "
                         f"dimensions ({nd}), or permute its leading axes, but received {p}")
    q = [norm_axis(a, nd, api, "perm") for a in p]
    if len(set(q)) != nd:
        raise ValueError(f"paddle.{api}: 'perm' must be a permutation of the axes, but received {p}")
    return q


@defop(paddle_types=("transpose2", "transpose", "pd_op.transpose"))
@view_results
def transpose(x, perm, name=None):
    """Permute the axes of ``x``: output axis ``i`` is input axis ``perm[i]``.

    ``transpose(x, dim0, dim1)`` (two ints) swaps two axes.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.transpose(paddle.ones([2, 3, 4]), [2, 0, 1]).shape
        paddle.Size([4, 2, 3])
    """
    if type(perm) is list and len(perm) == x.dim():
        try:
            return x.permute(perm)
        except (RuntimeError, IndexError, TypeError):
            pass  # the checked path below gives Paddle's error
    if isinstance(perm, numbers.Integral) and isinstance(name, numbers.Integral):
        # transpose(x, dim0, dim1) / swapaxes: Paddle indexes a list of the axes (IndexError)
        d = [axis_arg(a, x.dim(), "transpose", arg, low=IndexError, high=IndexError)
             for a, arg in ((perm, "dim0"), (name, "dim1"))]
        return x.transpose(d[0], d[1])
    perm = int_array_as_list(perm)
    if not isinstance(perm, (list, tuple)):
        raise TypeError(f"paddle.transpose: 'perm' must be a list or tuple of ints, but received "
                        f"{type(perm).__name__}")
    return x.permute(_perm(int_entries(perm, "transpose", "perm"), x.dim(), "transpose"))


transpose_ = rebinding_inplace(transpose, "transpose_")
swapaxes = transpose
swapdims = transpose


@defop()
@view_results
def permute(input, dims):
    """Permute the axes of ``input`` (same as :func:`transpose`).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.permute(paddle.ones([2, 3]), [1, 0]).shape
        paddle.Size([3, 2])
    """
    return input.permute(_perm(int_array_as_list(dims), input.dim(), "permute"))


@defop()
@view_results
def moveaxis(x, source, destination, name=None):
    """Move axes ``source`` to positions ``destination``; the others keep their order.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.moveaxis(paddle.ones([2, 3, 4]), 0, -1).shape
        paddle.Size([3, 4, 2])
    """
    def axes(v: Any, arg: str) -> list:
        # Paddle takes Python ints only: a Tensor fails its length assertion, a numpy integer
        # its len() (TypeError), and any other entry of a list its int assertion
        if isinstance(v, _T):
            raise AssertionError(f"paddle.moveaxis: '{arg}' must be an int or a list of ints, "
                                 f"but received a Tensor")
        if isinstance(v, (list, tuple, str)):
            items = list(v)
        elif isinstance(v, int):
            items = [v]
        else:
            raise TypeError(f"paddle.moveaxis: '{arg}' must be an int or a list of ints, but "
                            f"received {type(v).__name__} ({v!r})")
        for a in items:
            if not isinstance(a, int):
                raise AssertionError(f"paddle.moveaxis: each element of '{arg}' must be an int, "
                                     f"but received {type(a).__name__} ({a!r})")
        return items

    src, dst = axes(source, "source"), axes(destination, "destination")
    if len(src) != len(dst):
        raise AssertionError(f"paddle.moveaxis: 'source' and 'destination' must have the same number "
                             f"of axes, but received {source} and {destination}")
    for v, arg in ((src, "source"), (dst, "destination")):
        if len(v) != len(set(v)):
            raise ValueError(f"paddle.moveaxis: each element of '{arg}' must be unique, but "
                             f"received {v}")
    # Paddle asserts both the type and the range of each axis (a bool passes its int check:
    # as a source axis it reaches transpose's int-list parser, TypeError, as a destination
    # it counts as an int)
    if any(isinstance(a, bool) for a in src):
        raise TypeError(f"paddle.moveaxis: 'source' must hold ints, but received {source!r}")
    dst = [int(a) if isinstance(a, bool) else a for a in dst]
    src = [axis_arg(a, x.dim(), "moveaxis", "source", low=AssertionError, high=AssertionError,
                    bad=AssertionError, rank0=0) for a in src]
    dst = [axis_arg(a, x.dim(), "moveaxis", "destination", low=AssertionError,
                    high=AssertionError, bad=AssertionError, rank0=0) for a in dst]
    return torch.movedim(x, src, dst)


@defop()
@view_results
def t(input, name=None):
    """Transpose a tensor of at most 2 dimensions (0-D and 1-D are returned as they are).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.t(paddle.ones([2, 3])).shape
        paddle.Size([3, 2])
    """
    if input.dim() > 2:
        raise ValueError(f"paddle.t: 'input' must have at most 2 dimensions, but received a "
                         f"tensor of shape {list(input.shape)}; use paddle.transpose")
    return input.t() if input.dim() == 2 else input


t_ = rebinding_inplace(t, "t_")


@defop()
@view_results
def matrix_transpose(x, name=None):
    """Swap the last two axes of ``x`` (at least 2-D).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.matrix_transpose(paddle.ones([2, 3, 4])).shape
        paddle.Size([2, 4, 3])
    """
    if x.dim() < 2:
        raise ValueError(f"paddle.matrix_transpose: 'x' must have at least 2 dimensions, "
                         f"but received shape {list(x.shape)}")
    return x.transpose(-1, -2)


# ---- broadcasting -----------------------------------------------------------------------
# Paddle's expand kernels take at most 8 dimensions (its documents say 6), its broadcast_tensors
# kernel at most 6 (documented: 5): more is its ValueError
_EXPAND_MAX_RANK = 8
_BROADCAST_TENSORS_MAX_RANK = 6


def _expand_shape(x: _T, shape: Any, api: str) -> list[int]:
    check_int_array(shape, api)
    s = _shape(shape, api)
    if len(s) > _EXPAND_MAX_RANK:
        raise ValueError(f"paddle.{api}: the target shape may have at most {_EXPAND_MAX_RANK} "
                         f"dimensions, but received {len(s)} ({s})")
    if len(s) < x.dim():
        raise ValueError(f"paddle.{api}: the target shape {s} has fewer dimensions than the "
                         f"input's shape {list(x.shape)}")
    off = len(s) - x.dim()
    out = []
    for i, d in enumerate(s):
        if d == -1:
            if i < off:
                raise ValueError(f"paddle.{api}: -1 is not allowed for a new leading dimension "
                                 f"(shape {s})")
            d = x.shape[i - off]
        elif i >= off and x.shape[i - off] not in (1, d):
            raise ValueError(f"paddle.{api}: the input's dimension {i - off} of size "
                             f"{x.shape[i - off]} cannot be expanded to {d} (shape {s})")
        out.append(d)
    return out


def _bool_x_stops(api: str):
    """The ``static_check`` of Paddle's expanding ops: while a program is built a bool ``x``
    must stop gradients (ValueError); eager calls take it."""
    def check(*args, **kwargs) -> None:
        x = args[0] if args else kwargs.get("x")
        if isinstance(x, Tensor) and x.dtype == _dt.bool and not x.stop_gradient:
            raise ValueError(f"paddle.{api}: a bool 'x' must have stop_gradient=True in a static "
                             f"program (set x.stop_gradient = True)")
    return check


@defop(paddle_types=("expand_v2", "expand", "pd_op.expand"), static_shape=_expand_static_shape,
       static_check=_bool_x_stops("expand"))
def expand(x, shape, name=None):
    """Broadcast ``x`` to ``shape`` (``-1`` keeps a dimension's size).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.expand(paddle.ones([1, 3]), [2, -1]).shape
        paddle.Size([2, 3])
    """
    return x.expand(_expand_shape(x, shape, "expand")).clone()  # a new tensor, as Paddle (not a view of x)


_EXPAND_AS_DTYPES = frozenset((torch.bool, torch.float32, torch.float64, torch.int32, torch.int64))


@defop(paddle_types=("expand_as_v2", "pd_op.expand_as"), static_check=_bool_x_stops("expand_as"))
def expand_as(x, y, name=None, *, out=None):
    """Broadcast ``x`` to the shape of ``y``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.expand_as(paddle.ones([3]), paddle.zeros([2, 3])).shape
        paddle.Size([2, 3])
    """
    kernel_dtypes("expand_as", x, _EXPAND_AS_DTYPES)
    if not isinstance(y, torch.Tensor):  # Paddle's argument parser takes only a Tensor (not an array)
        raise ValueError(f"paddle.expand_as: argument 'y' must be a Tensor, but received {type(y).__name__}")
    r = x.expand(_expand_shape(x, list(y.shape), "expand_as")).clone()  # a new tensor, as Paddle (not a view of x)
    return r if out is None else write_out(out, r)


_broadcast_to_bool_check = _bool_x_stops("broadcast_to")


def _broadcast_to_static_check(*args, **kwargs) -> None:
    """Paddle's static broadcast_to reads ``x.dtype`` first (AttributeError for a non-Tensor),
    then refuses a bool ``x`` that needs gradients."""
    x = args[0] if args else kwargs.get("x")
    if not isinstance(x, (Tensor, np.ndarray)):
        raise AttributeError(f"paddle.broadcast_to: 'x' must be a Tensor in a static program, but "
                             f"received {type(x).__name__}")
    _broadcast_to_bool_check(*args, **kwargs)


@defop(static_shape=_expand_static_shape, static_check=_broadcast_to_static_check)
def broadcast_to(x, shape, name=None):
    """Broadcast ``x`` to ``shape`` (same as :func:`expand`).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.broadcast_to(paddle.ones([3]), [2, 3]).shape
        paddle.Size([2, 3])
    """
    return x.expand(_expand_shape(x, shape, "broadcast_to")).clone()  # a new tensor, as Paddle (not a view of x)


_NO_BROADCAST_KERNEL = frozenset((torch.uint8, torch.int8, torch.int16))
_BROADCAST_CPU_DTYPES = ALL_DTYPES - _NO_BROADCAST_KERNEL - {torch.bfloat16}   # no bfloat16 on the CPU


@defop(method=False, paddle_types=("broadcast_tensors", "pd_op.broadcast_tensors"))
def broadcast_tensors(input, name=None):
    """Broadcast a list of tensors to their common shape.

    Examples:
        >>> import pagaie as paddle
        >>> a, b = paddle.broadcast_tensors([paddle.ones([2, 1]), paddle.ones([3])])
        >>> a.shape, b.shape
        (paddle.Size([2, 3]), paddle.Size([2, 3]))
    """
    if isinstance(input, torch.Tensor) or not isinstance(input, (list, tuple)):
        # Paddle takes len(input) first (TypeError for None or a number), then its argument
        # parser refuses anything but a list (TypeError while a program is built)
        err = (TypeError if input is None or isinstance(input, numbers.Number) else ValueError)(
            f"paddle.broadcast_tensors: argument 'input' must be a list of Tensors, but received "
            f"{type(input).__name__}")
        err.static_type = TypeError
        raise err
    if not input:
        raise ValueError("paddle.broadcast_tensors: argument 'input' must be a list of Tensors, but "
                         "received an empty list")
    for i, t in enumerate(input):
        if not isinstance(t, torch.Tensor):
            raise ValueError(f"paddle.broadcast_tensors: argument 'input' must be a list of Tensors, "
                             f"but element {i} is {type(t).__name__}")
        if t.dtype != input[0].dtype:
            err = ValueError(f"paddle.broadcast_tensors: the tensors in 'input' must have one data "
                             f"type, but the first is {_dt.from_torch_dtype(input[0].dtype).name} "
                             f"and element {i} is {_dt.from_torch_dtype(t.dtype).name}")
            err.static_type = TypeError   # the program builder's check of its Values
            raise err
    if input[0].dtype in _NO_BROADCAST_KERNEL:
        raise NoKernelError(f"paddle.broadcast_tensors: 'input' of dtype "
                            f"{_dt.from_torch_dtype(input[0].dtype).name} is not supported (Paddle's kernel "
                            f"takes bool, int32, int64, float16, float32, float64, complex64, complex128)")
    kernel_dtypes("broadcast_tensors", input[0], _BROADCAST_CPU_DTYPES, arg="input")
    rank = max(t.dim() for t in input)
    if rank > _BROADCAST_TENSORS_MAX_RANK:
        raise ValueError(f"paddle.broadcast_tensors: the tensors may have at most "
                         f"{_BROADCAST_TENSORS_MAX_RANK} dimensions, but one has {rank}")
    try:
        return [t.clone() for t in torch.broadcast_tensors(*input)]  # new tensors, as Paddle
    except RuntimeError:
        raise ValueError("paddle.broadcast_tensors: the shapes "
                         f"{[list(t.shape) for t in input]} cannot be broadcast together") from None


def broadcast_shape(x_shape: Any, y_shape: Any) -> list:
    """The shape two shapes broadcast to.

    Args:
        x_shape (list[int]|tuple[int]): a shape (any sequence of ints: a 1-D int Tensor too).
        y_shape (list[int]|tuple[int]): another shape.

    Returns:
        list[int]: the broadcast shape. A shape that is not a sequence of ints is a TypeError,
        shapes that do not broadcast a ValueError.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.broadcast_shape([2, 1, 3], [4, 1])
        [2, 4, 3]
    """
    return _broadcast_pair(_int_dims(x_shape, "broadcast_shape"), _int_dims(y_shape, "broadcast_shape"),
                           "broadcast_shape")


def _int_dims(shape: Any, api: str) -> tuple:
    """A shape as Paddle's binding reads it: an iterable of ints (anything with ``__index__``);
    another value is its TypeError."""
    try:
        return tuple(operator.index(d) for d in list(shape))   # list(): a 0-D Tensor's len() fails
    except TypeError:
        raise TypeError(f"paddle.{api}: a shape must be a sequence of ints, but received "
                        f"{shape!r}") from None


def _broadcast_pair(a: tuple, b: tuple, api: str) -> list:
    try:
        if any(d < 0 for d in a + b):
            return _broadcast_unknown([a, b])
        return list(_broadcast_shapes(a, b))
    except RuntimeError:
        raise ValueError(f"paddle.{api}: the shapes {list(a)} and {list(b)} cannot be broadcast "
                         "together") from None


def _broadcast_unknown(shapes: list) -> list:
    """Broadcasting with unknown (negative) sizes, as Paddle's: an unknown size takes the other
    operand's size unless that is 1 (or unknown too)."""
    out = []
    for i in range(1, max(len(s) for s in shapes) + 1):
        d = 1
        for s in shapes:
            if i > len(s):
                continue
            v = -1 if s[-i] < 0 else s[-i]
            if d == 1 or (d == -1 and v != 1):
                d = v
            elif v != 1 and v != -1 and v != d:
                raise RuntimeError("mismatch")
        out.append(d)
    return out[::-1]


def broadcast_shapes(*shapes: Any) -> list:
    """The shape several shapes broadcast to.

    Args:
        *shapes (list[int]|tuple[int]): the shapes. None gives ``[]``; one shape is returned as
            a list of its entries, unchecked, as Paddle does.

    Returns:
        list[int]: the broadcast shape (TypeError for a shape that is not a sequence of ints,
        ValueError for shapes that do not broadcast).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.broadcast_shapes([3, 1], [1, 4], [4])
        [3, 4]
    """
    if not shapes:
        return []
    out = list(shapes[0])
    for s in shapes[1:]:
        out = _broadcast_pair(_int_dims(out, "broadcast_shapes"), _int_dims(s, "broadcast_shapes"),
                              "broadcast_shapes")
    return out


Tensor.broadcast_shape = broadcast_shape
Tensor.broadcast_shapes = broadcast_shapes


@defop(paddle_types=("tile", "pd_op.tile"), static_check=_bool_x_stops("tile"),
       program_dtypes={"x": frozenset({torch.bool, torch.float16, torch.float32, torch.float64,
                                       torch.int32, torch.int64, torch.complex64,
                                       torch.complex128})},
       program_no_arrays=("repeat_times",))   # its static API checks the type first
def tile(x, repeat_times, name=None):
    """Repeat ``x`` ``repeat_times[i]`` times along each axis.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.tile(paddle.to_tensor([1, 2]), [2, 2]).tolist()
        [[1, 2, 1, 2], [1, 2, 1, 2]]
    """
    if isinstance(repeat_times, torch.Tensor):
        if repeat_times.dim() != 1:
            raise AssertionError("paddle.tile: 'repeat_times' given as a Tensor must be 1-D, but "
                                 f"received shape {list(repeat_times.shape)}")
        if repeat_times.is_floating_point() or repeat_times.is_complex() or \
                repeat_times.dtype is torch.bool:  # Paddle reads it as a list of int
            raise TypeError("paddle.tile: a 'repeat_times' tensor must hold integers, but received "
                            f"dtype {_dt.from_torch_dtype(repeat_times.dtype).name}")
    r = _shape(repeat_times, "tile", "repeat_times")
    if any(v < 0 for v in r):
        raise ValueError(f"paddle.tile: every element of 'repeat_times' must be non-negative, "
                         f"but received {r}")
    if x.dtype is torch.bfloat16:   # Paddle's CPU tile kernel has no bfloat16
        kernel_dtypes("tile", x, _TILE_CPU_DTYPES)
    elif x.dtype is torch.float16 and x.requires_grad:   # nor its tile_grad a float16 one
        return no_grad_kernel("tile", torch.tile(x, r), x, LOW_FLOATS)
    return torch.tile(x, r)


_TILE_CPU_DTYPES = ALL_DTYPES - {torch.bfloat16}


_REPEAT_INTERLEAVE_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64,
                                       torch.bfloat16))


def _repeat_interleave_static_shape(x, repeats, axis=None, name=None, **kwargs) -> list | None:
    """Static rule (see ``Recorder``) for a Tensor ``repeats``: the size along ``axis`` is
    unknown, whatever the counts' shape (Paddle checks it when the program runs)."""
    dims = _dims_of(x)
    if not isinstance(repeats, Tensor) or repeats.dtype not in (_dt.int32, _dt.int64):
        return None
    if axis is None:
        return [-1]
    if type(axis) is not int or not -len(dims) <= axis < len(dims):
        return None
    return [-1 if i == axis % len(dims) else d for i, d in enumerate(dims)]


@defop(paddle_types=("repeat_interleave", "pd_op.repeat_interleave", "pd_op.repeat_interleave_with_tensor_index"),
       static_shape=_repeat_interleave_static_shape)
def repeat_interleave(x, repeats, axis=None, name=None, *, output_size=None):
    """Repeat each element ``repeats`` times (an int, or a tensor with one count per element).

    Without ``axis`` the input is flattened first.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.repeat_interleave(paddle.to_tensor([1, 2]), 2).tolist()
        [1, 1, 2, 2]
    """
    kernel_dtypes("repeat_interleave", x, _REPEAT_INTERLEAVE_DTYPES)
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = axis_arg(axis, x.dim(), "repeat_interleave", low=IndexError, high=IndexError, rank0=0)
    if isinstance(repeats, _T):
        if repeats.is_floating_point() or repeats.is_complex() or repeats.dtype is torch.bool:
            raise ValueError(f"paddle.repeat_interleave: a 'repeats' tensor must be int32 or int64, "
                             f"but received {_dt.from_torch_dtype(repeats.dtype).name}")
        if repeats.dim() > 1:
            raise ValueError(f"paddle.repeat_interleave: a 'repeats' tensor must be 1-D, but "
                             f"received shape {list(repeats.shape)}")
        repeats = repeats.reshape(-1)
        if repeats.numel() != x.shape[axis]:  # Paddle does not broadcast one count
            raise ValueError(f"paddle.repeat_interleave: a 'repeats' tensor must have one count per "
                             f"element of axis {axis} ({x.shape[axis]}), but received "
                             f"{repeats.numel()}")
    elif not isinstance(repeats, numbers.Integral) or isinstance(repeats, bool):
        raise TypeError(f"paddle.repeat_interleave: 'repeats' must be an int or a Tensor, but "
                        f"received {repeats!r}")
    elif repeats <= 0:
        raise ValueError(f"paddle.repeat_interleave: 'repeats' must be positive, but received "
                         f"{repeats}")
    else:
        repeats = int(repeats)
    r = torch.repeat_interleave(x, repeats, dim=axis)
    if output_size is not None and output_size != r.shape[axis]:
        # (Paddle takes the size unchecked: a shorter result, or one padded with whatever
        # memory holds; pagaie refuses a wrong one)
        raise ValueError(f"paddle.repeat_interleave: 'output_size' must be the length of the "
                         f"repeated axis ({r.shape[axis]}), but received {output_size}")
    return r


# ---- reordering ---------------------------------------------------------------------------
@defop(paddle_types=("flip", "pd_op.flip"))
def flip(x, axis, name=None):
    """Reverse the order of elements along the axes ``axis`` (an int or a list).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.flip(paddle.to_tensor([1, 2, 3]), 0).tolist()
        [3, 2, 1]
    """
    if axis is None:
        raise TypeError("paddle.flip: 'axis' must be an int, a list or a tuple, but received None")
    if x.dim() == 0:
        if isinstance(axis, (list, tuple)) and not axis:
            return x.clone()
        raise ValueError(f"paddle.flip: a 0-D tensor has no axis {axis} to flip")
    if type(axis) is np.ndarray and axis.dtype.kind in "iu":
        axis = axis.reshape(-1).tolist()  # read as a list, as Paddle's parser does
    elif isinstance(axis, torch.Tensor) and axis.dim() == 0 and axis.device.type != "meta" \
            and (axis.is_floating_point() or axis.dtype is torch.bool):
        axis = int(axis.item())   # Paddle reads a 0-D tensor's value as an int (truncated)
    kernel_dtypes("flip", x, _FLIP_DTYPES)
    n = x.dim()
    if isinstance(axis, (list, tuple)) and len(set(axis)) == len(axis) and \
            all(type(a) is int and -n <= a < n for a in axis):
        # Paddle refuses a value given twice, but flips an axis named twice (1 and -2 of a
        # 3-D tensor) once
        axis = list(dict.fromkeys(a % n for a in axis))
    return torch.flip(x, norm_axes(axis, n, "flip") or [])


reverse = flip
_FLIP_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.float16, torch.bfloat16}
_ROT90_STATIC = frozenset((torch.bool, torch.int32, torch.int64, torch.float32, torch.float64))


@defop(paddle_types=("roll", "pd_op.roll"))
def roll(x, shifts, axis=None, name=None, *, out=None):
    """Shift elements cyclically by ``shifts`` along ``axis`` (the flattened tensor when None).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.roll(paddle.to_tensor([1, 2, 3]), 1).tolist()
        [3, 1, 2]
    """
    if isinstance(shifts, (list, tuple)):
        s = int_entries(shifts, "roll", "shifts")
    elif isinstance(shifts, _T) or (isinstance(shifts, numbers.Integral) and not isinstance(shifts, bool)):
        s = int_list(shifts)
    elif isinstance(shifts, np.ndarray) and shifts.dtype.kind in "iu":   # read as its ints
        s = [int(v) for v in shifts.reshape(-1)]
    else:  # Paddle's argument parser: a float or a bool shift is a TypeError
        raise TypeError(f"paddle.roll: 'shifts' must be an int, a list, a tuple or a Tensor, but "
                        f"received {shifts!r}")
    if axis is None:
        kernel_dtypes("roll", x, _FLIP_DTYPES)
        r = torch.roll(x, s)
        return r if out is None else write_out(out, r)
    if x.dim() == 0 and axis not in ([], ()):  # Paddle: no axis is in range [0, 0)
        raise ValueError(f"paddle.roll: 'axis' {axis} is out of range for a 0-D tensor")
    axes = norm_axes(int_array_as_list(axis), x.dim(), "roll") or []
    if len(s) != len(axes):
        raise ValueError(f"paddle.roll: 'shifts' and 'axis' must have the same length, but received "
                         f"{shifts} and {axis}")
    kernel_dtypes("roll", x, _FLIP_DTYPES)  # (the same CPU kernels as flip)
    r = torch.roll(x, s, axes)
    return r if out is None else write_out(out, r)


@defop(program_no_arrays=("axes",))   # its static API checks the type first
def rot90(x, k=1, axes=[0, 1], name=None):  # noqa: B006 (Paddle's default)
    """Rotate by 90 degrees ``k`` times in the plane of ``axes`` (from the first toward the second).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.rot90(paddle.to_tensor([[1, 2], [3, 4]])).tolist()
        [[2, 4], [1, 3]]
    """
    if isinstance(k, str):  # (Paddle fails formatting its check of k: TypeError)
        raise TypeError(f"paddle.rot90: 'k' must be an int, but received str ({k!r})")
    if len(axes) != 2:
        raise ValueError(f"paddle.rot90: 'axes' must have 2 elements, but received {axes}")
    a = norm_axes(list(axes), x.dim(), "rot90", "axes")
    if a[0] == a[1]:
        raise ValueError(f"paddle.rot90: the two 'axes' must differ, but received {axes}")
    # Paddle turns with its flip kernel, which a whole turn does not call; a program records
    # no complex rot90 at all
    if int(k) % 4 or x.device.type == "meta":
        kernel_dtypes("rot90", x, _FLIP_DTYPES, static=_ROT90_STATIC)
    return torch.rot90(x, int(k), a)


# ---- dtype ---------------------------------------------------------------------------------
@defop(paddle_types=("cast", "pd_op.cast"), method="cast", int_results=True)
def cast(x, dtype):
    """Convert ``x`` to ``dtype`` (any spelling: ``'float32'``, ``paddle.int64``, ``np.int16``...).

    Float to integer conversion truncates toward zero.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cast(paddle.to_tensor([1.7, -1.7]), 'int32').tolist()
        [1, -1]
    """
    d = _dt.to_torch_dtype(dtype, "paddle.cast")
    if x.dtype is d:
        return x.clone()  # always a new tensor, as Paddle's
    if x.is_complex() and not d.is_complex and d is not torch.bool:
        x = x.real        # the real part, silently (torch warns)
    if d is torch.bfloat16 and not x.requires_grad:
        return _dt.to_bfloat16(x)  # NaN as Paddle's bit pattern
    return x.to(d)


cast_ = rebinding_inplace(cast, "cast_")


_AS_COMPLEX_DTYPES = frozenset((torch.float32, torch.float64))


@defop(paddle_types=("as_complex", "pd_op.as_complex"))
@view_results
def as_complex(x, name=None):
    """View a real tensor whose last axis has size 2 as complex numbers.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.as_complex(paddle.to_tensor([[1.0, 2.0]])).shape
        paddle.Size([1])
    """
    kernel_dtypes("as_complex", x, _AS_COMPLEX_DTYPES)
    return torch.view_as_complex(x if x.is_contiguous() else x.contiguous())


@defop(paddle_types=("as_real", "pd_op.as_real"))
@view_results
def as_real(x, name=None):
    """View a complex tensor as reals with a trailing axis of size 2.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.as_real(paddle.as_complex(paddle.ones([3, 2]))).shape
        paddle.Size([3, 2])
    """
    # (a lazily conjugated input, such as ihfft's result, is resolved first)
    return torch.view_as_real(x.resolve_conj())


@defop()
@view_results
def view_as_complex(input):
    """Same as :func:`as_complex`.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.view_as_complex(paddle.ones([3, 2])).dtype
        <DataType.COMPLEX64: 12>
    """
    kernel_dtypes("view_as_complex", input, _AS_COMPLEX_DTYPES, "input")
    return torch.view_as_complex(input if input.is_contiguous() else input.contiguous())


@defop()
@view_results
def view_as_real(input):
    """Same as :func:`as_real`.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.view_as_real(paddle.as_complex(paddle.ones([3, 2]))).dtype
        <DataType.FLOAT32: 10>
    """
    return torch.view_as_real(input.resolve_conj())


@defop(dygraph_only=True)
@view_results
def as_strided(x, shape, stride, offset=0, name=None):
    """A view of ``x``'s memory with the given shape, strides (in elements) and offset (in
    bytes, from the start of the underlying storage).

    Args:
        x (Tensor): the tensor whose memory is viewed.
        shape (list[int]|tuple[int]): the shape of the view.
        stride (list[int]|tuple[int]): one stride per entry of ``shape``, in elements.
        offset (int, optional): where the view starts, in bytes. Default: 0.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.as_strided(paddle.arange(6.0), [2, 2], [1, 2]).tolist()
        [[0.0, 2.0], [1.0, 3.0]]
    """
    def ints(v: Any, arg: str) -> list[int]:
        # Paddle's parser: a list or tuple of ints (an int is one, None none)
        if v is None:
            return []
        if isinstance(v, (bool, float, str)):
            raise TypeError(f"paddle.as_strided: '{arg}' must be a list or tuple of ints, but "
                            f"received {type(v).__name__}")
        return int_entries(v, "as_strided", arg)

    shape, stride = ints(shape, "shape"), ints(stride, "stride")
    if len(shape) != len(stride):
        raise ValueError(f"paddle.as_strided: 'shape' and 'stride' must have the same length, "
                         f"but received shape {shape} and stride {stride}")
    try:
        return torch.as_strided(x, shape, stride, int(offset) // x.element_size())
    except RuntimeError:
        raise ValueError(f"paddle.as_strided: shape {shape}, stride {stride} and offset {offset} "
                         f"reach past the {x.untyped_storage().nbytes()} bytes of the input's "
                         "memory") from None


# ---- shape queries -------------------------------------------------------------------------
@defop(differentiable=False, paddle_types=("size", "pd_op.numel"))
def numel(x, name=None):
    """The number of elements, as an int64 0-D tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.numel(paddle.ones([2, 3])).item()
        6
    """
    dense_only("numel", x)
    return torch.tensor(x.numel(), dtype=torch.int64, device=x.device)


@defop(differentiable=False)
def rank(input):
    """The number of dimensions, as an int32 0-D tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.rank(paddle.ones([2, 3])).item()
        2
    """
    if isinstance(input, np.ndarray):   # Paddle reads len(input.shape): an array works too
        return torch.tensor(input.ndim, dtype=torch.int32, device=device())
    return torch.tensor(input.dim(), dtype=torch.int32, device=input.device)


@defop(method=False, differentiable=False, paddle_types=("shape", "shape64", "pd_op.shape64"))
def shape(input):
    """The shape of ``input`` as a 1-D int64 tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.shape(paddle.ones([2, 3])).tolist()
        [2, 3]
    """
    if isinstance(input, torch.Tensor):   # Paddle's CPU kernel (and program check) skip int16
        kernel_dtypes("shape", input, ALL_DTYPES - {torch.int16}, arg="input")
    return torch.tensor(list(input.shape), dtype=torch.int64)


def tolist(x: Tensor) -> Any:
    """The values of ``x`` as (nested) Python lists.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.tolist(paddle.to_tensor([[1, 2]]))
        [[1, 2]]
    """
    # the method: bfloat16 bit patterns as Paddle gives them, and a program Value's
    # AssertionError (Paddle's tolist works only in dynamic mode)
    return x.tolist()


def check_shape(shape: Any, op_name: str, expected_shape_type: tuple = (list, tuple, Tensor),
                expected_element_type: tuple = (int, Tensor),
                expected_tensor_dtype: tuple = ("int32", "int64")) -> None:
    """Check that ``shape`` is a valid shape argument for ``op_name``; raise TypeError otherwise.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.check_shape([2, 3], 'reshape')
    """
    if not isinstance(shape, expected_shape_type):
        raise TypeError(f"paddle.{op_name}: 'shape' must be one of {expected_shape_type}, "
                        f"but received {type(shape).__name__}")
    if isinstance(shape, Tensor):
        if shape.dtype.name not in expected_tensor_dtype:
            raise TypeError(f"paddle.{op_name}: a 'shape' tensor must have dtype in "
                            f"{expected_tensor_dtype}, but received {shape.dtype.name}")
        return
    for e in shape:
        if not isinstance(e, expected_element_type) or isinstance(e, bool):
            raise TypeError(f"paddle.{op_name}: each element of 'shape' must be one of "
                            f"{expected_element_type}, but received {type(e).__name__}")
        if isinstance(e, Tensor) and e.dtype.name not in expected_tensor_dtype:
            raise TypeError(f"paddle.{op_name}: a 'shape' element tensor must have dtype in "
                            f"{expected_tensor_dtype}, but received {e.dtype.name}")
