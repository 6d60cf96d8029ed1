"""Session-15: cases from Paddle's legacy unit tests for the top-level APIs ``i`` to ``m``
(index_*, is*, kron, lerp, log*, masked_*, matmul, max/min, mean, median...) that pagaie
answered differently from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception, static_mode


def test_index_add_inplace_takes_the_torch_keywords():
    def f(P):
        x = P.to_tensor(np.arange(12.0, dtype="float32").reshape(3, 4))
        i = P.to_tensor([0, 2])
        return P.index_add_(input=x, dim=1, index=i, source=P.ones([3, 2]), alpha=2.0)
    both_same(f)


@pytest.mark.parametrize("mask, value_shape", [
    ([[False] * 3] * 4, [2, 1]),   # nothing selected: any value shape
    ([False] * 4, [5, 7]),
])
def test_index_put_with_an_all_false_mask_keeps_x(mask, value_shape):
    def f(P):
        x = P.ones([4, 3], "float64")
        x.stop_gradient = False
        v = P.ones(value_shape, "float64")
        v.stop_gradient = False
        out = P.index_put(x, (P.to_tensor(mask),), v)
        return [out, *P.grad(out, [x, v])]
    both_same(f)


@pytest.mark.parametrize("fn", [
    lambda P: P.isclose(P.ones([2]), P.ones([2]), equal_nan=1),
    lambda P: P.allclose(P.ones([2]), P.ones([2]), equal_nan=np.bool_(True)),
    lambda P: P.isclose(P.ones([2], "int32"), P.ones([2], "int32")),   # float kernels only
    lambda P: P.isclose(P.ones([2], "int64"), P.ones([2])),
])
def test_isclose_argument_errors(fn):
    same_exception(fn)


@pytest.mark.parametrize("fn", [
    lambda P, x: P.isclose(x, x),
    lambda P, x: P.isclose(x.astype("float64"), x),   # an integer y: the static check's TypeError
    lambda P, x: P.nn.functional.relu(x),
    lambda P, x: P.nn.functional.avg_pool2d(x, 1),
    lambda P, x: P.nn.functional.conv2d(x, x),
])
def test_int_input_of_a_float_only_op_is_a_type_error_in_a_program(fn):
    def f(P):
        with static_mode(P), P.static.program_guard(P.static.Program()):
            fn(P, P.static.data("x", [1, 1, 2, 2], "int32"))
    same_exception(f)


@pytest.mark.parametrize("api", ["linspace", "logspace"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "float16", "complex64", "bool"])
def test_range_creation_kernels_take_four_dtypes_on_cpu(api, dtype):
    same_exception(lambda P: getattr(P, api)(0, 2, 3, dtype=dtype))


@pytest.mark.parametrize("fn", [
    lambda P: P.linspace(0, 10, 3, dtype="int8"),
    lambda P: P.logsumexp(P.static.data("b", [3], "bool")),
    lambda P: P.amax(P.static.data("c", [3], "complex64")),
])
def test_no_kernel_dtype_is_a_type_error_in_a_program(fn):
    def f(P):
        with static_mode(P), P.static.program_guard(P.static.Program()):
            fn(P)
    same_exception(f)


@pytest.mark.parametrize("fn", [
    lambda P, x: P.multiplex(x, P.static.data("i", [2, 1], "int32")),       # not a list
    lambda P, x: P.multiplex([x], P.static.data("i", [2, 1], "int32")),     # one candidate
    lambda P, x: P.multiplex([x, x], P.static.data("i", [2, 1], "int16")),  # index dtype
    lambda P, x: P.multiplex([x.astype("int16")] * 2, P.static.data("i", [2, 1], "int32")),
    lambda P, x: P.unique(x.astype("int16")),
])
def test_multiplex_and_kernel_dtype_errors_in_a_program(fn):
    def f(P):
        with static_mode(P), P.static.program_guard(P.static.Program()):
            fn(P, P.static.data("x", [2, 2], "int64"))
    same_exception(f)


def test_sort_of_int16_records_in_a_program():
    def f(P):
        with static_mode(P), P.static.program_guard(P.static.Program()):
            return P.sort(P.static.data("x", [2, 2], "int16")).shape
    both_same(f)


@pytest.mark.parametrize("fn", [
    lambda P: P.multiplex(P.ones([2, 2]), P.to_tensor([[0], [1]], "int32")),
    lambda P: P.multiplex([P.ones([2, 2])], P.to_tensor([[0], [0]], "int32")),
])
def test_multiplex_eager_input_errors(fn):
    same_exception(fn)


@pytest.mark.parametrize("dtype", ["bool", "int32", "float16"])
@pytest.mark.parametrize("api", ["inverse", "linalg.slogdet", "linalg.matrix_power"])
def test_linalg_dtype_refusal_is_a_type_error_in_a_program(api, dtype):
    if api == "linalg.matrix_power" and dtype == "float16":
        pytest.skip("matrix_power computes float16 eagerly")
    def f(P):
        fn = P.inverse if api == "inverse" else getattr(P.linalg, api.split(".")[1])
        args = (2,) if api == "linalg.matrix_power" else ()
        with static_mode(P), P.static.program_guard(P.static.Program()):
            fn(P.static.data("x", [4, 4], dtype), *args)
    same_exception(f)


@pytest.mark.parametrize("api", ["logit", "exp", "sqrt", "nn.functional.sigmoid"])
def test_bool_input_of_float_math_is_a_type_error_in_a_program(api):
    def f(P):
        fn = P.nn.functional.sigmoid if api.startswith("nn.") else getattr(P, api)
        with static_mode(P), P.static.program_guard(P.static.Program()):
            fn(P.static.data("x", [4], "bool"))
    same_exception(f)
