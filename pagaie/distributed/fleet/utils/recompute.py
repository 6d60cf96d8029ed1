"""Activation recomputation (gradient checkpointing) over ``torch.utils.checkpoint``.

The forward pass of ``function`` keeps only its inputs; backward runs it again to get the
intermediate values. ``preserve_rng_state`` restores the random state first, so dropout draws
the same masks both times (pagaie's generators are torch's default generators).
"""
from __future__ import annotations

import inspect
import logging
from typing import Any, Callable

import torch
from torch.utils.checkpoint import checkpoint

from pagaie._core.random import default_generator
from pagaie._core.tensor import Tensor, unwrap, wrap
from pagaie.nn.layer.layers import Layer

__all__ = ["recompute"]

_log = logging.getLogger("pagaie.distributed.fleet.recompute")


def _needs_grad(values: list) -> bool:
    for v in values:
        if isinstance(v, Tensor) and not v.stop_gradient:
            return True
        if type(v) is tuple and any(isinstance(e, Tensor) and not e.stop_gradient for e in v):
            return True
    return False


def _positional(function: Callable, args: tuple, kwargs: dict) -> list:
    """All arguments as one positional list (the reentrant form takes no keywords)."""
    sig = inspect.signature(function.forward if isinstance(function, Layer) else function)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    out: list = []
    for name, value in bound.arguments.items():
        kind = sig.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            out.extend(value)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            out.extend(value.values())
        elif kind is inspect.Parameter.KEYWORD_ONLY:
            raise ValueError("paddle.distributed.fleet.utils.recompute: keyword-only arguments of the "
                             f"function (here {name!r}) are not supported with use_reentrant=True; pass "
                             "use_reentrant=False")
        else:
            out.append(value)
    return out


def _as_torch(values: Any) -> Any:
    return unwrap(values) if isinstance(values, Tensor) else values


def _replaying_cpu_draws(function: Any) -> Any:
    """``function``, whose second and later calls (the recomputations) draw the CPU engine's
    numbers the first call drew: torch's checkpoint restores only torch's generators, and
    Paddle's CPU samplers draw from the engine of ``pagaie._core.random``."""
    gen = default_generator(torch.device("cpu"))
    first: list = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not first:
            first.append(gen.get_state())
            return function(*args, **kwargs)
        now = gen.get_state()
        gen.set_state(first[0])
        try:
            return function(*args, **kwargs)
        finally:
            gen.set_state(now)
    return call


def recompute(function: Layer | Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run ``function(*args, **kwargs)`` without keeping its intermediate activations; they are
    recomputed during backward. Outputs and gradients equal those of a plain call.

    Args:
        function (Layer|callable): the block to run.
        *args: its positional inputs.
        **kwargs: its keyword inputs, plus ``preserve_rng_state`` (bool, default True: replay
            the same random numbers when recomputing) and ``use_reentrant`` (bool, default True:
            as in Paddle, when no input needs a gradient the output needs none either and the
            block's parameters get no gradient; False lets parameters get gradients anyway and
            accepts keyword-only arguments).

    Returns:
        The output of ``function``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distributed.fleet.utils import recompute
        >>> layer = paddle.nn.Linear(3, 2)
        >>> x = paddle.ones([2, 3])
        >>> x.stop_gradient = False
        >>> y = recompute(layer, x)
        >>> y.sum().backward()
        >>> layer.weight.grad.shape
        paddle.Size([3, 2])
    """
    preserve = kwargs.pop("preserve_rng_state", True)
    use_reentrant = kwargs.pop("use_reentrant", True)
    if torch.is_grad_enabled() and not _needs_grad(list(args) + list(kwargs.values())):
        _log.warning("[Recompute]: None of the inputs to current recompute block need grad, "
                     "therefore there is NO need to recompute this block in backward !")
    if use_reentrant:
        kwargs.pop("offload_indices", None)
        flat = _positional(function, args, kwargs)
        replay = _replaying_cpu_draws(function) if preserve else function

        def run(*targs: Any) -> Any:
            return unwrap(replay(*[wrap(a) if isinstance(a, torch.Tensor) else a for a in targs]))

        return wrap(checkpoint(run, *[_as_torch(a) for a in flat], use_reentrant=True,
                               preserve_rng_state=preserve))
    tkwargs = {k: _as_torch(v) for k, v in kwargs.items()}
    replay_kw = _replaying_cpu_draws(function) if preserve else function

    def run_kw(*targs: Any, **tkw: Any) -> Any:
        rewrap = {k: wrap(v) if isinstance(v, torch.Tensor) else v for k, v in tkw.items()}
        return unwrap(replay_kw(*[wrap(a) if isinstance(a, torch.Tensor) else a for a in targs], **rewrap))

    return wrap(checkpoint(run_kw, *[_as_torch(a) for a in args], use_reentrant=False,
                           preserve_rng_state=preserve, **tkwargs))
