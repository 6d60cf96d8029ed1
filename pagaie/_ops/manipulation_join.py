"""Joining and splitting ops: concat, stack, split, chunk, unbind and their relatives."""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import Tensor
from pagaie._ops._helpers import ALL_DTYPES, int_list, norm_axis, scalar_axis, seq_of_tensors
from pagaie._ops._helpers import AssertionValueError, axis_arg, int_entries, int_only_in_programs, kernel_dtypes
from pagaie._ops._helpers import LOW_FLOATS, no_grad_kernel, program_constant
from pagaie._ops.manipulation import _dims_of, check_int_entries, view_pieces

_T = torch.Tensor
_slice = slice

__all__ = ["concat", "cat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
           "row_stack", "split", "chunk", "tensor_split", "hsplit", "vsplit", "dsplit", "unbind",
           "unstack"]


def _rows(x: Any, api: str) -> Any:
    """The ``*stack`` joins take one Tensor as the sequence of its rows (axis 0), as Paddle's
    (which iterate over it); a list or tuple passes through, its non-Tensor entries converted
    (except for ``column_stack``). A 0-D Tensor has no rows: ``column_stack`` then joins nothing
    (ValueError), the others assert."""
    if type(x) is _T:
        if x.dim() == 0:
            if api == "column_stack":
                return []
            raise AssertionError(f"paddle.{api}: a 0-D Tensor has no rows to join; pass a list "
                                 f"of Tensors")
        return list(x.unbind(0))
    if api != "column_stack" and (type(x) is list or type(x) is tuple) and \
            any(type(t) is not _T for t in x):
        # Paddle makes each entry a tensor first (numpy arrays, lists and numbers as
        # paddle.to_tensor would), on the device of the tensors given
        from pagaie._ops.creation import _from_data, _place
        dev = next((t.device for t in x if type(t) is _T), None)
        x = [t if type(t) is _T else _from_data(t, None, api).to(dev) if dev is not None
             else _place(_from_data(t, None, api), None, api) for t in x]
    return x


def _same_dtype(xs: Any, api: str) -> Any:
    """Paddle joins tensors of one dtype only (mixed dtypes raise ValueError; TypeError from
    the Python check of a recorded program)."""
    if type(xs) is not list and type(xs) is not tuple:
        xs = seq_of_tensors(xs, api)
    if not xs:
        raise ValueError(f"paddle.{api}: 'x' must not be empty")
    for i, t in enumerate(xs):
        if type(t) is not _T:
            raise ValueError(f"paddle.{api}: argument 'x' (position 0) must be list of Tensors, "
                             f"but element {i} is {type(t).__name__}")
    d = xs[0].dtype
    for i, t in enumerate(xs):
        if t.dtype is not d:
            err = ValueError(f"paddle.{api}: all tensors in 'x' must have the same dtype, but the "
                             f"first is {str(d).replace('torch.', '')} and the one at position {i} "
                             f"is {str(t.dtype).replace('torch.', '')}; cast them first")
            err.static_type = TypeError
            raise err
    return xs


def _complex_first(x: Any) -> Any:
    """Paddle's stack casts real floating inputs to the dtype of a complex first input
    (and only then: a real first input with a complex one is an error)."""
    if (type(x) is list or type(x) is tuple) and x and type(x[0]) is _T and x[0].is_complex():
        return [t.to(x[0].dtype) if type(t) is _T and t.is_floating_point() else t for t in x]
    return x


def concat_refuses_uint8(api: str):
    """The ``static_check`` of concat and the ops Paddle builds on it (column_stack,
    block_diag...): its static concat checks each input's dtype against a list that misspells
    uint8 ('unit8'), so a uint8 input is its TypeError while a program is built."""
    def check(x: Any, *args: Any, **kwargs: Any) -> None:
        if type(x) is list or type(x) is tuple:
            for i, t in enumerate(x):
                if isinstance(t, Tensor) and t._t.dtype is torch.uint8:
                    raise TypeError(f"paddle.{api}: input {i} of dtype uint8 is not supported in a "
                                    "static program (Paddle's concat refuses it)")
    return check


