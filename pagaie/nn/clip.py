"""Gradient clipping strategies handed to optimizers (``grad_clip=``).

A strategy is called with ``[(param, grad), ...]`` and returns the list with
clipped gradients; parameters created with ``ParamAttr(need_clip=False)`` keep
their gradients, and pairs whose gradient is None are dropped (as in Paddle).
"""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core.tensor import Tensor, wrap

__all__ = ["ClipGradByValue", "ClipGradByNorm", "ClipGradByGlobalNorm"]


def _t(g: Any) -> torch.Tensor:
    return g._t if isinstance(g, Tensor) else g


def _norm_input(api: str, g: Any) -> torch.Tensor:
    """The torch tensor of a gradient whose norm ``api`` takes; Paddle's norm kernels only
    take floating-point gradients and raise RuntimeError for the others."""
    t = _t(g)
    if not t.is_floating_point():
        raise RuntimeError(f"paddle.nn.{api}: the gradients should be floating-point tensors, "
                           f"but received a gradient of dtype {str(t.dtype).replace('torch.', '')}")
    return t


class ClipGradBase:
    """Base of the clipping strategies: ``clip(params_grads) -> params_grads``."""

    def __call__(self, params_grads: list) -> list:
        with torch.no_grad():
            return self._dygraph_clip(params_grads)

    def _dygraph_clip(self, params_grads: list) -> list:
        raise NotImplementedError


class ClipGradByValue(ClipGradBase):
    """Clip every gradient element into ``[min, max]`` (``min`` defaults to ``-max``).

    Args:
        max (float): upper bound.
        min (float, optional): lower bound; ``-max`` when None (then ``max`` must be > 0).

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([2], 'float32')
        >>> clip = paddle.nn.ClipGradByValue(1.0)
        >>> clip([(w, paddle.to_tensor([3.0, -3.0]))])[0][1].tolist()
        [1.0, -1.0]
    """

    def __init__(self, max: float, min: float | None = None) -> None:
        if min is None:
            if max <= 0:
                raise AssertionError("max should be greater than 0")
            min = -max
        self.max, self.min = float(max), float(min)

    def __str__(self) -> str:
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"

    def _dygraph_clip(self, params_grads: list) -> list:
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if getattr(p, "need_clip", True) is False:
                out.append((p, g))
                continue
            if self.min > self.max:  # as Paddle's clip kernel: checked when a gradient is clipped
                raise ValueError(f"paddle.nn.ClipGradByValue: max should be greater than or equal to min, "
                                 f"but received min = {self.min:f}, max = {self.max:f}")
            out.append((p, wrap(torch.clamp(_t(g), self.min, self.max))))
        return out


class ClipGradByNorm(ClipGradBase):
    """Rescale each gradient whose L2 norm exceeds ``clip_norm`` to that norm.

    Args:
        clip_norm (float): the largest norm a gradient keeps.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([2], 'float32')
        >>> clip = paddle.nn.ClipGradByNorm(1.0)
        >>> clip([(w, paddle.to_tensor([3.0, 4.0]))])[0][1].tolist()
        [0.6000000238418579, 0.800000011920929]
    """

    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = float(clip_norm)

    def __str__(self) -> str:
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"

    def _dygraph_clip(self, params_grads: list) -> list:
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if getattr(p, "need_clip", True) is False:
                out.append((p, g))
                continue
            if not self.clip_norm > 0:  # as Paddle's clip_by_norm kernel: checked on use
                raise ValueError("paddle.nn.ClipGradByNorm: clip_norm should be greater than 0, "
                                 f"but received clip_norm = {self.clip_norm:f}")
            t = _norm_input("ClipGradByNorm", g)
            norm = torch.linalg.vector_norm(t.float() if t.dtype in (torch.float16, torch.bfloat16) else t)
            # clip_norm / max(norm, clip_norm): 1 below the bound; a NaN norm makes the gradient NaN
            scale = self.clip_norm / torch.maximum(norm, torch.full_like(norm, self.clip_norm))
            out.append((p, wrap((t * scale.to(t.dtype)))))
        return out


class ClipGradByGlobalNorm(ClipGradBase):
    """Rescale all gradients together so that their global L2 norm is at most ``clip_norm``.

    Args:
        clip_norm (float): the largest global norm.
        group_name (str): accepted for compatibility.
        auto_skip_clip (bool): only multiply when the global norm exceeds ``clip_norm``
            (otherwise every gradient is multiplied by ``clip_norm / max(norm, clip_norm)``).

    Examples:
        >>> import pagaie as paddle
        >>> w1, w2 = paddle.create_parameter([1], 'float32'), paddle.create_parameter([1], 'float32')
        >>> clip = paddle.nn.ClipGradByGlobalNorm(1.0)
        >>> [g.tolist() for _, g in clip([(w1, paddle.to_tensor([3.0])), (w2, paddle.to_tensor([4.0]))])]
        [[0.6000000238418579], [0.800000011920929]]
    """

    def __init__(self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False) -> None:
        if not isinstance(auto_skip_clip, bool):
            raise AssertionError("auto_skip_clip must be a bool")
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        self.auto_skip_clip = auto_skip_clip

    def __str__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"

    def _dygraph_clip(self, params_grads: list) -> list:
        squares = []
        has64 = False
        for p, g in params_grads:
            if g is None or getattr(p, "need_clip", True) is False:
                continue
            t = _norm_input("ClipGradByGlobalNorm", g)
            has64 = has64 or t.dtype == torch.float64
            squares.append(torch.sum(t.to(torch.float64 if t.dtype == torch.float64 else torch.float32) ** 2))
        if not squares:
            return params_grads
        sum_dtype = torch.float64 if has64 else torch.float32
        global_norm = torch.sqrt(torch.stack([s.to(sum_dtype) for s in squares]).sum())
        max_norm = torch.tensor(self.clip_norm, dtype=sum_dtype, device=global_norm.device)
        if not self.auto_skip_clip:
            scale = max_norm / torch.maximum(global_norm, max_norm)
        elif bool(global_norm > max_norm):
            scale = max_norm / global_norm
        else:
            scale = None
        out = []
        for p, g in params_grads:
            if g is None:
                continue
            if getattr(p, "need_clip", True) is False or scale is None:
                out.append((p, g))
                continue
            t = _t(g)
            if isinstance(g, Tensor) and t.dim() != 0:
                # As Paddle: a non-0-D gradient is scaled in place and returned itself
                t.mul_(scale.to(t.dtype))
                out.append((p, g))
            else:
                # a 0-D gradient times Paddle's [1]-shaped scale comes back with shape [1]
                out.append((p, wrap((t * scale.to(t.dtype)).reshape(1) if t.dim() == 0 else t * scale.to(t.dtype))))
        return out
