"""Differential tests (pagaie vs real Paddle 3.3.1) of the in-place machinery (session 9):
``inplace_version`` of in-place ops whose kernel rebinds ``x`` to a result of another dtype,
operands that would broadcast ``x`` to a bigger shape, and the error at backward when an
earlier op saved ``x`` for its gradient and ``x`` was then written in place.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _x(P, dtype="float32", shape=(2, 3), seed=0):
    a = np.random.RandomState(seed).uniform(0.2, 0.8, shape)
    if dtype == "bool":
        return P.to_tensor(a > 0.5)
    if dtype.startswith("int"):
        return P.to_tensor((a * 10).astype(dtype))
    return P.to_tensor(a.astype(dtype))


def _state(x, r, v0):
    return (r is x, str(x.dtype), list(x.shape), x.inplace_version - v0,
            np.asarray(x.numpy()).astype("float64").tolist())


# ---- inplace_version of kernels that rebind x to a bool result ------------------------

_BOOL_RESULT = ["equal_", "not_equal_", "less_than_", "less_equal_", "greater_than_",
                "greater_equal_", "less_", "logical_and_", "logical_or_", "logical_xor_"]


@pytest.mark.parametrize("op", _BOOL_RESULT)
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_bool_result_inplace_counts_one_version(op, dtype):
    def run(P):
        x, y = _x(P, dtype), _x(P, dtype, seed=1)
        v0 = x.inplace_version
        r = getattr(x, op)(y)
        return _state(x, r, v0)
    ours, theirs = both(run)
    assert ours == theirs
    assert ours[3] == 1


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_logical_not_inplace_counts_one_version(dtype):
    def run(P):
        x = _x(P, dtype)
        v0 = x.inplace_version
        r = x.logical_not_()
        return _state(x, r, v0)
    ours, theirs = both(run)
    assert ours == theirs


# ---- an operand may not broadcast x to a bigger shape --------------------------------

_BINARY = ["add_", "subtract_", "multiply_", "divide_", "remainder_", "floor_divide_", "hypot_",
           "copysign_", "equal_", "not_equal_", "less_than_", "greater_equal_",
           "logical_and_", "logical_or_", "logical_xor_"]


@pytest.mark.parametrize("op", _BINARY)
def test_operand_broadcasting_x_to_a_bigger_shape(op):
    def run(P):
        x = _x(P, shape=(3,))
        getattr(x, op)(_x(P, shape=(2, 3), seed=1))
    exc = same_exception(run)
    assert op in str(exc) and "[2, 3]" in str(exc)


@pytest.mark.parametrize("op", ["bitwise_and_", "bitwise_or_", "bitwise_xor_",
                                "bitwise_left_shift_", "bitwise_right_shift_"])
def test_bitwise_operand_broadcasting_x_to_a_bigger_shape(op):
    def run(P):
        x = P.to_tensor(np.array([1, 2, 3], "int32"))
        getattr(x, op)(P.to_tensor(np.array([[1, 2, 3], [4, 5, 6]], "int32")))
    same_exception(run)


def test_a_failed_broadcast_leaves_x_unchanged():
    from pagaie import to_tensor
    x = to_tensor([1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        x.equal_(to_tensor([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]))
    assert x.tolist() == [1.0, 2.0, 3.0] and str(x.dtype) == "paddle.float32"
    assert x.inplace_version == 0


@pytest.mark.parametrize("op", ["add_", "equal_", "logical_and_"])
def test_operand_broadcasting_to_x_is_fine(op):
    def run(P):
        x = _x(P)
        v0 = x.inplace_version
        r = getattr(x, op)(_x(P, shape=(3,), seed=1))
        return _state(x, r, v0)
    ours, theirs = both(run)
    assert ours == theirs


# ---- x saved by an earlier op's backward, then written in place ------------------------

_SAVED = {
    "index_add_": lambda P, x: x.index_add_(P.to_tensor([0, 2]), 1, P.ones([2, 2])),
    "index_put_": lambda P, x: x.index_put_((P.to_tensor([0, 1]), P.to_tensor([2, 0])), P.to_tensor([5.0, 6.0])),
    "masked_fill_": lambda P, x: x.masked_fill_(P.to_tensor([[True, False, True], [False, False, True]]), 9.0),
    "masked_scatter_": lambda P, x: x.masked_scatter_(P.to_tensor([[True, False, True], [False, False, True]]), P.ones([2, 3])),
    "put_along_axis_": lambda P, x: x.put_along_axis_(P.to_tensor([[0], [2]]), P.to_tensor([[5.0], [6.0]]), 1),
    "scatter_add_": lambda P, x: x.scatter_add_(0, P.to_tensor([[1, 0, 1]]), P.ones([1, 3])),
    "renorm_": lambda P, x: x.renorm_(2.0, 0, 0.5),
    "multigammaln_": lambda P, x: x.multigammaln_(2),
    "reshape_": lambda P, x: x.reshape_([3, 2]),
    "unsqueeze_": lambda P, x: x.unsqueeze_(0),
    "flatten_": lambda P, x: x.flatten_(),
    "transpose_": lambda P, x: x.transpose_([1, 0]),
    "t_": lambda P, x: x.t_(),
    "cast_": lambda P, x: x.cast_("float64"),
}


@pytest.mark.parametrize("op", sorted(_SAVED))
def test_backward_through_an_input_written_in_place_raises(op):
    def run(P):
        a = _x(P) + 2.0
        a.stop_gradient = False
        x = a * 1.5
        y = x * x  # saves x for its gradient
        _SAVED[op](P, x)
        y.sum().backward()
    exc = same_exception(run)
    assert isinstance(exc, RuntimeError)


@pytest.mark.parametrize("op", ["index_add_", "masked_fill_", "renorm_", "reshape_", "cast_"])
def test_inplace_on_a_non_leaf_keeps_its_own_gradient(op):
    def run(P):
        a = _x(P) + 2.0
        a.stop_gradient = False
        x = a * 1.5
        v0 = x.inplace_version
        r = _SAVED[op](P, x)
        w = P.arange(6).reshape(x.shape).astype(x.dtype)
        (x * w).sum().backward()
        return r is x, x.inplace_version - v0, x.stop_gradient, x, a.grad
    ours, theirs = both(run)
    assert ours[:3] == theirs[:3]
    assert_same(ours[3:], theirs[3:], rtol=1e-5, atol=1e-5)


def test_shape_change_of_a_non_leaf_counts_one_version_each():
    def run(P):
        a = _x(P)
        a.stop_gradient = False
        x = a * 2
        x.unsqueeze_(0).reshape_([3, 2]).t_()
        return x.inplace_version, list(x.shape)
    ours, theirs = both(run)
    assert ours == theirs == (3, [2, 3])


def test_inplace_on_a_non_leaf_then_backward_without_saved_input():
    # the only earlier consumer (a * 1.5) saved ``a``, not ``x``: no error, gradients flow
    def run(P):
        a = _x(P)
        a.stop_gradient = False
        x = a * 1.5
        x.index_fill_(P.to_tensor([0, 2]), 1, 9.0)
        (x * x).sum().backward()
        return x, a.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)



# ---- in-place on a view of a tensor in a graph writes through to the base ---------------

_ON_VIEW = {
    "index_fill_": lambda P, v: v.index_fill_(P.to_tensor([0, 2]), 1, 9.0),
    "masked_fill_": lambda P, v: v.masked_fill_(P.to_tensor([[True, False, True], [False, False, True]]), 9.0),
    "erfinv_": lambda P, v: v.erfinv_(),
    "logit_": lambda P, v: v.logit_(),
    "clip_": lambda P, v: v.clip_(0.3, 0.6),
    "cumsum_": lambda P, v: v.cumsum_(1),
    "exp_": lambda P, v: v.exp_(),
    "fill_": lambda P, v: v.fill_(2.5),
}


@pytest.mark.parametrize("op", sorted(_ON_VIEW))
@pytest.mark.parametrize("view", ["slice", "reshape"])
def test_inplace_on_a_view_in_a_graph_writes_the_base(op, view):
    def run(P):
        a = _x(P, shape=(4, 3) if view == "slice" else (2, 3))
        a.stop_gradient = False
        b = a * 1.0
        v = b[0:2] if view == "slice" else b.reshape([2, 3])
        r = _ON_VIEW[op](P, v)
        return r is v, b.stop_gradient, b
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2], theirs[2])


@pytest.mark.parametrize("op", ["index_fill_", "erfinv_", "cumsum_"])
def test_inplace_on_a_view_in_a_graph_then_gradient_of_the_view(op):
    # (Paddle leaves the base's gradient as if the view was not written; only the view's
    # own gradient is compared)
    def run(P):
        a = _x(P, shape=(4, 3))
        a.stop_gradient = False
        b = a * 1.0
        v = b[0:2]
        _ON_VIEW[op](P, v)
        (v * v).sum().backward()
        return v, a.grad[0:2] if op == "index_fill_" else None
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)


# ---- explicit in-place kernels that compute out of place --------------------------------

_OWN = {
    "erfinv_": lambda P, x: x.erfinv_(),
    "gammaln_": lambda P, x: x.gammaln_(),
    "logit_": lambda P, x: x.logit_(),
    "rsqrt_": lambda P, x: x.rsqrt_(),
    "sinc_": lambda P, x: x.sinc_(),
    "clip_": lambda P, x: x.clip_(0.3, 0.6),
    "cumsum_": lambda P, x: x.cumsum_(1),
    "cumprod_": lambda P, x: x.cumprod_(1),
    "exp_": lambda P, x: x.exp_(),
    "tanh_": lambda P, x: x.tanh_(),
}


@pytest.mark.parametrize("op", sorted(_OWN))
def test_explicit_kernels_raise_at_backward_through_a_saved_input(op):
    def run(P):
        a = _x(P)
        a.stop_gradient = False
        x = a * 0.9
        y = x * x
        _OWN[op](P, x)
        y.sum().backward()
    for _ in range(2):  # also once the kernel is known to compute out of place or not
        assert isinstance(same_exception(run), RuntimeError)


@pytest.mark.parametrize("op", sorted(_OWN))
def test_explicit_kernels_on_a_non_leaf_keep_their_gradient(op):
    def run(P):
        a = _x(P)
        a.stop_gradient = False
        x = a * 0.9
        v0 = x.inplace_version
        r = _OWN[op](P, x)
        w = P.arange(6).reshape([2, 3]).astype("float32")
        (x * w).sum().backward()
        return r is x, x.inplace_version - v0, x, a.grad
    for _ in range(2):
        ours, theirs = both(run)
        # (Paddle's composite sinc_ returns another tensor and counts 4 versions; pagaie
        # returns x and counts one, as every other in-place op)
        assert ours[:2] == (True, 1)
        if op != "sinc_":
            assert theirs[:2] == (True, 1)
        assert_same(ours[2:], theirs[2:], rtol=1e-4, atol=1e-5)
