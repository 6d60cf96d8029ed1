"""Math, reduction, statistics and logic ops: errors, in-place variants, methods, operators and
edge cases, each compared with real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception


def _grad(fw, fn, values, dtype="float32"):
    x = fw.to_tensor(np.asarray(values, dtype=dtype), stop_gradient=False)
    y = fn(fw, x)
    (g,) = fw.grad([y.sum()], [x])
    return y, g


@pytest.mark.parametrize("fn,values", [
    (lambda fw, x: fw.max(x), [1.0, 3.0, 3.0, 2.0]),
    (lambda fw, x: fw.amin(x, axis=1), [[1.0, 1.0, 3.0], [2.0, 0.0, 0.0]]),
    (lambda fw, x: fw.abs(x), [0.0, -1.0, 2.0]),
    (lambda fw, x: fw.clip(x, -1.0, 1.0), [-1.0, 1.0, 0.5, 2.0, -2.0]),
    (lambda fw, x: fw.median(x), [1.0, 4.0, 2.0, 3.0]),
    (lambda fw, x: fw.median(x), [1.0, 2.0, 2.0, 2.0]),
    (lambda fw, x: fw.median(x, axis=1), [[1.0, 4.0, 2.0, 3.0], [5.0, 6.0, 7.0, 8.0]]),
    (lambda fw, x: fw.nanmedian(x), [1.0, float("nan"), 2.0, 3.0, 4.0]),
    (lambda fw, x: fw.quantile(x, [0.25, 0.5]), [1.0, 3.0, 2.0, 4.0]),
    (lambda fw, x: fw.fmax(x, fw.to_tensor([1.0, 1.0, 1.0])), [0.4, 1.0, 2.0]),
    (lambda fw, x: fw.heaviside(x, fw.to_tensor([0.5, 0.5])), [0.0, 1.0]),
    (lambda fw, x: fw.nan_to_num(x), [float("nan"), 1.0, float("inf")]),
    (lambda fw, x: fw.nansum(x), [1.0, float("nan"), 2.0]),
    (lambda fw, x: fw.cummax(x)[0], [1.0, 3.0, 2.0, 3.0]),
])
def test_gradients_at_special_points(fn, values):
    (ya, ga), (yb, gb) = both(lambda fw: _grad(fw, fn, values))
    assert_same(ya, yb)
    assert_same(ga, gb)


@pytest.mark.parametrize("dtype", ["int32", "int64", "bool", "float32"])
def test_reduction_dtypes(dtype):
    data = np.array([[1, 0, 3], [2, 2, 0]]).astype(dtype)
    for api in ("sum", "mean", "all", "any", "count_nonzero"):
        ours, theirs = both(lambda fw: getattr(fw, api)(fw.to_tensor(data)))
        assert_same(ours, theirs, what=f"{api}[{dtype}]")


def test_full_reductions_are_0d():
    ours, theirs = both(lambda fw: [fw.sum(fw.ones([2, 3])), fw.max(fw.ones([2, 3])),
                                    fw.logsumexp(fw.ones([2, 3])), fw.std(fw.ones([2, 3]))])
    assert_same(ours, theirs)
    assert ours[0].shape == []


def test_integer_mean_var_std_follow_paddle():
    data = np.array([[-3, 4, 1, 7], [2, -5, 0, 3]], dtype="int32")
    for fn in (lambda fw: fw.mean(fw.to_tensor(data), axis=1),
               lambda fw: fw.var(fw.to_tensor(data)),
               lambda fw: fw.std(fw.to_tensor(data), axis=0),
               lambda fw: fw.median(fw.to_tensor(data))):
        assert_same(*both(fn))


@pytest.mark.parametrize("make", [
    lambda fw: fw.sum(fw.ones([2, 3]), axis=3),
    lambda fw: fw.sum(fw.ones([2, 3]), axis=[1, 1]),
    lambda fw: fw.max(fw.ones([0, 3])),
    lambda fw: fw.clip(fw.ones([2]), 2.0, 1.0),
    lambda fw: fw.increment(fw.ones([3])),
    lambda fw: fw.equal(fw.ones([3]), fw.ones([2])),
    lambda fw: fw.quantile(fw.ones([3]), 1.5),
    lambda fw: fw.trapezoid(fw.ones([3]), x=fw.ones([3]), dx=1.0),
    lambda fw: fw.bitwise_and(fw.ones([2], dtype="int32"), fw.ones([2], dtype="int64")),
    lambda fw: fw.equal_all(fw.ones([2], dtype="int32"), fw.ones([2], dtype="int64")),
    lambda fw: fw.isclose(fw.ones([2]), fw.ones([2], dtype="float64")),
    lambda fw: fw.lerp(fw.ones([2]), fw.ones([2], dtype="float64"), 0.5),
    lambda fw: fw.add_n([fw.ones([2]), fw.ones([2], dtype="float64")]),
    lambda fw: fw.median(fw.ones([2, 2]), axis=[0, 1]),
])
def test_value_errors(make):
    assert same_exception(make)


@pytest.mark.parametrize("make", [
    lambda fw: fw.equal(fw.ones([2], dtype="int32"), fw.ones([2], dtype="int64")),
    lambda fw: fw.ones([2], dtype="int64") < fw.ones([2]),
    lambda fw: fw.logical_or(fw.ones([2], dtype="int64"), fw.ones([2], dtype="bool")),
    lambda fw: fw.maximum(fw.ones([2], dtype="int32"), fw.ones([2])),
    lambda fw: fw.sgn(fw.ones([2], dtype="int32")),
    lambda fw: fw.frexp(fw.ones([2], dtype="int32")),
    lambda fw: fw.linalg.cov(fw.ones([2, 3], dtype="int64")),
    lambda fw: fw.isin(fw.ones([2], dtype="int32"), fw.ones([2])),
])
def test_type_errors(make):
    assert same_exception(make)


def test_inplace_variants():
    def run(fw):
        x = fw.to_tensor([0.25, 0.5, 4.0])
        outs = []
        for name, args in (("sqrt_", ()), ("exp_", ()), ("scale_", (2.0, 1.0)), ("clip_", (0.0, 3.0)),
                           ("round_", ()), ("reciprocal_", ())):
            y = x.clone()
            r = getattr(y, name)(*args)
            outs.append(y)
            assert r is y
        y = fw.to_tensor([1.0, 2.0])
        r = fw.equal_(y, fw.to_tensor([1.0, 3.0]))
        outs.append(y)
        z = fw.to_tensor([True, False])
        z.logical_xor_(fw.to_tensor([True, True]))
        outs.append(z)
        c = fw.to_tensor([1.0, 2.0, 3.0])
        fw.cumsum_(c, 0)
        outs.append(c)
        return outs
    assert_same(*both(run))


def test_out_argument():
    def run(fw):
        out = fw.zeros([1])
        r = fw.exp(fw.to_tensor([0.0, 1.0]), out=out)
        s = fw.zeros([1])
        fw.sum(fw.ones([2, 3]), axis=0, out=s)
        return [out, r, s]
    assert_same(*both(run))


def test_operators():
    def run(fw):
        i = fw.to_tensor([1, 2, 3])
        b = fw.to_tensor([True, False, True])
        f = fw.to_tensor([1.0, -2.0, 3.5])
        return [i == 2, i != 2, i < 2.5, 2 < i, i >= 1.5, ~i, ~b, -f, +f, abs(f), i << 1, i >> 1,
                b & fw.to_tensor([True, True, False]), b | b, i ^ i, 2 << i, i ** 2.5, 2.5 ** i]
    assert_same(*both(run))


def test_eq_with_non_tensor_and_hash():
    x = pagaie.to_tensor([1.0])
    assert (x == None) is False  # noqa: E711
    assert (x != None) is True  # noqa: E711
    assert {x: 1}[x] == 1


def test_scale_and_clip_dtypes():
    def run(fw):
        i = fw.to_tensor([1, -2, 3], dtype="int32")
        return [fw.scale(i, 2.5, 0.5), fw.clip(i, -1, 1), fw.clip(i, -1.5, 1.5),
                fw.scale(fw.to_tensor([1.0, 2.0]), fw.to_tensor(3.0), act="relu"),
                fw.pow(i, 2.5), fw.atan2(i, i), fw.hypot(i, i)]
    assert_same(*both(run))


def test_median_min_and_quantile_shapes():
    def run(fw):
        x = fw.to_tensor([[1.0, 4.0, 2.0, 3.0], [5.0, 6.0, 8.0, 7.0]])
        v, idx = fw.median(x, axis=1, mode="min", keepdim=True)
        return [v, idx, fw.median(x, mode="min"), fw.quantile(x, [0.2, 0.5], axis=1, keepdim=True),
                fw.quantile(x, fw.to_tensor([0.3, 0.6]), axis=[0, 1]),
                fw.nanquantile(x, 0.5, axis=0, interpolation="higher")]
    assert_same(*both(run))


def test_misc_values():
    def run(fw):
        f = fw.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        return [fw.add_n(f), fw.increment(fw.to_tensor([1], dtype="int32"), 2.5),
                fw.cumsum(fw.to_tensor(3.0)), fw.cummin(f, dtype="int32"),
                fw.histogram(fw.to_tensor([1, 2, 5, 7]), bins=3, min=1, max=8),
                fw.bincount(fw.to_tensor([1, 1, 3], dtype="int32"), minlength=6),
                fw.softmax(fw.ones([2, 3, 4])), fw.diff(fw.to_tensor([True, False, False])),
                fw.logit(fw.to_tensor([0.1, 0.5, 0.9]), 0.2), fw.copysign(f, -1.0),
                fw.bitwise_right_shift(fw.to_tensor([-8, -1]), fw.to_tensor([1, 60]), False)]
    assert_same(*both(run))
