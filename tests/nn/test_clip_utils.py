"""Gradient clipping strategies and paddle.nn.utils against real Paddle."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref

G = [np.array([[3.0, -4.0], [1.0, 2.0]], "float32"), np.array([0.5, -7.0], "float32")]


@pytest.mark.parametrize("make", [
    lambda nn: nn.ClipGradByValue(1.0), lambda nn: nn.ClipGradByValue(2.0, -0.5),
    lambda nn: nn.ClipGradByNorm(1.0), lambda nn: nn.ClipGradByNorm(100.0),
    lambda nn: nn.ClipGradByGlobalNorm(1.0), lambda nn: nn.ClipGradByGlobalNorm(100.0),
    lambda nn: nn.ClipGradByGlobalNorm(100.0, auto_skip_clip=True),
], ids=["value", "value_min", "norm", "norm_noop", "global", "global_big", "global_skip"])
def test_clip_strategies(make):
    def get(fw):
        ps = [fw.create_parameter(list(g.shape), "float32") for g in G]
        ps.append(fw.create_parameter([2], "float32", attr=fw.ParamAttr(need_clip=False)))
        pg = [(p, fw.to_tensor(g)) for p, g in zip(ps, G + [np.array([9.0, 9.0], "float32")])]
        pg.append((fw.create_parameter([1], "float32"), None))
        clip = make(fw.nn)
        return str(clip), [g.numpy().tolist() for _, g in clip(pg)]
    (so, ours), (st, theirs) = both(get)
    assert so == st
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5)


def _grads(fw):
    fc = fw.nn.Linear(3, 2)
    fc.set_state_dict({"weight": np.arange(6, dtype="float32").reshape(3, 2) / 5,
                       "bias": np.array([0.1, -0.2], "float32")})
    (fc(fw.to_tensor(np.ones([4, 3], "float32"))) ** 2).sum().backward()
    return fc


@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
def test_clip_grad_norm_(norm_type):
    def get(fw):
        fc = _grads(fw)
        total = fw.nn.utils.clip_grad_norm_(fc.parameters(), 0.5, norm_type=norm_type)
        return float(total), [p.grad.numpy() for p in fc.parameters()]
    (to, go), (tt, gt) = both(get)
    np.testing.assert_allclose(to, tt, rtol=1e-5)
    for a, b in zip(go, gt):
        np.testing.assert_allclose(a, b, rtol=1e-5)


def test_clip_grad_value_and_vector_roundtrip():
    def get(fw):
        fc = _grads(fw)
        fw.nn.utils.clip_grad_value_(fc.parameters(), 1.0)
        v = fw.nn.utils.parameters_to_vector(fc.parameters())
        fw.nn.utils.vector_to_parameters(v * 2, fc.parameters())
        return [p.grad.numpy().tolist() for p in fc.parameters()], v.numpy().tolist(), fc.weight.numpy().tolist()
    ours, theirs = both(get)
    np.testing.assert_allclose(np.concatenate([np.ravel(x) for x in ours[0]]),
                               np.concatenate([np.ravel(x) for x in theirs[0]]), rtol=1e-5)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm(dim):
    paddle = paddle_ref()
    x = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")

    def get(fw):
        fc = fw.nn.Linear(3, 4)
        fc.set_state_dict({"weight": np.arange(12, dtype="float32").reshape(3, 4) / 7 - 0.5,
                           "bias": np.zeros([4], "float32")})
        fw.nn.utils.weight_norm(fc, dim=dim)
        out = fc(fw.to_tensor(x))
        out.sum().backward()
        names = [(n, list(p.shape)) for n, p in fc.named_parameters()]
        grads = [p.grad.numpy() for _, p in fc.named_parameters()]
        fw.nn.utils.remove_weight_norm(fc)
        after = [n for n, _ in fc.named_parameters()]
        return names, out.numpy(), grads, after, fc.weight.numpy()
    ours, theirs = both(get)
    assert ours[0] == theirs[0] and ours[3] == theirs[3]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)
    for a, b in zip(ours[2], theirs[2]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ours[4], theirs[4], rtol=1e-5, atol=1e-6)
    del paddle


def test_spectral_norm_structure_and_sigma():
    def get(fw):
        fc = fw.nn.utils.spectral_norm(fw.nn.Linear(3, 4), n_power_iterations=50)
        return ([(n, list(p.shape)) for n, p in fc.named_parameters()],
                [(n, list(b.shape)) for n, b in fc.named_buffers()], list(fc.state_dict()))
    ours, theirs = both(get)
    assert ours == theirs
    fc = pagaie.nn.utils.spectral_norm(pagaie.nn.Linear(3, 4), n_power_iterations=30)
    fc(pagaie.ones([1, 3]))
    s = np.linalg.svd(fc.weight.numpy(), compute_uv=False)
    assert abs(s[0] - 1.0) < 1e-3
