"""Initializers against real Paddle: statistics of large parameters, exact structured
values, default initialisation of layers, ParamAttr and global initializers."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception


def _param(fw, shape, init, dtype="float32"):
    return fw.create_parameter(shape, dtype, default_initializer=init).numpy()


STATS = [
    ("Normal", lambda I: I.Normal(0.5, 2.0), [300, 300]),
    ("TruncatedNormal", lambda I: I.TruncatedNormal(0.0, 1.0, -1.0, 2.0), [300, 300]),
    ("Uniform", lambda I: I.Uniform(-0.3, 0.7), [300, 300]),
    ("XavierUniform", lambda I: I.XavierUniform(), [300, 200]),
    ("XavierNormal", lambda I: I.XavierNormal(gain=2.0), [300, 200]),
    ("XavierUniform_conv", lambda I: I.XavierUniform(), [64, 32, 3, 3]),
    ("XavierNormal_fans", lambda I: I.XavierNormal(fan_in=10, fan_out=20), [300, 300]),
    ("KaimingNormal", lambda I: I.KaimingNormal(), [300, 200]),
    ("KaimingUniform_conv", lambda I: I.KaimingUniform(), [64, 32, 3, 3]),
    ("KaimingNormal_fan_out", lambda I: I.KaimingNormal(mode="fan_out", nonlinearity="leaky_relu",
                                                        negative_slope=0.2), [64, 32, 3, 3]),
    ("KaimingUniform_fan_in", lambda I: I.KaimingUniform(fan_in=50), [300, 300]),
]


@pytest.mark.parametrize("name,build,shape", STATS, ids=[s[0] for s in STATS])
def test_distribution_statistics(name, build, shape):
    ours, theirs = both(lambda fw: _param(fw, shape, build(fw.nn.initializer)))
    _close_stats(ours, theirs, bounded="Uniform" in name or "Truncated" in name)


def _close_stats(ours, theirs, bounded):
    assert ours.shape == theirs.shape
    sd = theirs.std()
    assert abs(ours.mean() - theirs.mean()) < 0.03 * sd + 1e-4, "mean"
    assert abs(ours.std() - sd) <= 0.03 * sd, "std"
    if bounded:
        span = theirs.max() - theirs.min()
        assert abs(ours.min() - theirs.min()) <= 0.02 * span and abs(ours.max() - theirs.max()) <= 0.02 * span


@pytest.mark.parametrize("name,build,shape", [
    ("Constant", lambda I: I.Constant(1.5), [3, 4]),
    ("Assign", lambda I: I.Assign(np.arange(12).reshape(3, 4)), [3, 4]),
    ("Assign_list", lambda I: I.Assign([1.0, 2.0, 3.0]), [3]),
    ("Assign_reshape", lambda I: I.Assign(np.arange(6)), [2, 3]),
    ("Dirac", lambda I: I.Dirac(), [4, 4, 3, 3]),
    ("Dirac_groups", lambda I: I.Dirac(groups=2), [4, 2, 3]),
    ("Bilinear", lambda I: I.Bilinear(), [2, 2, 4, 4]),
    ("Bilinear_odd", lambda I: I.Bilinear(), [1, 3, 5, 5]),
])
def test_structured_values(name, build, shape):
    ours, theirs = both(lambda fw: _param(fw, shape, build(fw.nn.initializer)))
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, err_msg=name)


def test_orthogonal():
    for shape in ([3, 5], [5, 3], [4, 2, 3]):
        w = _param(pagaie, shape, pagaie.nn.initializer.Orthogonal(gain=2.0)).reshape(shape[0], -1)
        m = w @ w.T if w.shape[0] <= w.shape[1] else w.T @ w
        np.testing.assert_allclose(m, 4 * np.eye(m.shape[0]), atol=1e-4)


def test_calculate_gain():
    names = ["sigmoid", "linear", "conv2d", "conv3d_transpose", "tanh", "relu", "leaky_relu", "selu"]
    ours, theirs = both(lambda fw: [fw.nn.initializer.calculate_gain(n) for n in names]
                        + [fw.nn.initializer.calculate_gain("leaky_relu", 0.3)])
    assert ours == theirs
    same_exception(lambda fw: fw.nn.initializer.calculate_gain("foo"))


@pytest.mark.parametrize("layer,shape", [
    (lambda nn: nn.Linear(400, 300), "weight"), (lambda nn: nn.Embedding(500, 200), "weight"),
    (lambda nn: nn.Bilinear(40, 30, 50), "weight"), (lambda nn: nn.PReLU(8), "_weight"),
])
def test_default_layer_init_matches_paddle(layer, shape):
    ours, theirs = both(lambda fw: getattr(layer(fw.nn), shape).numpy())
    _close_stats(ours, theirs, bounded=True)


def test_bias_defaults_to_zero_and_int_default_error():
    assert not pagaie.nn.Linear(3, 4).bias.numpy().any()
    same_exception(lambda fw: fw.create_parameter([2], "int32"))
    ours, theirs = both(lambda fw: _param(fw, [2], fw.nn.initializer.Constant(3), dtype="int32").tolist())
    assert ours == theirs


def test_global_initializer_precedence():
    def get(fw):
        I = fw.nn.initializer
        I.set_global_initializer(I.Constant(1.0), I.Constant(2.0))
        try:
            a = fw.nn.Linear(2, 2)
            b = fw.nn.Linear(2, 2, weight_attr=fw.ParamAttr(initializer=I.Constant(5.0)))
            c = fw.nn.PReLU()  # its layer default (Constant(0.25)) yields to the global one
        finally:
            I.set_global_initializer(None)
        d = fw.nn.Linear(2, 2)
        return (a.weight.numpy().tolist(), a.bias.numpy().tolist(), b.weight.numpy().tolist(),
                c._weight.numpy().tolist(), bool(d.bias.numpy().any()))
    ours, theirs = both(get)
    assert ours == theirs


def test_param_attr_forms():
    def get(fw):
        I = fw.nn.initializer
        a = fw.nn.Linear(2, 2, weight_attr=I.Constant(0.5), bias_attr=fw.ParamAttr(initializer=I.Constant(1.0)))
        b = fw.nn.Linear(2, 2, bias_attr=False)
        c = fw.nn.Linear(2, 2, bias_attr=True)
        return (a.weight.numpy().tolist(), a.bias.numpy().tolist(), b.bias is None, c.bias is not None)
    ours, theirs = both(get)
    assert ours == theirs
    same_exception(lambda fw: fw.ParamAttr(name=""))


def test_float16_and_float64_params():
    paddle = paddle_ref()
    for dt in ("float16", "float64"):
        w = pagaie.create_parameter([100, 100], dt)
        assert str(w.dtype) == f"paddle.{dt}"
        assert abs(float(w.numpy().astype("float64").std()) - np.sqrt(6 / 200 / 3)) < 0.01
    del paddle
