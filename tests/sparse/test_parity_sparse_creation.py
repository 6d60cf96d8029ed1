"""``paddle.sparse`` tensor creation checks against real Paddle 3.3.1: malformed CSR row
offsets raise, well-formed ones (2-D and batched 3-D) build the same tensor."""
from __future__ import annotations

import warnings

import pytest

from tests.reference import assert_same, both, same_exception

warnings.filterwarnings("ignore", module="paddle")


def _csr_parts(t):
    return [t.crows(), t.cols(), t.values(), t.to_dense(), t.nnz()]


@pytest.mark.parametrize("crows,cols,values,shape", [
    ([0, 2, 3, 4], [1, 3, 2, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0], [3, 4]),  # last != nnz
    ([1, 2, 3, 5], [1, 3, 2, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0], [3, 4]),  # first != 0
    ([0, 2, 3], [1, 3, 2, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0], [3, 4]),     # too short
])
def test_bad_crows(crows, cols, values, shape):
    same_exception(lambda fw: fw.sparse.sparse_csr_tensor(crows, cols, values, shape))


@pytest.mark.parametrize("crows,cols,values,shape", [
    ([0, 2, 3, 5], [1, 3, 2, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0], [3, 4]),
    ([0, 1, 2, 0, 1, 2], [0, 1, 1, 0], [1.0, 2.0, 3.0, 4.0], [2, 2, 2]),
    ([0, 2, 3, 5], [1, 3, 2, 0, 1], [1, 2, 3, 4, 5], None),
])
def test_good_crows(crows, cols, values, shape):
    assert_same(*both(lambda fw: _csr_parts(fw.sparse.sparse_csr_tensor(crows, cols, values,
                                                                         shape))))
