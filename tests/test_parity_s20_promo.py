"""Session-20 promotion sweep: Tensor operators with numpy numbers, the bitwise and shift
operators' operand rules, ``number ** int_tensor`` and ``Tensor.item`` indices, against real
Paddle 3.3.1."""
from __future__ import annotations

import operator

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")

_INTS = ["bool", "uint8", "int8", "int16", "int32", "int64"]


def _x(P, dt, vals=(1, 2, 3, -1)):
    return P.to_tensor(np.array(vals, "float32")).astype(dt)


# -- numpy numbers that Paddle reads as Python numbers -----------------------------------------

@pytest.mark.parametrize("dt", ["complex64", "complex128"])
@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv])
@pytest.mark.parametrize("rev", [False, True])
def test_complex_tensor_with_numpy_complex(dt, op, rev):
    """A np.complex64 operand keeps its imaginary part (torch alone would drop it)."""
    v = np.complex64(1 + 2j)
    ours, theirs = both(lambda P: op(v, _x(P, dt)) if rev else op(_x(P, dt), v))
    assert_same(ours, theirs)


@pytest.mark.parametrize("dt", ["int32", "int64", "float32", "float64", "complex64"])
@pytest.mark.parametrize("v", [np.int32(3), np.int64(-2), np.float64(2.5)])
@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul, operator.truediv,
                                operator.lt, operator.ge, operator.eq, operator.ne])
def test_numpy_numbers_as_python_numbers(dt, v, op):
    ours, theirs = both(lambda P: op(_x(P, dt), v))
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: op(v, _x(P, dt)))
    assert_same(ours, theirs)


def test_complex_tensor_compared_with_numpy_complex():
    ours, theirs = both(lambda P: P.to_tensor([1 + 2j, 1 + 0j]) == np.complex64(1 + 2j))
    assert_same(ours, theirs)


# -- ``**`` with a float or complex base and an integer/bool exponent tensor -------------------

