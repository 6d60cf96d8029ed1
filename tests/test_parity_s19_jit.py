"""Session-19 sweep of ``paddle.jit`` and ``paddle.inference`` against real Paddle 3.3.1:
TranslatedLayer gradients and stop_gradient by mode, loaded parameter names, predictors over
models without parameters, and ``to_static`` conversion semantics.

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")

X = np.random.RandomState(0).rand(2, 4).astype("float32") - 0.3
W = np.linspace(-1, 1, 12).reshape(4, 3).astype("float32")


def _spec(fw, shape=(None, 4), dtype="float32"):
    return [fw.static.InputSpec(list(shape), dtype)]


def _saved_linear(fw, path):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(4, 3)

        def forward(self, x):
            y = self.fc(x)
            return y, y.argmax(-1)

    net = Net()
    net.fc.weight.set_value(fw.to_tensor(W))
    fw.jit.save(net, path, input_spec=_spec(fw))
    return fw.jit.load(path)


@pytest.mark.parametrize("mode", ["train", "eval"])
def test_translated_layer_gradients_by_mode(tmp_path, mode):
    """Eval mode runs the inference program: no gradient reaches the parameters or the
    inputs, yet every output says stop_gradient=False (integer ones too)."""
    def f(fw):
        loaded = _saved_linear(fw, str(tmp_path / fw.__name__ / "m"))
        getattr(loaded, mode)()
        x = fw.to_tensor(X)
        x.stop_gradient = False
        y, idx = loaded(x)
        (y * x[:, :3]).sum().backward()
        with fw.no_grad():
            ng = loaded(x)[0].stop_gradient
        return (y, x.grad, [p.grad for p in loaded.parameters()], y.stop_gradient,
                idx.stop_gradient, ng, loaded.training)
    assert_same(*both(f))


def test_translated_layer_starts_in_eval_without_gradients(tmp_path):
    def f(fw):
        loaded = _saved_linear(fw, str(tmp_path / fw.__name__ / "m"))
        loaded(fw.to_tensor(X))[0].sum().backward()
        return loaded.training, [p.grad is None for p in loaded.parameters()]
    assert_same(*both(f))


def test_loaded_parameter_names_are_unique_names(tmp_path):
    def f(fw):
        with fw.utils.unique_name.guard():   # the same counters in both, whatever ran before
            a = _saved_linear(fw, str(tmp_path / fw.__name__ / "m"))
            b = fw.jit.load(str(tmp_path / fw.__name__ / "m"))
        return ([p.name.rsplit("_", 1)[0] for p in a.parameters()],
                [int(p.name.rsplit("_", 1)[1]) + 1 == int(q.name.rsplit("_", 1)[1])
                 for p, q in zip(a.parameters(), b.parameters())])
    assert_same(*both(f))


def test_translated_layer_without_parameters_outputs_need_gradients(tmp_path):
    def f(fw):
        class N(fw.nn.Layer):
            def forward(self, x):
                return x * 2
        path = str(tmp_path / fw.__name__ / "n")
        fw.jit.save(N(), path, input_spec=_spec(fw))
        loaded = fw.jit.load(path)
        out = [loaded(fw.to_tensor(X)).stop_gradient]
        loaded.train()
        return out + [loaded(fw.to_tensor(X)).stop_gradient]
    assert_same(*both(f))


@pytest.mark.parametrize("params", ["missing", "empty"])
def test_predictor_runs_a_model_without_parameter_file(tmp_path, params):
    def f(fw):
        class N(fw.nn.Layer):
            def forward(self, x):
                return fw.nn.functional.relu(x) * 2 + 1
        path = str(tmp_path / fw.__name__ / "n")
        fw.jit.save(N(), path, input_spec=_spec(fw))
        assert not os.path.exists(path + ".pdiparams")
        cfg = fw.inference.Config(path + ".json", path + ".pdiparams" if params == "missing" else "")
        pred = fw.inference.create_predictor(cfg)
        pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(X)
        pred.run()
        return pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()
    assert_same(*both(f))


@pytest.mark.parametrize("full_graph", [True, False])
def test_saved_shape_equality_branches_on_the_fed_size(tmp_path, full_graph):
    """``x.shape[0] == n`` / ``!= n`` of a size the InputSpec leaves unknown is the shape op's
    comparison in the saved program, not -1's."""
    def f(fw):
        class M(fw.nn.Layer):
            def forward(self, x):
                if x.shape[0] == 2:
                    y = x + 1
                else:
                    y = x - 1
                if x.shape[0] != 3:
                    y = y * 10
                return y
        path = str(tmp_path / fw.__name__ / "m")
        m = fw.jit.to_static(M(), full_graph=full_graph, input_spec=_spec(fw, (None, 3)))
        fw.jit.save(m, path)
        loaded = fw.jit.load(path)
        return [loaded(fw.ones([n, 3])) for n in (2, 3, 4)] + [m(fw.ones([n, 3])) for n in (2, 3, 4)]
    assert_same(*both(f))


