"""Differential sweep of ``paddle.inference`` against real Paddle 3.3.1 (CPU build).

Models come from real Paddle's ``paddle.jit.save`` (PIR ``.json`` + ``.pdiparams``);
both frameworks' predictors run on them. Paddle's predictor objects must stay alive
while their handles are used (its handles do not hold the predictor), hence ``keep``.
"""
import os
import warnings

import numpy as np
import pytest
import torch

import pagaie
from tests.reference import paddle_ref, same_exception


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    """A small MLP saved by real Paddle; returns (prog, params)."""
    paddle = paddle_ref()
    d = tmp_path_factory.mktemp("paddle_model")
    paddle.seed(3)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))
    net.eval()
    path = str(d / "mlp")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle.jit.save(net, path, [paddle.static.InputSpec([None, 4], "float32", "x")])
    return path + ".json", path + ".pdiparams"


def _predictor(fw, model, keep, **opts):
    config = fw.inference.Config(*model)
    config.disable_glog_info()
    for k, v in opts.items():
        getattr(config, k)(*v)
    pred = fw.inference.create_predictor(config)
    keep.append(pred)
    return pred


def _both(fn):
    ref = paddle_ref()
    return fn(pagaie), fn(ref)


# ---- Config ----------------------------------------------------------------------------
def test_config_defaults_and_setters_match():
    def f(fw):
        c = fw.inference.Config()
        out = [c.memory_pool_init_size_mb(), c.new_ir_enabled(), c.cpu_math_library_num_threads(),
               c.tensorrt_optimization_level(), c.tensorrt_precision_mode(), c.tensorrt_dla_enabled(),
               c.tensorrt_dynamic_shape_enabled(), c.trt_allow_build_at_runtime(), c.ir_optim()]
        for n in (0, -1, 5):
            c.set_cpu_math_library_num_threads(n)
            out.append(c.cpu_math_library_num_threads())
        c.set_model("some_dir")
        c.set_model("p.json", "p.pdiparams")  # the directory stays set, as in Paddle
        out.append((c.model_dir(), c.prog_file(), c.params_file()))
        c.set_optimization_level(0)  # leaves ir_optim alone
        out.append(c.ir_optim())
        c.enable_new_ir()
        c.enable_tensorrt_dla()
        c.enable_tensorrt_varseqlen()
        c.set_tensorrt_optimization_level(1)
        out += [c.new_ir_enabled(), c.tensorrt_dla_enabled(), c.tensorrt_varseqlen_enabled(),
                c.tensorrt_optimization_level()]
        if not torch.cuda.is_available():  # Paddle's CPU build: nothing changes
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                c.enable_use_gpu(256, 0)
            out += [c.use_gpu(), c.memory_pool_init_size_mb()]
        return [int(v) if hasattr(v, "value") else v for v in out]
    ours, theirs = _both(f)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda fw: fw.inference.Config().set_cpu_math_library_num_threads(2.0),
    lambda fw: fw.inference.Config().set_cpu_math_library_num_threads("2"),
    lambda fw: fw.inference.Config().enable_use_gpu(100.0),
    lambda fw: fw.inference.Config().enable_use_gpu(-1),
    lambda fw: fw.inference.Config().enable_use_gpu(100, 0, 5),
    lambda fw: fw.inference.Config().switch_ir_optim("yes"),
    lambda fw: fw.inference.Config().switch_ir_optim(None),
    lambda fw: fw.inference.Config().set_model(None),
    lambda fw: fw.inference.Config().set_model("a", None),
    lambda fw: fw.inference.Config().delete_pass(5),
    lambda fw: fw.inference.Config().enable_xpu(),
    lambda fw: fw.inference.Config().enable_ipu(),
    lambda fw: fw.inference.Config().enable_cinn(),
    lambda fw: fw.inference.Config().enable_low_precision_io(True),
    lambda fw: fw.inference.Config().enable_tensorrt_memory_optim(),
    lambda fw: fw.inference.Config().load_ipu_config("/no/such/ipu.cfg"),
], ids=["threads-float", "threads-str", "gpu-float", "gpu-negative", "gpu-precision-int", "ir-str",
        "ir-none", "model-none", "params-none", "delete-int", "xpu", "ipu", "cinn", "low-io", "trt-mem",
        "ipu-config"])
def test_config_bad_calls_raise_like_paddle(call):
    same_exception(call)


