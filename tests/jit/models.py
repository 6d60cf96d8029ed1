"""Models shared by the jit tests: an MLP, a CNN with BatchNorm, and data-dependent control flow."""
import pagaie as paddle


class MLP(paddle.nn.Layer):
    def __init__(self, din=4, dh=8, dout=3):
        super().__init__()
        self.fc1 = paddle.nn.Linear(din, dh)
        self.fc2 = paddle.nn.Linear(dh, dout)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


class CNN(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(1, 4, 3, padding=1)
        self.bn = paddle.nn.BatchNorm2D(4)
        self.pool = paddle.nn.MaxPool2D(2)
        self.fc = paddle.nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        h = self.pool(paddle.nn.functional.relu(self.bn(self.conv(x))))
        return self.fc(paddle.flatten(h, 1))


class ControlFlow(paddle.nn.Layer):
    """A while loop with a tensor trip count, if on tensor values, break/continue, early return."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 4)
        self.out = paddle.nn.Linear(4, 2)

    def forward(self, x, n):
        i = 0
        while i < n:                      # trip count from a tensor
            x = paddle.tanh(self.fc(x))
            i += 1
        for k in range(4):
            if x.sum() > 100.0:           # tensor-dependent break
                break
            if k == 1:
                continue
            x = x + 0.1
        if x.mean() > 0:                  # tensor-dependent early return
            return self.out(x) * 2.0
        y = self.out(x)
        return y - 1.0


def loop_fn(x, limit):
    """A while loop over tensors whose body breaks on a tensor condition."""
    s = paddle.zeros_like(x)
    i = paddle.to_tensor(0)
    while i < limit:
        s = s + x * i.astype('float32')
        if s.sum() > 50.0:
            break
        i = i + 1
    return s, i
