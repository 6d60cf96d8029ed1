"""paddle.jit.to_static: same outputs and gradients as eager, training, fallbacks, API."""
import warnings

import numpy as np
import pytest

import pagaie as paddle
from pagaie.static import InputSpec
from tests.jit.models import CNN, MLP, ControlFlow, loop_fn


def _twin(cls, *args):
    """Two instances with the same parameters: one eager, one to_static."""
    a, b = cls(*args), cls(*args)
    b.set_state_dict(a.state_dict())
    return a, paddle.jit.to_static(b, full_graph=True)


def _grads(layer):
    return [p.grad.numpy().copy() for p in layer.parameters() if not p.stop_gradient]


@pytest.mark.parametrize("cls,make", [
    (MLP, lambda: [paddle.randn([6, 4])]),
    (CNN, lambda: [paddle.randn([3, 1, 8, 8])]),
    (ControlFlow, lambda: [paddle.randn([3, 4]), paddle.to_tensor(3)]),
])
def test_layer_outputs_and_gradients(cls, make):
    eager, static = _twin(cls)
    inputs = make()
    out_e = eager(*inputs)
    out_s = static(*inputs)
    np.testing.assert_allclose(out_s.numpy(), out_e.numpy(), rtol=1e-5, atol=1e-6)
    assert not out_s.stop_gradient
    (out_e ** 2).sum().backward()
    (out_s ** 2).sum().backward()
    for ge, gs in zip(_grads(eager), _grads(static)):
        np.testing.assert_allclose(gs, ge, rtol=1e-5, atol=1e-6)
    assert static.forward.main_program is not None  # really ran a program


def test_control_flow_paths_use_one_program():
    eager, static = _twin(ControlFlow)
    x = paddle.randn([2, 4])
    for n in (0, 1, 5):
        for sign in (1.0, -1.0):
            xi = x * sign
            np.testing.assert_allclose(static(xi, paddle.to_tensor(n)).numpy(),
                                       eager(xi, paddle.to_tensor(n)).numpy(), rtol=1e-5, atol=1e-6)
    assert len(static.forward.program_cache) == 1
    ops = {op.type for op in static.forward.main_program.global_block().ops}
    assert {"pagaie.while", "pagaie.cond"} <= ops


def test_while_with_break_function():
    f = paddle.jit.to_static(loop_fn, full_graph=True)
    for limit in (0, 3, 20):
        xe = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        xs = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        se, ie = loop_fn(xe, paddle.to_tensor(limit))
        ss, is_ = f(xs, paddle.to_tensor(limit))
        np.testing.assert_allclose(ss.numpy(), se.numpy())
        assert int(is_) == int(ie)
        if limit:
            se.sum().backward()
            ss.sum().backward()
            np.testing.assert_allclose(xs.grad.numpy(), xe.grad.numpy())
    assert len(f.program_cache) == 1
    assert "pagaie.while" in {op.type for op in f.main_program.global_block().ops}


def test_for_over_tensor_and_logical_ops():
    def g(x, t):
        acc = paddle.zeros([2])
        for row in x:
            if row.sum() > 0 and not (row.max() > t):
                acc = acc + row
            elif row.sum() < -1 or row.min() < -t:
                acc = acc - row
        return acc

    f = paddle.jit.to_static(g)
    x = paddle.randn([5, 2])
    for t in (0.5, 2.0):
        np.testing.assert_allclose(f(x, paddle.to_tensor(t)).numpy(), g(x, paddle.to_tensor(t)).numpy(),
                                   rtol=1e-6)


