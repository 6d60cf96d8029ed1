"""paddle.inference: predictors on real-Paddle exports (PIR and legacy) and on pagaie's own files."""
import os
import subprocess
import sys
import warnings

import numpy as np
import torch
import pytest

import pagaie as paddle
from pagaie import inference as pi

HERE = os.path.dirname(__file__)


def _export(out, legacy):
    args = [sys.executable, os.path.join(HERE, "paddle_export.py"), str(out)] + (["legacy"] if legacy else [])
    env = dict(os.environ, GLOG_minloglevel="3")
    r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=240)
    if r.returncode != 0:
        pytest.skip(f"real Paddle could not export the models: {r.stderr[-500:]}")
    return out


@pytest.fixture(scope="module")
def pir_dir(tmp_path_factory):
    return _export(tmp_path_factory.mktemp("pir"), legacy=False)


@pytest.fixture(scope="module")
def legacy_dir(tmp_path_factory):
    return _export(tmp_path_factory.mktemp("legacy"), legacy=True)


def _predict(prog, params, inputs, **opts):
    config = pi.Config(prog, params)
    for k, v in opts.items():
        getattr(config, k)(v)
    pred = pi.create_predictor(config)
    for n, a in zip(pred.get_input_names(), inputs):
        pred.get_input_handle(n).copy_from_cpu(a)
    pred.run()
    return pred, [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]


