"""Session-19 sweep: the losses of ``nn.functional`` over dtypes (Paddle's CPU loss kernels take
no float16/bfloat16) and linalg dtype and error parity, against real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception, same_static_exception

_R = np.random.default_rng(19)
_X = _R.standard_normal((4, 5))
_Y = _R.standard_normal((4, 5))
_P01 = _R.uniform(0.1, 0.9, (4, 5))
_LBL = np.array([0, 3, 1, 4])
_HW = _R.standard_normal((4, 5))
_RN = _R.standard_normal((2, 4, 3, 5))


def _t(P, a, dt="float32"):
    if dt == "bfloat16":
        return P.to_tensor(np.asarray(a, "float32")).astype("bfloat16")
    return P.to_tensor(np.asarray(a).astype(dt))


_LOSSES = {
    "cross_entropy": lambda P, d: P.nn.functional.cross_entropy(_t(P, _X, d), _t(P, _LBL, "int64")),
    "cross_entropy_soft": lambda P, d: P.nn.functional.cross_entropy(_t(P, _X, d), _t(P, _P01, d),
                                                                     soft_label=True),
    "softmax_with_cross_entropy": lambda P, d: P.nn.functional.softmax_with_cross_entropy(
        _t(P, _X, d), _t(P, _LBL[:, None], "int64")),
    "nll_loss": lambda P, d: P.nn.functional.nll_loss(_t(P, _X, d), _t(P, _LBL, "int64")),
    "bce": lambda P, d: P.nn.functional.binary_cross_entropy(_t(P, _P01, d), _t(P, _P01, d)),
    "bce_logits": lambda P, d: P.nn.functional.binary_cross_entropy_with_logits(_t(P, _X, d),
                                                                               _t(P, _P01, d)),
    "mse": lambda P, d: P.nn.functional.mse_loss(_t(P, _X, d), _t(P, _Y, d)),
    "l1": lambda P, d: P.nn.functional.l1_loss(_t(P, _X, d), _t(P, _Y, d)),
    "smooth_l1": lambda P, d: P.nn.functional.smooth_l1_loss(_t(P, _X, d), _t(P, _Y, d)),
    "kl_div": lambda P, d: P.nn.functional.kl_div(_t(P, _X, d), _t(P, _P01, d)),
    "margin_ranking": lambda P, d: P.nn.functional.margin_ranking_loss(
        _t(P, _X, d), _t(P, _Y, d), _t(P, np.sign(_Y), d)),
    "hinge_embedding": lambda P, d: P.nn.functional.hinge_embedding_loss(_t(P, _X, d),
                                                                        _t(P, np.sign(_Y), d)),
    "triplet_margin": lambda P, d: P.nn.functional.triplet_margin_loss(_t(P, _X, d), _t(P, _Y, d),
                                                                      _t(P, _P01, d)),
    "multi_label_soft_margin": lambda P, d: P.nn.functional.multi_label_soft_margin_loss(
        _t(P, _X, d), _t(P, _P01 > .5, d)),
    "multi_margin": lambda P, d: P.nn.functional.multi_margin_loss(_t(P, _X, d), _t(P, _LBL, "int64")),
    "soft_margin": lambda P, d: P.nn.functional.soft_margin_loss(_t(P, _X, d), _t(P, np.sign(_Y), d)),
    "poisson_nll": lambda P, d: P.nn.functional.poisson_nll_loss(_t(P, _X, d), _t(P, _P01, d)),
    "sigmoid_focal": lambda P, d: P.nn.functional.sigmoid_focal_loss(_t(P, _X, d), _t(P, _P01 > .5, d)),
    "square_error_cost": lambda P, d: P.nn.functional.square_error_cost(_t(P, _X, d), _t(P, _Y, d)),
    "npair": lambda P, d: P.nn.functional.npair_loss(_t(P, _X, d), _t(P, _Y, d),
                                                     _t(P, _LBL.astype("float32"), d)),
    "hsigmoid": lambda P, d: P.nn.functional.hsigmoid_loss(_t(P, _X, d), _t(P, _LBL, "int64"), 5,
                                                           _t(P, _HW, d)),
    "rnnt": lambda P, d: P.nn.functional.rnnt_loss(
        _t(P, _RN, d), _t(P, [[1, 2], [3, 1]], "int32"), _t(P, [4, 4], "int32"),
        _t(P, [2, 2], "int32")),
}


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(_LOSSES))
def test_loss_refuses_low_floats_on_cpu(name, dt):
    assert isinstance(same_exception(lambda P: _LOSSES[name](P, dt)), RuntimeError)


@pytest.mark.parametrize("name", ["hsigmoid", "rnnt"])
@pytest.mark.parametrize("dt", ["int32", "int64"])
def test_loss_float_only_kernels_refuse_ints(name, dt):
    same_exception(lambda P: _LOSSES[name](P, dt))


@pytest.mark.parametrize("name", sorted(_LOSSES))
def test_loss_float64_still_matches(name):
    if name == "npair":   # Paddle's npair_loss builds a float32 constant: float64 fails there
        pytest.skip("Paddle bug")
    assert_same(*both(lambda P: _LOSSES[name](P, "float64")), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn", [
    lambda F, x, y, l: F.cross_entropy(x, l), lambda F, x, y, l: F.mse_loss(x, y),
    lambda F, x, y, l: F.nll_loss(x, l), lambda F, x, y, l: F.kl_div(x, y),
    lambda F, x, y, l: F.smooth_l1_loss(x, y), lambda F, x, y, l: F.sigmoid_focal_loss(x, y),
    lambda F, x, y, l: F.soft_margin_loss(x, y)])
def test_loss_program_refuses_float16(fn):
    def build(P):
        x, y = P.static.data("x", [4, 5], "float16"), P.static.data("y", [4, 5], "float16")
        fn(P.nn.functional, x, y, P.static.data("l", [4], "int64"))
    assert isinstance(same_static_exception(build), TypeError)


def test_log_loss_checks_the_label_dtype_before_the_shape():
    same_exception(lambda P: P.nn.functional.log_loss(_t(P, np.full((4, 5), .5), "float64"),
                                                      _t(P, np.ones((4, 5)), "float64")))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("wt", [None, "float32"])
def test_bce_takes_labels_outside_0_1(reduction, wt):
    x, y = _R.uniform(0.05, 0.95, (3, 4)), np.linspace(-1.0, 2.0, 12).reshape(3, 4)
    w = np.linspace(0.5, 1.5, 4)

    def f(P):
        xt = _t(P, x, "float64")
        xt.stop_gradient = False
        out = P.nn.functional.binary_cross_entropy(xt, _t(P, y, "float64"), reduction=reduction,
                                                   weight=None if wt is None else _t(P, w, "float64"))
        return [out, P.grad(out.sum(), xt)[0]]
    assert_same(*both(f), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("dts", [("float32", "float64"), ("float64", "float32")])
def test_cross_entropy_hard_label_weight_promotes(reduction, dts):
    def f(P):
        return P.nn.functional.cross_entropy(_t(P, _X, dts[0]), _t(P, _LBL, "int64"), reduction=reduction,
                                             weight=_t(P, np.linspace(0.5, 2, 5), dts[1]))
    assert_same(*both(f), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dts", [("float64", "float32"), ("float32", "float64")])
def test_hsigmoid_weight_and_bias_take_the_input_dtype(dts):
    same_exception(lambda P: P.nn.functional.hsigmoid_loss(
        _t(P, _X), _t(P, _LBL, "int64"), 5, _t(P, _HW, dts[0]), _t(P, np.ones((4, 1)), dts[1])))


# -- linalg ------------------------------------------------------------------------------------

_A = _R.standard_normal((3, 3)) + 3 * np.eye(3)
_B = _R.standard_normal((3, 3))
_LINALG = {
    "norm_fro_axis": lambda P, d: P.linalg.norm(_t(P, _A, d), p="fro", axis=[0, 1]),
    "norm_2_axis": lambda P, d: P.linalg.norm(_t(P, _A, d), p=2, axis=[0, 1]),
    "vector_norm": lambda P, d: P.linalg.vector_norm(_t(P, _A, d)),
    "vector_norm_0": lambda P, d: P.linalg.vector_norm(_t(P, _A, d), p=0),
    "matrix_norm": lambda P, d: P.linalg.matrix_norm(_t(P, _A, d)),
    "matrix_norm_1": lambda P, d: P.linalg.matrix_norm(_t(P, _A, d), p=1),
    "matrix_norm_nuc": lambda P, d: P.linalg.matrix_norm(_t(P, _A, d), p="nuc"),
    "cross": lambda P, d: P.cross(_t(P, _A, d), _t(P, _B, d)),
    "cov": lambda P, d: P.linalg.cov(_t(P, _A, d)),
    "corrcoef": lambda P, d: P.linalg.corrcoef(_t(P, _A, d)),
    "vecdot": lambda P, d: P.linalg.vecdot(_t(P, _A, d), _t(P, _B, d)),
    "inner": lambda P, d: P.inner(_t(P, _A, d), _t(P, _B, d)),
    "tensordot": lambda P, d: P.tensordot(_t(P, _A, d), _t(P, _B, d)),
}


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(_LINALG))
def test_linalg_refuses_low_floats_on_cpu(name, dt):
    assert isinstance(same_exception(lambda P: _LINALG[name](P, dt)), RuntimeError)


@pytest.mark.parametrize("name", sorted(_LINALG))
def test_linalg_float32_still_matches(name):
    assert_same(*both(lambda P: _LINALG[name](P, "float32")), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("fn", [
    lambda P, x, y: P.cross(x, y), lambda P, x, y: P.linalg.cov(x), lambda P, x, y: P.linalg.vecdot(x, y),
    lambda P, x, y: P.inner(x, y), lambda P, x, y: P.linalg.vector_norm(x),
    lambda P, x, y: P.linalg.norm(x, p="fro", axis=[0, 1])])
def test_linalg_program_refuses_float16(fn):
    def build(P):
        fn(P, P.static.data("x", [3, 3], "float16"), P.static.data("y", [3, 3], "float16"))
    assert isinstance(same_static_exception(build), TypeError)


_PAIR_OPS = {
    "matmul": lambda P, a, b: P.matmul(a, b), "mm": lambda P, a, b: P.mm(a, b),
    "inner": lambda P, a, b: P.inner(a, b), "tensordot": lambda P, a, b: P.tensordot(a, b),
    "kron": lambda P, a, b: P.kron(a, b), "bmm": lambda P, a, b: P.bmm(a.unsqueeze(0), b.unsqueeze(0)),
    "mv": lambda P, a, b: P.mv(a, b[0]), "cholesky_solve": lambda P, a, b: P.linalg.cholesky_solve(a, b),
}


@pytest.mark.parametrize("dts", [("float32", "bool"), ("float64", "bool"), ("int64", "bool"),
                                 ("float32", "float16"), ("int32", "float16"), ("float32", "int32"),
                                 ("int32", "float32"), ("float16", "float32"), ("complex64", "float32"),
                                 ("float64", "complex64"), ("float32", "float32")])
@pytest.mark.parametrize("name", sorted(_PAIR_OPS))
def test_linalg_mixed_dtype_pairs(name, dts):
    """Paddle looks its kernel up by y's dtype (a complex operand's in a real/complex mix), so a
    y without a CPU kernel is NotFound, before the mix is read."""
    if (name in ("matmul", "mm", "inner", "tensordot", "kron") and dts == ("float64", "complex64")) \
            or (name == "kron" and dts == ("float32", "int32")):
        # Paddle's NotImplementedError from a cast, its kron reading int32 data as float32: not copied
        pytest.skip("Paddle bug")

    def f(P):
        return _PAIR_OPS[name](P, _t(P, _A, dts[0]), _t(P, np.tril(_B) + 3 * np.eye(3), dts[1]))
    ref = pytest.importorskip("paddle")
    try:
        f(ref)
    except Exception:   # noqa: BLE001
        same_exception(f)
        return
    assert_same(*both(f), rtol=1e-4, atol=1e-5)


def test_vecdot_promotes_a_float16_y():
    assert_same(*both(lambda P: P.linalg.vecdot(_t(P, _A), _t(P, _B, "float16"))), rtol=1e-3, atol=1e-3)


def test_cholesky_inverse_refuses_nan():
    same_exception(lambda P: P.linalg.cholesky_inverse(_t(P, [[np.nan, 0.0], [1.0, 1.0]])))


def test_cond_program_refuses_complex():
    assert isinstance(same_static_exception(
        lambda P: P.linalg.cond(P.static.data("x", [3, 3], "complex64"))), TypeError)


@pytest.mark.parametrize("dt", ["complex64", "int64"])
@pytest.mark.parametrize("fn", [
    lambda F, x, y, l: F.mse_loss(x, y), lambda F, x, y, l: F.nll_loss(x, l),
    lambda F, x, y, l: F.binary_cross_entropy(x, y), lambda F, x, y, l: F.hinge_embedding_loss(x, y),
    lambda F, x, y, l: F.soft_margin_loss(x, y), lambda F, x, y, l: F.multi_label_soft_margin_loss(x, y),
    lambda F, x, y, l: F.poisson_nll_loss(x, y), lambda F, x, y, l: F.npair_loss(x, y, l.astype(x.dtype)),
    lambda F, x, y, l: F.softmax_with_cross_entropy(x, l.unsqueeze(1)),
    lambda F, x, y, l: F.gaussian_nll_loss(x, y, y),
    lambda F, x, y, l: F.multi_label_margin_loss(x, l.unsqueeze(1).tile([1, 5]))])
def test_loss_program_refuses_complex_and_int(fn, dt):
    def build(P):
        x, y = P.static.data("x", [4, 5], dt), P.static.data("y", [4, 5], dt)
        fn(P.nn.functional, x, y, P.static.data("l", [4], "int64"))
    assert isinstance(same_static_exception(build), TypeError)


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int16"])
@pytest.mark.parametrize("name", ["mse", "l1", "margin_ranking", "square_error_cost", "soft_margin",
                                  "hinge_embedding", "multi_margin", "poisson_nll"])
def test_composite_losses_refuse_bool_and_small_ints(name, dt):
    same_exception(lambda P: _LOSSES[name](P, dt))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16"])
@pytest.mark.parametrize("name", ["inner", "tensordot", "vecdot"])
def test_matmul_composites_refuse_small_ints(name, dt):
    assert isinstance(same_exception(lambda P: _LINALG[name](P, dt)), RuntimeError)
