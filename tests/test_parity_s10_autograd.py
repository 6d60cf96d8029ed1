"""Session-10 sweep of paddle.autograd against real Paddle 3.3.1: PyLayer's saved tensors and
outputs are the very Tensor objects of forward, integer inputs that do not stop gradient,
Jacobians of inputs that stop gradient, no_grad_vars that are also outputs,
saved_tensors_hooks (argument order, errors of the user's hooks, what __enter__ gives) and
set_grad_enabled with numpy booleans."""
import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _leaf(pd, v=(1.0, 2.0, 3.0), dtype="float32"):
    t = pd.to_tensor(list(v), dtype=dtype)
    t.stop_gradient = False
    return t


def _layer(pd, fwd, bwd, name="P"):
    return type(name, (pd.autograd.PyLayer,), {"forward": staticmethod(fwd), "backward": staticmethod(bwd)})


# ---- PyLayer ----------------------------------------------------------------------------
def test_saved_tensor_gives_back_the_saved_objects():
    def run(pd):
        seen = []

        def fwd(ctx, x, w):
            y = x * 2
            z = y * w
            ctx.save_for_backward(x, w, y, z, 3)
            ctx.keep = (x, w, y, z)
            return z

        def bwd(ctx, g):
            s = ctx.saved_tensor()
            seen.append([a is b for a, b in zip(s, ctx.keep)] + [s[4]])
            return g * s[1] * 2, None
        x = _leaf(pd)
        _layer(pd, fwd, bwd).apply(x, pd.to_tensor([1.0, 2.0, 3.0])).sum().backward()
        return [seen, x.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)
    assert ours[0] == [[True, True, True, True, 3]]


def test_saved_tensor_can_be_read_in_forward():
    def run(pd):
        def fwd(ctx, x):
            ctx.save_for_backward(x)
            (s,) = ctx.saved_tensor()
            return s * 2

        def bwd(ctx, g):
            return g * 2
        x = _leaf(pd)
        y = _layer(pd, fwd, bwd).apply(x)
        y.sum().backward()
        return [y, x.grad]
    assert_same(*both(run))


def test_apply_returns_the_tensors_forward_returned():
    def run(pd):
        keep = []

        def fwd(ctx, x):
            y = x * 2
            keep.append(y)
            return y, x * 3

        def bwd(ctx, g, h):
            return g + h
        x = _leaf(pd)
        a, b = _layer(pd, fwd, bwd).apply(x)
        (a + b).sum().backward()
        return [a is keep[0], a.stop_gradient, keep[0].stop_gradient, x.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)
    assert ours[0] is True


def test_saved_tensor_through_identity_saved_tensors_hooks_is_the_same_object():
    def run(pd):
        seen = []

        def fwd(ctx, x):
            ctx.save_for_backward(x)
            ctx.keep = x
            return x * 2

        def bwd(ctx, g):
            seen.append(ctx.saved_tensor()[0] is ctx.keep)
            return g
        x = _leaf(pd)
        with pd.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
            y = _layer(pd, fwd, bwd).apply(x)
        y.sum().backward()
        return seen
    ours, theirs = both(run)
    assert ours == theirs == [True]


def test_integer_input_that_does_not_stop_gradient_gives_an_output_that_does_not():
    def run(pd):
        def fwd(ctx, x):
            return x * 2

        def bwd(ctx, g):
            return g
        x = pd.to_tensor([1, 2])
        x.stop_gradient = False
        y = _layer(pd, fwd, bwd).apply(x)
        with pd.no_grad():
            z = _layer(pd, fwd, bwd).apply(x)
        return [y, y.stop_gradient, z.stop_gradient]
    assert_same(*both(run))


# ---- jacobian / hessian ---------------------------------------------------------------
@pytest.mark.parametrize("batched", [False, True])
def test_jacobian_wrt_a_tensor_that_stops_gradient_is_zeros(batched):
    def run(pd):
        x = pd.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        if batched:
            J = pd.autograd.jacobian(x * 2, pd.ones([2, 2]), batch_axis=0)
        else:
            J = pd.autograd.jacobian((x * 2).reshape([4]), pd.ones([3]))
        return [J.shape, J[:], J[:].stop_gradient, J[0]]
    assert_same(*both(run))


def test_jacobian_of_0d_wrt_a_0d_tensor_that_stops_gradient_cannot_be_indexed():
    def run(pd):
        x = pd.to_tensor(1.0, stop_gradient=False)
        J = pd.autograd.jacobian(x * 2, pd.to_tensor(2.0))
        return J[:]
    same_exception(run)


# ---- paddle.grad: no_grad_vars that are outputs ------------------------------------------
def test_no_grad_var_that_is_the_output_keeps_its_seed():
    def run(pd):
        x = _leaf(pd)
        y = (x * x).sum()
        a = pd.grad(y, x, no_grad_vars=y)
        x2 = _leaf(pd)
        b = pd.grad([x2], x2, grad_outputs=[pd.to_tensor([1.0, 2.0, 3.0])], no_grad_vars=[x2])
        return [a, b]
    assert_same(*both(run))


