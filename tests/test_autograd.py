"""Autograd behaviour against real Paddle: backward, grad, hooks, grad modes, PyLayer,
jacobian/hessian, saved_tensors_hooks."""
import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def _x(pd, data=(1.0, 2.0, 3.0), sg=False):
    return pd.to_tensor(list(data), dtype="float32", stop_gradient=sg)


# ---- backward / grad ------------------------------------------------------------------
def test_backward_accumulates_across_calls():
    def f(pd):
        x = _x(pd)
        (x * x).sum().backward()
        g1 = x.grad.numpy().copy()
        (x * 3.0).sum().backward()
        return g1, x.grad
    ours, theirs = both(f)
    assert_same(ours, theirs)


def test_backward_non_scalar_fills_ones_and_retain_graph():
    def f(pd):
        x = _x(pd)
        y = x * x
        y.backward(retain_graph=True)
        y.backward(pd.to_tensor([1.0, 0.0, 2.0]))
        return x.grad
    assert_same(*both(f))


def test_autograd_backward_several_outputs():
    def f(pd):
        x = _x(pd)
        pd.autograd.backward([x * 2.0, x * x], [pd.ones([3]), None])
        return x.grad
    assert_same(*both(f))


def test_clear_grad_and_clear_gradient():
    def f(pd):
        x = _x(pd)
        (x * x).sum().backward()
        x.clear_grad()
        a = x.grad.numpy().copy()
        (x * x).sum().backward()
        x.clear_gradient(False)
        return a, x.grad
    ours, theirs = both(f)
    assert_same(ours[0], theirs[0])
    assert ours[1] is None and theirs[1] is None


def test_grad_higher_order_create_graph():
    def f(pd):
        x = _x(pd)
        y = (x * x * x).sum()
        (g,) = pd.grad(y, x, create_graph=True)
        (g2,) = pd.grad(g.sum(), x)
        return g, g2, g.stop_gradient
    assert_same(*both(f))


def test_grad_allow_unused_and_error():
    def f(pd):
        x, z = _x(pd), _x(pd)
        return pd.grad((x * 2.0).sum(), [x, z], allow_unused=True)
    ours, theirs = both(f)
    assert ours[1] is None and theirs[1] is None
    assert_same(ours[0], theirs[0])

    def bad(pd):
        x, z = _x(pd), _x(pd)
        pd.grad((x * 2.0).sum(), [x, z])
    same_exception(bad)


def test_grad_does_not_accumulate_and_grad_outputs():
    def f(pd):
        x = _x(pd)
        (g,) = pd.grad(x * x, x, grad_outputs=pd.to_tensor([1.0, 2.0, 3.0]))
        return g, x.grad
    ours, theirs = both(f)
    assert_same(ours[0], theirs[0])
    assert ours[1] is None and theirs[1] is None


def test_register_hook_and_remove():
    def f(pd):
        x = _x(pd)
        y = x * 2.0
        h = y.register_hook(lambda g: g * 10.0)
        y.sum().backward(retain_graph=True)
        first = x.grad.numpy().copy()
        h.remove()
        x.clear_grad()
        y.sum().backward()
        return first, x.grad
    assert_same(*both(f))


def test_register_hook_on_stop_gradient_tensor_raises():
    same_exception(lambda pd: pd.to_tensor([1.0]).register_hook(lambda g: g))


def test_retain_grads_keeps_intermediate_grad():
    def f(pd):
        x = _x(pd)
        y = x * x
        y.retain_grads()
        z = y * 3.0
        z.sum().backward()
        return y.grad, x.grad
    assert_same(*both(f))


def test_intermediate_grad_is_none_without_retain():
    def f(pd):
        x = _x(pd)
        y = x * x
        (y * 3.0).sum().backward()
        return y.grad
    ours, theirs = both(f)
    assert ours is None and theirs is None


