"""Session-10 sweep of paddle.vision.ops against real Paddle 3.3.1: argument types and shapes
(box_coder variances, RoI boxes_num, int-only attributes), empty inputs, NaN confidences in
yolo_box and the order of tied scores in matrix_nms."""
import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

R = np.random.RandomState(10)
X = R.normal(0, 1, (2, 8, 9, 10)).astype("float32")
BOXES = np.array([[1, 1, 6, 5], [0.3, 2.2, 8.7, 8.1], [-3, -2, 14, 13]], "float32")
NUM = np.array([1, 2], "int32")
PRIOR = np.array([[1, 2, 8, 9], [3, 1, 6, 7], [0, 0, 4, 5]], "float32")
TARGET = np.array([[2, 2, 9, 8], [1, 0, 5, 4]], "float32")
ANCHORS = [10, 13, 16, 30]


def _t(fw, a, dtype=None):
    return fw.to_tensor(np.asarray(a) if dtype is None else np.asarray(a).astype(dtype))


def _ops(fw):
    return fw.vision.ops


# box_coder: a Tensor variance is [M, 4] of the prior's dtype; None is a TypeError.

BAD_VARS = {
    "none": lambda fw: None,
    "1d": lambda fw: _t(fw, [0.1, 0.1, 0.2, 0.2], "float32"),
    "3d": lambda fw: _t(fw, np.full((1, 3, 4), 0.1), "float32"),
    "float64": lambda fw: _t(fw, np.full((3, 4), 0.1), "float64"),
    "int32": lambda fw: _t(fw, np.ones((3, 4)), "int32"),
}


# (real Paddle aborts on a variance dtype mix when decoding: encoding only there)
@pytest.mark.parametrize("code_type,var", [("encode_center_size", v) for v in sorted(BAD_VARS)] +
                         [("decode_center_size", v) for v in ("none", "1d", "3d")])
def test_box_coder_bad_variance(code_type, var):
    target = TARGET if code_type.startswith("encode") else np.zeros((2, 3, 4), "float32")
    exc = same_exception(lambda fw: _ops(fw).box_coder(_t(fw, PRIOR), BAD_VARS[var](fw), _t(fw, target), code_type))
    assert str(exc).startswith("paddle.vision.ops.box_coder")


# prior_box: max_sizes must be a list (each above its min size); one zero step derives both.

@pytest.mark.parametrize("kw", [{"max_sizes": 9.0}, {"max_sizes": [0.0]}, {"max_sizes": [-1.0]}],
                         ids=["scalar", "zero", "negative"])
def test_prior_box_bad_max_sizes(kw):
    same_exception(lambda fw: _ops(fw).prior_box(fw.zeros([1, 4, 3, 5]), fw.zeros([1, 3, 30, 50]), [4.0], **kw))


@pytest.mark.parametrize("feat,kw", [
    ((1, 4, 3, 5), {"min_sizes": [4.0], "steps": [5.0, 0.0]}),
    ((1, 4, 3, 5), {"min_sizes": [4.0, 6.0], "max_sizes": [], "steps": (0.0, 7.0), "offset": 0.2}),
    ((1, 4, 3, 5), {"min_sizes": []}),
    ((1, 4, 0, 5), {"min_sizes": [4.0], "aspect_ratios": [2.0], "flip": True}),
], ids=["step_h_zero", "step_w_zero", "no_min_sizes", "empty_feature_map"])
def test_prior_box_steps_and_empty(feat, kw):
    ours, theirs = both(lambda fw: _ops(fw).prior_box(fw.zeros(list(feat)), fw.zeros([1, 3, 30, 50]), **kw))
    assert_same(ours, theirs)


# yolo_box / yolo_loss: anchors, class_num and downsample_ratio are ints (TypeError otherwise).

YX = R.normal(0, 2, (2, 16, 3, 4)).astype("float32")
YSIZE = np.array([[64, 80], [50, 61]], "int32")


