"""DataLoader batches of every numpy dtype Paddle accepts: pagaie vs real Paddle 3.3.1."""
import numpy as np
import pytest

from tests.reference import assert_same, both


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
                                   "float64", "uint16"])
def test_numpy_leaves_become_tensors_like_paddle(dtype):
    # uint16 arrays are bfloat16 bit patterns in Paddle (as in paddle.to_tensor).
    data = [np.array([16256 + i, 16384], dtype=dtype) if dtype == "uint16" else np.arange(3).astype(dtype) + i
            for i in range(5)]

    def fn(fw):
        return [(b.dtype, b) for b in fw.io.DataLoader(data, batch_size=2)]
    ours, theirs = both(fn)
    assert [str(d) for d, _ in ours] == [str(d) for d, _ in theirs]
    assert_same([b for _, b in ours], [b for _, b in theirs])
