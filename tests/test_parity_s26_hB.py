"""Differential tests against real Paddle: the Tensor object (gradient slots, grad nodes,
in-place samplers and resizing)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

paddle.set_device("cpu")
MODS = [paddle, pagaie]


def _leaf(mod, values=(1.0, 2.0, 3.0)):
    x = mod.to_tensor(list(values))
    x.stop_gradient = False
    return x


# ---- clear_gradient: the next backward writes a new buffer --------------------------------

def _after_clear(mod):
    x = _leaf(mod)
    (x * 2).sum().backward()
    before = x.grad
    x.clear_gradient()
    after_clear = x.grad
    (x * 3).sum().backward()
    new = x.grad
    (x * 3).sum().backward()   # later backwards accumulate into the new buffer
    return before.numpy(), after_clear.numpy(), new.numpy(), x.grad.numpy()


def test_clear_grad_leaves_the_zeroed_buffer_behind():
    for a, b in zip(_after_clear(paddle), _after_clear(pagaie)):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(_after_clear(pagaie)[1], [0.0, 0.0, 0.0])


@pytest.mark.parametrize("how", ["layer", "optimizer"])
def test_clear_gradients_of_layers_and_optimizers(how):
    def run(mod):
        mod.seed(1)
        lin = mod.nn.Linear(2, 2)
        opt = mod.optimizer.SGD(parameters=lin.parameters())
        lin(mod.ones([1, 2])).sum().backward()
        g = lin.weight.grad
        lin.clear_gradients() if how == "layer" else opt.clear_grad()
        lin(mod.ones([1, 2])).sum().backward()
        return g.numpy(), lin.weight.grad.numpy()
    for a, b in zip(run(paddle), run(pagaie)):
        np.testing.assert_array_equal(a, b)


def test_gradient_written_after_clear_is_added_to():
    # Paddle drops a gradient written after clear_grad (the next backward overwrites it);
    # pagaie adds to it, as to any gradient already there.
    x = _leaf(pagaie)
    (x * 2).sum().backward()
    x.clear_grad()
    x.grad = pagaie.full([3], 7.0)
    (x * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [10.0, 10.0, 10.0])


def test_clear_grad_then_paddle_grad_keeps_zeros():
    def run(mod):
        x = _leaf(mod)
        (x * 2).sum().backward()
        g = x.grad
        x.clear_grad()
        mod.grad((x * 5).sum(), x)
        return x.grad.numpy(), g.numpy()
    for a, b in zip(run(paddle), run(pagaie)):
        np.testing.assert_array_equal(a, b)


# ---- the grad setter takes only leaves ---------------------------------------------------

@pytest.mark.parametrize("case", ["op", "none", "retained", "stopped", "view"])
def test_grad_setter_refuses_non_leaves(case):
    def run(mod):
        x = _leaf(mod)
        y = x[:2] if case == "view" else x * 2
        if case == "retained":
            y.retain_grads()
            (y * 2).sum().backward()
        if case == "stopped":
            y.stop_gradient = True
        try:
            y.grad = None if case == "none" else mod.ones(y.shape)
        except Exception as exc:  # noqa: BLE001
            return type(exc)
        return None
    assert run(paddle) is SystemError
    assert run(pagaie) is SystemError


def test_grad_setter_still_takes_leaves():
    for mod in MODS:
        x = _leaf(mod)
        x.grad = mod.full([3], 2.0)
        y = x.detach()
        y.grad = mod.ones([3])
        np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])
        np.testing.assert_array_equal(y.grad.numpy(), [1.0, 1.0, 1.0])


def test_clear_gradient_false_on_a_retained_non_leaf():
    for mod in MODS:
        x = _leaf(mod)
        y = x * 2
        y.retain_grads()
        (y * 2).sum().backward()
        y.clear_gradient(False)
        assert y.grad is None


# ---- grad nodes --------------------------------------------------------------------------

def test_next_functions_reach_the_leaf_grad_fn():
    for mod in MODS:
        x = _leaf(mod)
        y = x * 2
        node = y.grad_fn.next_functions[0]
        assert node == x.grad_fn
        assert len({node, x.grad_fn}) == 1
        assert node.name() == "GradNodeAccumulation"


# ---- geometric_ reads probs as paddle.to_tensor does -------------------------------------

@pytest.mark.parametrize("dtype,probs", [
    ("float64", 0.3),
    ("float64", "np32"),
    ("float64", "t32"),
    ("float64", "list"),
    ("float32", "array"),
    ("float64", "t64"),
])
def test_geometric_probs_forms(dtype, probs):
    def run(mod):
        p = {"np32": np.float32(0.3), "t32": mod.to_tensor(0.3),
             "t64": mod.to_tensor(0.3, "float64"), "list": [0.3, 0.2, 0.1, 0.4],
             "array": np.array([0.3, 0.2, 0.1, 0.4])}.get(probs, probs)
        mod.seed(5)
        return mod.zeros([4], dtype).geometric_(p).numpy()
    np.testing.assert_allclose(run(pagaie), run(paddle), rtol=1e-6 if dtype == "float32" else 1e-13)


@pytest.mark.parametrize("probs", ["a", None])
def test_geometric_bad_probs(probs):
    for mod in MODS:
        with pytest.raises(TypeError):
            mod.zeros([4]).geometric_(probs)


# ---- resize_ -----------------------------------------------------------------------------

@pytest.mark.parametrize("shape,exc", [
    (2, ValueError), (None, ValueError), ("tensor", ValueError),
    ([2.0], TypeError), ([-2], ValueError), ([2, -1], ValueError),
])
def test_resize_bad_shapes(shape, exc):
    for mod in MODS:
        s = mod.to_tensor([2]) if shape == "tensor" else shape
        with pytest.raises(exc):
            mod.to_tensor([1.0, 2.0, 3.0]).resize_(s)


@pytest.mark.parametrize("shape,fill", [([2], False), ([5], True), ([2, 2], True), ([], False),
                                        ([1, 2], False), ((0,), False)])
def test_resize_values(shape, fill):
    out = [mod.to_tensor([1.0, 2.0, 3.0]).resize_(shape, fill_zero=fill).numpy() for mod in MODS]
    np.testing.assert_array_equal(out[0], out[1])


def test_resize_keeps_a_tensor_in_its_graph():
    # Paddle keeps the graph (stop_gradient stays False) but gives x a gradient of the new
    # shape; pagaie gives the kept elements their gradients and x its own shape.
    x = _leaf(pagaie)
    y = x * 2
    y.resize_([2])
    assert y.stop_gradient is False
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 0.0])
    assert paddle.to_tensor([1.0], stop_gradient=False).__mul__(2).resize_([2]).stop_gradient is False
