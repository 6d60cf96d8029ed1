"""Session-12 sweep of ``paddle.jit`` against real Paddle 3.3.1: a ``TranslatedLayer`` (what
``jit.load`` returns) called while a program is traced, so that a loaded model can be saved
again and used as a sublayer of a ``to_static`` Layer that is saved in turn; and the errors of
``to_static`` functions and ``jit.load`` in static graph mode.

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

X = np.random.RandomState(0).rand(3, 4).astype("float32") - 0.3
W = np.linspace(-1, 1, 16).reshape(4, 4).astype("float32")


def _net(fw):
    """A Linear followed by a tensor-dependent ``if`` (its program has sub-blocks)."""
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(4, 4)

        def forward(self, x):
            h = self.fc(x)
            if h.mean() > 0:
                h = h * 2
            else:
                h = h - 1
            return h, h.sum()

    net = Net()
    net.fc.weight.set_value(fw.to_tensor(W))
    net.fc.bias.set_value(fw.to_tensor(np.full([4], 0.1, "float32")))
    return net


def _spec(fw):
    return [fw.static.InputSpec([None, 4], "float32", "x")]


def _no_fallback(fn, *args):
    """``fn(*args)``, checking that no to_static call fell back to eager execution."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args)
    assert [str(w.message) for w in caught if "paddle.jit.to_static" in str(w.message)] == []
    return out


def test_a_loaded_layer_is_saved_again(tmp_path):
    """Paddle's jit.save takes a TranslatedLayer (with input_spec): load, fine-tune, save again."""
    def run(fw):
        path = os.path.join(str(tmp_path), fw.__name__)
        fw.jit.save(_net(fw), path + "_a", input_spec=_spec(fw))
        loaded = fw.jit.load(path + "_a")
        loaded.train()
        opt = fw.optimizer.SGD(0.1, parameters=loaded.parameters())
        out = loaded(fw.to_tensor(X))
        out[0].mean().backward()
        opt.step()
        fw.jit.save(loaded, path + "_b", input_spec=_spec(fw))
        again = fw.jit.load(path + "_b")
        return [again(fw.to_tensor(X * s)) for s in (1.0, -1.0)]

    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_a_layer_holding_a_loaded_layer_is_traced_and_saved(tmp_path):
    """A to_static Layer with a TranslatedLayer sublayer runs as one program and saves (Paddle)."""
    def run(fw):
        path = os.path.join(str(tmp_path), fw.__name__)
        fw.jit.save(_net(fw), path + "_inner", input_spec=_spec(fw))

        class Wrap(fw.nn.Layer):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner
                self.fc = fw.nn.Linear(4, 1)

            def forward(self, x):
                h, s = self.inner(x)
                return self.fc(h) + s

        wrap = Wrap(fw.jit.load(path + "_inner"))
        wrap.fc.weight.set_value(fw.to_tensor(np.ones((4, 1), "float32")))
        wrap.eval()
        st = fw.jit.to_static(wrap, input_spec=_spec(fw), full_graph=True)
        outs = [_no_fallback(st, fw.to_tensor(X * s)) for s in (1.0, -1.0)]
        fw.jit.save(st, path + "_outer")
        loaded = fw.jit.load(path + "_outer")
        return outs + [loaded(fw.to_tensor(X * s)) for s in (1.0, -1.0)]

    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_a_loaded_layer_called_twice_in_one_trace(tmp_path):
    """Each call of a loaded layer inside a to_static function gives the eager result."""
    path = os.path.join(str(tmp_path), "m")
    pagaie.jit.save(_net(pagaie), path, input_spec=_spec(pagaie))
    inner = pagaie.jit.load(path)

    def twice(x):
        y = inner(x)[0]
        if y.sum() > 0:
            y = inner(y)[0]
        return inner(-y)[0]

    f = pagaie.jit.to_static(twice, full_graph=True)
    ref = paddle_ref()
    ref.jit.save(_net(ref), path + "_ref", input_spec=_spec(ref))
    theirs_inner = ref.jit.load(path + "_ref")

    def theirs(x):  # eagerly: Paddle's AST mode fails to run this program (Cannot find ... in scope)
        y = theirs_inner(x)[0]
        if float(y.sum()) > 0:
            y = theirs_inner(y)[0]
        return theirs_inner(-y)[0]

    for s in (1.0, -1.0):
        assert_same(_no_fallback(f, pagaie.to_tensor(X * s)), theirs(ref.to_tensor(X * s)))


def _doubled(x):
    return x * 2


