"""Sweep of ``paddle.onnx.export``: every model/op exported with dynamic batch dims, run with
onnxruntime and compared with pagaie's own eager output (real Paddle's exporter needs
paddle2onnx, which is absent, so the eager result is the reference)."""
import inspect
import os

import numpy as np
import pytest

import pagaie as paddle
from tests.reference import paddle_ref

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")
nn, F = paddle.nn, paddle.nn.functional
T = paddle.to_tensor


class Fn(nn.Layer):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    # named parameters: a converted function takes no argument through *args (as in Paddle)
    def forward(self, x, y=None, z=None, w=None):
        return self.fn(*[a for a in (x, y, z, w) if a is not None])


def S(shape, dtype="float32", name="x"):
    return paddle.static.InputSpec(shape, dtype, name)


def _flat(v):
    if isinstance(v, paddle.Tensor):
        return [v]
    out = []
    for e in v:
        out += _flat(e)
    return out


def roundtrip(tmp_path, net, specs, feeds, opset=17, rtol=1e-4, atol=1e-5):
    """Export, check the file, run it and compare every output (shape, dtype, values)."""
    if isinstance(net, nn.Layer):
        net.eval()
    path = str(tmp_path / f"m{opset}")
    paddle.onnx.export(net, path, specs, opset_version=opset)
    model = onnx.load(path + ".onnx")
    onnx.checker.check_model(model)
    assert [i.name for i in model.graph.input] == [s.name for s in specs]
    assert model.opset_import[0].version == opset
    sess = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
    got = sess.run(None, {s.name: f for s, f in zip(specs, feeds)})
    want = _flat(net(*[T(f) for f in feeds]))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = w.numpy()
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
    return model


RS = np.random.RandomState(0)
X4 = RS.randn(2, 3, 8, 8).astype("float32")

