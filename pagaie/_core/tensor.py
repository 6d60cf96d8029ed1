"""pagaie's Tensor: one torch.Tensor behind Paddle's tensor semantics.

Only the state and the protocol methods live here (shape, dtype, place,
stop_gradient, grad, conversion, printing, autograd entry points). Every
computing method (``x.add``, ``x.reshape``, ``x + y`` ...) is attached by the op
records in ``pagaie._ops``.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.place import Place, place_of, to_torch_device

__all__ = ["Tensor", "Size", "wrap", "unwrap", "unwrap_args", "unwrap_kwargs", "as_torch"]

_name_counter = itertools.count()


class Size(list):
    """A tensor shape: a list of ints that prints as ``paddle.Size([2, 3])``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2, 3]).shape == [2, 3]
        True
    """

    def __repr__(self) -> str:
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for d in self:
            n *= d
        return n

    def __add__(self, other):  # type: ignore[override]
        return Size(list(self) + list(other))

    def __getitem__(self, i):  # type: ignore[override]
        r = list.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r


class Tensor:
    """A multi-dimensional array with Paddle's semantics, stored as one ``torch.Tensor``.

    Create tensors with :func:`pagaie.to_tensor` and the other creation APIs.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> x.shape, x.dtype
        (paddle.Size([2, 2]), paddle.float32)
    """

    # Only the torch tensor is a slot; the rarely-set attributes live in the instance
    # dict with class-level defaults, so wrapping a kernel result sets one field.
    __slots__ = ("_t", "__weakref__", "__dict__")
    __array_priority__ = 100
    _name: str | None = None
    persistable: bool = False

    # ---- construction -------------------------------------------------------------
    def __init__(self, data: Any = None, dtype: Any = None, place: Any = None,
                 stop_gradient: bool = True, name: str | None = None) -> None:
        if isinstance(data, Tensor):
            t = data._t
        elif isinstance(data, torch.Tensor):
            t = data
        elif data is None:
            t = torch.empty(0)
        else:
            t = torch.as_tensor(np.asarray(data))
        if dtype is not None:
            t = t.to(_dt.to_torch_dtype(dtype, "paddle.Tensor"))
        if place is not None:
            t = t.to(to_torch_device(place, "paddle.Tensor"))
        self._t = t.detach().requires_grad_(not stop_gradient) if not stop_gradient else t
        self._name = name
        self.persistable = False

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
    def size(self) -> int:
        """Number of elements (Paddle's ``Tensor.size`` is a property, not a method)."""
        return self._t.numel()

    @property
    def dtype(self) -> _dt.DType:
        return _dt.from_torch_dtype(self._t.dtype)

    @property
    def place(self) -> Place:
        return place_of(self._t.device)

    @property
    def is_leaf(self) -> bool:
        return self._t.is_leaf

    @property
    def name(self) -> str:
        if self._name is None:
            self._name = f"generated_tensor_{next(_name_counter)}"
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value

    @property
    def stop_gradient(self) -> bool:
        return not self._t.requires_grad

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        t = self._t
        if value:
            if t.requires_grad:
                self._t = t.detach() if not t.is_leaf else t.requires_grad_(False)
        elif not t.requires_grad:
            if not (t.is_floating_point() or t.is_complex()):
                return  # integer tensors never carry gradients, as in Paddle
            self._t = t.requires_grad_(True) if t.is_leaf else t.detach().requires_grad_(True)

    @property
    def grad(self) -> Tensor | None:
        g = self._t.grad
        return None if g is None else wrap(g)

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        self._t.grad = None if value is None else as_torch(value)

    @property
    def data(self) -> Tensor:
        return wrap(self._t.detach())

    @data.setter
    def data(self, value: Any) -> None:
        with torch.no_grad():
            self._t.data = as_torch(value)

    @property
    def is_sparse(self) -> bool:
        return self._t.is_sparse

    @property
    def layout(self) -> str:
        return "NCHW"

    @property
    def type(self) -> str:
        return "DENSE_TENSOR"

    @property
    def strides(self) -> list:
        return list(self._t.stride())

    def get_strides(self) -> list:
        return list(self._t.stride())

    @property
    def offset(self) -> int:
        return self._t.storage_offset() * self._t.element_size()

    def is_dense(self) -> bool:
        return not self._t.is_sparse

    def is_dist(self) -> bool:
        return False

    def element_size(self) -> int:
        """Bytes per element."""
        return self._t.element_size()

    def is_contiguous(self) -> bool:
        return self._t.is_contiguous()

    def data_ptr(self) -> int:
        return self._t.data_ptr()

    def is_floating_point(self) -> bool:
        return self._t.is_floating_point()

    def is_complex(self) -> bool:
        return self._t.is_complex()

    def is_integer(self) -> bool:
        return not (self._t.is_floating_point() or self._t.is_complex() or self._t.dtype is torch.bool)

    # ---- conversion ---------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """Copy to a numpy array (bfloat16 becomes float32's bit-compatible uint16 in Paddle;
        here it becomes float32 values)."""
        t = self._t.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        if t.dtype is torch.bfloat16:
            return t.float().numpy()
        return t.numpy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def item(self, *args: int) -> Any:
        """The value of a one-element tensor (or of element ``args``) as a Python number."""
        t = self._t
        if args:
            idx = args[0] if len(args) == 1 else args
            return t.reshape(-1)[idx].item() if len(args) == 1 else t[idx].item()
        if t.numel() != 1:
            raise ValueError(f"paddle.Tensor.item: only a tensor with exactly one element can be "
                             f"converted to a Python scalar, but this one has shape {list(t.shape)}")
        return t.item()

    def tolist(self) -> Any:
        return self._t.tolist()

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self._t.detach().__dlpack__(*args, **kwargs)

    def __dlpack_device__(self) -> Any:
        return self._t.__dlpack_device__()

    def cpu(self) -> Tensor:
        """A copy on the CPU (the tensor itself when already there)."""
        return self if self._t.device.type == "cpu" else wrap(self._t.cpu())

    def cuda(self, device_id: int | None = None, blocking: bool = True) -> Tensor:
        """A copy on GPU ``device_id`` (the current one by default)."""
        dev = to_torch_device("gpu" if device_id is None else f"gpu:{device_id}", "paddle.Tensor.cuda")
        return wrap(self._t.to(dev, non_blocking=not blocking))

    def pin_memory(self) -> Tensor:
        return wrap(self._t.pin_memory()) if torch.cuda.is_available() else self

    def _to(self, device: Any = None, dtype: Any = None, blocking: bool | None = None) -> Tensor:
        t = self._t
        if device is not None:
            t = t.to(to_torch_device(device, "paddle.Tensor.to"))
        if dtype is not None:
            t = t.to(_dt.to_torch_dtype(dtype, "paddle.Tensor.to"))
        return self if t is self._t else wrap(t)

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """Move and/or cast: ``x.to('cpu')``, ``x.to('float64')``, ``x.to('gpu', 'float16')``."""
        device = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        blocking = kwargs.pop("blocking", None)
        if kwargs:
            raise TypeError(f"paddle.Tensor.to: unexpected arguments {sorted(kwargs)}")
        for a in args:
            if isinstance(a, Tensor):
                device, dtype = a.place, a.dtype
            elif isinstance(a, (Place, torch.device)) or (isinstance(a, str) and _is_device_str(a)):
                device = a
            elif isinstance(a, bool):
                blocking = a
            else:
                dtype = a
        return self._to(device, dtype, blocking)

    # ---- autograd -----------------------------------------------------------------
    def backward(self, grad_tensor: Tensor | None = None, retain_graph: bool = False) -> None:
        """Accumulate the gradients of this tensor into the ``grad`` of the leaves.

        Args:
            grad_tensor: the initial gradient; ones when omitted.
            retain_graph: keep the graph for a second backward.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
            >>> (x * x).sum().backward()
            >>> x.grad.tolist()
            [2.0, 4.0]
        """
        from pagaie.autograd.backward_mode import backward
        backward([self], None if grad_tensor is None else [grad_tensor], retain_graph)

    def register_hook(self, hook: Callable) -> Any:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned
        tensor replaces the gradient. Returns a handle with ``remove()``."""
        if self._t.requires_grad is False:
            raise RuntimeError("paddle.Tensor.register_hook: cannot register a hook on a tensor "
                               "that stops gradient (stop_gradient=True)")

        def torch_hook(g: torch.Tensor) -> torch.Tensor | None:
            r = hook(wrap(g))
            return None if r is None else as_torch(r)

        return self._t.register_hook(torch_hook)

    def retain_grads(self) -> None:
        """Keep the gradient of this non-leaf tensor after backward."""
        if self._t.requires_grad and not self._t.is_leaf:
            self._t.retain_grad()

    def clear_gradient(self, set_to_zero: bool = True) -> None:
        """Reset the gradient: to zeros (default, as Paddle) or to None."""
        g = self._t.grad
        if g is None:
            return
        if set_to_zero:
            g.detach_().zero_()
        else:
            self._t.grad = None

    def clear_grad(self) -> None:
        """Reset the gradient to zeros."""
        self.clear_gradient(True)

    def _clear_data(self) -> None:
        self._t = torch.empty(0, dtype=self._t.dtype, device=self._t.device)

    # ---- protocol -----------------------------------------------------------------
    def __len__(self) -> int:
        if self._t.dim() == 0:
            raise TypeError("len() of a 0-D tensor")
        return self._t.shape[0]

    def __iter__(self):
        if self._t.dim() == 0:
            raise TypeError("iteration over a 0-D tensor")
        for i in range(self._t.shape[0]):
            yield self[i]

    def __bool__(self) -> bool:
        if self._t.numel() != 1:
            raise ValueError("The truth value of a Tensor with more than one element is "
                             "ambiguous; use .any() or .all()")
        return bool(self._t.item())

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

    def __index__(self) -> int:
        if self.is_floating_point() or self._t.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._t.item())

    __hash__ = object.__hash__

    def __deepcopy__(self, memo: dict) -> Tensor:
        new = type(self).__new__(type(self))
        new._t = self._t.detach().clone().requires_grad_(self._t.requires_grad) \
            if self._t.is_leaf else self._t.clone()
        new.__dict__.update(self.__dict__)
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, proto: int):
        return (_rebuild, (self.numpy(), self.dtype.name, self.stop_gradient, self._name))

    def __repr__(self) -> str:
        from pagaie._core.printing import tensor_repr
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._t.dim() == 0 and spec:
            return format(self._t.item(), spec)
        return str(self)

    def value(self) -> Tensor:
        return self

    def get_tensor(self) -> Tensor:
        return self


