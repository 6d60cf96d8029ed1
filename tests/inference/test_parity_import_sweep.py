"""Models saved by real Paddle 3.3.1 (``paddle.jit.save``, PIR ``.json`` + ``.pdiparams``)
loaded by pagaie's ``paddle.jit.load`` and predictor: outputs match Paddle's ``jit.load``.

Each case is exported on the fly (input specs with ``None`` batch dims) into a temporary
directory; the legacy ``.pdmodel`` cases run real Paddle in a subprocess, which needs
``FLAGS_enable_pir_api=0`` before import.
"""
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref


def _cases(paddle):
    nn, F = paddle.nn, paddle.nn.functional

    class Fn(nn.Layer):
        def __init__(self, f):
            super().__init__()
            self.f = f

        def forward(self, x):
            return self.f(x)

    class MHA(nn.Layer):
        def __init__(self):
            super().__init__()
            self.m = nn.MultiHeadAttention(8, 2)

        def forward(self, x, mask):
            return self.m(x, x, x, attn_mask=mask)

    class EmbPos(nn.Layer):
        def __init__(self):
            super().__init__()
            self.e, self.p = nn.Embedding(20, 8), nn.Embedding(16, 8)
            self.lstm = nn.LSTM(8, 6)
            self.enc = nn.TransformerEncoderLayer(6, 2, 12)

        def forward(self, ids):
            pos = paddle.arange(ids.shape[1]).unsqueeze(0).expand_as(ids)
            y, _ = self.lstm(self.e(ids) + self.p(pos))
            return self.enc(y)

    S = paddle.static.InputSpec
    x3 = [(S([None, 3, 4], "float32", "x"), (2, 3, 4))]
    x4 = [(S([None, 4, 6, 6], "float32", "x"), (2, 4, 6, 6))]
    ops3 = {
        "elu_selu_softplus": lambda x: F.elu(x) + F.selu(x) + F.softplus(x) + F.celu(x),
        "shrink_tanh": lambda x: F.hardshrink(x) + F.softshrink(x) + F.hardtanh(x) + F.tanhshrink(x),
        "unary": lambda x: paddle.log1p(x) + paddle.expm1(x) + paddle.trunc(x * 3) + paddle.round(x * 3),
        "pow": lambda x: x ** 3 + paddle.pow(x, x),
        "cum": lambda x: paddle.cumsum(x, 1) + paddle.cumprod(x, 2),
        "norms": lambda x: (F.normalize(x), paddle.linalg.norm(x, axis=-1), F.layer_norm(x, [4])),
        "pad": lambda x: (F.pad(x, [1, 2], value=1.5, data_format="NCL"),
                          F.pad(x, [1, 2], mode="reflect", data_format="NCL")),
        "slices": lambda x: (x[:, 1:, ::2], x[:, -1], paddle.strided_slice(x, [1, 2], [0, 0], [3, 4], [2, 2])),
        "index": lambda x: (paddle.gather(x, paddle.to_tensor([2, 0]), axis=1),
                            paddle.gather_nd(x, paddle.to_tensor([[0, 1], [1, 2]])),
                            paddle.index_select(x, paddle.to_tensor([3, 1]), axis=2)),
        "sort": lambda x: (paddle.topk(x, 2), paddle.sort(x, 1, descending=True), paddle.argsort(x)),
        "reduce": lambda x: (x.amax(1), paddle.logsumexp(x, 1), (x > 0.1).all(1), x.argmin(-1, keepdim=True),
                             x.std(1)),
        "shape_ops": lambda x: (paddle.unbind(x, 1), paddle.flip(x, [1, 2]), paddle.roll(x, 1, 2),
                                paddle.tril(x), paddle.triu(x, 1), paddle.expand_as(x[:1], x)),
        "dynamic": lambda x: (paddle.full([paddle.shape(x)[0], 2], 3.0), paddle.zeros_like(x) + 1,
                              paddle.ones_like(x, "int64"), paddle.arange(paddle.shape(x)[0]),
                              paddle.numel(x)),
        "masks": lambda x: (paddle.masked_fill(x, x > 0.5, 0.0), paddle.where(x > 0.5, x, -x),
                            paddle.isfinite(x), paddle.logical_xor(x > 0.3, x < 0.6)),
        "matmul": lambda x: (paddle.bmm(x, x.transpose([0, 2, 1])), paddle.einsum("bij,bkj->bik", x, x)),
        "repeat": lambda x: paddle.repeat_interleave(x, 2, 1),
        "losses": lambda x: (F.smooth_l1_loss(x, x * 0.3), F.binary_cross_entropy(F.sigmoid(x), x)),
    }
    ops4 = {
        "pool": lambda x: (F.max_pool2d(x, 3, 2, ceil_mode=True), F.adaptive_max_pool2d(x, 2),
                           F.avg_pool2d(x, 3, 1, 1)),
        "interp": lambda x: (F.interpolate(x, size=[5, 7], mode="bilinear", align_corners=True),
                             F.interpolate(x, scale_factor=1.5, mode="bilinear")),
        "norm4": lambda x: (F.instance_norm(x), F.local_response_norm(x, 3), F.pad(x, [1, 1, 2, 0])),
        "shuffle": lambda x: (F.pixel_unshuffle(x, 2), F.channel_shuffle(x, 2)),
    }
    cases = {f"op_{k}": (Fn(f), x3) for k, f in ops3.items()}
    cases.update({f"op4_{k}": (Fn(f), x4) for k, f in ops4.items()})
    cases.update({
        "group_norm": (nn.GroupNorm(2, 4), x4),
        "layer_norm_2d": (nn.LayerNorm([6, 6]), x4),
        "conv3d": (nn.Sequential(nn.Conv3D(2, 2, 3, padding=1), nn.MaxPool3D(2), nn.BatchNorm3D(2)),
                   [(S([None, 2, 4, 4, 4], "float32", "x"), (1, 2, 4, 4, 4))]),
        "lstm_2b": (nn.LSTM(4, 5, num_layers=2, direction="bidirect"), x3),
        "gru_2f": (nn.GRU(4, 5, num_layers=2), x3),
        "simple_rnn_1b": (nn.SimpleRNN(4, 5, direction="bidirect"), x3),
        "encoder": (nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2),
                    [(S([None, 5, 8], "float32", "x"), (2, 5, 8))]),
        "transformer": (nn.Transformer(8, 2, 1, 1, 16), [(S([None, 5, 8], "float32", "src"), (2, 5, 8)),
                                                         (S([None, 4, 8], "float32", "tgt"), (2, 4, 8))]),
        "mha_mask": (MHA(), [(S([None, 5, 8], "float32", "x"), (2, 5, 8)),
                             (S([None, 1, 5, 5], "float32", "mask"), (2, 1, 5, 5))]),
        "emb_pos": (EmbPos(), [(S([None, None], "int64", "ids"), (2, 7))]),
        "mobilenet_v3_small": (paddle.vision.models.mobilenet_v3_small(num_classes=10),
                               [(S([None, 3, 32, 32], "float32", "x"), (1, 3, 32, 32))]),
    })
    return cases


