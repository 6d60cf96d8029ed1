"""Differential tests (against real Paddle 3.3.1) of the elementwise math/logic ops: type
promotion of the in-place family, dtypes kept or changed in place, and the errors for
dtypes an op does not take."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, paddle_ref, same_exception

_VALS = np.array([[1.0, 2.0, 3.0], [2.0, 1.0, 3.0]])


def _mk(fw, dtype, shape=None, stop_gradient=True):
    a = _VALS if shape is None else np.resize(_VALS, shape)
    if dtype == "bool":
        a = (a.astype("int64") % 2).astype(bool)
    elif dtype.startswith("complex"):
        a = (a + 0.5j).astype(dtype)
    else:
        a = a.astype(dtype)
    t = fw.to_tensor(a)
    t.stop_gradient = stop_gradient
    return t


def _outcome(fn):
    try:
        return fn(), None
    except Exception as exc:  # noqa: BLE001
        return None, exc


def _compare(fn):
    """``fn(framework)`` gives the same result in both, or raises the same exception type."""
    ref = paddle_ref()
    theirs, terr = _outcome(lambda: fn(ref))
    if terr is not None:
        same_exception(fn)
        return
    ours, oerr = _outcome(lambda: fn(__import__("pagaie")))
    assert oerr is None, f"pagaie raised {type(oerr).__name__}: {oerr}; Paddle gave {theirs}"
    assert_same(ours, theirs)


_PAIRS = [("int32", "int32"), ("int64", "int64"), ("float32", "float32"), ("float32", "float64"),
          ("float64", "float32"), ("int32", "float32"), ("float32", "int64"), ("int32", "int64"),
          ("bool", "int32"), ("float32", "complex64"), ("complex64", "float64"),
          ("int64", "complex64")]
_INPLACE_BINARY = ["add_", "subtract_", "multiply_", "divide_", "floor_divide_", "remainder_",
                   "mod_", "floor_mod_"]


@pytest.mark.parametrize("op", _INPLACE_BINARY)
@pytest.mark.parametrize("dx,dy", _PAIRS)
def test_inplace_binary_promotion(op, dx, dy):
    """x takes the promoted dtype (float32.add_(float64) is float64; int.divide_ is float32);
    an integer/float or two-integer mix is a TypeError; the op returns x itself."""
    if op == "floor_divide_" and "complex64" in (dx, dy):
        pytest.skip("Paddle has no complex floor_divide kernel")

    def fn(fw):
        x = _mk(fw, dx)
        r = getattr(x, op)(_mk(fw, dy))
        assert r is x
        return x

    _compare(fn)


@pytest.mark.parametrize("op", ["add_", "subtract_", "multiply_", "divide_", "floor_divide_",
                                "remainder_", "hypot_", "copysign_"])
def test_inplace_zero_d_operand_is_not_a_scalar(op):
    """Out of place a 0-D tensor promotes like a scalar; in place it counts as a tensor."""
    _compare(lambda fw: getattr(_mk(fw, "int32"), op)(fw.to_tensor(2.0, dtype="float32")))
    _compare(lambda fw: getattr(_mk(fw, "float32"), op)(fw.to_tensor(2.0, dtype="float64")))
    _compare(lambda fw: getattr(_mk(fw, "int64"), op)(fw.to_tensor(2, dtype="int32")))


def test_out_of_place_zero_d_operand_still_promotes_like_a_scalar():
    _compare(lambda fw: fw.add(_mk(fw, "int32"), fw.to_tensor(2.0, dtype="float32")))
    _compare(lambda fw: fw.multiply(_mk(fw, "int64"), fw.to_tensor(2, dtype="int32")))


@pytest.mark.parametrize("op", ["hypot_", "copysign_", "gcd_", "lcm_"])
@pytest.mark.parametrize("dx,dy", [("float32", "float64"), ("int32", "int64"), ("int32", "float32")])
def test_inplace_math_binary_promotion(op, dx, dy):
    if op in ("gcd_", "lcm_") and dx.startswith("float") and dy.startswith("float"):
        dx = dy = "int64"
    _compare(lambda fw: getattr(_mk(fw, dx), op)(_mk(fw, dy)))


def test_inplace_widening_keeps_autograd_and_bumps_the_version():
    def fn(fw):
        a = _mk(fw, "float32", stop_gradient=False)
        x = a * 1
        v = x.inplace_version
        r = x.add_(_mk(fw, "float64"))
        assert r is x and x.inplace_version == v + 1 and not x.stop_gradient
        (x * x).sum().backward()
        return x, a.grad

    ours, theirs = both(fn)
    assert_same(ours, theirs)


def test_inplace_divide_widening_gradients():
    def fn(fw):
        a = _mk(fw, "float32", stop_gradient=False)
        y = _mk(fw, "float64", stop_gradient=False)
        x = a * 1
        x.divide_(y)
        (x * x).sum().backward()
        return x, a.grad, y.grad

    ours, theirs = both(fn)
    assert_same(ours, theirs)


def test_inplace_on_a_leaf_that_needs_gradient():
    same_exception(lambda fw: _mk(fw, "float32", stop_gradient=False).add_(_mk(fw, "float64")))

    def fn(fw):  # no backward: Paddle writes the leaf, which takes the result dtype
        a = _mk(fw, "float32", stop_gradient=False)
        r = a.floor_divide_(_mk(fw, "float64"))
        assert r is a
        return a

    ours, theirs = both(fn)
    assert_same(ours, theirs)
    assert ours.stop_gradient == theirs.stop_gradient


@pytest.mark.parametrize("op", ["add_", "divide_", "floor_divide_", "pow_"])
def test_inplace_operand_broadcasting_to_a_larger_shape(op):
    if op == "pow_":
        return same_exception(lambda fw: _mk(fw, "float32").pow_(_mk(fw, "float32", (4, 2, 3))))
    same_exception(lambda fw: getattr(_mk(fw, "float32"), op)(_mk(fw, "float32", (4, 2, 3))))
    _compare(lambda fw: getattr(_mk(fw, "float32", (4, 2, 3)), op)(_mk(fw, "float32")))


@pytest.mark.parametrize("dx", ["int32", "int64", "float32", "float64", "complex64"])
def test_pow_inplace_takes_only_python_numbers(dx):
    same_exception(lambda fw: _mk(fw, dx).pow_(_mk(fw, dx)))
    same_exception(lambda fw: _mk(fw, dx).pow_(1 + 2j))
    for y in (2, 2.5):
        _compare(lambda fw: _mk(fw, dx).pow_(y))


@pytest.mark.parametrize("dtype", ["int16", "int32", "int64", "float32"])
def test_cumsum_inplace_keeps_the_dtype(dtype):
    _compare(lambda fw: _mk(fw, dtype).cumsum_())
    _compare(lambda fw: _mk(fw, dtype).cumsum_(axis=1))
    _compare(lambda fw: fw.cumsum_(_mk(fw, dtype), 0))
    _compare(lambda fw: _mk(fw, dtype).cumsum_(dtype="float64"))
    _compare(lambda fw: fw.cumsum(_mk(fw, dtype)))  # out of place: int32 -> int64


@pytest.mark.parametrize("op", ["heaviside", "gammainc", "gammaincc"])
@pytest.mark.parametrize("dx,dy", [("float32", "float64"), ("int32", "float64"), ("float64", "float32")])
def test_non_promoting_binary_ops_reject_mixed_dtypes(op, dx, dy):
    same_exception(lambda fw: getattr(fw, op)(_mk(fw, dx), _mk(fw, dy)))


@pytest.mark.parametrize("op", ["acos", "asin", "cos", "cosh", "atanh", "digamma", "lgamma", "exp",
                                "log", "sqrt", "sign", "square", "abs", "ceil", "floor", "erf",
                                "sigmoid", "logit", "stanh", "gammaln", "sinc", "reciprocal", "tanh"])
def test_float_math_on_bool_tensors(op):
    same_exception(lambda fw: getattr(fw, op)(_mk(fw, "bool")))


@pytest.mark.parametrize("op", ["sin_", "exp_", "sqrt_", "tanh_", "gammaln_", "logit_"])
def test_inplace_float_math_on_bool_tensors(op):
    same_exception(lambda fw: getattr(_mk(fw, "bool"), op)())


@pytest.mark.parametrize("op", ["gammaln_", "logit_", "sqrt_", "reciprocal_", "sin_"])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_inplace_float_math_on_integers_raises(op, dtype):
    same_exception(lambda fw: getattr(_mk(fw, dtype), op)())


@pytest.mark.parametrize("op", ["exp_", "log_", "log2_", "log10_", "log1p_"])
def test_inplace_exp_log_on_integers_become_float32(op):
    _compare(lambda fw: getattr(_mk(fw, "int32"), op)())


def test_abs_inplace_of_a_complex_tensor_becomes_real():
    _compare(lambda fw: _mk(fw, "complex64").abs_())


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int16", "complex64", "int32", "float64"])
def test_frac_dtypes(dtype):
    _compare(lambda fw: fw.frac(_mk(fw, dtype)))


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "complex64", "float32"])
def test_nan_to_num_dtypes(dtype):
    _compare(lambda fw: fw.nan_to_num(_mk(fw, dtype)))
    _compare(lambda fw: _mk(fw, dtype).nan_to_num_())


def test_errors_name_the_api_without_torch_words():
    import pagaie
    with pytest.raises(RuntimeError, match=r"paddle\.Tensor\.sqrt_: .*int32") as info:
        _mk(pagaie, "int32").sqrt_()
    assert "Float" not in str(info.value) and "torch" not in str(info.value)
    with pytest.raises(RuntimeError, match=r"paddle\.ceil: bool"):
        pagaie.ceil(_mk(pagaie, "bool"))


@pytest.mark.parametrize("op", ["bitwise_and", "bitwise_xor", "bitwise_left_shift",
                                "bitwise_right_shift"])
@pytest.mark.parametrize("dx,dy", [("float32", "int32"), ("int32", "float32"), ("float32", "float32"),
                                   ("int8", "int32"), ("complex64", "int64"), ("bool", "bool"),
                                   ("uint8", "bool"), ("int64", "int64")])
def test_bitwise_dtype_errors(op, dx, dy):
    """Paddle picks the kernel by y's dtype: a float y has none (RuntimeError), an integer y
    of another dtype does not match x's data (ValueError); shifts take no bool."""
    _compare(lambda fw: getattr(fw, op)(_mk(fw, dx), _mk(fw, dy)))
    _compare(lambda fw: getattr(_mk(fw, dx), op + "_")(_mk(fw, dy)))


