"""LLM ops of paddle.incubate.nn(.functional). Real Paddle's CPU build has no kernels for
them (it raises RuntimeError "kernel not registered"), so values are checked against plain
numpy references written here; layer construction is compared with real Paddle."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie as paddle
from tests.reference import paddle_ref

F = paddle.incubate.nn.functional
rng = np.random.default_rng(0)


def T(a, dtype=None):
    return paddle.to_tensor(np.asarray(a), dtype=dtype)


def test_namespace_complete():
    ref = paddle_ref()
    missing = set(ref.incubate.nn.functional.__all__) - set(dir(F))
    assert not missing
    assert hasattr(paddle.incubate.nn, "FusedMultiTransformer")


def test_fast_ln_and_rms():
    x = rng.standard_normal((2, 3, 8)).astype("float32")
    w, b = rng.standard_normal(8).astype("float32"), rng.standard_normal(8).astype("float32")
    y, mean, inv = F.fast_ln(T(x), T(w), T(b), 1e-5)
    m = x.mean(-1, keepdims=True)
    iv = 1 / np.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(y.numpy(), (x - m) * iv * w + b, rtol=1e-5, atol=1e-5)
    assert mean.shape == [6] and str(inv.dtype) == "paddle.float32"
    np.testing.assert_allclose(inv.numpy(), iv.reshape(-1), rtol=1e-5)
    ri = 1 / np.sqrt((x ** 2).mean(-1, keepdims=True) + 1e-6)
    for fn in (F.fast_rms_norm, F.fused_rms_norm_ext):
        y, inv = fn(T(x), T(w), 1e-6)
        np.testing.assert_allclose(y.numpy(), x * ri * w, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(inv.numpy(), ri.reshape(-1), rtol=1e-5)


def test_int_bincount():
    x = rng.integers(0, 10, (3, 7))
    out = F.int_bincount(T(x, "int64"), 2, 8, "int32")
    assert str(out.dtype) == "paddle.int32"
    np.testing.assert_array_equal(out.numpy(), np.bincount(x.ravel(), minlength=10)[2:8])
    with pytest.raises(ValueError):
        F.int_bincount(T(x, "int64"), 5, 2, "int64")


def test_blha_get_max_len():
    e, d = F.blha_get_max_len(T([3, 9, 5], "int32"), T([0, 4, 7], "int32"), paddle.ones([2]))
    assert e.tolist() == [9] and d.tolist() == [4] and str(e.dtype) == "paddle.int32"


def _ref_aux(gate, dmask, tmask, dtmask, n_exp, use_group, k, clip):
    if dtmask is not None:
        seqlen = dtmask.sum()
    elif tmask is not None:
        seqlen = tmask.sum()
    else:
        seqlen = gate.size / n_exp
    seqlen = max(seqlen, clip)
    counts = dmask.sum(0) if dmask.ndim == 2 else dmask
    ce = counts / seqlen
    loss = (gate.sum(0) / seqlen * ce).sum() * n_exp / (k if use_group else 1)
    if tmask is not None:
        loss *= seqlen / max(tmask.sum(), clip)
    return loss, seqlen, ce


@pytest.mark.parametrize("masks", [False, True])
def test_cal_aux_loss(masks):
    gate = rng.random((6, 4)).astype("float32")
    dmask = rng.integers(0, 2, (6, 4))
    tm = np.array([1, 1, 0, 1, 1, 1], "float32") if masks else None
    dtm = np.array([1, 0, 1, 1, 1, 1, 1, 0], bool) if masks else None
    g = T(gate)
    g.stop_gradient = False
    loss, seqlen, ce = F.cal_aux_loss(g, T(dmask, "int64"), None if tm is None else T(tm),
                                      None if dtm is None else T(dtm), 4, True, 2, 1.0)
    rl, rs, rc = _ref_aux(gate, dmask, tm, dtm, 4, True, 2, 1.0)
    np.testing.assert_allclose(loss.numpy(), rl, rtol=1e-5)
    np.testing.assert_allclose(seqlen.numpy(), rs, rtol=1e-6)
    np.testing.assert_allclose(ce.numpy(), rc, rtol=1e-6)
    loss.backward()   # gradient of the unscaled loss: ce * num_experts / seqlen / k
    np.testing.assert_allclose(g.grad.numpy(), np.tile(rc * 4 / rs / 2, (6, 1)), rtol=1e-5)


def _ref_dispatch(x, gate, bias, k, cap, use_pad):
    """Per-element reference of the CUDA routing (written independently of the op)."""
    s_n, e_n = gate.shape
    sc = gate + (0 if bias is None else bias)
    eid = np.array([sorted(range(e_n), key=lambda e: (-sc[s, e], e))[:k] for s in range(s_n)])
    w = np.take_along_axis(gate, eid, 1).copy()
    entries = [(eid[s, j], j if use_pad else 0, s * k + j, s, j)
               for s in range(s_n) for j in range(k)]
    entries.sort(key=lambda t: (t[0], t[1], t[2]))
    counts = np.bincount(eid.ravel(), minlength=e_n)
    offset = np.cumsum(counts)
    y = np.zeros((e_n * cap if use_pad else s_n * k, x.shape[1]), x.dtype)
    scatter = np.zeros((k, s_n), np.int32)
    for d, (e, _, _, s, j) in enumerate(entries):
        row = d - (offset[e] - counts[e])
        if row >= cap:
            w[s, j] = 0
            continue
        slot = e * cap + row if use_pad else d
        scatter[j, s] = slot
        y[slot] = x[s]
    return y, w, scatter, offset, eid


@pytest.mark.parametrize("use_pad", [True, False])
@pytest.mark.parametrize("with_bias", [False, True])
def test_moe_gate_dispatch(use_pad, with_bias):
    x = rng.standard_normal((7, 3)).astype("float32")
    gate = rng.random((7, 4)).astype("float32")
    gate[2, 1] = gate[2, 3]                                   # a tie
    bias = rng.random(4).astype("float32") if with_bias else None
    outs = F.moe_gate_dispatch(T(x), T(gate), None if bias is None else T(bias), 2, 3, use_pad)
    ref = _ref_dispatch(x, gate, bias, 2, 3, use_pad)
    dts = ["float32", "float32", "int32", "int64", "int32"]
    for o, r, dt in zip(outs, ref, dts):
        assert str(o.dtype) == f"paddle.{dt}"
        np.testing.assert_allclose(o.numpy(), r, rtol=1e-6)


def test_moe_dispatch_then_combine_roundtrip_and_grad():
    x = rng.standard_normal((5, 4)).astype("float32")
    gate = rng.random((5, 3)).astype("float32")
    xt, gt = T(x), T(gate)
    xt.stop_gradient = gt.stop_gradient = False
    y, w, idx, _, eid = F.moe_gate_dispatch(xt, gt, None, 2, 10, True)
    out = F.moe_combine(y, w, idx.transpose([1, 0]))
    top = np.sort(gate, 1)[:, ::-1][:, :2].sum(1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), x * top, rtol=1e-5)
    out.sum().backward()
    np.testing.assert_allclose(xt.grad.numpy(), np.tile(top, (1, 4)), rtol=1e-5)
    g = np.zeros_like(gate)
    np.put_along_axis(g, eid.numpy().astype(int), x.sum(1, keepdims=True), 1)
    np.testing.assert_allclose(gt.grad.numpy(), g, rtol=1e-5)


def test_moe_gate_dispatch_permute_layout():
    x = rng.standard_normal((6, 2)).astype("float32")
    gate = rng.random((6, 4)).astype("float32")
    y, w, idx, off, eid = F.moe_gate_dispatch_permute(T(x), T(gate), None, 2, 4, 2)
    assert y.shape == [2, 2, 4, 2]
    ry, rw, rs, _, _ = _ref_dispatch(x, gate, None, 2, 4, True)
    ey = ry.reshape(4, 4, 2)                       # [expert, cap, dim]
    for e in range(4):                            # expert e: rank e // 2, local e % 2
        np.testing.assert_allclose(y.numpy()[e % 2, e // 2], ey[e])
    np.testing.assert_allclose(w.numpy(), rw)
    with pytest.raises(ValueError):
        F.moe_gate_dispatch_permute(T(x), T(gate), None, 2, 4, 3)


def test_moe_combine_reference():
    x = rng.standard_normal((6, 3)).astype("float32")
    w = rng.random((4, 2)).astype("float32")
    idx = rng.integers(0, 6, (4, 2)).astype("int32")
    ref = (x[idx] * w[..., None]).sum(1)
    np.testing.assert_allclose(F.moe_combine(T(x), T(w), T(idx)).numpy(), ref, rtol=1e-6)


def test_expert_id_bookkeeping():
    e = rng.integers(0, 8, (5, 2))
    out = F.expand_modality_expert_id(T(e, "int64"), 4, 8, 1, True).numpy()
    g = e + np.arange(2) * 8
    np.testing.assert_array_equal(out, g // 4 * 8 + g % 4 + 4)
    counts = [2, 0, 3, 1]
    r, loc = F.build_src_rank_and_local_expert_id(T(counts, "int64"), counts, 2)
    experts = np.repeat(np.arange(4), counts)
    assert r.tolist() == list(experts // 2) and loc.tolist() == list(experts % 2)
    assert str(r.dtype) == "paddle.int32"


def test_embedding_grad_add_to_inplace():
    g = np.zeros((5, 3), "float32")
    ids = np.array([[0, 4], [4, 1]])
    og = rng.standard_normal((2, 2, 3)).astype("float32")
    gt = T(g)
    out = F.embedding_grad_add_to_(T(ids, "int64"), gt, T(og))
    np.add.at(g, ids.ravel(), og.reshape(-1, 3))
    np.testing.assert_allclose(gt.numpy(), g, rtol=1e-6)
    assert out is gt or np.shares_memory(out.numpy(), gt.numpy()) or out.tolist() == gt.tolist()


def _softmax(s):
    s = s - s.max(-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(-1, keepdims=True)


def test_masked_multihead_attention_decode_step():
    b, h, d, max_len = 2, 2, 4, 6
    cache = rng.standard_normal((2, b, h, max_len, d)).astype("float32")
    x = rng.standard_normal((b, 3 * h * d)).astype("float32")
    bias = rng.standard_normal((3, h, d)).astype("float32")
    lens = np.array([[2], [4]], "int32")
    ct = T(cache)
    out, c2 = F.masked_multihead_attention(T(x), ct, T(bias), sequence_lengths=T(lens))
    qkv = x.reshape(b, 3, h, d) + bias
    for i in range(b):
        t = lens[i, 0]
        cache[0, i, :, t], cache[1, i, :, t] = qkv[i, 1], qkv[i, 2]
        p = _softmax(np.einsum("hd,hld->hl", qkv[i, 0], cache[0, i, :, :t + 1]) / np.sqrt(d))
        np.testing.assert_allclose(out.numpy()[i],
                                   np.einsum("hl,hld->hd", p, cache[1, i, :, :t + 1]).ravel(),
                                   rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ct.numpy(), cache, rtol=1e-6)      # updated in place
    with pytest.raises(NotImplementedError, match="masked_multihead_attention"):
        F.masked_multihead_attention(T(x), ct, rotary_tensor=paddle.ones([1]),
                                     sequence_lengths=T(lens))


def test_variable_length_attention():
    b, h, kvh, s, d = 2, 4, 2, 5, 8
    q = rng.standard_normal((b, h, s, d)).astype("float32")
    k = rng.standard_normal((b, kvh, s, d)).astype("float32")
    v = rng.standard_normal((b, kvh, s, d)).astype("float32")
    mask = rng.standard_normal((b, 1, s, s)).astype("float32")
    ql, kl = np.array([[5], [3]], "int32"), np.array([[5], [4]], "int32")
    out = F.variable_length_memory_efficient_attention(T(q), T(k), T(v), T(ql), T(kl), T(mask),
                                                       causal=True).numpy()
    kk, vv = np.repeat(k, 2, 1), np.repeat(v, 2, 1)
    for i in range(b):
        n, m = ql[i, 0], kl[i, 0]
        sc = q[i, :, :n] @ kk[i, :, :m].transpose(0, 2, 1) / np.sqrt(d) + mask[i, :, :n, :m]
        sc = np.where(np.tril(np.ones((n, m), bool)), sc, -np.inf)
        np.testing.assert_allclose(out[i, :, :n], _softmax(sc) @ vv[i, :, :m], rtol=1e-5,
                                   atol=1e-5)
        assert not out[i, :, n:].any()


def test_block_multihead_attention_prefill_then_decode():
    h, d, bs = 2, 4, 2
    kc = paddle.zeros([6, h, bs, d])
    vc = paddle.zeros([6, h, bs, d])
    tables = np.array([[0, 1, 2], [3, 4, 5]], "int32")
    i32 = lambda a: T(np.array(a, "int32"))  # noqa: E731
    toks = rng.standard_normal((5, 3 * h * d)).astype("float32")     # 3 + 2 prefill tokens
    out, _, _, _ = F.block_multihead_attention(
        T(toks), kc, vc, i32([[3], [2]]), i32([[0], [0]]), i32([[3], [2]]), None, None,
        i32([0, 3, 5]), i32([0, 3, 5]), T(tables), block_size=bs)
    step = rng.standard_normal((2, 3 * h * d)).astype("float32")     # one decode token each
    out2, _, _, _ = F.block_multihead_attention(
        T(step), kc, vc, i32([[0], [0]]), i32([[3], [2]]), i32([[1], [1]]), None, None,
        i32([0, 1, 2]), i32([0, 1, 2]), T(tables), block_size=bs)
    for b, (lo, n) in enumerate([(0, 3), (3, 2)]):
        seq = np.concatenate([toks[lo:lo + n], step[b:b + 1]]).reshape(n + 1, 3, h, d)
        q, k, v = seq[:, 0].transpose(1, 0, 2), seq[:, 1].transpose(1, 0, 2), \
            seq[:, 2].transpose(1, 0, 2)
        sc = q @ k.transpose(0, 2, 1) / np.sqrt(d)
        sc = np.where(np.tril(np.ones((n + 1, n + 1), bool)), sc, -np.inf)
        ref = (_softmax(sc) @ v).transpose(1, 0, 2).reshape(n + 1, h * d)
        np.testing.assert_allclose(out.numpy()[lo:lo + n], ref[:n], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(out2.numpy()[b], ref[n], rtol=1e-5, atol=1e-5)


def _ln(x, w, b, eps=1e-5):
    m = x.mean(-1, keepdims=True)
    return (x - m) / np.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + eps) * w + b


def _gelu(x):
    from math import erf
    return 0.5 * x * (1 + np.vectorize(erf)(x / np.sqrt(2)))


def _ref_layer(x, p, pre, mask=None, k_cache=None, v_cache=None):
    bsz, s, e = x.shape
    _, h, d, _ = p["qkv"].shape
    hh = _ln(x, p["ln"], 0) if pre else x
    qkv = (hh @ p["qkv"].reshape(-1, e).T + p["qkv_b"].ravel()).reshape(bsz, s, 3, h, d)
    q, k, v = (qkv[:, :, i].transpose(0, 2, 1, 3) for i in range(3))
    if k_cache is not None:
        k, v = np.concatenate([k_cache, k], 2), np.concatenate([v_cache, v], 2)
    sc = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d) + (0 if mask is None else mask)
    a = (_softmax(sc) @ v).transpose(0, 2, 1, 3).reshape(bsz, s, h * d) @ p["lin"]
    x = x + a if pre else _ln(x + a, p["ln"], 0)
    hh = _ln(x, p["ffn_ln"], 0) if pre else x
    f = _gelu(hh @ p["ffn1"]) @ p["ffn2"]
    return (x + f if pre else _ln(x + f, p["ffn_ln"], 0)), k, v


@pytest.mark.parametrize("pre", [True, False])
def test_fused_multi_transformer_with_cache(pre):
    bsz, s, e, h, d = 2, 3, 8, 2, 4
    p = {"ln": rng.random(e).astype("float32") + 0.5, "ffn_ln": rng.random(e).astype("float32"),
         "qkv": rng.standard_normal((3, h, d, e)).astype("float32") * 0.3,
         "qkv_b": rng.standard_normal((3, h, d)).astype("float32") * 0.1,
         "lin": rng.standard_normal((e, e)).astype("float32") * 0.3,
         "ffn1": rng.standard_normal((e, 16)).astype("float32") * 0.3,
         "ffn2": rng.standard_normal((16, e)).astype("float32") * 0.3}
    x = rng.standard_normal((bsz, s, e)).astype("float32")
    mask = np.triu(np.full((s, s), -1e9, "float32"), 1)[None, None]
    cache = paddle.zeros([2, bsz, h, 8, d])

    def call(inp, m, step=None):
        return F.fused_multi_transformer(
            T(inp), [T(p["ln"])], [paddle.zeros([e])], [T(p["qkv"])], [T(p["qkv_b"])],
            [T(p["lin"])], None, [T(p["ffn_ln"])], [paddle.zeros([e])], [T(p["ffn1"])], None,
            [T(p["ffn2"])], None, pre_layer_norm=pre, cache_kvs=[cache], attn_mask=T(m),
            time_step=step)

    out, caches = call(x, mask)
    ref, k, v = _ref_layer(x, p, pre, mask)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(caches[0].numpy()[0, :, :, :s], k, rtol=1e-5, atol=1e-5)
    x1 = rng.standard_normal((bsz, 1, e)).astype("float32")
    out1, _ = call(x1, np.zeros((bsz, 1, 1, s + 1), "float32"), T(np.array([s], "int32")))
    ref1, _, _ = _ref_layer(x1, p, pre, None, k, v)
    np.testing.assert_allclose(out1.numpy(), ref1, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("kw", [{}, {"ln_bias_attrs": True, "qkv_bias_attrs": True},
                                {"activation": "swiglu", "trans_qkvw": False},
                                {"gqa_group_size": 1, "ffn2_bias_attrs": True}])
def test_fused_multi_transformer_layer_matches_paddle_parameters(kw):
    ref = paddle_ref()
    ours = paddle.incubate.nn.FusedMultiTransformer(8, 2, 16, num_layers=2, **kw)
    theirs = ref.incubate.nn.FusedMultiTransformer(8, 2, 16, num_layers=2, **kw)
    assert [list(p.shape) for p in ours.parameters()] == \
        [list(p.shape) for p in theirs.parameters()]
    assert [str(p.dtype) for p in ours.parameters()] == [str(p.dtype) for p in theirs.parameters()]
    for attr in ("ln_biases", "qkv_biases", "linear_biases", "ffn2_biases"):
        assert (getattr(ours, attr) is None) == (getattr(theirs, attr) is None)
    assert ours(paddle.rand([1, 3, 8])).shape == [1, 3, 8]


@pytest.mark.parametrize("name", ["fp8_quant_blockwise", "fused_act_dequant",
                                  "moe_gate_dispatch_and_quant",
                                  "cross_entropy_with_softmax_bwd_w_downcast"])
def test_unsupported_ops_raise_not_implemented(name):
    fn = getattr(F, name)
    n_args = sum(1 for p in __import__("inspect").signature(fn).parameters.values()
                 if p.default is p.empty)
    with pytest.raises(NotImplementedError, match=name):
        fn(*[paddle.ones([2, 2])] * n_args)
