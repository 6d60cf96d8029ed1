"""Differential sweep of Tensor object semantics and autograd against real Paddle 3.3.1.

Each test runs the same code with ``pagaie`` and with real ``paddle`` (``tests/reference.py``)
and compares what a user sees: values, dtypes, stop_gradient, object identity, exception types.
"""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def _leaf(P, values=(1.0, 2.0, 3.0)):
    return P.to_tensor(list(values), stop_gradient=False)


# ---- protocol ------------------------------------------------------------------------------

def test_iterating_a_0d_tensor_raises_like_paddle():
    same_exception(lambda P: list(P.to_tensor(1.0)))
    ours, theirs = both(lambda P: [t.tolist() for t in P.to_tensor([[1.0, 2.0], [3.0, 4.0]])])
    assert ours == theirs


def test_hash_is_the_id():
    ours, theirs = both(lambda P: (lambda x: hash(x) == id(x))(P.ones([2])))
    assert ours is theirs is True


# ---- Tensor.to -----------------------------------------------------------------------------

_TO_FORMS = {
    "tensor": lambda P, x: x.to(P.ones([1], "int32")),
    "tensor_blocking": lambda P, x: x.to(P.ones([1], "int32"), True),
    "other_kw": lambda P, x: x.to(other=P.ones([1], "float64")),
    "dtype_str": lambda P, x: x.to("float64"),
    "dtype_str_upper": lambda P, x: x.to("FLOAT64"),
    "dtype_obj": lambda P, x: x.to(P.float16),
    "np_dtype": lambda P, x: x.to(np.dtype("float64")),
    "device": lambda P, x: x.to("cpu"),
    "device_dtype": lambda P, x: x.to("cpu", "int32"),
    "device_dtype_blocking": lambda P, x: x.to("cpu", "int32", False),
    "place": lambda P, x: x.to(P.CPUPlace()),
    "keywords": lambda P, x: x.to(device="cpu", dtype="float64"),
    "non_blocking": lambda P, x: x.to("float64", non_blocking=True),
    "copy": lambda P, x: x.to("float32", copy=True),
    "dtype_then_blocking": lambda P, x: x.to("float64", "float16"),  # 2nd is blocking in Paddle
}


@pytest.mark.parametrize("form", sorted(_TO_FORMS))
def test_to_reads_its_arguments_like_paddle(form):
    fn = _TO_FORMS[form]
    ours, theirs = both(lambda P: fn(P, _leaf(P)))
    assert_same(ours, theirs)
    assert ours.stop_gradient == theirs.stop_gradient  # an integer cast keeps stop_gradient=False


def test_to_gradient_flows_through_a_cast():
    def f(P):
        x = _leaf(P)
        x.to("float64").sum().backward()
        return x.grad
    assert_same(*both(f))


_TO_ERRORS = {
    "no_args": lambda P, x: x.to(),
    "four_args": lambda P, x: x.to("cpu", "float64", True, 1),
    "bad_keyword": lambda P, x: x.to(foo=1),
    "xpu": lambda P, x: x.to("xpu:7"),
    "bad_string": lambda P, x: x.to("foo"),
    "int": lambda P, x: x.to(3),
    "bool": lambda P, x: x.to(True),
    "numpy_type": lambda P, x: x.to(np.float64),
}


@pytest.mark.parametrize("form", sorted(_TO_ERRORS))
def test_to_misuse_raises_like_paddle(form):
    fn = _TO_ERRORS[form]
    same_exception(lambda P: fn(P, _leaf(P)))


# ---- PyLayer -------------------------------------------------------------------------------

def _layer(P, forward, backward):
    class F(P.autograd.PyLayer):
        @staticmethod
        def forward(ctx, *args):
            return forward(P, ctx, *args)

        @staticmethod
        def backward(ctx, *grads):
            return backward(P, ctx, *grads)
    return F


def test_pylayer_backward_receives_gradients_that_do_not_stop_gradient():
    def f(P):
        seen = []

        def fwd(P, ctx, x):
            return x * 2, x * 3

        def bwd(P, ctx, g1, g2):
            seen.append((g1.stop_gradient, g2.stop_gradient, g2.tolist()))
            return g1 * 2
        x = _leaf(P)
        a, _ = _layer(P, fwd, bwd).apply(x)
        a.sum().backward()
        return seen, x.grad
    (ours, og), (theirs, tg) = both(f)
    assert ours == theirs == [(False, True, [0.0, 0.0, 0.0])]  # materialised zeros say True
    assert_same(og, tg)


