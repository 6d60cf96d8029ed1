"""pagaie's Tensor: one torch.Tensor behind Paddle's tensor semantics.

Only the state and the protocol methods live here (shape, dtype, place,
stop_gradient, grad, conversion, printing, autograd entry points). Every
computing method (``x.add``, ``x.reshape``, ``x + y`` ...) is attached by the op
records in ``pagaie._ops``.
"""
from __future__ import annotations

import collections
import enum
import itertools
import operator
import weakref
from typing import Any, Callable

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.place import Place, default_device, place_of, to_torch_device

__all__ = ["Tensor", "Size", "wrap", "unwrap", "unwrap_args", "unwrap_kwargs", "as_torch",
           "require_grad", "flag_grad", "is_grad_leaf", "check_inplace", "GRAD_FLAG", "CARRIED",
           "UNTRACKED_GRADS", "reset_generated_names"]

# Paddle's eager names: tensors made from data are named at creation ``generated_tensor_N``;
# op results are named ``eager_tmp_N`` when first asked, from a counter of their own.
_name_counter = itertools.count()
_tmp_counter = itertools.count()


def reset_generated_names() -> None:
    """Restart the ``generated_tensor_N`` numbering (Paddle does when leaving static mode)."""
    global _name_counter
    _name_counter = itertools.count()


def next_data_number() -> int:
    """The next number of the counter Paddle shares among tensors made from data
    (``generated_tensor_N``), detached ones (``eager_in_tmp_N``) and ``dygraph_tmp_N`` names."""
    return next(_name_counter)


def name_as_data(t: Tensor, source: Any = None) -> Tensor:
    """Name ``t``, just made from data, as Paddle names such tensors at creation:
    ``generated_tensor_N``, or the name of ``source`` when that is a Tensor."""
    if type(t) is Tensor:
        t._name = source.name if isinstance(source, Tensor) else \
            f"generated_tensor_{next_data_number()}"
    return t

# Attribute set on a torch tensor that Paddle reports as stop_gradient=False although torch
# autograd cannot track it (integer tensors, gradients). Absent means "not set".
GRAD_FLAG = "_pagaie_stop_gradient_false"
# Switched on (for good) once a tensor torch cannot track says stop_gradient=False: from then
# on the dispatcher also checks the untracked results of differentiable ops (registry.py).
UNTRACKED_GRADS = [False]


# The GRAD_FLAG value of an op's untracked result: like Paddle's integer results, it says
# stop_gradient=False without being a leaf (a user's flagged tensor or a gradient is one).
CARRIED = "carried"


def flag_grad(t: torch.Tensor, carried: bool = False) -> None:
    """Mark ``t`` (a torch tensor torch cannot track) as saying ``stop_gradient=False``;
    ``carried`` for an op's result (not a leaf)."""
    setattr(t, GRAD_FLAG, CARRIED if carried else True)
    UNTRACKED_GRADS[0] = True


def is_grad_leaf(t: torch.Tensor) -> bool:
    """Whether torch tensor ``t`` is a leaf that says ``stop_gradient=False`` (a flagged
    integer leaf too, not an op's flagged result)."""
    return t.is_leaf and (t.requires_grad or getattr(t, GRAD_FLAG, False) is True)


def check_inplace(x: "Tensor", api: str, out_of_place: str | None = None) -> None:
    """Paddle's rule for every in-place op with a backward: a leaf tensor that doesn't stop
    gradient, whatever its dtype, can't be written in place (ValueError), unless gradients are
    off (``no_grad``: a manual parameter update writes the leaf's values)."""
    if is_grad_leaf(x._t) and torch.is_grad_enabled():
        hint = f"use the out-of-place paddle.{out_of_place}" if out_of_place else \
            "set stop_gradient=True first"
        raise ValueError(f"paddle.{api}: Leaf Tensor {x.name!r} that doesn't stop gradient "
                         f"can't use inplace strategy ({hint})")


def is_leaf_view(t: torch.Tensor) -> bool:
    """Whether torch tensor ``t`` is a view of a leaf that needs gradients, with gradients on
    (an in-place op on it then follows :func:`write_leaf_view`)."""
    return t.requires_grad and t._base is not None and t._base.is_leaf and torch.is_grad_enabled()


def write_leaf_view(view: "Tensor", write: Any) -> "Tensor":
    """An in-place op on ``view``, a view of a leaf that needs gradients (``y = x[0];
    y.add_(1)``): as Paddle, the leaf's memory takes the values (the leaf stays the same leaf)
    and the view takes the op as its history. ``write(c)`` does the op on ``c``, a Tensor
    holding a copy of the view; its values then go into the shared memory through an alias of
    the view (same memory and version counter) that takes the copy's history."""
    t = view._t
    c = wrap(t.clone())
    version = c._t._version
    r = write(c)
    r = r._t if isinstance(r, Tensor) else c._t
    if r is c._t and c._t._version == version:   # nothing written (``y[False] = v``)
        return view
    if r.shape != t.shape or r.dtype is not t.dtype:
        raise ValueError(f"an in-place result of shape {list(r.shape)} and dtype {r.dtype} "
                         f"cannot be written into a view of shape {list(t.shape)} and dtype {t.dtype}")
    alias = t.detach()
    alias.copy_(r)
    view._t = alias
    return view


def is_dense(t: torch.Tensor) -> bool:
    """Whether ``t``'s strides are exactly the row-major strides of its shape (torch's
    is_contiguous ignores the strides of length-1 axes; Paddle's does not)."""
    if not t.is_contiguous():
        return False
    if t.numel() == 0:   # (any strides: nothing to lay out)
        return True
    expected = 1
    for size, stride in zip(reversed(t.shape), reversed(t.stride())):
        if stride != expected:
            return False
        expected *= size
    return True


def require_grad(t: torch.Tensor) -> torch.Tensor:
    """Make ``t`` (a torch tensor, in place) say ``stop_gradient=False``: a gradient leaf when
    its dtype can carry gradients, else only flagged as Paddle's integer tensors are."""
    if t.is_floating_point() or t.is_complex():
        return t.requires_grad_(True)
    flag_grad(t)
    return t

# Element types that make a list/tuple argument need unwrapping: Tensor and every
# subclass (registered by Tensor.__init_subclass__) and nested sequences. Checked with
# set.isdisjoint over map(type, ...), which runs in C: shape lists cost almost nothing.
_NEEDS_UNWRAP: set = {list, tuple}


class Size(list):
    """A tensor shape: a list of ints that prints as ``paddle.Size([2, 3])``. As Paddle's, it
    equals the list or tuple of the same ints, and concatenating or repeating it gives a Size.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2, 3]).shape == [2, 3], paddle.ones([2, 3]).shape == (2, 3)
        (True, True)
        >>> paddle.Size([2]) + (3,)
        paddle.Size([2, 3])
    """

    def __init__(self, sizes: Any = ()) -> None:
        if type(sizes) is torch.Size:   # a tensor's shape: ints already (the hot path)
            list.__init__(self, sizes)
            return
        list.__init__(self, [_size_item(v, i) for i, v in enumerate(sizes)])

    def __repr__(self) -> str:
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for d in self:
            n *= d
        return n

    def __eq__(self, other: object) -> Any:
        return list.__eq__(self, list(other) if isinstance(other, tuple) else other)

    def __ne__(self, other: object) -> Any:
        return list.__ne__(self, list(other) if isinstance(other, tuple) else other)

    __hash__ = None  # type: ignore[assignment]  (a list: unhashable)

    # As Paddle's, results of list operations are Sizes without the constructor's checks.
    def __add__(self, other):  # type: ignore[override]
        return _as_size(list(self) + list(other))

    def __radd__(self, other):
        return _as_size(list(other) + list(self))

    def __mul__(self, n):  # type: ignore[override]
        return _as_size(list.__mul__(self, n))

    __rmul__ = __mul__

    def __getitem__(self, i):  # type: ignore[override]
        r = list.__getitem__(self, i)
        return _as_size(r) if isinstance(i, slice) else r

    def __reduce__(self) -> tuple:
        return (_as_size, (list(self),))


def _as_size(items: list) -> Size:
    s = list.__new__(Size)
    list.extend(s, items)
    return s


def _size_item(v: Any, i: int) -> int:
    """One entry of ``paddle.Size(...)``: an int (a 0-D Tensor gives its value as an int)."""
    if isinstance(v, int):
        return v
    if isinstance(v, Tensor) and v._t.dim() == 0:
        return int(v._t.item())
    if not isinstance(v, Tensor):
        try:
            return operator.index(v)
        except TypeError:
            pass
    kind = "Tensor" if isinstance(v, Tensor) else type(v).__name__
    raise TypeError(f"paddle.Size: takes an iterable of ints, but item {i} is {kind} {v!r:.40}")


class VarType(enum.IntEnum):
    """Paddle's variable kinds (the values of Paddle's ``VarDesc.VarType`` enum)."""

    DENSE_TENSOR = 7
    SELECTED_ROWS = 8

    def __str__(self) -> str:
        return f"VarType.{self.name}"

    def __repr__(self) -> str:
        return f"<VarType.{self.name}: {int(self)}>"


