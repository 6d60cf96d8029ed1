"""Pickling rules that let pagaie Tensors cross process boundaries through shared memory.

A Tensor sent through a ``multiprocessing`` Queue or Pipe is reduced to torch's shared-memory
handle of its storage (``torch.multiprocessing``'s reductions: file descriptors or the file
system on the CPU, CUDA IPC handles on GPUs) plus its pagaie attributes; the receiving process
rebuilds a Tensor of the same class over the same memory. As in Paddle, a non-leaf Tensor that
requires gradients is refused.
"""
from __future__ import annotations

import copy
from multiprocessing.reduction import ForkingPickler
from typing import Any, Callable

import torch
from torch.multiprocessing import reductions as _torch_reductions

from pagaie._core.parameter import Parameter
from pagaie._core.tensor import Tensor

__all__ = ["init_reductions"]


def _rebuild(cls: type, rebuild: Callable, args: tuple, stop_gradient: bool,
             attrs: dict) -> Tensor:
    t = rebuild(*args)
    out = cls.__new__(cls)
    out._t = t
    out.__dict__.update(attrs)
    if cls is not Parameter and out.stop_gradient != stop_gradient:
        out.stop_gradient = stop_gradient
    return out


def _reduce(tensor: Tensor) -> tuple:
    t = tensor._t
    if t.requires_grad and not t.is_leaf:
        raise RuntimeError("Refusing to serialize non-leaf tensor which not stop_gradient, you "
                           "can detach it!")
    rebuild, args = _torch_reductions.reduce_tensor(t)
    attrs = copy.deepcopy(tensor.__dict__) if isinstance(tensor, Parameter) else \
        {k: v for k, v in tensor.__dict__.items() if k in ("_name", "persistable")}
    return _rebuild, (type(tensor), rebuild, args, tensor.stop_gradient, attrs)


def _tensor_classes() -> list[type]:
    seen, todo = [], [Tensor]
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.append(cls)
            todo.extend(cls.__subclasses__())
    return seen


def init_reductions() -> None:
    """Register the shared-memory reduction for Tensor, Parameter and their subclasses with
    ``multiprocessing``'s ``ForkingPickler`` (Linux only, as in Paddle)."""
    import sys
    if sys.platform != "linux":
        return
    for cls in _tensor_classes():
        ForkingPickler.register(cls, _reduce)