def _concat_static_check(x: Any, *args: Any, **kwargs: Any) -> None:
    concat_refuses_uint8("concat")(x)
    _int_axis_in_programs["concat"](x, *args, **kwargs)


_int_axis_in_programs = {api: int_only_in_programs(api, "axis", pos)
                         for api, pos in (("concat", 1), ("split", 2), ("chunk", 2))}


@defop(paddle_types=("concat", "pd_op.concat"), static_check=_concat_static_check)
def concat(x, axis=0, name=None, *, out=None):
    """Join tensors along an existing axis.

    Args:
        x (list|tuple): tensors with the same shape except along ``axis``.
        axis (int|Tensor, optional): the axis to join along. Default 0.
        out (Tensor, optional): where to write the result.

    Returns:
        Tensor: the joined tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.concat([paddle.ones([1, 2]), paddle.zeros([2, 2])]).shape
        paddle.Size([3, 2])
    """
    if x is None:   # Paddle's kernel lookup finds nothing to key on (its static API: TypeError)
        raise NoKernelError("paddle.concat: 'x' must be a list or tuple of Tensors, but received None")
    xs = _same_dtype(x, "concat")
    for i, t in enumerate(xs):  # torch skips 1-D empty inputs; Paddle wants one rank
        if t.dim() != xs[0].dim():
            raise ValueError(f"paddle.concat: all tensors in 'x' must have the same rank, but "
                             f"the first has shape {list(xs[0].shape)} and the one at position "
                             f"{i} has {list(t.shape)}")
    if type(axis) is _T and axis.numel() > 1 and axis.device.type != "meta":
        axis = axis.reshape(-1)[0]   # Paddle's kernel reads an axis tensor's first value
    if type(axis) is not int:
        axis = scalar_axis(axis)  # Paddle's scalar parser: a float is truncated, a bool counts
    a = axis if type(axis) is int and -1 <= axis < xs[0].dim() else norm_axis(axis, xs[0].dim(), "concat")
    if out is not None:
        return torch.cat(xs, a, out=out)
    if xs[0].dtype is torch.bfloat16:   # Paddle's CPU concat_grad kernel has no bfloat16
        return no_grad_kernel("concat", torch.cat(xs, a), xs[0], LOW_FLOATS)
    return torch.cat(xs, a)


cat = concat
concatenate = concat


def _stack_static_shape(x, axis=0, name=None, *, out=None) -> tuple[list[int], torch.dtype] | None:
    """Static rule (see ``Recorder``) for inputs whose unknown sizes sit at different axes,
    Paddle's: each axis takes the size an input knows (-1 where none does); the inputs'
    dtype. None (the kernel's own check reports it) when the ranks, the dtypes or two known
    sizes differ."""
    if not isinstance(x, (list, tuple)) or not x or not isinstance(axis, int):
        return None
    dims = [_dims_of(t) for t in x]
    dtypes = {t._t.dtype for t in x if isinstance(t, Tensor)}
    if len({len(d) for d in dims}) != 1 or len(dtypes) != 1:
        return None
    merged = []
    for sizes in zip(*dims):
        known = {d for d in sizes if d >= 0}
        if len(known) > 1:
            return None
        merged.append(known.pop() if known else -1)
    a = axis + len(merged) + 1 if axis < 0 else axis
    if not 0 <= a <= len(merged):
        return None
    return merged[:a] + [len(x)] + merged[a:], dtypes.pop()


@defop(paddle_types=("stack", "pd_op.stack"), static_shape=_stack_static_shape)
def stack(x, axis=0, name=None, *, out=None):
    """Join tensors of the same shape along a new axis.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.stack([paddle.ones([2]), paddle.zeros([2])], axis=1).shape
        paddle.Size([2, 2])
    """
    xs = _same_dtype(_complex_first(x), "stack")
    a = norm_axis(0 if axis is None else axis, xs[0].dim() + 1, "stack")  # Paddle: None is 0
    if out is not None:
        return torch.stack(xs, a, out=out)
    return torch.stack(xs, a)