def _summaries(fw, model):
    prog, params = model
    out = []
    c = fw.inference.Config()
    out.append(c.summary())
    out.append(fw.inference.Config(os.path.dirname(prog)).summary())
    c = fw.inference.Config(prog, params)
    c.set_cpu_math_library_num_threads(4)
    c.disable_mkldnn()
    c.switch_ir_optim(False)
    c.enable_memory_optim()
    c.switch_ir_debug()
    c.disable_glog_info()
    c.enable_profile()
    out.append(c.summary())
    c = fw.inference.Config()
    c.set_prog_file(prog)
    out.append(c.summary())
    c = fw.inference.Config()
    c.set_model_buffer("abc", 3, "de", 2)
    out.append((c.summary(), c.model_from_memory(), c.prog_file(), c.params_file(), c.model_dir()))
    c = fw.inference.Config()
    c.collect_shape_range_info("/tmp/shape_range.pbtxt")
    c.set_optim_cache_dir("/tmp/optim_cache")
    c.enable_save_optim_model(True)
    c.use_optimized_model(True)
    c.set_mkldnn_cache_capacity(3)
    c.set_optimization_level(0)
    out.append(c.summary())
    c = fw.inference.Config()
    c.enable_openvino_engine()
    c.enable_mkldnn_int8()
    out.append((c.summary(), c.openvino_engine_enabled(), c.mkldnn_int8_enabled()))
    return out


def test_summary_text_matches_paddle(model):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _both(lambda fw: _summaries(fw, model))
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, f"summary {i}:\n{a}\nPaddle:\n{b}"


def test_pass_builder_behaves_like_paddle():
    def f(fw):
        c = fw.inference.Config()
        pb = c.pass_builder()
        out = [c.pass_builder() is pb]
        pb.set_passes(["a", "b"])
        pb.append_pass("c")
        pb.insert_pass(0, "z")
        pb.delete_pass("b")
        pb.delete_pass("not_there")
        out += [pb.all_passes(), pb.debug_string()]
        return out
    ours, theirs = _both(f)
    assert ours == theirs
    same_exception(lambda fw: fw.inference.Config().pass_builder().append_pass(3))


def test_pass_builder_drives_the_predictor(model):
    x = np.random.default_rng(0).standard_normal((3, 4)).astype("float32")
    outs = []
    for passes in (None, [], ["dead_code_elimination", "paddle_only_pass"]):
        config = pagaie.inference.Config(*model)
        if passes is not None:
            config.pass_builder().set_passes(passes)
        from pagaie._static.passes.strategy import INFERENCE_PASSES
        # Paddle's pass names run pagaie's passes (with its clean-up passes) until set_passes
        assert config.passes_to_run() == (list(INFERENCE_PASSES) if passes is None else
                                          [p for p in passes if p != "paddle_only_pass"])
        pred = pagaie.inference.create_predictor(config)
        outs.append(pred.run([pagaie.to_tensor(x)])[0].numpy())
    for o in outs[1:]:
        np.testing.assert_allclose(o, outs[0], rtol=1e-6, atol=1e-6)


# ---- enums and helpers ------------------------------------------------------------------
def test_enum_members_and_sizes_match():
    def f(fw):
        pi = fw.inference
        return ([(k, int(v)) for k, v in pi.DataType.__members__.items()],
                [(k, int(v)) for k, v in pi.PlaceType.__members__.items()],
                [(k, int(v)) for k, v in pi.PrecisionType.__members__.items()],
                [str(v) for v in pi.DataType.__members__.values()],
                [pi.get_num_bytes_of_data_type(v) for v in pi.DataType.__members__.values()])
    ours, theirs = _both(f)
    assert ours == theirs


def test_convert_to_mixed_precision_rejects_non_enum_precision(model, tmp_path):
    same_exception(lambda fw: fw.inference.convert_to_mixed_precision(
        *model, str(tmp_path / "m.json"), str(tmp_path / "m.pdiparams"), "half", fw.inference.PlaceType.CPU))


