"""Differences from Paddle 3.3.1 found in its tests of the tensor APIs s to z, Tensor
methods and indexing; each pinned against real Paddle."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import (assert_same, both, both_same, both_static, same_exception,
                             same_static_exception)

_A = np.arange(24, dtype="float32").reshape(2, 3, 4)


# --- paddle.static.setitem ------------------------------------------------------------------------
def test_static_setitem_eager_writes_and_returns_x():
    def run(P):
        x = P.to_tensor(_A)
        y = P.static.setitem(x, (0, slice(None), 1), 5.0)
        return y is x, x
    ours, theirs = both(run)
    assert ours[0] and theirs[0]
    assert_same(ours[1], theirs[1])


def test_static_setitem_in_program():
    def run(P):
        x = P.static.data("x", [2, 3, 4], "float32")
        v = P.static.data("v", [4], "float32")
        y = P.static.setitem(x, ([1, 0], [0, 2]), v)
        exe = P.static.Executor(P.CPUPlace())
        return exe.run(feed={"x": _A, "v": np.arange(4, dtype="float32") + 100},
                       fetch_list=[y])[0]
    ours, theirs = both_static(run, fresh_programs=True)
    np.testing.assert_array_equal(ours, theirs)


# --- searchsorted: both tensors go through Paddle's argument parser -------------------------------
def test_searchsorted_non_tensor_arguments():
    seq = lambda P: P.to_tensor([1, 3, 5])  # noqa: E731
    for bad in (3, [3], None, np.array([3])):
        same_exception(lambda P: P.searchsorted(seq(P), bad))
        same_exception(lambda P: P.searchsorted(bad, seq(P)))
        same_exception(lambda P: P.bucketize(bad, seq(P)))


# --- APIs Paddle runs only in dynamic mode ------------------------------------------------------
_DYGRAPH_ONLY = {
    "view": lambda P, x: x.view([3, 2]),
    "view_dtype": lambda P, x: P.view(x, "int32"),
    "view_as": lambda P, x: P.view_as(x, x),
    "as_strided": lambda P, x: x.as_strided([2], [1]),
    "unfold": lambda P, x: P.unfold(x, 0, 1, 1),
    "unfold_method": lambda P, x: x.unfold(1, 2, 1),
    "uniform_": lambda P, x: x.uniform_(),
    "normal_": lambda P, x: x.normal_(),
    "log_normal_": lambda P, x: x.log_normal_(),
    "bernoulli_": lambda P, x: x.bernoulli_(),
    "cauchy_": lambda P, x: x.cauchy_(),
    "geometric_": lambda P, x: x.geometric_(0.5),
    "tolist": lambda P, x: P.tolist(x),
}


@pytest.mark.parametrize("api", sorted(_DYGRAPH_ONLY))
def test_static_dygraph_only_apis_raise(api):
    err = same_static_exception(lambda P: _DYGRAPH_ONLY[api](P, P.static.data("x", [2, 3], "float32")))
    assert isinstance(err, AssertionError)


def test_dygraph_only_apis_record_under_to_static():
    import pagaie

    @pagaie.jit.to_static(full_graph=True)
    def f(x):
        return x.view([3, 2]).unfold(0, 2, 1) + pagaie.as_strided(x, [2], [1]).sum()

    x = np.arange(6, dtype="float32")
    want = np.lib.stride_tricks.sliding_window_view(x.reshape(3, 2), 2, axis=0) + 1
    np.testing.assert_array_equal(f(pagaie.to_tensor(x)).numpy(), want)


# --- a Python number where the parser wants a Tensor, while a program is built --------------------
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "greater_than", "less_equal"])
def test_static_number_operand_of_a_tensor_only_argument(op):
    def f(P):
        x = P.static.data("x", [2, 3], "float32")
        getattr(P, op)(x, 1.5)
    assert isinstance(same_static_exception(f), TypeError)


def test_static_operators_still_take_numbers():
    def run(P):
        x = P.static.data("x", [2], "float32")
        outs = [x + 1.5, 2 - x, x * 2, x / 4, x > 1, x <= 2]
        feed = {"x": np.array([1.0, 3.0], "float32")}
        return P.static.Executor(P.CPUPlace()).run(feed=feed, fetch_list=outs)
    ours, theirs = both_static(run, fresh_programs=True)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


def test_static_value_place_is_none():
    def run(P):
        return [P.static.data("x", [2], "float32").place, P.ones([2]).place]
    ours, theirs = both_static(run, fresh_programs=True)
    assert ours == theirs == [None, None]


@pytest.mark.parametrize("call", [lambda x: x.register_hook(lambda g: g), lambda x: x.clear_gradient()])
def test_static_value_hooks_and_gradient_clearing_raise(call):
    def f(P):
        x = P.static.data("x", [2], "float32")
        x.stop_gradient = False
        call(x)
    assert isinstance(same_static_exception(f), AssertionError)


# --- CPU kernels Paddle does not register for a dtype ----------------------------------------------
@pytest.mark.parametrize("op,dtype", [
    ("sin", "float16"), ("sinh", "bfloat16"), ("sqrt", "float16"), ("tan", "bfloat16"),
    ("tanh", "float16"), ("sign", "bfloat16"), ("sgn", "float16"), ("square", "int8"),
    ("square", "uint8"), ("square", "float16"), ("stanh", "float16"), ("trunc", "bfloat16"),
    ("sin_", "float16"), ("square_", "int16")])
def test_no_cpu_kernel_for_the_dtype(op, dtype):
    def f(P):
        x = P.to_tensor([[1, 2]]).astype(dtype)
        return getattr(x, op)() if op.endswith("_") else getattr(P, op)(x)
    assert isinstance(same_exception(f), RuntimeError)


@pytest.mark.parametrize("op", ["sin", "sqrt", "square", "tanh", "stanh", "trunc", "sign"])
def test_cpu_kernels_still_computed(op):
    both_same(lambda P: getattr(P, op)(P.to_tensor([[1.5, 2.0]], dtype="float32")))


@pytest.mark.parametrize("dtype", ["uint8", "int8"])
def test_subtract_has_no_cpu_kernel_for_the_dtype(dtype):
    x = lambda P: P.to_tensor([[1, 2]]).astype(dtype)  # noqa: E731
    for f in (lambda P: P.subtract(x(P), x(P)), lambda P: x(P) - x(P), lambda P: x(P).subtract_(x(P))):
        assert isinstance(same_exception(f), RuntimeError)
    both_same(lambda P: x(P) - 1)   # a number operand is Paddle's scale kernel


@pytest.mark.parametrize("call,dtype", [
    (lambda P, x: P.split(x, 2, 1), "int16"), (lambda P, x: P.split(x, 2, 1), "complex64"),
    (lambda P, x: P.chunk(x, 2, 1), "int16"), (lambda P, x: P.tile(x, [1, 2]), "bfloat16"),
    (lambda P, x: P.var(x), "float16"), (lambda P, x: P.std(x, 1), "bfloat16"),
    (lambda P, x: P.vander(x[0]), "float16"), (lambda P, x: x.tril_(), "int8"),
    (lambda P, x: x.triu_(), "bfloat16")])
def test_more_kernels_missing_on_the_cpu(call, dtype):
    assert isinstance(same_exception(lambda P: call(P, P.to_tensor([[1, 2]]).astype(dtype))),
                      RuntimeError)


def test_split_into_sections_still_takes_int16():
    both_same(lambda P: P.split(P.to_tensor([[1, 2]]).astype("int16"), [1, -1], 1))


@pytest.mark.parametrize("dtype", ["int8", "float16", "bfloat16", "bool", "complex64"])
def test_scatter_reduce_has_no_cpu_kernel_for_the_dtype(dtype):
    def f(P):
        x = P.to_tensor([[1, 2]]).astype(dtype)
        return P.scatter_reduce(x, 1, P.to_tensor([[0, 1]]), x, "sum")
    assert isinstance(same_exception(f), RuntimeError)


def test_trapezoid_of_float16_has_no_cpu_kernel():
    assert isinstance(same_exception(lambda P: P.trapezoid(P.to_tensor([1.0, 2.0]).astype("float16"))),
                      RuntimeError)
    both_same(lambda P: P.cumulative_trapezoid(P.to_tensor([1.0, 2.0, 4.0])))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_where_of_half_tensors_has_no_cpu_kernel(dtype):
    c = lambda P: P.to_tensor([[True, False]])  # noqa: E731
    x = lambda P: P.to_tensor([[1, 2]]).astype(dtype)  # noqa: E731
    assert isinstance(same_exception(lambda P: P.where(c(P), x(P), x(P))), RuntimeError)
    if dtype == "float16":   # a number operand promotes to float32 first
        both_same(lambda P: P.where(c(P), x(P), 0.5))
