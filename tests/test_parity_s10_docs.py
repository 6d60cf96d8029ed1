"""Session 10: fixes found by re-running the documentation-example audit (tests/audit_docs/).

Each test pins one difference the audit (or a variation of its examples) showed, against real
Paddle 3.3.1.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both

_DENSE = [[-2.0, 0.0], [1.0, 2.0]]


def _full_sum(fw, sparse_dim, keepdim=False, dtype=None):
    x = fw.to_tensor(_DENSE).to_sparse_coo(sparse_dim)
    return fw.sparse.sum(x, dtype=dtype, keepdim=keepdim)


@pytest.mark.parametrize("sparse_dim", [1, 2])
def test_sparse_sum_over_all_axes_has_flat_indices_and_0d_value(sparse_dim):
    """paddle.sparse.sum#0: the full sum (no keepdim) is a [1]-shaped COO tensor whose one
    entry has indices of shape [1] and a 0-D value (Paddle's docstring prints
    ``indices=[0], values=1.``)."""
    ours, theirs = both(lambda fw: _full_sum(fw, sparse_dim))
    assert list(ours.shape) == list(theirs.shape) == [1]
    assert_same(ours.indices(), theirs.indices(), what="indices")
    assert_same(ours.values(), theirs.values(), what="values")
    assert_same(ours.to_dense(), theirs.to_dense(), what="to_dense")
    assert ours.nnz() == theirs.nnz()


def test_sparse_sum_over_all_axes_int_and_dtype():
    def run(fw):
        x = fw.to_tensor(np.array(_DENSE, dtype="int32")).to_sparse_coo(2)
        a = fw.sparse.sum(x)
        b = _full_sum(fw, 1, dtype="float64")
        return [a.indices(), a.values(), b.indices(), b.values()]
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("sparse_dim", [1, 2])
def test_sparse_sum_with_keepdim_or_axis_keeps_2d_indices(sparse_dim):
    """Only the full sum without keepdim is flattened: keepdim and per-axis sums keep the
    usual [sparse_dim, nnz] indices and [nnz, *dense] values."""
    def run(fw):
        x = fw.to_tensor(_DENSE).to_sparse_coo(sparse_dim)
        k = fw.sparse.sum(x, keepdim=True)
        a = fw.sparse.sum(x, axis=0)
        return [k.indices(), k.values(), a.indices(), a.values(), a.to_dense()]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_sparse_sum_over_all_axes_gradient_through_values():
    def run(fw):
        x = fw.to_tensor(_DENSE).to_sparse_coo(2)
        x.stop_gradient = False
        v = fw.sparse.sum(x).values()
        (v * 3).backward()
        return [v, x.grad.to_dense()]
    ours, theirs = both(run)
    assert_same(ours, theirs)
    assert ours[0].stop_gradient == theirs[0].stop_gradient
