"""CUDA checks: the same programs on the GPU and on the CPU give the same results.

Every test here is marked ``gpu`` and skipped where torch sees no CUDA device.
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import pagaie as paddle
import pagaie.nn.functional as F

pytestmark = pytest.mark.gpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _on(device: str, build) -> paddle.nn.Layer:
    """``build()`` initialised on the CPU (the GPU's generator draws other numbers), then
    moved to ``device``, which becomes the default device."""
    paddle.set_device("cpu")
    paddle.seed(0)
    layer = build()
    paddle.set_device(device)
    return layer.to(device)


def _mlp(device: str = "gpu") -> paddle.nn.Layer:
    return _on(device, lambda: paddle.nn.Sequential(paddle.nn.Linear(16, 32), paddle.nn.ReLU(),
                                                    paddle.nn.Linear(32, 4)))


def _batches(n: int = 5):
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((8, 16)).astype("float32"), rng.integers(0, 4, (8, 1)).astype("int64"))
            for _ in range(n)]


def _train_eager(device: str, steps=None) -> list[float]:
    model = _mlp(device)
    opt = paddle.optimizer.Adam(1e-2, parameters=model.parameters())
    losses = []
    for x, y in steps or _batches():
        loss = F.cross_entropy(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses


def _static_losses(batches, strategy=None, place=None, return_numpy=True):
    """Losses of a static training program built on the GPU, run by ``Executor(place)``
    (``CUDAPlace(0)`` by default) for ``batches``; and the model."""
    model = _mlp("gpu")
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [8, 16], "float32")
            y = paddle.static.data("y", [8, 1], "int64")
            loss = F.cross_entropy(model(x), y)
            paddle.optimizer.Adam(1e-2).minimize(loss)
        prog = main if strategy is None else paddle.static.CompiledProgram(main, build_strategy=strategy)
        exe = paddle.static.Executor(place or paddle.CUDAPlace(0))
        outs = [exe.run(prog, feed={"x": a, "y": b}, fetch_list=[loss], return_numpy=return_numpy)[0]
                for a, b in batches]
    finally:
        paddle.disable_static()
    return [float(o) for o in outs], model  # read after every run: earlier fetches must survive


def test_default_device_is_gpu_in_a_fresh_process():
    code = ("import pagaie as p; t = p.to_tensor([1.0]); "
            "print(p.get_device(), t.place, p.nn.Linear(2, 2).weight.place)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT)).stdout.split()
    assert out == ["gpu:0", "Place(gpu:0)", "Place(gpu:0)"]


def test_tensor_places_and_copies():
    paddle.set_device("gpu")
    x = paddle.to_tensor([1.0, 2.0])
    assert x.place.is_gpu_place() and str(x.place) == "Place(gpu:0)"
    c = x.cpu()
    assert c.place.is_cpu_place() and c.cuda().place.is_gpu_place()
    np.testing.assert_array_equal((x * 2).numpy(), [2.0, 4.0])
    assert paddle.to_tensor([1], place=paddle.CPUPlace()).place.is_cpu_place()
    assert paddle.zeros([2]).place == paddle.CUDAPlace(0)


def test_eager_training_matches_cpu():
    cpu = _train_eager("cpu")
    gpu = _train_eager("gpu")
    np.testing.assert_allclose(gpu, cpu, rtol=1e-4, atol=1e-5)


def test_conv_bn_forward_backward_matches_cpu():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 16, 16)).astype("float32")
    results = []
    for dev in ("cpu", "gpu"):
        net = _on(dev, lambda: paddle.nn.Sequential(paddle.nn.Conv2D(3, 8, 3, padding=1),
                                                    paddle.nn.BatchNorm2D(8), paddle.nn.ReLU(),
                                                    paddle.nn.MaxPool2D(2)))
        t = paddle.to_tensor(x, stop_gradient=False)
        out = net(t)
        out.sum().backward()
        results.append((out.numpy(), t.grad.numpy(), net[0].weight.grad.numpy()))
    for a, b in zip(*results):
        np.testing.assert_allclose(b, a, rtol=1e-3, atol=1e-4)


def test_amp_o1_float16_and_grad_scaler():
    paddle.set_device("gpu")
    model = _mlp()
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
    x, y = _batches(1)[0]
    with paddle.amp.auto_cast(level="O1", dtype="float16"):
        out = model(paddle.to_tensor(x))
        assert out.dtype == paddle.float16
        loss = F.cross_entropy(out.astype("float32"), paddle.to_tensor(y))
    before = model[0].weight.numpy().copy()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    assert np.isfinite(float(loss)) and not np.allclose(model[0].weight.numpy(), before)
    assert model[0].weight.dtype == paddle.float32


def test_amp_o2_bfloat16_decorate():
    paddle.set_device("gpu")
    model = _mlp()
    opt = paddle.optimizer.AdamW(1e-3, parameters=model.parameters())
    model, opt = paddle.amp.decorate(model, opt, level="O2", dtype="bfloat16")
    assert model[0].weight.dtype == paddle.bfloat16
    x, y = _batches(1)[0]
    with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
        loss = F.cross_entropy(model(paddle.to_tensor(x)).astype("float32"), paddle.to_tensor(y))
    loss.backward()
    opt.step()
    assert np.isfinite(float(loss))


def test_dropout_on_gpu_is_seeded():
    paddle.set_device("gpu")
    x = paddle.ones([64, 64])
    paddle.seed(3)
    a = F.dropout(x, 0.5).numpy()
    paddle.seed(3)
    b = F.dropout(x, 0.5).numpy()
    np.testing.assert_array_equal(a, b)
    assert set(np.unique(a)) <= {0.0, 2.0} and 0.3 < (a == 0).mean() < 0.7


def test_dataloader_batches_on_gpu():
    paddle.set_device("gpu")
    ds = paddle.io.TensorDataset([paddle.arange(12, dtype="float32").reshape([6, 2])])
    batch = next(iter(paddle.io.DataLoader(ds, batch_size=3)))
    assert batch[0].place.is_gpu_place()


def test_static_program_on_cuda_place_matches_eager():
    batches = _batches()
    eager = _train_eager("gpu", batches)
    np.testing.assert_allclose(_static_losses(batches)[0], eager, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("backend", [None, "inductor"])
def test_to_static_training_on_gpu(backend):
    batches = _batches(3)
    eager = _train_eager("gpu", batches)
    paddle.set_device("gpu")
    model = _mlp()
    static_model = paddle.jit.to_static(model, backend=backend)
    opt = paddle.optimizer.Adam(1e-2, parameters=model.parameters())
    losses = []
    for x, y in batches:
        loss = F.cross_entropy(static_model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    np.testing.assert_allclose(losses, eager, rtol=1e-4, atol=1e-5)


def test_jit_save_load_and_predictor_on_gpu(tmp_path):
    paddle.set_device("gpu")
    model = _mlp()
    model.eval()
    x = _batches(1)[0][0]
    want = model(paddle.to_tensor(x)).numpy()
    path = str(tmp_path / "mlp")
    paddle.jit.save(model, path, input_spec=[paddle.static.InputSpec([None, 16], "float32")])
    loaded = paddle.jit.load(path)
    got = loaded(paddle.to_tensor(x))
    assert got.place.is_gpu_place()
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)

    config = paddle.inference.Config(path + ".json", path + ".pdiparams")
    config.enable_use_gpu(100, 0)
    predictor = paddle.inference.create_predictor(config)
    h = predictor.get_input_handle(predictor.get_input_names()[0])
    h.copy_from_cpu(x)
    predictor.run()
    out = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)


def test_save_load_gpu_tensors(tmp_path):
    paddle.set_device("gpu")
    model = _mlp()
    path = str(tmp_path / "m.pdparams")
    paddle.save(model.state_dict(), path)
    state = paddle.load(path)
    w = state["0.weight"]
    assert w.place.is_gpu_place()
    np.testing.assert_array_equal(w.numpy(), model[0].weight.numpy())
    paddle.set_device("cpu")
    assert paddle.load(path)["0.weight"].place.is_cpu_place()


def test_run_check_on_gpu(capsys):
    paddle.utils.run_check()
    assert "GPU" in capsys.readouterr().out


def test_memory_queries():
    paddle.set_device("gpu")
    x = paddle.ones([1024, 1024])
    assert paddle.device.cuda.memory_allocated() >= x.numel().item() * 4
    assert paddle.device.cuda.max_memory_allocated() >= paddle.device.cuda.memory_allocated()
    del x
    paddle.device.cuda.empty_cache()


def test_compiled_executor_with_cuda_graphs_trains_like_the_interpreter():
    batches = _batches(6)
    want = _static_losses(batches)[0]
    bs = paddle.static.BuildStrategy()
    bs.build_cinn_pass = True
    bs.allow_cuda_graph_capture = True
    got = _static_losses(batches, bs, return_numpy=False)[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_executor_place_owns_the_program_state():
    # parameters built on the GPU (the default device) run and train on a CPU executor
    batches = _batches(3)
    got, model = _static_losses(batches, place=paddle.CPUPlace())
    assert model[0].weight.place.is_cpu_place()
    np.testing.assert_allclose(got, _train_eager("cpu", batches), rtol=1e-4, atol=1e-5)
