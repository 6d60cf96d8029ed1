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
