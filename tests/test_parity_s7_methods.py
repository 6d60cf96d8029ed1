"""Session-7 sweep: Tensor-method and in-place forms of the manipulation / indexing / search ops
against real Paddle 3.3.1 (values, identity, inplace_version, autograd, error types)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _x(fw, shape=(3, 3), dtype="float32"):
    return fw.to_tensor(np.arange(int(np.prod(shape))).reshape(shape).astype(dtype))


def _idx(fw, v):
    return fw.to_tensor(np.array(v, dtype="int64"))


# ---- a tensor written into x must have x's dtype (Paddle never casts it) ---------------------
_WRITES = {
    "scatter": (ValueError, lambda fw, x, v: fw.scatter(x, _idx(fw, [2, 0]), fw.ones([2, 3], v))),
    "scatter_": (ValueError, lambda fw, x, v: x.scatter_(_idx(fw, [2, 0]), fw.ones([2, 3], v))),
    "index_put": (ValueError, lambda fw, x, v: fw.index_put(x, (_idx(fw, [2, 0]),), fw.ones([3], v))),
    "index_put_": (ValueError, lambda fw, x, v: x.index_put_((_idx(fw, [2, 0]),), fw.ones([3], v))),
    "index_add": (ValueError, lambda fw, x, v: fw.index_add(x, _idx(fw, [2, 0]), 0, fw.ones([2, 3], v))),
    "index_fill_t": (ValueError, lambda fw, x, v: fw.index_fill(x, _idx(fw, [0]), 0, fw.to_tensor(2.0, v))),
    "masked_fill_t": (ValueError, lambda fw, x, v: x.masked_fill_(x > 4, fw.to_tensor(2.0, v))),
    "masked_scatter": (AssertionError, lambda fw, x, v: x.masked_scatter(x > 4, fw.ones([9], v))),
    "put_along_axis": (ValueError, lambda fw, x, v: x.put_along_axis(_idx(fw, [[0], [1], [2]]),
                                                                     fw.ones([3, 1], v), 1)),
    "scatter_add_": (ValueError, lambda fw, x, v: x.scatter_add_(1, _idx(fw, [[0], [1], [2]]),
                                                                 fw.ones([3, 1], v))),
    "scatter_nd_add": (TypeError, lambda fw, x, v: fw.scatter_nd_add(x, _idx(fw, [[1], [1]]),
                                                                     fw.ones([2, 3], v))),
}


@pytest.mark.parametrize("op", sorted(_WRITES))
@pytest.mark.parametrize("xd,vd", [("float32", "float64"), ("int64", "int32"), ("int32", "float32")])
def test_written_tensor_dtype_must_match(op, xd, vd):
    err, fn = _WRITES[op]
    e = same_exception(lambda fw: fn(fw, _x(fw, dtype=xd), vd))
    assert isinstance(e, err)
    assert "dtype" in str(e)


@pytest.mark.parametrize("op", sorted(_WRITES))
def test_written_tensor_same_dtype_still_works(op):
    _, fn = _WRITES[op]
    ours, theirs = both(lambda fw: fn(fw, _x(fw), "float32"))
    assert_same(ours, theirs)


# ---- where: the condition's dtype is checked first -------------------------------------------
def test_where_method_non_bool_condition():
    same_exception(lambda fw: _x(fw).where(_x(fw) > 3, fw.zeros([3, 3])))
    ours, theirs = both(lambda fw: (_x(fw) > 3).where(_x(fw), fw.zeros([3, 3])))
    assert_same(ours, theirs)


# ---- transpose(x, dim0=, dim1=) ----------------------------------------------------------------
@pytest.mark.parametrize("kw", [dict(dim0=0, dim1=2), dict(axis0=-1, axis1=0), dict(dim0=1, dim1=1)])
def test_transpose_torch_keywords(kw):
    ours, theirs = both(lambda fw: fw.transpose(_x(fw, (2, 3, 4)), **kw))
    assert_same(ours, theirs)
    ours, theirs = both(lambda fw: _x(fw, (2, 3, 4)).transpose(**kw))
    assert_same(ours, theirs)
    ours, theirs = both(lambda fw: fw.transpose(input=_x(fw, (2, 3, 4)), **kw))
    assert_same(ours, theirs)


def test_transpose_plain_forms_unchanged():
    ours, theirs = both(lambda fw: _x(fw, (2, 3, 4)).transpose([2, 0, 1]))
    assert_same(ours, theirs)
    ours, theirs = both(lambda fw: fw.transpose(_x(fw, (2, 3, 4)), perm=(1, 0, 2)))
    assert_same(ours, theirs)


# ---- inplace_version counts --------------------------------------------------------------------
@pytest.mark.parametrize("shape,new", [((3, 4), [3, 4]), ((3, 4), (3, 4)), ((3, 4), [12]),
                                       ((3, 4), [-1, 4]), ((2, 6), [2, 6])])
def test_reshape_inplace_version(shape, new):
    def f(fw):
        x = _x(fw, shape)
        r = x.reshape_(new)
        return [r is x, x, x.inplace_version]
    ours, theirs = both(f)
    assert ours[0] and theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_reshape_inplace_same_shape_on_grad_leaf():
    # Paddle returns x untouched before its leaf check when the shape does not change
    def f(fw):
        x = _x(fw, (3, 4))
        x.stop_gradient = False
        return [x.reshape_([3, 4]) is x, x.inplace_version]
    ours, theirs = both(f)
    assert ours == theirs
    same_exception(lambda fw: (lambda x: (setattr(x, "stop_gradient", False), x.reshape_([12])))(
        _x(fw, (3, 4))))


@pytest.mark.parametrize("index", [[0, 2], [1], []])
def test_index_fill_inplace_version(index):
    def f(fw):
        x = _x(fw)
        r = x.index_fill_(_idx(fw, index), 1, -1.0)
        return [r is x, x, x.inplace_version]
    ours, theirs = both(f)
    assert ours[0] and theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_index_fill_inplace_grad_through_non_leaf():
    def f(fw):
        x = _x(fw)
        x.stop_gradient = False
        y = x * 1.0
        y.index_fill_(_idx(fw, [0, 2]), 1, 5.0)
        (y * fw.to_tensor(np.arange(1, 10).reshape(3, 3).astype("float32"))).sum().backward()
        return [y, x.grad]
    ours, theirs = both(f)
    assert_same(ours, theirs)


# ---- expand / broadcast results are new tensors (writing into them leaves x alone) ------------
_BROADCASTS = {
    "expand": lambda fw, x: x.expand([2, 3]),
    "expand_varargs": lambda fw, x: x.expand(2, 3),
    "expand_same": lambda fw, x: x.expand([1, 3]),
    "expand_as": lambda fw, x: x.expand_as(fw.zeros([2, 3])),
    "broadcast_to": lambda fw, x: fw.broadcast_to(x, [2, 3]),
    "broadcast_tensors": lambda fw, x: fw.broadcast_tensors([x, fw.zeros([2, 3])])[0],
    "broadcast_tensors_full": lambda fw, x: fw.broadcast_tensors([fw.zeros([2, 3]) + x, x])[0],
}


@pytest.mark.parametrize("op", sorted(_BROADCASTS))
def test_broadcast_result_does_not_alias_input(op):
    def f(fw):
        x = _x(fw, (1, 3))
        y = _BROADCASTS[op](fw, x)
        y[0, 0] = 9.0
        y.fill_(7.0) if op.endswith("_full") else None
        return [x, y, x.inplace_version]
    ours, theirs = both(f)
    assert_same(ours, theirs)


def test_expand_grad_unchanged():
    def f(fw):
        x = fw.to_tensor([[1.0, 2.0, 3.0]])
        x.stop_gradient = False
        y = (x * 2).expand([2, 3])
        (y * y).sum().backward()
        return [y, x.grad]
    ours, theirs = both(f)
    assert_same(ours, theirs)


# ---- where_ takes Tensors only -----------------------------------------------------------------
@pytest.mark.parametrize("which", ["x", "y"])
def test_where_inplace_rejects_scalars(which):
    def f(fw):
        x = _x(fw)
        y = fw.zeros([3, 3])
        if which == "x":
            return fw.where_(x > 3, 1.0, y)
        return fw.where_(x > 3, x, 0.0)
    same_exception(f)


def test_where_inplace_tensors():
    def f(fw):
        x = _x(fw)
        r = fw.where_(fw.to_tensor([True, False, True]), x, fw.zeros([3, 3]))
        return [r is x, x, x.inplace_version]
    ours, theirs = both(f)
    assert_same(ours, theirs)


def test_fill_with_a_tensor_value_raises_type_error():
    same_exception(lambda fw: fw.ones([2]).fill_(fw.to_tensor(2.0)))
