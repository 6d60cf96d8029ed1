"""The README's demo: tensors and autograd, then a small CNN trained with ``paddle.Model``.

Run with ``python -m pagaie.demo`` (``make demo``). The CNN learns scikit-learn's bundled
8x8 handwritten digits (no download): ``Model.fit`` with a progress bar, ``evaluate`` on
held-out digits, ``save`` a checkpoint, ``load`` it into a fresh Model and ``predict``.
The demo exits non-zero unless the held-out accuracy exceeds 95% within two minutes.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time

import numpy as np

import pagaie as paddle

TARGET_ACCURACY = 0.95
TIME_LIMIT_S = 120.0


def tensors_and_autograd() -> None:
    """Show Paddle-style tensors and gradients."""
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = paddle.matmul(x, x, transpose_y=True).sum()
    y.backward()
    print("x =", x)
    print("d(sum(x @ x.T))/dx =", x.grad.tolist())


class Digits(paddle.io.Dataset):
    """scikit-learn's 8x8 digits as ``(image [1, 8, 8] float32, label [1] int64)`` pairs."""

    def __init__(self, images: np.ndarray, labels: np.ndarray) -> None:
        super().__init__()
        self.images = (images / 16.0).astype("float32").reshape(-1, 1, 8, 8)
        self.labels = labels.astype("int64").reshape(-1, 1)

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        return self.images[idx], self.labels[idx]

    def __len__(self) -> int:
        return len(self.labels)


def load_digits(test_fraction: float = 0.2, seed: int = 0) -> tuple[Digits, Digits]:
    """A shuffled train/held-out split of the bundled digits."""
    from sklearn.datasets import load_digits as sk_digits

    data = sk_digits()
    order = np.random.RandomState(seed).permutation(len(data.target))
    n_test = int(len(order) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return Digits(data.images[train], data.target[train]), Digits(data.images[test],
                                                                  data.target[test])


class SmallCNN(paddle.nn.Layer):
    """Two conv-relu-pool blocks and a linear classifier: 8x8 -> 4x4 -> 2x2 -> 10 classes."""

    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.features = paddle.nn.Sequential(
            paddle.nn.Conv2D(1, 16, 3, padding=1), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
            paddle.nn.Conv2D(16, 32, 3, padding=1), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2))
        self.classifier = paddle.nn.Linear(32 * 2 * 2, num_classes)

    def forward(self, x: paddle.Tensor) -> paddle.Tensor:
        return self.classifier(paddle.flatten(self.features(x), 1))


def new_model() -> paddle.Model:
    """A fresh, prepared Model around a SmallCNN."""
    model = paddle.Model(SmallCNN())
    model.prepare(paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    return model


def train_digits(epochs: int = 12, batch_size: int = 64) -> float:
    """Train, evaluate, checkpoint, reload and predict; returns the held-out accuracy."""
    paddle.seed(0)
    train_set, test_set = load_digits()
    print(f"digits: {len(train_set)} training and {len(test_set)} held-out images of 8x8")
    model = new_model()
    model.summary((1, 1, 8, 8))
    model.fit(train_set, test_set, batch_size=batch_size, epochs=epochs, eval_freq=4,
              log_freq=10, verbose=1)
    result = model.evaluate(test_set, batch_size=256, verbose=0)
    print(f"held-out: loss {result['loss'][0]:.4f}, accuracy {result['acc']:.4f}")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "digits_cnn")
        model.save(path)
        print("saved", sorted(os.listdir(tmp)))
        restored = new_model()
        restored.load(path)
    logits = restored.predict(test_set, batch_size=256, stack_outputs=True, verbose=0)[0]
    accuracy = float((logits.argmax(axis=1) == test_set.labels[:, 0]).mean())
    print(f"reloaded model predicts the held-out digits with accuracy {accuracy:.4f}")
    return accuracy


def main() -> None:
    start = time.time()
    print(f"pagaie {paddle.__version__}")
    tensors_and_autograd()
    accuracy = train_digits()
    elapsed = time.time() - start
    print(f"held-out accuracy {accuracy:.2%} in {elapsed:.1f}s")
    if accuracy <= TARGET_ACCURACY:
        sys.exit(f"demo: held-out accuracy {accuracy:.2%} is not above {TARGET_ACCURACY:.0%}")
    if elapsed > TIME_LIMIT_S:
        sys.exit(f"demo: took {elapsed:.0f}s, more than {TIME_LIMIT_S:.0f}s")


if __name__ == "__main__":
    main()
