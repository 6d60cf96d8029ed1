"""Session-12 sweep of views against real Paddle 3.3.1: views made under ``no_grad`` stop
gradients, in-place writes on the outputs of ``unbind``/``split_with_sizes``/``tensor_split``
in a graph, ``x[i] = v`` on a view of a leaf that needs gradients, ``copy_``/``set_value``
counting no ``inplace_version`` (through views too, and not at backward), ``copy_`` of another
shape reusing the memory, and shape/dtype changing in-place ops (``reshape_``, ``cast_``...)
and ``index_fill_`` counting on the shared version counter of a view and its base."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _x(P, shape=(2, 3), grad=False):
    x = P.to_tensor(np.arange(int(np.prod(shape)), dtype="float32").reshape(shape))
    x.stop_gradient = not grad
    return x


# ---- views made under no_grad ------------------------------------------------------------

_VIEWS = {
    "reshape": lambda P, x: x.reshape([3, 2]),
    "view": lambda P, x: x.view([3, 2]),
    "view_as": lambda P, x: x.view_as(P.ones([6])),
    "flatten": lambda P, x: x.flatten(),
    "ravel": lambda P, x: P.ravel(x),
    "unflatten": lambda P, x: P.unflatten(x, 1, [3, 1]),
    "squeeze": lambda P, x: x.unsqueeze(0).squeeze(0),
    "unsqueeze": lambda P, x: x.unsqueeze(0),
    "transpose": lambda P, x: x.transpose([1, 0]),
    "permute": lambda P, x: P.permute(x, [1, 0]),
    "moveaxis": lambda P, x: P.moveaxis(x, 0, 1),
    "t": lambda P, x: x.t(),
    "T": lambda P, x: x.T,
    "mT": lambda P, x: x.mT,
    "getitem": lambda P, x: x[0],
    "getitem_slice": lambda P, x: x[:, 1:],
    "slice": lambda P, x: P.slice(x, [1], [0], [2]),
    "strided_slice": lambda P, x: P.strided_slice(x, [1], [0], [3], [2]),
    "unbind": lambda P, x: P.unbind(x, 1),
    "diagonal": lambda P, x: P.diagonal(x),
    "as_strided": lambda P, x: P.as_strided(x, [2], [1]),
    "narrow": lambda P, x: P.narrow(x, 1, 0, 2),
    "unfold": lambda P, x: x.unfold(1, 2, 1),
    "split_with_sizes": lambda P, x: x.split_with_sizes([1, 2], 1),
    "tensor_split": lambda P, x: P.tensor_split(x, [1], axis=1),
    "as_complex": lambda P, x: P.as_complex(x.reshape([3, 2])),
}


@pytest.mark.parametrize("op", sorted(_VIEWS))
def test_views_made_under_no_grad_stop_gradient(op):
    """Paddle: a view made under no_grad of a tensor that needs gradients says stop_gradient=True."""
    def run(P):
        x = _x(P, grad=True)
        with P.no_grad():
            y = _VIEWS[op](P, x)
        ys = y if isinstance(y, (list, tuple)) else [y]
        return [v.stop_gradient for v in ys]
    ours, theirs = both(run)
    assert ours == theirs


def test_view_made_under_no_grad_is_a_stopped_alias():
    """Paddle: such a view shares memory, its results stop gradients, and it can be written in place."""
    def run(P):
        x = _x(P, grad=True)
        with P.no_grad():
            y = x[0]
        z = y * 2
        y.add_(P.ones([3]))
        return z.stop_gradient, y.is_leaf, x, x.inplace_version, y.inplace_version
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2:], theirs[2:])


# ---- in-place writes on the pieces of unbind / split_with_sizes / tensor_split --------------

_PIECES = {
    "unbind": lambda P, z: P.unbind(z, 0)[1],
    "unbind_axis1": lambda P, z: P.unbind(z, 1)[2],
    "split_with_sizes": lambda P, z: z.split_with_sizes([1, 2], 1)[1],
    "tensor_split_indices": lambda P, z: P.tensor_split(z, [1], axis=1)[1],
}


@pytest.mark.parametrize("piece", sorted(_PIECES))
def test_inplace_on_a_piece_in_a_graph(piece):
    """Paddle: the pieces are views; an in-place op on one in a graph writes the base and keeps
    the piece's own gradient (torch's multi-view outputs would refuse the write)."""
    def run(P):
        x = _x(P, grad=True)
        z = x * 1.0
        b = _PIECES[piece](P, z)
        b.scale_(2.0)
        (b * b).sum().backward()
        return z, b, x.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("piece", sorted(_PIECES))
def test_pieces_share_memory_and_versions(piece):
    """Paddle: a write into a piece shows in the base and counts for both."""
    def run(P):
        x = _x(P)
        b = _PIECES[piece](P, x)
        b.fill_(-1.0)
        return x, x.inplace_version, b.inplace_version, b._is_shared_buffer_with(x)
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("indices", [[1, 2], [2, 1], [-1], [0, 5], [-9, 2], []])
def test_tensor_split_indices_follow_numpy_slicing(indices):
    """Paddle: tensor_split at indices slices as numpy does (clamped, possibly empty pieces)."""
    assert_same(*both(lambda P: P.tensor_split(P.arange(4).reshape([2, 2]).T, indices, axis=0)))


# ---- x[i] = v on a view of a leaf that needs gradients -----------------------------------

@pytest.mark.parametrize("view", ["row", "reshape"])
def test_setitem_on_a_view_of_a_grad_leaf(view):
    """Paddle: the write goes into the leaf's memory, the leaf stays a leaf, and the view's
    gradient flows to the leaf (through its unwritten cells) and to the value."""
    def run(P):
        x = _x(P, grad=True)
        y = x[1] if view == "row" else x.reshape([3, 2])
        v = P.to_tensor(3.0, stop_gradient=False)
        y[0] = v * 2
        state = (x.is_leaf, y.is_leaf, y.stop_gradient, x.inplace_version, y.inplace_version)
        (y * y).sum().backward()
        y[1] = 1.0   # y keeps writing through to x
        return state, x, x.grad, v.grad, x.inplace_version, y.inplace_version
    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_setitem_on_a_grad_leaf_itself_still_refused():
    """Paddle: writing into the leaf itself is a ValueError."""
    def run(P):
        x = _x(P, grad=True)
        x[0] = 1.0
    same_exception(run)


# ---- copy_ / set_value -----------------------------------------------------------------

_WRITES = {
    "copy_": lambda P, y: y.copy_(P.full([3], 9.0)),
    "set_value": lambda P, y: y.set_value(np.full([3], 9.0, "float32")),
    "set_value_tensor": lambda P, y: y.set_value(P.full([3], 9.0)),
}


@pytest.mark.parametrize("write", sorted(_WRITES))
def test_copy_and_set_value_through_a_view_count_no_version(write):
    """Paddle: the values reach the base; neither the view nor the base counts a version."""
    def run(P):
        x = _x(P)
        y = x[0]
        _WRITES[write](P, y)
        return x, x.inplace_version, y.inplace_version
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("write", sorted(_WRITES))
def test_copy_and_set_value_after_use_in_a_graph(write):
    """Paddle: no version moves, so a backward that saved the tensor reads the new values."""
    def run(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        z = x * 1.0
        w = z * z
        _WRITES[write](P, z)
        w.sum().backward()
        return x.grad, z.inplace_version
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("n", [2, 5, 10])
def test_copy_of_another_shape_into_a_view(n):
    """Paddle: the values go into the view's memory when it holds enough from the view's
    start (the base sees them), else into new memory; the view takes src's shape."""
    def run(P):
        x = P.zeros([2, 3])
        y = x[0]
        y.copy_(P.ones([n]))
        return x, y, y._is_shared_buffer_with(x), y.inplace_version
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_copy_of_a_smaller_shape_keeps_sharing_with_views():
    """Paddle: x.copy_(smaller) reuses x's memory, so an earlier view of x sees the values."""
    def run(P):
        x = P.zeros([2, 3])
        v = x.reshape([6])
        x.copy_(P.ones([4]))
        return x, v, v._is_shared_buffer_with(x)
    ours, theirs = both(run)
    assert_same(ours, theirs)


