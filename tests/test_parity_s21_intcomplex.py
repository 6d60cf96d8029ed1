"""Session-21: integer and complex arithmetic and reductions against real Paddle 3.3.1
(shifts, reductions' result dtypes on int and bool tensors, complex ops)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")


# -- bitwise shifts -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_logical_right_shift_by_a_negative_amount_is_zero(dtype):
    x = np.array([-7, -7, 7, 100, -100], dtype)
    y = np.array([-1, -9, -1, 7, 7], dtype)
    ours, theirs = both(lambda P: P.bitwise_right_shift(P.to_tensor(x), P.to_tensor(y), is_arithmetic=False))
    assert_same(ours, theirs)


# -- logical ops: no uint8 kernel, in place either ----------------------------------------------

def test_logical_not_inplace_refuses_uint8():
    same_exception(lambda P: P.to_tensor(np.array([1, 0], "uint8")).logical_not_())


# -- non-promoting binary ops pick their kernel by the complex promotion, else by y's dtype ------

@pytest.mark.parametrize("op", ["equal_all", "heaviside", "dist", "gammainc"])
@pytest.mark.parametrize("dx,dy", [("int32", "complex64"), ("complex64", "int32"), ("float32", "float16"),
                                   ("complex64", "complex128"), ("float32", "complex64"), ("int32", "int64"),
                                   ("float32", "float64")])
def test_mixed_dtypes_no_kernel_before_mismatch(op, dx, dy):
    same_exception(lambda P: getattr(P, op)(P.to_tensor([1, 2]).astype(dx), P.to_tensor([1, 3]).astype(dy)))


def test_equal_all_checks_the_kernel_before_the_shapes():
    same_exception(lambda P: P.equal_all(P.to_tensor([1, 2, 3]), P.to_tensor([1, 3]).astype("complex64")))
    ours, theirs = both(lambda P: P.equal_all(P.to_tensor([1, 2, 3]), P.to_tensor([1, 3]).astype("int64")))
    assert_same(ours, theirs)


# -- in-place binary ops read y's shape first: a shapeless y is Paddle's AttributeError --------

@pytest.mark.parametrize("op", ["add_", "sub_", "multiply_", "divide_", "floor_divide_", "remainder_",
                                "mod_", "equal_", "less_than_", "greater_equal_", "bitwise_and_",
                                "bitwise_left_shift_", "logical_or_"])
@pytest.mark.parametrize("y", [2, 2.5, True, [1, 2], None])
def test_inplace_binary_op_with_a_shapeless_y(op, y):
    same_exception(lambda P: getattr(P.to_tensor([1, 2]), op)(y))


@pytest.mark.parametrize("y", [[1.0, 2.0], None])
def test_copysign_inplace_takes_numbers_but_not_lists(y):
    same_exception(lambda P: P.to_tensor([1.0, 2.0]).copysign_(y))
    ours, theirs = both(lambda P: P.to_tensor([1.0, 2.0]).copysign_(-2))
    assert_same(ours, theirs)


@pytest.mark.parametrize("op", ["gammainc_", "gammaincc_"])
@pytest.mark.parametrize("y", [2.0, [1.0, 2.0], None])
def test_igamma_inplace_non_tensor_y(op, y):
    same_exception(lambda P: getattr(P.to_tensor([1.0, 2.0]), op)(y))


def test_hypot_inplace_checks_y_before_x_dtype():
    same_exception(lambda P: P.to_tensor([1, 2]).hypot_(2))


# -- clip: a Tensor bound becomes a Scalar before the kernel is chosen --------------------------

@pytest.mark.parametrize("dtype", ["bool", "int8", "float16"])
def test_clip_many_element_bound_before_the_missing_kernel(dtype):
    same_exception(lambda P: P.clip(P.to_tensor([1, 0, 3]).astype(dtype), P.to_tensor([1, 2, 3]), None))


# -- trunc division by -1 ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype,low", [("int8", -128), ("int16", -32768)])
def test_trunc_divide_minimum_by_minus_one(dtype, low):
    x, y = np.array([low, 5, -7], dtype), np.array([-1, -1, 2], dtype)
    ours, theirs = both(lambda P: P.divide(P.to_tensor(x), P.to_tensor(y), rounding_mode="trunc"))
    assert_same(ours, theirs)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_trunc_divide_minimum_by_minus_one_does_not_trap(dtype):
    # Paddle's own kernel dies of SIGFPE here (not compared): pagaie wraps around, as -x does
    import pagaie
    low = np.iinfo(dtype).min
    x = pagaie.to_tensor(np.array([low, 9], dtype))
    r = pagaie.divide(x, pagaie.to_tensor(np.array([-1, -2], dtype)), rounding_mode="trunc")
    assert r.numpy().tolist() == [low, -4]
