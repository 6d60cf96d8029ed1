"""``Tensor``-only layout helpers: ``T``, ``mT``, ``detach``, ``contiguous``, ``copy_``,
``resize_``, ``repeat``, ``type_as``, ``astype`` and the torch-style variadic forms
``x.reshape(2, 3)``, ``x.expand(2, 3)``, ``x.view(2, 3)``, ``x.permute(1, 0)``.
"""
from __future__ import annotations

import functools
import math
from typing import Any, Callable

import torch

from pagaie._core import dtype as _dt
from pagaie._core.parameter import Parameter
from pagaie._core.registry import defop
from pagaie._core.tensor import Tensor, check_inplace, is_dense, next_data_number
from pagaie._ops import manipulation as _m

__all__: list[str] = ["reshape", "expand", "view", "permute"]  # the variadic forms (see the end)


def _T_prop(self: Tensor) -> Tensor:
    """The tensor with all its axes reversed (``x.T``)."""
    nd = self._t.dim()
    return _m.transpose(self, list(range(nd - 1, -1, -1))) if nd > 1 else self


def _mT_prop(self: Tensor) -> Tensor:
    """The tensor with its last two axes swapped (``x.mT``)."""
    return _m.matrix_transpose(self)


Tensor.T = property(_T_prop)
Tensor.mT = property(_mT_prop)


def contiguous(self: Tensor) -> Tensor:
    """This tensor with contiguous memory: as in Paddle, a strided view is made contiguous in
    place (it then holds a copy of its values, no longer the memory of the tensor it viewed),
    and the tensor itself is returned (a sparse tensor as it is).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([2, 3])
        >>> y = x.t()
        >>> y.contiguous() is y, y.is_contiguous()
        (True, True)
    """
    t = self._t
    if t.layout is not torch.strided or is_dense(t):
        return self
    if t.requires_grad and t.is_leaf:   # (a leaf keeps its identity for its gradient)
        with torch.no_grad():
            t.data = t.clone(memory_format=torch.contiguous_format)
    else:
        self._rebind(t.clone(memory_format=torch.contiguous_format), bump=0)
    return self


@defop(differentiable=False, paddle_types=("detach", "pd_op.detach"), sparse_ok=True)
def detach(x, name=None):
    """A tensor sharing this one's data, cut from the autograd graph (stop_gradient=True).

    An op record, so that static programs record it rather than reading data.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> x.detach().stop_gradient
        True
    """
    return x.detach()


_detach_op = detach


@functools.wraps(_detach_op)
def detach(x, name=None):  # noqa: F811
    # Paddle names a detached tensor when it is made: eager_in_tmp_N, numbered with the
    # tensors made from data
    r = _detach_op(x, name)
    if type(r) is Tensor:
        r._name = f"eager_in_tmp_{next_data_number()}"
        if x.persistable:   # Paddle's detached tensor keeps the flag (a parameter's, a buffer's)
            r.persistable = True
    return r


Tensor.detach = detach


def detach_(self: Tensor) -> Tensor:
    """Cut this tensor from the autograd graph in place and return it.

    Examples:
        >>> import pagaie as paddle
        >>> y = paddle.to_tensor([1.0, 2.0], stop_gradient=False) * 2
        >>> y.detach_().stop_gradient
        True
    """
    self._t = self._t.detach()
    return self


def copy_(self: Tensor, other: Tensor, blocking: bool = True,
          non_blocking: bool | None = None) -> Tensor:
    """Overwrite this tensor with the values of ``other`` (same dtype), outside autograd.

    As in Paddle, the write counts in no ``inplace_version`` (of this tensor or of a tensor it
    views), so a backward that saved this tensor reads the new values. An ``other`` of another
    shape gives this tensor that shape too: its values go into the same memory when it holds
    enough from this tensor's start (a view keeps writing through to its base), else into new
    memory.

    Args:
        other (Tensor): the tensor whose values are copied.
        blocking (bool, optional): whether the copy waits until it is done. Default True.
        non_blocking (bool, optional): the opposite of ``blocking``; when given, it decides.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 2])
        >>> x.copy_(paddle.ones([2, 2]), non_blocking=False).tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """
    if not isinstance(other, Tensor):
        raise ValueError(f"paddle.Tensor.copy_: 'other' must be a Tensor, but received "
                         f"{type(other).__name__}")
    for arg, v in (("blocking", blocking), ("non_blocking", non_blocking)):
        if not isinstance(v, (bool, int)) and not (v is None and arg == "non_blocking"):
            raise RuntimeError(f"paddle.Tensor.copy_: '{arg}' must be a bool, but received "
                               f"{type(v).__name__}")
    if non_blocking is not None:
        blocking = not non_blocking
    t, s = self._t, other._t
    if s.dtype is not t.dtype:
        raise RuntimeError(f"paddle.Tensor.copy_: 'other' has dtype {other.dtype.name}, which "
                           f"differs from this tensor's dtype {self.dtype.name}; cast it first")
    with torch.no_grad():
        if s.shape == t.shape:
            t.data.copy_(s, non_blocking=not blocking)   # ``.data``: no version counted
            if isinstance(self, Parameter):
                self._note_write()   # a parameter made under LazyGuard now holds values
            return self
        size = t.element_size()
        if t.untyped_storage().nbytes() >= (t.storage_offset() + s.numel()) * size:
            r = t.new_empty(0).set_(t.untyped_storage(), t.storage_offset(), s.shape)
            r.copy_(s)
        else:
            r = s.detach().clone()
        self._rebind(r.requires_grad_(t.requires_grad and t.is_leaf), 0)
    return self