# ---- grad modes -----------------------------------------------------------------------
def test_no_grad_enable_grad_set_grad_enabled():
    def f(pd):
        x = _x(pd)
        with pd.no_grad():
            a = x * 2.0
            with pd.enable_grad():
                b = x * 2.0
        with pd.set_grad_enabled(False):
            c = x * 2.0
        d = x * 2.0

        @pd.no_grad()
        def g(t):
            return t * 2.0

        @pd.enable_grad()
        def h(t):
            return t * 2.0

        with pd.no_grad():
            e = h(x)
        return [a.stop_gradient, b.stop_gradient, c.stop_gradient, d.stop_gradient,
                g(x).stop_gradient, e.stop_gradient, pd.is_grad_enabled()]
    ours, theirs = both(f)
    assert ours == theirs


# ---- PyLayer ----------------------------------------------------------------------------
def _tanh_layer(pd):
    class CusTanh(pd.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, scale=1.0):
            y = pd.tanh(x) * scale
            ctx.save_for_backward(y)
            ctx.scale = scale
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * (1.0 - (y / ctx.scale) * (y / ctx.scale)) * ctx.scale
    return CusTanh


def test_pylayer_forward_backward_with_kwargs():
    def f(pd):
        x = _x(pd, (0.1, -0.5, 2.0))
        y = _tanh_layer(pd).apply(x, scale=3.0)
        y.sum().backward()
        return y, x.grad, y.stop_gradient
    assert_same(*both(f))