def _check(d, name, ext, ir_optim):
    ref = np.load(os.path.join(d, name + ".npz"))
    keys = [k for k in ref.files if k.startswith("in") and k[2:].isdigit()]
    inputs = [ref[k] for k in sorted(keys, key=lambda k: int(k[2:]))]
    pred, outs = _predict(os.path.join(d, name + ext), os.path.join(d, name + ".pdiparams"), inputs,
                          switch_ir_optim=ir_optim)
    assert pred.get_input_names() == list(ref["input_names"])
    assert pred.get_output_names() == list(ref["output_names"])
    for i, o in enumerate(outs):
        r = ref[f"out{i}"]
        assert o.dtype == r.dtype and o.shape == r.shape, (name, i)
        np.testing.assert_allclose(o, r, rtol=1e-5, atol=1e-5, err_msg=f"{name} output {i}")
        np.testing.assert_allclose(o, ref[f"eager{i}"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("ir_optim", [True, False])
@pytest.mark.parametrize("name", ["mlp", "cnn", "misc", "wide", "zoo"])
def test_pir_models_match_paddle(pir_dir, name, ir_optim):
    _check(pir_dir, name, ".json", ir_optim)


@pytest.mark.parametrize("name", ["mlp", "cnn", "zoo"])
def test_legacy_models_match_paddle(legacy_dir, name):
    if not os.path.exists(os.path.join(legacy_dir, name + ".pdmodel")):
        pytest.skip(f"this Paddle cannot write {name} in the legacy format")
    _check(legacy_dir, name, ".pdmodel", True)


def test_model_dir_and_memory_buffer(pir_dir, tmp_path):
    ref = np.load(os.path.join(pir_dir, "mlp.npz"))
    d = tmp_path / "m"
    d.mkdir()
    for ext in (".json", ".pdiparams"):
        (d / ("inference" + ext)).write_bytes(open(os.path.join(pir_dir, "mlp" + ext), "rb").read())
    pred = pi.create_predictor(pi.Config(str(d)))
    out = pred.run([paddle.to_tensor(ref["in0"])])
    np.testing.assert_allclose(out[0].numpy(), ref["out0"], rtol=1e-5, atol=1e-6)
    config = pi.Config()
    prog = open(os.path.join(pir_dir, "mlp.json"), "rb").read()
    params = open(os.path.join(pir_dir, "mlp.pdiparams"), "rb").read()
    config.set_model_buffer(prog, len(prog), params, len(params))
    assert config.model_from_memory()
    out = pi.create_predictor(config).run([paddle.to_tensor(ref["in0"])])
    np.testing.assert_allclose(out[0].numpy(), ref["out0"], rtol=1e-5, atol=1e-6)


class _Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
        self.bn = paddle.nn.BatchNorm2D(4)
        self.fc = paddle.nn.Linear(4 * 4 * 4, 3)

    def forward(self, x):
        y = paddle.nn.functional.relu(self.bn(self.conv(x)))
        return paddle.nn.functional.softmax(self.fc(paddle.flatten(y, 1)))


@pytest.mark.parametrize("memory_optim", [False, True])
def test_pagaie_jit_save_model(tmp_path, memory_optim):
    paddle.seed(3)
    net = _Net()
    net.eval()
    path = str(tmp_path / "net")
    paddle.jit.save(net, path, [paddle.static.InputSpec([None, 3, 4, 4], "float32", "img")])
    x = np.random.RandomState(1).rand(2, 3, 4, 4).astype("float32")
    config = pi.Config(path + ".json", path + ".pdiparams")
    config.enable_memory_optim(memory_optim)
    pred = pi.create_predictor(config)
    assert pred.get_input_names() == ["img"]
    pred.get_input_handle("img").copy_from_cpu(x)
    assert pred.run() is None
    out = pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(out, net(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-6)


def test_static_save_inference_model(tmp_path):
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("sx", [None, 2], "float32")
            y = paddle.static.nn.fc(x, 3)
        exe = paddle.static.Executor()
        prefix = str(tmp_path / "inf")
        paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
        feed = np.ones([4, 2], "float32")
        expect = exe.run(main, feed={"sx": feed}, fetch_list=[y])[0]
    finally:
        paddle.disable_static()
    pred = pi.create_predictor(pi.Config(prefix + ".json", prefix + ".pdiparams"))
    np.testing.assert_allclose(pred.run([paddle.to_tensor(feed)])[0].numpy(), expect, rtol=1e-6)


def _mlp_pred(pir_dir):
    return pi.create_predictor(_mlp_config(pir_dir))


def _mlp_config(pir_dir):
    return pi.Config(os.path.join(pir_dir, "mlp.json"), os.path.join(pir_dir, "mlp.pdiparams"))


def test_handles_behave_like_paddle(pir_dir):
    pred = _mlp_pred(pir_dir)
    h = pred.get_input_handle("x")
    assert h.shape() == [0] and h.type() == pi.DataType.FLOAT32 and h.lod() == []
    with pytest.raises(TypeError):
        h.copy_from_cpu([1.0, 2.0])
    h.reshape([5, 4])
    assert h.shape() == [5, 4]
    with pytest.raises(RuntimeError):
        h.copy_to_cpu()
    h.copy_from_cpu(np.ones((2, 4), "float32"))
    assert h.shape() == [2, 4]
    np.testing.assert_array_equal(h.copy_to_cpu(), np.ones((2, 4), "float32"))
    out = pred.get_output_handle("fetch_name_0")
    assert out.shape() == [0]
    with pytest.raises(RuntimeError):
        out.copy_to_cpu()
    pred.run()
    assert out.shape() == [2, 3] and out.type() == pi.DataType.FLOAT32
    h.copy_from_cpu(np.ones((3, 4), "float32"))
    pred.run()
    assert out.shape() == [3, 3]  # a handle follows the predictor's storage
    out.set_lod([[0, 1, 3]])
    assert out.lod() == [[0, 1, 3]]
    clone = pred.clone()
    assert clone.get_input_names() == ["x"] and clone.get_output_handle("fetch_name_0").shape() == [0]
    assert pred.try_shrink_memory() == 0
    with pytest.raises(RuntimeError):
        pred.get_input_handle("nope")
    with pytest.raises(RuntimeError):
        pred.get_output_handle("nope")
    h.copy_from_cpu(np.ones((3, 4), "int64"))
    assert h.type() == pi.DataType.INT64
    with pytest.raises(ValueError):
        pred.run()
    h.copy_from_cpu(np.ones((3, 5), "float32"))
    with pytest.raises(ValueError):
        pred.run()
    with pytest.raises(ValueError):
        pred.run([paddle.ones([2, 4]), paddle.ones([2, 4])])
    with pytest.raises(TypeError):
        pred.run([np.ones((2, 4), "float32")])
    res = pred.run([paddle.ones([2, 4])])
    assert isinstance(res, list) and res[0].shape == [2, 3]


def test_hooks_and_pool(pir_dir):
    pred = _mlp_pred(pir_dir)
    seen = []
    pred.register_output_hook(lambda op_type, name, t: seen.append((op_type, list(t.shape))))
    pred.run([paddle.ones([2, 4])])
    assert ("softmax", [2, 3]) in seen
    pool = pi.PredictorPool(_mlp_config(pir_dir), 2)
    a, b = pool.retrieve(0), pool.retrieve(1)
    assert a is not b
    with pytest.raises(ValueError):
        pool.retrieve(2)


def test_config_api(tmp_path):
    c = pi.Config()
    assert (c.model_dir(), c.prog_file(), c.params_file()) == ("", "", "")
    c = pi.Config("a/b")
    assert (c.model_dir(), c.prog_file()) == ("a/b", "")
    with pytest.raises(RuntimeError):  # as Paddle: the program file must exist
        pi.Config(str(tmp_path / "missing.json"), str(tmp_path / "m.pdiparams"))
    prog = tmp_path / "m.json"
    prog.write_text("{}")
    c = pi.Config(str(prog), "m.pdiparams")
    assert (c.prog_file(), c.params_file(), c.use_gpu(), c.gpu_device_id(), c.ir_optim()) == \
        (str(prog), "m.pdiparams", False, 0, True)
    assert c.cpu_math_library_num_threads() == 1 and c.mkldnn_enabled()
    c.set_cpu_math_library_num_threads(3)
    c.switch_ir_optim(False)
    c.disable_mkldnn()
    c.disable_glog_info()
    assert (c.cpu_math_library_num_threads(), c.ir_optim(), c.mkldnn_enabled(), c.glog_info_disabled()) == \
        (3, False, False, True)
    if torch.cuda.is_available():
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            c.enable_tensorrt_engine()
        assert w
    else:
        with pytest.raises(RuntimeError):  # as Paddle's CPU build
            c.enable_tensorrt_engine()
    assert not c.tensorrt_engine_enabled()
    assert "| model_file" in c.summary() and "ir_optim" in c.summary()
    assert pi.PrecisionType.Half is pi.Config.Precision.Half is pi.Config.Half
    assert str(pi.DataType.FLOAT32) == "PaddleDType.FLOAT32"
    assert repr(pi.PlaceType.CPU) == "<PaddlePlace.CPU: 0>"
    types = (pi.DataType.FLOAT32, pi.DataType.INT64, pi.DataType.INT8)
    assert [pi.get_num_bytes_of_data_type(t) for t in types] == [4, 8, -1]
    assert pi.get_version().startswith("version: ")
    assert pi.get_trt_compile_version() == (0, 0, 0)
    assert pi.XpuConfig().device_id == 0
    with pytest.raises(TypeError):
        pi.Config(1)
    with pytest.raises(TypeError):
        pi.create_predictor("x")


def test_config_used_once(pir_dir):
    config = pi.Config(os.path.join(pir_dir, "mlp.json"), os.path.join(pir_dir, "mlp.pdiparams"))
    pi.create_predictor(config)
    with pytest.raises(ValueError):
        pi.create_predictor(config)


def test_bad_files(pir_dir, tmp_path):
    params = os.path.join(pir_dir, "mlp.pdiparams")
    with pytest.raises(RuntimeError, match="cannot open"):
        pi.create_predictor(pi.Config(str(tmp_path / "none.json"), params))
    bad = tmp_path / "bad.json"
    bad.write_text("{garbage")
    with pytest.raises(RuntimeError, match="JSON"):
        pi.create_predictor(pi.Config(str(bad), params))
    with pytest.raises(RuntimeError, match="holds 12 tensors"):
        pi.create_predictor(pi.Config(os.path.join(pir_dir, "mlp.json"),
                                      os.path.join(pir_dir, "cnn.pdiparams")))
    trunc = tmp_path / "t.pdiparams"
    trunc.write_bytes(open(params, "rb").read()[:-7])
    with pytest.raises(RuntimeError, match="truncated"):
        pi.create_predictor(pi.Config(os.path.join(pir_dir, "mlp.json"), str(trunc)))
    junk = tmp_path / "junk.pdmodel"
    junk.write_bytes(b"\xff\xfe not a protobuf \x00\x01")
    with pytest.raises(RuntimeError, match="not a valid Paddle program"):
        pi.create_predictor(pi.Config(str(junk), params))
    text = open(os.path.join(pir_dir, "mlp.json")).read().replace('"1.relu"', '"1.no_such_op"')
    odd = tmp_path / "odd.json"
    odd.write_text(text)
    with pytest.raises(NotImplementedError, match="pd_op.no_such_op"):
        pi.create_predictor(pi.Config(str(odd), params))


@pytest.mark.parametrize("precision", [pi.PrecisionType.Bfloat16, pi.PrecisionType.Half])
def test_convert_to_mixed_precision(pir_dir, tmp_path, precision):
    ref = np.load(os.path.join(pir_dir, "cnn.npz"))
    out_m, out_p = str(tmp_path / "mixed.json"), str(tmp_path / "mixed.pdiparams")
    pi.convert_to_mixed_precision(os.path.join(pir_dir, "cnn.json"), os.path.join(pir_dir, "cnn.pdiparams"),
                                  out_m, out_p, precision, pi.PlaceType.CPU, black_list={"layer_norm"})
    pred = pi.create_predictor(pi.Config(out_m, out_p))
    assert pred.get_output_names() == ["fetch_name_0"]
    out = pred.run([paddle.to_tensor(ref["in0"])])[0]
    assert out.dtype == paddle.float32
    np.testing.assert_allclose(out.numpy(), ref["out0"], atol=0.1)
