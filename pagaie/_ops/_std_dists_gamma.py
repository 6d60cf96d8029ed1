"""Paddle's CPU rejection samplers (``standard_gamma``, ``poisson``, ``binomial``) over
:mod:`pagaie._core.mt64`'s engine, word for word.

Each element uses a varying number of engine words, so the elements are drawn one after
another in plain Python floats (words are fetched in bulk with ``Engine.peek`` and the
engine is moved on by exactly the words used). Where the kernel computes in C++
``float`` every operation is rounded to float32; the transcendental functions are the
C library's own (``logf``, ``powf``, ``lgamma``...), as the kernels call them.

- ``standard_gamma`` (and ``dirichlet``): Marsaglia and Tsang's method, boosting shapes
  below 1 with ``pow(1 - u, 1 / alpha)``; its uniforms are
  ``uniform_real_distribution<T>(0, 1)`` and its normals a fresh
  ``normal_distribution<T>`` per draw (the polar method's second value is dropped).
- ``poisson``: libstdc++'s ``poisson_distribution<int>`` in double, one object per
  element: products of uniforms below a mean of 12, Devroye's rejection method from 12
  on (its inner normal keeps its second value for the element's next normal draw).
- ``binomial``: inversion by geometric jumps while ``n * min(p, 1 - p) < 10``, else
  Hormann's BTRS, in the probability's type.
"""
from __future__ import annotations

import math
import struct

import numpy as np

from pagaie._core.mt64 import Engine
from pagaie._ops._std_dists import _to_unit

__all__ = ["standard_gamma", "poisson", "binomial"]

from pagaie._ops._libm import exp as _exp, lgamma as _lgamma, log as _log, log1p as _log1p, \
    log1pf as _log1pf, logf_scalar as _logf, pow as _pow, powf as _powf

_F = struct.Struct("f")
_FLT_MAX = float(np.finfo(np.float32).max)


def _f32(v: float) -> float:
    """``v`` rounded to the nearest float32 (infinities beyond its range)."""
    if abs(v) > _FLT_MAX and not math.isinf(v):
        return float(np.float32(v))
    return _F.unpack(_F.pack(v))[0]


def _same(v: float) -> float:
    return v


class _Ops:
    """Rounding and C math functions of one C++ floating type."""

    def __init__(self, single: bool) -> None:
        self.single = single
        self.r = _f32 if single else _same
        self.log = _logf if single else _log
        self.pow = _powf if single else _pow
        self.log1p = _log1pf if single else _log1p
        self.sqrt = (lambda v: _f32(math.sqrt(v))) if single else math.sqrt
        self.dtype = np.dtype(np.float32 if single else np.float64)


class _Stream:
    """Canonical uniforms (``generate_canonical<T>``, one word each) read from an engine in
    bulk; :meth:`done` moves the engine on by the words used."""

    def __init__(self, engine: Engine, dtype: np.dtype, chunk: int) -> None:
        self.engine, self.dtype = engine, dtype
        self.chunk = max(64, chunk)
        self.buf: list[float] = []
        self.pos = 0

    def unit(self) -> float:
        if self.pos == len(self.buf):
            if self.buf:
                self.engine.skip(len(self.buf))
            self.buf = _to_unit(self.engine.peek(self.chunk), self.dtype).tolist()
            self.pos = 0
            self.chunk *= 2
        v = self.buf[self.pos]
        self.pos += 1
        return v

    def done(self) -> None:
        if self.buf:
            self.engine.skip(self.pos)
            self.buf, self.pos = [], 0


def _polar_pair(s: _Stream, o: _Ops) -> tuple[float, float]:
    """libstdc++'s polar method: the returned value and the one it saves for later."""
    r = o.r
    while True:
        x = r(2.0 * s.unit() - 1.0)
        y = r(2.0 * s.unit() - 1.0)
        r2 = r(r(x * x) + r(y * y))
        if not (r2 > 1.0 or r2 == 0.0):
            break
    mult = o.sqrt(r(r(-2.0 * o.log(r2)) / r2))
    return r(y * mult), r(x * mult)


_THIRD = _f32(1.0 / 3.0)       # 1.0f / 3.0f
_K0331 = _f32(0.0331)          # 0.0331f


