"""Parity with real Paddle: gradients built with create_graph, grad-mode decorators and the
data numbers of generated tensor names."""
import copy

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

LIBS = [paddle, pagaie]


def _both(fn):
    return [fn(lib) for lib in LIBS]


# ---- paddle.grad(create_graph=True) --------------------------------------------------

def _constant_grad(lib):
    x = lib.to_tensor([1.0, 2.0], stop_gradient=False)
    (g,) = lib.grad((x * 2).sum(), x, create_graph=True)
    state = [g.numpy().tolist(), g.stop_gradient, g.is_leaf]
    g.sum().backward()   # reaches no input: nothing is accumulated anywhere
    return state + [x.grad is None, g.grad is None]


def test_constant_gradient_with_create_graph_is_not_a_leaf():
    p, g = _both(_constant_grad)
    assert p == g == [[2.0, 2.0], False, False, True, True]


def _unused_second_order(lib):
    x = lib.to_tensor([1.0, 2.0], stop_gradient=False)
    (g,) = lib.grad((x * 2).sum(), x, create_graph=True)
    with pytest.raises(ValueError):
        lib.grad(g.sum(), x)
    return lib.grad(g.sum(), x, allow_unused=True)


def test_second_order_of_a_linear_function_is_unused():
    assert _both(_unused_second_order) == [[None], [None]]


@pytest.mark.parametrize("expr", ["x * x", "x * 2"])
def test_create_graph_under_no_grad_gives_leaves(expr):
    def run(lib):
        x = lib.to_tensor([1.0, 2.0], stop_gradient=False)
        y = eval(expr, {"x": x}).sum()
        with lib.no_grad():
            (g,) = lib.grad(y, x, create_graph=True)
        return [g.numpy().tolist(), g.stop_gradient, g.is_leaf]
    p, g = _both(run)
    assert p == g
    assert g[1:] == [False, True]


def test_create_graph_second_order_values():
    def run(lib):
        x = lib.to_tensor([1.0, 2.0], stop_gradient=False)
        (g,) = lib.grad((x * x * x).sum(), x, create_graph=True)
        (h,) = lib.grad(g.sum(), x)
        return [g.is_leaf, h.numpy().tolist()]
    p, g = _both(run)
    assert p == g


# ---- grad-mode decorators -----------------------------------------------------------

@pytest.mark.parametrize("make", [lambda lib: lib.no_grad(), lambda lib: lib.enable_grad(),
                                  lambda lib: lib.set_grad_enabled(True)])
@pytest.mark.parametrize("obj", [5, None, "abc"])
def test_decorating_a_non_callable_raises_type_error(make, obj):
    for lib in LIBS:
        with pytest.raises(TypeError):
            make(lib)(obj)
        lib.set_grad_enabled(True)


def test_decorated_function_keeps_its_metadata():
    def f(a, b=2):
        "doc"
        return a
    p, g = _both(lambda lib: lib.no_grad()(f))
    assert (p.__name__, p.__doc__) == (g.__name__, g.__doc__) == ("f", "doc")


# ---- data numbers of generated names --------------------------------------------------

def _numbers_taken(lib, action):
    """How many ``generated_tensor_N`` numbers ``action`` takes."""
    x = lib.arange(12).reshape([3, 4]).astype("float32")
    before = int(lib.to_tensor([0.0]).name.rsplit("_", 1)[1])
    action(lib, x)
    return int(lib.to_tensor([0.0]).name.rsplit("_", 1)[1]) - before - 1


def _set(index, value):
    def act(lib, x):
        x[index] = value
    return act


@pytest.mark.parametrize("action", [
    lambda lib, x: copy.deepcopy(x),
    lambda lib, x: copy.deepcopy(x * 2),
    lambda lib, x: copy.deepcopy(lib.create_parameter([2], "float32")),
    lambda lib, x: copy.copy(x),
    lambda lib, x: x[[0]],
    lambda lib, x: x[[0, 1], [1, 2]],
    lambda lib, x: x[np.array([True, False, True])],
    lambda lib, x: x[range(2)],
    lambda lib, x: x[(0, 1), (1, 2)],
    lambda lib, x: x[..., [1]],
    lambda lib, x: x[1:, 2],
    lambda lib, x: x[lib.to_tensor([0])],
    _set([0], 1.0),
    _set(0, np.ones(4, "float32")),
    _set([0, 1], np.ones(4, "float32")),
    _set(([0, 1], [1, 2]), 1.0),
    _set(0, 1.0),
], ids=lambda a: "")
def test_generated_name_numbers(action):
    p, g = _both(lambda lib: _numbers_taken(lib, action))
    assert p == g


def test_deepcopy_name():
    def run(lib):
        x = lib.to_tensor([1.0])
        y = copy.deepcopy(x)
        return y.name.startswith(x.name + "_deepcopy_")
    assert _both(run) == [True, True]


def test_leaf_accumulation_node_next_functions():
    def run(lib):
        x = lib.to_tensor([1.0, 2.0], stop_gradient=False)
        g = x.grad_fn
        e = lib.exp(x).grad_fn
        return [g.name(), g.next_functions, [n.name() for n in e.next_functions]]
    p, g = _both(run)
    assert p == g == ["GradNodeAccumulation", [None], ["GradNodeAccumulation"]]
