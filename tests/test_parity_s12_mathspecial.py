"""Session-12 sweep: elementwise and cumulative math at special values (NaN, +-inf, poles,
out-of-range fill values) and the operand kinds Paddle refuses, against real Paddle 3.3.1:
sign/sgn gradients at NaN, ``negative`` of a bool tensor, ``pow`` with +-0.5 at -inf,
trigamma at its poles, logcumsumexp over -inf, clip's missing and Tensor bounds, logit's eps,
nan_to_num's replacement order and range check, and Python numbers given to tensor-only
binary ops."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_INF, _NAN = float("inf"), float("nan")


def _t(P, a, dt="float32"):
    return P.to_tensor(np.array(a, dt))


def _grad(P, a, fn, dt="float64"):
    """``[fn(x), d(sum(fn(x) * w))/dx]`` with weights ``w = 1, 2, ...``."""
    x = _t(P, a, dt)
    x.stop_gradient = False
    y = fn(P, x)
    w = P.to_tensor(np.arange(1, y.size + 1, dtype=dt).reshape(y.shape))
    return [y, P.grad((y * w).sum(), x)[0]]


# -- sign / sgn / negative ---------------------------------------------------------------------

@pytest.mark.parametrize("op", ["sign", "sgn"])
def test_sign_gradient_is_zero_at_nan(op):
    """Paddle's sign/sgn gradient is 0 everywhere, NaN inputs included."""
    assert_same(*both(lambda P: _grad(P, [_NAN, 1.0, 0.0, -2.0], lambda P, x: getattr(P, op)(x))))


def test_negative_rejects_a_bool_tensor():
    """paddle.negative (and Tensor.negative) raise TypeError on bool; neg and -x return it."""
    same_exception(lambda P: P.negative(P.to_tensor([True, False])))
    same_exception(lambda P: P.to_tensor([True, False]).negative())
    assert_same(*both(lambda P: P.neg(P.to_tensor([True, False]))))
    assert_same(*both(lambda P: -P.to_tensor([True, False])))
    assert_same(*both(lambda P: P.negative(_t(P, [1.0, 0.0, -2.0]))))
    assert_same(*both(lambda P: _t(P, [3, -1], "int32").negative()))


# -- pow ---------------------------------------------------------------------------------------

_POW_X = [-_INF, _INF, 4.0, -4.0, 0.0, _NAN]


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("y", [0.5, -0.5])
def test_pow_half_exponent_at_minus_inf(dt, y):
    """Paddle's pow is C's: (-inf) ** 0.5 is inf and (-inf) ** -0.5 is 0 (not sqrt's NaN)."""
    assert_same(*both(lambda P: P.pow(_t(P, _POW_X, dt), y)))
    assert_same(*both(lambda P: _t(P, _POW_X, dt) ** y))

    def inplace(P):
        x = _t(P, _POW_X, dt)
        x.pow_(y)
        return x
    assert_same(*both(inplace))


def test_pow_half_exponent_gradient():
    """The gradient of x ** 0.5 is 0.5 / sqrt(x)."""
    assert_same(*both(lambda P: _grad(P, [4.0, 9.0, 0.25], lambda P, x: x ** 0.5)))
    assert_same(*both(lambda P: _grad(P, [4.0, 9.0, 0.25], lambda P, x: P.pow(x, -0.5))))


# -- polygamma ---------------------------------------------------------------------------------

_PG_X = [-2.0, -1.0, -0.0, 0.0, 0.5, 1.0, -1.5, _INF, -_INF, _NAN, 30.0]


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_trigamma_at_poles_and_infinities(dt):
    """Paddle's polygamma(x, 1) is +inf at 0, -1, -2... and at -inf, NaN at +inf (as for n >= 2)."""
    assert_same(*both(lambda P: P.polygamma(_t(P, _PG_X, dt), 1)), rtol=1e-5)
    assert_same(*both(lambda P: _t(P, _PG_X, dt).polygamma(1)), rtol=1e-5)

    def inplace(P):
        x = _t(P, _PG_X, dt)
        x.polygamma_(1)
        return x
    assert_same(*both(inplace), rtol=1e-5)


def test_trigamma_gradient_is_infinite_at_the_poles():
    """The gradient of polygamma(x, 1) is polygamma(x, 2): -inf at the poles."""
    xs = [-2.0, -1.0, 0.0, 0.5, 1.0, -1.5, _INF, _NAN, 3.0]
    assert_same(*both(lambda P: _grad(P, xs, lambda P, x: P.polygamma(x, 1))))


# -- logcumsumexp ------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("xs", [[-_INF, -_INF, 1.0], [-_INF, 0.0], [1.0, -_INF, 2.0, -_INF],
                                [[1.0, -_INF], [-_INF, 2.0]], [_INF, 1.0, -_INF]])
def test_logcumsumexp_of_minus_inf(dt, xs):
    """Paddle's running sum starts at the dtype's lowest value: a prefix of -inf gives that value
    (not -inf) and the gradient of a -inf input is 0 (not NaN)."""
    assert_same(*both(lambda P: _grad(P, xs, lambda P, x: P.logcumsumexp(x, axis=0), dt)))


# -- clip --------------------------------------------------------------------------------------

_CLIP_X = [_NAN, _INF, -_INF, -0.0, 1.5, -2.5, 3e38, -3e38]


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("bounds", [(None, 0.0), (0.0, None), (None, None), (-1.0, 1.0)])
def test_clip_missing_bound_is_the_finite_limit(dt, bounds):
    """A missing clip bound is the dtype's largest finite value: +-inf are clipped to it."""
    assert_same(*both(lambda P: P.clip(_t(P, _CLIP_X, dt), *bounds)))
    assert_same(*both(lambda P: _t(P, _CLIP_X, dt).clip(*bounds)))
    assert_same(*both(lambda P: P.clip(_t(P, _CLIP_X, dt), *(
        None if b is None else _t(P, b, dt) for b in bounds))))