@pytest.mark.parametrize("full_graph", [True, False])
def test_calling_a_static_function_in_static_mode_is_runtime_error(full_graph):
    """Paddle raises RuntimeError: a to_static function runs in dynamic mode only."""
    def run(fw):
        f = fw.jit.to_static(_doubled, full_graph=full_graph)
        fw.enable_static()
        try:
            with fw.static.program_guard(fw.static.Program(), fw.static.Program()):
                f(fw.static.data("x", [2], "float32"))
        finally:
            fw.disable_static()

    same_exception(run)


def test_a_static_layer_in_static_mode_is_runtime_error_but_its_program_is_available():
    """Paddle: calling the Layer raises RuntimeError; concrete_program still traces its spec."""
    def run(fw):
        st = fw.jit.to_static(fw.nn.Linear(4, 2), input_spec=_spec(fw), full_graph=True)
        fw.enable_static()
        try:
            cp = st.forward.concrete_program
            shapes = [list(v.shape) for v in cp.outputs]
            with pytest.raises(RuntimeError):
                st(fw.static.data("y", [3, 4], "float32"))
        finally:
            fw.disable_static()
        return shapes

    ours, theirs = both(run)
    assert ours == theirs == [[-1, 2]]


def test_jit_load_in_static_mode_is_assertion_error(tmp_path):
    """Paddle's jit.load works in dynamic mode only: AssertionError in static mode."""
    def run(fw):
        path = os.path.join(str(tmp_path), fw.__name__)
        fw.jit.save(fw.nn.Linear(4, 2), path, input_spec=_spec(fw))
        fw.enable_static()
        try:
            fw.jit.load(path)
        finally:
            fw.disable_static()

    same_exception(run)


def _from_dict(d):
    return d["a"] * 2 + d["b"]


def test_jit_save_of_a_function_with_a_dict_input_spec(tmp_path):
    """Paddle traces a dict of InputSpecs; the loaded layer takes the tensors in key order."""
    def run(fw):
        spec = [{"a": fw.static.InputSpec([None, 4], "float32", "a"),
                 "b": fw.static.InputSpec([None, 4], "float32", "b")}]
        f = fw.jit.to_static(_from_dict, input_spec=spec, full_graph=True)
        shapes = [list(v.shape) for v in f.concrete_program.outputs]
        path = os.path.join(str(tmp_path), fw.__name__)
        fw.jit.save(f, path)
        loaded = fw.jit.load(path)
        names = [s.name for s in loaded._input_spec()]
        return shapes, names, loaded(fw.to_tensor(X), fw.to_tensor(-X[:, ::-1].copy()))

    ours, theirs = both(run)
    assert ours[:2] == theirs[:2] == ([[-1, 4]], ["a", "b"])
    assert_same(ours[2], theirs[2])


def _three(x, y):
    # (not ``y + 1``: Paddle 3.3.1 saves that output as ``y`` itself)
    return x * 2, y - x, x + y


def _saved_outputs(fw, path, output_spec):
    spec = [fw.static.InputSpec([2], "float32", "x"), fw.static.InputSpec([2], "float32", "y")]
    fw.jit.save(fw.jit.to_static(_three, input_spec=spec, full_graph=True), path,
                output_spec=output_spec)
    out = fw.jit.load(path)(fw.to_tensor([1.0, 2.0]), fw.to_tensor([3.0, 4.0]))
    return list(out) if isinstance(out, (list, tuple)) else [out]


@pytest.mark.parametrize("output_spec", [[2], [2, 0], [-1], None])
def test_jit_save_output_spec_picks_outputs_by_position(tmp_path, output_spec):
    """Paddle keeps the outputs output_spec names by position (all when it lists as many)."""
    ours, theirs = both(lambda fw: _saved_outputs(fw, os.path.join(str(tmp_path), fw.__name__),
                                                  output_spec))
    assert_same(ours, theirs)


@pytest.mark.parametrize("output_spec", [[5], "tensor"])
def test_jit_save_bad_output_spec_is_value_error(tmp_path, output_spec):
    """A position past the outputs, or an eager Tensor (not a program value): ValueError."""
    def run(fw):
        spec = [fw.to_tensor([1.0])] if output_spec == "tensor" else output_spec
        _saved_outputs(fw, os.path.join(str(tmp_path), fw.__name__), spec)

    same_exception(run)


def _ignores_y(x, y):
    return x * 2


def test_jit_save_of_an_input_the_outputs_do_not_use_is_value_error(tmp_path):
    """Paddle refuses to save a program with a feed that no output depends on."""
    def run(fw):
        spec = [fw.static.InputSpec([2], "float32", "x"), fw.static.InputSpec([2], "float32", "y")]
        f = fw.jit.to_static(_ignores_y, input_spec=spec, full_graph=True)
        fw.jit.save(f, os.path.join(str(tmp_path), fw.__name__))

    same_exception(run)