def _gamma_one(alpha: float, s: _Stream, o: _Ops) -> float:
    r = o.r
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        u = s.unit()
        scale = r(scale * o.pow(r(1.0 - u), r(1.0 / alpha)))
        alpha = r(alpha + 1.0)
    d = r(alpha - _THIRD)
    if not d > 0:
        # A negative alpha below -2/3: Paddle's sqrt gives NaN and its first trial returns
        # it (the caller clamps it to the float's tiny), after the same draws as a trial.
        _polar_pair(s, o)
        s.unit()
        return math.nan
    c = r(1.0 / o.sqrt(r(9.0 * d)))
    while True:
        while True:
            x = _polar_pair(s, o)[0]
            y = r(1.0 + r(c * x))
            if y > 0:
                break
        v = r(r(y * y) * y)
        u = r(1.0 - s.unit())
        xx = r(x * x)
        if u < r(1.0 - r(r(_K0331 * xx) * xx)):
            return r(r(scale * d) * v)
        if o.log(u) < r(r(0.5 * xx) + r(d * r(r(1.0 - v) + o.log(v)))):
            return r(r(scale * d) * v)


def standard_gamma(engine: Engine, alpha: np.ndarray) -> np.ndarray:
    """Paddle's CPU ``standard_gamma`` of the flat float32/float64 array ``alpha``.

    Examples:
        >>> g = standard_gamma(Engine.from_seed(3), np.array([0.5, 2.0], dtype=np.float32))
        >>> g.dtype, bool((g > 0).all())
        (dtype('float32'), True)
    """
    o = _Ops(alpha.dtype == np.float32)
    s = _Stream(engine, o.dtype, 4 * alpha.size)
    tiny = float(np.finfo(o.dtype).tiny)
    out = [max(tiny, _gamma_one(a, s, o)) for a in alpha.tolist()]
    s.done()
    return np.array(out, dtype=o.dtype)


# ---- poisson: libstdc++'s poisson_distribution<int> ------------------------------------

_PI_4 = 0.7853981633974483096156608458198757
_SPI_2 = 1.2533141373155002512078826424055226
_178 = 0.0128205128205128205128205128205128
_E178 = 1.0129030479320018583185514777512983
_NAF = (1.0 - 2.0 ** -52) / 2.0
_THR = 2147483647 + _NAF
_D64 = _Ops(False)


def _poisson_one(mean: float, s: _Stream) -> float:
    if not mean >= 12:                              # NaN too: one draw, 0 (as libstdc++)
        thr = _exp(-mean)
        x, prod = 0, 1.0
        while True:
            prod *= s.unit()
            x += 1
            if not prod > thr:
                return x - 1
    if math.isinf(mean):                            # Paddle returns garbage (INT_MIN) here
        return math.inf
    m = math.floor(mean)
    lm_thr = _log(mean)
    lfm = _lgamma(m + 1)
    sm = math.sqrt(m)
    dx = math.sqrt(2 * m * _log(32 * m / _PI_4))
    d = float(math.floor(max(6.0, min(m, dx)) + 0.5))      # std::round of a value >= 6
    cx = 2 * m + d
    scx = math.sqrt(cx / 2)
    one_cx = 1 / cx
    c2b = math.sqrt(_PI_4 * cx) * _exp(one_cx)
    cb = 2 * cx * _exp(-d * one_cx * (1 + d / 2)) / d
    c1 = sm * _SPI_2
    c2 = c2b + c1
    c3 = c2 + 1
    c4 = c3 + 1
    c5 = c4 + _E178
    c = cb + c5
    two_cx = 2 * (2 * m + d)
    saved = None                                   # the inner normal's kept value

    def normal() -> float:
        nonlocal saved
        if saved is not None:
            v, saved = saved, None
            return v
        v, saved = _polar_pair(s, _D64)
        return v

    while True:
        u = c * s.unit()
        e = -_log(1.0 - s.unit())
        w = 0.0
        if u <= c1:
            n = normal()
            y = -abs(n) * sm - 1
            x = math.floor(y)
            w = -n * n / 2
            if x < -m:
                continue
        elif u <= c2:
            n = normal()
            y = 1 + abs(n) * scx
            x = math.ceil(y)
            w = y * (2 - y) * one_cx
            if x > d:
                continue
        elif u <= c3:
            x = -1.0
        elif u <= c4:
            x = 0.0
        elif u <= c5:
            x = 1.0
            w = _178
        else:
            v = -_log(1.0 - s.unit())
            y = d + v * two_cx / d
            x = math.ceil(y)
            w = -d * one_cx * (1 + y / 2)
        x = float(x)
        reject = w - e - x * lm_thr > lfm - _lgamma(x + m + 1)
        reject |= x + m >= _THR
        if not reject:
            return int(x + m + _NAF)


