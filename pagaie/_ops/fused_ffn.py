"""The fused feed-forward op: ``linear2(dropout(act(linear1(x))))`` in one call.

A Transformer's feed-forward block widens each token to ``ffn_dim`` features, applies
an activation and dropout, and narrows it again. Op by op, the wide intermediate
(``tokens x ffn_dim``) is written and read again by every stage: the activation, the
float mask, the mask multiply, and in the backward the mask multiply and the
activation's gradient, and autograd keeps three copies of it (the activation's input,
the mask and the dropout's output). This op does the elementwise work in place.

Dropout is Paddle's: kept values are divided by ``1 - p`` (in place), dropped ones are 0,
and the gradient is ``where(keep, grad, 0) / (1 - p)``. For ``relu`` the one saved
activation gives the backward its mask too: an element passed both relu and dropout
exactly when it is positive, so the backward is a single ``threshold_backward`` and a
division. Other activations keep their input and the boolean keep-mask, and the backward
differentiates the activation.

The keep-mask is drawn in one call for the whole ``tokens x ffn_dim`` shape, as the
unfused ``dropout`` draws it, so a seeded program gives the same mask (and, on the CPU,
the same values as Paddle's unfused ops) fused or not.
The op is created by the ``fuse_feedforward`` pass; it is not part of Paddle's namespace.
"""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core import engine
from pagaie._core.registry import defop
from pagaie._ops._helpers import zero_dropped
from pagaie._ops._random_mask import dropout_divisor, keep_mask, upscale_kept
from pagaie._ops.fused import _act

__all__: list[str] = []

def _linear(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor | None) -> torch.Tensor:
    """``x @ w + b``, the bias folded into the GEMM."""
    return torch.mm(x, w) if b is None else torch.addmm(b, x, w)


def _dropout_keep_mask(shape: tuple, p: float, like: torch.Tensor) -> torch.Tensor:
    """The keep-mask the unfused ``dropout`` would draw for an activation of ``shape``."""
    if like.is_cuda:  # that dropout is torch's fused CUDA kernel: take its mask
        return torch.native_dropout(torch.ones(shape, dtype=like.dtype, device=like.device), p, True)[1]
    return keep_mask(shape, p, like.device)


class _FeedForward(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, x2: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor | None,
                w2: torch.Tensor, b2: torch.Tensor | None, p: float, act: str | None,
                act_kwargs: dict | None) -> torch.Tensor:
        d = dropout_divisor(p, x2.dtype)
        # p = 0: no dropout and no draw (Paddle's dropout returns its input)
        keep = _dropout_keep_mask((x2.shape[0], w1.shape[1]), p, x2) if p else None
        relu = act == "relu" and not act_kwargs
        if relu:
            a = _linear(x2, w1, b1).relu_()
            h = None
        else:
            h = _linear(x2, w1, b1)
            a = _act(h, act, None, act_kwargs)
        if keep is not None:
            zero_dropped(a.div_(d), keep, out=a)
        ctx.act, ctx.act_kwargs, ctx.divisor, ctx.relu = act, act_kwargs, d, relu
        ctx.save_for_backward(x2, w1, w2, a, *(() if relu else (h, keep)))
        return _linear(a, w2, b2)

    @staticmethod
    def backward(ctx: Any, gy: torch.Tensor) -> tuple:
        x2, w1, w2, a, *rest = ctx.saved_tensors
        need_x, need_w1, need_b1, need_w2, need_b2 = ctx.needs_input_grad[:5]
        gw2 = torch.mm(a.t(), gy) if need_w2 else None
        gb2 = gy.sum(0) if need_b2 else None
        ga = torch.mm(gy, w2.t())
        if ctx.relu:
            # a > 0 exactly where relu and dropout both let the element through
            gh = torch.ops.aten.threshold_backward.grad_input(ga, a, 0, grad_input=ga)
            if ctx.divisor != 1.0:
                gh.div_(ctx.divisor)
        else:
            h, keep = rest
            if keep is not None:
                ga = zero_dropped(ga, keep).div_(ctx.divisor)
            gh = _act_backward(ga, h, ctx.act, ctx.act_kwargs)
        gx = torch.mm(gh, w1.t()) if need_x else None
        gw1 = torch.mm(x2.t(), gh) if need_w1 else None
        gb1 = gh.sum(0) if need_b1 else None
        return gx, gw1, gb1, gw2, gb2, None, None, None


def _act_backward(grad: torch.Tensor, h: torch.Tensor, act: str | None,
                  act_kwargs: dict | None) -> torch.Tensor:
    """The gradient with respect to ``h`` of ``act(h)`` given the output gradient."""
    if act is None:
        return grad
    if act == "gelu":
        approximate = (act_kwargs or {}).get("approximate", False)
        mode = "tanh" if approximate in (True, "tanh") else "none"
        return torch.ops.aten.gelu_backward(grad, h, approximate=mode)
    with torch.enable_grad():
        hd = h.detach().requires_grad_()
        out = _act(hd, act, None, act_kwargs)
    return engine.grad([out], [hd], [grad])[0]


@defop(amp="white", method=False, impure=True)
def fused_feedforward_dropout(x, weight1, bias1=None, weight2=None, bias2=None, p=0.0, act=None,
                              act_kwargs=None, name=None):
    """``linear(dropout(act(linear(x, weight1, bias1)), p), weight2, bias2)`` in one call.

    Dropout is in training mode with Paddle's default ``upscale_in_train`` rule: each
    element of the activation is kept with probability ``1 - p`` and scaled by
    ``1 / (1 - p)``.

    Args:
        x (Tensor): the input, ``[..., in_features]``.
        weight1 (Tensor): ``[in_features, ffn_features]`` (Paddle's layout).
        bias1 (Tensor, optional): ``[ffn_features]``.
        weight2 (Tensor): ``[ffn_features, out_features]``.
        bias2 (Tensor, optional): ``[out_features]``.
        p (float): the dropout probability, in ``[0, 1)``.
        act (str, optional): the name of an activation op (``'relu'``, ``'gelu'``...);
            None for none.
        act_kwargs (dict, optional): the activation's keyword arguments.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., out_features]``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.fused_ffn import fused_feedforward_dropout
        >>> x = paddle.to_tensor([[1.0, -2.0]])
        >>> w1 = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> w2 = paddle.to_tensor([[1.0], [1.0]])
        >>> fused_feedforward_dropout(x, w1, None, w2, None, 0.0, 'relu').tolist()
        [[1.0]]
    """
    if weight2 is None:
        raise ValueError("paddle.fused_feedforward_dropout: 'weight2' is required")
    p = float(p)
    if not 0.0 <= p < 1.0:
        raise ValueError(f"paddle.fused_feedforward_dropout: 'p' should be in [0, 1), but "
                         f"received {p}")
    lead = x.shape[:-1]
    x2 = x.reshape(-1, x.shape[-1]).contiguous()
    if torch.compiler.is_compiling():
        # The compiler fuses the plain composition itself (same mask draw).
        h = _act(_linear(x2, weight1, bias1), act, None, act_kwargs)
        if p:
            h = upscale_kept(h, keep_mask(h.shape, p, h.device), p)
        y = _linear(h, weight2, bias2)
    else:
        y = _FeedForward.apply(x2, weight1, bias1, weight2, bias2, p, act, act_kwargs)
    return y.reshape(*lead, y.shape[-1]) if len(lead) != 1 else y