class _TensorType(type):
    """The type of Tensor classes: ``print(type(x))`` shows the class where Paddle's lives
    (``<class 'paddle.Tensor'>``), as scripts and tutorials print it. A subclass may name its
    Paddle counterpart in ``_paddle_class``; otherwise Python's own repr is used."""

    def __repr__(cls) -> str:
        shown = cls.__dict__.get("_paddle_class")
        return f"<class '{shown}'>" if shown else super().__repr__()


class Tensor(metaclass=_TensorType):
    """A multi-dimensional array with Paddle's semantics, stored as one ``torch.Tensor``.

    Create tensors with :func:`pagaie.to_tensor` and the other creation APIs.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> x.shape, x.dtype
        (paddle.Size([2, 2]), <DataType.FLOAT32: 10>)
    """

    # Only the torch tensor is a slot; the rarely-set attributes live in the instance
    # dict with class-level defaults, so wrapping a kernel result sets one field.
    __slots__ = ("_t", "__weakref__", "__dict__")
    _paddle_class = "paddle.Tensor"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _NEEDS_UNWRAP.add(cls)
    # As Paddle: numpy ufuncs refuse Tensors (``np.sin(t)`` is a TypeError) and numpy's
    # operators defer to the Tensor's reflected ones (``arr + t`` is ``t.__radd__(arr)``).
    __array_ufunc__ = None
    _name: str | None = None
    # Paddle's ``inplace_version`` minus torch's version counter of ``_t`` (see
    # ``inplace_version``); set only by the few in-place APIs whose counting differs.
    _version_bias: int = 0

    # ---- construction -------------------------------------------------------------
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Paddle's constructor forms: ``Tensor()`` (empty), ``Tensor(list)`` and
        ``Tensor(data=...)`` (float32 data), ``Tensor(d0, d1, ...)`` (an uninitialised float32
        tensor of that shape), each on ``device=`` (the CPU by default); ``Tensor(value, place,
        persistable, zero_copy, name, stop_gradient, ...)`` with ``value`` a numpy array (a
        copy) or a Tensor (sharing its data, stopping gradient); and the legacy
        ``Tensor(dtype, dims, name, type, persistable)``.

        Examples:
            >>> import numpy as np
            >>> import pagaie as paddle
            >>> paddle.Tensor([1, 2]).dtype, paddle.Tensor(2, 3).shape
            (<DataType.FLOAT32: 10>, paddle.Size([2, 3]))
            >>> paddle.Tensor(np.array([1, 2], 'int32'), paddle.CPUPlace()).dtype
            <DataType.INT32: 7>
        """
        t, name, stop_gradient, persistable, extra, temporaries = _constructor_args(args, kwargs)
        self._t = t if stop_gradient else require_grad(t.detach())
        self._name = name
        if name is None:
            if temporaries:
                next_data_number()   # Paddle's list and data forms name a temporary first
            name_as_data(self)
        self.persistable = persistable
        if extra:
            self.__dict__.update(extra)

    # ---- core attributes ----------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._t.shape)

    @property
    def ndim(self) -> int:
        return self._t.dim()

    def dim(self) -> int:
        """Number of dimensions (same as ``ndim``)."""
        return self._t.dim()

    ndimension = dim

    @property
    def size(self) -> "TensorSize":
        """Number of elements: an int that can also be called, ``x.size()`` giving the
        shape and ``x.size(d)`` one dimension's length, as in Paddle 3."""
        return _TensorSize(self)

    @property
    def dtype(self) -> _dt.DType:
        return _dt.from_torch_dtype(self._t.dtype)

    @property
    def place(self) -> Place:
        return place_of(self._t.device)

    @property
    def is_leaf(self) -> bool:
        """Whether no op made this tensor within autograd (an op's integer result that
        says stop_gradient=False is not a leaf, as in Paddle)."""
        t = self._t
        return t.is_leaf and getattr(t, GRAD_FLAG, None) is not CARRIED and not hasattr(t, _IN_GRAPH)

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = f"eager_tmp_{next(_tmp_counter)}"
        return self._name

    @name.setter
    def name(self, value: str | None) -> None:
        if value is not None and not isinstance(value, str):
            raise TypeError(f"paddle.Tensor.name: must be a str, but received "
                            f"{type(value).__name__} {value!r:.40}")
        self._name = None if value is None else str(value)   # None: a generated name, as Paddle

    @property
    def persistable(self) -> bool:
        """Whether the tensor is kept by static programs' scopes (parameters and buffers)."""
        return self.__dict__.get("persistable", False)

    @persistable.setter
    def persistable(self, value: bool | None) -> None:
        if value is not None and type(value) is not bool:
            raise TypeError(f"paddle.Tensor.persistable: must be a bool, but received "
                            f"{type(value).__name__} {value!r:.40}")
        self.__dict__["persistable"] = bool(value)

    # Paddle lets integer tensors (and gradients, see ``grad``) say stop_gradient=False although
    # torch autograd does not track them; the flag is then kept on the torch tensor itself, so
    # every wrapper of the same data agrees (as Paddle's ``x.grad`` wrappers do).
    @property
    def stop_gradient(self) -> bool:
        t = self._t
        return not (t.requires_grad or getattr(t, GRAD_FLAG, False))

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        if value is None:
            value = False   # as Paddle reads it
        elif type(value) is not bool:
            raise TypeError(f"paddle.Tensor.stop_gradient: must be a bool, but received "
                            f"{type(value).__name__}")
        t = self._t
        if value:
            if getattr(t, GRAD_FLAG, False):
                setattr(t, GRAD_FLAG, False)
            if t.requires_grad:
                if t.is_leaf:
                    self._t = t.requires_grad_(False)
                else:
                    # As Paddle, the tensor stays a non-leaf that keeps its place in the graph:
                    # stop_gradient=False later joins the graph again.
                    self._t = t.detach()
                    setattr(self._t, _IN_GRAPH, t)
        elif not (t.requires_grad or getattr(t, GRAD_FLAG, False)):
            orig = getattr(t, _IN_GRAPH, None)
            if orig is not None and orig.shape == t.shape and orig.dtype == t.dtype:
                self._t = orig
                return
            if hasattr(t, GRAD_FLAG) or not (t.is_floating_point() or t.is_complex()):
                flag_grad(t)  # a gradient or an integer tensor: flag only
                return
            self._t = t.requires_grad_(True) if t.is_leaf else t.detach().requires_grad_(True)

    @property
    def requires_grad(self) -> bool:
        """``not stop_gradient`` (the torch-style spelling Paddle also accepts)."""
        return not self.stop_gradient

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.stop_gradient = not value

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``stop_gradient = not requires_grad`` in place and return this tensor.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.ones([2]).requires_grad_()
            >>> x.stop_gradient
            False
        """
        self.stop_gradient = not requires_grad
        return self

    @property
    def grad(self) -> Tensor | None:
        g = _stored_grad(self._t)
        if g is None:
            return None
        if not hasattr(g, GRAD_FLAG):
            # Paddle's gradients say stop_gradient=False (torch's never track gradients), and
            # so do results computed from them; a stop_gradient=True set by the user is kept.
            flag_grad(g)
        out = wrap(g)
        d = self.__dict__
        if "process_mesh" in d and d.get("placements") is not None:
            # As Paddle: the gradient of a distributed tensor is distributed like it.
            from pagaie.distributed.auto_parallel import _mark
            _mark(out, d["process_mesh"], list(d["placements"]))
        return out

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        # As Paddle: the values are copied, into the gradient already there (which keeps its
        # stop_gradient) or into a new one that says stop_gradient=True; only a leaf takes one.
        if not self.is_leaf:
            raise SystemError("(Fatal) paddle.Tensor.grad: only a leaf Tensor can have its "
                              "gradient set, but this one is the result of an op")
        if value is None:
            g = None
        elif not isinstance(value, Tensor):
            raise ValueError(f"paddle.Tensor.grad: the gradient must be a Tensor or None, but "
                             f"received {type(value).__name__}")
        else:
            t, v = self._t, value._t
            if list(v.shape) != list(t.shape) or v.dtype != t.dtype:
                raise RuntimeError(
                    f"paddle.Tensor.grad: the gradient must have the tensor's shape "
                    f"{list(t.shape)} and dtype {wrap(t).dtype}, but received shape "
                    f"{list(v.shape)} and dtype {value.dtype}")
            old = _stored_grad(t)
            if old is not None:
                with torch.no_grad():
                    old.copy_(v)
                return
            g = v.detach().clone()
            setattr(g, GRAD_FLAG, False)
        _store_grad(self._t, g)

    @property
    def grad_(self) -> Tensor | None:
        """The gradient (same as ``grad``)."""
        return self.grad

    @grad_.setter
    def grad_(self, value: Tensor | None) -> None:
        self.grad = value

    def gradient(self) -> np.ndarray | None:
        """The gradient as a numpy array, or None before any backward.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
            >>> (x * x).sum().backward()
            >>> x.gradient()
            array([2., 4.], dtype=float32)
        """
        g = _stored_grad(self._t)
        return None if g is None else wrap(g).numpy()

    @property
    def grad_fn(self) -> Any:
        """The node that computes this tensor's gradient (None when it stops gradient).

        The node has ``name()`` and ``next_functions``; leaves that need a gradient
        report Paddle's ``GradNodeAccumulation``.
        """
        t = self._t
        if not t.requires_grad:
            return None
        return GradNode(t.grad_fn, t)

    @property
    def inplace_version(self) -> int:
        """How many times this tensor has been modified in place, counted as Paddle does.

        Every in-place op counts one, the shape and dtype changing ones (``reshape_``,
        ``unsqueeze_``, ``cast_``...) included; ``set_value`` and ``copy_`` do not count.
        In-place writes through a view count for its base too (torch's shared counter).

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.ones([2, 3])
            >>> _ = x.reshape_([3, 2]).scale_(2.0)
            >>> x.set_value(paddle.zeros([3, 2]))
            >>> x.inplace_version
            2
        """
        return self._t._version + self._version_bias

    def _bump_inplace_version(self) -> None:
        """Count one more in-place modification (Paddle's private hook for custom ops)."""
        self._version_bias += 1

    def _rebind(self, t: torch.Tensor, bump: int = 1) -> None:
        """Make this tensor hold ``t`` (the result of a shape/dtype changing in-place op),
        keeping its ``inplace_version`` and adding ``bump``."""
        version = self._t._version + self._version_bias + bump
        self._t = t
        self._version_bias = version - t._version

    @property
    def device(self) -> Any:
        """The device as a string-like ``Device`` (``'cpu'``, ``'cuda:0'``)."""
        from pagaie._core.device_name import device_of
        return device_of(self._t)

    def get_device(self) -> int:
        """The GPU index of this tensor, -1 on the CPU."""
        d = self._t.device
        return -1 if d.type == "cpu" else (d.index or 0)

    @property
    def is_cuda(self) -> bool:
        return self._t.is_cuda

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self._t.element_size()

    def stride(self, dim: int | None = None) -> list | int:
        """Element strides of every axis, or of axis ``dim``."""
        if dim is None:
            return list(self._t.stride())
        n = self._t.dim()
        if not isinstance(dim, int) or not -max(n, 1) <= dim < max(n, 1):
            raise ValueError(f"paddle.Tensor.stride: dim must be in the range [{-max(n, 1)}, "
                             f"{max(n, 1) - 1}], but received {dim!r}")
        return self._t.stride(dim)

    def is_tensor(self) -> bool:
        return True

    @property
    def data(self) -> Tensor:
        return wrap(self._t.detach())

    @data.setter
    def data(self, value: Any) -> None:
        """Make this tensor hold ``value``'s data (shape and dtype too), as Paddle: only a
        Tensor is taken; a tensor that needs gradients may take integer data (it then keeps
        saying stop_gradient=False, torch cannot track it)."""
        if not isinstance(value, Tensor):
            raise ValueError(f"paddle.Tensor.data: the value must be a Tensor, but received "
                             f"{type(value).__name__}")
        t, v = self._t, value._t
        with torch.no_grad():
            if t.requires_grad and t.is_leaf and not (v.is_floating_point() or v.is_complex()):
                t.requires_grad_(False)
                t.data = v
                flag_grad(t)
            else:
                t.data = v

    def is_sparse(self) -> bool:
        """Whether the tensor uses a sparse layout (COO or CSR)."""
        return self._t.layout is not torch.strided

    @property
    def layout(self) -> str:
        return "NCHW"

    @property
    def type(self) -> "VarType":
        """The variable kind, ``VarType.DENSE_TENSOR`` (Paddle's enum of the same name)."""
        return VarType.DENSE_TENSOR

    @property
    def strides(self) -> list:
        return list(self._t.stride())

    def get_strides(self) -> list:
        return list(self._t.stride())

    @property
    def offset(self) -> int:
        return self._t.storage_offset() * self._t.element_size()

    def is_dense(self) -> bool:
        return self._t.layout is torch.strided

    def is_dist(self) -> bool:
        return False

    def element_size(self) -> int:
        """Bytes per element."""
        return self._t.element_size()

    def is_contiguous(self) -> bool:
        """Whether the strides are the row-major strides of the shape. As in Paddle, every axis
        counts, a length-1 one too (``x[::3]`` of a [3, 4] tensor, strides [12, 1], is not).
        A sparse tensor says True, as Paddle's (it has no strides to be out of order)."""
        t = self._t
        return t.layout is not torch.strided or is_dense(t)

    def data_ptr(self) -> int:
        return self._t.data_ptr()

    def is_floating_point(self) -> bool:
        return self._t.is_floating_point() and self._t.dtype not in _FLOAT8

    def is_complex(self) -> bool:
        return self._t.is_complex()

    def is_integer(self) -> bool:
        return not (self._t.is_floating_point() or self._t.is_complex() or self._t.dtype is torch.bool)

    # ---- conversion ---------------------------------------------------------------
    def numpy(self, *args: Any, **kwargs: Any) -> np.ndarray:
        """Copy to a numpy array. bfloat16 values come back as their uint16 bit patterns,
        as in Paddle (numpy has no bfloat16). Arguments (Paddle's ``force=``) are ignored."""
        t = self._t.detach()
        on_cpu = t.device.type == "cpu"
        if not on_cpu:
            t = t.cpu()  # already a copy
        if t.dtype is torch.bfloat16:
            a = t.view(torch.int16).numpy().view(np.uint16)
        elif t.dtype in _FLOAT8:   # numpy has no float8 either: the bit patterns, as int8
            a = t.view(torch.int8).numpy()
        else:
            a = t.resolve_conj().numpy() if t.is_complex() else t.numpy()
        # Paddle returns a copy: later in-place updates of the tensor must not show through.
        return a.copy() if on_cpu else a

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def item(self, *args: int) -> Any:
        """The value of a one-element tensor (or of element ``args``) as a Python number."""
        t = self._t
        if args:
            args = tuple(_item_index(a) for a in args)
            dims = [t.numel()] if len(args) == 1 else list(t.shape)
            # Paddle reads the indices as unsigned: a negative one is out of bounds
            if len(args) != len(dims) or any(not 0 <= i < d for i, d in zip(args, dims)):
                raise ValueError(f"paddle.Tensor.item: index {list(args)} is out of bounds for "
                                 f"a tensor of shape {list(t.shape)} (negative indices are "
                                 "not supported)")
            return t.reshape(-1)[args[0]].item() if len(args) == 1 else t[args].item()
        if t.numel() != 1:
            raise ValueError(f"paddle.Tensor.item: only a tensor with exactly one element can be "
                             f"converted to a Python scalar, but this one has shape {list(t.shape)}")
        return t.item()

    def tolist(self) -> Any:
        if self._t.layout is not torch.strided:
            raise TypeError("paddle.Tensor.tolist: a sparse tensor has no dense data; convert "
                            "it with to_dense() first")
        if self._t.dtype is torch.bfloat16 or self._t.dtype in _FLOAT8:
            return self.numpy().tolist()   # as Paddle: the bit patterns numpy() gives
        return self._t.tolist()

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.stop_gradient:
            # As Paddle (and the DLPack protocol's rule for autograd tensors).
            raise BufferError("paddle.Tensor.__dlpack__: can't export a Tensor that requires "
                              "gradients (stop_gradient=False); export tensor.detach() instead")
        dl_device = kwargs.get("dl_device")
        if kwargs.get("copy") is False and dl_device is not None:
            kind, index = self.__dlpack_device__()
            if (int(dl_device[0]), dl_device[1]) not in ((int(kind), index), (int(kind), 0)):
                # the array API's error for a cross-device export that may not copy
                raise BufferError(f"paddle.Tensor.__dlpack__: the tensor is on {self.place}, so "
                                  f"exporting it to dl_device={tuple(dl_device)} needs a copy, "
                                  "but copy=False was given")
        return self._t.detach().__dlpack__(*args, **kwargs)

    def __dlpack_device__(self) -> tuple[Any, int | None]:
        """The DLPack device of the data, as Paddle gives it: ``(DLDeviceType.kDLCUDA, gpu
        index)`` on a GPU, ``(DLDeviceType.kDLCPU, None)`` on the CPU.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.ones([2]).__dlpack_device__()
            (<DLDeviceType.kDLCPU: 1>, None)
        """
        from pagaie.utils.dlpack import DLDeviceType
        dev = self._t.device
        if dev.type == "cuda":
            return DLDeviceType.kDLCUDA, dev.index
        return DLDeviceType.kDLCPU, None

    def cpu(self) -> Tensor:
        """A copy on the CPU (the tensor itself when already there)."""
        return self if self._t.device.type == "cpu" else wrap(self._t.cpu())

    def _copy_to(self, place: Place, blocking: bool) -> Tensor:
        """A copy of this tensor on ``place`` (a Place), outside autograd: the copy stops
        gradient and is a leaf, and keeps this tensor's ``name`` and ``persistable``, as in
        Paddle.

        Args:
            place (Place): where the copy goes (``CPUPlace()``, ``CUDAPlace(0)``...).
            blocking (bool): whether the copy waits until it is done.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
            >>> y = x._copy_to(paddle.CPUPlace(), True)
            >>> y.tolist(), y.stop_gradient
            ([1.0, 2.0], True)
        """
        if not isinstance(place, Place):
            raise TypeError("paddle.Tensor._copy_to: 'place' must be a Place (CPUPlace, "
                            f"CUDAPlace...), but received {type(place).__name__}")
        dev = to_torch_device(place, "paddle.Tensor._copy_to")
        out = wrap(self._t.detach().to(dev, copy=True, non_blocking=not blocking))
        out._name = self.name
        out.persistable = self.persistable
        return out

    def cuda(self, device_id: int | None = None, blocking: bool = True) -> Tensor:
        """A copy on GPU ``device_id`` (the current one by default)."""
        dev = to_torch_device("gpu" if device_id is None else f"gpu:{device_id}", "paddle.Tensor.cuda")
        return wrap(self._t.to(dev, non_blocking=not blocking))

    def pin_memory(self, blocking: bool = True) -> Tensor:
        """A copy in page-locked host memory (the tensor itself when already there); it keeps
        ``stop_gradient`` and ``persistable``. RuntimeError without a GPU, as in Paddle's CPU
        builds (page-locked memory serves host-to-GPU copies)."""
        t = self._t
        if t.device.type == "cpu" and t.is_pinned():
            return self
        if not torch.cuda.is_available():
            raise RuntimeError("paddle.Tensor.pin_memory: page-locked (CUDA pinned) memory needs "
                               "a GPU, and this installation sees none")
        out = wrap(t.detach().cpu().pin_memory())
        out.stop_gradient = self.stop_gradient
        out.persistable = self.persistable
        return out

    def _to(self, device: Any = None, dtype: Any = None, blocking: bool | None = None,
            copy_tensor: bool | None = None) -> Tensor:
        """Move to ``device`` and/or cast to ``dtype`` (the worker of :meth:`to`)."""
        if device is not None:
            if not isinstance(device, (str, Place, torch.device)):
                raise ValueError("paddle.Tensor.to: device must be a str, paddle.CPUPlace() or "
                                 f"paddle.CUDAPlace(), but received {type(device).__name__} {device!r}")
            dev = to_torch_device(device, "paddle.Tensor.to")
        if blocking is not None and not isinstance(blocking, bool):
            raise AssertionError("paddle.Tensor.to: blocking must be True, False or None, but "
                                 f"received {blocking!r}")
        t = self._t
        if device is not None:
            t = t.to(dev, non_blocking=blocking is False and dev.type == "cuda")
        if dtype is not None:
            d = _dt.to_torch_dtype(dtype.lower() if isinstance(dtype, str) else dtype, "paddle.Tensor.to")
            if d is not t.dtype:   # (a cast is a new row-major tensor in Paddle, as any result)
                t = t.to(d, memory_format=torch.contiguous_format)
        if t is self._t:
            # Paddle compares a dtype name with the tensor's dtype object, never equal: a name
            # always casts, into a new tensor (a dtype object equal to the tensor's does not)
            if copy_tensor or isinstance(dtype, str):
                return wrap(t.clone(memory_format=torch.contiguous_format))
            return self
        if getattr(self._t, GRAD_FLAG, False) or (self._t.requires_grad and not t.requires_grad):
            flag_grad(t)  # an integer result still says stop_gradient=False
        return wrap(t)

    _TO_DTYPES = frozenset(("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32",
                            "int64", "uint8", "complex64", "complex128", "bool"))

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """Move and/or cast, as Paddle reads the arguments: ``x.to(dtype, blocking)``,
        ``x.to(device, dtype, blocking)`` or ``x.to(other, blocking)`` (``other``'s place and
        dtype); also the keywords ``device``, ``dtype``, ``blocking``, ``other``,
        ``non_blocking`` and ``copy``.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1, 2])
            >>> x.to("float64").dtype
            <DataType.FLOAT64: 11>
            >>> x.to("cpu", "float16").dtype
            <DataType.FLOAT16: 15>
        """
        non_blocking = kwargs.pop("non_blocking", False)
        copy_tensor = kwargs.pop("copy", False)
        n = len(args) + len(kwargs)
        if n == 0 or n > 3:
            raise TypeError("paddle.Tensor.to: expected (device, dtype, blocking), (dtype, blocking) "
                            f"or (other, blocking), but received {n} arguments")
        unknown = set(kwargs) - {"device", "dtype", "blocking", "other"}
        if unknown:
            raise TypeError(f"paddle.Tensor.to: got an unexpected keyword argument {sorted(unknown)[0]!r}")
        device = dtype = None
        blocking = kwargs.get("blocking")
        if args:
            a = args[0]
            rest = args[1:]
            if isinstance(a, Tensor):
                device, dtype = a.place, a.dtype
                blocking = rest[0] if rest else blocking
            elif isinstance(a, (_dt.DType, np.dtype)) or (isinstance(a, str) and a.lower() in self._TO_DTYPES):
                dtype = a
                blocking = rest[0] if rest else blocking
            else:
                device = a
                if rest:
                    dtype = rest[0]
                    blocking = rest[1] if len(rest) > 1 else blocking
                else:
                    dtype = kwargs.get("dtype")
        else:
            device, dtype = kwargs.get("device"), kwargs.get("dtype")
            other = kwargs.get("other")
            if device is None and dtype is None and other is not None:
                device, dtype = other.place, other.dtype
        blocking = bool(blocking) and not non_blocking
        if copy_tensor:
            return self._to(device, dtype, blocking, True)
        return self._to(device, dtype, blocking)

    # ---- autograd -----------------------------------------------------------------
    def backward(self, grad_tensor: Tensor | None = None, retain_graph: bool = False, *,
                 dump_backward_graph_path: str | None = None) -> None:
        """Accumulate the gradients of this tensor into the ``grad`` of the leaves.

        Args:
            grad_tensor: the initial gradient; ones when omitted.
            retain_graph: keep the graph for a second backward.
            dump_backward_graph_path: a directory to write the backward graph into (``.dot``).

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
            >>> (x * x).sum().backward()
            >>> x.grad.tolist()
            [2.0, 4.0]
        """
        t = self._t
        if retain_graph is None:   # Paddle reads None as False
            retain_graph = False
        elif type(retain_graph) is not bool:
            raise TypeError(f"paddle.Tensor.backward: retain_graph must be a bool, but "
                            f"received {type(retain_graph).__name__} {retain_graph!r}")
        if grad_tensor is None and dump_backward_graph_path is None:
            # The common case goes straight to the autograd engine: the per-op overhead
            # benchmark counts this call.
            if not t.requires_grad:
                return
            fn = t.grad_fn
            if fn is not None and fn.metadata.get(RELEASED):
                from pagaie.autograd.backward_mode import _released_error
                raise _released_error("Tensor.backward")
            if t.layout is torch.strided:
                g = torch.ones_like(t)
            else:  # sparse: ones at the stored entries
                from pagaie.autograd.backward_mode import initial_grad
                g = initial_grad(t)
            try:
                _run_backward((t,), (g,), bool(retain_graph), False, (), True, True)
            except RuntimeError as exc:
                from pagaie.autograd.backward_mode import _autograd_error
                raise _autograd_error("Tensor.backward", exc) from None
            if fn is not None and not retain_graph:
                fn.metadata[RELEASED] = True
            return
        if isinstance(grad_tensor, Tensor) and list(grad_tensor.shape) != list(self.shape):
            # unlike paddle.grad and paddle.autograd.backward, Paddle's Tensor.backward wants
            # the very shape
            raise AssertionError(f"paddle.Tensor.backward: grad_tensor has shape "
                                 f"{list(grad_tensor.shape)}, which does not match the shape "
                                 f"{list(self.shape)} of the tensor")
        from pagaie.autograd.backward_mode import backward
        backward([self], None if grad_tensor is None else [grad_tensor], retain_graph,
                 dump_backward_graph_path=dump_backward_graph_path)

    def register_hook(self, hook: Callable) -> Any:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned
        tensor replaces the gradient. Returns a handle with ``remove()``."""
        if self.stop_gradient:
            raise RuntimeError("paddle.Tensor.register_hook: cannot register a hook on a tensor "
                               "that stops gradient (stop_gradient=True)")
        from pagaie._core.hook_handle import TensorHookRemoveHelper
        if not self._t.requires_grad:
            # An integer tensor that says stop_gradient=False: Paddle takes the hook, which
            # no gradient ever reaches; the handle still removes it once.
            import torch.utils.hooks as torch_hooks
            kept = self._t.__dict__.setdefault("_pagaie_untracked_hooks", collections.OrderedDict())
            handle = torch_hooks.RemovableHandle(kept)
            kept[handle.id] = hook
            return TensorHookRemoveHelper(self, handle)

        owner = weakref.ref(self._t)

        def torch_hook(g: torch.Tensor | None) -> torch.Tensor | None:
            if g is None:  # an output that got no gradient: Paddle's hook sees zeros
                o = owner()
                if o is None:
                    return None
                g = torch.zeros_like(o)
            if not g.requires_grad:
                setattr(g, GRAD_FLAG, True)  # gradients say stop_gradient=False in Paddle
            try:
                with torch.enable_grad():   # as Paddle: hooks run with gradients enabled
                    r = hook(wrap(g))
            except Exception as exc:  # noqa: BLE001
                # As Paddle: an error raised by the hook during backward comes out as an
                # OSError ("External") naming the original type.
                from pagaie.autograd.py_layer import _external_error
                raise _external_error("paddle.Tensor.register_hook: the hook", exc) from exc
            if r is not None and not isinstance(r, Tensor):
                # Paddle crashes on such a value; an error in backward is its OSError
                raise OSError(f"(External) paddle.Tensor.register_hook: the hook must return a "
                              f"Tensor or None, but returned {type(r).__name__}")
            return None if r is None else r._t

        return TensorHookRemoveHelper(self, self._t.register_hook(torch_hook))

    def _register_backward_hook(self, hook: Callable[[], Any]) -> None:
        """Call ``hook()`` (no arguments) each time a backward pass has accumulated this
        leaf tensor's gradient into ``grad``; ``paddle.grad`` does not call it. The hook
        cannot be removed, and its return value is ignored.

        Args:
            hook (Callable[[], Any]): the function to call.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([5.0], stop_gradient=False)
            >>> calls = []
            >>> x._register_backward_hook(lambda: calls.append(x.grad.item()))
            >>> (x * 3).sum().backward()
            >>> calls
            [3.0]
        """
        if self.stop_gradient:
            raise ValueError("paddle.Tensor._register_backward_hook: cannot register a backward "
                             "hook on a tensor that stops gradient (stop_gradient=True)")
        if not self.is_leaf:
            raise ValueError("paddle.Tensor._register_backward_hook: a backward hook can only be "
                             "registered on a leaf tensor, but this tensor was made by an op")
        if not self._t.requires_grad:
            return  # an integer leaf: no gradient is ever accumulated into it

        def torch_hook(_t: torch.Tensor) -> None:
            try:
                hook()
            except Exception as exc:  # noqa: BLE001
                # Paddle's backward ends with a SystemError when this hook raises
                raise SystemError(f"paddle.Tensor._register_backward_hook: the hook raised "
                                  f"{type(exc).__name__}: {exc}") from exc

        self._t.register_post_accumulate_grad_hook(torch_hook)

    def retain_grads(self) -> None:
        """Keep the gradient of this non-leaf tensor after backward, as Paddle does: the
        gradient as it arrives at this call's place among the tensor's hooks (hooks registered
        later do not change it), replaced (not accumulated) by each backward.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
            >>> z = x * 2
            >>> z.retain_grads()
            >>> (z * z).sum().backward()
            >>> z.grad.tolist()
            [4.0, 8.0]
        """
        t = self._t
        if not t.requires_grad or t.grad_fn is None or hasattr(t, _KEPT_GRAD):
            return
        setattr(t, _KEPT_GRAD, None)
        owner = weakref.ref(t)

        def keep(g: torch.Tensor | None) -> None:
            o = owner()
            if o is not None:
                # torch gives None to an output of a node that got no gradient (the unused
                # half of a split); Paddle's backward fills it with zeros. A copy: the same
                # buffer may flow on into a leaf's ``.grad``, which later backwards add into
                setattr(o, _KEPT_GRAD, torch.zeros_like(o) if g is None else g.detach().clone())

        t.register_hook(keep)

    def clear_gradient(self, set_to_zero: bool = True) -> None:
        """Reset the gradient: to zeros (default, as Paddle) or to None.

        As in Paddle, the zeroed gradient is left behind by the next backward that reaches
        this tensor: that backward writes into a new buffer, so a gradient taken before it
        stays zero (unless it was written to meanwhile, in which case backward adds to it).

        Args:
            set_to_zero (bool, optional): fill the gradient with zeros (True) or drop it
                (False). Default: True.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
            >>> (x * 2).sum().backward()
            >>> g = x.grad
            >>> x.clear_gradient()
            >>> (x * 3).sum().backward()
            >>> g.tolist(), x.grad.tolist()
            ([0.0, 0.0], [3.0, 3.0])
        """
        if set_to_zero is not None and type(set_to_zero) is not bool:
            raise TypeError(f"paddle.Tensor.clear_gradient: set_to_zero must be a bool, but "
                            f"received {type(set_to_zero).__name__} {set_to_zero!r}")
        t = self._t
        g = _stored_grad(t)
        if g is None:
            return
        if not set_to_zero:
            _store_grad(t, None)
            return
        g.detach_().zero_()
        if t.grad_fn is None and t.requires_grad:
            _leave_zeroed_grad(t, g)

    def clear_grad(self) -> None:
        """Reset the gradient to zeros."""
        self.clear_gradient(True)

    def _clear_data(self) -> None:
        """Release the tensor's memory (it then holds no values)."""
        self._t = torch.empty(0, dtype=self._t.dtype, device=self._t.device)
        setattr(self._t, _CLEARED, True)

    # ---- casts and functions over the data ------------------------------------------
    def _cast(self, dt: torch.dtype) -> Tensor:
        # Through the cast op record, so static recording and autocast see it.
        return self.astype(_dt.from_torch_dtype(dt))

    def byte(self) -> Tensor:
        """Cast to uint8."""
        return self._cast(torch.uint8)

    def char(self) -> Tensor:
        """Cast to int8."""
        return self._cast(torch.int8)

    def short(self) -> Tensor:
        """Cast to int16."""
        return self._cast(torch.int16)

    def int(self) -> Tensor:
        """Cast to int32."""
        return self._cast(torch.int32)

    def long(self) -> Tensor:
        """Cast to int64."""
        return self._cast(torch.int64)

    def half(self) -> Tensor:
        """Cast to float16."""
        return self._cast(torch.float16)

    def bfloat16(self) -> Tensor:
        """Cast to bfloat16."""
        return self._cast(torch.bfloat16)

    def float(self) -> Tensor:
        """Cast to float32.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.to_tensor([1, 2]).float().dtype
            <DataType.FLOAT32: 10>
        """
        return self._cast(torch.float32)

    def double(self) -> Tensor:
        """Cast to float64."""
        return self._cast(torch.float64)

    def bool(self) -> Tensor:
        """Cast to bool."""
        return self._cast(torch.bool)

    def apply(self, func: Callable[[Tensor], Tensor]) -> Tensor:
        """``func(self)``, for a tensor that stops gradient.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.to_tensor([1.0, 2.0]).apply(lambda t: t * 2).tolist()
            [2.0, 4.0]
        """
        if not self.stop_gradient:
            raise RuntimeError("paddle.Tensor.apply: cannot apply a function on a tensor that "
                               "requires gradient (stop_gradient=False)")
        r = func(self)
        # (a function returning None leaves the tensor as it is: a new Tensor holding its data)
        return wrap(self._t.detach()) if r is None else r

    def apply_(self, func: Callable[[Tensor], Tensor]) -> Tensor:
        """Make this tensor hold ``func(self)`` (its data, shape and dtype, as Paddle; None
        leaves it unchanged) and return it.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0])
            >>> _ = x.apply_(lambda t: t * 3)
            >>> x.tolist()
            [3.0, 6.0]
        """
        if not self.stop_gradient:
            raise RuntimeError("paddle.Tensor.apply_: cannot apply a function on a tensor that "
                               "requires gradient (stop_gradient=False)")
        r = func(self)
        if r is not None:
            with torch.no_grad():
                self._t.data = as_torch(r)
        return self

    # ---- protocol -----------------------------------------------------------------
    def __len__(self) -> int:
        if self._t.dim() == 0:
            raise _ProtocolError("paddle.Tensor: len() of a 0-D tensor is wrong")
        return self._t.shape[0]

    def __iter__(self):
        # As Paddle (which iterates by indexing until IndexError): a 0-D tensor iterates over
        # nothing, so ``for``/``in`` see no element, while list()/tuple() fail on len().
        return (self[i] for i in range(self._t.shape[0] if self._t.dim() else 0))

    def __length_hint__(self) -> int:
        # Reached by list()/tuple() only when len() failed, that is for a 0-D tensor: Python
        # ignores a TypeError here, hence the plain AssertionError Paddle's len() raises.
        raise AssertionError("paddle.Tensor: len() of a 0-D tensor is wrong")

    def __bool__(self) -> bool:
        if self._t.numel() != 1:
            raise _ProtocolError("paddle.Tensor: the truth value of a tensor with more than one "
                                 "element is ambiguous; use .any() or .all()")
        v = self._t.item()
        # Paddle's truth value is ``bool(numpy(x) > 0)``: negative values and NaN are False
        if type(v) is complex:
            return v.real > 0 or (v.real == 0 and v.imag > 0)
        return bool(v) if type(v) is bool else v > 0

    def _scalar(self, kind: str) -> Any:
        t = self._t
        if t.numel() != 1:
            raise _ProtocolError(f"paddle.Tensor: only a tensor with one element can be converted "
                                 f"to {kind}, but this one has shape {list(t.shape)}")
        if t.dim() != 0:  # as Paddle on numpy 2: only 0-D tensors convert to Python scalars
            raise TypeError(f"paddle.Tensor: only 0-dimensional tensors can be converted to a "
                            f"Python {kind}, but this one has shape {list(t.shape)}; use .item()")
        return t.item()

    def __nonzero__(self) -> bool:
        """Python 2's name of ``__bool__`` (Paddle keeps it)."""
        return self.__bool__()

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __long__(self) -> int:
        """Python 2's name of ``__int__`` (Paddle keeps it)."""
        return int(self._scalar("long"))

    def __complex__(self) -> complex:
        return complex(self._scalar("complex"))

    def __index__(self) -> int:
        t = self._t
        if t.numel() != 1:
            raise _ProtocolError(f"paddle.Tensor: only a tensor with one element can be converted "
                                 f"to a Python index, but this one has shape {list(t.shape)}")
        if t.dim() != 0 or t.is_complex():
            raise TypeError("paddle.Tensor: only a real 0-dimensional tensor can be used as an "
                            f"index, but this one has shape {list(t.shape)}")
        return int(t.item())

    def __hash__(self) -> int:
        return id(self)  # as Paddle: a tensor hashes by identity, to its id()

    def __deepcopy__(self, memo: dict) -> Tensor:
        new = type(self).__new__(type(self))
        # As Paddle: the copy is a new leaf (outside the graph) that keeps stop_gradient.
        new._t = self._t.detach().clone().requires_grad_(self._t.requires_grad)
        new.__dict__.update(self.__dict__)
        new.__dict__.pop("_version_bias", None)  # a new tensor: no in-place history
        if getattr(self._t, GRAD_FLAG, False):
            setattr(new._t, GRAD_FLAG, True)
        # As Paddle: the copy is named ``<name>_deepcopy_<n>`` (one counter for all tensors);
        # a plain tensor's copy starts as an empty tensor, which takes a data number first.
        from pagaie.utils import unique_name
        if type(self) is Tensor:
            next_data_number()
        new._name = self.name + unique_name.generate("_deepcopy")
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, proto: int):
        # As Paddle: the data, dtype, place and requires_grad travel; the name does not.
        dev = self._t.device
        place = "cpu" if dev.type == "cpu" else f"gpu:{dev.index or 0}"
        return (_rebuild_tensor, (self.numpy(), self.dtype.name, place, not self.stop_gradient))

    def __repr__(self) -> str:
        from pagaie._core.printing import tensor_repr
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        # As Paddle: a 0-D tensor formats as its Python value ("{}" included); others
        # take only the empty spec, which prints the repr.
        if self._t.dim() == 0:
            return format(self._t.item(), spec)
        return object.__format__(self, spec)

    def value(self) -> Tensor:
        """The tensor itself (Paddle's accessor of the value behind a variable)."""
        return self

    def get_tensor(self) -> Any:
        """The ``DenseTensor`` behind this tensor, sharing its data: ``np.array(d)``,
        ``d.shape()``, ``d._dtype()``, ``d.set(array, place)``...

        Examples:
            >>> import numpy as np
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0])
            >>> d = x.get_tensor()
            >>> d.shape(), np.array(d).tolist()
            ([2], [1.0, 2.0])
            >>> d.set(np.array([5.0, 6.0], 'float32'), paddle.CPUPlace())
            >>> x.tolist()
            [5.0, 6.0]
        """
        from pagaie.static.framework import DenseTensor, _ScopeVar
        return DenseTensor(_ScopeVar(self.name, self))

    # Paddle's private accessors that its own tests and older user code call.
    def _local_value(self) -> "Tensor | None":
        """The local part of a distributed tensor; None for a dense one, as in Paddle
        (``shard_tensor`` gives dist tensors their own)."""
        return None

    def _numel(self) -> int:
        return self._t.numel()

    def _offset(self) -> int:
        """The offset of the data in its storage, in bytes (as ``offset``)."""
        return self.offset

    @property
    def _place_str(self) -> str:
        return str(self.place)

    def _is_dense_tensor_hold_allocation(self) -> bool:
        """Whether the tensor holds memory (False only after ``_clear_data``)."""
        return self._t.layout is torch.strided and not hasattr(self._t, _CLEARED)

    def _grad_ivar(self) -> Tensor | None:
        """The gradient (``grad``), None before any backward."""
        return self.grad

    def _copy_gradient_from(self, other: Tensor) -> None:
        """Make ``other`` this tensor's gradient (sharing its memory, as Paddle does).

        Args:
            other (Tensor): the gradient, of this tensor's shape and dtype.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
            >>> x._copy_gradient_from(paddle.to_tensor([5.0, 6.0]))
            >>> x.grad.tolist()
            [5.0, 6.0]
        """
        if not isinstance(other, Tensor):
            raise ValueError(f"paddle.Tensor._copy_gradient_from: 'other' must be a Tensor, but "
                             f"received {type(other).__name__}")
        if other._t.dtype is not self._t.dtype:
            raise RuntimeError(f"paddle.Tensor._copy_gradient_from: 'other' has dtype "
                               f"{other.dtype.name}, but this tensor has dtype {self.dtype.name}")
        if other._t.shape != self._t.shape:
            raise ValueError(f"paddle.Tensor._copy_gradient_from: 'other' has shape "
                             f"{list(other._t.shape)}, but this tensor has shape "
                             f"{list(self._t.shape)}")
        _store_grad(self._t, other._t.detach())

    def _inplace_version(self) -> int:
        """The ``inplace_version`` counter, as a method (Paddle's private spelling).

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.ones([2])
            >>> _ = x.add_(x)
            >>> x._inplace_version()
            1
        """
        return self.inplace_version

    def _use_gpudnn(self, use_gpudnn: bool = True) -> Tensor:
        """Paddle's switch of the cuDNN kernels for ops on this tensor. The backend picks its
        kernels itself: the result is another handle of this very tensor (same data, name,
        gradient and place in the graph)."""
        out = wrap(self._t)
        out._name = self.name
        return out

    def _md5sum(self) -> str:
        """The MD5 hex digest of the tensor's bytes (as ``numpy().tobytes()``)."""
        import hashlib
        return hashlib.md5(self.numpy().tobytes()).hexdigest()


class _ProtocolError(AssertionError, TypeError, ValueError):
    """Raised by ``len``/``bool``/``int``/``float`` on tensors of the wrong size. Paddle raises
    AssertionError there; this type is also the TypeError/ValueError Python code expects."""


class GradNode:
    """A node of the backward graph, as returned by ``Tensor.grad_fn``."""

    __slots__ = ("_node", "_t")

    def __init__(self, node: Any, t: torch.Tensor | None = None) -> None:
        self._node = node
        self._t = t

    def name(self) -> str:
        """The node's kind, e.g. ``'MulBackward0'``; leaves report ``'GradNodeAccumulation'``."""
        n = self._node
        if n is None or type(n).__name__ == "AccumulateGrad":
            return "GradNodeAccumulation"
        return getattr(n, "_pagaie_name", None) or n.name()

    @property
    def next_functions(self) -> list:
        """The nodes that receive this node's input gradients; ``[None]`` for a leaf's
        accumulation node, as Paddle."""
        n = self._node
        if n is None or type(n).__name__ == "AccumulateGrad":
            return [None]
        return [GradNode(f) for f, _ in n.next_functions if f is not None]

    def _identity(self) -> Any:
        """What the node stands for: a leaf's accumulation node is its tensor."""
        n = self._node
        if n is None:
            return self._t
        return n.variable if type(n).__name__ == "AccumulateGrad" else n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GradNode) and other._identity() is self._identity()

    def __hash__(self) -> int:
        return hash(id(self._identity()))

    def __repr__(self) -> str:
        return f"<GradNode {self.name()}>"


