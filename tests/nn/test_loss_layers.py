"""Loss layers vs real Paddle: outputs, input gradients, reprs, reduction checks."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.nn.helpers import compare_layer, copy_params
from tests.reference import paddle_ref, same_exception

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.standard_normal(shape).astype("float32")


def _p(*shape):
    return RNG.uniform(0.05, 0.95, shape).astype("float32")


def _lab(high, *shape):
    return RNG.integers(0, high, shape).astype("int64")


PM1 = np.array([1.0, -1.0, 1.0, -1.0], dtype="float32")

CASES = [
    (lambda nn: nn.CrossEntropyLoss(), [_x(4, 5), _lab(5, 4)]),
    (lambda nn: nn.CrossEntropyLoss(reduction="none", ignore_index=1), [_x(4, 5), _lab(5, 4, 1)]),
    (lambda nn: nn.CrossEntropyLoss(soft_label=True, label_smoothing=0.1),
     [_x(4, 5), RNG.dirichlet(np.ones(5), 4).astype("float32")]),
    (lambda nn: nn.BCELoss(), [_p(3, 4), _lab(2, 3, 4).astype("float32")]),
    (lambda nn: nn.BCEWithLogitsLoss(reduction="sum"), [_x(3, 4), _lab(2, 3, 4).astype("float32")]),
    (lambda nn: nn.MSELoss(), [_x(3, 4), _x(3, 4)]),
    (lambda nn: nn.L1Loss(reduction="sum"), [_x(3, 4), _x(3, 4)]),
    (lambda nn: nn.SmoothL1Loss(delta=0.5), [_x(3, 4), _x(3, 4)]),
    (lambda nn: nn.NLLLoss(), [np.log(_p(4, 5)), _lab(5, 4)]),
    (lambda nn: nn.KLDivLoss(reduction="batchmean"), [np.log(_p(4, 5)), _p(4, 5)]),
    (lambda nn: nn.MarginRankingLoss(0.2), [_x(4), _x(4), PM1]),
    (lambda nn: nn.CosineEmbeddingLoss(0.1), [_x(4, 3), _x(4, 3), PM1.astype("int64")]),
    (lambda nn: nn.TripletMarginLoss(swap=True), [_x(4, 3), _x(4, 3), _x(4, 3)]),
    (lambda nn: nn.TripletMarginWithDistanceLoss(margin=0.5), [_x(4, 3), _x(4, 3), _x(4, 3)]),
    (lambda nn: nn.HingeEmbeddingLoss(), [_x(4), PM1]),
    (lambda nn: nn.SoftMarginLoss(), [_x(4), PM1]),
    (lambda nn: nn.MultiLabelSoftMarginLoss(), [_x(3, 4), _lab(2, 3, 4).astype("float32")]),
    (lambda nn: nn.MultiLabelMarginLoss(), [_x(2, 4), np.array([[3, 0, -1, 1], [1, -1, 0, 0]])]),
    (lambda nn: nn.MultiMarginLoss(margin=0.5), [_x(4, 5), _lab(5, 4)]),
    (lambda nn: nn.PoissonNLLLoss(full=True), [_x(3, 4), _p(3, 4) * 4]),
    (lambda nn: nn.GaussianNLLLoss(), [_x(3, 4), _x(3, 4), _p(3, 4)]),
    (lambda nn: nn.CTCLoss(), [_x(5, 2, 4), np.array([[1, 2], [3, 0]], dtype="int32"),
                               np.array([5, 4]), np.array([2, 1])]),
    (lambda nn: nn.RNNTLoss(reduction="sum"), [_x(1, 3, 3, 4), np.array([[1, 2]], dtype="int32"),
                                               np.array([3], dtype="int32"),
                                               np.array([2], dtype="int32")]),
]


@pytest.mark.parametrize("build,arrays", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_loss_layers(build, arrays):
    grad = build(pagaie.nn).__class__.__name__ != "RNNTLoss"
    compare_layer(build, arrays, rtol=1e-4, atol=1e-5, grad=grad)


def test_hsigmoid_loss_layer():
    compare_layer(lambda nn: nn.HSigmoidLoss(4, 6), [_x(3, 4), np.array([0, 3, 5])],
                  rtol=1e-4, atol=1e-5)


def test_adaptive_log_softmax_layer():
    paddle = paddle_ref()
    theirs = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 7], head_bias=True)
    ours = pagaie.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 7], head_bias=True)
    copy_params(theirs, ours)
    for a, b in zip(ours.tail_weights, theirs.tail_weights):
        for p, q in zip(a, b):
            p.set_value(q.numpy())
    x, y = _x(5, 8), np.array([0, 5, 9, 3, 7])
    o = ours(pagaie.to_tensor(x), pagaie.to_tensor(y))
    t = theirs(paddle.to_tensor(x), paddle.to_tensor(y))
    for a, b in zip(o, t):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ours.log_prob(pagaie.to_tensor(x)).numpy(),
                               theirs.log_prob(paddle.to_tensor(x)).numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(ours.predict(pagaie.to_tensor(x)).numpy(),
                                  theirs.predict(paddle.to_tensor(x)).numpy())


def test_bad_reduction_raises_like_paddle():
    same_exception(lambda fw: fw.nn.MSELoss(reduction="avg"))
    same_exception(lambda fw: fw.nn.CrossEntropyLoss(reduction="avg")(fw.ones([2, 3]),
                                                                       fw.to_tensor([0, 1])))
    same_exception(lambda fw: fw.nn.functional.mse_loss(fw.ones([2]), fw.ones([2]), reduction="avg"))
