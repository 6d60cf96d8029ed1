"""Cases found while reviewing other differences from Paddle 3.3.1."""
from __future__ import annotations

import pytest

from tests.reference import both_same, both_static


@pytest.mark.parametrize("fn", [
    lambda P: P.to_tensor(5) // 2,
    lambda P: 7 // P.to_tensor(5),
    lambda P: P.to_tensor(5.0) // 2.0,
    lambda P: P.to_tensor(5) // P.to_tensor(2),     # two Tensors keep 0-D
    lambda P: P.to_tensor([5, 6]) // 2,
    lambda P: P.to_tensor(5) % 2,
])
def test_floordiv_of_a_0d_tensor_by_a_number_has_shape_1(fn):
    both_same(fn)


def test_floordiv_in_to_static_code_and_programs():
    def traced(P):
        f = P.jit.to_static(lambda x: x // 2)
        return f(P.to_tensor(5.0))
    both_same(traced)

    def program(P):
        x = P.static.data("x", [], "float32")
        return list((x // 2).shape)
    a, b = both_static(program, fresh_programs=True)
    assert a == b == []
