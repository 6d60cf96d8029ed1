"""Session-14: cases from Paddle's API QA suite (paddlebase, APIs a..l and Tensor methods)
that pagaie answered differently from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception


@pytest.mark.parametrize("args, dtype", [
    ((np.array([1]), 20, 3), None),                   # an array bound: the default float dtype
    ((np.array([1]), np.array([20]), np.array([3])), "float32"),
    ((1, 20, np.array([3])), "int64"),
    ((np.array([3.5]),), None),
])
def test_arange_takes_one_element_arrays(args, dtype):
    both_same(lambda P: P.arange(*args, dtype=dtype))


@pytest.mark.parametrize("fn", [
    lambda P: P.linspace(np.array([1]), np.array([7.0]), np.array([4])),
    lambda P: P.range(np.array([1]), np.array([7]), np.array([2])),
    lambda P: P.logspace(np.array([1]), np.array([3]), 3),
])
def test_range_creation_takes_one_element_arrays(fn):
    both_same(fn)


@pytest.mark.parametrize("dt", ["int32", "int64", "float32"])
@pytest.mark.parametrize("lo, hi", [
    (np.array([1.1], "float32"), np.array([2.2], "float32")),   # an int x keeps its dtype
    (np.array([1]), None),
    (np.array([1.5, 2.5]), 3),                                   # the first element
])
def test_clip_takes_numpy_bounds(dt, lo, hi):
    both_same(lambda P: P.clip(P.to_tensor(np.array([[1, 2], [3, 4]], dt)), lo, hi))


@pytest.mark.parametrize("lo, hi", [
    (np.array([1.1]), np.array([2.2])),          # float64 Tensor bounds: a float32 result
    (np.array([0.0]), np.array([1.0])),
    (np.array([2, 3, 4]), np.array([3])),        # Paddle reads item(0) of any shape
    (np.array([2.5, 3.0]), None),
])
@pytest.mark.parametrize("dt", ["int32", "int64"])
def test_clip_of_an_int_tensor_reads_the_first_value_of_tensor_bounds(dt, lo, hi):
    def f(P):
        x = P.to_tensor(np.array([[1, 2], [3, 4]], dt))
        return P.clip(x, P.to_tensor(lo), None if hi is None else P.to_tensor(hi))
    both_same(f)


@pytest.mark.parametrize("fn", [
    lambda P: P.expand(P.ones([1, 3]), np.array([2, 3])),
    lambda P: P.broadcast_to(P.ones([1, 3]), np.array([4, 2, 3], "int32")),
])
def test_expand_takes_a_numpy_shape(fn):
    both_same(fn)


def test_unflatten_still_refuses_a_numpy_shape():
    same_exception(lambda P: P.unflatten(P.ones([1, 3]), 1, np.array([3, 1])))


_T3 = np.array([1.0, 2.0, 3.0], "float32")


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "not_equal", "less_than",
                                "less_equal", "greater_than", "greater_equal"])
@pytest.mark.parametrize("number", [2, 2.5, True])
def test_binary_functions_refuse_a_number(op, number):
    """Paddle's functions (and Tensor methods) take Tensors only: ValueError."""
    same_exception(lambda P: getattr(P, op)(P.to_tensor(_T3), number))
    same_exception(lambda P: getattr(P.to_tensor(_T3), op)(number))


@pytest.mark.parametrize("op", ["add", "multiply", "less_than", "equal"])
def test_binary_functions_refuse_a_number_x(op):
    same_exception(lambda P: getattr(P, op)(2, P.to_tensor(_T3)))


def test_operators_and_equal_still_take_numbers():
    def f(P):
        x = P.to_tensor(np.array([1, 2, 3], "int32"))
        return [x + 2, x * 2.5, 2 - x, x / 2, x < 2, x >= 2.5, x != 2, P.equal(x, 2.5),
                x.equal(2), x ** 2.5]
    both_same(f)


@pytest.mark.parametrize("bins", [5.0, True, "3", None])
def test_histogram_bins_of_another_type_is_a_type_error(bins):
    same_exception(lambda P: P.histogram(P.to_tensor(_T3), bins=bins))


