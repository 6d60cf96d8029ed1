"""Session-7 sweep of the sequence models against real Paddle 3.3.1: SimpleRNN/LSTM/GRU and their
cells, RNN/BiRNN, MultiHeadAttention, the Transformer layers, beam search and
scaled_dot_product_attention.

pagaie's CPU random streams are Paddle's, so every case seeds both frameworks, builds the same
layer (same parameters), runs it and compares the outputs, the gradients of the inputs and of
every parameter, and the next numbers of the random stream (``rand([3])``), without copying
weights. Bad input is compared by exception type."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref, same_exception

B, T, I, H = 3, 5, 4, 6


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    p = paddle_ref()
    p.set_device("cpu")
    pagaie.set_device("cpu")


def _x(fw, shape, seed=0, grad=True, dtype="float32"):
    t = fw.to_tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype))
    t.stop_gradient = not grad
    return t


def _flat(v):
    if isinstance(v, (list, tuple)):
        return [e for item in v for e in _flat(item)]
    return [] if v is None else [v]


def _run(fw, build, call, train=True, seed=3):
    """Seed, build, run; then outputs, input and parameter gradients, next random numbers."""
    fw.seed(seed)
    m = build(fw)
    if m is not None:
        m.train() if train else m.eval()
    outs, ins = call(fw, m)
    outs = [o for o in _flat(outs) if hasattr(o, "numpy")]
    loss = None
    for i, o in enumerate(outs):
        if "float" in str(o.dtype) and not o.stop_gradient:
            w = fw.to_tensor(np.random.default_rng(i).standard_normal(o.shape).astype(str(o.dtype).split(".")[-1]))
            term = (o * w).sum()
            loss = term if loss is None else loss + term
    if loss is not None and train:
        loss.backward()
    params = [] if m is None else list(m.named_parameters())
    return {"out": outs,
            "in_grad": [x.grad for x in ins] if train else [],
            "names": [n for n, _ in params],
            "p_grad": [p.grad for _, p in params] if train else [],
            "next": fw.rand([3])}


def _same(build, call, train=True, rtol=1e-5, atol=1e-5):
    real = paddle_ref()
    theirs = _run(real, build, call, train)
    ours = _run(pagaie, build, call, train)
    assert ours["names"] == theirs["names"]
    for key in ("out", "in_grad", "p_grad", "next"):
        assert_same(ours[key], theirs[key], rtol=rtol, atol=atol, what=key)


def _seq(fw):
    return fw.to_tensor(np.array([5, 2, 3], dtype="int64"))


# ---- SimpleRNN / LSTM / GRU -------------------------------------------------------------------
NETS = [(cls, nl, d, tm) for cls in ("SimpleRNN", "LSTM", "GRU")
        for nl, d, tm in ((2, "bidirect", False), (3, "bidirectional", True), (2, "forward", True))]


@pytest.mark.parametrize("cls,num_layers,direction,time_major", NETS)
def test_rnn_dropout_between_layers_matches(cls, num_layers, direction, time_major):
    """Training-mode dropout between layers draws Paddle's one shared keep-mask."""
    _same(lambda fw: getattr(fw.nn, cls)(I, H, num_layers, direction, time_major, 0.3),
          lambda fw, m: (lambda x: (m(x), [x]))(_x(fw, (T, B, I) if time_major else (B, T, I))))


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_rnn_dropout_with_sequence_length(cls):
    _same(lambda fw: getattr(fw.nn, cls)(I, H, 2, "bidirect", dropout=0.4),
          lambda fw, m: (lambda x: (m(x, sequence_length=_seq(fw)), [x]))(_x(fw, (B, T, I))))


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_rnn_dropout_one_zeroes_with_zero_gradients(cls):
    _same(lambda fw: getattr(fw.nn, cls)(I, H, 3, dropout=1.0),
          lambda fw, m: (lambda x: (m(x), [x]))(_x(fw, (B, T, I))))


def test_lstm_projection_dropout():
    _same(lambda fw: fw.nn.LSTM(I, H, 3, "bidirect", dropout=0.5, proj_size=2),
          lambda fw, m: (lambda x: (m(x), [x]))(_x(fw, (B, T, I))))


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_rnn_eval_and_initial_states(cls):
    def call(fw, m):
        x, h = _x(fw, (B, T, I)), _x(fw, (4, B, H), 5)
        if cls == "LSTM":
            c = _x(fw, (4, B, H), 6)
            return m(x, (h, c), _seq(fw)), [x, h, c]
        return m(x, h, _seq(fw)), [x, h]
    _same(lambda fw: getattr(fw.nn, cls)(I, H, 2, "bidirect", dropout=0.3), call, train=False)


@pytest.mark.parametrize("cls", ["LSTM", "GRU"])
@pytest.mark.parametrize("shape", [(2, B, H), (1, B + 1, H), (1, B, H - 1)])
def test_rnn_bad_initial_state_shape(cls, shape):
    def fn(fw):
        m = getattr(fw.nn, cls)(I, H)
        h = _x(fw, shape)
        return m(_x(fw, (B, T, I)), (h, _x(fw, (1, B, H))) if cls == "LSTM" else h)
    same_exception(fn)


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_rnn_integer_input_raises(cls):
    same_exception(lambda fw: getattr(fw.nn, cls)(I, H)(fw.ones([B, T, I], "int32")))


