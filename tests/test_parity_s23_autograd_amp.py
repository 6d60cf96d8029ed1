"""Session-23 sweep of paddle.autograd and paddle.amp against real Paddle 3.3.1: grad-mode
decorators as Paddle runs them (a generator keeps the mode across its yields, a decorating
``set_grad_enabled`` sets the mode when made and restores it after the first call);
paddle.grad / paddle.autograd.backward seeds of another shape with as many elements (read in
the output's shape) while Tensor.backward wants the very shape; the exception types of
jacobian / hessian given a non-Tensor ys or xs; a PyLayer backward that returns a gradient for
an input paddle.grad does not lead to (Paddle's ValueError);
amp.debugging's check_numerics of integer tensors and the op names of the operator-statistics
table for Tensor operators with a Python number, ``*_like`` creation, arange and linspace
(Paddle prints that table from C++: read with ``capfd``)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")


def _leaf(P, values=(1.0, 2.0, 3.0)):
    return P.to_tensor(list(values), stop_gradient=False)


# -- grad-mode decorators ------------------------------------------------------------------------

@pytest.mark.parametrize("deco, outer", [("no_grad", True), ("enable_grad", False)])
def test_decorated_generator_keeps_the_mode_between_its_yields(deco, outer):
    def f(P):
        @getattr(P, deco)()
        def gen():
            yield P.is_grad_enabled()
            yield P.is_grad_enabled()
        seen = []
        with P.set_grad_enabled(outer):
            for v in gen():
                seen += [v, P.is_grad_enabled(), (_leaf(P) * 2).stop_gradient]
            seen.append(P.is_grad_enabled())
        return seen, P.is_grad_enabled()
    ours, theirs = both(f)
    assert ours == theirs


def test_decorated_generator_left_early_and_its_return_value():
    def f(P):
        @P.no_grad()
        def gen():
            got = yield 1
            yield got
            return 7
        seen = []
        for v in gen():
            seen.append(P.is_grad_enabled())
            break
        seen.append(P.is_grad_enabled())
        it = gen()
        seen += [next(it), it.send(5)]
        try:
            next(it)
        except StopIteration as stop:
            seen.append(stop.value)
        return seen, P.is_grad_enabled()
    ours, theirs = both(f)
    assert ours == theirs


def test_set_grad_enabled_as_a_decorator():
    def f(P):
        seen = [P.is_grad_enabled()]

        @P.set_grad_enabled(False)
        def double(x):
            return x * 2
        seen.append(P.is_grad_enabled())
        seen.append((_leaf(P) * 2).stop_gradient)
        seen.append(double(_leaf(P)).stop_gradient)
        seen.append(P.is_grad_enabled())
        seen.append(double(_leaf(P)).stop_gradient)

        @P.set_grad_enabled(False)
        def gen():
            yield P.is_grad_enabled()
        seen += [(v, P.is_grad_enabled()) for v in gen()]
        seen.append(P.is_grad_enabled())
        P.set_grad_enabled(True)
        return seen
    ours, theirs = both(f)
    assert ours == theirs


# -- gradient seeds of another shape ------------------------------------------------------------

@pytest.mark.parametrize("y_shape, g_shape", [([6], [1, 6]), ([1], []), ([], [1]), ([3, 2], [2, 3])])
def test_grad_outputs_of_another_shape_with_as_many_elements(y_shape, g_shape):
    def f(P):
        x = P.to_tensor(np.arange(1.0, 7.0, dtype="float32").reshape([3, 2]), stop_gradient=False)
        y = (x * x).reshape(y_shape) if int(np.prod(y_shape)) == 6 else (x * x).sum().reshape(y_shape)
        g = P.to_tensor(np.arange(1.0, 1.0 + int(np.prod(g_shape)), dtype="float32").reshape(g_shape))
        return P.grad(y, x, grad_outputs=g)
    assert_same(*both(f))


@pytest.mark.parametrize("y_shape, g_shape", [([3], [1, 3]), ([1], [])])
def test_autograd_backward_seed_of_another_shape(y_shape, g_shape):
    def f(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        y = x * x if y_shape == [3] else (x * x).sum().reshape(y_shape)
        g = P.to_tensor(np.arange(1.0, 1.0 + int(np.prod(g_shape)), dtype="float32").reshape(g_shape))
        P.autograd.backward(y, g)
        return x.grad
    assert_same(*both(f))


@pytest.mark.parametrize("y_shape, g_shape", [([3], [1, 3]), ([1], []), ([], [1])])
def test_tensor_backward_seed_must_have_the_very_shape(y_shape, g_shape):
    def f(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        y = x * x if y_shape == [3] else (x * x).sum().reshape(y_shape)
        y.backward(P.ones(g_shape))
    same_exception(f)


# -- jacobian / hessian of non-Tensor arguments ---------------------------------------------------

@pytest.mark.parametrize("api", ["jacobian", "hessian"])
@pytest.mark.parametrize("ys, xs", [("None", "x"), ("3.0", "x"), ("[y, 2.0]", "x"), ("np.ones(2)", "x"),
                                    ("y", "None"), ("y", "np.ones(2)"), ("y", "[x, 1.0]")])
def test_jacobian_and_hessian_of_non_tensor_arguments(api, ys, xs):
    def f(P):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        env = {"np": np, "x": x, "y": x * x if api == "jacobian" else (x * x).sum()}
        # Paddle's Jacobian is lazy: some errors come when it is first indexed
        getattr(P.autograd, api)(eval(ys, env), eval(xs, env))[:]
    same_exception(f)


# -- PyLayer under paddle.grad of some of its inputs ---------------------------------------------

def _mul_layer(P, none_first=False):
    class Mul(P.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensor()
            return None if none_first else g * b, g * a
    return Mul


@pytest.mark.parametrize("case", ["leaf", "intermediate", "create_graph"])
def test_pylayer_gradient_for_an_input_not_asked_for_raises(case):
    def f(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        y = P.to_tensor([4.0, 5.0, 6.0], stop_gradient=False)
        a = x * 2.0 if case == "intermediate" else x
        o = _mul_layer(P).apply(a, y)
        P.grad((o * o).sum(), a if case == "intermediate" else y, create_graph=case == "create_graph")
    same_exception(f)


@pytest.mark.parametrize("case", ["none_returned", "input_depends_on_target", "all_inputs"])
def test_pylayer_gradients_under_paddle_grad(case):
    def f(P):
        y = P.to_tensor([4.0, 5.0, 6.0], stop_gradient=False)
        x = y * 2.0 if case == "input_depends_on_target" else P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        o = _mul_layer(P, none_first=case == "none_returned").apply(x, y)
        return P.grad(o.sum(), [x, y] if case == "all_inputs" else y)
    assert_same(*both(f))


# -- amp.debugging ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int32", "int64", "bool"])
def test_check_numerics_of_a_non_float_tensor_raises(dtype):
    same_exception(lambda P: P.amp.debugging.check_numerics(
        P.to_tensor([1, 0]).astype(dtype), "op", "x", P.amp.debugging.DebugMode.CHECK_ALL))


def test_check_numerics_of_float_dtypes():
    def f(P):
        D = P.amp.debugging
        return [D.check_numerics(P.to_tensor([1.0, 0.0, -2.0]).astype(dt), "op", "x", D.DebugMode.CHECK_NAN_INF)
                for dt in ("float16", "float64")]
    assert_same(*both(f))


def _stats_table(P, code, capfd):
    """The rows of the operator-statistics table printed for ``code`` (Paddle prints it from
    C++, so it is read at the file-descriptor level): {op name: [fp16, bf16, fp32, other]}."""
    env = {"P": P, "np": np, "x": P.to_tensor([[1.0, 2.0], [3.0, 4.0]]),
           "xi": P.to_tensor([[1, 2]]), "xb": P.to_tensor([True, False])}
    capfd.readouterr()
    with P.amp.debugging.collect_operator_stats():
        eval(code, env)
    text = capfd.readouterr().out
    rows = {ln.split("|")[0].strip(): [int(c) for c in ln.split("|")[1:]]
            for ln in text.splitlines() if ln.startswith("  ") and "|" in ln}
    assert "op count" in text, text
    return rows


@pytest.mark.parametrize("code", [
    "x * 2", "2.5 * x", "x + 1", "1 - x", "x / 2", "2 / x", "x // 2", "x % 2", "2 ** x", "x < 1",
    "x == 1", "x * True", "xi * 2.5", "xi / 2", "xi + 1", "xi // 2", "xi < 1.5", "xb * 2", "xi / xi",
    "x * 2.0 + 1", "x ** 2",
])
def test_operator_stats_of_tensor_operators_with_a_number(code, capfd):
    ours, theirs = both(lambda P: _stats_table(P, code, capfd))
    assert ours == theirs


@pytest.mark.parametrize("code", [
    "P.zeros_like(x)", "P.ones_like(xi)", "P.zeros_like(x, dtype='int32')", "P.empty_like(x)",
    "x.detach()", "P.arange(3)", "P.arange(0.0, 1.0, 0.5)", "P.arange(P.to_tensor(3))",
    "P.linspace(0, 1, 3)", "P.tril(x)", "P.triu(x)", "P.shape(x)",
])
def test_operator_stats_names_of_creation_and_shape_ops(code, capfd):
    ours, theirs = both(lambda P: _stats_table(P, code, capfd))
    assert ours == theirs
