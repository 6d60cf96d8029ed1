"""Window functions (``paddle.audio.functional.get_window`` and the ``*_window`` creators).

Each window is a short constant vector, so it is computed in float64 with numpy by the
formulas of ``scipy.signal.windows`` and handed to :func:`pagaie.to_tensor` in the requested
dtype: the result is an eager tensor, or a constant of the program being recorded.
A window of length ``M`` is *symmetric* (``sym=True``, for filter design) or *periodic*
(``sym=False``, for spectral analysis: the symmetric window of length ``M + 1`` without its
last sample).

    >>> import pagaie as paddle
    >>> paddle.audio.functional.get_window('hann', 4, fftbins=False).numpy().round(2).tolist()
    [0.0, 0.75, 0.75, 0.0]
"""
from __future__ import annotations

import inspect
import math
import numbers
from typing import Any, Callable

import numpy as np
import torch

import pagaie
from pagaie._core import dtype as _dt
from pagaie._core.place import default_device
from pagaie._ops._helpers import F32_F64, kernel_dtypes
from pagaie._core.tensor import Tensor

__all__ = ["get_window"]

_API = "paddle.audio.functional.get_window"


def _check_length(M: Any) -> int:
    """The window length as an int (Paddle's ``ValueError`` for negative / fractional lengths);
    a 0-D tensor stands for its value, as in Paddle."""
    if isinstance(M, Tensor) and M.ndim == 0:
        M = M.item()
    if isinstance(M, bool) or not isinstance(M, (numbers.Real, str)):
        raise TypeError(f"{_API}: 'win_length' must be an int, but received {type(M).__name__} {M!r}")
    if isinstance(M, str) or int(M) != M or M < 0:
        raise ValueError(f"Window length M must be a non-negative integer ({_API}: 'win_length' "
                         f"received {M!r})")
    if not isinstance(M, numbers.Integral):
        raise TypeError(f"{_API}: 'win_length' must be an int, but received {type(M).__name__} {M!r}")
    return int(M)


def _periodic(fn: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """Wrap a symmetric-window formula ``fn(M, *params)``: lengths 0 and 1 give ones, and a
    periodic window is the symmetric one of length ``M + 1`` less its last sample."""
    signature = inspect.signature(fn)

    def window(M: int, *params: Any, sym: bool = True) -> np.ndarray:
        try:  # a missing / extra parameter is a TypeError even for lengths 0 and 1
            signature.bind(M, *params)
        except TypeError as exc:
            raise TypeError(f"{_API}: window {fn.__name__.lstrip('_')!r} got the parameters "
                            f"{params!r}: {exc}") from None
        if M <= 1:
            return np.ones(M)
        return fn(M, *params) if sym else fn(M + 1, *params)[:-1]
    window.__name__ = fn.__name__
    return window


@_periodic
def _general_cosine(M: int, a: Any) -> np.ndarray:
    fac = np.linspace(-math.pi, math.pi, M)
    terms = (float(ak) * np.cos(k * fac) for k, ak in enumerate(np.asarray(a, dtype=np.float64).ravel()))
    return sum(terms, np.zeros(M))  # no coefficients: a window of zeros, as in Paddle


def _general_hamming(M: int, alpha: float, sym: bool = True) -> np.ndarray:
    return _general_cosine(M, [alpha, 1.0 - alpha], sym=sym)


def _hamming(M: int, sym: bool = True) -> np.ndarray:
    return _general_hamming(M, 0.54, sym=sym)


def _hann(M: int, sym: bool = True) -> np.ndarray:
    return _general_hamming(M, 0.5, sym=sym)


def _blackman(M: int, sym: bool = True) -> np.ndarray:
    return _general_cosine(M, [0.42, 0.50, 0.08], sym=sym)


def _nuttall(M: int, sym: bool = True) -> np.ndarray:
    return _general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym)


@_periodic
def _bartlett(M: int) -> np.ndarray:
    n = np.arange(M, dtype=np.float64)
    return np.where(n <= (M - 1) / 2.0, 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))