def test_pylayer_double_backward():
    def f(pd):
        class Cube(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x * x

            @staticmethod
            def backward(ctx, dy):
                (x,) = ctx.saved_tensor()
                return dy * 3.0 * x * x
        x = _x(pd)
        (g,) = pd.grad(Cube.apply(x).sum(), x, create_graph=True)
        (g2,) = pd.grad(g.sum(), x)
        return g, g2
    assert_same(*both(f))


def test_pylayer_multiple_outputs_non_differentiable_and_materialize():
    def f(pd):
        seen = []

        class Two(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x, y):
                a, b = x * 2.0, y * 3.0
                ctx.mark_non_differentiable(b)
                return a, b

            @staticmethod
            def backward(ctx, da, db):
                seen.append(db.numpy().tolist())
                return da * 2.0, db * 3.0

        class Lazy(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(False)
                return x * 2.0, x * 3.0

            @staticmethod
            def backward(ctx, da, db):
                seen.append(db is None)
                return da * 2.0
        x, y = _x(pd), _x(pd)
        a, b = Two.apply(x, y)
        a.sum().backward()
        c, _ = Lazy.apply(x)
        c.sum().backward()
        return [b.stop_gradient, seen, x.grad.numpy().tolist()]
    ours, theirs = both(f)
    assert ours == theirs


def test_pylayer_saved_non_tensors_and_stop_gradient_input():
    def f(pd):
        class Mix(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x, y, n):
                ctx.save_for_backward(x, None, n)
                return x * y * n

            @staticmethod
            def backward(ctx, dz):
                x, none, n = ctx.saved_tensor()
                assert none is None and n == 4
                return dz * n  # only x needs a gradient
        x = _x(pd)
        y = _x(pd, sg=True)
        Mix.apply(x, y, 4).sum().backward()
        return x.grad, y.grad
    ours, theirs = both(f)
    assert_same(ours[0], theirs[0])
    assert ours[1] is None and theirs[1] is None


def test_pylayer_missing_gradient_for_needed_input_raises():
    def bad(pd):
        class One(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x, y):
                return x * y

            @staticmethod
            def backward(ctx, dz):
                return dz
        x, y = _x(pd), _x(pd)
        One.apply(x, y).sum().backward()
    same_exception(bad)


def test_pylayer_without_forward_raises():
    same_exception(lambda pd: pd.autograd.PyLayer.apply(_x(pd)))


def test_function_is_pylayer():
    ref = paddle_ref()
    assert (ref.autograd.Function is ref.autograd.PyLayer) == \
        (pagaie.autograd.Function is pagaie.autograd.PyLayer)


# ---- jacobian / hessian ---------------------------------------------------------------
def test_jacobian_unbatched_slicing():
    def f(pd):
        x = _x(pd)
        J = pd.autograd.jacobian(x * x * 2.0, x)
        return J.shape, J[:], J[0], J[:, 1], J[1:], J[0, 2]
    ours, theirs = both(f)
    assert list(ours[0]) == list(theirs[0])
    assert_same(ours[1:], theirs[1:], check_dtype=True)


def test_jacobian_scalar_ys_and_tuples():
    def f(pd):
        x = _x(pd)
        z = _x(pd, (4.0, 5.0))
        J0 = pd.autograd.jacobian((x * x).sum(), x)
        Jt = pd.autograd.jacobian((x * x, (x * 3.0).sum()), x)
        Jtt = pd.autograd.jacobian((x * 2.0,), (x, z))
        return [J0.shape, J0[:], [j.shape for j in Jt], Jt[0][:], Jt[1][:],
                len(Jtt), len(Jtt[0]), Jtt[0][0][:], Jtt[0][1][:]]
    ours, theirs = both(f)
    assert [list(s) for s in ours[2]] == [list(s) for s in theirs[2]]
    assert list(ours[0]) == list(theirs[0])
    assert_same([ours[1], ours[3], ours[4]], [theirs[1], theirs[3], theirs[4]])
    assert ours[5:7] == theirs[5:7]
    assert_same(ours[7:], theirs[7:])


def test_jacobian_batched():
    def f(pd):
        x = pd.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
        J = pd.autograd.jacobian(x * x, x, batch_axis=0)
        return J.shape, J[:], J[0], J[:, 1], J[0, 1]
    ours, theirs = both(f)
    assert list(ours[0]) == list(theirs[0])
    assert_same(ours[1:], theirs[1:])


def test_hessian_unbatched_batched_and_tuple():
    def f(pd):
        x = _x(pd)
        H = pd.autograd.hessian((x * x * x).sum(), x)
        xb = pd.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        Hb = pd.autograd.hessian((xb * xb * xb).sum(-1), xb, batch_axis=0)
        y = _x(pd, (1.0, -1.0, 2.0))
        Ht = pd.autograd.hessian((x * x * y).sum(), (x, y))
        return [H.shape, H[:], Hb.shape, Hb[:], Ht[0][0][:], Ht[0][1][:], Ht[1][1][:]]
    ours, theirs = both(f)
    assert list(ours[0]) == list(theirs[0]) and list(ours[2]) == list(theirs[2])
    assert_same([ours[1], ours[3]] + ours[4:], [theirs[1], theirs[3]] + theirs[4:])


@pytest.mark.parametrize("case", ["ys_3d", "hessian_vector", "batch_axis_1"])
def test_jacobian_hessian_errors(case):
    def bad(pd):
        x = _x(pd)
        if case == "ys_3d":
            pd.autograd.jacobian(pd.ones([2, 2, 2]) * x.sum(), x)
        elif case == "hessian_vector":
            pd.autograd.hessian(x * x, x)
        else:
            pd.autograd.jacobian(x * x, x, batch_axis=1)
    same_exception(bad)


# ---- saved tensor hooks -----------------------------------------------------------------
def test_saved_tensors_hooks():
    def f(pd):
        calls = []

        def pack(t):
            calls.append("pack")
            return t.numpy()

        def unpack(a):
            calls.append("unpack")
            return pd.to_tensor(a)
        x = _x(pd)
        with pd.autograd.saved_tensors_hooks(pack, unpack):
            y = x * x
        y.sum().backward()
        return x.grad, "pack" in calls and "unpack" in calls
    ours, theirs = both(f)
    assert_same(ours[0], theirs[0])
    assert ours[1] and theirs[1]


def test_dump_backward_graph(tmp_path):
    x = pagaie.to_tensor([1.0], stop_gradient=False)
    (x * x).backward(dump_backward_graph_path=str(tmp_path))
    files = list(tmp_path.iterdir())
    assert any(f.name.endswith("backward_graph.dot") for f in files)
    assert np.allclose(x.grad.numpy(), [2.0])
