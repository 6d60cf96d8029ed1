"""``paddle.jit.to_static`` against real Paddle 3.3.1, cases from Paddle's dygraph-to-static
tests: a converted function's own train/eval mode.

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import numpy as np

import pagaie
from tests.reference import (assert_same, both, both_same, both_static, paddle_ref, same_exception,
                             same_static_exception)


def _for_enumerate(fw):
    def f(x_array):
        y = fw.full([1], 0, 'int32')
        z = fw.full([1], 0, 'int32')
        x_array = fw.to_tensor(x_array)
        for i, x in enumerate(x_array):
            y = y + i
            z = z + x
        return y, z
    return f


def test_function_train_eval_switch():
    # a converted function has its own mode: eval() and train() switch it and return None
    def run(fw):
        sf = fw.jit.to_static(_for_enumerate(fw))
        x = np.array([1, 2, 3, 4, 5])
        first = sf(x)
        modes = [sf.eval(), sf.train()]
        sf.eval()
        again = sf(x)
        return [*first, *again, modes]
    both_same(run)


def _layer(fw):
    class Net(fw.nn.Layer):
        def forward(self, x):
            return x * 2
    return fw.jit.to_static(Net())


def test_layer_method_eval_while_layer_trains():
    # a Layer's forward follows the Layer: switching it alone is Paddle's RuntimeError
    def run(fw):
        net = _layer(fw)
        net.forward.eval()
    same_exception(run)


def test_layer_method_train_while_layer_evaluates():
    def run(fw):
        net = _layer(fw)
        net.eval()
        net.forward.train()
    same_exception(run)


def test_layer_method_switch_matching_mode():
    def run(fw):
        net = _layer(fw)
        net.forward.train()
        net.eval()
        net.forward.eval()
        return net(fw.to_tensor([1.0, 2.0]))
    both_same(run)


class _Plain:
    def func(self, x):
        return x + 1


def test_method_of_non_layer_class():
    # only a Layer's methods convert: Paddle's TypeError, with or without input_spec
    def run(fw):
        obj = _Plain()
        fw.jit.to_static(obj.func, input_spec=[fw.static.InputSpec([1])])
    same_exception(run)
    same_exception(lambda fw: fw.jit.to_static(_Plain().func))


def test_decorated_method_of_non_layer_class():
    def run(fw):
        class C:
            @fw.jit.to_static
            def func(self, x):
                return x + 1
        c = C()
        return c.func(fw.ones([1]))
    same_exception(run)


def test_converted_method_of_deleted_layer():
    # ``to_static(layer.forward)`` holds the Layer weakly: Paddle's RuntimeError once it is gone
    def run(fw):
        class L(fw.nn.Layer):
            def forward(self, x):
                return x + 1
        f = fw.jit.to_static(L().forward)
        return f(fw.ones([1]))
    same_exception(run)


def _spec_fn(fw):
    def f(x, a=1):
        return x + a
    return fw.jit.to_static(f, input_spec=[fw.static.InputSpec([None, 3])])


def test_input_spec_with_unknown_keyword():
    # keyword arguments that name no parameter cannot be traced with input_spec: ValueError
    same_exception(lambda fw: _spec_fn(fw)(fw.ones([2, 3]), b=2))


def test_input_spec_with_parameter_keyword():
    both_same(lambda fw: _spec_fn(fw)(fw.ones([2, 3]), a=2))


def test_input_spec_with_kwargs_layer():
    def run(fw):
        class Net(fw.nn.Layer):
            @fw.jit.to_static(input_spec=[fw.static.InputSpec([None, 3])], full_graph=True)
            def forward(self, x, a=1, **kw):
                return x + a
        net = Net()
        return net(fw.ones([2, 3]), a=1, other_kwarg=2)
    same_exception(run)


def _spec_names(fw):
    spec = fw.static.InputSpec

    class Net(fw.nn.Layer):
        @fw.jit.to_static(input_spec=[spec([None, 4])], full_graph=True)
        def forward(self, x):
            return x * 2

        @fw.jit.to_static(input_spec=[[spec([None, 4]), spec([None, 4])]], full_graph=True)
        def with_list(self, pair):
            return pair[0] + pair[1]

        @fw.jit.to_static(input_spec=[{'a': spec([None, 4]), 'b': spec([None, 4])}],
                          full_graph=True)
        def with_dict(self, d):
            return d['a'] - d['b']

        @fw.jit.to_static(input_spec=[[spec([None]), {'a': spec([None, 4], name='given'),
                                                       'b': spec([None, 4])}]],
                          full_graph=True)
        def nested(self, dl):
            return dl[1]['a'] + dl[1]['b'] + dl[0]
    return Net()


def test_inputs_named_after_arguments_and_keys():
    # ``inputs``: the fed values; a list's entries are <arg>_<i>, a dict's are named by key
    def run(fw):
        net = _spec_names(fw)
        return [[(v.name, list(v.shape)) for v in getattr(net, m).inputs]
                for m in ("forward", "with_list", "with_dict", "nested")]
    ours, theirs = both(run)
    assert ours == theirs


def test_outputs_of_concrete_program():
    def run(fw):
        def g(x, y):
            return {'a': x + y, 'b': [x, 3]}, 5
        sf = fw.jit.to_static(g, full_graph=True,
                              input_spec=[fw.static.InputSpec([None, 2], name='xx'),
                                          fw.static.InputSpec([2])])
        return ([(v.name, list(v.shape)) for v in sf.inputs],
                [(list(v.shape), str(v.dtype)) for v in sf.outputs])
    ours, theirs = both(run)
    assert ours == theirs


def test_layer_built_in_static_mode():
    # a Layer built while static mode was on cannot be converted: RuntimeError on tracing
    def run(fw):
        fw.enable_static()
        try:
            net = fw.nn.Linear(2, 2)
        finally:
            fw.disable_static()
        return fw.jit.to_static(net, full_graph=True)(fw.ones([1, 2]))
    same_exception(run)


def test_layer_built_in_static_mode_concrete_program():
    def run(fw):
        fw.enable_static()
        try:
            net = fw.nn.Linear(2, 2)
            sf = fw.jit.to_static(net, full_graph=True,
                                  input_spec=[fw.static.InputSpec([None, 2])])
            return sf.forward.inputs
        finally:
            fw.disable_static()
    same_exception(run)


def _saved_and_loaded(fw, fn, path):
    spec = [fw.static.InputSpec([None, 4])]
    fw.jit.save(fw.jit.to_static(fn, input_spec=spec, full_graph=True), path)
    x = fw.to_tensor(np.arange(12, dtype='float32').reshape(3, 4))
    return fw.jit.load(path)(x)


def _len_scale(fw):
    def f(x):
        return x * len(x)
    return f


def _range_len(fw):
    def f(x):
        s = fw.zeros([4])
        for i in range(len(x)):
            s = s + x[i]
        return s
    return f


def _enumerate_rows(fw):
    def f(x):
        s = fw.zeros([4])
        for i, row in enumerate(x, 1):
            s = s + row * i
        return s
    return f


def test_len_of_unknown_size_saves(tmp_path):
    # ``len(x)`` of an InputSpec's unknown size is the shape op, as Paddle's converter gives it
    both_same(lambda fw: _saved_and_loaded(fw, _len_scale(fw), str(tmp_path / fw.__name__)))


def test_range_len_of_unknown_size_saves(tmp_path):
    both_same(lambda fw: _saved_and_loaded(fw, _range_len(fw), str(tmp_path / fw.__name__)))


def test_enumerate_of_unknown_size_saves(tmp_path):
    # (Paddle's own save of this loop fails now and then inside its IR mapping: its eager
    # result is the reference)
    ours = _saved_and_loaded(pagaie, _enumerate_rows(pagaie), str(tmp_path / "pagaie"))
    ref = paddle_ref()
    theirs = _enumerate_rows(ref)(ref.to_tensor(np.arange(12, dtype='float32').reshape(3, 4)))
    assert_same(ours, theirs)


def test_enumerate_len_in_to_static_call():
    def run(fw):
        x = fw.to_tensor(np.arange(12, dtype='float32').reshape(3, 4))
        spec = [fw.static.InputSpec([None, 4])]
        return [fw.jit.to_static(mk(fw), input_spec=spec, full_graph=True)(x)
                for mk in (_len_scale, _range_len, _enumerate_rows)]
    both_same(run)


def _zip_pairs(x, y):
    for i, j in zip(x, y):
        a = i + j
    return x + y


def test_zip_of_unknown_size_save_error(tmp_path):
    # zip over a tensor of unknown length: Paddle's converter refuses it with RuntimeError
    def run(fw):
        spec = [fw.static.InputSpec([None, 4]), fw.static.InputSpec([None, 4])]
        fw.jit.save(fw.jit.to_static(_zip_pairs, input_spec=spec, full_graph=True),
                    str(tmp_path / fw.__name__))
    same_exception(run)


def test_zip_of_known_size_saves(tmp_path):
    def run(fw):
        spec = [fw.static.InputSpec([2, 4]), fw.static.InputSpec([2, 4])]
        path = str(tmp_path / fw.__name__)
        fw.jit.save(fw.jit.to_static(_zip_pairs, input_spec=spec, full_graph=True), path)
        x = fw.ones([2, 4])
        return fw.jit.load(path)(x, x)
    both_same(run)


# ---- gradients inside a converted function ------------------------------------------------
def _grad_layer(fw):
    class GradLayer(fw.nn.Layer):
        def forward(self, x):
            x.stop_gradient = False
            y = x * x * x
            return fw.grad(outputs=[y], inputs=[x])[0]
    return GradLayer()


def _grad_linear(fw):
    class GradLinear(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear = fw.nn.Linear(2, 2, bias_attr=False)
            self.linear.weight.set_value(fw.to_tensor([[1.0, 2.0], [3.0, 4.0]]))

        def forward(self, x):
            x.stop_gradient = False
            tmp = self.linear(x * x)
            return fw.grad([tmp], [x], None, create_graph=True, allow_unused=False)[0]
    return GradLinear()


def test_paddle_grad_in_default_mode():
    # paddle.grad in a converted function: without create_graph the result stops gradient
    def run(fw):
        x = fw.to_tensor([[1.0, 2.0]], stop_gradient=False)
        out = fw.jit.to_static(_grad_layer(fw))(x)
        return out, out.stop_gradient
    both_same(run)


def test_paddle_grad_full_graph_is_differentiable():
    # Paddle's AST mode leaves the gradients in the program differentiable
    def run(fw):
        x = fw.to_tensor([[1.0, 2.0]], stop_gradient=False)
        out = fw.jit.to_static(_grad_layer(fw), full_graph=True)(x)
        out.sum().backward()
        return out, out.stop_gradient, x.grad
    both_same(run)


def test_paddle_grad_create_graph_reaches_parameters():
    def run(fw):
        net = _grad_linear(fw)
        x = fw.to_tensor([[1.0, 2.0]], stop_gradient=False)
        out = fw.jit.to_static(net)(x)
        out.sum().backward()
        return out, net.linear.weight.grad, x.grad
    both_same(run)


def test_paddle_grad_saved_for_inference(tmp_path):
    # the gradient a converted function returns is part of its inference program
    def run(fw):
        net = _grad_linear(fw)
        path = str(tmp_path / fw.__name__)
        fw.jit.save(fw.jit.to_static(net, full_graph=True), path,
                    input_spec=[fw.static.InputSpec([None, 2], 'float32')])
        return fw.jit.load(path)(fw.to_tensor([[1.0, 2.0], [0.5, -1.0]]))
    both_same(run)


def _cut_paths(fw):
    def f(x, w):
        y = x * 2
        y.stop_gradient = True
        with fw.no_grad():
            z = x * w
        return y + x, z * w, y, z
    return f


def test_stop_gradient_and_no_grad_cut_gradients():
    # an intermediate marked stop_gradient=True, or computed under no_grad, stops the gradient
    # when the program runs
    def run(fw):
        x = fw.to_tensor([1.0, 2.0], stop_gradient=False)
        w = fw.to_tensor([3.0, 4.0], stop_gradient=False)
        a, b, y, z = fw.jit.to_static(_cut_paths(fw))(x, w)
        (a.sum() + b.sum()).backward()
        return a, b, y.stop_gradient, z.stop_gradient, x.grad, w.grad
    both_same(run)


def test_stop_gradient_cut_full_graph():
    def run(fw):
        x = fw.to_tensor([1.0, 2.0], stop_gradient=False)
        w = fw.to_tensor([3.0, 4.0], stop_gradient=False)
        a, b, y, z = fw.jit.to_static(_cut_paths(fw), full_graph=True)(x, w)
        a.sum().backward()
        return a, b, y.stop_gradient, x.grad
    both_same(run)


def test_no_grad_layer_output_stops_gradient():
    def run(fw):
        class NoGradNet(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.linear = fw.nn.Linear(3, 4)

            def forward(self, x):
                with fw.no_grad():
                    out = self.linear(x)
                return out
        x = fw.rand([2, 3])
        x.stop_gradient = False
        return fw.jit.to_static(NoGradNet())(x).stop_gradient
    both_same(run)


def test_static_program_cuts_at_stop_gradient_and_no_grad():
    # the same rule in a static program: gradients stop at such values
    def run(fw):
        x = fw.static.data('x', [2], 'float32')
        x.stop_gradient = False
        with fw.no_grad():
            y = x * 2
        z = x * 3
        z.stop_gradient = True
        g = fw.static.gradients([(y * x).sum(), (z * x).sum()], [x])
        exe = fw.static.Executor()
        return exe.run(feed={'x': np.array([1.0, 2.0], 'float32')}, fetch_list=g)
    ours, theirs = both_static(run, fresh_programs=True)
    np.testing.assert_allclose(ours[0], theirs[0])


def test_trace_under_callers_no_grad_keeps_gradients():
    # a first call under no_grad does not make later calls stop gradients
    def run(fw):
        def f(x):
            return x * x
        sf = fw.jit.to_static(f)
        x = fw.to_tensor([1.0, 3.0], stop_gradient=False)
        with fw.no_grad():
            first = sf(x)
        out = sf(x)
        out.sum().backward()
        return first.stop_gradient, out, x.grad
    both_same(run)


def test_cloned_program_keeps_gradient_cut():
    # (Paddle's clone fetches nothing for the original's values: compare with its original)
    def run(fw, clone):
        main = fw.static.default_main_program()
        x = fw.static.data('x', [2], 'float32')
        x.stop_gradient = False
        z = x * 3
        z.stop_gradient = True
        g = fw.static.gradients([(z * x).sum()], [x])
        exe = fw.static.Executor()
        return exe.run(main.clone() if clone else main,
                       feed={'x': np.array([1.0, 2.0], 'float32')}, fetch_list=g)
    ours, _ = both_static(lambda fw: run(fw, fw is pagaie), fresh_programs=True)
    _, theirs = both_static(lambda fw: run(fw, False), fresh_programs=True)
    np.testing.assert_allclose(ours[0], theirs[0])


def test_saved_train_program_keeps_gradient_cut(tmp_path):
    # a loaded program in train mode stops gradients where the traced function did
    def run(fw):
        class Net(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.w = self.create_parameter([2], default_initializer=fw.nn.initializer.Constant(2.0))

            def forward(self, x):
                y = x * self.w
                y.stop_gradient = True
                return y * self.w + x * self.w
        path = str(tmp_path / fw.__name__)
        fw.jit.save(fw.jit.to_static(Net(), full_graph=True), path,
                    input_spec=[fw.static.InputSpec([2], 'float32')])
        loaded = fw.jit.load(path)
        loaded.train()
        out = loaded(fw.to_tensor([1.0, 3.0]))
        out.sum().backward()
        return out, loaded.parameters()[0].grad
    both_same(run)


def test_size_of_unknown_shape_is_numel():
    # ``x.size`` of a value whose shape is only known when the program runs: the numel op
    def run(fw):
        def f(x):
            x = fw.reshape(x, fw.shape(x))
            return x.size
        x = fw.ones([1, 2, 3])
        return [fw.jit.to_static(f, full_graph=g)(x) for g in (False, True)]
    ours, theirs = both(run)
    assert [int(np.asarray(o)) for o in ours] == [int(np.asarray(t)) for t in theirs] == [6, 6]


def test_static_value_clear_gradient():
    def run(fw):
        x = fw.static.data('x', [2, 3], 'float32')
        x.clear_gradient()
    same_static_exception(run)


def test_saved_program_applies_outer_layer_hooks(tmp_path):
    # jit.save puts the outermost Layer's forward pre/post hooks into the program, as Paddle
    def run(fw):
        def post(layer, inputs, output):
            return output + output

        def pre(layer, inputs):
            return (inputs[0] * 2,)

        class Net(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = fw.nn.Linear(2, 2)
                self.fc.weight.set_value(fw.to_tensor([[1.0, 2.0], [3.0, 4.0]]))
                self.fc.register_forward_post_hook(post)
                self.register_forward_pre_hook(pre)
                self.register_forward_post_hook(post)

            def forward(self, x):
                return self.fc(x).sum()
        net = fw.jit.to_static(Net())
        x = fw.to_tensor([[1.0, -2.0]])
        out = net(x)
        path = str(tmp_path / fw.__name__)
        fw.jit.save(net, path)
        return out, fw.jit.load(path)(x)
    both_same(run)
