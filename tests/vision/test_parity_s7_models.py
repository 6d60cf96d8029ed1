"""Session-7 sweep of paddle.vision.models against real Paddle 3.3.1.

What test_models.py and test_parity_models_sweep.py do not pin: the parameters each class and
builder draws after ``paddle.seed`` (bit for bit, with no state copied over), the eval outputs
of those freshly seeded models, train-mode outputs with dropout drawn from the same stream and
the gradient of the input, ``pretrained=True`` without a network, and errors for bad inputs.
Inputs are small; the largest variants (every build of theirs costs seconds) are opt-in slow.
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref, same_exception


@pytest.fixture(autouse=True)
def _cpu():
    pagaie.set_device("cpu")
    paddle_ref().set_device("cpu")


def _m(p):
    return p.vision.models


# name -> (builder of either framework's model, input shape for an eval forward or None)
SEEDED = {
    "AlexNet": (lambda p: _m(p).AlexNet(num_classes=0), (1, 3, 224, 224)),
    "GoogLeNet": (lambda p: _m(p).GoogLeNet(num_classes=5), (1, 3, 224, 224)),
    "InceptionV3": (lambda p: _m(p).InceptionV3(num_classes=4), (1, 3, 75, 75)),
    "MobileNetV1": (lambda p: _m(p).MobileNetV1(scale=0.25, num_classes=6), (1, 3, 64, 64)),
    "MobileNetV1-nohead": (lambda p: _m(p).MobileNetV1(0.5, num_classes=0, with_pool=False), (1, 3, 32, 32)),
    "MobileNetV2": (lambda p: _m(p).MobileNetV2(scale=0.35, num_classes=6), (1, 3, 64, 64)),
    "MobileNetV2-nohead": (lambda p: _m(p).MobileNetV2(0.5, num_classes=-1, with_pool=False), (1, 3, 32, 32)),
    "VGG": (lambda p: _m(p).VGG(_m(p).vgg.make_layers([8, "M", 16, "M", 512], batch_norm=True),
                                num_classes=0), (1, 3, 32, 32)),
    "VGG-nopool": (lambda p: _m(p).VGG(_m(p).vgg.make_layers([8, "M", 16]), 0, False), (1, 3, 16, 16)),
    "resnet34": (lambda p: _m(p).resnet34(num_classes=0), (1, 3, 32, 32)),
    "ResNeXt-small": (lambda p: _m(p).ResNet(_m(p).resnet.BottleneckBlock, 50, width=4, groups=8,
                                             num_classes=3), (1, 3, 32, 32)),
    "densenet121": (lambda p: _m(p).densenet121(bn_size=2, dropout=0.2, num_classes=7), (1, 3, 32, 32)),
    "shufflenet_v2_x0_5": (lambda p: _m(p).shufflenet_v2_x0_5(), (1, 3, 64, 64)),
    "shufflenet_v2_x1_0": (lambda p: _m(p).shufflenet_v2_x1_0(num_classes=-1), (1, 3, 64, 64)),
    "shufflenet_v2_x1_5": (lambda p: _m(p).shufflenet_v2_x1_5(num_classes=3), (1, 3, 64, 64)),
    "shufflenet_v2_x2_0": (lambda p: _m(p).shufflenet_v2_x2_0(num_classes=0, with_pool=False), None),
    "squeezenet1_0": (lambda p: _m(p).squeezenet1_0(num_classes=5), (1, 3, 64, 64)),
    "LeNet": (lambda p: _m(p).LeNet(num_classes=-1), (2, 1, 28, 28)),
    "mobilenet_v3_large": (lambda p: _m(p).mobilenet_v3_large(scale=0.5), (1, 3, 64, 64)),
}

# the largest variants: built once each, for state-dict and parameter parity only
HEAVY = ["resnet101", "resnext50_64x4d", "resnext101_32x4d", "resnext101_64x4d", "resnext152_32x4d",
         "densenet169", "densenet201"]


def _seeded(build, seed: int = 7):
    """(ours, theirs) built right after the same paddle.seed, and the next draw of each."""
    ref = paddle_ref()
    ref.seed(seed)
    theirs = build(ref)
    their_next = ref.rand([3]).numpy()
    pagaie.seed(seed)
    ours = build(pagaie)
    our_next = pagaie.rand([3]).numpy()
    return ours, theirs, our_next, their_next


def _same_parameters(ours, theirs, our_next, their_next) -> None:
    a, b = ours.state_dict(), theirs.state_dict()
    assert list(a) == list(b)
    for k in b:
        assert str(a[k].dtype) == str(b[k].dtype), k
        np.testing.assert_array_equal(a[k].numpy(), b[k].numpy(), err_msg=k)
    np.testing.assert_array_equal(our_next, their_next, err_msg="the draw after the build")


@pytest.mark.parametrize("name", list(SEEDED))
def test_seeded_build_and_eval_forward_match_paddle(name):
    build, shape = SEEDED[name]
    ours, theirs, our_next, their_next = _seeded(build)
    _same_parameters(ours, theirs, our_next, their_next)
    assert str(ours) == str(theirs)
    if shape is None:
        return
    ours.eval()
    theirs.eval()
    x = np.random.default_rng(1).standard_normal(shape).astype("float32")
    got, want = ours(pagaie.to_tensor(x)), theirs(paddle_ref().to_tensor(x))
    # GoogLeNet: the 3-tuple (out, aux1, aux2) in eval mode too
    assert isinstance(got, tuple) == isinstance(want, tuple)
    outs = list(want) if isinstance(want, tuple) else [want]
    scale = max(1.0, max(float(np.abs(w.numpy()).max()) for w in outs))
    assert_same(got, want, rtol=1e-4, atol=1e-4 * scale)


@pytest.mark.slow
@pytest.mark.parametrize("name", HEAVY)
def test_seeded_heavy_builders_match_paddle(name):
    _same_parameters(*_seeded(lambda p: getattr(_m(p), name)()))


# --- train mode: same dropout draws, same outputs, same input gradient --------------------

TRAIN = [
    ("squeezenet1_1", {"num_classes": 4}, (2, 3, 64, 64)),
    ("mobilenet_v1", {"scale": 0.25, "num_classes": 4}, (2, 3, 64, 64)),
    ("mobilenet_v2", {"scale": 0.25, "num_classes": 4}, (2, 3, 64, 64)),
    ("mobilenet_v3_small", {"scale": 0.5, "num_classes": 4}, (2, 3, 64, 64)),
    ("shufflenet_v2_x0_5", {"num_classes": 4}, (2, 3, 64, 64)),
    ("resnet18", {"num_classes": 4}, (2, 3, 64, 64)),  # a 2x2 last map: batch norm stays well-posed
]


# GoogLeNet and InceptionV3 are left out: in float32 their input gradients differ by ~1% of the
# largest entry (max pools pick other maxima on near-ties), while in float64 they agree; their
# train-mode outputs are pinned in test_parity_models_sweep.py. DenseNet with dropout runs slow.
TRAIN_SLOW = [("alexnet", {"num_classes": 4}, (2, 3, 224, 224)),
              ("densenet121", {"dropout": 0.5, "num_classes": 4}, (2, 3, 64, 64))]


@pytest.mark.parametrize("name,kwargs,shape",
                         TRAIN + [pytest.param(*t, marks=pytest.mark.slow) for t in TRAIN_SLOW],
                         ids=[t[0] for t in TRAIN + TRAIN_SLOW])
def test_train_mode_outputs_and_input_gradient_match_paddle(name, kwargs, shape):
    ours, theirs, _, _ = _seeded(lambda p: getattr(_m(p), name)(**kwargs), seed=3)
    x = np.random.default_rng(2).standard_normal(shape).astype("float32")
    results = []
    for fw, model in ((pagaie, ours), (paddle_ref(), theirs)):
        model.train()
        xt = fw.to_tensor(x)
        xt.stop_gradient = False
        fw.seed(11)  # the dropout masks come from the same stream
        out = model(xt)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        sum((o * o).mean() for o in outs).backward()
        results.append((out, xt.grad))
    (got, got_grad), (want, want_grad) = results
    assert isinstance(got, tuple) == isinstance(want, tuple)
    outs = list(want) if isinstance(want, tuple) else [want]
    scale = max(1.0, max(float(np.abs(w.numpy()).max()) for w in outs))
    assert_same(got, want, rtol=1e-3, atol=1e-4 * scale)
    assert not any(o.stop_gradient for o in (got if isinstance(got, tuple) else [got]))
    g_scale = float(np.abs(want_grad.numpy()).max())
    assert g_scale > 0
    # a train-mode input gradient goes back through every batch-norm's batch statistics: the
    # convolution algorithms oneDNN picks for a CPU move it by up to ~1.5% of its scale
    assert_same(got_grad, want_grad, rtol=1e-3, atol=2e-2 * g_scale)


# --- pretrained=True without a network -----------------------------------------------------

@pytest.fixture
def offline(tmp_path, monkeypatch):
    """Real Paddle's download fails at once (as offline), into tmp_path; ours reads tmp_path."""
    download = importlib.import_module(f"{paddle_ref().__name__}.utils.download")
    monkeypatch.setattr(download, "WEIGHTS_HOME", str(tmp_path / "paddle"))
    monkeypatch.setitem(download._download_methods, "get", lambda url, fullname: False)
    monkeypatch.setattr(download.time, "sleep", lambda s: None)
    monkeypatch.setenv("PAGAIE_WEIGHTS_HOME", str(tmp_path / "ours"))
    return tmp_path


