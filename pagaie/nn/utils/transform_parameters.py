"""Flatten parameters into one vector and back."""
from __future__ import annotations

from typing import Iterable

import torch

from pagaie._core.dtype import from_torch_dtype
from pagaie._core.tensor import Tensor, wrap
from pagaie.base.framework import dygraph_only

__all__ = ["parameters_to_vector", "vector_to_parameters"]


@dygraph_only   # Paddle's AssertionError in static mode
def parameters_to_vector(parameters: Iterable[Tensor], name: str | None = None) -> Tensor:
    """Concatenate the flattened parameters into one 1-D Tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.utils.parameters_to_vector(paddle.nn.Linear(3, 2).parameters()).shape
        paddle.Size([8])
    """
    if isinstance(parameters, Tensor):   # Paddle's concat rejects a lone Tensor: ValueError
        raise ValueError("paddle.nn.utils.parameters_to_vector: 'parameters' must be a list of "
                         f"Tensors, but received a Tensor of shape {list(parameters.shape)}")
    if not hasattr(parameters, "__getitem__"):   # Paddle indexes it: an iterator is a TypeError
        raise TypeError("paddle.nn.utils.parameters_to_vector: 'parameters' must be a list or tuple "
                        f"of Tensors, but received {type(parameters).__name__}")
    for i, p in enumerate(parameters):
        if not isinstance(p, Tensor):   # Paddle's reshape of it: ValueError
            raise ValueError(f"paddle.nn.utils.parameters_to_vector: every item of 'parameters' must "
                             f"be a Tensor, but item {i} is a {type(p).__name__}")
    ts = [p._t for p in parameters]
    if not ts:   # Paddle reads parameters[0]: IndexError
        raise IndexError("paddle.nn.utils.parameters_to_vector: 'parameters' is empty; "
                         "it needs at least one Tensor")
    for i, t in enumerate(ts[1:], 1):
        if t.dtype != ts[0].dtype:
            raise ValueError(f"paddle.nn.utils.parameters_to_vector: all parameters must have one dtype, "
                             f"but parameter 0 is {from_torch_dtype(ts[0].dtype)} and parameter {i} is "
                             f"{from_torch_dtype(t.dtype)}")
    # As Paddle: a new leaf (gradients do not flow back to the parameters), stop_gradient=False
    # whatever the dtype
    with torch.no_grad():
        out = wrap(torch.cat([t.reshape(-1) for t in ts]))
    out.stop_gradient = False
    return out


@dygraph_only
def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor], name: str | None = None) -> None:
    """Give ``parameters`` the consecutive slices of the 1-D ``vec`` as their values (in
    place); as in Paddle, each parameter takes ``vec``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.Linear(2, 1)
        >>> paddle.nn.utils.vector_to_parameters(paddle.ones([3]), fc.parameters())
        >>> fc.weight.tolist(), fc.bias.tolist()
        ([[1.0], [1.0]], [1.0])
    """
    if not isinstance(vec, Tensor):
        # Paddle asserts on vec.shape, then its split refuses an array: ValueError; an object
        # without a shape fails at the attribute
        what = (f"'vec' must be a 1-D Tensor, but received a {type(vec).__name__}")
        if hasattr(vec, "shape"):
            raise ValueError(f"paddle.nn.utils.vector_to_parameters: {what}")
        raise AttributeError(f"paddle.nn.utils.vector_to_parameters: {what} (it has no shape)")
    v = vec._t
    if v.dim() != 1:  # Paddle asserts here
        raise AssertionError(f"paddle.nn.utils.vector_to_parameters: 'vec' must be 1-D, but received "
                             f"{v.dim()}-D")
    if not hasattr(parameters, "__len__"):   # Paddle takes len(): an iterator is a TypeError
        raise TypeError("paddle.nn.utils.vector_to_parameters: 'parameters' must be a list or tuple "
                        f"of Tensors, but received {type(parameters).__name__}")
    params = list(parameters)
    total = sum(p._t.numel() for p in params)
    if total > v.numel():  # a longer vec is accepted: its tail is left unused
        raise ValueError(f"paddle.nn.utils.vector_to_parameters: 'vec' has {v.numel()} elements but the "
                         f"parameters need at least {total}")
    off = 0
    with torch.no_grad():
        for p in params:
            n = p._t.numel()
            part = v[off:off + n].reshape(p._t.shape)
            off += n
            if part.dtype == p._t.dtype:
                p._t.copy_(part)
                continue
            # Paddle shares the slice's storage with the parameter: it takes vec's dtype
            trainable = not p.stop_gradient
            p._t = part.clone().requires_grad_(p._t.requires_grad and part.is_floating_point())
            if trainable:
                p.stop_gradient = False
