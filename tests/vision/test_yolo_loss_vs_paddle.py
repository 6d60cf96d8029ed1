"""paddle.vision.ops.yolo_loss against real Paddle 3.3.1: per-image losses and x-gradients."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref, same_exception

ANCHORS = [10, 13, 16, 30, 33, 23, 30, 61, 62, 45, 59, 119]


def _inputs(seed, mask, class_num=3, n=2, b=5, size=5, dtype="float32", score=False):
    """Random head output and gt boxes; some padding (all-zero / zero-width) boxes included."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, (n, len(mask) * (5 + class_num), size, size)).astype(dtype)
    box = np.concatenate([rng.uniform(0.02, 0.98, (n, b, 2)), rng.uniform(0.02, 0.6, (n, b, 2))], -1).astype(dtype)
    box[0, -1] = 0.0
    box[-1, 1, 2] = 0.0
    label = rng.integers(0, class_num, (n, b)).astype("int32")
    gt_score = rng.uniform(0, 1, (n, b)).astype(dtype) if score else None
    return x, box, label, gt_score


def _run(mod, x, box, label, gt_score, **kw):
    xt = mod.to_tensor(x, stop_gradient=False)
    score = None if gt_score is None else mod.to_tensor(gt_score)
    loss = mod.vision.ops.yolo_loss(xt, mod.to_tensor(box), mod.to_tensor(label), ANCHORS, gt_score=score, **kw)
    weights = np.linspace(0.5, 1.5, loss.shape[0]).astype(x.dtype)   # distinct upstream grad per image
    (loss * mod.to_tensor(weights)).sum().backward()
    return loss, xt.grad


def _check(x, box, label, gt_score=None, **kw):
    ref = paddle_ref()
    ours, theirs = _run(pagaie, x, box, label, gt_score, **kw), _run(ref, x, box, label, gt_score, **kw)
    tol = 1e-5 if x.dtype == np.float32 else 1e-10
    assert_same(ours[0], theirs[0], rtol=tol, atol=tol, what="loss")
    assert_same(ours[1], theirs[1], rtol=tol, atol=tol, what="x.grad")


CASES = [
    dict(anchor_mask=[0, 1, 2], class_num=3, ignore_thresh=0.5, downsample_ratio=8),
    dict(anchor_mask=[3, 4], class_num=3, ignore_thresh=0.3, downsample_ratio=16, use_label_smooth=False),
    dict(anchor_mask=[5], class_num=3, ignore_thresh=0.1, downsample_ratio=32, scale_x_y=1.2),
    dict(anchor_mask=[1, 3, 5], class_num=3, ignore_thresh=0.7, downsample_ratio=8, scale_x_y=1.05),
    dict(anchor_mask=[0, 1], class_num=1, ignore_thresh=0.0, downsample_ratio=8),
    dict(anchor_mask=[2, 3], class_num=50, ignore_thresh=0.4, downsample_ratio=3, use_label_smooth=False),
]


