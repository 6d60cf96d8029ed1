"""``paddle.DataParallel``: data-parallel training of a Layer over torch.distributed.

At construction the parameters and buffers of rank 0 are broadcast to every rank. Each forward
pass (outside :meth:`DataParallel.no_sync`, with gradients enabled) hooks the outputs; the first
gradient reaching them during ``backward`` queues one callback at the end of that backward pass,
which averages the gradients of all trainable parameters over the group in flat buckets. Since
averaging is linear, gradients accumulated under ``no_sync`` are averaged by the next synced
backward, as in Paddle.
"""
from __future__ import annotations

import contextlib
import warnings
from collections import OrderedDict
from typing import Any, Iterator

import torch
import torch.distributed as tdist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors

from pagaie._core.tensor import Tensor
from pagaie.distributed._env import Group, _global_group
from pagaie.nn.layer.layers import Layer

__all__ = ["DataParallel"]


def _walk_tensors(obj: Any) -> Iterator[torch.Tensor]:
    if isinstance(obj, Tensor):
        yield obj._t
    elif isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            yield from _walk_tensors(o)
    elif isinstance(obj, dict):
        for o in obj.values():
            yield from _walk_tensors(o)


class _NotALayerError(TypeError, AttributeError):
    """DataParallel given something that is not a Layer: Paddle fails an attribute look-up on it."""