# ---- predictor and handles --------------------------------------------------------------
def test_predictions_and_handles_match(model):
    keep = []
    x = np.random.default_rng(1).standard_normal((2, 4)).astype("float32")

    def f(fw):
        pred = _predictor(fw, model, keep)
        h = pred.get_input_handle("x")
        out_name = pred.get_output_names()[0]
        o = pred.get_output_handle(out_name)
        r = [pred.get_input_names(), pred.get_output_names(), h.shape(), int(h.type()), o.shape()]
        h.copy_from_cpu(x)
        pred.run()
        y = o.copy_to_cpu()
        r += [h.shape(), o.shape(), int(o.type()), y.dtype.name]
        pred.clear_intermediate_tensor()  # outputs stay readable
        r += [o.shape(), o.copy_to_cpu().shape]
        # a handle may name an input or an output whichever getter is used
        r += [pred.get_output_handle("x").shape(), pred.get_input_handle(out_name).shape()]
        res = pred.run([fw.to_tensor(x)])
        r += [type(res).__name__, [list(t.shape) for t in res], [t.stop_gradient for t in res]]
        clone = pred.clone()
        keep.append(clone)
        r += [clone.get_input_handle("x").shape(), clone.get_output_handle(out_name).shape()]
        return r, y, res[0].numpy()
    (ours, y1, r1), (theirs, y2, r2) = _both(f)
    assert ours == theirs
    np.testing.assert_allclose(y1, y2, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r1, r2, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "int8", "uint8", "bool",
                                   "int16", "uint16", "uint32", "uint64"])
def test_copy_from_cpu_dtypes_match(model, dtype):
    keep = []

    def f(fw):
        h = _predictor(fw, model, keep).get_input_handle("x")
        h.copy_from_cpu(np.arange(8).reshape(2, 4).astype(dtype))
        back = h.copy_to_cpu()
        return int(h.type()), h.shape(), back.dtype.name, back.tolist()
    ours, theirs = _both(f)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda h: h.copy_from_cpu(np.ones((2, 4), "complex64")),
    lambda h: h.copy_from_cpu(np.array([["a"]])),
    lambda h: h.copy_from_cpu([1.0, 2.0]),
    lambda h: h.reshape([2.0, 4]),
    lambda h: h.reshape("ab"),
    lambda h: h.reshape(5),
], ids=["complex", "unicode", "list", "float-dims", "str", "int"])
def test_handle_bad_calls_raise_like_paddle(model, call):
    keep = []
    same_exception(lambda fw: call(_predictor(fw, model, keep).get_input_handle("x")))


def test_handle_reshape_accepts_what_paddle_accepts(model):
    keep = []

    def f(fw):
        h = _predictor(fw, model, keep).get_input_handle("x")
        out = []
        for s in ([True, 4], np.array([2, 4]), (np.int64(3), 4), [], [-1, 4]):
            h.reshape(s)
            out.append(h.shape())
        return out
    ours, theirs = _both(f)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda fw, m, keep: _predictor(fw, m, keep).get_input_handle(0),
    lambda fw, m, keep: _predictor(fw, m, keep).get_output_handle("no_such_tensor"),
    lambda fw, m, keep: fw.inference.PredictorPool(fw.inference.Config(*m)),
    lambda fw, m, keep: fw.inference.PredictorPool(fw.inference.Config(*m), 0),
    lambda fw, m, keep: fw.inference.PredictorPool(fw.inference.Config(*m), 1.0),
    lambda fw, m, keep: keep.append(fw.inference.PredictorPool(fw.inference.Config(*m), 2)) or keep[-1].retrieve(-1),
    lambda fw, m, keep: keep.append(fw.inference.PredictorPool(fw.inference.Config(*m), 2)) or keep[-1].retrieve(2),
    lambda fw, m, keep: _predictor(fw, m, keep).run([fw.ones([2, 4]), fw.ones([2, 4])]),
    lambda fw, m, keep: _predictor(fw, m, keep).run([np.ones((2, 4), "float32")]),
], ids=["handle-int", "handle-unknown", "pool-no-size", "pool-zero", "pool-float", "retrieve-neg",
        "retrieve-oob", "run-too-many", "run-numpy"])
def test_predictor_bad_calls_raise_like_paddle(model, call):
    keep = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_exception(lambda fw: call(fw, model, keep))


def test_pool_retrieve_matches(model):
    keep = []

    def f(fw):
        pool = fw.inference.PredictorPool(fw.inference.Config(*model), 2)
        keep.append(pool)
        return [pool.retrieve(i) is pool.retrieve(i) for i in (0, 1)], pool.retrieve(0) is pool.retrieve(1), \
            pool.retrieve(True).get_input_names()
    ours, theirs = _both(f)
    assert ours == theirs