# ---- shape/dtype changing in-place ops and index_fill_ count on the shared counter ---------

_REBINDING = {
    "reshape_": lambda P, v: v.reshape_([3, 1]),
    "squeeze_": lambda P, v: v.squeeze_(0),
    "unsqueeze_": lambda P, v: v.unsqueeze_(0),
    "transpose_": lambda P, v: v.transpose_([1, 0]),
    "t_": lambda P, v: v.t_(),
    "flatten_": lambda P, v: v.flatten_(),
    "cast_": lambda P, v: v.cast_("int32"),
    "index_fill_": lambda P, v: v.index_fill_(P.to_tensor([0]), 1, 5.0),
}


@pytest.mark.parametrize("op", sorted(_REBINDING))
def test_inplace_on_a_view_counts_for_its_base(op):
    """Paddle: a view and its base share one inplace_version counter."""
    def run(P):
        x = _x(P)
        v = x[0:1] if op != "reshape_" else x[0]
        _REBINDING[op](P, v)
        return x.inplace_version, v.inplace_version
    ours, theirs = both(run)
    assert ours == theirs


def test_reshape_inplace_of_a_base_counts_for_its_views():
    """Paddle: x.reshape_ counts for a view taken of x before it."""
    def run(P):
        x = _x(P)
        v = x[0]
        x.reshape_([3, 2])
        v.fill_(5.0)
        return x, x.inplace_version, v.inplace_version
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("op", ["reshape_", "unsqueeze_", "cast_"])
def test_shape_changing_inplace_of_a_saved_operand_raises_at_backward(op):
    """Paddle: a stop-gradient operand saved for a backward, then reshaped in place, makes
    the backward raise (RuntimeError)."""
    def run(P):
        w = P.ones([2, 3])
        w.stop_gradient = False
        x = P.full([2, 3], 2.0)
        y = w * x
        {"reshape_": lambda: x.reshape_([3, 2]), "unsqueeze_": lambda: x.unsqueeze_(0),
         "cast_": lambda: x.cast_("float64")}[op]()
        y.sum().backward()
    same_exception(run)


