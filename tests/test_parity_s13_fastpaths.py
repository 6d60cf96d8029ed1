"""Session-13: the kernels that replaced ``torch.where`` (not vectorised on the CPU) and the
two-pass nearest resize keep Paddle's values and gradients.

relu and leaky_relu in training, elu, dropout and nearest interpolation now run on torch's
fused kernels; these pin the values, the gradients (bitwise where Paddle's order of
summation is the kernel's) and the special points (0, -0, inf, NaN) against Paddle 3.3.1.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both

_SPECIAL = [np.nan, -np.inf, np.inf, -1.0, 0.0, -0.0, 2.0, -3.5, 1e-30, -1e-30]


def _value_and_grad(P, a, fn, dt="float32"):
    x = P.to_tensor(np.array(a, dt))
    x.stop_gradient = False
    out = fn(P, x)
    w = P.to_tensor(np.linspace(0.5, 2.0, out.size).astype(dt).reshape(out.shape))
    (g,) = P.grad((out * w).sum(), x)
    return out, g


def _signs(pair):
    ours, theirs = pair
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(np.signbit(a.numpy()), np.signbit(b.numpy()))


@pytest.mark.parametrize("act, signs", [
    (lambda P, x: P.nn.functional.leaky_relu(x, 0.1), True),
    (lambda P, x: P.nn.functional.leaky_relu(x, -0.2), True),
    (lambda P, x: P.nn.functional.rrelu(x, 0.1, 0.3, training=False), True),
    # Paddle's elu is alpha * (exp(x) - 1), torch's kernel expm1: at -0 and -1e-30 Paddle
    # gives +0 and torch -0 / -5e-31 (equal values, other signs)
    (lambda P, x: P.nn.functional.elu(x, 0.5), False),
    (lambda P, x: P.nn.functional.selu(x), False),
], ids=["leaky", "leaky_negative_slope", "rrelu_eval", "elu", "selu"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_activations_at_special_points(act, signs, dt):
    pts = [v for v in _SPECIAL if not np.isnan(v)]
    pair = both(lambda P: _value_and_grad(P, pts, act, dt))
    assert_same(*pair, rtol=1e-6, atol=1e-7)
    if signs:
        _signs(pair)


def test_relu_and_leaky_relu_on_a_large_tensor_match_paddle():
    x = np.random.default_rng(0).standard_normal((64, 257)).astype("float32")
    x[0, :4] = [0.0, -0.0, np.inf, -np.inf]
    for fn in (lambda P, t: P.nn.functional.relu(t), lambda P, t: P.nn.functional.leaky_relu(t, 0.02)):
        pair = both(lambda P: _value_and_grad(P, x, fn))
        assert_same(*pair, rtol=0, atol=0)


@pytest.mark.parametrize("p", [0.1, 0.5])
@pytest.mark.parametrize("mode", ["upscale_in_train", "downscale_in_infer"])
def test_seeded_dropout_drops_inf_and_nan_to_zero(p, mode):
    """Dropped elements are 0 even where the input is inf or NaN; kept ones are scaled."""
    x = np.random.default_rng(1).standard_normal((8, 50)).astype("float32")
    x[:, :3] = [np.inf, -np.inf, np.nan]

    def f(P):
        P.seed(7)
        return _value_and_grad(P, x, lambda P, t: P.nn.functional.dropout(t, p, mode=mode))
    assert_same(*both(f), rtol=0, atol=0)


@pytest.mark.parametrize("shape, kw, exact", [
    ((2, 3, 7, 5), dict(scale_factor=2), True),
    ((2, 3, 8, 8), dict(size=[32, 17]), True),
    ((1, 2, 8, 4), dict(scale_factor=0.5), True),
    ((1, 2, 4, 6, 6), dict(scale_factor=[2, 4, 1.5]), True),
    ((1, 2, 9, 13), dict(scale_factor=0.3), True),
    ((1, 2, 6, 7), dict(scale_factor=1.05), True),      # no size changes: a copy
    ((1, 1, 6, 6, 6), dict(scale_factor=1.05), True),
    # torch's backward would read an unchanged or doubled size as identity / dst // 2, where
    # Paddle applies the ratio: the two-pass path, equal up to the order of summation
    ((2, 1, 3, 4, 6), dict(scale_factor=[1.3, 1.3, 1.3]), False),
    ((1, 2, 10, 13), dict(scale_factor=2.05), False),
])
def test_nearest_resize_values_and_gradients(shape, kw, exact):
    """torch's one-pass kernel (its gradient sums in Paddle's order) where it indexes as Paddle."""
    x = np.random.default_rng(2).standard_normal(shape).astype("float32")
    pair = both(lambda P: _value_and_grad(
        P, x, lambda P, t: P.nn.functional.interpolate(t, mode="nearest", **kw)))
    assert_same(pair[0][0], pair[1][0], rtol=0, atol=0)
    assert_same(pair[0][1], pair[1][1], rtol=0 if exact else 1e-6, atol=0 if exact else 1e-6)


def test_integer_nearest_resize_indexes_in_float32():
    """Paddle's ratio is a float: 39 * float32(1 / 1.3) is 30, where float64 gives 29.99..."""
    x = np.arange(31 * 17).reshape(1, 1, 31, 17).astype("int64")
    assert_same(*both(lambda P: P.nn.functional.interpolate(
        P.to_tensor(x), mode="nearest", scale_factor=[1.3, 1.3])), rtol=0, atol=0)


