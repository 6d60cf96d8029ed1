"""Session-19 round 2: loss and matmul-family error/dtype parity against real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")


def _t(P, a, dt="float32"):
    return P.to_tensor(np.array(a, dt))


# -- binary_cross_entropy with an input outside [0, 1] ----------------------------------------

@pytest.mark.parametrize("bad", [-0.2, 1.5, float("nan")])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_bce_input_outside_unit_interval(bad, dt):
    err = same_exception(lambda P: P.nn.functional.binary_cross_entropy(
        _t(P, [0.5, bad, 0.3], dt), _t(P, [1.0, 0.0, 1.0], dt)))
    assert "paddle.nn.functional.binary_cross_entropy" in str(err)
    assert "'input'" in str(err)
    same_exception(lambda P: P.nn.BCELoss()(_t(P, [2.0, 0.5]), _t(P, [1.0, 0.5])))


# -- gaussian_nll_loss with a non-str reduction -----------------------------------------------

@pytest.mark.parametrize("red", [None, 1, ["mean"], "bad"])
def test_gaussian_nll_loss_reduction_type(red):
    err = same_exception(lambda P: P.nn.functional.gaussian_nll_loss(
        _t(P, [[1.0, 2.0]]), _t(P, [[1.5, 2.5]]), _t(P, [[0.5, 1.0]]), reduction=red))
    assert "reduction" in str(err)


# -- cross_entropy: a soft-label loss takes the weight's dtype --------------------------------

_R = np.random.default_rng(0)
_X = _R.random((3, 5))
_L = _R.random((3, 5))
_L /= _L.sum(1, keepdims=True)
_W = _R.random(5)


@pytest.mark.parametrize("xd,wd", [("float64", "float32"), ("float32", "float64")])
@pytest.mark.parametrize("red", ["mean", "sum", "none"])
def test_cross_entropy_soft_label_weight_dtype(xd, wd, red):
    def f(P):
        x = P.to_tensor(_X.astype(xd))
        x.stop_gradient = False
        out = P.nn.functional.cross_entropy(x, P.to_tensor(_L.astype(xd)), soft_label=True,
                                            weight=P.to_tensor(_W.astype(wd)), reduction=red)
        return [out, P.grad(out.sum(), x)[0]]
    assert_same(*both(f))


@pytest.mark.parametrize("eps", [0.0, 0.1])
def test_cross_entropy_smoothed_weight_dtype(eps):
    def f(P):
        x = P.to_tensor(_X)
        lab = P.to_tensor(np.array([0, 3, 1], "int64"))
        return P.nn.functional.cross_entropy(x, lab, weight=P.to_tensor(_W.astype("float32")),
                                             label_smoothing=eps)
    assert_same(*both(f))


@pytest.mark.parametrize("wd", ["float16", "bfloat16", "bool"])
def test_cross_entropy_soft_label_weight_without_cpu_kernel(wd):
    same_exception(lambda P: P.nn.functional.cross_entropy(
        P.to_tensor(_X), P.to_tensor(_L), soft_label=True,
        weight=P.cast(P.to_tensor(_W.astype("float32")), wd)))


# -- matmul family: which float/int operand pairs run ----------------------------------------

def _m(P, dt, v=((1.0, 2.0), (3.0, 4.0))):
    return P.cast(P.to_tensor(np.array(v, "float32")), dt)


_MATMULS = {
    "matmul": lambda P, a, b: P.matmul(a, b),
    "method": lambda P, a, b: a.matmul(b),
    "mm": lambda P, a, b: P.mm(a, b),
    "inner": lambda P, a, b: P.inner(a, b),
    "tensordot": lambda P, a, b: P.tensordot(a, b, axes=1),
    "kron": lambda P, a, b: P.kron(a, b),
}


@pytest.mark.parametrize("api", sorted(_MATMULS))
@pytest.mark.parametrize("xd", ["float64", "float16", "bfloat16"])
@pytest.mark.parametrize("yd", ["int32", "int64"])
def test_matmul_family_non_float32_with_int_is_value_error(api, xd, yd):
    err = same_exception(lambda P: _MATMULS[api](P, _m(P, xd), _m(P, yd)))
    assert isinstance(err, ValueError)
    assert f"paddle.{'matmul' if api == 'method' else api}" in str(err)


@pytest.mark.parametrize("api", sorted(_MATMULS))
@pytest.mark.parametrize("yd", ["int32", "int64"])
def test_matmul_family_float32_with_int(api, yd):
    f = lambda P: _MATMULS[api](P, _m(P, "float32"), _m(P, yd))   # noqa: E731
    if api == "kron":   # kron casts nothing
        same_exception(f)
    else:
        assert_same(*both(f))


@pytest.mark.parametrize("xd", ["float64", "float16"])
@pytest.mark.parametrize("yd", ["int32", "int64"])
def test_matmul_operator_casts_the_int_operand(xd, yd):
    f = lambda P: _m(P, xd) @ _m(P, yd)   # noqa: E731
    if xd == "float16":   # no CPU float16 matmul kernel
        same_exception(f)
    else:
        assert_same(*both(f))


def test_kron_program_records_float_int_pair():
    from tests.reference import both_static

    def f(P):
        x = P.static.data("x", [2, 2], "float64")
        y = P.static.data("y", [2, 2], "int64")
        return [P.kron(x, y).dtype == P.float64]
    ours, theirs = both_static(f, fresh_programs=True)
    assert ours == theirs == [True]


_PROGRAM_MATMULS = {
    "mm": lambda P, a, b: P.mm(a, b),
    "inner": lambda P, a, b: P.inner(a, b),
    "tensordot": lambda P, a, b: P.tensordot(a, b, axes=1),
    "matmul": lambda P, a, b: P.matmul(a, b),
    "kron": lambda P, a, b: P.kron(a, b),
}


@pytest.mark.parametrize("api", sorted(_PROGRAM_MATMULS))
@pytest.mark.parametrize("xd,yd", [("float32", "int64"), ("int32", "float32"), ("float32", "float64"),
                                   ("int64", "int64"), ("complex64", "complex64")])
def test_matmul_family_program_dtypes(api, xd, yd):
    """mm/inner/tensordot's static APIs take float16/32/64 operands only (TypeError while the
    program is built); matmul and kron record a mixed real pair in x's dtype."""
    from tests.reference import both_static

    def f(P):
        x = P.static.data("x", [2, 2], xd)
        y = P.static.data("y", [2, 2], yd)
        try:
            return str(_PROGRAM_MATMULS[api](P, x, y).dtype).replace("paddle.", "")
        except Exception as exc:   # noqa: BLE001
            return type(exc).__name__
    ours, theirs = both_static(f, fresh_programs=True)
    assert ours == theirs


