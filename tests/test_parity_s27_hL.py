"""Session-27 differential cases for the recurrent and Transformer layers and the Layer API,
drawn from the cases of Paddle's own unit tests (rnn nets/cells, transformer, base layer,
containers, hooks, named members), run through real Paddle 3.3.1 and pagaie side by side."""
from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

import pagaie  # noqa: E402


def _raised(fn, fw):
    try:
        fn(fw)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e)
    return None


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("time_major", [False, True])
def test_rnn_rejects_non_3d_input(cls, time_major):
    """Paddle's fused ``rnn`` kernel checks the input rank is 3 (ValueError); a 4-D input whose
    leading axes the layer's transpose accepts must not run."""
    def run(fw):
        return getattr(fw.nn, cls)(3, 5, time_major=time_major)(fw.ones([1, 2, 4, 3]))

    theirs = _raised(run, paddle)
    assert theirs is ValueError
    with pytest.raises(ValueError, match="3-D"):
        run(pagaie)


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("num_layers", [0, -1])
@pytest.mark.parametrize("direction", ["forward", "bidirect"])
def test_rnn_num_layers_below_one_still_builds_first_layer(cls, num_layers, direction):
    """Paddle builds the first layer whatever num_layers is; the forward then fails."""
    def build(fw):
        return getattr(fw.nn, cls)(3, 5, num_layers=num_layers, direction=direction)

    ours, theirs = build(pagaie), build(paddle)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert len(ours) == len(theirs) == 1
    x = np.ones([2, 4, 3], "float32")
    assert _raised(lambda fw: ours(pagaie.to_tensor(x)), pagaie) is \
        _raised(lambda fw: theirs(paddle.to_tensor(x)), paddle)


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("direction", ["forward", "bidirect"])
def test_rnn_zero_input_size_rejected(cls, direction):
    """The fused weights of a zero input size: Paddle's constructor raises ValueError."""
    def build(fw):
        return getattr(fw.nn, cls)(0, 5, direction=direction)

    assert _raised(build, paddle) is ValueError
    with pytest.raises(ValueError, match="input_size"):
        build(pagaie)


def test_lstm_projection_zero_input_size_builds():
    """With a projection (no fused weights) Paddle builds the network."""
    assert list(pagaie.nn.LSTM(0, 5, proj_size=2).state_dict()) == \
        list(paddle.nn.LSTM(0, 5, proj_size=2).state_dict())


@pytest.mark.parametrize("cls", ["TransformerEncoderLayer", "TransformerDecoderLayer"])
@pytest.mark.parametrize("activation", [None, 5, "relux"])
def test_transformer_activation_not_a_name(cls, activation):
    """A non-string activation is a TypeError in Paddle; an unknown name an AttributeError."""
    def build(fw):
        return getattr(fw.nn, cls)(8, 2, 16, activation=activation)

    theirs = _raised(build, paddle)
    assert theirs in (TypeError, AttributeError)
    with pytest.raises(theirs):
        build(pagaie)
