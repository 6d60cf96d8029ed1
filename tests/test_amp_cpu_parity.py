"""User-visible paddle.amp behaviour on a CPU place, against real Paddle (where AMP is a
no-op): state queries and GradScaler.minimize results. (tests/amp turns pagaie's CPU AMP
on, so these live outside it.)"""
import numpy as np

from tests.reference import assert_same, both


def test_autocast_state_queries():
    def f(pd):
        out = [pd.amp.is_autocast_enabled(), pd.amp.get_autocast_dtype()]
        with pd.amp.auto_cast():
            out += [pd.amp.is_autocast_enabled(), pd.amp.get_autocast_dtype(),
                    pd.amp.get_autocast_cpu_dtype(), pd.amp.get_autocast_gpu_dtype()]
        with pd.amp.auto_cast(dtype="bfloat16"):
            out += [pd.amp.get_autocast_dtype()]
        return out
    ours, theirs = both(f)
    assert ours == theirs
    assert all(type(a) is type(b) for a, b in zip(ours, theirs))


def test_grad_scaler_minimize_returns_like_paddle():
    def f(pd):
        layer = pd.nn.Linear(2, 2)
        layer.weight.set_value(np.ones((2, 2), dtype="float32"))
        layer.bias.set_value(np.zeros(2, dtype="float32"))
        opt = pd.optimizer.SGD(0.1, parameters=layer.parameters())
        scaler = pd.amp.GradScaler(init_loss_scaling=8.0)
        scaled = scaler.scale(layer(pd.ones([1, 2])).sum())
        scaled.backward()
        ops, pairs = scaler.minimize(opt, scaled)
        return scaled, layer.weight, ops, [g for _, g in pairs], [g.stop_gradient for _, g in pairs]
    assert_same(*both(f))
