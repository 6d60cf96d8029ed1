"""Differential tests against real Paddle for recurrent and attention layers."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _grads(mod, layer, xs, mask):
    x = mod.to_tensor(xs, stop_gradient=False)
    out = layer(x, attn_mask=mod.to_tensor(mask))
    (out * out).sum().backward()
    return [x.grad.numpy()] + [p.grad.numpy() for p in layer.parameters()]


@pytest.mark.parametrize("dtype", ["bool", "int64"])
def test_mha_fully_masked_row_gradients(dtype):
    """A query row that a bool/int mask hides entirely: uniform weights, Paddle's gradients."""
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((2, 3, 4)).astype("float32")
    mask = np.ones((2, 1, 3, 3), dtype)
    mask[0, 0, 1] = 0
    ref = paddle.nn.MultiHeadAttention(4, 2)
    got = pagaie.nn.MultiHeadAttention(4, 2)
    got.set_state_dict({k: pagaie.to_tensor(v.numpy()) for k, v in ref.state_dict().items()})
    for a, b in zip(_grads(paddle, ref, xs, mask), _grads(pagaie, got, xs, mask)):
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5)


def test_sdpa_row_under_huge_negative_float_mask_gradients():
    """An additive mask of -1e9 over a whole query row: Paddle's gradients, not rounding noise."""
    rng = np.random.default_rng(1)
    qs = rng.standard_normal((1, 3, 1, 4)).astype("float32")
    mask = np.zeros((1, 1, 3, 3), "float32")
    mask[0, 0, 2] = -1e9
    grads = []
    for mod in (paddle, pagaie):
        q = mod.to_tensor(qs, stop_gradient=False)
        out = mod.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=mod.to_tensor(mask))
        (out * out).sum().backward()
        grads.append(q.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-4, atol=1e-5)