@pytest.mark.parametrize("name,kwargs", [
    ("resnet34", {}), ("shufflenet_v2_x1_0", {"num_classes": 10}), ("mobilenet_v1", {}),
    ("mobilenet_v2", {"num_classes": 0}), ("googlenet", {}), ("vgg16", {"num_classes": 0}),
], ids=lambda v: v if isinstance(v, str) else "")
def test_pretrained_offline_raises_like_paddle(offline, name, kwargs):
    err = same_exception(lambda p: getattr(_m(p), name)(pretrained=True, **kwargs))
    assert isinstance(err, RuntimeError) and isinstance(err, FileNotFoundError)
    msg = str(err)
    assert str(offline / "ours") in msg and "paddle.vision.models" in msg


def test_pretrained_builds_the_model_first_like_paddle(offline):
    # a bad argument is reported before any weights are looked for
    same_exception(lambda p: _m(p).resnet34(pretrained=True, scale=2))
    same_exception(lambda p: _m(p).ResNet(_m(p).resnet.BasicBlock, 20))


# --- bad inputs ------------------------------------------------------------------------------

BAD_INPUTS = [
    ("LeNet", {}, (1, 3, 28, 28)),          # wrong channel count
    ("LeNet", {}, (1, 28, 28)),             # not 4-D
    ("LeNet", {}, (1, 1, 20, 20)),          # too small for the classifier
    ("resnet18", {"num_classes": 3}, (3, 64, 64)),
    ("mobilenet_v2", {"scale": 0.25}, (1, 4, 32, 32)),
    ("shufflenet_v2_x0_5", {}, (1, 1, 32, 32)),
    ("googlenet", {"num_classes": 3}, (1, 3, 64, 64)),  # the aux heads need 224x224
]


