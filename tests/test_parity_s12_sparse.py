"""Session-12 sweep of paddle.sparse against real Paddle 3.3.1: the coalesced flag that
transpose / reshape / slice / sum / softmax copy from their input, and the index dtype
(int32 indices, ``sparse.cast(index_dtype=...)``) that Paddle keeps through COO ops and
conversions. Only differences fixed in this pass are pinned here.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import both
from tests.sparse.helpers import assert_sparse_same

warnings.filterwarnings("ignore", module="paddle")

_IDX = [[0, 1, 1], [1, 0, 2]]
_VAL = [1.5, -2.0, 3.0]


def _coo(P, coalesced, idx_dtype="int64"):
    x = P.sparse.sparse_coo_tensor(P.to_tensor(_IDX, dtype=idx_dtype), _VAL, [2, 3])
    return x.coalesce() if coalesced else x


_KEEP_FLAG = {
    "transpose": lambda P, x: P.sparse.transpose(x, [1, 0]),
    "reshape": lambda P, x: P.sparse.reshape(x, [6]),
    "sum_all": lambda P, x: P.sparse.sum(x),
    "sum_all_keepdim": lambda P, x: P.sparse.sum(x, keepdim=True),
    "sum_axis0": lambda P, x: P.sparse.sum(x, 0),
    "sum_axis1_keepdim": lambda P, x: P.sparse.sum(x, -1, keepdim=True),
    "slice": lambda P, x: P.sparse.slice(x, [1], [0], [2]),
    "softmax": lambda P, x: P.sparse.nn.functional.softmax(x),
    "softmax_axis0": lambda P, x: P.sparse.nn.functional.softmax(x, 0),
}


@pytest.mark.parametrize("coalesced", [False, True])
@pytest.mark.parametrize("op", sorted(_KEEP_FLAG))
def test_shape_ops_keep_input_coalesced_flag(op, coalesced):
    """Paddle's transpose/reshape/slice/sum/softmax results copy the input's coalesced flag."""
    ours, theirs = both(lambda P: _KEEP_FLAG[op](P, _coo(P, coalesced)))
    assert ours.is_coalesced() == theirs.is_coalesced()
    assert_sparse_same(ours, theirs)


def test_unary_ops_still_drop_coalesced_flag():
    """Paddle's unary ops mark their result uncoalesced even for a coalesced input."""
    ours, theirs = both(lambda P: P.sparse.sin(_coo(P, True)))
    assert ours.is_coalesced() is theirs.is_coalesced() is False


def test_transposed_coalesced_converts_to_correct_csr():
    """A transposed coalesced tensor is flagged coalesced but out of order: its CSR form must
    still hold the right entries (Paddle's own conversion misplaces them: not copied)."""
    x = pagaie.to_tensor([[0.0, 1.0], [2.0, 3.0]]).to_sparse_coo(2)
    t = pagaie.sparse.transpose(x, [1, 0])
    assert t.is_coalesced()
    csr = t.to_sparse_csr()
    assert csr.crows().tolist() == [0, 1, 3] and csr.cols().tolist() == [1, 0, 1]
    np.testing.assert_array_equal(csr.to_dense().numpy(), [[0.0, 2.0], [1.0, 3.0]])


# -- index dtype -------------------------------------------------------------------------------

_KEEP_INDEX = {
    "construct": lambda P, x: x,
    "coalesce": lambda P, x: P.sparse.coalesce(x),
    "sin": lambda P, x: P.sparse.sin(x),
    "pow": lambda P, x: P.sparse.pow(x, 2),
    "isnan": lambda P, x: P.sparse.isnan(x),
    "cast_values": lambda P, x: P.sparse.cast(x, value_dtype="float64"),
    "relu": lambda P, x: P.sparse.nn.functional.relu(x),
    "softmax": lambda P, x: P.sparse.nn.functional.softmax(x),
    "add": lambda P, x: P.sparse.add(x, x),
    "multiply_scalar": lambda P, x: P.sparse.multiply(x, 2.0),
    "divide": lambda P, x: P.sparse.divide(x, x),
    "reshape": lambda P, x: P.sparse.reshape(x, [3, 2]),
    "sum": lambda P, x: P.sparse.sum(x, 0),
    "sum_all": lambda P, x: P.sparse.sum(x),
    "mask_as": lambda P, x: P.sparse.mask_as(P.ones([2, 3]), x),
    "csr_round_trip": lambda P, x: x.to_sparse_csr().to_sparse_coo(2),
}


@pytest.mark.parametrize("op", sorted(_KEEP_INDEX))
def test_int32_indices_are_kept(op):
    """Paddle keeps int32 COO indices through its sparse ops and conversions."""
    ours, theirs = both(lambda P: _KEEP_INDEX[op](P, _coo(P, False, "int32")))
    assert str(ours.indices().dtype) == str(theirs.indices().dtype) == "paddle.int32"
    assert_sparse_same(ours, theirs)


def test_int32_coo_to_csr_has_int32_index_arrays():
    """A COO tensor with int32 indices converts to a CSR tensor with int32 crows and cols."""
    ours, theirs = both(lambda P: _coo(P, True, "int32").to_sparse_csr())
    assert str(ours.crows().dtype) == str(theirs.crows().dtype) == "paddle.int32"
    assert str(ours.cols().dtype) == str(theirs.cols().dtype)
    assert_sparse_same(ours, theirs)


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_cast_index_dtype(layout):
    """sparse.cast(x, 'int32', 'float64') gives int32 indices (COO) or crows/cols (CSR)."""
    def f(P):
        x = P.to_tensor([-2.0, 0.0, 1.0]).to_sparse_coo(1) if layout == "coo" else \
            P.to_tensor([[-2.0, 0.0], [0.0, 1.0]]).to_sparse_csr()
        return P.sparse.cast(x, "int32", "float64")
    ours, theirs = both(f)
    part = "indices" if layout == "coo" else "crows"
    assert str(getattr(ours, part)().dtype) == str(getattr(theirs, part)().dtype) == "paddle.int32"
    assert_sparse_same(ours, theirs)


def test_cast_back_to_int64_indices():
    """Casting int32 indices back with index_dtype='int64' reports int64 again."""
    ours, theirs = both(lambda P: P.sparse.cast(_coo(P, False, "int32"), "int64"))
    assert str(ours.indices().dtype) == str(theirs.indices().dtype) == "paddle.int64"


def test_int32_csr_to_coo_has_int32_indices():
    """A CSR tensor with int32 index arrays converts to COO indices of int32."""
    def f(P):
        c = P.sparse.sparse_csr_tensor(P.to_tensor([0, 1, 3], dtype="int32"),
                                       P.to_tensor([1, 0, 2], dtype="int32"), _VAL, [2, 3])
        return c.to_sparse_coo(2)
    ours, theirs = both(f)
    assert str(ours.indices().dtype) == str(theirs.indices().dtype) == "paddle.int32"
    assert_sparse_same(ours, theirs)
