"""Default initialisation of layers, every ``paddle.nn.initializer``, ``calculate_gain`` and
``paddle.nn.utils`` against real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.audit_nn.cases_init import GAINS, INIT_LAYERS, INITIALIZERS
from tests.audit_nn.init_harness import compare_stats, layer_params, param_flags
from tests.reference import assert_same, paddle_ref


@pytest.mark.parametrize("build", [pytest.param(b, id=i) for i, b in INIT_LAYERS])
def test_default_init(build):
    paddle = paddle_ref()
    # seeded: the statistical comparison is then the same on every run (no flaky tail)
    paddle.seed(2024)
    pagaie.seed(2024)
    theirs, ours = build(paddle.nn), build(pagaie.nn)
    assert param_flags(ours) == param_flags(theirs)
    tp, op = layer_params(theirs), layer_params(ours)
    assert list(op) == list(tp)
    for k in tp:
        compare_stats(op[k], tp[k], k)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("make,shape", [pytest.param(m, s, id=i) for i, m, s in INITIALIZERS])
def test_initializer(make, shape, dtype):
    if dtype == "float64" and "Bilinear" in repr(make(pagaie).__class__):
        pytest.skip("Paddle bug: the Bilinear initializer makes a float32 parameter when float64 is asked")
    paddle = paddle_ref()
    vals = []
    for fw in (paddle, pagaie):
        layer = fw.nn.Layer()
        p = layer.create_parameter(shape, dtype=dtype, default_initializer=make(fw))
        vals.append(p.numpy())
        if "Orthogonal" in repr(make(fw).__class__):
            flat = p.numpy().reshape(shape[0], -1)
            rows, cols = flat.shape
            gram = flat @ flat.T if rows <= cols else flat.T @ flat
            gain = 2.0 if shape == [60, 40] else 1.0
            np.testing.assert_allclose(gram, gain ** 2 * np.eye(min(rows, cols)), atol=1e-4)
    compare_stats(vals[1], vals[0], repr(make(pagaie)))


@pytest.mark.parametrize("make,shape", [pytest.param(m, s, id=i) for i, m, s in INITIALIZERS[:8]])
def test_initializer_call_on_tensor(make, shape):
    """An initializer object called directly on an existing parameter fills it in place."""
    paddle = paddle_ref()
    vals = []
    for fw in (paddle, pagaie):
        lin = fw.nn.Linear(shape[0], shape[1])
        make(fw)(lin.weight)
        vals.append(lin.weight.numpy())
    compare_stats(vals[1], vals[0], "in-place init")


@pytest.mark.parametrize("nl,param", GAINS)
def test_calculate_gain(nl, param):
    paddle = paddle_ref()
    assert_same(pagaie.nn.initializer.calculate_gain(nl, param), paddle.nn.initializer.calculate_gain(nl, param))


def test_set_global_initializer():
    paddle = paddle_ref()
    vals = []
    for fw in (paddle, pagaie):
        fw.nn.initializer.set_global_initializer(fw.nn.initializer.Constant(0.3), fw.nn.initializer.Constant(0.1))
        try:
            lin = fw.nn.Linear(3, 2)
            conv = fw.nn.Conv2D(2, 2, 3)
            custom = fw.nn.Linear(3, 2, weight_attr=fw.nn.initializer.Constant(2.0))
        finally:
            fw.nn.initializer.set_global_initializer(None)
        after = fw.nn.Linear(3, 2, bias_attr=fw.nn.initializer.Constant(5.0))
        vals.append([lin.weight.numpy(), lin.bias.numpy(), conv.weight.numpy(), conv.bias.numpy(),
                     custom.weight.numpy(), after.bias.numpy()])
    assert_same(vals[1], vals[0])


def _model(fw):
    with fw.utils.unique_name.guard():
        return fw.nn.Sequential(fw.nn.Linear(3, 4), fw.nn.Linear(4, 2))


def _with_grads(fw, start):
    m = _model(fw)
    m.set_state_dict(start)
    x = fw.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    (m(x) ** 2).sum().backward()
    return m


@pytest.mark.parametrize("kw", [dict(max_norm=0.5), dict(max_norm=1.0, norm_type=1.0),
                                dict(max_norm=0.2, norm_type=float("inf")), dict(max_norm=100.0)])
def test_clip_grad_norm_(kw):
    paddle = paddle_ref()
    start = {k: v.numpy() for k, v in _model(paddle).state_dict().items()}
    res = []
    for fw in (paddle, pagaie):
        m = _with_grads(fw, start)
        total = fw.nn.utils.clip_grad_norm_(m.parameters(), **kw)
        res.append([total] + [p.grad for p in m.parameters()])
    assert_same(res[1], res[0], rtol=1e-5, atol=1e-6)


def test_clip_grad_value_and_vectors():
    paddle = paddle_ref()
    start = {k: v.numpy() for k, v in _model(paddle).state_dict().items()}
    res = []
    for fw in (paddle, pagaie):
        m = _with_grads(fw, start)
        fw.nn.utils.clip_grad_value_(m.parameters(), 0.7)
        vec = fw.nn.utils.parameters_to_vector(m.parameters())
        fw.nn.utils.vector_to_parameters(vec * 2, m.parameters())
        res.append([p.grad for p in m.parameters()] + [vec] + [p for p in m.parameters()])
    assert_same(res[1], res[0])


@pytest.mark.parametrize("dim", [0, 1, None, -1])
def test_weight_norm(dim):
    paddle = paddle_ref()
    start = {k: v.numpy() for k, v in _model(paddle).state_dict().items()}
    res = []
    for fw in (paddle, pagaie):
        m = _model(fw)
        m.set_state_dict(start)
        fw.nn.utils.weight_norm(m[0], dim=dim)
        names = [(n, list(p.shape)) for n, p in m.named_parameters()]
        x = fw.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
        out = m(x)
        out.sum().backward()
        grads = [p.grad for p in m.parameters()]
        fw.nn.utils.remove_weight_norm(m[0])
        res.append([names, out, grads, [(n, list(p.shape)) for n, p in m.named_parameters()], m[0].weight])
    assert_same(res[1], res[0], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw", [dict(), dict(n_power_iterations=3, dim=1)])
def test_spectral_norm_shapes(kw):
    paddle = paddle_ref()
    res = []
    for fw in (paddle, pagaie):
        m = fw.nn.Linear(3, 4)
        fw.nn.utils.spectral_norm(m, **kw)
        res.append(sorted((n, list(p.shape)) for n, p in m.state_dict().items()))
    assert res[1] == res[0]
