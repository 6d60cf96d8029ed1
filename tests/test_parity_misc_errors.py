"""Exception types Paddle raises for a few malformed calls (found by the distribution sweep)."""
import numpy as np
import pytest

from tests.reference import same_exception


@pytest.mark.parametrize("call", [
    lambda p: p.broadcast_tensors([p.ones([2], "float32"), p.ones([2], "float64")]),
    lambda p: p.broadcast_tensors([[1.0, 2.0], p.ones([2])]),
    lambda p: p.broadcast_tensors([np.ones(2, "float32"), p.ones([2])]),
    lambda p: p.clip(np.ones(3, "float32"), 0.0, 1.0),
    lambda p: p.clip([1.0], 0.0, 1.0),
    lambda p: p.cumsum(np.ones(3, "float32")),
    lambda p: p.diagonal(p.to_tensor(1.0)),
    lambda p: p.diagonal(p.ones([3])),
])
def test_same_exception_type(call):
    same_exception(call)
