"""Session-23 sweep of the recurrent layers against real Paddle 3.3.1, for what the earlier
sweeps (s11_rnn, s21_attention, nn/test_rnn.py) left out: ``LSTMCell.state_shape`` with a
projection (and the failing default states it gives), ``RNNCellBase.get_initial_states`` with
nested shapes (Paddle fills the batch size into a shape, a tuple's shapes, or the shapes of a
list's first item only), RNN/BiRNN over zero time steps and ``sequence_mask`` with
``maxlen=0``; the stacked networks with a bias attr of False (Paddle's fused weight list is
then broken), and the fused kernel's backward with a frozen weight or after an eval forward;
``dynamic_decode`` of a BeamSearchDecoder given no initial states; the gradients of a
bidirectional network over padded sequences from given initial states (Paddle's backward
direction reads zeros for the previous hidden state at a shorter sequence's first step).

Most cases compare the exception type; the one value comparison seeds both frameworks, whose
parameter initialisation draws match."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, normal_array, paddle_ref, same_exception


pytestmark = pytest.mark.usefixtures("cpu_devices")


X = normal_array((2, 5, 3))


# ---- LSTMCell with a projection ---------------------------------------------------------------
def test_lstm_cell_projection_state_shape():
    """Paddle's state_shape lists the hidden size first and the projection second (the states'
    true sizes are the other way round)."""
    ours, theirs = both(lambda fw: fw.nn.LSTMCell(3, 4, proj_size=2).state_shape)
    assert ours == theirs


@pytest.mark.parametrize("run", [
    lambda fw: fw.nn.LSTMCell(3, 4, proj_size=2)(fw.to_tensor(X[:, 0])),
    lambda fw: fw.nn.RNN(fw.nn.LSTMCell(3, 4, proj_size=2), is_reverse=True)(fw.to_tensor(X)),
    lambda fw: fw.nn.LSTMCell(3, 4, proj_size=2)(fw.to_tensor(X[:, 0]),
                                                 (fw.ones([2, 2]), fw.ones([2, 2]))),
], ids=["cell", "wrapper", "small-cell-state"])
def test_lstm_cell_projection_default_states_fail(run):
    """So the default states (h hidden_size wide) fail in the hidden state's matmul."""
    same_exception(run)


# ---- get_initial_states -----------------------------------------------------------------------
@pytest.mark.parametrize("shape", [((4,), [5]), [[[4], [5]]], (4, 5), [-1, 4]],
                         ids=["tuple", "list-of-list", "one", "batch-given"])
def test_get_initial_states_shapes(shape):
    ours, theirs = both(lambda fw: fw.nn.GRUCell(3, 4).get_initial_states(
        fw.to_tensor(X), shape=shape, dtype="float64", init_value=2.0))
    assert_same(ours, theirs)


@pytest.mark.parametrize("shape", [[[4]], [(4,), (5,)], [[[4], [5]], [[6]]], ((2, 7), [[3], [1]]),
                                   [], {"a": [4]}],
                         ids=["list-of-shape", "list-of-shapes", "second-item", "nested-in-tuple",
                              "empty", "dict"])
def test_get_initial_states_shapes_paddle_cannot_fill(shape):
    """A list whose first item is a shape (TypeError), the -1 left in a list's later items
    (ValueError), a nested shape in a tuple or a dict (AttributeError), an empty shape."""
    utils = paddle_ref().utils.layers_utils
    is_sequence = utils.is_sequence
    try:
        same_exception(lambda fw: fw.nn.GRUCell(3, 4).get_initial_states(fw.to_tensor(X), shape=shape))
    finally:   # Paddle swaps this helper during the call and leaves it swapped when it raises
        utils.is_sequence = is_sequence


# ---- zero time steps --------------------------------------------------------------------------
@pytest.mark.parametrize("run", [
    lambda fw: fw.nn.RNN(fw.nn.GRUCell(3, 4))(fw.to_tensor(np.zeros((2, 0, 3), "float32"))),
    lambda fw: fw.nn.RNN(fw.nn.LSTMCell(3, 4), time_major=True)(fw.to_tensor(np.zeros((0, 2, 3), "float32"))),
    lambda fw: fw.nn.BiRNN(fw.nn.GRUCell(3, 4), fw.nn.GRUCell(3, 4))(fw.to_tensor(np.zeros((2, 0, 3), "float32"))),
    lambda fw: fw.nn.RNN(fw.nn.LSTMCell(3, 4))(fw.to_tensor(np.zeros((2, 0, 3), "float32")),
                                               sequence_length=fw.to_tensor([0, 0])),
], ids=["rnn", "time-major", "birnn", "with-lengths"])
def test_rnn_wrapper_without_time_steps(run):
    """Paddle's step loop never runs (UnboundLocalError); the lengths' mask fails first."""
    same_exception(run)