def test_clip_gradient_at_infinities():
    """clip's gradient is 1 inside the bounds (the finite limits when missing), 0 outside."""
    xs = [_INF, -_INF, 1.0, -3.0, 5.0]
    assert_same(*both(lambda P: _grad(P, xs, lambda P, x: P.clip(x))))
    assert_same(*both(lambda P: _grad(P, xs, lambda P, x: P.clip(x, min=-1.0))))


@pytest.mark.parametrize("bounds", [(1.0, 0.0), (_NAN, 1.0), (0.0, _NAN), (_NAN, None)])
def test_clip_tensor_bounds_are_checked(bounds):
    """Paddle checks Tensor bounds as numbers: max < min or a NaN bound raises ValueError."""
    same_exception(lambda P: P.clip(_t(P, [1.0, 2.0]), *(
        None if b is None else _t(P, b) for b in bounds)))
    same_exception(lambda P: P.clip(_t(P, [1.0, 2.0], "float64"), *(
        None if b is None else _t(P, b, "float64") for b in bounds)))


def test_clip_bound_beyond_float32_range():
    """A float32 tensor's min of 1e40 is inf, above the missing max: ValueError; a float64
    tensor clips everything (inf too) to 1e40."""
    same_exception(lambda P: P.clip(_t(P, [1.0, 2.0]), 1e40))
    assert_same(*both(lambda P: P.clip(_t(P, _CLIP_X, "float64"), 1e40)))


# -- logit -------------------------------------------------------------------------------------

_LOGIT_X = [0.0, 1e-8, 0.1, 0.3, 0.5, 0.9, 1.0, 1.2, -0.1]


@pytest.mark.parametrize("eps", [None, 0.0, 1e-6, 0.2, 0.5, 0.6, 1.0])
def test_logit_eps(eps):
    """eps=0 clamps nothing (as None); Paddle clamps to 1 - eps first, then eps, so an eps
    above 0.5 maps every value to logit(eps)."""
    assert_same(*both(lambda P: _grad(P, _LOGIT_X, lambda P, x: P.logit(x, eps))))
    assert_same(*both(lambda P: P.logit(_t(P, _LOGIT_X), eps)))


# -- nan_to_num --------------------------------------------------------------------------------

_N2N_X = [_NAN, _INF, -_INF, 1.0, -0.0]


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("kw", [{}, {"nan": _INF}, {"nan": -_INF}, {"posinf": _NAN},
                                {"posinf": -_INF}, {"neginf": _INF},
                                {"nan": _INF, "posinf": -_INF, "neginf": _NAN},
                                {"nan": 5, "posinf": 7, "neginf": -7}])
def test_nan_to_num_replaces_one_after_the_other(dt, kw):
    """Paddle replaces NaN, then +inf, then -inf: nan=inf gives posinf; gradients pass where
    nothing is replaced."""
    assert_same(*both(lambda P: _grad(P, _N2N_X, lambda P, x: P.nan_to_num(x, **kw), dt)))

    def inplace(P):
        x = _t(P, _N2N_X, dt)
        P.nan_to_num_(x, **kw)
        return x
    assert_same(*both(inplace))


@pytest.mark.parametrize("kw", [{"nan": 1e40}, {"posinf": 1e39}, {"neginf": -1e39},
                                {"posinf": -1e39}])
def test_nan_to_num_fill_value_out_of_range(kw):
    """A finite fill value beyond float32's range raises ValueError (float64 takes it)."""
    same_exception(lambda P: P.nan_to_num(_t(P, _N2N_X), **kw))
    assert_same(*both(lambda P: P.nan_to_num(_t(P, _N2N_X, "float64"), **kw)))


# -- tensor-only binary ops --------------------------------------------------------------------

@pytest.mark.parametrize("op", ["maximum", "minimum", "fmax", "fmin", "nextafter", "atan2",
                                "gcd", "lcm"])
@pytest.mark.parametrize("number", [2, 2.5, True])
def test_binary_op_refuses_a_python_number(op, number):
    """These ops take tensors only: a Python number raises (ValueError from the argument
    parser, or AttributeError where Paddle's Python code reads its shape)."""
    same_exception(lambda P: getattr(P, op)(_t(P, [1.0, -2.0, 0.0]), number))
    same_exception(lambda P: getattr(_t(P, [1.0, -2.0, 0.0]), op)(number))


@pytest.mark.parametrize("op", ["maximum", "minimum", "fmax", "fmin"])
def test_binary_op_refuses_a_python_number_as_x(op):
    """A Python number as x is refused too (ValueError)."""
    same_exception(lambda P: getattr(P, op)(2.0, _t(P, [1.0, -2.0, 0.0])))


# -- gammainc / gammaincc ----------------------------------------------------------------------

@pytest.mark.parametrize("op", ["gammainc", "gammaincc"])
@pytest.mark.parametrize("xy", [([1.0, 2.0], [_NAN, 1.0]), ([_NAN, 2.0], [1.0, 1.0])])
def test_gammainc_rejects_nan(op, xy):
    """Paddle checks that every element of x and y is >= 0: a NaN is not (ValueError)."""
    same_exception(lambda P: getattr(P, op)(_t(P, xy[0]), _t(P, xy[1])))

