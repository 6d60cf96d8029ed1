"""Differential sweep of the ``paddle.nn`` layer objects against real Paddle 3.3.1: reprs,
state-dict and parameter names, the attributes layers keep, construction-time errors and
forward outputs with Paddle's parameters copied in.

Each check builds the same layer with ``pagaie`` and with real ``paddle`` (inside a fresh
unique-name scope) and compares plain Python summaries."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.nn.test_parity_layer_api_sweep import _guarded, _same
from tests.reference import assert_same, both, paddle_ref, same_exception


def _summary(layer) -> tuple:
    return (repr(layer),
            [(k, list(v.shape), str(v.dtype).replace("paddle.", "")) for k, v in layer.state_dict().items()],
            [(n, p.name, p.stop_gradient, p.trainable) for n, p in layer.named_parameters()],
            [(n, getattr(b, "name", None)) for n, b in layer.named_buffers()])


# ---- reprs -----------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.LocalResponseNorm(3, alpha=1e-3, beta=0.5, k=2.0, data_format="NHWC"),
    lambda fw: fw.nn.LocalResponseNorm(3, name="lrn"),
    lambda fw: fw.nn.LocalResponseNorm(3),
], ids=["nhwc", "named", "default"])
def test_local_response_norm_repr_shows_data_format_and_name(make):
    _same(lambda fw: repr(make(fw)))


@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.LPPool2D(2, 3),
    lambda fw: fw.nn.LPPool2D(2, 3, stride=2, data_format="NHWC"),
    lambda fw: fw.nn.LPPool1D(2, 3),
    lambda fw: fw.nn.MaxUnPool2D(2, output_size=[4, 4]),
], ids=["lp2d", "lp2d_stride", "lp1d", "unpool"])
def test_pool_reprs(make):
    _same(lambda fw: repr(make(fw)))


# ---- the attributes pooling and conv layers keep ---------------------------------------------
_POOL_ATTRS = {
    "MaxPool1D": ["kernel_size", "stride", "padding", "return_mask", "ceil_mode", "name"],
    "AvgPool1D": ["kernel_size", "stride", "padding", "exclusive", "ceil_mode", "name"],
    "MaxPool2D": ["ksize", "stride", "padding", "return_mask", "ceil_mode", "data_format", "name"],
    "AvgPool2D": ["ksize", "stride", "padding", "ceil_mode", "exclusive", "divisor", "data_format", "name"],
    "AvgPool3D": ["ksize", "stride", "padding", "ceil_mode", "exclusive", "divisor", "data_format", "name"],
    "MaxUnPool2D": ["ksize", "stride", "padding", "data_format", "output_size", "name"],
}


@pytest.mark.parametrize("cls", sorted(_POOL_ATTRS))
def test_pool_layers_keep_paddles_public_attributes(cls):
    def get(fw):
        layer = getattr(fw.nn, cls)(3, stride=2, padding=1)
        return [(a, getattr(layer, a)) for a in _POOL_ATTRS[cls]]
    _same(get)


def test_lp_pool_attributes_and_adaptive_pool_private_attributes():
    def get(fw):
        lp2, lp1 = fw.nn.LPPool2D(2, 3), fw.nn.LPPool1D(3, 2)
        ad1, ad2 = fw.nn.AdaptiveAvgPool1D(2), fw.nn.AdaptiveMaxPool2D(2, return_mask=True)
        return ([(a, getattr(lp2, a)) for a in ("norm_type", "ksize", "stride", "padding", "data_format")],
                [(a, getattr(lp1, a)) for a in ("norm_type", "kernel_size", "stride", "data_format")],
                (ad1.output_size, ad1.name), (ad2._output_size, ad2._return_mask),
                hasattr(ad2, "output_size"))
    _same(get)


def test_pool_attribute_edits_reach_forward():
    x = np.random.RandomState(0).rand(1, 2, 8, 8).astype("float32")

    def get(fw):
        pool = fw.nn.MaxPool2D(2)
        pool.ksize = 4
        return pool(fw.to_tensor(x)).numpy()
    ours, theirs = both(_guarded(get))
    np.testing.assert_allclose(ours, theirs)


def test_conv_output_padding_is_public():
    def get(fw):
        return [getattr(fw.nn, c)(2, 2, 3).output_padding for c in ("Conv2D", "Conv1DTranspose")] + \
            [fw.nn.Conv2DTranspose(2, 2, 3, stride=2, output_padding=1).output_padding]
    _same(get)


def test_conv_transpose_ignores_output_padding_when_output_size_given():
    rng = np.random.RandomState(1)
    x = rng.rand(1, 4, 4, 4).astype("float32")
    ref = paddle_ref()
    with ref.utils.unique_name.guard():
        theirs_layer = ref.nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1, output_padding=1)
    ours_layer = pagaie.nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1, output_padding=1)
    ours_layer.set_state_dict({k: v.numpy() for k, v in theirs_layer.state_dict().items()})
    for size in ([7, 7], [8, 8]):
        assert_same(ours_layer(pagaie.to_tensor(x), output_size=size),
                    theirs_layer(ref.to_tensor(x), output_size=size), what=f"output_size={size}")


# ---- parameter and buffer names --------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.BatchNorm2D(4, name="bn"),
    lambda fw: fw.nn.BatchNorm1D(4, weight_attr=False, bias_attr=False, name="bn1"),
    lambda fw: fw.nn.SyncBatchNorm(4, name="sbn"),
    lambda fw: fw.nn.BatchNorm(4, moving_mean_name="mm", moving_variance_name="mv"),
    lambda fw: fw.nn.BatchNorm2D(4),
], ids=["bn2d", "bn1d_noaffine", "sync", "legacy", "unnamed"])
def test_batch_norm_running_stat_names(make):
    def get(fw):
        layer = make(fw)
        return _summary(layer), [(n, p.do_model_average) for n, p in layer.named_parameters()]
    _same(get)


@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.LSTM(3, 4, num_layers=2, proj_size=2),
    lambda fw: fw.nn.LSTM(3, 4, num_layers=2),
    lambda fw: fw.nn.GRU(3, 4, direction="bidirect"),
], ids=["lstm_proj", "lstm", "gru_bi"])
def test_rnn_dropout_state_buffer_only_on_cudnn_layout(make):
    _same(lambda fw: _summary(make(fw)))


# ---- construction-time errors ----------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.Conv2D(4, 4, 3, padding="FOO"),
    lambda fw: fw.nn.Conv2DTranspose(3, 4, 3, padding="FOO"),
    lambda fw: fw.nn.Conv2D(2, 2, 3, padding=-1),
    lambda fw: fw.nn.Conv3D(2, 2, 3, padding=[1, -1, 1]),
    lambda fw: fw.nn.Conv2D(2, 2, 3, padding=[1, 2, 3]),
    lambda fw: fw.nn.Conv2D(2, 2, 2.5),
    lambda fw: fw.nn.Conv2D(2, 2, [3, 3, 3]),
    lambda fw: fw.nn.Conv2D(2, 2, 3, stride=[1, 2, 3]),
    lambda fw: fw.nn.ChannelShuffle(0),
    lambda fw: fw.nn.PixelUnshuffle(-1),
], ids=["conv_pad_str", "convT_pad_str", "conv_pad_neg", "conv3d_pad_neg", "conv_pad_len",
        "conv_kernel_float", "conv_kernel_len", "conv_stride_len", "shuffle_groups", "unshuffle"])
def test_value_errors_at_construction(make):
    assert isinstance(same_exception(make), ValueError)


@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.Conv2D(2, 3, 3, weight_attr=False),
    lambda fw: fw.nn.Conv1DTranspose(2, 3, 3, weight_attr=False),
    lambda fw: fw.nn.SpectralNorm([2, 3], dim=3),
    lambda fw: fw.nn.SpectralNorm([2, 0]),
    lambda fw: fw.nn.initializer.Uniform(1.0, 0.0),
], ids=["conv_weight_false", "convT_weight_false", "spectral_dim", "spectral_zero", "uniform"])
def test_paddle_assertions_at_construction(make):
    assert isinstance(same_exception(make), AssertionError)


def test_pad_layer_rejects_a_float_padding_with_a_clear_type_error():
    # as Paddle: 1.5 is stored when the layer is built, and the call is the TypeError
    layer = pagaie.nn.ZeroPad2D(1.5)
    with pytest.raises(TypeError, match="pad.*1.5"):
        layer(pagaie.ones([1, 1, 2, 2]))
    _same(lambda fw: repr(fw.nn.Pad1D((1, 2))))


# ---- paddle.nn.layer exposes the layer classes -----------------------------------------------
@pytest.mark.parametrize("name", ["Linear", "Conv2D", "BatchNorm2D", "Layer", "LayerDict",
                                  "PixelShuffle", "PairwiseDistance", "MaxUnPool2D"])
def test_nn_layer_package_exposes_layer_classes(name):
    ref = paddle_ref()
    assert getattr(ref.nn.layer, name) is getattr(ref.nn, name)
    assert getattr(pagaie.nn.layer, name) is getattr(pagaie.nn, name)


def test_nn_layer_package_unknown_name():
    with pytest.raises(AttributeError):
        pagaie.nn.layer.NoSuchLayer  # noqa: B018


# ---- a broad sweep: repr, state dict, parameter names and forward with Paddle's weights -----
_R = np.random.RandomState(0)
_X4 = _R.randn(2, 4, 6, 6).astype("float32")
_SEQ = _R.randn(2, 5, 8).astype("float32")

_SWEEP = [
    ("conv_nhwc", lambda fw: fw.nn.Conv2D(4, 6, 3, stride=2, padding="SAME", groups=2, data_format="NHWC"),
     lambda: [_X4.transpose(0, 2, 3, 1)]),
    ("conv_reflect", lambda fw: fw.nn.Conv2D(4, 3, 3, padding=1, padding_mode="reflect"), lambda: [_X4]),
    ("convT", lambda fw: fw.nn.Conv2DTranspose(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
     lambda: [_X4]),
    ("bn_nhwc", lambda fw: fw.nn.BatchNorm2D(4, momentum=0.8, data_format="NHWC"),
     lambda: [_X4.transpose(0, 2, 3, 1)]),
    ("group_norm", lambda fw: fw.nn.GroupNorm(2, 4, epsilon=1e-3), lambda: [_X4]),
    ("lrn", lambda fw: fw.nn.LocalResponseNorm(3, data_format="NHWC"), lambda: [_X4]),
    ("lstm_bi", lambda fw: fw.nn.LSTM(8, 4, num_layers=2, direction="bidirect"), lambda: [_SEQ]),
    ("lstm_proj", lambda fw: fw.nn.LSTM(8, 4, proj_size=2), lambda: [_SEQ]),
    ("mha", lambda fw: fw.nn.MultiHeadAttention(8, 2, kdim=4, vdim=6, need_weights=True),
     lambda: [_SEQ, _SEQ[:, :3, :4].copy(), _R.randn(2, 3, 6).astype("float32")]),
    ("transformer", lambda fw: fw.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, normalize_before=True),
     lambda: [_SEQ, _SEQ[:, :3].copy()]),
    ("seq", lambda fw: fw.nn.Sequential(("fc", fw.nn.Linear(8, 3)), ("act", fw.nn.GELU(True)),
                                        ("pool", fw.nn.AvgPool1D(3, 1, 1, exclusive=False))),
     lambda: [_SEQ]),
]


@pytest.mark.parametrize("label,make,inputs", _SWEEP, ids=[s[0] for s in _SWEEP])
def test_layer_sweep_with_paddles_parameters(label, make, inputs):
    ref = paddle_ref()
    ref.seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with ref.utils.unique_name.guard():
            theirs = make(ref)
        with pagaie.utils.unique_name.guard():
            ours = make(pagaie)
    assert _summary(ours) == _summary(theirs)
    ours.set_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    ours.eval()
    theirs.eval()
    xs = inputs()
    out_o = ours(*[pagaie.to_tensor(x) for x in xs])
    out_t = theirs(*[ref.to_tensor(x) for x in xs])
    assert_same(out_o, out_t, rtol=1e-4, atol=1e-5)
