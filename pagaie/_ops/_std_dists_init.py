"""Paddle's CPU ``truncated_gaussian_random`` kernel, on the engine of :mod:`pagaie._core.mt64`
(the initializers' other kernels, ``uniform`` and ``gaussian``, are the samplers of
:mod:`pagaie._ops._std_dists_samplers`), vectorised over numpy arrays:

- ``truncated_normal``: one uniform in ``[FLT_MIN, 1)`` per element, mapped through the normal quantile (an ``erfinv``
  rational approximation, computed as the C++ code does, float by float) between the
  normal CDF at ``a`` and at ``b``, then clamped to ``[a, b]``.
"""
from __future__ import annotations

import math

import numpy as np

from pagaie._core.mt64 import Engine
from pagaie._ops._std_dists import uniform_real

__all__ = ["truncated_normal"]

_FLT_MIN = float(np.finfo(np.float32).tiny)


def _work_dtype(dtype: np.dtype) -> np.dtype:
    """The type a kernel computes in: float64 stays, everything else uses float32."""
    return np.dtype(np.float64) if np.dtype(dtype) == np.float64 else np.dtype(np.float32)


# The coefficients of the erfinv approximation the kernel uses (Wichura's AS241 rational
# functions): the central region, then the two tail regions.
_A = (1.1975323115670912564578e0, 4.7072688112383978012285e1, 6.9706266534389598238465e2,
      4.8548868893843886794648e3, 1.6235862515167575384252e4, 2.3782041382114385731252e4,
      1.1819493347062294404278e4, 8.8709406962545514830200e2)
_B = (1.0, 4.2313330701600911252e1, 6.8718700749205790830e2, 5.3941960214247511077e3,
      2.1213794301586595867e4, 3.9307895800092710610e4, 2.8729085735721942674e4,
      5.2264952788528545610e3)
_C = (1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
      3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
      2.27238449892691845833e-2, 7.74545014278341407640e-4)
_D = (1.4142135623730950488016887e0, 2.9036514445419946173133295e0, 2.3707661626024532365971225e0,
      9.7547832001787427186894837e-1, 2.0945065210512749128288442e-1, 2.1494160384252876777097297e-2,
      7.7441459065157709165577218e-4, 1.4859850019840355905497876e-9)
_E = (6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
      2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
      2.71155556874348757815e-5, 2.01033439929228813265e-7)
_F = (1.414213562373095048801689e0, 8.482908416595164588112026e-1, 1.936480946950659106176712e-1,
      2.103693768272068968719679e-2, 1.112800997078859844711555e-3, 2.611088405080593625138020e-5,
      2.010321207683943062279931e-7, 2.891024605872965461538222e-15)
_LN2 = 6.931471805599453094172321214581e-1


def _poly(coef: tuple, r: np.ndarray, dt: np.dtype) -> np.ndarray:
    """Horner's rule in ``dt``, highest coefficient first, as the C++ expression nests."""
    c = [dt.type(v) for v in coef]
    acc = c[7] * r
    for k in range(6, 0, -1):
        acc += c[k]
        acc *= r
    acc += c[0]
    return acc


def _erfinv(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """The kernel's ``Erfinv<T>`` for |x| < 1, with its mixed float/double arithmetic."""
    ax = np.abs(x)
    out = np.empty_like(x)
    mid = ax <= 0.85
    xm = x[mid]
    xd = xm.astype(np.float64)
    r = (0.180625 - 0.25 * xd * xd).astype(dt)
    out[mid] = xm * _poly(_A, r, dt) / _poly(_B, r, dt)
    tail = ~mid
    if tail.any():
        xt = x[tail]
        # sqrt(LN2 - log(1.0 - |x|)): evaluated in double (the literal 1.0 is a double)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.sqrt(np.float64(dt.type(_LN2))
                        - np.log(1.0 - np.abs(xt).astype(np.float64))).astype(dt)
        near = r <= 5.0
        rt = np.where(near, r.astype(np.float64) - 1.6, r.astype(np.float64) - 5.0).astype(dt)
        with np.errstate(invalid="ignore", over="ignore"):
            num = np.where(near, _poly(_C, rt, dt), _poly(_E, rt, dt))
            den = np.where(near, _poly(_D, rt, dt), _poly(_F, rt, dt))
            v = num / den
        v[np.abs(xt) == 1] = np.inf           # the kernel returns +-inf at +-1
        out[tail] = np.where(xt < 0, -v, v)
    return out


def truncated_normal(engine: Engine, n: int, mean: float, std: float, a: float, b: float,
                     dtype=np.float32) -> np.ndarray:
    """Paddle's CPU ``truncated_gaussian_random`` kernel: ``n`` values of N(mean, std**2)
    restricted to ``[a, b]`` (absolute bounds), one engine word each."""
    dt = _work_dtype(dtype)
    # the op's attributes are float32; the kernel widens them to its type
    m, s, lo, hi = (dt.type(np.float32(v)) for v in (mean, std, a, b))

    def cdf(z):  # (1 + erf(z / sqrt(2))) / 2 in double, stored in the kernel's type
        return dt.type((1.0 + math.erf(float(z) / math.sqrt(2.0))) / 2.0)

    cdf_a, cdf_b = cdf((lo - m) / s), cdf((hi - m) / s)
    u = uniform_real(engine, n, _FLT_MIN, 1.0, dt)
    p = u * (cdf_b - cdf_a)
    p += cdf_a
    x = dt.type(2) * p - dt.type(1)
    ret = (math.sqrt(2.0) * _erfinv(x, dt).astype(np.float64) * np.float64(s) + np.float64(m)).astype(dt)
    # the kernel bounds above, then below: with a > b every value is a
    np.maximum(np.minimum(ret, hi, out=ret), lo, out=ret)
    return ret


