"""Session-10 differential sweep of indexing and the scatter/gather family against real
Paddle 3.3.1: the differences that were fixed, pinned.

Left alone on purpose (Paddle is wrong or crashes there; pagaie keeps the sane result):
out-of-range advanced indices in ``__getitem__``/``__setitem__``/``index_put`` (Paddle reads
or writes out of bounds), zero gradients to a broadcast value written through a bool mask or
``masked_fill``, no gradient to ``diagonal_scatter``'s ``y``, gradients of negative indices in
``index_select``/``put_along_axis`` backward, ``nan`` gradients of ``put_along_axis(reduce='mul')``
at zeros, and ``scatter_nd``/``scatter_nd_add`` with an index whose last axis is 0.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_F = (np.arange(12, dtype="float32").reshape(3, 4) - 5) / 3


def _x(P, grad=False):
    return P.to_tensor(_F, stop_gradient=not grad)


def _i(P, a, dtype="int64"):
    return P.to_tensor(np.asarray(a), dtype=dtype)


def _value_and_grad(call):
    def run(P):
        x = _x(P, grad=True)
        y = call(P, x)
        w = P.arange(int(np.prod(y.shape)), dtype=y.dtype).reshape(y.shape) + 1
        (y * w).sum().backward()
        return y, x.grad
    return run


# --- __getitem__ / __setitem__ with a range ----------------------------------------------------

@pytest.mark.parametrize("index", [
    lambda: range(2),
    lambda: range(0),
    lambda: (range(2), slice(None)),
    lambda: (slice(None), range(1, 4, 2)),
])
def test_getitem_range_is_its_list(index):
    assert_same(*both(_value_and_grad(lambda P, x: x[index()])))


def test_setitem_range_is_its_list():
    def run(P):
        x = _x(P)
        before = x.inplace_version
        x[range(1, 3), 1] = P.to_tensor([5.0, 6.0])
        return x, x.inplace_version - before
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1]


# --- scatter ---------------------------------------------------------------------------------

@pytest.mark.parametrize("overwrite", [True, False])
@pytest.mark.parametrize("index", [[-1], [-3, 0], [2, -3]])
def test_scatter_negative_index_counts_from_the_end(index, overwrite):
    n = len(index)
    assert_same(*both(_value_and_grad(
        lambda P, x: P.scatter(x, _i(P, index), x[:n] * 2 + 1, overwrite=overwrite))))


@pytest.mark.parametrize("overwrite", [True, False])
def test_scatter_ignores_extra_update_rows(overwrite):
    # values only: Paddle's gradient for the unused rows is uninitialised memory
    assert_same(*both(lambda P: P.scatter(_x(P), _i(P, [1]), P.to_tensor(_F * 3),
                                          overwrite=overwrite)))


@pytest.mark.parametrize("call", [
    lambda P: P.scatter(_x(P), _i(P, [-4]), P.ones([1, 4])),            # below -n: IndexError
    lambda P: P.scatter(_x(P), _i(P, [1, 2]), P.ones([1, 4])),          # too few update rows
    lambda P: P.scatter(_x(P), _i(P, [1]), P.ones([4])),                # update rank
    lambda P: P.scatter(_x(P), _i(P, [1]), P.ones([1, 1, 4])),
    lambda P: P.scatter(_x(P), _i(P, 1), P.ones([1, 4])),               # 0-D index: rank - 1
    lambda P: P.scatter(_x(P), _i(P, [1]), P.ones([1, 3])),             # trailing shape
    lambda P: P.scatter(_x(P), _i(P, [1]), P.ones([2, 5]), overwrite=False),
    lambda P: P.scatter(_x(P)[0, 0], _i(P, [0]), P.ones([1])),          # 0-D x
])
def test_scatter_shape_errors(call):
    same_exception(call)


# --- put_along_axis / take_along_axis without broadcasting ------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.put_along_axis(_x(P), _i(P, [[4]]), 1.0, 1, broadcast=False),      # RuntimeError
    lambda P: P.put_along_axis(_x(P), _i(P, [[1]] * 4), P.ones([4, 1]), 1, broadcast=False),
    lambda P: P.put_along_axis(_x(P), _i(P, [[1, 2]]), P.ones([1, 1]), 1, broadcast=False),
    lambda P: P.put_along_axis(_x(P), _i(P, [[1]]), P.ones([1]), 1, broadcast=False),  # ValueError
    lambda P: P.put_along_axis(_x(P), P.to_tensor([[1.0]]), 1.0, 1),                # TypeError
    lambda P: P.put_along_axis(_x(P), P.to_tensor([[True]]), 1.0, 1),
    lambda P: P.put_along_axis(_x(P), _i(P, [[1]], "int16"), 1.0, 1),
    lambda P: P.take_along_axis(_x(P), _i(P, [[0]] * 4), 1, broadcast=False),       # RuntimeError
])
def test_along_axis_errors(call):
    same_exception(call)


@pytest.mark.parametrize("reduce", ["assign", "add", "amax"])
def test_put_along_axis_no_broadcast_takes_the_leading_values(reduce):
    # values only: Paddle's backward fails on a values tensor larger than the indices
    assert_same(*both(lambda P: P.put_along_axis(
        _x(P), _i(P, [[1, 2]]), P.to_tensor(_F[:2, :3] * 2), 1, reduce=reduce, broadcast=False)))


# --- index shapes the index_* family and gather refuse -----------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.index_select(_x(P), _i(P, 1), axis=1),                   # ValueError
    lambda P: P.index_select(_x(P), _i(P, [[1, 2]]), axis=1),
    lambda P: P.index_select(_x(P), _i(P, [[[1]]]), axis=1),
    lambda P: P.index_select(_x(P)[0, 0], _i(P, [0])),                   # IndexError
    lambda P: P.index_select(_x(P)[0, 0], _i(P, [0]), axis=-1),
    lambda P: P.index_add(_x(P), _i(P, 1), 0, P.ones([1, 4])),           # ValueError
    lambda P: P.index_add(_x(P), _i(P, [[1], [2]]), 0, P.ones([2, 4])),
    lambda P: P.index_fill(_x(P), _i(P, 1), 1, 1.0),
    lambda P: P.index_fill(_x(P), _i(P, [1]), 1, P.to_tensor([5.0])),
    lambda P: P.gather(_x(P), _i(P, [[[1]]]), axis=1),
    lambda P: P.gather(_x(P)[0, 0], _i(P, [0])),                         # IndexError
    lambda P: P.gather(_x(P)[0, 0], _i(P, [0]), axis=0),
    lambda P: P.gather_nd(_x(P), _i(P, 1)),                              # ValueError
    lambda P: P.take(_x(P), [1]),                                        # TypeError
    lambda P: P.take(_x(P), (1,)),
    lambda P: P.take(_x(P), np.array([1])),
])
def test_index_shape_and_type_errors(call):
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda P, x: P.index_select(x, _i(P, [[1], [2]]), axis=1),     # [N, 1] is accepted
    lambda P, x: P.index_fill(x, _i(P, [[1], [2]]), 0, 1.0),       # any rank >= 1
    lambda P, x: P.index_fill(x, _i(P, [1]), 1, P.to_tensor(5.0)),
    lambda P, x: P.gather(x, _i(P, 1), axis=1),
    lambda P, x: P.gather(x, _i(P, [[1], [0]]), axis=1),
    lambda P, x: P.index_add(x, _i(P, [0, 0]), 0, x[:2] * 2),
])
def test_index_shapes_still_accepted(call):
    assert_same(*both(_value_and_grad(call)))


def test_index_put_too_many_indices_is_a_clean_index_error():
    # Paddle 3.3.1 silently ignores the extra index; pagaie refuses it with its own message.
    import pagaie
    x = pagaie.zeros([3, 4])
    idx = (pagaie.to_tensor([0]), pagaie.to_tensor([0]), pagaie.to_tensor([0]))
    with pytest.raises(IndexError, match=r"paddle\.index_put: too many indices \(3\)"):
        pagaie.index_put(x, idx, pagaie.to_tensor(7.0))
