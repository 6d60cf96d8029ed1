"""Names Paddle 3.3.1 exposes in ``paddle.nn`` / ``paddle.nn.functional`` outside ``__all__``
(PyTorch spellings, ``paddle.nn.init``, ``embedding_renorm_``...), compared with real Paddle."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

ALIASES = {
    "AdaptiveAvgPool1d": "AdaptiveAvgPool1D", "AdaptiveAvgPool2d": "AdaptiveAvgPool2D",
    "AdaptiveAvgPool3d": "AdaptiveAvgPool3D", "MaxUnpool1d": "MaxUnPool1D", "MaxUnpool2d": "MaxUnPool2D",
    "MaxUnpool3d": "MaxUnPool3D", "UpsamplingBilinear2d": "UpsamplingBilinear2D",
    "UpsamplingNearest2d": "UpsamplingNearest2D", "ZeroPad1d": "ZeroPad1D", "ZeroPad2d": "ZeroPad2D",
    "ZeroPad3d": "ZeroPad3D", "HuberLoss": "SmoothL1Loss",
}


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    paddle_ref()


@pytest.mark.parametrize("alias,target", sorted(ALIASES.items()))
def test_nn_aliases(alias, target):
    ref = paddle_ref()
    assert getattr(ref.nn, alias).__name__ == getattr(ref.nn, target).__name__
    assert getattr(pagaie.nn, alias) is getattr(pagaie.nn, target)


def test_alias_layers_behave_alike():
    x = np.random.default_rng(0).standard_normal((2, 3, 4, 4)).astype("float32")
    y = np.random.default_rng(1).standard_normal((2, 3, 4, 4)).astype("float32")

    def run(fw):
        nn = fw.nn
        t = fw.to_tensor(x)
        return [nn.AdaptiveAvgPool2d(2)(t), nn.ZeroPad2d([1, 0, 2, 1])(t), nn.UpsamplingNearest2d(scale_factor=2)(t),
                nn.HuberLoss(delta=0.5)(t, fw.to_tensor(y)), repr(nn.HuberLoss()), repr(nn.ZeroPad2d(1))]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_nn_spectral_norm_and_parameter_module():
    ref = paddle_ref()
    assert ref.nn.spectral_norm is ref.nn.utils.spectral_norm
    assert pagaie.nn.spectral_norm is pagaie.nn.utils.spectral_norm
    assert pagaie.nn.parameter.Parameter is pagaie.nn.Parameter


def test_functional_pdist_diag_embed():
    x = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")
    ours, theirs = both(lambda fw: [fw.nn.functional.pdist(fw.to_tensor(x)),
                                    fw.nn.functional.pdist(fw.to_tensor(x), p=1.0),
                                    fw.nn.functional.diag_embed(fw.to_tensor(x), offset=1)])
    assert_same(ours, theirs)


@pytest.mark.parametrize("norm_type", [2.0, 1.0])
def test_embedding_renorm_(norm_type):
    w0 = np.random.default_rng(0).standard_normal((5, 3)).astype("float32") * 2

    def run(fw):
        w = fw.to_tensor(w0)
        out = fw.nn.functional.embedding_renorm_(fw.to_tensor(np.array([[0, 2], [2, 4]])), w, 1.0, norm_type)
        assert out is w
        return w
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


INIT_FNS = [
    ("constant_", lambda fw, t: fw.nn.init.constant_(t, 0.25)),
    ("ones_", lambda fw, t: fw.nn.init.ones_(t)),
    ("zeros_", lambda fw, t: fw.nn.init.zeros_(t)),
    ("eye_", lambda fw, t: fw.nn.init.eye_(t)),
]


@pytest.mark.parametrize("name,fn", INIT_FNS)
def test_nn_init_deterministic(name, fn):
    def run(fw):
        t = fw.ones([3, 4])
        r = fn(fw, t)
        return [r, t]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_nn_init_dirac_and_errors():
    def run(fw):
        t = fw.ones([4, 2, 3])
        r = fw.nn.init.dirac_(t, groups=2)
        return [r, t]
    ours, theirs = both(run)
    assert_same(ours, theirs)
    same_exception(lambda fw: fw.nn.init.eye_(fw.ones([2, 2, 2])))
    same_exception(lambda fw: fw.nn.init.orthogonal_(fw.ones([4])))


@pytest.mark.parametrize("name,kw,shape", [
    ("uniform_", dict(a=-0.5, b=2.0), [300, 200]),
    ("normal_", dict(mean=0.5, std=2.0), [300, 200]),
    ("trunc_normal_", dict(mean=0.0, std=1.0, a=-1.0, b=1.5), [300, 200]),
    ("xavier_uniform_", dict(gain=2.0), [300, 200]),
    ("xavier_normal_", dict(), [300, 200]),
    ("kaiming_uniform_", dict(a=0.1), [300, 200]),
    ("kaiming_normal_", dict(mode="fan_out", nonlinearity="relu"), [64, 16, 3, 3]),
    ("orthogonal_", dict(gain=2.0), [40, 60]),
])
def test_nn_init_random_statistics(name, kw, shape):
    def run(fw):
        fw.seed(7)  # the same draws every run: the statistical bounds cannot flake
        t = fw.zeros(shape)
        r = getattr(fw.nn.init, name)(t, **kw)
        a = t.numpy().astype("float64")
        return r, a.mean(), a.std(), a.min(), a.max()
    ours, theirs = both(run)
    assert ours[0] is None and theirs[0] is None
    scale = max(abs(theirs[2]), 1e-3)
    assert abs(ours[1] - theirs[1]) < 0.05 * scale + 0.01, (ours, theirs)
    assert abs(ours[2] - theirs[2]) < 0.05 * scale, (ours, theirs)
    if "uniform" in name or "trunc" in name:  # bounded: the extremes agree too
        assert abs(ours[3] - theirs[3]) < 0.05 * scale + 0.01 and abs(ours[4] - theirs[4]) < 0.05 * scale + 0.01
