"""Differential sweep of paddle.vision.models against real Paddle 3.3.1.

Complements tests/vision/test_models.py (logits of one model per family, names and shapes of
the largest variants) with: the full state-dict signature (keys in order, shapes, dtypes,
buffers, stop_gradient, persistable), sublayer types and printed form of every factory;
constructor variants; num_classes <= 0 / with_pool=False outputs; odd input sizes; train mode
(outputs, batch-norm statistics, gradients); the ``model_urls`` tables and which weights file
``pretrained=True`` reads; constructor errors. Inputs are small and everything is seeded.
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import pagaie
import pagaie.vision.models as ours_models
from tests.reference import assert_same, paddle_ref, same_exception
from tests.vision.test_models import _randomised_state

_FACTORIES = [n for n in ours_models.__all__ if n[0].islower()] + ["LeNet"]
# Their keys and shapes are already pinned by test_models.py in every run; the full
# signature of these five (the slowest to build) runs with PAGAIE_SLOW=1.
_HEAVY = {"resnet152", "resnext152_64x4d", "wide_resnet101_2", "densenet161", "densenet264"}
_MODULES = ["alexnet", "densenet", "googlenet", "inceptionv3", "mobilenetv1", "mobilenetv2", "mobilenetv3",
            "resnet", "shufflenetv2", "squeezenet", "vgg"]


def _dtype(v) -> str:
    # "paddle.float32" (eager) and "DataType.FLOAT32" (under LazyGuard) both give "float32"
    return str(v.dtype).rsplit(".", 1)[-1].lower()


def _signature(model) -> tuple:
    buffers = {n for n, _ in model.named_buffers()}
    state = [(k, list(v.shape), _dtype(v), bool(v.stop_gradient), bool(v.persistable), k in buffers)
             for k, v in model.state_dict().items()]
    params = [n for n, _ in model.named_parameters()]
    subs = [(n, type(layer).__name__) for n, layer in model.named_sublayers()]
    return state, params, subs, str(model)


def _build(mod, name: str, kwargs: dict):
    if name == "ResNet":
        kwargs = dict(kwargs, block=getattr(mod.resnet, kwargs["block"]))
    return getattr(mod, name)(**kwargs)


def _pair(name: str, kwargs: dict, seed: int = 0):
    """(ours, theirs) built alike, with Paddle's (randomised) state copied into ours."""
    ref = paddle_ref()
    ref.seed(seed)
    theirs, ours = _build(ref.vision.models, name, kwargs), _build(ours_models, name, kwargs)
    state = _randomised_state(theirs, seed)
    theirs.set_state_dict(state)
    missing, unexpected = ours.set_state_dict(state)
    assert not missing and not unexpected
    return ours, theirs


def _run(ours, theirs, shape, seed: int = 1):
    x = np.random.default_rng(seed).standard_normal(shape).astype("float32")
    ref = paddle_ref()
    return ours(pagaie.to_tensor(x)), theirs(ref.to_tensor(x))


def _close(got, want, rtol: float = 1e-4) -> None:
    """Same structure, shapes and dtypes; values within rtol of the largest magnitude."""
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    want = list(want) if isinstance(want, (list, tuple)) else [want]
    scale = max([1.0] + [float(np.abs(w.numpy()).max()) for w in want if w.size])
    assert_same(got, want, rtol=rtol, atol=rtol * scale)


# --- the state-dict signature of every model -------------------------------------------

@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in _HEAVY else n
                                  for n in _FACTORIES])
def test_every_factory_signature_matches_paddle(name):
    ref = paddle_ref()
    # VGG's classifier is the same 120M parameters for every depth: build it once (vgg11)
    kwargs = {"num_classes": 0} if name in ("vgg13", "vgg16", "vgg19") else {}
    with ref.LazyGuard():
        theirs = getattr(ref.vision.models, name)(**kwargs)
    ours = getattr(ours_models, name)(**kwargs)
    assert _signature(ours) == _signature(theirs)