def _conversion_method(dt: torch.dtype) -> Callable:
    def convert(self: Tensor) -> Tensor:
        return self._cast(dt)
    convert.__doc__ = f"Cast to {_dt.from_torch_dtype(dt).name}."
    return convert


# Paddle's dtype-named conversion methods: ``x.float32()``, ``x.cfloat()``...
for _n, _d in (("float16", torch.float16), ("float32", torch.float32), ("float64", torch.float64),
               ("int8", torch.int8), ("int16", torch.int16), ("int32", torch.int32),
               ("int64", torch.int64), ("uint8", torch.uint8), ("complex64", torch.complex64),
               ("complex128", torch.complex128), ("cfloat", torch.complex64),
               ("cdouble", torch.complex128)):
    setattr(Tensor, _n, _conversion_method(_d))
    getattr(Tensor, _n).__name__ = _n


def _from_numpy(array: np.ndarray, dtype: str) -> torch.Tensor:
    a = np.array(array)
    if dtype == "bfloat16" and a.dtype == np.uint16:  # numpy() gives bfloat16 as its bit patterns
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a).to(_dt.to_torch_dtype(dtype))


def _rebuild(array: np.ndarray, dtype: str, stop_gradient: bool, name: str | None) -> Tensor:
    """Unpickle a Tensor pickled by an older pagaie (kept for those pickles)."""
    return Tensor(_from_numpy(array, dtype), stop_gradient=stop_gradient, name=name)


