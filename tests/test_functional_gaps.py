"""``flashmask_attention``, ``flash_attention_v3_varlen``, ``moe_permute`` and
``moe_unpermute``. Paddle's CPU build has no kernel for any of them, so they are checked
against dense references written from Paddle's documented semantics."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import pagaie as paddle

F = paddle.nn.functional


def _dense_reference(q, k, v, idx, causal, scale=None):
    """Attention with the FlashMask mask built element by element from the documentation."""
    q, k, v = (torch.as_tensor(t.numpy()).double() for t in (q, k, v))
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    k = k.repeat_interleave(h // hk, 2)
    v = v.repeat_interleave(h // hk, 2)
    allowed = torch.ones(b, h, sq, sk, dtype=torch.bool)
    ind = idx.numpy() if idx is not None else None
    for bi in range(b):
        for hi in range(h):
            hm = 0 if ind is None or ind.shape[1] == 1 else hi // (h // ind.shape[1])
            for j in range(sk):
                for i in range(sq):
                    ok = True
                    if causal and j > i + (sk - sq):
                        ok = False
                    if ind is not None:
                        r = ind[bi, hm, j]
                        if causal:
                            end = r[1] if len(r) == 2 else sq
                            ok = ok and not (r[0] <= i < end)
                        elif len(r) == 2:
                            ok = ok and not (i >= r[0] or i < r[1])
                        else:
                            ok = ok and not (r[0] <= i < r[1] or r[2] <= i < r[3])
                    allowed[bi, hi, i, j] = ok
    s = torch.einsum("bqhd,bkhd->bhqk", q, k) * (scale or d ** -0.5)
    s = s.masked_fill(~allowed, float("-inf"))
    w = torch.softmax(s, -1).nan_to_num(0.0)
    return torch.einsum("bhqk,bkhd->bqhd", w, v).numpy(), torch.logsumexp(s, -1).numpy()


def _rand(*shape):
    return paddle.to_tensor(np.random.RandomState(sum(shape)).randn(*shape).astype("float32"))


@pytest.mark.parametrize("causal,n,heads_m", [(True, 1, 1), (True, 2, 2), (False, 2, 1), (False, 4, 2)])
def test_flashmask_matches_dense_reference(causal, n, heads_m):
    rs = np.random.RandomState(n + heads_m)
    b, s, h, d = 2, 6, 2, 4
    q, k, v = _rand(b, s, h, d), _rand(b, s, h, d + 0), _rand(b, s, h, d)
    lo = rs.randint(0, s + 1, size=(b, heads_m, s, n))
    if n >= 2:
        lo[..., 1] = np.maximum(lo[..., 1], lo[..., 0]) if causal else lo[..., 1]
    if n == 4:
        lo[..., 1] = np.maximum(lo[..., 1], lo[..., 0])
        lo[..., 3] = np.maximum(lo[..., 3], lo[..., 2])
    idx = paddle.to_tensor(lo.astype("int32"))
    out, lse = F.flashmask_attention(q, k, v, idx, causal=causal, return_softmax_lse=True)
    ref, ref_lse = _dense_reference(q, k, v, idx, causal)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(lse.numpy(), ref_lse, rtol=1e-4, atol=1e-5)
    assert out.shape == q.shape and lse.shape == [b, h, s]


def test_flashmask_doc_example_masks_rows_and_gqa():
    q = paddle.rand([1, 10, 2, 8])
    idx = paddle.to_tensor([8] * 10 + [5] * 10, dtype="int32").reshape([1, 2, 10, 1])
    out = F.flashmask_attention(q, q, q, idx, causal=True)
    assert float(out[0, 8:, 0].abs().sum()) == 0.0 and float(out[0, 5:, 1].abs().sum()) == 0.0
    assert float(out[0, :8, 0].abs().sum()) > 0
    kv = paddle.rand([1, 10, 1, 8])
    out = F.flashmask_attention(q, kv, kv, idx[:, :1], causal=True)
    ref, _ = _dense_reference(q, kv, kv, idx[:, :1], True)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-4, atol=1e-5)


def test_flashmask_window_and_plain():
    q, k, v = _rand(1, 7, 2, 4), _rand(1, 7, 2, 4), _rand(1, 7, 2, 4)
    out = F.flashmask_attention(q, k, v, window_size=2, causal=True)
    mask = np.tril(np.ones((7, 7), bool)) & ~np.tril(np.ones((7, 7), bool), -3)
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=paddle.to_tensor(mask))
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-4, atol=1e-5)
    out = F.flashmask_attention(q, k, v, causal=True)
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-4, atol=1e-5)
    res = F.flashmask_attention(q, k, v, causal=True, return_softmax_lse=True, return_seed_offset=True)
    assert isinstance(res, list) and len(res) == 3 and res[2].dtype == paddle.int64


def test_flashmask_argument_errors():
    q = paddle.rand([1, 4, 2, 8])
    with pytest.raises(ValueError):
        F.flashmask_attention(q, q, q, paddle.zeros([1, 1, 4, 4], dtype="int32"), causal=True)
    with pytest.raises(AssertionError):
        F.flashmask_attention(q, q, q, paddle.zeros([1, 1, 4, 1], dtype="int64"), causal=True)
    with pytest.raises(AssertionError):
        F.flashmask_attention(q, q, q, paddle.zeros([1, 1, 4, 1], dtype="int32"), window_size=1)


def test_flashmask_gradient_flows():
    q = paddle.rand([1, 5, 2, 4])
    q.stop_gradient = False
    idx = paddle.to_tensor([[[[3], [5], [5], [5], [5]]]], dtype="int32")
    F.flashmask_attention(q, q, q, idx, causal=True).sum().backward()
    assert q.grad is not None and q.grad.shape == q.shape


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attention_v3_varlen_matches_per_sequence(causal):
    q, k, v = _rand(9, 4, 8), _rand(9, 2, 8), _rand(9, 2, 8)
    cu = paddle.to_tensor([0, 2, 6, 9], dtype="int32")
    out, lse = F.flash_attention_v3_varlen(q, k, v, cu, cu, 4, 4, causal=causal)
    assert out.shape == [9, 4, 8] and lse.shape == [4, 9]
    for a, b in [(0, 2), (2, 6), (6, 9)]:
        ref = F.scaled_dot_product_attention(q[a:b].unsqueeze(0), k[a:b].unsqueeze(0),
                                             v[a:b].unsqueeze(0), is_causal=causal)
        np.testing.assert_allclose(out[a:b].numpy(), ref[0].numpy(), rtol=1e-4, atol=1e-5)


def test_flash_attention_v3_varlen_softcap_and_qv():
    q = _rand(4, 2, 8)
    cu = paddle.to_tensor([0, 4], dtype="int32")
    out, _ = F.flash_attention_v3_varlen(q, q, q, cu, cu, 4, 4, softcap=1.0)
    s = np.einsum("qhd,khd->hqk", q.numpy(), q.numpy()) * 8 ** -0.5
    w = np.exp(np.tanh(s)) / np.exp(np.tanh(s)).sum(-1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), np.einsum("hqk,khd->qhd", w, q.numpy()), rtol=1e-4, atol=1e-5)
    with pytest.raises(AssertionError):
        F.flash_attention_v3_varlen(q, q, q, cu, cu, 4, 4, qv=q)


def _routing():
    route = paddle.to_tensor([[-1, 0, -1, 2], [1, -1, -1, -1], [-1, -1, 1, -1]], dtype="int32")
    prob = paddle.to_tensor([[0.0, 0.6, 0.0, 0.4], [1.0, 0, 0, 0], [0, 0, 1.0, 0]], dtype="float32")
    return route, prob


def test_moe_permute_layout():
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(3, 2))
    route, prob = _routing()
    out, rowmap, p, scale, experts = F.moe_permute(x, None, route, prob, 3, [1, 2, 1], 2,
                                                   return_expert_indices=True)
    # expert blocks padded to 2 rows: e0 rows 0-1, e1 rows 2-3, e2 rows 4-5
    assert rowmap.tolist() == [[0, -1, 4], [-1, 2, -1], [-1, 3, -1]]
    assert out.tolist() == [[0, 1], [0, 0], [2, 3], [4, 5], [0, 1], [0, 0]]
    np.testing.assert_allclose(p.numpy(), [0.6, 0, 1.0, 1.0, 0.4, 0])
    assert experts.tolist() == [0, -1, 1, 1, 2, -1] and rowmap.dtype == paddle.int32
    assert scale.size == 0
    out2 = F.moe_permute(x, None, route, prob, 3, [1, 2, 1], 2, override_buffer_size=8)[0]
    assert out2.shape == [8, 2]
    with pytest.raises(ValueError):
        F.moe_permute(x, None, route, prob, 3, [1, 1, 1], 2)


def test_moe_round_trip_and_weighted_combine():
    x = paddle.rand([3, 8])
    route, prob = _routing()
    out, rowmap, p, _ = F.moe_permute(x, None, route, prob, 3, [1, 2, 1], 4)
    y, probs = F.moe_unpermute(out * p.unsqueeze(-1), rowmap, route, p, 3, 3)
    np.testing.assert_allclose(y.numpy(), x.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(probs.numpy(), prob.numpy())
    y2, _ = F.moe_unpermute(out, rowmap, route, p, 3, 3, using_weighted_combine=True)
    np.testing.assert_allclose(y2.numpy(), x.numpy(), rtol=1e-5, atol=1e-6)
    xb = x.astype("bfloat16")
    outb = F.moe_permute(xb, None, route, prob, 3, [1, 2, 1], 4)[0]
    assert outb.dtype == paddle.bfloat16
    assert F.moe_unpermute(outb, rowmap, route, p, 3, 3)[0].dtype == paddle.bfloat16
