"""The C library's math functions, as Paddle's CPU kernels get them.

Paddle's samplers call glibc's ``logf``, ``powf``, ``log``... per element; to give Paddle's
very numbers pagaie must round as they do, and glibc's float functions are not correctly
rounded (``logf`` is off in the last bit for about 0.5% of inputs, against a correctly
rounded log). :func:`logf` is glibc's algorithm vectorised over numpy arrays (the polar
normal sampler calls it on every accepted pair); the scalar functions are the C library's
own, through ctypes (a per-element rejection sampler calls them), or Python's ``math``
where no C math library can be loaded.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
import struct

import numpy as np

__all__ = ["logf", "logf_scalar", "powf", "log1pf", "log", "pow", "log1p", "exp", "lgamma"]


def _load_libm():
    # Paddle's kernels call the C library's float and double functions; where no C math
    # library can be loaded (not glibc-like), Python's own (double) ones stand in, rounded
    # to float for the float variants, which can differ from Paddle by an ulp.
    try:
        return ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except OSError:
        return None


_libm = _load_libm()


def _fn(name: str, ctype, nargs: int, fallback):
    f = getattr(_libm, name, None) if _libm is not None else None
    if f is None:
        if ctype is ctypes.c_float:
            return lambda *a: struct.unpack("f", struct.pack("f", fallback(*a)))[0]
        return fallback
    f.restype = ctype
    f.argtypes = [ctype] * nargs
    return f


logf_scalar = _fn("logf", ctypes.c_float, 1, math.log)
powf = _fn("powf", ctypes.c_float, 2, math.pow)
log1pf = _fn("log1pf", ctypes.c_float, 1, math.log1p)
log = _fn("log", ctypes.c_double, 1, math.log)
pow = _fn("pow", ctypes.c_double, 2, math.pow)  # noqa: A001 - the C name
log1p = _fn("log1p", ctypes.c_double, 1, math.log1p)
exp = _fn("exp", ctypes.c_double, 1, math.exp)
lgamma = _fn("lgamma", ctypes.c_double, 1, math.lgamma)



# glibc's single-precision ``logf`` (2.27 and later; from Arm's optimized-routines): a
# 16-entry table of (1/c, log c) and a cubic for log1p, evaluated in double. It is not
# correctly rounded (up to 0.82 ulp), so a correctly rounded log differs from it in the
# last bit now and then; ``normal_distribution<float>`` calls it once per pair.
_LOGF_TAB = np.array([[float.fromhex(a), float.fromhex(b)] for a, b in (
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"), ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"), ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"), ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"), ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"), ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"), ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"), ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"), ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"))])
_LOGF_INVC, _LOGF_LOGC = _LOGF_TAB[:, 0].copy(), _LOGF_TAB[:, 1].copy()
_LOGF_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_POLY = [float.fromhex(v) for v in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2",
                                         "-0x1.ffffef20a4123p-2")]


def logf(x: np.ndarray) -> np.ndarray:
    """glibc's ``logf`` of positive normal float32 values, bit for bit (others: numpy's log).

    Examples:
        >>> import numpy as np
        >>> from pagaie._ops._libm import logf
        >>> logf(np.array([1.0, 2.0], dtype=np.float32)).tolist()
        [0.0, 0.6931471824645996]
    """
    x = np.asarray(x, dtype=np.float32)
    ix = x.view(np.uint32)
    tmp = ix - np.uint32(0x3F330000)
    i = ((tmp >> np.uint32(19)) & np.uint32(15)).astype(np.intp)
    z = (ix - (tmp & np.uint32(0xFF800000))).view(np.float32).astype(np.float64)
    r = np.take(_LOGF_INVC, i)
    r *= z
    r -= 1.0
    y0 = (tmp.view(np.int32) >> np.int32(23)).astype(np.float64)
    y0 *= _LOGF_LN2
    y0 += np.take(_LOGF_LOGC, i)
    y0 += r
    r2 = np.square(r)
    y = r * _LOGF_POLY[1]
    y += _LOGF_POLY[2]
    y += r2 * _LOGF_POLY[0]              # y = A0 * r2 + (A1 * r + A2)
    y *= r2
    y += y0                              # y * r2 + (y0 + r)
    out = y.astype(np.float32)
    out[ix == np.uint32(0x3F800000)] = 0
    odd = (ix - np.uint32(0x00800000)) >= np.uint32(0x7F800000 - 0x00800000)
    if odd.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            out[odd] = np.log(x[odd])
    return out
