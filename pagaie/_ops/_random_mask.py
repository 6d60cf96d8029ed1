"""Dropout keep-masks drawn from random integer bits.

On the CPU, torch's float uniform and Bernoulli samplers convert every 32-bit draw
to a float one element at a time; drawing raw 64-bit words and viewing each as two
32-bit integers produces the same amount of randomness about twice as fast as the
uniform sampler and three times as fast as the Bernoulli one. Comparing each signed
32-bit integer with a threshold keeps an element with probability ``1 - p`` up to
``2**-32`` (finer than a float32 uniform's ``2**-24`` steps). GPUs keep torch's
fused samplers.

Under ``torch.compile`` the scaled mask is one opaque, seeded op
(``pagaie::fill_scaled_keep_mask_``): the compiler then saves the float mask for the
backward instead of recomputing a boolean one, whose vectorised stores inductor
generates poorly on CPUs.
"""
from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

import torch

__all__ = ["keep_mask", "scaled_keep_mask"]

_SPAN = 2 ** 32
_LOW, _HIGH = -2 ** 63, 2 ** 63 - 1
# Below this many 64-bit words one sampler call beats handing chunks to threads.
_PARALLEL_WORDS = 1 << 16
_pool: ThreadPoolExecutor | None = None
_pool_threads = 0
_generators: list[torch.Generator] = []


def _forget_pool() -> None:
    # A forked child inherits the pool object but not its threads: start a new one there.
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def _random_words(count: int) -> torch.Tensor:
    """``count`` uniformly random int64 words from the CPU default generator.

    torch's CPU samplers are sequential (one Mersenne-Twister stream); a large draw is
    split into one chunk per intra-op thread, each drawn from a generator seeded from the
    default one, so the draw runs on every core and ``paddle.seed`` still fixes it.
    """
    threads = torch.get_num_threads()
    if count < _PARALLEL_WORDS or threads < 2 or torch.compiler.is_compiling():
        # (randint rather than random_: torch.compile traces out-of-place samplers only)
        return torch.randint(_LOW, _HIGH, (count,), dtype=torch.int64)
    global _pool
    global _pool_threads
    if _pool is None or _pool_threads != threads:
        _pool, _pool_threads = ThreadPoolExecutor(threads, thread_name_prefix="pagaie-rng"), threads
    while len(_generators) < threads:
        _generators.append(torch.Generator())
    seeds = torch.randint(0, 2 ** 62, (threads,), dtype=torch.int64).tolist()
    out = torch.empty(count, dtype=torch.int64)
    chunks = out.chunk(threads)

    def fill(i: int) -> None:
        g = _generators[i]
        g.manual_seed(seeds[i])
        torch.randint(_LOW, _HIGH, chunks[i].shape, dtype=torch.int64, generator=g, out=chunks[i])

    with torch.autograd.profiler.record_function("pagaie::random_words"):
        list(_pool.map(fill, range(len(chunks))))
    return out


def keep_mask(shape: Sequence[int], p: float, device: torch.device) -> torch.Tensor:
    """A boolean tensor of ``shape``, each element True with probability ``1 - p``.

    Draws from the device's default generator, so ``paddle.seed`` makes it reproducible.

    Examples:
        >>> import torch
        >>> from pagaie._ops._random_mask import keep_mask
        >>> m = keep_mask([1000, 100], 0.25, torch.device('cpu'))
        >>> m.dtype, abs(m.float().mean().item() - 0.75) < 0.01
        (torch.bool, True)
    """
    shape = tuple(int(s) for s in shape)
    if torch.device(device).type != "cpu":
        return torch.empty(shape, device=device).bernoulli_(1.0 - p).bool()
    if p <= 0.0 or p >= 1.0:
        return torch.full(shape, p <= 0.0, dtype=torch.bool)
    n = math.prod(shape)
    words = _random_words((n + 1) // 2)
    bits = words.view(torch.int32)[:n].view(shape)
    # Signed 32-bit draws are uniform on [-2**31, 2**31): drop the lowest p-quantile.
    return bits >= int(round(p * _SPAN)) - _SPAN // 2


# In place into a fresh buffer: the compiler never merges two calls of an op that
# writes its argument, as it would two calls of a pure op with equal arguments.
@torch.library.custom_op("pagaie::fill_scaled_keep_mask_", mutates_args=("out",))
def _fill_scaled_op(out: torch.Tensor, p: float) -> None:
    out.copy_(keep_mask(out.shape, p, out.device)).mul_(1.0 / (1.0 - p))


def scaled_keep_mask(shape: Sequence[int], p: float, dtype: torch.dtype,
                     device: torch.device) -> torch.Tensor:
    """The inverted-dropout multiplier: ``1 / (1 - p)`` where kept, 0 where dropped.

    Examples:
        >>> import torch
        >>> from pagaie._ops._random_mask import scaled_keep_mask
        >>> sorted(set(scaled_keep_mask([64], 0.5, torch.float32, torch.device('cpu')).tolist()))
        [0.0, 2.0]
    """
    if torch.compiler.is_compiling():
        out = torch.empty(tuple(shape), dtype=dtype, device=device)
        _fill_scaled_op(out, float(p))
        return out
    return keep_mask(shape, p, device).to(dtype).mul_(1.0 / (1.0 - p))