VARIANTS = [
    ("vgg11", {"batch_norm": True, "num_classes": 0}), ("vgg13", {"batch_norm": True, "num_classes": 0}),
    ("vgg11", {"with_pool": False, "num_classes": 0}), ("alexnet", {"num_classes": -1}),
    ("LeNet", {"num_classes": 0}), ("resnet18", {"num_classes": 0, "with_pool": False}),
    ("resnet18", {"num_classes": -1}), ("resnext50_32x4d", {"num_classes": 0}),
    ("ResNet", {"block": "BasicBlock", "depth": 50, "num_classes": 3}),
    ("ResNet", {"block": "BottleneckBlock", "depth": 18, "width": 16, "groups": 2, "num_classes": 3}),
    ("densenet121", {"bn_size": 2, "dropout": 0.5, "num_classes": 0}),
    ("DenseNet", {"layers": 121, "with_pool": False, "num_classes": 0}),
    ("squeezenet1_0", {"num_classes": 0}), ("squeezenet1_1", {"with_pool": False, "num_classes": 7}),
    ("googlenet", {"num_classes": 0}), ("googlenet", {"with_pool": False, "num_classes": -1}),
    ("inception_v3", {"num_classes": 0, "with_pool": False}),
    ("ShuffleNetV2", {"scale": 0.5, "act": None}), ("ShuffleNetV2", {"scale": 1.5, "act": "swish"}),
    ("ShuffleNetV2", {"scale": 1, "num_classes": 0}),
] + [(n, {"scale": s}) for n in ("mobilenet_v1", "mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large")
     for s in (0.25, 0.35, 0.75, 1.3)] + [
    ("MobileNetV1", {"num_classes": 0, "with_pool": False}), ("MobileNetV2", {"num_classes": -1}),
    ("MobileNetV3Small", {"scale": 0.5, "num_classes": 0}), ("MobileNetV3Large", {"with_pool": False}),
]


@pytest.mark.parametrize("name,kwargs", VARIANTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VARIANTS)])
def test_variant_signature_matches_paddle(name, kwargs):
    ref = paddle_ref()
    with ref.LazyGuard():
        theirs = _build(ref.vision.models, name, kwargs)
    assert _signature(_build(ours_models, name, kwargs)) == _signature(theirs)


def test_mobilenet_v3_config_matches_paddle():
    ref = paddle_ref()
    for cls, scale in (("MobileNetV3Small", 0.75), ("MobileNetV3Large", 1.3)):
        with ref.LazyGuard():
            theirs = getattr(ref.vision.models, cls)(scale=scale)
        ours = getattr(ours_models, cls)(scale=scale)
        fields = ("in_channels", "kernel", "expanded_channels", "out_channels", "use_se", "stride")
        row = lambda c: [getattr(c, f) for f in fields] + [c.activation_layer.__name__]  # noqa: E731
        assert [row(c) for c in ours.config] == [row(c) for c in theirs.config]
        assert (ours.scale, ours.num_classes, ours.with_pool, ours.lastconv_in_channels,
                ours.lastconv_out_channels, ours.last_channel) == (
            theirs.scale, theirs.num_classes, theirs.with_pool, theirs.lastconv_in_channels,
            theirs.lastconv_out_channels, theirs.last_channel)


# --- eval-mode outputs --------------------------------------------------------------------

