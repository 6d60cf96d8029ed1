"""Session-15: cases from Paddle's legacy unit tests (top-level APIs d..h and the elementwise
ops) that pagaie answered differently from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception, same_static_exception


@pytest.mark.parametrize("dt", ["uint8", "int8", "bool", "float16"])
def test_dot_has_no_kernel_for_small_dtypes(dt):
    same_exception(lambda P: P.dot(P.ones([2, 3]).astype(dt), P.ones([2, 3]).astype(dt)))


@pytest.mark.parametrize("fn", [
    lambda P: P.dot(P.static.data("x", [-1, 4], "uint8"), P.static.data("y", [-1, 4], "uint8")),
    lambda P: P.sort(P.static.data("x", [4], "bool")),
    lambda P: P.eye(3, dtype="int8"),
    lambda P: P.expand_as(P.static.data("x", [-1, 4], "uint8"), P.static.data("y", [-1, 4], "int32")),
    lambda P: P.histogram(P.static.data("x", [4], "bool"), bins=3, min=0, max=1),
])
def test_static_build_refuses_a_dtype_the_kernel_lacks(fn):
    assert same_static_exception(fn).__class__ is TypeError


@pytest.mark.parametrize("dt", ["uint8", "int8", "bfloat16"])
def test_eye_has_no_kernel_for_small_dtypes(dt):
    same_exception(lambda P: P.eye(3, dtype=dt))


@pytest.mark.parametrize("dt", ["uint8", "float16", "complex64"])
def test_expand_as_kernel_dtypes(dt):
    same_exception(lambda P: P.expand_as(P.ones([1, 3]).astype(dt), P.ones([2, 3])))


@pytest.mark.parametrize("api", ["expand_as", "expand", "broadcast_to", "tile"])
def test_static_bool_x_that_needs_gradients_is_refused(api):
    def f(P):
        x = P.static.data("x", [-1, 4], "bool")
        x.stop_gradient = False
        if api == "expand_as":
            return P.expand_as(x, P.static.data("y", [3, 4], "int32"))
        return getattr(P, api)(x, [3, 4])
    same_static_exception(f)


def test_eager_bool_expand_as_takes_gradients_flag():
    def f(P):
        x = P.to_tensor([[True, False]])
        x.stop_gradient = False
        return P.expand_as(x, P.ones([3, 2]))
    both_same(f)


@pytest.mark.parametrize("dt", ["uint8", "int16", "float16", "bool"])
def test_histogram_kernel_dtypes(dt):
    same_exception(lambda P: P.histogram(P.ones([3]).astype(dt), bins=2, min=0, max=2))


@pytest.mark.parametrize("vals, dt", [
    ([-7095538316670326452, 3166073479842736625, 5], "int64"),
    ([-2 ** 31 + 5, 2 ** 31 - 5], "int32"),
    ([2e38, -3e38, 1.0], "float32"),
])
def test_histogram_span_must_fit_the_dtype(vals, dt):
    same_exception(lambda P: P.histogram(P.to_tensor(vals, dtype=dt), bins=1, min=0, max=0))


@pytest.mark.parametrize("dt", ["int32", "float16"])
def test_gammaincc_kernel_is_float32_64_only(dt):
    same_exception(lambda P: P.gammaincc(P.ones([2]).astype(dt), P.ones([2]).astype(dt)))


def test_gammaincc_static_int_is_a_build_type_error():
    assert same_static_exception(lambda P: P.gammaincc(
        P.static.data("x", [2], "int32"), P.static.data("y", [2], "int32"))).__class__ is TypeError


@pytest.mark.parametrize("axes", [(1000, 1), (0, -1000), (2, 1), (0, 0)])
def test_diagonal_scatter_asserts_its_axes(axes):
    err = same_exception(lambda P: P.diagonal_scatter(P.ones([3, 3]), P.ones([3]), 0, *axes))
    assert isinstance(err, AssertionError)


@pytest.mark.parametrize("api", ["empty_like", "zeros_like", "ones_like"])
def test_like_ops_refuse_a_numpy_x_with_a_dtype(api):
    same_exception(lambda P: getattr(P, api)(np.ones([2, 3], "float32"), dtype="float64"))


def test_static_bfloat16_data_takes_uint16_bits():
    def f(P):
        main = P.static.Program()
        with P.static.program_guard(main, P.static.Program()):
            x = P.static.data("x", [4], "uint16")
            y = P.static.data("y", [4], "uint16")
            z = P.floor_divide(x, y)
        bits = np.array([16384, 16448, 16640, 16608], "uint16")   # 2, 3, 8, 7
        return P.static.Executor(P.CPUPlace()).run(main, feed={"x": bits, "y": bits[::-1].copy()},
                                                   fetch_list=[z])[0]
    from tests.reference import both_static
    ours, theirs = both_static(f)
    assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)


@pytest.mark.parametrize("api", ["digamma", "erfinv", "expm1", "sin"])
def test_static_unary_float_op_refuses_bool_at_build(api):
    assert same_static_exception(
        lambda P: getattr(P, api)(P.static.data("x", [2], "bool"))).__class__ is TypeError


@pytest.mark.parametrize("api", ["hstack", "dstack", "concat"])
def test_static_join_of_mixed_dtypes_is_a_type_error(api):
    assert same_static_exception(lambda P: getattr(P, api)(
        [P.static.data("a", [2], "float32"), P.static.data("b", [2], "float64")])).__class__ is TypeError


def test_static_gather_nd_float_index_is_a_type_error():
    assert same_static_exception(lambda P: P.gather_nd(
        P.static.data("x", [4, 3], "float32"), P.static.data("i", [2, 1], "float32"))).__class__ is TypeError


def test_eager_gather_nd_float_index_stays_a_value_error():
    assert isinstance(same_exception(lambda P: P.gather_nd(P.ones([4, 3]), P.ones([2, 1]))), ValueError)


_ONE = {
    "fmax": lambda P, x: P.fmax(x, x), "heaviside": lambda P, x: P.heaviside(x, x),
    "hypot": lambda P, x: P.hypot(x, x), "gcd": lambda P, x: P.gcd(x, x), "diff": lambda P, x: P.diff(x),
    "diag": lambda P, x: P.diag(x), "diagflat": lambda P, x: P.diagflat(x),
    "diag_embed": lambda P, x: P.diag_embed(x), "flip": lambda P, x: P.flip(x, 0),
    "equal_all": lambda P, x: P.equal_all(x, x), "dist": lambda P, x: P.dist(x, x),
    "einsum": lambda P, x: P.einsum("i,i->", x, x), "frac": lambda P, x: P.frac(x),
    "histogramdd": lambda P, x: P.histogramdd(x.reshape([2, 1])),
    "fill_diagonal_": lambda P, x: x.reshape([1, 2]).fill_diagonal_(1),
}


@pytest.mark.parametrize("api, dt", [
    ("fmax", "int16"), ("fmax", "float16"), ("heaviside", "bool"), ("heaviside", "int8"),
    ("hypot", "int16"), ("hypot", "float16"), ("gcd", "uint8"), ("diff", "uint8"), ("diff", "float16"),
    ("diag", "int8"), ("diag", "bfloat16"), ("diagflat", "int16"), ("diag_embed", "complex64"),
    ("flip", "int8"), ("flip", "float16"), ("equal_all", "uint8"), ("dist", "float16"),
    ("einsum", "int64"), ("frac", "float16"), ("histogramdd", "int16"), ("fill_diagonal_", "int8"),
])
def test_cpu_kernel_dtypes_d_to_h(api, dt):
    assert isinstance(same_exception(lambda P: _ONE[api](P, P.ones([2]).astype(dt))), RuntimeError)


@pytest.mark.parametrize("api, dt", [
    ("fmax", "int32"), ("heaviside", "int64"), ("diff", "bool"), ("diff", "int16"), ("diag", "float16"),
    ("diag", "complex64"), ("flip", "bool"), ("equal_all", "bool"), ("einsum", "complex64"),
    ("fill_diagonal_", "bool"),
])
def test_cpu_kernel_dtypes_d_to_h_accepted(api, dt):
    both_same(lambda P: _ONE[api](P, P.ones([2]).astype(dt)))


@pytest.mark.parametrize("fn", [
    lambda P: P.histogramdd(P.to_tensor([[1.0, 0.0], [1.0, 3.0]]), bins=2),
    lambda P: P.histogramdd(P.to_tensor([[1], [1]], "int64"), bins=3),
    lambda P: P.histogramdd(P.to_tensor([[1.0, 0.0], [2.0, 3.0]]), bins=2, ranges=[1.0, 1.0, 0.0, 3.0]),
])
def test_histogramdd_keeps_a_single_value_range(fn):
    both_same(fn)


@pytest.mark.parametrize("api", ["empty", "zeros", "ones"])
def test_static_creation_from_a_shape_tensor_of_unknown_length(api):
    from tests.reference import both_static

    def f(P):
        main = P.static.Program()
        with P.static.program_guard(main, P.static.Program()):
            s = P.static.data("s", [-1], "int64")
            out = getattr(P, api)(shape=s, dtype="float64")
        declared = list(out.shape)
        res = P.static.Executor(P.CPUPlace()).run(main, feed={"s": np.array([4, 3])}, fetch_list=[out])[0]
        return declared, list(res.shape), str(res.dtype)
    ours, theirs = both_static(f)
    assert ours == theirs


@pytest.mark.parametrize("fn", [
    lambda P: P.histogramdd(P.static.data("x", [2, 1], "int32")),       # eager takes ints
    lambda P: P.gcd(P.static.data("x", [2], "bool"), P.static.data("y", [2], "bool")),
    lambda P: P.diff(P.static.data("x", [2], "float16")),
])
def test_static_build_dtype_checks(fn):
    assert same_static_exception(fn).__class__ is TypeError


def test_static_diff_of_int8_builds():
    from tests.reference import both_static
    ours, theirs = both_static(lambda P: list(P.diff(P.static.data("x", [3], "int8")).shape),
                               fresh_programs=True)
    assert ours == theirs
