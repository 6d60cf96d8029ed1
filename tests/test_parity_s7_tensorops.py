"""Session-7 differential parity sweep: search, statistics and linalg fixes vs real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _t(P, dtype, shape, seed=0):
    rng = np.random.RandomState(seed)
    n = int(np.prod(shape)) if shape else 1
    if dtype.startswith("int"):
        a = rng.randint(-5, 6, size=n).astype(dtype)
    else:
        a = rng.randn(n).astype(dtype)
    return P.to_tensor(a.reshape(shape))


# --- search -------------------------------------------------------------------------------

@pytest.mark.parametrize("api", ["sort", "argsort"])
def test_sort_0d_bad_axis(api):
    same_exception(lambda P: getattr(P, api)(_t(P, "float32", ()), axis=1))
    ours, theirs = both(lambda P: getattr(P, api)(_t(P, "float32", ()), axis=-1))
    assert_same(ours, theirs)


def test_topk_k_zero_and_kthvalue_float_k():
    same_exception(lambda P: P.topk(_t(P, "float32", (2, 3)), 0))
    same_exception(lambda P: P.kthvalue(_t(P, "float32", (2, 3)), 1.5))


@pytest.mark.parametrize("dtype", ["bool", "complex64"])
def test_searchsorted_bucketize_bad_dtype(dtype):
    def vals(P):
        return P.to_tensor(np.array([[0, 1], [1, 0]]).astype(dtype))
    same_exception(lambda P: P.searchsorted(P.to_tensor([-1.0, 0.0, 1.0]), vals(P)))
    if dtype == "bool":
        same_exception(lambda P: P.bucketize(vals(P), P.to_tensor([-1, 0, 1])))


def test_searchsorted_leading_dims_mismatch():
    same_exception(lambda P: P.searchsorted(P.to_tensor([[1.0, 2.0, 3.0]]), P.to_tensor([2.0, 2.5])))


# --- statistics ---------------------------------------------------------------------------

@pytest.mark.parametrize("q", [(0.5,), [0.5]])
@pytest.mark.parametrize("axis,keepdim", [(None, False), (None, True), (1, False), (1, True)])
def test_quantile_single_q_drops_leading_axis(q, axis, keepdim):
    ours, theirs = both(lambda P: P.quantile(_t(P, "float32", (2, 3)), q, axis=axis, keepdim=keepdim))
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: P.quantile(_t(P, "float32", (2, 3)), P.to_tensor([0.5]), axis=axis,
                                             keepdim=keepdim))
    assert_same(ours, theirs)


@pytest.mark.parametrize("api", ["quantile", "nanquantile"])
def test_quantile_axis_checks(api):
    x = lambda P: _t(P, "float32", (2, 3))  # noqa: E731
    same_exception(lambda P: getattr(P, api)(x(P), 0.5, axis=(0,)))
    same_exception(lambda P: getattr(P, api)(x(P), 0.5, axis=1.5))
    same_exception(lambda P: getattr(P, api)(x(P), 0.5, axis=P.to_tensor(1)))
    same_exception(lambda P: getattr(P, api)(_t(P, "float32", ()), 0.5, axis=0))


def test_median_nanmedian_axis_errors():
    same_exception(lambda P: P.median(_t(P, "float32", ()), axis=1))
    same_exception(lambda P: P.nanmedian(_t(P, "float32", (2, 3)), axis=1.5))


@pytest.mark.parametrize("dtype", ["int32", "float32"])
def test_histogram_bin_edges_single_value(dtype):
    ours, theirs = both(lambda P: P.histogram_bin_edges(_t(P, dtype, ()), bins=4))
    assert_same(ours, theirs)
    same_exception(lambda P: P.histogram_bin_edges(_t(P, dtype, (0, 3))))


def test_std_of_empty_int_is_nan():
    ours, theirs = both(lambda P: P.std(_t(P, "int32", (0, 3))))
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: P.std(_t(P, "int64", (0, 3)), axis=0))
    assert_same(ours, theirs)


@pytest.mark.parametrize("seed", [0, 3])
def test_histogramdd_integer_input(seed):
    ours, theirs = both(lambda P: P.histogramdd(_t(P, "int64", (7, 2), seed), bins=3))
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: P.histogramdd(_t(P, "int32", (7, 2), seed), bins=[2, 3],
                                                weights=P.ones([7], "int32")))
    assert_same(ours, theirs)


# --- linalg -------------------------------------------------------------------------------

@pytest.mark.parametrize("other", ["int32", "int64", "complex64"])
@pytest.mark.parametrize("api", ["matmul", "inner", "tensordot"])
def test_matmul_family_promotes(api, other):
    def run(P):
        a = _t(P, "float32", (3, 3))
        b = P.to_tensor((np.arange(9).reshape(3, 3) - 4).astype(other))
        return P.tensordot(a, b, 1) if api == "tensordot" else getattr(P, api)(a, b)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("api", ["matmul", "inner"])
def test_matmul_float32_float64_rejected(api):
    same_exception(lambda P: getattr(P, api)(_t(P, "float32", (3, 3)), _t(P, "float64", (3, 3))))


def test_cross_promotion_and_checks():
    ours, theirs = both(lambda P: P.cross(_t(P, "float32", (3, 3)), _t(P, "float64", (3, 3), 1)))
    assert_same(ours, theirs)
    same_exception(lambda P: P.cross(_t(P, "float32", (3, 3)), _t(P, "int32", (3, 3))))
    same_exception(lambda P: P.cross(_t(P, "float32", (3, 2)), _t(P, "float32", (3, 1))))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linspace_values_are_paddles_bit_for_bit(dtype):
    """Paddle counts the first half up from start and the rest down from stop, in the dtype."""
    rng = np.random.default_rng(0)
    cases = [(-3.3, 17.9, 101), (1e-3, 5.5, 1000), (2.5, -9.1, 333), (5, 5, 3), (0, 1, 1), (1, 0, 0)]
    cases += [(float(rng.uniform(-100, 100)), float(rng.uniform(-100, 100)), int(rng.integers(1, 500)))
              for _ in range(20)]
    for a, b, n in cases:
        ours, theirs = both(lambda fw: fw.linspace(a, b, n, dtype=dtype))
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy(), err_msg=str((a, b, n)))
