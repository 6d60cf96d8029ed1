"""Differential tests against real Paddle 3.3.1 of ``paddle.nn`` layer construction: the
attributes layers keep, their buffers and parameters, and constructor errors."""
from __future__ import annotations

import warnings

import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _both(make):
    """``make(fw)`` for real Paddle and for pagaie, each inside a fresh unique-name scope."""
    out = []
    for fw in (paddle, pagaie):
        with fw.utils.unique_name.guard(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out.append(make(fw))
    return out


def _attrs(layer, names):
    return [(n, getattr(layer, n)) for n in names]


def _params(layer):
    return [(n, list(p.shape), str(p.dtype).replace("paddle.", ""), p.stop_gradient)
            for n, p in layer.named_parameters()]


# ---- convolutions ----------------------------------------------------------------------------
_CONV_ATTRS = ["_stride", "_dilation", "_kernel_size", "_param_attr", "_bias_attr", "_channel_dim",
               "_dtype", "_padding", "_data_format"]


@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.Conv1D(4, 6, 3, stride=2, dilation=2, data_format="NLC", bias_attr=False),
    lambda fw: fw.nn.Conv2D(4, 6, (3, 2), stride=(2, 1), padding=1),
    lambda fw: fw.nn.Conv2D(4, 6, 3, bias=False, dtype="float64"),
    lambda fw: fw.nn.Conv3D(4, 6, 3, data_format="NDHWC"),
    lambda fw: fw.nn.Conv2DTranspose(4, 6, 3, stride=2, data_format="NHWC"),
    lambda fw: fw.nn.Conv1DTranspose(4, 6, 3),
], ids=["conv1d", "conv2d", "conv2d_nobias", "conv3d", "conv2dT", "conv1dT"])
def test_conv_attributes(make):
    ours, theirs = _both(lambda fw: _attrs(make(fw), _CONV_ATTRS))
    assert ours == theirs


def test_conv_list_stride_still_computes():
    import numpy as np
    x = np.random.default_rng(0).standard_normal((1, 4, 9)).astype("float32")

    def run(fw):
        layer = fw.nn.Conv1D(4, 2, 3, stride=2, dilation=2, weight_attr=fw.nn.initializer.Constant(0.1))
        return layer(fw.to_tensor(x)).numpy()
    ours, theirs = _both(run)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_conv_weight_attr_false_is_checked_before_padding_mode():
    for fw in (paddle, pagaie):
        with pytest.raises(AssertionError):
            fw.nn.Conv2D(4, 4, 3, padding="same", padding_mode="circular", weight_attr=False)


# ---- norms -----------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.GroupNorm(2, 4, data_format="NCL"),
    lambda fw: fw.nn.GroupNorm(2, 4, data_format="NDHWC"),
    lambda fw: fw.nn.GroupNorm(2, 4, affine=False),
], ids=["ncl", "ndhwc", "not_affine"])
def test_group_norm_attributes(make):
    names = ["_data_format", "_weight_attr", "_bias_attr"]
    ours, theirs = _both(lambda fw: (_attrs(make(fw), names), _params(make(fw))))
    assert ours == theirs


def test_group_norm_learning_rate_zero_freezes_the_parameter():
    ours, theirs = _both(lambda fw: _params(fw.nn.GroupNorm(
        2, 4, weight_attr=fw.ParamAttr(learning_rate=0.0), bias_attr=fw.ParamAttr(learning_rate=0.0))))
    assert ours == theirs


def test_group_norm_ncl_forward():
    import numpy as np
    x = np.random.default_rng(1).standard_normal((2, 4, 5)).astype("float32")
    ours, theirs = _both(lambda fw: fw.nn.GroupNorm(2, 4, data_format="NCL")(fw.to_tensor(x)).numpy())
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kwargs", [{"elementwise_affine": False}, {"bias": False}, {}])
def test_layer_norm_attrs(kwargs):
    ours, theirs = _both(lambda fw: (_attrs(fw.nn.LayerNorm(4, **kwargs), ["_weight_attr", "_bias_attr"]),
                                     _params(fw.nn.LayerNorm(4, **kwargs))))
    assert ours == theirs


def test_instance_norm_keeps_the_layer_dtype():
    def make(fw):
        old = fw.get_default_dtype()
        fw.set_default_dtype("float64")
        try:
            layer = fw.nn.InstanceNorm2D(3)
        finally:
            fw.set_default_dtype(old)
        return layer._dtype, _params(layer)
    ours, theirs = _both(make)
    assert ours == theirs


# ---- losses and other layers -----------------------------------------------------------------
def test_nll_loss_attributes_and_weight_buffer():
    def make(fw):
        layer = fw.nn.NLLLoss(fw.to_tensor([1.0, 2.0, 3.0]), ignore_index=1, reduction="sum")
        return (_attrs(layer, ["_ignore_index", "_reduction", "_name"]),
                [n for n, _ in layer.named_buffers()])
    ours, theirs = _both(make)
    assert ours == theirs


def test_poisson_nll_loss_attributes_and_check_order():
    names = ["_log_input", "_full", "_epsilon", "_reduction", "_name"]
    ours, theirs = _both(lambda fw: _attrs(fw.nn.PoissonNLLLoss(False, True, 1e-3, "sum"), names))
    assert ours == theirs
    for fw in (paddle, pagaie):   # epsilon is checked before reduction
        with pytest.raises(ValueError, match="epsilon"):
            fw.nn.PoissonNLLLoss(epsilon=-1, reduction="foo")