# one-op layers over a [N, 3, 8, 8] input with a dynamic batch
OPS = {
    "gelu_tanh": lambda t: F.gelu(t, approximate=True), "gelu": F.gelu, "erf": paddle.erf,
    "softplus": lambda t: F.softplus(t, beta=2, threshold=1), "mish": F.mish, "selu": F.selu,
    "prelu": lambda t: F.prelu(t, T([0.2, 0.1, 0.3])), "softsign": F.softsign, "tanhshrink": F.tanhshrink,
    "hardtanh": F.hardtanh, "log_sigmoid": F.log_sigmoid, "celu": F.celu, "hardshrink": F.hardshrink,
    "softshrink": F.softshrink, "thresholded_relu": F.thresholded_relu, "rrelu_eval": nn.RReLU(),
    "elu": F.elu, "hardsigmoid": F.hardsigmoid, "silu": F.silu,
    "softmax1": lambda t: F.softmax(t, 1), "log_softmax": lambda t: F.log_softmax(t, 2),
    "max_pool_ceil": lambda t: F.max_pool2d(t, 3, 2, ceil_mode=True),
    "avg_pool_ceil": lambda t: F.avg_pool2d(t, 3, 2, ceil_mode=True, padding=1),
    "adaptive_avg_3": lambda t: F.adaptive_avg_pool2d(t, 3),
    "adaptive_max_2": lambda t: F.adaptive_max_pool2d(t, 2),
    "adaptive_avg_53": lambda t: F.adaptive_avg_pool2d(t, [5, 3]),
    "interp_nearest": lambda t: F.interpolate(t, scale_factor=2),
    "interp_nearest_size": lambda t: F.interpolate(t, size=[5, 11], mode="nearest"),
    "interp_bilinear": lambda t: F.interpolate(t, size=[5, 7], mode="bilinear"),
    "interp_bilinear_ac": lambda t: F.interpolate(t, scale_factor=1.5, mode="bilinear", align_corners=True),
    "interp_bilinear_mode1": lambda t: F.interpolate(t, size=[5, 7], mode="bilinear", align_mode=1),
    "interp_bicubic": lambda t: F.interpolate(t, size=[12, 12], mode="bicubic"),
    "pad_constant": lambda t: F.pad(t, [1, 2, 0, 1], value=0.5),
    "pad_all_axes": lambda t: F.pad(t, [0, 0, 1, 0, 2, 1, 0, 3]),
    "pad_reflect": lambda t: F.pad(t, [1, 2, 2, 1], mode="reflect"),
    "pad_replicate": lambda t: F.pad(t, [1, 2, 0, 1], mode="replicate"),
    "pad_circular": lambda t: F.pad(t, [1, 2, 0, 1], mode="circular"),
    "group_norm": nn.GroupNorm(3, 3), "instance_norm": nn.InstanceNorm2D(3),
    "batch_norm": nn.BatchNorm2D(3), "layer_norm": nn.LayerNorm([8, 8]),
    "dropout": nn.Dropout(0.3), "dropout2d": nn.Dropout2D(0.3),
    "pixel_shuffle": lambda t: F.pixel_shuffle(paddle.concat([t, t, t, t], 1), 2),
    "flip": lambda t: paddle.flip(t, [1, 3]), "roll": lambda t: paddle.roll(t, [2, -1], axis=[2, 3]),
    "roll_flat": lambda t: paddle.roll(t, 3), "tile": lambda t: paddle.tile(t, [2, 1, 1]),
    "expand": lambda t: paddle.expand(t[:, :1], [-1, 3, 8, 8]),
    "expand_as": lambda t: paddle.expand_as(t[:, :1, :1], t),
    "split": lambda t: paddle.split(t, [1, -1], axis=1), "split_n": lambda t: paddle.split(t, 4, axis=-1),
    "chunk": lambda t: paddle.chunk(t, 2, axis=2), "unbind": lambda t: paddle.unbind(t, 1),
    "slice": lambda t: paddle.slice(t, [2, 3], [1, 0], [5, -1]),
    "strided_slice": lambda t: paddle.strided_slice(t, [2, 3], [0, 7], [8, 0], [2, -2]),
    "concat": lambda t: paddle.concat([t, t * 2], 0), "stack": lambda t: paddle.stack([t, t], -1),
    "gather": lambda t: paddle.gather(t, T([0, 2]), axis=1),
    "gather_nd": lambda t: paddle.gather_nd(t, T([[0, 1], [1, 2]])),
    "index_select": lambda t: paddle.index_select(t, T([2, 0]), axis=2),
    "take_along_axis": lambda t: paddle.take_along_axis(t, paddle.argsort(t, -1), -1),
    "scatter": lambda t: paddle.scatter(t[0, 0], T([1, 0]), t[1, 0, :2]),
    "scatter_add": lambda t: paddle.scatter(t[0, 0], T([1, 1]), t[1, 0, :2], overwrite=False),
    "where": lambda t: paddle.where(t > 0, t, paddle.zeros_like(t)),
    "where_scalar": lambda t: paddle.where(t > 0, t, 1.0),
    "masked_fill": lambda t: paddle.masked_fill(t, t > 0, 0.5),
    "flatten": lambda t: paddle.flatten(t, 1, 2), "squeeze": lambda t: paddle.squeeze(t[:, :1], 1),
    "unsqueeze": lambda t: paddle.unsqueeze(t, [0, 2]), "transpose": lambda t: t.transpose([3, 1, 0, 2]),
    "mean_keepdim": lambda t: t.mean([2, 3], keepdim=True), "sum_int": lambda t: t.astype("int32").sum(1),
    "prod": lambda t: paddle.prod(t, 1), "amax": lambda t: paddle.amax(t, 1),
    "max_all": lambda t: paddle.max(t), "min_keep": lambda t: paddle.min(t, -1, keepdim=True),
    "logsumexp": lambda t: paddle.logsumexp(t, 1), "std": lambda t: paddle.std(t, 1),
    "var": lambda t: paddle.var(t, [2, 3], unbiased=False), "norm": lambda t: paddle.norm(t, p=2, axis=1),
    "norm_p3": lambda t: paddle.norm(t, p=3, axis=-1, keepdim=True), "normalize": lambda t: F.normalize(t, axis=1),
    "all": lambda t: paddle.all(t > -1, 1), "any": lambda t: paddle.any(t > 1, [1, 2]),
    "argmax": lambda t: paddle.argmax(t, 1), "argmin_keepdim": lambda t: paddle.argmin(t, -1, keepdim=True),
    "argmax_flat": lambda t: paddle.argmax(t), "argmax_int32": lambda t: paddle.argmax(t, 1, dtype="int32"),
    "topk": lambda t: paddle.topk(t, 2, axis=-1), "topk_small": lambda t: paddle.topk(t, 3, axis=1, largest=False),
    "sort": lambda t: paddle.sort(t, -1, descending=True), "argsort": lambda t: paddle.argsort(t, 1),
    "cumsum": lambda t: paddle.cumsum(t, 2), "cumsum_flat": lambda t: paddle.cumsum(t),
    "clip": lambda t: paddle.clip(t, -0.5, 0.3), "cast": lambda t: paddle.cast(t * 4, "int32"),
    "cast64": lambda t: t.astype("float64"),
    "zeros_like": lambda t: paddle.zeros_like(t) + t, "full_like": lambda t: paddle.full_like(t, 2.0),
    "ones_like_int": lambda t: paddle.ones_like(t, dtype="int64"),
    "shape": lambda t: paddle.shape(t), "numel": lambda t: paddle.numel(t),
    "arange_dynamic": lambda t: paddle.arange(paddle.shape(t)[0]),
    "full_dynamic": lambda t: paddle.full([paddle.shape(t)[0], 2], 3.0),
    "reshape_dynamic": lambda t: t.reshape([paddle.shape(t)[0], -1]),
    "einsum": lambda t: paddle.einsum("bchw,bcwk->bchk", t, t),
    "matmul_t": lambda t: paddle.matmul(t, t, transpose_y=True), "bmm": lambda t: paddle.bmm(t[:, 0], t[:, 1]),
    "tril": lambda t: paddle.tril(t), "triu": lambda t: paddle.triu(t, 1), "tril_neg": lambda t: paddle.tril(t, -2),
    "one_hot": lambda t: F.one_hot(paddle.argmax(t, -1), 8),
    "neg": lambda t: -t, "rsqrt": lambda t: paddle.rsqrt(paddle.abs(t) + 1), "square": paddle.square,
    "floor_divide": lambda t: paddle.floor_divide(t, paddle.full_like(t, 0.3)),
    "floor_divide_int": lambda t: paddle.floor_divide((t * 10).astype("int64"), paddle.full_like(t, -3, "int64")),
    "remainder": lambda t: paddle.remainder(t, paddle.full_like(t, 0.3)),
    "remainder_int": lambda t: paddle.remainder((t * 10).astype("int64"), paddle.full_like(t, -3, "int64")),
    "equal": lambda t: t == t.max(), "not_equal": lambda t: t != 0.5, "greater_equal": lambda t: t >= 0,
    "less_equal": lambda t: t <= 0, "logical": lambda t: paddle.logical_xor(t > 0, ~(t < 1)),
    "isnan": paddle.isnan, "round": lambda t: paddle.round(t * 2), "trunc": paddle.trunc,
    "log1p": lambda t: paddle.log1p(paddle.abs(t)), "expm1": paddle.expm1, "atan": paddle.atan,
    "sinh": paddle.sinh, "log2": lambda t: paddle.log2(paddle.abs(t) + 1),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_one_op_layers(tmp_path, name):
    f = OPS[name]
    roundtrip(tmp_path, f if isinstance(f, nn.Layer) else Fn(f), [S([None, 3, 8, 8])], [X4])


@pytest.mark.parametrize("opset", [9, 11, 13, 18, 21])
@pytest.mark.parametrize("name", ["flatten", "mean_keepdim", "prod", "split", "squeeze", "argmax", "equal",
                                  "gather", "pad_reflect", "pad_circular", "masked_fill", "std", "topk",
                                  "full_like", "roll", "softplus", "unbind", "normalize"])
def test_one_op_layers_across_opsets(tmp_path, name, opset):
    f = OPS[name]
    roundtrip(tmp_path, f if isinstance(f, nn.Layer) else Fn(f), [S([None, 3, 8, 8])], [X4], opset=opset)


@pytest.mark.parametrize("opset", [11, 13])
@pytest.mark.parametrize("name", ["tril", "triu", "cumsum", "sort", "interp_bilinear", "scatter", "arange_dynamic"])
def test_ops_needing_newer_opsets(tmp_path, name, opset):
    roundtrip(tmp_path, Fn(OPS[name]), [S([None, 3, 8, 8])], [X4], opset=opset)


@pytest.mark.parametrize("name,needs", [("cumsum", "'cumsum'"), ("interp_nearest", "interpolate"),
                                        ("tril", "tril"), ("einsum", "einsum")])
def test_old_opset_moves_up_naming_the_op(tmp_path, name, needs):
    # as Paddle's exporter: the file gets the least opset every op has, with a warning naming it
    path = str(tmp_path / "m")
    with pytest.warns(UserWarning, match=needs):
        paddle.onnx.export(Fn(OPS[name]), path, [S([None, 3, 8, 8])], opset_version=9)
    assert onnx.load(path + ".onnx").opset_import[0].version > 9


# ---- x[index] ------------------------------------------------------------------------
X3 = RS.randn(3, 4, 5).astype("float32")
INDEX = {
    "slice": lambda t: t[:, 1:3], "int": lambda t: t[0], "neg_int": lambda t: t[:, -1],
    "last": lambda t: t[-1, :, -1], "none_ellipsis": lambda t: t[None, ..., 2],
    "ellipsis_mid": lambda t: t[0, ..., None, 1:], "step": lambda t: t[:, ::2, 1:],
    "neg_step": lambda t: t[:, ::-1], "neg_step_bounds": lambda t: t[:, 3:0:-2, -1:-4:-1],
    "neg_slice": lambda t: t[:, -3:-1], "tensor": lambda t: t[:, T([0, 2, -1])],
    "tensor_2d": lambda t: t[:, :, T([[0, 1], [4, 3]])], "tensor_int_adjacent": lambda t: t[:, 1, T([0, 2])],
    "list": lambda t: t[[2, 0]], "bool_mask": lambda t: t[t > 0], "bool_mask_inner": lambda t: t[:, t[0, :, 0] > 0],
    "all": lambda t: t[...], "chain": lambda t: t[1:][:, None][..., ::-1][0],
}


@pytest.mark.parametrize("name", sorted(INDEX))
def test_getitem(tmp_path, name):
    roundtrip(tmp_path, Fn(INDEX[name]), [S([None, 4, 5])], [X3])


def test_getitem_dynamic_index_input(tmp_path):
    net = Fn(lambda t, i: t[:, i] * 2)
    roundtrip(tmp_path, net, [S([None, 4, 5]), S([None], "int64", "i")], [X3, np.array([3, 0, -2], "int64")])


def test_getitem_unsupported_names_the_op(tmp_path):
    with pytest.raises(NotImplementedError, match=r"x\[\.\.\.\]"):
        paddle.onnx.export(Fn(lambda t: t[T([0, 1]), :, T([1, 2])]), str(tmp_path / "m"), [S([None, 4, 5])],
                           opset_version=13)


# ---- attention and transformers ------------------------------------------------------
Q = RS.randn(2, 5, 16).astype("float32")
K = RS.randn(2, 7, 16).astype("float32")


class MHA(nn.Layer):
    def __init__(self, mask):
        super().__init__()
        self.mha, self.mask = nn.MultiHeadAttention(16, 4, dropout=0.1), mask

    def forward(self, q, k):
        if self.mask == "bool":
            return self.mha(q, k, k, attn_mask=paddle.unsqueeze(k[:, :, 0] > 0, [1, 2]))
        if self.mask == "float":
            return self.mha(q, k, k, attn_mask=paddle.unsqueeze(k[:, :, 0], [1, 2]))
        if self.mask == "const":   # folded into a constant (it once stopped the tracer)
            return self.mha(q, q, q, attn_mask=paddle.ones([5, 5], "bool").tril())
        return self.mha(q, k, k)


@pytest.mark.parametrize("opset", [11, 17])
@pytest.mark.parametrize("mask", [None, "bool", "float", "const"])
def test_multi_head_attention(tmp_path, mask, opset):
    paddle.seed(1)
    roundtrip(tmp_path, MHA(mask), [S([None, 5, 16], name="q"), S([None, None, 16], name="k")], [Q, K],
              opset=opset)


@pytest.mark.parametrize("kind", ["plain", "causal", "gqa", "unbatched", "scale"])
def test_scaled_dot_product_attention(tmp_path, kind):
    q = RS.randn(2, 6, 4, 8).astype("float32")
    if kind == "gqa":
        net = Fn(lambda a, b: F.scaled_dot_product_attention(a, b, b))
        roundtrip(tmp_path, net, [S([None, 6, 4, 8], name="a"), S([None, 6, 2, 8], name="b")], [q, q[:, :, :2]])
        return
    if kind == "unbatched":
        roundtrip(tmp_path, Fn(lambda a: F.scaled_dot_product_attention(a, a, a)), [S([6, 4, 8])], [q[0]])
        return
    net = Fn(lambda a: F.scaled_dot_product_attention(a, a, a, is_causal=kind == "causal",
                                                      scale=0.3 if kind == "scale" else None))
    roundtrip(tmp_path, net, [S([None, None, 4, 8])], [q])


def test_transformer_encoder_and_full_transformer(tmp_path):
    paddle.seed(2)
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32, dropout=0.1), 2)
    roundtrip(tmp_path, enc, [S([None, None, 16])], [Q])
    tr = nn.Transformer(16, 4, 1, 1, 32)
    tr.eval()
    roundtrip(tmp_path, Fn(lambda a, b: tr(a, b)), [S([None, 5, 16], name="a"), S([None, 7, 16], name="b")], [Q, K])


