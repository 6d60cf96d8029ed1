"""Differential tests against real Paddle for the Tensor object's own API (round 27, hK)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


@pytest.mark.parametrize("kwargs", [{}, {"nan": float("inf")}, {"posinf": 9.0, "neginf": -9.0}])
def test_nan_to_num_inplace_version(kwargs):
    data = np.array([np.nan, np.inf, -np.inf, 1.0], "float32")
    got = []
    for mod in (paddle, pagaie):
        x = mod.to_tensor(data)
        r = mod.nan_to_num_(x, **kwargs)
        x.nan_to_num_(**kwargs)
        got.append((r is x, x.inplace_version, x.numpy().tolist()))
    assert got[0] == got[1]
