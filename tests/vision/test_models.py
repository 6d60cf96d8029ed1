"""paddle.vision.models against real Paddle 3.3.1: same parameter names and shapes, and
the same logits once Paddle's state dict is copied in (eval mode, small inputs)."""
from __future__ import annotations

import os

import numpy as np
import pytest

import pagaie
import pagaie.vision.models as ours_models
from tests.reference import paddle_ref

FORWARD = [  # (factory or class, kwargs, input shape): smallest inputs each architecture allows
    ("LeNet", {}, (2, 1, 28, 28)),
    ("alexnet", {"num_classes": 10}, (1, 3, 224, 224)),
    ("vgg11", {"batch_norm": True, "num_classes": 10}, (1, 3, 32, 32)),
    ("vgg13", {"num_classes": 0}, (1, 3, 32, 32)),
    ("resnet18", {}, (2, 3, 64, 64)),
    ("resnext50_32x4d", {"num_classes": 10}, (1, 3, 64, 64)),
    ("resnet34", {"num_classes": 0, "with_pool": False}, (1, 3, 32, 32)),
    ("mobilenet_v1", {"scale": 0.25}, (1, 3, 64, 64)),
    ("mobilenet_v2", {"scale": 0.5}, (1, 3, 64, 64)),
    ("mobilenet_v3_small", {}, (1, 3, 64, 64)),
    ("mobilenet_v3_large", {"scale": 0.5, "num_classes": 10}, (1, 3, 64, 64)),
    ("shufflenet_v2_x0_25", {}, (1, 3, 64, 64)),
    ("shufflenet_v2_swish", {"num_classes": 10}, (1, 3, 64, 64)),
    ("squeezenet1_0", {}, (1, 3, 64, 64)),
    ("squeezenet1_1", {"num_classes": 10, "with_pool": False}, (1, 3, 64, 64)),
    ("densenet121", {"num_classes": 10}, (1, 3, 64, 64)),
    ("googlenet", {"num_classes": 10}, (1, 3, 224, 224)),
    ("inception_v3", {"num_classes": 10}, (1, 3, 75, 75)),
]

# Largest variants of each family: parameter names and shapes only (no forward).
NAMES_ONLY = [
    ("resnet152", {}), ("resnext152_64x4d", {"num_classes": 10}), ("wide_resnet101_2", {"num_classes": 10}),
    ("vgg19", {"batch_norm": True, "num_classes": 10}), ("densenet264", {}), ("densenet161", {}),
    ("shufflenet_v2_x2_0", {}), ("mobilenet_v1", {}), ("mobilenet_v2", {"scale": 1.4}),
    ("mobilenet_v3_large", {}),
]

# The remaining factories (same code paths at other depths/widths): slow, opt-in.
OTHERS = ["resnet50", "resnet101", "resnext50_64x4d", "resnext101_32x4d", "resnext101_64x4d",
          "resnext152_32x4d", "wide_resnet50_2", "vgg16", "densenet169", "densenet201",
          "shufflenet_v2_x0_33", "shufflenet_v2_x0_5", "shufflenet_v2_x1_0", "shufflenet_v2_x1_5"]


def _signature(layer) -> list:
    return [(k, list(v.shape)) for k, v in layer.state_dict().items()]


def _randomised_state(model, seed: int = 0) -> dict:
    """Paddle's initial parameters, with non-trivial BatchNorm statistics."""
    rng = np.random.default_rng(seed)
    out = {}
    for k, v in model.state_dict().items():
        a = v.numpy()
        if k.endswith("_mean"):
            a = rng.normal(0, 0.1, a.shape).astype(a.dtype)
        elif k.endswith("_variance"):
            a = rng.uniform(0.5, 1.5, a.shape).astype(a.dtype)
        out[k] = a
    return out


def _outputs(v) -> list:
    return [np.asarray(o.numpy()) for o in (v if isinstance(v, (list, tuple)) else [v])]


def _compare_forward(theirs, ours, shape, seed: int = 1) -> None:
    theirs.eval()
    ours.eval()
    x = np.random.default_rng(seed).standard_normal(shape).astype("float32")
    ref = paddle_ref()
    got, want = _outputs(ours(pagaie.to_tensor(x))), _outputs(theirs(ref.to_tensor(x)))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(w).max())))


@pytest.mark.parametrize("name,kwargs,shape", FORWARD, ids=[c[0] + str(i) for i, c in enumerate(FORWARD)])
def test_logits_match_paddle(name, kwargs, shape):
    ref = paddle_ref()
    ref.seed(0)
    theirs = getattr(ref.vision.models, name)(**kwargs)
    ours = getattr(ours_models, name)(**kwargs)
    assert _signature(ours) == _signature(theirs)
    missing, unexpected = ours.set_state_dict(_randomised_state(theirs))
    assert not missing and not unexpected
    theirs.set_state_dict(_randomised_state(theirs))
    _compare_forward(theirs, ours, shape)