@pytest.mark.parametrize("op", ["add_", "exp_", "scale_"])
def test_registry_inplace_on_a_view_of_a_grad_leaf(op):
    """Paddle: y = x[1]; y.add_(1) with x a leaf that needs gradients writes x and keeps y's history."""
    def run(P):
        x = _x(P, grad=True)
        y = x[1]
        {"add_": lambda: y.add_(P.ones([3])), "exp_": lambda: y.exp_(), "scale_": lambda: y.scale_(2.0)}[op]()
        (y * y).sum().backward()
        return x.is_leaf, x, x.grad, x.inplace_version
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("op", ["fill_", "zero_"])
def test_fill_on_a_view_of_a_grad_leaf(op):
    """Paddle: y = x[1]; y.fill_(2) with x a leaf that needs gradients writes x."""
    def run(P):
        x = _x(P, grad=True)
        y = x[1]
        y.fill_(2.0) if op == "fill_" else y.zero_()
        (y * y).sum().backward()
        return x, x.grad, y.stop_gradient
    ours, theirs = both(run)
    assert_same(ours, theirs)


# ---- differences that need changes outside this area's files ------------------------------

@pytest.mark.parametrize("op", ["multiply", "exp", "clone", "cast"])
def test_compute_results_of_a_transposed_input_are_contiguous(op):
    """Paddle: a computed result is contiguous whatever its input's strides, so it can be viewed."""
    def run(P):
        v = _x(P).T
        y = {"multiply": lambda: v * 2, "exp": lambda: P.exp(v), "clone": lambda: v.clone(),
             "cast": lambda: v.astype("float64")}[op]()
        return y.is_contiguous(), y.strides, y.view([-1])
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2], theirs[2])


def test_assign_data_into_a_view_counts_no_version_of_the_base():
    """Paddle: assign(ndarray, view) counts no version, of the view or of its base."""
    def run(P):
        x = _x(P)
        y = x[0]
        P.assign(np.full([3], 9.0, "float32"), y)
        return x, x.inplace_version, y.inplace_version
    ours, theirs = both(run)
    assert_same(ours, theirs)
