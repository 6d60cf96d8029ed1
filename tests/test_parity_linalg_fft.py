"""paddle.linalg / paddle.fft / paddle.signal vs real Paddle 3.3.1: cases found by differential sweeps."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_RNG = np.random.RandomState(0)
_A = _RNG.randn(3, 3)
_B = _RNG.randn(2, 3, 3)
_X = _RNG.randn(2, 64)


def _t(fw, arr, dtype="float64", stop_gradient=True):
    t = fw.to_tensor(np.asarray(arr), dtype=dtype)
    t.stop_gradient = stop_gradient
    return t


@pytest.mark.parametrize("axis", [[0, 1], (-2, -1), [1, 0]])
@pytest.mark.parametrize("keepdim", [False, True])
def test_norm_default_p_over_two_axes_is_spectral(axis, keepdim):
    ours, theirs = both(lambda fw: fw.linalg.norm(_t(fw, _A), axis=axis, keepdim=keepdim))
    assert_same(ours, theirs)
    ours, theirs = both(lambda fw: fw.linalg.norm(_t(fw, _B, "float32"), p=None, axis=[1, 2]))
    assert_same(ours, theirs)


@pytest.mark.parametrize("p", [None, "fro", 2, float("inf"), 1])
@pytest.mark.parametrize("axis", [None, -1, [1]])
def test_norm_vector_forms(p, axis):
    ours, theirs = both(lambda fw: fw.linalg.norm(_t(fw, _B), p=p, axis=axis))
    assert_same(ours, theirs)


@pytest.mark.parametrize("axis", [0, -1, [1]])
def test_norm_nuc_with_one_axis_raises_type_error(axis):
    same_exception(lambda fw: fw.linalg.norm(_t(fw, _A), p="nuc", axis=axis))


@pytest.mark.parametrize("api", ["eig", "eigvals", "pinv", "matrix_rank"])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_integer_inputs_have_no_kernel(api, dtype):
    same_exception(lambda fw: getattr(fw.linalg, api)(_t(fw, np.eye(3) * 2, dtype)))


@pytest.mark.parametrize("dtype", ["int64", "complex64"])
def test_matrix_exp_dtype_check(dtype):
    same_exception(lambda fw: fw.linalg.matrix_exp(_t(fw, _A, dtype)))


def test_cholesky_rejects_complex():
    same_exception(lambda fw: fw.linalg.cholesky(_t(fw, _A + 1j * _A.T, "complex64")))


@pytest.mark.parametrize("api", ["eigvals", "lstsq"])
def test_outputs_without_gradient_are_stop_gradient(api):
    def run(fw):
        x = _t(fw, _B, stop_gradient=False)
        out = fw.linalg.eigvals(x) if api == "eigvals" else fw.linalg.lstsq(x, x + 1)
        out = out if isinstance(out, (list, tuple)) else [out]
        return [o.stop_gradient for o in out]
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("api", ["fft", "ifft", "fft2", "fftn"])
def test_fft_float16_has_no_cpu_kernel(api):
    same_exception(lambda fw: getattr(fw.fft, api)(_t(fw, _B, "float16")))


@pytest.mark.parametrize("api", ["rfft", "ihfft", "rfft2", "rfftn", "ihfftn"])
def test_real_transforms_reject_complex(api):
    same_exception(lambda fw: getattr(fw.fft, api)(_t(fw, _B + 1j * _B, "complex64")))


@pytest.mark.parametrize("api", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_fftfreq_integer_dtype_gives_float(api, dtype):
    ours, theirs = both(lambda fw: getattr(fw.fft, api)(8, 0.5, dtype=dtype))
    assert_same(ours, theirs)


@pytest.mark.parametrize("center", [True, False])
def test_stft_n_fft_longer_than_signal(center):
    same_exception(lambda fw: fw.signal.stft(_t(fw, _X[:, :20], "float32"), 24, center=center))


def test_istft_frequency_rows_checked():
    same_exception(lambda fw: fw.signal.istft(fw.signal.stft(_t(fw, _X, "float32"), 16), 16, onesided=False))


def test_istft_real_spectrogram_reads_as_complex():
    spec = np.random.RandomState(1).randn(9, 5)
    ours, theirs = both(lambda fw: fw.signal.istft(_t(fw, spec), 16, window=fw.ones([16], dtype="float64")))
    assert_same(ours, theirs)


@pytest.mark.parametrize("api", ["slogdet", "inv", "pinv", "matrix_rank"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_inputs_have_no_cpu_kernel(api, dtype):
    same_exception(lambda fw: getattr(fw.linalg, api)(_t(fw, np.eye(3) * 2, dtype)))


@pytest.mark.parametrize("tau_shape", [(6,), (2, 4), (3, 2)])
def test_householder_product_checks_tau(tau_shape):
    tau = np.random.RandomState(2).rand(*tau_shape)
    same_exception(lambda fw: fw.linalg.householder_product(_t(fw, _RNG.rand(2, 4, 3)), _t(fw, tau)))


def test_eigh_list_input_error_type():
    same_exception(lambda fw: fw.linalg.eigh([[1.0, 0.0], [0.0, 1.0]]))


@pytest.mark.parametrize("api", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n", [-1, -5])
def test_fftfreq_negative_n_is_empty(api, n):
    ours, theirs = both(lambda fw: getattr(fw.fft, api)(n))
    assert_same(ours, theirs)


@pytest.mark.parametrize("api", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("n,d", [(0, 1.0), (4, 0)])
def test_fftfreq_zero_n_or_d_raises(api, n, d):
    same_exception(lambda fw: getattr(fw.fft, api)(n, d))


@pytest.mark.parametrize("kwargs", [{"tol": [0.5, 3.0]}, {"atol": [0.5, 3.0], "rtol": 0.1},
                                    {"atol": 0.5, "rtol": "t0.3"}, {"rtol": "t0.3"}])
def test_matrix_rank_tensor_tolerances(kwargs):
    x = np.random.RandomState(5).randn(2, 4, 6)

    def run(fw):
        kw = {k: (fw.to_tensor(float(v[1:])) if isinstance(v, str) else
                  fw.to_tensor(v) if isinstance(v, list) else v) for k, v in kwargs.items()}
        return fw.linalg.matrix_rank(_t(fw, x, "float32"), **kw)
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("api", ["dist", "cdist", "pdist"])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_distance_ops_reject_integers(api, dtype):
    a = np.arange(12).reshape(3, 4)

    def run(fw):
        x = _t(fw, a, dtype)
        return fw.pdist(x) if api == "pdist" else getattr(fw, api)(x, x)
    same_exception(run)


def test_shape_checks_of_products():
    a, b = _RNG.randn(3, 4), _RNG.randn(4, 5)
    same_exception(lambda fw: fw.tensordot(_t(fw, a), _t(fw, a), axes=1))
    same_exception(lambda fw: fw.cdist(_t(fw, a), _t(fw, b)))
    same_exception(lambda fw: fw.trace(_t(fw, a[0])))
    ours, theirs = both(lambda fw: fw.tensordot(_t(fw, a), _t(fw, b), axes=1))
    assert_same(ours, theirs)