def resize_(self: Tensor, shape: list | tuple, fill_zero: bool = False,
            name: str | None = None) -> Tensor:
    """Give this tensor a new shape in place, keeping its leading elements in order.

    A tensor in a graph stays in it: the kept elements pass their gradients back, the new
    ones get none.

    Args:
        shape (list|tuple): the new shape, of non-negative ints (or 0-D int Tensors).
        fill_zero (bool, optional): fill the elements beyond the old size with zeros
            (otherwise their values are unspecified). Default: False.
        name (str, optional): unused.

    Returns:
        Tensor: this tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(4)
        >>> x.resize_([3, 2], fill_zero=True).tolist()
        [[0, 1], [2, 3], [0, 0]]
    """
    check_inplace(self, "Tensor.resize_")
    if not isinstance(shape, (list, tuple)):
        raise ValueError(f"paddle.Tensor.resize_: shape should be a list or tuple, but "
                         f"received {type(shape).__name__} {shape!r}")
    new = []
    for d in shape:
        if isinstance(d, Tensor):
            d = d.item()
        if isinstance(d, float):
            raise TypeError(f"paddle.Tensor.resize_: shape must be a list of ints, but it "
                            f"holds the float {d!r}")
        new.append(int(d))
    if any(d < 0 for d in new):
        raise ValueError(f"paddle.Tensor.resize_: each value of shape must be no less than 0, "
                         f"but received shape {new}")
    t = self._t.reshape(-1)
    n = math.prod(new)
    if n > t.numel():
        fill = torch.zeros if fill_zero else torch.empty
        t = torch.cat([t, fill(n - t.numel(), dtype=t.dtype, device=t.device)])
    else:
        t = t[:n].clone()
    self._rebind(t.reshape(new))
    return self


def repeat(self: Tensor, repeats: Any, *more: int) -> Tensor:
    """Tile this tensor ``repeats[i]`` times along each axis (like ``paddle.tile``).

    When fewer repeats than dimensions are given, the leading axes are repeated once.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([1, 2]).repeat(2, 2).tolist()
        [[1, 2, 1, 2], [1, 2, 1, 2]]
        >>> paddle.to_tensor([[1, 2], [3, 4]]).repeat(2).tolist()
        [[1, 2, 1, 2], [3, 4, 3, 4]]
    """
    reps = [repeats, *more] if more or not isinstance(repeats, (list, tuple, Tensor)) else repeats
    return _m.tile(self, reps)


def type_as(self: Tensor, other: Tensor) -> Tensor:
    """This tensor cast to the dtype of ``other``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2]).type_as(paddle.to_tensor([1])).dtype
        <DataType.INT64: 9>
    """
    return astype(self, other.dtype)  # this tensor itself when the dtypes match, as Paddle


def astype(self: Tensor, dtype: Any) -> Tensor:
    """This tensor converted to ``dtype`` (see :func:`paddle.cast`); the tensor itself when it
    already has that dtype, as in Paddle (``paddle.cast`` always copies).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.5, 2.5])
        >>> x.astype('int32').tolist(), x.astype('float32') is x
        ([1, 2], True)
    """
    try:
        same = _dt.to_torch_dtype(dtype, "paddle.Tensor.astype") is self._t.dtype
    except (TypeError, ValueError):
        same = False  # paddle.cast reports the bad dtype
    return self if same else _m.cast(self, dtype)


def is_same_shape(self: Tensor, y: Tensor) -> bool:
    """Whether this tensor and ``y`` have the same shape.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2, 3]).is_same_shape(paddle.zeros([2, 3]))
        True
    """
    return self._t.shape == y._t.shape


for _f in (contiguous, detach_, copy_, resize_, repeat, type_as, astype, is_same_shape):
    setattr(Tensor, _f.__name__, _f)


def _int_like(a: Any) -> bool:
    return isinstance(a, int) or (isinstance(a, Tensor) and a._t.dim() == 0)


def _variadic(fn: Callable) -> Callable:
    """The form that also takes the shape as separate ints after the tensor, as Paddle's
    decorators do: ``x.reshape(2, 3)``, ``paddle.reshape(x, 2, 3)``, ``paddle.permute(x, 1, 0)``
    (ints or 0-D tensors; any other call passes through as it is)."""

    @functools.wraps(fn)
    def api(*args, **kwargs):
        if len(args) > 2 and all(_int_like(a) for a in args[1:]):
            return fn(args[0], list(args[1:]), **kwargs)
        return fn(*args, **kwargs)

    return api


# The function forms (this module comes after ``manipulation`` in the family list, so these
# wrappers are the public ``paddle.reshape``...) and the methods.
reshape = _variadic(_m.reshape)
expand = _variadic(_m.expand)
view = _variadic(_m.view)
permute = _variadic(_m.permute)
for _f in (reshape, expand, view, permute):
    setattr(Tensor, _f.__name__, _f)


def _aliases() -> None:
    """Method names Paddle attaches for functions whose first argument is the tensor."""
    from pagaie._ops import indexing as _ix, indexing_scatter as _sc
    Tensor.reverse = _m.flip
    Tensor.swapaxes = Tensor.swapdims = Tensor.transpose
    Tensor.broadcast_tensors = _m.broadcast_tensors
    Tensor.scatter_nd = _sc.scatter_nd
    Tensor.take_along_dim = _ix.take_along_axis


_aliases()
