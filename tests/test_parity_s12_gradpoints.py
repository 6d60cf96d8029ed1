"""Session-12 sweep: gradients at special points against real Paddle 3.3.1.

Pins the gradient of activations at their kinks (leaky_relu at 0, hardshrink at its threshold,
maxout ties), second derivatives of piecewise-linear activations that do not reach the input,
and the losses at the edges of their domain (cross entropy over -inf logits or zero
probabilities, label smoothing with out-of-range labels, smooth_l1_loss with delta 0).
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _leaf(P, a, dt="float64"):
    t = P.to_tensor(np.array(a, dt))
    t.stop_gradient = False
    return t


def _value_and_grad(P, a, fn, dt="float64"):
    """``fn(x)`` and the gradient of its weighted sum (weights 1, 2, 3...) at ``x = a``."""
    x = _leaf(P, a, dt)
    out = fn(P, x)
    w = P.to_tensor(np.arange(1, out.size + 1, dtype=dt).reshape(out.shape))
    (g,) = P.grad((out * w).sum(), x)
    return out, g


def _same_signs(ours, theirs):
    """Zeros carry Paddle's sign (a printed ``-0.``)."""
    np.testing.assert_array_equal(np.signbit(ours.numpy()), np.signbit(theirs.numpy()))


# -- activations at their kinks -------------------------------------------------------------

@pytest.mark.parametrize("slope", [0.1, -0.2, 0.0])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_leaky_relu_gradient_at_zero_is_one(slope, dt):
    """Paddle's leaky_relu keeps ``x`` where ``x >= 0``: the gradient at 0 is 1 and the value
    at 0 is +0 also for a negative slope."""
    pts = [-2.0, -0.0, 0.0, 1.5]
    ours, theirs = both(lambda P: _value_and_grad(
        P, pts, lambda P, x: P.nn.functional.leaky_relu(x, slope), dt))
    assert_same(ours, theirs)
    _same_signs(ours[0], theirs[0])


def test_leaky_relu_inplace_gradient_at_zero_is_one():
    """The in-place leaky_relu_ has the same gradient as leaky_relu at 0."""
    def f(P):
        x = _leaf(P, [-2.0, 0.0, 1.5])
        y = x * 1.0
        P.nn.functional.leaky_relu_(y, 0.1)
        (y * P.to_tensor([1.0, 2.0, 3.0], "float64")).sum().backward()
        return x.grad
    assert_same(*both(f))


@pytest.mark.parametrize("threshold", [0.5, 1.0, 0.0, -0.5])
def test_hardshrink_keeps_x_at_the_threshold(threshold):
    """Paddle's hardshrink keeps ``x`` where ``|x| >= threshold`` (x times a mask: a dropped
    negative value gives -0.0, NaN stays NaN with gradient 0)."""
    pts = [-1.0, -0.5, -0.3, -0.0, 0.0, 0.3, 0.5, 1.0, np.nan]
    for dt in ("float32", "float64"):
        ours, theirs = both(lambda P: _value_and_grad(
            P, pts, lambda P, x: P.nn.functional.hardshrink(x, threshold), dt))
        assert_same(ours, theirs)
        _same_signs(ours[0], theirs[0])


def test_hardshrink_prints_negative_zero():
    """The printed result shows Paddle's ``-0.`` for a dropped negative value."""
    ours, theirs = both(lambda P: str(P.nn.functional.hardshrink(
        P.to_tensor([-1.0, -0.3, 0.5, -0.5]))))
    assert ours == theirs


@pytest.mark.parametrize("axis", [1, -1])
def test_maxout_tie_sends_the_gradient_to_the_first_maximum(axis):
    """With equal values in a group, Paddle's maxout gradient goes to the first of them only."""
    x = np.random.default_rng(1).integers(0, 3, (2, 6, 3, 3)).astype("float64")
    if axis == -1:
        x = x.transpose(0, 2, 3, 1)
    assert_same(*both(lambda P: _value_and_grad(
        P, x, lambda P, x: P.nn.functional.maxout(x, 3, axis=axis))))


@pytest.mark.parametrize("act", ["relu", "leaky_relu"])
def test_piecewise_linear_second_derivative_does_not_reach_x(act):
    """Paddle's relu/leaky_relu gradient is a constant mask: the second derivative is None
    with allow_unused, and without it paddle.grad raises ValueError."""
    def f(P):
        x = _leaf(P, [-1.0, 0.0, 2.0])
        (g,) = P.grad(getattr(P.nn.functional, act)(x).sum(), x, create_graph=True)
        return g, P.grad((g * g).sum(), x, allow_unused=True)
    assert_same(*both(f))

    def unused(P):
        x = _leaf(P, [-1.0, 0.0, 2.0])
        (g,) = P.grad(getattr(P.nn.functional, act)(x).sum(), x, create_graph=True)
        P.grad((g * g).sum(), x)
    same_exception(unused)


# -- cross entropy at the edges -------------------------------------------------------------

