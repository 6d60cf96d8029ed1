"""Session-12 sweep of reductions, statistics, search and logic ops with special values
against real Paddle 3.3.1: which of several equal entries median / nanmedian / kthvalue
pick (indices and the gradients that follow them), and the other differences listed per
test."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _t(P, a, dt="float32"):
    return P.to_tensor(np.array(a, dt))


def _grad(P, a, fn, dt="float64"):
    """``[fn(x), d(sum(fn(x)[0] * w))/dx]`` with distinct weights ``w``."""
    x = P.to_tensor(np.array(a, dt))
    x.stop_gradient = False
    out = fn(P, x)
    first = out[0] if isinstance(out, (list, tuple)) else out
    w = P.to_tensor(np.arange(1, first.size + 1, dtype=dt).reshape(first.shape))
    return [out, P.grad((first * w).sum(), x)[0]]


# -- ties: median / nanmedian / kthvalue ----------------------------------------------------

_TIES = np.random.default_rng(7).integers(0, 3, (6, 9)).astype("float64")
_TIES_NAN = np.where(np.random.default_rng(8).random((6, 9)) < 0.25, np.nan, _TIES)


@pytest.mark.parametrize("op", ["median", "nanmedian"])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("data", ["ties", "ties_nan"])
def test_median_min_index_among_equal_entries(op, axis, data):
    """Paddle's mode='min' index among equal middle entries comes from a partial top-k, not
    the first occurrence; the gradient goes to that entry."""
    a = _TIES if data == "ties" else _TIES_NAN
    assert_same(*both(lambda P: _grad(P, a, lambda P, x: getattr(P, op)(x, axis=axis, mode="min"))))


@pytest.mark.parametrize("op", ["median", "nanmedian"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_median_avg_gradient_goes_to_the_two_picked_entries(op, axis):
    """With two different middle values Paddle gives half the gradient to each picked entry
    (not shared among their equals); with one middle value it is shared among its equals."""
    a = [[1., 3., 3., 0.], [2., 2., 2., 2.], [5., -1., 5., 0.], [0., 3., 0., 2.]]
    assert_same(*both(lambda P: _grad(P, a, lambda P, x: getattr(P, op)(x, axis=axis))))
    assert_same(*both(lambda P: _grad(P, _TIES, lambda P, x: getattr(P, op)(x, axis=axis))))


@pytest.mark.parametrize("k", [1, 2, 5, 9])
@pytest.mark.parametrize("axis", [0, -1])
def test_kthvalue_index_among_equal_entries(k, axis):
    """Paddle's kthvalue picks among equal entries as its partial sort leaves them."""
    if axis == 0 and k > 6:
        k = 6
    assert_same(*both(lambda P: _grad(P, _TIES_NAN, lambda P, x: P.kthvalue(x, k, axis=axis))))
    assert_same(*both(lambda P: P.kthvalue(_t(P, _TIES, "int64"), k, axis=axis, keepdim=True)))


def test_kthvalue_long_row_small_k():
    """A long row with a small k (Paddle's partial_sort path) keeps the same tie choice."""
    a = np.random.default_rng(3).integers(0, 3, (2, 200)).astype("float32")
    assert_same(*both(lambda P: P.kthvalue(_t(P, a), 2)))


def test_nanmedian_checks_mode_before_dtype():
    """nanmedian of a bool tensor with a bad mode: ValueError for the mode first."""
    same_exception(lambda P: P.nanmedian(_t(P, [1, 0], "bool"), mode="max"))


# -- quantile -----------------------------------------------------------------------------

@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
@pytest.mark.parametrize("q", [0.0, 1.0, [0.0, 1.0]])
def test_quantile_midpoint_of_equal_infinities(op, q):
    """'midpoint' is the mean of the lower and higher entries: two equal infinities give
    that infinity, not NaN."""
    a = [[-np.inf, 5.0, 5.0, -np.inf], [np.inf, -0.0, 2.0, np.inf]]
    assert_same(*both(lambda P: _grad(P, a, lambda P, x: getattr(P, op)(
        x, q, axis=1, interpolation="midpoint"))))


@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
@pytest.mark.parametrize("dt", ["int32", "int64"])
@pytest.mark.parametrize("interpolation", ["lower", "higher", "nearest", "midpoint"])
def test_quantile_of_integers_picks_entries(op, dt, interpolation):
    """Integer inputs take the interpolations that pick entries (the dtype is kept;
    'midpoint' gives float32); the linear one has no integer kernel (RuntimeError)."""
    a = [[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]]
    for q in (0.0, 1.0, [1.0, 0.0]):  # (Paddle casts q to the integer dtype: only 0 and 1 agree)
        assert_same(*both(lambda P: getattr(P, op)(_t(P, a, dt), q, axis=1,
                                                   interpolation=interpolation)))
    same_exception(lambda P: getattr(P, op)(_t(P, a, dt), 0.5, axis=1))


