"""Group-sharded (ZeRO) data parallelism: :func:`group_sharded_parallel` and its saver.

Paddle splits optimizer states ('os'), gradients too ('os_g') or parameters as well
('p_g_os') across the ranks of a group to save memory. Here every rank keeps full copies of
all three, which gives results identical to the sharded run: the ranks start from rank 0's
parameters, each backward pass averages the gradients over the group (then over ``dp_group``
when one is given, for hybrid sharding + data parallelism), and every rank then takes the same
optimizer step. Only the memory saving is missing; the training is the same. In a process
running alone the wrappers train exactly as the unwrapped model and optimizer do.
"""
from __future__ import annotations

import os
from collections import OrderedDict
from typing import Any, Sequence

import torch
import torch.distributed as tdist

from pagaie._core.tensor import Tensor
from pagaie.distributed._env import Group, _global_group
from pagaie.distributed.parallel import DataParallel
from pagaie.nn.layer.layers import Layer
from pagaie.optimizer.optimizer import Optimizer

__all__ = ["group_sharded_parallel", "save_group_sharded_model", "GroupShardedStage2", "GroupShardedStage3",
           "GroupShardedOptimizerStage2"]

_LEVELS = ("os", "os_g", "p_g_os")


class _GradAverager(DataParallel):
    """DataParallel over the sharding group, then an average over ``dp_group`` as well."""

    def __init__(self, layer: Layer, group: Group | None, dp_group: Group | None) -> None:
        super().__init__(layer, group=group)
        self.__dict__["_dp_group"] = dp_group
        dp = self._live(dp_group)
        if self._nranks == 1 and dp is not None:   # nothing to average over the sharding group
            self.__dict__["_nranks"] = dp.nranks
        if dp is not None:
            with torch.no_grad():
                for t in [p._t.detach() for p in layer.parameters()] + [b._t.detach() for b in layer.buffers()]:
                    tdist.broadcast(t, dp.ranks[0], group=dp.process_group)

    @staticmethod
    def _live(g: Group | None) -> Group | None:
        return g if g is not None and g.is_member() and g.process_group is not None and g.nranks > 1 else None

    @torch.no_grad()
    def _average_grads(self) -> None:
        super()._average_grads()
        dp = self._live(self._dp_group)
        if dp is None:
            return
        for p in self._layers.parameters():
            if p._t.requires_grad and p._t.grad is not None:
                tdist.all_reduce(p._t.grad, group=dp.process_group)
                p._t.grad.div_(dp.nranks)


class _ShardedLayer(Layer):
    """The wrapped model: runs ``_layer`` and averages gradients over the sharding group."""

    def __init__(self, layer: Layer, group: Group | None, sync_buffers: bool, dp_group: Group | None,
                 options: dict) -> None:
        super().__init__(layer.full_name() + "_sharded")
        self._layer = layer
        g = group if group is not None else _global_group()
        self.__dict__.update(_group=g, _dp_group=dp_group, _sync_buffers=sync_buffers, _options=options,
                             _averager=_GradAverager(layer, group, dp_group))

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        if self._sync_buffers:
            self._broadcast_buffers()
        return self._averager(*inputs, **kwargs)

    @torch.no_grad()
    def _broadcast_buffers(self) -> None:
        for g in (self._group, self._dp_group):
            if g is not None and g.is_member() and g.process_group is not None and g.nranks > 1:
                for b in self._layer.buffers():
                    if b is not None:
                        tdist.broadcast(b._t.detach(), g.ranks[0], group=g.process_group)

    def state_dict(self, destination: Any = None, include_sublayers: bool = True,
                   structured_name_prefix: str = "") -> OrderedDict:
        """The wrapped layer's state dict (its own keys, as Paddle's sharded layers give)."""
        return self._layer.state_dict(destination=destination, include_sublayers=include_sublayers,
                                      structured_name_prefix=structured_name_prefix)

    def set_state_dict(self, state_dict: dict, use_structured_name: bool = True) -> Any:
        """Load a state dict of the wrapped layer."""
        return self._layer.set_state_dict(state_dict, use_structured_name=use_structured_name)

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self._layer, name)


class GroupShardedStage2(_ShardedLayer):
    """The model returned for levels 'os' and 'os_g' (optimizer states, and gradients, sharded)."""


class GroupShardedStage3(_ShardedLayer):
    """The model returned for level 'p_g_os' (parameters, gradients and optimizer states sharded)."""

    def get_all_parameters(self, convert2cpu: bool = False) -> None:
        """Gather the full parameters on every rank: they are always whole here, so this only
        moves them to the CPU when ``convert2cpu`` is True."""
        if convert2cpu:
            for p in self._layer.parameters():
                p._t.data = p._t.data.cpu()


class GroupShardedOptimizerStage2(Optimizer):
    """The optimizer returned for levels 'os' and 'os_g': steps the wrapped optimizer ``_optim``.

    Every attribute and method not defined here is the wrapped optimizer's.
    """

    def __init__(self, optim: Optimizer, group: Group | None = None, offload: bool = False,
                 dp_group: Group | None = None) -> None:
        # No Optimizer.__init__: the state lives in ``_optim``.
        self.__dict__.update(_optim=optim, _group=group, offload=offload, _dp_group=dp_group)

    def __getattr__(self, name: str) -> Any:
        optim = self.__dict__.get("_optim")
        if optim is None:
            raise AttributeError(name)
        return getattr(optim, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.__dict__:
            self.__dict__[name] = value
        else:
            setattr(self._optim, name, value)

    @property
    def local_params(self) -> list[Tensor]:
        """The parameters this rank updates (all of them: the states are not split here)."""
        return list(self._optim._parameter_list or [])

    def step(self) -> None:
        """Update the parameters with the wrapped optimizer."""
        self._optim.step()

    def minimize(self, *args: Any, **kwargs: Any) -> None:
        """Not supported (as in Paddle): call ``backward()`` then :meth:`step`."""
        raise RuntimeError("optimizer.minimize() not support now, please use optimizer.step()")

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Clear the gradients of the parameters."""
        self._optim.clear_grad(set_to_zero)

    def state_dict(self) -> dict:
        """The wrapped optimizer's state dict."""
        return self._optim.state_dict()

    def set_state_dict(self, state_dict: dict) -> None:
        """Load a state dict into the wrapped optimizer."""
        self._optim.set_state_dict(state_dict)

    def get_lr(self) -> float:
        """The current learning rate."""
        return self._optim.get_lr()

    def set_lr(self, value: float) -> None:
        """Set the learning rate."""
        self._optim.set_lr(value)


def _check(cond: bool, message: str) -> None:
    # Paddle checks these with assert statements; raising keeps them under ``python -O``.
    if not cond:
        raise AssertionError(message)


def group_sharded_parallel(model: Layer, optimizer: Optimizer, level: str, scaler: Any = None,
                           group: Group | None = None, offload: bool = False, sync_buffers: bool = False,
                           buffer_max_size: int = 2 ** 23, segment_size: int = 2 ** 20, sync_comm: bool = False,
                           dp_group: Group | None = None,
                           exclude_layer: Sequence[str | int] | None = None) -> tuple[Layer, Any, Any]:
    """Wrap a model, its optimizer and scaler for group-sharded (ZeRO) data-parallel training.

    Every rank keeps full copies of the parameters, gradients and optimizer states (see the
    module notes): training gives the same results as Paddle's sharding, without its memory
    saving. ``offload``, ``buffer_max_size``, ``segment_size``, ``sync_comm`` and
    ``exclude_layer`` only tune memory and communication there, so they change nothing here.

    Args:
        model (Layer): the model.
        optimizer (Optimizer): its optimizer.
        level (str): 'os' (optimizer states), 'os_g' (and gradients) or 'p_g_os' (and parameters).
        scaler (GradScaler, optional): the AMP loss scaler, returned as it is.
        group (Group, optional): the sharding group (the global one when None).
        offload (bool): keep states on the CPU (no effect here).
        sync_buffers (bool): broadcast rank 0's buffers before each forward pass.
        buffer_max_size (int): gradient bucket size of 'os_g' (no effect here).
        segment_size (int): smallest sharded parameter of 'p_g_os' (no effect here).
        sync_comm (bool): synchronous communication in 'p_g_os' (no effect here).
        dp_group (Group, optional): a data-parallel group to average gradients over as well.
        exclude_layer (list, optional): layers (names or ids) left unsharded by 'p_g_os'.

    Returns:
        tuple: (model, optimizer, scaler). For 'os'/'os_g' the optimizer is wrapped; for
        'p_g_os' it is the optimizer given, as in Paddle.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distributed.sharding import group_sharded_parallel
        >>> model = paddle.nn.Linear(2, 1)
        >>> opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
        >>> model, opt, scaler = group_sharded_parallel(model, opt, "os_g")
        >>> model(paddle.ones([4, 2])).mean().backward()
        >>> opt.step()
        >>> opt.clear_grad()
        >>> type(model).__name__, type(opt).__name__, scaler
        ('GroupShardedStage2', 'GroupShardedOptimizerStage2', None)
    """
    _check(isinstance(model, Layer), "paddle.distributed.sharding.group_sharded_parallel: model must be "
           f"an instance of paddle.nn.Layer, but received {type(model).__name__}")
    _check(isinstance(optimizer, Optimizer), "paddle.distributed.sharding.group_sharded_parallel: optimizer "
           f"must be an instance of paddle.optimizer.Optimizer, but received {type(optimizer).__name__}")
    _check(level in _LEVELS, "paddle.distributed.sharding.group_sharded_parallel: level must be one of "
           f"'os', 'os_g' and 'p_g_os', but received {level!r}")
    _check(buffer_max_size >= 0, "paddle.distributed.sharding.group_sharded_parallel: buffer_max_size must "
           f"be >= 0, but received {buffer_max_size}")
    options = {"offload": offload, "buffer_max_size": buffer_max_size, "segment_size": segment_size,
               "sync_comm": sync_comm, "exclude_layer": list(exclude_layer or [])}
    if level == "p_g_os":
        model = GroupShardedStage3(model, group, sync_buffers, dp_group, options)
    else:
        optimizer = GroupShardedOptimizerStage2(optimizer, group, offload, dp_group)
        model = GroupShardedStage2(model, group, sync_buffers, dp_group, options)
    return model, optimizer, scaler


def save_group_sharded_model(model: Layer, output: str, optimizer: Any = None) -> None:
    """Save a model wrapped by :func:`group_sharded_parallel` (and its optimizer's state).

    Writes the wrapped layer's state dict to ``output/model.pdmodel`` and, when ``optimizer``
    is given, its state dict to ``output/model.pdopt`` (both with :func:`paddle.save`, as
    Paddle names them). Load them with :func:`paddle.load` into the unwrapped model and
    optimizer before wrapping again.

    Args:
        model (Layer): the wrapped model.
        output (str): the directory to write (created if needed).
        optimizer (Optimizer, optional): the wrapped optimizer.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> from pagaie.distributed.sharding import group_sharded_parallel, save_group_sharded_model
        >>> model = paddle.nn.Linear(2, 1)
        >>> opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
        >>> model, opt, _ = group_sharded_parallel(model, opt, "os")
        >>> out = tempfile.mkdtemp()
        >>> save_group_sharded_model(model, out, opt)
        >>> sorted(os.listdir(out))
        ['model.pdmodel', 'model.pdopt']
    """
    from pagaie.framework.io import save

    _check(not os.path.isfile(output), "paddle.distributed.sharding.save_group_sharded_model: output "
           f"must be a directory, but {output!r} is a file")
    if not isinstance(model, _ShardedLayer):
        raise ValueError("paddle.distributed.sharding.save_group_sharded_model: model must be a layer "
                         f"wrapped by group_sharded_parallel, but received {type(model).__name__}")
    if optimizer is not None:
        _check(isinstance(optimizer, GroupShardedOptimizerStage2) or isinstance(model, GroupShardedStage3),
               "paddle.distributed.sharding.save_group_sharded_model: optimizer must be the one returned "
               f"by group_sharded_parallel, but received {type(optimizer).__name__}")
    os.makedirs(output, exist_ok=True)
    save(model._layer.state_dict(), os.path.join(output, "model.pdmodel"))
    if optimizer is not None:
        inner = optimizer._optim if isinstance(optimizer, GroupShardedOptimizerStage2) else optimizer
        save(inner.state_dict(), os.path.join(output, "model.pdopt"))
