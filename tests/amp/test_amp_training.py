"""Training under bfloat16 autocast (O1 and O2) reaches float32's accuracy.

An MLP on scikit-learn's bundled 8x8 digits, full-batch Adam; the tolerance is 3
percentage points of held-out accuracy.
"""
from __future__ import annotations

import numpy as np
import pytest

import pagaie as paddle

TOLERANCE = 0.03


def _data():
    datasets = pytest.importorskip("sklearn.datasets")
    d = datasets.load_digits()
    x = (d.data / 16.0).astype("float32")
    y = d.target.astype("int64")
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(x))
    split = int(0.8 * len(x))
    return x[idx[:split]], y[idx[:split]], x[idx[split:]], y[idx[split:]]


def _train(level: str | None, steps: int = 150) -> float:
    xtr, ytr, xte, yte = _data()
    paddle.seed(0)
    model = paddle.nn.Sequential(paddle.nn.Linear(64, 128), paddle.nn.ReLU(), paddle.nn.Linear(128, 10))
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    if level == "O2":
        model, opt = paddle.amp.decorate(model, opt, level="O2", dtype="bfloat16")
    x, y = paddle.to_tensor(xtr), paddle.to_tensor(ytr)
    loss_fn = paddle.nn.CrossEntropyLoss()
    for _ in range(steps):
        with paddle.amp.auto_cast(enable=level is not None, level=level or "O1", dtype="bfloat16"):
            logits = model(x)
            loss = loss_fn(logits.astype("float32"), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    with paddle.no_grad(), paddle.amp.auto_cast(enable=level is not None, level=level or "O1",
                                                dtype="bfloat16"):
        pred = model(paddle.to_tensor(xte)).astype("float32").argmax(axis=1).numpy()
    return float((pred == yte).mean())


def test_bf16_o1_and_o2_match_float32_accuracy():
    fp32 = _train(None)
    o1 = _train("O1")
    o2 = _train("O2")
    assert fp32 > 0.9
    assert abs(o1 - fp32) <= TOLERANCE, (fp32, o1)
    assert abs(o2 - fp32) <= TOLERANCE, (fp32, o2)