def test_training_matches_eager():
    paddle.seed(1)
    eager, static = _twin(CNN)
    oe = paddle.optimizer.Adam(1e-2, parameters=eager.parameters())
    os_ = paddle.optimizer.Adam(1e-2, parameters=static.parameters())
    for _ in range(5):
        x = paddle.randn([4, 1, 8, 8])
        y = paddle.randint(0, 5, [4])
        for net, opt in ((eager, oe), (static, os_)):
            loss = paddle.nn.functional.cross_entropy(net(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
    for (k, a), b in zip(eager.state_dict().items(), static.state_dict().values()):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-4, atol=1e-5, err_msg=k)


def test_input_spec_serves_all_batch_sizes():
    net = MLP()
    static = paddle.jit.to_static(MLP(), input_spec=[InputSpec([None, 4], "float32", "x")],
                                    full_graph=True)
    static.set_state_dict(net.state_dict())
    for b in (1, 3, 7):
        x = paddle.randn([b, 4])
        np.testing.assert_allclose(static(x).numpy(), net(x).numpy(), rtol=1e-5, atol=1e-6)
    assert len(static.forward.program_cache) == 1
    assert static.forward.main_program.global_block().var("x").shape == [-1, 4]


def test_decorator_on_method_and_eval_mode_key():
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.drop = paddle.nn.Dropout(0.5)

        @paddle.jit.to_static
        def forward(self, x):
            return self.drop(x)

    net = Net()
    x = paddle.ones([100])
    net.eval()
    np.testing.assert_allclose(net(x).numpy(), x.numpy())
    net.train()
    assert (net(x).numpy() == 0).any()


def test_fallback_warns_and_matches_eager():
    def g(x):
        if x.sum() > 0:   # a raise under a tensor condition: not convertible
            raise ValueError("positive")
        return x * 3

    f = paddle.jit.to_static(g)
    x = paddle.to_tensor([-1.0, -2.0])
    with pytest.warns(UserWarning, match=r"test_to_static\.py:\d+"):
        out = f(x)
    np.testing.assert_allclose(out.numpy(), [-3.0, -6.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # decided once per signature
        np.testing.assert_allclose(f(x).numpy(), [-3.0, -6.0])


def test_data_read_falls_back_without_warning():
    """x.numpy() while tracing: the call runs eagerly, silently (as Paddle's default mode)."""
    def g(x):
        if x.numpy().sum() > 0:
            return x * 3
        return x

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(paddle.jit.to_static(g)(paddle.to_tensor([1.0, 2.0])).numpy(),
                                   [3.0, 6.0])


def test_enable_to_static_and_not_to_static():
    calls = []

    @paddle.jit.not_to_static
    def helper(x):
        calls.append(type(x).__name__)
        return x + 1

    @paddle.jit.to_static
    def f(x):
        return helper(x) * 2

    x = paddle.ones([2])
    paddle.jit.enable_to_static(False)
    try:
        assert f(x).tolist() == [4.0, 4.0]
        assert calls == ["Tensor"]
    finally:
        paddle.jit.enable_to_static(True)
    assert f(x).tolist() == [4.0, 4.0]
    assert calls[-1] == "Value"  # traced (and not converted) once
    # Paddle checks the type only in static mode: eagerly 1 turns conversion on
    assert paddle.jit.enable_to_static(1) is None
    paddle.enable_static()
    try:
        with pytest.raises(TypeError):
            paddle.jit.enable_to_static(1)
    finally:
        paddle.disable_static()
    paddle.jit.enable_to_static(True)


def test_nested_user_function_and_print(capsys):
    def inner(x):
        if x.sum() > 0:
            return x + 1
        return x - 1

    @paddle.jit.to_static
    def f(x):
        y = inner(x)
        print(y)
        return y

    out = f(paddle.to_tensor([-2.0]))
    assert out.tolist() == [-3.0]
    assert "-3" in capsys.readouterr().out


def test_code_and_rollback():
    net = paddle.jit.to_static(ControlFlow(), full_graph=True)
    assert "convert_ifelse" in net.forward.code
    net.forward.rollback()
    assert not hasattr(net.forward, "program_cache")
    with pytest.raises(ValueError):
        paddle.jit.to_static(lambda x: x, backend="nope")


@pytest.mark.parametrize("backend", ["eager", pytest.param("inductor", marks=pytest.mark.slow)])
def test_compiled_backend(backend):
    pytest.importorskip("pagaie._static.compiled")
    net = MLP()
    static = paddle.jit.to_static(MLP(), backend=backend)
    static.set_state_dict(net.state_dict())
    x = paddle.randn([2, 4])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = static(x)
    np.testing.assert_allclose(out.numpy(), net(x).numpy(), rtol=1e-5, atol=1e-6)
    out.sum().backward()
    assert static.fc1.weight.grad is not None


def _append_in_branch(x):
    outs = []
    if x.sum() > 0:
        outs.append(x)
    return len(outs)


def _attribute_in_branch(x):
    box = type("Box", (), {})()
    box.v = x
    if x.sum() > 0:
        box.v = x * 2
    return box.v


def _setitem_in_branch(x):
    y = x * 1
    if x.sum() > 0:
        y[0] = 5.0
    return y


@pytest.mark.parametrize("fn", [_append_in_branch, _attribute_in_branch, _setitem_in_branch])
def test_side_effects_in_tensor_branches_fall_back(fn):
    x = paddle.to_tensor([-1.0, 0.5])
    with pytest.warns(UserWarning, match="dynamic"):
        out = paddle.jit.to_static(fn)(x)
    ref = fn(x)
    np.testing.assert_allclose(np.asarray(getattr(out, "numpy", lambda: out)()),
                               np.asarray(getattr(ref, "numpy", lambda: ref)()))


def test_return_inside_python_loop_and_kwargs():
    def g(x, *rest, scale=2.0):
        for i in range(3):
            if x.sum() > i:
                return {"y": x * i * scale, "n": len(rest)}
        return {"y": x + sum(rest), "n": len(rest)}

    f = paddle.jit.to_static(g)
    for v in (1.5, -1.5):
        x = paddle.to_tensor([v])
        # as Paddle, a converted function's *rest takes no positional argument
        a, b = f(x, scale=3.0), g(x, scale=3.0)
        np.testing.assert_allclose(a["y"].numpy(), b["y"].numpy())
        assert a["n"] == b["n"] == 0


def test_layer_whose_forward_is_wrapped_converts_without_fallback():
    """A forward behind a keyword-alias wrapper (BatchNorm's input=) converts against the
    module it is defined in, with no eager fallback."""
    import warnings
    import numpy as np
    import pagaie as paddle
    bn = paddle.nn.BatchNorm2D(2)
    bn.eval()
    x = paddle.rand([2, 2, 3, 3])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = paddle.jit.to_static(bn)(x)
    np.testing.assert_allclose(out.numpy(), bn(x).numpy(), rtol=1e-6)
