"""Session-10 differential sweep of paddle.sparse / paddle.geometric against real Paddle 3.3.1.

Only the differences fixed in this pass are pinned here (see the session report for the rest).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.reference import both, same_exception
from tests.sparse.helpers import assert_sparse_same

warnings.filterwarnings("ignore", module="paddle")

_A = np.array([[0, 1.5, 0], [-2, 0, 3]], "float32")
_B = np.array([[1, 0, 0], [-2, 0, 4]], "float32")


def _sp(fw, arr, layout, dtype):
    t = fw.to_tensor(arr.astype(dtype))
    return t.to_sparse_coo(2) if layout == "coo" else t.to_sparse_csr()


# ---------------------------------------------------------------- binary ops: dtype promotion

@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide"])
@pytest.mark.parametrize("layout", ["coo", "csr"])
@pytest.mark.parametrize("dx,dy", [("float32", "int64"), ("int64", "float32"), ("int32", "int64"),
                                   ("int32", "float64")])
def test_binary_mixed_int_dtypes_is_type_error(op, layout, dx, dy):
    exc = same_exception(lambda fw: getattr(fw.sparse, op)(_sp(fw, _A, layout, dx),
                                                           _sp(fw, _B, layout, dy)))
    assert f"sparse.{op}" in str(exc) and dx in str(exc) and dy in str(exc)


@pytest.mark.parametrize("op", ["add", "subtract", "multiply"])
@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_binary_float32_float64_promotes(op, layout):
    ours, theirs = both(lambda fw: getattr(fw.sparse, op)(_sp(fw, _A, layout, "float32"),
                                                          _sp(fw, _B, layout, "float64")))
    assert_sparse_same(ours, theirs)


# ---------------------------------------------------------------- binary ops: argument order

@pytest.mark.parametrize("op", ["add", "subtract"])
def test_binary_scalar_y_checked_before_x_layout(op):
    """A dense x with a scalar y: Paddle's parser rejects y (ValueError) first."""
    same_exception(lambda fw: getattr(fw.sparse, op)(fw.to_tensor(_A), 2.0))
    same_exception(lambda fw: getattr(fw.sparse, op)(_sp(fw, _A, "coo", "float32"), 2.0))
