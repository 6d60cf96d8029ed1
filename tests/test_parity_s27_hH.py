"""Session-27 cases mined from Paddle's own optimizer, clipping and regularizer tests, run
against real Paddle 3.3.1: what ``print`` shows for an AdamW; the gradient-norm clippers
refusing gradients that are not floating point (Paddle's norm kernels have none for them)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both, same_exception

pytest.importorskip("paddle")


def _linear(fw):
    fw.seed(1)
    return fw.nn.Linear(3, 2)


@pytest.mark.parametrize("kwargs", [{}, {"apply_decay_param_fun": lambda name: True, "weight_decay": 0.3}])
def test_adamw_str(kwargs):
    def printed(fw):
        lin = _linear(fw)
        opt = fw.optimizer.AdamW(learning_rate=0.1, parameters=lin.parameters(), **kwargs)
        before = str(opt)
        lin(fw.ones([1, 3])).sum().backward()
        opt.step()
        return before, str(opt)
    ours, theirs = both(printed)
    assert ours == theirs


@pytest.mark.parametrize("clip", ["ClipGradByNorm", "ClipGradByGlobalNorm"])
@pytest.mark.parametrize("dtype", ["int32", "int64", "bool"])
def test_norm_clippers_refuse_non_float_gradients(clip, dtype):
    def call(fw):
        grad = fw.to_tensor(np.array([2, 3])).astype(dtype)
        return getattr(fw.nn, clip)(0.8)([(fw.ones([2]), grad)])
    err = same_exception(call)
    assert clip in str(err) and dtype in str(err)


@pytest.mark.parametrize("clip", ["ClipGradByNorm", "ClipGradByGlobalNorm"])
def test_norm_clippers_float_gradients_unchanged(clip):
    def call(fw):
        pairs = [(fw.ones([2]), fw.to_tensor(np.array([2.0, 3.0], "float32"))),
                 (fw.ones([1]), fw.to_tensor(np.array([4.0], "float32")))]
        return [g.numpy() for _, g in getattr(fw.nn, clip)(0.8)(pairs)]
    ours, theirs = both(call)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6)
