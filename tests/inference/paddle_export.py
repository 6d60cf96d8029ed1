"""Exports small models with real Paddle (run as a script: ``python paddle_export.py OUT [legacy]``).

Writes ``OUT/<name>.json|.pdmodel`` + ``.pdiparams`` for each model and ``OUT/<name>.npz``
with the inputs fed and the outputs of real Paddle's predictor on them. Run in its own
process: the legacy (protobuf) format needs ``FLAGS_enable_pir_api=0`` before import.
"""
import os
import sys

if len(sys.argv) > 2 and sys.argv[2] == "legacy":
    os.environ["FLAGS_enable_pir_api"] = "0"
os.environ.setdefault("GLOG_minloglevel", "3")

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.inference as pi  # noqa: E402
import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402
from paddle.static import InputSpec  # noqa: E402


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 8)
        self.l2 = nn.Linear(8, 3)

    def forward(self, x):
        return F.softmax(self.l2(F.relu(self.l1(x))))


class CNN(nn.Layer):
    def __init__(self, act=F.gelu):
        super().__init__()
        self.act = act
        self.c1 = nn.Conv2D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(8)
        self.c2 = nn.Conv2D(8, 4, 3, stride=2, groups=4)
        self.fc = nn.Linear(4, 5)
        self.ln = nn.LayerNorm(5)
        self.drop = nn.Dropout(0.3)

    def forward(self, x):
        y = F.relu(self.bn(self.c1(x)))
        y = F.max_pool2d(y, 2)
        y = F.avg_pool2d(self.c2(y), 1)
        y = paddle.flatten(y, 1)
        return self.act(self.ln(self.drop(self.fc(y))))


class Misc(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(6, 6)

    def forward(self, x, y):
        a = paddle.reshape(x, [-1, 2, 3])
        b = paddle.transpose(a, [0, 2, 1])
        c = paddle.concat([b, b * 2.0], axis=1)
        e = paddle.mean(F.softmax(c, axis=-1), axis=1) + paddle.sum(y)
        f = self.lin(paddle.reshape(x, [-1, 6]))
        return e, paddle.tanh(f) - F.sigmoid(f) * y.sum(1, keepdim=True)


class Wide(nn.Layer):
    def __init__(self):
        super().__init__()
        self.ct = nn.Conv2DTranspose(4, 2, 3, stride=2, padding=1)
        self.emb = nn.Embedding(10, 4)

    def forward(self, x, ids):
        a = F.adaptive_avg_pool2d(x, 1)
        b = F.interpolate(x, scale_factor=2, mode="nearest")
        c = self.ct(x)
        d = paddle.pow(x, 2.0) + F.leaky_relu(x, 0.2) + F.hardswish(x) + paddle.clip(x, -1.0, 1.0)
        d = d + F.hardsigmoid(x)
        e = paddle.cast(ids, "float32")
        f = x[:, 1:3]
        g = paddle.unsqueeze(paddle.squeeze(a, [2, 3]), 1)
        h1, h2 = paddle.split(x, 2, axis=1)
        s = paddle.stack([h1, h2], axis=0)
        em = self.emb(ids)
        lsm = F.log_softmax(paddle.exp(paddle.maximum(f, x[:, 0:2])), axis=1)
        t = paddle.tile(a, [1, 1, 2, 2])
        m = paddle.matmul(em, em, transpose_y=True)
        return a, b, c, d, e, g, s, lsm, t, m, paddle.mean(x), paddle.expand(a, [2, 4, 3, 3])


class Zoo(nn.Layer):
    """Ops that Paddle 3.3.1 can still write in the legacy (protobuf) format."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        x = self.lin(x)
        a = paddle.reshape(paddle.transpose(x, [0, 2, 3, 1]), [-1, 8, 24])
        b = paddle.concat([a * 2.0, a - a / (a + 1.0)], axis=1).mean(axis=2)
        c = paddle.clip(F.leaky_relu(x, 0.1), 0.1, 0.5) + F.hardswish(x) + F.relu6(x)
        c = c + F.hardsigmoid(x) + F.swish(x) + F.silu(x) + paddle.pow(x, 2.0)
        d = paddle.stack(paddle.split(x, 2, axis=3), axis=0)
        e = F.log_softmax(F.interpolate(x, scale_factor=2), axis=1)
        f = paddle.tile(paddle.unsqueeze(x[:, 1:2], 0), [1, 1, 2, 1, 1])
        g = paddle.expand(F.adaptive_avg_pool2d(x, 1), [2, 3, 8, 8]) * x
        return b, c, d, e, f, paddle.cast(g, "float64")


MODELS = {
    "mlp": (MLP, [InputSpec([None, 4], "float32", "x")], lambda r: [r.rand(3, 4)]),
    "cnn": (CNN, [InputSpec([None, 3, 8, 8], "float32", "img")], lambda r: [r.rand(2, 3, 8, 8)]),
    "misc": (Misc, [InputSpec([None, 6], "float32", "x"), InputSpec([None, 6], "float32", "y")],
             lambda r: [r.rand(3, 6), r.rand(3, 6)]),
    "wide": (Wide, [InputSpec([2, 4, 3, 3], "float32", "x"), InputSpec([2, 5], "int64", "ids")],
             lambda r: [r.rand(2, 4, 3, 3) * 2 - 1, r.randint(0, 10, (2, 5))]),
    "zoo": (Zoo, [InputSpec([2, 3, 8, 8], "float32", "x")], lambda r: [r.rand(2, 3, 8, 8) * 2 - 1]),
}


def main(out: str, legacy: bool) -> None:
    os.makedirs(out, exist_ok=True)
    paddle.seed(7)
    rng = np.random.RandomState(0)
    ext = ".pdmodel" if legacy else ".json"
    for name, (cls, spec, make) in MODELS.items():
        net = cls(F.silu) if legacy and name == "cnn" else cls()
        if name == "cnn":  # non-trivial running statistics
            net.bn._mean.set_value(paddle.rand([8]))
            net.bn._variance.set_value(paddle.rand([8]) + 0.5)
        net.eval()
        prefix = os.path.join(out, name)
        try:
            paddle.jit.save(net, prefix, spec)
        except Exception as exc:  # noqa: BLE001 - this Paddle cannot export it in this format
            print(f"skip {name}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
            continue
        inputs = [a.astype("float32") if a.dtype == np.float64 else a.astype("int64") for a in make(rng)]
        config = pi.Config(prefix + ext, prefix + ".pdiparams")
        config.disable_glog_info()
        config.disable_mkldnn()
        pred = pi.create_predictor(config)
        for n, a in zip(pred.get_input_names(), inputs):
            pred.get_input_handle(n).copy_from_cpu(a)
        pred.run()
        outs = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
        eager = net(*[paddle.to_tensor(a) for a in inputs])
        eager = [eager] if isinstance(eager, paddle.Tensor) else list(eager)
        np.savez(prefix + ".npz", **{f"in{i}": a for i, a in enumerate(inputs)},
                 **{f"out{i}": o for i, o in enumerate(outs)},
                 **{f"eager{i}": e.numpy() for i, e in enumerate(eager)},
                 input_names=np.array(pred.get_input_names()),
                 output_names=np.array(pred.get_output_names()))


if __name__ == "__main__":
    main(sys.argv[1], len(sys.argv) > 2 and sys.argv[2] == "legacy")
