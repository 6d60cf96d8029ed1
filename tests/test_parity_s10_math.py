"""Session-10 sweep: cumulative ops, diff/trapezoid, lerp, clip, nanmean, frexp, logaddexp and
isclose/allclose against real Paddle 3.3.1 (argument forms earlier sweeps did not cover)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _t(P, a, dt="float32"):
    return P.to_tensor(np.array(a, dt))


def _grad(P, arrays, fn, dt="float64"):
    ts = []
    for a in arrays:
        t = P.to_tensor(np.array(a, dt))
        t.stop_gradient = False
        ts.append(t)
    out = fn(P, *ts)
    w = P.to_tensor(np.arange(1, out.size + 1, dtype=dt).reshape(out.shape))
    return [out, *P.grad((out * w).sum(), ts)]


# -- cumprod / diff ----------------------------------------------------------------------------

def test_cumprod_zero_d_takes_dim_0_only():
    assert_same(*both(lambda P: P.cumprod(P.to_tensor(2.0), dim=0)))
    same_exception(lambda P: P.cumprod(P.to_tensor(2.0), dim=-1))
    assert_same(*both(lambda P: P.cumsum(P.to_tensor(2.0), axis=-1)))  # cumsum takes -1


@pytest.mark.parametrize("n", [1.0, 0.5, 2.0, 1.5])
def test_diff_float_n(n):
    def f(P):
        return P.diff(_t(P, [1.0, 4.0, 9.0, 16.0]), n=n)
    if n == 1.0:
        assert_same(*both(f))
    else:
        same_exception(f)


@pytest.mark.parametrize("arg", ["prepend", "append"])
def test_diff_pend_of_another_dtype(arg):
    same_exception(lambda P: P.diff(_t(P, [1.0, 4.0]), **{arg: _t(P, [1, 2], "int64")}))
    same_exception(lambda P: P.diff(_t(P, [1.0, 4.0]), **{arg: _t(P, [1.0], "float64")}))
    assert_same(*both(lambda P: P.diff(_t(P, [1.0, 4.0]), n=2, **{arg: _t(P, [1.0, 2.0])})))


# -- trapezoid / cumulative_trapezoid --------------------------------------------------------

_Y = np.random.default_rng(0).standard_normal((3, 5))


@pytest.mark.parametrize("fn", ["trapezoid", "cumulative_trapezoid"])
@pytest.mark.parametrize("kw", [
    {"x": [0.0, 1.0]},                                 # diff(x) of one value broadcasts
    {"x": [0.0, 1.0, 3.0], "axis": 0},
    {"dx": np.array([0.5])}, {"dx": np.array(0.5, "float64")},
    {"dx": 2}, {"x": np.linspace(0, 2, 5, dtype="float64")},
])
def test_trapezoid_spacing_broadcasts_and_promotes(fn, kw):
    def f(P):
        k = {a: (P.to_tensor(v) if isinstance(v, np.ndarray) else
                 _t(P, v) if isinstance(v, list) else v) for a, v in kw.items()}
        return getattr(P, fn)(_t(P, _Y), **k)
    assert_same(*both(f), rtol=1e-6)


@pytest.mark.parametrize("fn", ["trapezoid", "cumulative_trapezoid"])
def test_trapezoid_errors(fn):
    same_exception(lambda P: getattr(P, fn)(_t(P, _Y), x=_t(P, [0, 1, 2, 3, 4], "int64")))
    same_exception(lambda P: getattr(P, fn)(_t(P, _Y), x=_t(P, [0.0, 1.0, 2.0])))
    same_exception(lambda P: getattr(P, fn)(_t(P, _Y), dx=P.ones([1, 1])))
    same_exception(lambda P: getattr(P, fn)(_t(P, _Y), axis=2))
    same_exception(lambda P: getattr(P, fn)(_t(P, _Y), axis=-3))


@pytest.mark.parametrize("fn", ["trapezoid", "cumulative_trapezoid"])
def test_trapezoid_empty_and_grad(fn):
    assert_same(*both(lambda P: getattr(P, fn)(P.zeros([2, 0]))))
    assert_same(*both(lambda P: _grad(P, [_Y, np.linspace(0, 1.3, 5)],
                                      lambda Q, y, x: getattr(Q, fn)(y, x=x))))


# -- lerp ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_lerp_rounds_as_x_plus_w_times_difference(dt):
    rng = np.random.default_rng(1)
    x, y, w = rng.standard_normal(300), rng.standard_normal(300), rng.uniform(-0.5, 1.5, 300)
    ours, theirs = both(lambda P: P.lerp(_t(P, x, dt), _t(P, y, dt), _t(P, w, dt)))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    ours, theirs = both(lambda P: P.lerp(_t(P, x, dt), _t(P, y, dt), 0.7))
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("w", [2, True, np.float32(0.5), np.int64(1)])
@pytest.mark.parametrize("inplace", [False, True])
def test_lerp_weight_must_be_a_float_or_tensor(w, inplace):
    def f(P):
        x = _t(P, [1.0, 2.0])
        return x.lerp_(_t(P, [3.0, 5.0]), w) if inplace else P.lerp(x, _t(P, [3.0, 5.0]), w)
    same_exception(f)


@pytest.mark.parametrize("inplace", [False, True])
def test_lerp_weight_tensor_of_another_dtype(inplace):
    for w in (np.array(0.3), np.array([0.3]), np.array([1, 0])):
        def f(P):
            x = _t(P, [1.0, 2.0])
            wt = P.to_tensor(w)
            return x.lerp_(_t(P, [3.0, 5.0]), wt) if inplace else P.lerp(x, _t(P, [3.0, 5.0]), wt)
        same_exception(f)
    assert_same(*both(lambda P: P.lerp(_t(P, [1.0, 2.0], "float64"), _t(P, [3.0, 5.0], "float64"),
                                       np.float64(0.3))))


# -- clip ------------------------------------------------------------------------------------

@pytest.mark.parametrize("mn,mx", [(float("nan"), 2.0), (0.0, float("nan")), (None, float("nan")),
                                   (float("nan"), None)])
@pytest.mark.parametrize("dt", ["float32", "int32"])
def test_clip_nan_bound(mn, mx, dt):
    same_exception(lambda P: P.clip(_t(P, [1, 2, 3], dt), mn, mx))


# -- nanmean ---------------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [None, 1, [0, 1]])
def test_nanmean_all_nan_slice_has_zero_gradient(axis):
    m = [[np.nan, 1.0, 2.0], [np.nan, np.nan, np.nan], [3.0, -1.0, np.nan]]

    def f(P):
        x = _t(P, m, "float64")
        x.stop_gradient = False
        out = P.nanmean(x, axis=axis)
        return [out, *P.grad(out.sum() if axis is not None else out, [x])]
    assert_same(*both(f))


# -- frexp / logaddexp -----------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_frexp_infinities_nan_and_negative_zero(dt):
    ours, theirs = both(lambda P: P.frexp(_t(P, [np.inf, -np.inf, np.nan, 0.0, -0.0, 3.0, -5.0], dt)))
    assert_same(ours, theirs)
    assert np.signbit(ours[0].numpy()).tolist() == np.signbit(theirs[0].numpy()).tolist()


def test_logaddexp_takes_tensors_only():
    same_exception(lambda P: P.logaddexp(_t(P, [1.0]), 2.0))
    same_exception(lambda P: P.logaddexp(_t(P, [1.0]), 2))
    same_exception(lambda P: P.logaddexp(1.0, _t(P, [1.0])))


# -- isclose / allclose ----------------------------------------------------------------------

@pytest.mark.parametrize("op", ["isclose", "allclose"])
@pytest.mark.parametrize("rtol,atol", [(-0.5, 1.0), (0.5, -0.1), (-1.0, -1.0), (-0.1, 0.6)])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_close_negative_tolerances(op, rtol, atol, equal_nan):
    assert_same(*both(lambda P: getattr(P, op)(
        _t(P, [1.0, 2.0, np.nan, np.inf, 3.0]), _t(P, [1.0, 2.5, np.nan, np.inf, 2.0]),
        rtol=rtol, atol=atol, equal_nan=equal_nan)))


@pytest.mark.parametrize("op", ["isclose", "allclose"])
@pytest.mark.parametrize("kw", ["rtol_int", "atol_bool", "np_f32", "np_f64", "t_f32", "t_f64", "t_i64"])
def test_close_tolerance_types(op, kw):
    def f(P):
        v = {"rtol_int": 0, "atol_bool": False, "np_f32": np.float32(0.1), "np_f64": np.float64(0.1),
             "t_f32": P.to_tensor(0.5), "t_f64": P.to_tensor(0.5, "float64"),
             "t_i64": P.to_tensor(1)}[kw]
        arg = "atol" if kw == "atol_bool" else "rtol"
        return getattr(P, op)(_t(P, [1.0, 2.0]), _t(P, [1.0, 2.5]), **{arg: v})
    try:
        f(__import__("tests.reference", fromlist=["paddle_ref"]).paddle_ref())
    except Exception:  # noqa: BLE001
        same_exception(f)
        return
    assert_same(*both(f))
