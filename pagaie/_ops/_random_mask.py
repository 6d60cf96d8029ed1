"""Dropout keep-masks, drawn as Paddle's CPU kernels draw them.

Paddle's CPU dropout takes one ``uniform_real_distribution<float>(0, 1)`` draw per mask
element from the CPU engine (:func:`pagaie._core.random.cpu_engine`) and keeps the element
when the draw is at least ``p`` (as float32); its composite channel and alpha dropouts draw
the same way through ``paddle.uniform``. A float32 uniform is a monotonic function of its
64-bit word, so the mask compares the raw words with the least word whose uniform reaches
``p``: one compare per element and no floats made. The engine then stands where Paddle's
would, and the next random op draws what Paddle's would.

Kept elements of ``upscale_in_train`` dropout are divided by ``1 - p`` (a division in the
tensor's dtype, the divisor rounded from float32 as Paddle's kernel rounds it), which
:func:`upscale_kept` does; its gradient, ``where(keep, grad, 0) / (1 - p)``, has the values of
Paddle's ``grad * mask / (1 - p)`` (a zero may differ in sign).

``Program.random_seed``: Paddle's element-wise dropout (and ``class_center_sample``) reads the
default main program's ``random_seed`` when it is called and, when that is non-zero, draws
from a fresh engine seeded with it (the same mask on every run). The static executor pins the
seed an op was recorded with around its kernel (:func:`pinned_seed`); a ``keep_mask`` called
with ``seed=0`` inside draws from that seed, and :func:`program_seed` is the seed such an op
uses (the pinned one inside a program run, else the default main program's).

GPUs keep torch's Bernoulli sampler. Under ``torch.compile`` a CPU mask is one opaque op
that writes a fresh boolean buffer (``pagaie::fill_keep_mask_``): the compiler neither
merges two draws nor traces into numpy, and at run time the op draws from the same engine.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Sequence

import numpy as np
import torch

from pagaie._core.random import cpu_engine
from pagaie._ops._helpers import trace_constant, zero_dropped
from pagaie._ops._std_dists import keep_words

__all__ = ["keep_mask", "upscale_kept", "dropout_divisor", "as_scalar", "pinned_seed", "program_seed"]

# Seeds pinned by the static executor around the op it runs (0: the op was recorded unseeded).
_PINNED: list[int] = []


@contextmanager
def pinned_seed(seed: int) -> Iterator[None]:
    """Inside the block, ``keep_mask(..., seed=0)`` and :func:`program_seed` use ``seed``.

    Examples:
        >>> import torch
        >>> from pagaie._ops._random_mask import keep_mask, pinned_seed
        >>> with pinned_seed(7):
        ...     a = keep_mask([50], 0.5, torch.device('cpu'))
        >>> bool((a == keep_mask([50], 0.5, torch.device('cpu'), seed=7)).all())
        True
    """
    _PINNED.append(int(seed))
    try:
        yield
    finally:
        _PINNED.pop()


def program_seed() -> int:
    """The seed of an op that reads ``Program.random_seed`` (Paddle's dropout): the one the
    static executor pinned for the running op, else the default main program's ``random_seed``
    (0: none, draw from the default engine).

    Examples:
        >>> from pagaie._ops._random_mask import program_seed
        >>> program_seed()
        0
    """
    if _PINNED:
        return _PINNED[-1]
    from pagaie.static.framework import default_main_program
    return int(getattr(default_main_program(), "random_seed", 0) or 0)


def _draw_into(flat: np.ndarray, p: float, seed: int = 0) -> None:
    """Fill the boolean array ``flat`` with Paddle's keep decisions, ``flat.size`` draws."""
    if flat.size:
        keep_words(cpu_engine(seed), flat.size, p, out=flat)


def keep_mask(shape: Sequence[int], p: float, device: torch.device, seed: int = 0) -> torch.Tensor:
    """A boolean tensor of ``shape``, each element True with probability ``1 - p``.

    On the CPU, one draw per element from Paddle's engine (a fresh one seeded with ``seed``
    when it is non-zero, else the one :func:`pinned_seed` pins), kept when its float32 uniform is ``>= p``: Paddle's dropout mask.

    Examples:
        >>> import torch
        >>> from pagaie._ops._random_mask import keep_mask
        >>> m = keep_mask([1000, 100], 0.25, torch.device('cpu'))
        >>> m.dtype, abs(m.float().mean().item() - 0.75) < 0.01
        (torch.bool, True)
    """
    shape = tuple(int(s) for s in shape)
    if not seed and _PINNED:
        seed = _PINNED[-1]
    if torch.device(device).type != "cpu":
        if p <= 0.0 or p >= 1.0:
            return torch.full(shape, p <= 0.0, dtype=torch.bool, device=device)
        gen = None
        if seed:  # a fixed seed repeats its mask (torch's sampler, not Paddle's)
            gen = torch.Generator(device=device)
            gen.manual_seed(int(seed) & ((1 << 63) - 1))
        return torch.empty(shape, device=device).bernoulli_(1.0 - p, generator=gen).bool()
    out = torch.empty(shape, dtype=torch.bool)
    if torch.compiler.is_compiling():
        _fill_keep_op(out, float(p), int(seed))
    else:
        _draw_into(out.numpy().reshape(-1), p, seed)
    return out


# In place into a fresh buffer: the compiler never merges two calls of an op that
# writes its argument, as it would two calls of a pure op with equal arguments.
@torch.library.custom_op("pagaie::fill_keep_mask_", mutates_args=("out",))
def _fill_keep_op(out: torch.Tensor, p: float, seed: int) -> None:
    if out.device.type == "cpu" and out.is_contiguous():
        _draw_into(out.numpy().reshape(-1), p, seed)
    else:
        out.copy_(keep_mask(out.shape, p, out.device, seed))


@trace_constant
def as_scalar(value: float, dtype: torch.dtype) -> float | int:
    """``value`` as Paddle's kernels hold a scalar argument of a ``dtype`` tensor: rounded to
    that float type, truncated for integer types (torch then computes with it exactly).

    Examples:
        >>> import torch
        >>> from pagaie._ops._random_mask import as_scalar
        >>> as_scalar(1 / 3, torch.bfloat16), as_scalar(1.9, torch.int32)
        (0.333984375, 1)
    """
    if dtype == torch.float64:
        return float(value)
    if dtype == torch.float32:
        return float(np.float32(value))
    if dtype == torch.float16:  # through float32, as Paddle's and torch's conversions go
        return float(np.float16(np.float32(value)))
    if dtype == torch.bfloat16:  # to float32, then round to nearest even on the top 16 bits
        bits = int(np.array(value, dtype=np.float32).view(np.uint32))
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
        return float(np.array(bits, dtype=np.uint32).view(np.float32))
    if dtype.is_floating_point or dtype.is_complex or dtype == torch.bool:
        return value
    return int(value)


@trace_constant
def dropout_divisor(p: float, dtype: torch.dtype) -> float:
    """The divisor of kept values, ``T(1.0f - p)``: computed in float32, then rounded to
    the tensor's float type (float32 for other types).

    Examples:
        >>> import torch
        >>> from pagaie._ops._random_mask import dropout_divisor
        >>> dropout_divisor(0.3, torch.float64)
        0.699999988079071
    """
    d = float(np.float32(1.0) - np.float32(p))
    return as_scalar(d, dtype) if dtype.is_floating_point else d


def upscale_kept(x: torch.Tensor, keep: torch.Tensor, p: float) -> torch.Tensor:
    """Paddle's ``upscale_in_train`` dropout output: ``x / (1 - p)`` where ``keep``, 0
    elsewhere (``keep`` broadcasts to ``x``); integer inputs stay integer.

    Examples:
        >>> import torch
        >>> from pagaie._ops._random_mask import upscale_kept
        >>> upscale_kept(torch.tensor([1.0, 3.0]), torch.tensor([True, False]), 0.5).tolist()
        [2.0, 0.0]
    """
    out = zero_dropped(x / dropout_divisor(p, x.dtype), keep)
    return out if out.dtype == x.dtype else out.to(x.dtype)