@pytest.mark.parametrize("fn", [
    lambda P: P.histogram(P.to_tensor(_T3), bins=np.int64(3)),
    lambda P: P.histogram(P.to_tensor(_T3), bins=P.to_tensor(3.0)),   # a float 0-D tensor too
    lambda P: P.histogram_bin_edges(P.to_tensor(_T3), bins=5.5),      # linspace of 6.5 values
])
def test_histogram_bins_forms(fn):
    both_same(fn)


_INF_X = np.array([np.inf, -np.inf, 5.0, 0.0, -5.0, np.nan, 0.0, 1.0])
_INF_Y = np.array([-np.inf, np.inf, np.inf, -np.inf, np.inf, np.inf, 1e-16, 1.0 + 1e-15])


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("rtol, atol", [(1e-5, 1e-8), (0.0, 0.0), (0.0, 1.0), (0.1, 0.0)])
def test_isclose_at_infinities_as_paddles_kernel(dt, rtol, atol):
    """Paddle: with rtol > 0 an infinite y is close to any non-NaN x; differences within
    1e-15 of the tolerance count as close."""
    def f(P):
        x, y = P.to_tensor(_INF_X.astype(dt)), P.to_tensor(_INF_Y.astype(dt))
        return [P.isclose(x, y, rtol, atol), P.isclose(x, y, rtol, atol, equal_nan=True),
                P.allclose(x[:5], y[:5], rtol, atol)]
    both_same(f)


@pytest.mark.parametrize("api", ["isclose", "allclose"])
def test_close_tolerances_as_strings_and_none(api):
    x, y = np.array([1.0, 2.0], "float32"), np.array([1.0, 2.5], "float32")
    both_same(lambda P: [getattr(P, api)(P.to_tensor(x), P.to_tensor(y), rtol=r, atol=a)
                         for r, a in (("0.5", 1e-8), ("abc", 1e-8), (1e-5, "abc"), ("1e-1", "0.6"))])
    same_exception(lambda P: getattr(P, api)(P.to_tensor(x), P.to_tensor(y), rtol=None))


@pytest.mark.parametrize("axis", [None, 1, -1, 0])
def test_logsumexp_of_infinite_rows_is_nan_as_paddles_kernel(axis):
    """Paddle computes log(sum(exp(x - max))) + max: a row whose max is +-inf gives NaN (and
    NaN gradients); rows with a -inf entry next to finite ones stay finite."""
    x = np.array([[-np.inf, -np.inf], [np.inf, 1.0], [np.inf, np.inf], [-np.inf, 1.0], [2.0, 3.0]],
                 "float32")

    def f(P):
        t = P.to_tensor(x, stop_gradient=False)
        out = P.logsumexp(t, axis=axis)
        return [out, P.grad(out.sum(), t)[0]]
    both_same(f)


@pytest.mark.parametrize("shape, dt", [([0], "float32"), ([0, 3], "int64")])
def test_increment_of_an_empty_tensor_stays_empty(shape, dt):
    both_same(lambda P: P.increment(P.zeros(shape, dt), 2))


def _idx(P, fn):
    x = P.to_tensor(np.zeros((2, 6), "float64"))
    fn(P, x)
    return x


@pytest.mark.parametrize("fn", [
    # a one-element int32/int64 Tensor of any shape bounds a slice, as Paddle's parser reads it
    lambda P, x: x.__setitem__((P.to_tensor([1], "int32"), slice(1, P.to_tensor([3]))),
                               np.array([1.0, 3.0])),
    lambda P, x: x.__setitem__((slice(None), slice(5, 0, P.to_tensor([-2]))), 42.0),
    lambda P, x: x.__getitem__((slice(None), slice(P.to_tensor([[1]]), None))),
])
def test_slice_bounds_as_one_element_tensors(fn):
    both_same(lambda P: [_idx(P, fn), fn(P, P.to_tensor(np.arange(12.0).reshape(2, 6)))])