@_periodic
def _kaiser(M: int, beta: float) -> np.ndarray:
    alpha = (M - 1) / 2.0
    n = np.arange(M, dtype=np.float64)
    return np.i0(beta * np.sqrt(1.0 - ((n - alpha) / alpha) ** 2.0)) / np.i0(beta)


@_periodic
def _general_gaussian(M: int, p: float, sig: float) -> np.ndarray:
    n = np.arange(M, dtype=np.float64) - (M - 1.0) / 2.0
    return np.exp(-0.5 * np.abs(n / sig) ** (2 * p))


@_periodic
def _gaussian(M: int, std: float) -> np.ndarray:
    n = np.arange(M, dtype=np.float64) - (M - 1.0) / 2.0
    return np.exp(-(n ** 2) / (2.0 * std * std))


def _exponential(M: int, center: float | None = None, tau: float = 1.0, sym: bool = True) -> np.ndarray:
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if M <= 1:
        return np.ones(M)
    n_total = M if sym else M + 1
    c = (n_total - 1) / 2.0 if center is None else center
    w = np.exp(-np.abs(np.arange(n_total, dtype=np.float64) - c) / tau)
    return w if sym else w[:-1]


@_periodic
def _triang(M: int) -> np.ndarray:
    n = np.arange(1, (M + 1) // 2 + 1, dtype=np.float64)
    if M % 2 == 0:
        w = (2 * n - 1.0) / M
        return np.concatenate([w, w[::-1]])
    w = 2 * n / (M + 1.0)
    return np.concatenate([w, w[-2::-1]])


@_periodic
def _bohman(M: int) -> np.ndarray:
    fac = np.abs(np.linspace(-1.0, 1.0, M)[1:-1])
    w = (1 - fac) * np.cos(math.pi * fac) + np.sin(math.pi * fac) / math.pi
    return np.concatenate([[0.0], w, [0.0]])


@_periodic
def _cosine(M: int) -> np.ndarray:
    return np.sin(math.pi / M * (np.arange(M, dtype=np.float64) + 0.5))


def _tukey(M: int, alpha: float = 0.5, sym: bool = True) -> np.ndarray:
    if M <= 1 or alpha <= 0:
        return np.ones(M)
    if alpha >= 1.0:
        return _hann(M, sym=sym)
    n_total = M if sym else M + 1
    n = np.arange(n_total, dtype=np.float64)
    width = int(alpha * (n_total - 1) / 2.0)
    n1, n2, n3 = n[:width + 1], n[width + 1:n_total - width - 1], n[n_total - width - 1:]
    w1 = 0.5 * (1 + np.cos(math.pi * (-1 + 2.0 * n1 / alpha / (n_total - 1))))
    w3 = 0.5 * (1 + np.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (n_total - 1))))
    w = np.concatenate([w1, np.ones(n2.shape), w3])
    return w if sym else w[:-1]


@_periodic
def _taylor(M: int, nbar: int = 4, sll: float = 30, norm: bool = True) -> np.ndarray:
    # Taylor's coefficients F_m, m = 1 .. nbar-1, for a sidelobe level of -sll dB.
    B = 10 ** (sll / 20)
    A = math.acosh(B) / math.pi
    s2 = nbar ** 2 / (A ** 2 + (nbar - 0.5) ** 2)
    ma = np.arange(1, nbar, dtype=np.float64)
    m2 = ma * ma
    Fm = np.empty(nbar - 1)
    for i in range(nbar - 1):
        sign = 1.0 if i % 2 == 0 else -1.0
        numer = sign * np.prod(1 - m2[i] / s2 / (A ** 2 + (ma - 0.5) ** 2))
        others = np.delete(m2, i)
        Fm[i] = numer / (2 * np.prod(1 - m2[i] / others))

    def W(n: Any) -> np.ndarray:
        return 1 + 2 * Fm @ np.cos(2 * math.pi * ma[:, None] * (np.asarray(n, dtype=np.float64) - M / 2.0 + 0.5) / M)

    w = W(np.arange(M))
    if norm:
        w = w / W([(M - 1) / 2.0])
    return w