@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
def test_quantile_checks_axis_before_dtype(op):
    """A bad or repeated axis is a ValueError even for an input of an unsupported dtype."""
    a = [[3, 1], [9, 2]]
    same_exception(lambda P: getattr(P, op)(_t(P, a, "int32"), 0.5, axis=[0, 0]))
    same_exception(lambda P: getattr(P, op)(_t(P, a, "int64"), 0.5, axis=2))
    same_exception(lambda P: getattr(P, op)(_t(P, a, "bool"), 0.5, axis=[1, -1]))


# -- argmax / argmin ----------------------------------------------------------------------

@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [1.0, 1.7, -1.2, True, 0.0])
def test_arg_reduce_float_or_bool_axis_is_truncated(op, axis):
    """Paddle's argument parser takes a float or bool axis and truncates it to an int."""
    a = [[1.0, 5.0, 2.0], [3.0, 1.0, 9.0]]
    assert_same(*both(lambda P: getattr(P, op)(_t(P, a), axis=axis, keepdim=True)))


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_arg_reduce_list_axis_is_a_type_error_before_the_dtype(op):
    """A list axis is a TypeError, even for a bool input (which has no kernel)."""
    same_exception(lambda P: getattr(P, op)(_t(P, [1, 0], "bool"), axis=[0]))
    same_exception(lambda P: getattr(P, op)(_t(P, [1.0, 0.0]), axis=(0,)))


# -- searchsorted / bucketize -------------------------------------------------------------

@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_search_in_a_sequence_ending_with_nan(right, dt):
    """Paddle's binary search takes the trailing NaN entries of the sorted sequence as larger
    than every finite value (left search) and as smaller (right search), like std::lower_bound
    and std::upper_bound."""
    seq = [[1.0, 3.0, np.nan, np.nan], [1.0, 3.0, 4.0, np.nan]]
    vals = [[0.0, 2.0, 4.0, 3.0], [3.0, 5.0, 1.0, -7.0]]
    assert_same(*both(lambda P: P.searchsorted(_t(P, seq, dt), _t(P, vals, dt), right=right)))
    assert_same(*both(lambda P: P.bucketize(_t(P, vals, dt), _t(P, seq[0], dt), right=right,
                                            out_int32=True)))


def test_searchsorted_int32_sorter():
    """An int32 ``sorter`` reorders the sequence before the search."""
    assert_same(*both(lambda P: P.searchsorted(_t(P, [5.0, 1.0, 3.0]), _t(P, [2.0, 4.0, 6.0]),
                                               sorter=_t(P, [1, 2, 0], "int32"))))


# -- max / amax / logsumexp argument checks -----------------------------------------------

@pytest.mark.parametrize("op", ["max", "min", "amax", "amin", "logsumexp"])
@pytest.mark.parametrize("dt", ["bool", "complex64"])
@pytest.mark.parametrize("axis", [1.0, True, "a"])
def test_axis_of_a_wrong_type_before_the_missing_kernel(op, dt, axis):
    """An axis of a wrong type is the argument parser's TypeError, even for a dtype that has
    no kernel (whose RuntimeError comes after it)."""
    same_exception(lambda P: getattr(P, op)(_t(P, [[1.0, 0.0]]).astype(dt), axis))
    same_exception(lambda P: getattr(P, op)(_t(P, [[1.0, 0.0]]).astype(dt), 5))  # (RuntimeError)


# -- infinities in medians and quantiles --------------------------------------------------

@pytest.mark.parametrize("op", ["median", "nanmedian"])
@pytest.mark.parametrize("kw", [{}, {"axis": 1}, {"axis": 0}, {"axis": 1, "mode": "min"}])
def test_median_of_infinite_entries(op, kw):
    """A median equal to an infinity is that infinity (its gradient shared among its equal
    entries), not NaN."""
    a = [[-np.inf, -np.inf, -np.inf], [-np.inf, 0.0, 1.0], [np.inf, 1.0, np.inf]]
    assert_same(*both(lambda P: _grad(P, a, lambda P, x: getattr(P, op)(x, **kw))))


@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
def test_quantile_between_a_finite_entry_and_infinity(op):
    """Interpolating from a finite entry towards +inf gives +inf, as Paddle's lerp does."""
    a = [[np.inf, 1.0, 5.0], [2.0, 1.0, np.inf], [np.inf, 3.0, 4.0]]
    assert_same(*both(lambda P: getattr(P, op)(_t(P, a), [0.2, 0.9], axis=1)))


# -- histogramdd --------------------------------------------------------------------------

@pytest.mark.parametrize("xdt, wdt", [("float32", "float64"), ("float32", "int64"),
                                      ("int64", "float32"), ("float64", "float32")])
def test_histogramdd_weights_of_another_dtype(xdt, wdt):
    """Paddle asserts that the weights have the dtype of x (AssertionError)."""
    same_exception(lambda P: P.histogramdd(_t(P, [[0, 1], [1, 2]], xdt), bins=2,
                                           weights=_t(P, [1, 2], wdt)))
    same_exception(lambda P: P.histogramdd(_t(P, [[0, 1], [1, 2]], xdt), bins=2,
                                           weights=_t(P, [1, 2, 3], xdt)))
    assert_same(*both(lambda P: P.histogramdd(_t(P, [[0, 1], [1, 2]], "float32"), bins=2,
                                              weights=_t(P, [1, 2], "float32"))))