@pytest.mark.parametrize("args", [([10.5, 13, 16, 30], 16), (ANCHORS, 16.0)], ids=["anchors", "downsample"])
def test_yolo_box_float_attributes_are_type_errors(args):
    same_exception(lambda fw: _ops(fw).yolo_box(_t(fw, YX), _t(fw, YSIZE), args[0], 3, 0.3, args[1]))


@pytest.mark.parametrize("clip_bbox", [True, False])
def test_yolo_box_nan_confidence_is_kept(clip_bbox):
    x = YX.copy()
    x[0, 0, 0, 0] = np.nan    # a NaN centre: clipped to the image with clip_bbox
    x[0, 4, 0, 1] = np.nan    # a NaN confidence: the box is kept, its scores NaN
    x[1, 5, 2, 3] = np.nan    # a NaN class logit
    ours, theirs = both(lambda fw: _ops(fw).yolo_box(_t(fw, x), _t(fw, YSIZE), ANCHORS, 3, 0.3, 16,
                                                     clip_bbox=clip_bbox))
    assert_same(ours, theirs)


LX = R.normal(0, 1, (2, 16, 4, 4)).astype("float32")
LBOX = np.concatenate([R.uniform(0.1, 0.9, (2, 3, 2)), R.uniform(0.05, 0.5, (2, 3, 2))], -1).astype("float32")
LLABEL = R.randint(0, 3, (2, 3)).astype("int32")


@pytest.mark.parametrize("args", [([10.5, 13, 16, 30, 33, 23], 3, 8), ([10, 13, 16, 30, 33, 23], 3.0, 8),
                                  ([10, 13, 16, 30, 33, 23], 3, 8.0)], ids=["anchors", "class_num", "downsample"])
def test_yolo_loss_float_attributes_are_type_errors(args):
    anchors, class_num, ratio = args
    same_exception(lambda fw: _ops(fw).yolo_loss(_t(fw, LX), _t(fw, LBOX), _t(fw, LLABEL), anchors, [0, 1],
                                                 class_num, 0.5, ratio))


# RoI ops: boxes_num is a 1-D integer Tensor of one count per image.

ROI_OPS = {
    "roi_align": lambda fw, x, b, n, **k: _ops(fw).roi_align(x, b, n, 2, **k),
    "roi_pool": lambda fw, x, b, n, **k: _ops(fw).roi_pool(x, b, n, 2, **k),
    "psroi_pool": lambda fw, x, b, n, **k: _ops(fw).psroi_pool(x, b, n, 2, **k),
}

BAD_NUMS = {
    "ndarray": lambda fw: NUM,
    "list": lambda fw: [1, 2],
    "2d": lambda fw: _t(fw, NUM[None]),
    "one_count_for_two_images": lambda fw: _t(fw, [3], "int32"),
}


@pytest.mark.parametrize("nums", sorted(BAD_NUMS))
@pytest.mark.parametrize("op", sorted(ROI_OPS))
def test_roi_bad_boxes_num_is_value_error(op, nums):
    exc = same_exception(lambda fw: ROI_OPS[op](fw, _t(fw, X), _t(fw, BOXES), BAD_NUMS[nums](fw)))
    assert str(exc).startswith(f"paddle.vision.ops.{op}") or op == "roi_align" and nums in ("ndarray", "list")


@pytest.mark.parametrize("op", ["roi_pool", "psroi_pool"])
@pytest.mark.parametrize("dtype", ["int64", "float32"])
def test_roi_pool_boxes_num_must_be_int32(op, dtype):
    same_exception(lambda fw: ROI_OPS[op](fw, _t(fw, X), _t(fw, BOXES), _t(fw, NUM, dtype)))


