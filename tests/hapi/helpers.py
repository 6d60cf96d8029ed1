"""Shared pieces of the hapi tests: a tiny classification task run identically by pagaie
and real Paddle (same initial weights, same batch order)."""
from __future__ import annotations

import numpy as np

_RNG = np.random.RandomState(0)
X = _RNG.randn(24, 4).astype("float32")
Y = (X[:, :1] + 0.5 * X[:, 1:2] > 0).astype("int64") + (X[:, 2:3] > 1).astype("int64")


class Loader:
    """A minimal DataLoader: fixed-order batches of ``[x, y]`` tensors of ``fw``."""

    def __init__(self, fw, x: np.ndarray, y: np.ndarray | None = None, batch_size: int = 4):
        self.fw, self.x, self.y, self.bs = fw, x, y, batch_size

    def __len__(self) -> int:
        return (len(self.x) + self.bs - 1) // self.bs

    def __iter__(self):
        for i in range(0, len(self.x), self.bs):
            batch = [self.fw.to_tensor(self.x[i:i + self.bs])]
            if self.y is not None:
                batch.append(self.fw.to_tensor(self.y[i:i + self.bs]))
            yield batch


def initial_state(seed: int = 0) -> dict:
    """Initial weights of :func:`make_net`, drawn once with numpy."""
    rng = np.random.RandomState(seed)
    return {"0.weight": rng.uniform(-0.5, 0.5, (4, 8)).astype("float32"),
            "0.bias": rng.uniform(-0.1, 0.1, (8,)).astype("float32"),
            "2.weight": rng.uniform(-0.5, 0.5, (8, 3)).astype("float32"),
            "2.bias": np.zeros(3, "float32")}


def make_net(fw, state: dict | None = None):
    net = fw.nn.Sequential(fw.nn.Linear(4, 8), fw.nn.ReLU(), fw.nn.Linear(8, 3))
    net.set_state_dict({k: fw.to_tensor(v) for k, v in (state or initial_state()).items()})
    return net


def make_model(fw, lr: float = 0.05, metrics: bool = True, optimizer: str = "Adam", state=None):
    model = fw.Model(make_net(fw, state))
    opt = getattr(fw.optimizer, optimizer)(learning_rate=lr, parameters=model.parameters())
    model.prepare(opt, fw.nn.CrossEntropyLoss(),
                  fw.metric.Accuracy(topk=(1, 2)) if metrics else None)
    return model


def recorder(fw):
    """A callback of ``fw`` that keeps copies of the per-epoch train and eval logs."""

    class Recorder(fw.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.train, self.eval = [], []

        def on_epoch_end(self, epoch, logs=None):
            self.train.append(dict(logs))

        def on_eval_end(self, logs=None):
            self.eval.append(dict(logs))

    return Recorder()


def assert_logs_close(ours: list, theirs: list, keys=("loss", "acc_top1", "acc_top2"),
                      rtol: float = 1e-4) -> None:
    assert len(ours) == len(theirs), f"{len(ours)} epochs logged vs Paddle's {len(theirs)}"
    for i, (a, b) in enumerate(zip(ours, theirs)):
        for k in keys:
            if k in b:
                np.testing.assert_allclose(np.ravel(a[k]), np.ravel(b[k]), rtol=rtol, atol=1e-6,
                                           err_msg=f"epoch {i} {k}")
