"""Session-11 sweep: size-0 and 0-D inputs through reductions, statistics and search ops, and
the argument forms of their ``axis`` (Tensor, numpy integer, list items), against real
Paddle 3.3.1: result shapes and dtypes of empty reductions, gradients that reach an empty
input, unique/histogram/bincount shortcuts for empty inputs, topk's named result, 0-D
corner cases of topk/mode/unique and exception types."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception


def _t(P, a, dt="float32"):
    return P.to_tensor(np.array(a, dt))


def _z(P, shape, dt="float32"):
    return P.to_tensor(np.zeros(shape, dt))


def _grad(P, a, fn, dt="float64"):
    t = P.to_tensor(np.array(a, dt))
    t.stop_gradient = False
    out = fn(P, t)
    first = out[0] if isinstance(out, (tuple, list)) else out
    return [out, *P.grad(first.sum(), [t], allow_unused=True)]


def _same_shape_dtype(ours, theirs):
    """Shapes and dtypes agree (values of an empty reduction are Paddle's NaN as an integer)."""
    ours = ours if isinstance(ours, (tuple, list)) else [ours]
    theirs = theirs if isinstance(theirs, (tuple, list)) else [theirs]
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert list(a.shape) == list(b.shape)
        assert str(a.dtype).replace("paddle.", "") == str(b.dtype).replace("paddle.", "")


_X = [[1.0, 0.0, 3.0], [4.0, 5.0, 6.0]]


# -- axis forms ---------------------------------------------------------------------------------

@pytest.mark.parametrize("op", ["sum", "mean", "prod", "max", "amin", "all", "logsumexp", "nansum",
                                "nanmean", "std", "var", "count_nonzero", "nanmedian"])
def test_tensor_axis_of_float_dtype_or_2d(op):
    """Paddle reads a Tensor ``axis`` as ints: a float 0-D tensor is one axis."""
    assert_same(*both(lambda P: getattr(P, op)(_t(P, _X), axis=P.to_tensor(1.0))))


@pytest.mark.parametrize("op", ["sum", "mean", "prod", "max", "nansum", "nanmean", "std", "var",
                                "count_nonzero", "nanmedian"])
def test_tensor_axis_2d_is_flattened(op):
    """A 2-D Tensor ``axis`` is taken as the list of its values."""
    assert_same(*both(lambda P: getattr(P, op)(_t(P, _X), axis=P.to_tensor([[0, 1]]))))


@pytest.mark.parametrize("op", ["sum", "mean", "prod", "amax", "any", "logsumexp", "nansum",
                                "std", "count_nonzero", "nanmedian"])
@pytest.mark.parametrize("axis", [[1.0], (True,), [1, True]])
def test_axis_list_of_float_or_bool_is_type_error(op, axis):
    """Paddle's argument parser wants a list of ints: a float or bool item is a TypeError."""
    same_exception(lambda P: getattr(P, op)(_t(P, _X), axis=axis))


@pytest.mark.parametrize("op", ["argmax", "argmin", "sort", "argsort", "topk", "kthvalue", "mode",
                                "unique", "unique_consecutive"])
@pytest.mark.parametrize("axis", [np.int64(1), np.int32(-1)])
def test_search_ops_take_numpy_integer_axis(op, axis):
    """The search ops take a numpy integer ``axis`` as an int."""
    def f(P):
        x = _t(P, [[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
        if op in ("topk", "kthvalue"):
            return list(getattr(P, op)(x, 1, axis=axis))
        r = getattr(P, op)(x, axis=axis)
        return list(r) if isinstance(r, tuple) else r
    assert_same(*both(f))


@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
@pytest.mark.parametrize("axis", [True, [True], [0, True]])
def test_quantile_bool_axis_is_type_error(op, axis):
    """quantile refuses a bool axis with a TypeError (from its argument parser)."""
    same_exception(lambda P: getattr(P, op)(_t(P, _X), 0.5, axis=axis))


# -- empty reductions ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape,axis", [([0], None), ([0], 0), ([2, 0], -1), ([0, 3], 0),
                                        ([2, 0], 0), ([0, 3], 1)])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dt", ["int32", "int64"])
def test_integer_mean_of_nothing(shape, axis, keepdim, dt):
    """An integer mean over an empty axis is NaN as that integer dtype (its lowest value)."""
    assert_same(*both(lambda P: P.mean(_z(P, shape, dt), axis=axis, keepdim=keepdim)))


@pytest.mark.parametrize("op,mode", [("median", "min"), ("nanmedian", "min"), ("nanmedian", "avg")])
@pytest.mark.parametrize("shape,axis", [([0], None), ([0], 0), ([2, 0], 1), ([2, 0], 0),
                                        ([0, 3], 0), ([0, 3], -1)])
@pytest.mark.parametrize("dt", ["int32", "int64"])
def test_integer_median_of_empty_keeps_dtype(op, mode, shape, axis, dt):
    """Integer medians of an empty input keep the input's dtype."""
    _same_shape_dtype(*both(lambda P: getattr(P, op)(_z(P, shape, dt), axis=axis, mode=mode)))


@pytest.mark.parametrize("op", ["median", "nanmedian"])
@pytest.mark.parametrize("mode", ["avg", "min"])
@pytest.mark.parametrize("shape,axis", [([0], None), ([2, 0], 1), ([0, 3], 0), ([0, 3], -1)])
def test_median_of_empty_has_a_gradient(op, mode, shape, axis):
    """The median of an empty input is still a function of it: its (empty) gradient exists."""
    assert_same(*both(lambda P: _grad(P, np.zeros(shape), lambda P, t: getattr(P, op)(
        t, axis=axis, mode=mode))))


def test_argmax_of_empty_axis_is_a_clean_value_error():
    """Paddle returns memory it never wrote; pagaie refuses, naming the API."""
    for api in ("argmax", "argmin"):
        for shape, axis in (([0], None), ([2, 0], 1), ([0, 3], 0)):
            with pytest.raises(ValueError, match=f"paddle.{api}") as info:
                getattr(pagaie, api)(pagaie.zeros(shape), axis=axis)
            assert "torch" not in str(info.value) and "argmax()" not in str(info.value)
    assert_same(*both(lambda P: P.argmax(P.zeros([0, 3]), axis=1)))  # nothing reduced


# -- unique -------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [[2, 0], [0, 3], [0, 0], [0]])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("flags", [(False, False, False), (True, True, True), (False, True, False)])
def test_unique_of_empty_returns_the_input(shape, axis, flags):
    """unique hands an empty input back whole, with empty index outputs."""
    def f(P):
        r = P.unique(_z(P, shape), return_index=flags[0], return_inverse=flags[1],
                     return_counts=flags[2], axis=axis)
        return list(r) if isinstance(r, tuple) else r
    assert_same(*both(f))


@pytest.mark.parametrize("shape", [[2, 0], [0, 3], [0, 0]])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_unique_consecutive_of_empty(shape, axis):
    """With an axis, unique_consecutive hands an empty input back whole; without, flattened."""
    def f(P):
        return list(P.unique_consecutive(_z(P, shape), return_inverse=True, return_counts=True,
                                         axis=axis))
    assert_same(*both(f))


@pytest.mark.parametrize("op", ["unique", "unique_consecutive"])
@pytest.mark.parametrize("axis", [0, -1])
def test_unique_0d_input_takes_no_axis(op, axis):
    """A 0-D input with an axis is Paddle's InvalidArgument (ValueError)."""
    same_exception(lambda P: getattr(P, op)(_t(P, 2.0), axis=axis))


# -- topk / mode --------------------------------------------------------------------------------

def test_topk_returns_named_values_and_indices():
    """paddle.topk returns a TopKRetType named tuple (values, indices), printed as such."""
    ours, theirs = both(lambda P: P.topk(_t(P, [1.0, 4.0, 3.0]), 2))
    assert type(ours).__name__ == type(theirs).__name__ == "TopKRetType"
    assert isinstance(ours, tuple) and ours._fields == theirs._fields
    assert_same(ours.values, theirs.values)
    assert_same(ours.indices, theirs.indices)
    assert str(ours) == str(theirs)
    assert_same(*both(lambda P: _t(P, [[1.0, 4.0]]).topk(1, axis=1).indices))


@pytest.mark.parametrize("k", [1, 2, 5])
def test_topk_0d_takes_any_positive_k(k):
    """A 0-D input gives itself at index 0 for any k >= 1."""
    assert_same(*both(lambda P: list(P.topk(_t(P, 3.0), k))))
    same_exception(lambda P: P.topk(_t(P, 3.0), 0))


def test_mode_0d_keepdim_axis_0_is_value_error():
    """mode of a 0-D input with keepdim=True and axis=0 is a ValueError. (With axis=-1 and
    keepdim=True Paddle reads past the dims of a 0-D input: it raises on some runs.)"""
    same_exception(lambda P: P.mode(_t(P, 3.0), axis=0, keepdim=True))
    assert_same(*both(lambda P: list(P.mode(_t(P, 3.0), axis=0))))


# -- histogram / bincount -----------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("kw", [{}, {"min": 0, "max": 1}, {"density": True, "min": 0, "max": 1},
                                {"min": 0, "max": float("inf")}])
