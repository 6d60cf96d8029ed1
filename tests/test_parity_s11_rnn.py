"""Session-11 sweep of the recurrent layers and decoding against real Paddle 3.3.1:
``BeamSearchDecoder`` + ``dynamic_decode`` (beam search over LSTM/GRU cells, the options of
``dynamic_decode``, user decoders that do not track their own finished flags, the
``_mask_probs`` hook, ``tile_beam_merge_with_batch``) and the bad-input paths of the stacked
networks (state count, dtypes, ``sequence_length`` forms and values, ``num_layers < 1``).

Layers are built in real Paddle and their parameters copied into pagaie's, so the same
weights run in both."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, normal_array, paddle_ref, same_exception


pytestmark = pytest.mark.usefixtures("cpu_devices")


def _copy(src, dst):
    dst.set_state_dict({k: v.numpy() for k, v in src.state_dict().items()})


def _flat(v):
    return [e for item in v for e in _flat(item)] if isinstance(v, (list, tuple)) else [v]


def _paired(run, *args, **kwargs):
    """``run(fw, layers_or_None, ...) -> (layers, result)`` in Paddle, then in pagaie with
    Paddle's parameters copied in; returns (ours, theirs)."""
    layers, theirs = run(paddle_ref(), None, *args, **kwargs)
    _, ours = run(pagaie, layers, *args, **kwargs)
    return ours, theirs


# ---- BeamSearchDecoder + dynamic_decode ---------------------------------------------------------
def _beam_search(fw, src, cell="LSTMCell", dtype="float32", decoder_cls=None, **kw):
    fw.set_default_dtype(dtype)
    try:
        fw.seed(3)
        layers = (fw.nn.Embedding(4, 8), getattr(fw.nn, cell)(8, 16), fw.nn.Linear(16, 4))
    finally:
        fw.set_default_dtype("float32")
    if src is not None:
        for a, b in zip(src, layers):
            _copy(a, b)
    emb, c, out = layers
    dec = (decoder_cls or fw.nn.BeamSearchDecoder)(c, start_token=0, end_token=1, beam_size=3,
                                                   embedding_fn=emb, output_fn=out)
    h = fw.to_tensor(normal_array((2, 16), 1, dtype))
    h.stop_gradient = False
    inits = [h, fw.to_tensor(normal_array((2, 16), 2, dtype))] if cell == "LSTMCell" else h
    res = fw.nn.dynamic_decode(dec, inits=inits, **kw)
    states = res[1]
    loss = (_flat(states.cell_states)[0] ** 2).sum() + (states.log_probs ** 2).sum()
    grads = fw.grad(loss, [h] + list(c.parameters()), allow_unused=True)
    return layers, [list(res[:1]) + [list(states)] + list(res[2:]), grads]


@pytest.mark.parametrize("cell", ["LSTMCell", "GRUCell"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", [
    {"max_step_num": 30, "return_length": True},        # every beam reaches end_token
    {"max_step_num": 3, "output_time_major": True},
    {"max_step_num": 0, "impute_finished": True, "is_test": True},
], ids=["to-the-end", "time-major", "one-step"])
def test_beam_search_decode(cell, dtype, kw):
    """Ids backtracked with gather_tree, final beam states, lengths and gradients of the
    final cell states and scores."""
    ours, theirs = _paired(_beam_search, cell, dtype, **kw)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_beam_search_mask_probs_hook():
    """``_beam_search_step`` masks the step's log-probabilities through ``_mask_probs``, so a
    subclass can change how finished beams are scored."""
    def run(fw, src):
        class Unmasked(fw.nn.BeamSearchDecoder):
            def _mask_probs(self, probs, finished):
                return probs
        return _beam_search(fw, src, decoder_cls=Unmasked, max_step_num=6, return_length=True)
    ours, theirs = _paired(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def _greedy(fw, src, impute):
    """A user decoder that leaves the finished flags and lengths to dynamic_decode."""
    class Greedy(fw.nn.decode.Decoder):
        def __init__(self, cell, emb, out):
            self.cell, self.emb, self.out = cell, emb, out

        def initialize(self, inits):
            batch = inits[0].shape[0]
            return self.emb(fw.full([batch], 0, "int64")), inits, fw.full([batch], False, "bool")

        def step(self, time, inputs, states, **kwargs):
            out, new_states = self.cell(inputs, states)
            logits = self.out(out)
            ids = fw.argmax(logits, -1)
            return (logits, ids), new_states, self.emb(ids), fw.equal(ids, fw.full([1], 1, "int64"))

    fw.seed(4)
    layers = (fw.nn.Embedding(6, 8), fw.nn.LSTMCell(8, 16), fw.nn.Linear(16, 6))
    if src is not None:
        for a, b in zip(src, layers):
            _copy(a, b)
    emb, cell, out = layers
    inits = [fw.to_tensor(normal_array((3, 16), 1)), fw.to_tensor(normal_array((3, 16), 2))]
    return layers, fw.nn.dynamic_decode(Greedy(cell, emb, out), inits, max_step_num=8,
                                        impute_finished=impute, return_length=True)


@pytest.mark.parametrize("impute", [False, True])
def test_dynamic_decode_user_decoder_lengths_and_impute(impute):
    """Paddle's loop writes the new finished flags into ``finished`` before counting lengths
    and imputing states: the finishing step is not counted, and its states are not kept."""
    ours, theirs = _paired(_greedy, impute)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)
    assert ours[2].numpy().tolist() == [0, 1, 9]   # one sequence ends at step 0, one never