def test_pylayer_backward_gradient_with_create_graph():
    def f(P):
        seen = []

        def bwd(P, ctx, g):
            seen.append(g.stop_gradient)
            return g * 2
        x = _leaf(P)
        P.grad(_layer(P, lambda P, ctx, x: x * 2, bwd).apply(x).sum(), x, create_graph=True)
        return seen
    ours, theirs = both(f)
    assert ours == theirs == [False]


def test_pylayer_materialize_grads_off_gives_none():
    def f(P):
        seen = []

        def fwd(P, ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        def bwd(P, ctx, g1, g2):
            seen.append(g2)
            return g1 * 2
        x = _leaf(P)
        _layer(P, fwd, bwd).apply(x)[0].sum().backward()
        return seen, x.grad
    (ours, og), (theirs, tg) = both(f)
    assert ours == theirs == [None]
    assert_same(og, tg)


@pytest.mark.parametrize("input_stops", [True, False])
def test_pylayer_integer_output_stop_gradient(input_stops):
    def f(P):
        def fwd(P, ctx, x):
            return x * 2, P.to_tensor([1, 2])
        x = P.to_tensor([1.0, 2.0], stop_gradient=input_stops)
        o, i = _layer(P, fwd, lambda P, ctx, g1, g2: g1).apply(x)
        return o.stop_gradient, i.stop_gradient
    ours, theirs = both(f)
    assert ours == theirs


def test_pylayer_integer_output_marked_non_differentiable_stops_gradient():
    def f(P):
        def fwd(P, ctx, x):
            i = P.to_tensor([1, 2])
            ctx.mark_non_differentiable(i)
            return x * 2, i
        o, i = _layer(P, fwd, lambda P, ctx, g1, g2: g1).apply(_leaf(P, (1.0, 2.0)))
        return o.stop_gradient, i.stop_gradient
    ours, theirs = both(f)
    assert ours == theirs == (False, True)


@pytest.mark.parametrize("as_list", [True, False])
def test_pylayer_returns_the_container_forward_returned(as_list):
    def f(P):
        def fwd(P, ctx, x):
            r = [x * 2, x * 3]
            return r if as_list else tuple(r)
        x = _leaf(P)
        out = _layer(P, fwd, lambda P, ctx, g1, g2: g1 * 2 + g2 * 3).apply(x)
        (out[0] + out[1]).sum().backward()
        return type(out).__name__, x.grad
    (ours, og), (theirs, tg) = both(f)
    assert ours == theirs
    assert_same(og, tg)


def test_pylayer_returning_a_non_leaf_input_updates_it_in_place():
    def f(P):
        x0 = _leaf(P)
        x = x0 * 1.0
        y = _layer(P, lambda P, ctx, x: x, lambda P, ctx, g: g * 5).apply(x)
        (y * 1.0).sum().backward()
        return y is x, x0.grad, y.stop_gradient, y.is_leaf
    (o_same, og, o_sg, o_leaf), (t_same, tg, t_sg, t_leaf) = both(f)
    assert (o_same, o_sg, o_leaf) == (t_same, t_sg, t_leaf) == (True, False, False)
    assert_same(og, tg)


def test_pylayer_returning_a_leaf_input_that_needs_grad_raises():
    err = same_exception(lambda P: _layer(P, lambda P, ctx, x: x, lambda P, ctx, g: g).apply(_leaf(P)))
    assert "mark_not_inplace" in str(err)


def test_pylayer_returning_a_marked_input_gives_a_new_tensor():
    # Paddle cuts the graph there (x.grad stays None: a bug); pagaie keeps the gradient.
    ref = paddle_ref()
    del ref

    def fwd(P, ctx, x):
        ctx.mark_not_inplace(x)
        return x
    x = _leaf(pagaie)
    y = _layer(pagaie, fwd, lambda P, ctx, g: g * 5).apply(x)
    (y * 1.0).sum().backward()
    assert y is not x and not y.stop_gradient
    assert x.grad.tolist() == [5.0, 5.0, 5.0]
