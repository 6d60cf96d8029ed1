"""The C++ standard library's distributions (libstdc++), as Paddle's CPU kernels draw them.

Paddle's CPU samplers loop over the output, calling a ``std::`` distribution on the
engine of :mod:`pagaie._core.mt64` once per element. These functions compute the same
values from the same words, vectorised over numpy arrays, and use exactly as many words
as the C++ loop would, so the engine is left where Paddle's would be.

- ``generate_canonical``: one 64-bit word per value, converted to the float type
  (rounded to nearest) and divided by 2**64; a result that rounds up to 1 becomes the
  largest float below 1.
- ``uniform_real_distribution``: ``u * (b - a) + a`` in the result type.
- ``normal_distribution``: Marsaglia's polar method; each accepted pair of uniforms gives
  two values, the second kept for the next call (one distribution object per kernel call,
  so an odd count leaves the last one unused). Float32's logarithm is glibc's ``logf``
  (:mod:`pagaie._ops._libm`), so float32 values are Paddle's bit for bit; float64 ones can
  differ in the last bit now and then (numpy's double log is not glibc's).
- ``uniform_int_distribution``: Lemire's multiply-and-reject on 128-bit products.
"""
from __future__ import annotations

import functools

import numpy as np

from pagaie._core.mt64 import Engine
from pagaie._ops._libm import logf

__all__ = ["canonical", "uniform_real", "normal", "uniform_int", "uniform_ints", "keep_words"]

_TWO64 = 2.0 ** 64
# Large draws are made in blocks of this many values: the temporaries then stay in the
# cache and the allocator reuses them, where whole-size temporaries cost a page fault per
# page (most of the time of a big draw).
_BLOCK = 1 << 15
_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


def _to_unit(words: np.ndarray, dtype: np.dtype) -> np.ndarray:
    u = words.astype(dtype)
    u *= dtype.type(1.0 / _TWO64)          # a power of two: exact
    np.minimum(u, np.nextafter(dtype.type(1), dtype.type(0)), out=u)
    return u


def canonical(engine: Engine, n: int, dtype=np.float32) -> np.ndarray:
    """``n`` uniforms in [0, 1) of ``dtype`` (float32 or float64), one word each."""
    dt = np.dtype(dtype)
    if n <= _BLOCK:
        return _to_unit(engine.take(n), dt)
    out = np.empty(n, dtype=dt)
    for s in range(0, n, _BLOCK):
        out[s:s + _BLOCK] = _to_unit(engine.take(min(_BLOCK, n - s)), dt)
    return out


def uniform_real(engine: Engine, n: int, low: float, high: float, dtype=np.float32) -> np.ndarray:
    """``std::uniform_real_distribution<dtype>(low, high)``, ``n`` draws."""
    dt = np.dtype(dtype)
    lo, hi = dt.type(low), dt.type(high)
    u = canonical(engine, n, dt)
    u *= hi - lo
    u += lo
    return u


