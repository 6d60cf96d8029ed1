"""Session-19 round 2: loss and matmul-family error/dtype parity against real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")


def _t(P, a, dt="float32"):
    return P.to_tensor(np.array(a, dt))


# -- binary_cross_entropy with an input outside [0, 1] ----------------------------------------

@pytest.mark.parametrize("bad", [-0.2, 1.5, float("nan")])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_bce_input_outside_unit_interval(bad, dt):
    err = same_exception(lambda P: P.nn.functional.binary_cross_entropy(
        _t(P, [0.5, bad, 0.3], dt), _t(P, [1.0, 0.0, 1.0], dt)))
    assert "paddle.nn.functional.binary_cross_entropy" in str(err)
    assert "'input'" in str(err)
    same_exception(lambda P: P.nn.BCELoss()(_t(P, [2.0, 0.5]), _t(P, [1.0, 0.5])))


# -- gaussian_nll_loss with a non-str reduction -----------------------------------------------

@pytest.mark.parametrize("red", [None, 1, ["mean"], "bad"])
def test_gaussian_nll_loss_reduction_type(red):
    err = same_exception(lambda P: P.nn.functional.gaussian_nll_loss(
        _t(P, [[1.0, 2.0]]), _t(P, [[1.5, 2.5]]), _t(P, [[0.5, 1.0]]), reduction=red))
    assert "reduction" in str(err)