EVAL = [  # code paths and sizes test_models.py does not run
    ("resnet50", {"num_classes": 7}, (1, 3, 32, 32)),
    ("resnet18", {}, (1, 3, 33, 47)),
    ("resnet18", {"num_classes": 0}, (2, 3, 32, 32)),
    ("resnet18", {"num_classes": -1, "with_pool": False}, (1, 3, 32, 32)),
    ("vgg11", {"batch_norm": True, "num_classes": 0, "with_pool": False}, (1, 3, 37, 53)),
    ("vgg11", {"num_classes": 0}, (1, 3, 32, 32)),
    ("alexnet", {"num_classes": 0}, (1, 3, 224, 224)),
    ("LeNet", {"num_classes": -1}, (2, 1, 28, 28)),
    ("mobilenet_v1", {"scale": 0.35, "num_classes": 0, "with_pool": False}, (1, 3, 64, 64)),
    ("mobilenet_v2", {"scale": 0.35, "num_classes": 3}, (1, 3, 37, 53)),
    ("mobilenet_v2", {"scale": 1.3, "num_classes": 0}, (1, 3, 32, 32)),
    ("mobilenet_v3_small", {"scale": 0.35, "num_classes": -1, "with_pool": False}, (1, 3, 37, 53)),
    ("mobilenet_v3_large", {"scale": 0.75, "num_classes": 0}, (1, 3, 64, 64)),
    ("squeezenet1_0", {"num_classes": 0}, (1, 3, 67, 51)),
    ("squeezenet1_1", {}, (1, 3, 67, 51)),
    ("shufflenet_v2_x0_33", {"num_classes": 0, "with_pool": False}, (1, 3, 45, 39)),
    ("ShuffleNetV2", {"scale": 0.5, "act": None, "num_classes": 3}, (1, 3, 64, 64)),
    ("densenet121", {"bn_size": 2, "dropout": 0.5, "num_classes": 3}, (1, 3, 41, 37)),
    ("densenet121", {"num_classes": 0}, (1, 3, 32, 32)),
    ("googlenet", {"num_classes": 0}, (1, 3, 227, 230)),
    ("googlenet", {"num_classes": -1, "with_pool": False}, (1, 3, 224, 224)),
    ("inception_v3", {"num_classes": 3}, (1, 3, 80, 99)),
    ("inception_v3", {"num_classes": 0, "with_pool": False}, (1, 3, 75, 75)),
]


@pytest.mark.parametrize("name,kwargs,shape", EVAL, ids=[f"{c[0]}-{i}" for i, c in enumerate(EVAL)])
def test_eval_outputs_match_paddle(name, kwargs, shape):
    ours, theirs = _pair(name, kwargs)
    ours.eval()
    theirs.eval()
    _close(*_run(ours, theirs, shape))


def test_with_pool_false_and_a_classifier_raises_like_paddle():
    def go(p):
        p.seed(0)
        model = p.vision.models.resnet18(with_pool=False)
        model.eval()
        return model(p.ones([1, 3, 64, 64]))
    msg = str(same_exception(go))
    assert "linear" in msg and "2048" in msg


def test_densenet_without_pool_returns_features():
    # Paddle 3.3.1 crashes here (UnboundLocalError in DenseNet.forward); pagaie returns the
    # feature map, whose spatial mean is what Paddle's pooled model gives.
    ours, _ = _pair("densenet121", {"num_classes": 0, "with_pool": False})
    _, theirs = _pair("densenet121", {"num_classes": 0})
    ours.eval()
    theirs.eval()
    got, want = _run(ours, theirs, (1, 3, 64, 64))
    assert got.shape == [1, 1024, 2, 2]
    _close(got.mean(axis=[2, 3], keepdim=True), want)


# --- train mode ---------------------------------------------------------------------------

def _train(model):
    model.train()
    for layer in model.sublayers():  # dropout draws differ between frameworks
        if type(layer).__name__ == "Dropout":
            layer.eval()


