"""Session-12 sweep of tensor creation against real Paddle 3.3.1: logspace's kernel (integer
dtypes, exact exponents), the int attributes of diag/diagflat/tril/triu (numpy integers, 0-D
Tensors, the order of the checks), diag's padding_value check, and to_tensor/assign of numbers
numpy can only hold as objects."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _m(P, n=3, m=4):
    return P.to_tensor(np.arange(1, n * m + 1, dtype="float32").reshape(n, m))


# -- logspace ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    (-1, 1, 11, 3.0, "int64"),       # base ** exponent truncates toward zero
    (-1, 1, 11, 3.0, "int32"),
    (0, 1, 11, 10, "int64"),
    (0, 3, 4, 2.5, "int64"),         # the base is an integer of the dtype too
    (0.5, 3.7, 4, 2.5, "int64"),     # and so are the bounds
    (0, 3, 4, -2.0, "int64"),
    (-1, 1, 11, 3.0, "float64"),     # the middle exponent counts down from stop: exactly 0
    (0.6, 0.6, 4, 3.0, "float32"),   # the bounds are float32 values
    (0, 1.5, 4, -2.0, "float32"),
    (2, -2, 5, 0.5, None),
])
def test_logspace_kernel(args):
    """Paddle casts start, stop and base to the dtype, steps the exponents from both ends and
    converts ``pow``'s double result to the dtype (integers truncate)."""
    s, e, n, b, dt = args
    ours, theirs = both(lambda P: P.logspace(s, e, n, base=b, dtype=dt))
    assert_same(ours, theirs, rtol=0, atol=0)


@pytest.mark.parametrize("args", [(-4.8, 6.09341, 7, "int32"), (7.0, -1.0, 13, "int64"),
                                  (0, 1, 5, "int32"), (-1, 0, 5, "int64")])
def test_linspace_integer_dtype_steps_from_both_ends(args):
    """Paddle's integer linspace: integer bounds, a float64 step, the first half counted up
    from start and the rest down from stop, each value truncated."""
    s, e, n, dt = args
    assert_same(*both(lambda P: P.linspace(s, e, n, dtype=dt)))


# -- int attributes of the matrix creators ---------------------------------------------------

@pytest.mark.parametrize("diagonal", [np.int64(-1), np.int32(1), "T1.5", "T-1.5", "Tbool"])
@pytest.mark.parametrize("op", ["tril", "triu"])
def test_tri_diagonal_numpy_int_and_0d_tensor(op, diagonal):
    """Paddle reads ``diagonal`` from a numpy integer or a 0-D Tensor of any dtype (a float
    one truncates toward zero)."""
    def f(P):
        d = diagonal
        if isinstance(d, str):
            d = P.to_tensor(True) if d == "Tbool" else P.to_tensor(float(d[1:]))
        return getattr(P, op)(_m(P), d)
    assert_same(*both(f))


@pytest.mark.parametrize("op", ["tril", "triu", "tril_", "triu_"])
def test_tri_diagonal_type_checked_before_rank(op):
    """Paddle: a float ``diagonal`` is a TypeError even when the input is 1-D."""
    same_exception(lambda P: getattr(P, op)(P.to_tensor([1.0, 2.0]), 1.0))
    same_exception(lambda P: getattr(P, op)(P.to_tensor([1.0, 2.0]), 1))  # rank: ValueError


@pytest.mark.parametrize("op", ["diag", "diagflat"])
def test_diag_offset_numpy_int_and_float_tensor(op):
    """Paddle takes ``offset=np.int64(1)`` and ``offset=Tensor(1.0)``."""
    assert_same(*both(lambda P: getattr(P, op)(P.to_tensor([1.0, 2.0]), np.int64(1))))
    assert_same(*both(lambda P: getattr(P, op)(P.to_tensor([1.0, 2.0]), P.to_tensor(-1.0))))


@pytest.mark.parametrize("x", ["matrix", "3d", "bool"])
@pytest.mark.parametrize("pv", [1j, "a", None])
def test_diag_padding_value_checked_first(x, pv):
    """Paddle refuses a padding_value that is not a real number (TypeError) whatever the input
    (a 2-D one ignores it, a 3-D or bool one fails later)."""
    def f(P):
        data = {"matrix": P.to_tensor([[1.0, 2.0], [3.0, 4.0]]),
                "3d": P.ones([1, 1, 1]), "bool": P.to_tensor([True, False])}[x]
        return P.diag(data, 1, pv)
    assert isinstance(same_exception(f), TypeError)


