"""Less common ``Tensor`` methods: storage re-pointing (``set_``, ``set_tensor``,
``reconstruct_from_``), the string-list / vocabulary holders Paddle's tokenizer ops use,
the selected-rows and distributed queries as they answer for a plain dense tensor, and
the creation helpers Paddle also hangs on the class.

Attached to :class:`pagaie.Tensor` when this module is imported (by ``pagaie.framework``).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.tensor import _CLEARED, Tensor, check_inplace

__all__ = ["set_", "set_tensor", "reconstruct_from_", "set_string_list", "set_vocab",
           "get_map_tensor", "is_selected_rows", "get_selected_rows", "rows", "create_tensor",
           "create_parameter"]

_TENSOR_T = Tensor._t  # the slot descriptor: reads and writes the torch tensor directly


def _need_tensor(v: Any, api: str, arg: str) -> None:
    if not isinstance(v, Tensor) or isinstance(v, _HolderTensor):
        raise ValueError(f"paddle.Tensor.{api}: {arg} must be a Tensor, but received {type(v).__name__}")


def set_(x: Tensor, source: Tensor | None = None, shape: Sequence[int] | None = None,
         stride: Sequence[int] | None = None, offset: int = 0, name: str | None = None) -> Tensor:
    """Make ``x`` a view of ``source``'s memory with the given shape, stride and offset.

    ``x`` keeps its dtype (the bytes are reinterpreted when ``source``'s dtype differs) and
    shares memory with ``source`` afterwards.

    Args:
        x (Tensor): the tensor to re-point.
        source (Tensor, optional): whose storage to use; an empty tensor when None.
        shape (list|tuple, optional): the new shape; ``source``'s shape when None.
        stride (list|tuple, optional): strides in elements; ``source``'s strides when
            ``shape`` is None too, else the contiguous strides of ``shape``.
        offset (int): *byte* offset from the start of ``source``'s storage (not from
            ``source``'s own offset). Default 0.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Raises:
        ValueError: ``source`` is not a Tensor, a negative shape, an offset that is not a
            multiple of the element size, or a view that runs past the storage.
        TypeError: ``shape`` / ``stride`` not a list or tuple, ``offset`` not an int.

    Examples:
        >>> import pagaie as paddle
        >>> src = paddle.to_tensor([11., 22., 33., 44., 55., 66.])
        >>> x = paddle.to_tensor([1., 2.])
        >>> x.set_(src, shape=[3], stride=[2]).tolist()
        [11.0, 33.0, 55.0]
        >>> x.set_(src, shape=[2, 2], offset=4).tolist()
        [[22.0, 33.0], [44.0, 55.0]]
    """
    if source is not None:
        _need_tensor(source, "set_", "source")
    for arg, v in (("shape", shape), ("stride", stride)):
        if v is not None and not isinstance(v, (list, tuple)):
            raise TypeError(f"paddle.Tensor.set_: argument '{arg}' must be list or tuple, but got "
                            f"{type(v).__name__}")
    if isinstance(offset, np.integer):
        offset = int(offset)
    if not isinstance(offset, int):
        raise TypeError(f"paddle.Tensor.set_: argument 'offset' must be an int, but got "
                        f"{type(offset).__name__}")
    check_inplace(x, "Tensor.set_")
    t = x._t
    src = torch.empty(0, dtype=t.dtype, device=t.device) if source is None else source._t
    if shape is None:
        shape = list(src.shape)
        if stride is None and source is not None:
            stride = list(src.stride())
    shape = [int(s) for s in shape]
    for i, s in enumerate(shape):
        if s < 0:
            raise ValueError(f"paddle.Tensor.set_: every value of shape must be >= 0, but received "
                             f"shape[{i}] = {s} in {shape}")
    if stride is None:
        stride, acc = [], 1
        for s in reversed(shape):
            stride.insert(0, acc)
            acc *= max(s, 1)
        if 0 in shape:
            stride = [0] * len(shape)  # Paddle's strides of an empty tensor
    stride = [int(s) for s in stride]
    size = t.element_size()
    if int(offset) % size:
        raise ValueError(f"paddle.Tensor.set_: offset is in bytes and must be a multiple of the "
                         f"element size {size} of {x.dtype.name}, but received {offset}")
    storage = src.untyped_storage()
    first = int(offset) // size
    lo = first + sum(min(0, (n - 1) * st) for n, st in zip(shape, stride))
    hi = first + sum(max(0, (n - 1) * st) for n, st in zip(shape, stride))
    if len(stride) != len(shape) or (0 not in shape and (lo < 0 or (hi + 1) * size > storage.nbytes())):
        raise ValueError(f"paddle.Tensor.set_: the view (shape={shape}, stride={stride}, "
                         f"offset={offset}) does not fit in the source storage of "
                         f"{storage.nbytes()} bytes")
    new = torch.empty(0, dtype=t.dtype, device=src.device)
    try:
        new.set_(storage, first, shape, stride)
    except RuntimeError as exc:
        raise ValueError(f"paddle.Tensor.set_: cannot make the view (shape={shape}, "
                         f"stride={stride}, offset={offset}): {str(exc).splitlines()[0]}") from None
    if t.requires_grad:
        new.requires_grad_(True)
    _TENSOR_T.__set__(x, new)
    return x


def set_tensor(x: Tensor, value: Tensor) -> None:
    """Replace ``x``'s value by a copy of ``value`` (its shape and dtype too); ``x`` keeps
    its ``stop_gradient``. Returns None.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1., 2.])
        >>> x.set_tensor(paddle.to_tensor([[7, 8, 9]]))
        >>> x.shape, x.dtype
        (paddle.Size([1, 3]), <DataType.INT64: 9>)
    """
    if not isinstance(value, Tensor) or isinstance(value, _HolderTensor):
        raise ValueError(f"paddle.Tensor.set_tensor: argument 'value' (position 0) must be Tensor, "
                         f"but got {type(value).__name__}")
    keep = x.stop_gradient if type(x) is not _HolderTensor else True
    new = value._t.detach().clone()
    if type(x) is _HolderTensor:
        x.__class__ = Tensor
        x.__dict__.pop("_holder", None)
    _TENSOR_T.__set__(x, new)
    if not keep:
        x.stop_gradient = False


def reconstruct_from_(x: Tensor, other: Tensor) -> None:
    """Make ``x`` the same tensor as ``other``: its data (shared), shape, dtype and
    ``stop_gradient``. Returns None.

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([1.0], stop_gradient=False)
        >>> a.reconstruct_from_(paddle.to_tensor([2.0, 3.0]))
        >>> a.tolist(), a.stop_gradient
        ([2.0, 3.0], True)
    """
    if not isinstance(other, Tensor) or isinstance(other, _HolderTensor):
        raise ValueError(f"paddle.Tensor.reconstruct_from_: argument (position 1) must be Tensor, "
                         f"but got {type(other).__name__}")
    new = other._t.detach()
    if other._t.requires_grad:
        new = new.view_as(new).requires_grad_(True) if not new.is_leaf else new.requires_grad_(True)
    if type(x) is _HolderTensor:
        x.__class__ = Tensor
        x.__dict__.pop("_holder", None)
    x.__dict__.pop("_int_grad", None)
    _TENSOR_T.__set__(x, new)


# ---- string-list and vocabulary holders --------------------------------------------------

class _HolderTensor(Tensor):
    """A Tensor turned into a holder of Python strings (``set_string_list``, dtype
    ``pstring``) or of a string->int vocabulary (``set_vocab``, dtype ``raw``).

    Such tensors carry no numbers: arithmetic, ``numpy()`` and ``place`` raise RuntimeError,
    as in Paddle; ``set_tensor`` / ``reconstruct_from_`` turn them back into number tensors.
    """

    __slots__ = ()

    @property
    def _t(self) -> torch.Tensor:  # type: ignore[override]
        kind = "string list" if isinstance(self._holder, list) else "vocabulary"
        raise RuntimeError(f"paddle.Tensor: this tensor holds a {kind}, not numbers; it supports "
                           "only get_map_tensor, shape, dtype and len")

    @property
    def dtype(self) -> _dt.DType:  # type: ignore[override]
        return _dt.pstring if isinstance(self._holder, list) else _dt.raw

    @property
    def shape(self):  # type: ignore[override]
        from pagaie._core.tensor import Size
        return Size([len(self._holder)])

    @property
    def stop_gradient(self) -> bool:  # type: ignore[override]
        return self.__dict__.get("_holder_sg", True)  # the flag the tensor had, as in Paddle

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        self.__dict__["_holder_sg"] = bool(value)

    @property
    def size(self) -> int:  # type: ignore[override]
        return len(self._holder)

    @property
    def ndim(self) -> int:  # type: ignore[override]
        return 1

    def dim(self) -> int:  # type: ignore[override]
        return 1

    @property
    def place(self):  # type: ignore[override]
        self._t  # noqa: B018 - raises

    def numpy(self):  # type: ignore[override]
        self._t  # noqa: B018 - raises

    tolist = numpy

    def __len__(self) -> int:
        return len(self._holder)

    def is_dense(self) -> bool:
        return False

    def __repr__(self) -> str:
        kind = "strings" if isinstance(self._holder, list) else "vocabulary"
        return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, {kind}={self._holder!r})"

    __str__ = __repr__


def _become_holder(x: Tensor, holder: Any) -> None:
    if type(x) is not _HolderTensor:
        if type(x) is not Tensor:
            raise TypeError(f"paddle.Tensor: a {type(x).__name__} cannot hold strings")
        sg = x.stop_gradient
        x.__class__ = _HolderTensor
        x.__dict__["_holder_sg"] = sg
    x.__dict__["_holder"] = holder


def set_string_list(x: Tensor, value: list) -> None:
    """Turn ``x`` into a holder of the strings in ``value`` (dtype ``paddle.pstring``,
    shape ``[len(value)]``), as Paddle's tokenizer ops consume. Returns None.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([0.0])
        >>> x.set_string_list(['hello', 'world'])
        >>> x.dtype, x.shape
        (<DataType.PSTRING: 14>, paddle.Size([2]))
    """
    if not isinstance(value, list):
        raise TypeError(f"paddle.Tensor.set_string_list: argument (position 1) must be list, but "
                        f"got {type(value).__name__}")
    if not all(isinstance(s, str) for s in value):
        raise TypeError("paddle.Tensor.set_string_list: every element must be a str, but received "
                        f"{[type(s).__name__ for s in value]}")
    _become_holder(x, list(value))


def set_vocab(x: Tensor, value: dict) -> None:
    """Turn ``x`` into a holder of the vocabulary ``value`` (a ``{str: int}`` dict; dtype
    ``paddle.raw``, shape ``[len(value)]``). Read it back with :func:`get_map_tensor`.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([0.0])
        >>> x.set_vocab({'a': 1, 'b': 2})
        >>> x.get_map_tensor() == {'a': 1, 'b': 2}
        True
    """
    if not isinstance(value, dict):
        raise TypeError(f"paddle.Tensor.set_vocab: argument (position 1) must be dict, but got "
                        f"{type(value).__name__}")
    for k, v in value.items():
        if not isinstance(k, str) or not isinstance(v, int):
            raise TypeError("paddle.Tensor.set_vocab: the vocabulary must map str to int, but "
                            f"received {k!r}: {v!r}")
    _become_holder(x, {k: int(v) for k, v in value.items()})  # a bool value becomes 0 / 1


def get_map_tensor(x: Tensor) -> dict:
    """The vocabulary stored by :func:`set_vocab`.

    Raises:
        SystemError: ``x`` is a number tensor (Paddle's answer for a dense tensor).
        ValueError: ``x`` holds a string list, not a vocabulary.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([0.0])
        >>> x.set_vocab({'tok': 3})
        >>> x.get_map_tensor()
        {'tok': 3}
    """
    if type(x) is not _HolderTensor:
        raise SystemError("paddle.Tensor.get_map_tensor: this method is only effective for a tensor "
                          "holding a vocabulary (see Tensor.set_vocab); received a number tensor")
    if not isinstance(x._holder, dict):
        raise ValueError("paddle.Tensor.get_map_tensor: the tensor holds a string list, not a "
                         "vocabulary")
    return dict(x._holder)


# ---- selected rows: pagaie tensors are always dense --------------------------------------

def is_selected_rows(x: Tensor) -> bool:
    """Whether ``x`` is a SelectedRows (row-sparse gradient) tensor: never in pagaie, whose
    sparse gradients are ordinary dense tensors.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2]).is_selected_rows()
        False
    """
    return False


def get_selected_rows(x: Tensor) -> None:
    """The SelectedRows value of ``x``: None for a dense tensor (always, in pagaie).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2]).get_selected_rows() is None
        True
    """
    return None


def rows(x: Tensor) -> list:
    """Row indices of a SelectedRows tensor. pagaie tensors are dense, so this raises
    SystemError as Paddle does for a dense tensor.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.ones([2]).rows()
        ... except SystemError:
        ...     print('dense')
        dense
    """
    raise SystemError("paddle.Tensor.rows: this method is only effective for SelectedRows "
                      "tensors; received a dense tensor")


# ---- creation helpers Paddle also exposes as Tensor attributes ---------------------------

class _BlankTensor(Tensor):
    """What :func:`create_tensor` returns: a 0-D tensor that holds no values yet. Until
    something writes into it (``paddle.assign(x, output=t)``, ``t.copy_(x)``...), it
    prints as ``Tensor(Not initialized)``, ``numpy()`` / ``tolist()`` give empty results
    and ``_is_initialized()`` is False, as in Paddle; afterwards it is an ordinary Tensor."""

    __slots__ = ()

    def _is_initialized(self) -> bool:
        blank, dtype = self.__dict__["_blank"]
        t = self._t
        return not (t is blank and t._version == 0 and t.dtype is dtype and t.dim() == 0)

    def numpy(self):  # type: ignore[override]
        if self._is_initialized():
            return Tensor.numpy(self)
        return Tensor.numpy(Tensor(torch.empty(0, dtype=self._t.dtype)))

    def tolist(self) -> Any:  # type: ignore[override]
        return Tensor.tolist(self) if self._is_initialized() else []

    def __repr__(self) -> str:
        return Tensor.__repr__(self) if self._is_initialized() else "Tensor(Not initialized)"

    __str__ = __repr__


def _is_initialized(x: Tensor) -> bool:
    """Whether ``x`` holds values: True except for a :func:`create_tensor` placeholder not
    yet written and a tensor whose memory ``_clear_data`` released.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([2])
        >>> x._is_initialized()
        True
        >>> x._clear_data()
        >>> x._is_initialized()
        False
    """
    return not hasattr(x._t, _CLEARED)


def create_tensor(dtype: Any, name: str | None = None, persistable: bool = False) -> Tensor:
    """A placeholder tensor of ``dtype`` that holds no values yet, to be filled later (e.g.
    with ``paddle.assign(x, output=t)``). It has shape ``[]`` and prints as
    ``Tensor(Not initialized)`` until then.

    Args:
        dtype (str|paddle.dtype): bool, float16, float32, float64, int8, int16, int32 or int64...
        name (str, optional): its name; ``create_tensor_<n>`` when None.
        persistable (bool): its ``persistable`` flag.

    Returns:
        Tensor: the placeholder tensor.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.Tensor.create_tensor('int64', name='buf', persistable=True)
        >>> t.dtype, t.name, t.persistable
        (<DataType.INT64: 9>, 'buf', True)
        >>> print(t)
        Tensor(Not initialized)
        >>> _ = paddle.assign(paddle.to_tensor([1, 2]), output=t)
        >>> t.tolist()
        [1, 2]
    """
    from pagaie._core.place import default_device
    from pagaie.utils import unique_name
    blank = torch.zeros((), dtype=_dt.to_torch_dtype(dtype, "paddle.create_tensor"),
                        device=default_device())
    t = _BlankTensor(blank, name=unique_name.generate("create_tensor") if name is None else name)
    t.__dict__["_blank"] = (t._t, t._t.dtype)
    t.persistable = bool(persistable)
    return t


def create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None,
                     is_bias: bool = False, default_initializer: Any = None) -> Tensor:
    """``paddle.create_parameter``, also reachable as ``paddle.Tensor.create_parameter``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Tensor.create_parameter([2, 3], 'float32')
        >>> w.shape, w.stop_gradient
        (paddle.Size([2, 3]), False)
    """
    from pagaie.nn.param import create_parameter as _create
    return _create(shape, dtype, name, attr, is_bias, default_initializer)


def _num_shard(x: Tensor) -> int | None:
    """Number of shards of a distributed tensor (the product of the mesh dimensions it is
    sharded along); None for a tensor that is not distributed."""
    mesh, placements = x.__dict__.get("process_mesh"), x.__dict__.get("placements")
    if mesh is None or placements is None:
        return None
    n = 1
    for dim, p in enumerate(placements):
        if type(p).__name__ == "Shard":
            n *= list(mesh.shape)[dim]
    return n


def _block(x: Tensor) -> Any:
    """The block a tensor belongs to: for an eager tensor, the default main program's
    global block (as in Paddle)."""
    b = x.__dict__.get("block")
    if b is not None:
        return b  # a static Value records its own block
    from pagaie.static import default_main_program
    return default_main_program().global_block()


def _set_block(x: Tensor, value: Any) -> None:
    x.__dict__["block"] = value


def _is_shared_buffer_with(x: Tensor, other: Tensor) -> bool:
    """Whether ``x`` and ``other`` use the same memory block (one is a view of the other, or
    both view the same data).

    Args:
        x (Tensor): a tensor.
        other (Tensor): another tensor (anything else gives False).

    Returns:
        bool: True when they share storage.

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])
        >>> a._is_shared_buffer_with(a.reshape([2, 2])), a._is_shared_buffer_with(a.clone())
        (True, False)
    """
    if not isinstance(other, Tensor) or isinstance(other, _HolderTensor):
        return False  # as Paddle: anything but a tensor shares nothing
    return x._t.untyped_storage()._cdata == other._t.untyped_storage()._cdata


def _slice(x: Tensor, begin_idx: int, end_idx: int) -> Tensor:
    """Rows ``begin_idx`` to ``end_idx`` (excluded) along the first axis, sharing ``x``'s
    memory (a write to one shows in the other), as Paddle's DenseTensor slice.

    Args:
        x (Tensor): a tensor of at least one dimension.
        begin_idx (int): the first row, 0 <= begin_idx <= end_idx.
        end_idx (int): one past the last row, at most ``x.shape[0]``.

    Returns:
        Tensor: the rows, a view of ``x`` (its ``stop_gradient`` is True).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(6, dtype='float32').reshape([3, 2])
        >>> x._slice(1, 3).tolist()
        [[2.0, 3.0], [4.0, 5.0]]
    """
    begin, end = int(begin_idx), int(end_idx)
    rows = x._t.shape[0] if x._t.dim() else 0
    if begin < 0:
        raise IndexError(f"paddle.Tensor._slice: the start row index must be >= 0, but received "
                         f"begin_idx={begin}")
    if end > rows:
        raise IndexError(f"paddle.Tensor._slice: end_idx={end} is past the {rows} rows of a "
                         f"tensor of shape {list(x._t.shape)}")
    if begin > end:
        raise ValueError(f"paddle.Tensor._slice: begin_idx={begin} is after end_idx={end}")
    return Tensor(x._t.detach()[begin:end])


def _clear(x: Tensor) -> None:
    """Release ``x``'s memory and sizes: it then has shape ``[]`` and holds no values
    (``_is_initialized()`` is False) until it is written again.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> x._clear()
        >>> x._is_initialized(), x.shape
        (False, paddle.Size([]))
    """
    cleared = torch.empty((), dtype=x._t.dtype, device=x._t.device)
    setattr(cleared, _CLEARED, True)
    x._t = cleared


def _check_share(api: str, x: Tensor, dst: Any) -> None:
    if not isinstance(dst, Tensor) or isinstance(dst, _HolderTensor):
        raise TypeError(f"paddle.Tensor.{api}: the destination must be a Tensor, but received "
                        f"{type(dst).__name__}")
    if hasattr(x._t, _CLEARED):
        raise ValueError(f"paddle.Tensor.{api}: the tensor holds no memory (it was cleared), "
                         "so there is nothing to share")


def _keep_grad_flag(dst: Tensor, t: torch.Tensor) -> torch.Tensor:
    """``t`` with ``dst``'s ``stop_gradient`` (the destination keeps its own)."""
    if not dst.stop_gradient and (t.is_floating_point() or t.is_complex()):
        t.requires_grad_(True)
    return t


