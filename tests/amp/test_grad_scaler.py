"""GradScaler vs real Paddle 3.3.1, step by step, with injected overflows.

Paddle disables its scaler on CPU places; the reference run enables it the way a GPU
place would (its CPU kernels are complete), and works around Paddle's own
``float(Tensor[1])`` incompatibility with numpy 2 in the log message.
"""
from __future__ import annotations

import types

import numpy as np
import pytest

import pagaie
from tests.amp.test_parity_amp_sweep import _GpuLike
from tests.reference import paddle_ref

PATTERN = [0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0]


def _enable_reference_scaler(paddle, monkeypatch):
    import paddle.amp.grad_scaler as gsm
    from paddle.amp.auto_cast import amp_global_state

    monkeypatch.setattr(gsm, "_dygraph_tracer", lambda: types.SimpleNamespace(_expected_place=_GpuLike()))
    monkeypatch.setattr(amp_global_state(), "amp_dtype", "float16")
    monkeypatch.setattr(paddle.Tensor, "__float__", lambda self: float(self.numpy().reshape(-1)[0]),
                        raising=False)


def _run(fw, kwargs, pattern, use_minimize=False):
    w0 = np.array([[0.5], [-0.25]], dtype="float32")
    lin = fw.nn.Linear(2, 1)
    lin.weight.set_value(fw.to_tensor(w0))
    lin.bias.set_value(fw.to_tensor(np.array([0.1], dtype="float32")))
    opt = fw.optimizer.SGD(0.1, parameters=lin.parameters())
    sc = fw.amp.GradScaler(**kwargs)
    scales = []
    for bad in pattern:
        x = fw.ones([1, 2]) * (float("inf") if bad else 1.0)
        loss = lin(x).mean()
        scaled = sc.scale(loss)
        scaled.backward()
        if use_minimize:
            sc.minimize(opt, scaled)
        else:
            sc.step(opt)
            sc.update()
        opt.clear_grad()
        scales.append(float(np.asarray(sc._scale.numpy()).reshape(-1)[0]))
    return scales, lin.weight.numpy(), lin.bias.numpy(), sc.state_dict()


@pytest.mark.parametrize("kwargs", [
    dict(init_loss_scaling=8.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=2),
    dict(init_loss_scaling=1024.0, incr_every_n_steps=3, decr_every_n_nan_or_inf=1, incr_ratio=4.0,
         decr_ratio=0.25),
])
@pytest.mark.parametrize("use_minimize", [False, True])
def test_scale_sequence_matches_paddle(monkeypatch, kwargs, use_minimize):
    paddle = paddle_ref()
    _enable_reference_scaler(paddle, monkeypatch)
    theirs = _run(paddle, kwargs, PATTERN, use_minimize)
    with pagaie.amp.auto_cast(dtype="float16"):
        pass  # the scaler follows the last autocast dtype, as in Paddle
    ours = _run(pagaie, kwargs, PATTERN, use_minimize)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)
    assert set(ours[3]) == set(theirs[3])
    for k in ours[3]:
        np.testing.assert_allclose(np.asarray(ours[3][k]), np.asarray(theirs[3][k]))


def test_state_dict_round_trip_and_setters():
    with pagaie.amp.auto_cast(dtype="float16"):
        pass
    sc = pagaie.amp.GradScaler(init_loss_scaling=512.0, incr_every_n_steps=7)
    sd = sc.state_dict()
    other = pagaie.amp.GradScaler()
    other.load_state_dict(sd)
    assert other.get_init_loss_scaling() == 512.0 and other.get_incr_every_n_steps() == 7
    other.set_incr_ratio(3.0)
    assert other.get_incr_ratio() == 3.0
    with pytest.raises(AssertionError):  # Paddle asserts here
        other.set_decr_ratio(1.5)
    assert sc.is_enable() and sc.is_use_dynamic_loss_scaling()


def test_bfloat16_disables_dynamic_scaling():
    with pagaie.amp.auto_cast(dtype="bfloat16"):
        loss = pagaie.ones([1]).sum()
    sc = pagaie.amp.GradScaler()
    with pytest.warns(UserWarning):
        out = sc.scale(loss)
    assert float(out) == 1.0 and not sc.is_enable()


def test_protocol_errors():
    with pagaie.amp.auto_cast(dtype="float16"):
        pass
    lin = pagaie.nn.Linear(2, 1)
    opt = pagaie.optimizer.SGD(0.1, parameters=lin.parameters())
    sc = pagaie.amp.GradScaler()
    sc.scale(lin(pagaie.ones([1, 2])).mean()).backward()
    sc.unscale_(opt)
    with pytest.raises(RuntimeError, match="already been called"):
        sc.unscale_(opt)
    sc.step(opt)
    with pytest.raises(RuntimeError, match="step"):
        sc.step(opt)
