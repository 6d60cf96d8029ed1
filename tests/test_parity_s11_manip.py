"""Session-11 sweep: shape manipulation with unusual arguments against real Paddle 3.3.1 (view's
dtype/0 rules and keywords, squeeze of an empty axis list, float tensors inside int lists,
the *stack joins of non-Tensor entries, the variadic function forms of reshape/expand/view/
permute; static recording of shapes given as symbolic values)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, both_static, same_exception


def _t(P, a, dt="float32"):
    return P.to_tensor(np.array(a, dt))


def _x(P, shape=(2, 3, 4), dt="float32"):
    return _t(P, np.arange(int(np.prod(shape))).reshape(shape), dt)


# -- view ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "FLOAT32"])
def test_view_as_own_dtype_returns_x(dtype):
    """Paddle's view returns x itself when asked for x's own dtype (function and method)."""
    def f(P):
        x = _x(P)
        d = P.float32 if dtype == "FLOAT32" else dtype
        return [P.view(x, d) is x, x.view(d) is x, x.view(dtype=d) is x, P.view(x, "int32") is x]
    assert_same(*both(f))


@pytest.mark.parametrize("shape", [[0, 3, 4], [2, 0, 4], [0, -1]])
def test_view_zero_is_a_literal_size(shape):
    """Unlike reshape, a 0 in view's shape is a size 0: a non-empty input raises RuntimeError."""
    same_exception(lambda P: P.view(_x(P), shape))
    assert_same(*both(lambda P: P.reshape(_x(P), [0, -1])))  # reshape still copies the dim


def test_view_keywords_and_separate_ints():
    """Paddle's view takes dtype=/size= and the shape as separate ints (function and method)."""
    assert_same(*both(lambda P: P.view(_x(P), dtype="int32")))
    assert_same(*both(lambda P: _x(P).view(dtype="uint8")))
    assert_same(*both(lambda P: P.view(_x(P), size=[6, 4])))
    assert_same(*both(lambda P: _x(P).view(size=[4, -1])))
    assert_same(*both(lambda P: P.view(_x(P), 6, 4)))
    assert_same(*both(lambda P: P.view(_x(P), P.to_tensor(4), -1)))


# -- separate ints in the function forms -------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.reshape(_x(P), 6, 4),
    lambda P: P.reshape(_x(P), P.to_tensor(6), -1),
    lambda P: P.reshape(_x(P), -1),
    lambda P: P.expand(_x(P, (1, 3)), 2, 3),
    lambda P: P.expand(_x(P, (1, 3)), 2, P.to_tensor(2), -1),
    lambda P: P.permute(_x(P), 2, 0, 1),
    lambda P: P.permute(input=_x(P), dims=[2, 0, 1]),
    lambda P: _x(P).permute(2, 0, 1),
    lambda P: _x(P).reshape(P.to_tensor(6), 4),
], ids=["reshape", "reshape-0d", "reshape-one", "expand", "expand-0d", "permute", "permute-input",
        "permute-method", "reshape-method"])
def test_shape_as_separate_ints(call):
    """Paddle's decorators take the shape (dims) as separate ints or 0-D tensors after x."""
    assert_same(*both(call))


# -- squeeze ---------------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [[], ()])
def test_squeeze_empty_axis_list_squeezes_all(axis):
    """An empty axis list or tuple is Paddle's "every axis of size 1", as None."""
    assert_same(*both(lambda P: P.squeeze(_x(P, (1, 3, 1)), axis)))
    assert_same(*both(lambda P: P.squeeze_(_x(P, (1, 3, 1)), axis)))
    assert_same(*both(lambda P: P.squeeze(_t(P, 2.0), axis)))


def test_squeeze_empty_axis_tensor_squeezes_none():
    """An empty axis tensor removes no axis."""
    assert_same(*both(lambda P: P.squeeze(_x(P, (1, 3, 1)), P.to_tensor([], dtype="int64"))))


