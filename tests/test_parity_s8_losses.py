"""Session-8 sweep of the losses of ``paddle.nn.functional`` / ``paddle.nn`` against real
Paddle 3.3.1: values, gradients, result dtypes and exception types of the cases that differed."""
import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_RNG = np.random.RandomState(8)
_X = _RNG.randn(4, 3).astype("float32")
_Y = (_RNG.rand(4, 3) > 0.5).astype("float32")
_P = _RNG.uniform(0.05, 0.95, (4, 3)).astype("float32")


def _F(fw):
    return fw.nn.functional


def _t(fw, a, grad=False):
    return fw.to_tensor(a, stop_gradient=not grad)


def _value_and_grads(fw, fn, arrs, grads):
    ts = [_t(fw, a, i in grads) for i, a in enumerate(arrs)]
    out = fn(fw, *ts)
    gs = fw.grad(out.sum(), [ts[i] for i in grads], allow_unused=True) if grads else []
    return [out] + list(gs)


def _check(fn, arrs, grads=(0,), rtol=1e-5, atol=1e-6):
    ours, theirs = both(lambda fw: _value_and_grads(fw, fn, arrs, grads))
    assert_same(ours, theirs, rtol=rtol, atol=atol)


# ------------------------------------------------------------------ values, grads, dtypes
def test_nll_loss_4d_non_contiguous_input_backward():
    x = np.log(_RNG.dirichlet(np.ones(4), (2, 3, 2)).transpose(0, 3, 1, 2)).astype("float32")
    lab = _RNG.randint(0, 4, (2, 3, 2))
    for red in ("mean", "sum", "none"):
        _check(lambda fw, x, l, red=red: _F(fw).nll_loss(x, l, reduction=red), [x, lab])


@pytest.mark.parametrize("fn", ["binary_cross_entropy", "binary_cross_entropy_with_logits"])
def test_bce_float64_weight_promotes(fn):
    _check(lambda fw, x, l, w: getattr(_F(fw), fn)(x, l, weight=w), [_P, _Y, _P.astype("float64")])


def test_smooth_l1_mixed_float_dtypes_promote():
    _check(lambda fw, x, l: _F(fw).smooth_l1_loss(x, l), [_X.astype("float64"), _Y])
    _check(lambda fw, x, l: _F(fw).smooth_l1_loss(x, l, is_huber=False, delta=0.5),
           [_X, _Y.astype("float64")], grads=(0,))


@pytest.mark.parametrize("fn,arrs", [
    ("kl_div", [np.log(_P), _P.astype("float64")]),
    ("multi_label_soft_margin_loss", [_X, _Y.astype("float64")]),
    ("poisson_nll_loss", [_X, _Y.astype("float64")]),
])
def test_wider_label_promotes_result(fn, arrs):
    _check(lambda fw, x, l: getattr(_F(fw), fn)(x, l), arrs)


@pytest.mark.parametrize("shape", [(3,), (4, 3)])
@pytest.mark.parametrize("red", ["mean", "sum", "none"])
def test_cosine_embedding_loss_1d_and_2d(shape, red):
    a = _X[0] if len(shape) == 1 else _X
    b = _P[0] if len(shape) == 1 else _P
    lab = np.array([1, -1]) if len(shape) == 1 else np.array([1, -1, 0, 1])
    _check(lambda fw, a, b, l: _F(fw).cosine_embedding_loss(a, b, l, margin=0.2, reduction=red),
           [a, b, lab], grads=(0, 1))


@pytest.mark.parametrize("p", [1, 2, 3])
@pytest.mark.parametrize("margin", [0.7, -0.5])
def test_multi_margin_loss_paddle_formula(p, margin):
    lab = np.array([0, 2, 1, 2])
    w = _RNG.rand(3).astype("float32") + 0.5
    _check(lambda fw, x, l: _F(fw).multi_margin_loss(x, l, p=p, margin=margin), [_X, lab])
    _check(lambda fw, x, l, w: _F(fw).multi_margin_loss(x, l, p=p, margin=margin, weight=w,
                                                       reduction="none"), [_X, lab, w], grads=(0, 2))
    _check(lambda fw, x, l: _F(fw).multi_margin_loss(x, l, p=p, margin=margin),
           [_X, lab[:, None].astype("int32")])


def test_multi_margin_loss_float64_input_float32_weight():
    _check(lambda fw, x, l, w: _F(fw).multi_margin_loss(x, l, weight=w),
           [_X.astype("float64"), np.array([0, 2, 1, 2]), np.ones(3, "float32")])


