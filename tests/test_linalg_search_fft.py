"""Errors, in-place variants, ``out=`` and edge cases of search, linalg and fft ops vs real Paddle."""
import math

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

_A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype="float32")


@pytest.mark.parametrize("call", [
    lambda p: p.argmax(p.to_tensor([1.0, 2.0]), dtype="float32"),
    lambda p: p.argmin(p.to_tensor([1.0, 2.0]), axis=3),
    lambda p: p.nonzero(p.to_tensor(3.0)),
    lambda p: p.matmul(p.ones([2, 3]), p.ones([2, 3])),
    lambda p: p.matmul(p.ones([2, 3], "float64"), p.ones([3, 2], "float32")),
    lambda p: p.cross(p.ones([2, 4]), p.ones([2, 4])),
    lambda p: p.tensordot(p.ones([2, 3]), p.ones([2, 3]), axes=[[0], [1]]),
    lambda p: p.linalg.inv(p.ones([3, 3])),
    lambda p: p.linalg.cholesky(p.to_tensor([[1.0, 2.0], [2.0, 1.0]])),
    lambda p: p.linalg.norm(p.ones([2, 3, 4]), p=3, axis=[0, 1]),
    lambda p: p.linalg.norm(p.ones([2, 3, 4]), p="nuc"),
    lambda p: p.linalg.lu(p.ones([3, 3]), pivot=False),
    lambda p: p.linalg.cholesky_inverse(p.ones([2, 3, 3])),
    lambda p: p.linalg.ormqr(p.ones([4, 3]), p.ones([3]), p.ones([4, 2])),
    lambda p: p.fft.fft(p.ones([4]), n=0),
    lambda p: p.fft.fft(p.ones([4]), norm="bad"),
    lambda p: p.fft.fft(p.ones([2, 4]), axis=2),
    lambda p: p.fft.fft2(p.ones([4])),
    lambda p: p.fft.fftn(p.ones([4, 4]), s=[3, 4], axes=[0]),
    lambda p: p.signal.stft(p.ones([2, 64]), 16, win_length=20),
    lambda p: p.signal.stft(p.ones([2, 2, 64]), 16),
], ids=lambda f: "")
def test_errors_match_paddle(call):
    same_exception(call)


def test_topk_and_sort_on_ties_match():
    ours, theirs = both(lambda p: p.topk(p.to_tensor([3.0, 1.0, 3.0, 2.0]), 2))
    assert_same(ours, theirs)
    ours, theirs = both(lambda p: p.argsort(p.to_tensor([2, 1, 2, 1]), stable=True, descending=True))
    assert_same(ours, theirs)


def test_argmax_0d_and_keepdim():
    ours, theirs = both(lambda p: p.argmax(p.to_tensor(3.0), axis=0))
    assert_same(ours, theirs)
    ours, theirs = both(lambda p: p.argmin(p.ones([2, 3]), keepdim=True))
    assert_same(ours, theirs)


def test_unique_flags_and_searchsorted_side():
    x = [3, 1, 2, 1, 3, 3]
    ours, theirs = both(lambda p: p.unique(p.to_tensor(x), return_index=True, return_counts=True))
    assert_same(ours, theirs)
    seq, vals = [1, 3, 5, 7], [[3, 6], [7, 0]]
    ours, theirs = both(lambda p: p.searchsorted(p.to_tensor(seq), p.to_tensor(vals), side="right"))
    assert_same(ours, theirs)


def test_out_arguments():
    out = pagaie.zeros([2, 2])
    r = pagaie.matmul(pagaie.ones([2, 3]), pagaie.ones([3, 2]), out=out)
    assert out.tolist() == [[3.0, 3.0], [3.0, 3.0]] and r.tolist() == out.tolist()
    v, i = pagaie.zeros([1]), pagaie.zeros([1], dtype="int64")
    pagaie.topk(pagaie.to_tensor([1.0, 5.0, 2.0]), 1, out=(v, i))
    assert v.tolist() == [5.0] and i.tolist() == [1]
    o = pagaie.zeros([3])
    pagaie.fft.fftfreq(3, out=o)
    np.testing.assert_allclose(o.numpy(), np.fft.fftfreq(3), rtol=1e-6)