@pytest.mark.parametrize("mode, shape, kw", [
    ("bilinear", (2, 3, 8, 8), dict(scale_factor=2)),
    ("bilinear", (1, 2, 31, 17), dict(size=[63, 35], align_corners=True)),
    ("bilinear", (1, 2, 9, 13), dict(scale_factor=0.3)),
    ("bilinear", (2, 3, 8, 8), dict(scale_factor=1.05)),            # no size changes: a copy
    ("bilinear", (1, 2, 5, 7), dict(scale_factor=[1.05, 1.5])),     # one unchanged: the ratio
    ("bilinear", (1, 2, 5, 7), dict(scale_factor=1.5, align_mode=1)),
    ("trilinear", (1, 2, 5, 7, 6), dict(scale_factor=[1.7, 1.5, 2])),
    ("linear", (2, 3, 9), dict(scale_factor=2.5)),
])
def test_linear_resizes(mode, shape, kw):
    x = np.random.default_rng(4).standard_normal(shape).astype("float32")
    assert_same(*both(lambda P: _value_and_grad(
        P, x, lambda P, t: P.nn.functional.interpolate(t, mode=mode, **kw))), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("delta, is_huber", [(1.0, True), (0.3, False), (2.5, True)])
def test_smooth_l1_loss_by_torchs_kernel(delta, is_huber):
    """Values, gradients at |r| == delta, and an infinite residual's finite gradient."""
    x = np.concatenate([np.random.default_rng(5).standard_normal(50) * 2,
                        [np.inf, -np.inf, delta, -delta, 0.0]]).astype("float32")
    y = np.concatenate([np.random.default_rng(6).standard_normal(50), np.zeros(5)]).astype("float32")

    def f(P):
        a, b = P.to_tensor(x), P.to_tensor(y)
        a.stop_gradient = b.stop_gradient = False
        loss = P.nn.functional.smooth_l1_loss(a, b, reduction="none", delta=delta, is_huber=is_huber)
        ga, gb = P.grad(loss.sum(), [a, b])
        return loss, ga, gb
    assert_same(*both(f), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name, kw", [
    ("softshrink", dict(threshold=0.5)), ("softshrink", dict(threshold=0.0)),
    ("thresholded_relu", dict(threshold=1.0)), ("thresholded_relu", dict(threshold=0.3, value=0.5)),
    ("hardshrink", dict(threshold=0.5)), ("hardshrink", dict(threshold=-1.0)),
])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_shrink_activations_are_paddles_mask_products(name, kw, dt):
    """Paddle's kernels multiply by 0/1 masks: +-inf and NaN give NaN (softshrink,
    thresholded_relu), the band gives +0, NaN's gradient is 0; bitwise, signs included."""
    pts = _SPECIAL + [-0.7, -0.5, 0.5, 0.7, 1.5, -1.5, 0.3]
    pair = both(lambda P: _value_and_grad(P, pts, lambda P, x: getattr(P.nn.functional, name)(x, **kw), dt))
    assert_same(*pair, rtol=0, atol=0)
    _signs(pair)
