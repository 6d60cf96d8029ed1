"""Tensor.__getitem__ / __setitem__ / set_value and in-place indexing ops vs real Paddle."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 5, 6)).astype("float32")

# Each index is built per framework (tensor indices must belong to that framework).
GET_INDICES = {
    "int": lambda P: 1,
    "neg_int": lambda P: -1,
    "ints": lambda P: (1, -2, 3),
    "slice": lambda P: slice(1, 3),
    "slice_step": lambda P: (slice(None), slice(0, 5, 2)),
    "neg_step": lambda P: slice(None, None, -1),
    "neg_step_bounds": lambda P: (slice(3, 0, -2), slice(None), slice(-1, None, -3)),
    "slice_clamped": lambda P: slice(-10, 10),
    "empty_slice": lambda P: slice(3, 1),
    "ellipsis": lambda P: (Ellipsis, 2),
    "ellipsis_mid": lambda P: (1, Ellipsis, slice(2, 4)),
    "none": lambda P: (None, 1, None),
    "none_ellipsis": lambda P: (Ellipsis, None),
    "list": lambda P: [0, 2, 2],
    "list_neg": lambda P: [-1, 0],
    "two_lists": lambda P: ([0, 1], [1, 3]),
    "list_slice_list": lambda P: ([0, 1], slice(None), [1, 3]),
    "slice_int_list": lambda P: (slice(None), 0, [1, 2]),
    "int_slice_list": lambda P: (0, slice(None), [1, 2]),
    "tensor": lambda P: P.to_tensor([3, 1]),
    "tensor_2d": lambda P: P.to_tensor([[0, 1], [2, 3]]),
    "tensor_int32": lambda P: P.to_tensor([3, 1], dtype="int32"),
    "tensor_0d": lambda P: P.to_tensor(2),
    "tensor_0d_in_tuple": lambda P: (slice(None), P.to_tensor(1)),
    "tensor_slice_bounds": lambda P: slice(P.to_tensor(1), P.to_tensor(3)),
    "bool_list": lambda P: [True, False, True, False],
    "bool_tensor_1d": lambda P: P.to_tensor([True, False, True, True]),
    "bool_tensor_2d": lambda P: P.to_tensor(X[:, :, 0] > 0),
    "bool_tensor_full": lambda P: P.to_tensor(X > 0.5),
    "bool_then_slice": lambda P: (P.to_tensor([True, False, True, True]), slice(1, 3)),
    "numpy_array": lambda P: np.array([0, 3]),
    "numpy_int": lambda P: np.int64(2),
}


def _leaf(P, arr):
    t = P.to_tensor(arr)
    t.stop_gradient = False
    return t


@pytest.mark.parametrize("key", sorted(GET_INDICES))
def test_getitem_values_and_grad(key):
    make = GET_INDICES[key]

    def run(P):
        x = _leaf(P, X)
        y = x[make(P)]
        out = y.numpy().copy()
        if y.size:
            cot = P.to_tensor(np.arange(y.size, dtype="float32").reshape(y.shape) + 1.0)
            (y * cot).sum().backward()
            return y, out, x.grad.numpy()
        return y, out, None

    (y1, o1, g1), (y2, o2, g2) = both(run)
    assert list(y1.shape) == list(y2.shape)
    assert str(y1.dtype) == str(y2.dtype)
    np.testing.assert_allclose(o1, o2)
    if g2 is not None:
        np.testing.assert_allclose(g1, g2)


SET_CASES = {
    "int_scalar": (lambda P: 1, lambda P: 3.0),
    "slice_tensor": (lambda P: (slice(None), 2), lambda P: P.to_tensor(np.ones((4, 6), "float32"))),
    "slice_broadcast": (lambda P: slice(1, 3), lambda P: P.to_tensor(np.arange(6, dtype="float32"))),
    "neg_step": (lambda P: (slice(None, None, -1), 0), lambda P: P.to_tensor(np.arange(24, dtype="float32").reshape(4, 6))),
    "neg_step_strided": (lambda P: (slice(None), slice(4, None, -2)),
                         lambda P: P.to_tensor(np.arange(3 * 6, dtype="float32").reshape(3, 6))),
    "ellipsis": (lambda P: (Ellipsis, 0), lambda P: -1.0),
    "none": (lambda P: (None, 0), lambda P: 5.0),
    "bool_mask": (lambda P: P.to_tensor(X > 0), lambda P: 0.0),
    "bool_mask_tensor_value": (lambda P: P.to_tensor(X[:, 0, 0] > 0),
                               lambda P: P.to_tensor(np.ones(6, "float32") * 7)),
    "int_list": (lambda P: [0, 2], lambda P: P.to_tensor(np.full((2, 5, 6), 2.0, "float32"))),
    "two_lists": (lambda P: ([0, 1], [1, 3]), lambda P: P.to_tensor(np.ones((2, 6), "float32"))),
    "tensor_index": (lambda P: P.to_tensor([3, 0]), lambda P: 1.5),
    "tensor_0d": (lambda P: P.to_tensor(1), lambda P: 2.5),
    "numpy_value": (lambda P: (0, 0), lambda P: np.arange(6, dtype="float32")),
}


@pytest.mark.parametrize("key", sorted(SET_CASES))
def test_setitem_values(key):
    mk_idx, mk_val = SET_CASES[key]

    def run(P):
        x = P.to_tensor(X)
        x[mk_idx(P)] = mk_val(P)
        return x

    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("key", ["slice_tensor", "slice_broadcast", "neg_step", "neg_step_strided",
                                 "bool_mask_tensor_value", "int_list", "two_lists"])
def test_setitem_gradients(key):
    """Assigned values get gradients; overwritten entries of the target get none."""
    mk_idx, mk_val = SET_CASES[key]

    def run(P):
        x = _leaf(P, X)
        v = mk_val(P)
        v.stop_gradient = False
        y = x * 2.0
        y[mk_idx(P)] = v
        cot = P.to_tensor(np.arange(X.size, dtype="float32").reshape(X.shape))
        (y * cot).sum().backward()
        return y.numpy(), x.grad.numpy(), v.grad.numpy()

    (y1, gx1, gv1), (y2, gx2, gv2) = both(run)
    np.testing.assert_allclose(y1, y2)
    np.testing.assert_allclose(gx1, gx2)
    np.testing.assert_allclose(gv1, gv2)


def test_setitem_on_stop_gradient_target_with_grad_value():
    def run(P):
        a = P.ones([3])
        v = P.to_tensor(3.0)
        v.stop_gradient = False
        a[1] = v
        (a * P.to_tensor([1.0, 2.0, 3.0])).sum().backward()
        return a.stop_gradient, v.grad.numpy()

    (sg1, g1), (sg2, g2) = both(run)
    assert sg1 == sg2
    np.testing.assert_allclose(g1, g2)


def test_setitem_dtype_cast():
    def run(P):
        a = P.arange(4)
        a[0] = 2.7
        a[1:3] = P.to_tensor([1.5, 2.5])
        return a

    assert_same(*both(run))


def test_setitem_visible_through_views():
    def run(P):
        x = P.to_tensor(np.arange(12, dtype="float32").reshape(3, 4))
        y = x[0]
        y[1] = 100.0
        z = x[:, 2]
        z[0] = -7.0
        return x

    assert_same(*both(run))


@pytest.mark.parametrize("case", [
    lambda P: P.to_tensor(X)[4],
    lambda P: P.to_tensor(X)[-5],
    lambda P: P.to_tensor(X)[0, 5],
    lambda P: P.to_tensor(X)[0, 0, 0, 0],
    lambda P: P.to_tensor(X)[P.to_tensor([True, False])],
])
def test_getitem_index_errors(case):
    same_exception(case)


@pytest.mark.parametrize("case", [
    lambda P: P.to_tensor(X)[1.5],
    lambda P: P.to_tensor(X)["a"],
    lambda P: P.to_tensor(X)[P.to_tensor([0.5])],
    lambda P: P.to_tensor(X)[::0],
])
def test_getitem_type_errors(case):
    same_exception(case)


def _set(P, idx, val, leaf=False):
    x = P.to_tensor(X)
    if leaf:
        x.stop_gradient = False
    x[idx] = val


@pytest.mark.parametrize("case", [
    lambda P: _set(P, 5, 1.0),
    lambda P: _set(P, 0, P.ones([3])),
    lambda P: _set(P, 0, 1.0, leaf=True),
    lambda P: _set(P, (0, 0, slice(0, 3)), [1.0, 2.0, 3.0]),
])
def test_setitem_errors(case):
    same_exception(case)


def test_set_value():
    def run(P):
        x = P.zeros([2, 3])
        x.stop_gradient = False
        x.set_value(np.ones((2, 3), "float32"))
        y = P.zeros([2])
        y.set_value(P.to_tensor([1.0, 2.0]))
        return x, y

    assert_same(*both(run))
    same_exception(lambda P: P.zeros([2]).set_value(np.ones(3, "float32")))
    same_exception(lambda P: P.zeros([2]).set_value(np.ones(2, "int64")))
    same_exception(lambda P: P.zeros([2]).set_value([1.0, 2.0]))


# ---- in-place indexing ops ---------------------------------------------------------------
@pytest.mark.parametrize("name,args", [
    ("index_add_", lambda P: (P.to_tensor([0, 2]), 0, P.ones([2, 3]))),
    ("index_fill_", lambda P: (P.to_tensor([1]), 1, -1.0)),
    ("index_put_", lambda P: ((P.to_tensor([0, 1]), P.to_tensor([2, 0])), P.to_tensor([9.0, 8.0]))),
    ("masked_fill_", lambda P: (P.to_tensor([[True, False, True]] * 3), 0.5)),
    ("masked_scatter_", lambda P: (P.to_tensor([[True, False, True]] * 3), P.arange(9).astype("float32"))),
    ("put_along_axis_", lambda P: (P.to_tensor([[0], [2], [1]]), 5.0, 1)),
    ("scatter_", lambda P: (P.to_tensor([2, 0]), P.ones([2, 3]))),
    ("scatter_add_", lambda P: (1, P.to_tensor([[0, 0]]), P.ones([1, 2]))),
    ("where_", None),
])
def test_inplace_indexing_ops(name, args):
    def run(P):
        x = P.to_tensor(np.arange(9, dtype="float32").reshape(3, 3))
        if name == "where_":
            r = P.where_(x > 4, x, P.zeros([3, 3]))
            return x, r
        r = getattr(x, name)(*args(P))
        return x, r

    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1] is not None


def test_inplace_on_grad_leaf_raises():
    def run(P):
        x = P.ones([3])
        x.stop_gradient = False
        x.index_fill_(P.to_tensor([0]), 0, 2.0)

    same_exception(run)


def test_scatter_duplicate_overwrite_and_grad():
    def run(P):
        x = _leaf(P, np.arange(12, dtype="float32").reshape(4, 3))
        u = _leaf(P, np.arange(9, dtype="float32").reshape(3, 3) + 100)
        out = P.scatter(x, P.to_tensor([1, 1, 3]), u)
        (out * P.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))).sum().backward()
        return out.numpy(), x.grad.numpy(), u.grad.numpy()

    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b)


def test_scatter_torch_form():
    def run(P):
        x = P.zeros([2, 3])
        return P.scatter(x, 1, P.to_tensor([[2], [0]]), P.ones([2, 1]))

    assert_same(*both(run))


@pytest.mark.parametrize("case", [
    lambda P: P.gather(P.ones([3, 2]), P.to_tensor([5])),
    lambda P: P.gather(P.ones([3, 2]), [1]),
    lambda P: P.index_select(P.ones([3, 2]), P.to_tensor([3])),
    lambda P: P.take(P.ones([3, 2]), P.to_tensor([6])),
    lambda P: P.take(P.ones([3, 2]), P.to_tensor([0]), mode="nope"),
    lambda P: P.where(P.ones([2]) > 0, P.ones([2], "int64"), P.ones([2])),
    lambda P: P.shard_index(P.to_tensor([[25]]), 20, 2, 0),
    lambda P: P.take_along_axis(P.ones([3, 2]), P.to_tensor([0]), 0),
])
def test_indexing_op_errors(case):
    same_exception(case)


def test_where_one_arg():
    def run(P):
        return P.where(P.to_tensor([[0, 1], [1, 1]]) > 0)

    assert_same(*both(run))


def test_getitem_int_fast_path_is_view():
    x = pagaie.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    assert x[1].tolist() == [3.0, 4.0, 5.0]
    assert paddle_ref() is not None


@pytest.mark.parametrize("case", [
    lambda P: P.where(P.ones([2]) > 0, P.ones([2], "float64"), 2.0),
    lambda P: P.where(P.ones([2]) > 0, P.ones([2], "float16"), 2.0),
    lambda P: P.where(P.ones([2]) > 0, 2.0, P.ones([2], "float64")),
    lambda P: P.where(P.ones([2]) > 0, P.ones([2], "bool"), True),
    lambda P: P.where(P.ones([2]) > 0, 1, 0),
])
def test_where_scalar_dtypes(case):
    assert_same(*both(case))


@pytest.mark.parametrize("case", [
    lambda P: P.where(P.ones([2]) > 0, P.ones([2], "int32"), 2),
    lambda P: P.where(P.ones([2]) > 0, P.ones([2]), 2),
    lambda P: P.where(P.ones([2]) > 0, 1, 2.5),
    lambda P: P.strided_slice(P.ones([3, 4]), [-1], [0], [2], [1]),
])
def test_where_and_slice_errors(case):
    same_exception(case)
