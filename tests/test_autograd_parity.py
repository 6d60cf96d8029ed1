"""More autograd behaviour against real Paddle: paddle.grad's no_grad_vars and graph
retention, argument checks of grad/backward, grad-mode decorators on generators, and
PyLayer details (None gradients, non-Tensor outputs, once_differentiable, stop_gradient
of gradients that come straight from a PyLayer)."""
import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _x(pd, data=(1.0, 2.0), sg=False):
    return pd.to_tensor(list(data), dtype="float32", stop_gradient=sg)


# ---- paddle.grad ------------------------------------------------------------------------
def test_no_grad_vars_are_constants():
    def f(pd):
        x = _x(pd)
        a = x * 3.0
        y = (a * x).sum()
        g1 = pd.grad(y, x, no_grad_vars=a)
        x2 = _x(pd)
        a2 = x2 * 3.0
        g2, = pd.grad((a2 * x2 * x2).sum(), x2, no_grad_vars=[a2], create_graph=True)
        g3 = pd.grad(g2.sum(), x2)
        return g1, g2, g3
    assert_same(*both(f))


def test_no_grad_vars_cut_makes_inputs_unused():
    def f(pd):
        x, z = _x(pd), _x(pd, (3.0, 4.0))
        only_path = pd.grad(((x * 3.0) * (x * 3.0)).sum(), x, no_grad_vars=[x * 1.0], allow_unused=True)
        a = x * 3.0
        cut = pd.grad((a * a).sum(), x, no_grad_vars=[a], allow_unused=True)
        leaf = pd.grad((x * z).sum(), [x, z], no_grad_vars=[z], allow_unused=True)
        return only_path, cut[0] is None, leaf[0], leaf[1] is None
    assert_same(*both(f))

    def unused(pd):
        x = _x(pd)
        a = x * 3.0
        pd.grad((a * a).sum(), x, no_grad_vars=[a])
    same_exception(unused)


def test_grad_keeps_the_graph():
    def f(pd):
        x = _x(pd)
        y = (x * x * x).sum()
        g1 = pd.grad(y, x)
        g2 = pd.grad(y, x, retain_graph=False)
        y.backward()
        return g1, g2, x.grad
    assert_same(*both(f))


def test_grad_stop_gradient_input_with_allow_unused():
    def f(pd):
        x, z = _x(pd), _x(pd, sg=True)
        return pd.grad((x * z).sum(), [x, z], allow_unused=True)
    assert_same(*both(f))


@pytest.mark.parametrize("case", ["outputs", "inputs", "grad_outputs", "go_len", "only_inputs",
                                  "no_grad_vars", "dup_inputs", "dup_outputs"])
def test_grad_argument_errors(case):
    def f(pd):
        x = _x(pd)
        y = x * x
        if case == "outputs":
            pd.grad(3, x)
        elif case == "inputs":
            pd.grad(y, 3)
        elif case == "grad_outputs":
            pd.grad(y, x, grad_outputs=3)
        elif case == "go_len":
            pd.grad(y, x, grad_outputs=[None, None])
        elif case == "only_inputs":
            pd.grad(y, x, only_inputs=False)
        elif case == "dup_inputs":
            pd.grad(y.sum(), [x, x])
        elif case == "dup_outputs":
            pd.grad([y.sum()] * 2, x)
        else:
            pd.grad(y, x, no_grad_vars=3)
    same_exception(f)


# ---- backward -----------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["tensors", "grad_tensors", "length", "duplicate", "tensor_shape",
                                  "tensor_numpy", "twice"])
def test_backward_argument_errors(case):
    def f(pd):
        x = _x(pd)
        y = x * x
        if case == "tensors":
            pd.autograd.backward(3)
        elif case == "grad_tensors":
            pd.autograd.backward(y, 3)
        elif case == "length":
            pd.autograd.backward([y], [None, None])
        elif case == "duplicate":
            pd.autograd.backward([y, y])
        elif case == "tensor_shape":
            y.backward(_x(pd, (1.0, 2.0, 3.0)))
        elif case == "tensor_numpy":
            y.backward(np.ones([2], dtype="float32"))
        else:
            s = y.sum()
            s.backward()
            s.backward()
    same_exception(f)


# ---- grad modes ---------------------------------------------------------------------------
def test_no_grad_decorates_generators():
    def f(pd):
        x = _x(pd)

        @pd.no_grad()
        def gen(a):
            yield a * 2.0
            yield a * 3.0
        outs = list(gen(x))
        return [o.stop_gradient for o in outs], (x * 2.0).stop_gradient
    ours, theirs = both(f)
    assert ours == theirs


def test_set_grad_enabled_rejects_non_bool():
    same_exception(lambda pd: pd.set_grad_enabled("x"))

    def numbers(pd):
        with pd.set_grad_enabled(0):
            off = pd.is_grad_enabled()
        return off, pd.is_grad_enabled()
    ours, theirs = both(numbers)
    assert ours == theirs


