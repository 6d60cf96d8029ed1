"""Session-21: the autograd API against real Paddle 3.3.1: lazy Jacobian indexing and errors,
hessian's ys and batch_axis, paddle.grad of a hooked non-leaf input, hooks that return a
non-Tensor, PyLayer tensors modified in place after save_for_backward, elu/celu second
derivatives at 0."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")


def _jacobian(P, kind: str):
    """A Jacobian of a small function: ``sq`` [3, 3], ``sum`` [3] (0-D ys), ``rect`` [6, 3],
    ``batched`` [2, 3, 3]."""
    if kind == "batched":
        x = P.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
        return P.autograd.jacobian(x * x, x, batch_axis=0)
    x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    ys = {"sq": lambda: x * x, "sum": lambda: (x * x).sum(), "rect": lambda: P.concat([x, x * 2])}
    return P.autograd.jacobian(ys[kind](), x)


# -- Jacobian indexing: values where Paddle's lazy indexing is right, its errors elsewhere -------

@pytest.mark.parametrize("kind, index", [
    ("sq", (slice(None), 0)), ("sq", (0, slice(1, 3))), ("sq", -1), ("sq", slice(1, None)),
    ("rect", (slice(None), -1)), ("rect", slice(None, None, 2)), ("sum", 1), ("sum", slice(1, None)),
    ("batched", (slice(None), 1)), ("batched", (slice(0, 1), slice(None), 2)), ("batched", -1),
])
def test_jacobian_index_values(kind, index):
    assert_same(*both(lambda P: _jacobian(P, kind)[index]))


@pytest.mark.parametrize("kind, index", [
    ("sq", (slice(None), slice(None), 1)), ("sq", (0, 0, 0)), ("sq", 5), ("sq", (0, 3)),
    ("rect", (slice(None),) * 4), ("batched", (slice(None),) * 4), ("batched", 5),
    ("batched", (0, 3)), ("sum", 5),
])
def test_jacobian_bad_index_is_index_error(kind, index):
    exc = same_exception(lambda P: _jacobian(P, kind)[index])
    assert "Jacobian" in str(exc) or "getitem" in str(exc)


@pytest.mark.parametrize("index", [(slice(None), 0), (0, 1), (0,), (slice(None),) * 3])
def test_tuple_index_of_a_1d_jacobian_is_type_error(index):
    # a 0-D ys gives a 1-D Jacobian, which Paddle indexes with one int or slice only
    assert "Jacobian" in str(same_exception(lambda P: _jacobian(P, "sum")[index]))


@pytest.mark.parametrize("kind", ["sq", "rect", "batched"])
def test_jacobian_negative_step_reverses_rows(kind):
    # Paddle's lazy indexing turns a negative step on the rows axis into an empty result or a
    # failed concat; pagaie indexes as a Tensor does
    ours = _jacobian(pagaie, kind)
    full = ours[:].numpy()
    ax = 1 if kind == "batched" else 0
    rev = ours[(slice(None),) * ax + (slice(None, None, -1),)].numpy()
    np.testing.assert_array_equal(rev, np.flip(full, ax))
    cols = ours[(slice(None),) * (ax + 1) + (slice(2, 0, -1),)].numpy()
    np.testing.assert_array_equal(cols, full[(slice(None),) * (ax + 1) + (slice(2, 0, -1),)])


def test_jacobian_of_empty_tensors_is_empty():
    # Paddle fails in an internal concat over no rows
    x = pagaie.to_tensor([], stop_gradient=False)
    J = pagaie.autograd.jacobian(x * x, x)
    full = J[:]
    assert J.shape == [0, 0] and full.shape == [0, 0] and not full.stop_gradient


def test_jacobian_as_numpy_array():
    def f(P):
        J = _jacobian(P, "sq")
        return np.asarray(J), np.asarray(J, dtype="float64"), np.array(_jacobian(P, "batched"))
    ours, theirs = both(f)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


def test_jacobian_iterates_over_rows():
    assert_same(*both(lambda P: list(_jacobian(P, "sq"))))


# -- paddle.grad: a non-leaf input's gradient includes its hooks --------------------------------

@pytest.mark.parametrize("inputs", ["y", "y,x", "x,y", "y,w"])
def test_grad_of_a_hooked_non_leaf_input_includes_the_hook(inputs):
    # torch leaves the hook out when the backward goes on past y to another input
    def f(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        w = P.to_tensor([1.0, -1.0, 2.0], stop_gradient=False)
        y = x * 2
        y.register_hook(lambda g: g * 10)
        named = {"x": x, "y": y, "w": w}
        return P.grad((y * 3).sum() + (w * w).sum(), [named[n] for n in inputs.split(",")])
    assert_same(*both(f))


def test_grad_of_a_hooked_non_leaf_input_with_create_graph():
    def f(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        y = x * x
        y.register_hook(lambda g: g * 10)
        gy, gx = P.grad((y * y).sum(), [y, x], create_graph=True)
        return gy, gx, P.grad(gx.sum(), x)
    assert_same(*both(f))


# -- register_hook: a hook must return a Tensor or None (Paddle crashes on anything else) -------

@pytest.mark.parametrize("value", [5, 1.5, "a", np.ones(3, "float32"), ()])
@pytest.mark.parametrize("where", ["leaf", "intermediate", "grad"])
def test_a_hook_returning_a_non_tensor_is_an_oserror(value, where):
    x = pagaie.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = x * 2
    (x if where == "leaf" else y).register_hook(lambda g: (g,) if isinstance(value, tuple) else value)
    with pytest.raises(OSError, match="must return a Tensor or None, but returned"):
        if where == "grad":
            pagaie.grad((y * y).sum(), x)
        else:
            (y * y).sum().backward()


# -- hessian: ys of one element (per batch row) in any shape; batch_axis must be an int ---------

def _hessian(P, ys_shape, batch_axis=None, tuple_xs=False):
    x = P.to_tensor([[1.0, 2.0], [3.0, 4.0]] if batch_axis is not None else [1.0, 2.0],
                    stop_gradient=False)
    cubes = x * x * x
    y = cubes.sum(-1) if batch_axis is not None else cubes.sum()
    y = y.reshape(ys_shape)
    if tuple_xs:
        z = P.to_tensor([1.5], stop_gradient=False)
        h = P.autograd.hessian(y * z, (x, z), batch_axis=batch_axis)
        return [[e[:] for e in row] for row in h]
    return P.autograd.hessian(y, x, batch_axis=batch_axis)[:]


@pytest.mark.parametrize("ys_shape", [[], [1], [1, 1], [1, 1, 1]])
@pytest.mark.parametrize("tuple_xs", [False, True])
def test_hessian_of_a_one_element_ys_of_any_shape(ys_shape, tuple_xs):
    assert_same(*both(lambda P: _hessian(P, ys_shape, tuple_xs=tuple_xs)))


@pytest.mark.parametrize("ys_shape", [[2], [2, 1], [2, 1, 1]])
def test_batched_hessian_of_one_element_per_row(ys_shape):
    assert_same(*both(lambda P: _hessian(P, ys_shape, batch_axis=0)))


@pytest.mark.parametrize("ys_shape", [[2, 2], [1, 4]])
@pytest.mark.parametrize("tuple_xs", [False, True])
def test_batched_hessian_of_several_elements_per_row_raises(ys_shape, tuple_xs):
    def f(P):
        x = P.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        y = (x * x * x).reshape(ys_shape)
        P.autograd.hessian(y, (x, x * 1) if tuple_xs else x, batch_axis=0)[0]
    assert "hessian" in str(same_exception(f))


@pytest.mark.parametrize("batch_axis", [0.0, np.int64(0), "0", 1, -1])
def test_hessian_batch_axis_must_be_the_int_0(batch_axis):
    assert "hessian" in str(same_exception(lambda P: _hessian(P, [2], batch_axis=batch_axis)))


# -- PyLayer: a saved tensor modified in place is read as it is now (Paddle has no version check) --

def _saving_layer(P):
    class Twice(P.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a):
            b = a * 2
            ctx.save_for_backward(a, b)
            return b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensor()
            return g * b + a
    return Twice


@pytest.mark.parametrize("modified", ["output", "input"])
def test_pylayer_saved_tensor_modified_in_place_before_backward(modified):
    def f(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        a = x * 1
        y = _saving_layer(P).apply(a)
        (y if modified == "output" else a).add_(P.ones([3]))
        y.sum().backward()
        return x.grad
    assert_same(*both(f))


def test_pylayer_saved_tensors_keep_their_history_for_double_backward():
    def f(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        (g,) = P.grad(_saving_layer(P).apply(x * x).sum(), x, create_graph=True)
        return g, P.grad(g.sum(), x)
    assert_same(*both(f))


# -- elu / celu: the second derivative at 0 is that of the x <= 0 side, as the first one is ------

@pytest.mark.parametrize("api, alpha", [("elu", 1.0), ("elu", 0.5), ("elu", 2.0), ("celu", 1.0),
                                        ("celu", 0.5), ("celu", -1.0)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_exp_linear_second_derivative_at_zero(api, alpha, dtype):
    def f(P):
        x = P.to_tensor([-1.0, 0.0, 0.5], dtype=dtype, stop_gradient=False)
        dy = P.to_tensor([1.0, 2.0, 3.0], dtype=dtype, stop_gradient=False)
        y = getattr(P.nn.functional, api)(x, alpha)
        (g,) = P.grad(y, x, grad_outputs=dy, create_graph=True)
        return y, g, P.grad((g * g).sum(), [x, dy])
    assert_same(*both(f), rtol=1e-6)