@pytest.mark.parametrize("attr", ["concrete_program", "main_program", "inputs", "outputs",
                                  "program_cache", "code", "get_concrete_program",
                                  "concrete_program_specify_input_spec"])
@pytest.mark.parametrize("spec", [False, True])
def test_default_mode_keeps_no_inspectable_program(attr, spec):
    def f(fw):
        g = fw.jit.to_static(_double, input_spec=_spec(fw, (None, 3)) if spec else None)
        g(fw.ones([2, 3]))
        v = getattr(g, attr)
        return v(fw.ones([2, 3])) if attr == "get_concrete_program" else v() if callable(v) else v
    same_exception(f)


def _double(x):
    return x * 2


def test_full_graph_keeps_an_inspectable_program_and_default_mode_saves(tmp_path):
    def f(fw):
        g = fw.jit.to_static(_double, full_graph=True, input_spec=_spec(fw, (None, 3)))
        g(fw.ones([2, 3]))
        path = str(tmp_path / fw.__name__ / "f")
        fw.jit.save(fw.jit.to_static(_double, input_spec=_spec(fw, (None, 3))), path)
        return [list(v.shape) for v in g.inputs], fw.jit.load(path)(fw.ones([2, 3]))
    assert_same(*both(f))


def _pass_through(x, y):
    return x, y + 1, [x, {"a": y}]


def _add_in_place(x):
    x.add_(x * 0 + 1)
    return x


@pytest.mark.parametrize("full_graph", [False, True])
def test_returned_inputs_are_the_callers_tensors_in_default_mode(full_graph):
    def f(fw):
        x, y = fw.ones([3]), fw.ones([3])
        y.stop_gradient = False
        g = fw.jit.to_static(_pass_through, full_graph=full_graph)
        res = []
        for _ in range(2):
            a, b, (c, d) = g(x, y)
            res += [a is x, c is x, d["a"] is y, b.stop_gradient]
        if not full_graph:  # Paddle's AST mode drops the in-place write of an input
            h = fw.jit.to_static(_add_in_place, full_graph=full_graph)
            r = h(x)
            res += [h(x) is x, r is x, x]
        return res
    assert_same(*both(f))


@pytest.mark.parametrize("strategy", ["x", 1, None, {}, "build"])
def test_build_strategy_type(strategy):
    def f(fw):
        s = fw.static.BuildStrategy() if strategy == "build" else strategy
        return fw.jit.to_static(_double, build_strategy=s)(fw.ones([2]))
    if strategy in ("x", 1):
        same_exception(f)
    else:
        assert_same(*both(f))


def _star(x, *args):
    return x + sum(args)


@pytest.mark.parametrize("full_graph", [False, True])
def test_star_args_take_no_spec_tensors(full_graph):
    def f(fw):
        spec = [fw.static.InputSpec([2]), fw.static.InputSpec([2])]
        return fw.jit.to_static(_star, input_spec=spec, full_graph=full_graph)(fw.ones([2]), fw.ones([2]))
    same_exception(f)


@pytest.mark.parametrize("dtype", ["np_type", "np_dtype", "name", "none"])
def test_input_spec_keeps_numpy_scalar_types(tmp_path, dtype):
    def f(fw):
        d = {"np_type": np.float32, "np_dtype": np.dtype("float32"), "name": "float32",
             "none": None}[dtype]
        s = fw.static.InputSpec([None, 3], d, "x")
        res = [str(s.dtype), repr(s), s == fw.static.InputSpec([None, 3], "float32", "x")]
        if d is None:  # Paddle cannot build a program input of it
            return res
        path = str(tmp_path / fw.__name__ / "m")
        fw.jit.save(fw.nn.Linear(3, 2), path, input_spec=[s])
        return res + [fw.jit.load(path)(fw.ones([2, 3])).shape]
    assert_same(*both(f))


