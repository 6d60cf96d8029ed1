"""Differential sweep of paddle.linalg, paddle.fft and paddle.signal against real Paddle 3.3.1.

Each test runs the same call in pagaie and in real Paddle (see tests/reference.py) and
compares values, dtypes, shapes, gradients or exception types.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, paddle_ref, same_exception

_RNG = np.random.default_rng(5)


def _r(*shape, dtype="float64"):
    a = _RNG.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * _RNG.standard_normal(shape)
    return a.astype(dtype)


def _t(m, a, dtype=None, stop_gradient=True):
    t = m.to_tensor(a, dtype=dtype)
    t.stop_gradient = stop_gradient
    return t


def _grads(fn, *arrays):
    """Gradients of ``sum(|fn(m, *tensors)|)`` with respect to the float64 inputs, in both frameworks."""
    def run(m):
        ts = [_t(m, a, stop_gradient=False) for a in arrays]
        out = fn(m, *ts)
        if "complex" in str(out.dtype):
            out = out.abs()
        return m.grad([out.sum()], ts)
    return both(run)


# ---------------------------------------------------------------- paddle.fft

_X = _r(2, 3, 8)
_XC = _r(2, 3, 8, dtype="complex128")


@pytest.mark.parametrize("api", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n", [None, 5, 12])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_fft_1d_batched_negative_axis(api, n, norm):
    x = _XC if api in ("irfft", "hfft") else _X
    ours, theirs = both(lambda m: getattr(m.fft, api)(_t(m, x), n=n, axis=-2, norm=norm))
    assert_same(ours, theirs, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("api", ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"])
@pytest.mark.parametrize("s", [None, [3, 12]])
def test_fftn_axes_and_s(api, s):
    x = _XC if api in ("irfftn", "hfftn", "fftn", "ifftn") else _X
    ours, theirs = both(lambda m: getattr(m.fft, api)(_t(m, x), s=s, axes=(-1, 0), norm="ortho"))
    assert_same(ours, theirs, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("api", ["fft", "irfft", "fft2", "irfft2", "fftn"])
def test_fft_gradients(api):
    ours, theirs = _grads(lambda m, t: getattr(m.fft, api)(t, norm="ortho"), _XC)
    assert_same(ours, theirs, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("api", ["fft", "rfft", "ihfft", "fft2", "rfftn"])
def test_fft_bool_input_is_not_supported(api):
    same_exception(lambda m: getattr(m.fft, api)(m.to_tensor([[True, False], [False, True]])))


@pytest.mark.parametrize("api", ["fftn", "rfftn", "irfftn", "ihfftn"])
@pytest.mark.parametrize("arg", ["s", "axes"])
def test_fftn_scalar_s_or_axes_is_rejected(api, arg):
    same_exception(lambda m: getattr(m.fft, api)(_t(m, _X), **{arg: 1}))


@pytest.mark.parametrize("api,shape", [
    ("fft", (0, 4)), ("fft", (2, 0)), ("rfft", (0, 4)), ("rfft", (2, 0)), ("irfft", (0, 4)),
    ("hfft", (0, 4, 4)), ("ihfft", (0, 5)), ("fft2", (0, 4, 4)), ("rfftn", (2, 0)), ("irfft2", (0, 3, 3)),
])
def test_fft_of_empty_input(api, shape):
    ours, theirs = both(lambda m: getattr(m.fft, api)(m.zeros(shape)))
    assert_same(ours, theirs)


def test_irfft_of_empty_transform_axis_raises():
    same_exception(lambda m: m.fft.irfft(m.zeros([2, 0])))


# ---------------------------------------------------------------- paddle.signal

_SIG = _r(3, 64)


@pytest.mark.parametrize("hop,win_length,window,center,pad_mode,normalized", [
    (None, None, False, True, "reflect", False),
    (5, 10, True, True, "constant", True),
    (4, 16, True, False, "reflect", False),
    (4, None, False, False, "constant", True),
])
def test_stft_istft_round_trip(hop, win_length, window, center, pad_mode, normalized):
    def run(m):
        w = m.to_tensor(np.hanning(win_length or 16) + 0.1) if window else None
        spec = m.signal.stft(_t(m, _SIG), 16, hop, win_length, w, center, pad_mode, normalized)
        return spec, m.signal.istft(spec, 16, hop, win_length, w, center, normalized)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-8, atol=1e-8)


def test_stft_integer_input_is_transformed_in_float():
    ours, theirs = both(lambda m: m.signal.stft(m.arange(64), 16))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-4)


def test_stft_empty_batch():
    ours, theirs = both(lambda m: m.signal.stft(m.zeros([0, 64]), 16))
    assert_same(ours, theirs)


def test_stft_float16_is_not_supported():
    same_exception(lambda m: m.signal.stft(m.ones([64], dtype="float16"), 16))


def test_stft_gradient():
    ours, theirs = _grads(lambda m, t: m.signal.stft(t, 16, 4, window=m.to_tensor(np.hanning(16))), _SIG)
    assert_same(ours, theirs, rtol=1e-8, atol=1e-10)


def test_istft_two_sided_real_output_uses_the_first_half():
    spec = _r(2, 16, 17, dtype="complex128")  # not Hermitian: the second half must be ignored
    ours, theirs = both(lambda m: m.signal.istft(_t(m, spec), 16, onesided=False))
    assert_same(ours, theirs, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("center", [True, False])
def test_istft_length_trims_but_never_pads(center):
    def run(m):
        spec = m.signal.stft(_t(m, _SIG), 16, center=center)
        return m.signal.istft(spec, 16, center=center, length=100), m.signal.istft(spec, 16, center=center,
                                                                                  length=50)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-8, atol=1e-10)


def test_istft_nola_failure_raises():
    def run(m):
        w = m.to_tensor(np.hanning(16))  # zero at both ends: the first sample has no overlap without centring
        return m.signal.istft(m.signal.stft(_t(m, _SIG), 16, 4, window=w, center=False), 16, 4, window=w,
                              center=False)
    same_exception(run)


def test_istft_hop_longer_than_window_raises():
    same_exception(lambda m: m.signal.istft(m.signal.stft(_t(m, _SIG), 16, 4), 16, 12, 8))


def test_istft_empty_input_raises():
    same_exception(lambda m: m.signal.istft(m.zeros([0, 9, 5], dtype="complex64"), 16))


# ---------------------------------------------------------------- paddle.linalg

_DTYPES = ["float32", "float64", "complex64", "complex128"]
_SQ = {dt: (_r(2, 3, 4, 4, dtype=dt) + 4 * np.eye(4)).astype(dt) for dt in _DTYPES}


@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("api", ["det", "inv", "slogdet", "matrix_exp", "eigvalsh", "cond"])
def test_linalg_batched_dtypes(api, dtype):
    if api == "matrix_exp" and dtype.startswith("complex"):  # no complex kernel in Paddle
        same_exception(lambda m: m.linalg.matrix_exp(_t(m, _SQ[dtype])))
        return
    tol = 2e-3 if dtype in ("float32", "complex64") else 1e-9
    ours, theirs = both(lambda m: getattr(m.linalg, api)(_t(m, _SQ[dtype])))
    assert_same(ours, theirs, rtol=tol, atol=tol)


@pytest.mark.parametrize("api", ["det", "inv", "slogdet", "pinv", "eigvalsh", "svdvals", "matrix_rank"])
@pytest.mark.parametrize("shape", [(2, 1, 1), (2, 0, 0), (0, 3, 3)])
def test_linalg_tiny_and_empty_matrices(api, shape):
    a = _r(*shape)
    ours, theirs = both(lambda m: getattr(m.linalg, api)(_t(m, a)))
    assert_same(ours, theirs, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cond_of_empty_matrices_is_zero(dtype):
    ours, theirs = both(lambda m: m.linalg.cond(m.zeros([2, 0, 0], dtype=dtype)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("api,args", [
    ("svdvals", lambda m: (_t(m, _SQ["complex64"]),)),
    ("solve", lambda m: (_t(m, _SQ["complex128"][0, 0]), _t(m, _r(4, 2, dtype="complex128")))),
    ("multi_dot", lambda m: ([_t(m, _SQ["complex64"][0, 0]), _t(m, _SQ["complex64"][0, 1])],)),
    ("lstsq", lambda m: (_t(m, _SQ["complex128"][0, 0]), _t(m, _r(4, 2, dtype="complex128")))),
])
def test_linalg_complex_input_without_a_paddle_kernel(api, args):
    same_exception(lambda m: getattr(m.linalg, api)(*args(m)))


def test_lstsq_mixed_dtypes_raise():
    same_exception(lambda m: m.linalg.lstsq(m.ones([3, 2], dtype="float32"), m.ones([3, 1], dtype="float64")))


def test_householder_product_wide_input_raises():
    same_exception(lambda m: m.linalg.householder_product(_t(m, _r(2, 3, 5)), _t(m, _r(2, 3))))


def test_norm_nuc_over_three_axes_raises():
    same_exception(lambda m: m.linalg.norm(_t(m, _SQ["float64"]), "nuc", [0, 1, 2]))


@pytest.mark.parametrize("p", [None, 1, 2, np.inf, 0.5])
def test_norm_numeric_p_over_three_axes(p):
    ours, theirs = both(lambda m: m.linalg.norm(_t(m, _SQ["float64"]), p, [0, 1, 2]))
    assert_same(ours, theirs, rtol=1e-9)


@pytest.mark.parametrize("unpack_ludata,unpack_pivots", [(False, False), (True, False), (False, True)])
def test_lu_unpack_placeholders(unpack_ludata, unpack_pivots):
    ours, theirs = both(lambda m: m.linalg.lu_unpack(*m.linalg.lu(_t(m, _SQ["float64"])), unpack_ludata,
                                                     unpack_pivots))
    assert_same(ours, theirs, rtol=1e-9, atol=1e-12)


_A = _r(2, 3, 3) + 3 * np.eye(3)
_B = _r(2, 3, 2)
_RECT = _r(2, 5, 3)


@pytest.mark.parametrize("name,fn,args", [
    ("det", lambda m, t: m.linalg.det(t), [_A]),
    ("slogdet", lambda m, t: m.linalg.slogdet(t)[1], [_A]),
    ("inv", lambda m, t: m.linalg.inv(t), [_A]),
    ("pinv", lambda m, t: m.linalg.pinv(t), [_RECT]),
    ("matrix_power", lambda m, t: m.linalg.matrix_power(t, -2), [_A]),
    ("matrix_exp", lambda m, t: m.linalg.matrix_exp(t), [_A]),
    ("cond_fro", lambda m, t: m.linalg.cond(t, "fro"), [_A]),
    ("solve", lambda m, a, b: m.linalg.solve(a, b), [_A, _B]),
    ("triangular_solve", lambda m, a, b: m.linalg.triangular_solve(a, b, False, True), [_A, _B]),
    ("lu_solve", lambda m, a, b: m.linalg.lu_solve(b, *m.linalg.lu(a)), [_A, _B]),
    # sign-invariant functions of decompositions whose factors are sign/phase ambiguous
    ("svd_usv", lambda m, t: (lambda u, s, v: (u * s.unsqueeze(-2)) @ v)(*m.linalg.svd(t)), [_RECT]),
    ("qr_product", lambda m, t: (lambda q, r: q @ r)(*m.linalg.qr(t)), [_RECT]),
    ("eigh_abs", lambda m, t: m.linalg.eigh(t @ t.transpose([0, 2, 1]))[1].abs(), [_A]),
    ("svdvals", lambda m, t: m.linalg.svdvals(t), [_RECT]),
    ("norm_nuc", lambda m, t: m.linalg.norm(t, "nuc", [-2, -1]), [_A]),
    ("matrix_norm_-2", lambda m, t: m.linalg.matrix_norm(t, -2), [_A]),
    ("vector_norm_3", lambda m, t: m.linalg.vector_norm(t, 3, [0, 1]), [_A]),
])
def test_linalg_gradients(name, fn, args):
    paddle_ref()
    ours, theirs = _grads(fn, *args)
    assert_same(ours, theirs, rtol=1e-6, atol=1e-9)