@pytest.mark.parametrize("score", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_loss_and_grad(case, dtype, score):
    kw = CASES[case]
    x, box, label, gt_score = _inputs(case, kw["anchor_mask"], kw["class_num"], dtype=dtype, score=score)
    _check(x, box, label, gt_score, **kw)


KW = dict(anchor_mask=[0, 1, 2], class_num=3, ignore_thresh=0.5, downsample_ratio=8)


def _edit(fn, score=True):
    x, box, label, gt_score = _inputs(7, KW["anchor_mask"], dtype="float64", score=score)
    fn(box, label, gt_score)
    return x, box, label, gt_score


@pytest.mark.parametrize("edit", [
    # several gt boxes in one cell and anchor: the loss adds all, the gradient keeps the last
    lambda b, l, s: b.__setitem__((slice(None), slice(None)), [0.51, 0.49, 0.03, 0.05]),
    # tiny widths/heights (below 1e-6 the box is padding), negative sizes
    lambda b, l, s: (b.__setitem__((0, 0, 2), 9e-7), b.__setitem__((0, 1, 3), 1e-6), b.__setitem__((1, 2, 2), -0.2)),
    # zero and negative scores (a responsible cell whose score is <= 1e-5 is a negative)
    lambda b, l, s: (s.__setitem__((0, slice(None)), 0.0), s.__setitem__((1, slice(0, 2)), -0.3)),
    # labels outside [0, class_num) and a centre at -0.1 (truncated into cell 0)
    lambda b, l, s: (l.__setitem__((0, 0), 7), l.__setitem__((1, 0), -1), b.__setitem__((0, 2, 0), -0.1)),
])
def test_edge_cases(edit):
    _check(*_edit(edit), **KW)


@pytest.mark.parametrize("thresh", [-1.0, 0.0, 0.05, 1.0])
def test_ignore_thresholds(thresh):
    _check(*_inputs(3, KW["anchor_mask"], dtype="float64"), **dict(KW, ignore_thresh=thresh))


def test_no_boxes_duplicate_mask_and_1x1_grid():
    x, box, label, _ = _inputs(4, KW["anchor_mask"], dtype="float64")
    _check(x, box[:, :0], label[:, :0], **KW)
    x2, box2, label2, score2 = _inputs(5, [1, 1], dtype="float64", score=True)
    _check(x2, box2, label2, score2, **dict(KW, anchor_mask=[1, 1]))
    x3, box3, label3, _ = _inputs(6, [0], class_num=2, size=1, n=1, b=2)
    _check(x3, box3, label3, anchor_mask=[0], class_num=2, ignore_thresh=0.5, downsample_ratio=32)


def test_all_padding_gives_pure_negatives():
    x, box, label, _ = _inputs(8, [0], class_num=2, dtype="float64")
    box[:] = 0.0
    loss = pagaie.vision.ops.yolo_loss(pagaie.to_tensor(x), pagaie.to_tensor(box), pagaie.to_tensor(label),
                                       ANCHORS, [0], 2, 0.5, 8)
    obj = x[:, 4]
    expect = (np.maximum(obj, 0) + np.log1p(np.exp(-np.abs(obj)))).reshape(2, -1).sum(1)
    np.testing.assert_allclose(loss.numpy(), expect, rtol=1e-12)
    assert str(loss.dtype) == "paddle.float64"


def _call(x_shape=(2, 16, 4, 4), box_shape=(2, 3, 4), label_shape=(2, 3), anchors=(10, 13, 16, 30),
          mask=(0, 1), class_num=3, label_dtype="int32", box_dtype="float32", score_shape=None):
    def fn(mod):
        score = None if score_shape is None else mod.zeros(list(score_shape), "float32")
        return mod.vision.ops.yolo_loss(mod.zeros(list(x_shape), "float32"), mod.zeros(list(box_shape), box_dtype),
                                        mod.zeros(list(label_shape), label_dtype), list(anchors), list(mask),
                                        class_num, 0.7, 8, gt_score=score)
    return fn


@pytest.mark.parametrize("kw", [
    dict(x_shape=(2, 16, 4, 5)),                 # H != W
    dict(x_shape=(2, 17, 4, 4)),                 # channels != len(mask) * (5 + class_num)
    dict(x_shape=(2, 16, 4)),                    # not 4-D
    dict(box_shape=(2, 3, 3)),                   # gt_box last dim != 4
    dict(label_shape=(2, 2)),                    # gt_label / gt_box mismatch
    dict(label_dtype="int64"),                   # gt_label must be int32
    dict(box_dtype="float64"),                   # gt_box dtype != x dtype
    dict(mask=(0, 2)),                           # anchor_mask beyond anchors
    dict(anchors=(10, 13, 16)),                  # odd anchors
    dict(x_shape=(2, 0, 4, 4), mask=(), class_num=0),   # class_num <= 0
])
def test_errors(kw):
    err = same_exception(_call(**kw))
    assert str(err).startswith("paddle.vision.ops.yolo_loss: ")


def test_error_cases_paddle_does_not_check():
    # Paddle reads out of bounds here; pagaie refuses with a ValueError.
    with pytest.raises(ValueError, match="batch size"):
        _call(x_shape=(3, 16, 4, 4))(pagaie)
    with pytest.raises(ValueError, match="gt_score"):
        _call(score_shape=(2, 4))(pagaie)
    x, box, label, _ = _inputs(9, [0, 1, 2])
    box[0, 0, :2] = 1.0
    with pytest.raises(ValueError, match="centres"):
        pagaie.vision.ops.yolo_loss(pagaie.to_tensor(x), pagaie.to_tensor(box), pagaie.to_tensor(label),
                                    ANCHORS, [0, 1, 2], 3, 0.5, 8)
