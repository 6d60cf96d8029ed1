"""Session-22: numerical outputs and gradients of ``paddle.nn.functional`` ops named a..l (and
their layers) against real Paddle 3.3.1, with non-default arguments: class axes other than the
last, label smoothing and weights in cross_entropy, data formats, padding forms, pooling and
interpolation options, reductions, float64, 0-size and 0-D inputs."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, output_and_grads, same_exception

pytest.importorskip("paddle")

RNG = np.random.default_rng(22)


def _rn(*shape, dtype="float64"):
    return RNG.standard_normal(shape).astype(dtype)


# -- cross_entropy: a class axis other than the last ---------------------------------------------

_C = 4
_X3 = _rn(2, _C, _C)                       # classes on axis 1, and as many positions as classes
_SOFT3 = np.abs(_rn(2, _C, _C))
_SOFT3 /= _SOFT3.sum(1, keepdims=True)
_W = np.abs(_rn(_C)) + 0.1
_LAB3 = RNG.integers(0, _C, (2, _C))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_soft_label_weight_axis1_uses_the_last_axis_for_weights(reduction):
    # Paddle gathers the sample weights as label @ weight over the label's last axis
    ours, theirs = both(lambda P: output_and_grads(P, [_X3, _SOFT3, _W], lambda P, x, s, w:
                        P.nn.functional.cross_entropy(x, s, weight=w, soft_label=True, axis=1,
                                                      reduction=reduction)))
    assert_same(ours, theirs, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_label_smoothing_axis1_one_hots_on_the_last_axis(reduction, weighted):
    def fn(P, x, w):
        return P.nn.functional.cross_entropy(x, P.to_tensor(_LAB3), axis=1, reduction=reduction,
                                             weight=w if weighted else None, label_smoothing=0.2)
    ours, theirs = both(lambda P: output_and_grads(P, [_X3, _W], fn))
    assert_same(ours, theirs, rtol=1e-6, atol=1e-8)


def test_cross_entropy_axis1_shape_mismatch_raises():
    x = _rn(2, 5, 6)
    same_exception(lambda P: P.nn.functional.cross_entropy(
        P.to_tensor(x), P.to_tensor(RNG.integers(0, 5, (2, 6))), axis=1, label_smoothing=0.1))
    s = np.abs(_rn(2, 5, 6))
    same_exception(lambda P: P.nn.functional.cross_entropy(
        P.to_tensor(x), P.to_tensor(s), axis=1, soft_label=True,
        weight=P.to_tensor(np.ones(5))))


# -- conv*_transpose: an empty spatial output ----------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3])
def test_conv_transpose_empty_output_channel_last_raises_channel_first_does_not(n):
    fn = ["conv1d_transpose", "conv2d_transpose", "conv3d_transpose"][n - 1]
    last = ["NLC", "NHWC", "NDHWC"][n - 1]
    x, w = _rn(1, 2, *[2] * n), _rn(2, 2, *[2] * n)
    pad = [0] * (2 * n - 1) + [3]     # the last spatial size: 1 + 2 - 3 = 0

    def run(P, data_format):
        xx = x if data_format != last else np.moveaxis(x, 1, -1).copy()
        return getattr(P.nn.functional, fn)(P.to_tensor(xx), P.to_tensor(w), padding=pad,
                                            data_format=data_format)
    assert_same(*both(lambda P: run(P, ["NCL", "NCHW", "NCDHW"][n - 1])))
    same_exception(lambda P: run(P, last))