@pytest.mark.parametrize("case", ["1-D", "3-D", "bool", "Tensor beam", "float16"])
def test_tile_beam_merge_with_batch(case):
    """[batch, ...] -> [batch * beam, ...], each entry repeated beam times; a Tensor beam size
    works."""
    def fn(fw):
        tile = fw.nn.BeamSearchDecoder.tile_beam_merge_with_batch
        x = {"1-D": fw.to_tensor([1, 2, 3]), "3-D": fw.to_tensor(normal_array((2, 3, 4))),
             "bool": fw.to_tensor([[True], [False]]), "Tensor beam": fw.to_tensor(normal_array((2, 3))),
             "float16": fw.to_tensor(normal_array((2, 3), 0, "float16"))}[case]
        return tile(x, fw.to_tensor(2) if case == "Tensor beam" else 3)
    assert_same(*both(fn))


def test_tile_beam_merge_with_batch_zero_d():
    same_exception(lambda fw: fw.nn.BeamSearchDecoder.tile_beam_merge_with_batch(fw.to_tensor(1.0), 2))


# ---- stacked networks: bad input --------------------------------------------------------------
def _x(fw, shape=(3, 5, 4), dtype="float32"):
    return fw.to_tensor(normal_array(shape, 1, dtype))


@pytest.mark.parametrize("case", ["LSTM 3 states", "LSTM 1 state in a list", "GRU 2 states"])
def test_wrong_number_of_initial_states(case):
    def fn(fw):
        z = fw.zeros([1, 3, 6])
        if case == "GRU 2 states":
            return fw.nn.GRU(4, 6)(_x(fw), [z, z])
        return fw.nn.LSTM(4, 6)(_x(fw), [z] * (3 if case == "LSTM 3 states" else 1))
    msg = str(same_exception(fn))
    assert "state" in msg and "list index" not in msg


@pytest.mark.parametrize("form", ["list", "numpy"])
def test_sequence_length_must_be_a_tensor(form):
    """Paddle's op rejects a list or array ``sequence_length`` with ValueError."""
    def fn(fw):
        sl = [1, 5, 2] if form == "list" else np.array([1, 5, 2])
        return fw.nn.GRU(4, 6)(_x(fw), None, sl)
    msg = str(same_exception(fn))
    assert "sequence_length" in msg and "Tensor" in msg


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_sequence_length_past_the_last_step_is_the_whole_sequence(cls):
    """A length beyond the time steps counts as the full sequence (Paddle's CPU kernel reads
    out of bounds there, so the reference uses the clamped lengths)."""
    def run(fw, src, lengths):
        fw.seed(2)
        m = getattr(fw.nn, cls)(4, 6, 2, "bidirect")
        if src is not None:
            _copy(src, m)
        return m, m(_x(fw), None, fw.to_tensor(np.array(lengths, "int64")))
    layer, theirs = run(paddle_ref(), None, [5, 5, 2])
    _, ours = run(pagaie, layer, [7, 9, 2])
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("layers,direction", [(0, "forward"), (0, "bidirect"), (-1, "forward")])
def test_num_layers_below_one(cls, layers, direction):
    """Paddle builds such a network and fails in forward: ValueError for a negative count,
    AttributeError (IndexError for LSTM's two states) for zero."""
    same_exception(lambda fw: getattr(fw.nn, cls)(4, 6, layers, direction)(fw.ones([2, 3, 4])))


@pytest.mark.parametrize("case", ["float64 inputs", "float64 states"])
def test_dtype_mismatch(case):
    def fn(fw):
        m = fw.nn.GRU(4, 6)
        if case == "float64 inputs":
            return m(_x(fw, dtype="float64"))
        return m(_x(fw), fw.zeros([1, 3, 6], "float64"))
    msg = str(same_exception(fn))
    assert "GRU" in msg and "float64" in msg and "m1" not in msg and "mat1" not in msg


# ---- cells: states of the wrong structure ------------------------------------------------------
@pytest.mark.parametrize("cell", ["SimpleRNNCell", "GRUCell", "LSTMCell"])
@pytest.mark.parametrize("wrapped", [False, True])
def test_cell_state_in_a_list(cell, wrapped):
    """A one-element list where the cell wants a Tensor (or a pair): Paddle's matmul rejects
    it with ValueError, also inside ``nn.RNN``."""
    def fn(fw):
        c = getattr(fw.nn, cell)(4, 6)
        if wrapped:
            return fw.nn.RNN(c)(fw.ones([3, 5, 4]), [fw.zeros([3, 6])])
        return c(fw.ones([3, 4]), [fw.zeros([3, 6])])
    msg = str(same_exception(fn))
    assert cell in msg and "has no attribute" not in msg


@pytest.mark.parametrize("wrapped", [False, True])
def test_lstm_cell_state_as_one_stacked_tensor(wrapped):
    """LSTMCell unpacks its states, so one ``[2, batch, hidden]`` Tensor serves as ``(h, c)``."""
    def fn(fw):
        fw.seed(1)
        c = fw.nn.LSTMCell(4, 6)
        states = fw.to_tensor(normal_array((2, 3, 6), 2))
        if wrapped:
            return fw.nn.RNN(c)(fw.to_tensor(normal_array((3, 5, 4), 1)), states)
        return c(fw.to_tensor(normal_array((3, 4), 1)), states)
    assert_same(*both(fn), rtol=1e-5, atol=1e-6)