# -- loss weights: an integer weight, a narrower pos_weight, a float16 gathered weight ---------

_P = _R.random((3, 4)) * 0.8 + 0.1
_L01 = _R.integers(0, 2, (3, 4)).astype("float64")
_W4 = _R.random(4) * 3
_CLS = np.array([0, 2, 1])


def _c(P, a, dt):
    return P.to_tensor(np.asarray(a).astype(dt))


_WEIGHTED = {
    "bce": lambda P, xd, wd: P.nn.functional.binary_cross_entropy(
        _c(P, _P, xd), _c(P, _L01, xd), weight=_c(P, _W4, wd)),
    "bce_logits_weight": lambda P, xd, wd: P.nn.functional.binary_cross_entropy_with_logits(
        _c(P, _P, xd), _c(P, _L01, xd), weight=_c(P, _W4, wd)),
    "bce_logits_pos_weight": lambda P, xd, wd: P.nn.functional.binary_cross_entropy_with_logits(
        _c(P, _P, xd), _c(P, _L01, xd), pos_weight=_c(P, _W4, wd)),
    "multi_margin": lambda P, xd, wd: P.nn.functional.multi_margin_loss(
        _c(P, _P, xd), _c(P, _CLS, "int64"), weight=_c(P, _W4, wd)),
    "multi_label_soft_margin": lambda P, xd, wd: P.nn.functional.multi_label_soft_margin_loss(
        _c(P, _P, xd), _c(P, _L01, xd), weight=_c(P, _W4, wd)),
    "cross_entropy": lambda P, xd, wd: P.nn.functional.cross_entropy(
        _c(P, _P, xd), _c(P, _CLS, "int64"), weight=_c(P, _W4, wd), reduction="none"),
    "cross_entropy_probs": lambda P, xd, wd: P.nn.functional.cross_entropy(
        _c(P, _P, xd), _c(P, _CLS, "int64"), weight=_c(P, _W4, wd), use_softmax=False),
}


@pytest.mark.parametrize("api", sorted(_WEIGHTED))
@pytest.mark.parametrize("xd,wd", [("float32", "int64"), ("float64", "int32"), ("float64", "float16"),
                                   ("float64", "float32"), ("float32", "float64"), ("float32", "bool")])
def test_loss_weight_dtypes(api, xd, wd):
    f = lambda P: _WEIGHTED[api](P, xd, wd)   # noqa: E731
    try:
        both(f)
    except Exception:   # noqa: BLE001
        err = same_exception(f)
        if wd.startswith("int") or wd == "bool":
            assert isinstance(err, TypeError) and "weight" in str(err)
        return
    assert_same(*both(f))


