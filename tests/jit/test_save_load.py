"""paddle.jit.save / load: round trips, fine-tuning, corrupt files, compatibility."""
import json
import os

import numpy as np
import pytest

import pagaie as paddle
from pagaie.static import InputSpec
from tests.jit.models import CNN, MLP, ControlFlow


def _save_load(net, path, spec):
    paddle.jit.save(net, path, input_spec=spec)
    return paddle.jit.load(path)


@pytest.mark.parametrize("cls,spec,make", [
    (MLP, [InputSpec([None, 4], "float32", "x")], lambda: [paddle.randn([5, 4])]),
    (CNN, [InputSpec([None, 1, 8, 8], "float32", "img")], lambda: [paddle.randn([2, 1, 8, 8])]),
    (ControlFlow, [InputSpec([None, 4], "float32", "x"), InputSpec([], "int64", "n")],
     lambda: [paddle.randn([3, 4]), paddle.to_tensor(2)]),
])
def test_round_trip_outputs_and_gradients(tmp_path, cls, spec, make):
    net = cls()
    net.eval()
    loaded = _save_load(net, str(tmp_path / "m"), spec)
    assert isinstance(loaded, paddle.jit.TranslatedLayer) and not loaded.training
    for _ in range(2):
        inputs = make()
        ref = net(*inputs)
        out = loaded(*inputs)
        np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)
    (out ** 2).sum().backward()  # eval mode runs the inference program: no backward, as Paddle
    assert all(p.grad is None for p in loaded.parameters())
    # after .train() the loaded layer still runs the inference program (as Paddle's): its
    # gradients are those of the eager layer in eval mode
    loaded.train()
    inputs = make()
    (net(*inputs) ** 2).sum().backward()
    (loaded(*inputs) ** 2).sum().backward()
    # a loaded parameter is named <saved name>_<n>, as in Paddle
    ours = {p.name.rsplit("_", 1)[0]: p for p in loaded.parameters()}
    for p in net.parameters():
        if not p.stop_gradient:
            np.testing.assert_allclose(ours[p.name].grad.numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-6)
    assert os.path.exists(str(tmp_path / "m.pdiparams"))


def test_control_flow_branches_after_load(tmp_path):
    net = ControlFlow()
    loaded = _save_load(net, str(tmp_path / "cf"), [InputSpec([None, 4], "float32", "x"),
                                                    InputSpec([], "int64", "n")])
    for n in (0, 4):
        for sign in (1.0, -1.0):
            x = paddle.randn([2, 4]) * sign
            np.testing.assert_allclose(loaded(x, paddle.to_tensor(n)).numpy(),
                                       net(x, paddle.to_tensor(n)).numpy(), rtol=1e-5, atol=1e-6)
    types = {op.type for op in loaded.program().global_block().ops}
    assert {"pagaie.while", "pagaie.cond"} <= types


def test_fine_tune_loaded_layer_matches_eager(tmp_path):
    net = CNN()
    loaded = _save_load(net, str(tmp_path / "cnn"), [InputSpec([None, 1, 8, 8], "float32", "x")])
    loaded.train()
    net.eval()   # Paddle's loaded layer trains its inference program: batch norm on running stats
    by_name = {p.name.rsplit("_", 1)[0]: p for p in loaded.parameters()}
    o1 = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    o2 = paddle.optimizer.SGD(0.1, parameters=[by_name[p.name] for p in net.parameters()])
    for _ in range(3):
        x = paddle.randn([4, 1, 8, 8])
        for layer, opt in ((net, o1), (loaded, o2)):
            loss = (layer(x) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
    for p in net.parameters():  # trained weights; BatchNorm running statistics unchanged
        np.testing.assert_allclose(by_name[p.name].numpy(), p.numpy(), rtol=1e-4, atol=1e-5)


def test_save_to_static_layer_without_spec_uses_last_call(tmp_path):
    net = paddle.jit.to_static(MLP())
    x = paddle.randn([3, 4])
    ref = net(x)
    paddle.jit.save(net, str(tmp_path / "auto"))
    np.testing.assert_allclose(paddle.jit.load(str(tmp_path / "auto"))(x).numpy(), ref.numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="input_spec"):
        paddle.jit.save(MLP(), str(tmp_path / "none"))


def test_static_load_inference_model_reads_jit_save(tmp_path):
    net = MLP()
    paddle.jit.save(net, str(tmp_path / "inf"), [InputSpec([None, 4], "float32", "x")])
    x = np.random.rand(2, 4).astype("float32")
    paddle.enable_static()
    try:
        exe = paddle.static.Executor()
        prog, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "inf"), exe)
        out = exe.run(prog, feed={feeds[0]: x}, fetch_list=fetches)[0]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, net(paddle.to_tensor(x)).numpy(), rtol=1e-6)


@pytest.fixture
def saved(tmp_path):
    path = str(tmp_path / "m")
    paddle.jit.save(MLP(), path, [InputSpec([None, 4], "float32", "x")])
    return path


def test_truncated_params_raise(saved):
    data = open(saved + ".pdiparams", "rb").read()
    for cut in (5, 30, len(data) - 3):
        with open(saved + ".pdiparams", "wb") as f:
            f.write(data[:cut])
        with pytest.raises(RuntimeError, match="pdiparams"):
            paddle.jit.load(saved)


def test_newer_or_corrupt_files_raise(saved):
    data = bytearray(open(saved + ".pdiparams", "rb").read())
    data[0] = 7  # tensor format version 7
    open(saved + ".pdiparams", "wb").write(bytes(data))
    with pytest.raises(RuntimeError, match="version 7"):
        paddle.jit.load(saved)
    model = json.load(open(saved + ".json"))
    model["jit"]["version"] = 99
    json.dump(model, open(saved + ".json", "w"))
    with pytest.raises(RuntimeError, match="newer"):
        paddle.jit.load(saved)
    open(saved + ".json", "w").write('{"format": "pagaie.program", "vers')
    with pytest.raises(RuntimeError, match="not JSON"):
        paddle.jit.load(saved)
    with pytest.raises(ValueError, match="does not exist"):
        paddle.jit.load(saved + "_missing")


def test_params_of_wrong_shape_raise(saved):
    from pagaie._formats.pdiparams import load_tensors, write_pdiparams
    ts = load_tensors(saved + ".pdiparams")
    ts[0] = ts[0].reshape(-1)[:1].clone()
    write_pdiparams(saved + ".pdiparams", ts)
    with pytest.raises(RuntimeError, match="shape"):
        paddle.jit.load(saved)
    write_pdiparams(saved + ".pdiparams", ts[:-1])
    with pytest.raises(RuntimeError, match="holds 3 tensors"):
        paddle.jit.load(saved)


def test_save_errors(tmp_path):
    with pytest.raises(ValueError, match="dirname/file_prefix"):
        paddle.jit.save(MLP(), str(tmp_path) + "/", [InputSpec([None, 4])])
    with pytest.raises(ValueError, match="not supported"):
        paddle.jit.save(MLP(), str(tmp_path / "m"), [InputSpec([None, 4])], bogus=1)
