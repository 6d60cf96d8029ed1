"""Session-26 sweep of ``paddle.jit`` against real Paddle 3.3.1: ``jit.save`` / ``jit.load``
argument checks and configs, TranslatedLayer inputs, and prints / asserts inside tensor
branches and loops of ``to_static`` functions.

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

paddle = pytest.importorskip("paddle")


def _spec(fw, shape=(None, 4)):
    return [fw.static.InputSpec(list(shape), "float32")]


def _net(fw, other: bool = False):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(4, 3)

        def forward(self, x):
            return self.fc(x)

    class WithOther(Net):
        @fw.jit.to_static(input_spec=_spec(fw))
        def other(self, x):
            return self.fc(x) * 2

    return WithOther() if other else Net()


def _double(x):
    return x * 2


def _files(path):
    d, base = os.path.split(path)
    return sorted(f for f in os.listdir(d) if f.startswith(base + "."))


# ---- jit.save: what it refuses ---------------------------------------------------------------
def test_save_refuses_while_to_static_is_off(tmp_path):
    def f(fw):
        fw.jit.enable_to_static(False)
        try:
            fw.jit.save(_net(fw), str(tmp_path / fw.__name__ / "m"), _spec(fw))
        finally:
            fw.jit.enable_to_static(True)
    same_exception(f)


class _Callable:
    def __call__(self, x):
        return x + 1


@pytest.mark.parametrize("what", ["bound_method", "callable_object"])
def test_save_refuses_what_is_no_layer_or_function(tmp_path, what):
    def f(fw):
        target = _net(fw).forward if what == "bound_method" else _Callable()
        fw.jit.save(target, str(tmp_path / fw.__name__ / "m"), _spec(fw))
    same_exception(f)


def test_save_refuses_input_spec_with_other_static_methods(tmp_path):
    same_exception(lambda fw: fw.jit.save(_net(fw, other=True), str(tmp_path / fw.__name__ / "m"),
                                          _spec(fw)))


@pytest.mark.parametrize("bad", ["input_spec", "output_spec"])
def test_save_spec_must_be_a_list(tmp_path, bad):
    def f(fw):
        spec = fw.static.InputSpec([None, 4], "float32")
        if bad == "input_spec":
            fw.jit.save(_net(fw), str(tmp_path / fw.__name__ / "m"), spec)
        else:
            fw.jit.save(_net(fw), str(tmp_path / fw.__name__ / "m"), [spec], output_spec=0)
    same_exception(f)


def test_save_warns_for_a_function(tmp_path):
    def f(fw):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fw.jit.save(fw.jit.to_static(_double, input_spec=_spec(fw), full_graph=True),
                        str(tmp_path / fw.__name__ / "f"))
        return any(issubclass(w.category, UserWarning) and "function" in str(w.message)
                   for w in caught)
    assert_same(*both(f))


def test_save_skip_forward(tmp_path):
    """skip_forward leaves out a forward that to_static did not convert; the Layer's other
    to_static methods are still saved."""
    def f(fw):
        plain, other = str(tmp_path / fw.__name__ / "p"), str(tmp_path / fw.__name__ / "o")
        fw.jit.save(_net(fw), plain, _spec(fw), skip_forward=True)
        os.makedirs(os.path.dirname(plain), exist_ok=True)
        fw.jit.save(_net(fw, other=True), other, skip_forward=True)
        return _files(plain), _files(other)
    ours, theirs = both(f)
    assert ours == theirs
    assert ours[0] == [] and "o.other.json" in ours[1]


# ---- jit.load: configs and the TranslatedLayer's inputs -------------------------------------
def test_load_refuses_unknown_config(tmp_path):
    def f(fw):
        path = str(tmp_path / fw.__name__ / "m")
        fw.jit.save(_net(fw), path, _spec(fw))
        fw.jit.load(path, bogus=1)
    same_exception(f)


def test_load_ignores_file_names_for_a_saved_prefix(tmp_path):
    def f(fw):
        path = str(tmp_path / fw.__name__ / "m")
        fw.jit.save(_net(fw), path, _spec(fw))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loaded = fw.jit.load(path, model_filename="m.json", params_filename="m.pdiparams")
        n = sum(issubclass(w.category, UserWarning) and "filename" in str(w.message) for w in caught)
        return n, list(loaded(fw.ones([2, 4])).shape)
    assert_same(*both(f))


@pytest.mark.parametrize("bad", [[[1.0, 2.0, 3.0, 4.0]], 1.0])
def test_translated_layer_refuses_inputs_that_are_no_tensors(tmp_path, bad):
    def f(fw):
        path = str(tmp_path / fw.__name__ / "m")
        fw.jit.save(_net(fw), path, _spec(fw))
        fw.jit.load(path)(bad)
    same_exception(f)


# ---- prints and asserts inside tensor branches and loops ------------------------------------
def _print_in_branch(fw):
    def f(x):
        y = x * 2
        if y.sum() > 0:
            print("positive", y)
        else:
            print("not positive")
        return y
    return f


def _print_in_loop(fw):
    def f(x):
        i = fw.zeros([1])
        while i < 2:
            print("step")
            i = i + 1
        return x
    return f


@pytest.mark.parametrize("make", [_print_in_branch, _print_in_loop])
def test_print_in_tensor_control_flow_runs_each_call(capsys, make):
    """A branch or loop body whose only effect is a print still runs (default mode)."""
    outs = []
    for fw in (paddle, pagaie):
        sf = fw.jit.to_static(make(fw))
        capsys.readouterr()
        for v in ([1.0, 2.0], [-1.0, -2.0]):
            sf(fw.to_tensor(v))
        outs.append(capsys.readouterr().out)
    assert outs[1] == outs[0]
    assert outs[0]


@pytest.mark.parametrize("full_graph", [False, True])
@pytest.mark.parametrize("value", [[1.0, 2.0], [-1.0, 5.0], [-3.0, -1.0]])
def test_assert_in_tensor_branch(full_graph, value):
    def f(fw):
        @fw.jit.to_static(full_graph=full_graph)
        def g(x):
            if x.sum() > 0:
                assert x.min() > 0, "negative element"
            return x + 1
        return g(fw.to_tensor(value))
    if value == [-1.0, 5.0]:
        same_exception(f)
    else:
        assert_same(*both(f))


# ---- the default mode reads a tensor's data silently ----------------------------------------
def _reads_numpy(x):
    return x + x.numpy().sum()


def _reads_item(x):
    return x * x.sum().item()


def _reads_float(x):
    return x + float(x.sum())


def _reads_bool(x):
    return x + 1 if bool(x.sum() > 0) else x - 1


@pytest.mark.parametrize("fn", [_reads_numpy, _reads_item, _reads_float, _reads_bool])
def test_default_mode_data_reads_warn_nothing(fn):
    """Paddle's default mode runs these eagerly without a warning; so does pagaie."""
    def f(fw):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fw.jit.to_static(fn)(fw.to_tensor([1.0, 2.0]))
        return out, [str(w.message) for w in caught if "to_static" in str(w.message)]
    assert_same(*both(f))


