"""Cases from Paddle's own unit tests (top-level APIs a..c) that pagaie answered differently
from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception, same_static_exception


_MM = {
    "addmm": (lambda P, o: P.addmm(o, o, o), [2, 2]),
    "baddbmm": (lambda P, o: P.baddbmm(o, o, o), [1, 2, 2]),
    "addmm_": (lambda P, o: o.addmm_(o, o), [2, 2]),
    "baddbmm_": (lambda P, o: o.baddbmm_(o, o), [1, 2, 2]),
}


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "complex64"])
@pytest.mark.parametrize("api", sorted(_MM))
def test_addmm_cpu_kernels_take_float32_and_float64_only(api, dt):
    fn, shape = _MM[api]
    same_exception(lambda P: fn(P, P.ones(shape, dt)))


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("api", ["addmm", "baddbmm"])
def test_addmm_static_build_refuses_half_precision(api, dt):
    fn, shape = _MM[api]
    same_static_exception(lambda P: fn(P, P.static.data("o", shape, dt)))


_SMALL_INT_KERNELS = {   # ops whose CPU kernels have no int8/uint8/int16 version
    "abs": lambda P, x: P.abs(x),
    "abs_": lambda P, x: x.abs_(),
    "add_n": lambda P, x: P.add_n([x, x]),
    "add_n_tensor": lambda P, x: P.add_n(x),
    "all": lambda P, x: P.all(x),
    "any": lambda P, x: P.any(x, 1),
    "allclose": lambda P, x: P.allclose(x, x),
    "amax": lambda P, x: P.amax(x),
    "amin": lambda P, x: P.amin(x, 1),
}


@pytest.mark.parametrize("dt", ["uint8", "int8", "int16"])
@pytest.mark.parametrize("api", sorted(_SMALL_INT_KERNELS))
def test_small_int_kernels_missing_on_the_cpu(api, dt):
    same_exception(lambda P: _SMALL_INT_KERNELS[api](P, P.ones([2, 3], dt)))


@pytest.mark.parametrize("api", ["abs", "add_n", "all", "allclose", "amax"])
def test_small_int_kernels_missing_while_a_program_is_built(api):
    same_static_exception(lambda P: _SMALL_INT_KERNELS[api](P, P.static.data("x", [2, 3], "int8")))


@pytest.mark.parametrize("dt", ["int16", "uint8", "int32"])
def test_arg_extremes_take_int16_and_uint8(dt):
    both_same(lambda P: [P.argmax(P.ones([2, 3], dt)), P.argmin(P.ones([2, 3], dt), 1)])


def test_int32_kernels_present():
    both_same(lambda P: [P.abs(P.ones([2, 3], "int32")), P.all(P.ones([2, 3], "int32")),
                         P.add_n([P.ones([2], "int32")] * 2), P.amax(P.ones([2, 3], "int32"))])


def test_add_n_has_no_bool_kernel():
    same_exception(lambda P: P.add_n([P.ones([2], "bool")] * 2))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_allclose_has_no_complex_kernel(dt):
    same_exception(lambda P: P.allclose(P.ones([2], dt), P.ones([2], dt)))
    same_static_exception(lambda P: P.allclose(P.static.data("x", [2], dt), P.static.data("y", [2], dt)))


@pytest.mark.parametrize("api", ["argmax", "argmin"])
def test_arg_extremes_refuse_int8_and_complex(api):
    same_exception(lambda P: getattr(P, api)(P.ones([2, 3], "int8")))
    same_static_exception(lambda P: getattr(P, api)(P.static.data("x", [2, 3], "int8")))
    same_static_exception(lambda P: getattr(P, api)(P.static.data("x", [2, 3], "complex64"), 1))


@pytest.mark.parametrize("dt", ["float32", "complex64"])
@pytest.mark.parametrize("fn", [
    lambda P, x: P.bitwise_and(x, x),
    lambda P, x: P.bitwise_not(x),
    lambda P, x: P.bitwise_or(x, x),
])
def test_bitwise_ops_refuse_floats_while_a_program_is_built(fn, dt):
    same_static_exception(lambda P: fn(P, P.static.data("x", [2], dt)))


def test_as_strided_is_eager_only():
    same_static_exception(lambda P: P.as_strided(P.static.data("x", [2, 3], "float32"), [2], [1]))


@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16"])
def test_meshgrid_based_products_have_no_small_int_kernel(dt):
    x = np.array([1, 0, 2])
    same_exception(lambda P: P.cartesian_prod([P.to_tensor(x).astype(dt)] * 2))
    same_exception(lambda P: P.combinations(P.to_tensor(x).astype(dt), 2))
    same_exception(lambda P: P.combinations(P.to_tensor(x).astype(dt), 4, True))
    both_same(lambda P: [P.combinations(P.to_tensor(x).astype(dt), 1),
                         P.cartesian_prod([P.to_tensor(x).astype(dt)])])


@pytest.mark.parametrize("dt", ["int8", "bool", "complex64"])
@pytest.mark.parametrize("r", [1, 2])
def test_combinations_static_build_checks_the_dtype(dt, r):
    same_static_exception(lambda P: P.combinations(P.static.data("x", [3], dt), r))


@pytest.mark.parametrize("dx, dy", [("complex64", "complex64"), ("float16", "float32"), ("float32", "float16")])
def test_cdist_static_build_takes_float32_and_float64_only(dx, dy):
    same_static_exception(lambda P: P.cdist(P.static.data("x", [2, 3], dx), P.static.data("y", [2, 3], dy)))


@pytest.mark.parametrize("dt", ["uint8", "int8", "int16"])
def test_cross_and_conj_have_no_small_int_kernel(dt):
    same_exception(lambda P: P.cross(P.ones([2, 3], dt), P.ones([2, 3], dt)))
    same_exception(lambda P: P.conj(P.ones([2, 3], dt)))


@pytest.mark.parametrize("fn", [
    lambda P, x: P.cross(x, x),
    lambda P, x: P.conj(x),
    lambda P, x: x.conj(),
])
def test_cross_and_conj_static_build_refuse_bool(fn):
    same_exception(lambda P: fn(P, P.ones([2, 3], "bool")))
    same_static_exception(lambda P: fn(P, P.static.data("x", [2, 3], "bool")))


@pytest.mark.parametrize("fn", [
    lambda P, x: P.ceil(x),
    lambda P, x: P.atan2(x, x),
    lambda P, x: P.copysign(x, x),
    lambda P, x: P.cummax(x, 1),
    lambda P, x: P.cummin(x, 1),
])
def test_real_only_ops_refuse_complex_while_a_program_is_built(fn):
    same_static_exception(lambda P: fn(P, P.static.data("x", [2, 3], "complex64")))


@pytest.mark.parametrize("dt", ["int16", "complex64", "complex128"])
def test_chunk_kernel_dtypes(dt):
    same_exception(lambda P: P.chunk(P.ones([2, 3], dt), 3, 1))
    same_static_exception(lambda P: P.chunk(P.static.data("x", [2, 3], dt), 3, 1))


def test_chunk_takes_int8():
    both_same(lambda P: P.chunk(P.ones([2, 3], "int8"), 3, 1))


@pytest.mark.parametrize("fn", [
    lambda P, x: P.concat([x, x]),
    lambda P, x: P.column_stack([x, x]),
    lambda P, x: P.block_diag([x, x]),
])
def test_concat_family_static_build_refuses_uint8(fn):
    same_static_exception(lambda P: fn(P, P.static.data("x", [2, 3], "uint8")))
    both_same(lambda P: fn(P, P.ones([2, 3], "uint8")))


@pytest.mark.parametrize("dt", ["uint8", "int8"])
def test_argwhere_has_no_int8_or_uint8_kernel(dt):
    same_exception(lambda P: P.argwhere(P.ones([2, 3], dt)))
    same_static_exception(lambda P: P.argwhere(P.static.data("x", [2, 3], dt)))
    both_same(lambda P: P.argwhere(P.ones([2, 3], "int16")))


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int16", "complex64"])
def test_crop_kernel_dtypes(dt):
    same_exception(lambda P: P.crop(P.ones([2, 3], dt), [1, 2]))
    same_static_exception(lambda P: P.crop(P.static.data("x", [2, 3], dt), [1, 2]))


def test_crop_static_build_refuses_float16():
    same_static_exception(lambda P: P.crop(P.static.data("x", [2, 3], "float16"), [1, 2]))


@pytest.mark.parametrize("dt", ["int32", "bool", "complex64"])
def test_addmm_checks_shapes_before_dtypes(dt):
    same_exception(lambda P: P.addmm(P.ones([2, 3], dt), P.ones([2, 3], dt), P.ones([3, 2], dt)))
    same_exception(lambda P: P.baddbmm(P.ones([1, 2, 3], dt), P.ones([1, 2, 3], dt), P.ones([1, 3, 2], dt)))


@pytest.mark.parametrize("minlength", [2.7, -0.5, True, np.float64(4.5), np.array([4])])
def test_bincount_minlength_through_paddles_scalar_parser(minlength):
    both_same(lambda P: P.bincount(P.to_tensor([1, 2, 2]), minlength=minlength))


def test_bincount_minlength_float_tensor_is_truncated():
    both_same(lambda P: P.bincount(P.to_tensor([1, 2, 2]), minlength=P.to_tensor(4.5)))


def test_an_allocation_failure_is_a_memory_error():
    same_exception(lambda P: P.bincount(P.to_tensor([1]), minlength=2**45))


@pytest.mark.parametrize("data", [np.array([1, 2], "uint8"), np.array([1, 2], "int16"), [np.uint8(1)],
                                  np.array([], "uint8")])
def test_assign_has_no_uint8_or_int16_data_kernel(data):
    same_exception(lambda P: P.assign(data))


def test_assign_takes_int8_data_and_uint8_tensors():
    both_same(lambda P: [P.assign(np.array([1, 2], "int8")),
                         P.assign(P.to_tensor(np.array([1, 2], "uint8")))])


@pytest.mark.parametrize("kw", [{"right": 1}, {"out_int32": 1}, {"right": "a"}, {"right": None},
                                {"out_int32": None}])
def test_bucketize_flags_take_bools_only(kw):
    x = np.array([2.0, 3.5])
    seq = np.array([1.0, 2.0, 3.0])
    if None in kw.values():
        both_same(lambda P: P.bucketize(P.to_tensor(x), P.to_tensor(seq), **kw))
    else:
        same_exception(lambda P: P.bucketize(P.to_tensor(x), P.to_tensor(seq), **kw))


@pytest.mark.parametrize("v", [1, "a", None])
@pytest.mark.parametrize("fn", [
    lambda P, x, v: P.bitwise_left_shift(x, x, is_arithmetic=v),
    lambda P, x, v: P.bitwise_right_shift(x, x, v),
    lambda P, x, v: x.bitwise_right_shift_(x, v),
])
def test_shift_is_arithmetic_takes_bools_only(fn, v):
    if v is None:
        both_same(lambda P: fn(P, P.to_tensor([1, 2]), v))
    else:
        same_exception(lambda P: fn(P, P.to_tensor([1, 2]), v))


@pytest.mark.parametrize("shapes", [([2, 3], [3]), ([2, 3], [1, 3]), ([2, 3], [2, 3], [3])])
def test_add_n_does_not_broadcast(shapes):
    same_exception(lambda P: P.add_n([P.ones(s) for s in shapes]))


def test_add_n_static_build_checks_ranks():
    same_static_exception(lambda P: P.add_n([P.static.data("a", [2, 3]), P.static.data("b", [3])]))


def test_block_diag_static_build_needs_known_sizes():
    same_static_exception(lambda P: P.block_diag([P.static.data("x", [-1, 3]), P.static.data("y", [2, 3])]))


@pytest.mark.parametrize("kw", [{}, {"right": True}, {"out_int32": True}])
def test_bucketize_puts_infinities_past_the_last_boundary(kw):
    x = np.array([-np.inf, np.inf, np.nan, -2.0, 0.5], "float32")
    both_same(lambda P: P.bucketize(P.to_tensor(x), P.to_tensor([-1.0, 0.0, 1.0]), **kw))
    both_same(lambda P: P.bucketize(P.to_tensor(x), P.to_tensor([-np.inf, 0.0, np.inf]), **kw))


@pytest.mark.parametrize("x", [[[1.0, 2.0], [3.0, 4.0]], np.ones([2, 2], "float32"), 2.0, None, "ab"])
@pytest.mark.parametrize("api", ["column_stack", "cartesian_prod"])
def test_joins_of_non_tensors_fail_as_paddles_python_code(api, x):
    same_exception(lambda P: getattr(P, api)(x))
    same_static_exception(lambda P: getattr(P, api)(x))


def test_concat_of_none():
    same_exception(lambda P: P.concat(None))
    same_static_exception(lambda P: P.concat(None))


@pytest.mark.parametrize("fn", [
    lambda P, t, a: P.allclose(a, t),
    lambda P, t, a: P.allclose(t, a),
    lambda P, t, a: P.linalg.cov(a),
    lambda P, t, a: P.linalg.corrcoef(a),
    lambda P, t, a: P.bucketize(t, a),
])
def test_static_api_type_checks_refuse_numpy_arrays(fn):
    same_static_exception(lambda P: fn(P, P.static.data("t", [2, 2]), np.ones([2, 2], "float32")))


@pytest.mark.parametrize("seq", [[1.0, 2.0], 2.0, None])
def test_bucketize_static_sorted_sequence_must_be_a_value(seq):
    same_static_exception(lambda P: P.bucketize(P.static.data("t", [2, 2]), seq))


_NON_TENSORS = [[[1.0, 2.0], [3.0, 4.0]], np.ones([2, 2], "float32"), 2.0, None, "ab"]


@pytest.mark.parametrize("x", _NON_TENSORS)
@pytest.mark.parametrize("fn", [
    lambda P, x: P.cumprod(x),
    lambda P, x: P.cumprod(x, 0),
    lambda P, x: P.baddbmm(x, P.ones([1, 2, 2]), P.ones([1, 2, 2])),
    lambda P, x: P.binomial(x, P.ones([2, 2])),
])
def test_non_tensor_inputs_fail_as_in_paddle(fn, x):
    same_exception(lambda P: fn(P, x))
    if not isinstance(x, np.ndarray):   # (Paddle's static baddbmm reads an array's shape first)
        same_static_exception(lambda P: fn(P, x))


@pytest.mark.parametrize("x", _NON_TENSORS + [[[1.0], [2.0]]])
@pytest.mark.parametrize("fn", [
    lambda P, x: P.add_n(x),
    lambda P, x: P.broadcast_tensors(x),
    lambda P, x: P.bitwise_and(x, P.ones([2, 2])),
])
def test_list_and_binary_ops_of_non_tensors(fn, x):
    same_exception(lambda P: fn(P, x))
    same_static_exception(lambda P: fn(P, x))


@pytest.mark.parametrize("x", [[[1.0, 2.0]], 2.0, None, "ab"])
def test_broadcast_to_static_reads_the_dtype_of_x_first(x):
    same_static_exception(lambda P: P.broadcast_to(x, [2, 2]))


@pytest.mark.parametrize("ddof", [2, 3, 4, -1, 2.5, 0.5, True, False])
@pytest.mark.parametrize("kw", [{}, {"fweights": [1, 2, 1]}, {"aweights": [1.0, 2.0, 1.0]}])
def test_cov_ddof_as_a_number(ddof, kw):
    def fn(P):
        w = {k: P.to_tensor(v) for k, v in kw.items()}
        return P.linalg.cov(P.to_tensor([[1.0, 2.0, 4.0], [3.0, 1.0, 0.0]]), ddof=ddof, **w)
    both_same(fn)


def test_cov_ddof_none_is_a_type_error():
    same_exception(lambda P: P.linalg.cov(P.ones([2, 3]), ddof=None))


def test_concat_reads_the_first_value_of_an_axis_tensor():
    both_same(lambda P: P.concat([P.ones([2, 1]), P.zeros([2, 1])], axis=P.to_tensor([1, 0])))


@pytest.mark.parametrize("alpha", [2, 2.0, 0.5, True])
@pytest.mark.parametrize("dt", ["int32", "bool", "float32"])
def test_add_alpha_scales_y_first(alpha, dt):
    def fn(P):
        return P.add(P.ones([2], dt), P.ones([2], dt), alpha=alpha)
    if dt != "float32" and (isinstance(alpha, float) or (dt == "bool" and alpha is not True)):
        same_exception(fn)
    else:
        both_same(fn)


@pytest.mark.parametrize("a, b", [([-1, 3], [2, 1]), ([-1, 3], [1, 1]), ([-1], [0]), ([-2, 3], [2, 1]),
                                  ([2], [-1, -1]), ([-1, 3], [4])])
def test_broadcast_shape_of_unknown_sizes(a, b):
    if b == [4]:
        same_exception(lambda P: P.broadcast_shape(a, b))
    else:
        both_same(lambda P: P.broadcast_shape(a, b))


@pytest.mark.parametrize("x", [[], [[1, 2], [3, 4]], [[1, 2]], [1, 2]])
def test_cartesian_prod_of_an_empty_list_or_a_tensor(x):
    def fn(P):
        return P.cartesian_prod(x if x == [] else P.to_tensor(x))
    if x in ([[1, 2]],):
        both_same(fn)
    else:
        same_exception(fn)


@pytest.mark.parametrize("r", [True, False])
def test_combinations_takes_a_bool_r(r):
    both_same(lambda P: P.combinations(P.to_tensor([1, 2, 3]), r))


@pytest.mark.parametrize("fn", [
    lambda P, a: P.argsort(P.ones([2, 3]), axis=a),
    lambda P, a: P.cummax(P.ones([2, 3]), axis=a),
    lambda P, a: P.cumprod(P.ones([2, 3]), a),
])
def test_int_axis_parsers_refuse_a_tensor_of_several_elements(fn):
    same_exception(lambda P: fn(P, P.to_tensor([0, 1])))
    both_same(lambda P: fn(P, P.to_tensor(1)))