class DataParallel(Layer):
    """Run ``layers`` in data-parallel mode: gradients are averaged over all ranks after backward.

    Args:
        layers (Layer): the model to train.
        strategy (optional): Paddle's legacy ParallelStrategy; unused (the environment is read
            by :func:`paddle.distributed.init_parallel_env`).
        comm_buffer_size (int): size in MB of one gradient bucket.
        last_comm_buffer_size (int): size in MB of the last bucket (accepted; buckets are even here).
        find_unused_parameters (bool): whether some parameters may get no gradient; they then
            receive a zero gradient averaged with the others.
        group (Group, optional): the group to average over (the global one when None).

    Examples:
        >>> import pagaie as paddle
        >>> model = paddle.DataParallel(paddle.nn.Linear(2, 2))
        >>> list(model.state_dict())
        ['weight', 'bias']
        >>> loss = model(paddle.ones([3, 2])).mean()
        >>> loss.backward()
    """

    def __init__(self, layers: Layer, strategy: Any = None, comm_buffer_size: int = 25,
                 last_comm_buffer_size: int = 1, find_unused_parameters: bool = False,
                 group: Group | None = None) -> None:
        if not isinstance(layers, Layer):
            raise _NotALayerError(f"paddle.DataParallel: layers must be a paddle.nn.Layer, "
                            f"but received {type(layers).__name__}")
        super().__init__(layers.full_name() + "_data_parallel")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.grad_need_sync = True
        self.group = group
        self.var_dtype = Tensor
        d = self.__dict__
        d["_strategy"] = strategy
        d["_bucket_bytes"] = max(int(comm_buffer_size), 1) * 1024 * 1024
        d["_last_comm_buffer_size"] = last_comm_buffer_size
        d["_sync_queued"] = False
        g = self._comm_group()
        d["_nranks"] = g.nranks if g is not None and g.process_group is not None else 1
        if self._nranks > 1:
            self._sync_params_buffers(g)
        else:
            warnings.warn("The program will return to single-card operation. Please check 1, whether you use "
                          "spawn or fleetrun to start the program. 2, Whether it is a multi-card program. "
                          "3, Is the current environment multi-card.")

    def _comm_group(self) -> Group | None:
        g = self.group if self.group is not None else _global_group()
        return g if g.is_member() else None

    # ---- set-up ----------------------------------------------------------------------
    @torch.no_grad()
    def _sync_params_buffers(self, g: Group) -> None:
        src = g.ranks[0]
        tensors = [p._t.detach() for p in self._layers.parameters()]
        tensors += [b._t.detach() for b in self._layers.buffers() if b is not None]
        for bucket in self._buckets(tensors):
            flat = _flatten_dense_tensors(bucket)
            tdist.broadcast(flat, src, group=g.process_group)
            for t, v in zip(bucket, _unflatten_dense_tensors(flat, bucket)):
                t.copy_(v)

    def _buckets(self, tensors: list[torch.Tensor]) -> list[list[torch.Tensor]]:
        """Group tensors by dtype and device into buckets of at most ``comm_buffer_size`` MB."""
        buckets: dict[tuple, list[list[torch.Tensor]]] = OrderedDict()
        for t in tensors:
            key = (t.dtype, t.device)
            lists = buckets.setdefault(key, [[]])
            size = sum(x.numel() * x.element_size() for x in lists[-1])
            if lists[-1] and size + t.numel() * t.element_size() > self._bucket_bytes:
                lists.append([])
            lists[-1].append(t)
        return [b for lists in buckets.values() for b in lists if b]

    # ---- forward and gradient averaging ----------------------------------------------
    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        outputs = self._layers(*inputs, **kwargs)
        if self._nranks > 1 and self.grad_need_sync and torch.is_grad_enabled():
            for t in _walk_tensors(outputs):
                if t.requires_grad:
                    t.register_hook(self._on_output_grad)
        return outputs

    def _on_output_grad(self, grad: torch.Tensor) -> None:
        if not self._sync_queued:
            self.__dict__["_sync_queued"] = True
            torch.autograd.Variable._execution_engine.queue_callback(self._average_grads)

    @torch.no_grad()
    def _average_grads(self) -> None:
        self.__dict__["_sync_queued"] = False
        g = self._comm_group()
        if g is None:
            return
        params, seen = [], set()
        for p in self._layers.parameters():
            if id(p) in seen or not p._t.requires_grad:
                continue
            seen.add(id(p))
            params.append(p._t)
        grads = []
        for t in params:
            if t.grad is None:
                t.grad = torch.zeros_like(t)
            grads.append(t.grad)
        n = g.nranks
        for bucket in self._buckets(grads):
            flat = _flatten_dense_tensors(bucket)
            tdist.all_reduce(flat, group=g.process_group)
            flat.div_(n)
            for t, v in zip(bucket, _unflatten_dense_tensors(flat, bucket)):
                t.copy_(v)

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """A context in which forward passes do not average gradients (accumulate locally).

        Examples:
            >>> import pagaie as paddle
            >>> model = paddle.DataParallel(paddle.nn.Linear(2, 2))
            >>> with model.no_sync():
            ...     model(paddle.ones([1, 2])).sum().backward()
        """
        old = self.grad_need_sync
        self.grad_need_sync = False
        try:
            yield
        finally:
            self.grad_need_sync = old

    def scale_loss(self, loss: Tensor) -> Tensor:
        """Return ``loss`` unchanged (kept for compatibility: gradients are averaged already)."""
        return loss

    def apply_collective_grads(self) -> None:
        """Does nothing (kept for compatibility: gradients are averaged during backward)."""
        return None

    def init_reducer(self) -> None:
        """Does nothing (the gradient buckets are formed at each synchronisation)."""
        return None

    # ---- state (without the ``_layers.`` prefix, as in Paddle) -------------------------
    def state_dict(self, destination: Any = None, include_sublayers: bool = True,
                   structured_name_prefix: str = "") -> OrderedDict:
        """The wrapped layer's state dict (keys without the ``_layers.`` prefix)."""
        return self._layers.state_dict(destination=destination, include_sublayers=include_sublayers,
                                       structured_name_prefix=structured_name_prefix)

    def set_state_dict(self, state_dict: dict, use_structured_name: bool = True) -> None:
        """Load a state dict of the wrapped layer (keys without the ``_layers.`` prefix); returns None."""
        self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict
