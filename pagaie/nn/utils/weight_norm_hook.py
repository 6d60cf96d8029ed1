"""Weight normalisation: ``w = g * v / ||v||`` recomputed before each forward."""
from __future__ import annotations

from typing import Any

import numpy as np
import torch

from pagaie._core.parameter import Parameter
from pagaie._core.tensor import wrap
from pagaie._ops._helpers import no_low_float_kernel

__all__ = ["weight_norm", "remove_weight_norm"]


_EPS = 1e-12


def _sum_sq_except_dim(v: torch.Tensor, dim: int) -> torch.Tensor:
    """The sum of squares of ``v`` over every dim but ``dim`` (all of them for -1), keepdim."""
    if dim == -1:
        return v.square().sum()
    dims = [d for d in range(v.dim()) if d != dim]
    return v.square().sum(dim=dims, keepdim=True) if dims else v.square()


def _norm_except_dim(v: torch.Tensor, dim: int) -> torch.Tensor:
    """Paddle's starting ``g``: ``sqrt(sum(v**2) + 1e-12)`` (so a zero slice gives 1e-6)."""
    return torch.sqrt(_sum_sq_except_dim(v, dim) + _EPS)


def _direction(v: torch.Tensor, dim: int) -> torch.Tensor:
    """``v`` normalised as Paddle does: ``v / (||v|| + 1e-12)`` over everything for -1, else
    each slice along ``dim`` by ``max(||slice||, 1e-12)`` (so a zero slice stays zero, and
    its gradient is finite: vector_norm's is 0 at 0, where sqrt's is not)."""
    if dim == -1:
        return v / (torch.sqrt(v.square().sum()) + _EPS)
    dims = [d for d in range(v.dim()) if d != dim]
    n = torch.linalg.vector_norm(v, dim=dims, keepdim=True) if dims else v.abs()
    return v / n.clamp_min(_EPS)


class WeightNorm:
    """The forward pre-hook that rebuilds ``<name>`` from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def compute_weight(self, layer: Any, api: str = "nn.utils.weight_norm") -> Any:
        g = getattr(layer, self.name + "_g")._t
        v = getattr(layer, self.name + "_v")._t
        # Paddle computes ||v|| with its norm kernel, which has no float16/bfloat16 CPU version
        no_low_float_kernel(api, v, arg=self.name + "_v")
        d = _direction(v, self.dim)
        if self.dim != -1:
            shape = [1] * v.dim()
            shape[self.dim] = v.shape[self.dim]
            g = g.reshape(shape)
        return wrap(d * g)

    def __call__(self, layer: Any, inputs: Any) -> None:
        setattr(layer, self.name, self.compute_weight(layer))


def _new_param(layer: Any, value: torch.Tensor) -> Parameter:
    """``layer.create_parameter`` of ``value``'s shape and dtype, then filled with ``value``."""
    from pagaie._core.dtype import from_torch_dtype
    p = layer.create_parameter(list(value.shape), dtype=from_torch_dtype(value.dtype))
    with torch.no_grad():
        p._t.copy_(value.to(p._t.device))
    return p


def weight_norm(layer: Any, name: str = "weight", dim: int = 0) -> Any:
    """Reparameterise ``layer.<name>`` as ``g * v / ||v||`` (norm over all dims but ``dim``;
    ``dim=None``: over all elements): parameters ``<name>_g`` and ``<name>_v`` replace it.

    Args:
        layer (Layer): the layer.
        name (str): the parameter. Default 'weight'.
        dim (int|None): the dim kept by the norm. Default 0.

    Returns:
        Layer: the same layer.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.utils.weight_norm(paddle.nn.Linear(3, 4))
        >>> [n for n, _ in fc.named_parameters()]
        ['bias', 'weight_v', 'weight_g']
    """
    for hook in layer._forward_pre_hooks.values():
        if isinstance(hook, WeightNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
    if dim is None:
        dim = -1
    if not isinstance(dim, (int, np.integer)):
        # a TypeError as in Paddle, but raised before the layer is changed
        raise TypeError(f"paddle.nn.utils.weight_norm: 'dim' must be an int or None, but received "
                        f"{type(dim).__name__} {dim!r}")
    dim = int(dim)
    if name not in layer._parameters:
        raise KeyError(f"paddle.nn.utils.weight_norm: {type(layer).__name__} has no parameter named {name!r}")
    w = layer._parameters[name]
    nd = w.ndim
    if not -nd <= dim < nd:
        raise AssertionError("dim must set between [-R, R), R means the dimension of weight.")
    if dim != -1:
        dim = (dim + nd) % nd
    t = w._t.detach()
    no_low_float_kernel("nn.utils.weight_norm", t, arg=name)   # as in compute_weight
    fn = WeightNorm(name, dim)
    g = _norm_except_dim(t, dim)
    g = g.reshape(()) if dim == -1 else g.reshape(-1)
    del layer._parameters[name]
    # As Paddle: two new parameters of the layer (named, and drawn from the random stream,
    # by the layer's default initializer), then overwritten with v and g.
    layer.add_parameter(name + "_v", _new_param(layer, t))
    layer.add_parameter(name + "_g", _new_param(layer, g))
    setattr(layer, name, fn.compute_weight(layer))
    layer.register_forward_pre_hook(fn)
    return layer


def remove_weight_norm(layer: Any, name: str = "weight") -> Any:
    """Undo :func:`weight_norm`: ``<name>`` is a plain parameter again.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.utils.remove_weight_norm(paddle.nn.utils.weight_norm(paddle.nn.Linear(3, 4)))
        >>> [n for n, _ in fc.named_parameters()]
        ['bias', 'weight']
    """
    for hid, hook in list(layer._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            w = hook.compute_weight(layer, "nn.utils.remove_weight_norm")
            delattr(layer, name)
            del layer._parameters[name + "_g"]
            del layer._parameters[name + "_v"]
            layer.add_parameter(name, _new_param(layer, w._t.detach()))
            del layer._forward_pre_hooks[hid]
            return layer
    raise ValueError(f"weight_norm of '{name}' not found in {layer}")