@pytest.mark.parametrize("name,kwargs,shape", [
    ("resnet18", {"num_classes": 5}, (2, 3, 64, 64)),
    ("mobilenet_v3_small", {"scale": 0.5, "num_classes": 5}, (4, 3, 64, 64)),
    ("shufflenet_v2_swish", {"num_classes": 5}, (2, 3, 64, 64)),
    ("vgg11", {"batch_norm": True, "num_classes": 0}, (2, 3, 32, 32)),
])
def test_train_mode_outputs_statistics_and_gradients_match_paddle(name, kwargs, shape):
    ours, theirs = _pair(name, kwargs)
    _train(ours)
    _train(theirs)
    got, want = _run(ours, theirs, shape)
    _close(got, want)
    # the running statistics moved the same way
    a, b = ours.state_dict(), theirs.state_dict()
    for k in b:
        if k.endswith(("_mean", "_variance")):
            np.testing.assert_allclose(a[k].numpy(), b[k].numpy(), rtol=1e-4, atol=1e-5, err_msg=k)
    (got * got).mean().backward()
    (want * want).mean().backward()
    theirs_params = dict(theirs.named_parameters())
    for k, p in ours.named_parameters():
        g, w = p.grad, theirs_params[k].grad
        assert (g is None) == (w is None), k
        if w is None:  # batch-norm statistics are stop_gradient parameters in Paddle too
            continue
        scale = max(1e-3, float(np.abs(w.numpy()).max()))
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-3, atol=1e-3 * scale, err_msg=k)


def test_train_mode_auxiliary_outputs_match_paddle():
    ref = paddle_ref()
    ref.seed(0)
    for name, kwargs, shape in (("googlenet", {"num_classes": 4}, (2, 3, 224, 224)),
                                ("googlenet", {"num_classes": 0}, (1, 3, 224, 224)),
                                # batch norm over only 2 values per channel is ill-conditioned in
                                # float32: keep the last feature map at 2x2
                                ("inception_v3", {"num_classes": 4}, (2, 3, 107, 107))):
        ours, theirs = _pair(name, kwargs)
        _train(ours)
        _train(theirs)
        got, want = _run(ours, theirs, shape)
        assert isinstance(got, tuple) == isinstance(want, tuple)
        _close(got, want, rtol=1e-3)
        assert not any(o.stop_gradient for o in (got if isinstance(got, tuple) else [got]))


# --- pretrained weights -------------------------------------------------------------------

@pytest.mark.parametrize("module", _MODULES)
def test_model_urls_match_paddle(module):
    ref = paddle_ref()
    theirs = importlib.import_module(f"{ref.__name__}.vision.models.{module}").model_urls
    ours = importlib.import_module(f"pagaie.vision.models.{module}").model_urls
    assert list(ours.items()) == list(theirs.items())


@pytest.fixture
def paddle_cache(tmp_path, monkeypatch):
    """Point both frameworks' weight lookups at tmp_path; returns the URLs Paddle asked for."""
    ref = paddle_ref()
    asked: list = []

    def lookup(url, md5sum=None):
        asked.append(url)
        return str(tmp_path / url.rsplit("/", 1)[-1])

    for module in _MODULES:
        monkeypatch.setattr(importlib.import_module(f"{ref.__name__}.vision.models.{module}"),
                            "get_weights_path_from_url", lookup)
    monkeypatch.setenv("PAGAIE_WEIGHTS_HOME", str(tmp_path))
    return asked


@pytest.mark.parametrize("name,kwargs,saved_kwargs", [
    ("mobilenet_v3_small", {"num_classes": 10}, {}),  # the classifier head is skipped: shape differs
    ("shufflenet_v2_x0_25", {}, {}),
    ("squeezenet1_1", {"num_classes": 0}, {}),
    ("mobilenet_v1", {"scale": 1.0, "with_pool": False, "num_classes": 0}, {}),
])
def test_pretrained_loads_the_file_paddle_loads(paddle_cache, tmp_path, name, kwargs, saved_kwargs):
    ref = paddle_ref()
    ref.seed(0)
    source = getattr(ref.vision.models, name)(**saved_kwargs)
    state = _randomised_state(source, seed=2)
    with pytest.raises(Exception):  # Paddle asks for the URL, then finds no file there
        getattr(ref.vision.models, name)(pretrained=True, **kwargs)
    assert len(paddle_cache) == 1
    ref.save(state, str(tmp_path / paddle_cache[0].rsplit("/", 1)[-1]))
    theirs = getattr(ref.vision.models, name)(pretrained=True, **kwargs)
    ours = getattr(ours_models, name)(pretrained=True, **kwargs)
    a, b = ours.state_dict(), theirs.state_dict()
    assert list(a) == list(b)
    loaded = [k for k in b if k in state and list(b[k].shape) == list(state[k].shape)]
    assert len(loaded) >= len(b) - 2
    for k in loaded:
        np.testing.assert_array_equal(a[k].numpy(), b[k].numpy(), err_msg=k)


