"""Session-24 loss sweep against real Paddle 3.3.1: soft-label shapes and dtypes of the cross
entropies, small-integer hard labels, multi_label_margin_loss input dtypes, and the shape,
length and blank checks of hsigmoid_loss, ctc_loss and rnnt_loss, and the score dtypes of
metric.accuracy."""
from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

import pagaie  # noqa: E402
from tests.reference import assert_same, both, same_exception, same_static_exception  # noqa: E402

_R = np.random.default_rng(24)
_X = _R.standard_normal((4, 5)).astype("float32")
_LBL = np.array([0, 2, 4, 1])
_SOFT = (lambda s: (s / s.sum(1, keepdims=True)).astype("float32"))(_R.uniform(0.1, 1, (4, 5)))
_X3 = _R.standard_normal((2, 5, 3)).astype("float32")
_SOFT3 = _R.uniform(0.1, 1, (2, 5, 3)).astype("float32")


def _t(P, a, dt=None):
    return P.to_tensor(np.asarray(a) if dt is None else np.asarray(a).astype(dt))


_F = lambda P: P.nn.functional  # noqa: E731

# soft labels of another shape than the input's: Paddle's InvalidArgument (ValueError)
_SOFT_SHAPES = {
    "class_size_1": lambda P, **kw: _F(P).cross_entropy(_t(P, _X), _t(P, _SOFT[:, :1]), soft_label=True, **kw),
    "rows": lambda P, **kw: _F(P).cross_entropy(_t(P, _X), _t(P, _SOFT[:1]), soft_label=True, **kw),
    "rank": lambda P, **kw: _F(P).cross_entropy(_t(P, _X), _t(P, _SOFT[None]), soft_label=True, **kw),
    "axis1_other": lambda P, **kw: _F(P).cross_entropy(_t(P, _X3), _t(P, _SOFT3[:, :, :1]), soft_label=True,
                                                       axis=1, **kw),
    "swce_class_size_1": lambda P, **kw: _F(P).softmax_with_cross_entropy(_t(P, _X), _t(P, _SOFT[:, :1]),
                                                                          soft_label=True),
}


@pytest.mark.parametrize("case", sorted(_SOFT_SHAPES))
def test_soft_label_shape_mismatch(case):
    assert isinstance(same_exception(_SOFT_SHAPES[case]), ValueError)


@pytest.mark.parametrize("kw", [{"use_softmax": False}, {"label_smoothing": 0.1}, {"reduction": "none"}])
def test_soft_label_class_size_with_options(kw):
    assert isinstance(same_exception(lambda P: _SOFT_SHAPES["class_size_1"](P, **kw)), ValueError)


@pytest.mark.parametrize("label", ["int64", "float16", "float64"])
def test_softmax_with_cross_entropy_soft_label_dtype(label):
    """A soft label of another dtype than the logits' is Paddle's ValueError."""
    src = (_SOFT > 0.2) if label == "int64" else _SOFT
    assert isinstance(same_exception(lambda P: _F(P).softmax_with_cross_entropy(
        _t(P, _X), _t(P, src, label), soft_label=True)), ValueError)


def test_soft_label_matching_shape_still_computes():
    def fn(P):
        x = _t(P, _X3)
        x.stop_gradient = False
        out = _F(P).cross_entropy(x, _t(P, _SOFT3), soft_label=True, axis=1, reduction="none")
        return [out, P.grad(out.sum(), x)[0]]
    assert_same(*both(fn))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16"])
@pytest.mark.parametrize("kw", [{}, {"reduction": "none"}, {"label_smoothing": 0.1}, {"use_softmax": False}])
def test_cross_entropy_small_int_label(dt, kw):
    """Paddle has no multiply (one_hot with smoothing) kernel for these label dtypes."""
    assert isinstance(same_exception(
        lambda P: _F(P).cross_entropy(_t(P, np.abs(_X)), _t(P, _LBL, dt), **kw)), RuntimeError)


@pytest.mark.parametrize("dt", ["int8", "int16"])
def test_softmax_with_cross_entropy_small_int_label_computes(dt):
    assert_same(*both(lambda P: _F(P).softmax_with_cross_entropy(_t(P, _X), _t(P, _LBL[:, None], dt))))


_MLM_LABEL = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 1, 2, 3]])


@pytest.mark.parametrize("dt,exc", [("float16", RuntimeError), ("bfloat16", RuntimeError),
                                    ("uint8", RuntimeError), ("int16", RuntimeError),
                                    ("complex64", RuntimeError), ("int32", TypeError), ("bool", TypeError)])
def test_multi_label_margin_loss_input_dtype(dt, exc):
    def fn(P):
        x = _t(P, _X[:3, :4])
        x = x.astype(dt) if dt != "bool" else x > 0
        return _F(P).multi_label_margin_loss(x, _t(P, _MLM_LABEL))
    assert isinstance(same_exception(fn), exc)


@pytest.mark.parametrize("dt", ["int64", "float64"])
def test_multi_label_margin_loss_input_dtype_computes(dt):
    assert_same(*both(lambda P: _F(P).multi_label_margin_loss(_t(P, _X[:3, :4], dt), _t(P, _MLM_LABEL))))


_HW = _R.standard_normal((5, 3)).astype("float32")
_HB = _R.standard_normal((5, 1)).astype("float32")


@pytest.mark.parametrize("inp,label", [(np.ones(3), [0]), (np.ones((1, 3)), 1), (np.ones((3, 3)), [0, 1])])
def test_hsigmoid_loss_rows_mismatch(inp, label):
    assert isinstance(same_exception(lambda P: _F(P).hsigmoid_loss(
        _t(P, inp, "float32"), _t(P, np.array(label)), 6, _t(P, _HW))), ValueError)


