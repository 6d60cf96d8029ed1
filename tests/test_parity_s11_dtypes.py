"""Session-11 sweep: the dtype matrix of the elementwise math ops against real Paddle 3.3.1.

Pins the function-vs-operator rules for a Python number operand of floor_divide/remainder,
float16/bfloat16 products and powers past the dtype's range, clip bounds past it, the dtype
whitelists of sgn/frac/nan_to_num, gcd/lcm of complex inputs, and a compact matrix of result
dtypes and gradients that earlier sweeps left unpinned.
"""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, both_static, paddle_ref, same_exception


def _t(P, a, dt="float32"):
    if dt == "bfloat16":
        return P.to_tensor(np.array(a, "float32")).astype("bfloat16")
    return P.to_tensor(np.array(a).astype(dt))


def _f32(v):
    """bfloat16 results as float32 (numpy has no bfloat16)."""
    return v.astype("float32") if "bfloat16" in str(v.dtype) else v


_INTS = [5, -7, 9, 1]
_FLOATS = [1.25, -2.5, 0.3, 3.0]


# -- floor_divide / remainder with a Python number ------------------------------------------

@pytest.mark.parametrize("dt,y", [("int32", 2), ("int32", -3), ("uint8", 2), ("int8", 3),
                                  ("int16", -2), ("int32", True), ("bool", 2), ("int64", 2),
                                  ("int32", 2.5), ("float16", 2.5), ("float16", 2),
                                  ("float32", 2), ("float64", 2.5), ("bfloat16", 2.5)])
def test_floor_divide_number_is_a_default_dtype_tensor(dt, y):
    """paddle.floor_divide makes a number y a 0-D tensor (int64 / float32 / bool) and promotes."""
    a = np.abs(_INTS) if dt in ("uint8", "bool") else _INTS
    ours, theirs = both(lambda P: _f32(P.floor_divide(_t(P, a, dt), y)))
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: _f32(_t(P, a, dt).floor_divide(y)))  # the method too
    assert_same(ours, theirs)


def test_floor_divide_number_by_keyword():
    """x=/y= keywords take the same path as positions."""
    assert_same(*both(lambda P: P.floor_divide(x=_t(P, _INTS, "int32"), y=2)))
    assert_same(*both(lambda P: P.floor_divide(_t(P, _INTS, "int32"), y=2)))