@pytest.mark.parametrize("dt", _INTS)
@pytest.mark.parametrize("base", [2.5, 1 + 1j, np.float64(0.5)])
def test_number_to_the_power_of_int_tensor(dt, base):
    ours, theirs = both(lambda P: base ** _x(P, dt, (0, 1, 2)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16"])
def test_small_int_tensor_to_a_numpy_float64(dt):
    ours, theirs = both(lambda P: _x(P, dt, (0, 1, 2)) ** np.float64(2.5))
    assert_same(ours, theirs)


@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16", "int32"])
def test_int_exponent_of_int_tensor_still_refused_where_paddle_has_no_kernel(dt):
    """An int base keeps the exponent's dtype, whose missing pow kernel stays Paddle's error."""
    if dt == "int32":
        ours, theirs = both(lambda P: 2 ** _x(P, dt, (0, 1, 2)))
        assert_same(ours, theirs)
    elif dt != "bool":
        same_exception(lambda P: 2 ** _x(P, dt, (0, 1, 2)))


# -- bitwise and shift operators -----------------------------------------------------------------

_NON_TENSORS = [np.array([1, 2], "int32"), [1, 2], np.bool_(True), np.int32(1), 1 + 1j, None]


@pytest.mark.parametrize("op", [operator.and_, operator.or_, operator.xor])
@pytest.mark.parametrize("v", _NON_TENSORS + [3, True, 2.5])
def test_bitwise_operator_refuses_non_tensor_y(op, v):
    """``x & y`` hands y to bitwise_and, which takes only a Tensor: ValueError."""
    assert isinstance(same_exception(lambda P: op(_x(P, "int32", (1, 2)), v)), ValueError)


@pytest.mark.parametrize("op", [operator.and_, operator.or_, operator.xor])
@pytest.mark.parametrize("dt", ["bool", "int32"])
def test_reflected_bitwise_operator_takes_python_ints_only(op, dt):
    ours, theirs = both(lambda P: op(3, _x(P, dt, (1, 2))))
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: op(True, _x(P, dt, (1, 2))))
    assert_same(ours, theirs)
    for v in (np.int32(3), np.int64(3), 2.5, np.bool_(True)):
        assert isinstance(same_exception(lambda P: op(v, _x(P, dt, (1, 2)))), TypeError)


@pytest.mark.parametrize("op", [operator.lshift, operator.rshift])
@pytest.mark.parametrize("rev", [False, True])
def test_shift_operators(op, rev):
    def call(P, v):
        x = _x(P, "int32", (1, 8))
        return op(v, x) if rev else op(x, v)
    for v in (2, True):
        ours, theirs = both(lambda P: call(P, v))
        assert_same(ours, theirs)
    for v in (2.5, np.float64(2.5)):
        assert isinstance(same_exception(lambda P: call(P, v)), TypeError)
    for v in (1 + 1j, np.int32(1), np.float32(1), np.array([1, 2], "int32"), [1, 2], np.bool_(True)):
        assert isinstance(same_exception(lambda P: call(P, v)), ValueError)


@pytest.mark.parametrize("sym", ["&=", "|=", "<<="])
def test_inplace_bitwise_operator_refuses_arrays(sym):
    def run(P):
        x = _x(P, "int32", (1, 2))
        exec(f"x {sym} y", {}, {"x": x, "y": np.array([1, 2], "int32")})
    assert isinstance(same_exception(run), ValueError)


# -- Tensor.item ---------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [[], [1], [2, 2], [1, 1, 1]])
def test_item_refuses_negative_indices(shape):
    a = np.arange(int(np.prod(shape)), dtype="float32").reshape(shape)
    same_exception(lambda P: P.to_tensor(a).item(-1))
    if len(shape) == 2:
        same_exception(lambda P: P.to_tensor(a).item(0, -1))
        ours, theirs = both(lambda P: P.to_tensor(a).item(1, 0))
        assert ours == theirs
    ours, theirs = both(lambda P: P.to_tensor(a).item(0))
    assert ours == theirs


# -- outer / ger promote as multiply does ----------------------------------------------------------

@pytest.mark.parametrize("api", ["outer", "ger"])
@pytest.mark.parametrize("d1,d2", [("int32", "complex64"), ("complex64", "bool"), ("int8", "complex128"),
                                   ("float64", "complex64"), ("float16", "float32")])
def test_outer_promotes_like_multiply(api, d1, d2):
    ours, theirs = both(lambda P: getattr(P, api)(_x(P, d1, (1, 2)), _x(P, d2, (3, -1))))
    assert_same(ours, theirs)


@pytest.mark.parametrize("api", ["outer", "ger"])
def test_outer_refuses_int_float_mix(api):
    same_exception(lambda P: getattr(P, api)(_x(P, "int32", (1, 2)), _x(P, "float32", (3, -1))))


# -- a Python factor past float32's range ---------------------------------------------------------

@pytest.mark.parametrize("v", [1e40, -1e40, 1e300, 2 ** 200])
@pytest.mark.parametrize("rev", [False, True])
def test_float32_times_out_of_range_number(v, rev):
    """Paddle holds the factor as a float32 (+-inf), so ``0 * 1e40`` is nan."""
    ours, theirs = both(lambda P: v * _x(P, "float32", (1, 0, -5)) if rev else _x(P, "float32", (1, 0, -5)) * v)
    assert_same(ours, theirs)


# -- a 0-D operand counts as a scalar: the kernel runs in the N-D operand's dtype ------------------

@pytest.mark.parametrize("dt", ["uint8", "int8", "int16"])
@pytest.mark.parametrize("op", [operator.mod, operator.pow])
@pytest.mark.parametrize("zero_d", ["int32", "int64"])
def test_small_int_with_0d_int_has_no_kernel(dt, op, zero_d):
    same_exception(lambda P: op(_x(P, dt, (1, 2)), P.to_tensor(2).astype(zero_d)))
    same_exception(lambda P: op(P.to_tensor(2).astype(zero_d), _x(P, dt, (1, 2))))


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("zero_d", ["bool", "int32", "float32", "float64"])
def test_low_float_divided_by_0d_has_no_cpu_kernel(dt, zero_d):
    same_exception(lambda P: _x(P, dt, (1, 2)) / P.to_tensor(2).astype(zero_d))
    same_exception(lambda P: P.divide(P.to_tensor(2).astype(zero_d), _x(P, dt, (1, 2))))


@pytest.mark.parametrize("d1,d2", [("int32", "int64"), ("int64", "int32"), ("float32", "float64"),
                                   ("int32", "bool"), ("complex64", "float64")])
@pytest.mark.parametrize("op", [operator.mod, operator.pow, operator.truediv])
def test_0d_operand_of_another_dtype(d1, d2, op):
    ours, theirs = both(lambda P: op(_x(P, d1, (1, 2, 3)), P.to_tensor(2).astype(d2)))
    assert_same(ours, theirs)


# -- ``@`` with numbers and numpy values ----------------------------------------------------------

@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "complex64"])
@pytest.mark.parametrize("v", [2, 2.5, True, np.int64(2), np.float64(2.5), np.ones([1]), np.ones([1], "int32")])
def test_matmul_operator_with_numbers(dt, v):
    """A number is a shape-[1] tensor (a float makes an int x float32); an array keeps its dtype."""
    if dt == "complex64" and isinstance(v, np.ndarray) and v.dtype.kind == "i":
        pytest.skip("Paddle cannot align an integer array with a complex tensor (left sensible)")
    ours, theirs = both(lambda P: P.ones([2, 1], dt) @ v)
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: v @ P.ones([1, 2], dt))
    assert_same(ours, theirs)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64"])
def test_matmul_operator_with_a_complex_number(dt):
    ours, theirs = both(lambda P: P.ones([2, 1], dt) @ (1 + 2j))
    assert_same(ours, theirs)


@pytest.mark.parametrize("v", [2, 1 + 1j, np.int64(2), np.ones([2])])
def test_matmul_shape_error_after_dtype(v):
    same_exception(lambda P: P.ones([2, 2]) @ v if not isinstance(v, np.ndarray) else P.ones([2, 3]) @ v)
    same_exception(lambda P: P.ones([2, 2], "bool") @ 2)


# -- paddle.equal with a float no integer holds ----------------------------------------------------

@pytest.mark.parametrize("dt", ["int32", "int64"])
@pytest.mark.parametrize("v", [float("nan"), float("inf"), -float("inf"), 1e30, 2.5])
def test_equal_int_tensor_with_unrepresentable_float(dt, v):
    """Paddle casts the number to x's dtype; one that no integer holds matches nothing (uint8 and
    int8 get an undefined cast in Paddle, so only int32/int64 are compared)."""
    ours, theirs = both(lambda P: P.equal(_x(P, dt, (0, 1, 2)), v))
    assert_same(ours, theirs)


@pytest.mark.parametrize("v", [2 ** 40, 2 ** 63, -2 ** 63, -2 ** 63 - 1, 2 ** 64 + 1])
def test_bitwise_operators_with_big_ints(v):
    """An int is made a tensor of x's dtype through numpy: outside int64/uint64 it is a TypeError."""
    for fn in (lambda P: v & _x(P, "int32", (1, 2)), lambda P: _x(P, "int32", (1, 2)) >> v):
        if -2 ** 63 <= v < 2 ** 64:
            ours, theirs = both(fn)
            assert_same(ours, theirs)
        else:
            assert isinstance(same_exception(fn), TypeError)
