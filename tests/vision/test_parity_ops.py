"""paddle.vision.ops against real Paddle 3.3.1: tied scores in nms and the exceptions of bad inputs."""
import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

RNG = np.random.default_rng(5)
X = RNG.normal(0, 1, (2, 3, 8, 8)).astype("float32")
BOXES = np.array([[1, 1, 5, 5], [0, 0, 7, 7], [2, 1, 6, 3]], "float32")
NUM = np.array([1, 2], "int32")


def _t(fw, a):
    return fw.to_tensor(a)


@pytest.mark.parametrize("call", [
    lambda fw: fw.vision.ops.roi_align(_t(fw, X), _t(fw, BOXES), None, 2),
    lambda fw: fw.vision.ops.roi_pool(_t(fw, X[:1]), _t(fw, BOXES), None, 2),
    lambda fw: fw.vision.ops.RoIAlign(2)(_t(fw, X[:1]), _t(fw, BOXES), None),
])
def test_missing_boxes_num_is_assertion_error(call):
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda fw: fw.vision.ops.roi_align(_t(fw, X), _t(fw, BOXES[:, :3]), _t(fw, NUM), 2),
    lambda fw: fw.vision.ops.roi_pool(_t(fw, X), _t(fw, BOXES[:, :3]), _t(fw, NUM), 2),
    lambda fw: fw.vision.ops.nms(_t(fw, BOXES[:, :3]), 0.5),
    lambda fw: fw.vision.ops.box_coder(_t(fw, BOXES[:, :3]), [0.1] * 4, _t(fw, BOXES)),
    lambda fw: fw.vision.ops.psroi_pool(_t(fw, X), _t(fw, BOXES), _t(fw, NUM), 2),
])
def test_bad_box_or_channel_shapes_are_value_errors(call):
    assert str(same_exception(call)).startswith("paddle.vision.ops.")


TIE_BOXES = np.concatenate([RNG.uniform(0, 40, (40, 2)), np.zeros((40, 2))], 1).astype("float32")
TIE_BOXES[:, 2:] = TIE_BOXES[:, :2] + RNG.uniform(3, 15, (40, 2))
TIE_CATS = RNG.integers(0, 3, 40).astype("int64")


@pytest.mark.parametrize("levels", [1, 2, 4])
@pytest.mark.parametrize("mode", ["plain", "cats", "cats_top_k"])
def test_nms_orders_tied_scores_like_paddle(levels, mode):
    scores = (RNG.integers(0, levels, 40) / levels).astype("float32")

    def fn(fw):
        b, s = fw.to_tensor(TIE_BOXES), fw.to_tensor(scores)
        if mode == "plain":
            return fw.vision.ops.nms(b, 0.3, s)
        top_k = 5 if mode == "cats_top_k" else None
        return fw.vision.ops.nms(b, 0.3, s, fw.to_tensor(TIE_CATS), [0, 1, 2], top_k)
    ours, theirs = both(fn)
    assert_same(ours, theirs)