_LOGITS = [[1.0, 2.0, 3.0], [0.0, -np.inf, 0.0], [5.0, 0.0, -5.0]]
_SOFT = [[0.2, 0.3, 0.5], [0.5, 0.0, 0.5], [0.0, 1.0, 0.0]]


@pytest.mark.parametrize("kw", [{}, {"weight": [1.0, 2.0, 0.5]}, {"reduction": "none"}])
def test_soft_label_cross_entropy_over_a_masked_logit_is_finite(kw):
    """A logit of -inf with a zero soft label adds nothing to Paddle's loss (not NaN)."""
    def f(P):
        kw2 = {k: (P.to_tensor(v, "float64") if k == "weight" else v) for k, v in kw.items()}
        return _value_and_grad(P, _LOGITS, lambda P, x: P.nn.functional.cross_entropy(
            x, P.to_tensor(np.array(_SOFT)), soft_label=True, **kw2))
    assert_same(*both(f))


def test_cross_entropy_over_probabilities_with_zeros():
    """With use_softmax=False Paddle reads -log(0) as 1e20, and a zero probability that is not
    the label's gets gradient 0 (not NaN)."""
    probs = [[0.5, 0.0, 0.5], [0.0, 1.0, 0.0]]

    def hard(P):
        return _value_and_grad(P, probs, lambda P, x: P.nn.functional.cross_entropy(
            x, P.to_tensor([[1], [1]]), use_softmax=False, reduction="none"))
    assert_same(*both(hard))

    def hard_zero_at_label(P):
        x = _leaf(P, probs)
        return P.nn.functional.cross_entropy(x, P.to_tensor([[1], [0]]), use_softmax=False,
                                             reduction="none")
    assert_same(*both(hard_zero_at_label))

    def soft(P):
        x = _leaf(P, probs)
        return P.nn.functional.cross_entropy(x, P.to_tensor(np.array([[0.5, 0.0, 0.5], [1.0, 0.0, 0.0]])),
                                             soft_label=True, use_softmax=False, reduction="none")
    assert_same(*both(soft))


@pytest.mark.parametrize("label", [[0, -100], [0, -1], [0, 3]])
def test_label_smoothing_with_a_label_out_of_range_raises(label):
    """With label_smoothing Paddle one-hot encodes every label (ignore_index is not applied):
    a label outside [0, C) is its InvalidArgument (ValueError)."""
    same_exception(lambda P: P.nn.functional.cross_entropy(
        P.to_tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]), P.to_tensor(label), label_smoothing=0.1))


def test_label_smoothing_does_not_ignore_ignore_index():
    """A label equal to a non-negative ignore_index still counts once smoothed, as in Paddle."""
    assert_same(*both(lambda P: _value_and_grad(P, _LOGITS[::2], lambda P, x: P.nn.functional.cross_entropy(
        x, P.to_tensor([0, 1]), ignore_index=1, label_smoothing=0.3))))


# -- smooth_l1_loss -------------------------------------------------------------------------

@pytest.mark.parametrize("delta", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("is_huber", [True, False])
def test_smooth_l1_loss_any_delta(delta, is_huber):
    """Paddle's huber_loss takes delta 0 (zeros; NaN in the smooth-L1 form, which divides by
    delta) and rounds delta to float32 for float64 inputs."""
    def f(P):
        return _value_and_grad(P, [-1.0, 0.0, 0.25, 0.3, 2.0], lambda P, x: P.nn.functional.smooth_l1_loss(
            x, P.zeros([5], "float64"), reduction="none", delta=delta, is_huber=is_huber))
    assert_same(*both(f), rtol=1e-12, atol=1e-12)


# -- needs changes outside this area's files ------------------------------------------------

def test_clip_tensor_bounds_get_no_gradient():
    """Paddle's clip differentiates x only: Tensor min/max get None under allow_unused."""
    def f(P):
        x = _leaf(P, [-2.0, 0.5, 3.0])
        lo, hi = _leaf(P, [-1.0]), _leaf(P, [1.0])
        return P.grad(P.clip(x, lo, hi).sum(), [x, lo, hi], allow_unused=True)
    assert_same(*both(f))


def test_lerp_weight_gets_no_gradient():
    """Paddle's lerp differentiates x and y only: a Tensor weight gets None."""
    def f(P):
        x, w = _leaf(P, [-2.0, 0.5, 3.0]), _leaf(P, [0.5])
        return P.grad(P.lerp(x, x * 2, w).sum(), [x, w], allow_unused=True)
    assert_same(*both(f))


@pytest.mark.parametrize("pool", ["max_pool2d", "avg_pool2d"])
def test_pool_second_derivative_does_not_reach_x(pool):
    """Paddle's pool2d double grad gives nothing for x: None under allow_unused."""
    def f(P):
        x = _leaf(P, np.arange(16.0).reshape(1, 1, 4, 4) % 5)
        (g,) = P.grad(getattr(P.nn.functional, pool)(x, 2).sum(), x, create_graph=True)
        return g, P.grad((g * g).sum(), x, allow_unused=True)
    assert_same(*both(f))
