"""Session-23 sweep of ``paddle.Tensor`` methods against real Paddle 3.3.1: operators with
numpy numbers and bool tensors, in-place variants (gradients through them on non-leaf tensors,
operands aliasing the output) and ``contiguous``."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

pytest.importorskip("paddle")


# -- bool / bool divides as integers -------------------------------------------------------------

@pytest.mark.parametrize("form", ["divide", "operator", "inplace", "python_bool", "reflected_bool", "0d"])
def test_bool_divided_by_bool_is_bool(form):
    def run(P):
        x = P.to_tensor([True, False])
        y = P.to_tensor([True, True])
        return {"divide": lambda: P.divide(x, y), "operator": lambda: x / y,
                "inplace": lambda: x.divide_(y), "python_bool": lambda: x / True,
                "reflected_bool": lambda: True / P.to_tensor([True, True]),
                "0d": lambda: x / P.to_tensor(True)}[form]()
    assert_same(*both(run))


@pytest.mark.parametrize("form", ["tensor", "python_bool", "reflected_bool"])
def test_bool_divided_by_false_is_an_integer_division_by_zero(form):
    def run(P):
        x = P.to_tensor([True, False])
        return {"tensor": lambda: x / P.to_tensor([True, False]), "python_bool": lambda: x / False,
                "reflected_bool": lambda: True / x}[form]()
    with pytest.raises(Exception) as theirs:
        run(paddle_ref())
    assert type(theirs.value).__name__ == "EnforceNotMet"
    with pytest.raises(ZeroDivisionError):   # (pagaie's integer division by zero, as for //)
        run(pagaie)


# -- gradients through in-place ops on non-leaf tensors -------------------------------------------

@pytest.mark.parametrize("view", [False, True])
def test_floor_divide_inplace_passes_gradients_through(view):
    """floor_divide_ records no backward: x keeps its grad node (the gradient is not zeroed)."""
    def run(P):
        a = P.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        x = a * 1.0
        target = x[0] if view else x
        target.floor_divide_(P.full(target.shape, 2.0))
        (x * a).sum().backward()
        return [x, a.grad]
    assert_same(*both(run))
