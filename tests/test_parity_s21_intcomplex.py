"""Session-21: integer and complex arithmetic and reductions against real Paddle 3.3.1
(shifts, reductions' result dtypes on int and bool tensors, complex ops)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")


# -- bitwise shifts -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_logical_right_shift_by_a_negative_amount_is_zero(dtype):
    x = np.array([-7, -7, 7, 100, -100], dtype)
    y = np.array([-1, -9, -1, 7, 7], dtype)
    ours, theirs = both(lambda P: P.bitwise_right_shift(P.to_tensor(x), P.to_tensor(y), is_arithmetic=False))
    assert_same(ours, theirs)
