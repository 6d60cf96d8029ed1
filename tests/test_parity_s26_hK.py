"""paddle.onnx.export: layouts, ops and control flow that had no lowering, checked by running the
exported file with onnxruntime against real Paddle's eager result (real Paddle's own exporter
needs paddle2onnx, which is absent), plus export's argument handling."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")
import pagaie  # noqa: E402
from tests.onnx.harness import check_export  # noqa: E402

RS = np.random.RandomState(26)
W2 = RS.randn(4, 3, 3, 3).astype("float32")
W2T = RS.randn(3, 2, 3, 3).astype("float32")
W1 = RS.randn(4, 3, 3).astype("float32")
W1T = RS.randn(3, 2, 3).astype("float32")
W3 = RS.randn(2, 3, 2, 2, 2).astype("float32")
B4 = RS.randn(4).astype("float32")
MEAN, VAR = RS.randn(3).astype("float32"), RS.rand(3).astype("float32") + 0.5
G, BETA = RS.rand(3).astype("float32") + 0.5, RS.randn(3).astype("float32")
NCHW, NHWC = (3, 8, 8), (8, 8, 3)


def _t(m, a):
    return m.to_tensor(a)


# name: (fn(module, x), per-sample input shape); fn runs through pagaie (exported) and paddle
CASES = {
    "conv2d_nhwc": (lambda m, x: m.nn.functional.conv2d(x, _t(m, W2), _t(m, B4), padding=1, data_format="NHWC"),
                    NHWC),
    "conv2d_nested_pad_nhwc": (lambda m, x: m.nn.functional.conv2d(
        x, _t(m, W2), padding=[[0, 0], [1, 2], [0, 1], [0, 0]], data_format="NHWC"), NHWC),
    "conv1d": (lambda m, x: m.nn.functional.conv1d(x, _t(m, W1), padding=2, dilation=2), (3, 16)),
    "conv1d_nlc": (lambda m, x: m.nn.functional.conv1d(x, _t(m, W1), stride=2, data_format="NLC"), (16, 3)),
    "conv3d": (lambda m, x: m.nn.functional.conv3d(x, _t(m, W3), padding=1), (3, 5, 5, 5)),
    "conv2d_transpose_nhwc": (lambda m, x: m.nn.functional.conv2d_transpose(
        x, _t(m, W2T), stride=2, padding=1, output_padding=1, data_format="NHWC"), NHWC),
    "conv1d_transpose_output_size": (lambda m, x: m.nn.functional.conv1d_transpose(
        x, _t(m, W1T), stride=2, output_size=34), (3, 16)),
    "max_pool2d_nhwc": (lambda m, x: m.nn.functional.max_pool2d(x, 3, 2, 1, data_format="NHWC"), NHWC),
    "avg_pool2d_divisor": (lambda m, x: m.nn.functional.avg_pool2d(x, 3, 2, 1, divisor_override=2), NCHW),
    "avg_pool2d_divisor_inclusive": (lambda m, x: m.nn.functional.avg_pool2d(
        x, 3, 2, 1, exclusive=False, divisor_override=4), NCHW),
    "max_pool1d": (lambda m, x: m.nn.functional.max_pool1d(x, 3, 2, 1), (3, 16)),
    "avg_pool1d": (lambda m, x: m.nn.functional.avg_pool1d(x, 3, 2, 1, exclusive=False), (3, 16)),
    "max_pool3d_ndhwc": (lambda m, x: m.nn.functional.max_pool3d(x, 2, data_format="NDHWC"), (4, 4, 4, 3)),
    "avg_pool3d": (lambda m, x: m.nn.functional.avg_pool3d(x, 2, 2, 1), (3, 4, 4, 4)),
    "adaptive_avg_pool2d_nhwc": (lambda m, x: m.nn.functional.adaptive_avg_pool2d(x, 3, data_format="NHWC"),
                                 NHWC),
    "batch_norm_nhwc": (lambda m, x: m.nn.functional.batch_norm(
        x, _t(m, MEAN), _t(m, VAR), _t(m, G), _t(m, BETA), data_format="NHWC"), NHWC),
    "batch_norm_nlc": (lambda m, x: m.nn.functional.batch_norm(
        x, _t(m, MEAN), _t(m, VAR), _t(m, G), _t(m, BETA), data_format="NLC"), (6, 3)),
    "group_norm_nhwc": (lambda m, x: m.nn.functional.group_norm(
        x, 3, weight=_t(m, G), bias=_t(m, BETA), data_format="NHWC"), NHWC),
    "interpolate_bilinear_nhwc": (lambda m, x: m.nn.functional.interpolate(
        x, size=[5, 9], mode="bilinear", data_format="NHWC"), NHWC),
    "interpolate_area": (lambda m, x: m.nn.functional.interpolate(x, size=[3, 5], mode="area"), NCHW),
    "pixel_shuffle_nhwc": (lambda m, x: m.nn.functional.pixel_shuffle(
        m.concat([x, x * 2, x, -x], -1), 2, "NHWC"), NHWC),
    "pixel_unshuffle": (lambda m, x: m.nn.functional.pixel_unshuffle(x, 2), NCHW),
    "channel_shuffle": (lambda m, x: m.nn.functional.channel_shuffle(m.concat([x, x * 2], 1), 3), NCHW),
    "local_response_norm": (lambda m, x: m.nn.functional.local_response_norm(x, 3), NCHW),
    "local_response_norm_3d": (lambda m, x: m.nn.functional.local_response_norm(x, 3), (3, 16)),
    "maxout": (lambda m, x: m.nn.functional.maxout(m.concat([x, -x], 1), 2, axis=1), NCHW),
    "prelu_nhwc": (lambda m, x: m.nn.functional.prelu(x, _t(m, G), data_format="NHWC"), NHWC),
    "softmax_dtype": (lambda m, x: m.nn.functional.softmax(x, 1, dtype="float64"), NCHW),
    "glu": (lambda m, x: m.nn.functional.glu(x, axis=-1), NCHW),
    "cosine_similarity": (lambda m, x: m.nn.functional.cosine_similarity(x, x * 2 + 1, axis=1), NCHW),
    "label_smooth": (lambda m, x: m.nn.functional.label_smooth(m.nn.functional.softmax(x, -1)), NCHW),
    "gather_tensor_axis": (lambda m, x: m.gather(x, _t(m, np.array([1, 0])), axis=_t(m, np.array(2))), NCHW),
    "split_tensor_axis": (lambda m, x: m.split(x, 2, axis=_t(m, np.array(2))), NCHW),
    "dot": (lambda m, x: m.dot(x[:, 0, 0], x[:, 0, 1]), NCHW),
    "mv": (lambda m, x: m.mv(x[0, 0], x[0, 0, 0]), NCHW),
    "addmm": (lambda m, x: m.addmm(x[0, 0], x[0, 0], x[0, 1], 0.5, 2.0), NCHW),
    "lerp": (lambda m, x: m.lerp(x, x * 2, 0.3), NCHW),
    "logit_eps": (lambda m, x: m.logit(m.nn.functional.sigmoid(x), eps=0.2), NCHW),
    "stanh": (lambda m, x: m.stanh(x, 0.5, 2.0), NCHW),
    "frac": (lambda m, x: m.frac(x * 3), NCHW),
    "heaviside": (lambda m, x: m.heaviside(m.round(x), m.full_like(x, 0.5)), NCHW),
    "diff_prepend": (lambda m, x: m.diff(x, n=2, axis=-1, prepend=x[:, :, :, :2]), NCHW),
    "repeat_interleave": (lambda m, x: m.repeat_interleave(x, 2, axis=1), NCHW),
    "repeat_interleave_flat": (lambda m, x: m.repeat_interleave(x, 3), NCHW),
    "meshgrid": (lambda m, x: m.meshgrid(x[0, 0, 0], x[0, 0, 1, :3]), NCHW),
    "kthvalue": (lambda m, x: m.kthvalue(x, 3, axis=-1), NCHW),
    "kthvalue_keepdim": (lambda m, x: m.kthvalue(x, 2, axis=1, keepdim=True), NCHW),
    "moveaxis": (lambda m, x: m.moveaxis(x, [1, 0], [-1, 2]), NCHW),
    "unstack": (lambda m, x: m.unstack(x, 1), NCHW),
    "clone": (lambda m, x: m.clone(x) + 1, NCHW),
    "increment": (lambda m, x: m.increment(x[0, 0, 0, :1], 2.0), NCHW),
    "nan_to_num": (lambda m, x: m.nan_to_num(m.log(x), nan=0.5, neginf=-7.0), NCHW),
    "bitwise_and_bool": (lambda m, x: m.bitwise_and(x > 0, x < 1), NCHW),
}


def _run(path, feeds):
    sess = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


@pytest.mark.parametrize("name", sorted(CASES))
def test_export_matches_paddle(tmp_path, name):
    fn, shape = CASES[name]
    check_export(tmp_path, fn, shape, paddle, RS)


class IfReturn(pagaie.nn.Layer):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class WhileLoop(pagaie.nn.Layer):
    def forward(self, x):
        s = x.sum(1, keepdim=True)
        while s.mean() < 10:
            s = s + 2.5
        return s


def _if_ref(x):
    return x * 2 if x.sum() > 0 else x - 1


def _while_ref(x):
    s = x.sum(1, keepdims=True)
    while s.mean() < 10:
        s = s + 2.5
    return s


@pytest.mark.parametrize("net,ref", [(IfReturn, _if_ref), (WhileLoop, _while_ref)])
def test_control_flow_to_if_and_loop(tmp_path, net, ref):
    path = str(tmp_path / "cf")
    pagaie.onnx.export(pagaie.jit.to_static(net()), path,
                       [pagaie.static.InputSpec([None, 4], "float32", "x")], opset_version=13)
    ops = {n.op_type for n in onnx.load(path + ".onnx").graph.node}
    assert ops & {"If", "Loop"}
    for x in (RS.randn(2, 4).astype("float32") + 1, RS.randn(3, 4).astype("float32") - 3):
        np.testing.assert_allclose(_run(path, {"x": x})[0], ref(x), rtol=1e-5)


def test_if_with_branch_shapes_differing_moves_to_opset_11(tmp_path):
    # as Paddle's exporter (auto_upgrade_opset): the least opset every op has, with a warning
    path = str(tmp_path / "cf")
    with pytest.warns(UserWarning, match="opset_version >= 11"):
        pagaie.onnx.export(pagaie.jit.to_static(IfReturn()), path,
                           [pagaie.static.InputSpec([None, 4], "float32", "x")], opset_version=9)
    assert onnx.load(path + ".onnx").opset_import[0].version == 11
    x = RS.randn(3, 4).astype("float32") + 1
    np.testing.assert_allclose(_run(path, {"x": x})[0], _if_ref(x), rtol=1e-5)


class Two(pagaie.nn.Layer):
    def __init__(self):
        super().__init__()
        self.lin = pagaie.nn.Linear(4, 3)

    def forward(self, x):
        y = self.lin(x)
        return y, pagaie.nn.functional.relu(y)


@pytest.mark.parametrize("spec,kept", [(None, 2), ([1], 1), ([-1], 1), ([0, 1], 2)])
def test_output_spec_selects_outputs(tmp_path, spec, kept):
    path = str(tmp_path / "two")
    kw = {} if spec is None else {"output_spec": spec}
    pagaie.onnx.export(Two(), path, [pagaie.static.InputSpec([None, 4], "float32", "x")], **kw)
    assert len(onnx.load(path + ".onnx").graph.output) == kept


@pytest.mark.parametrize("kw,exc", [({"output_spec": (1,)}, TypeError), ({"output_spec": [5]}, ValueError),
                                    ({"foo": 1}, ValueError)])
def test_bad_configs(tmp_path, kw, exc):
    with pytest.raises(exc, match="paddle.onnx.export"):
        pagaie.onnx.export(Two(), str(tmp_path / "two"), [pagaie.static.InputSpec([None, 4])], **kw)


@pytest.mark.parametrize("spec", ["x", "InputSpec"])
def test_input_spec_must_be_a_list(tmp_path, spec):
    spec = pagaie.static.InputSpec([None, 4]) if spec == "InputSpec" else spec
    with pytest.raises(TypeError, match="input_spec"):  # TypeError, as Paddle's jit.save
        pagaie.onnx.export(pagaie.nn.Linear(4, 2), str(tmp_path / "m"), spec)
    with pytest.raises(TypeError):
        paddle.jit.save(paddle.nn.Linear(4, 2), str(tmp_path / "p"),
                        input_spec=paddle.static.InputSpec([None, 4]) if spec != "x" else spec)


def test_input_spec_defaults_to_last_call(tmp_path):
    lin = pagaie.jit.to_static(pagaie.nn.Linear(4, 2))
    lin(pagaie.ones([3, 4]))
    path = str(tmp_path / "last")
    pagaie.onnx.export(lin, path)
    x = RS.randn(3, 4).astype("float32")
    np.testing.assert_allclose(_run(path, {onnx.load(path + ".onnx").graph.input[0].name: x})[0],
                               lin(pagaie.to_tensor(x)).numpy(), rtol=1e-5)
