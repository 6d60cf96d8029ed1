"""Session-14 sweep of PaddleLT's in-place layer cases against real Paddle 3.3.1: in a program
(``jit.to_static``, ``paddle.static``) Paddle records an in-place API as its out-of-place op,
so the input keeps its value and shape and gradients flow as through the out-of-place op
(``increment`` and ``index_put_`` stay in place); the in-place samplers leave no gradient to
the values they overwrite.

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import os
import warnings

import numpy as np

import pagaie
from tests.reference import assert_same, both, both_static

X = np.linspace(0.1, 0.9, 6, dtype="float32").reshape(1, 2, 3)


def _inplace_layer(fw):
    class Net(fw.nn.Layer):
        def forward(self, x):
            calls = [lambda h: fw.tanh_(h), lambda h: h.sin_(), lambda h: fw.reshape_(h, [-1, 3]),
                     lambda h: fw.squeeze_(h, 0), lambda h: fw.unsqueeze_(h, [0, -1]),
                     lambda h: fw.nn.functional.relu_(h),
                     lambda h: h.add_(fw.ones_like(h)).scale_(2.0),
                     lambda h: fw.where_(h > 0.3, h, h * 0)]
            outs = []
            for i, call in enumerate(calls):
                h = x * float(i + 1) - 0.5
                # h keeps its value and shape in a program (Paddle's fetch of h itself may show
                # a buffer its executor reused, so h * 3 is compared)
                outs += [call(h), h * 3]
            return outs

    return Net()


def _run_inplace(fw, mode, tmp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        layer = _inplace_layer(fw)
        spec = [fw.static.InputSpec([-1, 2, 3], "float32")]
        fn = fw.jit.to_static(layer, input_spec=spec, full_graph=True)
        if mode == "sv":
            path = os.path.join(str(tmp), fw.__name__, "m")
            fw.jit.save(fn, path, input_spec=spec)
            fn = fw.jit.load(path)
        x = fw.to_tensor(X, stop_gradient=mode == "sv")
        outs = fn(x)
        res = [[list(o.shape) for o in outs], [o.numpy() for o in outs]]
        if mode == "st":
            sum(o.sum() * (i + 1) for i, o in enumerate(outs)).backward()
            res.append(x.grad.numpy())
        return res


def test_to_static_records_inplace_apis_out_of_place():
    # PaddleLT's inplace_stragtegy cases: reshape_/squeeze_/unsqueeze_ kept the input's shape
    # under to_static and tanh_/relu_ left no gradient to the input
    ours, theirs = both(lambda fw: _run_inplace(fw, "st", None))
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_jit_save_load_keeps_out_of_place_inplace_apis(tmp_path):
    ours, theirs = both(lambda fw: _run_inplace(fw, "sv", tmp_path))
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_static_program_inplace_api_leaves_its_input():
    def build(fw):
        x = fw.static.data("x", [3], "float32")
        y = x * 2
        r = y.add_(fw.ones([3]))
        z = y * 3
        s = y.sin_()
        n = fw.increment(x.sum())        # Paddle's program keeps this one in place
        m = x.sum() * 1
        fw.increment(m)
        exe = fw.static.Executor(fw.CPUPlace())
        return exe.run(feed={"x": np.ones(3, "float32")}, fetch_list=[r, z, s, y, n, m])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = both_static(build, fresh_programs=True)
    assert_same(ours, theirs)


def test_inplace_samplers_leave_no_gradient_to_overwritten_values():
    def run(fw):
        grads = []
        for name, args in (("uniform_", ()), ("normal_", ()), ("exponential_", ()),
                           ("bernoulli_", ()), ("geometric_", (0.5,))):
            x = fw.to_tensor(np.full((2, 3), 0.5, "float32"), stop_gradient=False)
            h = x * 2
            getattr(h, name)(*args)
            (h.sum() + x.sum()).backward()
            grads.append(x.grad.numpy())
        return grads

    assert_same(*both(run))


def test_conv_nd_module_path_and_reshape_of_unknown_sizes_to_fixed_ones(tmp_path):
    # PaddleLT's layercase programs call paddle.nn.functional.conv._conv_nd; saving one with
    # unknown input sizes reshapes [-1, 8, -1, -1] to fixed sizes (Paddle records them)
    x = np.random.RandomState(1).rand(2, 4, 3, 3).astype("float32")
    w = np.random.RandomState(2).rand(8, 4, 1, 1).astype("float32")

    def run(fw):
        class Net(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.w = fw.create_parameter([8, 4, 1, 1], "float32")
                self.b = fw.create_parameter([8], "float32")

            def forward(self, v):
                y = fw.nn.functional.conv._conv_nd(v, self.w, bias=self.b, stride=[1, 1],
                                                    padding=[0, 0], dilation=[1, 1],
                                                    padding_algorithm="EXPLICIT")
                return y.reshape((2, 2, 4, 3, 3)).sum(axis=1)

        net = Net()
        net.w.set_value(fw.to_tensor(w))
        net.b.set_value(fw.to_tensor(np.arange(8, dtype="float32")))
        spec = [fw.static.InputSpec([-1, 4, -1, -1], "float32")]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path = os.path.join(str(tmp_path), fw.__name__, "m")
            fw.jit.save(fw.jit.to_static(net, input_spec=spec, full_graph=True), path,
                        input_spec=spec)
            out = fw.jit.load(path)(fw.to_tensor(x))
        return list(out.shape), out.numpy()

    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])


def _tanh_in_place_then_double(fw):
    def fn(x):
        y = x * 1
        y.tanh_()
        z = fw.reshape_(y * 1, [-1])
        return y * 2, z
    return fn


def test_default_to_static_keeps_eager_inplace_semantics():
    # Paddle's default mode (bytecode translation) runs in-place APIs as in dygraph; only
    # full_graph=True (its AST mode) records them as their out-of-place ops
    def run(fw):
        x = fw.to_tensor([[0.5, -1.0, 2.0]])
        return [list(fw.jit.to_static(_tanh_in_place_then_double(fw), full_graph=fg)(x))
                for fg in (False, True)]
    assert_same(*both(run))