@pytest.mark.parametrize("lab", [
    [[0, 1, -1], [2, -1, 0], [1, 2, 0], [-1, 0, 0]],
    [[0, 1], [2, -1], [1, 1], [-1, 0]],          # fewer columns than classes: fine in Paddle
])
def test_multi_label_margin_loss(lab):
    for red in ("mean", "none"):
        _check(lambda fw, x, l, red=red: _F(fw).multi_label_margin_loss(x, l, reduction=red),
               [_X, np.array(lab, "int32")])


def test_log_loss_label_has_no_gradient():
    p, y = _P[:, :1].copy(), _Y[:, :1].copy()
    _check(lambda fw, x, l: _F(fw).log_loss(x, l), [p, y], grads=(0, 1))


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("call", [
    # nll_loss reads int64 labels only
    lambda fw: _F(fw).nll_loss(_t(fw, np.log(_P)), _t(fw, np.array([0, 1, 2, 0], "int32"))),
    lambda fw: _F(fw).nll_loss(_t(fw, np.log(_P)), _t(fw, np.array([0, 1, 2, 0], "float32"))),
    # BCE family: two float dtypes are not promoted
    lambda fw: _F(fw).binary_cross_entropy(_t(fw, _P.astype("float64")), _t(fw, _Y)),
    lambda fw: _F(fw).binary_cross_entropy_with_logits(_t(fw, _X), _t(fw, _Y.astype("float64"))),
    lambda fw: _F(fw).binary_cross_entropy_with_logits(_t(fw, _X), _t(fw, _Y),
                                                       pos_weight=_t(fw, np.ones(3))),
    lambda fw: _F(fw).sigmoid_focal_loss(_t(fw, _X.astype("float64")), _t(fw, _Y)),
    lambda fw: _F(fw).sigmoid_focal_loss(_t(fw, _X), _t(fw, _Y), normalizer=_t(fw, np.ones((1, 1), "float32"))),
    lambda fw: _F(fw).smooth_l1_loss(_t(fw, _X), _t(fw, _Y[:1])),
    lambda fw: _F(fw).kl_div(_t(fw, _X), _t(fw, np.ones((4, 3), "int64"))),
    lambda fw: _F(fw).poisson_nll_loss(_t(fw, _X), _t(fw, _Y[:1])),
    lambda fw: _F(fw).gaussian_nll_loss(_t(fw, _X), _t(fw, np.ones((4, 3), "int64")), _t(fw, _P)),
    lambda fw: _F(fw).gaussian_nll_loss(_t(fw, np.ones((4, 3), "int64")), _t(fw, _X), _t(fw, _P)),
    lambda fw: _F(fw).triplet_margin_with_distance_loss(_t(fw, _X), _t(fw, _P), _t(fw, _Y), margin=-1.0),
    lambda fw: _F(fw).cosine_embedding_loss(_t(fw, _X[0]), _t(fw, _P[0]), _t(fw, np.array(1))),
    lambda fw: _F(fw).cosine_embedding_loss(_t(fw, np.ones((2, 3), "int64")), _t(fw, np.ones((2, 3), "int64")),
                                            _t(fw, np.array([1, -1]))),
    lambda fw: _F(fw).cosine_embedding_loss(_t(fw, _X), _t(fw, _P), _t(fw, np.array([True] * 4))),
    lambda fw: _F(fw).multi_margin_loss(_t(fw, _X), _t(fw, np.array([0, 1, 2, 3]))),
    lambda fw: _F(fw).multi_margin_loss(_t(fw, _X), _t(fw, np.array([0, 1, -1, 0]))),
    lambda fw: _F(fw).multi_margin_loss(_t(fw, _X), _t(fw, np.array([0.0, 1.0, 2.0, 0.0], "float32"))),
    lambda fw: _F(fw).multi_margin_loss(_t(fw, _X[0]), _t(fw, np.array([0]))),
    lambda fw: _F(fw).multi_label_margin_loss(_t(fw, _X), _t(fw, np.array([[0, 5, -1]] * 4))),
    lambda fw: _F(fw).multi_label_margin_loss(_t(fw, _X), _t(fw, np.array([[0, 1, -2]] * 4))),
    lambda fw: _F(fw).multi_label_margin_loss(_t(fw, _X), _t(fw, np.array([[0.0, 1.0, -1.0]] * 4, "float32"))),
    lambda fw: _F(fw).multi_label_margin_loss(_t(fw, _X[0]), _t(fw, np.array([0, 1, -1]))),
    lambda fw: _F(fw).hsigmoid_loss(_t(fw, _X), _t(fw, np.array([0, 1, 2, 3], "int32")), 6,
                                    _t(fw, np.ones((5, 3), "float32"))),
    lambda fw: _F(fw).hsigmoid_loss(_t(fw, _X), _t(fw, np.array([0, 1, 2, 3], "float32")), 6,
                                    _t(fw, np.ones((5, 3), "float32"))),
    lambda fw: fw.nn.PoissonNLLLoss(epsilon=0),
], ids=lambda c: "")
def test_bad_input_value_error(call):
    assert isinstance(same_exception(call), ValueError)