@pytest.mark.parametrize("xd,wd", [("float64", "float32"), ("float32", "float64"), ("float32", "int64"),
                                   ("float64", "float16")])
def test_nll_loss_weight_of_another_dtype(xd, wd):
    err = same_exception(lambda P: P.nn.functional.nll_loss(
        _c(P, np.log(_P), xd), _c(P, _CLS, "int64"), weight=_c(P, _W4, wd)))
    assert "paddle.nn.functional.nll_loss" in str(err) and "'weight'" in str(err)


def test_nll_loss_program_records_weight_of_another_dtype():
    from tests.reference import both_static

    def f(P):
        x = P.static.data("x", [3, 4], "float64")
        lab = P.static.data("l", [3], "int64")
        w = P.static.data("w", [4], "float32")
        return str(P.nn.functional.nll_loss(x, lab, weight=w).dtype).replace("paddle.", "")
    ours, theirs = both_static(f, fresh_programs=True)
    assert ours == theirs


# -- shape errors in our own words --------------------------------------------------------------

@pytest.mark.parametrize("vs", [(3, 1), (3,), (1, 4), (4,), (3, 4, 1), (2, 4)])
def test_gaussian_nll_loss_variance_shape(vs):
    def f(P):
        return P.nn.functional.gaussian_nll_loss(_c(P, _P, "float32"), _c(P, _P[::-1], "float32"),
                                                 _c(P, np.full(vs, 0.5), "float32"), reduction="none")
    if vs in ((3, 1), (3,)):
        assert_same(*both(f))
    else:
        assert "'variance'" in str(same_exception(f))


@pytest.mark.parametrize("ls", [(3, 1), (1, 4), (4,), (3, 4, 1)])
def test_sigmoid_focal_loss_label_shape(ls):
    err = same_exception(lambda P: P.nn.functional.sigmoid_focal_loss(
        _c(P, _P, "float32"), _c(P, np.ones(ls), "float32")))
    assert "paddle.nn.functional.sigmoid_focal_loss" in str(err) and "'label'" in str(err)


def test_nll_loss_weight_shape():
    err = same_exception(lambda P: P.nn.functional.nll_loss(
        _c(P, np.log(_P), "float32"), _c(P, _CLS, "int64"), weight=_c(P, np.ones(5), "float32")))
    assert "paddle.nn.functional.nll_loss" in str(err) and "'weight'" in str(err)


_SHAPE_ERRORS = {
    "mm": lambda P: P.mm(P.ones([2, 3]), P.ones([4, 5])),
    "mm_0d": lambda P: P.mm(P.ones([]), P.ones([])),
    "bmm": lambda P: P.bmm(P.ones([2, 2, 3]), P.ones([2, 4, 5])),
    "bmm_batch": lambda P: P.bmm(P.ones([2, 2, 3]), P.ones([3, 3, 5])),
    "mv": lambda P: P.mv(P.ones([2, 3]), P.ones([4])),
    "inner": lambda P: P.inner(P.ones([2, 3]), P.ones([2, 4])),
    "addmm": lambda P: P.addmm(P.ones([2, 2]), P.ones([2, 3]), P.ones([4, 2])),
    "baddbmm": lambda P: P.baddbmm(P.ones([1, 2, 2]), P.ones([1, 2, 3]), P.ones([1, 4, 2])),
}


@pytest.mark.parametrize("case", sorted(_SHAPE_ERRORS))
def test_matmul_family_shape_errors_in_our_words(case):
    msg = str(same_exception(_SHAPE_ERRORS[case]))
    assert msg.startswith(f"paddle.{case.split('_')[0]}:"), msg
    for torch_words in ("mat1", "batch2", "size mismatch", "inner()", "need to be at least", "(received"):
        assert torch_words not in msg, msg


@pytest.mark.parametrize("dt", ["int32", "int64"])
@pytest.mark.parametrize("red", ["mean", "sum", "none"])
def test_l1_loss_integer_inputs(dt, red):
    f = lambda P: P.nn.functional.l1_loss(_c(P, [[1, 5], [2, 0]], dt), _c(P, [[3, 1], [2, 2]], dt),   # noqa: E731
                                          reduction=red)
    if red == "mean":   # no integer mean kernel
        assert "reduction" in str(same_exception(f))
    else:
        assert_same(*both(f))


def test_cross_entropy_soft_label_weight_shape():
    err = same_exception(lambda P: P.nn.functional.cross_entropy(
        _c(P, _P, "float32"), _c(P, _P, "float32"), soft_label=True, weight=_c(P, np.ones(5), "float32")))
    assert "paddle.nn.functional.cross_entropy" in str(err) and "'weight'" in str(err)