@pytest.mark.parametrize("inp,label,weight,bias", [
    (np.ones(3), [0, 1, 2], _HW, None),                 # Paddle: garbage from a 1-D input
    (np.ones((3, 1, 3)), [0, 1, 2], _HW, None),         # Paddle: reads it as [3, 3]
    (np.ones((3, 3)), [[0, 1, 2]] * 3, _HW, None),      # Paddle: reads the first column
    (np.ones((3, 3)), [0, 1, 2], _HW[:, 0], None),      # Paddle: reads past the weight
    (np.ones((3, 3)), [0, 1, 2], _HW[:, :2], None),
    (np.ones((3, 3)), [0, 1, 2], _HW, _HB[:3]),         # Paddle: reads past the bias
])
def test_hsigmoid_loss_shapes_refused(inp, label, weight, bias):
    with pytest.raises(ValueError, match="hsigmoid_loss"):
        _F(pagaie).hsigmoid_loss(_t(pagaie, inp, "float32"), _t(pagaie, np.array(label)), 6,
                                 _t(pagaie, weight), None if bias is None else _t(pagaie, bias))


def test_hsigmoid_loss_label_n1_and_flat_bias_compute():
    def fn(P):
        x, w, b = _t(P, _X[:3, :3]), _t(P, _HW), _t(P, _HB[:, 0])
        for t in (x, w, b):   # (Paddle's backward needs the weight's and bias's gradients)
            t.stop_gradient = False
        out = _F(P).hsigmoid_loss(x, _t(P, np.array([[0], [5], [3]])), 6, w, b)
        return [out] + P.grad(out.sum(), [x, w, b])
    assert_same(*both(fn))


_LP = _R.standard_normal((6, 2, 4)).astype("float32")
_CTC_LABELS = np.array([[1, 2, 2], [3, 1, 0]], "int32")


def _ctc(P, lp=_LP, labels=_CTC_LABELS, il=(6, 5), ll=(3, 2), **kw):
    return _F(P).ctc_loss(_t(P, lp), _t(P, labels), _t(P, np.array(il)), _t(P, np.array(ll)),
                          reduction="none", **kw)


@pytest.mark.parametrize("kw", [{"ll": (4, 2)}, {"lp": _LP[:, 0]}, {"blank": 4}])
def test_ctc_loss_checked_args(kw):
    assert isinstance(same_exception(lambda P: _ctc(P, **kw)), ValueError)


@pytest.mark.parametrize("kw,arg", [({"il": (7, 5)}, "input_lengths"), ({"il": (-1, 5)}, "input_lengths"),
                                    ({"ll": (-1, 2)}, "label_lengths"), ({"il": (6,)}, "input_lengths"),
                                    ({"ll": (3, 2, 1)}, "label_lengths"), ({"labels": _CTC_LABELS[:1]}, "labels")])
def test_ctc_loss_out_of_bounds_refused(kw, arg):
    """Paddle's warp-ctc reads out of bounds here (a crash or garbage): pagaie refuses."""
    with pytest.raises(ValueError, match=f"ctc_loss: .*'{arg}'"):
        _ctc(pagaie, **kw)


_ACTS = _R.standard_normal((2, 4, 3, 3)).astype("float32")
_RL = np.array([[1, 2], [2, 0]], "int32")


def _rnnt(P, acts=_ACTS, label=_RL, il=(4, 3), ll=(2, 1), **kw):
    return _F(P).rnnt_loss(_t(P, acts), _t(P, label), _t(P, np.array(il, "int32")),
                           _t(P, np.array(ll, "int32")), reduction="none", **kw)


@pytest.mark.parametrize("kw", [{"blank": 3}, {"acts": _ACTS[0]}])
def test_rnnt_loss_checked_args(kw):
    assert isinstance(same_exception(lambda P: _rnnt(P, **kw)), ValueError)


@pytest.mark.parametrize("kw,arg", [({"il": (5, 3)}, "input_lengths"), ({"il": (0, 3)}, "input_lengths"),
                                    ({"ll": (3, 1)}, "label_lengths"), ({"label": [[1, 3], [2, 0]]}, "label"),
                                    ({"label": _RL[:1]}, "label"), ({"il": (4,)}, "input_lengths")])
def test_rnnt_loss_out_of_bounds_refused(kw, arg):
    """Paddle's warp-rnnt reads out of bounds here (garbage or a crash): pagaie refuses."""
    if "label" in kw:
        kw = dict(kw, label=np.asarray(kw["label"], "int32"))
    with pytest.raises(ValueError, match=f"rnnt_loss: .*'{arg}'"):
        _rnnt(pagaie, **kw)


def test_rnnt_loss_padding_not_checked():
    """Label values past each label length are padding: any value is read as Paddle reads it."""
    assert_same(*both(lambda P: _rnnt(P, label=np.array([[1, -1], [2, 7]], "int32"), ll=(1, 1))))


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_accuracy_low_float_input(dt):
    """Paddle's CPU accuracy (and topk) kernels have no float16/bfloat16 version."""
    assert isinstance(same_exception(lambda P: P.metric.accuracy(
        _t(P, _X).astype(dt), _t(P, _LBL[:, None]), k=2)), RuntimeError)


@pytest.mark.parametrize("dt", ["float16", "int64"])
def test_accuracy_static_input_dtype(dt):
    """While a program is built, Paddle's accuracy takes float32/float64 scores only."""
    assert isinstance(same_static_exception(lambda P: P.metric.accuracy(
        P.static.data("x", [4, 5], dt), P.static.data("y", [4, 1], "int64"))), TypeError)