@pytest.mark.parametrize("name,kwargs", NAMES_ONLY, ids=[c[0] for c in NAMES_ONLY])
def test_parameter_names_and_shapes(name, kwargs):
    ref = paddle_ref()
    with ref.LazyGuard():
        theirs = getattr(ref.vision.models, name)(**kwargs)
    assert _signature(getattr(ours_models, name)(**kwargs)) == _signature(theirs)


@pytest.mark.slow
@pytest.mark.parametrize("name", OTHERS)
def test_parameter_names_and_shapes_other_variants(name):
    ref = paddle_ref()
    with ref.LazyGuard():
        theirs = getattr(ref.vision.models, name)(num_classes=10)
    assert _signature(getattr(ours_models, name)(num_classes=10)) == _signature(theirs)


def test_classes_with_explicit_arguments():
    ref = paddle_ref()
    from pagaie.vision.models.resnet import BasicBlock
    cases = [
        (lambda m: m.ResNet(m.resnet.BasicBlock, 18, width=64, num_classes=7, with_pool=True, groups=1),
         lambda: ours_models.ResNet(BasicBlock, 18, width=64, num_classes=7, with_pool=True, groups=1)),
        (lambda m: m.DenseNet(layers=121, bn_size=2, dropout=0.1, num_classes=5),
         lambda: ours_models.DenseNet(layers=121, bn_size=2, dropout=0.1, num_classes=5)),
        (lambda m: m.ShuffleNetV2(scale=0.33, act="swish", num_classes=3),
         lambda: ours_models.ShuffleNetV2(scale=0.33, act="swish", num_classes=3)),
        (lambda m: m.SqueezeNet("1.1", num_classes=4), lambda: ours_models.SqueezeNet("1.1", num_classes=4)),
        (lambda m: m.MobileNetV3Small(scale=0.75, num_classes=3),
         lambda: ours_models.MobileNetV3Small(scale=0.75, num_classes=3)),
    ]
    for build_theirs, build_ours in cases:
        theirs, ours = build_theirs(ref.vision.models), build_ours()
        assert _signature(ours) == _signature(theirs)
        ours.set_state_dict(_randomised_state(theirs))
        theirs.set_state_dict(_randomised_state(theirs))
        _compare_forward(theirs, ours, (1, 3, 64, 64))


def test_pdparams_saved_by_paddle_load(tmp_path):
    ref = paddle_ref()
    ref.seed(3)
    theirs = ref.vision.models.mobilenet_v3_small(num_classes=10)
    theirs.set_state_dict(_randomised_state(theirs))
    path = str(tmp_path / "mnv3.pdparams")
    ref.save(theirs.state_dict(), path)
    ours = ours_models.mobilenet_v3_small(num_classes=10)
    missing, unexpected = ours.set_state_dict(pagaie.load(path))
    assert not missing and not unexpected
    _compare_forward(theirs, ours, (2, 3, 64, 64))


def test_pretrained_reads_local_cache(tmp_path, monkeypatch):
    ref = paddle_ref()
    theirs = ref.vision.models.squeezenet1_1()
    theirs.set_state_dict(_randomised_state(theirs))
    ref.save(theirs.state_dict(), str(tmp_path / "SqueezeNet1_1_pretrained.pdparams"))
    monkeypatch.setenv("PAGAIE_WEIGHTS_HOME", str(tmp_path))
    ours = ours_models.squeezenet1_1(pretrained=True)
    _compare_forward(theirs, ours, (1, 3, 64, 64))


def test_pretrained_missing_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PAGAIE_WEIGHTS_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError) as info:
        ours_models.squeezenet1_0(pretrained=True)
    msg = str(info.value)
    assert os.path.join(str(tmp_path), "SqueezeNet1_0_pretrained.pdparams") in msg
    assert "no network download" in msg


def test_pretrained_unpublished_variant_raises_like_paddle():
    # Paddle publishes no weights for these; it asserts before any download.
    with pytest.raises(AssertionError):
        ours_models.mobilenet_v2(pretrained=True, scale=0.5)
    with pytest.raises(AssertionError):
        ours_models.vgg11(pretrained=True)


def test_public_names_match_paddle():
    ref = paddle_ref()
    assert sorted(ours_models.__all__) == sorted(ref.vision.models.__all__)
    import inspect
    for name in ref.vision.models.__all__:
        a, b = getattr(ours_models, name), getattr(ref.vision.models, name)
        pa = list(inspect.signature(a).parameters.items())
        pb = list(inspect.signature(b).parameters.items())
        assert [(k, v.default, v.kind) for k, v in pa] == [(k, v.default, v.kind) for k, v in pb], name
