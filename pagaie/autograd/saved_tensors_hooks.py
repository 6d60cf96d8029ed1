"""``saved_tensors_hooks``: transform the tensors autograd keeps for the backward pass."""
from __future__ import annotations

from typing import Any, Callable

import torch

from pagaie._core.tensor import Tensor, as_torch, wrap

__all__ = ["saved_tensors_hooks"]

_active = False  # Paddle allows one pair of hooks at a time


class saved_tensors_hooks:
    """Inside this context, every tensor saved for backward goes through ``pack_hook`` when
    saved and through ``unpack_hook`` when backward needs it again.

    Args:
        pack_hook (callable): ``pack_hook(tensor) -> object``; may return anything
            (e.g. a copy on the CPU, or a file name).
        unpack_hook (callable): ``unpack_hook(object) -> Tensor``, the tensor to use in backward.

    Examples:
        >>> import pagaie as paddle
        >>> packed = []
        >>> def pack(t):
        ...     packed.append(t.shape)
        ...     return t.numpy()
        >>> def unpack(a):
        ...     return paddle.to_tensor(a)
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> with paddle.autograd.saved_tensors_hooks(pack, unpack):
        ...     y = x * x
        >>> y.backward(paddle.ones([2]))
        >>> x.grad.tolist(), len(packed) > 0
        ([2.0, 4.0], True)
    """

    def __init__(self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

        def pack(t: torch.Tensor) -> Any:
            return pack_hook(wrap(t))

        def unpack(obj: Any) -> torch.Tensor:
            r = unpack_hook(obj)
            if not isinstance(r, (Tensor, torch.Tensor)):
                raise TypeError("paddle.autograd.saved_tensors_hooks: unpack_hook must return a "
                                f"Tensor, but returned {type(r).__name__}")
            return as_torch(r)

        self._ctx = torch.autograd.graph.saved_tensors_hooks(pack, unpack)

    def __enter__(self) -> saved_tensors_hooks:
        global _active
        if _active:
            raise ValueError("paddle.autograd.saved_tensors_hooks: only one pair of hooks is "
                             "allowed at a time; leave the enclosing saved_tensors_hooks first")
        self._ctx.__enter__()
        _active = True
        return self

    def __exit__(self, *exc: Any) -> None:
        global _active
        _active = False
        self._ctx.__exit__(*exc)