def test_no_grad_var_output_drops_what_reaches_it_from_other_outputs():
    # Paddle crashes on this case: pagaie keeps only the output's own seed
    import pagaie as pd
    x = _leaf(pd)
    y = x * x
    z = (y * 2).sum()
    (g,) = pd.grad([y, z], x, grad_outputs=[pd.to_tensor([1.0, 10.0, 100.0]), None], no_grad_vars=y)
    np.testing.assert_allclose(g.numpy(), [2.0, 40.0, 600.0])


# ---- saved_tensors_hooks ---------------------------------------------------------------
def _logging_hooks(pd, log):
    def pack(t):
        log.append(("pack", t.numpy().tolist()))
        return t

    def unpack(t):
        log.append(("unpack", t.numpy().tolist()))
        return t
    return pd.autograd.saved_tensors_hooks(pack, unpack)


@pytest.mark.parametrize("op", ["multiply", "matmul", "docs"])
def test_saved_tensors_hooks_pack_and_unpack_in_argument_order(op):
    def run(pd):
        log = []
        if op == "matmul":
            x = pd.to_tensor([[1.0, 2.0]], stop_gradient=False)
            y = pd.to_tensor([[3.0], [4.0]], stop_gradient=False)
        else:
            x, y = _leaf(pd), _leaf(pd, (4.0, 5.0, 6.0))
        with _logging_hooks(pd, log):
            if op == "matmul":
                z = pd.matmul(x, y)
            elif op == "multiply":
                z = pd.multiply(x, y)
            else:
                z = x * y
        z.sum().backward()
        return [log, x.grad, y.grad]
    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_saved_tensors_hooks_enter_gives_none():
    def run(pd):
        with pd.autograd.saved_tensors_hooks(lambda t: t, lambda t: t) as v:
            return v
    ours, theirs = both(run)
    assert ours is None and theirs is None


def _raiser(exc_type):
    def f(_):
        raise exc_type("boom")
    return f


# Real Paddle answers an error raised by either hook with OSError ("(External) KeyError: ...")
# but then leaves its hooks broken for the rest of the process, so these run in pagaie only.
@pytest.mark.parametrize("exc_type", [ValueError, KeyError, TypeError])
def test_an_error_in_pack_hook_comes_out_as_oserror(exc_type):
    import pagaie as pd
    x, y = _leaf(pd), _leaf(pd)
    with pytest.raises(OSError, match=rf"\(External\).*pack_hook raised {exc_type.__name__}") as info:
        with pd.autograd.saved_tensors_hooks(_raiser(exc_type), lambda t: t):
            x * y
    assert isinstance(info.value.__cause__, exc_type)


@pytest.mark.parametrize("exc_type", [ValueError, KeyError])
def test_an_error_in_unpack_hook_comes_out_as_oserror(exc_type):
    import pagaie as pd
    x, y = _leaf(pd), _leaf(pd)
    with pd.autograd.saved_tensors_hooks(lambda t: t, _raiser(exc_type)):
        z = x * y
    with pytest.raises(OSError, match=rf"\(External\).*unpack_hook raised {exc_type.__name__}"):
        z.sum().backward()


@pytest.mark.parametrize("ret", ["none", "int", "numpy", "shape"])
def test_unpack_hook_must_return_a_tensor_like_the_packed_one(ret):
    def run(pd):
        x, y = _leaf(pd), _leaf(pd)
        back = {"none": lambda t: None, "int": lambda t: 3, "numpy": lambda t: t.numpy(),
                "shape": lambda t: pd.ones([2])}[ret]
        with pd.autograd.saved_tensors_hooks(lambda t: t, back):
            z = x * y
        z.sum().backward()
    err = same_exception(run)
    assert "unpack_hook" in str(err)


def test_saved_tensors_hooks_can_be_used_again_after_an_error():
    import pagaie as pd
    with pytest.raises(OSError):
        with pd.autograd.saved_tensors_hooks(_raiser(ValueError), lambda t: t):
            _leaf(pd) * _leaf(pd)
    log = []
    x, y = _leaf(pd), _leaf(pd, (4.0, 5.0, 6.0))
    with _logging_hooks(pd, log):
        z = x * y
    z.sum().backward()
    assert [k for k, _ in log] == ["pack", "pack", "unpack", "unpack"]
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 5.0, 6.0])


# ---- grad modes -----------------------------------------------------------------------
@pytest.mark.parametrize("value", [np.bool_(False), np.bool_(True)])
def test_set_grad_enabled_takes_numpy_bools(value):
    def run(pd):
        with pd.set_grad_enabled(value):
            inside = pd.is_grad_enabled()
            y = _leaf(pd) * 2
        return [inside, y.stop_gradient, pd.is_grad_enabled()]
    ours, theirs = both(run)
    assert ours == theirs


def test_no_grad_class_name():
    def run(pd):
        return [type(pd.no_grad()).__name__, pd.no_grad is pd.autograd.no_grad]
    ours, theirs = both(run)
    assert ours == theirs
