"""Differential tests (against real Paddle 3.3.1) of the binary elementwise ops: type promotion
over the whole dtype table, Python-number operands (both sides), integer semantics, float16 /
bfloat16 rounding, complex values and gradients, broadcasting with empty shapes."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
           "float64", "complex64", "complex128"]
_XV = [3, -2, 5, 1, 0, 7]
_YV = [2, 1, -3, 4, 2, 3]


def _arr(dtype, vals):
    a = np.array(vals)
    if dtype == "bool":
        return (a % 2).astype(bool) if vals is _XV else np.ones(len(vals), bool)
    if dtype.startswith("complex"):
        return (a + 0.5j * np.sign(a + 0.1)).astype(dtype)
    if dtype == "uint8":
        return a.astype("int64").astype("uint8")
    return a.astype("float32" if dtype == "bfloat16" else dtype)


def _t(fw, dtype, vals=_XV, zero_d=False):
    a = _arr(dtype, vals)
    return fw.to_tensor(a[0] if zero_d else a, dtype=dtype)


def _no_kernel(exc):
    """Paddle's CPU build lacks kernels for some dtypes (float16/bfloat16, small ints, bool):
    pagaie keeps computing there, so such a cell is not compared."""
    return isinstance(exc, RuntimeError) and "not registered" in str(exc)


def _zero_division(fn):
    """Integer division by zero: Paddle raises its own EnforceNotMet, pagaie ZeroDivisionError
    (the project's choice, see tests/audit/skips.py); both must raise."""
    ref = paddle_ref()
    with pytest.raises(Exception, match="(?i)division by zero"):
        fn(ref)
    with pytest.raises(ZeroDivisionError, match=r"^paddle\.\w+: integer division by zero"):
        fn(pagaie)


def _compare(fn, rtol=1e-5, atol=1e-6):
    """``fn(framework)`` gives the same result in both, or raises the same exception type."""
    ref = paddle_ref()
    try:
        theirs, terr = fn(ref), None
    except Exception as exc:  # noqa: BLE001
        theirs, terr = None, exc
    if terr is not None:
        if _no_kernel(terr):
            pytest.skip("Paddle's CPU build has no kernel here")
        same_exception(fn)
        return None
    ours = fn(pagaie)
    assert_same(_f32(ours), _f32(theirs), rtol=rtol, atol=atol)
    return ours


def _f32(v):
    """bfloat16 results compared as float32 (Paddle's numpy() gives raw uint16 for them)."""
    if isinstance(v, (list, tuple)):
        return [_f32(e) for e in v]
    if hasattr(v, "dtype") and str(v.dtype).endswith("bfloat16"):
        return v.astype("float32")
    return v


# ---- promotion matrix ---------------------------------------------------------------------
_MATRIX_OPS = {
    "add": lambda fw, x, y: fw.add(x, y), "subtract": lambda fw, x, y: x - y,
    "multiply": lambda fw, x, y: x * y, "divide": lambda fw, x, y: fw.divide(x, y),
    "floor_divide": lambda fw, x, y: x // y, "remainder": lambda fw, x, y: fw.remainder(x, y),
    "pow": lambda fw, x, y: fw.pow(x, y), "maximum": lambda fw, x, y: fw.maximum(x, y),
    "equal": lambda fw, x, y: fw.equal(x, y), "less_than": lambda fw, x, y: x < y,
    "logical_and": lambda fw, x, y: fw.logical_and(x, y), "bitwise_and": lambda fw, x, y: x & y,
    "atan2": lambda fw, x, y: fw.atan2(x, y), "hypot": lambda fw, x, y: fw.hypot(x, y),
    "copysign": lambda fw, x, y: fw.copysign(x, y), "ldexp": lambda fw, x, y: fw.ldexp(x, y),
}
_PAIRS = [("int32", "complex64"), ("float32", "complex128"), ("complex64", "float64"),
          ("bool", "complex64"), ("float16", "float32"), ("bfloat16", "float64"), ("uint8", "int8"),
          ("int64", "float16"), ("complex64", "complex128"), ("int16", "int16"), ("float16", "float16"),
          ("uint8", "uint8"), ("int8", "int32")]


@pytest.mark.parametrize("op", sorted(_MATRIX_OPS))
@pytest.mark.parametrize("dx,dy", _PAIRS)
def test_promotion_matrix(op, dx, dy):
    """Result dtype and values, or the exception type, for tensor pairs of every dtype kind."""
    if op == "floor_divide" and "complex" in dx + dy:
        pytest.skip("no complex floor_divide kernel in Paddle")
    _compare(lambda fw: _MATRIX_OPS[op](fw, _t(fw, dx), _t(fw, dy, _YV)), rtol=1e-2, atol=1e-3)


@pytest.mark.parametrize("op", ["multiply", "hypot", "ldexp", "atan2", "logical_and", "equal"])
@pytest.mark.parametrize("dx,dy", [("complex64", "complex128"), ("float16", "complex64"),
                                   ("complex64", "int32"), ("float64", "complex64")])
def test_promotion_with_a_zero_d_operand(op, dx, dy):
    _compare(lambda fw: _MATRIX_OPS[op](fw, _t(fw, dx), _t(fw, dy, _YV, zero_d=True)), rtol=1e-3)
    _compare(lambda fw: _MATRIX_OPS[op](fw, _t(fw, dx, zero_d=True), _t(fw, dy, _YV)), rtol=1e-3)


# ---- Python numbers -----------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", ["+", "-", "*", "/", "%", "**", "r+", "r*", "r-", "r/"])
def test_half_tensor_with_a_complex_number_is_complex64(dtype, op):
    """torch would compute in complex32 (few kernels); Paddle gives complex64."""
    c = 1 + 2j
    fns = {"+": lambda x: x + c, "-": lambda x: x - c, "*": lambda x: x * c, "/": lambda x: x / c,
           "%": lambda x: x % c, "**": lambda x: x ** c, "r+": lambda x: c + x, "r*": lambda x: c * x,
           "r-": lambda x: c - x, "r/": lambda x: c / x}
    r = _compare(lambda fw: fns[op](fw.to_tensor([1.0, 3.0, -2.0], dtype=dtype)), rtol=1e-3)
    if r is not None:
        assert r.dtype == pagaie.complex64


def test_float_tensor_compares_with_a_python_bool():
    _compare(lambda fw: fw.to_tensor([1.0, 0.0]) == True)  # noqa: E712
    _compare(lambda fw: fw.to_tensor([1.0, 0.0]) != False)  # noqa: E712
    _compare(lambda fw: True == fw.to_tensor([1.0, 0.0], dtype="float16"))  # noqa: E712
    _compare(lambda fw: fw.equal(fw.to_tensor([1.0, 0.0], dtype="float64"), True))


@pytest.mark.parametrize("dtype,number", [("int32", 2.5), ("int64", -1.5), ("bool", 2), ("bool", -1.5),
                                          ("uint8", 1.9), ("float32", True)])
def test_equal_casts_a_number_to_x_dtype_but_the_operator_compares_values(dtype, number):
    """paddle.equal makes the number a 0-D tensor of x's dtype (2.5 -> 2 for an int x);
    ``==`` compares by value."""
    vals = {"int32": [2, 3], "int64": [-1, 1], "bool": [True, False], "uint8": [1, 2], "float32": [1.0, 0.0]}
    _compare(lambda fw: fw.equal(fw.to_tensor(vals[dtype], dtype=dtype), number))
    _compare(lambda fw: fw.to_tensor(vals[dtype], dtype=dtype) == number)
    _compare(lambda fw: number == fw.to_tensor(vals[dtype], dtype=dtype))


@pytest.mark.parametrize("op", ["&", "|", "^"])
@pytest.mark.parametrize("dtype,number", [("bool", 2), ("bool", 0), ("uint8", -1), ("int8", 300),
                                          ("int32", True), ("int64", 6)])
def test_reflected_bitwise_with_an_int_takes_x_dtype(op, dtype, number):
    """``number & x`` makes the number a tensor of x's dtype, wrapping like a C cast."""
    fns = {"&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b}
    _compare(lambda fw: fns[op](number, fw.to_tensor([3, 0, 5], dtype=dtype)))


@pytest.mark.parametrize("op", ["&", "|", "^", "<<", ">>"])
@pytest.mark.parametrize("number", [-1.5, 1 + 2j])
def test_reflected_bitwise_with_a_float_is_a_type_error(op, number):
    fns = {"&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
           "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b}
    if op in ("<<", ">>") and isinstance(number, complex):
        pytest.skip("Paddle's reflected shift passes a complex on (ValueError)")
    exc = same_exception(lambda fw: fns[op](number, fw.to_tensor([3, 5], dtype="int32")))
    assert isinstance(exc, TypeError)


@pytest.mark.parametrize("op", ["<<", ">>"])
def test_shift_by_a_python_float_is_a_type_error(op):
    fns = {"<<": lambda a, b: a << b, ">>": lambda a, b: a >> b}
    exc = same_exception(lambda fw: fns[op](fw.to_tensor([3, 5], dtype="int64"), 1.5))
    assert isinstance(exc, TypeError) and "float" in str(exc)
    _compare(lambda fw: fns[op](fw.to_tensor([3, 5], dtype="int64"), True))
    _compare(lambda fw: fns[op](2, fw.to_tensor([1, 3], dtype="int32")))


def test_pow_refuses_a_complex_number_but_the_operator_takes_it():
    same_exception(lambda fw: fw.pow(fw.to_tensor([1.0, 2.0]), 1 + 2j))
    same_exception(lambda fw: fw.pow(fw.to_tensor([1 + 1j, 2 + 0j]), 1 + 2j))
    _compare(lambda fw: fw.to_tensor([1.0, 2.0]) ** (1 + 2j))
    _compare(lambda fw: fw.to_tensor([1.0, 2.0], dtype="float64") ** (1 + 2j))
    _compare(lambda fw: fw.to_tensor([1 + 1j, 2 + 0j]) ** (0.5 - 1j))
    _compare(lambda fw: (1 + 2j) ** fw.to_tensor([1.0, 2.0]))


def test_pow_operator_with_a_complex_number_keeps_the_gradient():
    # |x ** (1 + 2j)| = x for x > 0, so the gradient is 1 (Paddle's complex pow gradient
    # misses the conjugate and gives another value: not copied).
    x = pagaie.to_tensor([1.0, 2.0])
    x.stop_gradient = False
    y = x ** (1 + 2j)
    (g,) = pagaie.grad(y.abs().sum(), x)
    np.testing.assert_allclose(g.numpy(), [1.0, 1.0], rtol=1e-5)


def test_complex_remainder_of_a_bool_number():
    _compare(lambda fw: True % fw.to_tensor([1 + 1j, 2 + 0j]))
    _compare(lambda fw: fw.to_tensor([1 + 1j, 2 + 0j]) % True)


@pytest.mark.parametrize("zero_d", [False, True])
def test_complex_tensor_minus_a_bool_tensor_in_place(zero_d):
    def fn(fw):
        x = _t(fw, "complex64")
        r = x.subtract_(_t(fw, "bool", _YV, zero_d))
        assert r is x
        return x

    _compare(fn)
    _compare(lambda fw: _t(fw, "complex128") - _t(fw, "bool", _YV, zero_d))
    same_exception(lambda fw: _t(fw, "float32").subtract_(_t(fw, "bool", _YV, zero_d)))


def test_float_number_floor_divided_by_a_bool_tensor_is_not_an_integer_division():
    _compare(lambda fw: -1.5 // fw.to_tensor([True, False]))
    _zero_division(lambda fw: 2 // fw.to_tensor([True, False]))


# ---- integer semantics --------------------------------------------------------------------
@pytest.mark.parametrize("fn", [
    lambda fw: fw.to_tensor([7, -7]) // fw.to_tensor([0, 2]),
    lambda fw: fw.to_tensor([7, -7]) % fw.to_tensor([0, 2]),
    lambda fw: fw.to_tensor([7, -7], dtype="int32") // 0,
    lambda fw: 7 % fw.to_tensor([0]),
    lambda fw: fw.divide(fw.to_tensor([7, -7]), fw.to_tensor([0, 2]), rounding_mode="trunc"),
])
def test_integer_division_by_zero_raises(fn):
    _zero_division(fn)


@pytest.mark.parametrize("fn", [
    lambda fw: fw.divide(fw.to_tensor([1, 0, -3]), fw.to_tensor([0, 0, 2])),
    lambda fw: fw.remainder(fw.to_tensor([-7, 7, -7, 7]), fw.to_tensor([3, -3, -3, 3])),
    lambda fw: fw.floor_divide(fw.to_tensor([-7, 7, -7, 7], dtype="int32"),
                               fw.to_tensor([3, -3, -3, 3], dtype="int32")),
    lambda fw: fw.divide(fw.to_tensor([7, -7]), fw.to_tensor([-2, 2]), rounding_mode="trunc"),
    lambda fw: fw.remainder(fw.to_tensor([-7.0, 7.0, 5.0]), fw.to_tensor([3.0, -3.0, float("inf")])),
    lambda fw: fw.floor_divide(fw.to_tensor([5.0, -5.0]), fw.to_tensor([float("inf"), float("inf")])),
    lambda fw: fw.to_tensor([7, -7]) // -2.0,
    lambda fw: fw.to_tensor([7, -7]) % 0.0,
    lambda fw: fw.to_tensor([2147483647], dtype="int32") + fw.to_tensor([1], dtype="int32"),
    lambda fw: fw.to_tensor([2 ** 62]) * 4,
    lambda fw: fw.to_tensor([250], dtype="uint8") + 10,
    lambda fw: fw.to_tensor([250], dtype="uint8") + (-1),
    lambda fw: -fw.to_tensor([-2147483648], dtype="int32"),
    lambda fw: fw.abs(fw.to_tensor([-2 ** 63])),
    lambda fw: -fw.to_tensor([3], dtype="uint8"),
    lambda fw: fw.pow(fw.to_tensor([2, -2, 1, -1, 0], dtype="int32"),
                      fw.to_tensor([-1, -1, -2, -3, 2], dtype="int32")),
    lambda fw: fw.pow(fw.to_tensor([3]), 45),
    lambda fw: 2 ** fw.to_tensor([3, 1]),
    lambda fw: fw.bitwise_left_shift(fw.to_tensor([1, 1, 1], dtype="int32"),
                                     fw.to_tensor([31, 32, 40], dtype="int32")),
    lambda fw: fw.bitwise_right_shift(fw.to_tensor([-8, 8, -8], dtype="int32"),
                                      fw.to_tensor([31, 32, 40], dtype="int32"), False),
    lambda fw: fw.bitwise_right_shift(fw.to_tensor([-8, 8]), fw.to_tensor([-1, -1])),
    lambda fw: fw.bitwise_left_shift(fw.to_tensor([-1, 3], dtype="int8"),
                                     fw.to_tensor([8, 9], dtype="int8"), False),
    lambda fw: fw.bitwise_right_shift(fw.to_tensor([200, 1], dtype="uint8"),
                                      fw.to_tensor([1, 9], dtype="uint8"), False),
    lambda fw: fw.copysign(fw.to_tensor([3, -2, 0], dtype="int32"),
                           fw.to_tensor([-1, 1, -1], dtype="int32")),
])
def test_integer_and_edge_semantics(fn):
    _compare(fn)


def test_copysign_of_an_unsigned_tensor_keeps_it():
    _compare(lambda fw: fw.copysign(fw.to_tensor([3, 5], dtype="uint8"), -1.5))
    _compare(lambda fw: fw.copysign(fw.to_tensor([3, 5], dtype="uint8"),
                                    fw.to_tensor([-1, 1], dtype="uint8")))


def test_atan2_of_integers_is_computed_in_float32_and_returned_as_float64():
    def fn(fw):
        return fw.atan2(fw.to_tensor([1, -1, 3, 7], dtype="int32"),
                        fw.to_tensor([1, 0, 7, -2], dtype="int32"))

    ours, theirs = both(fn)
    assert str(ours.dtype) == str(theirs.dtype) == "paddle.float64"
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())  # bit for bit


@pytest.mark.parametrize("fn", [
    lambda fw: fw.ldexp(fw.to_tensor([3.0], dtype="float16"), fw.to_tensor([2], dtype="int32")),
    lambda fw: fw.ldexp(fw.to_tensor([3.0], dtype="bfloat16"), fw.to_tensor([2, -1])),
    lambda fw: fw.ldexp(fw.to_tensor([3 + 1j]), fw.to_tensor([2])),
    lambda fw: fw.ldexp(fw.to_tensor([1.0, 2.0]), fw.to_tensor([1 + 1j, 2 + 0j], dtype="complex128")),
    lambda fw: fw.ldexp(fw.to_tensor([5.0], dtype="float64"), fw.to_tensor([253], dtype="uint8")),
    lambda fw: fw.ldexp(fw.to_tensor([1.0], dtype="float64"), fw.to_tensor([1000])),
    lambda fw: fw.ldexp(fw.to_tensor([3], dtype="int32"), fw.to_tensor([2.0], dtype="float64")),
    lambda fw: fw.ldexp(fw.to_tensor([True]), fw.to_tensor([True])),
])
def test_ldexp_computes_in_float64_or_the_default_float(fn):
    _compare(fn, rtol=1e-6)


# ---- hypot of complex tensors -------------------------------------------------------------
@pytest.mark.parametrize("dx,dy,zero_d", [("complex64", "complex64", False), ("int64", "complex64", False),
                                          ("float64", "complex64", False), ("complex64", "complex128", True),
                                          ("complex128", "float32", False)])
def test_hypot_of_complex_tensors(dx, dy, zero_d):
    _compare(lambda fw: fw.hypot(_t(fw, dx), _t(fw, dy, _YV, zero_d)), rtol=1e-5)


def test_hypot_complex_gradient():
    def fn(fw):
        x = fw.to_tensor(np.array([1 + 2j, -0.5 + 1j, 3 - 1j], dtype="complex64"))
        y = fw.to_tensor(np.array([1.5, -2.0, 0.5], dtype="float32"))
        x.stop_gradient = y.stop_gradient = False
        out = fw.hypot(x, y)
        return [out, *fw.grad((out.abs() ** 2).sum(), [x, y])]

    ours, theirs = both(fn)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)


# ---- comparisons in place, logical ops with complex -----------------------------------------
@pytest.mark.parametrize("op", ["equal_", "less_than_", "not_equal_"])
@pytest.mark.parametrize("dx,dy", [("bool", "uint8"), ("float32", "int64"), ("int32", "float64"),
                                   ("float32", "float64"), ("int64", "int64")])
def test_inplace_comparison_with_a_zero_d_tensor_counts_it_as_a_tensor(op, dx, dy):
    def fn(fw):
        x = _t(fw, dx)
        r = getattr(x, op)(_t(fw, dy, _YV, zero_d=True))
        assert r is x
        return x

    _compare(fn)


@pytest.mark.parametrize("op", ["logical_and", "logical_or", "logical_xor"])
def test_logical_ops_of_a_half_tensor_and_a_complex_one(op):
    _compare(lambda fw: getattr(fw, op)(_t(fw, "float16"), _t(fw, "complex64", _YV, zero_d=True)))
    _compare(lambda fw: getattr(fw, op)(_t(fw, "complex128", zero_d=True), _t(fw, "bfloat16", _YV)))


# ---- float16 / bfloat16 rounding ------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", ["*", "r*", "/", "//", "+", "-", "r-"])
@pytest.mark.parametrize("number", [0.1, 2.7, 1e-3])
def test_half_tensor_with_a_python_number_rounds_as_paddle(dtype, op, number):
    """Paddle first rounds the number to x's dtype for ``*``, ``/`` and ``//``: compare bits."""
    fns = {"*": lambda x: x * number, "r*": lambda x: number * x, "/": lambda x: x / number,
           "//": lambda x: x // number, "+": lambda x: x + number, "-": lambda x: x - number,
           "r-": lambda x: number - x}
    a = (np.random.RandomState(3).randn(512) * 4).astype("float32")
    a[0] = 0.0  # (not -0.0: Paddle's scale kernel turns -0.0 * s into +0.0)

    def fn(fw):
        return fns[op](fw.to_tensor(a).astype(dtype)).astype("float32").numpy()

    ours, theirs = both(fn)
    np.testing.assert_array_equal(ours, theirs)


# ---- broadcasting with empty shapes ---------------------------------------------------------
@pytest.mark.parametrize("op", ["add", "maximum", "equal", "hypot", "copysign", "logaddexp", "atan2"])
@pytest.mark.parametrize("sx,sy", [([0], [1]), ([2, 0], [1]), ([2, 1], [0]), ([], [0]), ([1, 0], [3, 1]),
                                   ([2, 3], [4]), ([2, 0], [2, 1])])
def test_broadcasting_with_empty_shapes(op, sx, sy):
    _compare(lambda fw: getattr(fw, op)(fw.to_tensor(np.ones(sx, "float32")),
                                        fw.to_tensor(np.ones(sy, "float32"))))


# ---- complex gradients (Paddle's conjugate convention) --------------------------------------
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide"])
@pytest.mark.parametrize("kind", ["cc", "cf"])
@pytest.mark.parametrize("loss", ["abs2", "linear"])
def test_complex_gradients(op, kind, loss):
    def fn(fw):
        x = fw.to_tensor(np.array([1 + 2j, -0.5 + 1j, 3 - 1j], dtype="complex64"))
        ya = np.array([2 - 1j, 1 + 0.5j, -1 + 2j], dtype="complex64") if kind == "cc" else \
            np.array([1.5, -2.0, 0.5], dtype="float32")
        y = fw.to_tensor(ya)
        x.stop_gradient = y.stop_gradient = False
        out = getattr(fw, op)(x, y)
        L = (out.abs() ** 2).sum() if loss == "abs2" else (out.real() * 2 + out.imag() * 3).sum()
        return [out, *fw.grad(L, [x, y])]

    ours, theirs = both(fn)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)
