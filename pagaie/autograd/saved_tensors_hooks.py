"""``saved_tensors_hooks``: transform the tensors autograd keeps for the backward pass.

torch saves an operation's tensors in the order of its own backward formula (``mul``
saves ``other`` before ``self``); Paddle hands them to the hooks in the order of the
operation's arguments. So inside the context, each torch call's saved tensors are
collected first and packed once the call returns, in argument order (tensors that are not
arguments, such as outputs, after them); backward unpacks a call's tensors together, in
that same order, when it first needs one of them.
"""
from __future__ import annotations

from typing import Any, Callable

import torch
from torch.overrides import TorchFunctionMode

from pagaie._core.tensor import Tensor, wrap

__all__ = ["saved_tensors_hooks"]

_active = False  # Paddle allows one pair of hooks at a time
_API = "paddle.autograd.saved_tensors_hooks"


def hooks_active() -> bool:
    """Whether a ``saved_tensors_hooks`` block is open."""
    return _active


def _external(where: str, exc: Exception) -> OSError:
    """An error raised by a user's hook: as in Paddle, an OSError ("External") naming its type."""
    from pagaie.autograd.py_layer import _external_error
    return _external_error(where, exc)


class _Saved:
    """One saved tensor: packed (``value``) once its torch call returns; ``group`` holds the
    tensors saved by the same call, ``ready`` the unpacked ones not yet handed to backward."""

    __slots__ = ("tensor", "value", "group", "ready", "shape", "dtype")

    def __init__(self, t: torch.Tensor) -> None:
        self.tensor: torch.Tensor | None = t
        self.value: Any = None
        self.group: list = [self]
        self.ready: list = []
        self.shape = t.shape
        self.dtype = t.dtype


def _arg_tensors(args: Any, out: list) -> list:
    for a in args:
        if isinstance(a, torch.Tensor):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            _arg_tensors(a, out)
    return out


def _position(t: torch.Tensor, args: list) -> int:
    for i, a in enumerate(args):
        if a is t:
            return i
    for i, a in enumerate(args):
        if a.shape == t.shape and a.dtype == t.dtype and a.device == t.device and \
                a.data_ptr() == t.data_ptr() and a.stride() == t.stride():
            return i
    return len(args)


class _ArgOrder(TorchFunctionMode):
    """Collects the tensors each torch call saves, then packs them in argument order."""

    def __init__(self, owner: saved_tensors_hooks) -> None:
        super().__init__()
        self.owner = owner

    def __torch_function__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        owner = self.owner
        prev, owner._buffer = owner._buffer, []
        try:
            result = func(*args, **(kwargs or {}))
        finally:
            buf, owner._buffer = owner._buffer, prev
        if buf:
            ts = _arg_tensors(list(args) + list((kwargs or {}).values()), [])
            buf.sort(key=lambda s: _position(s.tensor, ts))
            for s in buf:
                s.group = buf
            for s in buf:
                owner._pack_now(s)
        return result


class saved_tensors_hooks:
    """Inside this context, every tensor saved for backward goes through ``pack_hook`` when
    saved and through ``unpack_hook`` when backward needs it again.

    Args:
        pack_hook (callable): ``pack_hook(tensor) -> object``; may return anything
            (e.g. a copy on the CPU, or a file name).
        unpack_hook (callable): ``unpack_hook(object) -> Tensor``, the tensor to use in
            backward; it must have the shape and dtype of the tensor that was packed.

    Examples:
        >>> import pagaie as paddle
        >>> packed = []
        >>> def pack(t):
        ...     packed.append(t.tolist())
        ...     return t.numpy()
        >>> def unpack(a):
        ...     return paddle.to_tensor(a)
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> y = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
        >>> with paddle.autograd.saved_tensors_hooks(pack, unpack):
        ...     z = paddle.multiply(x, y)
        >>> z.backward(paddle.ones([2]))
        >>> packed, x.grad.tolist()
        ([[1.0, 2.0], [3.0, 4.0]], [3.0, 4.0])
    """

    def __init__(self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook
        self._buffer: list | None = None
        self._mode: _ArgOrder | None = None
        self._ctx: Any = None

    def _pack_now(self, s: _Saved) -> None:
        try:
            s.value = self.pack_hook(wrap(s.tensor))
        except Exception as exc:  # noqa: BLE001
            raise _external(f"{_API}: pack_hook", exc) from exc
        s.tensor = None  # only what pack_hook returned is kept

    def _pack(self, t: torch.Tensor) -> _Saved:
        s = _Saved(t)
        if self._buffer is not None:
            self._buffer.append(s)  # packed when its torch call returns
        else:
            self._pack_now(s)
        return s

    def _unpack_one(self, s: _Saved) -> torch.Tensor:
        try:
            r = self.unpack_hook(s.value)
        except Exception as exc:  # noqa: BLE001
            raise _external(f"{_API}: unpack_hook", exc) from exc
        if isinstance(r, Tensor):
            r = r._t
        if not isinstance(r, torch.Tensor):
            raise ValueError(f"{_API}: unpack_hook must return a Tensor, but returned "
                             f"{type(r).__name__}")
        if r.shape != s.shape or r.dtype != s.dtype:
            raise ValueError(f"{_API}: unpack_hook returned a Tensor of shape {list(r.shape)} and "
                             f"dtype {str(r.dtype).replace('torch.', '')}, but the packed tensor had "
                             f"shape {list(s.shape)} and dtype {str(s.dtype).replace('torch.', '')}")
        return r

    def _unpack(self, s: _Saved) -> torch.Tensor:
        if not s.ready:
            for other in s.group:  # the whole call's tensors, in argument order
                other.ready.append(self._unpack_one(other))
        return s.ready.pop(0)

    def __enter__(self) -> None:
        global _active
        if _active:
            raise ValueError(f"{_API}: only one pair of hooks is allowed at a time; leave the "
                             "enclosing saved_tensors_hooks first")
        self._ctx = torch.autograd.graph.saved_tensors_hooks(self._pack, self._unpack)
        self._ctx.__enter__()
        self._mode = _ArgOrder(self)
        self._mode.__enter__()
        _active = True

    def __exit__(self, *exc: Any) -> None:
        global _active
        _active = False
        self._mode.__exit__(*exc)
        self._ctx.__exit__(*exc)
        self._mode = self._ctx = None
