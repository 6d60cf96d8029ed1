"""Session-8 differential sweep of paddle.sparse, paddle.fft and paddle.signal against real Paddle 3.3.1.

Each test runs the same call in pagaie and in real Paddle (tests/reference.py) and compares
values, dtypes, shapes or exception types. Only the differences fixed in this pass are pinned here.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_RNG = np.random.default_rng(19)
_X = _RNG.standard_normal((3, 4)).astype("float32")
_X3 = _RNG.standard_normal((2, 3, 4)).astype("float32")
_SIG = _RNG.standard_normal((2, 64)).astype("float32")


# ---------------------------------------------------------------- paddle.fft: integer-only arguments

@pytest.mark.parametrize("api", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_fft1_float_n_is_value_error(api):
    same_exception(lambda m: getattr(m.fft, api)(m.to_tensor(_X), n=4.0))


@pytest.mark.parametrize("api", ["fft", "rfft", "hfft"])
def test_fft1_float_axis_is_value_error(api):
    same_exception(lambda m: getattr(m.fft, api)(m.to_tensor(_X), axis=1.0))


@pytest.mark.parametrize("api", ["fftn", "rfftn", "irfftn", "fft2", "ihfft2"])
def test_fftn_float_s_is_value_error(api):
    same_exception(lambda m: getattr(m.fft, api)(m.to_tensor(_X3), s=[3.0, 4], axes=[1, 2]))


@pytest.mark.parametrize("api", ["fftn", "rfftn", "fft2"])
def test_fftn_float_axes_is_value_error(api):
    same_exception(lambda m: getattr(m.fft, api)(m.to_tensor(_X3), axes=[1.0, 2]))


def test_fft_int_n_and_axis_still_work():
    ours, theirs = both(lambda m: m.fft.rfft(m.to_tensor(_X), n=5, axis=-2, norm="ortho"))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("api", ["fftshift", "ifftshift"])
def test_fftshift_float_axes_is_type_error(api):
    same_exception(lambda m: getattr(m.fft, api)(m.to_tensor(_X), axes=1.0))


@pytest.mark.parametrize("api", ["fftshift", "ifftshift"])
def test_fftshift_int_axes(api):
    ours, theirs = both(lambda m: getattr(m.fft, api)(m.to_tensor(_X), axes=[1, 0]))
    assert_same(ours, theirs)


# ---------------------------------------------------------------- paddle.signal

def test_stft_pad_mode_unchecked_without_center():
    """Paddle checks pad_mode only when it pads (center=True)."""
    ours, theirs = both(lambda m: m.signal.stft(m.to_tensor(_SIG), n_fft=16, center=False,
                                                pad_mode="circular"))
    assert_same(ours, theirs, rtol=1e-4, atol=1e-4)
    same_exception(lambda m: m.signal.stft(m.to_tensor(_SIG), n_fft=16, pad_mode="circular"))


@pytest.mark.parametrize("kw", [{"n_fft": 16.0}, {"n_fft": 16, "hop_length": 4.0},
                                {"n_fft": 16, "win_length": 16.0}])
def test_stft_float_lengths(kw):
    same_exception(lambda m: m.signal.stft(m.to_tensor(_SIG), **kw))


def test_stft_int_window_on_float_signal_is_type_error():
    same_exception(lambda m: m.signal.stft(m.to_tensor(_SIG), n_fft=16,
                                           window=m.to_tensor(np.ones(16, "int32"))))


def test_stft_float64_window_on_float32_signal():
    ours, theirs = both(lambda m: m.signal.stft(m.to_tensor(_SIG), n_fft=16,
                                                window=m.to_tensor(np.hanning(16))))
    assert_same(ours, theirs, rtol=1e-4, atol=1e-4)


def _spec(m):
    return m.signal.stft(m.to_tensor(_SIG), n_fft=16)


@pytest.mark.parametrize("kw", [{"n_fft": 16.0}, {"n_fft": 16, "hop_length": 4.0},
                                {"n_fft": 16, "length": 40.0}])
def test_istft_float_lengths(kw):
    same_exception(lambda m: m.signal.istft(_spec(m), **kw))


def test_istft_complex_window_needs_return_complex():
    exc = same_exception(lambda m: m.signal.istft(_spec(m), n_fft=16,
                                                  window=m.to_tensor(np.ones(16, "complex64"))))
    assert "istft" in str(exc)


def test_istft_length_trims():
    ours, theirs = both(lambda m: m.signal.istft(_spec(m), n_fft=16, length=50))
    assert_same(ours, theirs, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------- paddle.sparse

def test_sparse_csr_tensor_parts_must_be_1d():
    same_exception(lambda m: m.sparse.sparse_csr_tensor([[0, 1, 2]], [1, 0], [1.0, 2.0], [2, 2]))
    same_exception(lambda m: m.sparse.sparse_csr_tensor([0, 1, 2], [1, 0], [[1.0], [2.0]], [2, 2]))


@pytest.mark.parametrize("sd", [1.0, True])
def test_to_sparse_coo_non_int_sparse_dim_is_type_error(sd):
    same_exception(lambda m: m.to_tensor(_X).to_sparse_coo(sd))


def test_to_sparse_coo_numpy_int_sparse_dim():
    ours, theirs = both(lambda m: m.to_tensor(_X3).to_sparse_coo(np.int64(2)))
    assert ours.is_sparse_coo() and theirs.is_sparse_coo()
    assert_same(ours.indices(), theirs.indices())
    assert_same(ours.values(), theirs.values())