@defop(method=False, static_check=concat_refuses_uint8("hstack"))
def hstack(x, name=None):
    """Join tensors column-wise (along axis 1; axis 0 for 1-D tensors).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.hstack([paddle.ones([2]), paddle.zeros([3])]).shape
        paddle.Size([5])
    """
    return torch.hstack(_same_dtype(_rows(x, "hstack"), "hstack"))


@defop(method=False, static_check=concat_refuses_uint8("vstack"))
def vstack(x, name=None):
    """Join tensors row-wise (1-D tensors become rows).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.vstack([paddle.ones([2]), paddle.zeros([2])]).shape
        paddle.Size([2, 2])
    """
    return torch.vstack(_same_dtype(_rows(x, "vstack"), "vstack"))


row_stack = vstack


@defop(method=False, static_check=concat_refuses_uint8("dstack"))
def dstack(x, name=None):
    """Join tensors along the third axis (inputs are made at least 3-D).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.dstack([paddle.ones([2]), paddle.zeros([2])]).shape
        paddle.Size([1, 2, 2])
    """
    return torch.dstack(_same_dtype(_rows(x, "dstack"), "dstack"))


def _column_stack_bad_input(x: Any) -> None:
    """Paddle's column_stack iterates over ``x`` and reads each entry's ``ndim`` (a numpy
    array's ``numel``, where it has fewer than 2 axes): a number or None is its TypeError (not
    iterable), a list whose arrays all have 2 axes or more reaches concat's argument parser
    (ValueError), anything else that holds no Tensors (a 1-D numpy array, a string, nested
    lists) is its AttributeError."""
    kind = type(x).__name__
    if x is None or isinstance(x, (int, float, complex)):
        raise TypeError(f"paddle.column_stack: 'x' must be a list or tuple of Tensors, but received "
                        f"{kind} (not iterable)")
    if isinstance(x, (list, tuple)) and all(type(t) is _T or (isinstance(t, np.ndarray) and t.ndim >= 2)
                                            for t in x):
        raise ValueError(f"paddle.column_stack: 'x' must be a list or tuple of Tensors, but received "
                         f"a {kind} holding numpy arrays")
    raise AttributeError(f"paddle.column_stack: 'x' must be a list or tuple of Tensors, but received "
                         f"{kind}")


@defop(method=False, static_check=concat_refuses_uint8("column_stack"))
def column_stack(x, name=None):
    """Join 1-D tensors as columns (2-D tensors are joined along axis 1).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.column_stack([paddle.ones([3]), paddle.zeros([3])]).shape
        paddle.Size([3, 2])
    """
    if type(x) is not _T and not ((type(x) is list or type(x) is tuple) and all(type(t) is _T for t in x)):
        _column_stack_bad_input(x)
    return torch.column_stack(_same_dtype(_rows(x, "column_stack"), "column_stack"))


