"""More of Paddle's CPU samplers over :mod:`pagaie._core.mt64`'s engine, as libstdc++ and
Paddle's kernels draw them (see :mod:`pagaie._ops._std_dists` for the basic distributions).

- :func:`shuffle`: ``std::shuffle`` of ``0 .. n-1`` (``paddle.randperm``). libstdc++ swaps
  element ``i`` (from 1 up) with a position drawn uniformly in ``[0, i]``; while
  ``n * n`` fits in 64 bits it draws the positions of two successive elements from one
  ``uniform_int_distribution`` call over ``[0, (i + 1)(i + 2))`` (quotient and remainder
  by ``i + 2``), after one lone draw in ``[0, 1]`` when ``n`` is even.
- (:func:`uniform_ints`, from :mod:`._std_dists`: a different range per draw.)
- :func:`multinomial`: Paddle's CPU multinomial: cumulative sums per row, one uniform per
  sample and a lower-bound search; without replacement the drawn category's mass is
  removed and the row renormalised before the next sample.

The positions of a shuffle are drawn vectorised, then the swaps, which depend on one
another, are resolved without a per-element loop: a value moves each time a later swap
picks its current position, so following those "next swap" links (by pointer doubling)
gives every value's final place.
"""
from __future__ import annotations

import math

import numpy as np
import torch

from pagaie._core.mt64 import Engine
from pagaie._core.random import cpu_engine
from pagaie._ops import _std_dists as _sd
from pagaie._ops._std_dists import uniform_ints

__all__ = ["shuffle", "multinomial", "swaps_to_permutation",
           "uniform_cpu", "normal_cpu", "randint_cpu", "random_cpu", "bernoulli_cpu",
           "exponential_cpu", "multinomial_cpu"]

def swaps_to_permutation(j: np.ndarray) -> np.ndarray:
    """The array that ``a = arange(n); for t in 1..n-1: swap(a[t], a[j[t]])`` leaves,
    for positions ``j[t] <= t`` (``j[0]`` is ignored), computed without a Python loop.

    Examples:
        >>> swaps_to_permutation(np.array([0, 0, 1, 0])).tolist()
        [3, 2, 0, 1]
    """
    n = j.size
    if n == 0:
        return np.empty(0, dtype=np.int64)
    j = j.astype(np.int64, copy=True)
    j[0] = 0
    idx = np.arange(n, dtype=np.int64)
    order = np.argsort(j, kind="stable")
    sj = j[order]
    same_next = np.full(n, -1, dtype=np.int64)       # next step choosing the same position
    cont = sj[1:] == sj[:-1]
    same_next[order[:-1][cont]] = order[1:][cont]
    starts = np.flatnonzero(np.r_[True, ~cont])
    first = np.full(n, -1, dtype=np.int64)           # first step choosing each position
    first[sj[starts]] = order[starts]
    # the first step after t that picks position t (the value that arrived there at step t)
    pick = np.where(first == idx, same_next, first)
    hop = np.where(pick >= 0, pick, idx)
    while True:                                      # follow the links to their ends
        nxt = hop[hop]
        if np.array_equal(nxt, hop):
            break
        hop = nxt
    # value v lands on j[v] at step v, then follows the later swaps of that position
    final = np.where(same_next >= 0, hop[np.maximum(same_next, 0)], j)
    out = np.empty(n, dtype=np.int64)
    out[final] = idx
    return out