def test_transformer_decoder_with_causal_mask(tmp_path):
    paddle.seed(3)
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(16, 4, 32, normalize_before=True), 2)
    dec.eval()
    net = Fn(lambda a, b: dec(b, a, tgt_mask=paddle.triu(paddle.full([7, 7], float("-inf")), 1)))
    roundtrip(tmp_path, net, [S([None, 5, 16], name="a"), S([None, 7, 16], name="b")], [Q, K])


# ---- recurrent layers ----------------------------------------------------------------
@pytest.mark.parametrize("opset", [9, 17])
@pytest.mark.parametrize("kw", [{}, {"num_layers": 2}, {"direction": "bidirect"},
                                {"num_layers": 2, "direction": "bidirectional"}, {"time_major": True}])
@pytest.mark.parametrize("cls", ["LSTM", "GRU", "SimpleRNN"])
def test_rnn_layers(tmp_path, cls, kw, opset):
    paddle.seed(4)
    spec = S([2, None, 16]) if kw.get("time_major") else S([None, 5, 16])  # [time, batch, feature]
    roundtrip(tmp_path, getattr(nn, cls)(16, 8, **kw), [spec], [Q], opset=opset)


def test_rnn_relu_and_initial_states(tmp_path):
    paddle.seed(5)
    roundtrip(tmp_path, nn.SimpleRNN(16, 8, activation="relu"), [S([None, 5, 16])], [Q])
    gru = nn.GRU(16, 8, num_layers=2)
    gru.eval()
    h0 = RS.randn(2, 2, 8).astype("float32")
    roundtrip(tmp_path, Fn(lambda x, h: gru(x, h)), [S([None, 5, 16]), S([2, None, 8], name="h")], [Q, h0])
    lstm = nn.LSTM(16, 8, direction="bidirect")
    lstm.eval()
    c0 = RS.randn(2, 2, 8).astype("float32")
    roundtrip(tmp_path, Fn(lambda x, h, c: lstm(x, (h, c))),
              [S([None, 5, 16]), S([2, None, 8], name="h"), S([2, None, 8], name="c")], [Q, h0, c0])


