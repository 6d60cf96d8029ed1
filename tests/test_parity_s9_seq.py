"""Session-9 sweep of the sequence layers against real Paddle 3.3.1: SimpleRNN/LSTM/GRU, their
cells and wrappers, MultiHeadAttention, the Transformer layers and scaled_dot_product_attention /
flash_attention on the CPU.

Each layer is built in real Paddle, its parameters are copied into pagaie's (``set_state_dict``
from numpy) and both run on the same inputs; outputs, gradients of the inputs and of every
trainable parameter, and the next numbers of the random stream are compared. Bad input is
compared by exception type."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, normal_array, paddle_ref, same_exception

B, T, I, H = 3, 5, 4, 6


pytestmark = pytest.mark.usefixtures("cpu_devices")


def _flat(v):
    if isinstance(v, (list, tuple)):
        return [e for item in v for e in _flat(item)]
    return [] if v is None else [v]


def _leaf(fw, shape, seed=0, dtype="float32"):
    t = fw.to_tensor(normal_array(shape, seed, dtype))
    t.stop_gradient = False
    return t


def _compare(build, call, train=True, dtype="float32", rtol=1e-5, atol=1e-5, seed=5):
    """Build in Paddle, copy its parameters into pagaie's layer, run ``call(fw, layer)`` ->
    ``(outputs, input leaves)`` in both and compare outputs, gradients and the random stream."""
    real = paddle_ref()
    res, src = [], None
    for fw in (real, pagaie):
        fw.set_default_dtype(dtype)
        try:
            m = build(fw)
        finally:
            fw.set_default_dtype("float32")
        if m is not None:
            if src is None:
                src = {k: v.numpy() for k, v in m.state_dict().items()}
            else:
                m.set_state_dict(src)
            m.train() if train else m.eval()
        fw.seed(seed)
        outs, ins = call(fw, m)
        floats = [o for o in _flat(outs) if "float" in str(o.dtype) and not o.stop_gradient]
        grads = []
        if train and floats:
            loss = sum((o * o).sum() for o in floats)
            params = [] if m is None else [p for p in m.parameters() if not p.stop_gradient]
            grads = list(fw.grad(loss, ins + params, allow_unused=True))
        names = [] if m is None else [n for n, _ in m.named_parameters()]
        res.append((outs, grads, fw.rand([3]), names))
    theirs, ours = res
    assert ours[3] == theirs[3]
    assert_same(ours[0], theirs[0], rtol, atol, "out")
    assert_same(ours[1], theirs[1], 10 * rtol, 10 * atol, "grads")
    assert_same(ours[2], theirs[2], what="random stream")


# ---- SimpleRNN / LSTM / GRU -------------------------------------------------------------------
def _net_call(cls, time_major, states, seqlen, dtype="float32", layers=1, dirs=1):
    def call(fw, m):
        x = _leaf(fw, (T, B, I) if time_major else (B, T, I), 1, dtype)
        init = None
        if states:
            hs = [_leaf(fw, (layers * dirs, B, H), 5 + i, dtype) for i in range(2 if cls == "LSTM" else 1)]
            init = tuple(hs) if cls == "LSTM" else hs[0]
        sl = None if seqlen is None else fw.to_tensor(np.array(seqlen, "int64"))
        return m(x, init, sl), [x] + _flat(init)
    return call


NET_CASES = [
    # (num_layers, direction, time_major, initial states, sequence_length, dtype)
    (2, "bidirect", False, False, [5, 2, 3], "float32"),
    (2, "forward", True, True, [5, 1, 3], "float32"),
    (1, "bidirectional", False, False, None, "float64"),
    (2, "forward", False, True, [4, 5, 1], "float64"),
]


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("case", NET_CASES, ids=lambda c: f"{c[0]}-{c[1]}-tm{c[2]}-st{c[3]}-{c[5]}")
def test_networks_with_copied_parameters(cls, case):
    layers, direction, tm, states, seqlen, dtype = case
    dirs = 2 if direction != "forward" else 1
    _compare(lambda fw: getattr(fw.nn, cls)(I, H, layers, direction, tm),
             _net_call(cls, tm, states, seqlen, dtype, layers, dirs), dtype=dtype)


def test_relu_rnn_and_lstm_projection_with_lengths():
    _compare(lambda fw: fw.nn.SimpleRNN(I, H, 2, activation="relu"),
             _net_call("SimpleRNN", False, False, [5, 2, 3], layers=2))
    _compare(lambda fw: fw.nn.LSTM(I, H, 2, "bidirect", proj_size=3),
             _net_call("LSTM", False, False, [5, 2, 3], layers=2, dirs=2))


@pytest.mark.parametrize("attr", ["weight_ih_attr", "bias_ih_attr", "bias_hh_attr"])
def test_frozen_parameter_names_and_flags(attr):
    """attr=False: a frozen constant, and Paddle's (shifted) parameter names."""
    def names(fw):
        m = fw.nn.GRU(I, H, direction="bidirect", **{attr: False})
        return [(n, list(p.shape), p.stop_gradient) for n, p in m.named_parameters()], list(m.state_dict())
    real = paddle_ref()
    assert names(pagaie) == names(real)


