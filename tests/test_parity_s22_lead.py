"""Session-22 lead: behaviours found by side-by-side snippets run with pagaie and real
Paddle 3.3.1 (sparse tensors, ...)."""
from __future__ import annotations

import pytest

from tests.reference import both_same

pytest.importorskip("paddle")


@pytest.mark.parametrize("indices,values,shape", [
    ([[0, 0, 0, 1], [1, 1, 1, 2]], [5.0, 1.0, 2.0, 3.0], [2, 3]),   # sorted, three duplicates
    ([[1, 0, 0], [2, 1, 1]], [3.0, 1.0, 2.0], [2, 3]),              # unsorted
    ([[2, 2, 0]], [1.0, 4.0, 7.0], [3]),
    ([[0, 0]], [[1.0, 2.0], [3.0, 4.0]], [2, 2]),                   # hybrid: dense rows
])
def test_uncoalesced_coo_to_dense_keeps_the_last_duplicate(indices, values, shape):
    """Paddle's ``to_dense`` writes the entries in order, so of duplicate indices the last
    value stands (coalescing sums them)."""
    def run(P):
        x = P.sparse.sparse_coo_tensor(indices, values, shape)
        return [x.to_dense(), P.sparse.coalesce(x).to_dense()]
    both_same(run)