CASES = ["op_elu_selu_softplus", "op_shrink_tanh", "op_unary", "op_pow", "op_cum", "op_norms", "op_pad",
         "op_slices", "op_index", "op_sort", "op_reduce", "op_shape_ops", "op_dynamic", "op_masks",
         "op_matmul", "op_repeat", "op_losses", "op4_pool", "op4_interp", "op4_norm4", "op4_shuffle",
         "group_norm", "layer_norm_2d", "conv3d", "lstm_2b", "gru_2f", "simple_rnn_1b", "encoder",
         "transformer", "mha_mask", "emb_pos", "mobilenet_v3_small"]


def _flat(v):
    if isinstance(v, (list, tuple)):
        return [e for x in v for e in _flat(x)]
    return [v]


def _perturb(paddle, layer, rng):
    """Move every parameter and statistic off its initial value (zero means, unit variances
    and biases at 0 would hide a swapped or ignored operand)."""
    for p in layer.parameters() + layer.buffers():
        if not paddle.is_floating_point(p) or p.size == 0:
            continue
        v = p.numpy()
        if p.stop_gradient:   # running statistics: positive, away from 0 and 1
            v = rng.uniform(0.5, 1.5, v.shape)
        else:
            v = v * rng.uniform(0.8, 1.2, v.shape) + rng.uniform(-0.05, 0.05, v.shape)
        p.set_value(v.astype(p.numpy().dtype))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Export every case with real Paddle; returns {name: (prefix, inputs, Paddle's outputs)}."""
    paddle = paddle_ref()
    d = tmp_path_factory.mktemp("paddle_import")
    paddle.seed(7)
    rng = np.random.RandomState(0)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (layer, specs) in _cases(paddle).items():
            _perturb(paddle, layer, rng)
            layer.eval()
            prefix = str(d / name)
            paddle.jit.save(layer, prefix, [s for s, _ in specs])
            ins = [rng.randint(0, 10, shape).astype("int64") if s.dtype == paddle.int64
                   else rng.rand(*shape).astype("float32") for s, shape in specs]
            loaded = paddle.jit.load(prefix)
            res = _flat(loaded(*[paddle.to_tensor(a) for a in ins]))
            out[name] = (prefix, ins, [r.numpy() for r in res])
    return out


def _check(got, want, name):
    assert len(got) == len(want), f"{name}: {len(got)} outputs vs Paddle's {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape, f"{name}[{i}]: shape {g.shape} vs {w.shape}"
        assert g.dtype == w.dtype, f"{name}[{i}]: dtype {g.dtype} vs {w.dtype}"
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=f"{name}[{i}]")


@pytest.mark.parametrize("name", CASES)
def test_jit_load_matches_paddle(exported, name):
    prefix, ins, want = exported[name]
    layer = pagaie.jit.load(prefix)
    got = _flat(layer(*[pagaie.to_tensor(a) for a in ins]))
    _check([g.numpy() for g in got], want, name)


@pytest.mark.parametrize("name", ["op_dynamic", "op_sort", "lstm_2b", "emb_pos", "transformer"])
def test_predictor_matches_paddle(exported, name):
    prefix, ins, want = exported[name]
    params = prefix + ".pdiparams"
    config = pagaie.inference.Config(prefix + ".json", params if os.path.exists(params) else "")
    pred = pagaie.inference.create_predictor(config)
    for n, a in zip(pred.get_input_names(), ins):
        pred.get_input_handle(n).copy_from_cpu(a)
    pred.run()
    _check([pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()], want, name)


def test_jit_load_parameters_and_training(exported):
    paddle = paddle_ref()
    prefix, ins, _ = exported["encoder"]
    ours, theirs = pagaie.jit.load(prefix), paddle.jit.load(prefix)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [p.stop_gradient for p in ours.parameters()] == [p.stop_gradient for p in theirs.parameters()]
    assert [list(p.shape) for p in ours.parameters()] == [list(p.shape) for p in theirs.parameters()]
    assert ours.training is False
    ours.train()
    x = pagaie.to_tensor(ins[0])
    before = ours(x).numpy()
    opt = pagaie.optimizer.SGD(0.1, parameters=ours.parameters())
    ours(x).square().mean().backward()
    assert all(p.grad is not None for p in ours.parameters())
    opt.step()
    assert not np.allclose(ours(x).numpy(), before)


def test_batch_norm_statistics_are_not_trainable(exported):
    paddle = paddle_ref()
    prefix = exported["conv3d"][0]
    ours, theirs = pagaie.jit.load(prefix), paddle.jit.load(prefix)
    assert [p.stop_gradient for p in ours.parameters()] == [p.stop_gradient for p in theirs.parameters()]


def test_unknown_op_names_the_op(exported, tmp_path):
    prefix = exported["op_unary"][0]
    with open(prefix + ".json") as f:
        data = json.load(f)
    ops = data["program"]["regions"][0]["blocks"][0]["ops"]
    op = next(o for o in ops if o["#"] == "1.log1p")
    op["#"] = "1.no_such_op"
    path = tmp_path / "bad"
    with open(str(path) + ".json", "w") as f:
        json.dump(data, f)
    with pytest.raises(NotImplementedError, match="pd_op.no_such_op"):
        pagaie.jit.load(str(path))


_LEGACY = textwrap.dedent("""
    import os, sys, warnings
    os.environ["FLAGS_enable_pir_api"] = "0"
    warnings.simplefilter("ignore")
    import numpy as np, paddle
    S = paddle.static.InputSpec
    paddle.seed(3)
    out = sys.argv[1]
    nets = {"cnn": (paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU(),
                                         paddle.nn.AdaptiveAvgPool2D(1), paddle.nn.Flatten(), paddle.nn.Linear(4, 2)),
                    [S([None, 3, 8, 8], "float32", "x")], (2, 3, 8, 8)),
            "mlp": (paddle.nn.Sequential(paddle.nn.Linear(4, 6), paddle.nn.Hardswish(), paddle.nn.Linear(6, 3),
                                         paddle.nn.Softmax()), [S([None, 3, 4], "float32", "x")], (2, 3, 4))}
    for name, (net, spec, shape) in nets.items():
        net.eval()
        p = os.path.join(out, name)
        paddle.jit.save(net, p, spec)
        x = np.random.RandomState(0).rand(*shape).astype("float32")
        res = net(paddle.to_tensor(x))  # (Paddle cannot jit.load its own legacy files)
        res = [res] if isinstance(res, paddle.Tensor) else [r for r in res if isinstance(r, paddle.Tensor)] + \\
            [s for r in res if isinstance(r, (list, tuple)) for s in r]
        np.savez(p + ".npz", x=x, **{f"out{i}": r.numpy() for i, r in enumerate(res)})
    # (Paddle 3.3.1 cannot export its RNN layers in the legacy format: unknown place type)
""")


def test_legacy_pdmodel(tmp_path):
    paddle_ref()
    script = tmp_path / "export.py"
    script.write_text(_LEGACY)
    env = dict(os.environ, GLOG_minloglevel="3")
    subprocess.run([sys.executable, str(script), str(tmp_path)], check=True, env=env, timeout=300,
                   capture_output=True)
    for name in ("cnn", "mlp"):
        prefix = str(tmp_path / name)
        assert os.path.exists(prefix + ".pdmodel")
        z = np.load(prefix + ".npz")
        want = [z[f"out{i}"] for i in range(10) if f"out{i}" in z]
        got = _flat(pagaie.jit.load(prefix)(pagaie.to_tensor(z["x"])))
        _check([g.numpy() for g in got], want, name)