def test_histogram_of_empty_is_zeros_of_its_dtype(dt, kw):
    """Paddle's histogram of an empty input: zeros of the input's dtype, whatever the options."""
    assert_same(*both(lambda P: P.histogram(_z(P, [0], dt), bins=3, **kw)))
    assert_same(*both(lambda P: P.histogram(_z(P, [2, 0], dt), bins=4, weight=_z(P, [2, 0], dt))))
    same_exception(lambda P: P.histogram(_z(P, [0], dt), bins=3, min=2, max=1))


@pytest.mark.parametrize("wdt", ["float32", "float64", "int32"])
@pytest.mark.parametrize("minlength", [0, 3])
def test_bincount_of_empty_is_int64(wdt, minlength):
    """bincount of an empty input gives int64 zeros, even with float weights."""
    assert_same(*both(lambda P: P.bincount(_z(P, [0], "int64"), weights=_z(P, [0], wdt),
                                           minlength=minlength)))


# -- var / std of a 0-D input -------------------------------------------------------------------

@pytest.mark.parametrize("op", ["var", "std"])
@pytest.mark.parametrize("dt", ["float32", "float64", "int64"])
def test_var_std_0d_without_correction_is_a_constant(op, dt):
    """Without correction a 0-D input's var/std is a constant 0: no gradient reaches x, yet the
    result says stop_gradient=False."""
    assert_same(*both(lambda P: getattr(P, op)(_t(P, 3, dt), unbiased=False)))
    ours, theirs = both(lambda P: _grad(P, 3.0, lambda P, t: getattr(P, op)(t, unbiased=False)))
    assert ours[1] is None and theirs[1] is None
    assert_same(*both(lambda P: _grad(P, 3.0, lambda P, t: getattr(P, op)(t, unbiased=False))[0]
                      .stop_gradient))
