"""Activation layers against real Paddle (values, gradients, reprs) plus in-place forms."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.nn.helpers import compare_layer
from tests.reference import both, same_exception

X = np.random.default_rng(3).standard_normal((3, 4)).astype("float32")
X4 = np.random.default_rng(4).standard_normal((2, 4, 3, 3)).astype("float32")

CASES = [
    ("ReLU", lambda nn: nn.ReLU(), X), ("ReLU6", lambda nn: nn.ReLU6(), X * 4),
    ("LeakyReLU", lambda nn: nn.LeakyReLU(0.2), X), ("PReLU", lambda nn: nn.PReLU(), X4),
    ("PReLU_channels", lambda nn: nn.PReLU(4, 0.1), X4),
    ("PReLU_nhwc", lambda nn: nn.PReLU(3, data_format="NHWC"), X4),
    ("RReLU_eval", lambda nn: nn.RReLU(0.1, 0.3).eval(), X), ("ELU", lambda nn: nn.ELU(0.5), X),
    ("SELU", lambda nn: nn.SELU(), X), ("CELU", lambda nn: nn.CELU(0.7), X),
    ("GELU", lambda nn: nn.GELU(), X), ("GELU_tanh", lambda nn: nn.GELU(approximate=True), X),
    ("Silu", lambda nn: nn.Silu(), X), ("SiLU", lambda nn: nn.SiLU(), X), ("Swish", lambda nn: nn.Swish(), X),
    ("Mish", lambda nn: nn.Mish(), X), ("Hardswish", lambda nn: nn.Hardswish(), X * 3),
    ("Hardsigmoid", lambda nn: nn.Hardsigmoid(), X * 3), ("Hardtanh", lambda nn: nn.Hardtanh(-0.5, 0.7), X),
    ("Hardshrink", lambda nn: nn.Hardshrink(0.6), X), ("Softshrink", lambda nn: nn.Softshrink(0.3), X),
    ("Tanhshrink", lambda nn: nn.Tanhshrink(), X), ("ThresholdedReLU", lambda nn: nn.ThresholdedReLU(0.4, 2.0), X),
    ("Sigmoid", lambda nn: nn.Sigmoid(), X), ("LogSigmoid", lambda nn: nn.LogSigmoid(), X),
    ("Tanh", lambda nn: nn.Tanh(), X), ("Softplus", lambda nn: nn.Softplus(2, 3), X),
    ("Softsign", lambda nn: nn.Softsign(), X), ("Softmax", lambda nn: nn.Softmax(0), X),
    ("LogSoftmax", lambda nn: nn.LogSoftmax(), X), ("Softmax2D", lambda nn: nn.Softmax2D(), X4),
    ("Maxout", lambda nn: nn.Maxout(2), X4), ("GLU", lambda nn: nn.GLU(), X),
    ("named", lambda nn: nn.ReLU(name="act"), X),
]


@pytest.mark.parametrize("build,x", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_activation_layer_matches_paddle(build, x):
    compare_layer(build, [x])


def test_prelu_parameter_and_rrelu_training():
    ours, theirs = both(lambda fw: ([n for n, _ in fw.nn.PReLU(3).named_parameters()],
                                    repr(fw.nn.RReLU().train())))
    assert ours == theirs
    y = pagaie.nn.RReLU(0.1, 0.3)(pagaie.to_tensor(-np.ones([1000], "float32"))).numpy()
    assert (y <= -0.1 + 1e-6).all() and (y >= -0.3 - 1e-6).all() and y.std() > 0.03


@pytest.mark.parametrize("name,kw", [("relu_", {}), ("elu_", {"alpha": 0.5}), ("leaky_relu_", {"negative_slope": 0.2}),
                                     ("hardtanh_", {"min": -0.3, "max": 0.3}),
                                     ("thresholded_relu_", {"threshold": 0.2, "value": 1.0}),
                                     ("softmax_", {"axis": 0}), ("tanh_", {})])
def test_inplace_functional(name, kw):
    def get(fw):
        x = fw.to_tensor(X)
        y = getattr(fw.nn.functional, name)(x, **kw)
        return y is x, x.numpy()
    (same_o, xo), (same_t, xt) = both(get)
    assert same_o == same_t
    np.testing.assert_allclose(xo, xt, rtol=1e-5, atol=1e-6)


def test_inplace_on_leaf_raises():
    same_exception(lambda fw: fw.nn.functional.relu_(fw.to_tensor([1.0], stop_gradient=False)))


def test_gumbel_softmax():
    y = pagaie.nn.functional.gumbel_softmax(pagaie.to_tensor(np.zeros([50, 4], "float32")), temperature=0.5)
    np.testing.assert_allclose(y.numpy().sum(-1), 1.0, rtol=1e-5)
    x = pagaie.to_tensor(np.zeros([5, 3], "float32"), stop_gradient=False)
    h = pagaie.nn.functional.gumbel_softmax(x, hard=True)
    assert set(np.unique(h.numpy())) <= {0.0, 1.0} and (h.numpy().sum(-1) == 1).all()
    h.sum().backward()
    assert x.grad is not None


@pytest.mark.parametrize("case", [
    lambda fw: fw.nn.functional.celu(fw.ones([2]), alpha=0.0),
    lambda fw: fw.nn.functional.selu(fw.ones([2]), scale=0.5),
    lambda fw: fw.nn.functional.softshrink(fw.ones([2]), threshold=-1.0),
    lambda fw: fw.nn.functional.rrelu(fw.ones([2]), lower=0.5, upper=0.2),
    lambda fw: fw.nn.functional.maxout(fw.ones([1, 3, 2, 2]), 2),
    lambda fw: fw.nn.functional.maxout(fw.ones([1, 4, 2, 2]), 2, axis=2),
    lambda fw: fw.nn.functional.relu(fw.to_tensor([1, 2])),
    lambda fw: fw.nn.Softmax2D()(fw.ones([2, 2])),
], ids=["celu0", "selu_scale", "softshrink", "rrelu_bounds", "maxout_groups", "maxout_axis", "relu_int",
        "softmax2d_rank"])
def test_errors_match_paddle(case):
    same_exception(case)