def shuffle(engine: Engine, n: int) -> np.ndarray:
    """``std::shuffle`` (libstdc++) of ``0 .. n-1`` with ``engine``; int64.

    Examples:
        >>> from pagaie._core.mt64 import Engine
        >>> sorted(shuffle(Engine.from_seed(0), 6).tolist())
        [0, 1, 2, 3, 4, 5]
    """
    if n <= 1:
        return np.arange(n, dtype=np.int64)
    if n >= 1 << 32:
        raise ValueError(f"paddle.randperm: 'n' = {n} is too large")
    j = np.zeros(n, dtype=np.int64)
    i = 1
    if n % 2 == 0:                                   # one lone draw in [0, 1] first
        j[1] = int(uniform_ints(engine, np.array([2], dtype=np.uint64))[0])
        i = 2
    firsts = np.arange(i, n, 2, dtype=np.uint64)     # the pairs (i, i + 1)
    b1 = firsts + np.uint64(2)
    x = uniform_ints(engine, (firsts + np.uint64(1)) * b1)
    j[i::2] = (x // b1).astype(np.int64)
    j[i + 1::2] = (x % b1).astype(np.int64)
    return swaps_to_permutation(j)


def multinomial(engine: Engine, probs: np.ndarray, num_samples: int, replacement: bool,
                ) -> np.ndarray:
    """Paddle's CPU multinomial over the rows of ``probs`` (2-D, float32 or float64, already
    validated); one uniform of the rows' dtype per sample, rows in order; int64
    ``[rows, num_samples]``.

    Examples:
        >>> from pagaie._core.mt64 import Engine
        >>> p = np.array([[0.0, 1.0, 0.0]], dtype=np.float32)
        >>> multinomial(Engine.from_seed(0), p, 2, True).tolist()
        [[1, 1]]
    """
    dt = probs.dtype
    rows, cats = probs.shape
    words = engine.take(rows * num_samples)
    u = words.astype(dt)
    u *= dt.type(2.0 ** -64)
    np.minimum(u, np.nextafter(dt.type(1), dt.type(0)), out=u)
    u = u.reshape(rows, num_samples)
    cum = np.cumsum(probs, axis=1, dtype=dt)         # sequential sums, as the C++ loop
    cum /= cum[:, -1:]
    cum[:, -1] = 1
    out = np.empty((rows, num_samples), dtype=np.int64)
    if replacement:
        # the lower bound of u in each row: how many cumulative values are below it
        step = max(1, (1 << 22) // max(1, rows * cats))
        for s in range(0, num_samples, step):
            uu = u[:, s:s + step]
            out[:, s:s + step] = (cum[:, None, :] < uu[:, :, None]).sum(-1)
        return out
    r = np.arange(rows)
    cols = np.arange(cats)
    for s in range(num_samples):
        cum[:, -1] = 1
        sid = (cum < u[:, s:s + 1]).sum(1)
        out[:, s] = sid
        if s == num_samples - 1:
            break
        prev = np.where(sid > 0, cum[r, np.maximum(sid - 1, 0)], dt.type(0))
        sp = cum[r, sid] - prev
        new_sum = dt.type(1) - sp
        cum = np.where(cols[None, :] >= sid[:, None], cum - sp[:, None], cum)
        cum /= new_sum[:, None]
    return out


# ---- torch tensors from Paddle's CPU stream -------------------------------------------

_F32 = np.dtype(np.float32)
_NP_FLOAT = {torch.float32: _F32, torch.float64: np.dtype(np.float64),
             torch.float16: _F32, torch.bfloat16: _F32,       # drawn in float, then rounded
             torch.complex64: _F32, torch.complex128: np.dtype(np.float64)}


def _tensor(values: np.ndarray, shape, dtype: torch.dtype) -> torch.Tensor:
    t = torch.from_numpy(values).reshape(tuple(shape))
    return t if t.dtype is dtype else t.to(dtype)


def _f32(v: float) -> np.float32:
    # Paddle's kernels take their float attributes (min, max, mean, std) as C++ floats
    return np.float32(v)


def uniform_cpu(shape, dtype: torch.dtype, low: float, high: float, seed: int = 0) -> torch.Tensor:
    """Paddle's CPU ``uniform`` / ``uniform_``: ``uniform_real_distribution`` over ``[low, high)``
    (bounds rounded to float); a complex result draws all real parts, then all imaginary
    parts.

    Examples:
        >>> import torch
        >>> uniform_cpu([2, 3], torch.float32, -1.0, 1.0).shape
        torch.Size([2, 3])
    """
    n = math.prod(shape)
    npdt = _NP_FLOAT[dtype]
    engine = cpu_engine(seed)
    if dtype.is_complex:
        u = _sd.uniform_real(engine, 2 * n, _f32(low), _f32(high), npdt)
        return _tensor(u[:n] + 1j * u[n:], shape, dtype)
    return _tensor(_sd.uniform_real(engine, n, _f32(low), _f32(high), npdt), shape, dtype)


def normal_cpu(shape, dtype: torch.dtype, mean: float, std: float, seed: int = 0) -> torch.Tensor:
    """Paddle's CPU ``gaussian`` / ``gaussian_inplace``: ``normal_distribution(mean, std)``
    (parameters rounded to float); a complex result takes real and imaginary parts from
    successive draws, each of standard deviation ``std / sqrt(2)``.

    Examples:
        >>> import torch
        >>> normal_cpu([4], torch.complex64, 0.0, 1.0).dtype
        torch.complex64
    """
    n = math.prod(shape)
    npdt = _NP_FLOAT[dtype]
    engine = cpu_engine(seed)
    if dtype.is_complex:
        s = _f32(float(_f32(std)) / math.sqrt(2.0))
        v = _sd.normal(engine, 2 * n, _f32(mean), s, npdt)
        return _tensor(v[0::2] + 1j * v[1::2], shape, dtype)
    return _tensor(_sd.normal(engine, n, _f32(mean), _f32(std), npdt), shape, dtype)


def randint_cpu(shape, dtype: torch.dtype, low: int, high: int) -> torch.Tensor:
    """Paddle's CPU ``randint``: ``uniform_int_distribution(low, high - 1)``.

    Examples:
        >>> import torch
        >>> bool(((randint_cpu([50], torch.int32, -2, 3) + 2) < 5).all())
        True
    """
    v = _sd.uniform_int(cpu_engine(), math.prod(shape), low, high - 1)
    return _tensor(v, shape, dtype)


def random_cpu(shape, dtype: torch.dtype, low: int, high: int) -> torch.Tensor:
    """Paddle's CPU ``random_``: one word per element, ``word % (high - low) + low`` for
    ranges of 2**28 and more, else the word's low 32 bits modulo the range.

    Examples:
        >>> import torch
        >>> bool((random_cpu([9], torch.int64, 0, 3) < 3).all())
        True
    """
    n = math.prod(shape)
    span = (int(high) - int(low)) & ((1 << 64) - 1)
    words = cpu_engine().take(n)
    if span < 1 << 28:
        words &= np.uint64(0xFFFFFFFF)
    v = (words % np.uint64(span) + np.uint64(int(low) & ((1 << 64) - 1))).view(np.int64)
    if dtype.is_floating_point:
        return _tensor(v.astype(np.float64), shape, dtype)
    return _tensor(v, shape, dtype)


def bernoulli_cpu(p: torch.Tensor) -> torch.Tensor:
    """Paddle's CPU ``bernoulli``: ``uniform < p`` per element (uniforms of ``p``'s dtype,
    float for half types), as ``p``'s dtype.

    Examples:
        >>> import torch
        >>> bernoulli_cpu(torch.tensor([0.0, 1.0])).tolist()
        [0.0, 1.0]
    """
    npdt = _NP_FLOAT[p.dtype]
    u = _sd.canonical(cpu_engine(), p.numel(), npdt)
    probs = p.detach().contiguous().reshape(-1).to(torch.float32 if npdt == _F32 else torch.float64)
    return _tensor(u < probs.numpy(), p.shape, p.dtype)


def exponential_cpu(shape, dtype: torch.dtype, lam: float) -> torch.Tensor:
    """Paddle's CPU ``exponential_``: ``-1 / lam * log(1 - u)`` in the sample's type.

    Examples:
        >>> import torch
        >>> bool((exponential_cpu([5], torch.float32, 2.0) >= 0).all())
        True
    """
    npdt = _NP_FLOAT[dtype]
    u = _sd.canonical(cpu_engine(), math.prod(shape), npdt)
    one = npdt.type(1)
    v = np.log(one - u)
    v *= npdt.type(-1.0) / npdt.type(_f32(lam))
    return _tensor(v, shape, dtype)


def multinomial_cpu(x: torch.Tensor, num_samples: int, replacement: bool) -> torch.Tensor:
    """Paddle's CPU ``multinomial`` over the last axis of a 1-D or 2-D ``x``; int64.

    Examples:
        >>> import torch
        >>> multinomial_cpu(torch.tensor([0.0, 1.0]), 2, True).tolist()
        [1, 1]
    """
    npdt = np.float64 if x.dtype is torch.float64 else np.float32
    probs = x.detach().to(torch.float64 if npdt is np.float64 else torch.float32)
    rows = probs.reshape(-1, x.shape[-1]).numpy()
    out = multinomial(cpu_engine(), rows, num_samples, replacement)
    return torch.from_numpy(out).reshape(*x.shape[:-1], num_samples)
