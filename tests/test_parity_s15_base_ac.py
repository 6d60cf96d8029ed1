"""Session-15: cases from Paddle's own unit tests (APIs a..c) that pagaie answered
differently from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception, same_static_exception


@pytest.mark.parametrize("rtol, atol", [
    (np.array([50.0], "float32"), np.array([49.0], "float32")),
    (np.array([50.0, 0.0]), np.array([48])),         # the first value, any dtype
    (np.array([0.0]), np.array([True])),
])
def test_allclose_reads_numpy_tolerances(rtol, atol):
    both_same(lambda P: P.allclose(P.to_tensor([100, 7]), P.to_tensor([1, 7]), rtol, atol))


@pytest.mark.parametrize("dt", ["int32", "int64", "complex64"])
@pytest.mark.parametrize("fn", [
    lambda P, d: P.bmm(P.ones([1, 2, 2], d), P.ones([1, 2, 2], d)),
    lambda P, d: P.addmm(P.ones([2, 2], d), P.ones([2, 2], d), P.ones([2, 2], d)),
    lambda P, d: P.baddbmm(P.ones([1, 2, 2], d), P.ones([1, 2, 2], d), P.ones([1, 2, 2], d)),
])
def test_batched_matmuls_have_floating_kernels_only(fn, dt):
    same_exception(lambda P: fn(P, dt))


@pytest.mark.parametrize("api", ["as_complex", "view_as_complex"])
@pytest.mark.parametrize("dt", ["float16"])
def test_as_complex_kernel_dtypes(api, dt):
    same_exception(lambda P: getattr(P, api)(P.ones([2, 2], dt)))


@pytest.mark.parametrize("api", ["cov", "corrcoef"])
@pytest.mark.parametrize("dt", ["uint8", "int8", "int16"])
def test_cov_of_small_ints_has_no_subtract_kernel(api, dt):
    same_exception(lambda P: getattr(P.linalg, api)(P.to_tensor(np.ones([2, 3], dt))))


@pytest.mark.parametrize("fn", [
    lambda P: P.combinations(np.ones((3, 3), "float32")),     # the shape is checked first
    lambda P: P.atan2(np.ones(3, "float32"), P.ones([3])),
    lambda P: P.atan2(P.ones([3]), np.ones(3, "float32")),
])
def test_numpy_operands_error_types(fn):
    same_exception(fn)


def _data(P, dt, shape=(3,)):
    return P.static.data("x", list(shape), dt)


@pytest.mark.parametrize("fn", [
    lambda P: P.abs(_data(P, "bool")),
    lambda P: P.cumsum(_data(P, "bool")),
    lambda P: P.cummax(_data(P, "bool")),
    lambda P: P.as_complex(_data(P, "int32", (3, 2))),
    lambda P: P.cdist(_data(P, "int32", (3, 2)), _data(P, "int32", (3, 2))),
    lambda P: P.complex(_data(P, "int32"), _data(P, "int32")),
    lambda P: P.bernoulli(_data(P, "int32")),
    lambda P: P.addmm(_data(P, "int32", (2, 2)), _data(P, "int32", (2, 2)), _data(P, "int32", (2, 2))),
    lambda P: P.bmm(_data(P, "int64", (1, 2, 2)), _data(P, "int64", (1, 2, 2))),
])
def test_static_build_refuses_a_dtype_without_kernel_with_type_error(fn):
    same_static_exception(fn)


@pytest.mark.parametrize("fn", [
    lambda P: P.cumprod([1.0, 2.0], 0),
    lambda P: P.crop([[1.0, 2.0]], [1, 1]),
    lambda P: P.cdist(_data(P, "float32", (3, 2)), [[1.0, 2.0]]),
    lambda P: P.cummax([1.0, 2.0], axis=0),
])
def test_static_build_refuses_lists_with_type_error(fn):
    same_static_exception(fn)


@pytest.mark.parametrize("fn", [
    lambda P: P.cummax([1.0, 2.0], axis=0),    # with an axis: the argument parser's ValueError
    lambda P: P.cummin(np.ones(3), axis=-1),
])
def test_cum_extremes_with_an_axis_refuse_non_tensors(fn):
    same_exception(fn)


@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16", "complex64"])
def test_clip_kernel_dtypes(dt):
    same_exception(lambda P: P.clip(P.ones([2], dt), 0, 1))
    same_exception(lambda P: P.ones([2], dt).clip_(0, 1))


@pytest.mark.parametrize("dt", ["int8", "int16"])
def test_clip_static_build_refuses_small_ints(dt):
    same_static_exception(lambda P: P.clip(_data(P, dt), 0.2, 0.8))


@pytest.mark.parametrize("blocks", [
    lambda P: [np.ones((2, 2)), np.ones((2, 2))],       # 2-D arrays reach concat's parser
    lambda P: [P.ones([2, 2]), np.ones((2, 2))],
    lambda P: [np.ones(2), np.ones(2)],                 # a 1-D array fails on an attribute
])
def test_block_diag_refuses_numpy_blocks(blocks):
    same_exception(lambda P: P.block_diag(blocks(P)))


def test_block_diag_static_build_refuses_numpy_blocks():
    same_static_exception(lambda P: P.block_diag([np.ones((2, 2)), np.ones((2, 2))]))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16"])
def test_arange_kernel_dtypes(dt):
    same_exception(lambda P: P.arange(10, dtype=dt))
    same_static_exception(lambda P: P.arange(10, dtype=dt))


@pytest.mark.parametrize("dt", ["uint8", "int8", "int16"])
def test_broadcast_tensors_kernel_dtypes(dt):
    same_exception(lambda P: P.broadcast_tensors([P.ones([1, 2], dt), P.ones([2, 1], dt)]))
    same_static_exception(lambda P: P.broadcast_tensors([_data(P, dt, (1, 2)), P.static.data("y", [2, 1], dt)]))


@pytest.mark.parametrize("dt", ["bool", "int32", "int64"])
def test_angle_has_floating_and_complex_kernels_only(dt):
    same_exception(lambda P: P.angle(P.ones([2], dt)))
    same_static_exception(lambda P: P.angle(_data(P, dt)))


@pytest.mark.parametrize("dt", ["uint8", "int8", "int16"])
@pytest.mark.parametrize("fn", [
    lambda P, x: P.cumprod(x, 0),
    lambda P, x: P.cummax(x, axis=0),
    lambda P, x: P.cummin(x),
])
def test_cumprod_and_cum_extremes_have_no_small_int_kernels(fn, dt):
    same_exception(lambda P: fn(P, P.to_tensor(np.arange(6, dtype=dt).reshape(2, 3))))


@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16"])
def test_atan2_has_no_bool_or_small_int_kernel(dt):
    same_exception(lambda P: P.atan2(P.ones([2], dt), P.ones([2], dt)))
