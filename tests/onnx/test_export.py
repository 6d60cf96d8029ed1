"""paddle.onnx.export: round trips through onnxruntime, across opsets."""
import numpy as np
import pytest

import pagaie as paddle

ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")
nn, F = paddle.nn, paddle.nn.functional


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 8)
        self.l2 = nn.Linear(8, 3)

    def forward(self, x):
        return F.softmax(self.l2(F.sigmoid(self.l1(x)) * 2.0 + 1.0))


class CNN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(8)
        self.c2 = nn.Conv2D(8, 4, 3, stride=2, groups=4)
        self.fc = nn.Linear(4, 5)
        self.ln = nn.LayerNorm(5)
        self.drop = nn.Dropout(0.3)

    def forward(self, x):
        y = F.relu(self.bn(self.c1(x)))
        y = F.avg_pool2d(F.max_pool2d(y, 2), 1)
        y = paddle.flatten(self.c2(y), 1)
        return F.gelu(self.ln(self.drop(self.fc(y))))


class Misc(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(6, 6, bias_attr=False)
        self.ct = nn.Conv2DTranspose(2, 2, 3, stride=2, padding=1)

    def forward(self, x):
        a = paddle.transpose(paddle.reshape(x, [-1, 2, 3]), [0, 2, 1])
        b = F.softmax(paddle.concat([a, a - 1.0], axis=1), axis=1)
        c = paddle.mean(b, axis=1) + paddle.sum(x) / 10.0
        d = self.lin(x)
        e = F.leaky_relu(d, 0.2) + F.hardswish(d) + paddle.clip(d, -0.5, 0.5) + F.relu6(d) + F.silu(d)
        f = paddle.stack([paddle.squeeze(paddle.unsqueeze(d, 1), 1), paddle.pow(d, 2.0)], axis=1)
        g = F.adaptive_avg_pool2d(paddle.reshape(x, [-1, 2, 1, 3]), 1)
        h = self.ct(paddle.reshape(x, [-1, 2, 3, 1]))
        return c, e, f, paddle.max(g, axis=1), F.log_softmax(h, axis=1), paddle.tanh(d).mean(-1, keepdim=True)


def _roundtrip(tmp_path, net, shape, opset, batch=2):
    net.eval()
    path = str(tmp_path / f"m{opset}")
    paddle.onnx.export(net, path, [paddle.static.InputSpec(shape, "float32", "x")], opset_version=opset)
    sess = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
    x = np.random.RandomState(0).rand(batch, *shape[1:]).astype("float32") * 2 - 1
    got = sess.run(None, {"x": x})
    want = net(paddle.to_tensor(x))
    want = [want] if isinstance(want, paddle.Tensor) else list(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == tuple(w.shape)
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("opset", [9, 11, 13, 17])
@pytest.mark.parametrize("model", ["mlp", "cnn", "misc"])
def test_roundtrip_onnxruntime(tmp_path, model, opset):
    paddle.seed(5)
    net, shape = {"mlp": (MLP, [None, 4]), "cnn": (CNN, [None, 3, 8, 8]), "misc": (Misc, [None, 6])}[model]
    _roundtrip(tmp_path, net(), shape, opset)


def test_dynamic_batch(tmp_path):
    net = MLP()
    net.eval()
    path = str(tmp_path / "dyn")
    paddle.onnx.export(net, path, [paddle.static.InputSpec([None, 4], "float32", "x")])
    sess = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
    for n in (1, 5):
        x = np.ones((n, 4), "float32")
        np.testing.assert_allclose(sess.run(None, {"x": x})[0], net(paddle.to_tensor(x)).numpy(), atol=1e-6)


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="file_prefix"):
        paddle.onnx.export(MLP(), str(tmp_path) + "/", [paddle.static.InputSpec([None, 4])])
    with pytest.raises(ValueError, match="opset_version"):
        paddle.onnx.export(MLP(), str(tmp_path / "m"), [paddle.static.InputSpec([None, 4])], opset_version=3)

    class NoLowering(nn.Layer):
        def forward(self, x):
            return paddle.lgamma(x)

    with pytest.raises(NotImplementedError, match="'lgamma'"):
        paddle.onnx.export(NoLowering(), str(tmp_path / "c"), [paddle.static.InputSpec([None, 4])])


def test_lowerings_live_on_records():
    from pagaie._core.registry import REGISTRY
    import pagaie.onnx.lowerings  # noqa: F401
    for name in ("matmul", "add", "conv2d", "batch_norm", "softmax", "reshape", "linear", "layer_norm"):
        assert callable(REGISTRY[name].onnx), name