@pytest.mark.parametrize("name,kwargs,shape", BAD_INPUTS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD_INPUTS)])
def test_bad_input_shapes_raise_like_paddle(name, kwargs, shape):
    def go(p):
        p.seed(0)
        model = getattr(_m(p), name)(**kwargs)
        model.eval()
        return model(p.ones(list(shape)))
    same_exception(go)


def test_float64_model_matches_paddle():
    ours, theirs, _, _ = _seeded(lambda p: _m(p).mobilenet_v2(scale=0.25, num_classes=3))
    x = np.random.default_rng(4).standard_normal((1, 3, 32, 32))
    for fw, model in ((pagaie, ours), (paddle_ref(), theirs)):
        model.eval()
        model.to(dtype="float64")
    got, want = ours(pagaie.to_tensor(x)), theirs(paddle_ref().to_tensor(x))
    assert_same(got, want, rtol=1e-10, atol=1e-12)
    # a float32 model refuses a float64 input in both
    same_exception(lambda p: _m(p).LeNet()(p.ones([1, 1, 28, 28], dtype="float64")))


# --- the building blocks each model module exposes --------------------------------------------

def _mod(p, name):
    return importlib.import_module(f"{p.__name__}.vision.models.{name}")


BLOCKS = {
    "resnet.BasicBlock-downsample": (lambda p: _mod(p, "resnet").BasicBlock(
        8, 16, stride=2, downsample=p.nn.Sequential(p.nn.Conv2D(8, 16, 1, stride=2), p.nn.BatchNorm2D(16))),
        (1, 8, 8, 8)),
    "resnet.BottleneckBlock-dilated": (lambda p: _mod(p, "resnet").BottleneckBlock(
        32, 8, dilation=2, groups=2, base_width=16), (1, 32, 8, 8)),
    "alexnet.ConvPoolLayer": (lambda p: _mod(p, "alexnet").ConvPoolLayer(4, 8, 3, 2, 0, 0.1, groups=2, act="relu"),
                              (1, 4, 16, 16)),
    "densenet.DenseBlock": (lambda p: _mod(p, "densenet").DenseBlock(8, 2, 2, 4, 0.0, name="x"), (1, 8, 8, 8)),
    "densenet.TransitionLayer": (lambda p: _mod(p, "densenet").TransitionLayer(8, 4), (1, 8, 8, 8)),
    "googlenet.Inception": (lambda p: _mod(p, "googlenet").Inception(8, 8, 4, 2, 4, 2, 4, 4), (1, 8, 8, 8)),
    "inceptionv3.InceptionE": (lambda p: _mod(p, "inceptionv3").InceptionE(8), (1, 8, 8, 8)),
    "inceptionv3.InceptionD": (lambda p: _mod(p, "inceptionv3").InceptionD(8), (1, 8, 9, 9)),
    "mobilenetv1.DepthwiseSeparable": (lambda p: _mod(p, "mobilenetv1").DepthwiseSeparable(8, 8, 16, 8, 2, 1.0),
                                       (1, 8, 8, 8)),
    "mobilenetv2.InvertedResidual": (lambda p: _mod(p, "mobilenetv2").InvertedResidual(8, 16, 2, 6), (1, 8, 8, 8)),
    "mobilenetv3.InvertedResidual": (lambda p: _mod(p, "mobilenetv3").InvertedResidual(
        8, 16, 8, 3, 1, True, p.nn.Hardswish, p.nn.BatchNorm2D), (1, 8, 8, 8)),
    "shufflenetv2.InvertedResidualDS": (lambda p: _mod(p, "shufflenetv2").InvertedResidualDS(8, 16, 2, p.nn.Swish),
                                        (1, 8, 8, 8)),
    "squeezenet.MakeFire": (lambda p: _mod(p, "squeezenet").MakeFire(8, 4, 8, 8), (1, 8, 8, 8)),
}