def _rebuild_tensor(array: np.ndarray, dtype: str, place: str, requires_grad: bool) -> Tensor:
    """Unpickle a Tensor: on its place when this machine has it (else the default device)."""
    t = _from_numpy(array, dtype)
    try:
        t = t.to(to_torch_device(place, "paddle.Tensor"))
    except Exception:  # noqa: BLE001  (a GPU pickle loaded without that GPU)
        t = t.to(default_device())
    return Tensor(t, stop_gradient=not requires_grad)


_FLOAT8 = _dt.FLOAT8
_new = object.__new__
_run_backward = torch.autograd.Variable._execution_engine.run_backward


_NEEDS_UNWRAP.add(Tensor)


_CTOR_ORDER = ("value", "place", "persistable", "zero_copy", "name", "stop_gradient", "dims",
               "dtype", "type", "process_mesh", "placements")
_LEGACY_ORDER = ("dtype", "dims", "name", "type", "persistable")


# The key, in the metadata of a torch graph node, that says a backward without retain_graph
# started from it: as in Paddle, another backward from there raises even when torch kept
# nothing it would miss.
RELEASED = "_pagaie_released"

# The attribute of the detached torch tensor a non-leaf gets from stop_gradient=True: the
# tensor in the graph, taken back by stop_gradient=False.
_IN_GRAPH = "_pagaie_in_graph"

