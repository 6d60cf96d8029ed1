"""Session-20 sweep of paddle.fft, paddle.signal, paddle.audio and paddle.distribution against
real Paddle 3.3.1: values, dtypes and shapes on fixed inputs, and the exception types of bad
arguments."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

paddle = pytest.importorskip("paddle")

_RNG = np.random.RandomState(20)
_X = _RNG.randn(2, 40)
_XC = _RNG.randn(2, 40) + 1j * _RNG.randn(2, 40)
_W8 = np.hanning(8) + 0.1


# ---------------------------------------------------------------- signal.stft / istft windows

@pytest.mark.parametrize("wdt", ["int32", "int64", "bool"])
@pytest.mark.parametrize("xdt", ["complex64", "complex128"])
def test_stft_complex_signal_takes_an_integer_window(xdt, wdt):
    """A complex signal promotes an integer or bool window (Paddle multiplies the frames by it)."""
    ours, theirs = both(lambda P: P.signal.stft(P.to_tensor(_XC).astype(xdt), 8,
                                                 window=P.to_tensor(np.arange(1, 9) % 3).astype(wdt)))
    assert_same(ours, theirs, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("xdt", ["float32", "float64", "int64"])
def test_stft_complex_window_refuses_onesided(xdt):
    """A complex window makes complex frames: ``onesided=True`` is Paddle's AssertionError."""
    same_exception(lambda P: P.signal.stft(P.to_tensor(_X[0]).astype(xdt), 8, onesided=True,
                                           window=P.to_tensor(_W8 + 0.5j)))


@pytest.mark.parametrize("xdt", ["float32", "int32"])
@pytest.mark.parametrize("wdt", ["int64", "bool", "float64"])
def test_stft_window_promotion_errors(xdt, wdt):
    """Mixed float/integer pairs of signal and window are Paddle's TypeError."""
    def run(P):
        return P.signal.stft(P.to_tensor(_X[0]).astype(xdt), 8, window=P.ones([8]).astype(wdt))
    if xdt == "float32" and wdt == "float64":
        ours, theirs = both(run)
        assert_same(ours, theirs, rtol=1e-4, atol=1e-4)
    else:
        same_exception(run)


def test_stft_without_window_does_not_warn():
    x = pagaie.to_tensor(_XC)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pagaie.signal.stft(x, 8)
        pagaie.signal.stft(pagaie.to_tensor(_X), 8, onesided=False)


def _spec(P, complex_signal):
    return P.signal.stft(P.to_tensor(_XC if complex_signal else _X), 8)


@pytest.mark.parametrize("wdt", ["int32", "int64", "bool", "uint8", "float16", "bfloat16", "float64"])
@pytest.mark.parametrize("rc", [True, False])
def test_istft_window_dtypes(wdt, rc):
    """istft multiplies the real frames by the window (integer windows: TypeError) and squares
    and overlap-adds it on the CPU (float16/bfloat16/bool/uint8: no kernel, RuntimeError)."""
    def run(P):
        return P.signal.istft(_spec(P, rc), 8, window=P.ones([8]).astype(wdt), onesided=not rc,
                              return_complex=rc)
    if wdt in ("int32", "int64", "float64") and (rc or wdt == "float64"):
        ours, theirs = both(run)
        assert_same(ours, theirs, rtol=1e-4, atol=1e-4)
    else:
        same_exception(run)


def test_istft_float_length_after_dtype_check():
    """Paddle meets a float ``length`` only when it trims: a spectrogram without a kernel fails first."""
    same_exception(lambda P: P.signal.istft(_spec(P, False).real().astype("float16"), 8, length=30.0))
    same_exception(lambda P: P.signal.istft(_spec(P, False), 8, length=30.0))


# ---------------------------------------------------------------- fft argument checks

@pytest.mark.parametrize("api", ["rfftn", "ihfftn", "fftn", "irfftn"])
def test_fftn_too_long_s_is_checked_before_the_dtype(api):
    """Paddle checks ``len(s)`` against the rank before it meets a dtype without a kernel."""
    same_exception(lambda P: getattr(P.fft, api)(P.to_tensor(_XC[:, :3]), s=[2, 3, 4]))
    same_exception(lambda P: getattr(P.fft, api)(P.to_tensor(_X[:, :3]).astype("float16"), s=[2, 3, 4]))


@pytest.mark.parametrize("dt", ["float16", "bool", "int8"])
@pytest.mark.parametrize("shape,axis", [((3, 10), 0), ((10, 3), -1)])
def test_frame_length_checked_before_the_dtype(dt, shape, axis):
    """A frame longer than the signal is Paddle's ValueError even for a dtype without a kernel."""
    same_exception(lambda P: P.signal.frame(P.ones(shape).astype(dt), 4, 2, axis=axis))


@pytest.mark.parametrize("api", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("dt", ["float16", "bfloat16", "int8", "uint8", "bool", "int32", "complex64"])
@pytest.mark.parametrize("axes", [None, (0, 1)])  # Paddle fails on a partial list (SystemError)
def test_fftshift_dtypes_of_the_roll_kernel(api, dt, axes):
    """The shifts run Paddle's roll kernel: the CPU has none for half floats and small integers."""
    def run(P):
        return getattr(P.fft, api)(P.arange(12).reshape([3, 4]).astype(dt), axes=axes)
    if dt in ("bool", "int32", "complex64"):
        ours, theirs = both(run)
        assert_same(ours, theirs)
    else:
        same_exception(run)


@pytest.mark.parametrize("api", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [[-3], 2, 1.0])
def test_fftshift_bad_axes_before_the_dtype(api, axes):
    same_exception(lambda P: getattr(P.fft, api)(P.ones([3, 4]).astype("float16"), axes=axes))


def test_fftshift_half_float_in_a_program_is_a_build_time_error():
    from tests.reference import same_static_exception
    same_static_exception(lambda P: P.fft.fftshift(P.static.data("x", [3, 4], "float16")))


@pytest.mark.parametrize("api", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("dt", ["float16", "bfloat16", "int8", "bool", "complex64", "int32", "int64", "float64"])
@pytest.mark.parametrize("n", [4, -3])
def test_fftfreq_dtypes_of_the_arange_kernel(api, dt, n):
    """The sample indices are counted by arange in ``dtype``: its CPU kernel takes int32, int64,
    float32 and float64 only (integer requests give the default float)."""
    def run(P):
        return getattr(P.fft, api)(n, d=0.5, dtype=dt)
    if dt in ("int32", "int64", "float64"):
        ours, theirs = both(run)
        assert_same(ours, theirs)
    else:
        same_exception(run)


@pytest.mark.parametrize("dt", [None, "float16"])
@pytest.mark.parametrize("n", [0.0, 4.0])
def test_fftfreq_float_n_checked_after_zero_and_dtype(dt, n):
    same_exception(lambda P: P.fft.fftfreq(n, dtype=dt))