def _share_buffer_to(x: Tensor, dst: Tensor) -> None:
    """Make ``dst`` use ``x``'s memory: ``dst`` keeps its shape, takes ``x``'s dtype and
    reads ``x``'s data from its start (writes through either show in both). ``dst`` must
    not need more elements than ``x``'s memory holds.

    Args:
        x (Tensor): the tensor whose memory is shared.
        dst (Tensor): the tensor that then uses it.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> y = paddle.zeros([3])
        >>> x._share_buffer_to(y)
        >>> y.tolist()
        [1.0, 2.0, 3.0]
    """
    _check_share("_share_buffer_to", x, dst)
    src = x._t.detach()
    shape = tuple(dst._t.shape)
    need = int(np.prod(shape, dtype=np.int64))
    have = (src.untyped_storage().nbytes() // src.element_size()) - src.storage_offset()
    if need > have:
        raise ValueError(f"paddle.Tensor._share_buffer_to: the destination of shape {list(shape)} "
                         f"needs {need} elements, but the shared memory holds {have}")
    view = torch.empty(0, dtype=src.dtype, device=src.device)
    view.set_(src.untyped_storage(), src.storage_offset(), shape)
    dst._t = _keep_grad_flag(dst, view)


def _share_underline_tensor_to(x: Tensor, dst: Tensor) -> None:
    """Make ``dst`` the same data as ``x``: its shape, dtype and memory (writes through
    either show in both); ``dst`` keeps its own name and ``stop_gradient``.

    Args:
        x (Tensor): the tensor shared.
        dst (Tensor): the tensor that then holds it.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> y = paddle.zeros([5])
        >>> x._share_underline_tensor_to(y)
        >>> y.shape, x._is_shared_underline_tensor_with(y)
        (paddle.Size([2]), True)
    """
    _check_share("_share_underline_tensor_to", x, dst)
    dst._t = _keep_grad_flag(dst, x._t.detach())


def _is_shared_underline_tensor_with(x: Tensor, other: Any) -> bool:
    """Whether ``other`` holds the same data as ``x``: the same memory, at the same place,
    with the same shape, strides and dtype.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> x._is_shared_underline_tensor_with(x.reshape([2])), x._is_shared_underline_tensor_with(x[:1])
        (True, False)
    """
    if not _is_shared_buffer_with(x, other):
        return False
    a, b = x._t, other._t
    return (a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride()
            and a.storage_offset() == b.storage_offset())


for _n in ("set_", "set_tensor", "reconstruct_from_", "set_string_list", "set_vocab",
           "get_map_tensor", "is_selected_rows", "get_selected_rows", "rows"):
    setattr(Tensor, _n, globals()[_n])
# Plain functions, as in Paddle: ``x.create_tensor(...)`` passes ``x`` as the dtype.
Tensor.create_tensor = create_tensor
Tensor.create_parameter = create_parameter
# Distributed attributes: None on a plain tensor; shard_tensor records them per instance.
Tensor.placements = None
Tensor.process_mesh = None
Tensor.num_shard = property(_num_shard, doc=_num_shard.__doc__)
Tensor.block = property(_block, _set_block, doc=_block.__doc__)
Tensor._is_shared_buffer_with = _is_shared_buffer_with
Tensor._is_shared_underline_tensor_with = _is_shared_underline_tensor_with
Tensor._share_buffer_to = _share_buffer_to
Tensor._share_underline_tensor_to = _share_underline_tensor_to
Tensor._slice = _slice
Tensor._clear = _clear
Tensor._is_initialized = _is_initialized
del _n