@pytest.mark.parametrize("lengths", [[0, 2], [], [[]]])
@pytest.mark.parametrize("maxlen", [0, "tensor"])
def test_sequence_mask_maxlen_zero(lengths, maxlen):
    """RuntimeError; for no lengths Paddle returns an unusable mask of a negative size (reading it
    is a ValueError), pagaie raises that ValueError at once."""
    same_exception(lambda fw: fw.nn.functional.sequence_mask(
        fw.to_tensor(np.array(lengths, "int64")),
        fw.to_tensor(0) if maxlen == "tensor" else maxlen).numpy())


# ---- stacked networks: Paddle's fused kernel -------------------------------------------------
@pytest.mark.parametrize("cls,layers,direction,bias", [
    ("LSTM", 2, "forward", "ih"), ("GRU", 1, "bidirect", "hh"),          # fails in forward
    ("GRU", 1, "bidirect", "both"), ("SimpleRNN", 3, "forward", "ih"),   # fails when built
    ("LSTM", 2, "bidirect", "hh"),
])
def test_stacked_network_without_a_bias(cls, layers, direction, bias):
    """A bias attr of False drops that bias's name, so Paddle's layout of the fused weights
    indexes past its list (IndexError), or leaves holes that the kernel trips on (RuntimeError)."""
    kw = {"bias_ih_attr": False} if bias == "ih" else {"bias_hh_attr": False} if bias == "hh" else \
        {"bias_ih_attr": False, "bias_hh_attr": False}
    same_exception(lambda fw: getattr(fw.nn, cls)(3, 4, layers, direction=direction, **kw)(
        fw.to_tensor(X)))


@pytest.mark.parametrize("case", ["frozen-weight", "frozen-bias-eval", "eval", "eval-state-grad"])
def test_fused_backward_failures(case):
    """Paddle's rnn backward needs every weight's gradient (ValueError) and the training
    forward's saved values (RuntimeError after an eval forward)."""
    def run(fw):
        net = fw.nn.GRU(3, 4, 2, direction="bidirect")
        if case.startswith("frozen"):
            getattr(net, "weight_hh_l1_reverse" if "weight" in case else "bias_ih_l0").stop_gradient = True
        if "eval" in case:
            net.eval()
        x = fw.to_tensor(X, stop_gradient=case == "eval-state-grad")
        h = fw.zeros([4, 2, 4])
        h.stop_gradient = case != "eval-state-grad"
        out, _ = net(x, h)
        (out * out).sum().backward()
    same_exception(run)


def test_frozen_cell_weights_in_the_wrapper_have_gradients():
    """The RNN wrapper steps the cell (no fused backward): a frozen weight is fine there, also
    in eval mode."""
    def run(fw):
        fw.seed(5)
        rnn = fw.nn.RNN(fw.nn.LSTMCell(3, 4, bias_hh_attr=False))
        rnn.eval()
        x = fw.to_tensor(X, stop_gradient=False)
        out, (h, c) = rnn(x)
        return [out, *fw.grad((out * out).sum() + (c * c).sum(), [x, rnn.cell.weight_ih])]
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


# ---- decoding ---------------------------------------------------------------------------------
@pytest.mark.parametrize("inits", [None, [None, None]], ids=["none", "list-of-none"])
def test_beam_search_without_initial_states(inits):
    """BeamSearchDecoder.initialize reads the batch size with paddle.shape: ValueError."""
    def run(fw):
        dec = fw.nn.BeamSearchDecoder(fw.nn.GRUCell(8, 16), start_token=0, end_token=1, beam_size=2,
                                      embedding_fn=fw.nn.Embedding(6, 8), output_fn=fw.nn.Linear(16, 6))
        fw.nn.dynamic_decode(dec, inits=inits, max_step_num=3)
    same_exception(run)


# ---- bidirectional networks over padded sequences: Paddle's gradients --------------------------
def _copy(src, dst):
    dst.set_state_dict({k: v.numpy() for k, v in src.state_dict().items()})


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_bidirectional_padded_gradients(cls):
    """Paddle's CPU backward takes the previous hidden state of the backward direction from the
    previous step's output, zero past a sequence's end: at a shorter sequence's first step the
    initial state is read as zeros in the hidden-to-hidden weight gradient (GRU: also in its
    update gate's), which pagaie reproduces; the values are the true ones."""
    h0, c0 = normal_array((4, 3, 4), 3), normal_array((4, 3, 4), 4)
    lengths = np.array([3, 5, 1], "int64")

    def run(fw, src):
        net = getattr(fw.nn, cls)(3, 4, 2, direction="bidirect")
        if src is not None:
            _copy(src, net)
        x, h, c = (fw.to_tensor(a, stop_gradient=False) for a in (X[[0, 1, 0]], h0, c0))
        out, last = net(x, (h, c) if cls == "LSTM" else h, fw.to_tensor(lengths))
        loss = (out * out).sum() + sum((s * s).sum() for s in (last if cls == "LSTM" else [last]))
        leaves = [x, h] + ([c] if cls == "LSTM" else [])
        return net, [out, *fw.grad(loss, leaves + net.parameters())]
    src, theirs = run(paddle_ref(), None)
    _, ours = run(pagaie, src)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)