def poisson(engine: Engine, rate: np.ndarray) -> np.ndarray:
    """Paddle's CPU ``poisson`` of the flat float32/float64 array ``rate`` (same dtype).

    Examples:
        >>> poisson(Engine.from_seed(3), np.array([0.0, 0.0])).tolist()
        [0.0, 0.0]
    """
    s = _Stream(engine, np.dtype(np.float64), 2 * rate.size)
    out = [_poisson_one(m, s) for m in rate.tolist()]
    s.done()
    return np.array(out, dtype=rate.dtype)


# ---- binomial ----------------------------------------------------------------------------

_TAIL = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287]


def _tail(k: int, o: _Ops) -> float:
    """Stirling's series tail at ``k`` in the sample type."""
    if k <= 9:
        return o.r(_TAIL[k])
    kp1sq = o.r(float((k + 1) * (k + 1)))
    return o.r((1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1))


def _c_int(v: float) -> int:
    """A C++ ``static_cast<int64_t>`` of a float (truncation; x86 gives the least int64
    for what does not fit)."""
    if not abs(v) < 9.2e18:
        return -(1 << 63)
    return int(v)


def _btrs(n: float, p: float, s: _Stream, o: _Ops) -> int:
    r, log = o.r, o.log
    stddev = o.sqrt(r(r(n * p) * r(1.0 - p)))
    b = r(1.15 + 2.53 * stddev)
    a = r(-0.0873 + 0.0248 * b + 0.01 * p)
    c = r(r(n * p) + 0.5)
    v_r = r(0.92 - 4.2 / b)
    rr = r(p / r(1.0 - p))
    alpha = r((2.83 + 5.1 / b) * stddev)
    m = math.floor(r(r(n + 1.0) * p))
    while True:
        uu = r(s.unit() - 0.5)
        vv = s.unit()
        us = r(0.5 - abs(uu))
        t = r(r(r(2.0 * a) / us) + b)
        k = _c_int(float(np.floor(r(r(t * uu) + c))))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and vv <= v_r:
            return k
        vv = log(r(r(vv * alpha) / r(r(a / r(us * us)) + b)))
        mi = _c_int(m)
        kf = r(float(k))
        t1 = (m + 0.5) * log(r(r(m + 1.0) / r(rr * r(r(n - m) + 1.0))))
        t2 = r(r(n + 1.0) * log(r(r(r(n - m) + 1.0) / r(r(n - kf) + 1.0))))
        t3 = (k + 0.5) * log(r(r(rr * r(r(n - kf) + 1.0)) / r(kf + 1.0)))
        upper = r(t1 + t2 + t3 + _tail(mi, o) + _tail(_c_int(r(n - m)), o)
                  - _tail(k, o) - _tail(_c_int(r(n - kf)), o))
        if vv <= upper:
            return k


def _inversion(n: float, p: float, s: _Stream, o: _Ops) -> int:
    r = o.r
    geom_sum = 0.0
    num = 0
    logprob = o.log1p(-p)
    while True:
        unif = s.unit()
        geom = math.ceil(r(o.log(unif) / logprob))
        geom_sum = r(geom_sum + geom)
        if geom_sum > n:
            return num
        num += 1


def _binomial_one(n: float, p: float, s: _Stream, o: _Ops) -> int:
    if n <= 0.0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return _c_int(n)
    if p <= 0.5:
        if o.r(n * p) >= 10.0:
            return _btrs(n, p, s, o)
        return _inversion(n, p, s, o)
    q = o.r(1.0 - p)
    if o.r(n * q) >= 10.0:
        return _c_int(n) - _btrs(n, q, s, o)
    return _c_int(n) - _inversion(n, q, s, o)


def binomial(engine: Engine, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """Paddle's CPU ``binomial`` of flat, same-size ``count`` and ``prob`` arrays (both
    float32 or both float64); int64.

    Examples:
        >>> binomial(Engine.from_seed(3), np.array([4.0, 7.0]), np.array([0.0, 1.0])).tolist()
        [0, 7]
    """
    o = _Ops(prob.dtype == np.float32)
    s = _Stream(engine, o.dtype, 4 * prob.size)
    out = [_binomial_one(n, p, s, o) for n, p in zip(count.tolist(), prob.tolist())]
    s.done()
    return np.array(out, dtype=np.int64)