def test_save_writes_the_layers_other_to_static_methods(tmp_path):
    def f(fw):
        spec = [fw.static.InputSpec([None, 4], "float32")]

        class M(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = fw.nn.Linear(4, 3)

            @fw.jit.to_static(input_spec=spec)
            def forward(self, x):
                return self.fc(x)

            @fw.jit.to_static(input_spec=spec)
            def double(self, x):
                return self.fc(x) * 2

        m = M()
        m.fc.weight.set_value(fw.to_tensor(W))
        d = tmp_path / fw.__name__
        fw.jit.save(m, str(d / "m"))
        loaded = fw.jit.load(str(d / "m"))
        x = fw.to_tensor(X)
        return sorted(os.listdir(d)), loaded.double(x), loaded(x), len(loaded.parameters())
    assert_same(*both(f))


_CALLS = []


def _appends(x):
    _CALLS.append(1)
    return x * len(_CALLS)


@pytest.mark.parametrize("full_graph", [False, True])
def test_python_side_effects_run_per_call_in_default_mode(full_graph):
    """Paddle's default mode runs a function's Python side effects (container mutations,
    attribute stores) on every call; its AST mode (full_graph=True) once, while tracing."""
    def f(fw):
        class L(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.calls = 0
                self.log = []

            def forward(self, x):
                self.calls += 1
                self.log.append(x.shape[0])
                return x * 2

        _CALLS.clear()
        g = fw.jit.to_static(_appends, full_graph=full_graph)
        outs = [g(fw.ones([1])) for _ in range(3)]
        m = fw.jit.to_static(L(), full_graph=full_graph)
        outs += [m(fw.ones([2])) for _ in range(3)]
        return outs, len(_CALLS), m.calls, m.log
    assert_same(*both(f))


def _count_down(x):
    n = 0
    s = 0.5
    while x.sum() > 0:
        x = x - 1
        n += 1
        s = s * 2
    return x, n, s


def _pick(x):
    if x.sum() > 0:
        n = 1
    else:
        n = 2
    return x, n


def test_default_mode_keeps_python_numbers_decided_by_tensor_conditions():
    """Paddle's default mode evaluates a tensor condition, so a Python number it decides
    stays a Python number (AST mode, full_graph=True, makes it a tensor)."""
    def f(fw):
        res = []
        for fn in (_count_down, _pick):
            for v in (3.0, -1.0):
                out = fw.jit.to_static(fn)(fw.to_tensor([v]))
                res.append([type(o).__name__ for o in out[1:]] + list(out))
        out = fw.jit.to_static(_pick, full_graph=True)(fw.to_tensor([3.0]))
        res.append([type(out[1]).__name__, str(out[1].dtype)])
        return res
    assert_same(*both(f))


def test_pass_builder_lists_paddles_pass_names():
    def f(fw):
        c = fw.inference.Config()  # (Paddle's builder lives in its config)
        b = c.pass_builder()
        before = b.all_passes()
        b.delete_pass("conv_bn_fuse_pass")
        return type(b).__name__, before, b.all_passes()
    assert_same(*both(f))
    config = __import__("pagaie").inference.Config()
    config.pass_builder().delete_pass("conv_bn_fuse_pass")  # Paddle's name switches pagaie's pass off
    assert "fold_conv_bn" not in config.passes_to_run() and "constant_folding" in config.passes_to_run()


def _float_branch(x):
    if x.sum() > 0:
        s = 1.5
    else:
        s = 2.5
    return x, s


def _float_loop(x):
    s = 0.5
    i = 0
    while x.sum() > 0:
        x = x - 1
        s = s + 1
        i = i + 1
    return x, s, i


@pytest.mark.parametrize("fn", [_float_branch, _float_loop])
def test_full_graph_makes_python_floats_float64(fn):
    assert_same(*both(lambda fw: fw.jit.to_static(fn, full_graph=True)(fw.to_tensor([2.0]))))
