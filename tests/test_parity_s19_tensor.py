"""Session-19 sweep of the structural tensor ops (reductions, search, indexing, manipulation)
against real Paddle 3.3.1: CPU dtype sets, static-program shapes and bad arguments."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, both_static, same_exception, same_static_exception

_A = [[0, 1, 2], [3, 0, 1]]


def _x(P, dt):
    return P.to_tensor(np.array(_A, dt))


# -- CPU dtype sets: float16/bfloat16 and others Paddle's CPU kernels lack ---------------------

_NO_CPU_KERNEL = [
    ("nonzero", "float16"), ("argwhere", "float16"),
    ("all", "float16"), ("all", "bfloat16"), ("any", "float16"), ("any", "bfloat16"),
    ("argmax", "float16"), ("argmax", "bfloat16"), ("argmin", "float16"), ("argmin", "bfloat16"),
    ("is_empty", "bool"), ("is_empty", "int8"), ("is_empty", "float16"), ("is_empty", "complex64"),
    ("crop", "float16"), ("crop", "bfloat16"),
]
_CALLS = {
    "nonzero": lambda P, x: P.nonzero(x), "argwhere": lambda P, x: P.argwhere(x),
    "all": lambda P, x: P.all(x, 1), "any": lambda P, x: P.any(x), "argmax": lambda P, x: P.argmax(x, 1),
    "argmin": lambda P, x: P.argmin(x), "is_empty": lambda P, x: P.is_empty(x),
    "crop": lambda P, x: P.crop(x, [1, 2]),
}


@pytest.mark.parametrize("api,dt", _NO_CPU_KERNEL)
def test_no_cpu_kernel_eager(api, dt):
    same_exception(lambda P: _CALLS[api](P, _x(P, dt)))


@pytest.mark.parametrize("api,dt", _NO_CPU_KERNEL + [("where", "float16"), ("where", "bfloat16")])
def test_no_cpu_kernel_static(api, dt):
    calls = dict(_CALLS, where=lambda P, x: P.where(P.static.data("c", [2, 3], "bool"), x, x))
    same_static_exception(lambda P: calls[api](P, P.static.data("x", [2, 3], dt)))


@pytest.mark.parametrize("api", sorted(_CALLS))
@pytest.mark.parametrize("dt", ["int32", "float32", "float64"])
def test_cpu_kernel_dtypes_still_run(api, dt):
    assert_same(*both(lambda P: _CALLS[api](P, _x(P, dt))))