# ---- splitting --------------------------------------------------------------------------
def _sections(n: int, num_or_sections: Any, api: str, arg: str) -> list[int]:
    if isinstance(num_or_sections, int) and not isinstance(num_or_sections, bool):
        num = num_or_sections
        if num <= 0 or n % num:   # (Paddle's static API asserts it: AssertionError there)
            raise AssertionValueError(f"paddle.{api}: the size of the split axis ({n}) must be divisible by "
                             f"'{arg}' ({num})")
        return [n // num] * num
    if not isinstance(num_or_sections, (list, tuple)):
        raise TypeError(f"paddle.{api}: '{arg}' must be an int, list or tuple, but received "
                        f"{type(num_or_sections).__name__}")
    check_int_entries(num_or_sections, api, arg)
    s = int_entries(num_or_sections, api, arg)
    unknown = [i for i, v in enumerate(s) if v == -1]
    if len(unknown) > 1:
        raise ValueError(f"paddle.{api}: at most one entry of '{arg}' may be -1, but received {s}")
    if unknown:
        s[unknown[0]] = n - (sum(s) + 1)
        if s[unknown[0]] == 0 and n:  # Paddle's -1 section takes at least one entry
            raise ValueError(f"paddle.{api}: the sections of '{arg}' other than -1 must add up "
                             f"to less than the size of the split axis ({n}), but received {s}")
    if any(v < 0 for v in s) or sum(s) != n:
        raise ValueError(f"paddle.{api}: the sections {list(int_list(num_or_sections))} must be "
                         f"non-negative and add up to the size of the split axis ({n})")
    return s


def _split_static_shape(x, num_or_sections, axis=0, name=None) -> list | None:
    """Static rule (see ``Recorder``), Paddle's sizes where probing differs: sections along an
    axis of unknown size cannot be checked, so every piece's size there is unknown (a known
    section too); a section or an axis held by a Tensor (one the program reads only when it
    runs) leaves every size of every piece unknown."""
    dims = _dims_of(x)
    if isinstance(num_or_sections, (list, tuple)) and any(isinstance(s, Tensor) for s in num_or_sections):
        return [[-1] * len(dims) for _ in num_or_sections]
    if isinstance(axis, Tensor):
        if (c := program_constant(axis)) is None:   # which axis is unknown
            n = num_or_sections if isinstance(num_or_sections, int) else len(num_or_sections)
            return [[-1] * len(dims) for _ in range(n)]
        axis = int(c)   # (Paddle reads a constant axis while it builds)
        if isinstance(num_or_sections, int) and -len(dims) <= axis < len(dims):
            a, n = axis % len(dims), num_or_sections
            return [[d // n if i == a and d != -1 else d for i, d in enumerate(dims)] for _ in range(n)]
    if not isinstance(num_or_sections, (list, tuple)) or not -len(dims) <= axis < len(dims):
        return None
    a = axis % len(dims)
    if dims[a] != -1:
        return None
    return [[-1 if i == a else d for i, d in enumerate(dims)] for _ in num_or_sections]


@defop(paddle_types=("split", "split_with_num", "pd_op.split", "pd_op.split_with_num"),
       static_shape=_split_static_shape, static_shape_first=True,
       static_check=_int_axis_in_programs["split"])
def split(x, num_or_sections, axis=0, name=None):
    """Split ``x`` along ``axis`` into equal parts (an int) or parts of the given sizes.

    One section size may be ``-1``: it takes what the others leave.

    Examples:
        >>> import pagaie as paddle
        >>> [t.shape[1] for t in paddle.split(paddle.ones([2, 6]), [1, -1, 2], axis=1)]
        [1, 3, 2]
    """
    # Paddle asserts rank + axis >= 0; its kernel rejects the rest (a float too) as invalid
    if type(axis) is bool:
        axis = int(axis)  # Paddle's int parser takes a bool (a program's refuses it)
    a = axis_arg(axis, x.dim(), "split", low=AssertionError, bad_float=ValueError, rank0=0)
    if x.dtype in _NO_SPLIT_NUM and isinstance(num_or_sections, int):
        # Paddle's CPU kernel for a number of equal parts has neither (its sections one has)
        kernel_dtypes("split", x, _SPLIT_NUM_CPU_DTYPES)
    return _split_copies(x, _sections(x.shape[a], num_or_sections, "split", "num_or_sections"), a)


_NO_SPLIT_NUM = frozenset({torch.int16, torch.complex64, torch.complex128})
_SPLIT_NUM_CPU_DTYPES = ALL_DTYPES - {torch.int16, torch.complex64, torch.complex128}


def _pieces(x: _T, cuts: list[int], axis: int) -> list:
    """The parts of ``x`` between the indices ``cuts`` along ``axis`` (numpy's slicing rules),
    each a view of its own: an in-place write on one then works in a graph, as in Paddle
    (torch refuses it on the outputs of its multi-view ops such as ``split``)."""
    lead = (_slice(None),) * axis
    bounds = [None, *cuts, None]
    return [x[(*lead, _slice(bounds[i], bounds[i + 1]))] for i in range(len(bounds) - 1)]


def _split_copies(x: _T, sizes: list[int], axis: int) -> list:
    """The pieces as new tensors: Paddle's split kernel copies, so an in-place write on a
    piece leaves ``x`` alone (``unbind``, ``split_with_sizes`` and index-based
    ``tensor_split`` slice instead, and share ``x``'s memory)."""
    return list(torch.split_with_sizes_copy(x, sizes, axis))


@defop(method="split_with_sizes")
@view_pieces
def split_with_sizes(self, split_sizes, dim=0):
    """Split along ``dim`` into parts of the sizes ``split_sizes`` (views of this tensor, as
    Paddle, which slices).

    Examples:
        >>> import pagaie as paddle
        >>> [t.shape for t in paddle.ones([5]).split_with_sizes([2, 3])]
        [paddle.Size([2]), paddle.Size([3])]
    """
    a = axis_arg(dim, self.dim(), "Tensor.split_with_sizes", rank0=0)
    sizes = int_entries(split_sizes, "Tensor.split_with_sizes", "split_sizes")
    if any(v < 0 for v in sizes) or sum(sizes) != self.shape[a]:
        raise ValueError(f"paddle.Tensor.split_with_sizes: 'split_sizes' {sizes} must be "
                         f"non-negative and add up to the size of axis {dim} ({self.shape[a]})")
    return _pieces(x=self, cuts=list(itertools.accumulate(sizes[:-1])), axis=a)


# Paddle's CPU kernel for a split into equal parts (chunk's) has no int16 or complex version
@defop(static_check=_int_axis_in_programs["chunk"])
def chunk(x, chunks, axis=0, name=None):
    """Split ``x`` into ``chunks`` equal parts along ``axis`` (the size must divide evenly).

    Examples:
        >>> import pagaie as paddle
        >>> len(paddle.chunk(paddle.ones([6]), 3))
        3
    """
    if not isinstance(chunks, int) or isinstance(chunks, bool):
        raise TypeError(f"paddle.chunk: 'chunks' must be an int, but received "
                        f"{type(chunks).__name__}")
    # Paddle's Python check reads x.shape[axis] for an int axis (IndexError past the last
    # axis); a Tensor axis goes to split's kernel (ValueError); below -rank it asserts.
    if type(axis) is bool:
        axis = int(axis)  # Paddle's int parser takes a bool
    a = axis_arg(axis, x.dim(), "chunk", low=AssertionError,
                 high=ValueError if isinstance(axis, _T) else IndexError,
                 bad=ValueError if isinstance(axis, np.ndarray) else TypeError, bad_float=ValueError,
                 rank0=0)
    if x.dtype in _NO_SPLIT_NUM:   # split's kernel for a number of parts
        kernel_dtypes("chunk", x, _SPLIT_NUM_CPU_DTYPES)
    return _split_copies(x, _sections(x.shape[a], chunks, "chunk", "chunks"), a)


def _tensor_split(x: _T, num_or_indices: Any, axis: int, api: str) -> list:
    if isinstance(num_or_indices, (list, tuple)):
        return _pieces(x, int_entries(num_or_indices, api, "num_or_indices"), axis)
    if not isinstance(num_or_indices, int):  # Paddle: a Tensor, a float or a numpy int
        raise ValueError(f"paddle.{api}: 'num_or_indices' must be an int, a list or a tuple of "
                         f"ints, but received {type(num_or_indices).__name__}")
    n = int(num_or_indices)
    if n <= 0:
        raise ValueError(f"paddle.{api}: the number of sections must be positive, but received {n}")
    base, extra = divmod(x.shape[axis], n)  # n sections copy (Paddle's split); indices slice
    return _split_copies(x, [base + 1] * extra + [base] * (n - extra), axis)


@defop()
@view_pieces
def tensor_split(x, num_or_indices, axis=0, name=None):
    """Split into ``n`` nearly equal parts (the first ones one larger) or at the given indices.

    Examples:
        >>> import pagaie as paddle
        >>> [t.shape[0] for t in paddle.tensor_split(paddle.ones([7]), 3)]
        [3, 2, 2]
    """
    # Paddle: a 0-D input or an axis past the last is a ValueError, below -rank an IndexError
    _check_rank(x, 1, "tensor_split")
    a = axis_arg(axis, x.dim(), "tensor_split", low=IndexError)
    return _tensor_split(x, num_or_indices, a, "tensor_split")


def _check_rank(x: _T, need: int, api: str) -> None:
    if x.dim() < need:
        raise ValueError(f"paddle.{api}: 'x' must have at least {need} dimension(s), but received "
                         f"shape {list(x.shape)}")


@defop()
@view_pieces
def hsplit(x, num_or_indices, name=None):
    """:func:`tensor_split` along axis 1 (axis 0 for 1-D tensors).

    Examples:
        >>> import pagaie as paddle
        >>> [t.shape for t in paddle.hsplit(paddle.ones([2, 4]), 2)]
        [paddle.Size([2, 2]), paddle.Size([2, 2])]
    """
    _check_rank(x, 1, "hsplit")
    return _tensor_split(x, num_or_indices, 1 if x.dim() > 1 else 0, "hsplit")


@defop()
@view_pieces
def vsplit(x, num_or_indices, name=None):
    """:func:`tensor_split` along axis 0 (``x`` at least 2-D).

    Examples:
        >>> import pagaie as paddle
        >>> [t.shape for t in paddle.vsplit(paddle.ones([4, 2]), [1])]
        [paddle.Size([1, 2]), paddle.Size([3, 2])]
    """
    _check_rank(x, 2, "vsplit")
    return _tensor_split(x, num_or_indices, 0, "vsplit")


@defop()
@view_pieces
def dsplit(x, num_or_indices, name=None):
    """:func:`tensor_split` along axis 2 (``x`` at least 3-D).

    Examples:
        >>> import pagaie as paddle
        >>> len(paddle.dsplit(paddle.ones([1, 1, 4]), 2))
        2
    """
    _check_rank(x, 3, "dsplit")
    return _tensor_split(x, num_or_indices, 2, "dsplit")


@defop(paddle_types=("unbind", "pd_op.unbind"))
@view_pieces
def unbind(input, axis=0):
    """Remove axis ``axis``, returning the slices along it as a list.

    Examples:
        >>> import pagaie as paddle
        >>> [t.shape for t in paddle.unbind(paddle.ones([2, 3]), axis=1)]
        [paddle.Size([2]), paddle.Size([2]), paddle.Size([2])]
    """
    if isinstance(axis, _T):  # Paddle checks for a Python int
        raise TypeError("paddle.unbind: 'axis' must be an int, but received a Tensor")
    a = axis_arg(axis, input.dim(), "unbind", rank0=0)
    return [input.select(a, i) for i in range(input.shape[a])]  # one view each (see _pieces)


# The dtypes of Paddle's CPU unstack kernel (probed; others are NotFound).
_UNSTACK_DTYPES = frozenset({torch.float32, torch.float64, torch.int32, torch.int64, torch.complex64, torch.complex128})


@defop(paddle_types=("unstack", "pd_op.unstack"))
def unstack(x, axis=0, num=None):
    """Same as :func:`unbind`; ``num``, when given, must equal the size of ``axis``.

    Examples:
        >>> import pagaie as paddle
        >>> len(paddle.unstack(paddle.ones([2, 3]), axis=1))
        3
    """
    kernel_dtypes("unstack", x, _UNSTACK_DTYPES)
    a = axis_arg(axis, x.dim(), "unstack", rank0=0)
    if num is not None and (type(num) is bool or not isinstance(num, (int, np.integer))):
        raise TypeError(f"paddle.unstack: 'num' must be an int, but received {type(num).__name__} "
                        f"{num!r}")
    if num is not None and num != x.shape[a]:
        raise ValueError(f"paddle.unstack: 'num' ({num}) must equal the size of axis {axis} "
                         f"({x.shape[a]})")
    return list(torch.unbind_copy(x, a))  # Paddle's unstack kernel copies (unbind gives views)
