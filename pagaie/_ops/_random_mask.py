"""Dropout keep-masks drawn from random integer bits.

On the CPU the bits come from numpy's SFC64 generator (a small chaotic generator that
passes the standard statistical test batteries), about twice as fast per 64-bit word
as torch's Mersenne Twister and three times as fast as its Bernoulli sampler (small
masks take torch's own integer draws, with the same threshold). A mask is
cut into fixed chunks; each chunk's generator state is drawn from torch's default
generator, so ``paddle.seed`` fixes every mask, independently of the thread count. The
chunks are drawn and thresholded on the intra-op threads at once (numpy releases the
GIL while it draws and compares). Each signed 32-bit draw compared with a threshold keeps
an element with probability ``1 - p`` up to ``2**-32`` (finer than a float32 uniform's
``2**-24`` steps). GPUs keep torch's fused samplers.

Under ``torch.compile`` the draw is torch's (traceable) sampler, and the scaled mask
is one opaque, seeded op (``pagaie::fill_scaled_keep_mask_``): the compiler then saves
the float mask for the backward instead of recomputing a boolean one, whose vectorised
stores inductor generates poorly on CPUs.
"""
from __future__ import annotations

import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Sequence

import numpy as np
import torch

__all__ = ["keep_mask", "scaled_keep_mask"]

_SPAN = 2 ** 32
# Elements per chunk: its draws and its slice of the mask stay in a core's cache.
_CHUNK = 1 << 18
# Below this many elements, seeding a generator per chunk costs more than the draws.
_SMALL = 1 << 14
_pool: ThreadPoolExecutor | None = None
_pool_threads = 0
_generators: list[np.random.SFC64] = []
# One mask at a time: the per-thread generators are re-seeded for every chunk.
_lock = threading.Lock()


def _forget_pool() -> None:
    # A forked child inherits the pool object but not its threads: start a new one there.
    global _pool, _lock
    _pool = None
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def _threshold(p: float) -> int:
    # Signed 32-bit draws are uniform on [-2**31, 2**31): drop the lowest p-quantile.
    return int(round(p * _SPAN)) - _SPAN // 2


def _fill_chunks(flat: np.ndarray, threshold: int, scale: float | None, seeds: list,
                 slot: int, stride: int) -> None:
    """Chunks ``slot, slot + stride, ...`` of ``flat`` from their seeds: True/False for a
    bool ``flat``, ``scale``/0 for a float one."""
    g = _generators[slot]
    state = {"bit_generator": "SFC64", "has_uint32": 0, "uinteger": 0}
    keep = None if scale is None else np.empty(min(_CHUNK, flat.size), dtype=np.bool_)
    for c in range(slot, len(seeds), stride):
        state["state"] = {"state": np.array([*seeds[c], 1], dtype=np.uint64)}
        g.state = state
        g.random_raw(12, output=False)   # mix the seed through the state first
        lo, hi = c * _CHUNK, min((c + 1) * _CHUNK, flat.size)
        words = g.random_raw((hi - lo + 1) // 2)
        bits = words.view(np.int32)[: hi - lo]
        if scale is None:
            np.greater_equal(bits, threshold, out=flat[lo:hi])
        else:
            np.greater_equal(bits, threshold, out=keep[: hi - lo])
            np.multiply(keep[: hi - lo], flat.dtype.type(scale), out=flat[lo:hi])


def _torch_bits_mask(n: int, p: float) -> torch.Tensor:
    """``n`` keep-mask bools from torch's default generator, with the same threshold on
    signed 32-bit draws (traceable; and cheaper than seeding SFC64 for small masks)."""
    words = torch.randint(-2 ** 63, 2 ** 63 - 1, ((n + 1) // 2,), dtype=torch.int64)
    return words.view(torch.int32)[:n] >= _threshold(p)


def _cpu_mask(n: int, p: float, dtype: torch.dtype = torch.bool,
              out: torch.Tensor | None = None) -> torch.Tensor:
    """``n`` keep-mask elements: bools, or ``1 / (1 - p)``/0 of a float ``dtype``; written
    into ``out`` (contiguous, ``n`` elements of ``dtype``) when given."""
    global _pool, _pool_threads
    scale = None if dtype == torch.bool else 1.0 / (1.0 - p)
    if n <= _SMALL:
        keep = _torch_bits_mask(n, p)
        mask = keep if scale is None else keep.to(dtype).mul_(scale)
        return mask if out is None else out.view(-1).copy_(mask)
    out = torch.empty(n, dtype=dtype) if out is None else out.view(-1)
    chunks = -(-n // _CHUNK)
    seeds = torch.randint(-2 ** 63, 2 ** 63 - 1, (chunks, 3), dtype=torch.int64)
    seeds = seeds.numpy().view(np.uint64).tolist()
    threads = max(1, min(torch.get_num_threads(), chunks))
    args = (out.numpy(), _threshold(p), scale, seeds)
    with _lock:
        while len(_generators) < threads:
            _generators.append(np.random.SFC64(0))
        if threads == 1:
            _fill_chunks(*args, 0, 1)
            return out
        if _pool is None or _pool_threads < threads:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ThreadPoolExecutor(threads - 1, thread_name_prefix="pagaie-rng")
            _pool_threads = threads
        with torch.autograd.profiler.record_function("pagaie::keep_mask"):
            pending = [_pool.submit(_fill_chunks, *args, i, threads) for i in range(1, threads)]
            _fill_chunks(*args, 0, threads)   # the caller draws its share too
            for f in pending:
                f.result()
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
    if torch.compiler.is_compiling():
        return _torch_bits_mask(n, p).view(shape)
    return _cpu_mask(n, p).view(shape)


# In place into a fresh buffer: the compiler never merges two calls of an op that
# writes its argument, as it would two calls of a pure op with equal arguments.
@torch.library.custom_op("pagaie::fill_scaled_keep_mask_", mutates_args=("out",))
def _fill_scaled_op(out: torch.Tensor, p: float) -> None:
    if _cpu_fillable(out.dtype, out.device, p) and out.is_contiguous():
        _cpu_mask(out.numel(), p, out.dtype, out)
    else:
        out.copy_(scaled_keep_mask(out.shape, p, out.dtype, out.device))


def _cpu_fillable(dtype: torch.dtype, device: torch.device, p: float) -> bool:
    # the float masks the SFC64 chunks write directly (other dtypes convert a bool mask)
    return dtype in (torch.float32, torch.float64) and torch.device(device).type == "cpu" and 0 < p < 1


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
    if _cpu_fillable(dtype, device, p):
        return _cpu_mask(math.prod(int(s) for s in shape), p, dtype).view(tuple(shape))
    return keep_mask(shape, p, device).to(dtype).mul_(1.0 / (1.0 - p))
