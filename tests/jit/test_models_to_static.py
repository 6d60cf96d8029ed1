"""Vision models and a Transformer encoder: eager == to_static == jit.save/jit.load,
for outputs and gradients."""
from __future__ import annotations

import os

import numpy as np
import pytest

import pagaie as paddle
from pagaie.static import InputSpec


def _encoder():
    layer = paddle.nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0)
    return paddle.nn.TransformerEncoder(layer, 2)


def _bert_base():
    # BERT-base-sized: 12 layers, hidden 768, 12 heads, feed-forward 3072, GELU, dropout 0.1
    layer = paddle.nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.1, activation="gelu")
    return paddle.nn.TransformerEncoder(layer, 12)


CASES = [
    ("resnet18", lambda: paddle.vision.models.resnet18(num_classes=10), [2, 3, 32, 32]),
    ("mobilenet_v2", lambda: paddle.vision.models.mobilenet_v2(num_classes=10), [2, 3, 32, 32]),
    ("encoder", _encoder, [2, 8, 32]),
    pytest.param("bert_base", _bert_base, [2, 16, 768], marks=pytest.mark.slow),
]


@pytest.mark.parametrize("name,build,shape", CASES, ids=["resnet18", "mobilenet_v2", "encoder", "bert_base"])
def test_eager_to_static_and_saved_model_agree(tmp_path, name, build, shape):
    paddle.seed(0)
    eager = build()
    traced = build()
    traced.set_state_dict(eager.state_dict())
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal(shape).astype("float32"))

    eager.eval()
    want = eager(x).numpy()
    spec = [InputSpec([None] + shape[1:], "float32")]
    static_fn = paddle.jit.to_static(traced, input_spec=spec)
    traced.eval()
    np.testing.assert_allclose(static_fn(x).numpy(), want, rtol=1e-5, atol=1e-5)

    path = os.path.join(str(tmp_path), name)
    paddle.jit.save(traced, path, input_spec=spec)
    loaded = paddle.jit.load(path)
    np.testing.assert_allclose(loaded(x).numpy(), want, rtol=1e-5, atol=1e-5)

    # Gradients through the traced program equal eager ones (train mode).
    eager.train()
    traced.train()
    paddle.seed(1)  # the same dropout masks in both runs
    (eager(x) ** 2).mean().backward()
    paddle.seed(1)
    (static_fn(x) ** 2).mean().backward()
    for (n, p), (_, q) in zip(eager.named_parameters(), traced.named_parameters()):
        if p.grad is None:
            assert q.grad is None, n
            continue
        want_g = p.grad.numpy()
        # float32 sums of large gradients differ in their last bits between kernels (cuDNN)
        np.testing.assert_allclose(q.grad.numpy(), want_g, rtol=1e-4,
                                   atol=1e-5 * max(1.0, float(np.abs(want_g).max())), err_msg=n)
