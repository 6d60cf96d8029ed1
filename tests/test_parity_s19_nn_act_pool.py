"""Session-19 sweep: the CPU dtype sets of the ``nn.functional`` activations (eagerly and while a
program is built), glu's argument-check order, swiglu's dtypes, and the pooling, shuffle and
resampling ops' dtype and argument checks, against real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception, same_static_exception

_A = np.array([-1.5, 0.0, 2.0, 3.0])

_ACTS = {
    "celu": lambda F, x: F.celu(x), "elu": lambda F, x: F.elu(x), "gelu": lambda F, x: F.gelu(x),
    "glu": lambda F, x: F.glu(x), "hardshrink": lambda F, x: F.hardshrink(x),
    "hardsigmoid": lambda F, x: F.hardsigmoid(x), "hardswish": lambda F, x: F.hardswish(x),
    "hardtanh": lambda F, x: F.hardtanh(x), "leaky_relu": lambda F, x: F.leaky_relu(x),
    "leaky_relu_": lambda F, x: F.leaky_relu_(x), "log_sigmoid": lambda F, x: F.log_sigmoid(x),
    "log_softmax": lambda F, x: F.log_softmax(x), "mish": lambda F, x: F.mish(x),
    "maxout": lambda F, x: F.maxout(x.reshape([1, 4, 1, 1]), 2), "relu": lambda F, x: F.relu(x),
    "relu6": lambda F, x: F.relu6(x), "rrelu": lambda F, x: F.rrelu(x, training=False),
    "selu": lambda F, x: F.selu(x), "silu": lambda F, x: F.silu(x), "softmax": lambda F, x: F.softmax(x),
    "softplus": lambda F, x: F.softplus(x), "softshrink": lambda F, x: F.softshrink(x),
    "softsign": lambda F, x: F.softsign(x), "swish": lambda F, x: F.swish(x),
    "swiglu": lambda F, x: F.swiglu(x), "swiglu_xy": lambda F, x: F.swiglu(x, x),
    "tanhshrink": lambda F, x: F.tanhshrink(x), "thresholded_relu": lambda F, x: F.thresholded_relu(x),
    "thresholded_relu_": lambda F, x: F.thresholded_relu_(x), "hardtanh_": lambda F, x: F.hardtanh_(x),
    "elu_": lambda F, x: F.elu_(x), "relu_": lambda F, x: F.relu_(x),
    "gumbel_softmax": lambda F, x: F.gumbel_softmax(x),
}


def _outcome(fn):
    try:
        r = fn()
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__
    return str(r.dtype).split(".")[-1]


@pytest.mark.parametrize("op", sorted(_ACTS))
def test_activation_cpu_dtypes(op):
    # Paddle's CPU kernels: float32/float64 (complex for a few, float16 for rrelu); float16 and
    # bfloat16 are its NotFound (RuntimeError) like the integers
    def outcomes(P):
        return [_outcome(lambda: _ACTS[op](P.nn.functional, P.to_tensor(_A).astype(d)))
                for d in ("int32", "float16", "bfloat16", "float32", "complex64")]
    ours, theirs = both(outcomes)
    assert ours == theirs


@pytest.mark.parametrize("op", ["relu", "gelu", "hardsigmoid", "silu", "glu", "swiglu", "rrelu",
                                "softplus", "tanhshrink"])
def test_activation_program_dtypes(op):
    # while a CPU program is built: float16 is a TypeError, bfloat16 too except for the ops
    # with oneDNN bfloat16 kernels
    def outcomes(P):
        res = []
        for d in ("int64", "float16", "bfloat16"):
            P.enable_static()
            try:
                with P.static.program_guard(P.static.Program(), P.static.Program()):
                    res.append(_outcome(lambda: _ACTS[op](P.nn.functional, P.static.data("x", [4], d))))
            finally:
                P.disable_static()
        return [r if r.endswith("Error") else "built" for r in res]
    ours, theirs = both(outcomes)
    assert ours == theirs


@pytest.mark.parametrize("dt", ["bool", "int16", "int32", "float16", "complex64"])
@pytest.mark.parametrize("shape,axis", [([2, 3], -1), ([2, 4], 1.0), ([2, 4], 1.5), ([2, 4], 2),
                                        ([2, 3], 0.0)])
def test_glu_check_order(dt, shape, axis):
    same_exception(lambda P: P.nn.functional.glu(P.ones(shape).astype(dt), axis))


@pytest.mark.parametrize("dx,dy", [("float32", "float64"), ("float32", "int32"), ("int32", "float32")])
def test_swiglu_mixed_dtypes(dx, dy):
    # the kernel is chosen by y's dtype; then x of another dtype is an InvalidArgument
    same_exception(lambda P: P.nn.functional.swiglu(P.ones([4], dx), P.ones([4], dy)))


def test_swiglu_int_in_program():
    same_static_exception(lambda P: P.nn.functional.swiglu(P.static.data("x", [4], "int32")))
    same_static_exception(lambda P: P.nn.functional.swiglu(P.static.data("x", [4], "float32"),
                                                           P.static.data("y", [4], "int64")))
    assert_same(*both(lambda P: P.nn.functional.swiglu(P.to_tensor(_A), P.to_tensor(_A))))


_POOLS = {
    "avg_pool1d": ([1, 2, 4], lambda F, x: F.avg_pool1d(x, 2)),
    "avg_pool2d": ([1, 2, 4, 4], lambda F, x: F.avg_pool2d(x, 2)),
    "avg_pool3d": ([1, 2, 4, 4, 4], lambda F, x: F.avg_pool3d(x, 2)),
    "max_pool1d": ([1, 2, 4], lambda F, x: F.max_pool1d(x, 2)),
    "max_pool2d": ([1, 2, 4, 4], lambda F, x: F.max_pool2d(x, 2, ceil_mode=True)),
    "max_pool3d": ([1, 2, 4, 4, 4], lambda F, x: F.max_pool3d(x, 2)),
    "max_pool2d_mask": ([1, 2, 4, 4], lambda F, x: F.max_pool2d(x, 2, return_mask=True)[0]),
    "max_pool3d_mask": ([1, 2, 4, 4, 4], lambda F, x: F.max_pool3d(x, 2, return_mask=True)[0]),
    "adaptive_avg_pool1d": ([1, 2, 4], lambda F, x: F.adaptive_avg_pool1d(x, 2)),
    "adaptive_avg_pool3d": ([1, 2, 4, 4, 4], lambda F, x: F.adaptive_avg_pool3d(x, 2)),
    "adaptive_max_pool1d": ([1, 2, 4], lambda F, x: F.adaptive_max_pool1d(x, 2)),
    "adaptive_max_pool2d": ([1, 2, 4, 4], lambda F, x: F.adaptive_max_pool2d(x, 2, return_mask=True)[0]),
    "lp_pool1d": ([1, 2, 4], lambda F, x: F.lp_pool1d(x, 2, 2)),
    "lp_pool2d": ([1, 2, 4, 4], lambda F, x: F.lp_pool2d(x, float("inf"), 2)),
    "fractional_max_pool2d": ([1, 2, 4, 4], lambda F, x: F.fractional_max_pool2d(x, 2, random_u=0.3)),
    "max_unpool2d": ([1, 2, 4, 4], lambda F, x: F.max_unpool2d(x, x.astype("int32") * 0, 2)),
    "channel_shuffle": ([1, 4, 2, 2], lambda F, x: F.channel_shuffle(x, 2)),
    "pixel_shuffle": ([1, 4, 2, 2], lambda F, x: F.pixel_shuffle(x, 2)),
    "pixel_unshuffle": ([1, 1, 4, 4], lambda F, x: F.pixel_unshuffle(x, 2)),
}


@pytest.mark.parametrize("op", sorted(_POOLS))
def test_pool_shuffle_cpu_dtypes(op):
    # Paddle's CPU pools take float16 except the indexed (return_mask), adaptive max and lp
    # ones; the shuffles take float32/float64 only; bfloat16 nowhere
    shape, fn = _POOLS[op]
    a = np.arange(int(np.prod(shape))).reshape(shape) % 7 - 3.0

    def outcomes(P):
        return [_outcome(lambda: fn(P.nn.functional, P.to_tensor(a).astype(d)))
                for d in ("int64", "float16", "bfloat16", "float32")]
    ours, theirs = both(outcomes)
    assert ours == theirs


@pytest.mark.parametrize("op", ["avg_pool2d", "avg_pool3d", "max_pool2d", "max_pool2d_mask",
                                "adaptive_max_pool1d", "lp_pool2d", "max_unpool2d", "pixel_shuffle"])
def test_pool_shuffle_program_dtypes(op):
    # while a CPU program is built: bfloat16 only for the oneDNN 2-D pools, float16 not for the
    # float32/float64-only kernels
    shape, fn = _POOLS[op]

    def outcomes(P):
        res = []
        for d in ("float16", "bfloat16", "int64"):
            P.enable_static()
            try:
                with P.static.program_guard(P.static.Program(), P.static.Program()):
                    res.append(_outcome(lambda: fn(P.nn.functional, P.static.data("x", shape, d))))
            finally:
                P.disable_static()
        return [r if r.endswith("Error") else "built" for r in res]
    ours, theirs = both(outcomes)
    assert ours == theirs


@pytest.mark.parametrize("op", ["channel_shuffle", "pixel_shuffle", "pixel_unshuffle"])
@pytest.mark.parametrize("shape", [[1, 4, 4, 4], [1, 4, 4]])
@pytest.mark.parametrize("dt", ["float32", "int32"])
@pytest.mark.parametrize("factor", [2.0, 0, True, 3])
@pytest.mark.parametrize("fmt", ["NCHW", "NCL"])
def test_shuffle_check_order(op, shape, dt, factor, fmt):
    # Paddle's order differs per op (rank, a float factor, data_format, the sign, a bool
    # factor from its argument parser, the kernel's dtype, divisibility)
    same_exception(lambda P: getattr(P.nn.functional, op)(P.ones(shape, dt), factor, fmt))


@pytest.mark.parametrize("nd", [3, 4, 5])
def test_interpolate_area_dtypes(nd):
    # area mode is Paddle's adaptive average pool: float16 runs on the CPU, bfloat16 does not
    def outcomes(P):
        return [_outcome(lambda: P.nn.functional.interpolate(
            P.ones([1, 1] + [4] * (nd - 2)).astype(d), size=[8] * (nd - 2), mode="area"))
            for d in ("uint8", "float16", "bfloat16", "float64")]
    ours, theirs = both(outcomes)
    assert ours == theirs


@pytest.mark.parametrize("case", ["max1_k", "max2_k", "max2_k_list", "max2_s", "max1_s", "lp1_k",
                                  "lp2_k", "frac2_k", "unpool2_k", "max1_mask_k", "max3_k"])
def test_pool_string_window(case):
    # Paddle reads a string window as a sequence of characters: too short for 2-D/3-D
    # (ValueError), not a list of ints for 1-D (TypeError); a string in a list is a TypeError
    def f(P):
        F = P.nn.functional
        x1, x2, x3 = P.ones([1, 2, 6]), P.ones([1, 2, 6, 6]), P.ones([1, 2, 4, 4, 4])
        return {"max1_k": lambda: F.max_pool1d(x1, "2"), "max2_k": lambda: F.max_pool2d(x2, "2"),
                "max2_k_list": lambda: F.max_pool2d(x2, ["2", 2]),
                "max2_s": lambda: F.max_pool2d(x2, 2, "2"), "max1_s": lambda: F.max_pool1d(x1, 2, "2"),
                "lp1_k": lambda: F.lp_pool1d(x1, 2, "2"), "lp2_k": lambda: F.lp_pool2d(x2, 2, "2"),
                "frac2_k": lambda: F.fractional_max_pool2d(x2, 2, "2"),
                "unpool2_k": lambda: F.max_unpool2d(x2, P.zeros([1, 2, 6, 6], "int32"), "2"),
                "max1_mask_k": lambda: F.max_pool1d(x1, "2", return_mask=True),
                "max3_k": lambda: F.max_pool3d(x3, "2")}[case]()
    same_exception(f)


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("exclusive", [1, 1.0, "a", None])
def test_avg_pool_exclusive_must_be_bool(n, exclusive):
    def f(P):
        return getattr(P.nn.functional, f"avg_pool{n}d")(P.ones([1, 1] + [4] * n), 2, exclusive=exclusive)
    if exclusive is None:   # read as False
        assert_same(*both(f))
    else:
        same_exception(f)


@pytest.mark.parametrize("case", ["aavg1", "aavg2", "aavg3", "amax1", "amax2", "area"])
def test_adaptive_pool_negative_size(case):
    # a negative output size fails when Paddle allocates the result: RuntimeError
    def f(P):
        F = P.nn.functional
        x1, x2, x3 = P.ones([1, 2, 6]), P.ones([1, 2, 6, 6]), P.ones([1, 2, 4, 6, 6])
        return {"aavg1": lambda: F.adaptive_avg_pool1d(x1, [-1]),
                "aavg2": lambda: F.adaptive_avg_pool2d(x2, [2, -3]),
                "aavg3": lambda: F.adaptive_avg_pool3d(x3, [2, 2, -1]),
                "amax1": lambda: F.adaptive_max_pool1d(x1, -2),
                "amax2": lambda: F.adaptive_max_pool2d(x2, [-1, 2]),
                "area": lambda: F.interpolate(x2, size=[-1, 2], mode="area")}[case]()
    same_exception(f)


@pytest.mark.parametrize("op", ["hardswish", "silu", "softplus", "log_sigmoid", "softsign"])
@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_activation_values_and_gradients(op, dt):
    # hardswish's complex kernel splits by the real part of x + 3 (x itself from 6 on, a zero
    # gradient at 0); silu has a complex gradient
    a = np.array([-3 + 1j, -2 + 1j, 0.5 - 0.3j, 2.999 + 1j, 3 + 1j, 3 + 2j, -25 + 1j, 30 - 1j])

    def f(P):
        x = P.to_tensor(a.astype(dt))
        x.stop_gradient = False
        y = getattr(P.nn.functional, op)(x)
        return [y, *P.grad(y.real().sum(), x)]
    ours, theirs = both(f)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)
