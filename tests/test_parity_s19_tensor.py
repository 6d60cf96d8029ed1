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


# -- static-program shapes --------------------------------------------------------------------

def _static_shapes(fn):
    def run(P):
        out = fn(P, P.static.data)
        return [list(o.shape) for o in (out if isinstance(out, (list, tuple)) else [out])]
    ours, theirs = both_static(run, fresh_programs=True)
    assert ours == theirs


@pytest.mark.parametrize("case", [
    lambda P, D: P.split(D("x", [-1, 6], "float32"), [2, -1], axis=0),       # known section, unknown axis
    lambda P, D: P.split(D("x", [4, -1], "float32"), [2, -1], axis=1),
    lambda P, D: P.split(D("x", [4, 6], "float32"), [D("s", [1], "int64"), -1], axis=1),
    lambda P, D: P.split(D("x", [4, 6], "float32"), [P.full([1], 2, "int64"), -1], axis=1),
    lambda P, D: P.split(D("x", [-1, 6], "float32"), 3, axis=1),
    lambda P, D: P.put_along_axis(D("x", [3, -1], "float32"), D("i", [-1, 1], "int64"), 1.0, 1),
    lambda P, D: P.put_along_axis(D("x", [-1, 4], "float32"), D("i", [1, 4], "int32"), D("v", [1, 4], "float32"), 0),
    lambda P, D: P.take(D("x", [-1, 4], "float32"), D("i", [-1, 5], "int64")),
    lambda P, D: P.scatter_nd_add(D("x", [-1, 4, 5], "float32"), D("i", [-1, 2], "int64"), D("u", [-1, 5], "float32")),
])
def test_static_shapes(case):
    _static_shapes(case)


def test_static_split_by_tensor_section_runs():
    def run(P):
        main = P.static.Program()
        with P.static.program_guard(main, P.static.Program()):
            x = P.static.data("x", [4, 6], "float32")
            s = P.static.data("s", [1], "int64")
            outs = P.split(x, [s, -1], axis=1)
            return P.static.Executor(P.CPUPlace()).run(
                main, feed={"x": np.arange(24, dtype="float32").reshape(4, 6), "s": np.array([2])},
                fetch_list=outs)
    ours, theirs = both_static(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", [
    lambda P, D: P.put_along_axis(D("x", [3, -1], "float32"), D("i", [-1, 1], "int64"), 1.0, 2),
    lambda P, D: P.put_along_axis(D("x", [3, -1], "float32"), D("i", [-1, 1], "float32"), 1.0, 1),
])
def test_static_put_along_axis_bad_arguments(case):
    same_static_exception(lambda P: case(P, P.static.data))
