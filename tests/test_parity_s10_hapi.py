"""Session-10 differential sweep of ``paddle.flops`` (the ``custom_ops`` protocol and the
``paddle.hapi.dynamic_flops`` module) against real Paddle 3.3.1.

Paddle keeps ``total_ops`` / ``total_params`` buffers on every leaf layer for the whole pass
and registers each rule as a plain forward post-hook, so a rule sees the buffers, may assign
``total_ops`` (a shared layer keeps the last value), and its return value replaces the
layer's output."""
from __future__ import annotations

import pytest

import pagaie


def _flops(fw, build, size, custom, capsys):
    with fw.utils.unique_name.guard():
        net = build(fw)
        capsys.readouterr()
        total = fw.flops(net, size, custom_ops=custom(fw), print_detail=True)
    return total, capsys.readouterr().out, net


def _twice_tanh(fw):
    class TwiceTanh(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.t = fw.nn.Tanh()
            self.l = fw.nn.Linear(3, 2)

        def forward(self, x):
            y = self.t(self.t(x))
            self.seen = float(y.abs().sum())
            return self.l(y)
    return TwiceTanh()


def _assign_seven(fw):
    def rule(m, x, y):
        m.total_ops = fw.to_tensor([7], dtype="int64")
    return {fw.nn.Tanh: rule}


def _add_numel(fw):
    def rule(m, x, y):
        m.total_ops += int(y.numel())
    return {fw.nn.Tanh: rule}


def _returns_zeros(fw):
    def rule(m, x, y):
        m.total_ops += 3
        return y * 0
    return {fw.nn.Tanh: rule}


def _reads_total_params(fw):
    def rule(m, x, y):
        m.total_ops += int(m.weight.shape[0]) + int(m.total_params.numpy()[0])
    return {fw.nn.Linear: rule}


@pytest.mark.parametrize("custom", [_assign_seven, _add_numel, _returns_zeros, _reads_total_params])
def test_flops_custom_rule_protocol(custom, ref_flops, capsys):
    ours = _flops(pagaie, _twice_tanh, [2, 3], custom, capsys)
    theirs = _flops(ref_flops, _twice_tanh, [2, 3], custom, capsys)
    assert ours[:2] == theirs[:2]
    # a returned value replaces the layer's output (flops feeds a random input)
    assert (ours[2].seen == 0) == (theirs[2].seen == 0) == (custom is _returns_zeros)
    assert sorted(ours[2].state_dict()) == sorted(theirs[2].state_dict())  # buffers removed


def test_dynamic_flops_module_rules_as_custom_ops(ref_flops, capsys):
    def build(fw):
        nn = fw.nn
        return nn.Sequential(nn.Conv2D(2, 3, 3), nn.BatchNorm2D(3), nn.LeakyReLU(), nn.Tanh(),
                             nn.AdaptiveAvgPool2D(2), nn.Flatten(), nn.Linear(12, 4))

    def custom(fw):
        mod = __import__(fw.__name__ + ".hapi.dynamic_flops", fromlist=["x"])
        return {fw.nn.Tanh: mod.count_leaky_relu, fw.nn.Flatten: mod.count_zero_ops}

    ours = _flops(pagaie, build, [1, 2, 6, 6], custom, capsys)
    theirs = _flops(ref_flops, build, [1, 2, 6, 6], custom, capsys)
    assert ours[:2] == theirs[:2]
    from pagaie.hapi import dynamic_flops
    ref_mod = __import__("paddle.hapi.dynamic_flops", fromlist=["x"])
    names = {n for n in vars(ref_mod) if n.startswith("count_")} | {"register_hooks", "dynamic_flops",
                                                                     "flops"}
    assert all(hasattr(dynamic_flops, n) for n in names)
    assert dynamic_flops.flops is pagaie.flops
    assert sorted(c.__name__ for c in dynamic_flops.register_hooks) == \
        sorted(c.__name__ for c in ref_mod.register_hooks)


def test_dynamic_flops_direct_call(ref_flops, capsys):
    def run(fw):
        mod = __import__(fw.__name__ + ".hapi.dynamic_flops", fromlist=["x"])
        with fw.utils.unique_name.guard():
            net = fw.nn.Sequential(fw.nn.Linear(4, 3), fw.nn.ReLU())
            capsys.readouterr()
            total = mod.dynamic_flops(net, fw.ones([2, 4]), print_detail=True)
        return total, capsys.readouterr().out
    assert run(pagaie) == run(ref_flops)


def test_flops_cleans_up_after_a_failing_forward():
    net = pagaie.nn.Sequential(pagaie.nn.Linear(3, 2), pagaie.nn.Linear(5, 2))
    net.train()
    with pytest.raises(ValueError):
        pagaie.flops(net, [1, 3])
    assert net.training and list(net.state_dict()) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    assert not net[0]._forward_post_hooks and not net[1]._forward_post_hooks
    assert not net[0]._buffers and not net[1]._buffers