@pytest.mark.parametrize("dt,y", [("int32", 2), ("uint8", 2), ("float16", 2.5), ("int32", 2.5)])
def test_floordiv_operator_keeps_x_dtype(dt, y):
    """``x // y`` (the operator) keeps x's dtype, unlike paddle.floor_divide."""
    a = np.abs(_INTS) if dt == "uint8" else _INTS
    assert_same(*both(lambda P: _t(P, a, dt) // y))


def test_floor_divide_number_in_a_static_program_keeps_x_dtype():
    """In a static program Paddle's dtype inference keeps x's dtype (int32 // 2 is int32)."""
    def f(P):
        x = P.static.data("x", [4], "int32")
        y = P.floor_divide(x, 2)
        feed = {"x": np.array(_INTS, "int32")}
        return [str(y.dtype).replace("paddle.", ""), P.static.Executor().run(feed=feed, fetch_list=[y])[0]]
    ours, theirs = both_static(f, fresh_programs=True)
    assert ours[0] == theirs[0]
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert ours[1].dtype == theirs[1].dtype


@pytest.mark.parametrize("api", ["remainder", "mod", "floor_mod"])
@pytest.mark.parametrize("dt,y", [("int32", 2.5), ("int64", -2.5), ("int32", 3), ("int64", True),
                                  ("float32", 2.5), ("float64", -1.5)])
def test_remainder_number_is_cast_to_x_dtype(api, dt, y):
    """paddle.remainder casts a number y to x's dtype (int x: 2.5 -> 2), keeping x's dtype."""
    a = _INTS if dt.startswith("int") else _FLOATS
    assert_same(*both(lambda P: getattr(P, api)(_t(P, a, dt), y)))
    assert_same(*both(lambda P: getattr(_t(P, a, dt), api)(y)))


def test_mod_operator_promotes_an_int_tensor():
    """``int_x % 2.5`` (the operator) promotes to float32."""
    assert_same(*both(lambda P: _t(P, _INTS, "int32") % 2.5))
    assert_same(*both(lambda P: _t(P, _INTS, "int64") % -2.5))


# -- float16 / bfloat16 against numbers past their range --------------------------------------

@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("v", [1e5, 70000, -70000, 65519.0, 2**31, 1e40])
def test_low_precision_times_a_huge_number(dt, v):
    """A number past float16's range becomes +-inf (0 * inf is nan); no error."""
    x = [0.01, 1.5, -2.0, 0.0]
    assert_same(*both(lambda P: _f32(_t(P, x, dt) * v)), rtol=1e-2)
    assert_same(*both(lambda P: _f32(v * _t(P, x, dt))), rtol=1e-2)


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_low_precision_pow_of_a_huge_exponent(dt):
    """Paddle has no CPU float16 pow kernel (NotFound, as pagaie on the CPU); its GPU kernel
    computes as numpy does, which pagaie's CPU AMP mode (the CPU standing in for a GPU) shows."""
    from pagaie.amp import state
    x = np.array([0.5, 1.5, -2.0, 0.0, 1.0], "float32")
    same_exception(lambda P: P.pow(_t(P, x, dt), 2))
    cases = [(1e5, [0, np.inf, np.inf, 0, 1]), (1e40, [0, np.inf, np.inf, 0, 1])]
    if dt == "float16":  # an odd exponent past float16's range keeps the sign
        cases.append((70001, [0, np.inf, -np.inf, 0, 1]))
    prev = state.allow_cpu(True)
    try:
        for y, want in cases:
            out = pagaie.pow(_t(pagaie, x, dt), y)
            assert str(out.dtype) == f"paddle.{dt}"
            np.testing.assert_array_equal(out.astype("float32").numpy(), want)
    finally:
        state.allow_cpu(prev)


@pytest.mark.parametrize("kw", [{"min": -1e40, "max": 1e40}, {"max": 1e39}, {"min": -1e39}])
def test_clip_float_bound_past_the_dtype_range(kw):
    """A float bound past float32's range is +-inf: the input passes unchanged."""
    assert_same(*both(lambda P: P.clip(_t(P, _FLOATS), **kw)))


def test_clip_int_bound_past_the_dtype_range_saturates():
    """Paddle's cast wraps 2**33 around (to 0); pagaie saturates the bound, as numpy would."""
    x = pagaie.to_tensor(np.array([1, -2, 3], "int32"))
    out = pagaie.clip(x, -1, 2**33)
    assert str(out.dtype) == "paddle.int32"
    np.testing.assert_array_equal(out.numpy(), [1, -1, 3])
    np.testing.assert_array_equal(pagaie.clip(x, -2**40, 2**40).numpy(), [1, -2, 3])
    from pagaie._ops._helpers import cpu_as_gpu
    with cpu_as_gpu():   # (Paddle's CPU kernel has no float16: its GPU one's result)
        f16 = pagaie.clip(_t(pagaie, _FLOATS, "float16"), -1e5, 1.0)  # no overflow error
    np.testing.assert_array_equal(f16.numpy(), np.clip(np.array(_FLOATS, "float16"), -np.inf, 1.0))


# -- dtype whitelists -------------------------------------------------------------------------

@pytest.mark.parametrize("api", ["sgn", "frac"])
def test_sgn_and_frac_refuse_bfloat16(api):
    """Paddle's sgn and frac check the input against a list without bfloat16 (TypeError)."""
    same_exception(lambda P: getattr(P, api)(_t(P, _FLOATS, "bfloat16")))
    assert_same(*both(lambda P: getattr(P, api)(_t(P, _FLOATS, "float64"))))


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "int32"])
def test_nan_to_num_asserts_float32_or_float64(dt):
    """paddle.nan_to_num asserts a float32/float64 input (AssertionError)."""
    same_exception(lambda P: P.nan_to_num(_t(P, [1.0, np.nan, np.inf] if dt != "int32" else [1, 2], dt)))