@pytest.mark.parametrize("case", ["float", "bool", "2-D"])
def test_sequence_length_must_be_integer_batch_vector(case):
    def fn(fw):
        sl = {"float": fw.to_tensor([1.0, 2.0]), "bool": fw.to_tensor([True, False]),
              "2-D": fw.to_tensor([[1, 2]])}[case]
        return fw.nn.GRU(I, H)(fw.ones([2, 3, I]), sequence_length=sl)
    msg = str(same_exception(fn))
    assert "sequence_length" in msg and "GRU" in msg


# ---- cells and wrappers -----------------------------------------------------------------------
@pytest.mark.parametrize("cell", ["SimpleRNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("wrap", ["RNN", "BiRNN"])
def test_wrappers_time_major_reverse_states_and_lengths(cell, wrap):
    def build(fw):
        c1, c2 = getattr(fw.nn, cell)(I, H), getattr(fw.nn, cell)(I, H)
        return fw.nn.RNN(c1, True, True) if wrap == "RNN" else fw.nn.BiRNN(c1, c2, True)

    def call(fw, m):
        x = _leaf(fw, (T, B, I), 1)

        def one(k):
            return (_leaf(fw, (B, H), k), _leaf(fw, (B, H), k + 1)) if cell == "LSTMCell" else _leaf(fw, (B, H), k)
        init = one(5) if wrap == "RNN" else (one(5), one(7))
        sl = fw.to_tensor(np.array([5, 0, 3], "int64"))
        return m(x, init, sl), [x] + _flat(init)
    _compare(build, call)


@pytest.mark.parametrize("kw,ref", [
    ({}, (2, 4)), ({"shape": [-1, 3, 5]}, (2, 4)), ({"shape": ((3,), (4, 5))}, (2, 4)),
    ({"shape": ((3,), (4,)), "dtype": ("float64", "int32")}, (2, 4)),
    ({"dtype": "int64", "init_value": 2.5}, (2, 4)), ({"batch_dim_idx": -1}, (2, 7)), ({}, (0, 4)),
])
def test_get_initial_states(kw, ref):
    def fn(fw):
        return fw.nn.GRUCell(I, H).get_initial_states(fw.ones(list(ref)), **kw)
    real = paddle_ref()
    assert_same(fn(pagaie), fn(real))


# ---- MultiHeadAttention -----------------------------------------------------------------------
@pytest.mark.parametrize("need_weights", [False, True])
@pytest.mark.parametrize("shape", [(5,), (4, 5), (2, 4, 5)])
@pytest.mark.parametrize("kind", ["bool", "int32", "float16", "float64"])
def test_mha_mask_ranks_and_dtypes(need_weights, shape, kind):
    def call(fw, m):
        a = np.random.default_rng(7).random(shape) > 0.3
        a[..., 0] = True
        mask = fw.to_tensor(np.where(a, 0.0, -1e4).astype(kind) if "float" in kind else a.astype(kind))
        q, kv = _leaf(fw, (2, 4, 8), 1), _leaf(fw, (2, 5, 8), 2)
        return m(q, kv, kv, attn_mask=mask), [q, kv]
    _compare(lambda fw: fw.nn.MultiHeadAttention(8, 2, need_weights=need_weights), call)


@pytest.mark.parametrize("need_weights", [False, True])
def test_mha_dropout_and_static_cache(need_weights):
    def call(fw, m):
        q, k, v = _leaf(fw, (2, 4, 8), 1), _leaf(fw, (2, 5, 6), 2), _leaf(fw, (2, 5, 3), 3)
        cache = m.gen_cache(k, v, type=m.StaticCache)
        return [m(q, k, v), m(q, None, None, None, cache)], [q, k, v]
    _compare(lambda fw: fw.nn.MultiHeadAttention(8, 2, 0.3, 6, 3, need_weights), call)


# ---- Transformer layers -----------------------------------------------------------------------
@pytest.mark.parametrize("bias_attr", [[False, True], [True, False], False])
def test_encoder_layer_bias_attr_lists(bias_attr):
    def call(fw, m):
        s = _leaf(fw, (2, 5, 8), 1)
        return m(s, fw.to_tensor(np.random.default_rng(3).random((2, 1, 5, 5)) > 0.2)), [s]
    _compare(lambda fw: fw.nn.TransformerEncoderLayer(8, 2, 16, 0.2, "gelu", 0.0, None, True,
                                                      bias_attr=bias_attr), call)


def test_decoder_stack_incremental_caches():
    def call(fw, m):
        mem, t1, t2 = _leaf(fw, (2, 5, 8), 2), _leaf(fw, (2, 1, 8), 1), _leaf(fw, (2, 1, 8), 4)
        out1, cache = m(t1, mem, None, None, m.gen_cache(mem))
        return [out1, m(t2, mem, None, None, cache)], [mem, t1, t2]
    _compare(lambda fw: fw.nn.TransformerDecoder(fw.nn.TransformerDecoderLayer(8, 2, 16), 2), call,
             train=False)


# ---- scaled_dot_product_attention / flash_attention ---------------------------------------------
def _sdpa_call(qs, ks, mask=None, causal=False, p=0.0):
    def call(fw, m):
        q, k, v = _leaf(fw, qs, 1), _leaf(fw, ks, 2), _leaf(fw, ks, 3)
        am = None if mask is None else fw.to_tensor(mask)
        return fw.nn.functional.scaled_dot_product_attention(q, k, v, am, p, causal), [q, k, v]
    return call


QS = (2, 4, 2, 8)


@pytest.mark.parametrize("p", [0.0, 0.4])
@pytest.mark.parametrize("mask", [
    np.array([True, False, True, True]), np.array(True), np.array([0.0, -np.inf, 0.5, 0.0], "float32"),
    np.random.default_rng(1).standard_normal((4, 4)).astype("float16"),
], ids=["1-D bool", "0-D bool", "1-D float", "float16 into float32"])
def test_sdpa_low_rank_and_narrower_masks_broadcast(p, mask):
    _compare(lambda fw: None, _sdpa_call(QS, QS, mask, p=p))


def test_sdpa_float32_mask_with_float64_query():
    def call(fw, m):
        q = _leaf(fw, QS, 1, "float64")
        mask = fw.to_tensor(normal_array((4, 4), 2))
        return fw.nn.functional.scaled_dot_product_attention(q, q, q, mask), [q]
    _compare(lambda fw: None, call)


@pytest.mark.parametrize("p", [0.0, 0.4])
@pytest.mark.parametrize("qs,ks", [(QS, (2, 6, 2, 8)), ((2, 6, 2, 8), QS)])
def test_sdpa_causal_non_square_is_top_left_aligned(qs, ks, p):
    """Also with dropout (the explicit path): query i sees keys 0..i."""
    _compare(lambda fw: None, _sdpa_call(qs, ks, causal=True, p=p))


@pytest.mark.parametrize("qs,ks", [((2, 4, 2, 8), (1, 5, 2, 8)), ((1, 4, 2, 8), (2, 5, 2, 8))])
def test_sdpa_batch_broadcasts(qs, ks):
    _compare(lambda fw: None, _sdpa_call(qs, ks))


@pytest.mark.parametrize("case", ["mask rows", "mask batch", "head_dim", "batch", "float64 mask"])
def test_sdpa_bad_shapes(case):
    def fn(fw):
        f = fw.nn.functional.scaled_dot_product_attention
        q = fw.to_tensor(normal_array(QS, 1))
        if case == "mask rows":
            return f(q, q, q, fw.ones([3, 4]))
        if case == "mask batch":
            return f(q, q, q, fw.ones([3, 1, 4, 4], "bool"))
        if case == "head_dim":
            return f(q, fw.to_tensor(normal_array((2, 4, 2, 6))), q)
        if case == "batch":
            k = fw.to_tensor(normal_array((3, 4, 2, 8)))
            return f(q, k, k)
        return f(q, q, q, fw.ones([4, 4], "float64"))
    msg = str(same_exception(fn))
    assert "scaled_dot_product_attention" in msg and "size of tensor" not in msg


@pytest.mark.parametrize("return_softmax", [False, True])
def test_flash_attention_causal_non_square_with_dropout(return_softmax):
    def call(fw, m):
        fa = importlib.import_module(fw.__name__ + ".nn.functional.flash_attention").flash_attention
        q, k, v = _leaf(fw, (2, 6, 2, 8), 1), _leaf(fw, QS, 2), _leaf(fw, QS, 3)
        return list(fa(q, k, v, 0.3, True, return_softmax)), [q, k, v]
    _compare(lambda fw: None, call)


@pytest.mark.parametrize("case", ["h size", "c size", "too few rows", "one state", "batch"])
def test_lstm_projection_bad_initial_states(case):
    """The per-step path (proj_size > 0) checks the states like the fused one, with Paddle's
    exception types."""
    def fn(fw):
        m = fw.nn.LSTM(I, H, 2 if case == "too few rows" else 1, proj_size=2)
        z = fw.zeros
        states = {"h size": (z([1, B, H]), z([1, B, H])), "c size": (z([1, B, 2]), z([1, B, 2])),
                  "too few rows": (z([1, B, 2]), z([1, B, H])), "one state": z([1, B, 2]),
                  "batch": (z([1, B + 1, 2]), z([1, B + 1, H]))}[case]
        return m(fw.ones([B, T, I]), states)
    same_exception(fn)


@pytest.mark.parametrize("need_weights", [False, True])
def test_mha_mask_that_does_not_broadcast(need_weights):
    def fn(fw):
        m = fw.nn.MultiHeadAttention(8, 2, need_weights=need_weights)
        return m(fw.ones([2, 5, 8]), attn_mask=fw.ones([3, 5, 5], "bool"))
    msg = str(same_exception(fn))
    assert "attn_mask" in msg and "[3, 5, 5]" in msg


@pytest.mark.parametrize("case", ["sdpa", "sdpa eval", "flash_attention", "qkvpacked", "mha", "mha negative"])
def test_attention_dropout_rate_out_of_range(case):
    """Paddle's dropout on the weights rejects p > 1 (even outside training); MHA also p < 0."""
    def fn(fw):
        q = fw.ones([2, 3, 2, 4])
        f = fw.nn.functional
        if case.startswith("sdpa"):
            return f.scaled_dot_product_attention(q, q, q, dropout_p=1.5, training=case == "sdpa")
        if case == "flash_attention":
            fa = importlib.import_module(fw.__name__ + ".nn.functional.flash_attention").flash_attention
            return fa(q, q, q, 1.5)
        if case == "qkvpacked":
            return f.flash_attn_qkvpacked(fw.ones([2, 3, 3, 2, 4]), 1.5)
        m = fw.nn.MultiHeadAttention(8, 2, dropout=-0.5 if case == "mha negative" else 1.5)
        m.eval()
        return m(fw.ones([2, 3, 8]))
    msg = str(same_exception(fn))
    assert "between 0 and 1" in msg


def test_sdpa_negative_dropout_is_no_dropout():
    _compare(lambda fw: None, lambda fw, m: (lambda q: (fw.nn.functional.scaled_dot_product_attention(
        q, q, q, dropout_p=-0.5), [q]))(_leaf(fw, QS, 1)))


def test_module_functions_rnn_birnn_split_concat_states():
    """``paddle.nn.layer.rnn``'s helper functions exist with Paddle's signatures and results."""
    def fn(fw):
        mod = importlib.import_module(fw.__name__ + ".nn.layer.rnn")
        h, c = fw.to_tensor(normal_array((4, 2, 3), 1)), fw.to_tensor(normal_array((4, 2, 3), 2))
        pairs = mod.split_states([h, c], True, 2)
        fw.seed(1)
        cf, cb = fw.nn.GRUCell(I, 3), fw.nn.GRUCell(I, 3)
        x = fw.to_tensor(normal_array((2, T, I), 3))
        return [mod.split_states(h, True), pairs, mod.concat_states(pairs, True, 2),
                mod.birnn(cf, cb, x, sequence_length=fw.to_tensor([5, 2])),
                mod.rnn(cf, x, None, None, False, True)]
    real = paddle_ref()
    assert_same(fn(pagaie), fn(real))


@pytest.mark.parametrize("cell", ["SimpleRNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("case", ["float64 input", "int input", "1-D input", "input size"])
def test_cell_bad_inputs(cell, case):
    if case == "1-D input" and cell != "GRUCell":
        pytest.skip("Paddle broadcasts a 1-D input against states built from its length")

    def fn(fw):
        x = {"float64 input": fw.ones([2, I], "float64"), "int input": fw.ones([2, I], "int32"),
             "1-D input": fw.ones([I]), "input size": fw.ones([2, I + 1])}[case]
        return getattr(fw.nn, cell)(I, H)(x)
    msg = str(same_exception(fn))
    assert cell in msg and "mat1" not in msg and "Dimension out of range" not in msg