def test_inplace_addmm_baddbmm():
    def run(p):
        a = p.ones([2, 2])
        a.addmm_(p.ones([2, 3]), p.ones([3, 2]), beta=2.0, alpha=0.5)
        b = p.ones([1, 2, 2])
        p.baddbmm_(b, p.ones([1, 2, 3]), p.ones([1, 3, 2]), alpha=2.0)
        return a, b
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_matmul_operators_and_methods():
    def run(p):
        a = p.to_tensor(_A)
        return a @ a, a.matmul(a, transpose_x=True), a.inverse(), a.cholesky(upper=True), a.norm(p=1)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_linalg_namespace_and_toplevel_names():
    for n in ("norm", "cholesky", "eigvalsh", "inverse", "matmul", "cross", "vecdot"):
        assert callable(getattr(pagaie, n)), n
    for n in ("det", "svd", "eigh", "inv", "lu_solve", "matrix_rank"):
        assert not hasattr(pagaie, n), n
    assert pagaie.linalg.inv is pagaie.inverse
    assert callable(pagaie.fft.fft) and not callable(pagaie.fft)


def test_slogdet_and_lstsq_structure():
    ours, theirs = both(lambda p: p.linalg.slogdet(p.to_tensor(-_A)))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)
    ours, theirs = both(lambda p: p.linalg.lstsq(p.to_tensor(_A[:, :2]), p.ones([3, 1])))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_eig_reconstructs():
    w, v = pagaie.linalg.eig(pagaie.to_tensor(_A))
    a = v.numpy() @ np.diag(w.numpy()) @ np.linalg.inv(v.numpy())
    np.testing.assert_allclose(a.real, _A, rtol=1e-4, atol=1e-5)


def test_lowrank_shapes_and_accuracy():
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((6, 2)) @ rng.standard_normal((2, 5))).astype("float64")
    u, s, v = pagaie.linalg.svd_lowrank(pagaie.to_tensor(x), q=3, niter=4)
    assert u.shape == [6, 3] and s.shape == [3] and v.shape == [5, 3]
    np.testing.assert_allclose(u.numpy() @ np.diag(s.numpy()) @ v.numpy().T, x, atol=1e-8)
    u, s, v = pagaie.linalg.pca_lowrank(pagaie.to_tensor(x))
    assert u.shape == [6, 5] and s.shape == [5] and v.shape == [5, 5]


def test_top_p_sampling_picks_dominant_token():
    probs = pagaie.to_tensor([[0.05, 0.9, 0.05], [0.7, 0.2, 0.1]])
    v, i = probs.top_p_sampling(pagaie.to_tensor([0.5, 0.6]), seed=3)
    assert i.tolist() == [[1], [0]] and v.shape == [2, 1]
    _, _, tv, ti = probs.top_p_sampling(pagaie.to_tensor([0.5, 0.6]), k=2, return_top=True)
    assert ti.tolist() == [[1, 0], [0, 1]]


def test_fp8_gemm_matches_float_math():
    x = pagaie.to_tensor([[1.0, 2.0], [3.0, -1.0]]).astype("float8_e4m3fn")
    r = pagaie.linalg.fp8_fp8_half_gemm_fused(x, x, transpose_y=True, scale=0.5, act="relu",
                                              output_dtype="bfloat16")
    assert r.dtype == pagaie.bfloat16
    assert r._t.float().tolist() == [[2.5, 0.5], [0.5, 5.0]]


def test_istft_inverts_stft():
    x = np.sin(np.arange(128) / 5.0).astype("float32")[None]
    spec = pagaie.signal.stft(pagaie.to_tensor(x), 32, window=pagaie.to_tensor(np.hanning(32).astype("float32")))
    y = pagaie.signal.istft(spec, 32, window=pagaie.to_tensor(np.hanning(32).astype("float32")), length=128)
    np.testing.assert_allclose(y.numpy(), x, atol=1e-4)


def test_norm_inf_axis_none_flattens():
    ours, theirs = both(lambda p: p.linalg.norm(p.to_tensor(_A), p=math.inf))
    assert_same(ours, theirs)
