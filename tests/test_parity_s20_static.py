"""Session-20 sweep of static graphs against real Paddle 3.3.1 (PIR): how ``Executor.run``
converts Python feed data (numpy reads it, then casts it to the input's dtype; other types
are refused), training loops, control flow and ``to_static``."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both_static, same_static_exception

pytest.importorskip("paddle")


def _both(fn):
    return both_static(fn, fresh_programs=True)


# ---- Python feed data ---------------------------------------------------------------------------
def _fed(data, shape=(-1, 3), dtype="float32"):
    """``fw -> the fetched x + 0`` of ``data`` fed to an input of ``shape`` and ``dtype``."""
    def build(fw):
        x = fw.static.data("x", list(shape), dtype)
        exe = fw.static.Executor(fw.CPUPlace())
        return exe.run(feed={"x": data}, fetch_list=[x + 0])
    return build


@pytest.mark.parametrize("data, shape, dtype", [
    (((1, 2, 3),), (-1, 3), "float32"),
    ([[1.7, 2, 3]], (-1, 3), "int32"),
    ([[2 ** 40, 1, 2]], (-1, 3), "int32"),      # numpy's cast wraps around
    (1 + 2j, (), "float32"),                    # ... and keeps the real part
    ([["1", "2.5", "3"]], (-1, 3), "float32"),
    (np.float64(2.5), (), "float32"),
    (True, (), "float32"),
    ([np.ones(3, "float32")], (-1, 3), "float64"),
])
def test_python_feed_data_is_cast_as_numpy_casts_it(data, shape, dtype):
    ours, theirs = _both(_fed(data, shape, dtype))
    assert_same(ours, theirs)


@pytest.mark.parametrize("data", [None, {1, 2, 3}, {"a": 1}, object(), [[1, None, 3]]])
def test_feed_data_numpy_cannot_read_as_numbers_is_a_type_error(data):
    same_static_exception(_fed(data))


@pytest.mark.parametrize("data", ["abc", [[1, 2], [3]]])
def test_feed_data_numpy_cannot_convert_is_a_value_error(data):
    same_static_exception(_fed(data))
