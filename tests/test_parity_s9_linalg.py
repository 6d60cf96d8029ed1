"""Session-9 sweep of paddle.linalg in depth against real Paddle 3.3.1: norms of empty inputs,
lstsq shapes and empty results, NaN inputs of the inverse family, Cholesky of non-finite input,
dtype errors, ormqr's size checks, cdist of complex rows and qr's missing derivatives."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

_RNG = np.random.default_rng(9)


def _r(*shape, dtype="float64"):
    a = _RNG.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * _RNG.standard_normal(shape)
    return a.astype(dtype)


def _t(m, a, stop_gradient=True):
    t = m.to_tensor(a)
    t.stop_gradient = stop_gradient
    return t


_X = _r(2, 3, 4)
_E = np.zeros((2, 0, 3))
_NAN = np.stack([np.eye(2), [[np.nan, 1.0], [1.0, 1.0]]])


# ---------------------------------------------------------------- norms

@pytest.mark.parametrize("p", [np.inf, -np.inf, -1, 0, 2])
@pytest.mark.parametrize("axis", [None, 1])
@pytest.mark.parametrize("api", ["norm", "vector_norm"])
def test_vector_norms_of_empty_inputs_are_zero(api, p, axis):
    ours, theirs = both(lambda m: getattr(m.linalg, api)(_t(m, _E), p=p, axis=axis))
    assert_same(ours, theirs)


def test_vector_norm_of_empty_input_keepdim_and_gradient():
    def run(m):
        t = _t(m, _E, stop_gradient=False)
        out = m.linalg.vector_norm(t, p=np.inf, axis=1, keepdim=True)
        return [out, *m.grad([out.sum()], [t])]
    assert_same(*both(run))


@pytest.mark.parametrize("p", [2, -2, np.inf, -np.inf])
@pytest.mark.parametrize("api", ["matrix_norm", "norm"])
def test_max_min_matrix_norms_of_empty_matrices_raise(api, p):
    same_exception(lambda m: getattr(m.linalg, api)(_t(m, _E), p=p, axis=[1, 2]))


@pytest.mark.parametrize("p", ["fro", "nuc", 1, -1])
def test_sum_matrix_norms_of_empty_matrices(p):
    assert_same(*both(lambda m: m.linalg.matrix_norm(_t(m, _E), p=p)))


@pytest.mark.parametrize("p", ["fro", "nuc", 2, -2])
def test_matrix_norm_repeated_axis_raises(p):
    exc = same_exception(lambda m: m.linalg.matrix_norm(_t(m, _X), p=p, axis=[1, 1]))
    assert "axis" in str(exc)


def test_fro_norm_over_three_axes_raises():
    same_exception(lambda m: m.linalg.norm(_t(m, _X), p="fro", axis=[0, 1, 2]))


# ---------------------------------------------------------------- lstsq

@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
def test_lstsq_one_dimensional_y_raises(driver):
    same_exception(lambda m: m.linalg.lstsq(_t(m, _r(5, 3)), _t(m, _r(5)), driver=driver))


@pytest.mark.parametrize("xs,ys", [((0, 5, 3), (0, 5, 2)), ((5, 0), (5, 2)), ((0, 3), (0, 2)), ((5, 3), (5, 0)),
                                   ((2, 0, 3), (2, 0, 1))])
@pytest.mark.parametrize("driver", ["gels", "gelsy", "gelsd", "gelss"])
def test_lstsq_of_empty_inputs(xs, ys, driver):
    ours, theirs = both(lambda m: m.linalg.lstsq(_t(m, np.zeros(xs)), _t(m, np.zeros(ys)), driver=driver))
    assert_same(ours, theirs)


@pytest.mark.parametrize("dtype", ["int32", "int64", "bool"])
def test_lstsq_integer_inputs_raise_value_error(dtype):
    a = np.array([[2, 1], [1, 3], [0, 1]]).astype(dtype)
    same_exception(lambda m: m.linalg.lstsq(m.to_tensor(a), m.to_tensor(a)))


def test_lstsq_default_rcond_is_paddles():
    # singular values 1 and 3.3e-7: above Paddle's float32 cut-off (1e-7 * 3), below torch's (eps * 3)
    a = np.diag([1.0, 3.3e-7, 0.0])[:, :2]
    ours, theirs = both(lambda m: m.linalg.lstsq(_t(m, a.astype("float32")), _t(m, np.ones((3, 1), "float32")),
                                                 driver="gelsd"))
    assert_same(ours[2], theirs[2])


# ---------------------------------------------------------------- matrix_rank

def test_matrix_rank_tol_with_atol_raises():
    same_exception(lambda m: m.linalg.matrix_rank(_t(m, _r(3, 3)), tol=0.5, atol=1.0))


# ---------------------------------------------------------------- NaN, inf and singular input

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", [
    lambda m, t: m.linalg.inv(t),
    lambda m, t: m.linalg.solve(t, m.ones(t.shape[:-1] + [1], dtype=t.dtype)),
    lambda m, t: m.linalg.matrix_power(t, -1),
    lambda m, t: m.linalg.cond(t, p=1),
], ids=["inv", "solve", "matrix_power", "cond1"])
def test_nan_input_is_not_invertible(call, dtype):
    same_exception(lambda m: call(m, _t(m, _NAN.astype(dtype))))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_det_and_slogdet_of_nan_input_compute(dtype):
    ours, theirs = both(lambda m: (m.linalg.det(_t(m, _NAN.astype(dtype))), m.linalg.slogdet(_t(m, _NAN.astype(dtype)))))
    assert_same(ours, theirs)


_A3 = np.eye(3) * 2 + 0.5


@pytest.mark.parametrize("pos", [(0, 0), (2, 2), (1, 0), (2, 1)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_of_nan_input_propagates(pos, upper):
    a = _A3.copy()
    a[pos] = np.nan
    batch = np.stack([_A3, a])
    assert_same(*both(lambda m: m.linalg.cholesky(_t(m, batch), upper=upper)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cholesky_of_infinite_input(dtype):
    a = np.array([[np.inf, 1.0], [1.0, 1.0]], dtype)
    assert_same(*both(lambda m: m.linalg.cholesky(_t(m, a))))


@pytest.mark.parametrize("a", [np.array([[1.0, 2.0], [2.0, 1.0]]), np.array([[-1.0, 0.0], [np.nan, 1.0]]),
                               -np.eye(2)])
def test_cholesky_of_indefinite_input_raises(a):
    exc = same_exception(lambda m: m.linalg.cholesky(_t(m, a)))
    assert "positive-definite" in str(exc) and "linalg.cholesky" in str(exc)


# ---------------------------------------------------------------- dtypes without a Paddle kernel

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_rejects_complex(dtype, upper):
    l = np.tril(_r(3, 3, dtype=dtype)) + 3 * np.eye(3)
    same_exception(lambda m: m.linalg.cholesky_solve(_t(m, _r(3, 2, dtype=dtype)), _t(m, l), upper=upper))


@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("api", ["matrix_power", "multi_dot"])
def test_integer_chain_products_have_no_kernel(api, dtype):
    x = np.array([[2, 1], [1, 3]]).astype(dtype)
    if api == "matrix_power":
        same_exception(lambda m: m.linalg.matrix_power(m.to_tensor(x), 2))
    else:
        same_exception(lambda m: m.linalg.multi_dot([m.to_tensor(x), m.to_tensor(x)]))


def test_vecdot_of_bools_has_no_kernel():
    same_exception(lambda m: m.linalg.vecdot(m.to_tensor([True, False]), m.to_tensor([True, True])))


# ---------------------------------------------------------------- cdist

_CA, _CB = _r(2, 4, 3, dtype="complex64"), _r(2, 5, 3, dtype="complex64")


@pytest.mark.parametrize("p", [0, 1, 2, 3, np.inf])
def test_cdist_of_complex_rows_is_real(p):
    ours, theirs = both(lambda m: m.cdist(_t(m, _CA), _t(m, _CB), p=p))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_cdist_negative_p_is_an_assertion():
    same_exception(lambda m: m.cdist(_t(m, _r(4, 3)), _t(m, _r(5, 3)), p=-1))


# ---------------------------------------------------------------- ormqr

_RX, _SQ, _TAU = _r(2, 4, 3), _r(2, 3, 3), _r(2, 3)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
@pytest.mark.parametrize("yshape", [(2, 3, 3), (2, 4, 3), (2, 3, 4), (2, 4, 4), (2, 2, 4), (2, 3, 2)])
def test_ormqr_sizes(left, transpose, yshape):
    y = _r(*yshape)

    def run(m):
        return m.linalg.ormqr(_t(m, _RX), _t(m, _TAU), _t(m, y), left=left, transpose=transpose)
    try:
        theirs = run(paddle_ref())
    except Exception:  # noqa: BLE001
        same_exception(run)
        return
    assert_same(run(pagaie), theirs, rtol=1e-9, atol=1e-12)


def test_ormqr_square_from_the_right():
    y = _r(2, 2, 3)
    ours, theirs = both(lambda m: m.linalg.ormqr(_t(m, _SQ), _t(m, _TAU), _t(m, y), left=False,
                                                 transpose=True))
    assert_same(ours, theirs, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda m: m.linalg.ormqr(_t(m, _RX), _t(m, _TAU.astype("float32")), _t(m, _SQ)),
    lambda m: m.linalg.ormqr(_t(m, _RX), _t(m, _TAU), _t(m, np.concatenate([_SQ, _SQ]))),
], ids=["dtype", "batch"])
def test_ormqr_argument_assertions(call):
    same_exception(call)


# ---------------------------------------------------------------- qr derivatives

@pytest.mark.parametrize("mode,shape", [("r", (2, 4, 3)), ("r", (2, 3, 4)), ("r", (2, 3, 3)), ("complete", (2, 4, 3))])
def test_qr_without_a_derivative_raises_on_backward(mode, shape):
    a = _r(*shape)

    def run(m):
        t = _t(m, a, stop_gradient=False)
        out = m.linalg.qr(t, mode=mode)
        out = out if mode == "r" else out[0] @ out[1][..., :3, :]
        return m.grad([(out * out).sum()], [t])
    same_exception(run)


def test_qr_mode_r_forward_still_matches():
    a = _r(2, 4, 3)

    def run(m):
        t = _t(m, a, stop_gradient=False)
        return m.linalg.qr(t, mode="r").abs()
    assert_same(*both(run), rtol=1e-9, atol=1e-12)


# ---------------------------------------------------------------- argument checks

_M3 = _r(3, 3) + 3 * np.eye(3)


@pytest.mark.parametrize("dtype", ["int64", "float32"])
def test_lu_pivots_must_be_int32(dtype):
    piv = np.array([1, 2, 3]).astype(dtype)
    same_exception(lambda m: m.linalg.lu_unpack(_t(m, _M3), m.to_tensor(piv)))
    same_exception(lambda m: m.linalg.lu_solve(_t(m, _M3), _t(m, _M3), m.to_tensor(piv)))


def test_matrix_power_exponent_must_be_an_int():
    same_exception(lambda m: m.linalg.matrix_power(_t(m, _M3), 2.0))
    same_exception(lambda m: m.linalg.matrix_power(_t(m, _M3), True))


def test_triangular_solve_mixed_dtypes_raise():
    same_exception(lambda m: m.linalg.triangular_solve(_t(m, _M3.astype("float32")), _t(m, _M3)))


def test_vecdot_int_with_float_raises_type_error():
    same_exception(lambda m: m.linalg.vecdot(m.to_tensor([1, 2]), m.to_tensor([1.5, 2.0])))


@pytest.mark.parametrize("call", [
    lambda m: m.linalg.householder_product(_t(m, _r(4, 3)), _t(m, _r(3).astype("float32"))),
    lambda m: m.linalg.householder_product(_t(m, _r(3)), _t(m, _r(3))),
], ids=["dtype", "1d"])
def test_householder_product_assertions(call):
    same_exception(call)
