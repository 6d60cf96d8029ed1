"""MultiHeadAttention, Transformer layers and scaled_dot_product_attention vs real Paddle
(parameters copied by name; outputs and gradients; masks; incremental/static caches)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.nn.seq_helpers import compare_seq
from tests.reference import assert_same, both, paddle_ref

RNG = np.random.default_rng(0)
Q = RNG.standard_normal((2, 4, 16)).astype("float32")
KV = RNG.standard_normal((2, 6, 16)).astype("float32")
K8 = RNG.standard_normal((2, 6, 8)).astype("float32")
V12 = RNG.standard_normal((2, 6, 12)).astype("float32")
BOOL_MASK = RNG.random((2, 1, 4, 6)) > 0.3
FLOAT_MASK = RNG.standard_normal((2, 4, 4, 6)).astype("float32")


def test_mha_self_and_cross_attention():
    compare_seq(lambda nn: nn.MultiHeadAttention(16, 4), lambda fw, m, q: m(q), [Q])
    compare_seq(lambda nn: nn.MultiHeadAttention(16, 4, kdim=8, vdim=12), lambda fw, m, q, k, v: m(q, k, v),
                [Q, K8, V12])
    compare_seq(lambda nn: nn.MultiHeadAttention(16, 2, need_weights=True), lambda fw, m, q, k: m(q, k, k),
                [Q, KV])
    compare_seq(lambda nn: nn.MultiHeadAttention(16, 4, bias_attr=False), lambda fw, m, q: m(q), [Q])


@pytest.mark.parametrize("mask", ["bool", "int", "float"])
@pytest.mark.parametrize("need_weights", [False, True])
def test_mha_masks(mask, need_weights):
    arr = {"bool": BOOL_MASK, "int": BOOL_MASK.astype("int32"), "float": FLOAT_MASK}[mask]
    compare_seq(lambda nn: nn.MultiHeadAttention(16, 4, need_weights=need_weights),
                lambda fw, m, q, k: m(q, k, k, attn_mask=fw.to_tensor(arr)), [Q, KV])


def test_mha_caches():
    def incremental(fw, m, q, k):
        cache = m.gen_cache(q)                       # empty Cache
        outs = []
        for t in range(3):
            out, cache = m(q[:, t:t + 1], q[:, t:t + 1], q[:, t:t + 1], cache=cache)
            outs.append(out)
        static = m.gen_cache(k, k, type=m.StaticCache)
        out2, static2 = m(q, cache=static)
        return outs, cache, out2, static2
    compare_seq(lambda nn: nn.MultiHeadAttention(16, 4), incremental, [Q, KV])
    compare_seq(lambda nn: nn.MultiHeadAttention(16, 4, need_weights=True),
                lambda fw, m, q, k: m(q, cache=m.gen_cache(*m.compute_kv(k, k))), [Q, KV])


@pytest.mark.parametrize("normalize_before", [False, True])
def test_encoder_layer_and_stack(normalize_before):
    build = lambda nn: nn.TransformerEncoderLayer(16, 4, 32, dropout=0.1, activation="gelu",
                                                  normalize_before=normalize_before)
    compare_seq(build, lambda fw, m, x: m(x, fw.to_tensor(FLOAT_MASK[:, :, :, :4])), [Q])
    stack = lambda nn: nn.TransformerEncoder(build(nn), 2, nn.LayerNorm(16))
    compare_seq(stack, lambda fw, m, x: m(x, fw.to_tensor(BOOL_MASK[:, :, :, :4])), [Q])

    def cached(fw, m, x):
        cache = m.gen_cache(x)
        return m(x, None, cache)
    compare_seq(stack, cached, [Q])


@pytest.mark.parametrize("normalize_before", [False, True])
def test_decoder_layer_and_incremental_decoding(normalize_before):
    build = lambda nn: nn.TransformerDecoderLayer(16, 4, 32, normalize_before=normalize_before,
                                                  attn_dropout=0.2, act_dropout=0.0)
    compare_seq(build, lambda fw, m, t, mem: m(t, mem, None, fw.to_tensor(BOOL_MASK)), [Q, KV])
    stack = lambda nn: nn.TransformerDecoder(build(nn), 2, nn.LayerNorm(16))

    def step_by_step(fw, m, t, mem):
        cache = m.gen_cache(mem)
        outs = []
        for i in range(t.shape[1]):
            out, cache = m(t[:, i:i + 1], mem, None, None, cache)
            outs.append(out)
        return fw.concat(outs, axis=1)
    ours, _ = compare_seq(stack, step_by_step, [Q, KV])
    # incremental decoding equals full decoding under a causal mask
    t, mem = pagaie.to_tensor(Q), pagaie.to_tensor(KV)
    mask = pagaie.nn.Transformer(16, 4, 1, 1, 32).generate_square_subsequent_mask(4)
    ours.eval()
    np.testing.assert_allclose(step_by_step(pagaie, ours, t, mem).numpy(), ours(t, mem, mask).numpy(),
                               rtol=1e-5, atol=1e-5)
    zipped, theirs = both(lambda fw: fw.nn.TransformerDecoder(fw.nn.TransformerDecoderLayer(16, 4, 32), 2)
                          .gen_cache(fw.ones([2, 3, 16]), do_zip=True))
    assert [type(c).__name__ for c in zipped[0]] == [type(c).__name__ for c in theirs[0]]


def test_transformer_model():
    build = lambda nn: nn.Transformer(16, 4, 2, 1, 32, dropout=0.0, weight_attr=[None, None],
                                      bias_attr=[None, None, None])

    def call(fw, m, src, tgt):
        return m(src, tgt, None, m.generate_square_subsequent_mask(4), None)
    compare_seq(build, call, [KV, Q])
    ours, theirs = both(lambda fw: fw.nn.Transformer(16, 4, 1, 1, 32).generate_square_subsequent_mask(3))
    assert_same(ours, theirs)


def test_sublayer_structure_and_errors():
    ours, theirs = both(lambda fw: fw.nn.TransformerEncoder(fw.nn.TransformerEncoderLayer(16, 4, 32), 2))
    assert list(ours.state_dict()) == list(theirs.state_dict())
    paddle = paddle_ref()
    for f in (lambda fw: fw.nn.MultiHeadAttention(16, 5), lambda fw: fw.nn.TransformerEncoderLayer(16, 4, 0),
              lambda fw: fw.nn.Transformer(16, 4, weight_attr=[None] * 4)):
        with pytest.raises(AssertionError):
            f(pagaie)
        with pytest.raises(AssertionError):
            f(paddle)


QS = RNG.standard_normal((2, 5, 4, 8)).astype("float32")
KS = RNG.standard_normal((2, 7, 4, 8)).astype("float32")
VS = RNG.standard_normal((2, 7, 4, 8)).astype("float32")
K2 = RNG.standard_normal((2, 7, 2, 8)).astype("float32")


@pytest.mark.parametrize("case", ["plain", "bool", "float", "causal", "scale", "gqa", "3d"])
def test_scaled_dot_product_attention(case):
    def run(fw):
        q, k, v = fw.to_tensor(QS), fw.to_tensor(KS), fw.to_tensor(VS)
        for t in (q, k, v):
            t.stop_gradient = False
        kw = {}
        if case == "bool":
            kw["attn_mask"] = fw.to_tensor(RNG_MASK)
        elif case == "float":
            kw["attn_mask"] = fw.to_tensor(FMASK)
        elif case == "causal":
            q, k, v = fw.to_tensor(QS), fw.to_tensor(QS), fw.to_tensor(QS)
            for t in (q, k, v):
                t.stop_gradient = False
            kw["is_causal"] = True
        elif case == "scale":
            kw["scale"] = 0.3
        elif case == "gqa":
            k, v = fw.to_tensor(K2), fw.to_tensor(K2)
            for t in (k, v):
                t.stop_gradient = False
        if case == "3d":
            out = fw.nn.functional.scaled_dot_product_attention(q[0], k[0], v[0])
        else:
            out = fw.nn.functional.scaled_dot_product_attention(q, k, v, **kw)
        (out * out).sum().backward()
        return [out, q.grad, k.grad, v.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


RNG_MASK = np.random.default_rng(3).random((2, 1, 5, 7)) > 0.2
FMASK = np.random.default_rng(4).standard_normal((1, 4, 5, 7)).astype("float32")


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attn_qkvpacked(causal):
    qkv = np.random.default_rng(5).standard_normal((2, 6, 3, 2, 8)).astype("float32")

    def run(fw):
        t = fw.to_tensor(qkv)
        t.stop_gradient = False
        out, sm = fw.nn.functional.flash_attn_qkvpacked(t, causal=causal, return_softmax=True)
        (out * out).sum().backward()
        return [out, sm, t.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)
    out, sm = pagaie.nn.functional.flash_attn_qkvpacked(pagaie.to_tensor(qkv), causal=causal)
    assert sm is None
    np.testing.assert_allclose(out.numpy(), ours[0].numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("padded", [True, False])
def test_flash_attn_varlen_qkvpacked_equals_per_sequence_attention(padded):
    rng = np.random.default_rng(6)
    lens, maxlen = [3, 5], 5
    qkv = rng.standard_normal((10 if padded else 8, 4, 2, 8)).astype("float32")   # 2 query heads per kv head
    cu = pagaie.to_tensor(np.cumsum([0] + lens).astype("int32"))
    out, _ = pagaie.nn.functional.flash_attn_varlen_qkvpacked(pagaie.to_tensor(qkv), cu, cu, maxlen, maxlen,
                                                              0.3, causal=True, varlen_padded=padded)
    starts = [0, maxlen] if padded else [0, 3]
    for s, n in zip(starts, lens):
        seq = pagaie.to_tensor(qkv[s:s + n][None])
        q = seq[:, :, :2].reshape([1, n, 4, 8])
        ref = pagaie.nn.functional.scaled_dot_product_attention(q, seq[:, :, 2], seq[:, :, 3], is_causal=True,
                                                                scale=0.3)
        np.testing.assert_allclose(out.numpy()[s:s + n], ref.numpy()[0], rtol=1e-5, atol=1e-5)
    if padded:
        assert not out.numpy()[3:5].any()


def test_sparse_attention_equals_dense_masked_attention():
    rng = np.random.default_rng(7)
    q, k, v = (rng.standard_normal((1, 2, 4, 3)).astype("float32") for _ in range(3))
    offset = np.array([[[0, 2, 4, 6, 8], [0, 1, 2, 3, 4]]], dtype="int32")
    columns = np.array([[[0, 1, 0, 1, 2, 3, 2, 3], [0, 1, 2, 3, 0, 0, 0, 0]]], dtype="int32")[:, :, :8]
    columns[0, 1, 4:] = 0
    kpm = np.array([[1, 1, 1, 0]], dtype="float32")
    out = pagaie.nn.functional.sparse_attention(*(pagaie.to_tensor(a) for a in (q, k, v, offset, columns, kpm)))
    dense = np.zeros((1, 2, 4, 4), bool)
    for h in range(2):
        for r in range(4):
            dense[0, h, r, columns[0, h, offset[0, h, r]:offset[0, h, r + 1]]] = True
    dense &= kpm.astype(bool)[:, None, None, :]
    s = np.where(dense, q @ k.transpose(0, 1, 3, 2) / np.sqrt(3), -np.inf)
    with np.errstate(invalid="ignore"):
        w = np.exp(s - s.max(-1, keepdims=True))
        w = np.nan_to_num(w / w.sum(-1, keepdims=True))
    ref = np.where(dense.any(-1, keepdims=True), w @ v, 0)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-5, atol=1e-6)