# -- float tensors where Paddle parses a list of int -------------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.reshape(_x(P, (1, 3)), [P.to_tensor(3.0), 1]),
    lambda P: P.reshape(_x(P, (1, 3)), (P.to_tensor([3.0]), 1)),
    lambda P: P.reshape_(_x(P, (1, 3)), [P.to_tensor(3.0), 1]),
    lambda P: P.split(_x(P, (6,)), [P.to_tensor(2.0), 4]),
    lambda P: P.unsqueeze(_x(P, (6,)), [P.to_tensor(0.0)]),
    lambda P: P.tile(_x(P, (1, 3)), P.to_tensor([2.0, 2.0])),
    lambda P: P.tile(_x(P, (1, 3)), P.to_tensor([2, 1], dtype="float16")),
    lambda P: P.tile(_x(P, (1, 3)), P.to_tensor([True, True])),
], ids=["reshape", "reshape-tuple", "reshape_", "split", "unsqueeze", "tile", "tile-f16", "tile-bool"])
def test_float_tensor_in_int_list_is_type_error(call):
    """Paddle's "list of int" argument parser rejects floating (and, for tile, bool) tensors."""
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda P: P.reshape(_x(P, (1, 3)), [P.to_tensor(True), 3]),
    lambda P: P.reshape(_x(P, (1, 3)), [P.to_tensor(3, dtype="int16"), 1]),
    lambda P: P.tile(_x(P, (1, 3)), P.to_tensor([2, 1], dtype="uint8")),
    lambda P: P.tile(_x(P, (1, 3)), [P.to_tensor(True), 2]),
    lambda P: P.split(_x(P, (6,)), [P.to_tensor(2), -1]),
    lambda P: P.squeeze(_x(P, (1, 6)), [P.to_tensor(0.0)]),
], ids=["reshape-bool", "reshape-int16", "tile-uint8", "tile-list-bool", "split-int", "squeeze"])
def test_int_like_tensors_in_lists_still_work(call):
    """Integer and bool tensors inside the lists are read as their values."""
    assert_same(*both(call))


# -- *stack joins of non-Tensor entries ----------------------------------------------------------

@pytest.mark.parametrize("fn", ["hstack", "vstack", "dstack", "row_stack"])
@pytest.mark.parametrize("second", ["numpy", "numpy64", "list", "first-numpy", "all-numpy"])
def test_stack_joins_convert_non_tensor_entries(fn, second):
    """hstack/vstack/dstack make each entry a tensor first, as paddle.to_tensor would."""
    def f(P):
        a = np.arange(6, dtype="float32").reshape(2, 3)
        if second == "numpy":
            xs = [P.to_tensor(a), a + 1]
        elif second == "numpy64":
            xs = [P.to_tensor(a.astype("float64")), a.astype("float64")]
        elif second == "list":
            xs = [P.to_tensor(a), (a + 1).tolist()]
        elif second == "first-numpy":
            xs = [a, P.to_tensor(a + 1)]
        else:
            xs = [a, a + 1]
        return getattr(P, fn)(xs)
    assert_same(*both(f))


def test_hstack_of_numbers_and_mismatches():
    """Numbers become 1-D tensors (hstack); mismatched ranks or dtypes still raise."""
    assert_same(*both(lambda P: P.hstack([_t(P, [1.0, 2.0]), 3.0])))
    assert_same(*both(lambda P: P.hstack([_t(P, [1, 2], "int64"), 3])))
    same_exception(lambda P: P.vstack([_t(P, [1.0, 2.0]), 3.0]))
    same_exception(lambda P: P.hstack([_t(P, [1.0, 2.0]), np.array([3.0])]))  # float64 entry


def test_hstack_keeps_gradient_of_tensor_entries():
    """The tensor entries keep their gradient when others are converted."""
    def f(P):
        x = _t(P, [1.0, 2.0], "float64")
        x.stop_gradient = False
        y = P.hstack([x, np.array([3.0])])
        return [y, P.grad((y * y).sum(), x)[0]]
    assert_same(*both(f))


# -- keyword aliases of tensor_split -----------------------------------------------------------

@pytest.mark.parametrize("kw", ["indices", "sections"])
def test_tensor_split_indices_and_sections_keywords(kw):
    """Paddle's tensor_split takes indices= and sections= for num_or_indices."""
    v = [1, 3] if kw == "indices" else 3
    assert_same(*both(lambda P: P.tensor_split(input=_x(P, (6, 2)), dim=0, **{kw: v})))


# -- static recording of shapes given as symbolic values ----------------------------------------

def _static_shapes(fn, shape=(2, 3, 4)):
    def f(P):
        x = P.static.data("x", list(shape), "float32")
        r = fn(P, x)
        return [list(v.shape) for v in (r if isinstance(r, (list, tuple)) else [r])]
    return both_static(f, fresh_programs=True)


def test_static_shape_value_with_minus_one():
    """A shape list holding a symbolic value and -1 records unknown sizes."""
    ours, theirs = _static_shapes(lambda P, x: P.reshape(x, [P.static.data("n", [], "int64"), -1]))
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda P, x: P.reshape(x, P.static.data("s", [2], "int64")),
    lambda P, x: P.reshape(x, [P.static.data("n", [], "int64"), 6]),
    lambda P, x: P.expand(P.reshape(x, [1, 24]), P.static.data("s", [2], "int64")),
], ids=["reshape-tensor", "reshape-list", "expand-tensor"])
def test_static_shape_from_value_records(call):
    """Paddle records these with -1 sizes; the recorder's made-up data cannot fit x."""
    ours, theirs = _static_shapes(call)
    assert ours == theirs