def test_roi_align_int64_boxes_num_and_empty_feature_map():
    ours, theirs = both(lambda fw: ROI_OPS["roi_align"](fw, _t(fw, X), _t(fw, BOXES), _t(fw, NUM, "int64")))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)
    ours, theirs = both(lambda fw: ROI_OPS["roi_align"](fw, _t(fw, X[:, :, :0]), _t(fw, BOXES), _t(fw, NUM)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("call", [
    lambda fw: _ops(fw).roi_align(_t(fw, X), _t(fw, BOXES), _t(fw, NUM), 2, aligned=1),
    lambda fw: _ops(fw).roi_align(_t(fw, X), _t(fw, BOXES), _t(fw, NUM), _t(fw, 2, "int32")),
    lambda fw: _ops(fw).roi_pool(_t(fw, X), _t(fw, BOXES), _t(fw, NUM), _t(fw, 2, "int32")),
], ids=["aligned_int", "roi_align_0d_output_size", "roi_pool_0d_output_size"])
def test_roi_attribute_types(call):
    same_exception(call)


@pytest.mark.parametrize("op", sorted(ROI_OPS))
def test_roi_negative_boxes_num_is_a_named_value_error(op):
    # Paddle crashes (heap corruption) here; pagaie refuses with its own message.
    with pytest.raises(ValueError, match=f"paddle.vision.ops.{op}: 'boxes_num' must not be negative"):
        ROI_OPS[op](pagaie, _t(pagaie, X), _t(pagaie, BOXES), _t(pagaie, [-1, 4], "int32"))


@pytest.mark.parametrize("op", ["roi_align", "psroi_pool"])
def test_roi_nan_boxes_are_a_named_value_error(op):
    boxes = BOXES.copy()
    boxes[1, 2] = np.nan
    with pytest.raises(ValueError, match=f"paddle.vision.ops.{op}: 'boxes' must hold finite"):
        ROI_OPS[op](pagaie, _t(pagaie, X), _t(pagaie, boxes), _t(pagaie, NUM))


# deform_conv2d: a 1-D bias, a positive output size; an empty batch gives an empty output.

DX = R.normal(0, 1, (2, 4, 6, 5)).astype("float32")
DW = R.normal(0, 1, (6, 4, 3, 3)).astype("float32")
DOFF = R.normal(0, 2, (2, 18, 4, 3)).astype("float32")


@pytest.mark.parametrize("call", [
    lambda fw: _ops(fw).deform_conv2d(_t(fw, DX), _t(fw, DOFF), _t(fw, DW), fw.ones([1, 6])),
    lambda fw: _ops(fw).deform_conv2d(_t(fw, DX[:, :, :2]), _t(fw, DOFF[:, :, :0]), _t(fw, DW)),
], ids=["bias_2d", "output_size_0"])
def test_deform_conv2d_bad_shapes_are_value_errors(call):
    assert str(same_exception(call)).startswith("paddle.vision.ops.deform_conv2d")


def test_deform_conv2d_empty_batch():
    ours, theirs = both(lambda fw: _ops(fw).deform_conv2d(_t(fw, DX[:0]), _t(fw, DOFF[:0]), _t(fw, DW),
                                                          fw.ones([6])))
    assert_same(ours, theirs)


# distribute_fpn_proposals / generate_proposals / matrix_nms argument checks.

FPN_ROIS = np.array([[0, 0, 10, 10], [0, 0, 100, 100], [5, 5, 300, 300], [1, 1, 30, 50]], "float32")


@pytest.mark.parametrize("call", [
    lambda fw: _ops(fw).distribute_fpn_proposals(_t(fw, FPN_ROIS), 2, 5, 4.5, 224,
                                                 rois_num=_t(fw, [2, 2], "int32")),
    lambda fw: _ops(fw).distribute_fpn_proposals(_t(fw, FPN_ROIS), 2, 5, 4, 224.0,
                                                 rois_num=_t(fw, [2, 2], "int32")),
    lambda fw: _ops(fw).distribute_fpn_proposals(_t(fw, FPN_ROIS), 2, 5, 4, 224, rois_num=[2, 2]),
    lambda fw: _ops(fw).distribute_fpn_proposals(_t(fw, FPN_ROIS, "int32"), 2, 5, 4, 224,
                                                 rois_num=_t(fw, [2, 2], "int32")),
], ids=["refer_level_float", "refer_scale_float", "rois_num_list", "int_rois"])
def test_distribute_fpn_proposals_argument_errors(call):
    same_exception(call)


def _proposal_inputs(fw, size_dtype="float32"):
    rng = np.random.default_rng(1)
    n, a, h, w = 1, 2, 3, 3
    anchors = np.tile(np.array([[0, 0, 8, 8], [0, 0, 16, 12]], "float32"), (h, w, 1, 1))
    return (_t(fw, rng.uniform(0, 1, (n, a, h, w)), "float32"), _t(fw, rng.normal(0, .5, (n, 4 * a, h, w)), "float32"),
            _t(fw, [[30, 30]], size_dtype), _t(fw, anchors), _t(fw, np.ones((h, w, a, 4)), "float32"))


def test_generate_proposals_img_size_dtype_must_match_scores():
    same_exception(lambda fw: _ops(fw).generate_proposals(*_proposal_inputs(fw, "int32"), return_rois_num=True))


MN_BOXES = np.concatenate([R.uniform(0, 0.6, (2, 30, 2)), np.zeros((2, 30, 2))], -1).astype("float32")
MN_BOXES[..., 2:] = MN_BOXES[..., :2] + R.uniform(0.05, 0.4, (2, 30, 2))


def test_matrix_nms_float_background_label_is_type_error():
    same_exception(lambda fw: _ops(fw).matrix_nms(_t(fw, MN_BOXES), _t(fw, R.rand(2, 3, 30), "float32"), 0.1, 0.1,
                                                  10, 10, background_label=0.0))


@pytest.mark.parametrize("seed", range(4))
def test_matrix_nms_tied_scores_keep_paddles_order(seed):
    rng = np.random.default_rng(seed)
    levels = int(rng.integers(1, 4))
    scores = (rng.integers(0, levels + 1, (2, 3, 30)) / levels).astype("float32")
    kw = dict(nms_top_k=[-1, 7, 12, 25][seed], keep_top_k=[-1, 9, 20, 5][seed], use_gaussian=bool(seed % 2),
              background_label=[0, -1, 2, 1][seed], return_index=True)
    ours, theirs = both(lambda fw: _ops(fw).matrix_nms(_t(fw, MN_BOXES), _t(fw, scores), 0.1, 0.05, **kw))
    assert_same(ours, theirs)


def test_matrix_nms_top_k_zero_keeps_nothing():
    # Paddle segfaults on nms_top_k=0; pagaie keeps no candidate.
    out, num, index = _ops(pagaie).matrix_nms(_t(pagaie, MN_BOXES), _t(pagaie, R.rand(2, 3, 30), "float32"), 0.1, 0.1,
                                              0, -1, return_index=True)
    assert out.shape == [0, 6] and num.tolist() == [0, 0] and index.shape == [0, 1]


# decode_jpeg / read_file errors.

def test_decode_jpeg_non_uint8_is_runtime_error():
    same_exception(lambda fw: _ops(fw).decode_jpeg(_t(fw, np.arange(10), "float32")))


def test_decode_jpeg_and_read_file_errors_name_the_api(tmp_path):
    # Paddle decodes on GPU only; pagaie decodes on the CPU and names itself when it cannot.
    with pytest.raises(ValueError, match="paddle.vision.ops.decode_jpeg: 'x' does not hold a decodable image"):
        _ops(pagaie).decode_jpeg(_t(pagaie, np.arange(10), "uint8"))
    with pytest.raises(IsADirectoryError, match="paddle.vision.ops.read_file"):
        _ops(pagaie).read_file(str(tmp_path))
