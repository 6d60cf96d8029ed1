"""Session-21 lead: behaviours found by running whole Paddle scripts through pagaie and
real Paddle 3.3.1 side by side."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.reference import both

pytest.importorskip("paddle")


def _batch_norm_warnings(P, layer: str, shape: list, train: bool) -> list:
    bn = getattr(P.nn, layer)(shape[1])
    bn.train() if train else bn.eval()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        bn(P.rand(shape))
    return sorted(str(w.message) for w in seen if issubclass(w.category, UserWarning))


@pytest.mark.parametrize("layer,shape", [("BatchNorm1D", [2, 3]), ("BatchNorm2D", [2, 3, 4, 4]),
                                         ("BatchNorm3D", [2, 3, 2, 2, 2])])
@pytest.mark.parametrize("train", [True, False])
def test_batch_norm_training_notice(layer, shape, train):
    ours, theirs = both(lambda P: _batch_norm_warnings(P, layer, shape, train))
    assert ours == theirs


# -- the eager paths that reached torch's symbolic-shape module (and sympy) ----------------------

def test_eager_gradients_and_broadcasts_leave_sympy_unimported():
    import subprocess
    import sys
    code = (
        "import sys\n"
        "import pagaie as paddle\n"
        "x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)\n"
        "y = (x * x).sum(axis=1)\n"
        "(g,) = paddle.grad([y], [x], grad_outputs=[paddle.to_tensor([1.0, 2.0])], create_graph=True)\n"
        "(x * 3).backward(paddle.ones([2, 2]))\n"
        "p = paddle.nn.functional.adaptive_avg_pool2d(x.reshape([1, 1, 2, 2]), 1)\n"
        "p.sum().backward()\n"
        "paddle.masked_select(x, x > 2)\n"
        "paddle.broadcast_shape([2, 1], [3])\n"
        "z = paddle.ones([2, 2]); z.add_(paddle.ones([2]))\n"
        "print('sympy' in sys.modules, 'torch.fx.experimental.symbolic_shapes' in sys.modules)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["False", "False"]


def test_broadcast_shapes_matches_torch():
    import torch

    from pagaie._core.broadcast import broadcast_shapes
    rng = np.random.default_rng(0)
    for _ in range(300):
        shapes = [tuple(int(d) for d in rng.choice([0, 1, 2, 3], size=rng.integers(0, 4)))
                  for _ in range(rng.integers(1, 4))]
        try:
            want = torch.broadcast_shapes(*shapes)
        except RuntimeError:
            with pytest.raises(RuntimeError):
                broadcast_shapes(*shapes)
        else:
            assert broadcast_shapes(*shapes) == want, shapes
    assert broadcast_shapes() == torch.Size([])
    with pytest.raises(RuntimeError):
        broadcast_shapes((2, -1))


# -- a loaded layer runs its inference program in both modes ------------------------------------

def _loaded_train_mode(P, tmp: str) -> list:
    P.seed(1)
    with P.utils.unique_name.guard():
        net = P.nn.Sequential(P.nn.Linear(4, 4), P.nn.BatchNorm1D(4), P.nn.Dropout(0.5), P.nn.Linear(4, 2))
    P.jit.save(net, tmp, input_spec=[P.static.InputSpec([None, 4], "float32")])
    loaded = P.jit.load(tmp)
    x = P.to_tensor(np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4))
    evaluated = loaded(x).numpy()
    loaded.train()
    opt = P.optimizer.SGD(0.1, parameters=loaded.parameters())
    out = loaded(x)
    (out ** 2).mean().backward()
    opt.step()
    return [evaluated, out.numpy(), loaded(x).numpy()] + [p.numpy() for p in loaded.parameters()]


def test_loaded_layer_trains_its_inference_program(tmp_path):
    ours, theirs = both(lambda P: _loaded_train_mode(P, str(tmp_path / P.__name__ / "m")))
    assert len(ours) == len(theirs)
    np.testing.assert_allclose(ours[0], ours[1])   # dropout off, batch norm on running stats
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# -- every saved file is written whole or not at all ---------------------------------------------

@pytest.mark.parametrize("mode,data", [("wb", b"new"), ("w", "new")])
def test_atomic_open_replaces_only_on_success(tmp_path, mode, data):
    import os

    from pagaie._formats.atomic_file import atomic_open
    path = tmp_path / "f"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)
    with pytest.raises(OSError, match="disk full"):
        with atomic_open(path, mode) as f:
            f.write(data)
            raise OSError("disk full")
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["f"]
    with atomic_open(path, mode) as f:
        f.write(data)
    assert path.read_bytes() == b"new" and os.listdir(tmp_path) == ["f"]
    assert os.stat(path).st_mode & 0o777 == 0o640


def test_jit_save_keeps_the_previous_model_when_writing_fails(tmp_path, monkeypatch):
    import json

    import pagaie
    path = str(tmp_path / "m")
    spec = [pagaie.static.InputSpec([None, 2], "float32")]
    pagaie.jit.save(pagaie.nn.Linear(2, 2), path, input_spec=spec)
    before = open(path + ".json").read()

    def boom(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(json, "dump", boom)
    with pytest.raises(OSError, match="disk full"):
        pagaie.jit.save(pagaie.nn.Linear(2, 3), path, input_spec=spec)
    assert open(path + ".json").read() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "m.pdiparams"]
