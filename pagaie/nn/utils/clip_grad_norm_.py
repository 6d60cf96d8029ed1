"""In-place gradient clipping of parameter lists by their joint norm: clip_grad_norm_ (the module
of Paddle's name, ``paddle.nn.utils.clip_grad_norm_``)."""
from __future__ import annotations

from typing import Any, Iterable

import torch

from pagaie._core.tensor import Tensor, wrap
from pagaie._ops._helpers import no_low_float_kernel

__all__ = ["clip_grad_norm_"]


_NORM_TYPES = (float("inf"), 0, 1, 2)


def _dynamic_only(api: str) -> None:
    """Paddle's gradient clipping utilities run only eagerly: its RuntimeError in static mode."""
    from pagaie.static.framework import in_dynamic_mode
    if not in_dynamic_mode():
        raise RuntimeError(f"paddle.nn.utils.{api}: this API can only run in dynamic mode.")


def _params(parameters: Any) -> list:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def _as_float(max_norm: Any) -> float:
    """``float(max_norm)`` as Paddle converts it: TypeError for a non-number (None, a list),
    ValueError for a string that is no number."""
    try:
        return float(max_norm)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"paddle.nn.utils.clip_grad_norm_: max_norm must be a number, got "
                        f"{max_norm!r}") from None


def clip_grad_norm_(parameters: Iterable[Tensor] | Tensor, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False) -> Tensor:
    """Scale the gradients of ``parameters`` in place so that their joint ``norm_type``-norm
    is at most ``max_norm``.

    Args:
        parameters (Tensor|list[Tensor]): parameters whose ``grad`` is clipped.
        max_norm (float): the largest total norm.
        norm_type (float): the norm order: ``inf``, 0, 1 or 2 (as in Paddle). Default 2.
        error_if_nonfinite (bool): raise RuntimeError when the total norm is nan or inf.

    Returns:
        Tensor: the total norm before clipping (0-D).

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.Linear(2, 2)
        >>> fc(paddle.ones([1, 2])).sum().backward()
        >>> total = paddle.nn.utils.clip_grad_norm_(fc.parameters(), max_norm=0.1)
        >>> float(total) > 0.1
        True
    """
    _dynamic_only("clip_grad_norm_")
    if norm_type not in _NORM_TYPES:
        raise ValueError(f"paddle.nn.utils.clip_grad_norm_: 'norm_type' only supports [inf, 0, 1, 2], "
                         f"but received {norm_type!r}")
    grads = [p._t.grad for p in _params(parameters) if p._t.grad is not None]
    max_norm = _as_float(max_norm)   # where Paddle converts it: a 1-element Tensor is a number
    if not grads:
        return wrap(torch.tensor(0.0))
    for g in grads:   # Paddle's norm (p_norm, abs) CPU kernels have no float16/bfloat16 version
        no_low_float_kernel("nn.utils.clip_grad_norm_", g, arg="grad")
    norm_type = float(norm_type)
    with torch.no_grad():
        if norm_type == float("inf"):
            # an empty gradient holds no largest element: the others decide, and with none
            # left there is no maximum (Paddle's ValueError)
            norms = [g.abs().max() for g in grads if g.numel()]
            if not norms:
                raise ValueError("paddle.nn.utils.clip_grad_norm_: the gradients have no elements, "
                                 "so their inf-norm (largest absolute value) does not exist")
            total = norms[0] if len(norms) == 1 else torch.max(torch.stack(norms))
        else:
            total = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]),
                                             norm_type)
        if error_if_nonfinite and not bool(torch.isfinite(total)):
            raise RuntimeError(f"The total norm of {norm_type} order of the gradients from `parameters` is "
                               "non-finite, so it cannot be clipped. In any case, disable this error and "
                               "scale the gradient by non-finite norm, set `error_if_nonfinite=False`")
        coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype))
    return wrap(total)
