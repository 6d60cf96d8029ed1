"""Session-15: cases from Paddle's legacy unit tests of the top-level APIs n..r (nan*, normal,
polygamma, ...) that pagaie answered differently from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception, same_static_exception


def _data(fw, dtype, shape=(3, 4), name="x"):
    return fw.static.data(name, list(shape), dtype)


@pytest.mark.parametrize("build", [
    lambda P: P.nanmedian(_data(P, "bool")),                          # no kernel: a build-time TypeError
    lambda P: P.normal(_data(P, "int32")),
    lambda P: P.normal(1.0, _data(P, "int64")),
    lambda P: P.nn.functional.avg_pool2d(_data(P, "int32", (1, 1, 4, 4)), 2),
    lambda P: P.nn.functional.relu6(_data(P, "int32")),
    lambda P: P.nanmean(_data(P, "int32")),                           # the static API's own check
    lambda P: P.normal(shape=_data(P, "float32", (2,))),
    lambda P: P.randint(0, 5, _data(P, "float32", (2,))),
    lambda P: P.prod(_data(P, "bool")),
    lambda P: P.max(_data(P, "bool")),
    lambda P: P.nansum(_data(P, "bool")),
    lambda P: P.real(_data(P, "float32")),                           # a CPU kernel list, checked at build
    lambda P: P.renorm(_data(P, "int32"), 2, 0, 1.0),
    lambda P: P.poisson(_data(P, "int32")),
    lambda P: P.randint(5, dtype="float32"),                          # creation dtypes without a kernel
    lambda P: P.randperm(10, "int8"),
    lambda P: P.pdist(_data(P, "int32")),
    lambda P: P.nansum(_data(P, "int8")),
])
def test_static_dtype_refusals_are_type_errors(build):
    same_static_exception(build)


def test_eager_calls_keep_their_dtype_rules():
    both_same(lambda P: P.nanmean(P.to_tensor([1, 2, 4])))
    both_same(lambda P: P.normal(shape=P.to_tensor([2.0, 3.0])).shape)
    same_exception(lambda P: P.nanmedian(P.to_tensor([True, False])))


@pytest.mark.parametrize("kwargs", [{}, {"shape": [2]}])
def test_normal_checks_a_complex_mean_before_the_shape(kwargs):
    assert same_exception(lambda P: P.normal(2 + 0.5j, **kwargs)).__class__ is ValueError


@pytest.mark.parametrize("n", [1.0, True, -1.0, 2.5])
def test_polygamma_order_of_another_type_is_a_type_error(n):
    same_exception(lambda P: P.polygamma(P.to_tensor([1.0, 2.0]), n))


def test_polygamma_order_false_is_digamma():
    both_same(lambda P: P.polygamma(P.to_tensor([1.0, 2.5]), False))
    same_exception(lambda P: P.polygamma(P.to_tensor([1.0, 2.0]), -2))


def test_renorm_of_an_integer_tensor_has_no_kernel():
    same_exception(lambda P: P.renorm(P.to_tensor([[1, 2], [3, 4]]), 2, 0, 1.0))


@pytest.mark.parametrize("kw", [{}, {"keepdim": True}])
def test_prod_over_an_empty_axis_tensor_reduces_nothing(kw):
    def f(P):
        x = P.to_tensor(np.arange(1, 7, dtype="float32").reshape(2, 3), stop_gradient=False)
        r = P.prod(x, P.zeros([0], "int32"), **kw)
        (r * 2).sum().backward()
        return r, x.grad, P.prod(x, P.zeros([0], "int64"), dtype="int64")
    both_same(f)


@pytest.mark.parametrize("build", [
    lambda P: P.randint(5, shape=np.array([2])),
    lambda P: P.normal(shape=np.array([2])),
    lambda P: P.uniform(shape=np.array([2])),
    lambda P: P.rand(np.array([2, 3])),
    lambda P: P.zeros(np.array([2])),
    lambda P: P.ones(np.int64(3)),
    lambda P: P.full(np.array([2]), 1.0),
])
def test_static_shape_refuses_numpy_arrays(build):
    same_static_exception(build)


def test_static_shape_arrays_where_paddle_takes_them():
    from tests.reference import both_static
    ours, theirs = both_static(lambda P: [P.randn(np.array([2])).shape, P.empty(np.array([3])).shape],
                               fresh_programs=True)
    assert list(map(list, ours)) == list(map(list, theirs))
    both_same(lambda P: P.randint(5, shape=np.array([2, 3])).shape)   # eagerly an array is a shape


def test_static_repeat_interleave_counts_along_an_unknown_axis():
    from tests.reference import both_static

    def build(P):
        x = P.static.data("x", [-1, 4], "float32")
        reps = P.static.data("r", [3], "int32")
        out = P.repeat_interleave(x, reps, axis=0)
        exe = P.static.Executor(P.CPUPlace())
        feed = {"x": np.arange(12, dtype="float32").reshape(3, 4), "r": np.array([1, 2, 0], "int32")}
        return exe.run(feed=feed, fetch_list=[out])[0]

    ours, theirs = both_static(build, fresh_programs=True)
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("p, axis, max_norm", [(1.0, 2, 2.05), (2.0, 0, 1.0), (3.0, -1, 0.7), (1.5, 1, 100.0)])
def test_renorm_values_and_gradients_follow_paddles_kernel(p, axis, max_norm):
    data = np.array([[[2.0, 2, -2], [3, 0.3, 3]], [[2, -8, 2], [3.1, 3.7, 0]]])

    def f(P):
        x = P.to_tensor(data, stop_gradient=False)
        y = P.renorm(x, p, axis, max_norm)
        P.mean(y * P.to_tensor(np.arange(12.0).reshape(2, 2, 3))).backward()
        return y, x.grad, P.renorm(P.to_tensor(data[0, 0].astype("float32")), p, 0, 1.5)
    both_same(f, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda P, x: P.sum(x, 1, True),
    lambda P, x: x.sum(-1, True),
    lambda P, x: P.sum(x, [0, 2], False),
    lambda P, x: P.sum(x.astype("int32"), 1, True, "float64"),     # then the fourth is the dtype
    lambda P, x: P.sum(x, axis=1, dtype=True),
    lambda P, x: P.sum(x, 1, "float64", True),
])
def test_sum_reads_a_bool_dtype_as_keepdim(call):
    both_same(lambda P: call(P, P.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4))))


def test_rank_of_a_numpy_array():
    both_same(lambda P: P.rank(np.ones([2, 3, 1])))
    same_exception(lambda P: P.rank([1, 2]))