# The attribute of a non-leaf torch tensor holding the gradient ``retain_grads`` kept.
_KEPT_GRAD = "_pagaie_kept_grad"

# The attribute of the empty torch tensor ``_clear_data`` leaves: the memory was released.
_CLEARED = "_pagaie_cleared"


# The attribute of a leaf torch tensor whose gradient ``clear_gradient`` zeroed: the zeroed
# buffer and its version then; ``_ZEROED_HOOK``: the hook that acts on it, registered once.
_ZEROED = "_pagaie_zeroed_grad"
_ZEROED_HOOK = "_pagaie_zeroed_grad_hook"


def _leave_zeroed_grad(t: torch.Tensor, g: torch.Tensor) -> None:
    """Mark the zeroed gradient ``g`` of the leaf ``t`` so that the next backward reaching
    ``t`` writes into a new buffer, as Paddle's does, and ``g`` (and the Tensors
    that share it) stays zero. A buffer written to after the clear is kept and added to."""
    setattr(t, _ZEROED, (g, g._version))
    if hasattr(t, _ZEROED_HOOK):
        return
    owner = weakref.ref(t)

    def renew_zeroed_grad(grad: torch.Tensor) -> None:
        o = owner()
        mark = None if o is None else o.__dict__.pop(_ZEROED, None)
        if mark is not None and o.grad is mark[0] and mark[0]._version == mark[1]:
            # No gradient: autograd then stores the incoming one (usually without a copy).
            o.grad = None

    setattr(t, _ZEROED_HOOK, t.register_hook(renew_zeroed_grad))