def _rebuild(array: np.ndarray, dtype: str, stop_gradient: bool, name: str | None) -> Tensor:
    t = Tensor(torch.from_numpy(np.array(array)).to(_dt.to_torch_dtype(dtype)),
               stop_gradient=stop_gradient, name=name)
    return t


def _is_device_str(s: str) -> bool:
    s = s.lower()
    return s == "cpu" or s.startswith(("gpu", "cuda"))


_new = object.__new__


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


def unwrap(a: Any) -> Any:
    """The torch value behind an argument: Tensors (also inside lists/tuples) are unwrapped."""
    if isinstance(a, Tensor):
        return a._t
    if type(a) is list or type(a) is tuple:
        for e in a:
            if isinstance(e, Tensor) or type(e) is list or type(e) is tuple:
                return type(a)([unwrap(e) for e in a])
    return a


def unwrap_args(args: tuple) -> list:
    out = []
    for a in args:
        if isinstance(a, Tensor):
            out.append(a._t)
        elif type(a) is list or type(a) is tuple:
            out.append(unwrap(a))
        else:
            out.append(a)
    return out


def unwrap_kwargs(kwargs: dict) -> dict:
    if not kwargs:
        return kwargs
    return {k: (v._t if isinstance(v, Tensor) else (unwrap(v) if type(v) in _SEQ else v))
            for k, v in kwargs.items()}


_SEQ = (list, tuple)


def as_torch(x: Any, dtype: torch.dtype | None = None) -> torch.Tensor:
    """A torch tensor for any tensor-like (Tensor, torch tensor, numpy array, scalar, list)."""
    if isinstance(x, Tensor):
        t = x._t
    elif isinstance(x, torch.Tensor):
        t = x
    else:
        t = torch.as_tensor(x)
    return t if dtype is None or t.dtype == dtype else t.to(dtype)