@pytest.mark.parametrize("make,names", [
    (lambda fw: fw.nn.HSigmoidLoss(3, 5, bias_attr=False), ["_weight_attr", "_bias_attr", "_name", "_dtype"]),
    (lambda fw: fw.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], bias_attr=False, head_bias=True),
     ["_weight_attr", "_bias_attr", "_dtype"]),
    (lambda fw: fw.nn.Embedding(10, 3), ["_size"]),
    (lambda fw: fw.nn.LogSoftmax(1), ["_dtype", "_axis"]),
], ids=["hsigmoid", "adaptive_log_softmax", "embedding", "log_softmax"])
def test_layer_attributes(make, names):
    ours, theirs = _both(lambda fw: _attrs(make(fw), names))
    assert ours == theirs


# ---- constructor errors: Paddle's type, a message naming the layer and the value -------------
@pytest.mark.parametrize("make,exc,words", [
    (lambda fw: fw.nn.Embedding(0, 3), ValueError, ["Embedding", "num_embeddings", "0"]),
    (lambda fw: fw.nn.Embedding(4, -3), ValueError, ["Embedding", "embedding_dim", "-3"]),
    (lambda fw: fw.nn.Embedding(10, 3, padding_idx=10), ValueError, ["Embedding", "padding_idx", "10"]),
    (lambda fw: fw.nn.LSTM(3, 4, direction="back"), ValueError, ["LSTM", "direction", "back"]),
    (lambda fw: fw.nn.SimpleRNN(3, 4, activation="sigmoid"), ValueError, ["SimpleRNN", "activation", "sigmoid"]),
    (lambda fw: fw.nn.SimpleRNNCell(3, 4, activation="sigmoid"), ValueError, ["SimpleRNNCell", "sigmoid"]),
    (lambda fw: fw.nn.GRUCell(3, 0), ValueError, ["GRUCell", "hidden_size", "0"]),
    (lambda fw: fw.nn.LSTMCell(3, 4, proj_size=-1), ValueError, ["LSTMCell", "proj_size", "-1"]),
    (lambda fw: fw.nn.LSTMCell(3, 4, proj_size=5), ValueError, ["LSTMCell", "proj_size", "5"]),
    (lambda fw: fw.nn.MultiHeadAttention(8, 3), AssertionError, ["MultiHeadAttention", "num_heads", "3"]),
    (lambda fw: fw.nn.MultiHeadAttention(8, 0), AssertionError, ["MultiHeadAttention", "num_heads", "0"]),
    (lambda fw: fw.nn.TransformerEncoderLayer(8, 2, 0), AssertionError,
     ["TransformerEncoderLayer", "dim_feedforward", "0"]),
    (lambda fw: fw.nn.TransformerDecoderLayer(8, 2, 16, activation="foo"), AttributeError,
     ["TransformerDecoderLayer", "activation", "foo"]),
    (lambda fw: fw.nn.HSigmoidLoss(3, 1), ValueError, ["HSigmoidLoss", "num_classes", "1"]),
    (lambda fw: fw.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]), ValueError,
     ["AdaptiveLogSoftmaxWithLoss", "cutoffs", "[6, 3]"]),
    (lambda fw: fw.nn.PixelShuffle(2, "NCL"), ValueError, ["PixelShuffle", "data_format", "NCL"]),
    (lambda fw: fw.nn.ChannelShuffle(2.0), TypeError, ["ChannelShuffle", "groups", "2.0"]),
    (lambda fw: fw.nn.InstanceNorm2D(4, weight_attr=False), AssertionError,
     ["InstanceNorm2D", "weight_attr", "bias_attr"]),
    (lambda fw: fw.nn.Sequential(("a",)), ValueError, ["Sequential", "('a',)"]),
    (lambda fw: fw.nn.LayerDict(3), AssertionError, ["LayerDict", "sublayers", "int"]),
    (lambda fw: fw.nn.TransformerEncoderLayer(8, 2, 16, bias_attr=[True] * 3), AssertionError,
     ["TransformerEncoderLayer", "bias_attr", "3"]),
    (lambda fw: fw.nn.Transformer(8, 2, 1, 1, 16, bias_attr=[True] * 4), AssertionError,
     ["Transformer", "bias_attr", "4"]),
], ids=["emb_num", "emb_dim", "emb_pad", "lstm_dir", "rnn_act", "cell_act", "gru_hidden",
        "proj_neg", "proj_big", "mha_div", "mha_heads", "tel_ff", "tdl_act", "hsig", "alsm",
        "shuffle_format", "shuffle_groups", "instance_norm_attrs", "sequential_pair", "layer_dict",
        "encoder_layer_attrs", "transformer_attrs"])
def test_constructor_errors(make, exc, words):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc):
            make(paddle)
        with pytest.raises(exc) as info:
            make(pagaie)
    message = str(info.value)
    assert message.startswith("paddle.nn."), message
    assert all(w in message for w in words), message


@pytest.mark.parametrize("make", [
    lambda fw: fw.nn.LSTM(2, 3, 2, "bidirect"),
    lambda fw: fw.nn.GRU(2, 3, 2, bias_ih_attr=False),
    lambda fw: fw.nn.SimpleRNN(2, 3, bias_hh_attr=False),
], ids=["lstm_bi", "gru_no_bias_ih", "rnn_no_bias_hh"])
def test_rnn_all_weights_in_cudnn_order(make):
    ours, theirs = _both(lambda fw: [p.name for p in make(fw)._all_weights])
    assert ours == theirs