def _store_grad(t: torch.Tensor, g: torch.Tensor | None) -> None:
    """Store ``g`` as the gradient of ``t``: torch's slot for a floating leaf, our own for a
    non-leaf (what ``retain_grads`` keeps) and for an integer tensor (torch keeps none)."""
    if t.grad_fn is None and (t.is_floating_point() or t.is_complex()):
        t.grad = g
    else:
        setattr(t, _KEPT_GRAD, g)


def _stored_grad(t: torch.Tensor) -> torch.Tensor | None:
    """The gradient stored for ``t``: for a non-leaf, the one ``retain_grads`` kept (None
    otherwise, without torch's warning); for a leaf, autograd's, with real zeros in place of
    torch's data-less zero tensor."""
    if t.grad_fn is not None:   # a non-leaf: what retain_grads kept, if anything
        return getattr(t, _KEPT_GRAD, None)
    g = t.grad
    if g is None and not (t.is_floating_point() or t.is_complex()):
        return getattr(t, _KEPT_GRAD, None)   # an integer leaf's gradient set by the user
    if g is not None and g._is_zerotensor():
        g = t.grad = torch.zeros_like(g)
    return g


def _has_complex(v: Any) -> bool:
    """Whether data (numbers, arrays, torch tensors, nested lists of them) holds complex values."""
    if isinstance(v, (list, tuple)):
        return any(_has_complex(e) for e in v)
    if isinstance(v, (np.ndarray, np.generic)):
        return v.dtype.kind == "c"
    if isinstance(v, torch.Tensor):
        return v.is_complex()
    return isinstance(v, complex)


