"""Session-9 parity sweep of the random APIs against real Paddle 3.3.1: exact values after
``paddle.seed`` for unusual-but-legal argument forms, and the exception types for bad ones.

Each case seeds both frameworks, makes the call, then draws once more (``rand([3])``) so that a
wrong number of words taken from the stream also fails.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, paddle_ref, same_exception


def _seeded(call, seed=42):
    def fn(fw):
        fw.seed(seed)
        out = call(fw)
        return out, fw.rand([3])
    return fn


def _values(call, seed=42, **tol):
    ours, theirs = both(_seeded(call, seed))
    if "bfloat16" in str(theirs[0].dtype):
        assert "bfloat16" in str(ours[0].dtype)
        ours = (ours[0].astype("float32"), ours[1])
        theirs = (theirs[0].astype("float32"), theirs[1])
    assert_same(ours[0], theirs[0], **tol)
    assert_same(ours[1], theirs[1], what="the next draw")


# ---- Tensor.random_ on floating dtypes: bounds adjusted to the dtype ------------------------

@pytest.mark.parametrize("dtype,lo,hi", [
    ("float16", 0, 5000), ("float16", 5001, 6000), ("float16", -5001, 6000),
    ("bfloat16", 0, 2000), ("bfloat16", 0, 2048), ("bfloat16", 0, 70000),
    ("bfloat16", -3001, -1000), ("bfloat16", 1001, 3001),
    ("float32", 0, 16777220), ("float32", 16777219, 16777230), ("float16", 2047, 2050),
])
def test_random_float_bounds_follow_dtype(dtype, lo, hi):
    _values(lambda fw: fw.zeros([6], dtype=dtype).random_(lo, hi))


def test_random_float_bounds_collapse_raises():
    same_exception(lambda fw: fw.zeros([3], dtype="float16").random_(4097, 4100))


# ---- geometric_ with probs = 0 ----------------------------------------------------------------

@pytest.mark.parametrize("probs", [0.0, "tensor"])
def test_geometric_zero_probs(probs):
    def call(fw):
        p = fw.to_tensor([0.0, 0.5]) if probs == "tensor" else probs
        return fw.zeros([2, 2]).geometric_(p)
    _values(call)


# ---- normal_ with a complex mean ---------------------------------------------------------------

@pytest.mark.parametrize("dtype,mean", [("complex64", 1 + 1j), ("complex128", 2 + 2j)])
def test_normal_inplace_complex_mean(dtype, mean):
    _values(lambda fw: fw.zeros([3], dtype=dtype).normal_(mean, 3.0))


def test_normal_inplace_complex_mean_errors():
    same_exception(lambda fw: fw.zeros([3], dtype="complex64").normal_(1 + 2j))
    same_exception(lambda fw: fw.zeros([3]).normal_(1 + 1j))


# ---- int32 attributes: randint bounds, the seed of uniform / uniform_ ---------------------------

@pytest.mark.parametrize("call", [
    lambda fw: fw.randint(0, 2 ** 40, [4]),
    lambda fw: fw.randint(-2 ** 40, 0, [4]),
    lambda fw: fw.randint(2 ** 31, shape=[3]),
    lambda fw: fw.randint(0, 2 ** 33, [4], dtype="int32"),
    lambda fw: fw.randint_like(fw.zeros([2]), -2 ** 31 - 1, 0),
    lambda fw: fw.randint_like(fw.zeros([2]), 0, 2 ** 40),
    lambda fw: fw.uniform([3], seed=2 ** 31),
    lambda fw: fw.uniform([3], seed=-2 ** 31 - 1),
    lambda fw: fw.zeros([3]).uniform_(seed=2 ** 40),
])
def test_int32_attributes_out_of_range(call):
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda fw: fw.uniform([3], seed=1.5),
    lambda fw: fw.uniform([3], seed=True),
    lambda fw: fw.zeros([3]).uniform_(seed=1.5),
])
def test_seed_must_be_int(call):
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda fw: fw.randint(0, 2 ** 31 - 1, [3]),
    lambda fw: fw.randint(-2 ** 31, 0, [3]),
    lambda fw: fw.uniform([3], seed=2 ** 31 - 1),
    lambda fw: fw.uniform([3], seed=-2 ** 31),
    lambda fw: fw.uniform([3], seed=np.int64(3)),
    lambda fw: fw.zeros([3]).uniform_(seed=-7),
])
def test_int32_attributes_at_the_limits(call):
    _values(call)


# ---- multinomial: num_samples and rank ----------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda fw: fw.multinomial(fw.to_tensor([0.2, 0.3, 0.5]), 0),
    lambda fw: fw.multinomial(fw.to_tensor([0.2, 0.3, 0.5]), -1, True),
    lambda fw: fw.multinomial(fw.ones([2, 2, 3]), 2),
])
def test_multinomial_bad_arguments(call):
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda fw: fw.multinomial(fw.to_tensor([0.2, 0.3, 0.5]), fw.to_tensor(2)),
    lambda fw: fw.multinomial(fw.to_tensor([1.0, 2.0, 3.0], dtype="float64"), 5, True),
    lambda fw: fw.multinomial(fw.to_tensor([[0.2, 0.3, 0.5], [0.0, 0.0, 1.0]]), 2, True),
    lambda fw: fw.multinomial(fw.ones([1000]), 3),
])
def test_multinomial_argument_forms(call):
    _values(call)


# ---- a sample of argument forms already right, kept right ---------------------------------------

@pytest.mark.parametrize("call", [
    lambda fw: fw.normal(fw.to_tensor([[1.0], [2.0]]), fw.to_tensor([1.0, 2.0]).reshape([2, 1])),
    lambda fw: fw.normal(2 + 2j, fw.to_tensor([1.0, 2.0], dtype="float64")),
    lambda fw: fw.normal(fw.to_tensor([1 + 1j, 2 + 2j]), 1.0),
    lambda fw: fw.log_normal(1.0, fw.to_tensor([1.0, 2.0, 3.0], dtype="float64")),
    lambda fw: fw.randint_like(fw.zeros([2, 3], dtype="float16"), -3, 3),
    lambda fw: fw.randperm(10, "float64"),
    lambda fw: fw.zeros([3, 4], dtype="float64").geometric_(fw.full([3, 4], 0.3, dtype="float64")),
    lambda fw: fw.zeros([3, 4], dtype="float64").random_(),
    lambda fw: [fw.uniform([3], seed=7), fw.uniform([3], seed=7), fw.zeros([3]).uniform_(seed=7)],
    lambda fw: fw.nn.functional.dropout(fw.ones([2, 3, 4]), 0.3, axis=[2, 0]),
    lambda fw: fw.nn.functional.rrelu(-fw.ones([2, 3, 4], dtype="float16"), training=True),
])
def test_argument_forms_already_matching(call):
    ours, theirs = both(_seeded(call))
    assert_same(ours, theirs)


def test_reference_available():
    paddle_ref()


# ---- cauchy_ / log_normal_ on complex tensors (Paddle's composites) ------------------------------

@pytest.mark.parametrize("call", [
    lambda fw: fw.zeros([5], dtype="complex64").cauchy_(),
    lambda fw: fw.zeros([5], dtype="complex128").cauchy_(1, 2),
    lambda fw: fw.zeros([5], dtype="complex64").cauchy_(1 + 2j, 2),
    lambda fw: fw.zeros([5], dtype="complex64").cauchy_(fw.to_tensor(1.5), 2),
    lambda fw: fw.zeros([5]).cauchy_(fw.to_tensor(1.5), 2),
    lambda fw: fw.zeros([5], dtype="complex64").log_normal_(),
    lambda fw: fw.zeros([5], dtype="complex128").log_normal_(0.0, 0.5),
    lambda fw: fw.zeros([5], dtype="complex64").log_normal_(1 + 1j, 0.5),
])
def test_complex_cauchy_log_normal(call):
    _values(call, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("call", [
    lambda fw: fw.zeros([5], dtype="complex64").log_normal_(1 + 2j, 0.5),
    lambda fw: fw.zeros([5]).log_normal_(1 + 1j, 0.5),
    lambda fw: fw.zeros([5], dtype="int32").cauchy_(),
    lambda fw: fw.zeros([5], dtype="int32").log_normal_(),
])
def test_complex_cauchy_log_normal_errors(call):
    same_exception(call)


# ---- Tensor.random_(generator=...) is ignored by Paddle: the default stream is used ----------------

def test_random_generator_argument_ignored():
    def call(fw):
        g = fw.Generator()
        g.manual_seed(4)
        a = fw.zeros([4], dtype="int64").random_(0, 10, generator=g)
        return fw.concat([a.astype("float32"), fw.zeros([4]).random_(generator=g)])
    _values(call)


# ---- int arguments given as floats, empty / NaN weights, poisson of NaN ----------------------------

@pytest.mark.parametrize("call", [
    lambda fw: fw.randint(0.5, 3, [2]),
    lambda fw: fw.randint(0, 3.5, [2]),
    lambda fw: fw.randint(True, 3, [2]),
    lambda fw: fw.randint_like(fw.zeros([2]), 0.5),
    lambda fw: fw.randint_like(fw.zeros([2]), 1, 5.0),
    lambda fw: fw.randperm(5.0),
    lambda fw: fw.randperm(True),
    lambda fw: fw.multinomial(fw.to_tensor([np.nan, 1.0]), 1),
    lambda fw: fw.multinomial(fw.to_tensor([[0.5, 0.5], [np.nan, 1.0]]), 1, True),
])
def test_bad_numbers(call):
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda fw: fw.randint(np.int64(1), np.int32(9), [2]),
    lambda fw: fw.randperm(np.int64(5)),
    lambda fw: fw.multinomial(fw.rand([0, 3]), 1),
    lambda fw: fw.multinomial(fw.rand([0, 3]), 5),
    lambda fw: fw.multinomial(fw.rand([0, 3]), 5, True),
    lambda fw: fw.poisson(fw.to_tensor([np.nan, 2.0])),
    lambda fw: fw.poisson(fw.to_tensor([1.0, np.nan, 2.0], dtype="float64")),
])
def test_number_forms(call):
    _values(call)


# ---- number arguments given as tensors or strings ------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda fw: fw.uniform([3], min=fw.to_tensor([1.0, 2.0])),
    lambda fw: fw.uniform([3], max=fw.to_tensor([1.0, 2.0])),
    lambda fw: fw.zeros([3]).exponential_(fw.to_tensor([1.0, 2.0, 3.0])),
    lambda fw: fw.zeros([3]).uniform_(min=fw.to_tensor([1.0, 2.0, 3.0])),
    lambda fw: fw.zeros([3]).uniform_(max=fw.to_tensor([1.0, 2.0, 3.0])),
    lambda fw: fw.zeros([3]).normal_(fw.to_tensor([1.0, 2.0, 3.0])),
    lambda fw: fw.zeros([3]).normal_(0.0, fw.to_tensor([1.0, 2.0, 3.0])),
    lambda fw: fw.zeros([3]).log_normal_(fw.to_tensor([1.0, 2.0, 3.0])),
    lambda fw: fw.zeros([3]).exponential_("2"),
    lambda fw: fw.zeros([3]).uniform_("0", "1"),
])
def test_number_arguments_bad_forms(call):
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda fw: fw.uniform([3], min="0"),
    lambda fw: fw.zeros([3]).cauchy_(fw.to_tensor([1.0, 2.0, 3.0])),
    lambda fw: fw.zeros([3]).normal_(fw.to_tensor(1.0)),
    lambda fw: fw.zeros([3]).uniform_(min=fw.to_tensor(1.0), max=fw.to_tensor(3.0)),
    lambda fw: fw.zeros([3]).exponential_(fw.to_tensor(2.0)),
])
def test_number_arguments_good_forms(call):
    _values(call)
