"""The README's demo: tensors, autograd, and a tiny model whose loss falls.

Run with ``python -m pagaie.demo``.
"""
from __future__ import annotations

import pagaie as paddle


def tensors_and_autograd() -> None:
    """Show Paddle-style tensors and gradients."""
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = paddle.matmul(x, x, transpose_y=True).sum()
    y.backward()
    print("x =", x)
    print("d(sum(x @ x.T))/dx =", x.grad.tolist())


def train_tiny_regression(steps: int = 200, lr: float = 0.1) -> list[float]:
    """Fit y = 3*x0 - 2*x1 + 1 with a linear model by plain gradient descent.

    Returns:
        The loss every 20 steps.
    """
    paddle.seed(0)
    x = paddle.randn([256, 2])
    y = 3.0 * x[:, 0:1] - 2.0 * x[:, 1:2] + 1.0
    w = paddle.zeros([2, 1])
    b = paddle.zeros([1])
    w.stop_gradient = False
    b.stop_gradient = False
    losses = []
    for step in range(steps):
        loss = ((paddle.matmul(x, w) + b - y) ** 2).mean()
        loss.backward()
        with paddle.no_grad():
            w.set_value(w - lr * w.grad)
            b.set_value(b - lr * b.grad)
        w.clear_grad()
        b.clear_grad()
        if step % 20 == 0:
            losses.append(float(loss))
            print(f"step {step:3d}  loss {float(loss):.6f}")
    print("learned w =", [round(v, 3) for v in w.numpy().ravel().tolist()],
          "b =", round(float(b), 3))
    return losses


def main() -> None:
    print(f"pagaie {paddle.__version__}")
    tensors_and_autograd()
    losses = train_tiny_regression()
    if not losses[-1] < losses[0] * 1e-2:
        raise SystemExit("demo: the loss did not fall as expected")
    print("loss fell from", round(losses[0], 4), "to", round(losses[-1], 6))


if __name__ == "__main__":
    main()
