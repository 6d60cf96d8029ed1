"""Argument normalisation shared by the nn op kernels (conv, pool, norm, loss).

Paddle's convolution and pooling APIs accept the same padding forms: an int, a
list of ``n`` ints (symmetric), ``2n`` ints (before/after per spatial dim), ``n+2``
pairs including the (zero) batch and channel pairs, or the strings ``'SAME'`` /
``'VALID'``. :func:`conv_padding` reduces all of them to one of three shapes.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

__all__ = ["ntuple", "conv_padding", "same_pads", "channel_last", "to_first", "to_last",
           "pad_input", "reduce_loss", "check_reduction", "float_attr"]

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def float_attr(v: Any, api: str, arg: str) -> float:
    """A float attribute as Paddle's argument parser reads it: a real Python or numpy number
    (a bool too), a 0-D numpy array or a 0-D tensor; anything else (a str, None, a list, a
    complex number) is Paddle's TypeError."""
    if hasattr(v, "_t"):
        v = v._t
    if isinstance(v, torch.Tensor):
        if v.dim() == 0 and not v.is_complex():
            return v.item()
    elif isinstance(v, np.ndarray):
        if v.ndim == 0 and v.dtype.kind in "biuf":
            return v.item()
    elif isinstance(v, (numbers.Real, np.bool_)):
        return float(v)
    raise TypeError(f"paddle.nn.functional.{api}: '{arg}' must be a float, but received "
                    f"{type(v).__name__} {v!r}")


def ntuple(v: Any, n: int, api: str, arg: str) -> list[int]:
    """An int or a list of ``n`` ints as a list of ``n`` ints."""
    if isinstance(v, torch.Tensor):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        if len(v) == 1:
            v = list(v) * n
        if len(v) != n:
            raise ValueError(f"paddle.{api}: '{arg}' must be an int or a list of {n} ints, "
                             f"but received {v}")
        return [int(e) for e in v]
    return [int(v)] * n


def channel_last(data_format: str, n: int, api: str) -> bool:
    """Whether ``data_format`` puts channels last; ValueError for a format of the wrong rank."""
    first, last = _FORMATS[n]
    if data_format == first:
        return False
    if data_format == last:
        return True
    raise ValueError(f"paddle.{api}: Attr(data_format) should be '{first}' or '{last}'. "
                     f"Received Attr(data_format): {data_format}.")


def to_first(x: torch.Tensor) -> torch.Tensor:
    """Channels-last layout to channels-first."""
    return x.movedim(-1, 1)


def to_last(x: torch.Tensor) -> torch.Tensor:
    """Channels-first layout to channels-last."""
    return x.movedim(1, -1)


def conv_padding(padding: Any, n: int, last: bool, api: str) -> tuple[str, Any]:
    """Normalise Paddle's padding forms.

    Returns ``('SAME', None)``, ``('VALID', None)``, ``('sym', [p]*n)`` or
    ``('asym', [(before, after)] * n)`` (pairs in spatial order).
    """
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{p}'. It can only be 'SAME' or 'VALID'.")
        return p, None
    if isinstance(padding, torch.Tensor):
        padding = padding.tolist()
    if isinstance(padding, (list, tuple)):
        padding = list(padding)
        if len(padding) == n + 2 and isinstance(padding[0], (list, tuple)):
            sides = [padding[0], padding[-1]] if last else [padding[0], padding[1]]
            if any(int(a) != 0 or int(b) != 0 for a, b in sides):
                raise ValueError(f"paddle.{api}: non-zero padding({padding}) in the batch or "
                                 "channel dimensions is not supported.")
            spatial = padding[1:-1] if last else padding[2:]
            pairs = [(int(a), int(b)) for a, b in spatial]
        elif len(padding) == 2 * n and all(not isinstance(e, (list, tuple)) for e in padding):
            pairs = [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in range(n)]
        elif len(padding) == n and all(not isinstance(e, (list, tuple)) for e in padding):
            return "sym", [int(e) for e in padding]
        elif len(padding) == 1 and n == 1 and not isinstance(padding[0], (list, tuple)):
            return "sym", [int(padding[0])]   # (a one-element list is refused for N > 1, as Paddle)
        else:
            raise ValueError(f"paddle.{api}: padding should be an int, a list of {n} or {2 * n} "
                             f"ints, or {n + 2} pairs, but received {padding}")
        if all(a == b for a, b in pairs):
            return "sym", [a for a, _ in pairs]
        return "asym", pairs
    return "sym", [int(padding)] * n


def same_pads(sizes: list[int], kernel: list[int], stride: list[int]) -> list[tuple[int, int]]:
    """Paddle's 'SAME' padding: output ``ceil(in / stride)``, the extra split low-first."""
    pairs = []
    for i, k, s in zip(sizes, kernel, stride):
        out = (i + s - 1) // s
        total = max((out - 1) * s + k - i, 0)
        pairs.append((total // 2, total - total // 2))
    return pairs


def pad_input(x: torch.Tensor, pairs: list[tuple[int, int]], value: float = 0.0) -> torch.Tensor:
    """Pad the trailing spatial dims of a channels-first tensor by (before, after) pairs."""
    flat: list[int] = []
    for a, b in reversed(pairs):
        flat += [a, b]
    return F.pad(x, flat, value=value)


def check_reduction(reduction: str, api: str) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"paddle.{api}: the value of 'reduction' should be 'sum', 'mean' or "
                         f"'none', but received {reduction}, which is not allowed.")


def reduce_loss(loss: torch.Tensor, reduction: str) -> torch.Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def smoothing_coefficients(epsilon: float, classes: int) -> tuple[float, float]:
    """``(1 - epsilon, epsilon / classes)`` as Paddle's label_smooth kernel computes them: in
    float32, whatever the label's dtype.

    Examples:
        >>> from pagaie._ops._nn_helpers import smoothing_coefficients
        >>> smoothing_coefficients(0.1, 3)
        (0.8999999761581421, 0.03333333507180214)
    """
    import numpy as np
    eps = np.float32(epsilon)
    return float(np.float32(1) - eps), float(eps / np.float32(classes))


def scan_max(w: torch.Tensor, valid: torch.Tensor | None = None) -> torch.Tensor:
    """The maximum over the last axis of ``w`` as Paddle's max pool and maxout kernels scan
    it: a running value that starts at float32's lowest and becomes each element ``v`` unless
    it is already greater, ``y = y > v ? y : v``. A NaN thus replaces the running value and
    the next element replaces the NaN: the result is the maximum of the elements after the
    last NaN (no floor at the lowest value there), or NaN when a NaN is the last element.
    The gradient goes to the first element equal to the result (none for NaN). ``valid``
    (bool, same shape) marks the elements that exist (not padding)."""
    pos = torch.arange(w.shape[-1], device=w.device)
    isnan = torch.isnan(w) if valid is None else valid & torch.isnan(w)
    last_nan = torch.where(isnan, pos, -1).amax(-1, keepdim=True)
    keep = pos > last_nan if valid is None else valid & (pos > last_nan)
    best = torch.where(keep, w, -math.inf).detach().amax(-1, keepdim=True)
    equal = w == best if valid is None else valid & (w == best)
    out = w.gather(-1, equal.to(torch.uint8).argmax(-1, keepdim=True))
    out = torch.where((last_nan >= 0) & ~keep.any(-1, keepdim=True), math.nan, out)
    if out.dtype in (torch.float32, torch.float64):
        low = torch.finfo(torch.float32).min
        out = torch.where((last_nan < 0) & (out < low), low, out)
    return out.squeeze(-1)
