"""Spectral normalisation: ``w = w_orig / sigma(w_orig)``, sigma by power iteration."""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core.tensor import Tensor, wrap

__all__ = ["spectral_norm"]


class SpectralNorm:
    """The forward pre-hook that rebuilds ``<name>`` from ``<name>_orig`` and the
    power-iteration vectors ``<name>_u`` / ``<name>_v`` (updated in training mode)."""

    def __init__(self, name: str, n_power_iterations: int, dim: int, eps: float) -> None:
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name, self.n, self.dim, self.eps = name, n_power_iterations, dim, eps

    def _matrix(self, w: torch.Tensor) -> torch.Tensor:
        if self.dim != 0:
            w = w.movedim(self.dim, 0)
        return w.reshape(w.shape[0], -1)

    def compute_weight(self, layer: Any, do_power_iteration: bool) -> Tensor:
        w = getattr(layer, self.name + "_orig")._t
        u = getattr(layer, self.name + "_u")._t
        v = getattr(layer, self.name + "_v")._t
        mat = self._matrix(w)
        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n):
                    v.copy_(torch.nn.functional.normalize(mat.t() @ u, dim=0, eps=self.eps))
                    u.copy_(torch.nn.functional.normalize(mat @ v, dim=0, eps=self.eps))
        # this call's graph keeps its own vectors: the buffers move on at the next forward
        u, v = u.clone(), v.clone()
        sigma = torch.dot(u, mat @ v)
        return wrap(w / sigma)

    def __call__(self, layer: Any, inputs: Any) -> None:
        setattr(layer, self.name, self.compute_weight(layer, layer.training))


def _random_unit(layer: Any, n: int, eps: float) -> torch.Tensor:
    """A random unit vector of ``n`` entries, drawn as Paddle draws the starting vectors:
    a parameter made with the layer's default (Xavier-uniform) initializer, overwritten by
    ``paddle.normal(0, 1)`` samples, then normalised; so the random stream moves as Paddle's."""
    from pagaie._ops.random import normal
    with torch.no_grad():
        p = layer.create_parameter([n])
        vec = normal(0.0, 1.0, shape=[n])._t.to(p._t.dtype)
        return torch.nn.functional.normalize(vec, dim=0, eps=eps)


def spectral_norm(layer: Any, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Any:
    """Normalise ``layer.<name>`` by its largest singular value, estimated by power
    iteration before each forward (the vectors are updated only in training mode).

    ``<name>_orig`` becomes the parameter; ``<name>_u`` and ``<name>_v`` are persistable
    buffers. ``dim`` (the output-channel dim) defaults to 1 for Linear and transposed
    convolutions and 0 otherwise. The starting vectors are drawn as Paddle draws them, and
    until the first forward ``layer.<name>`` is a plain copy of the weight, as in Paddle.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.utils.spectral_norm(paddle.nn.Linear(3, 4))
        >>> list(fc.state_dict())
        ['bias', 'weight_orig', 'weight_u', 'weight_v']
    """
    from pagaie.static.framework import in_dynamic_mode
    if not in_dynamic_mode():
        # Paddle registers u and v as buffers, which takes no program variable: its TypeError
        raise TypeError("paddle.nn.utils.spectral_norm: runs only in dynamic mode (its u and v "
                        "buffers must be Tensors, not program variables)")
    for hook in layer._forward_pre_hooks.values():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
    if dim is None:
        from pagaie.nn import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, Linear
        dim = 1 if isinstance(layer, (Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, Linear)) else 0
    if name not in layer._parameters:
        raise KeyError(f"paddle.nn.utils.spectral_norm: {type(layer).__name__} has no parameter named {name!r}")
    w = layer._parameters[name]
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"paddle.nn.utils.spectral_norm: 'dim' must be an int, but received "
                        f"{type(dim).__name__}")
    if not 0 <= dim < w.ndim:   # Paddle moves ``dim`` to the front by a permutation: no negatives
        raise ValueError(f"paddle.nn.utils.spectral_norm: 'dim' must be in [0, {w.ndim}) for the "
                         f"{w.ndim}-D parameter {name!r}, but received {dim}")
    fn = SpectralNorm(name, n_power_iterations, dim, eps)
    t = w._t.detach()
    mat = fn._matrix(t)
    h, wd = mat.shape
    u = _random_unit(layer, h, eps).to(t.dtype).to(t.device)
    v = _random_unit(layer, wd, eps).to(t.dtype).to(t.device)
    del layer._parameters[name]
    layer.add_parameter(name + "_orig", w)   # the very parameter, renamed (as Paddle)
    # as Paddle: ``weight * 1.0`` (a plain tensor in the graph of the parameter) until the
    # first forward recomputes it
    setattr(layer, name, w * 1.0)
    layer.register_buffer(name + "_u", Tensor(u))
    layer.register_buffer(name + "_v", Tensor(v))
    layer.register_forward_pre_hook(fn)
    return layer