def test_embedding_int_ids(tmp_path):
    paddle.seed(6)

    class Emb(nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb, self.fc = nn.Embedding(20, 8, padding_idx=0), nn.Linear(8, 3)

        def forward(self, ids):
            return self.fc(self.emb(ids)).mean(1)
    ids = RS.randint(0, 20, (3, 6))
    roundtrip(tmp_path, Emb(), [S([None, None], "int64", "ids")], [ids.astype("int64")])
    roundtrip(tmp_path, Emb(), [S([None, None], "int32", "ids")], [ids.astype("int32")])


# ---- vision models -------------------------------------------------------------------
VISION = ["lenet", "resnet18", "resnext50_32x4d", "wide_resnet50_2", "mobilenet_v1", "mobilenet_v2",
          "mobilenet_v3_small", "mobilenet_v3_large", "shufflenet_v2_x0_25", "shufflenet_v2_swish",
          "squeezenet1_0", "squeezenet1_1", "densenet121", "inception_v3", "vgg11", "alexnet"]


@pytest.mark.parametrize("name", VISION)
def test_vision_models(tmp_path, name):
    import pagaie.vision.models as M
    paddle.seed(7)
    if name == "lenet":
        net, size, ch = M.LeNet(), 28, 1
    else:
        net, ch = getattr(M, name)(num_classes=10), 3
        size = {"inception_v3": 96, "alexnet": 224, "vgg11": 32}.get(name, 64)
    x = RS.rand(2, ch, size, size).astype("float32")
    roundtrip(tmp_path, net, [S([None, ch, size, size])], [x], rtol=1e-3, atol=1e-4)


@pytest.mark.parametrize("opset", [9, 13])
def test_vision_model_old_opsets(tmp_path, opset):
    import pagaie.vision.models as M
    paddle.seed(8)
    x = RS.rand(2, 3, 64, 64).astype("float32")
    roundtrip(tmp_path, M.mobilenet_v3_small(num_classes=10), [S([None, 3, 64, 64])], [x], opset=opset,
              rtol=1e-3, atol=1e-4)


# ---- the file itself -----------------------------------------------------------------
def test_dynamic_dims_stay_dynamic(tmp_path):
    net = Fn(lambda t: paddle.flatten(t[:, ::2], 1) + 1.0)
    model = roundtrip(tmp_path, net, [S([None, 4, 5])], [X3])
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param and not dims[0].HasField("dim_value") and dims[1].dim_value == 4
    sess = ort.InferenceSession(str(tmp_path / "m17.onnx"), providers=["CPUExecutionProvider"])
    for n in (1, 7):
        x = RS.randn(n, 4, 5).astype("float32")
        np.testing.assert_allclose(sess.run(None, {"x": x})[0], net(T(x)).numpy(), rtol=1e-6)


def test_names_atomic_write_and_checker(tmp_path, monkeypatch):
    net = nn.Linear(4, 2)
    path = str(tmp_path / "sub" / "lin")
    paddle.onnx.export(net, path, [S([None, 4], name="feat")], opset_version=13)
    model = onnx.load(path + ".onnx")
    assert [i.name for i in model.graph.input] == ["feat"]
    assert len(model.graph.output) == 1 and model.graph.output[0].name
    assert os.listdir(tmp_path / "sub") == ["lin.onnx"]  # no temporary file left behind
    # a failing write leaves the previous file intact and no temporary behind
    before = open(path + ".onnx", "rb").read()

    def boom(model, f, *a, **k):
        f.write(b"partial")
        raise OSError("disk full")
    monkeypatch.setattr(onnx, "save", boom)
    with pytest.raises(OSError, match="disk full"):
        paddle.onnx.export(nn.Linear(4, 3), path, [S([None, 4], name="feat")])
    assert open(path + ".onnx", "rb").read() == before
    assert os.listdir(tmp_path / "sub") == ["lin.onnx"]
    monkeypatch.undo()
    called = []
    real = onnx.checker.check_model
    monkeypatch.setattr(onnx.checker, "check_model", lambda m, *a, **k: (called.append(1), real(m, *a, **k)))
    paddle.onnx.export(net, path, [S([None, 4], name="feat")])
    assert called


def test_signature_matches_paddle():
    ref = paddle_ref()
    ours = inspect.signature(paddle.onnx.export).parameters
    theirs = inspect.signature(ref.onnx.export).parameters
    assert list(ours) == list(theirs)
    assert ours["opset_version"].default == theirs["opset_version"].default == 9


@pytest.mark.parametrize("name", ["lgamma", "digamma"])
def test_unlowered_ops_raise_naming_the_op(tmp_path, name):
    fn = {"lgamma": lambda t: paddle.lgamma(t), "digamma": lambda t: paddle.digamma(t)}
    with pytest.raises(NotImplementedError, match=f"'{name}'"):
        paddle.onnx.export(Fn(fn[name]), str(tmp_path / "m"), [S([None, 4, 5])], opset_version=17)