def _float32_data(data: Any, device: Any) -> torch.Tensor:
    """``paddle.Tensor(list)`` / ``paddle.Tensor(data=...)``: the data converted as
    ``paddle.tensor(data, dtype='float32', device=device)`` converts it (a new copy)."""
    from pagaie._ops.creation import _from_data
    raw = unwrap(data)
    if _has_complex(raw):   # (Paddle drops the imaginary parts silently)
        raise TypeError(f"paddle.Tensor: a list builds a real (float32) tensor, but received "
                        f"complex numbers in {data!r:.80}; use paddle.to_tensor for complex data")
    t = _from_data(raw, torch.float32, "Tensor")
    return t.to(to_torch_device("cpu" if device is None else device, "paddle.Tensor"))


def _ndarray_data(value: np.ndarray, zero_copy: bool = False) -> torch.Tensor:
    """A copy of ``value`` (Paddle copies the array), a uint16 array as bfloat16 bit patterns;
    with ``zero_copy``, a contiguous writable array's own memory, as Paddle shares it. ValueError
    for the dtypes Paddle's constructor refuses."""
    if value.dtype not in _dt.NUMPY_DATA_TYPES:
        raise ValueError(f"paddle.Tensor: numpy arrays of dtype {value.dtype} are not supported; use "
                         "bool, (u)int8, int16, int32, int64, float16/32/64, complex64/128 or "
                         "uint16 (bfloat16 bits)")
    if value.dtype == np.uint16:
        return torch.from_numpy(value.astype(np.uint16).view(np.int16).copy()).view(torch.bfloat16)
    if zero_copy and value.flags.c_contiguous and value.flags.writeable:
        return torch.from_numpy(value)
    return torch.from_numpy(np.array(value, copy=True))


# The types Paddle's constructor checks its keyword arguments against (None passes too).
_CTOR_TYPES = {"persistable": (bool, "bool"), "zero_copy": (bool, "bool"),
               "stop_gradient": (bool, "bool"), "name": (str, "str")}


def _checked_ctor_kwargs(kwargs: dict, flags: bool = True) -> None:
    """Paddle's type checks of the constructor's keywords (``flags`` False: not of the bool
    ones, which Paddle ignores when the value is a Tensor)."""
    for k, (tp, shown) in _CTOR_TYPES.items():
        if tp is bool and not flags:
            continue
        v = kwargs.get(k)
        if v is not None and not isinstance(v, tp):
            raise TypeError(f"paddle.Tensor: argument {k!r} must be a {shown}, but received "
                            f"{type(v).__name__} {v!r:.40}")
    place = kwargs.get("place", _NO_PLACE)
    if place is not _NO_PLACE and not isinstance(place, (Place, torch.device)):
        raise TypeError(f"paddle.Tensor: argument 'place' must be a Place (paddle.CPUPlace(), "
                        f"paddle.CUDAPlace(i)...), but received {type(place).__name__} {place!r:.40}")


_NO_PLACE = object()


def _is_var_type(v: Any) -> bool:
    """Whether ``v`` is a member of the legacy ``VarDesc.VarType`` enum (defined in
    ``pagaie.base``, above this layer: it is known by its dtype hook)."""
    return hasattr(type(v), "__paddle_dtype__")


def _is_dtype_object(v: Any) -> bool:
    """Whether ``v`` is a paddle dtype or a legacy ``VarType`` dtype member."""
    return isinstance(v, _dt.DType) or getattr(v, "__paddle_dtype__", None) is not None


def _is_legacy_form(args: tuple, kwargs: dict) -> bool:
    """Whether a call is ``Tensor(dtype, dims, name, type, persistable)``: a dtype object first,
    or, without positional arguments nor ``value``, a ``dtype`` or ``dims`` keyword."""
    if args:
        return _is_dtype_object(args[0])
    return "value" not in kwargs and ("dtype" in kwargs or "dims" in kwargs)


