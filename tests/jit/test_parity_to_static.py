"""``paddle.jit.to_static`` / ``jit.save`` / ``jit.load`` user-visible behaviour against real
Paddle 3.3.1: sizes an input_spec leaves unknown, numpy arguments, concrete_program,
too many InputSpecs, runtime errors and TranslatedLayer specs."""
from __future__ import annotations

import os

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref, same_exception


def _both(fn):
    ref = paddle_ref()
    return fn(pagaie), fn(ref)


def _net(fw):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(3, 2)

        def forward(self, x):
            return fw.nn.functional.relu(self.fc(x))

    net = Net()
    net.fc.weight.set_value(fw.to_tensor(np.arange(6, dtype="float32").reshape(3, 2) / 5 - 0.5))
    net.fc.bias.set_value(fw.to_tensor(np.array([0.1, -0.2], "float32")))
    return net


def test_unknown_spec_sizes_read_in_python_get_real_values():
    def run(fw):
        spec = [fw.static.InputSpec([None, 3], "float32")]

        def f(x):
            return x.sum() / x.shape[0], fw.zeros([x.shape[0], 2]) + 1

        g = fw.jit.to_static(f, input_spec=spec)
        return [g(fw.ones([4, 3])), g(fw.ones([2, 3]))]
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_lstm_with_unknown_batch_in_input_spec():
    def run(fw):
        fw.seed(0)
        lstm = fw.nn.LSTM(3, 4)
        for p in lstm.parameters():
            p.set_value(fw.full(p.shape, 0.1))
        f = fw.jit.to_static(lstm, input_spec=[fw.static.InputSpec([None, 5, 3], "float32")])
        out, (h, c) = f(fw.ones([2, 5, 3]))
        return [out, h, c]
    ours, theirs = _both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


def test_spec_batch_sizes_share_one_program_when_sizes_are_not_read():
    net = _net(pagaie)
    f = pagaie.jit.to_static(net, input_spec=[pagaie.static.InputSpec([None, 3], "float32")],
                              full_graph=True)
    for b in (1, 3, 5):
        f(pagaie.ones([b, 3]))
    assert len(f.forward.program_cache) == 1


def test_numpy_arguments_are_fed_as_tensors():
    def run(fw):
        @fw.jit.to_static(full_graph=True)
        def f(x):
            return x + 1
        out = f(np.ones([2], "float32"))
        return type(out).__name__ == "Tensor", out
    (ot, ours), (tt, theirs) = _both(run)
    assert ot and tt
    assert_same(ours, theirs)


def test_concrete_program_from_input_spec():
    def run(fw):
        net = _net(fw)
        f = fw.jit.to_static(net, input_spec=[fw.static.InputSpec([None, 3], "float32", "x")],
                             full_graph=True)
        cp = f.forward.concrete_program
        return [list(v.shape) for v in cp.inputs], [list(v.shape) for v in cp.outputs]
    ours = run(pagaie)
    assert ours == ([[-1, 3]], [[-1, 2]])
    nets = []

    def no_spec(fw):
        nets.append(fw.jit.to_static(_net(fw), full_graph=True))  # (kept alive: Paddle holds a weakref)
        return nets[-1].forward.concrete_program
    same_exception(no_spec)


def test_more_input_specs_than_arguments():
    def run(fw):
        spec = [fw.static.InputSpec([2], "float32"), fw.static.InputSpec([2], "float32")]
        def plus_one(x):
            return x + 1
        return fw.jit.to_static(plus_one, input_spec=spec)(fw.ones([2]))
    same_exception(run)


def test_shape_error_while_running_is_value_error(tmp_path):
    def run(fw):
        net = _net(fw)
        net.eval()
        path = os.path.join(str(tmp_path), f"m_{fw.__name__}")
        fw.jit.save(net, path, input_spec=[fw.static.InputSpec([None, 3], "float32", "x")])
        return fw.jit.load(path)(fw.ones([2, 4]))
    same_exception(run)


def test_translated_layer_specs(tmp_path):
    def run(fw):
        net = _net(fw)
        net.eval()
        path = os.path.join(str(tmp_path), f"s_{fw.__name__}")
        fw.jit.save(net, path, input_spec=[fw.static.InputSpec([None, 3], "float32", "x")])
        loaded = fw.jit.load(path)
        return repr(loaded._input_spec()), repr(loaded._output_spec()), \
            loaded(fw.to_tensor(np.arange(6, dtype="float32").reshape(2, 3)))
    (a, b, out), (pa, pb, pout) = _both(run)
    assert (a, b) == (pa, pb)
    assert_same(out, pout)


@pytest.mark.parametrize("full_graph", [False, True])
def test_setitem_inside_to_static(full_graph):
    def run(fw):
        def f(x):
            y = x * 1
            y[0] = 5.0
            return y + 1
        return fw.jit.to_static(f, full_graph=full_graph)(fw.ones([2, 3]))
    ours, theirs = _both(run)
    assert_same(ours, theirs)


def test_jit_save_of_a_function_without_parameters(tmp_path):
    def run(fw):
        d = tmp_path / fw.__name__
        def double_plus_one(x):
            return x * 2 + 1
        f = fw.jit.to_static(double_plus_one, input_spec=[fw.static.InputSpec([None, 3], "float32")])
        fw.jit.save(f, str(d / "f"))
        return sorted(p.name for p in d.iterdir()), fw.jit.load(str(d / "f"))(fw.ones([2, 3]))
    (files, out), (pfiles, pout) = _both(run)
    assert files == pfiles
    assert_same(out, pout)