# ---- PyLayer ------------------------------------------------------------------------------
def test_pylayer_gradient_stop_gradient_flags():
    def f(pd):
        class Double(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a):
                return a * 2.0

            @staticmethod
            def backward(ctx, dy):
                return dy * 2.0

        class Pass(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a):
                return a * 2.0

            @staticmethod
            def backward(ctx, dy):
                return dy
        out = []
        x = _x(pd)
        Double.apply(x).sum().backward()
        out.append(x.grad)
        (x * 2.0).sum().backward()
        out.append(x.grad)
        x = _x(pd)
        Double.apply(x * 3.0).sum().backward()
        out.append(x.grad)
        x = _x(pd)
        (Double.apply(x) + x).sum().backward()
        out.append(x.grad)
        x = _x(pd)
        Pass.apply(x).sum().backward()
        out.append(x.grad)
        x = _x(pd)
        out.append(pd.grad(Double.apply(x).sum(), x)[0])
        return out
    ours, theirs = both(f)
    assert_same(ours, theirs)
    assert [t.stop_gradient for t in ours] == [t.stop_gradient for t in theirs]


def test_pylayer_backward_may_return_none_and_skips_non_tensor_outputs():
    def f(pd):
        class Mul(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a, b):
                return a * b

            @staticmethod
            def backward(ctx, dy):
                return dy, None

        class WithInt(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a):
                return a * 2.0, 3

            @staticmethod
            def backward(ctx, dy):
                return dy * 2.0
        a, b = _x(pd), _x(pd, (2.0, 3.0))
        Mul.apply(a, b).sum().backward()
        c = _x(pd)
        y, n = WithInt.apply(c)
        y.sum().backward()
        return a.grad, b.grad is None, n, c.grad
    assert_same(*both(f))


def test_once_differentiable():
    def f(pd):
        from importlib import import_module
        once = import_module(pd.__name__ + ".autograd.py_layer").once_differentiable

        class Square(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a):
                ctx.save_for_backward(a)
                return a * a

            @staticmethod
            @once
            def backward(ctx, dy):
                a, = ctx.saved_tensor()
                return dy * 2.0 * a
        x = _x(pd)
        Square.apply(x).sum().backward()
        return x.grad
    assert_same(*both(f))


def test_saved_tensors_hooks_do_not_nest():
    def f(pd):
        with pd.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
            with pd.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    same_exception(f)

    def after(pd):  # the failed nesting leaves no hooks behind
        with pd.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
            x = _x(pd)
            y = (x * x).sum()
        y.backward()
        return x.grad
    assert_same(*both(after))


def test_jacobian_hessian_reject_2d_xs_unbatched():
    def jac(pd):
        x = pd.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        pd.autograd.jacobian(x.sum(1) ** 2, x)
    same_exception(jac)

    def hess(pd):
        x = pd.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        pd.autograd.hessian((x * x).sum(), x)
    same_exception(hess)


def test_hook_changing_the_shape_names_no_backend():
    import pagaie
    x = _x(pagaie)
    a = x * 2.0
    a.register_hook(lambda g: pagaie.ones([3]))
    with pytest.raises(RuntimeError, match="register_hook") as info:
        (a * a).sum().backward()
    assert "torch" not in str(info.value)


def test_pylayer_counts_tensors_inside_list_arguments():
    def make(pd, n_grads):
        class F(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a, lst):
                return a * lst[0]

            @staticmethod
            def backward(ctx, dy):
                return (dy * 2.0, [dy * 3.0])[:n_grads]
        return F

    def ok(pd):
        a, b = _x(pd), _x(pd, (2.0, 3.0))
        make(pd, 2).apply(a, [b]).sum().backward()
        c, d = _x(pd), _x(pd, sg=True)
        make(pd, 1).apply(c, [d]).sum().backward()
        return a.grad, b.grad, c.grad
    assert_same(*both(ok))

    def missing(pd):
        a, b = _x(pd), _x(pd, (2.0, 3.0))
        make(pd, 1).apply(a, [b]).sum().backward()
    same_exception(missing)

    def not_a_list(pd):
        class G(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a, lst):
                return a * lst[0]

            @staticmethod
            def backward(ctx, dy):
                return dy * 2.0, dy * 3.0
        a, b = _x(pd), _x(pd, (2.0, 3.0))
        G.apply(a, [b]).sum().backward()
    same_exception(not_a_list)


def test_pylayer_forward_without_tensor_output():
    def f(pd):
        class F(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a):
                return 3

            @staticmethod
            def backward(ctx, dy):
                return dy
        F.apply(_x(pd))
    same_exception(f)


def test_grad_skips_leaf_hooks_but_runs_intermediate_ones():
    def f(pd):
        x = _x(pd)
        x.register_hook(lambda g: g * 10.0)
        g_leaf = pd.grad((x * x).sum(), x)
        (x * x).sum().backward()  # the hook still runs on accumulation
        z = _x(pd)
        a = z * 2.0
        a.register_hook(lambda g: g * 10.0)
        g_mid = pd.grad((a * a).sum(), z)
        return g_leaf, x.grad, g_mid
    assert_same(*both(f))
