"""``paddle.jit.to_static`` on Python constructs against real Paddle 3.3.1, cases after
Paddle's dygraph-to-static tests: ``and`` / ``or`` on tensors in the default mode, and what
``jit.load`` gives back for converted models (output order of dicts, stop_gradient).

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from tests.reference import both_same, both_static, same_exception


# ---- `and` / `or` keep Python's meaning in the default mode ---------------------------------
def _and_value(x):
    y = (x.sum() > 0) and x * 2
    return y


def _and_number(x):
    y = x.sum() and 3
    return y


def test_and_gives_right_operand_value():
    # `a and b` is b (a float tensor) when a holds true, not a logical_and of the two
    def run(fw):
        f = fw.jit.to_static(_and_value)
        return [f(fw.to_tensor([1.0, 2.0])), f(fw.to_tensor([-1.0, 2.0]))]
    both_same(run)


def test_and_with_python_number():
    def run(fw):
        f = fw.jit.to_static(_and_number)
        return [f(fw.to_tensor([1.0, 2.0])), f(fw.to_tensor([-1.0, 2.0]))]
    both_same(run)


def test_and_full_graph_stays_logical_and():
    def run(fw):
        f = fw.jit.to_static(_and_value, full_graph=True)
        return [f(fw.to_tensor([1.0, 2.0])), f(fw.to_tensor([-3.0, 2.0]))]
    both_same(run)


# ---- jit.save / jit.load of converted models -------------------------------------------------
def _saved(fw, tmp_path, forward, tag, spec_kwargs=None):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(3, 2)
            self.fc.weight.set_value(np.ones((3, 2), 'float32'))

        def forward(self, x):
            return forward(fw, self, x)

    net = Net()
    net.eval()
    spec = fw.static.InputSpec([None, 3], 'float32', **(spec_kwargs or {}))
    path = os.path.join(str(tmp_path), f"{fw.__name__}_{tag}")
    fw.jit.save(fw.jit.to_static(net, input_spec=[spec]), path)
    return fw.jit.load(path)


def _dict_out(fw, net, x):
    return {"b": net.fc(x), "a": x * 4, "c": x.argmax(-1)}


def _nested_dict_out(fw, net, x):
    return [x * 4, {"z": x * 2, "y": x * 5}], x * 3


def test_loaded_dict_outputs_in_sorted_key_order(tmp_path):
    # the saved program's outputs are the dict's values by sorted key
    def run(fw):
        out = _saved(fw, tmp_path, _dict_out, "dict")(fw.ones([4, 3]))
        return [type(out).__name__, *out]
    both_same(run)


def test_loaded_nested_dict_outputs(tmp_path):
    def run(fw):
        return list(_saved(fw, tmp_path, _nested_dict_out, "nested")(fw.ones([2, 3])))
    both_same(run)


def test_to_static_dict_output_keeps_key_order():
    def run(fw):
        out = fw.jit.to_static(lambda x: {"b": x * 2, "a": x * 3})(fw.ones([2]))
        return [list(out), *out.values()]
    both_same(run)


def _many_outputs(fw, net, x):
    return (net.fc(x), x * 2, x.argmax(-1), fw.zeros([2]), x > 0, fw.shape(x), x.sum() > 0,
            x.mean(), fw.numel(x), x.astype('int32'), x.detach() * 2, x.shape[0] * x,
            fw.full([1], 3, 'int32'))


def test_loaded_outputs_stop_gradient(tmp_path):
    # a comparison's, a shape's or a constant's output stops gradients, the others do not
    def run(fw):
        outs = _saved(fw, tmp_path, _many_outputs, "sg")(fw.ones([4, 3]))
        return [[o.stop_gradient for o in outs], *outs]
    both_same(run)


def test_loaded_outputs_stop_gradient_train_mode(tmp_path):
    def run(fw):
        layer = _saved(fw, tmp_path, _many_outputs, "sg_train")
        layer.train()
        x = fw.ones([4, 3])
        x.stop_gradient = False
        return [o.stop_gradient for o in layer(x)]
    both_same(run)


def test_loaded_outputs_stop_gradient_input_spec_stops(tmp_path):
    # InputSpec(stop_gradient=True): every output of the saved program stops gradients
    def run(fw):
        layer = _saved(fw, tmp_path, lambda fw, net, x: (x * 2, x.argmax(-1), x.mean()), "spec_sg",
                       {"stop_gradient": True})
        x = fw.ones([4, 3])
        x.stop_gradient = False
        return [o.stop_gradient for o in layer(x)]
    both_same(run)


# ---- sizes only the data decides, read in Python --------------------------------------------
def test_nonzero_size_read_in_python():
    # the default mode reads the real size on every call (not the -1 a program holds)
    def run(fw):
        @fw.jit.to_static
        def f(x):
            y = fw.nonzero(x)
            return y.shape[0], list(y.shape)
        return [f(fw.to_tensor([1.0, 0.0, 2.0])), f(fw.to_tensor([0.0, 0.0, 3.0]))]
    both_same(run)


def test_tensor_sized_zeros_read_in_python():
    def run(fw):
        @fw.jit.to_static
        def f(x, n):
            y = fw.zeros([n, 2])
            return y.shape[0], y.sum() + x.sum()
        return [f(fw.ones([2]), fw.to_tensor(3)), f(fw.ones([2]), fw.to_tensor(5))]
    both_same(run)


# ---- *args take no positional arguments -----------------------------------------------------
def _star(x, *args):
    return x + sum(args)


@pytest.mark.parametrize("full_graph", [False, True])
@pytest.mark.parametrize("extra", ["tensor", "int"])
def test_star_args_without_input_spec(full_graph, extra):
    # Paddle binds the named parameters only, with or without input_spec
    def run(fw):
        more = fw.ones([2]) if extra == "tensor" else 3
        return fw.jit.to_static(_star, full_graph=full_graph)(fw.ones([2]), more)
    same_exception(run)


def test_star_args_of_layer_forward():
    def run(fw):
        class Net(fw.nn.Layer):
            def forward(self, x, *args):
                return x + len(args)
        return fw.jit.to_static(Net())(fw.ones([2]), 1, 2)
    same_exception(run)


def test_star_args_left_empty():
    both_same(lambda fw: fw.jit.to_static(_star)(fw.ones([2])))


# ---- Tensor.size of a symbolic value ---------------------------------------------------------
def _size_uses(x):
    return x.size, x * x.size


@pytest.mark.parametrize("full_graph", [False, True])
@pytest.mark.parametrize("spec", [False, True])
def test_size_in_converted_function(full_graph, spec):
    # the default mode reads a Python number; full_graph=True (AST mode) the numel op's tensor
    def run(fw):
        specs = [fw.static.InputSpec([None, 3])] if spec else None
        return fw.jit.to_static(_size_uses, full_graph=full_graph, input_spec=specs)(fw.ones([2, 3]))
    both_same(run)


def test_size_in_static_mode():
    # a static Value's size is the numel op's value, also for a known shape
    def run(fw):
        x = fw.static.data("x", [2, 3], "float32")
        s = x.size
        return [type(s).__name__, str(s.dtype), list(s.shape)]
    ours, theirs = both_static(run, fresh_programs=True)
    assert ours == theirs


# ---- functions decorated with a gradient mode ------------------------------------------------
def test_no_grad_decorated_callee():
    # the callee's ops stop gradients, as when it runs eagerly
    def run(fw):
        @fw.no_grad()
        def helper(x):
            return x * 3

        @fw.jit.to_static
        def f(x):
            return helper(x) + x

        x = fw.to_tensor([1.0, 2.0])
        x.stop_gradient = False
        out = f(x)
        out.sum().backward()
        return [out, x.grad]
    both_same(run)


def test_no_grad_decorated_converted_function():
    def run(fw):
        @fw.jit.to_static
        @fw.no_grad()
        def f(x):
            return x * 3

        x = fw.to_tensor([1.0, 2.0])
        x.stop_gradient = False
        out = f(x)
        return [out, out.stop_gradient]
    both_same(run)


def test_no_grad_decorated_layer_method():
    def run(fw):
        class Net(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = fw.nn.Linear(2, 2)

            @fw.no_grad()
            def stats(self, x):
                return self.fc(x).mean()

            def forward(self, x):
                return self.fc(x) + self.stats(x)

        net = fw.jit.to_static(Net())
        net(fw.ones([1, 2])).sum().backward()
        return [net.fc.bias.grad]
    both_same(run)


# ---- unknown sizes (InputSpec None) read in Python with full_graph=True ----------------------
def _first_size(x):
    return x.shape[0]


def _sizes_sum(x):
    return x.reshape([x.shape[0], 3, 1]), x.shape[0] + x.shape[1]


def _length(x):
    return len(x)


def _rows_loop(x):
    s = 0
    for i in range(x.shape[0]):
        s = s + x[i].sum()
    return s


@pytest.mark.parametrize("fn", [_first_size, _sizes_sum, _length, _rows_loop])
@pytest.mark.parametrize("full_graph", [False, True])
def test_unknown_size_read_in_python(fn, full_graph):
    # AST mode reads an unknown size as the shape op's tensor; the default mode as a number
    def run(fw):
        spec = [fw.static.InputSpec([None, 3])]
        f = fw.jit.to_static(fn, input_spec=spec, full_graph=full_graph)
        return [f(fw.ones([4, 3])), f(fw.ones([2, 3]))]
    both_same(run)
