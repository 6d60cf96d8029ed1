"""Session-25 parity of the vision ops and the resampling functions of nn.functional against
real Paddle 3.3.1: values, gradients and error types where they differed."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("paddle")

from tests.reference import assert_same, both, same_exception  # noqa: E402

_X4 = np.arange(1, 13, dtype="float64").reshape(1, 1, 3, 4)
_X5 = np.arange(1, 25, dtype="float64").reshape(1, 1, 2, 3, 4)
_NAN, _INF = float("nan"), float("inf")


def _grid_sample_grads(P, x, grid, **kw):
    xt, gt = P.to_tensor(x), P.to_tensor(grid)
    xt.stop_gradient = gt.stop_gradient = False
    out = P.nn.functional.grid_sample(xt, gt, **kw)
    out.sum().backward()
    return [out, xt.grad, gt.grad]


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["border", "reflection"])
@pytest.mark.parametrize("align_corners", [True, False])
@pytest.mark.parametrize("bad", [_NAN, _INF, -_INF])
def test_grid_sample_non_finite_grid(mode, padding_mode, align_corners, bad):
    # a NaN coordinate (an infinite one unless the border clamps it) is sampled nowhere: NaN
    # bilinear, 0 nearest, with Paddle's gradients (torch clamped it to a border pixel, and
    # its backward crashed)
    grid = np.array([[[[bad, 0.0], [0.0, bad], [bad, _NAN], [0.3, 0.2], [1e10, -0.5]]]])
    ours, theirs = both(lambda P: _grid_sample_grads(P, _X4, grid, mode=mode, padding_mode=padding_mode,
                                                     align_corners=align_corners))
    assert_same(ours, theirs)


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_non_finite_grid_5d(padding_mode):
    grid = np.array([[[[[_NAN, 0.0, 0.1], [0.2, -0.4, 0.9], [0.0, 0.5, _INF]]]]])
    # (torch read 0 in a volume, even with zeros padding)
    ours, theirs = both(lambda P: _grid_sample_grads(P, _X5, grid, padding_mode=padding_mode))
    assert_same(ours, theirs)


_PRIORS = np.array([[0, 0, 2, 2], [1, 1, 3, 4]], "float32")


@pytest.mark.parametrize("code_type,target,axis", [
    ("decode_center_size", np.full((1, 2, 4), 0.5, "float32"), 2),
    ("decode_center_size", np.full((1, 2, 4), 0.5, "float32"), -1),
    ("decode_center_size", np.full((1, 2, 4), 0.5, "float32"), True),
    ("encode_center_size", np.array([[0.5, 0.5, 2, 3]], "float32"), True),
])
def test_box_coder_axis_errors(code_type, target, axis):
    # a decoding axis other than 0 / 1 is a ValueError, a bool axis a TypeError (pagaie
    # decoded along a wrong axis, or failed later with another message)
    same_exception(lambda P: P.vision.ops.box_coder(P.to_tensor(_PRIORS), [0.1, 0.1, 0.2, 0.2],
                                                    P.to_tensor(target), code_type, axis=axis))


def test_box_coder_encode_ignores_axis():
    # encoding does not read axis, whatever its value
    ours, theirs = both(lambda P: P.vision.ops.box_coder(
        P.to_tensor(_PRIORS), [0.1, 0.1, 0.2, 0.2], P.to_tensor(np.array([[0.5, 0.5, 2, 3]], "float32")),
        "encode_center_size", axis=2))
    assert_same(ours, theirs)


@pytest.mark.parametrize("boxes_need_grad", [False, True])
@pytest.mark.parametrize("scores_need_grad", [False, True])
@pytest.mark.parametrize("with_categories", [False, True])
def test_nms_stop_gradient(boxes_need_grad, scores_need_grad, with_categories):
    # sorted by scores without categories, the kept indices say the scores' stop_gradient
    # (Paddle's argsort indices); per category they say True
    def run(P):
        boxes = P.to_tensor(np.array([[0, 0, 2, 2], [1, 1, 3, 3], [5, 5, 6, 6]], "float32"))
        scores = P.to_tensor(np.array([0.5, 0.6, 0.7], "float32"))
        boxes.stop_gradient, scores.stop_gradient = not boxes_need_grad, not scores_need_grad
        cats = dict(category_idxs=P.to_tensor(np.array([0, 1, 0])), categories=[0, 1]) if with_categories else {}
        kept = P.vision.ops.nms(boxes, 0.3, scores=scores, **cats)
        return [kept, kept.stop_gradient]
    ours, theirs = both(run)
    assert_same(ours, theirs)
