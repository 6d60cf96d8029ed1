"""Session-22: ``paddle.nn.functional`` values and gradients against real Paddle 3.3.1 where
Paddle's hand-written CPU kernels differ from the mathematical derivative or from torch on
special inputs: the sigmoid cross entropy with logits (binary_cross_entropy_with_logits,
sigmoid_focal_loss) at a zero logit and with labels of the kernel's ignore_index -100; relu
of NaN; the clipping activations' (relu6, hardtanh, hardsigmoid, leaky_relu, rrelu eval)
gradients at NaN; softsign, hardswish, selu, celu, elu (alpha <= 0) and log_sigmoid at
NaN/+-inf or where exp overflows; soft_margin_loss's overflow; max pools and maxout over
maps holding NaN or -inf."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both

pytest.importorskip("paddle")


def _grads(P, fn, arrays, needs=None):
    """``[output, *gradients]`` of ``(output * (1, 2, 3, ...)).sum()``; ``needs[i]`` False keeps
    input i out of the graph (its gradient is None)."""
    ts = []
    for i, a in enumerate(arrays):
        t = P.to_tensor(a)
        t.stop_gradient = not (needs is None or needs[i])
        ts.append(t)
    out = fn(P, *ts)
    w = (P.arange(out.size, dtype=out.dtype).reshape(out.shape) + 1) if out.ndim else 1.7
    (out * w).sum().backward()
    return [out, *[t.grad for t in ts]]


_LOGIT = np.array([[0.0, 1.0, -1.0, 2.0, 0.0, 0.0, -0.5]], "float32")
_LABEL = np.array([[0.0, 0.0, 0.0, 0.3, 1.0, -100.0, -100.5]], "float32")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_bce_with_logits_zero_logit_and_ignored_label(dtype, reduction):
    # the kernel's gradient at a logit of 0 is -0.5 - label; a label truncating to -100 has
    # loss and gradient 0 (the mean still divides by every element)
    assert_same(*both(lambda P: _grads(
        P, lambda P, x, y: P.nn.functional.binary_cross_entropy_with_logits(x, y, reduction=reduction),
        [_LOGIT.astype(dtype), _LABEL.astype(dtype)], [True, False])))


def test_bce_with_logits_weight_and_layer():
    w = np.array([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]], "float32")
    assert_same(*both(lambda P: _grads(
        P, lambda P, x, y, w: P.nn.functional.binary_cross_entropy_with_logits(x, y, weight=w),
        [_LOGIT, _LABEL, w], [True, False, True])))
    assert_same(*both(lambda P: _grads(
        P, lambda P, x, y: P.nn.BCEWithLogitsLoss(reduction="sum")(x, y),
        [_LOGIT, _LABEL], [True, False])))


def test_bce_with_logits_pos_weight_ignores_label():
    pw = np.full([7], 3.0, "float32")
    assert_same(*both(lambda P: _grads(
        P, lambda P, x, y, pw: P.nn.functional.binary_cross_entropy_with_logits(
            x, y, pos_weight=pw, reduction="none"),
        [_LOGIT, _LABEL, pw], [True, False, False])))


@pytest.mark.parametrize("reduction", ["none", "sum"])
def test_sigmoid_focal_loss_zero_logit(reduction):
    x = np.array([[0.0, 1.0, -1.0, 2.0], [0.0, 0.5, 3.0, -3.0]], "float32")
    y = np.array([[0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.5, 1.0]], "float32")
    assert_same(*both(lambda P: _grads(
        P, lambda P, x, y: P.nn.functional.sigmoid_focal_loss(x, y, reduction=reduction),
        [x, y], [True, False])))


_SPECIAL = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, -1.0, 2.0], "float32")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_relu_of_nan_is_zero_with_zero_gradient(dtype):
    # Paddle's relu is a max that ignores NaN: relu(NaN) is 0, and so is its gradient
    assert_same(*both(lambda P: _grads(P, lambda P, x: P.nn.functional.relu(x),
                                       [_SPECIAL.astype(dtype)])))
    assert_same(*both(lambda P: P.nn.functional.relu(P.to_tensor(_SPECIAL.astype(dtype)))))
    assert_same(*both(lambda P: P.nn.ReLU()(P.to_tensor(_SPECIAL.astype(dtype)))))


def test_relu_inplace_of_nan_is_zero():
    def f(P):
        t = P.to_tensor(_SPECIAL)
        P.nn.functional.relu_(t)
        return t
    assert_same(*both(f))


_CLIPPING = {
    "relu6": lambda P, x: P.nn.functional.relu6(x),
    "hardtanh": lambda P, x: P.nn.functional.hardtanh(x, -1.0, 1.5),
    "hardsigmoid": lambda P, x: P.nn.functional.hardsigmoid(x, slope=0.5, offset=0.25),
    "leaky_relu": lambda P, x: P.nn.functional.leaky_relu(x, 0.1),
    "leaky_relu_negative": lambda P, x: P.nn.functional.leaky_relu(x, -0.2),
    "ReLU6": lambda P, x: P.nn.ReLU6()(x),
    "Hardtanh": lambda P, x: P.nn.Hardtanh()(x),
    "Hardsigmoid": lambda P, x: P.nn.Hardsigmoid()(x),
    "LeakyReLU": lambda P, x: P.nn.LeakyReLU()(x),
    "rrelu_eval": lambda P, x: P.nn.functional.rrelu(x, 0.1, 0.3, training=False),
    "RReLU_eval": lambda P, x: P.nn.RReLU(0.2, 0.4).eval()(x),
    "softsign": lambda P, x: P.nn.functional.softsign(x),
    "Softsign": lambda P, x: P.nn.Softsign()(x),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", sorted(_CLIPPING))
def test_activation_gradient_at_nan_and_inf(op, dtype):
    # Paddle's clipping kernels pass the gradient only where a comparison of x holds (none for
    # NaN); rrelu's eval slope applies where x < 0 (not to NaN); softsign's gradient is
    # dy / (1 + |x|)^2, 0 at +-inf
    x = np.concatenate([_SPECIAL, [6.0, 7.0, -3.0, 3.0, 1.0, 1.5, -0.5]]).astype(dtype)
    assert_same(*both(lambda P: _grads(P, _CLIPPING[op], [x])))


_FORMULA = {
    "hardswish": lambda P, x: P.nn.functional.hardswish(x),
    "Hardswish": lambda P, x: P.nn.Hardswish()(x),
    "selu": lambda P, x: P.nn.functional.selu(x),
    "selu_params": lambda P, x: P.nn.functional.selu(x, scale=1.5, alpha=0.5),
    "SELU": lambda P, x: P.nn.SELU()(x),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", sorted(_FORMULA))
def test_formula_gradient_at_nan_and_inf(op, dtype):
    # hardswish's kernel multiplies (2x + 3) / 6 by its masks (NaN at +-inf); selu's takes
    # the gradient from the output (dy * scale at NaN)
    x = np.concatenate([_SPECIAL, [-3.0, 3.0, -4.0, 4.0, 1.0, -0.5]]).astype(dtype)
    assert_same(*both(lambda P: _grads(P, _FORMULA[op], [x])))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("alpha", [1.0, 0.5, 2.0, -1.0, -0.5])
def test_celu_gradient_where_exp_overflows(alpha, dtype):
    # Paddle's celu gradient adds masked terms that each hold exp(x / alpha): where that
    # overflows (or x is +-inf) a zero mask times inf makes it NaN
    x = np.concatenate([_SPECIAL, [-3.0, 3.0, -50.0, 50.0, 100.0, -100.0, 1000.0]]).astype(dtype)
    assert_same(*both(lambda P: _grads(P, lambda P, x: P.nn.functional.celu(x, alpha), [x])))
    assert_same(*both(lambda P: _grads(P, lambda P, x: P.nn.CELU(alpha)(x), [x])))


@pytest.mark.parametrize("alpha", [-1.0, -0.5, 0.0])
def test_elu_non_positive_alpha_gradient_at_nan(alpha):
    # Paddle's kernel for alpha <= 0 multiplies the NaN through: the gradient is NaN there
    x = np.concatenate([_SPECIAL, [-3.0, 3.0, 1.0]]).astype("float32")
    assert_same(*both(lambda P: _grads(P, lambda P, x: P.nn.functional.elu(x, alpha), [x])),
                atol=1e-30)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_soft_margin_loss_overflows_as_paddle(reduction, dtype):
    # Paddle computes log(1 + exp(-label * input)) as written: inf loss and NaN gradient
    # where the exponential overflows
    x = np.array([[0.0, 100.0, 50.0, 1e-9, 100.0, 0.0, 800.0, -800.0]], dtype)
    y = np.array([[1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0, 1.0]], dtype)
    assert_same(*both(lambda P: _grads(
        P, lambda P, x, y: P.nn.functional.soft_margin_loss(x, y, reduction=reduction),
        [x, y], [True, False])))
    assert_same(*both(lambda P: _grads(
        P, lambda P, x, y: P.nn.SoftMarginLoss(reduction=reduction)(x, y), [x, y], [True, False])))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_log_sigmoid_of_negative_inf_is_nan(dtype):
    # Paddle's kernel forms -x - max(-x, 0), inf - inf at x = -inf: value and gradient NaN
    x = np.concatenate([_SPECIAL, [-100.0, 100.0, -20.0, 30.0]]).astype(dtype)
    assert_same(*both(lambda P: _grads(P, lambda P, x: P.nn.functional.log_sigmoid(x), [x])))
    assert_same(*both(lambda P: _grads(P, lambda P, x: P.nn.LogSigmoid()(x), [x])))


def _nan_map(shape, dtype, seed=0):
    rs = np.random.RandomState(seed)
    x = rs.randint(-3, 4, size=shape).astype(dtype)   # small integers: many ties
    x[rs.rand(*shape) < 0.25] = np.nan
    x[rs.rand(*shape) < 0.05] = -np.inf
    return x


_NAN_POOLS = {
    "1d": (lambda P, x: P.nn.functional.max_pool1d(x, 3, 2, 1), [2, 3, 9]),
    "1d_ceil": (lambda P, x: P.nn.functional.max_pool1d(x, 2, ceil_mode=True), [2, 3, 9]),
    "2d": (lambda P, x: P.nn.functional.max_pool2d(x, 2), [2, 3, 6, 6]),
    "2d_overlap": (lambda P, x: P.nn.functional.max_pool2d(x, 3, 1, 1), [1, 2, 5, 6]),
    "2d_same": (lambda P, x: P.nn.functional.max_pool2d(x, 3, 2, "SAME"), [1, 2, 5, 7]),
    "2d_ceil": (lambda P, x: P.nn.functional.max_pool2d(x, 2, 2, [0, 1], ceil_mode=True), [1, 2, 5, 5]),
    "2d_nhwc": (lambda P, x: P.nn.functional.max_pool2d(x, 2, data_format="NHWC"), [1, 4, 4, 3]),
    "2d_layer": (lambda P, x: P.nn.MaxPool2D(3, 2, 1)(x), [1, 2, 6, 6]),
    "3d": (lambda P, x: P.nn.functional.max_pool3d(x, 2, 1), [1, 2, 3, 4, 4]),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", sorted(_NAN_POOLS))
def test_max_pool_with_nan_as_paddle_scans(case, dtype):
    # Paddle's plain max pool keeps the maximum after a window's last NaN (NaN when the NaN
    # ends the window); the gradient goes to the first element equal to the result
    fn, shape = _NAN_POOLS[case]
    for seed in range(3):
        x = _nan_map(shape, dtype, seed)
        assert_same(*both(lambda P: _grads(P, fn, [x])))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("axis", [1, -1])
def test_maxout_with_nan_and_negative_inf(axis, dtype):
    # Paddle's maxout scans each group like its max pools: the maximum after the last NaN,
    # a group of -inf gives float32's lowest value
    for seed in range(3):
        x = _nan_map([2, 6, 3, 4] if axis == 1 else [2, 3, 4, 6], dtype, seed)
        assert_same(*both(lambda P: _grads(P, lambda P, x: P.nn.functional.maxout(x, 3, axis), [x])))
    x = np.array([-np.inf, -np.inf, np.nan, -np.inf, 1, np.nan, np.nan, 1, 2, 2], dtype)
    assert_same(*both(lambda P: _grads(
        P, lambda P, x: P.nn.Maxout(2)(x), [x.reshape(1, 10, 1, 1)])))