@pytest.mark.parametrize("call", [
    lambda fw: _F(fw).mse_loss(_t(fw, _X), _t(fw, np.ones((4, 3), "int64"))),
    lambda fw: _F(fw).l1_loss(_t(fw, _X), _t(fw, np.ones((4, 3), "int64"))),
    lambda fw: _F(fw).square_error_cost(_t(fw, _X), _t(fw, np.ones((4, 3), "int64"))),
    lambda fw: _F(fw).smooth_l1_loss(_t(fw, np.ones((4, 3), "int64")), _t(fw, _X)),
    lambda fw: _F(fw).margin_ranking_loss(_t(fw, _X), _t(fw, _P), _t(fw, np.ones((4, 3), "int64"))),
    lambda fw: _F(fw).multi_label_soft_margin_loss(_t(fw, _X), _t(fw, _Y.astype("int64"))),
    lambda fw: _F(fw).poisson_nll_loss(_t(fw, _X), _t(fw, _Y.astype("int64"))),
    lambda fw: _F(fw).sigmoid_focal_loss(_t(fw, _X), _t(fw, _Y), normalizer=_t(fw, np.array([2], "int64"))),
])
def test_int_float_mix_type_error(call):
    assert isinstance(same_exception(call), TypeError)


@pytest.mark.parametrize("call", [
    lambda fw: _F(fw).dice_loss(_t(fw, _P), _t(fw, np.zeros((4, 1), "float32"))),
    lambda fw: _F(fw).dice_loss(_t(fw, _P), _t(fw, np.zeros((2, 1), "int64"))),
    lambda fw: _F(fw).dice_loss(_t(fw, _P[0]), _t(fw, np.array([1]))),
    lambda fw: _F(fw).dice_loss(_t(fw, np.ones((2, 3), "int64")), _t(fw, np.zeros((2, 1), "int64"))),
])
def test_dice_loss_asserts(call):
    assert isinstance(same_exception(call), AssertionError)


def test_sigmoid_focal_loss_int_label_runtime_error():
    assert isinstance(same_exception(
        lambda fw: _F(fw).sigmoid_focal_loss(_t(fw, _X), _t(fw, _Y.astype("int64")))), RuntimeError)


def _ctc(fw, lab_dt="int32", il_dt="int64", ll_dt="int64"):
    lp = _t(fw, np.random.RandomState(0).randn(6, 2, 4).astype("float32"))
    return _F(fw).ctc_loss(lp, _t(fw, np.array([[1, 2, 3], [3, 3, 1]], lab_dt)),
                           _t(fw, np.array([6, 5], il_dt)), _t(fw, np.array([3, 2], ll_dt)))


def _rnnt(fw, lab_dt="int32", il_dt="int32", ll_dt="int32"):
    x = _t(fw, np.random.RandomState(0).randn(2, 4, 4, 5).astype("float32"))
    return _F(fw).rnnt_loss(x, _t(fw, np.array([[1, 2, 3], [4, 1, 0]], lab_dt)),
                            _t(fw, np.array([4, 3], il_dt)), _t(fw, np.array([3, 2], ll_dt)))


@pytest.mark.parametrize("dts", [("int64", "int64", "int64"), ("float32", "int64", "int64"),
                                 ("int32", "int32", "int64"), ("int32", "int64", "int32")])
def test_ctc_loss_index_dtypes(dts):
    assert isinstance(same_exception(lambda fw: _ctc(fw, *dts)), ValueError)


@pytest.mark.parametrize("dts", [("int64", "int32", "int32"), ("int32", "int64", "int32"),
                                 ("int32", "int32", "int64")])
def test_rnnt_loss_index_dtypes(dts):
    assert isinstance(same_exception(lambda fw: _rnnt(fw, *dts)), ValueError)


def test_ctc_rnnt_documented_dtypes_still_match():
    ours, theirs = both(lambda fw: [_ctc(fw), _rnnt(fw)])
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)