@pytest.mark.parametrize("api", ["gcd", "lcm"])
@pytest.mark.parametrize("other", ["complex64", "complex128"])
def test_gcd_of_an_int_and_a_complex_tensor(api, other):
    """An integer with a complex tensor: Paddle's TypeError (int vs float after abs)."""
    same_exception(lambda P: getattr(P, api)(_t(P, [3, 4], "int32"), _t(P, [5, 4], other)))
    same_exception(lambda P: getattr(P, api)(_t(P, [5, 4], other), _t(P, [3, 4], "int64")))


# -- a compact dtype matrix of the binary ops -------------------------------------------------

_PAIRS = [("int32", "int32"), ("float16", "float32"), ("float32", "float64"), ("bfloat16", "float32"),
          ("float32", "complex64"), ("float64", "complex64"), ("int32", "float32"), ("int32", "int64"),
          ("bool", "bool"), ("uint8", "uint8"), ("int8", "int16"), ("complex64", "complex128")]


@pytest.mark.parametrize("api", ["add", "subtract", "multiply", "divide", "floor_divide",
                                 "remainder", "maximum", "fmin", "pow"])
@pytest.mark.parametrize("dx,dy", _PAIRS)
@pytest.mark.parametrize("zero_d", [False, True])
def test_binary_result_dtype_matrix(api, dx, dy, zero_d):
    """Two tensors: float/complex mixes promote; int mixes raise TypeError unless one is 0-D."""
    x = np.array([[1.5, 2.0, 3.0], [0.5, 4.0, 2.5]])
    y = np.array(1.5) if zero_d else x[::-1] + 0.5

    def f(P):
        return _f32(getattr(P, api)(_t(P, x, dx), _t(P, y, dy)))
    try:
        theirs = f(paddle_ref())
    except Exception as exc:  # noqa: BLE001
        if "not registered" in str(exc) or "NotFound" in str(exc):
            pytest.skip("Paddle has no CPU kernel for this dtype")
        same_exception(f)
        return
    assert_same(f(pagaie), theirs, rtol=1e-2, atol=1e-2)


# -- gradients in float16 / float64 -------------------------------------------------------------

_UNARY = ["sqrt", "exp", "log1p", "sin", "tanh", "erf", "square", "reciprocal", "sigmoid",
          "cumsum", "logcumsumexp", "stanh", "logit", "atan", "rsqrt"]


@pytest.mark.parametrize("api", _UNARY)
@pytest.mark.parametrize("dt", ["float16", "float64"])
def test_unary_gradient_dtypes(api, dt):
    """Output and gradient keep float16/float64 and agree with Paddle."""
    a = np.array([[0.2, 0.7, 0.4], [0.9, 0.1, 0.55]])

    def f(P):
        x = _t(P, a, dt)
        x.stop_gradient = False
        fn = getattr(P, api, None) or getattr(P.nn.functional, api)
        out = fn(x)
        w = _t(P, np.arange(1, 7).reshape(out.shape), dt)
        return [out, *P.grad((out * w).sum(), [x])]
    try:
        theirs = f(paddle_ref())
    except RuntimeError as exc:
        if "not registered" in str(exc):
            pytest.skip("Paddle has no CPU kernel for this dtype")
        raise
    tol = 2e-2 if dt == "float16" else 1e-7
    assert_same(f(pagaie), theirs, rtol=tol, atol=tol)