@pytest.mark.parametrize("bound", [lambda P: P.to_tensor([1.0]), lambda P: P.to_tensor([1, 2]),
                                   lambda P: P.to_tensor(True)])
def test_slice_bound_tensors_of_another_dtype_or_size_raise_value_error(bound):
    same_exception(lambda P: P.ones([2, 6])[:, bound(P):])


_X3 = np.arange(24.0, dtype="float32").reshape(2, 3, 4)


@pytest.mark.parametrize("fn", [
    lambda P, t, a: P.concat([t, t], axis=a),
    lambda P, t, a: P.stack([t, t], axis=a),
    lambda P, t, a: P.flip(t, a),
    lambda P, t, a: P.gather(t, P.to_tensor([0, 1]), axis=a),
    lambda P, t, a: P.index_select(t, P.to_tensor([1]), axis=a),
    lambda P, t, a: P.roll(t, 1, axis=a),
    lambda P, t, a: P.diff(t, axis=a),
], ids=["concat", "stack", "flip", "gather", "index_select", "roll", "diff"])
@pytest.mark.parametrize("axis", [np.int64(1), np.int32(-1)])
def test_numpy_integer_axis(fn, axis):
    both_same(lambda P: fn(P, P.to_tensor(_X3), axis))


@pytest.mark.parametrize("api", ["sum", "mean", "max", "amax", "logsumexp", "std", "nansum",
                                 "count_nonzero", "all"])
@pytest.mark.parametrize("axis", [np.array([0]), np.array([0, 2])])
def test_reductions_take_a_numpy_array_axis(api, axis):
    both_same(lambda P: getattr(P, api)(P.to_tensor(_X3), axis=axis))


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_logaddexp_of_equal_infinities_is_nan(dt):
    """Paddle's composite log1p(exp(-|x - y|)) + maximum(x, y) gives NaN there."""
    x = np.array([-np.inf, np.inf, 1.0, 3.0, 2.0], dt)
    y = np.array([-np.inf, np.inf, 2.0, -np.inf, 2.0], dt)
    both_same(lambda P: P.logaddexp(P.to_tensor(x), P.to_tensor(y)))


@pytest.mark.parametrize("real, imag", [("float32", "float16"), ("float32", "int32"),
                                        ("float64", "complex64"), ("int32", "float32")])
def test_complex_kernel_follows_real_dtype(real, imag):
    """Paddle picks the kernel by real's dtype (none: RuntimeError); an imag of another dtype
    is then its ValueError."""
    same_exception(lambda P: P.complex(P.ones([2], real), P.ones([2], imag)))


@pytest.mark.parametrize("fn", [
    lambda P, t, a: P.concat([t, t], axis=a),
    lambda P, t, a: P.gather(t, P.to_tensor([0, 1]), axis=a),
    lambda P, t, a: P.argmax(t, axis=a),
    lambda P, t, a: P.cumsum(t, axis=a),
], ids=["concat", "gather", "argmax", "cumsum"])
@pytest.mark.parametrize("axis", [True, 1.5, np.array([1, 2])])
def test_scalar_parsed_axis(fn, axis):
    """These ops read 'axis' with Paddle's Scalar parser: a bool or float counts as an int
    (truncated), a numpy array as its first value."""
    both_same(lambda P: fn(P, P.to_tensor(_X3), axis))


@pytest.mark.parametrize("fn", [
    lambda P: P.flip(P.to_tensor(_X3), np.array([0, 2])),   # an int array is an axis list
    lambda P: P.chunk(P.to_tensor(_X3), 3, axis=True),       # a bool axis is an int
])
def test_flip_array_axis_and_chunk_bool_axis(fn):
    both_same(fn)


def test_chunk_array_axis_is_a_value_error():
    same_exception(lambda P: P.chunk(P.ones([2, 4]), 2, axis=np.array([1])))


@pytest.mark.parametrize("dt", ["int64", "float32", "int16"])
def test_logspace_num_tensor_must_be_int32(dt):
    same_exception(lambda P: P.logspace(0.0, 2.0, P.to_tensor(3, dt)))