def _legacy_dims(dims: Any) -> list:
    """The ``dims`` of the legacy form as Paddle's argument parser reads them: an int, or a list
    or tuple of ints (None: no dimensions)."""
    if dims is None:
        return []
    if isinstance(dims, int) and not isinstance(dims, bool):
        dims = [dims]
    if not isinstance(dims, (list, tuple)):
        raise TypeError(f"paddle.Tensor: argument 'dims' must be a list or tuple of ints, but "
                        f"received {type(dims).__name__}")
    for d in dims:
        if isinstance(d, bool) or not hasattr(d, "__index__"):
            raise TypeError(f"paddle.Tensor: argument 'dims' must be a list of ints, but received "
                            f"{type(d).__name__} {d!r:.20} in {list(dims)!r:.60}")
    dims = [operator.index(d) for d in dims]
    if any(d < 0 for d in dims):   # (Paddle keeps a negative size in the shape)
        raise ValueError(f"paddle.Tensor: each of 'dims' must be at least 0, but received {dims}")
    return dims


def _legacy_tensor(args: tuple, kwargs: dict) -> tuple:
    """``Tensor(dtype, dims, name, type, persistable)``: all five by position, or all by keyword
    (where Paddle ignores ``place``, ``stop_gradient`` and ``zero_copy``); zeros of that dtype
    and shape, where Paddle leaves the memory unallocated."""
    if args:
        # Paddle parses positional arguments with keywords as the value form's: a keyword
        # naming a slot a positional one fills cannot be parsed
        clash = sorted(set(kwargs) & set(_CTOR_ORDER[:len(args)]))
        if clash:
            raise RuntimeError(f"paddle.Tensor: argument(s) {clash} given by position and by keyword")
        if len(args) < len(_LEGACY_ORDER) or kwargs:
            raise ValueError(f"paddle.Tensor: the form Tensor(dtype, dims, name, type, persistable) "
                             f"takes all five arguments by position and no keyword, but received "
                             f"{len(args)} and {sorted(kwargs)}; otherwise the first argument should "
                             "be a numpy array or a Tensor")
        if len(args) > len(_LEGACY_ORDER):
            raise RuntimeError(f"paddle.Tensor: too many positional arguments ({len(args)})")
        kwargs = dict(zip(_LEGACY_ORDER, args))
    dtype = kwargs.get("dtype")
    if not _is_dtype_object(dtype):
        raise ValueError(f"paddle.Tensor: built from keywords without 'value', 'dtype' must be a "
                         f"paddle dtype, but received {dtype!r:.40}")
    missing = [k for k in _LEGACY_ORDER if k not in kwargs]
    if missing:
        raise ValueError(f"paddle.Tensor: the form Tensor(dtype=, dims=, name=, type=, persistable=) "
                         f"needs every one of them, but {missing} are missing")
    if not _is_var_type(kwargs["type"]):
        raise TypeError(f"paddle.Tensor: argument 'type' must be a paddle.base.core.VarDesc.VarType, "
                        f"but received {type(kwargs['type']).__name__}")
    _checked_ctor_kwargs({k: kwargs[k] for k in ("name", "persistable")})
    t = torch.zeros(_legacy_dims(kwargs["dims"]), dtype=_dt.to_torch_dtype(dtype, "paddle.Tensor"),
                    device=default_device())
    return t, kwargs["name"], True, bool(kwargs["persistable"]), None, 0


def _constructor_args(args: tuple, kwargs: dict) -> tuple:
    """Parse ``Tensor(...)``'s forms into (torch tensor, name, stop_gradient, persistable, extra,
    how many data numbers a temporary took: see ``Tensor.__init__``)."""
    # As Paddle 3: ``device=`` (the CPU when absent) places the list, data, shape and empty
    # forms, whose other arguments are ignored; a list or ``data=`` becomes float32.
    device = kwargs.pop("device", None)
    if not args and not kwargs:
        t = torch.empty(0, dtype=torch.float32, device=to_torch_device(device or "cpu", "paddle.Tensor"))
        return t, None, True, False, None, 0
    if "data" in kwargs or (len(args) == 1 and isinstance(args[0], (list, tuple))):
        data = kwargs["data"] if "data" in kwargs else args[0]
        return _float32_data(data, device), None, True, False, None, int(not isinstance(data, Tensor))
    if args and all(isinstance(a, int) for a in args) and not kwargs:
        if any(type(a) is bool for a in args):
            raise TypeError(f"paddle.Tensor: the shape must be ints, but received {list(args)}")
        if any(a < 0 for a in args):
            raise ValueError(f"paddle.Tensor: each dimension of the shape must be at least 0, "
                             f"but received {list(args)}")
        t = torch.empty(args, dtype=torch.float32, device=to_torch_device(device or "cpu", "paddle.Tensor"))
        return t, None, True, False, None, 0
    unknown = set(kwargs) - set(_CTOR_ORDER)
    if unknown:
        raise RuntimeError(f"paddle.Tensor: could not parse the arguments; unexpected keyword(s) "
                           f"{sorted(unknown)}; the accepted ones are {list(_CTOR_ORDER)}")
    if _is_legacy_form(args, kwargs):
        return _legacy_tensor(args, kwargs)
    if len(args) > len(_CTOR_ORDER):
        raise RuntimeError(f"paddle.Tensor: too many positional arguments ({len(args)})")
    for k, a in zip(_CTOR_ORDER, args):
        if k in kwargs:
            raise RuntimeError(f"paddle.Tensor: argument {k!r} given by position and by keyword")
        kwargs[k] = a
    # The value form: Paddle ignores ``dtype`` and ``dims`` here.
    value = kwargs.get("value")
    if not isinstance(value, (Tensor, torch.Tensor, np.ndarray)):
        raise ValueError("paddle.Tensor: the first argument should be a numpy array, a Tensor or a "
                         f"list, but received {type(value).__name__}")
    _checked_ctor_kwargs(kwargs, flags=not isinstance(value, Tensor))
    sg = kwargs.get("stop_gradient", True)
    persistable = bool(kwargs.get("persistable"))
    if isinstance(value, Tensor):
        # As Paddle: a new tensor sharing the data, outside the graph; it stops gradient and
        # is not persistable, whatever the arguments say.
        t, sg, persistable = value._t.detach(), True, False
    elif isinstance(value, torch.Tensor):
        t = value
    else:
        t = _ndarray_data(value, bool(kwargs.get("zero_copy")))
    place = kwargs.get("place")
    if place is not None:
        t = t.to(to_torch_device(place, "paddle.Tensor"))
    elif not isinstance(value, (Tensor, torch.Tensor)):  # new data: the current device, as Paddle
        t = t.to(default_device())
    extra = {k: kwargs[k] for k in ("process_mesh", "placements") if kwargs.get(k) is not None}
    return t, kwargs.get("name"), bool(sg), persistable, extra, 0   # (None reads as False)


def wrap(out: Any) -> Any:
    """Wrap kernel results (torch tensors, possibly in tuples/lists) as pagaie Tensors."""
    if type(out) is torch.Tensor:
        t = _new(Tensor)
        t._t = out
        return t
    if isinstance(out, tuple):
        return tuple([wrap(o) for o in out])
    if isinstance(out, list):
        return [wrap(o) for o in out]
    if isinstance(out, torch.Tensor):  # a torch subclass such as nn.Parameter
        return wrap(out.as_subclass(torch.Tensor))
    return out


def _item_index(a: Any) -> int:
    """An index argument of ``Tensor.item``: an int or a 0-D integer Tensor, as Paddle takes it."""
    if isinstance(a, Tensor):
        if a._t.dim() != 0:
            raise ValueError(f"paddle.Tensor.item: a Tensor index must be 0-D, but received shape "
                             f"{list(a._t.shape)}")
        a = a._t.item()
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
        raise TypeError(f"paddle.Tensor.item: index must be an int, but got {type(a).__name__} ({a!r})")
    return int(a)


def unwrap(a: Any) -> Any:
    """The torch value behind an argument: Tensors (also inside lists/tuples) are unwrapped."""
    if isinstance(a, Tensor):
        return a._t
    if (type(a) is list or type(a) is tuple) and not _NEEDS_UNWRAP.isdisjoint(map(type, a)):
        return type(a)([unwrap(e) for e in a])
    return a


def unwrap_args(args: tuple) -> list:
    """:func:`unwrap` applied to each positional argument."""
    return [unwrap(a) for a in args]


def unwrap_kwargs(kwargs: dict) -> dict:
    """:func:`unwrap` applied to each keyword argument."""
    return {k: unwrap(v) for k, v in kwargs.items()} if kwargs else kwargs


def as_torch(x: Any, dtype: torch.dtype | None = None) -> torch.Tensor:
    """A torch tensor for any tensor-like (Tensor, torch tensor, numpy array, scalar, list)."""
    if isinstance(x, Tensor):
        t = x._t
    elif isinstance(x, torch.Tensor):
        t = x
    else:
        t = torch.as_tensor(x)
    return t if dtype is None or t.dtype == dtype else t.to(dtype)


from pagaie._core.tensor_size import TensorSize as _TensorSize  # noqa: E402 (uses Tensor)
