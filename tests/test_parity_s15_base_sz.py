"""Session-15: cases from Paddle's legacy unit tests (APIs s..z and indexing) that pagaie
answered differently from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, both_static, same_exception, same_static_exception


@pytest.mark.parametrize("op", ["vander", "unique", "unique_consecutive", "nansum", "rank"])
@pytest.mark.parametrize("value", [1, [1.0, 2.0]])
def test_static_python_ops_type_check_a_non_tensor(op, value):
    # eagerly an AttributeError; while a program is built Paddle checks the type first
    same_static_exception(lambda P: getattr(P, op)(value))


def test_static_stack_of_a_number():
    same_static_exception(lambda P: P.stack(1))


def test_static_setitem_value_of_a_list():
    def f(P):
        x = P.ones([2, 3])
        x[0] = [1]
    assert same_static_exception(f)


def test_static_searchsorted_int32_output_of_a_too_long_sequence():
    def f(P):
        s = P.static.data("s", [2, 2, 2 ** 34], "float64")
        v = P.static.data("v", [2, 2, 5], "float64")
        P.searchsorted(s, v, out_int32=True)
    same_static_exception(f)


@pytest.mark.parametrize("axis", [0, -1])
def test_static_unflatten_by_a_shape_value(axis):
    x = np.random.rand(4, 6, 16).astype("float32")

    def f(P):
        xv = P.static.data("x", [4, 6, 16], "float32")
        sv = P.static.data("s", [2], "int32")
        out = P.unflatten(xv, axis, sv)
        res = P.static.Executor(P.CPUPlace()).run(feed={"x": x, "s": np.array([-1, 2], "int32")},
                                                  fetch_list=[out])[0]
        return list(out.shape), res
    (ours_shape, ours), (their_shape, theirs) = both_static(f, fresh_programs=True)
    assert ours_shape == their_shape
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("op, dtype", [
    ("sort", "bool"), ("topk", "bool"), ("sin", "bool"), ("sign", "bool"), ("subtract", "bool"),
    ("unique", "float16"), ("searchsorted", "complex64"), ("trunc", "bool"), ("trunc", "float16"),
    ("std", "int32"), ("var", "int64"), ("tensordot", "int32"), ("tensordot", "complex64"),
])
def test_static_no_kernel_for_the_dtype_is_a_type_error(op, dtype):
    # eagerly Paddle's NotFound (RuntimeError); while a program is built, a TypeError
    calls = {"topk": lambda P, x: P.topk(x, 1), "subtract": lambda P, x: P.subtract(x, x),
             "searchsorted": lambda P, x: P.searchsorted(x, x),
             "tensordot": lambda P, x: P.tensordot(x, P.static.data("y", [3, 2], dtype), 1)}
    call = calls.get(op, lambda P, x: getattr(P, op)(x))
    same_static_exception(lambda P: call(P, P.static.data("x", [2, 3], dtype)))


def test_static_std_of_floats_still_records():
    x = np.random.rand(3, 4).astype("float32")

    def f(P):
        xv = P.static.data("x", [3, 4], "float32")
        return P.static.Executor(P.CPUPlace()).run(feed={"x": x}, fetch_list=[P.std(xv, 1)])[0]
    ours, theirs = both_static(f, fresh_programs=True)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_setitem_through_indices_with_a_view_of_the_same_tensor():
    def f(P):
        x = P.arange(6, dtype="float32").reshape([2, 3])
        x[P.to_tensor([0])] = x[1]
        y = P.arange(6, dtype="float32").reshape([2, 3])
        y[P.to_tensor([1, 0])] = y[::-1]
        return x, y
    both_same(f)


@pytest.mark.parametrize("op, dtype", [
    ("take_along_axis", "bool"), ("take_along_axis", "float16"), ("trace", "int16"),
    ("trace", "bool"), ("unstack", "int8"), ("take", "uint8"), ("scatter_nd", "int16"),
    ("tril", "int8"), ("triu", "bfloat16"),
])
def test_no_cpu_kernel_for_the_dtype(op, dtype):
    calls = {"take_along_axis": lambda P, x: P.take_along_axis(x, P.zeros([1, 3], "int64"), 0),
             "take": lambda P, x: P.take(x, P.zeros([2], "int64")),
             "scatter_nd": lambda P, x: P.scatter_nd(P.zeros([1, 1], "int64"), x[:1], [2, 3])}
    call = calls.get(op, lambda P, x: getattr(P, op)(x))
    same_exception(lambda P: call(P, P.ones([2, 3], dtype)))


@pytest.mark.parametrize("op", ["take_along_axis", "trace", "unstack", "take", "tril"])
def test_kernel_dtypes_still_computed(op):
    calls = {"take_along_axis": lambda P, x: P.take_along_axis(x, P.zeros([1, 3], "int64"), 0),
             "take": lambda P, x: P.take(x, P.zeros([2], "int64"))}
    call = calls.get(op, lambda P, x: getattr(P, op)(x))
    both_same(lambda P: call(P, P.to_tensor(np.arange(6, dtype="int64").reshape([2, 3]))))


@pytest.mark.parametrize("op, kw", [
    ("unique", {"return_index": 0}), ("unique", {"return_inverse": "s"}), ("unique", {"return_counts": 3}),
    ("unique_consecutive", {"return_inverse": 1}), ("unique_consecutive", {"return_counts": np.bool_(True)}),
])
def test_unique_flags_take_only_a_bool(op, kw):
    same_exception(lambda P: getattr(P, op)(P.ones([3]), **kw))


_X = np.random.RandomState(0).rand(3, 4).astype("float32")


_PARSER_BOOL_CALLS = [
    lambda P, v: P.sort(P.to_tensor(_X), descending=v), lambda P, v: P.argsort(P.to_tensor(_X), descending=v),
    lambda P, v: P.topk(P.to_tensor(_X), 2, largest=v), lambda P, v: P.topk(P.to_tensor(_X), 2, sorted=v),
    lambda P, v: P.std(P.to_tensor(_X), 1, keepdim=v), lambda P, v: P.var(P.to_tensor(_X), 1, keepdim=v),
    lambda P, v: P.searchsorted(P.to_tensor([0.2, 0.5, 0.8]), P.to_tensor(_X), right=v),
    lambda P, v: P.searchsorted(P.to_tensor([0.2, 0.5, 0.8]), P.to_tensor(_X), out_int32=v),
    lambda P, v: P.unique(P.to_tensor(_X), return_counts=v),
]
_PARSER_BOOL_MORE = [
    lambda P, v: P.sort(P.to_tensor(_X), stable=v),
    lambda P, v: P.scale(P.to_tensor(_X), 2.0, 1.0, bias_after_scale=v),
    lambda P, v: P.scatter(P.to_tensor(_X), P.to_tensor([0, 1]), P.ones([2, 4]), overwrite=v),
]


@pytest.mark.parametrize("call, value", [(c, v) for c in _PARSER_BOOL_CALLS for v in (None, 1, "a")]
                         + [(c, v) for c in _PARSER_BOOL_MORE
                            for v in (None, 1, "a", 1.5, np.bool_(True))])
def test_parser_bool_arguments(call, value):
    # Paddle's argument parser: None is False, anything but a bool is a TypeError
    if value is None:
        both_same(lambda P: call(P, value))
    else:
        same_exception(lambda P: call(P, value))


@pytest.mark.parametrize("call, value", [
    (lambda P, v: P.unstack(P.to_tensor(_X), num=v), 1.5), (lambda P, v: P.unstack(P.to_tensor(_X), num=v), True),
    (lambda P, v: P.unstack(P.to_tensor(_X), num=v), "a"),
    (lambda P, v: P.shard_index(P.to_tensor([[1], [5]]), 20, 2, 0, ignore_value=v), 1.5),
    (lambda P, v: P.shard_index(P.to_tensor([[1], [5]]), 20, 2, 0, ignore_value=v), True),
    (lambda P, v: P.var(P.to_tensor(_X), correction=v), None), (lambda P, v: P.var(P.to_tensor(_X), correction=v), "a"),
    (lambda P, v: P.var(P.to_tensor(_X), correction=v), [1]),
])
def test_int_and_number_arguments(call, value):
    same_exception(lambda P: call(P, value))


@pytest.mark.parametrize("op", ["where", "vander", "std", "var", "trunc"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16"])
def test_no_small_int_kernel(op, dtype):
    calls = {"where": lambda P, x: P.where(x > 1, x, x), "vander": lambda P, x: P.vander(x[0])}
    call = calls.get(op, lambda P, x: getattr(P, op)(x))
    same_exception(lambda P: call(P, P.to_tensor(np.arange(6).reshape(2, 3).astype(dtype))))


def test_tensordot_axes_of_a_string():
    same_exception(lambda P: P.tensordot(P.ones([2, 2]), P.ones([2, 2]), "a"))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "bool"])
def test_static_tile_checks(dtype):
    def f(P):
        x = P.static.data("x", [-1, 4], dtype)
        x.stop_gradient = False    # a bool x must stop gradients in Paddle's static tile
        P.tile(x, [2, 2])
    same_static_exception(f)


def test_static_tile_records():
    xn = np.arange(8).reshape(2, 4).astype("int32")

    def f(P):
        x = P.static.data("x", [-1, 4], "int32")
        return P.static.Executor(P.CPUPlace()).run(feed={"x": xn}, fetch_list=[P.tile(x, [2, 2])])[0]
    ours, theirs = both_static(f, fresh_programs=True)
    np.testing.assert_array_equal(ours, theirs)