def normal(engine: Engine, n: int, mean: float, std: float, dtype=np.float32) -> np.ndarray:
    """``std::normal_distribution<dtype>(mean, std)``, ``n`` draws from one object."""
    dt = np.dtype(dtype)
    pairs = n - n // 2
    out = np.empty(2 * pairs, dtype=dt)
    done = 0
    while done < pairs:
        need = min(pairs - done, _BLOCK)
        words = engine.peek(2 * (need + need // 3 + 16))
        v = _to_unit(words, dt)
        # x = T(2) * u - 1.0 is computed in double and stored as T; 2u is exact, and so is
        # 2u - 1 where 2u >= 0.5 (Sterbenz), else it is one rounding of the exact value:
        # computing it in T gives the same numbers
        v *= dt.type(2)
        v -= dt.type(1)
        x, y = v[0::2], v[1::2]
        r2 = x * x + y * y
        ok = np.flatnonzero((r2 <= 1.0) & (r2 != 0.0))[:need]
        x, y, r2 = x[ok], y[ok], r2[ok]
        log_r2 = logf(r2) if dt == np.float32 else np.log(r2)
        mult = np.sqrt((dt.type(-2) * log_r2) / r2)
        out[2 * done:2 * (done + ok.size):2] = y * mult
        out[2 * done + 1:2 * (done + ok.size):2] = x * mult
        engine.skip(2 * (int(ok[-1]) + 1) if ok.size == need else words.size)
        done += ok.size
    res = out[:n]
    res *= dt.type(std)
    res += dt.type(mean)
    return res


def _mul_128(w: np.ndarray, r) -> tuple[np.ndarray, np.ndarray]:
    """High and low 64-bit halves of ``w * r`` element-wise (``r``: a uint64 array, or one
    int below 2**64)."""
    r = np.asarray(r, dtype=np.uint64)
    w_lo, w_hi = w & _M32, w >> _S32
    r_lo, r_hi = r & _M32, r >> _S32
    ll, lh, hl, hh = w_lo * r_lo, w_lo * r_hi, w_hi * r_lo, w_hi * r_hi
    mid = (ll >> _S32) + (lh & _M32) + (hl & _M32)
    hi = hh + (lh >> _S32) + (hl >> _S32) + (mid >> _S32)
    lo = (mid << _S32) | (ll & _M32)
    return hi, lo


def uniform_ints(engine: Engine, ranges: np.ndarray, n: int | None = None) -> np.ndarray:
    """One ``uniform_int_distribution`` draw in ``[0, ranges[k])`` for each ``k``, in order
    (Lemire's multiply-and-reject, as libstdc++ with a 64-bit engine); uint64.
    Every range must be in ``[1, 2**64)``; with ``n``, ``ranges`` is one range for ``n`` draws.

    Examples:
        >>> from pagaie._core.mt64 import Engine
        >>> import numpy as np
        >>> v = uniform_ints(Engine.from_seed(1), np.array([1, 2, 3, 1000], dtype=np.uint64))
        >>> bool((v < [1, 2, 3, 1000]).all())
        True
    """
    ranges = np.asarray(ranges, dtype=np.uint64)
    thresholds = (np.uint64(0) - ranges) % ranges        # (2**64 - r) % r
    if n is not None:                                    # one range for n draws
        ranges, thresholds = np.broadcast_to(ranges, (n,)), np.broadcast_to(thresholds, (n,))
    n = ranges.size
    out = np.empty(n, dtype=np.uint64)
    done = 0
    while done < n:
        r, thr = ranges[done:], thresholds[done:]
        words = engine.peek(r.size)
        hi, lo = _mul_128(words, r)
        bad = np.flatnonzero(lo < thr)
        good = r.size if bad.size == 0 else int(bad[0])
        out[done:done + good] = hi[:good]
        engine.skip(good)
        done += good
        if good < r.size:              # redraw this one element until it is accepted
            one, t = r[good:good + 1], thr[good]
            while True:
                h, l1 = _mul_128(engine.take(1), one)
                if l1[0] >= t:
                    out[done] = h[0]
                    done += 1
                    break
    return out


def uniform_int(engine: Engine, n: int, low: int, high: int) -> np.ndarray:
    """``std::uniform_int_distribution(low, high)`` (both inclusive), ``n`` draws, int64."""
    span = (int(high) - int(low)) & ((1 << 64) - 1)
    if span == (1 << 64) - 1:
        return engine.take(n).view(np.int64) + np.int64(low)
    out = uniform_ints(engine, np.uint64(span + 1), n)
    return (out + np.uint64(int(low) & ((1 << 64) - 1))).view(np.int64)


def keep_words(engine: Engine, n: int, p: float, out: np.ndarray | None = None) -> np.ndarray:
    """Paddle's dropout keep-mask: ``uniform_real_distribution<float>(0, 1) >= p`` per
    element, as booleans (written into ``out`` when given); compares the words with the one
    threshold where the float conversion reaches ``p`` (the conversion is monotonic), so no
    floats are made. Uses ``n`` words whatever ``p``."""
    out = np.empty(n, dtype=np.bool_) if out is None else out
    thr = _word_threshold(float(np.float32(p)))
    if thr is None:
        out[...] = False
        engine.skip(n)
    else:
        for s in range(0, n, _BLOCK):
            np.greater_equal(engine.take(min(_BLOCK, n - s)), thr, out=out[s:s + _BLOCK])
    return out


@functools.lru_cache(maxsize=256)
def _word_threshold(p: float) -> np.uint64 | None:
    """The least 64-bit word whose float32 uniform is >= ``p``; None when none is (``p`` is
    1 or more)."""
    lo, hi = 0, (1 << 64) - 1
    if float(_to_unit(np.array([hi], dtype=np.uint64), np.dtype(np.float32))[0]) < p:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if float(_to_unit(np.array([mid], dtype=np.uint64), np.dtype(np.float32))[0]) >= p:
            hi = mid
        else:
            lo = mid + 1
    return np.uint64(lo)