@pytest.mark.parametrize("name,kwargs", [
    ("vgg16", {"batch_norm": True}), ("vgg11", {}), ("mobilenet_v1", {"scale": 1}),
    ("mobilenet_v2", {"scale": 0.5}), ("mobilenet_v3_large", {"scale": 1}),
    ("mobilenet_v3_small", {"scale": 0.75}),
])
def test_pretrained_without_published_weights_asserts_like_paddle(paddle_cache, name, kwargs):
    msg = str(same_exception(lambda p: getattr(p.vision.models, name)(pretrained=True, **kwargs)))
    assert "do not have a pretrained model now" in msg
    assert not paddle_cache


def test_pretrained_reads_the_modules_model_urls(tmp_path, monkeypatch):
    # as in Paddle, the factories look the architecture up in their module's model_urls
    import pagaie.vision.models.resnet as resnet_module
    monkeypatch.setenv("PAGAIE_WEIGHTS_HOME", str(tmp_path))
    monkeypatch.setitem(resnet_module.model_urls, "resnet18", ("https://example.invalid/mine.pdparams", "0"))
    with pytest.raises(FileNotFoundError, match="mine.pdparams"):
        ours_models.resnet18(pretrained=True)
    monkeypatch.delitem(resnet_module.model_urls, "resnet18")
    with pytest.raises(AssertionError, match="resnet18 model do not have a pretrained model"):
        ours_models.resnet18(pretrained=True)


# --- constructor errors and helpers -------------------------------------------------------

@pytest.mark.parametrize("build", [
    lambda p: p.vision.models.ResNet(p.vision.models.resnet.BasicBlock, 20),
    lambda p: p.vision.models.SqueezeNet("1.2"),
    lambda p: p.vision.models.SqueezeNet(1.1),
    lambda p: p.vision.models.DenseNet(100),
    lambda p: p.vision.models.ShuffleNetV2(0.7),
    lambda p: p.vision.models.ShuffleNetV2(0.5, act="sigmoid"),
    lambda p: p.vision.models.squeezenet1_0(num_classes=-1),
    lambda p: p.vision.models.resnet18(depth=34),
    lambda p: p.vision.models.vgg11(foo=1),
    lambda p: p.vision.models.LeNet(3, 4),
], ids=["resnet-depth", "squeezenet-version", "squeezenet-float-version", "densenet-layers",
        "shufflenet-scale", "shufflenet-act", "squeezenet-negative-classes", "factory-depth",
        "unknown-kwarg", "lenet-extra-arg"])
def test_constructor_errors_match_paddle(build):
    same_exception(build)


def test_intermediate_layer_getter_matches_paddle():
    ref = paddle_ref()
    from pagaie.vision.models._utils import IntermediateLayerGetter
    their_getter = importlib.import_module(f"{ref.__name__}.vision.models._utils").IntermediateLayerGetter
    ours, theirs = _pair("resnet18", {})
    ours.eval()
    theirs.eval()
    got, want = _run(IntermediateLayerGetter(ours, {"layer1": "a", "layer3": "b"}),
                     their_getter(theirs, {"layer1": "a", "layer3": "b"}), (1, 3, 64, 64))
    assert list(got) == list(want) == ["a", "b"]
    _close(list(got.values()), list(want.values()))