@pytest.mark.parametrize("op", ["less_than", "less_equal", "greater_than", "greater_equal"])
def test_complex_ordering_is_lexicographic(op):
    def fn(fw):
        x = fw.to_tensor([1 + 1j, 1 + 2j, 2 + 0j, 1 + 0j, 3 - 1j])
        y = fw.to_tensor([1 + 2j, 1 + 1j, 1 + 5j, 1 + 0j, 2 + 9j])
        return getattr(fw, op)(x, y), getattr(fw, op)(_mk(fw, "int64"), fw.to_tensor(2 + 0.5j))

    _compare(fn)
    _compare(lambda fw: _mk(fw, "complex64") < _mk(fw, "complex64")[0])


def test_missing_kernel_errors_name_the_dtype_not_the_torch_kernel():
    import pagaie
    c = pagaie.to_tensor([1 + 1j])
    with pytest.raises(RuntimeError, match=r"paddle\.atan2: not implemented for dtype complex64") as info:
        pagaie.atan2(c, c)
    assert "_cpu" not in str(info.value) and "ComplexFloat" not in str(info.value)


def test_complex_remainder_rounds_the_quotient_half_away_from_zero():
    rng = np.random.default_rng(0)
    x = (rng.normal(size=50) * 5 + 1j * rng.normal(size=50) * 5).astype("complex64")
    y = (rng.normal(size=50) * 2 + 1j * rng.normal(size=50) * 2).astype("complex64")
    _compare(lambda fw: fw.remainder(fw.to_tensor(x), fw.to_tensor(y)))
    _compare(lambda fw: fw.to_tensor(x.astype("complex128")) % fw.to_tensor(y.real.astype("float64")))
    _compare(lambda fw: fw.to_tensor(x) % 2.5)
    _compare(lambda fw: (1 + 2j) % _mk(fw, "float32"))


def test_integer_remainder_by_zero():
    import pagaie
    with pytest.raises(ZeroDivisionError, match=r"paddle\.remainder"):
        pagaie.remainder(pagaie.to_tensor([3]), pagaie.to_tensor([0]))


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide", "pow", "remainder"])
@pytest.mark.parametrize("da,db", [("complex64", "float64"), ("float32", "complex128"),
                                   ("float32", "float64"), ("int32", "float32")])
def test_zero_d_operand_promotion(op, da, db):
    """A 0-D operand promotes like a scalar, except that a complex/real mix takes the wider
    precision (complex64 with a 0-D float64 is complex128)."""
    _compare(lambda fw: getattr(fw, op)(fw.ones([2], dtype=da) * 2, fw.to_tensor(1, dtype=db)))
    _compare(lambda fw: getattr(fw, op)(fw.to_tensor(1, dtype=db), fw.ones([2], dtype=da) * 2))