def test_property_methods_are_no_saved_programs(tmp_path):
    def f(fw):
        class Net(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = fw.nn.Linear(2, 2)

            @fw.jit.to_static(input_spec=[fw.static.InputSpec([None, 2])])
            def forward(self, x):
                return self.fc(x)

            @fw.jit.to_static(property=True)
            def scale(self):
                return 3.5

        net = Net()
        path = str(tmp_path / fw.__name__ / "m")
        value = net.scale()
        fw.jit.save(net, path)
        return value, Net.__dict__["scale"].is_property, Net.__dict__["forward"].is_property, _files(path)
    assert_same(*both(f))


# ---- logging switches ------------------------------------------------------------------------
@pytest.mark.parametrize("api", ["set_verbosity", "set_code_level"])
@pytest.mark.parametrize("args", [(None,), (0, None), (0, 1), (0, "yes"), ("1",)])
def test_logging_switch_arguments(api, args):
    def f(fw):
        try:
            return getattr(fw.jit, api)(*args)
        finally:
            getattr(fw.jit, api)(0)
    if args in ((0, 1), (0, "yes"), ("1",)):
        same_exception(f)
    else:
        assert_same(*both(f))


@pytest.mark.parametrize("wrap", [staticmethod, classmethod])
def test_to_static_refuses_method_descriptors(wrap):
    same_exception(lambda fw: fw.jit.to_static(wrap(_double)))


def test_save_keeps_the_type_of_the_functions_error(tmp_path):
    """A forward that fails on what input_spec gives it: jit.save raises that error's type."""
    def f(fw):
        class Scale(fw.nn.Layer):
            def forward(self, x, k=2):
                return x * k

        fw.jit.save(Scale(), str(tmp_path / fw.__name__ / "m"),
                    [fw.static.InputSpec([None, 2], "float32", "x"), "k"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_exception(f)


@pytest.mark.parametrize("full_graph", [False, True])
def test_input_spec_in_the_default_mode_warns(full_graph):
    def f(fw):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fw.jit.to_static(_double, input_spec=_spec(fw, (None,)),
                                   full_graph=full_graph)(fw.ones([2]))
        return out, sum("input_spec" in str(w.message) for w in caught)
    assert_same(*both(f))


def test_save_converts_as_full_graph_whatever_the_mode(tmp_path, capsys):
    """jit.save converts in Paddle's AST mode: a print runs once, on the symbolic values, and
    a shape reads as a list."""
    outs = []
    for fw in (paddle, pagaie):
        class Net(fw.nn.Layer):
            def forward(self, x):
                print("forward", x.sum(), type(x.shape).__name__)
                return x * 2

        capsys.readouterr()
        fw.jit.save(fw.jit.to_static(Net()), str(tmp_path / fw.__name__ / "m"),
                    [fw.static.InputSpec([None, 2], "float32", "x")])
        outs.append(capsys.readouterr().out)
    assert outs[1] == outs[0]
    assert "list" in outs[0]


@pytest.mark.parametrize("configs", [{"model_filename": 3}, {"params_filename": ""}, "both"])
def test_load_checks_file_names_and_the_path(tmp_path, configs):
    def f(fw):
        path = str(tmp_path / fw.__name__ / "m")
        fw.jit.save(_net(fw), path, _spec(fw))
        if configs == "both":
            os.makedirs(path)
            fw.jit.load(path)
        else:
            fw.jit.load(os.path.dirname(path), **configs)
    same_exception(f)