# ---- cells and wrappers -----------------------------------------------------------------------
@pytest.mark.parametrize("cls", ["SimpleRNNCell", "LSTMCell", "GRUCell"])
def test_birnn_with_sequence_length(cls):
    _same(lambda fw: fw.nn.BiRNN(getattr(fw.nn, cls)(I, H), getattr(fw.nn, cls)(I, H)),
          lambda fw, m: (lambda x: (m(x, sequence_length=_seq(fw)), [x]))(_x(fw, (B, T, I))))


def test_rnn_wrapper_custom_cell_kwargs_and_reverse():
    def build(fw):
        class Cell(fw.nn.RNNCellBase):
            def __init__(self):
                super().__init__()
                self.lin = fw.nn.Linear(I + H, H)

            def forward(self, x, states, scale=1.0):
                h = fw.tanh(self.lin(fw.concat([x, states[0]], -1))) * scale
                return (h, h * 2), (h, states[1] + 1)

            @property
            def state_shape(self):
                return ((H,), (2,))
        return fw.nn.RNN(Cell(), is_reverse=True)
    _same(build, lambda fw, m: (lambda x: (m(x, sequence_length=_seq(fw), scale=0.5), [x]))(_x(fw, (B, T, I))))


# ---- attention and Transformer ----------------------------------------------------------------
@pytest.mark.parametrize("kind", ["bool", "int", "float"])
def test_multihead_attention_masks_dropout_weights(kind):
    def call(fw, m):
        r = np.random.default_rng(7)
        a = r.random((2, 1, 4, 5)) > 0.3
        a[..., 0] = True
        mask = fw.to_tensor(a.astype({"bool": "bool", "int": "int64", "float": "float32"}[kind]))
        q, k, v = _x(fw, (2, 4, 8), 1), _x(fw, (2, 5, 6), 2), _x(fw, (2, 5, 3), 3)
        return m(q, k, v, attn_mask=mask), [q, k, v]
    _same(lambda fw: fw.nn.MultiHeadAttention(8, 2, dropout=0.2, kdim=6, vdim=3, need_weights=True), call)


def test_transformer_full_model():
    def build(fw):
        return fw.nn.Transformer(8, 2, 2, 1, 16, dropout=0.2, normalize_before=True, activation="gelu",
                                 attn_dropout=0.1, act_dropout=0.3)

    def call(fw, m):
        s, t = _x(fw, (2, 5, 8), 1), _x(fw, (2, 4, 8), 2)
        src_mask = fw.to_tensor(np.random.default_rng(3).random((2, 2, 5, 5)) > 0.2)
        mem_mask = fw.to_tensor((np.random.default_rng(4).random((2, 1, 4, 5)) > 0.2).astype("float32"))
        return m(s, t, src_mask, m.generate_square_subsequent_mask(4), mem_mask), [s, t]
    _same(build, call)


def test_beam_search_decode():
    def build(fw):
        class M(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.emb, self.cell, self.out = fw.nn.Embedding(4, 8), fw.nn.LSTMCell(8, 16), fw.nn.Linear(16, 4)
        return M()

    def call(fw, m):
        dec = fw.nn.BeamSearchDecoder(m.cell, 0, 1, 3, embedding_fn=m.emb, output_fn=m.out)
        h = _x(fw, (3, 16), 3)
        return fw.nn.dynamic_decode(dec, inits=(h, _x(fw, (3, 16), 4)), max_step_num=25,
                                    impute_finished=True, return_length=True), [h]
    _same(build, call)


def _qkv(fw, shapes=((2, 4, 2, 8), (2, 5, 2, 8), (2, 5, 2, 8))):
    return [_x(fw, s, i + 1) for i, s in enumerate(shapes)]


@pytest.mark.parametrize("p", [0.3, 1.0])
def test_sdpa_dropout_in_training(p):
    """p = 1 zeroes the weights without drawing, and the gradients are zeros (not NaN)."""
    def call(fw, m):
        q, k, v = _qkv(fw)
        return fw.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=p), [q, k, v]
    _same(lambda fw: None, call)


def test_sdpa_integer_inputs_compute_in_float32():
    def call(fw, m):
        a = fw.to_tensor(np.arange(2 * 4 * 2 * 8).reshape(2, 4, 2, 8) % 3, dtype="int32")
        return fw.nn.functional.scaled_dot_product_attention(a, a, a), []
    _same(lambda fw: None, call, train=False)


@pytest.mark.parametrize("case", ["2-D", "seq mismatch", "int mask"])
def test_sdpa_bad_input(case):
    def fn(fw):
        f = fw.nn.functional.scaled_dot_product_attention
        if case == "2-D":
            a = _x(fw, (4, 8))
            return f(a, a, a)
        if case == "seq mismatch":
            return f(*_qkv(fw, ((2, 4, 2, 8), (2, 5, 2, 8), (2, 3, 2, 8))))
        return f(*_qkv(fw), attn_mask=fw.ones([2, 4, 5], "int64"))
    same_exception(fn)


def test_flash_attn_qkvpacked_needs_5d():
    same_exception(lambda fw: fw.nn.functional.flash_attn_qkvpacked(_x(fw, (4, 3, 2, 8))))


def test_flash_attn_qkvpacked_dropout_softmax():
    def call(fw, m):
        a = _x(fw, (2, 4, 3, 2, 8))
        return fw.nn.functional.flash_attn_qkvpacked(a, 0.3, True, True), [a]
    _same(lambda fw: None, call)