_WINDOWS: dict[str, Callable[..., np.ndarray]] = {
    "hamming": _hamming, "hann": _hann, "kaiser": _kaiser, "bartlett": _bartlett,
    "nuttall": _nuttall, "gaussian": _gaussian, "general_gaussian": _general_gaussian,
    "exponential": _exponential, "triang": _triang, "bohman": _bohman, "blackman": _blackman,
    "cosine": _cosine, "tukey": _tukey, "taylor": _taylor, "general_cosine": _general_cosine,
    "general_hamming": _general_hamming,
}
_NEEDS_PARAMS = ("gaussian", "exponential", "kaiser")


def _float_dtype(dtype: Any, api: str) -> Any:
    try:  # numpy-style aliases ('float', 'double', 'half') name the same dtypes as in Paddle
        d = _dt.to_dtype(dtype)
    except (TypeError, ValueError):
        d = dtype
    if not _dt.is_floating_dtype(d):
        raise TypeError(f"{api}: 'dtype' must be a floating-point type, but received {dtype}")
    return d


def get_window(window: str | tuple, win_length: int, fftbins: bool = True,
               dtype: str = "float64") -> Tensor:
    """A window of a given type and length.

    Args:
        window (str|tuple): the window's name, or a tuple of its name and parameters:
            'hamming', 'hann', 'blackman', 'nuttall', 'bartlett', 'triang', 'bohman',
            'cosine', 'tukey' (alpha=0.5), 'taylor' (nbar=4, sll=30, norm=True),
            ('kaiser', beta), ('gaussian', std), ('exponential', center, tau),
            ('general_gaussian', p, sig), ('general_hamming', alpha),
            ('general_cosine', coefficients). 'kaiser', 'gaussian' and 'exponential'
            must be given as tuples.
        win_length (int): number of samples.
        fftbins (bool, optional): True gives a periodic window (for spectral analysis),
            False a symmetric one (for filter design). Default: True.
        dtype (str, optional): floating dtype of the result (on the CPU float32 or float64).
            Default: 'float64'.

    Returns:
        Tensor: the window, shape ``[win_length]``.

    Raises:
        ValueError: unknown window, a missing parameter, a bad window type or length.
        TypeError: a window parameter given as a string.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.audio.functional.get_window('hamming', 5, fftbins=False)
        >>> print(w.numpy().round(2).tolist(), w.dtype)
        [0.08, 0.54, 1.0, 0.54, 0.08] paddle.float64
        >>> paddle.audio.functional.get_window(('kaiser', 8.0), 16, dtype='float32').shape
        paddle.Size([16])
    """
    args: tuple = ()
    if isinstance(window, tuple):
        name, args = window[0], tuple(window[1:])
    elif isinstance(window, str):
        if window in _NEEDS_PARAMS:
            raise ValueError(f"The '{window}' window needs one or more parameters -- pass a tuple.")
        name = window
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    fn = _WINDOWS.get(name) if isinstance(name, str) else None
    if fn is None:
        raise ValueError(f"Unknown window type. ({_API}: received {name!r}; expected one of "
                         f"{sorted(_WINDOWS)})")
    text = next((a for a in args if isinstance(a, (str, bytes))), None)
    if text is not None:  # Paddle makes a tensor of each parameter: TypeError for text
        raise TypeError(f"{_API}: the parameters of the {name!r} window must be numbers, but "
                        f"received {text!r}")
    d = _float_dtype(dtype, _API)
    # Paddle builds the window from ops (linspace, arange...) whose CPU kernels take only
    # float32/float64: a half-precision window is its NotFound there
    kernel_dtypes("audio.functional.get_window",
                  torch.empty((), dtype=_dt.to_torch_dtype(d), device=default_device()), F32_F64,
                  "dtype")
    M = _check_length(win_length)
    w = fn(M, *args, sym=not fftbins)
    return pagaie.to_tensor(np.asarray(w, dtype=np.float64).reshape([M]), dtype=d)
