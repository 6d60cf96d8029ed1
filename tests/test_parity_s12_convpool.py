"""Session-12 sweep: convolutions and pooling against real Paddle 3.3.1, round 3.

Pins what earlier sweeps left: pool gradients that do not reach ``x`` a second time, a
convolution kernel up to one stride short of fitting, negative and empty transposed-conv
output sizes, transposed convolutions with a zero dilation or an output_padding of at least
the stride, ceil-mode average windows past the input's end, and the argument types Paddle's
pools refuse (float or Tensor kernel sizes, strides, paddings and divisors; short adaptive
output sizes).
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_RNG = np.random.default_rng(12)
X4 = _RNG.standard_normal((2, 4, 4, 3))


def _F(P):
    return P.nn.functional


def _leaf(P, a, dt="float64"):
    t = P.to_tensor(np.asarray(a, dt))
    t.stop_gradient = False
    return t


def _with_grads(P, arrays, fn):
    """``fn(P, *leaves)`` and the gradients of its squared sum (None for unused leaves)."""
    ts = [_leaf(P, a) for a in arrays]
    out = fn(P, *ts)
    return [out, *P.grad((out * out).sum(), ts, allow_unused=True)]


def _type_error(fn):
    """Paddle raises a TypeError subclass (NotSupportedTensorArgumentError): so do we."""
    ref = pytest.importorskip("paddle")
    import pagaie
    with pytest.raises(TypeError):
        fn(ref)
    with pytest.raises(TypeError):
        fn(pagaie)


# -- pool double grad ----------------------------------------------------------------------------

@pytest.mark.parametrize("pool,kw", [
    ("max_pool1d", {}), ("avg_pool1d", {"padding": 1}),
    ("max_pool2d", {"padding": [0, 1, 0, 1]}), ("avg_pool2d", {"stride": 1, "ceil_mode": True}),
    ("adaptive_avg_pool2d", {}),
])
def test_pool_gradient_does_not_reach_x_again(pool, kw):
    """Paddle's pool2d double grad feeds the output gradient only: x gets None."""
    def f(P):
        x = _leaf(P, np.arange(32.0).reshape(1, 2, 4, 4) % 7)
        if pool.endswith("1d"):
            x = _leaf(P, np.arange(12.0).reshape(1, 2, 6) % 5)
        (g,) = P.grad(getattr(_F(P), pool)(x, 2, **kw).sum(), x, create_graph=True)
        return g, P.grad((g * g).sum(), x, allow_unused=True)
    assert_same(*both(f))


@pytest.mark.parametrize("kw", [{}, {"padding": [1, 0, 0, 1]}, {"stride": 1, "ceil_mode": True}])
def test_avg_pool_double_grad_through_the_output_gradient(kw):
    """The second derivative still flows through the output gradient to what made it."""
    def f(P):
        x, w = _leaf(P, np.arange(16.0).reshape(1, 1, 4, 4) % 5), _leaf(P, [1.5])
        y = _F(P).avg_pool2d(x * w * x, 2, **kw)
        (g,) = P.grad((y * y).sum(), x, create_graph=True)
        return [g, *P.grad((g * g).sum(), [w, x], allow_unused=True)]
    assert_same(*both(f))


# -- convolution sizes -------------------------------------------------------------------------

@pytest.mark.parametrize("k,stride,padding", [(4, 2, 0), (5, 3, 0), (6, 5, 0), (7, 2, 1),
                                              (5, 2, 0)])
def test_conv_kernel_one_stride_short_reads_zeros_past_the_end(k, stride, padding):
    """A window up to one stride past the input still gives an output (zeros beyond)."""
    w = _RNG.standard_normal((6, 2, k))
    b = _RNG.standard_normal(6)
    assert_same(*both(lambda P: _with_grads(P, [X4[..., 0], w, b], lambda P, x, w, b: _F(P).conv1d(
        x, w, b, stride=stride, padding=padding, groups=2))))


def test_conv2d_kernel_short_of_fitting_channels_last():
    w = _RNG.standard_normal((6, 2, 3, 5))
    assert_same(*both(lambda P: _with_grads(P, [np.moveaxis(X4, 1, -1), w], lambda P, x, w: _F(
        P).conv2d(x, w, stride=3, groups=2, data_format="NHWC"))))