def test_diag_padding_value_numpy_bool_and_tensor():
    """Paddle takes a numpy bool as the padding value; a 2-element Tensor is a TypeError."""
    assert_same(*both(lambda P: P.diag(P.to_tensor([1.0, 2.0]), 1, np.bool_(True))))
    assert_same(*both(lambda P: P.diag(P.to_tensor([1, 2]), -1, P.to_tensor(3))))
    same_exception(lambda P: P.diag(P.to_tensor([1.0]), 1, P.to_tensor([2.0, 3.0])))


# -- data Paddle treats as a scalar numpy can only hold as an object -------------------------

@pytest.mark.parametrize("data", [Decimal(1), Fraction(1, 2), b"ab"])
@pytest.mark.parametrize("dtype", [None, "float32"])
def test_to_tensor_numbers_numpy_cannot_convert(data, dtype):
    """Paddle: any number (``np.isscalar``) goes through numpy; an object or bytes array is
    then a ValueError (with a dtype given, its conversion fails first: TypeError)."""
    exc = same_exception(lambda P: P.to_tensor(data, dtype=dtype))
    assert isinstance(exc, ValueError if dtype is None else TypeError)


def test_to_tensor_bytearray_is_not_data():
    """Paddle: a bytearray is not data at all (TypeError)."""
    assert isinstance(same_exception(lambda P: P.to_tensor(bytearray(b"ab"))), TypeError)


@pytest.mark.parametrize("data", [b"a", Decimal(1), Fraction(1, 2)])
def test_assign_scalars_numpy_cannot_convert(data):
    """Paddle's assign wraps any numpy scalar in an array first: bytes are a ValueError,
    other Python objects a TypeError."""
    same_exception(lambda P: P.assign(data))


@pytest.mark.parametrize("np_dtype", ["uint32", "uint64"])
@pytest.mark.parametrize("dtype", ["bfloat16", "uint16"])
def test_to_tensor_unsigned_array_as_bfloat16(np_dtype, dtype):
    """Paddle hands a uint32/uint64 array to its bfloat16 setter, which refuses it; other
    target dtypes convert it."""
    assert isinstance(same_exception(
        lambda P: P.to_tensor(np.array([1, 0], np_dtype), dtype=dtype)), ValueError)
    assert_same(*both(lambda P: P.to_tensor(np.array([1, 0], np_dtype), dtype="float32")))


# -- polar -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dts", [("float64", "float32"), ("float32", "float64")])
def test_polar_mixed_dtypes_rounds_in_each_dtype(dts):
    """Paddle computes cos/sin of the angle in the angle's dtype, then multiplies by abs (the
    product promotes), so a float32 angle carries float32 rounding into a complex128 result."""
    def f(P):
        a = P.to_tensor([1.0, -2.0, 0.5], dtype=dts[0], stop_gradient=False)
        t = P.to_tensor([3.0, 4.0, 0.1], dtype=dts[1], stop_gradient=False)
        z = P.polar(a, t)
        return [z, *P.grad((P.real(z) * 2 + P.imag(z)).sum(), [a, t])]
    ours, theirs = both(f)
    assert_same(ours, theirs, rtol=1e-15, atol=0)


# -- meshgrid ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [{"indexing": None}, {"indexing": "xy", "name": "g"},
                                    {"foo": 1}])
def test_meshgrid_keywords(kwargs):
    """Paddle reads only ``indexing`` (None meaning 'ij') and ignores other keywords."""
    assert_same(*both(lambda P: P.meshgrid(P.to_tensor([1.0]), P.to_tensor([2.0, 3.0]),
                                           **kwargs)))
    same_exception(lambda P: P.meshgrid(P.to_tensor([1.0]), indexing=""))


@pytest.mark.parametrize("op", ["zeros", "ones"])
def test_shape_tensor_of_floats_is_an_os_error(op):
    """Paddle: a floating shape Tensor fails in its int-array conversion with OSError."""
    assert isinstance(same_exception(lambda P: getattr(P, op)(P.to_tensor([2.0, 3.0]))), OSError)


def test_tensor_plus_numpy_bool_scalar_is_refused():
    """Paddle: ``Tensor + np.bool_`` is a TypeError (numpy bools are not Python scalars)."""
    same_exception(lambda P: P.to_tensor([True]) + np.bool_(True))