@pytest.mark.parametrize("name", list(BLOCKS))
def test_building_blocks_match_paddle(name):
    build, shape = BLOCKS[name]
    ours, theirs, our_next, their_next = _seeded(build)
    _same_parameters(ours, theirs, our_next, their_next)
    assert str(ours) == str(theirs)
    ours.eval()
    theirs.eval()
    x = np.random.default_rng(3).standard_normal(shape).astype("float32")
    assert_same(ours(pagaie.to_tensor(x)), theirs(paddle_ref().to_tensor(x)), rtol=1e-4, atol=1e-5)


def test_block_helpers_match_paddle():
    x = np.arange(2 * 8 * 2 * 2, dtype="float32").reshape(2, 8, 2, 2)
    assert_same(_mod(pagaie, "shufflenetv2").channel_shuffle(pagaie.to_tensor(x), 4),
                _mod(paddle_ref(), "shufflenetv2").channel_shuffle(paddle_ref().to_tensor(x), 4))
    assert _mod(pagaie, "shufflenetv2").create_activation_layer(None) is None
    same_exception(lambda p: _mod(p, "shufflenetv2").create_activation_layer("gelu"))
    same_exception(lambda p: _mod(p, "mobilenetv3").InvertedResidualConfig(16, 3, 16, 16, True, "gelu", 2))
    same_exception(lambda p: _mod(p, "resnet").BasicBlock(8, 8, dilation=2))