def test_conv_transpose_to_an_empty_size_has_zero_gradients():
    """A padding that eats the whole output gives an empty map; every input gets zeros."""
    w = _RNG.standard_normal((4, 3, 3, 2))
    b = _RNG.standard_normal(6)
    assert_same(*both(lambda P: _with_grads(P, [X4, w, b], lambda P, x, w, b: _F(P).conv2d_transpose(
        x, w, b, padding=[1, 2], groups=2))))


@pytest.mark.parametrize("fn,padding", [("conv2d_transpose", [1, 3]), ("conv3d_transpose", [1, 3, 0])])
def test_conv_transpose_negative_output_size_is_a_runtime_error(fn, padding):
    x, w = X4, _RNG.standard_normal((4, 3, 3, 2))
    if fn == "conv3d_transpose":
        x, w = x[..., None], w[..., None]
    same_exception(lambda P: getattr(_F(P), fn)(P.to_tensor(x), P.to_tensor(w), padding=padding,
                                                groups=2))


@pytest.mark.parametrize("fn", ["conv1d_transpose", "conv2d_transpose", "conv3d_transpose"])
@pytest.mark.parametrize("stride,dilation,output_padding", [(1, 2, 1), (2, 3, 2), (1, 3, 2)])
def test_conv_transpose_output_padding_must_be_below_the_stride(fn, stride, dilation,
                                                                 output_padding):
    """Paddle's kernel refuses an output_padding of at least the stride, whatever the dilation."""
    x, w = X4, _RNG.standard_normal((4, 3, 3, 2))
    if fn == "conv1d_transpose":
        x, w = x[..., 0], w[..., 0]
    elif fn == "conv3d_transpose":
        x, w = x[..., None], w[..., None]
    same_exception(lambda P: getattr(_F(P), fn)(P.to_tensor(x), P.to_tensor(w), stride=stride,
                                                dilation=dilation,
                                                output_padding=output_padding, groups=2))
    assert_same(*both(lambda P: getattr(_F(P), fn)(P.to_tensor(x), P.to_tensor(w), stride=3,
                                                   dilation=2, output_padding=2, groups=2)))


@pytest.mark.parametrize("dilation", [0, [0, 1], [2, 0]])
@pytest.mark.parametrize("padding", [1, "SAME", [1, 0, 0, 1]])
def test_conv_transpose_zero_dilation_sums_the_kernel_taps(dilation, padding):
    """A zero dilation puts every tap on one output (SAME resets the dilation to 1)."""
    x, w = _RNG.standard_normal((2, 4, 5, 5)), _RNG.standard_normal((4, 3, 3, 2))
    assert_same(*both(lambda P: _with_grads(P, [x, w], lambda P, x, w: _F(P).conv2d_transpose(
        x, w, stride=2, dilation=dilation, padding=padding, groups=2))))


# -- average pool windows past the end -----------------------------------------------------

@pytest.mark.parametrize("kw", [{}, {"exclusive": False}, {"divisor_override": 3}])
def test_avg_pool_ceil_window_past_the_end_averages_to_zero(kw):
    """An exclusive ceil-mode window with no input element gives 0 (not 0 / 0)."""
    def f(P, x):
        return _F(P).avg_pool3d(x, [1, 1, 2], [1, 1, 3], padding=[0, 0, 1], ceil_mode=True, **kw)
    x = np.arange(1.0, 5.0).reshape(1, 1, 1, 1, 4)
    assert_same(*both(lambda P: _with_grads(P, [x], f)))
    if "divisor_override" not in kw:
        assert_same(*both(lambda P: _F(P).avg_pool1d(P.to_tensor(x[0, 0]), 2, 3, padding=1,
                                                     ceil_mode=True, **kw)))


# -- argument types ------------------------------------------------------------------------

_X = np.arange(30.0, dtype="float32").reshape(1, 1, 6, 5)


@pytest.mark.parametrize("call", [
    lambda P, x: _F(P).max_pool2d(x, 2.0),
    lambda P, x: _F(P).avg_pool1d(x[0], 2.0),
    lambda P, x: _F(P).max_pool2d(x, 2, stride=1.0),
    lambda P, x: _F(P).max_pool2d(x, 2, padding=1.0),
    lambda P, x: _F(P).max_pool2d(x, 2, padding=[1.0, 1]),
    lambda P, x: _F(P).lp_pool2d(x, 2, 2.0),
    lambda P, x: _F(P).fractional_max_pool2d(x, 2, kernel_size=2.0),
    lambda P, x: _F(P).avg_pool2d(x, 2, divisor_override=P.to_tensor(2.0)),
    lambda P, x: _F(P).max_pool2d(x, [2.0, 2]),
    lambda P, x: _F(P).avg_pool3d(x[None], [2.0, 2, 2]),
    lambda P, x: _F(P).max_pool2d(x, 2, stride=[1.0, 1]),
    lambda P, x: _F(P).max_pool2d(x, 2, padding=[[0, 0], [0, 0], [1.0, 1], [0, 0]]),
])
def test_pool_float_arguments_are_refused(call):
    """A float kernel size, stride or padding (or a Tensor divisor) is refused."""
    same_exception(lambda P: call(P, P.to_tensor(_X)))


@pytest.mark.parametrize("call", [
    lambda P, x: _F(P).max_pool2d(x, P.to_tensor(2)),
    lambda P, x: _F(P).avg_pool1d(x[0], P.to_tensor(2)),
    lambda P, x: _F(P).max_pool2d(x, 2, stride=P.to_tensor(1)),
    lambda P, x: _F(P).max_pool1d(x[0], 2, padding=P.to_tensor(1)),
])
def test_pool_tensor_window_arguments_are_type_errors(call):
    _type_error(lambda P: call(P, P.to_tensor(_X)))


def test_avg_pool_takes_a_bool_divisor():
    assert_same(*both(lambda P: _F(P).avg_pool2d(P.to_tensor(_X), 2, divisor_override=True)))


@pytest.mark.parametrize("fn,size", [
    ("adaptive_avg_pool2d", [2]), ("adaptive_max_pool2d", [None]),
    ("adaptive_avg_pool3d", [5, None]), ("adaptive_max_pool3d", (2, 3)),
    ("fractional_max_pool2d", [2]), ("fractional_max_pool3d", [2, 2]),
    ("adaptive_avg_pool2d", [2.0, 3]), ("adaptive_max_pool3d", [2.0, 3, 3]),
    ("fractional_max_pool2d", [2.0, 3]),
])
def test_adaptive_output_size_too_short_or_float(fn, size):
    """Paddle indexes a short list (IndexError) and refuses float entries (TypeError)."""
    x = _X[None] if fn.endswith("3d") else _X
    same_exception(lambda P: getattr(_F(P), fn)(P.to_tensor(x), size))


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_exclusive_average_counts_as_paddle_past_the_end(nd):
    """Paddle's exclusive count is, per axis, min(start + k, size) - max(start, 0), multiplied
    over the axes: a ceil-mode window past the end averages to 0 / 0 (NaN) when that is 0, to
    -0 when it is negative (+0 for two negative axes, or with a divisor override)."""
    x = np.random.RandomState(nd).randn(*((1, 1) + (5,) * nd)).astype("float32")
    x4 = x[(slice(None), slice(None)) + (slice(0, 4),) * nd]

    def run(P):
        f = getattr(_F(P), f"avg_pool{nd}d")
        outs = []
        for a, k, s in ((x, 2, 2), (x, 2, 3), (x4, 2, 3), (x, 3, 3)):
            outs.append(f(P.to_tensor(a), k, stride=s, padding=1, ceil_mode=True))
            if nd > 1:
                outs.append(f(P.to_tensor(a), k, stride=s, padding=1, ceil_mode=True, divisor_override=3))
        return [o.numpy() for o in outs]
    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
        np.testing.assert_allclose(np.nan_to_num(a), np.nan_to_num(b), rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(np.signbit(a[a == 0]), np.signbit(b[b == 0]))


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_negative_pool_padding_crops_the_input(nd):
    """Paddle's windows start at -padding: a negative padding crops the input (max and avg,
    exclusive or not, ceil mode or not)."""
    x = np.random.RandomState(nd).randn(*((1, 2) + (7,) * nd)).astype("float32")

    def run(P):
        F = _F(P)
        outs = []
        for k, s, p, ceil in ((2, 2, -1, False), (3, 1, -1, True), (3, 2, -2, True)):
            kw = dict(stride=s, padding=p, ceil_mode=ceil)
            outs += [getattr(F, f"max_pool{nd}d")(P.to_tensor(x), k, **kw),
                     getattr(F, f"avg_pool{nd}d")(P.to_tensor(x), k, **kw),
                     getattr(F, f"avg_pool{nd}d")(P.to_tensor(x), k, exclusive=False, **kw)]
        return outs
    assert_same(*both(run))
